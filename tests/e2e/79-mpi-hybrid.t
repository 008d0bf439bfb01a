#!/usr/bin/perl
# 79-mpi-hybrid.t - MPI and OpenMP together: ranks that each fork an
# OpenMP team.  Recorded at 2 ranks of 2 threads; the counts are exact on
# every rank and thread, the totals at other sizes and rank counts are the
# hand values (REPS x n iterations, REPS x P x team entries), the team
# size stays the recorded one per rank (2P threads), and the sum with
# only an allreduce per repetition keeps E_a near 1.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in counts_exact_in);
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $PP  = "$B/perfpred";
my $TMP = tempdir('pp-hybrid-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
mpi_setup();

my ($rc, $out, $err) = run_in($TMP, "mpicc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so tests/mpi-hybrid/hybrid.c "
                                  . "-o $TMP/hybrid.exe -L$B -lperfpred-rt -lm");
is($rc, 0, 'hybrid.c builds with the plugin (mpicc -fopenmp)') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/rec timeout -k 5 120 "
                               . "mpirun -np 2 $TMP/hybrid.exe 400000 3");
is($rc, 0, 'hybrid runs at 2 ranks of 2 threads and records') or BAIL_OUT($err);
my ($plain) = `env OMP_NUM_THREADS=2 PERFPRED_DISABLE=1 timeout -k 5 120 mpirun -np 2 $TMP/hybrid.exe 400000 3 2>/dev/null`;
is($out, $plain, 'the instrumented program prints what the plain one does');
counts_exact_in($TMP, $PP, "$TMP/rec", 'hybrid');

for my $c ([4000000, 8], [1000000, 64]) {
    my ($n, $P) = @$c;
    my $s = json_in($TMP, "$PP show $TMP/rec --view model --set n=$n --P $P --format json",
                    "hybrid: show at n=$n, P=$P");
    my %l = map { $_->{id} => $_ } @{ $s->{loops} || [] };
    is($l{'main._omp_fn.0:L0'}{predicted}, 3 * $n, "n=$n P=$P: the parallel loop runs REPS x n = " . 3 * $n . ' times');
    is($l{'main:L0'}{predicted}, 3 * $P, "n=$n P=$P: the repetition loop runs REPS x P times (every rank)");
    is($l{'main._omp_fn.0:L1'}{predicted}, 3 * $P * 2, "n=$n P=$P: REPS x P x 2 team members enter the region");
}
my $j = json_in($TMP, "$PP predict $TMP/rec --machine docs/examples/cluster.machine --set n=400000000 --P 2,8,64 "
                    . "--draws 0 --format json", 'hybrid: predict at P = 2, 8, 64');
for my $p (@{ $j || [] }) {
    is($p->{threads}, 2 * $p->{P}, "P=$p->{P}: 2P threads (each rank keeps its recorded team of 2)");
    ok($p->{Ea} > 0.9, "P=$p->{P}: E_a = $p->{Ea} > 0.9 (an allreduce per repetition only)");
    ok($p->{time}{real} >= $p->{time}{pram} && $p->{time}{pram} >= $p->{time}{miracle} * (1 - 1e-9),
       "P=$p->{P}: T_real >= T_PRAM >= T_MIRACLE");
    ok($p->{mpi}{by_call}{allreduce} > 0, "P=$p->{P}: the allreduce takes time");
}
done_testing();
