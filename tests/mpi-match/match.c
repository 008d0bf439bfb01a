/* match.c - point-to-point messages for `perfpred show`'s matching
 * (tests/e2e/84-mpi-match.t), on 3 ranks:
 *
 *   rank 0 sends rank 1 three messages with MPI_Isend: tag 5 (1 int),
 *     tag 6 (2 ints), tag 5 (3 ints);
 *   rank 1 posts MPI_Irecv from rank 0 with tag 6 (room for 2 ints), from
 *     rank 0 with tag 5 (room for 1), then from MPI_ANY_SOURCE with
 *     MPI_ANY_TAG (room for 3): MPI gives them the second, the first and
 *     the third message, in that order, whatever their timing;
 *   after a barrier, rank 2 sends rank 1 a message (tag 9) that rank 1
 *     never receives;
 *   rank 0 sends rank 1 one int on a duplicate of MPI_COMM_WORLD.
 *
 * Output (rank 1): "got 6 5 5" (the tags received, in posting order) and
 * "sum N".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int a[1] = {1}, b[2] = {2, 3}, c[3] = {4, 5, 6}, x[1] = {0}, y[2] = {0, 0}, z[3] = {0, 0, 0};
    if (size >= 3 && rank == 0) {
        MPI_Request rq[3];
        MPI_Isend(a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(b, 2, MPI_INT, 1, 6, MPI_COMM_WORLD, &rq[1]);
        MPI_Isend(c, 3, MPI_INT, 1, 5, MPI_COMM_WORLD, &rq[2]);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    } else if (size >= 3 && rank == 1) {
        MPI_Request rq[3];
        MPI_Status st[3];
        MPI_Irecv(y, 2, MPI_INT, 0, 6, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq[1]);
        MPI_Irecv(z, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[2]);
        MPI_Waitall(3, rq, st);
        printf("got %d %d %d\n", st[0].MPI_TAG, st[1].MPI_TAG, st[2].MPI_TAG);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (size >= 3 && rank == 2)
        MPI_Send(a, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
    if (size >= 3 && rank == 0)
        MPI_Send(a, 1, MPI_INT, 1, 1, dup);
    else if (size >= 3 && rank == 1) {
        MPI_Recv(a, 1, MPI_INT, 0, 1, dup, MPI_STATUS_IGNORE);
        printf("sum %d\n", x[0] + y[0] + y[1] + z[0] + z[1] + z[2] + a[0]);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
