/* mpi_ge.c - Gaussian elimination with MPI, the pivot row broadcast at
 * every step: the GE program of Clement & Quinn 1997 (fitted on the nCUBE
 * 3200, their Fig. 6 is the time spent broadcasting the pivot row).
 *
 * Solves A x = b for the N x N matrix A(i,j) = 1/(i+j+1) + (i==j ? N : 0),
 * which is diagonally dominant (no pivoting needed), and b(i) = sum_j A(i,j),
 * so that x ~ 1 (the same system as ge_omp.c).  Rows are dealt out
 * cyclically: global row i is local row i / P of rank i mod P, stored with
 * its right-hand side as N+1 doubles.
 *
 *   elimination, step k = 0..N-2: the owner of row k (rank k mod P) copies
 *     it out and broadcasts it, MPI_Bcast(piv, N+1, MPI_DOUBLE, k % P, ...);
 *     every rank then eliminates column k from its rows below k (local
 *     rows (k + P - rank) / P .. nloc-1, columns k..N);
 *   back substitution, step k = N-1..0: the owner computes x(k) and
 *     broadcasts it (MPI_Bcast of one double from rank k mod P); every rank
 *     subtracts A(i,k) x(k) from the right-hand side of its rows above k
 *     (local rows 0 .. (k + P - 1 - rank) / P - 1).
 *
 * Every rank ends with all of x; rank 0 prints the checksum sum_i x(i)
 * (~ N), which is the same for every P: each element sees the same
 * operations in the same order whatever the distribution.
 *
 * Usage: mpirun -np P mpi_ge N      (2 <= N <= 16384)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

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

    int n = 0;
    if (rank == 0) {
        if (argc != 2 || !is_count(argv[1]) || atoi(argv[1]) < 2 || atoi(argv[1]) > 16384) {
            fprintf(stderr, "usage: mpi_ge N   (2 <= N <= 16384)\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        n = atoi(argv[1]);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);

    /* my rows: global rank, rank + P, rank + 2P, ... below n */
    int nloc = (n - rank + size - 1) / size;
    int w = n + 1;
    double *a = malloc(((size_t)nloc * w + 1) * sizeof *a);
    double *piv = malloc((size_t)w * sizeof *piv);
    double *x = malloc((size_t)n * sizeof *x);
    if (!a || !piv || !x) {
        fprintf(stderr, "mpi_ge: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int li = 0; li < nloc; li++) {
        int i = rank + li * size;
        double s = 0.0;
        for (int j = 0; j < n; j++) {
            a[(size_t)li * w + j] = 1.0 / (double)(i + j + 1) + (i == j ? (double)n : 0.0);
            s += a[(size_t)li * w + j];
        }
        a[(size_t)li * w + n] = s;
    }

    for (int k = 0; k < n - 1; k++) {
        if (k % size == rank)
            for (int j = 0; j < w; j++)
                piv[j] = a[(size_t)(k / size) * w + j];
        MPI_Bcast(piv, n + 1, MPI_DOUBLE, k % size, MPI_COMM_WORLD);
        for (int li = (k + size - rank) / size; li < nloc; li++) {
            double *row = a + (size_t)li * w;
            double l = row[k] / piv[k];
            for (int j = k; j < w; j++)
                row[j] -= l * piv[j];
        }
    }

    for (int k = n - 1; k >= 0; k--) {
        if (k % size == rank)
            x[k] = a[(size_t)(k / size) * w + n] / a[(size_t)(k / size) * w + k];
        MPI_Bcast(&x[k], 1, MPI_DOUBLE, k % size, MPI_COMM_WORLD);
        int above = (k + size - 1 - rank) / size;
        for (int li = 0; li < above; li++)
            a[(size_t)li * w + n] -= a[(size_t)li * w + k] * x[k];
    }

    if (rank == 0) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += x[i];
        printf("checksum %.15g\n", s);
    }
    free(a);
    free(piv);
    free(x);
    MPI_Finalize();
    return 0;
}
