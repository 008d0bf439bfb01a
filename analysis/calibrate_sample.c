/* calibrate_sample.c - the sampler: warm-up, choice of the iteration count
 * so that one sample takes about the target time, repetitions.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <stdlib.h>
#include <time.h>

#define MAX_VALS 4

double pp_cal_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int pp_cal_sample(pp_cal_fn fn, void *ctx, int nvals, const pp_cal_cfg *cfg,
                  double *samples, char *err, size_t errlen)
{
    long iters = 0;
    return pp_cal_sample_iters(fn, ctx, nvals, cfg, &iters, samples, err, errlen);
}

int pp_cal_sample_iters(pp_cal_fn fn, void *ctx, int nvals, const pp_cal_cfg *cfg, long *iters_io,
                        double *samples, char *err, size_t errlen)
{
    double out[MAX_VALS];
    if (nvals < 1 || nvals > MAX_VALS || cfg->reps < 1)
        return -1;
    long max_iters = cfg->max_iters > 0 ? cfg->max_iters : 100000000L;
    if (*iters_io > 0) {
        /* a later round: one warm call (the previous benchmark left other
         * caches and threads behind), then the first round's count */
        if (fn(ctx, *iters_io, out, err, errlen))
            return -1;
        for (int r = 0; r < cfg->reps; r++) {
            if (fn(ctx, *iters_io, out, err, errlen))
                return -1;
            for (int v = 0; v < nvals; v++)
                samples[v * cfg->reps + r] = out[v];
        }
        return 0;
    }

    /* Warm-up: double the iteration count until a call takes a quarter of
     * the target; this also brings caches, thread pools and page tables to
     * their steady state.  The first call's time is not used: it pays for
     * whatever starts cold (on the development VM the first two-thread run
     * after calibrate's 2 GB of kernel arrays took 31 ms for one iteration
     * of 0.1 us, the warm-up stopped there, every sample ran one iteration,
     * and scale.compute(2) came out 12-14 instead of 1). */
    long iters = 1;
    double wall = 0.0;
    for (int call = 0;; call++) {
        double t0 = pp_cal_now_ns();
        if (fn(ctx, iters, out, err, errlen))
            return -1;
        wall = pp_cal_now_ns() - t0;
        if (call == 0)
            continue;   /* the same count again, now warm */
        if (wall >= cfg->target_ns / 4 || iters >= max_iters)
            break;
        iters *= 2;
    }
    double per = wall / (double)iters;
    if (per > 0.0) {
        double want = cfg->target_ns / per;
        iters = want < 1.0 ? 1 : want > (double)max_iters ? max_iters
                                                         : (long)want;
    }
    *iters_io = iters;
    for (int r = 0; r < cfg->reps; r++) {
        if (fn(ctx, iters, out, err, errlen))
            return -1;
        for (int v = 0; v < nvals; v++)
            samples[v * cfg->reps + r] = out[v];
    }
    return 0;
}

/* ---- per-iteration laps ------------------------------------------------- */

#define LAPS_MAX (1L << 20)

int pp_cal_laps_init(pp_cal_laps *l, long iters, char *err, size_t errlen)
{
    l->cap = iters < LAPS_MAX ? iters : LAPS_MAX;
    if (l->cap < 1)
        l->cap = 1;
    l->n = 0;
    l->d = malloc((size_t)l->cap * sizeof *l->d);
    if (!l->d) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    l->last = pp_cal_now_ns();
    return 0;
}

void pp_cal_lap(pp_cal_laps *l)
{
    double t = pp_cal_now_ns();
    if (l->n < l->cap)
        l->d[l->n++] = t - l->last;
    l->last = t;
}

/* The cost of one pp_cal_now_ns(): the median of back-to-back readings. */
static double timer_overhead(void)
{
    static double cached = -1.0;
    if (cached < 0.0) {
        double d[201];
        for (int i = 0; i < 201; i++) {
            double a = pp_cal_now_ns();
            d[i] = pp_cal_now_ns() - a;
        }
        cached = pp_cal_median(d, 201);
    }
    return cached;
}

/* The lower quartile, not the median: an episode in which a thread of the
 * benchmark lost its processor (to another process, on a busy host) costs
 * a scheduler time slice, milliseconds against microseconds.  Zhang & Xu
 * measure each event "in a dedicated execution environment"; the lower
 * quartile is the cost of an episode nobody disturbed, and stays put when
 * up to three quarters of the episodes are. */
double pp_cal_laps_median(pp_cal_laps *l)
{
    double m = pp_cal_quantile(l->d, (int)l->n, 0.25) - timer_overhead();
    return m > 0.0 ? m : 0.0;
}

void pp_cal_laps_free(pp_cal_laps *l)
{
    free(l->d);
    l->d = NULL;
}
