/* calibrate_thread.c - dedicated environments for thread and lock events:
 * pthread create (until the child runs; the parent's call) and join,
 * an uncontended mutex (one thread), and a mutex hand-off (two threads
 * passing the mutex back and forth, ping-pong, the waiter blocked).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- create + join ----------------------------------------------------- */

/* The child notes when it starts, stays alive for CJ_LIFE_NS (yielding, so
 * that even on one processor the parent reaches pthread_join and blocks
 * there), and notes when it ends.  Thus:
 *   create      = child start - call of pthread_create()   (child's view)
 *   create_call = return of pthread_create() - its call     (parent's view)
 *   join        = return of pthread_join() - child end      (parent blocked
 *                 in join, the usual case at the end of a fork/join). */
#define CJ_LIFE_NS 20000.0

typedef struct cj_slot {
    double start_ns, end_ns;
} cj_slot;

static void *cj_child(void *arg)
{
    cj_slot *s = arg;
    s->start_ns = pp_cal_now_ns();
    while (pp_cal_now_ns() - s->start_ns < CJ_LIFE_NS)
        sched_yield();
    s->end_ns = pp_cal_now_ns();
    return NULL;
}

int pp_cal_create_join(void *ctx, long iters, double *out, char *err,
                       size_t errlen)
{
    (void)ctx;
    /* Per-iteration values; the sample is their median, so that a thread
     * left waiting for a processor (a loaded host) does not dominate. */
    double *v = malloc((size_t)iters * 3 * sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double *create = v, *join = v + iters, *call = v + 2 * iters;
    for (long i = 0; i < iters; i++) {
        cj_slot s = { 0.0, 0.0 };
        pthread_t th;
        double t0 = pp_cal_now_ns();
        int rc = pthread_create(&th, NULL, cj_child, &s);
        double t1 = pp_cal_now_ns();
        if (rc) {
            free(v);
            snprintf(err, errlen, "pthread_create: %s", strerror(rc));
            return -1;
        }
        pthread_join(th, NULL);
        double t2 = pp_cal_now_ns();
        create[i] = s.start_ns - t0;
        call[i] = t1 - t0;
        join[i] = t2 - s.end_ns;
    }
    out[0] = pp_cal_median(create, (int)iters);
    out[1] = pp_cal_median(join, (int)iters);
    out[2] = pp_cal_median(call, (int)iters);
    free(v);
    return 0;
}

/* ---- uncontended mutex ------------------------------------------------- */

int pp_cal_mutex_lock(void *ctx, long iters, double *out, char *err,
                      size_t errlen)
{
    (void)ctx;
    (void)err;
    (void)errlen;
    pthread_mutex_t mu;
    pthread_mutex_init(&mu, NULL);
    double t0 = pp_cal_now_ns();
    for (long i = 0; i < iters; i++) {
        pthread_mutex_lock(&mu);
        pthread_mutex_unlock(&mu);
    }
    double t1 = pp_cal_now_ns();
    pthread_mutex_destroy(&mu);
    out[0] = (t1 - t0) / (double)iters;
    return 0;
}

/* ---- hand-off ---------------------------------------------------------- */

/* Two threads pass a mutex back and forth.  In round r the holder waits
 * until the other thread has announced that it is about to lock, waits
 * HO_SETTLE_NS more so that the waiter is blocked inside
 * pthread_mutex_lock() (glibc's default mutex does not spin: a waiter
 * sleeps in the kernel), notes the time and unlocks; the waiter notes when
 * its lock returns.  The hand-off is the difference: the cost of a
 * contended critical section passing to the next thread.  The roles then
 * swap (ping-pong). */
#define HO_SETTLE_NS 10000.0

typedef struct handoff {
    pthread_mutex_t mu;
    pthread_barrier_t start;
    atomic_long waiting;        /* r + 1: the waiter of round r is locking */
    atomic_long acquired;       /* r + 1: the waiter of round r has it     */
    long iters;
    double t_release;           /* written by the holder before unlocking  */
    double *dt;                 /* per round, written by the acquirer      */
} handoff;

static void handoff_loop(handoff *h, int me)
{
    for (long r = 0; r < h->iters; r++) {
        if (r % 2 == me) {                      /* holder of round r      */
            for (int spin = 0;
                 atomic_load_explicit(&h->waiting, memory_order_acquire)
                     != r + 1; spin++)
                if (spin > 64)
                    sched_yield();
            double t = pp_cal_now_ns();
            while (pp_cal_now_ns() - t < HO_SETTLE_NS)
                sched_yield();
            h->t_release = pp_cal_now_ns();
            pthread_mutex_unlock(&h->mu);
            /* glibc mutexes are not fair: do not lock again (barge) before
             * the waiter has the mutex. */
            for (int spin = 0;
                 atomic_load_explicit(&h->acquired, memory_order_acquire)
                     != r + 1; spin++)
                if (spin > 64)
                    sched_yield();
        } else {                                /* waiter of round r      */
            atomic_store_explicit(&h->waiting, r + 1, memory_order_release);
            pthread_mutex_lock(&h->mu);
            h->dt[r] = pp_cal_now_ns() - h->t_release;
            atomic_store_explicit(&h->acquired, r + 1, memory_order_release);
        }
    }
    if ((h->iters - 1) % 2 != me)               /* last acquirer          */
        pthread_mutex_unlock(&h->mu);
}

static void *handoff_peer(void *arg)
{
    handoff *h = arg;
    pthread_barrier_wait(&h->start);
    handoff_loop(h, 1);
    return NULL;
}

int pp_cal_mutex_handoff(void *ctx, long iters, double *out, char *err,
                         size_t errlen)
{
    (void)ctx;
    handoff h;
    memset(&h, 0, sizeof h);
    h.iters = iters;
    h.dt = malloc((size_t)iters * sizeof *h.dt);
    if (!h.dt) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    atomic_init(&h.waiting, 0);
    atomic_init(&h.acquired, 0);
    pthread_mutex_init(&h.mu, NULL);
    pthread_barrier_init(&h.start, NULL, 2);
    pthread_mutex_lock(&h.mu);                  /* thread 0 holds first   */
    pthread_t th;
    int rc = pthread_create(&th, NULL, handoff_peer, &h);
    if (rc) {
        pthread_mutex_unlock(&h.mu);
        pthread_barrier_destroy(&h.start);
        pthread_mutex_destroy(&h.mu);
        free(h.dt);
        snprintf(err, errlen, "pthread_create: %s", strerror(rc));
        return -1;
    }
    pthread_barrier_wait(&h.start);
    handoff_loop(&h, 0);
    pthread_join(th, NULL);
    pthread_barrier_destroy(&h.start);
    pthread_mutex_destroy(&h.mu);
    out[0] = pp_cal_median(h.dt, (int)iters);   /* robust to pre-emption */
    free(h.dt);
    return 0;
}
