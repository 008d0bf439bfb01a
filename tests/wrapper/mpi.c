/* mpi.c - a ring of MPI ranks; built with OMPI_CC=perfpred-gcc mpicc.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 100;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long s = 0, r = 0;
    for (int i = 0; i < n; i++)
        s += (i + rank) % 5;
    MPI_Allreduce(&s, &r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks %d total %ld\n", size, r);
    MPI_Finalize();
    return 0;
}
