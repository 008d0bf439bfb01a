/* mpi_blocks.c - particles dealt to MPI ranks in blocks, the way SPMD
 * codes deal them: the first n % P ranks one particle more, the step
 * count a macro, a global energy each step (MPI_Allreduce), and every few
 * steps an exchange between pairs of ranks (partner rank ^ 1) and the
 * per-rank sums gathered on rank 0.  Ranks past the particles (P > n)
 * hold an empty range and only take part in the exchanges and the
 * collectives.
 *
 * usage: mpi_blocks N
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NSTEPS 12
#define REPORT_EVERY 4

static double step(long lo, long hi, double *x, double *v, long n, double dt)
{
    double e = 0.0;
    for (long i = lo; i < hi; i++) {
        double f = 0.0;
        for (long j = 0; j < 32; j++)
            f -= sin(x[i - lo] + 0.01 * (double)(j + i % 7));
        v[i - lo] += dt * f;
        x[i - lo] += dt * v[i - lo];
        e += 0.5 * v[i - lo] * v[i - lo] + (double)n * 1e-9;
    }
    return e;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = 0;
    if (rank == 0) {
        n = argc > 1 ? atol(argv[1]) : 0;
        if (n < 1 || n > 100000000) {
            fprintf(stderr, "usage: mpi_blocks N   (1 <= N <= 1e8)\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    /* my particles: lo <= i < hi */
    long q = n / size, extra = n % size;
    long lo = rank * q + (rank < extra ? rank : extra);
    long hi = lo + q + (rank < extra ? 1 : 0);
    long mine = hi - lo;
    double *x = malloc((size_t)(mine + 1) * sizeof *x);
    double *v = malloc((size_t)(mine + 1) * sizeof *v);
    double *sums = rank == 0 ? malloc((size_t)size * sizeof *sums) : NULL;
    if (!x || !v || (rank == 0 && !sums)) {
        fprintf(stderr, "mpi_blocks: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = lo; i < hi; i++) {
        x[i - lo] = 0.001 * (double)i;
        v[i - lo] = 0.0;
    }
    double total = 0.0;
    for (int s = 1; s <= NSTEPS; s++) {
        double e = step(lo, hi, x, v, n, 0.01), all;
        MPI_Allreduce(&e, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        total += all;
        if (s % REPORT_EVERY == 0) {
            /* pairs of ranks compare their first particles */
            int partner = rank ^ 1;
            double mine0 = mine > 0 ? x[0] : 0.0, theirs = 0.0;
            if (partner < size)
                MPI_Sendrecv(&mine0, 1, MPI_DOUBLE, partner, s, &theirs, 1, MPI_DOUBLE, partner, s,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += 1e-12 * theirs;
            MPI_Gather(&e, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                double mx = 0.0;
                for (int r = 0; r < size; r++)
                    if (sums[r] > mx)
                        mx = sums[r];
                printf("step %d: energy %.6g, largest share %.3g\n", s, all, all > 0 ? mx / all : 0.0);
            }
        }
    }
    if (rank == 0)
        printf("total %.9g\n", total);
    free(x);
    free(v);
    free(sums);
    MPI_Finalize();
    return 0;
}
