#!/usr/bin/perl
# 98-record-cmd.t - the recording protocol (issue 23, point 5):
# - `perfpred record -r 3 -- ./prog 2000` writes 3 records that show and
#   predict take together, one point repeated (the model's rec_group);
# - `--sizes 1000,2000 -- ./prog {}` writes 6 records, the sizes
#   alternated (its log and the files' times say so), in 2 groups of
#   repeats; the symbolic counts at 8x the larger size are exact, and the
#   data-dependent loop is fitted over 2 sizes, not 6 records;
# - errors (exit 2): --sizes without {}, {} without --sizes, a program
#   that fails (the message names the run and its exit status), a program
#   that writes no record;
# - an MPI program under mpirun: a directory of rank records per run
#   (skipped without mpicc and mpirun);
# - validate: the points' runs alternated (a command that logs which point
#   and run it is), and the minimum of the K runs reported (a command that
#   sleeps 0.3, 0.1 and 0.2 s: 0.1 s), the median and the runs in the JSON.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Time::HiRes ();
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in json_in compare_symbolic);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-reccmd-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;    # (the programs' own leaks are not tested)
$ENV{OMP_NUM_THREADS} = 2;
my $PP = "$B/perfpred";

# A vector smoothed by OpenMP sweeps, then a walk along the result until it
# passes a third of its last value: a count the plugin cannot know (about
# n/3 steps).  The size is argv[1]; below 4 it fails with exit status 3.
open my $fh, '>', "$TMP/smooth.c" or die;
print $fh <<'EOF';
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 4) {
        fprintf(stderr, "smooth: the size must be at least 4\n");
        return 3;
    }
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    if (!a || !b)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = b[i] = (double)i + (i % 3);
    for (int sweep = 0; sweep < 20; sweep++) {
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            a[i] = b[i];
    }
    double limit = a[n - 1] / 3.0;
    int k = 0;
    while (k < n && a[k] < limit)
        k++;
    printf("%d %.4f\n", k, a[n / 2]);
    free(a);
    free(b);
    return 0;
}
EOF
close $fh;
my ($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -fopenmp -fplugin=$B/perfpred.so $TMP/smooth.c -o $TMP/smooth "
                                    . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'smooth builds with the plugin') or BAIL_OUT($err);

# ---------------------------------------------------------------- -r 3
($rc, $out, $err) = run_in($TMP, "$PP record -r 3 -- $TMP/smooth 2000");
is($rc, 0, 'record -r 3: exit 0') or diag($err);
my @three = map { "$TMP/smooth.r$_.ppr" } 1 .. 3;
ok(-s $_, "record -r 3 wrote $_ (beside the program)") for @three;
like($out, qr/^3 records of \Q$TMP\E\/smooth \(1 point: /m, 'record -r 3: 3 records, 1 point');
like($out, qr/^next: perfpred predict \Q$three[0] $three[1] $three[2]\E --set NAME=VALUE --P 1,2,4$/m,
     'record -r 3: the next command names the records');
like($out, qr/^  \(NAME: n; /m, 'record -r 3: and the parameters NAME can be');
like($err, qr/^perfpred record: run 3 of 3: \Q$TMP\E\/smooth 2000 -> \Q$three[2]\E$/m, 'record -r 3: each run logged');
like($err, qr/^666 /m, "the program's output goes to stderr");
unlike($out, qr/^666 /m, '... not into the list');
my $j = json_in($TMP, "$PP show @three --format json", 'show takes the 3 records together');
is_deeply([map { $_->{group} } @{ $j->{records} || [] }], [0, 0, 0], 'show: the 3 records are repeats of one point');
is($j->{points}, 1, 'show: 1 point');
($rc, $out, $err) = run_in($TMP, "$PP show @three");
like($out, qr/^records: 3, in 1 group of repeats \(the same parameters and P\)$/m, 'show (text) says so');
($rc, $out, $err) = run_in($TMP, "$PP predict @three --set n=16000 --P 1,2");
is($rc, 0, 'predict takes the 3 records together') or diag($err);
like($out, qr/T_real/, 'predict: a prediction');

# ---------------------------------------------------------------- --sizes
($rc, $out, $err) = run_in($TMP, "$PP record --sizes 1000,2000 -o $TMP/recs -- $TMP/smooth {}");
is($rc, 0, 'record --sizes 1000,2000: exit 0') or diag($err);
my @order = map { [1000, $_], [2000, $_] } 1 .. 3;
my @six = map { "$TMP/recs/smooth.s$_->[0].r$_->[1].ppr" } @order;
ok(-s $_, "--sizes wrote $_") for @six;
my @logged = $err =~ /^perfpred record: run \d of 6 \(size (\d+), repeat (\d)\): \Q$TMP\E\/smooth \1 -> /mg;
is("@logged", join(' ', map { @$_ } @order), 'the runs alternate the sizes: 1000, 2000, 1000, 2000, ...');
# the files' times: each written after the one before it in that order
my @mtime = map { (Time::HiRes::stat($_))[9] // 0 } @six;
ok(!grep({ $mtime[$_] < $mtime[$_ - 1] } 1 .. $#mtime), 'the records were written in that order')
    or diag("@mtime");
like($out, qr/^6 records of \Q$TMP\E\/smooth, 3 at each of 2 sizes, alternated \(2 points: /m, '6 records, 2 points');
like($out, qr/^next: perfpred predict \Q@six\E --set n=16000 --P 1,2,4$/m,
     'the next command: the records, n at 8x the larger size');
$j = json_in($TMP, "$PP show @six --format json", 'show takes the 6 records together');
is_deeply([map { $_->{group} } @{ $j->{records} || [] }], [0, 1, 0, 1, 0, 1], 'show: 2 groups of 3 repeats');
is($j->{points}, 2, 'show: 2 points');
# the counts at 8x the larger size against a run there
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/big.ppr $TMP/smooth 16000");
is($rc, 0, 'smooth 16000 runs') or diag($err);
my (undef, $pj) = run_in($TMP, "$PP show @six --set n=16000 --format json");
my (undef, $oj) = run_in($TMP, "$PP show $TMP/big.ppr --format json");
my ($nsym, $exact, @diff) = compare_symbolic($pj, $oj);
ok($nsym >= 4, "$nsym symbolic loops");
is($exact, $nsym, 'every symbolic count at n = 16000 is exact') or diag(join("\n", @diff));
my %obs = map { $_->{id} => $_ } @{ (JSON::PP::decode_json($oj))->{loops} || [] };
my ($walk) = grep { $_->{rule} eq 'fitted' } @{ (JSON::PP::decode_json($pj))->{loops} || [] };
ok($walk, 'the walk is fitted over the sizes') or diag($pj);
like($walk->{note} // '', qr/fitted over 2 sizes \(6 records\): .*\(a power law through two points/,
     'the walk: repeats are one point each (2 sizes, not 6 records)');
my $want = $obs{ $walk->{id} // '' }{observed} // 0;
ok($want > 0 && abs($walk->{predicted} - $want) <= 0.02 * $want,
   "the walk at n = 16000 within 2% ($walk->{predicted} against $want)");
($rc, $out, $err) = run_in($TMP, "$PP predict @six --set n=16000 --P 1,2 --format json");
is($rc, 0, 'predict takes the 6 records together') or diag($err);

# ---------------------------------------------------------------- errors
($rc, $out, $err) = run_in($TMP, "$PP record --sizes 1000,2000 -- $TMP/smooth 1000");
is($rc, 2, '--sizes without {}: exit 2');
like($err, qr/--sizes is given but no argument holds the size's place, \{\}/, '... and says so');
($rc, $out, $err) = run_in($TMP, "$PP record -- $TMP/smooth {}");
is($rc, 2, '{} without --sizes: exit 2');
like($err, qr/an argument holds \{\}, the size's place, but no --sizes/, '... and says so');
($rc, $out, $err) = run_in($TMP, "$PP record --sizes 1000,x -- $TMP/smooth {}");
is($rc, 2, '--sizes 1000,x: exit 2');
($rc, $out, $err) = run_in($TMP, "$PP record -r 2 --sizes 1000,2 -o $TMP/bad -- $TMP/smooth {}");
is($rc, 2, 'a program that fails: exit 2');
like($err, qr/^perfpred record: run 2 of 4 \(size 2, repeat 1\) failed: exit status 3; the records before it are kept$/m,
     '... the message names the run and its exit status');
ok(-s "$TMP/bad/smooth.s1000.r1.ppr" && !-e "$TMP/bad/smooth.s1000.r2.ppr", '... the record before it kept, none after');
($rc, $out, $err) = run_in($TMP, "$PP record -r 1 -o $TMP/bad -- /bin/true");
is($rc, 2, 'a program that writes no record: exit 2');
like($err, qr/run 1 of 1: wrote no record at \Q$TMP\E\/bad\/true\.r1\.ppr/, '... and says so');

# ---------------------------------------------------------------- MPI
SKIP: {
    skip 'mpicc or mpirun not found', 7
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT} = 1;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
    local $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    local $ENV{ASAN_OPTIONS} = 'detect_leaks=0';
    open my $mf, '>', "$TMP/harmonic.c" or die;
    print $mf <<'EOF';
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double part = 0, sum = 0;
    for (long i = rank; i < n; i += size)
        part += 1.0 / (double)(i + 1);
    MPI_Reduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.6f\n", sum);
    MPI_Finalize();
    return 0;
}
EOF
    close $mf;
    ($rc, $out, $err) = run_in($TMP, "mpicc -O2$SAN -fplugin=$B/perfpred.so $TMP/harmonic.c -o $TMP/harmonic "
                                     . "-L$B -lperfpred-rt");
    is($rc, 0, 'harmonic (MPI) builds') or diag($err);
    ($rc, $out, $err) = run_in($TMP, "$PP record -r 2 --sizes 20000,40000 -o $TMP/mpi -- mpirun -np 2 $TMP/harmonic {}");
    is($rc, 0, 'record under mpirun: exit 0') or diag($err);
    my @runs = map { my $r = $_; map { "$TMP/mpi/harmonic.s$_.r$r" } 20000, 40000 } 1, 2;
    ok(!grep({ !-s "$_/rank-0.ppr" || !-s "$_/rank-1.ppr" } @runs), 'a directory of both ranks\' records per run');
    like($out, qr/^4 MPI runs of \Q$TMP\E\/harmonic, 2 at each of 2 sizes, alternated \(2 points: /m, '4 MPI runs, 2 points');
    like($out, qr/^next: perfpred predict \Q@runs\E --set n=320000 --P 1,2,4$/m, 'the next command names the runs');
    $j = json_in($TMP, "$PP show @runs --view model --format json", 'show --view model takes the 4 runs');
    is($j->{points}, 4, 'the groups: per size and rank (2 x 2)');
}

# ---------------------------------------------------------------- validate
# a command that logs "POINT RUN" and sleeps 0.3, 0.1, 0.2 s on the
# point's runs 1, 2, 3
open my $sf, '>', "$TMP/fake.sh" or die;
print $sf <<'EOF';
#!/bin/sh
k=$(grep -c "^$1 " "$2" 2>/dev/null)
k=$((k + 1))
echo "$1 $k" >>"$2"
case $k in 1) sleep 0.3 ;; 2) sleep 0.1 ;; *) sleep 0.2 ;; esac
EOF
close $sf;
chmod 0755, "$TMP/fake.sh";
$j = json_in($TMP, "$PP validate $three[0] --run '$TMP/fake.sh {n} $TMP/vlog' --point n=100 --point n=200 "
                   . "--draws 0 --format json", 'validate with a command whose times are known');
open my $lf, '<', "$TMP/vlog" or die;
my @vlog = map { chomp; $_ } <$lf>;
close $lf;
is("@vlog", '100 1 200 1 100 2 200 2 100 3 200 3', 'validate alternates the points: each once, then again');
is($j->{repeat}, 3, 'validate: 3 runs per point');
is($j->{actual_is}, 'min', 'validate: the actual time is the minimum');
for my $p (@{ $j->{points} || [] }) {
    my @r = @{ $p->{runs} || [] };
    ok(@r == 3 && $r[0] >= 0.3 && $r[1] >= 0.1 && $r[2] >= 0.2, "$p->{point}: the runs in their order (@r)");
    ok($p->{actual} >= 0.1 && $p->{actual} < 0.2 && $p->{actual} == $r[1], "$p->{point}: actual is the 0.1 s run");
    is($p->{actual_median}, $r[2], "$p->{point}: the median is the 0.2 s run");
    ok(abs($p->{actual_spread} - ($r[0] - $r[1]) / $r[1]) < 1e-6, "$p->{point}: spread (slowest - fastest) / fastest");
}
($rc, $out, $err) = run_in($TMP, "$PP validate $three[0] --run '$TMP/fake.sh {n} $TMP/vlog2' --point n=100 --draws 0 --repeat 1");
like($out, qr/actual: minimum of 1 alternated runs/, 'validate (text) says what the actual time is');

done_testing();
