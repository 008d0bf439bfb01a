#!/usr/bin/env perl
# 14-inline.t - the plugin keeps small static functions inlinable: a
# function the plain -O2 build inlines is inlined with the plugin too (the
# counters it adds before the inliners must not push it over the inliner's
# limits), -Winline stays quiet, the program prints the same, and the
# counts of the inlined functions are exact (hand-computed) whether they are
# registered by their callers' checks or by their own; and a loop that the
# plain -O2 build vectorises after inlining is vectorised with the plugin.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $BD = $ENV{PERFPRED_BUILD} // 'build';
# (loop timing off: these checks are of the counting code; 10-plugin.t
# checks the counts with it on)
my $PL = "-fplugin=$BD/perfpred.so -fplugin-arg-perfpred-no-loop-timing";
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
my $TMP = tempdir('pp-inline-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SRC = 'tests/plugin/inline/inline.c';

sub run { my ($cmd) = @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }

# the static functions an object defines (nm: local text symbols)
sub statics {
    my ($obj) = @_;
    my ($rc, $out) = run("nm $obj");
    return join ' ', sort grep { !/^__pp_/ } map { /^\S+ t (\S+)$/ ? $1 : () } split /\n/, $out;
}

for my $opt ('-O2', '-O3') {
    my ($rc, $out) = run("gcc $opt -Wall -Wextra -Winline -c $SRC -o $TMP/plain.o");
    is($rc, 0, "$opt: plain build") or diag($out);
    my $plain = statics("$TMP/plain.o");
    is($plain, 'odd', "$opt: the plain build inlines clampsum and sgn (odd is called through a pointer)");
    ($rc, $out) = run("gcc $opt -Wall -Wextra -Winline $PL -c $SRC -o $TMP/instr.o");
    is($rc, 0, "$opt: build with the plugin");
    is($out, '', "$opt: no warnings with the plugin (-Winline)");
    is(statics("$TMP/instr.o"), $plain, "$opt: the same functions are inlined with the plugin");
}

# a call in the loop (the inlined function's registration check) would
# stop the vectoriser
my $VEC = 'tests/plugin/inline/vec.c';
my ($rc, $out) = run("gcc -O2 -fopt-info-vec-optimized -c $VEC -o $TMP/vp.o");
my $nvec = () = $out =~ /loop vectorized/g;
is($nvec, 1, 'vec.c: the plain -O2 build vectorises the loop');
($rc, $out) = run("gcc -O2 -fopt-info-vec-optimized $PL -c $VEC -o $TMP/vi.o");
my $ivec = () = $out =~ /loop vectorized/g;
is($ivec, 1, 'vec.c: so does the build with the plugin');

($rc, $out) = run("gcc -O2 $PL -fplugin-arg-perfpred-verbose -c $SRC -o $TMP/v.o");
like($out, qr/perfpred: sgn: registered by its callers/, 'sgn is registered by its caller');
unlike($out, qr/perfpred: odd: registered by its callers/, 'odd (address taken) registers itself');

($rc, $out) = run("gcc -O2$SAN $PL $SRC -o $TMP/prog -L$BD -l:libperfpred-rt.a");
is($rc, 0, 'link with the runtime') or diag($out);
run("gcc -O2 $SRC -o $TMP/plain");
my $want = `$TMP/plain 100`;
my $got = `env PERFPRED_RECORD=$TMP/r.ppr $TMP/prog 100`;
is($got, $want, 'same output as the plain program');
my $rec = do { local $/; open my $h, '<', "$TMP/r.ppr" or die "no record\n"; <$h> };
my %idx = $rec =~ /^func idx=(\d+)\nfunc name=(\S+)/mg;
%idx = reverse %idx;
my %slots = $rec =~ /^count thread=0 func=(\d+) slots=\(([^)]*)\)/mg;
# the false count of a branch with fslot= (docs/descriptor-format.md): the
# sum of those slots, -S subtracting slot S
sub derived_false {
    my ($fn, $id) = @_;
    my ($text) = $rec =~ /^func name=\Q$fn\E .*?\n(.*?)^end$/ms or return 'no descriptor';
    my ($fs) = $text =~ /^branch id=$id .* fslot=\(([^)]*)\)/m or return 'no fslot';
    my @c = split ' ', $slots{$idx{$fn} // -1} // '';
    my $v = 0;
    $v += $_ > 0 ? $c[$_] : -$c[-$_] for split ' ', $fs;
    return $v;
}
# sgn(i - 33), i < 100: x > 0 66 times; x < 0 33 of the other 34 (its
# condition runs on branch 0's false edge: its false count is 34 - 33)
is($slots{$idx{sgn} // -1}, '1 66 34 33', 'sgn: exact branch counts');
is(derived_false('sgn', 1), 1, 'sgn: the derived false count of x < 0');
# 10 calls over 100 elements (i % 7) * 0.3 > 1.0 for i % 7 in 4..6: 42 of
# 100 (the condition runs at every iteration: false = H - E - true)
is($slots{$idx{clampsum} // -1}, '1 1010 10 420', 'clampsum: exact loop and branch counts');
is(derived_false('clampsum', 0), 580, 'clampsum: the derived false count');
is($slots{$idx{odd} // -1}, '1 50 50', 'odd: exact branch counts');
done_testing();
