/* hang_coll.c - a deliberately broken MPI program: a collective that only
 * some ranks reach.
 *
 * Every rank takes part in the broadcast of a value from rank 0, but then
 * only the even ranks call MPI_Barrier (line marked HANG below); the odd
 * ranks skip it and go to MPI_Finalize.  With 2 or more ranks the even
 * ranks wait in the barrier for ranks that never enter it, so the program
 * hangs.  (A broadcast in its place need not hang: with a small message
 * the root's sends complete without their receivers, and Open MPI lets
 * the program end.)
 *
 * What the descriptors must show: the barrier guarded by the branch
 * (eq (- (rank) (shl (shr (rank) 1) 1)) 0), which is rank % 2 == 0: the
 * model can see that ranks 1, 3, ... never reach the collective that
 * ranks 0, 2, ... wait in.
 *
 * Usage: mpirun -np P hang_coll      (never run it without `timeout -k 2 10`)
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
    double v = rank == 0 ? 3.5 : 0.0;
    MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank % 2 == 0)
        MPI_Barrier(MPI_COMM_WORLD); /* HANG: the odd ranks never call it */
    if (rank == size - 1)
        printf("v = %g\n", v);
    MPI_Finalize();
    return 0;
}
