/* mpi_ring.c - point-to-point rings and collectives, MPI.
 *
 * Stresses the MPI calls the runtime wraps: a pairwise exchange with the
 * partner rank ^ 1 by MPI_Sendrecv (MPI_PROC_NULL for the last rank of an
 * odd count), a ring shift in which even ranks send first and odd ranks
 * receive first (MPI_Send/MPI_Recv), a ring of MPI_Isend/MPI_Irecv
 * completed by MPI_Waitall, MPI_Allreduce (sum, max), MPI_Reduce to rank 0,
 * MPI_Bcast of parameters from rank 0 and MPI_Barrier between rounds.  A
 * message lost, doubled or delivered to the wrong rank changes a sum.
 *
 *   mpirun -np P mpi_ring N ROUNDS     (only rank 0 prints)
 *
 * perfpred-diff: kind=mpi args="2000 5" repeat=2
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long params[2] = { 2000, 5 };
    if (rank == 0) {
        if (argc > 1)
            params[0] = atol(argv[1]);
        if (argc > 2)
            params[1] = atol(argv[2]);
    }
    MPI_Bcast(params, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    long n = params[0], rounds = params[1];
    if (n < 1 || rounds < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpi_ring N ROUNDS\n");
        MPI_Finalize();
        return 2;
    }
    long *mine = malloc(n * sizeof *mine), *theirs = malloc(n * sizeof *theirs);
    long *left_in = malloc(n * sizeof *left_in);
    for (long i = 0; i < n; i++)
        mine[i] = (rank + 1) * 1000 + i % 97;
    int partner = rank ^ 1;
    if (partner >= size)
        partner = MPI_PROC_NULL;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long check = 0;

    for (long r = 0; r < rounds; r++) {
        for (long i = 0; i < n; i++)
            theirs[i] = -1;
        MPI_Sendrecv(mine, (int)n, MPI_LONG, partner, 10, theirs, (int)n, MPI_LONG, partner, 10,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long pair = 0;
        if (partner != MPI_PROC_NULL)
            for (long i = 0; i < n; i++)
                pair += theirs[i] % 1000;
        /* ring shift to the right: even ranks send first */
        if (size > 1) {
            if (rank % 2 == 0) {
                MPI_Send(mine, (int)n, MPI_LONG, right, 20, MPI_COMM_WORLD);
                MPI_Recv(left_in, (int)n, MPI_LONG, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(left_in, (int)n, MPI_LONG, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(mine, (int)n, MPI_LONG, right, 20, MPI_COMM_WORLD);
            }
        } else {
            for (long i = 0; i < n; i++)
                left_in[i] = mine[i];
        }
        /* the other way round, non-blocking */
        long tok_out = rank * 100 + r, tok_in = -1;
        MPI_Request req[2];
        MPI_Irecv(&tok_in, 1, MPI_LONG, right, 30, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&tok_out, 1, MPI_LONG, left, 30, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        for (long i = 0; i < n; i++)
            mine[i] = (mine[i] + left_in[i] + tok_in % 7) % 100003;
        long local[2] = { pair, tok_in }, sum[2], mx;
        MPI_Allreduce(local, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&mine[r % n], &mx, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        check = (check * 31 + sum[0] + sum[1] + mx) % 1000000007L;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    long s = 0, total;
    for (long i = 0; i < n; i++)
        s += mine[i];
    MPI_Reduce(&s, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    long agree = check, all_agree;
    MPI_Allreduce(&agree, &all_agree, 1, MPI_LONG, MPI_BXOR, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks %d total %ld check %ld agree %s\n", size, total, check,
               all_agree == (size % 2 ? check : 0) ? "yes" : "no");
    free(mine);
    free(theirs);
    free(left_in);
    MPI_Finalize();
    return 0;
}
