/* team_rows.c - one long OpenMP parallel region whose threads find their
 * own rows, the way hand-parallelised solvers are written: each thread
 * computes a row range from omp_get_thread_num() into a struct of its
 * own (N rows over the team, the first N % P threads one row more), then
 * per sweep relaxes its rows, meets the others at a barrier, adds the
 * count of its points that moved under a critical section, and one thread (single) swaps the
 * grids.  After the sweeps, unless TRI is 0, a work-shared triangular
 * pass (row i sums i + 1 entries) whose threads all differ, then a static
 * `omp for` over the columns whose chunks differ by one.
 *
 *   team_rows [N [SWEEPS [TRI]]]   (threads: OMP_NUM_THREADS; N >= 4)
 *
 * Prints "checksum <value> moved <count>", the same for every thread count.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ROWS
#define ROWS 200
#endif
#ifndef SWEEPS
#define SWEEPS 20
#endif

struct range {
    long lo, hi;      /* rows [lo, hi) of this thread */
    long moved;       /* its points that moved by more than 1e-3 */
};

/* rows [lo, hi) of thread t of p over n rows: the first n % p threads
 * take one row more */
static void split(long n, int t, int p, struct range *r)
{
    long q = n / p, extra = n % p;
    r->lo = t * q + (t < extra ? t : extra);
    r->hi = r->lo + q + (t < extra ? 1 : 0);
    r->moved = 0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : ROWS;
    int sweeps = argc > 2 ? atoi(argv[2]) : SWEEPS;
    int tri = argc > 3 ? atoi(argv[3]) : 1;
    if (n < 4 || sweeps < 1) {
        fprintf(stderr, "usage: team_rows [N [SWEEPS [TRI]]]\n");
        return 2;
    }
    double *u = malloc(sizeof *u * (size_t)(n * n));
    double *v = malloc(sizeof *v * (size_t)(n * n));
    double *rowsum = calloc((size_t)n, sizeof *rowsum);
    double *col = malloc(sizeof *col * (size_t)n);
    if (!u || !v || !rowsum || !col) {
        fprintf(stderr, "team_rows: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n * n; i++)
        u[i] = v[i] = (double)(i % 7) / 7.0;
    long total = 0;

#pragma omp parallel
    {
        struct range me;
        split(n, omp_get_thread_num(), omp_get_num_threads(), &me);
        for (int s = 0; s < sweeps; s++) {
            me.moved = 0;
            for (long i = me.lo; i < me.hi; i++) {
                if (i == 0 || i == n - 1)
                    continue;
                for (long j = 1; j < n - 1; j++) {
                    double x = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
                    me.moved += (x - u[i * n + j]) * (x - u[i * n + j]) > 1e-6;
                    v[i * n + j] = x;
                }
            }
#pragma omp barrier
#pragma omp critical
            total += me.moved;
#pragma omp single
            {
                double *t = u;
                u = v;
                v = t;
            }
        }
        /* a triangle: row i sums its first i + 1 entries */
        if (tri) {
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++) {
                double s = 0.0;
                for (long j = 0; j <= i; j++)
                    s += u[i * n + j];
                rowsum[i] = s;
            }
        }
        /* columns, chunks of n / P and n / P + 1 */
#pragma omp for schedule(static)
        for (long j = 0; j < n; j++) {
            double s = 0.0;
            for (long i = 0; i < n; i++)
                s += u[i * n + j];
            col[j] = s;
        }
    }

    double sum = 0.0;
    for (long i = 0; i < n; i++)
        sum += rowsum[i] + col[i];
    printf("checksum %.6f moved %ld\n", sum, total);
    free(u);
    free(v);
    free(rowsum);
    free(col);
    return 0;
}
