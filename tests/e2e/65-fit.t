#!/usr/bin/perl
# 65-fit.t - perfpred fit: the linear machine model recovers known costs
# from a synthetic record whose segment times are exactly sum chi_i beta_i,
# writes them to a machine file that loads, and predict uses it.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $B = $ENV{PERFPRED_BUILD} || 'build';
plan skip_all => "$B/perfpred is not built" unless -x "$B/perfpred";
my $tmp = tempdir(CLEANUP => 1);

# known costs (ns): int fp load store branch call iter entry segment
my %beta = (int => 0.3, fp => 1.2, load => 0.6, store => 0.9, branch => 0.4, iter => 0.5,
            entry => 7, segment => 300);
my @ops0 = (2, 1, 1, 0, 1, 0);   # loop 0: int fp load store branch call per iteration
my @ops1 = (1, 0, 2, 1, 1, 0);   # loop 1
my @cls = qw(int fp load store branch call);
sub per_iter { my @o = @_; my $v = $beta{iter}; $v += $o[$_] * ($beta{$cls[$_]} // 0) for 0 .. 5; $v }
my ($c0, $c1) = (per_iter(@ops0), per_iter(@ops1));

# one thread, one lock site in main; segment i runs a_i iterations of loop 0
# in e_i entries and b_i iterations of loop 1 in f_i entries
my @ev;
my ($t, $c) = (1000, 1000);
my ($H0, $E0, $H1, $E1, $n) = (0, 0, 0, 0, 0);
for my $i (0 .. 59) {
    my ($a, $e, $b, $f) = (100 + 37 * $i % 500, 1 + $i % 4, 50 + 91 * $i % 700, 1 + $i % 3);
    my $dur = $beta{segment} + $a * $c0 + $b * $c1 + ($e + $f) * $beta{entry};
    my ($dh0, $dh1) = ($a + $e, $b + $f);   # top-tested: header = iterations + entries
    $H0 += $dh0; $E0 += $e; $H1 += $dh1; $E1 += $f; $n++;
    my $t0 = $t + $dur; my $c0t = $c + $dur;
    push @ev, sprintf("ev thread=0 n=%d func=0 site=0 kind=lock t0=%.0f t1=%.0f c0=%.0f c1=%.0f obj=0x10 "
                      . "delta=((0 1 %d) (0 2 %d) (0 3 %d) (0 4 %d) (0 5 1))",
                      $i, $t0, $t0 + 100, $c0t, $c0t + 100, $dh0, $e, $dh1, $f);
    ($t, $c) = ($t0 + 100, $c0t + 100);
}
# the synthetic program's record up to its threads: main, loops 0 and 1
# at its top level, a lock site
sub program_lines {
    my ($fh) = @_;
    print $fh "perfpred-record 1\n";
    print $fh "program path=\"/synthetic\" pid=1 host=\"t\" clock=monotonic_ns abi=1 runtime=\"test\"\n";
    print $fh "argv \"./synthetic\"\nfunc idx=0\n";
    print $fh "func name=main file=s.c line=1 kind=normal nslots=6 args=() ops=(0 0 0 0 0 0)\n";
    print $fh "loop id=0 parent=- pos=1 line=2 slot=1 shape=top count=? ops=(@ops0)\n";
    print $fh "loop id=1 parent=- pos=2 line=3 slot=3 shape=top count=? ops=(@ops1)\n";
    print $fh "event id=0 loop=- pos=3 line=4 slot=5 kind=lock callee=pthread_mutex_lock obj=(addr m)\nend\n";
}
open(my $fh, '>', "$tmp/syn.ppr") or die;
program_lines($fh);
printf $fh "thread id=0 kind=main parent=- start=0 end=%.0f cstart=1000\n", $t + 10;
print $fh "count thread=0 func=0 slots=(1 $H0 $E0 $H1 $E1 $n)\n";
print $fh "$_\n" for @ev;
# the tail segment holds no loop: it takes the cost of a segment
printf $fh "tail thread=0 t=%.0f c=%.0f delta=()\nend events=%d threads=1\n", $t + $beta{segment}, $c + $beta{segment}, $n;
close $fh;

my $out = `$B/perfpred fit $tmp/syn.ppr -o $tmp/fit.machine 2>&1`;
is($?, 0, 'fit runs') or diag($out);
like($out, qr/R\^2 = 1\.0000/, 'the synthetic times are fitted exactly');
my %got;
open(my $m, '<', "$tmp/fit.machine") or die;
while (<$m>) { $got{$1} = $2 if /^beta\.(\w+)_ns = (\S+)/; }
close $m;
is(scalar(grep { /_se$/ ? 0 : 1 } keys %got), 9, 'nine beta classes written');
my $g0 = $got{iter}; $g0 += $ops0[$_] * $got{$cls[$_]} for 0 .. 5;
my $g1 = $got{iter}; $g1 += $ops1[$_] * $got{$cls[$_]} for 0 .. 5;
ok(abs($g0 - $c0) / $c0 < 1e-3, "loop 0: cost per iteration $g0 recovered ($c0)");
ok(abs($g1 - $c1) / $c1 < 1e-3, "loop 1: cost per iteration $g1 recovered ($c1)");
ok(abs($got{entry} - $beta{entry}) < 0.01 * $beta{entry}, "cost per entry $got{entry} recovered ($beta{entry})");
ok(abs($got{segment} - $beta{segment}) < 0.5, "cost per segment $got{segment} recovered ($beta{segment})");

# the file loads, and predict uses it (its linear model as the prior).
# Not on syn.ppr: its loops, at the top of main, are entered many times,
# which no program does and the model does not replay (predict checks
# that first); a run of the same main that enters each loop once does.
open($fh, '>', "$tmp/run.ppr") or die;
program_lines($fh);
my $d1 = $beta{segment} + 300 * $c0 + 200 * $c1 + 2 * $beta{entry};
printf $fh "thread id=0 kind=main parent=- start=0 end=%.0f cstart=1000\n", 1000 + $d1 + 100 + $beta{segment} + 10;
print $fh "count thread=0 func=0 slots=(1 301 1 201 1 1)\n";
printf $fh "ev thread=0 n=0 func=0 site=0 kind=lock t0=%.0f t1=%.0f c0=%.0f c1=%.0f obj=0x10 "
         . "delta=((0 1 301) (0 2 1) (0 3 201) (0 4 1) (0 5 1))\n", 1000 + $d1, 1100 + $d1, 1000 + $d1, 1100 + $d1;
printf $fh "tail thread=0 t=%.0f c=%.0f delta=()\nend events=1 threads=1\n", 1100 + $d1 + $beta{segment},
       1100 + $d1 + $beta{segment};
close $fh;
my $p = `$B/perfpred predict $tmp/run.ppr --machine $tmp/fit.machine --draws 0 --format json 2>&1`;
is($?, 0, 'predict with the fitted machine file') or diag($p);
# a negative beta is refused with the file and line
system("sed 's/^beta.fp_ns = .*/beta.fp_ns = -1/' $tmp/fit.machine > $tmp/bad.machine");
my $e = `$B/perfpred predict $tmp/syn.ppr --machine $tmp/bad.machine 2>&1`;
is($? >> 8, 2, 'a negative beta: exit 2');
like($e, qr/bad\.machine:\d+: beta\.fp_ns: negative value/, 'names the file, line and key');
done_testing();
