#!/usr/bin/perl
# 99-class-walk.t - the oracle of the class walk (docs/model.md, "Team
# members in classes"): OpenMP team members whose thread number gives the
# same result to every expression their unrolling evaluates are unrolled
# once and copied; a loop that calls a function whose instantiation does
# not read the arguments the loop's IV goes into is costed once, not
# iteration by iteration; and a loop whose body reads its IV is made in
# runs of iterations alike (all three off in the full walk).  For every
# OpenMP sample and test program, recorded at two threads, `predict` and `scale` with the classes and with the full
# unrolling (PERFPRED_FULL_WALK=1) give the same numbers, to 1e-9
# relative, at P = 1..64 and at a larger size where the program has one,
# and timeline, predict --by and sensitivity give the same output; and
# the classes are used (most members copied) where the threads' chunks
# are alike.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_memory_machine json_differ run_in);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0';
delete $ENV{PERFPRED_FULL_WALK};
delete $ENV{PERFPRED_DISABLE};

# a machine with caches and a bandwidth curve: the memory model prices
# each member's streams (per thread, inst-mem.c) in both walks
my $M = "$tmp/m.machine";
hand_memory_machine($M, 1 << 20, 64 << 20);

# name, source, recorded arguments (at OMP_NUM_THREADS=2), the --set of a
# larger size ('' for none), the least share of members copied at P = 16
# (where the threads' chunks are alike); 'refused': a program whose model
# does not reproduce its run (dynamic schedules, nested teams, a single's
# share: docs/model.md, section 11), where both walks must refuse alike
my @progs = (
    ['ge_omp',         'samples/ge_omp.c',               '48 2',    'N=192', 0.5],
    ['jacobi',         'samples/jacobi.c',               '40 4 2',  'N=160', 0.5],
    ['team_rows',      'tests/programs/team_rows.c',     '40 3 0',  '',      0.5],
    ['team_rows_tri',  'tests/programs/team_rows.c',     '40 3 1',  '',      0],
    ['barriers',       'tests/programs/barriers.c',      '2000 4 2', '',     0],
    ['smooth',         'tests/programs/smooth.c',        '200 3',   '',      0],
    ['relax',          'tests/programs/relax.c',         '300 3',   '',      0],
    ['dynsched',       'tests/programs/dynsched.c',      '500',     '',      0, 'refused'],
    ['stream_omp',     'tests/programs/stream_omp.c',    '5000 3',  '',      0],
    ['omp_table',      'tests/values/omp_table.c',       '300',     '',      0],
    ['omp_locks',      'tests/diff/omp_locks.c',         '2000',    '',      0],
    ['omp_nested',     'tests/diff/omp_nested.c',        '40 2',    '',      0, 'refused'],
    ['omp_single',     'tests/diff/omp_single.c',        '256 4',   '',      0, 'refused'],
    ['omp_critical',   'tests/diff/omp_critical_atomic.c', '2000',  '',      0],
    ['omp_schedules',  'tests/diff/omp_schedules.c',     '300 2',   '',      0, 'refused'],
    ['phase_teams',    'tests/programs/phase_teams.c',   '64 6 0',  'n=160', 0.5, '', 'all'],
    ['phase_teams_sm', 'tests/programs/phase_teams.c',   '64 6 3',  '',      0.5, '', 'none'],
    # helpers called per cell: the full walk also walks, iteration by
    # iteration, the loops that call a helper whose arguments its
    # instantiation does not read (docs/model.md, "Calls in loops")
    ['cell_helpers',   'tests/programs/cell_helpers.c',  '48 3',    'n=160', 0],
    # pthreads whose sweep tests the position per cell: the loop made in
    # runs of iterations (docs/model.md, "Runs of iterations"), every
    # iteration in the full walk
    ['halo_cells',     'tests/programs/halo_cells.c',    '20000 3 2', 'n=60000', 0],
    # OpenMP rows whose first and last are held, the columns near a row's
    # ends costlier: runs of rows and of columns in the team's members
    ['edge_rows',      'tests/programs/edge_rows.c',     '96 3',    'n=400', 0],
    # OpenMP cells of three materials interleaved (a cell's by its index
    # modulo 3): runs of the cells 3 apart
    ['strided_cells',  'tests/programs/strided_cells.c', '3000 2',  'n=9000', 0],
    # pthread workers between barriers (docs/model.md, "Barrier phases
    # walked once"): the waiters a barrier releases together that run
    # the same next phase are walked as one, weighted; 'fold': some
    # phases are at P = 16.  ge_pthreads' column slices of two sizes per
    # step; shrink_bands' slices, then fixed bands ending in a barrier
    # of a mutex and a condition variable (the phase ends at the lock)
    ['ge_pthreads',    'samples/ge_pthreads.c',          '48 3',    'N=192', 0, '', '', 'fold'],
    ['shrink_bands',   'tests/programs/shrink_bands.c',  '120 3',   'n=300', 0, '', '', 'fold'],
);
# the last field: how the prediction's copies are walked (PP_INST_CLASSES,
# docs/model.md): 'all' in their class's segment (at P = 16 every copy
# of some unrolling); 'none' (none walked so: a smaller team last, where
# the pool's threads do not all have a next team, makes the instance
# again with each copy's own actions)
my @P = (1, 2, 3, 5, 8, 16, 64);

# the command's JSON both ways, and the stats line of the classes
my %walk_seen;
sub both {
    my ($cmd) = @_;
    my ($rc1, $out1, $err1) = run_in($tmp, "PERFPRED_CLASS_STATS=1 $cmd");
    my ($rc2, $out2, $err2) = run_in($tmp, "PERFPRED_FULL_WALK=1 $cmd");
    my $j1 = eval { decode_json($out1) };
    my $j2 = eval { decode_json($out2) };
    my ($copied, $members, $walked_all, $walked) = (0, 0, 0, 0);
    while ($err1 =~ /(\d+) of (\d+) team members copied from their class, (\d+) walked/g) {
        $copied += $1;
        $members += $2;
        $walked += $3;
        $walked_all ||= $3 > 0 && $3 == $1;
    }
    $walk_seen{all} ||= $walked_all;
    $walk_seen{any} += $walked;
    $walk_seen{fold} += $1 while $err1 =~ /(\d+) phases after a barrier or collective walked once for \d+ more threads alike/g;
    $err1 =~ s/^perfpred: P=\d+: \d+ of \d+ team members copied.*\n//mg;
    $err1 =~ s/^perfpred: P=\d+: \d+ phases after a barrier or collective walked once.*\n//mg;
    return ($rc1, $rc2, $j1, $j2, $copied, $members, $err1, $err2);
}

for my $p (@progs) {
    my ($name, $src, $args, $set, $share, $refused, $walk, $fold) = @$p;
    my $bin = "$tmp/$name";
    my ($rc, undef, $err) = run_in($tmp, "gcc -O2 -fopenmp -pthread $san -fplugin=$B/perfpred.so $src "
                                         . "-o $bin -L$B -l:libperfpred-rt.a -lm");
    is($rc, 0, "$name: builds with the plugin") or do { diag($err); next };
    my $rec = "$tmp/$name.ppr";
    ($rc, undef, $err) = run_in($tmp, "OMP_NUM_THREADS=2 PERFPRED_RECORD=$rec $bin $args");
    is($rc, 0, "$name: recorded at 2 threads") or do { diag($err); next };
    if ($refused) {
        my ($r1, $r2, undef, undef, undef, undef, $e1, $e2) =
            both("$pp predict $rec --machine $M --P 4 --draws 0 --format json");
        ok($r1 && $r1 == $r2 && $e1 eq $e2, "$name: refused both ways, with the same message");
        like($e1, qr/does not reproduce the run/, "$name: the model does not reproduce its run");
        next;
    }
    my @sets = ('');
    push @sets, join(' ', map { "--set $_" } split /,/, $set) if $set;
    for my $s (@sets) {
        my $where = $s ? " ($s)" : '';
        my ($copied16, $members16, $compared) = (0, 0, 0);
        my ($walk_all16, $walked16, $folded16) = (0, 0, 0);
        my $bad = '';
        for my $P (@P) {
            %walk_seen = ();
            my ($r1, $r2, $j1, $j2, $copied, $members, $e1) =
                both("$pp predict $rec --machine $M $s --P $P --draws 0 --format json");
            if ($r1 != $r2) {
                $bad = "P=$P: exit $r1 with the classes, $r2 without ($e1)";
                last;
            }
            next if $r1 != 0;   # refused both ways (a P the program cannot take)
            $compared++;
            my $d = json_differ($j1, $j2, 'predict');
            if ($d) {
                $bad = "P=$P: $d";
                last;
            }
            ($copied16, $members16, $walk_all16, $walked16, $folded16) =
                ($copied, $members, $walk_seen{all}, $walk_seen{any}, $walk_seen{fold} // 0)
                if $P == 16;
        }
        if (($walk // '') eq 'all') {
            ok($walk_all16, "$name$where: at P = 16, every copy of the prediction's unrolling walked in its class's segment");
        } elsif (($walk // '') eq 'none') {
            ok($copied16 > 0 && $walked16 == 0,
               "$name$where: at P = 16, copies ($copied16) but none walked in a segment: the smaller last team");
        }
        ok($folded16 > 0, "$name$where: at P = 16, $folded16 barrier phases walked once for the threads alike")
            if $fold;
        diag("$name$where: at P = 16, $copied16 of $members16 team members copied") if $ENV{PERFPRED_CLASS_DIAG};
        is($bad, '', "$name$where: predict the same with the classes and the full unrolling at P = @P");
        ok($compared >= 3, "$name$where: $compared of the points predicted (3 at least)");
        if ($share > 0) {
            ok($members16 > 0 && $copied16 >= $share * $members16,
               "$name$where: at P = 16, $copied16 of $members16 team members copied from their class");
        }
    }
}

# scale: the size search walks many points, each both ways, up to 16
# times the recorded size (--max): where a P's efficiency levels off
# near the target, whether its search stops at once or goes on depends
# on the record, which is made anew each run, and the full walk of
# edge_rows at n = 6144 enumerates its n^2 cells for minutes under ASan
for my $p (grep { $_->[3] } @progs) {
    my ($name, undef, $args, $set) = @$p;
    my $rec = "$tmp/$name.ppr";
    next unless -s $rec;
    my ($param) = $set =~ /^(\w+)=/;
    my $max = 16 * (split ' ', $args)[0];
    my ($r1, $r2, $j1, $j2) = both("$pp scale $rec --machine $M --scale $param --P 2,4,8,16 --Ea 0.5 --max $max "
                                   . "--format json");
    is($r1, 0, "$name: scale runs");
    # a P not reached reports the efficiency at the largest size its
    # search tried; where a loop there passes 2^20 iterations the full
    # walk samples 512 of them (its predict says approx) and the runs
    # sum them exactly, so the two agree only to the sampling's error
    # (strided_cells' cells of three kinds past 2^20: 1e-3): compared to
    # 1e-2 there, to 1e-9 where the full walk did not sample
    my @near;
    my @Ps = (2, 4, 8, 16);
    my $s1 = ((($j1 // {})->{tables} // [])->[0] // {})->{search} // [];
    my $s2 = ((($j2 // {})->{tables} // [])->[0] // {})->{search} // [];
    for my $i (0 .. $#$s1) {
        my ($a, $b) = ($s1->[$i], $s2->[$i] // {});
        next if ($a->{result} // '') eq 'reached' || !defined $a->{largest}
            || ($a->{largest} // -1) != ($b->{largest} // -2);
        my $approx;   # asked only where the two differ (a full walk costs)
        for my $k ('efficiency', 'estimate') {
            my ($x, $y) = ($a->{$k}, $b->{$k});
            next unless defined $x && defined $y;
            if (abs($x - $y) > 1e-9 * abs($y) && !defined $approx) {
                my ($rc, $out) = run_in($tmp, "PERFPRED_FULL_WALK=1 $pp predict $rec --machine $M "
                                              . "--set $param=$a->{largest} --P $Ps[$i] --draws 0 --format json");
                $approx = $rc == 0 && (eval { decode_json($out) } // {})->{approx} ? 1 : 0;
            }
            my $tol = $approx ? 1e-2 : 1e-9;
            push @near, "P = $Ps[$i]: $k $x against $y" if abs($x - $y) > $tol * abs($y);
            $a->{$k} = $b->{$k};   # compared here, not below
        }
    }
    is(join('; ', @near), '', "$name: a P not reached, the same efficiency at its largest size both ways");
    is(json_differ($j1, $j2, 'scale'), '', "$name: scale the same with the classes and the full unrolling");
}

# the classes counted by hand: ge_omp at N = 48 forks 48 teams (the
# initialisation's 48 columns, then N - k columns at step k = 0..46); at
# P, a team's members 1..P-1 fall in one class, or two when the columns
# do not divide evenly past the first member (their count mod P is 2 or
# more: the members below it take one column more); each class's first
# member is unrolled, the others copied
for my $P (5, 16) {
    my $rec = "$tmp/ge_omp.ppr";
    last unless -s $rec;
    my @cols = (48, map { 48 - $_ } 0 .. 46);
    my $members = ($P - 1) * @cols;
    my $classes = 0;
    $classes += ($_ % $P >= 2 ? 2 : 1) for @cols;
    my (undef, undef, $err) = run_in($tmp, "PERFPRED_CLASS_STATS=1 $pp predict $rec --machine $M --P $P --draws 0");
    # the prediction's unrolling: every copy is walked in its class's
    # segment (a computation and the team's end)
    my ($line) = $err =~ /^(perfpred: P=$P: .* [1-9]\d* walked in its segment)$/m;
    my $copies = $members - $classes;
    is($line // '', "perfpred: P=$P: $copies of $members team members copied from their class, $copies walked in its segment",
       "ge_omp N = 48, P = $P: the members copied, counted by hand, all walked in their class's segment");
}

# runs of iterations past the enumeration's limit: halo_cells at
# n = 3 000 000 and P = 1 sweeps 3 million cells per step on one thread,
# more than the 2^20 iterations a loop is enumerated up to; its runs
# (the first HALO cells, the interior, the last HALO) sum it exactly,
# where the full walk samples 512 of the iterations (approx)
{
    my $rec = "$tmp/halo_cells.ppr";
    my %approx;
    for my $full (0, 1) {
        my ($rc, $out) = run_in($tmp, "PERFPRED_FULL_WALK=$full $pp predict $rec --machine $M --set n=3000000 --P 1 "
                                      . "--draws 0 --format json");
        my $j = $rc ? undef : eval { decode_json($out) };
        $approx{$full} = $j ? ($j->{approx} ? 'approx' : 'exact') : "exit $rc";
    }
    is("$approx{0} $approx{1}", 'exact approx',
       'halo_cells at n = 3 000 000, P = 1: summed exactly in runs (the full walk samples)');
}

# runs of iterations a period apart: strided_cells' cells differ from
# their neighbours (a helper's count from the index modulo 3), so its
# runs are one iteration long; those of the cells 3 apart are as long as
# the loop, and sum its 3 million cells exactly where the full walk
# samples them
{
    my $rec = "$tmp/strided_cells.ppr";
    my %approx;
    for my $full (0, 1) {
        my ($rc, $out) = run_in($tmp, "PERFPRED_FULL_WALK=$full $pp predict $rec --machine $M --set n=3000000 "
                                      . "--P 1 --draws 0 --format json");
        my $j = $rc ? undef : eval { decode_json($out) };
        $approx{$full} = $j ? ($j->{approx} ? 'approx' : 'exact') : "exit $rc";
    }
    is("$approx{0} $approx{1}", 'exact approx',
       'strided_cells at n = 3 000 000, P = 1: summed exactly in runs 3 cells apart (the full walk samples)');
}

# a large team: the walk in segments reaches P = 200 000 (every copy
# walked in its class's segment; the full unrolling would need 48 teams
# of 200 000 members, over 30 million actions)
{
    my $rec = "$tmp/ge_omp.ppr";
    my ($rc, $out, $err) = run_in($tmp, "PERFPRED_CLASS_STATS=1 $pp predict $rec --machine $M --P 200000 --draws 0 --format json");
    my $j = eval { decode_json($out) };
    is($rc, 0, 'ge_omp N = 48 at P = 200 000: predicted') or diag($err);
    is($j && $j->{threads}, 200000, 'ge_omp at P = 200 000: 200 000 threads walked');
    my ($copied, $walked) = $err =~ /P=200000: (\d+) of \d+ team members copied from their class, (\d+) walked/;
    ok($copied && $walked == $copied && $copied > 47 * 199990, "ge_omp at P = 200 000: the copies ($copied) all walked in their class's segment");
}

# the other commands that walk the graph: the timeline (a file), where
# the time goes (--by) and the sensitivity, at P = 8
for my $name (qw(ge_omp team_rows)) {
    my $rec = "$tmp/$name.ppr";
    next unless -s $rec;
    run_in($tmp, "$pp timeline $rec --machine $M --P 8 -o $tmp/t1.json");
    run_in($tmp, "PERFPRED_FULL_WALK=1 $pp timeline $rec --machine $M --P 8 -o $tmp/t2.json");
    ok(-s "$tmp/t1.json" && system("cmp -s $tmp/t1.json $tmp/t2.json") == 0, "$name: the same timeline both ways");
    my ($r1, $r2, $j1, $j2) = both("$pp predict $rec --machine $M --P 8 --by loop --format json");
    is($r1 == 0 && $r2 == 0 ? json_differ($j1, $j2, 'by') : "exit $r1, $r2", '', "$name: predict --by loop the same both ways");
    my (undef, $s1) = run_in($tmp, "$pp sensitivity $rec --machine $M --P 8");
    my (undef, $s2) = run_in($tmp, "PERFPRED_FULL_WALK=1 $pp sensitivity $rec --machine $M --P 8");
    ok($s1 ne '' && $s1 eq $s2, "$name: sensitivity the same both ways");
}

done_testing();
