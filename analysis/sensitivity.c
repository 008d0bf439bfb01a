/* sensitivity.c - see sensitivity.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sensitivity.h"
#include "costs.h"
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_sens_is_time(const pp_par_info *p)
{
    /* memory: a factor on the memory model's times, as computation is on
     * the recorded costs */
    return p->kind == PP_PAR_SPEED || p->kind == PP_PAR_MEM || p->unit == PP_UNIT_NS ||
           p->unit == PP_UNIT_NS_PER_BYTE;
}

/* The absolute step of a parameter at 0. */
static double zero_step(const pp_par_info *p)
{
    switch (p->unit) {
    case PP_UNIT_NS: return 1.0;                /* 1 ns     */
    case PP_UNIT_NS_PER_BYTE: return 1e-3;      /* 1 ps/B   */
    default: return 0.01;                       /* a factor */
    }
}

static double *net_field(pp_net *n, pp_par_kind k)
{
    switch (k) {
    case PP_PAR_NET_L: return &n->L;
    case PP_PAR_NET_O: return &n->o;
    case PP_PAR_NET_GAP: return &n->g;
    case PP_PAR_NET_G: return &n->G;
    case PP_PAR_NET_GAMMA: return &n->gamma;
    default: return NULL;
    }
}

/* Move parameter p: relative (value times 1 + d) or, when rel is 0, up by
 * d in its unit (a cost's constant term).  The program's computation is
 * p = speed: its costs (a copy of the model's, costs) times 1 + d. */
static void move(const pp_par_info *p, const pp_prog *m, double *costs, pp_machine *mach, int rel, double d)
{
    if (p->kind == PP_PAR_COST) {
        pp_model *mod = &mach->cost[p->id];
        if (rel) {
            mod->a *= 1 + d;
            mod->b *= 1 + d;
        } else {
            double k = !pp_cost_is_factor((pp_cost_id)p->id) && mach->sync_scale > 0 ? mach->sync_scale : 1.0;
            mod->a += d / k;
        }
    } else if (p->kind == PP_PAR_SPEED) {
        pp_costs_scale_compute(m, costs, 1 + d);
    } else if (p->kind == PP_PAR_MEM) {
        double mu = pp_machine_mem_time_scale(mach);
        mach->mem_time_scale = rel ? mu * (1 + d) : mu + d;
    } else {
        double *f = net_field(&mach->net, p->kind);
        if (f)
            *f = rel ? *f * (1 + d) : *f + d;
    }
}

/* T_real with p moved; the machine restored after, the model's costs
 * never moved. */
static int predict_moved(const pp_par_info *p, const pp_prog *m, const pp_vals *pv, pp_machine *mach, int P, int rel,
                         double d, double *t, double *beta, char *err, size_t errlen)
{
    pp_machine saved = *mach;
    double *costs = p->kind == PP_PAR_SPEED ? pp_costs_copy(m) : NULL;
    if (p->kind == PP_PAR_SPEED && !costs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    move(p, m, costs, mach, rel, d);
    *beta = p->kind == PP_PAR_SPEED ? 1 + d : pp_par_value(p, mach, P);
    int rc = pp_predict_real_with(m, pv, costs, mach, P, t, err, errlen);
    *mach = saved;
    free(costs);
    return rc;
}

int pp_sens_sides(double beta, double bm, double tm, double t, double bp, double tp, double *below,
                  double *above)
{
    if (!(t > 0) || bp == beta || bm == beta)
        return 0;     /* a clamped factor: the caller's elasticity stands */
    *below = beta * (t - tm) / (beta - bm) / t;
    *above = beta * (tp - t) / (bp - beta) / t;
    return fabs(*above - *below) > PP_SENS_KINK;
}

int pp_sensitivity(const pp_prog *m, const pp_vals *pv, pp_machine *mach, int P, double t_real, const int *which, int n,
                   pp_sens *out, pp_progress_fn progress, void *pctx, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        const pp_par_info *p = pp_par_get(which[i]);
        pp_sens *s = &out[i];
        memset(s, 0, sizeof *s);
        if (!p || !p->differentiable) {
            snprintf(err, errlen, "%s is not a parameter the time can be differentiated by",
                     p ? p->name : "(none)");
            return -1;
        }
        if (progress)
            progress(pctx, "sensitivity", i, n);
        s->par = p;
        s->value = pp_par_value(p, mach, P);
        double tp, tm, bp, bm;
        if (s->value > 0) {
            if (predict_moved(p, m, pv, mach, P, 1, PP_SENS_STEP, &tp, &bp, err, errlen) ||
                predict_moved(p, m, pv, mach, P, 1, -PP_SENS_STEP, &tm, &bm, err, errlen))
                return -1;
        } else {
            /* at 0: forward */
            s->one_sided = 1;
            tm = t_real;
            bm = s->value;
            if (predict_moved(p, m, pv, mach, P, 0, zero_step(p), &tp, &bp, err, errlen))
                return -1;
        }
        /* a scale factor clamped at 1 does not move: dT/dbeta undefined, 0 */
        s->dT = bp != bm ? (tp - tm) / (bp - bm) : 0;
        s->used = tp != tm;
        s->elasticity = t_real > 0 ? s->value * s->dT / t_real : 0;
        s->elast_below = s->elast_above = s->elasticity;
        if (!s->one_sided)
            s->kink = pp_sens_sides(s->value, bm, tm, t_real, bp, tp, &s->elast_below, &s->elast_above);
    }
    if (progress)
        progress(pctx, NULL, n, n);
    return 0;
}
