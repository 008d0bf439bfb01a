#!/usr/bin/perl
# 99-rank-classes.t - the oracle of the classes of MPI ranks (docs/model.md,
# "Ranks in classes"): ranks whose rank gives the same result to every
# expression their unrolling evaluates make the same actions, unrolled once
# and shared.  For every MPI sample and test program, recorded at 4 ranks,
# `predict` with the classes and with every rank unrolled
# (PERFPRED_FULL_WALK=1) gives the same numbers, to 1e-9 relative, at
# P = 1..300, and `scale` the same table; and the classes are used where
# the ranks are alike: mpi_ge's past its rows, mpi_trap's workers,
# mpi_jacobi's interior ranks (their neighbours' ranks kept relative to
# their own, in both of its exchanges), mpi_ge's past its rows when the
# rows' ranks before them all differ (the classes tried again at a rank
# 2^k after they were given up), mpi_blocks's ranks of each block
# size and parity (partner rank ^ 1).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_memory_machine json_differ mpi_setup run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
mpi_setup();
delete $ENV{PERFPRED_FULL_WALK};
# classes from one rank on (by default from 512: below, the ranks are
# unrolled with their rank folded in), so that the small P check them
$ENV{PERFPRED_RANK_CLASSES_FROM} = 1;
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
my $M = "$tmp/m.machine";
hand_memory_machine($M, 1 << 20, 64 << 20);

# name, source, recorded arguments (4 ranks), the P to compare, and the
# least share of ranks that share their class's actions at the last P
my @progs = (
    ['mpi_ge',      'samples/mpi_ge.c',                '48',         [1, 2, 3, 5, 8, 16, 64, 300], 0.75],
    ['mpi_blocks',  'tests/programs/mpi_blocks.c',     '2002',       [1, 2, 3, 5, 8, 16, 64, 300], 0.9],
    ['mpi_trap',    'samples/mpi_trap.c',              '100000 3',   [1, 2, 3, 5, 8, 16, 64, 300], 0.9],
    ['mpi_estar',   'samples/mpi_estar.c',             '600 300 2',  [1, 2, 3, 5, 8, 16, 64, 300], 0],
    ['mpi_jacobi',  'samples/mpi_jacobi.c',            '96 40 7 0',  [1, 2, 3, 5, 8, 16, 64],      0.9],
    ['mpi_jacobi1', 'samples/mpi_jacobi.c',            '96 40 7 1',  [1, 2, 3, 5, 8, 16, 64],      0.9],
    ['split_order', 'tests/mpi-comm/split_order.c',    '',           [4, 7, 12, 30],               0],
    ['any_null',    'tests/mpi-special/any_proc_null.c', '',         [2, 4, 8, 16],                0],
);

my %share;
for my $p (@progs) {
    my ($name, $src, $args, $Ps, $least) = @$p;
    my $bin = "$tmp/$name";
    my ($rc, undef, $err) = run_in($tmp, "mpicc -O2$san -fplugin=$B/perfpred.so $src -o $bin -L$B "
                                         . "-l:libperfpred-rt.a -lm");
    is($rc, 0, "$name: builds with the plugin") or do { diag($err); next };
    my $rec = "$tmp/$name.ppr";
    ($rc, undef, $err) = run_in($tmp, "env PERFPRED_RECORD=$rec timeout -k 5 120 mpirun -np 4 $bin $args");
    is($rc, 0, "$name: recorded at 4 ranks") or do { diag($err); next };
    my ($bad, $compared, $shared, $ranks, $folded) = ('', 0, 0, 0, 0);
    for my $P (@$Ps) {
        my $cmd = "$pp predict $rec --machine $M --P $P --draws 0 --format json";
        my ($r1, $o1, $e1) = run_in($tmp, "PERFPRED_CLASS_STATS=1 $cmd");
        my ($r2, $o2, $e2) = run_in($tmp, "PERFPRED_FULL_WALK=1 $cmd");
        if ($r1 != $r2) {
            $bad = "P=$P: exit $r1 with the classes, $r2 without ($e1)";
            last;
        }
        next if $r1 != 0;
        $compared++;
        my $d = json_differ(eval { decode_json($o1) }, eval { decode_json($o2) }, 'predict');
        if ($d) {
            $bad = "P=$P: $d";
            last;
        }
        ($shared, $ranks, $folded) = (0, 0, 0);
        # the walk's side (docs/model.md, "Barrier phases walked once"):
        # the ranks a collective releases together, with the same
        # actions up to their next MPI call, walked as one
        $folded += $1 while $e1 =~ /P=$P: (\d+) phases after a barrier or collective walked once/g;
        while ($e1 =~ /P=$P: (\d+) of (\d+) ranks share/g) {
            $shared += $1;
            $ranks += $2;
        }
    }
    is($bad, '', "$name: predict the same with the classes and every rank unrolled at P = @$Ps");
    ok($compared >= 3, "$name: $compared of the points predicted (3 at least)");
    $share{$name} = $ranks ? $shared / $ranks : 0;
    if ($least > 0) {
        ok($share{$name} >= $least, "$name: at P = $Ps->[-1], $shared of $ranks ranks share their class's actions");
        ok($folded > 0, "$name: at P = $Ps->[-1], $folded phases after a collective walked once for the ranks alike");
    }
}

# by default, classes only from 512 ranks on: none at 300, most at 600
{
    my $rec = "$tmp/mpi_ge.ppr";
    my %shared;
    for my $P (300, 600) {
        my ($rc, undef, $err) = run_in($tmp, "PERFPRED_RANK_CLASSES_FROM= PERFPRED_CLASS_STATS=1 $pp predict $rec "
                                             . "--machine $M --P $P --draws 0");
        is($rc, 0, "mpi_ge: predict at P = $P");
        $shared{$P} = 0;
        $shared{$P} += $1 while $err =~ /P=$P: (\d+) of \d+ ranks share/g;
    }
    is($shared{300}, 0, 'mpi_ge: no classes at 300 ranks by default');
    ok($shared{600} > 500, "mpi_ge: classes at 600 ranks by default ($shared{600} ranks shared)");
}

# ranks that all differ, then a long run alike: mpi_ge at n = 256 owns a
# row on each of ranks 0..255 (each a trace replayed in vain by the next
# ones, until the classes are given up for the notes they wasted), then
# 344 ranks with none: the classes are tried again at rank 256, which the
# ranks after it join
{
    my $rec = "$tmp/mpi_ge.ppr";
    my $cmd = "$pp predict $rec --machine $M --set n=256 --P 600 --draws 0 --format json";
    my ($r1, $o1, $e1) = run_in($tmp, "PERFPRED_RANK_CLASSES_FROM= PERFPRED_CLASS_STATS=1 $cmd");
    my ($r2, $o2, $e2) = run_in($tmp, "PERFPRED_FULL_WALK=1 $cmd");
    is($r1, 0, 'mpi_ge n=256: predict at P = 600') or diag($e1);
    is(json_differ(eval { decode_json($o1) }, eval { decode_json($o2) }, 'predict'), '',
       'mpi_ge n=256: the same with the classes and every rank unrolled');
    my $shared = 0;
    $shared += $1 while $e1 =~ /P=600: (\d+) of \d+ ranks share/g;
    ok($shared >= 2 * 343, "mpi_ge n=256: ranks 257..599 share rank 256's actions ($shared in the two walks' instances)");
}

# scale: the size search walks many points, each both ways
{
    my $rec = "$tmp/mpi_ge.ppr";
    my $cmd = "$pp scale $rec --machine $M --scale n --P 2,8,64,256 --Ea 0.5 --E 0.3 --draws 0 --format json";
    my ($r1, $o1, $e1) = run_in($tmp, $cmd);
    my ($r2, $o2, $e2) = run_in($tmp, "PERFPRED_FULL_WALK=1 $cmd");
    is($r1, 0, 'mpi_ge: scale runs') or diag($e1);
    is(json_differ(eval { decode_json($o1) }, eval { decode_json($o2) }, 'scale'), '',
       'mpi_ge: scale the same with the classes and every rank unrolled');
}

done_testing();
