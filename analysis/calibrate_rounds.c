/* calibrate_rounds.c - what calibrate keeps of a cost measured in several
 * rounds (the minimum, and the spread of the rounds), and the steal probe
 * that says whether other work took the processors while it measured
 * (docs/machine-format.md, "Rounds, spread and a busy host").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

int pp_cal_rounds_summary(const double *vals, int n, pp_cal_rounds *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > PP_CAL_MAX_ROUNDS)
        return -1;
    double tmp[PP_CAL_MAX_ROUNDS];
    memcpy(tmp, vals, (size_t)n * sizeof *tmp);
    out->kept = vals[0];
    for (int r = 1; r < n; r++)
        if (vals[r] < out->kept) {
            out->kept = vals[r];
            out->kept_round = r;
        }
    out->median = pp_cal_median(tmp, n);
    out->spread = out->kept > 0 ? out->median / out->kept : 0;
    return 0;
}

double pp_cal_steal(const double *wall, const double *cpu, int n)
{
    if (n < 1 || n > PP_CAL_MAX_ROUNDS)
        return 0;
    double work = cpu[0];
    for (int r = 1; r < n; r++)
        if (cpu[r] < work)
            work = cpu[r];
    double lost[PP_CAL_MAX_ROUNDS];
    for (int r = 0; r < n; r++) {
        double l = wall[r] > 0 ? 1 - work / wall[r] : 0;
        lost[r] = l < 0 ? 0 : l > 1 ? 1 : l;
    }
    return pp_cal_median(lost, n);
}

/* ---- the probe ------------------------------------------------------------ */

typedef struct probe {
    long iters;
    double wall, cpu;
    volatile double sink;
} probe;

static double cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A dependent chain of multiply-adds: the same work every time, no memory
 * traffic, so its CPU time is the processor's and nothing else's. */
static void *spin(void *arg)
{
    probe *p = arg;
    double w0 = pp_cal_now_ns(), c0 = cpu_now_ns();
    double x = 1.0;
    for (long i = 0; i < p->iters; i++)
        x = x * 0.999999 + 1e-9;
    p->sink = x;
    p->cpu = cpu_now_ns() - c0;
    p->wall = pp_cal_now_ns() - w0;
    return NULL;
}

long pp_cal_probe_iters(double target_ns)
{
    probe p;
    memset(&p, 0, sizeof p);
    p.iters = 1 << 16;
    for (;;) {
        spin(&p);
        if (p.cpu >= target_ns / 8 || p.iters >= (1L << 34))
            break;
        p.iters *= 2;
    }
    double per = p.cpu > 0 ? p.cpu / (double)p.iters : 1;
    long n = (long)(target_ns / per);
    return n < 1024 ? 1024 : n;
}

#define PROBE_MAX 256

int pp_cal_probe(int threads, long iters, double *wall, double *cpu, char *err, size_t errlen)
{
    if (threads < 1)
        threads = 1;
    if (threads > PROBE_MAX)
        threads = PROBE_MAX;
    probe p[PROBE_MAX];
    pthread_t t[PROBE_MAX];
    int made = 0;
    for (int i = 0; i < threads; i++) {
        memset(&p[i], 0, sizeof p[i]);
        p[i].iters = iters;
    }
    /* thread 0 is this one: threads - 1 others */
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&t[i], NULL, spin, &p[i]) != 0)
            break;
        made++;
    }
    spin(&p[0]);
    for (int i = 1; i <= made; i++)
        pthread_join(t[i], NULL);
    if (made != threads - 1) {
        snprintf(err, errlen, "steal probe: cannot create %d threads", threads);
        return -1;
    }
    double w = 0, c = 0;
    for (int i = 0; i < threads; i++) {
        w += p[i].wall;
        c += p[i].cpu;
    }
    *wall = w / threads;
    *cpu = c / threads;
    return 0;
}
