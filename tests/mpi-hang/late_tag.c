/* late_tag.c - correct at 4 ranks, hangs from 5: rank 0 collects one
 * message from every other rank r, tagged r, but the senders tag theirs
 * r % 4 (written for 4 ranks), so from 5 ranks on rank 0 waits for rank
 * 4's tag 4, which rank 4 sends as tag 0 (an unmatched receive).
 * Recorded at 4 ranks, `perfpred predict RUN --P 8` must report the hang:
 * rank 0 waiting in MPI_Recv for a message from rank 4 with tag 4.
 *
 * Usage: mpirun -np 4 late_tag N    (N: work per rank)
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
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)(i % 7) * 0.5;
    if (rank == 0) {
        double x, sum = s;
        for (int r = 1; r < size; r++) {
            MPI_Recv(&x, 1, MPI_DOUBLE, r, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += x;
        }
        printf("sum %.1f\n", sum);
    } else
        MPI_Send(&s, 1, MPI_DOUBLE, 0, rank % 4, MPI_COMM_WORLD);   /* the bug */
    MPI_Finalize();
    return 0;
}
