/* balanced_triangle.c - a lower-triangular sweep whose row blocks main
 * sizes so that each thread gets the same area (block k ends at row
 * n sqrt((k + 1) / P)), handed to the workers in a table.  No rule in the
 * thread index, P and n that perfpred knows gives these bounds: it must
 * say so and predict only the recorded run, not guess.
 *
 * usage: balanced_triangle N NTHREADS
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 64

static long row_end[MAX_THREADS + 1];
static double partial[MAX_THREADS];

static void *sweep(void *arg)
{
    long k = (long)arg;
    long from = row_end[k], to = row_end[k + 1];
    double s = 0;
    for (long i = from; i < to; i++)
        for (long j = 0; j <= i; j++)
            s += 1.0 / (double)(1 + i + j);
    partial[k] = s;
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 1 || nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "usage: balanced_triangle N NTHREADS (at most %d threads)\n", MAX_THREADS);
        return 2;
    }
    for (int k = 0; k <= nthreads; k++)
        row_end[k] = (long)((double)n * sqrt((double)k / nthreads));
    pthread_t th[MAX_THREADS];
    for (long k = 0; k < nthreads; k++)
        pthread_create(&th[k], NULL, sweep, (void *)k);
    double total = 0;
    for (int k = 0; k < nthreads; k++) {
        pthread_join(th[k], NULL);
        total += partial[k];
    }
    printf("%.6f\n", total);
    return 0;
}
