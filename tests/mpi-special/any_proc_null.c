/* any_proc_null.c - MPI's special ranks and tag, whose values differ
 * between implementations (Open MPI: MPI_ANY_SOURCE -1, MPI_PROC_NULL -2;
 * MPICH: -2 and -1; MPI_ANY_TAG -1 in both): the descriptors hold the
 * numbers, the record says what they mean.
 *
 *   usage: any_proc_null N REPS
 *
 * Each of REPS rounds: every rank sums its share of 1..N (cyclic), passes
 * its sum to the right with MPI_Send and takes its left neighbour's with
 * MPI_Recv (a shift: MPI_PROC_NULL beyond the last rank and before rank 0,
 * so those calls return at once), then every rank but 0 sends its total to
 * rank 0 with its rank as the tag, and rank 0 takes them in whatever order
 * they come with MPI_ANY_SOURCE and MPI_ANY_TAG.  Rank 0 prints the total.
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
    long par[2] = { 0, 0 };
    if (rank == 0) {
        par[0] = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
        par[1] = argc > 2 ? strtol(argv[2], NULL, 10) : 3;
    }
    MPI_Bcast(par, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    long n = par[0], reps = par[1];
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    long long total = 0;
    for (long r = 0; r < reps; r++) {
        long long part = 0, got = 0;
        for (long i = rank + 1; i <= n; i += size)
            part += i % 7 == 0 ? 2 * i : i;
        MPI_Send(&part, 1, MPI_LONG_LONG, right, 5, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_LONG_LONG, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        part += got;
        if (rank > 0) {
            MPI_Send(&part, 1, MPI_LONG_LONG, 0, rank, MPI_COMM_WORLD);
        } else {
            for (int k = 1; k < size; k++) {
                long long v;
                MPI_Recv(&v, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                part += v;
            }
            total += part;
        }
    }
    if (rank == 0)
        printf("total %lld\n", total);
    MPI_Finalize();
    return 0;
}
