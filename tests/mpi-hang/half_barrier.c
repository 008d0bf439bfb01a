/* half_barrier.c - a barrier on a sub-communicator that not every member
 * reaches, for tests/e2e/83-mpi-comm.t: the ranks split into the even and
 * the odd ones (color rank mod 2); ranks 0 and 1 of each half then call
 * MPI_Barrier on it.  Correct on 4 ranks (each half has two); on 8 the
 * halves have four and the barrier waits for ranks 2 and 3 forever.
 *
 * Usage: mpirun -np 4 half_barrier N      (N: iterations of some work)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 16;
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &me);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += 1.0 / (i + 1 + rank);
    if (me < 2)
        MPI_Barrier(half);
    MPI_Comm_free(&half);
    if (rank == 0)
        printf("half_barrier: %d ranks, %g\n", size, s);
    MPI_Finalize();
    return 0;
}
