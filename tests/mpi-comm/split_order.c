/* split_order.c - MPI_Comm_split's rules, for tests/e2e/83-mpi-comm.t:
 * ranks with rank mod 3 = 2 give MPI_UNDEFINED (no communicator); the
 * others split by rank mod 3 with key -rank, so that rank 0 of each new
 * communicator is its highest world rank.  Every member but that one sends
 * its world rank to it (MPI_Send on the new communicator, to its rank 0),
 * which receives them in the new communicator's rank order and checks
 * that they arrive from the expected world ranks; then a barrier on it.
 *
 * Usage: mpirun -np P split_order      (prints "split_order: ok P=...")
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm part;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3 == 2 ? MPI_UNDEFINED : rank % 3, -rank, &part);
    if (rank % 3 != 2) {
        int me, n;
        MPI_Comm_rank(part, &me);
        MPI_Comm_size(part, &n);
        int mine = rank;       /* (&rank to MPI would make it no longer the rank) */
        if (me != 0)
            MPI_Send(&mine, 1, MPI_INT, 0, 4, part);
        else
            for (int i = 1; i < n; i++) {
                int w = -1;
                MPI_Recv(&w, 1, MPI_INT, i, 4, part, MPI_STATUS_IGNORE);
                /* rank i of the color's communicator: the i-th highest */
                bad |= w != rank - 3 * i;
            }
        MPI_Barrier(part);
        MPI_Comm_free(&part);
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("split_order: %s P=%d\n", any ? "WRONG" : "ok", size);
    MPI_Finalize();
    return any;
}
