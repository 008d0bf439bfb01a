/* sweeps.c - a pthreads relaxation written the way such codes are: each
 * worker gets its rows in a struct, sweeps them with a heavy update and a
 * light correction, and meets the others at a barrier built from a mutex
 * and a condition variable; main checks the result at the end.  With a
 * third argument of 1, main first sorts a fixed table (a set-up whose cost
 * does not grow with n, in the same segment as the checksum loop's
 * neighbour).  Used by tests/e2e/44-loop-timing.t.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NSTEPS 6
#define TABLE 200000

struct barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count, total;
    unsigned gen;
};

struct job {
    int id, first, last;
    double *u;
    struct barrier *bar;
};

static void barrier_wait(struct barrier *b)
{
    pthread_mutex_lock(&b->mu);
    unsigned gen = b->gen;
    if (++b->count == b->total) {
        b->count = 0;
        b->gen++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->gen)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

static void *worker(void *p)
{
    struct job *j = p;
    for (int step = 0; step < NSTEPS; step++) {
        for (int i = j->first; i < j->last; i++) {   /* heavy: a chain of divides */
            double v = j->u[i];
            v = v / 1.0000001 + 1e-9;
            v = v / 1.0000002 + 1e-9;
            v = v / 1.0000003 + 1e-9;
            j->u[i] = v;
        }
        for (int i = j->first; i < j->last; i++)     /* light */
            j->u[i] += 1e-12;
        barrier_wait(j->bar);
    }
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    int setup = argc > 3 ? atoi(argv[3]) : 0;
    double *u = malloc(sizeof *u * (size_t)n);
    if (!u || nthreads < 1)
        return 1;
    for (int i = 0; i < n; i++)
        u[i] = 1.0 + (i % 7);
    long extra = 0;
    if (setup) {
        int *t = malloc(sizeof *t * TABLE);
        if (!t)
            return 1;
        unsigned x = 12345;
        for (int i = 0; i < TABLE; i++) {
            x = x * 1103515245u + 12345u;
            t[i] = (int)(x >> 8);
        }
        qsort(t, TABLE, sizeof *t, cmp);
        extra = t[TABLE / 2];
        free(t);
    }
    struct barrier bar = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, nthreads, 0};
    pthread_t *tid = malloc(sizeof *tid * (size_t)nthreads);
    struct job *jobs = malloc(sizeof *jobs * (size_t)nthreads);
    if (!tid || !jobs)
        return 1;
    for (int k = 0; k < nthreads; k++) {
        jobs[k].id = k;
        jobs[k].first = (int)((long)n * k / nthreads);
        jobs[k].last = (int)((long)n * (k + 1) / nthreads);
        jobs[k].u = u;
        jobs[k].bar = &bar;
        pthread_create(&tid[k], NULL, worker, &jobs[k]);
    }
    for (int k = 0; k < nthreads; k++)
        pthread_join(tid[k], NULL);
    double sum = 0;
    for (int i = 0; i < n; i++)                      /* checksum */
        sum += u[i];
    printf("%.6f %ld\n", sum, extra % 7);
    free(u);
    free(tid);
    free(jobs);
    return 0;
}
