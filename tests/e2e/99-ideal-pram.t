#!/usr/bin/perl
# 99-ideal-pram.t - the PRAM and the MIRACLE machine charge the work and
# nothing else (docs/model.md, section 5): no synchronisation or message
# cost, and no fitted fixed cost of a segment (the runtime's own time at
# each event), which the real machine charges as synchronisation.  Before,
# that constant was charged as computation: a pthreads Jacobi recorded at
# P = 2 had E_a = 0.02 at P = 256, main's 256 creates and joins each
# paying 16 us of "work".
#  - a balanced block-partitioned Jacobi stencil, written three ways
#    (pthreads: row ranges in a struct handed to pthread_create and a
#    barrier between sweeps; OpenMP: one parallel region, `omp for` in the
#    time loop; MPI: halo rows exchanged with rank - 1 and rank + 1 by
#    MPI_Sendrecv), recorded at P = 2 on 256 x 256 points and predicted on
#    64 times the points: E_a >= 0.95 (0.85 under the sanitizers) at P = 1, 2, 4, ..., 256; the PRAM's
#    breakdown has no synchronisation and no communication;
#  - a program with a serial fraction f = 0.2: every step updates a side
#    array of n/4 elements on the main thread and the main array of n
#    elements in parallel (each thread its block) with the same routine,
#    so that a serial iteration costs what a parallel one does whatever
#    the fit gives that routine: E_a within 2 % of Amdahl's
#    1/(1 + 0.2 (P - 1)) at P = 1, 2, 4, ..., 1024.  The model's own split
#    is checked too: f_model = 1 - W/T1, W the computation of the two
#    parallel regions at P = 1 (predict --by function --region, on the
#    PRAM), is 0.2 within 1 %, and E_a follows 1/(1 + f_model (P - 1)).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $PP  = "$B/perfpred";
my $TMP = tempdir('pp-pram-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;    # (the programs' own leaks are not tested)
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};

my @P = map { 2**$_ } 0 .. 8;                        # 1 .. 256
my @P_amdahl = map { 2**$_ } 0 .. 10;                # 1 .. 1024

sub write_file {
    my ($name, $text) = @_;
    open my $f, '>', "$TMP/$name" or die "$TMP/$name: $!";
    print $f $text;
    close $f;
}

sub build {
    my ($name, $cc, $flags) = @_;
    my ($rc, $out, $err) = run_in($TMP, "$cc -O2$SAN $flags -fplugin=$B/perfpred.so $TMP/$name.c -o $TMP/$name "
                                        . "-L$B -l:libperfpred-rt.a");
    is($rc, 0, "$name: instrumented build") or diag($err);
    return $rc == 0;
}

# predict's JSON: one object per P
sub predict {
    my ($what, $args) = @_;
    my ($rc, $out, $err) = run_in($TMP, "$PP predict $args --draws 0 --format json");
    is($rc, 0, "$what: predict") or diag($err);
    my $j = eval { decode_json($out) };
    ok($j, "$what: predict's JSON") or diag($out);
    return !$j ? [] : ref $j eq 'ARRAY' ? $j : [$j];
}

# E_a >= 0.95 (see below) at every P of the stencil, and the PRAM's breakdown at the
# largest P has no synchronisation and no communication (the real
# machine's has some)
sub stencil_checks {
    my ($what, $rec, $set) = @_;
    my $pts = predict("$what n=$set", "$rec --set n=$set --P " . join(',', @P));
    is(scalar @$pts, scalar @P, "$what: a prediction per P");
    # (0.85 under the sanitizers, whose costs per entry of a row are larger
    # against its iterations' and vary: a CI run measured 0.89 at P = 256)
    my $least = $SAN ? 0.85 : 0.95;
    for my $p (@$pts) {
        ok(defined $p->{Ea} && $p->{Ea} >= $least,
           sprintf("%s n=%d P=%d: E_a = T_MIR/T_PRAM = %.4f >= %g (T_PRAM %.4g s, T1 %.4g s)", $what, $set, $p->{P},
                   $p->{Ea} // -1, $least, $p->{time}{pram} // -1, $p->{T1} // -1));
    }
    my $bd = predict("$what n=$set P=256 --by event",
                     "$rec --set n=$set --P 256 --by event");
    my $m = $bd->[0]{breakdown}{machines} || {};
    my ($ps, $rs) = map { $m->{$_}{program}{sum} || {} } qw(pram real);
    ok(defined $ps->{sync} && $ps->{sync} == 0 && ($ps->{communication} // -1) == 0,
       "$what P=256: the PRAM charges no synchronisation and no communication ("
       . ($ps->{sync} // 'none') . ' s, ' . ($ps->{communication} // 'none') . ' s)');
    ok(($rs->{sync} // 0) + ($rs->{communication} // 0) > 0,
       "$what P=256: the real machine does (" . (($rs->{sync} // 0) + ($rs->{communication} // 0)) . ' s)');
}

# ------------------------------------------------------------ pthreads
write_file('jacobi_pth.c', <<'C');
/* Jacobi relaxation on an n x n grid: the interior rows in blocks over
 * the threads, a barrier between sweeps. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct block {
    int first, last;             /* interior rows [first, last) */
    int n, sweeps;
    double *u, *v;
    double sum;
};

static pthread_barrier_t sweep_done;

static void *relax(void *arg)
{
    struct block *b = arg;
    int n = b->n;
    double *u = b->u, *v = b->v;
    for (int i = b->first; i < b->last; i++)
        for (int j = 0; j < n; j++) {
            u[(long)i * n + j] = (double)(i + j) / n;
            v[(long)i * n + j] = u[(long)i * n + j];
        }
    pthread_barrier_wait(&sweep_done);
    for (int s = 0; s < b->sweeps; s++) {
        for (int i = b->first; i < b->last; i++)
            for (int j = 1; j < n - 1; j++)
                v[(long)i * n + j] = 0.25 * (u[(long)(i - 1) * n + j] + u[(long)(i + 1) * n + j] +
                                             u[(long)i * n + j - 1] + u[(long)i * n + j + 1]);
        pthread_barrier_wait(&sweep_done);
        double *t = u;
        u = v;
        v = t;
    }
    double s = 0;
    for (int i = b->first; i < b->last; i++)
        for (int j = 0; j < n; j++)
            s += u[(long)i * n + j];
    b->sum = s;
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    double *u = calloc((size_t)n * n, sizeof *u), *v = calloc((size_t)n * n, sizeof *v);
    pthread_t *tid = malloc(sizeof *tid * nthreads);
    struct block *blocks = malloc(sizeof *blocks * nthreads);
    pthread_barrier_init(&sweep_done, NULL, nthreads);
    for (int k = 0; k < nthreads; k++) {
        blocks[k].first = 1 + (n - 2) * k / nthreads;
        blocks[k].last = 1 + (n - 2) * (k + 1) / nthreads;
        blocks[k].n = n;
        blocks[k].sweeps = 20;
        blocks[k].u = u;
        blocks[k].v = v;
        pthread_create(&tid[k], NULL, relax, &blocks[k]);
    }
    double total = 0;
    for (int k = 0; k < nthreads; k++) {
        pthread_join(tid[k], NULL);
        total += blocks[k].sum;
    }
    printf("checksum %.6f\n", total);
    pthread_barrier_destroy(&sweep_done);
    free(blocks);
    free(tid);
    free(u);
    free(v);
    return 0;
}
C
if (build('jacobi_pth', 'gcc', '-pthread')) {
    my ($rc, undef, $err) = run_in($TMP, "PERFPRED_RECORD=$TMP/pth.ppr $TMP/jacobi_pth 256 2");
    is($rc, 0, 'pthreads Jacobi: recorded at n = 256, 2 threads') or diag($err);
    stencil_checks('pthreads Jacobi', "$TMP/pth.ppr", 2048);
}

# ------------------------------------------------------------ OpenMP
write_file('jacobi_omp.c', <<'C');
/* Jacobi relaxation on an n x n grid: one parallel region, the sweeps
 * inside it, each a worksharing loop over the rows. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int sweeps = 20;
    double *u = malloc(sizeof *u * (size_t)n * n), *v = malloc(sizeof *v * (size_t)n * n);
    double total = 0;
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                u[(long)i * n + j] = (double)(i + j) / n;
                v[(long)i * n + j] = u[(long)i * n + j];
            }
        for (int s = 0; s < sweeps; s++) {
            double *src = s % 2 ? v : u, *dst = s % 2 ? u : v;
#pragma omp for
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    dst[(long)i * n + j] = 0.25 * (src[(long)(i - 1) * n + j] + src[(long)(i + 1) * n + j] +
                                                   src[(long)i * n + j - 1] + src[(long)i * n + j + 1]);
        }
#pragma omp for reduction(+ : total)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                total += u[(long)i * n + j];
    }
    printf("checksum %.6f\n", total);
    free(u);
    free(v);
    return 0;
}
C
if (build('jacobi_omp', 'gcc', '-fopenmp')) {
    my ($rc, undef, $err) = run_in($TMP, "OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/omp.ppr $TMP/jacobi_omp 256");
    is($rc, 0, 'OpenMP Jacobi: recorded at n = 256, 2 threads') or diag($err);
    stencil_checks('OpenMP Jacobi', "$TMP/omp.ppr", 2048);
}

# ------------------------------------------------------------ MPI
write_file('jacobi_mpi.c', <<'C');
/* Jacobi relaxation on an n x n grid: the rows in blocks over the ranks,
 * each sweep exchanging its first and last rows with rank - 1 and
 * rank + 1 (ghost rows above and below the block). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int sweeps = 20;
    int first = n * rank / size, last = n * (rank + 1) / size;
    int rows = last - first;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = calloc((size_t)(rows + 2) * n, sizeof *u);
    double *v = calloc((size_t)(rows + 2) * n, sizeof *v);
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            u[(long)i * n + j] = (double)(first + i - 1 + j) / n;
    for (int s = 0; s < sweeps; s++) {
        MPI_Sendrecv(&u[(long)n], n, MPI_DOUBLE, up, 0, &u[(long)(rows + 1) * n], n, MPI_DOUBLE, down, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[(long)rows * n], n, MPI_DOUBLE, down, 1, &u[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 1; i <= rows; i++)
            for (int j = 1; j < n - 1; j++)
                v[(long)i * n + j] = 0.25 * (u[(long)(i - 1) * n + j] + u[(long)(i + 1) * n + j] +
                                             u[(long)i * n + j - 1] + u[(long)i * n + j + 1]);
        double *t = u;
        u = v;
        v = t;
    }
    double part = 0, total = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            part += u[(long)i * n + j];
    MPI_Reduce(&part, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checksum %.6f\n", total);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
C
SKIP: {
    skip 'mpicc or mpirun is not installed (Debian packages libopenmpi-dev openmpi-bin, make deps)', 1
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local @ENV{qw(OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe)} = (1, 1, 1);
    last SKIP unless build('jacobi_mpi', 'mpicc', '');
    my ($rc, undef, $err) = run_in($TMP, "PERFPRED_RECORD=$TMP/mpi.run timeout -k 5 120 mpirun -np 2 $TMP/jacobi_mpi 256");
    is($rc, 0, 'MPI Jacobi: recorded at n = 256 on 2 ranks') or diag($err);
    stencil_checks('MPI Jacobi', "$TMP/mpi.run", 2048);
}

# ------------------------------------------------------------ f = 0.2
write_file('amdahl.c', <<'C');
/* Logistic-map steps over two arrays: a side array of n/4 elements on
 * the main thread, the main array of n elements in parallel, each thread
 * its own block, both with the same routines. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void fill(double *a, long lo, long hi, long n)
{
    for (long i = lo; i < hi; i++)
        a[i] = 0.1 + 0.8 * (double)i / (double)n;
}

static void iterate(double *a, long lo, long hi)
{
    for (long i = lo; i < hi; i++) {
        double v = a[i];
        for (int k = 0; k < 8; k++)
            v = 3.7 * v * (1.0 - v);
        a[i] = v;
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1 << 18;
    int steps = 10;
    double *x = malloc(sizeof *x * n), *side = malloc(sizeof *side * (n / 4));
    fill(side, 0, n / 4, n);
#pragma omp parallel
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        fill(x, n * t / p, n * (t + 1) / p, n);
    }
    for (int s = 0; s < steps; s++) {
        iterate(side, 0, n / 4);
#pragma omp parallel
        {
            int t = omp_get_thread_num(), p = omp_get_num_threads();
            iterate(x, n * t / p, n * (t + 1) / p);
        }
    }
    printf("%.6f %.6f\n", x[n / 2], side[n / 8]);
    free(x);
    free(side);
    return 0;
}
C
if (build('amdahl', 'gcc', '-fopenmp')) {
    my ($rc, undef, $err) = run_in($TMP, "OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/amdahl.ppr $TMP/amdahl 262144");
    is($rc, 0, 'serial fraction 0.2: recorded at n = 2^18, 2 threads') or diag($err);
    my $n = 1 << 24;
    my $pts = predict('serial fraction 0.2', "$TMP/amdahl.ppr --set n=$n --P " . join(',', @P_amdahl));
    is(scalar @$pts, scalar @P_amdahl, 'serial fraction 0.2: a prediction per P');
    # the model's own split at P = 1: the parallel regions' computation
    my $W = 0;
    for my $r (qw(main._omp_fn.0 main._omp_fn.1)) {
        my $bd = predict("region $r", "$TMP/amdahl.ppr --set n=$n --P 1 --by function --region $r");
        $W += $bd->[0]{breakdown}{machines}{pram}{region}{sum}{computation} // 0;
    }
    my $T1 = $pts->[0]{T1} // 0;
    my $f = $T1 > 0 ? 1 - $W / $T1 : -1;
    ok(abs($f - 0.2) <= 0.002, sprintf('serial fraction: the model\'s own split is f = 1 - W/T1 = %.5f (W %.6g s, '
                                       . 'T1 %.6g s), 0.2 within 1%%', $f, $W, $T1));
    for my $p (@$pts) {
        my $P = $p->{P};
        my ($amdahl, $own) = (1 / (1 + 0.2 * ($P - 1)), 1 / (1 + $f * ($P - 1)));
        ok(defined $p->{Ea} && abs($p->{Ea} / $amdahl - 1) <= 0.02,
           sprintf('f = 0.2, P = %d: E_a = %.6f, Amdahl 1/(1 + 0.2 (P - 1)) = %.6f, within 2%%', $P, $p->{Ea} // -1,
                   $amdahl));
        ok(defined $p->{Ea} && abs($p->{Ea} / $own - 1) <= 0.02,
           sprintf('f = %.5f (the model\'s), P = %d: E_a = %.6f, 1/(1 + f (P - 1)) = %.6f, within 2%%', $f, $P,
                   $p->{Ea} // -1, $own));
    }
}

done_testing();
