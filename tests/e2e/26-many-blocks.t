#!/usr/bin/perl
# 26-many-blocks.t - events in a program that registers many functions
# (a real code base: SQLite registers thousands).  A generated program
# calls 1000 functions with a loop each once, then locks and unlocks a
# mutex 2000 times: the record must hold every event and the exact counts
# (the deltas sum to them, docs/record-format.md), and what the runtime
# allocates per event must not grow with the registered slots (it used to
# reserve room for a delta of every slot at every event: a 64 KiB chunk
# lasted one event).  The allocations are counted by valgrind (exact, no
# timing), and so are the instructions of the run against one with 20
# functions; that part is skipped without valgrind.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred-gcc") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir('pp-blocks-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $san = ($ENV{SANITIZE} // '') eq '1';
my ($NF, $NI) = (1000, 2000);

# many.c with NF functions: f_i(3) each once, then the lock loop
sub gen {
    my ($path, $nf) = @_;
    open my $src, '>', $path or die "$path: $!";
    print $src "#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n",
        "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nvolatile long sink;\n";
    print $src "__attribute__((noinline)) long f$_(int n) { long s = 0; for (int i = 0; i < n; i++) "
        . "{ if (i & 1) s += i; else s ^= i; } sink = s; return s; }\n" for 0 .. $nf - 1;
    print $src "int main(int argc, char **argv) {\n  int n = argc > 1 ? atoi(argv[1]) : 1;\n  long s = 0;\n";
    print $src "  s += f$_(3);\n" for 0 .. $nf - 1;
    print $src "  for (int i = 0; i < n; i++) { pthread_mutex_lock(&m); s += f0(i & 7); ",
        "pthread_mutex_unlock(&m); }\n  printf(\"%ld\\n\", s);\n  return 0;\n}\n";
    close $src;
}
gen("$tmp/many.c", $NF);
gen("$tmp/few.c", 20);

my $flags = $san ? '-fsanitize=address,undefined' : '';
for my $p (qw(many few)) {
    my $log = `$B/perfpred-gcc -O2 -pthread $flags -o $tmp/$p $tmp/$p.c 2>&1`;
    ok($? == 0, "the generated program ($p functions) builds with the plugin") or diag($log);
}

# the sum the program prints: f_i(3) = 3 each, f0(i & 7) in the loop
my $want = 3 * $NF;
for my $i (0 .. $NI - 1) {
    my ($s, $k) = (0, $i & 7);
    for my $j (0 .. $k - 1) { if ($j & 1) { $s += $j } else { $s ^= $j } }
    $want += $s;
}
my $out = `PERFPRED_RECORD=$tmp/many.ppr $tmp/many $NI 2>&1`;
is($out, "$want\n", 'the program prints what it computes');
my $r = ppr_read("$tmp/many.ppr");
my @err = ppr_check($r);
ok(!@err, 'the record keeps the invariants (deltas sum to the counts)') or diag(join("\n", @err[0 .. ($#err < 9 ? $#err : 9)]));
my %kinds;
$kinds{$_->{kind}}++ for @{$r->{evs}};
is($kinds{lock} // 0, $NI, "$NI lock events");
is($kinds{unlock} // 0, $NI, "$NI unlock events");
my $f1 = ppr_func($r, 'f1');
my $f0 = ppr_func($r, 'f0');
ok(defined $f1 && defined $f0, 'f0 and f1 are in the record');
my $t0 = $r->{threads}{0};
# (by name: a sanitized build instruments a module constructor of its own)
my @nocount = grep { my $f = ppr_func($r, $_); !defined $f || !$t0->{counts}{$f} } 'main', map { "f$_" } 0 .. $NF - 1;
ok(!@nocount, 'main and every f_i have a count line') or diag("no count line: @nocount[0 .. ($#nocount < 9 ? $#nocount : 9)]");
# f1 ran once before the first event: its deltas are all in the first one
my @f1d = map { [ grep { $_->[0] == $f1 } @{$_->{d}} ] } @{$t0->{evs}};
ok(@{$f1d[0]} > 0 && !grep({ @$_ } @f1d[1 .. $#f1d]), 'an idle function has deltas only before its first event');
# f0 runs in every lock..unlock segment: its loop entry counter moves in each
my $unl = grep { $_->{kind} eq 'unlock' && grep { $_->[0] == $f0 } @{$_->{d}} } @{$t0->{evs}};
is($unl, $NI, 'every unlock event holds f0\'s increments of its segment');

SKIP: {
    skip 'valgrind not installed', 4 unless `sh -c 'command -v valgrind'` =~ /\S/;
    skip 'sanitized build (valgrind does not run it)', 4 if $san;
    my $vg = `PERFPRED_RECORD=$tmp/vg.ppr valgrind --tool=memcheck $tmp/many $NI 2>&1`;
    my ($allocs, $bytes) = $vg =~ /total heap usage: ([\d,]+) allocs, [\d,]+ frees, ([\d,]+) bytes allocated/;
    ok(defined $bytes, 'valgrind reports the heap usage') or diag($vg);
    s/,//g for grep { defined } $allocs, $bytes;
    # 4000 events with a few deltas each fit in a few 64 KiB chunks; the
    # registered slots (about 6000) take a block and a shadow each.  One
    # chunk per event (the old reservation) would be 4000 allocations of
    # 100 KB.
    ok(defined $allocs && $allocs < 2 * $NF + 500 && $bytes < 8_000_000,
       "allocations do not grow per event with the registered slots ($allocs allocs, $bytes bytes)");
    # Instructions (callgrind: exact, not time) of the whole run with
    # $NF registered functions against 20, per event and registered
    # function: a pass over every block's slots at every event cost about
    # 57 (the first runtime: 5.5x the 20-function run); comparing the
    # counter ranges with memcmp about 10, most of the rest being the
    # registrations and the longer record.
    my %ir;
    for my $p (qw(many few)) {
        my $cg = `PERFPRED_RECORD=$tmp/cg-$p.ppr valgrind --tool=callgrind --callgrind-out-file=/dev/null $tmp/$p $NI 2>&1`;
        ($ir{$p}) = $cg =~ /Collected : (\d+)/;
    }
    ok(defined $ir{many} && defined $ir{few}, 'callgrind counts the instructions');
    my $nev = 0;
    if (open my $rf, '<', "$tmp/cg-many.ppr") {
        while (<$rf>) { $nev++ if /^ev / }
    }
    my $per = $ir{few} && $nev ? (($ir{many} // 0) - $ir{few}) / $nev / $NF : 0;
    ok($nev > 0 && $per > 0 && $per < 25,
       sprintf('%d idle functions cost %.1f instructions each per event (%s against %s instructions, %d events)',
               $NF, $per, $ir{many} // '?', $ir{few} // '?', $nev));
}
done_testing();
