#!/usr/bin/perl
# 69-big-record.t - the analyser survives the record of a large code base
# (issue 6): a generated program of 600 functions with three loops each,
# half of them called, recorded in one single-threaded run.  That is one
# segment over about 2700 costs that ran and 2700 that did not; the dense
# cost fit (an SVD with a row and a column per cost, repeated by the
# active set) did not finish in minutes, and a dense covariance of every
# cost took hundreds of megabytes.  show, predict and graph must finish
# under a generous timeout (a hang detector, not a performance claim; the
# expected run is well under a second) and a memory bound, with the right
# counts: the called functions' loops ran n, n and 2n times, the others
# not at all, and those take their cost from the static prior (show's *).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
my $NF = 600;

open my $c, '>', "$tmp/big.c" or die "$tmp/big.c: $!";
print $c "#include <stdlib.h>\nstatic volatile double sink;\n";
for my $i (0 .. $NF - 1) {
    print $c "__attribute__((noinline)) static void f$i(int n)\n{\n    double s = 0;\n",
        "    for (int i = 0; i < n + $i % 7; i++)\n        s += i * $i.5;\n",
        "    for (int i = 0; i < n; i++)\n        s -= i;\n",
        "    for (int i = 0; i < 2 * n; i++)\n        s *= 1.0000001;\n    sink = s;\n}\n";
}
print $c "int main(int argc, char **argv)\n{\n    int n = argc > 1 ? atoi(argv[1]) : 10;\n";
# the even functions run (n >= 0), the odd ones never
print $c "    if (n ", ($_ % 2 ? '<' : '>='), " 0)\n        f$_(n);\n" for 0 .. $NF - 1;
print $c "    return 0;\n}\n";
close $c;
system("gcc -O1 $san -fplugin=$B/perfpred.so $tmp/big.c -o $tmp/big -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build the generated program');
system("PERFPRED_RECORD=$tmp/big.ppr $tmp/big 20") == 0 or BAIL_OUT('the generated program failed');

# a hang detector and a memory bound (virtual memory: not under ASan,
# which reserves terabytes of address space)
my $limit = $ENV{SANITIZE} ? '' : 'ulimit -v 1500000; ';
sub run {
    my ($args) = @_;
    my $out = `$limit timeout -k 5 120 $pp $args 2>$tmp/err`;
    my $rc = $? >> 8;
    my $err = do { local $/; open my $f, '<', "$tmp/err"; <$f> // '' };
    return ($rc, $out, $err);
}

my ($rc, $out, $err) = run("show $tmp/big.ppr");
is($rc, 0, 'show finishes') or diag($err);
my %loop;
for (split /\n/, $out) {
    $loop{"$1:L$2"} = [$3, $4] if /^\s+f(\d+):L(\d)\s+\S+\s+\S+\s+(\d+)\s+\d+\s+\S+\s+\d+\s+([\d.]+\*?)/;
}
is(scalar keys %loop, 3 * $NF, 'every loop of every function is listed');
my ($ran, $still, $wrong, $starred) = (0, 0, 0, 0);
for my $i (0 .. $NF - 1) {
    my @want = $i % 2 ? (0, 0, 0) : (20 + $i % 7, 20, 40);
    for my $k (0 .. 2) {
        my $l = $loop{"$i:L$k"} or next;
        $wrong++ if $l->[0] != $want[$k];
        if ($i % 2) {
            $still++;
            $starred++ if $l->[1] =~ /\*$/;
        } else {
            $ran++;
        }
    }
}
is($wrong, 0, 'every loop ran the recorded number of times (n + i % 7, n, 2n in the called functions; 0 in the others)');
is($ran, 3 * $NF / 2, 'half the loops ran');
is($starred, $still, 'every loop that never ran has its cost from the static prior (*)');

($rc, $out, $err) = run("predict $tmp/big.ppr --P 4 --format json");
is($rc, 0, 'predict finishes') or diag($err);
my $j = eval { decode_json($out) } || {};
ok(($j->{T1} // 0) > 0 && ($j->{time}{real} // 0) > 0, 'predict gives T1 and T_real');
ok(ref $j->{interval} eq 'ARRAY' && $j->{interval}[0] <= $j->{time}{real} && $j->{interval}[1] >= $j->{time}{real},
   'with an interval around T_real');

($rc, $out, $err) = run("graph $tmp/big.ppr");
is($rc, 0, 'graph finishes') or diag($err);
like($out, qr/digraph/, 'and draws the graph');

done_testing();
