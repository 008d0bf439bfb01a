/* scale.c - search the problem size that holds an efficiency, and build the
 * scalability tables (see scale.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_MAX 1000000000L

typedef struct {
    const pp_prog *m;
    const pp_machine *mach;
    pp_scale_kind kind;
    const int *sp;
    int nsp;
    long *base;
    pp_vals at;          /* the point on the path (the start's values, the
                            scaled ones moved)                          */
} path;

static void set_path(path *p, long s)
{
    long b0 = p->base[0] > 0 ? p->base[0] : 1;
    char err[256];
    for (int i = 0; i < p->nsp; i++) {
        long v = i == 0 ? s : lround((double)s * (double)p->base[i] / (double)b0);
        /* by name: parameters that share a name move together */
        pp_vals_set(p->m, &p->at, p->m->params[p->sp[i]].name, v, err, sizeof err);
    }
}

/* Will it ever get there?  The efficiency is E = W / (W + O), the work
 * against the overhead (synchronisation, communication, the serial
 * part); the odds E / (1 - E) = W / O of a scalable program grow like a
 * power of the size, s^c, with c from the last two sizes, `span`
 * doublings apart.  That one law holds at both ends: far below the
 * target (a team far too large for the size) the odds are about E and
 * grow with it, near 1 they are about 1 / (1 - E) and grow as the
 * inefficiency falls.  Reaching the target takes log2(odds(target) /
 * odds(e)) / c more doublings.  An efficiency that stopped growing (an
 * Amdahl limit: O grows with W) has c ~ 0: under 0.01 a doubling is
 * HUGE_VAL, "flat".  A target of exactly 1 is never reached from below. */
double pp_scale_doublings_left(double prev, double e, double span, double target)
{
    if (target >= 1)
        return HUGE_VAL;
    if (e >= target)
        return 0;
    if (e <= 0 || e <= prev || span <= 0)
        return HUGE_VAL;
    double odds = e / (1 - e), c = prev > 0 ? log2(odds / (prev / (1 - prev))) / span : 1;
    if (c < 0.01)
        return HUGE_VAL;
    return log2(target / (1 - target) / odds) / c;
}

/* Efficiency at s, with the latency and T_real there; 1 on success, 0
 * when the instance is too large or fails (treated as unreachable), -1 on
 * a hang (an error to report). */
static int eff_at(path *p, long s, int P, double *eff, double *lat, double *treal, char *err, size_t errlen)
{
    set_path(p, s);
    pp_metrics mt;
    char e2[512];
    if (pp_predict(p->m, &p->at, p->mach, P, &mt, e2, sizeof e2)) {
        if (strstr(e2, "hangs")) {
            snprintf(err, errlen, "%s", e2);
            return -1;
        }
        return 0;
    }
    *eff = p->kind == PP_SCALE_ALGORITHMIC ? mt.Ea : mt.E;
    *lat = p->kind == PP_SCALE_ALGORITHMIC ? mt.La : mt.L;
    *treal = mt.t_real;
    return 1;
}

/* One end of the bracket: a size, its efficiency (NAN where the instance
 * failed), its latency and T_real. */
typedef struct {
    long s;
    double e, lat, treal;
} probe;

/* f of an end for the interpolation: the log-odds of its efficiency
 * against the target's; NAN where it has none (E 0 or 1, a failed size) */
static double log_odds_gap(double e, double target)
{
    if (!(e > 0 && e < 1))
        return NAN;
    return log(e / (1 - e)) - log(target / (1 - target));
}

/* The smallest s in (lo.s, hi.s] with eff >= target, lo below it and hi
 * at or above it: the log-odds of the efficiency are about linear in
 * log s (pp_scale_doublings_left), so the probe goes where the line
 * through the two ends crosses the target (regula falsi, with the
 * Illinois rule: an end kept twice counts half, so that both ends
 * move), and to the middle where that has not halved the bracket in two
 * probes.  A bisection takes log2 of the bracket's width; the samples'
 * 7x7 tables took about half as many probes in all (docs/bench.md), with
 * the same answer where the efficiency crosses the target once in the
 * bracket. */
static int narrow(path *p, int P, double target, probe lo, probe hi, probe *out, char *err, size_t errlen)
{
    double wlo = 1, whi = 1;   /* the Illinois weights of the ends' gaps */
    int kept = 0;              /* -1: lo kept last time, 1: hi, 0: none */
    long width2 = hi.s - lo.s, width1 = width2;
    int bisect = 0;
    while (hi.s - lo.s > 1) {
        long t = lo.s + (hi.s - lo.s) / 2;
        double flo = log_odds_gap(lo.e, target) * wlo, fhi = log_odds_gap(hi.e, target) * whi;
        if (!bisect && lo.s > 0 && flo < 0 && fhi >= 0) {
            /* between the ends, so within (lo.s, hi.s) once rounded
             * and kept off the ends */
            double x = log((double)lo.s) + -flo / (fhi - flo) * (log((double)hi.s) - log((double)lo.s));
            t = lround(exp(x));
            if (t <= lo.s)
                t = lo.s + 1;
            if (t >= hi.s)
                t = hi.s - 1;
        }
        bisect = 0;
        probe q = {t, NAN, 0, 0};
        int r = eff_at(p, t, P, &q.e, &q.lat, &q.treal, err, errlen);
        if (r < 0)
            return -1;
        if (r == 1 && q.e >= target) {
            hi = q;
            whi = 1;
            wlo = kept == -1 ? wlo / 2 : 1;
            kept = -1;
        } else {
            if (r != 1)
                q.e = NAN;
            lo = q;
            wlo = 1;
            whi = kept == 1 ? whi / 2 : 1;
            kept = 1;
        }
        long w = hi.s - lo.s;
        if (w > width2 / 2)
            bisect = 1;
        width2 = width1;
        width1 = w;
    }
    *out = hi;
    return 1;
}

/* The smallest s with eff(s) >= target, searched from the recorded size;
 * returns 1 found, 0 unreachable, -1 error. */
static int search(path *p, int P, double target, long *s_out, double *eff_out, double *lat_out, double *treal_out,
                  char *err, size_t errlen)
{
    long s = p->base[0] > 0 ? p->base[0] : 1;
    probe lo = {0, NAN, 0, 0}, hi = {0, NAN, 0, 0}, q = {s, NAN, 0, 0};
    int r = eff_at(p, s, P, &q.e, &q.lat, &q.treal, err, errlen);
    if (r < 0)
        return -1;
    if (r == 1 && q.e >= target) {
        /* halve down to a size below the target */
        hi = q;
        while (hi.s > 1) {
            probe d = {hi.s / 2, NAN, 0, 0};
            r = eff_at(p, d.s, P, &d.e, &d.lat, &d.treal, err, errlen);
            if (r < 0)
                return -1;
            if (r == 1 && d.e >= target)
                hi = d;
            else {
                if (r != 1)
                    d.e = NAN;
                lo = d;
                break;
            }
        }
        if (hi.s == 1) {
            *s_out = 1;
            *eff_out = hi.e;
            *lat_out = hi.lat;
            *treal_out = hi.treal;
            return 1;
        }
    } else {
        /* grow until the target holds: doubling, or, from the recorded
         * size on, the doublings the odds law says are left, a little
         * more so that the size passes the target, in steps of 1/16 to 1
         * doubling */
        if (r != 1)
            q.e = 0;
        lo = q;
        double prev = 0, span = 1;
        int flat = 0;
        for (;;) {
            if (lo.s > S_MAX / 2)
                return 0;
            double step = 1;
            if (lo.s >= p->base[0] && prev > 0) {
                double more = pp_scale_doublings_left(prev, lo.e, span, target);
                if (more < 1)
                    step = fmax(1.0 / 16, 1.1 * more + 0.01);
            }
            long t = (long)ceil((double)lo.s * exp2(step));
            if (t <= lo.s)
                t = lo.s + 1;
            probe n = {t, NAN, 0, 0};
            r = eff_at(p, t, P, &n.e, &n.lat, &n.treal, err, errlen);
            if (r < 0)
                return -1;
            if (r == 0)
                return 0;   /* too large to instantiate before reaching it */
            if (n.e >= target) {
                hi = n;
                break;
            }
            if (target >= 1)
                return 0;   /* E = 1 exactly: only reached where it already is */
            span = log2((double)t / (double)lo.s);
            /* below the recorded size the efficiency of a tiny, degenerate
             * instance says nothing about the trend: judge it from there on */
            if (lo.s >= p->base[0]) {
                double more = pp_scale_doublings_left(lo.e, n.e, span, target);
                flat = more == HUGE_VAL ? flat + 1 : 0;
                if (flat >= 3 || (!flat && more > 40))
                    return 0;
            }
            prev = lo.e;
            lo = n;
        }
    }
    probe found;
    r = narrow(p, P, target, lo, hi, &found, err, errlen);
    if (r != 1)
        return r;
    *s_out = found.s;
    *eff_out = found.e;
    *lat_out = found.lat;
    *treal_out = found.treal;
    return 1;
}

int pp_scale_compute(const pp_prog *m, const pp_vals *start, const pp_machine *mach, pp_scale_kind kind, double target,
                     const int *scale_param, int nscale, const int *P, int nP, pp_scale_table *out,
                     pp_progress_fn progress, void *pctx, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->target = target;
    out->nP = nP;
    out->nscale = nscale;
    out->P = malloc(sizeof(int) * (size_t)nP);
    out->scale_param = malloc(sizeof(int) * (size_t)nscale);
    out->found = calloc((size_t)nP, sizeof(int));
    out->chi = calloc((size_t)nP, sizeof(long *));
    out->latency = calloc((size_t)nP, sizeof(double));
    out->eff = calloc((size_t)nP, sizeof(double));
    out->t_real = calloc((size_t)nP, sizeof(double));
    out->scale = calloc((size_t)nP, sizeof(double *));
    long *base = malloc(sizeof(long) * (size_t)nscale);
    path p = {m, mach, kind, scale_param, nscale, base, {0}};
    if (!out->P || !out->scale_param || !out->found || !out->chi || !out->latency || !out->eff || !out->t_real ||
        !out->scale || !base || pp_vals_copy(&p.at, m, start)) {
        free(base);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(out->P, P, sizeof(int) * (size_t)nP);
    memcpy(out->scale_param, scale_param, sizeof(int) * (size_t)nscale);
    for (int i = 0; i < nscale; i++)
        base[i] = start->v[scale_param[i]];
    /* a search stops at sizes whose thread graph (every member's actions
     * counted, whether a class's segment stands for them or not) has
     * more than 8 million actions: the efficiency is then reported
     * unreachable */
    p.at.max_graph = 8L * 1000 * 1000;
    /* every P's search starts at the recorded size, not at the size the
     * previous P needed: where the efficiency ripples with the size (a
     * static schedule's rounding, a lock that is queued on at some sizes
     * and not at others) a search from there can find another crossing,
     * or give a P up because that size is already too large to unroll,
     * and a P's answer would depend on the other P of the list */
    int rc = 0;
    for (int i = 0; i < nP && rc == 0; i++) {
        if (progress)
            progress(pctx, kind == PP_SCALE_ALGORITHMIC ? "algorithmic table" : "combination table", i, nP);
        out->chi[i] = calloc((size_t)nscale, sizeof(long));
        out->scale[i] = malloc(sizeof(double) * (size_t)nP);
        if (!out->chi[i] || !out->scale[i]) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        long s;
        int r = search(&p, P[i], target, &s, &out->eff[i], &out->latency[i], &out->t_real[i], err, errlen);
        if (r < 0) {
            rc = -1;
            break;
        }
        out->found[i] = r == 1;
        if (r == 1) {
            set_path(&p, s);
            for (int k = 0; k < nscale; k++)
                out->chi[i][k] = p.at.v[scale_param[k]];
        }
    }
    if (progress)
        progress(pctx, NULL, nP, nP);
    for (int i = 0; rc == 0 && i < nP; i++)
        for (int j = 0; j < nP; j++) {
            double v = NAN;
            if (j >= i && out->found[i] && out->found[j]) {
                if (i == j)
                    v = 1.0;
                else if (out->latency[j] > 0)
                    v = out->latency[i] / out->latency[j];
            }
            out->scale[i][j] = v;
        }
    free(base);
    pp_vals_free(&p.at);
    if (rc)
        pp_scale_free(out);
    return rc;
}

void pp_scale_free(pp_scale_table *t)
{
    for (int i = 0; i < t->nP; i++) {
        if (t->chi)
            free(t->chi[i]);
        if (t->scale)
            free(t->scale[i]);
    }
    free(t->chi);
    free(t->scale);
    free(t->P);
    free(t->scale_param);
    free(t->found);
    free(t->latency);
    free(t->eff);
    free(t->t_real);
    memset(t, 0, sizeof *t);
}
