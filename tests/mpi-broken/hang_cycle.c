/* hang_cycle.c - a deliberately broken MPI program: a cycle of blocking
 * sends.
 *
 * Every rank sends 4 MiB to the next rank, (rank + 1) mod P, with MPI_Send
 * (line marked HANG below) before it receives from the previous one,
 * (rank + P - 1) mod P.  A message that large goes by rendezvous: MPI_Send
 * returns only when the receiver has posted its receive, and every rank is
 * still in its send, so the program hangs for real (with one rank, the
 * rank sends to itself and hangs the same way).  The program is correct
 * only if MPI buffers every message, which the standard does not promise
 * (it is "unsafe").
 *
 * What the descriptors must show: the send with peer
 * (mod (+ (rank) 1) (nprocs)) and the receive with the previous rank as
 * peer, both unguarded, count 524288 doubles: the model can see the cycle
 * of blocking sends of the same size, for any P.
 *
 * Usage: mpirun -np P hang_cycle      (never run it without `timeout -k 2 10`)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT (4 * 1024 * 1024 / 8) /* 4 MiB of doubles */

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *out = malloc(COUNT * sizeof *out), *in = malloc(COUNT * sizeof *in);
    if (!out || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < COUNT; i++)
        out[i] = rank + i;
    MPI_Send(out, COUNT, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD); /* HANG: everyone sends first */
    MPI_Recv(in, COUNT, MPI_DOUBLE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("received %g\n", in[COUNT - 1]);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
