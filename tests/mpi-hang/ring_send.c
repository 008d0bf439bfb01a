/* ring_send.c - correct for small messages, hangs for large ones: every
 * rank sends N doubles to the next rank with a blocking MPI_Send before it
 * receives from the previous one.  Below MPI's eager limit the sends are
 * buffered and complete; above it each send waits for a receive that its
 * destination only posts after its own send: a cycle of blocking sends.
 * Recorded with N = 16, `perfpred predict RUN --set n=1000000` must report
 * the cycle 0 -> 1 -> 2 -> 3 -> 0 (the real program hangs there too).
 *
 * Usage: mpirun -np 4 ring_send N
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
    long n = argc > 1 ? atol(argv[1]) : 16;
    if (n < 1 || n > 100000000)
        n = 16;
    double *out = malloc(sizeof *out * (size_t)n), *in = malloc(sizeof *in * (size_t)n);
    if (!out || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (long i = 0; i < n; i++)
        out[i] = rank + i;
    MPI_Send(out, (int)n, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);   /* the bug */
    MPI_Recv(in, (int)n, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d got %.0f\n", rank, in[n - 1]);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
