/* shrink_bands.c - test program: a forward sweep written the way pthreads
 * code usually is.  Each worker's share is in a struct; the workers meet
 * at a pthread barrier and at a barrier made of a mutex, a count and a
 * condition variable; the whole sweep runs inside the thread function.  At step k the columns
 * k+1 .. N-1 are split into near-equal slices (two slice sizes, which
 * workers get which changing from step to step), then each worker
 * relaxes its own fixed band of rows, and the worker that holds row k
 * also scales that row: at every step most workers do the same work as
 * some others, not always with the same others.
 *
 *   shrink_bands [N [THREADS]]
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_N 400
#define MAX_THREADS 64
#define BAND_PASSES 2

struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int waiting, parties;
    unsigned long round;
};

struct share {
    int id, nworkers;
    long n;
    long row_lo, row_hi;     /* its fixed band of rows */
    double *a, *col;
    double sum;
};

static pthread_barrier_t slices_done;
static struct gate band_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};

static void gate_wait(struct gate *g)
{
    pthread_mutex_lock(&g->mu);
    unsigned long round = g->round;
    if (++g->waiting == g->parties) {
        g->waiting = 0;
        g->round++;
        pthread_cond_broadcast(&g->cv);
    } else {
        while (g->round == round)
            pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
}

static void *sweep(void *arg)
{
    struct share *s = arg;
    long n = s->n;
    for (long k = 0; k < n - 1; k++) {
        /* this step's slice of the columns right of k */
        long left = n - k - 1;
        long lo = k + 1 + s->id * left / s->nworkers;
        long hi = k + 1 + (s->id + 1) * left / s->nworkers;
        for (long j = lo; j < hi; j++)
            s->col[j] = 0.5 * s->col[j] + 0.25 * s->a[k * n + j];
        pthread_barrier_wait(&slices_done);
        for (int pass = 0; pass < BAND_PASSES; pass++)
            for (long i = s->row_lo; i < s->row_hi; i++)
                s->sum += s->a[i * n + k] * s->col[k + 1];
        if (k >= s->row_lo && k < s->row_hi)
            for (long j = k; j < n; j++)
                s->a[k * n + j] *= 0.999;
        gate_wait(&band_gate);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : DEFAULT_N;
    int nt = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2 || nt < 1 || nt > MAX_THREADS) {
        fprintf(stderr, "usage: shrink_bands [N >= 2 [THREADS 1..%d]]\n", MAX_THREADS);
        return 2;
    }
    double *a = malloc(sizeof *a * (size_t)(n * n));
    double *col = malloc(sizeof *col * (size_t)n);
    if (!a || !col) {
        fprintf(stderr, "shrink_bands: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n * n; i++)
        a[i] = 1.0 / (double)(i % 97 + 1);
    for (long j = 0; j < n; j++)
        col[j] = 1.0;
    band_gate.parties = nt;
    pthread_barrier_init(&slices_done, NULL, (unsigned)nt);
    struct share sh[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < nt; t++) {
        sh[t] = (struct share){.id = t, .nworkers = nt, .n = n, .a = a, .col = col};
        sh[t].row_lo = t * n / nt;
        sh[t].row_hi = (t + 1) * n / nt;
        if (pthread_create(&tid[t], NULL, sweep, &sh[t]) != 0) {
            fprintf(stderr, "shrink_bands: pthread_create failed\n");
            return 1;
        }
    }
    double total = 0;
    for (int t = 0; t < nt; t++) {
        pthread_join(tid[t], NULL);
        total += sh[t].sum;
    }
    printf("checksum %.6f\n", total);
    pthread_barrier_destroy(&slices_done);
    free(a);
    free(col);
    return 0;
}
