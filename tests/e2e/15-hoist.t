#!/usr/bin/env perl
# 15-hoist.t - loop counters moved out of loop nests (plugin/pp-hoist.cc):
# in a nest whose inner loop runs a small constant number of times, no
# loop counter stays in a loop, and in one whose inner count is not a
# constant the inner loop's counters stay in the outer loop (the GIMPLE
# the plugin's pass leaves, dumped with the blocks' loop depths), and the
# counts stay exact at -O0/-O2/-O3: for those nests, for a
# loop with an early exit (counted in its header, which the same check
# sees in the loop), and for an inner loop in an outer loop that calls a
# function that may exit (its counters stay in the outer loop: a run that
# exits half way has the inner loop's exact counts).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $BD = $ENV{PERFPRED_BUILD} // 'build';
plan skip_all => "$BD/perfpred.so is not built" unless -f "$BD/perfpred.so";
$BD = abs_path($BD);
# (loop timing off: these checks are of the counting code; 10-plugin.t
# checks the counts with it on)
my $PL = "-fplugin=$BD/perfpred.so -fplugin-arg-perfpred-no-loop-timing";
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
my $TMP = tempdir('pp-hoist-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SRC = abs_path('tests/plugin/hoist/hoist.c');

sub run { my ($cmd) = @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }
sub slurp { my ($f) = @_; open(my $h, '<', $f) or return ''; local $/; my $s = <$h>; close $h; return $s; }

my %line;                       # marker -> source line
{
    my $n = 0;
    for my $l (split /\n/, slurp($SRC)) { $n++; $line{$1} = $n while $l =~ /L:(\w+)/g; }
}

my ($rc, $out) = run("gcc -O2 -c -fPIC -pthread$SAN tests/plugin/stub-rt.c -o $TMP/stub.o");
is($rc, 0, 'stub runtime builds') or diag($out);

# the stub's output -> { func => [descriptor text, [counts]] }
sub parse {
    my ($text) = @_;
    my (%f, $cur);
    for my $l (split /\n/, $text) {
        if ($l =~ /^=== desc (\S+)/) { $cur = $1; $f{$cur} = ['', []]; next; }
        if ($l =~ /^=== counts (\S+)\s*(.*)$/) { $f{$1}[1] = [split ' ', $2]; $cur = undef; next; }
        $f{$cur}[0] .= "$l\n" if defined $cur;
    }
    return \%f;
}

# (body iterations, entries) of the loop of function FN at marker M
sub loop_counts {
    my ($r, $fn, $m) = @_;
    my $f = $r->{$fn} or return ('no function', '');
    my ($l) = $f->[0] =~ /^(loop .* line=$line{$m} .*)$/m or return ('no loop', '');
    my ($slot) = $l =~ / slot=(\d+)/;
    my ($h, $e) = ($f->[1][$slot], $f->[1][$slot + 1]);
    return ($h - $e, $e);
}

# "SLOT@DEPTH" for each counter update of function FN in the pass's own
# GIMPLE dump (-fdump-tree-all-blocks: ";; basic block N, loop depth D"
# before each block): a store to a counter (slot 0 is the registration
# flag), or an asm increment (with a memory operand, or the bare form that
# names the counter in its text: plugin/pp-emit.cc)
sub counter_depths {
    my ($dump, $fn) = @_;
    my ($body) = $dump =~ /^;; Function \Q$fn\E \(.*?\n(.*?)^}/ms or return ();
    my ($depth, @d) = (-1);
    for my $l (split /\n/, $body) {
        $depth = $1 if $l =~ /^;;\s+basic block \d+, loop depth (\d+)/;
        if ($l =~ /^\s*__pp_cnt\.\d+\[([1-9]\d*)\] = / || $l =~ /__asm__.*"=m" __pp_cnt\.\d+\[([1-9]\d*)\]/) {
            push @d, "$1\@$depth";
        } elsif ($l =~ /%%fs:(\d+)\(%%r11\)/ && $1 > 0) {
            # the bare form's second line (the first loads __pp_cnt.N@tpoff
            # into %r11): slot = offset / 8
            push @d, ($1 / 8) . "\@$depth";
        }
    }
    return sort @d;
}

sub loop_slot {                 # H slot of the loop of FN at marker M
    my ($r, $fn, $m) = @_;
    my $f = $r->{$fn} or return -1;
    my ($s) = $f->[0] =~ /^loop .* line=$line{$m}\b.*? slot=(\d+)/m;
    return $s // -1;
}

for my $opt ('-O0', '-O2', '-O3') {
    my $d = "$TMP/d$opt";
    mkdir $d or die "mkdir $d: $!";
    ($rc, $out) = run("cd $d && gcc $opt -Wall$SAN $PL -fdump-tree-all-blocks $SRC $TMP/stub.o -o prog -fopenmp -pthread");
    is($rc, 0, "$opt: builds with the plugin") or do { diag($out); next; };
    is($out, '', "$opt: no warnings");
    my ($dumpf) = glob("$d/*.perfpred");
    my $dump = $dumpf ? slurp($dumpf) : '';
    ok($dump ne '', "$opt: the pass's GIMPLE dump exists");

    # exact counts, N=10 M=7
    ($rc, $out) = run("env PP_STUB_OUT=$d/out $d/prog 10 7 -1");
    is($rc, 0, "$opt: runs") or diag($out);
    my $r = parse(slurp("$d/out"));

    # known counts: the outer loop's counters before it, the inner's in
    # it (once per outer iteration); with a constant inner count, both
    # loops' counters before the outer loop
    my ($ko, $ki) = (loop_slot($r, 'known', 'kn_outer'), loop_slot($r, 'known', 'kn_inner'));
    is(join(' ', counter_depths($dump, 'known')),
       join(' ', sort("$ko\@0", ($ko + 1) . '@0', "$ki\@1", ($ki + 1) . '@1')),
       "$opt: known: H and E of the outer loop before it, of the inner loop in the outer loop, nothing else");
    ($ko, $ki) = (loop_slot($r, 'knownc', 'kc_outer'), loop_slot($r, 'knownc', 'kc_inner'));
    is(join(' ', counter_depths($dump, 'knownc')),
       join(' ', sort map { "$_\@0" } $ko, $ko + 1, $ki, $ki + 1),
       "$opt: knownc: H and E of both loops are updated outside any loop, nothing else");
    # the check does see counters in loops: the early-exit loop's header
    # count is accumulated in an SSA value of the loop and added to its
    # counter on each of its two exits, in the outer loop (depth 1:
    # plugin/pp-emit.cc, accumulators), the entry counters of an inner
    # loop under a call that may exit stay in the outer loop (depth 1)
    my $ei = loop_slot($r, 'early', 'ea_inner');
    my @ed = counter_depths($dump, 'early');
    ok((grep { $_ eq "$ei\@1" } @ed) == 2 && !(grep { $_ eq "$ei\@2" } @ed),
       "$opt: early: its header count is added on the inner loop's two exits") or diag("@ed");
    my $mi = loop_slot($r, 'mayexit', 'me_inner');
    my %md = map { $_ => 1 } counter_depths($dump, 'mayexit');
    ok($md{"$mi\@1"} && $md{($mi + 1) . '@1'}, "$opt: mayexit: the inner loop's counters stay in the outer loop")
        or diag(join(' ', sort keys %md));
    is(join(' ', loop_counts($r, 'known', 'kn_outer')), '10 1', "$opt: known: outer loop 10 iterations, 1 entry");
    is(join(' ', loop_counts($r, 'known', 'kn_inner')), '70 10', "$opt: known: inner loop 70 iterations, 10 entries");
    is(join(' ', loop_counts($r, 'knownc', 'kc_outer')), '10 1', "$opt: knownc: outer loop 10 iterations, 1 entry");
    is(join(' ', loop_counts($r, 'knownc', 'kc_inner')), '30 10', "$opt: knownc: inner loop 30 iterations, 10 entries");
    is(join(' ', loop_counts($r, 'early', 'ea_outer')), '10 1', "$opt: early: outer loop");
    # break at j == i: min(i, 7) iterations and min(i+1, 8) header runs
    is(join(' ', loop_counts($r, 'early', 'ea_inner')), '42 10', "$opt: early: inner loop, left by its break");
    is(join(' ', loop_counts($r, 'mayexit', 'me_inner')), '70 10', "$opt: mayexit: inner loop");

    # the call exits at i = 5: six outer iterations ran the inner loop
    ($rc, $out) = run("env PP_STUB_OUT=$d/out5 $d/prog 10 7 5");
    is($out, "exit at 5\n", "$opt: exits half way");
    $r = parse(slurp("$d/out5"));
    is(join(' ', loop_counts($r, 'known', 'kn_inner')), '70 10', "$opt: exit run: known: inner loop");
    is(join(' ', loop_counts($r, 'mayexit', 'me_inner')), '42 6',
       "$opt: exit run: mayexit: inner loop counted only for the iterations run");

    # walkexit: 10 iterations; in the run below its call exits at j = 3,
    # after 3 whole iterations (an accumulator flushed only on the loop's
    # exits would lose them all: 0)
    is(join(' ', loop_counts($r, 'walkexit', 'we_loop')), '10 1', "$opt: walkexit: iterations and entry");
    ($rc, $out) = run("env PP_STUB_OUT=$d/out103 $d/prog 10 7 103");
    is($out, "exit at 103\n", "$opt: exits inside walkexit's loop");
    $r = parse(slurp("$d/out103"));
    is(join(' ', loop_counts($r, 'walkexit', 'we_loop')), '3 1',
       "$opt: exit run: walkexit: the header count up to the exit inside the loop");
}

done_testing();
