/* calibrate_sync.c - dedicated environments for team events: fork/join of
 * an empty OpenMP parallel region, and OpenMP and pthread barriers with all
 * threads arriving together (no work between barriers, so no imbalance).
 * Each iteration is timed by thread 0; a sample is the median iteration.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int team_error(char *err, size_t errlen, int want, int got)
{
    snprintf(err, errlen, "OpenMP gave a team of %d threads, not %d "
             "(check OMP_THREAD_LIMIT)", got, want);
    return -1;
}

int pp_cal_forkjoin_omp(void *ctx, long iters, double *out, char *err,
                        size_t errlen)
{
    int P = *(const int *)ctx;
    int got = P;
    pp_cal_laps l;
    omp_set_dynamic(0);
    if (pp_cal_laps_init(&l, iters, err, errlen))
        return -1;
    for (long i = 0; i < iters; i++) {
#pragma omp parallel num_threads(P)
        {
            if (omp_get_thread_num() == 0 && omp_get_num_threads() != P)
                got = omp_get_num_threads();
        }
        pp_cal_lap(&l);
    }
    out[0] = pp_cal_laps_median(&l);
    pp_cal_laps_free(&l);
    if (got != P)
        return team_error(err, errlen, P, got);
    return 0;
}

int pp_cal_barrier_omp(void *ctx, long iters, double *out, char *err,
                       size_t errlen)
{
    int P = *(const int *)ctx;
    int got = P;
    pp_cal_laps l;
    omp_set_dynamic(0);
    if (pp_cal_laps_init(&l, iters, err, errlen))
        return -1;
#pragma omp parallel num_threads(P)
    {
        int tid = omp_get_thread_num();
        if (tid == 0)
            got = omp_get_num_threads();
#pragma omp barrier
        if (tid == 0)
            l.last = pp_cal_now_ns();
        for (long i = 0; i < iters; i++) {
#pragma omp barrier
            if (tid == 0)
                pp_cal_lap(&l);
        }
    }
    out[0] = pp_cal_laps_median(&l);
    pp_cal_laps_free(&l);
    if (got != P)
        return team_error(err, errlen, P, got);
    return 0;
}

/* Threads wait at a gate until all are made; if one cannot be made the
 * gate says abort, so no thread is left waiting on a barrier that cannot
 * complete. */
typedef struct pbar {
    pthread_barrier_t bar;
    long iters;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int gate;                   /* 0 wait, 1 go, 2 abort                   */
} pbar;

static void *pbar_worker(void *arg)
{
    pbar *b = arg;
    pthread_mutex_lock(&b->mu);
    while (b->gate == 0)
        pthread_cond_wait(&b->cv, &b->mu);
    int go = b->gate == 1;
    pthread_mutex_unlock(&b->mu);
    if (!go)
        return NULL;
    pthread_barrier_wait(&b->bar);
    for (long i = 0; i < b->iters; i++)
        pthread_barrier_wait(&b->bar);
    return NULL;
}

static void open_gate(pbar *b, int state)
{
    pthread_mutex_lock(&b->mu);
    b->gate = state;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

int pp_cal_barrier_pthread(void *ctx, long iters, double *out, char *err,
                           size_t errlen)
{
    int P = *(const int *)ctx;
    pbar b;
    memset(&b, 0, sizeof b);
    b.iters = iters;
    int rc = pthread_barrier_init(&b.bar, NULL, (unsigned)P);
    if (rc) {
        snprintf(err, errlen, "pthread_barrier_init: %s", strerror(rc));
        return -1;
    }
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    pthread_t *th = calloc((size_t)P, sizeof *th);
    int made = 0;
    rc = th ? 0 : ENOMEM;
    for (; rc == 0 && made < P - 1; made++) {
        rc = pthread_create(&th[made], NULL, pbar_worker, &b);
        if (rc)
            break;
    }
    pp_cal_laps l = { NULL, 0, 0, 0.0 };
    if (rc == 0 && pp_cal_laps_init(&l, iters, err, errlen))
        rc = ENOMEM;
    open_gate(&b, rc ? 2 : 1);
    if (rc == 0) {
        pthread_barrier_wait(&b.bar);
        l.last = pp_cal_now_ns();
        for (long i = 0; i < iters; i++) {
            pthread_barrier_wait(&b.bar);
            pp_cal_lap(&l);
        }
        out[0] = pp_cal_laps_median(&l);
    }
    pp_cal_laps_free(&l);
    for (int i = 0; i < made; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&b.bar);
    pthread_cond_destroy(&b.cv);
    pthread_mutex_destroy(&b.mu);
    free(th);
    if (rc) {
        snprintf(err, errlen, "cannot start %d threads: %s", P, strerror(rc));
        return -1;
    }
    return 0;
}
