/* hang_recv.c - a deliberately broken MPI program: a receive that no send
 * matches.
 *
 * Rank 1 sends one int to rank 0 with tag 1 (small: it completes eagerly),
 * but rank 0 waits for a message from rank 1 with tag 2 (line marked HANG
 * below), which rank 1 never sends.  Every other rank goes on to
 * MPI_Finalize.  Under mpirun with 2 or more ranks rank 0 blocks in
 * MPI_Recv for ever (and the others in MPI_Finalize, or they exit and
 * mpirun waits for rank 0).
 *
 * What the descriptors must show: the recv guarded by (eq (rank) 0) with
 * peer=1 tag=2, the send guarded by (eq (rank) 1) with peer=0 tag=1: the
 * model can see that no send matches the receive, for any P >= 2.
 *
 * Usage: mpirun -np P hang_recv      (never run it without `timeout -k 2 10`)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, x = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    else if (rank == 0 && size > 1) {
        MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* HANG: tag 2 never sent */
        printf("received %d\n", x);
    }
    MPI_Finalize();
    return 0;
}
