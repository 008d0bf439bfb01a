/* scale.c - search the problem size that holds an efficiency, and build the
 * scalability tables (see scale.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "scale.h"

#include <limits.h>
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
    int trace;           /* PERFPRED_SCALE_TRACE: each probe on stderr    */
    long smax;           /* the largest size a probe may have (--max)     */
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

/* One probe of the search: a size, its efficiency (NAN where the
 * instance failed), latency and T_real, and its thread graph's actions. */
typedef struct {
    long s;
    double e, lat, treal;
    long graph;
} probe;

/* The efficiency at q->s and what goes with it: 1 on success, 2 when the
 * thread graph passes the search's limit there, 0 when the instance
 * fails otherwise (both: q->e NAN), -1 on a hang (an error to report).
 * Only the walk the efficiency needs is made at P (the PRAM's for E_a,
 * the real machine's for E): q->treal is NAN in an E_a search. */
static int eff_at(path *p, int P, probe *q, char *err, size_t errlen)
{
    set_path(p, q->s);
    pp_metrics mt;
    char e2[512];
    q->e = NAN;
    q->lat = q->treal = 0;
    q->graph = 0;
    int r = 1;
    int walks = p->kind == PP_SCALE_ALGORITHMIC ? PP_WALK_PRAM : PP_WALK_REAL;
    if (pp_predict_walks(p->m, &p->at, p->mach, P, walks, &mt, e2, sizeof e2)) {
        if (strstr(e2, PP_ERR_HANG)) {
            snprintf(err, errlen, "%s", e2);
            return -1;
        }
        r = strstr(e2, PP_ERR_GRAPH_LIMIT) ? 2 : 0;
    } else {
        q->e = p->kind == PP_SCALE_ALGORITHMIC ? mt.Ea : mt.E;
        q->lat = p->kind == PP_SCALE_ALGORITHMIC ? mt.La : mt.L;
        q->treal = mt.t_real;
        q->graph = mt.graph;
    }
    if (p->trace)
        fprintf(stderr, "perfpred: scale: P=%d %s=%ld: %s=%.9g, %ld actions%s\n", P,
                p->m->params[p->sp[0]].name, q->s, p->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E", q->e, q->graph,
                r == 2 ? " (past the search's limit)" : r == 0 ? " (no instance)" : "");
    return r;
}

/* f of an end for the interpolation: the log-odds of its efficiency
 * against the target's; NAN where it has none (E 0 or 1, a failed size) */
static double log_odds_gap(double e, double target)
{
    if (!(e > 0 && e < 1))
        return NAN;
    return log(e / (1 - e)) - log(target / (1 - target));
}

/* Inverse quadratic interpolation (scale.h). */
double pp_scale_iqi(const double x[3], const double f[3])
{
    if (f[0] == f[1] || f[0] == f[2] || f[1] == f[2])
        return NAN;
    return x[0] * f[1] * f[2] / ((f[0] - f[1]) * (f[0] - f[2])) +
           x[1] * f[0] * f[2] / ((f[1] - f[0]) * (f[1] - f[2])) +
           x[2] * f[0] * f[1] / ((f[2] - f[0]) * (f[2] - f[1]));
}

/* The smallest s in (lo.s, hi.s] with eff >= target, lo below it and hi
 * at or above it (third: the size probed before lo, s 0 none).  The
 * log-odds of the efficiency are about linear in log s
 * (pp_scale_doublings_left), and bend near the target: the probe goes
 * where the parabola through the last three sizes probed crosses the
 * target (inverse quadratic interpolation), where that lies inside the
 * bracket; otherwise where the line through the two ends does (regula
 * falsi).  Where the curve bends, that line's crossing lands on the same
 * side of the target probe after probe and the far end never moves; so
 * once an end has moved twice in a row the probe steps past the new
 * crossing by as much again as the last probe missed it by (the miss
 * shrinks as the curve straightens, so the step lands just across, and
 * the bracket closes on both sides).  A bracket that has not halved in
 * three probes is bisected.  The same answers where the efficiency
 * crosses the target once in the bracket. */
static int narrow(path *p, int P, double target, probe lo, probe hi, probe third, probe *out, char *err,
                  size_t errlen)
{
    /* the last three sizes probed with an efficiency, in log s and the
     * log-odds gap, the newest last */
    double px[3], pf[3];
    int np = 0;
    const probe *seed[3] = {&third, &lo, &hi};
    for (int i = 0; i < 3; i++) {
        double f = log_odds_gap(seed[i]->e, target);
        if (seed[i]->s > 0 && isfinite(f)) {
            px[np] = log((double)seed[i]->s);
            pf[np++] = f;
        }
    }
    int moved = 0;             /* the end the last probe moved: -1 lo, 1 hi */
    int twice = 0;             /* and the one before it moved the same end */
    long last = 0;             /* the last probe's size                     */
    long ref = hi.s - lo.s;    /* the width when it last halved */
    int since = 0, bisect = 0; /* probes since then; bisect next          */
    while (hi.s - lo.s > 1) {
        long t = lo.s + (hi.s - lo.s) / 2;
        double flo = log_odds_gap(lo.e, target), fhi = log_odds_gap(hi.e, target);
        double xq = !bisect && np == 3 ? pp_scale_iqi(px, pf) : NAN;
        if (isfinite(xq) && xq > log((double)lo.s) && xq < log((double)hi.s))
            t = lround(exp(xq));   /* the curve: it bends as the line does not */
        else if (!bisect && lo.s > 0 && flo < 0 && fhi >= 0) {
            double x = log((double)lo.s) + -flo / (fhi - flo) * (log((double)hi.s) - log((double)lo.s));
            t = lround(exp(x));
            if (twice)
                t += t - last;   /* past the crossing, toward the end that stayed */
        }
        /* within (lo.s, hi.s) once rounded and kept off the ends */
        if (t <= lo.s)
            t = lo.s + 1;
        if (t >= hi.s)
            t = hi.s - 1;
        probe q = {.s = t};
        int r = eff_at(p, P, &q, err, errlen);
        if (r < 0)
            return -1;
        double fq = r == 1 ? log_odds_gap(q.e, target) : NAN;
        if (isfinite(fq)) {
            if (np == 3) {
                memmove(px, px + 1, 2 * sizeof *px);
                memmove(pf, pf + 1, 2 * sizeof *pf);
                np = 2;
            }
            px[np] = log((double)t);
            pf[np++] = fq;
        }
        int end;
        if (r == 1 && q.e >= target) {
            hi = q;
            end = 1;
        } else {
            lo = q;
            end = -1;
        }
        /* a probe at or above the target where the curve through the
         * last three sizes crosses it less than half a unit below: the
         * size under it is below the target by the curve, and its probe
         * (the largest of the search where the bracket closes from above)
         * is not made */
        if (end == 1 && np == 3 && hi.s - lo.s > 1) {
            double xc = pp_scale_iqi(px, pf);
            if (isfinite(xc) && exp(xc) > (double)hi.s - 0.5 && exp(xc) <= (double)hi.s)
                break;
        }
        twice = end == moved;
        moved = end;
        last = t;
        bisect = 0;
        if (hi.s - lo.s <= ref / 2) {
            ref = hi.s - lo.s;
            since = 0;
        } else if (++since == 3) {
            bisect = 1;
            ref = hi.s - lo.s;
            since = 0;
        }
    }
    *out = hi;
    return 1;
}

/* The size where the next step of the growth would put the thread graph
 * past the search's limit (with 3% to spare), from the last two
 * probes' graphs as a power of the size; LONG_MAX where it cannot be
 * told (no limit, or a graph that does not grow). */
static long graph_room(const path *p, const probe *prev, const probe *lo)
{
    long cap = p->at.max_graph;
    if (cap <= 0 || lo->graph <= 0)
        return LONG_MAX;
    double k = 1;   /* a graph that grows like the size, until two sizes say */
    if (prev->s > 0 && prev->graph > 0 && prev->s < lo->s)
        k = log((double)lo->graph / (double)prev->graph) / log((double)lo->s / (double)prev->s);
    if (k < 0.05)
        return LONG_MAX;
    double room = (double)lo->s * pow(0.97 * (double)cap / (double)lo->graph, 1 / k);
    return room >= (double)LONG_MAX / 2 ? LONG_MAX : (long)room;
}

/* The smallest s with eff(s) >= target, searched from the recorded size,
 * into *o; 0, or -1 on an error. */
typedef struct {
    pp_scale_why why;
    probe found;    /* PP_SCALE_REACHED                                  */
    probe last;     /* the largest size with an efficiency (s 0: none)   */
    double beyond;  /* PP_SCALE_LIMIT: the odds law's size for the target
                       (NAN where it has none)                           */
} outcome;

static int search(path *p, int P, double target, outcome *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->beyond = NAN;
    probe lo = {0}, hi = {0}, q = {.s = p->base[0] > 0 ? p->base[0] : 1};
    probe third = {0};   /* the size probed before the bracket's, for narrow */
    int r = eff_at(p, P, &q, err, errlen);
    if (r < 0)
        return -1;
    if (r == 1)
        o->last = q;
    if (r == 1 && q.e >= target) {
        /* halve down to a size below the target */
        hi = q;
        while (hi.s > 1) {
            probe d = {.s = hi.s / 2};
            r = eff_at(p, P, &d, err, errlen);
            if (r < 0)
                return -1;
            if (r == 1 && d.e >= target)
                hi = d;
            else {
                lo = d;
                break;
            }
        }
        if (hi.s == 1) {
            o->why = PP_SCALE_REACHED;
            o->found = hi;
            return 0;
        }
    } else {
        /* grow until the target holds: doubling, or, from the recorded
         * size on, the doublings the odds law says are left, a little
         * more so that the size passes the target, in steps of 1/16 to 2
         * doublings; a step that would take the thread graph past the
         * search's limit is shortened to the last size under it, so
         * that the search reports the efficiency there rather than
         * give up at a size it cannot unroll */
        if (r == 2) {
            o->why = PP_SCALE_LIMIT;
            return 0;   /* too large at the recorded size already */
        }
        if (r != 1)
            q.e = 0;
        lo = q;
        probe prevq = {0};
        double prev = 0, span = 1;
        int flat = 0;
        for (;;) {
            if (lo.s > S_MAX / 2 || lo.s >= p->smax) {
                o->why = PP_SCALE_LIMIT;
                break;
            }
            double step = 1;
            if (lo.s >= p->base[0] && prev > 0) {
                double more = pp_scale_doublings_left(prev, lo.e, span, target);
                /* the odds' growth slows near the target (the line
                 * through the last two sizes falls short): the curve
                 * through the last three, where it goes further */
                if (more < 1 && third.s > 0 && third.s < prevq.s && third.e > 0 && third.e < prev) {
                    const probe *h[3] = {&third, &prevq, &lo};
                    double x[3], f[3];
                    for (int i = 0; i < 3; i++) {
                        x[i] = log2((double)h[i]->s);
                        f[i] = log_odds_gap(h[i]->e, target);
                    }
                    double xq = pp_scale_iqi(x, f) - x[2];
                    if (isfinite(xq) && xq > more && xq < 1)
                        more = xq;
                }
                if (more < 1)
                    step = fmax(1.0 / 16, 1.1 * more + 0.01);
                else if (more > 2.5 && more < 12)
                    /* further off: up to two doublings a probe, 1.5 short
                     * of the law's estimate (beyond 12 it is too unsure:
                     * the odds' growth may be stopping, PP_SCALE_FLAT) */
                    step = fmin(more - 1.5, 2);
            }
            long t = (long)ceil((double)lo.s * exp2(step));
            if (t <= lo.s)
                t = lo.s + 1;
            if (t > p->smax)
                t = p->smax;    /* --max: the last step ends there */
            long room = graph_room(p, &prevq, &lo);
            if (t > room) {
                /* no room left, or the odds law puts the target well
                 * past it (it runs short where the growth slows): the
                 * size under the limit would not reach it either */
                double more = lo.s >= p->base[0] && prev > 0 ? pp_scale_doublings_left(prev, lo.e, span, target) : 0;
                if ((double)room < (double)lo.s * exp2(1.0 / 16) || (double)lo.s * exp2(more) > 1.25 * (double)room) {
                    o->why = PP_SCALE_LIMIT;
                    break;
                }
                t = room;
            }
            probe n = {.s = t};
            r = eff_at(p, P, &n, err, errlen);
            /* past the limit all the same (the graph grew faster than
             * its power law said): once more halfway, in doublings */
            if (r == 2 && (n.s = (long)sqrt((double)lo.s * (double)t)) > lo.s)
                r = eff_at(p, P, &n, err, errlen);
            if (r < 0)
                return -1;
            if (r == 2) {
                o->why = PP_SCALE_LIMIT;
                break;
            }
            if (r == 0) {
                o->why = PP_SCALE_FAILED;
                o->last.s = t;   /* where it failed: no efficiency */
                o->last.e = NAN;
                return 0;
            }
            o->last = n;
            if (n.e >= target) {
                hi = n;
                third = prevq;   /* the size before the bracket's lo */
                break;
            }
            if (target >= 1) {
                o->why = PP_SCALE_ONE;   /* only reached where it already is */
                return 0;
            }
            span = log2((double)n.s / (double)lo.s);
            /* below the recorded size the efficiency of a tiny, degenerate
             * instance says nothing about the trend: judge it from there on */
            if (lo.s >= p->base[0]) {
                double more = pp_scale_doublings_left(lo.e, n.e, span, target);
                flat = more == HUGE_VAL ? flat + 1 : 0;
                if (flat >= 3 || (!flat && more > 40)) {
                    o->why = flat >= 3 ? PP_SCALE_FLAT : PP_SCALE_FAR;
                    return 0;
                }
            }
            prev = lo.e;
            third = prevq;
            prevq = lo;
            lo = n;
        }
        if (o->why == PP_SCALE_LIMIT) {
            /* where the odds law of the last two sizes puts the target */
            double more = lo.s >= p->base[0] && prevq.s > 0 && prevq.s < lo.s
                              ? pp_scale_doublings_left(prev, lo.e, log2((double)lo.s / (double)prevq.s), target)
                              : HUGE_VAL;
            if (more < 40)
                o->beyond = (double)lo.s * exp2(more);
            return 0;
        }
    }
    r = narrow(p, P, target, lo, hi, third, &o->found, err, errlen);
    if (r != 1)
        return r;
    o->why = PP_SCALE_REACHED;
    return 0;
}

/* Search P[i] of out's list on a copy of the path proto, into out's
 * entries i; 0, or -1 with a message. */
static int search_P(const path *proto, pp_scale_table *out, int i, double target, char *err, size_t errlen)
{
    path p = *proto;
    if (pp_vals_copy(&p.at, proto->m, &proto->at)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int nscale = p.nsp, P = out->P[i];
    out->chi[i] = calloc((size_t)nscale, sizeof(long));
    out->scale[i] = malloc(sizeof(double) * (size_t)out->nP);
    outcome o;
    int rc = 0;
    if (!out->chi[i] || !out->scale[i]) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else if (search(&p, P, target, &o, err, errlen))
        rc = -1;
    if (rc == 0) {
        out->why[i] = o.why;
        out->found[i] = o.why == PP_SCALE_REACHED;
        out->last[i] = o.last.s;
        out->last_eff[i] = o.last.e;
        out->beyond[i] = o.beyond;
    }
    if (rc == 0 && out->found[i]) {
        out->eff[i] = o.found.e;
        out->latency[i] = o.found.lat;
        out->t_real[i] = o.found.treal;
        set_path(&p, o.found.s);
        for (int k = 0; k < nscale; k++)
            out->chi[i][k] = p.at.v[p.sp[k]];
        /* an E_a search walked the PRAM only: T_real at the size found */
        pp_metrics mt;
        char e2[512];
        if (isnan(out->t_real[i]) &&
            pp_predict_walks(p.m, &p.at, p.mach, P, PP_WALK_REAL, &mt, e2, sizeof e2) == 0)
            out->t_real[i] = mt.t_real;
    }
    pp_vals_free(&p.at);
    return rc;
}

int pp_scale_compute(const pp_prog *m, const pp_vals *start, const pp_machine *mach, pp_scale_kind kind, double target,
                     const int *scale_param, int nscale, const int *P, int nP, long max_size, pp_scale_table *out,
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
    out->why = calloc((size_t)nP, sizeof *out->why);
    out->last = calloc((size_t)nP, sizeof *out->last);
    out->last_eff = calloc((size_t)nP, sizeof *out->last_eff);
    out->beyond = calloc((size_t)nP, sizeof *out->beyond);
    long *base = malloc(sizeof(long) * (size_t)nscale);
    path p = {m, mach, kind, scale_param, nscale, base, {0}, getenv("PERFPRED_SCALE_TRACE") != NULL,
              max_size > 0 ? max_size : S_MAX};
    out->max_size = max_size > 0 ? max_size : 0;
    if (!out->P || !out->scale_param || !out->found || !out->chi || !out->latency || !out->eff || !out->t_real ||
        !out->scale || !out->why || !out->last || !out->last_eff || !out->beyond || !base || pp_vals_copy(&p.at, m, start)) {
        free(base);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(out->P, P, sizeof(int) * (size_t)nP);
    memcpy(out->scale_param, scale_param, sizeof(int) * (size_t)nscale);
    for (int i = 0; i < nscale; i++)
        base[i] = start->v[scale_param[i]];
    if (base[0] > p.smax) {
        snprintf(err, errlen, "--max %ld: the search starts at %s = %ld, above it", p.smax,
                 m->params[scale_param[0]].name, base[0]);
        free(base);
        pp_vals_free(&p.at);
        pp_scale_free(out);
        return -1;
    }
    /* a search stops at sizes whose thread graph (every member's actions
     * counted, whether a class's segment stands for them or not) has
     * more than 8 million actions: the P is then reported with the
     * efficiency at the largest size under that (PP_SCALE_LIMIT) */
    p.at.max_graph = 8L * 1000 * 1000;
    const char *lim = getenv("PERFPRED_SCALE_MAX_ACTIONS");
    if (lim && atol(lim) > 0)
        p.at.max_graph = atol(lim);
    out->limit = p.at.max_graph;
    /* every P's search starts at the recorded size, not at the size the
     * previous P needed: where the efficiency ripples with the size (a
     * static schedule's rounding, a lock that is queued on at some sizes
     * and not at others) a search from there can find another crossing,
     * or give a P up because that size is already too large to unroll,
     * and a P's answer would depend on the other P of the list.  So the
     * searches are independent, and run several at once (each on its own
     * copy of the path; pp_par_threads), the largest P first: it is
     * usually the longest.  The first failure in the list's order is the
     * one reported. */
    const char *what = kind == PP_SCALE_ALGORITHMIC ? "algorithmic table" : "combination table";
    /* the largest instances a search may unroll: about 100 bytes an
     * action with the walk's state (ge_pthreads' 4 million: 138 MB) */
    int nt = pp_par_threads(nP, 100.0 * (double)p.at.max_graph), first = nP, done = 0;
    if (progress)
        progress(pctx, what, 0, nP);
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (int n = 0; n < nP; n++) {
        int i = nP - 1 - n;
        char e[1536];
        if (search_P(&p, out, i, target, e, sizeof e)) {
#pragma omp critical(pp_scale_error)
            if (i < first) {
                first = i;
                snprintf(err, errlen, "%s", e);
            }
        }
#pragma omp critical(pp_scale_progress)
        if (progress)
            progress(pctx, what, ++done, nP);
    }
    int rc = first < nP ? -1 : 0;
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

const char *pp_scale_limited_by(const pp_scale_table *t, int j)
{
    if (t->max_size > 0 && t->last[j] >= t->max_size)
        return "max";
    return t->last[j] >= S_MAX / 2 ? "size" : "actions";
}

const char *pp_scale_why_name(pp_scale_why w)
{
    static const char *const names[] = {"reached", "limit", "flat", "far", "one", "failed"};
    return (unsigned)w < sizeof names / sizeof *names ? names[w] : "?";
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
    free(t->why);
    free(t->last);
    free(t->last_eff);
    free(t->beyond);
    memset(t, 0, sizeof *t);
}
