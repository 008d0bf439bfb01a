/* band_smooth.c - test program: a 1-D smoothing written the way pthreads
 * code usually is: each worker's band of rows in a struct, the bands
 * computed by the caller, a barrier made of a mutex, a count and a
 * condition variable, and the time steps inside the thread function
 * (one long parallel phase).  Its efficiency at a small size on many
 * threads is tiny and grows about like the size (the work per step grows
 * with N, the barrier does not), which is what the search of
 * `perfpred scale` has to follow from far below its target.
 *
 *   band_smooth [N [STEPS [THREADS]]]
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_N 2000
#define DEFAULT_STEPS 6
#define MAX_THREADS 64

struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int waiting, parties;
    unsigned long round;
};

struct band {
    long lo, hi;          /* rows [lo, hi) of this worker */
    int steps;
    double *u, *v;
    struct gate *gate;
};

static void gate_wait(struct gate *g)
{
    pthread_mutex_lock(&g->mu);
    unsigned long r = g->round;
    if (++g->waiting == g->parties) {
        g->waiting = 0;
        g->round++;
        pthread_cond_broadcast(&g->cv);
    } else {
        while (r == g->round)
            pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
}

static void *smooth(void *arg)
{
    struct band *b = arg;
    for (int t = 0; t < b->steps; t++) {
        for (long i = b->lo; i < b->hi; i++)
            b->v[i] = 0.25 * b->u[i - 1] + 0.5 * b->u[i] + 0.25 * b->u[i + 1];
        gate_wait(b->gate);
        for (long i = b->lo; i < b->hi; i++)
            b->u[i] = b->v[i];
        gate_wait(b->gate);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : DEFAULT_N;
    int steps = argc > 2 ? atoi(argv[2]) : DEFAULT_STEPS;
    int nt = argc > 3 ? atoi(argv[3]) : 2;
    if (n < 3 || steps < 1 || nt < 1 || nt > MAX_THREADS) {
        fprintf(stderr, "usage: band_smooth [N >= 3 [STEPS >= 1 [THREADS 1..%d]]]\n", MAX_THREADS);
        return 2;
    }
    double *u = malloc(sizeof *u * (size_t)n), *v = malloc(sizeof *v * (size_t)n);
    if (!u || !v)
        return 1;
    for (long i = 0; i < n; i++)
        u[i] = v[i] = (double)(i % 13);
    struct gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, nt, 0};
    struct band bands[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    long inner = n - 2;   /* rows 1 .. n-2 move, the ends stay */
    for (int k = 0; k < nt; k++) {
        bands[k] = (struct band){1 + inner * k / nt, 1 + inner * (k + 1) / nt, steps, u, v, &g};
        pthread_create(&tid[k], NULL, smooth, &bands[k]);
    }
    for (int k = 0; k < nt; k++)
        pthread_join(tid[k], NULL);
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += u[i];
    printf("band_smooth: n = %ld, %d steps, %d threads, sum %.6g\n", n, steps, nt, sum);
    free(u);
    free(v);
    return 0;
}
