#!/usr/bin/env perl
# 17-ivbranch.t - branches that compare an induction variable (step 1 or
# -1) for equality with a value from before the loop are counted at loop
# entry (plugin/pp-ivbranch.cc): the verbose report says so for each, the
# program prints what it prints without the plugin, and the true and false
# counts (the false one derived from the loop's counters, fslot=) are the
# hand-computed ones of tests/plugin/ivbranch/ivbranch.c, at -O0, -O2 and
# -O3: a global bound reloaded in the loop (j + 1 == J), a parameter inside
# and outside the range, a loop with no iteration, a loop counting down,
# != and a constant.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $BD = $ENV{PERFPRED_BUILD} // 'build';
my $PL = "-fplugin=$BD/perfpred.so";
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
my $TMP = tempdir('pp-ivbranch-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SRC = 'tests/plugin/ivbranch/ivbranch.c';

sub run { my ($cmd) = @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }

my ($rc, $out) = run("gcc -O2 $SRC -o $TMP/plain");
is($rc, 0, 'plain build') or diag($out);
my $want = `$TMP/plain 100`;
is($want, "135 306 298\n", 'the plain program');

# function, branch id => "true false"
my %want = (
    'wrap 0'     => '27 3',     # j + 1 != J: 3 calls of 10 iterations, one of none
    'eq_param 0' => '1 299',    # i == k: k = 5 in [0, 100); 200, -1 outside; n = 0
    'ne_down 0'  => '98 1',     # i != m: m = 10 in [0, 50); 60 outside [0, 49)
    'ne_down 1'  => '2 97',     # i == 3
);

for my $opt ('-O0', '-O2', '-O3') {
    ($rc, $out) = run("gcc $opt$SAN $PL -fplugin-arg-perfpred-verbose $SRC -o $TMP/prog -L$BD -l:libperfpred-rt.a");
    is($rc, 0, "$opt: build with the plugin and the runtime") or diag($out);
    my %entry;
    $entry{"$1 $2"} = 1 while $out =~ /^perfpred: (\w+): branch slot (\d+) counted at loop entry/mg;
    is(scalar keys %entry, 4, "$opt: four branches counted at loop entry") or diag($out);
    unlink "$TMP/r.ppr";
    my $got = `env PERFPRED_RECORD=$TMP/r.ppr $TMP/prog 100`;
    is($got, $want, "$opt: same output as the plain program");
    my $rec = do { local $/; open my $h, '<', "$TMP/r.ppr" or die "no record\n"; <$h> };
    my %idx = reverse($rec =~ /^func idx=(\d+)\nfunc name=(\S+)/mg);
    my %slots = $rec =~ /^count thread=0 func=(\d+) slots=\(([^)]*)\)/mg;
    for my $k (sort keys %want) {
        my ($fn, $id) = split ' ', $k;
        my ($text) = $rec =~ /^func name=\Q$fn\E .*?\n(.*?)^end$/ms;
        my ($slot, $fs) = ($text // '') =~ /^branch id=$id .*? slot=(\d+)(?: fslot=\(([^)]*)\))?/m;
        my @c = split ' ', $slots{$idx{$fn} // -1} // '';
        my $res = 'no branch';
        if (defined $slot) {
            my $f = 0;
            if (defined $fs) { $f += $_ > 0 ? $c[$_] : -$c[-$_] for split ' ', $fs; }
            else { $f = $c[$slot + 1]; }
            $res = "$c[$slot] $f";
        }
        is($res, $want{$k}, "$opt: $fn branch $id: exact true and false counts");
    }
}
done_testing();
