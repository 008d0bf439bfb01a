/* halo_cells.c - a 1-D smoother on pthreads whose cells near the ends
 * of the line are updated by a costlier helper than the interior ones,
 * the test of the position inside the sweep, the way such code is
 * written: each worker's range of cells in a struct, the halo width and
 * the default sizes as macros, a barrier between the sweeps.
 *
 * Usage: halo_cells [N [STEPS [THREADS]]]   (N >= 2 HALO + 2)
 * Output: "sum <value>", the same for every thread count.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HALO 6
#define CELLS 100000
#define STEPS 3
#define MAX_THREADS 64

struct range {
    long lo, hi;     /* the cells [lo, hi) this worker updates */
    long n, steps;
};

static double *u, *v;
static pthread_barrier_t step_done;

/* a cell near an end: the mean of the cells up to HALO away that exist */
static double edge_cell(const double *a, long j, long n)
{
    double s = 0.0;
    long m = 0;
    for (long k = -HALO; k <= HALO; k++)
        if (j + k >= 0 && j + k < n) {
            s += a[j + k];
            m++;
        }
    return s / (double)m;
}

static double inner_cell(const double *a, long j)
{
    return 0.25 * a[j - 1] + 0.5 * a[j] + 0.25 * a[j + 1];
}

static void *worker(void *arg)
{
    const struct range *r = arg;
    for (long t = 0; t < r->steps; t++) {
        const double *a = t % 2 ? v : u;
        double *b = t % 2 ? u : v;
        for (long j = r->lo; j < r->hi; j++) {
            if (j >= HALO && j < r->n - HALO)
                b[j] = inner_cell(a, j);
            else
                b[j] = edge_cell(a, j, r->n);
        }
        pthread_barrier_wait(&step_done);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : CELLS;
    long steps = argc > 2 ? atol(argv[2]) : STEPS;
    long nt = argc > 3 ? atol(argv[3]) : 2;
    if (n < 2 * HALO + 2 || steps < 0 || nt < 1 || nt > MAX_THREADS) {
        fprintf(stderr, "usage: halo_cells [N [STEPS [THREADS]]]   (N >= %d, 1 <= THREADS <= %d)\n",
                2 * HALO + 2, MAX_THREADS);
        return 2;
    }
    u = malloc(sizeof *u * (size_t)n);
    v = malloc(sizeof *v * (size_t)n);
    if (!u || !v) {
        fprintf(stderr, "halo_cells: out of memory\n");
        return 1;
    }
    for (long j = 0; j < n; j++)
        u[j] = v[j] = (double)(j % 17) / 17.0;
    pthread_t th[MAX_THREADS];
    struct range rg[MAX_THREADS];
    pthread_barrier_init(&step_done, NULL, (unsigned)nt);
    for (long i = 0; i < nt; i++) {
        rg[i] = (struct range){i * n / nt, (i + 1) * n / nt, n, steps};
        pthread_create(&th[i], NULL, worker, &rg[i]);
    }
    for (long i = 0; i < nt; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&step_done);
    const double *last = steps % 2 ? v : u;
    double sum = 0.0;
    for (long j = 0; j < n; j++)
        sum += last[j];
    printf("sum %.9f\n", sum);
    free(u);
    free(v);
    return 0;
}
