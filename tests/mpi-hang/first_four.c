/* first_four.c - correct at 4 ranks, hangs from 5: a broadcast guarded by
 * `rank < 4` (written for 4 ranks), so from 5 ranks on the others never
 * reach it while ranks 0-3 wait there (a collective not every rank
 * reaches).  Recorded at 4 ranks, `perfpred predict RUN --P 8` must report
 * the hang with the ranks that finished without the broadcast.
 *
 * Usage: mpirun -np 4 first_four N
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double v[4] = {0, 0, 0, 0};
    for (long i = 0; i < n; i++)
        v[i % 4] += 1.0;
    if (rank < 4)                                 /* the bug */
        MPI_Bcast(v, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("v %.0f %.0f %.0f %.0f (%d ranks)\n", v[0], v[1], v[2], v[3], size);
    MPI_Finalize();
    return 0;
}
