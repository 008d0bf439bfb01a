/* hybrid.c - test program: MPI ranks, each with an OpenMP team over its
 * block of a sum (hybrid MPI + OpenMP).
 *
 * Usage: mpirun -np P hybrid N [REPS]   (OMP_NUM_THREADS threads per rank)
 * For r = 0..REPS-1: each rank sums 1/(1+i^2) over its n/P indices with a
 * parallel for (reduction), then an MPI_Allreduce.  Prints the sum.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    long lo = rank * (n / size), hi = lo + n / size;
    double tot = 0;
    for (int r = 0; r < reps; r++) {
        double s = 0;
#pragma omp parallel for reduction(+ : s)
        for (long i = lo; i < hi; i++)
            s += 1.0 / (1.0 + (double)i * i);
        double g;
        MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tot += g;
    }
    if (rank == 0)
        printf("%.12f\n", tot);
    MPI_Finalize();
    return 0;
}
