/* ring_mpi.c - 1-D diffusion on a periodic rod, MPI.
 *
 * Usage: mpirun -np P ring_mpi [NX [STEPS]]
 *
 * The rod's NX cells are split in blocks over the ranks, arranged in a
 * ring; every step each rank swaps one halo cell with each neighbour
 * (MPI_Sendrecv), updates its block, and every CHECK_EVERY steps the
 * ranks agree on the largest change (MPI_Allreduce) and stop early when it
 * is below TOL.  NX and STEPS default to the macros below.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 1000000
#endif
#ifndef STEPS
#define STEPS 500
#endif
#define CHECK_EVERY 10
#define TOL 1e-12

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long nx = argc > 1 ? atol(argv[1]) : NX;
    int steps = argc > 2 ? atoi(argv[2]) : STEPS;
    if (nx < size || steps < 1) {
        if (rank == 0)
            fprintf(stderr, "ring_mpi: need NX >= ranks and STEPS >= 1\n");
        MPI_Finalize();
        return 2;
    }

    long lo = nx * rank / size, hi = nx * (rank + 1) / size;
    long n = hi - lo;
    /* cells 1..n are ours, 0 and n+1 the neighbours' halo */
    double *u = malloc(sizeof(double) * (n + 2));
    double *v = malloc(sizeof(double) * (n + 2));
    if (!u || !v) {
        fprintf(stderr, "ring_mpi: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 1; i <= n; i++) {
        long g = lo + i - 1;
        u[i] = sin(6.283185307179586 * g / nx) + 0.5 * sin(25.132741228718345 * g / nx);
    }

    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const double k = 0.4;
    int s;
    double change = 0.0;
    for (s = 0; s < steps; s++) {
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);

        double local = 0.0;
        for (long i = 1; i <= n; i++) {
            v[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
            double d = fabs(v[i] - u[i]);
            if (d > local)
                local = d;
        }
        double *t = u;
        u = v;
        v = t;

        if ((s + 1) % CHECK_EVERY == 0) {
            MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (change < TOL)
                break;
        }
    }

    double part = 0.0, total = 0.0;
    for (long i = 1; i <= n; i++)
        part += u[i] * u[i];
    MPI_Reduce(&part, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checksum %.10e steps %d change %.3e\n", total, s, change);

    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
