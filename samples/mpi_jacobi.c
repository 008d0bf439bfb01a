/* mpi_jacobi.c - 2-D Jacobi iteration on an N x N grid with MPI: a 1-D
 * decomposition into blocks of rows with a halo exchange between
 * neighbouring ranks at every iteration, the stencil codes of Clement &
 * Quinn 1997 (their shallow water model) in the message-passing form.
 *
 * The grid is that of samples/jacobi.c: u = 1 on row 0, u = 0 on the other
 * three sides, interior u(i,j) = ((i*31 + j*17) % 64) / 64; an iteration
 * sets v(i,j) = (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1)) / 4 on the
 * interior, then swaps u and v.  Rank r owns the rows [r*N/P, (r+1)*N/P)
 * and keeps one ghost row above and one below them.
 *
 * Each iteration:
 *   halo exchange with rank-1 and rank+1, by MODE:
 *     0: two MPI_Sendrecv, the first row up (tag 1) and the last row down
 *        (tag 2); the first and the last rank use MPI_PROC_NULL for their
 *        missing neighbour;
 *     1: MPI_Irecv + MPI_Isend to rank-1 if rank > 0, to rank+1 if
 *        rank < P-1 (same tags), then one MPI_Waitall;
 *   the sweep over my interior rows (max(lo,1) .. min(hi,N-1)-1, columns
 *   1 .. N-2), each row's sum of squared changes kept;
 *   every K-th iteration, the residual (the largest such row sum) by
 *   MPI_Allreduce(MPI_MAX).
 *
 * Usage: mpirun -np P mpi_jacobi N ITERS [K [MODE]]
 *        3 <= N <= 16384, P <= N, ITERS >= 1, K >= 1 (default 10),
 *        MODE 0 or 1 (default 0).
 *
 * Output (rank 0): "residual <value>" (the last residual computed, 0 if
 * none) and "checksum <value>" (the sum of the final grid: each row's sum
 * rounded to a multiple of 2^-30, summed in 64-bit integers by MPI_Reduce),
 * the same for every P and MODE.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define QUANTUM 1073741824.0 /* 2^30 */

static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 9 && s[n] == '\0';
}

static double init(long i, long j, long n)
{
    if (i == 0)
        return 1.0;
    if (i == n - 1 || j == 0 || j == n - 1)
        return 0.0;
    return (double)((i * 31 + j * 17) % 64) / 64.0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long par[4] = {0, 0, 10, 0};
    if (rank == 0) {
        int ok = argc >= 3 && argc <= 5;
        for (int a = 1; ok && a < argc; a++)
            ok = is_count(argv[a]);
        if (ok) {
            par[0] = atol(argv[1]);
            par[1] = atol(argv[2]);
            if (argc >= 4)
                par[2] = atol(argv[3]);
            if (argc == 5)
                par[3] = atol(argv[4]);
        }
        if (!ok || par[0] < 3 || par[0] > 16384 || par[0] < size || par[1] < 1 || par[2] < 1
            || par[3] > 1) {
            fprintf(stderr, "usage: mpi_jacobi N ITERS [K [MODE]]   (3 <= N <= 16384, P <= N)\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(par, 4, MPI_LONG, 0, MPI_COMM_WORLD);
    long n = par[0], iters = par[1], k = par[2], mode = par[3];

    long lo = rank * n / size, hi = (rank + 1) * n / size, nl = hi - lo;
    double *u = malloc((size_t)((nl + 2) * n) * sizeof *u);
    double *v = malloc((size_t)((nl + 2) * n) * sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "mpi_jacobi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long rows = nl + 2;                      /* mine and the two ghosts */
    for (long li = 0; li < rows; li++) {     /* global row lo - 1 + li */
        long i = lo - 1 + li;
        for (long j = 0; j < n; j++)
            u[li * n + j] = v[li * n + j] = i >= 0 && i < n ? init(i, j, n) : 0.0;
    }

    long i0 = lo > 1 ? lo : 1, i1 = hi < n - 1 ? hi : n - 1;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double res = 0.0;
    for (long t = 0; t < iters; t++) {
        if (mode == 0) {
            MPI_Sendrecv(u + n, (int)n, MPI_DOUBLE, up, 1, u + (nl + 1) * n, (int)n, MPI_DOUBLE, down, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Sendrecv(u + nl * n, (int)n, MPI_DOUBLE, down, 2, u, (int)n, MPI_DOUBLE, up, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Request rq[4];
            int nr = 0;
            if (rank > 0) {
                MPI_Irecv(u, (int)n, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD, &rq[nr++]);
                MPI_Isend(u + n, (int)n, MPI_DOUBLE, rank - 1, 1, MPI_COMM_WORLD, &rq[nr++]);
            }
            if (rank < size - 1) {
                MPI_Irecv(u + (nl + 1) * n, (int)n, MPI_DOUBLE, rank + 1, 1, MPI_COMM_WORLD, &rq[nr++]);
                MPI_Isend(u + nl * n, (int)n, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, &rq[nr++]);
            }
            MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        }
        double d = 0.0;
        for (long i = i0; i < i1; i++) {
            const double *a = u + (i - lo + 1) * n;
            double *b = v + (i - lo + 1) * n, r = 0.0;
            for (long j = 1; j < n - 1; j++) {
                b[j] = 0.25 * (a[j - n] + a[j + n] + a[j - 1] + a[j + 1]);
                r += (b[j] - a[j]) * (b[j] - a[j]);
            }
            d = r > d ? r : d;
        }
        double *w = u;
        u = v;
        v = w;
        if ((t + 1) % k == 0)
            MPI_Allreduce(&d, &res, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }

    long long part = 0, sum = 0;
    for (long i = lo; i < hi; i++) {
        double s = 0.0;
        for (long j = 0; j < n; j++)
            s += u[(i - lo + 1) * n + j];
        part += llround(s * QUANTUM);
    }
    MPI_Reduce(&part, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("residual %.6e\nchecksum %.10f\n", res, (double)sum / QUANTUM);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
