/* memory.c - see memory.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "memory.h"
#include "resolve.h"

#include <math.h>
#include <stdlib.h>

double pp_machine_stream_bw(const pp_machine *mach, double bytes)
{
    /* the measured points, by working set */
    double x[4], y[4];
    int n = 0;
    const long size[3] = {mach->cache_l1d_bytes, mach->cache_l2_bytes, mach->cache_l3_bytes};
    const double bw[3] = {mach->bw_l1_bytes_per_ns, mach->bw_l2_bytes_per_ns, mach->bw_l3_bytes_per_ns};
    for (int l = 0; l < 3; l++)
        if (size[l] > 0 && bw[l] > 0) {
            x[n] = (double)size[l] / 2;
            y[n++] = bw[l];
        }
    if (mach->mem_footprint_bytes > 0 && mach->mem_bw1_bytes_per_ns > 0) {
        x[n] = (double)mach->mem_footprint_bytes;
        y[n++] = mach->mem_bw1_bytes_per_ns;
    }
    if (n == 0 || bytes <= 0)
        return 0;
    /* sort by working set (at most four points) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && x[j] < x[j - 1]; j--) {
            double t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
            t = y[j]; y[j] = y[j - 1]; y[j - 1] = t;
        }
    if (bytes <= x[0])
        return y[0];
    for (int i = 1; i < n; i++)
        if (bytes <= x[i]) {
            double f = log(bytes / x[i - 1]) / log(x[i] / x[i - 1]);
            return y[i - 1] + f * (y[i] - y[i - 1]);
        }
    return y[n - 1];
}

/* Iterations per entry of loop k of f at the current parameters; -1 when
 * they depend on more than the parameters (a triangular nest). */
static double trip_now(const pp_prog *m, int f, int k)
{
    const pp_mloop *ml = &m->funcs[f].loops[k];
    if (ml->rule == PP_RULE_CONSTANT)
        return ml->trip;
    /* the count in the problem's parameters (variables, globals and
     * arguments traced back to them) */
    pp_expr *e = ml->count ? pp_resolve_roots(m, f, ml->count) : NULL;
    int64_t v;
    int rc = e ? pp_prog_eval(m, e, &v) : -1;
    pp_expr_free(e);
    if (rc == 0)
        return v > 0 ? (double)v : 0;
    return -1;
}

double pp_mem_stream_ns(const pp_prog *m, const pp_machine *mach, int f, int k, double footprint)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double walk = 0;   /* bytes all the loop's streams walk per iteration */
    for (int s = 0; s < dl->nstreams; s++)
        walk += fabs((double)dl->stream_step[s]);
    double ns = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        double step = fabs((double)dl->stream_step[s]);
        /* a stride past a cache line still moves one line per iteration */
        double bytes = step < 64 ? step : 64;
        /* where the stream is served from: a stream the enclosing loop
         * walks again comes back after one entry of this loop (all of its
         * streams' bytes); the others after the whole data set */
        double ws = footprint;
        if (dl->stream_reuse[s]) {
            double trip = trip_now(m, f, k);
            if (trip < 0)
                continue;   /* unknown reuse distance: taken as cached */
            ws = trip * walk;
        }
        double bw = pp_machine_stream_bw(mach, ws);
        if (bw > 0)
            ns += bytes / bw;
    }
    return ns;
}

int pp_mem_apply(pp_prog *m, const pp_machine *mach, double **saved)
{
    *saved = NULL;
    if (!m->cache_rule || !mach || m->nshape == 0 || m->footprint_rec <= 0)
        return 0;
    double foot = pp_prog_footprint(m);
    if (foot <= 0)
        return 0;
    int n = 0;
    for (int f = 0; f < m->nfuncs; f++)
        n += m->funcs[f].d->nloops;
    double *sv = malloc(sizeof *sv * (size_t)(2 * n + 1));
    long *vals = malloc(sizeof *vals * (size_t)(m->nparams + 1));
    if (!sv || !vals) {
        free(sv);
        free(vals);
        return -1;
    }
    /* the streams' time at the recorded size, then at this one */
    double *rec = sv + n;
    for (int i = 0; i < m->nparams; i++)
        vals[i] = m->params[i].value;
    pp_prog_reset(m);
    int i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++)
            rec[i++] = pp_mem_stream_ns(m, mach, f, k, m->footprint_rec);
    for (int j = 0; j < m->nparams; j++)
        m->params[j].value = vals[j];
    free(vals);
    i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            pp_mloop *ml = &m->funcs[f].loops[k];
            double extra = pp_mem_stream_ns(m, mach, f, k, foot) - rec[i];
            sv[i++] = ml->cost_ns;
            if (extra > 0)
                ml->cost_ns += extra;
        }
    *saved = sv;
    return 0;
}

void pp_mem_restore(pp_prog *m, double *saved)
{
    if (!saved)
        return;
    int i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++)
            m->funcs[f].loops[k].cost_ns = saved[i++];
    free(saved);
}
