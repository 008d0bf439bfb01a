/* table_ranges.c - a row-sum whose block bounds main computes into a
 * table before it starts the workers; each worker finds its block in the
 * table by the index it was given, and takes a ticket under a mutex to
 * know which output slot is its own (the way older code numbers its
 * threads).  The plugin cannot follow a load from the table or the
 * ticket: the runtime records each thread's values and the model must
 * find the rule that gives every thread its own.
 *
 * usage: table_ranges N NTHREADS
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 256

static long bounds[MAX_THREADS + 1];
static long n;
static double sums[MAX_THREADS];
static int next_ticket;
static pthread_mutex_t ticket_lock = PTHREAD_MUTEX_INITIALIZER;

static void *row_block(void *arg)
{
    long id = (long)arg;
    long first = bounds[id];
    long last = bounds[id + 1];
    pthread_mutex_lock(&ticket_lock);
    int ticket = next_ticket++;
    pthread_mutex_unlock(&ticket_lock);
    double s = 0;
    for (long i = first; i < last; i++)
        for (long j = 0; j < n; j++)
            s += (double)((i * 31 + j) % 17);
    /* the ticket holder's extra pass: a few more rows per ticket */
    long extra = 8 * ticket;
    for (long e = 0; e < extra; e++)
        s += 1e-9 * (double)e;
    sums[ticket] = s;
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atol(argv[1]) : 400;
    int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 1 || nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "usage: table_ranges N NTHREADS (at most %d threads)\n", MAX_THREADS);
        return 2;
    }
    for (int k = 0; k <= nthreads; k++)
        bounds[k] = n * k / nthreads;
    pthread_t th[MAX_THREADS];
    for (long k = 0; k < nthreads; k++)
        pthread_create(&th[k], NULL, row_block, (void *)k);
    double total = 0;
    for (int k = 0; k < nthreads; k++)
        pthread_join(th[k], NULL);
    for (int k = 0; k < nthreads; k++)
        total += sums[k];
    printf("%.3f\n", total);
    return 0;
}
