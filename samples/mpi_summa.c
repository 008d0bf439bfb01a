/* mpi_summa.c - matrix product C = A B by SUMMA (van de Geijn & Watts,
 * 1997) on a Q x Q grid of ranks, with row and column communicators.
 *
 * Rank r sits at grid row i = r / Q, column j = r mod Q and holds the
 * NB x NB blocks A(i,j), B(i,j), C(i,j), NB = N / Q.  Two MPI_Comm_split
 * calls make its row communicator (color i, key j: its rank there is j)
 * and its column communicator (color j, key i).
 *
 *   step k = 0..Q-1: the rank of column k broadcasts its A block along
 *     its row (MPI_Bcast on the row communicator, root k), the rank of row
 *     k its B block down its column (root k on the column communicator);
 *     every rank adds the product of the two blocks to its C block
 *     (NB^3 multiply-adds);
 *   then a ring shift along each row (MPI_Sendrecv to the right neighbour
 *     in the row communicator, from the left one) of each block's sum, and
 *     the checksum, sum of C, by MPI_Allreduce on a duplicate of
 *     MPI_COMM_WORLD (as a library isolates its messages).
 *
 * A(g,h) = 1/(g+h+1), B(g,h) = 1/(g+1): the checksum is the same for every
 * Q up to rounding.  Rank 0 prints it.
 *
 * Usage: mpirun -np P mpi_summa N Q      (P = Q*Q, Q divides N, N <= 8192)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 9 && s[n] == '\0';
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int par[2] = {0, 0};
    if (rank == 0) {
        if (argc != 3 || !is_count(argv[1]) || !is_count(argv[2])) {
            fprintf(stderr, "usage: mpi_summa N Q   (P = Q*Q, Q divides N)\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        par[0] = atoi(argv[1]);
        par[1] = atoi(argv[2]);
        if (par[1] < 1 || par[1] * par[1] != size || par[0] < par[1] || par[0] > 8192 || par[0] % par[1]) {
            fprintf(stderr, "mpi_summa: need P = Q*Q (P is %d) and Q dividing N <= 8192\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(par, 2, MPI_INT, 0, MPI_COMM_WORLD);
    int n = par[0], q = par[1];
    int nb = n / q;

    MPI_Comm row, col, lib;
    MPI_Comm_split(MPI_COMM_WORLD, rank / q, rank % q, &row);
    MPI_Comm_split(MPI_COMM_WORLD, rank % q, rank / q, &col);
    MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    int myc, myr, rq;
    MPI_Comm_rank(row, &myc);      /* my column: my rank in my row */
    MPI_Comm_rank(col, &myr);      /* my row */
    MPI_Comm_size(row, &rq);

    size_t bb = (size_t)nb * (size_t)nb;
    double *a = malloc(bb * sizeof *a), *b = malloc(bb * sizeof *b), *c = calloc(bb, sizeof *c);
    double *abuf = malloc(bb * sizeof *abuf), *bbuf = malloc(bb * sizeof *bbuf);
    if (!a || !b || !c || !abuf || !bbuf) {
        fprintf(stderr, "mpi_summa: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) {
            int g = myr * nb + i, h = myc * nb + j;
            a[(size_t)i * nb + j] = 1.0 / (double)(g + h + 1);
            b[(size_t)i * nb + j] = 1.0 / (double)(g + 1);
        }

    for (int k = 0; k < q; k++) {
        if (myc == k)
            memcpy(abuf, a, bb * sizeof *a);
        MPI_Bcast(abuf, nb * nb, MPI_DOUBLE, k, row);
        if (myr == k)
            memcpy(bbuf, b, bb * sizeof *b);
        MPI_Bcast(bbuf, nb * nb, MPI_DOUBLE, k, col);
        for (int i = 0; i < nb; i++)
            for (int l = 0; l < nb; l++) {
                double x = abuf[(size_t)i * nb + l];
                for (int j = 0; j < nb; j++)
                    c[(size_t)i * nb + j] += x * bbuf[(size_t)l * nb + j];
            }
    }

    double mine = 0.0, left = 0.0, total = 0.0;
    for (size_t i = 0; i < bb; i++)
        mine += c[i];
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, (myc + 1) % rq, 7, &left, 1, MPI_DOUBLE, (myc + rq - 1) % rq, 7, row,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&left, &total, 1, MPI_DOUBLE, MPI_SUM, lib);
    if (rank == 0)
        printf("mpi_summa: N = %d, Q = %d, checksum %.10e\n", n, q, total);

    MPI_Comm_free(&lib);
    MPI_Comm_free(&col);
    MPI_Comm_free(&row);
    free(a), free(b), free(c), free(abuf), free(bbuf);
    MPI_Finalize();
    return 0;
}
