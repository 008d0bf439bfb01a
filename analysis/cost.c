/* cost.c - fit costs to the run's segments (see cost.h).
 *
 * Model: a segment s of thread t (from the return of one event to the
 * entry of the next) took
 *
 *     d_s = c0 + sum_L n_sL c_L + sum_C n_sC c_C
 *
 * where n_sL are the body iterations of loop L in the segment (from the
 * counter deltas), n_sC the executions of call site C, c_L the time of one
 * iteration of L's own statements, c_C the fixed cost of a call, and c0 a
 * fixed cost per segment.  The unknowns are solved by least squares.  Where
 * the segments cannot separate two costs (one parallel region that runs
 * two loops the same number of times, say), a weak prior from the static
 * operation counts of the loop bodies decides the split: c_L = x_L c_L^0
 * with c_L^0 proportional to 1 + ops(L), and a penalty mu (x_L - 1) added
 * as an extra row, mu small against the data.  A cost whose standard error
 * (from the fit's covariance) stays above half the prior is reported as
 * coming from the prior, not from the run.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cost.h"

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int func, kind, idx;   /* kind 0: loop iterations (H part), 1: loop
                              entries (subtracted for top-tested), 2: call */
} slotmap;

typedef struct {
    double dur;
    int n;
    int *col;
    double *val;
} segment;

/* Column of each unknown: 0 = c0, then loops, then calls. */
typedef struct {
    int ncols;
    int *loop_col_base;    /* per func: first column of its loops */
    int *call_col_base;
} layout;

static double ops_weight(const long *ops)
{
    /* one for the loop's own increment and test, plus its statements;
     * floating point and memory statements weigh more */
    return 1.0 + (double)ops[PP_OPS_INT] + 2.0 * (double)ops[PP_OPS_FP] + 2.0 * (double)ops[PP_OPS_LOAD] +
           2.0 * (double)ops[PP_OPS_STORE] + (double)ops[PP_OPS_BRANCH] + 5.0 * (double)ops[PP_OPS_CALL];
}

static int add_entry(segment *s, int col, double v)
{
    for (int i = 0; i < s->n; i++)
        if (s->col[i] == col) {
            s->val[i] += v;
            return 0;
        }
    int *nc = realloc(s->col, sizeof *nc * (size_t)(s->n + 1));
    double *nv = realloc(s->val, sizeof *nv * (size_t)(s->n + 1));
    if (nc)
        s->col = nc;
    if (nv)
        s->val = nv;
    if (!nc || !nv)
        return -1;
    s->col[s->n] = col;
    s->val[s->n++] = v;
    return 0;
}

static int add_deltas(const pp_prog *m, const layout *lay, slotmap **maps, segment *s, const pp_rdelta *d, int n)
{
    for (int i = 0; i < n; i++) {
        const slotmap *sm = &maps[d[i].func][d[i].slot];
        if (sm->kind < 0)
            continue;
        const pp_mfunc *mf = &m->funcs[d[i].func];
        if (sm->kind == 0 && add_entry(s, lay->loop_col_base[d[i].func] + sm->idx, (double)d[i].delta))
            return -1;
        if (sm->kind == 1 && mf->d->loops[sm->idx].shape != PP_SHAPE_BOTTOM &&
            add_entry(s, lay->loop_col_base[d[i].func] + sm->idx, -(double)d[i].delta))
            return -1;
        if (sm->kind == 2 && add_entry(s, lay->call_col_base[d[i].func] + sm->idx, (double)d[i].delta))
            return -1;
    }
    return 0;
}

int pp_cost_fit(pp_prog *m, char *err, size_t errlen)
{
    const pp_record *r = m->rec;
    layout lay = {0};
    lay.loop_col_base = calloc((size_t)m->nfuncs + 1, sizeof(int));
    lay.call_col_base = calloc((size_t)m->nfuncs + 1, sizeof(int));
    slotmap **maps = calloc((size_t)m->nfuncs + 1, sizeof *maps);
    segment *seg = NULL;
    long nseg = 0, capseg = 0;
    int rc = -1;
    if (!lay.loop_col_base || !lay.call_col_base || !maps)
        goto oom;
    lay.ncols = 1;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        lay.loop_col_base[f] = lay.ncols;
        lay.ncols += d->nloops;
        lay.call_col_base[f] = lay.ncols;
        lay.ncols += d->ncalls;
        maps[f] = malloc(sizeof **maps * (size_t)d->nslots);
        if (!maps[f])
            goto oom;
        for (int s = 0; s < d->nslots; s++)
            maps[f][s] = (slotmap){f, -1, -1};
        for (int k = 0; k < d->nloops; k++) {
            if (d->loops[k].slot + 1 < d->nslots) {
                maps[f][d->loops[k].slot] = (slotmap){f, 0, k};
                maps[f][d->loops[k].slot + 1] = (slotmap){f, 1, k};
            }
        }
        for (int k = 0; k < d->ncalls; k++)
            if (d->calls[k].slot < d->nslots)
                maps[f][d->calls[k].slot] = (slotmap){f, 2, k};
    }
    /* segments */
    for (int t = 0; t < r->nthreads; t++) {
        const pp_rthread *th = &r->threads[t];
        if (th->id < 0)
            continue;
        /* CPU time where the record has it: preemption is not work */
        int cpu = th->has_cpu;
        uint64_t prev = cpu ? th->cstart : th->start;
        for (int e = 0; e <= th->nev; e++) {
            const pp_rev *ev = e < th->nev ? th->ev[e] : NULL;
            uint64_t end = ev ? (cpu ? ev->c0 : ev->t0) : (cpu ? th->tail_c : th->tail_t);
            const pp_rdelta *d = ev ? ev->delta : th->tail;
            int nd = ev ? ev->ndelta : th->ntail;
            /* an OpenMP pool thread is idle between team_end and the next
             * team_begin, and after its last team: not work */
            /* between team_end and the join the master is in libgomp's join
             * (spinning: CPU time) and before team_begin libgomp starts the
             * team: synchronisation, which the machine file prices, not work */
            const pp_rev *pv = e > 0 ? th->ev[e - 1] : NULL;
            int idle = (ev && ev->kind == PP_EV_TEAM_BEGIN) || (pv && pv->kind == PP_EV_TEAM_END) ||
                       (th->kind == PP_T_OMP && !ev && nd == 0) ||
                       (!ev && th->tail_t == 0);
            if (!idle && end >= prev) {
                if (nseg == capseg) {
                    capseg = capseg ? capseg * 2 : 256;
                    segment *ns = realloc(seg, sizeof *ns * (size_t)capseg);
                    if (!ns)
                        goto oom;
                    seg = ns;
                }
                segment *s = &seg[nseg++];
                memset(s, 0, sizeof *s);
                s->dur = (double)(end - prev);
                if (add_entry(s, 0, 1.0) || add_deltas(m, &lay, maps, s, d, nd))
                    goto oom;
            }
            if (ev)
                prev = cpu ? ev->c1 : ev->t1;
        }
    }
    /* prior scale: time per weighted operation over the whole run */
    double *prior = calloc((size_t)lay.ncols, sizeof *prior);
    if (!prior)
        goto oom;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        for (int k = 0; k < d->nloops; k++)
            prior[lay.loop_col_base[f] + k] = ops_weight(d->loops[k].ops);
        for (int k = 0; k < d->ncalls; k++) {
            int cf = m->funcs[f].call_callee[k];
            prior[lay.call_col_base[f] + k] = 10.0 + (cf >= 0 ? ops_weight(m->funcs[cf].d->ops) : 0);
        }
    }
    double tot_time = 0, tot_w = 0;
    for (long i = 0; i < nseg; i++) {
        tot_time += seg[i].dur;
        for (int j = 0; j < seg[i].n; j++)
            if (seg[i].col[j] > 0)
                tot_w += seg[i].val[j] * prior[seg[i].col[j]];
    }
    double beta = tot_w > 0 ? tot_time / tot_w : 1.0;
    for (int c = 1; c < lay.ncols; c++)
        prior[c] *= beta;
    prior[0] = 1000.0;  /* 1 us per segment; the data decides */

    /* columns that ever appear */
    int *used = calloc((size_t)lay.ncols, sizeof *used);
    if (!used) {
        free(prior);
        goto oom;
    }
    for (long i = 0; i < nseg; i++)
        for (int j = 0; j < seg[i].n; j++)
            if (seg[i].val[j] != 0)
                used[seg[i].col[j]] = 1;
    int p = 0;
    int *colof = malloc(sizeof *colof * (size_t)lay.ncols);
    for (int c = 0; colof && c < lay.ncols; c++)
        colof[c] = used[c] ? p++ : -1;
    double *x = calloc((size_t)lay.ncols, sizeof *x), *xse = calloc((size_t)lay.ncols, sizeof *xse);
    if (!colof || !x || !xse) {
        free(prior); free(used); free(colof); free(x); free(xse);
        goto oom;
    }
    for (int c = 0; c < lay.ncols; c++)
        x[c] = 1.0, xse[c] = INFINITY;
    if (p > 0 && nseg > 0) {
        double dn = 0;
        for (long i = 0; i < nseg; i++)
            dn += seg[i].dur * seg[i].dur;
        double mu = 0.01 * sqrt(dn) / sqrt((double)p) + 1e-9;
        size_t rows = (size_t)nseg + (size_t)p;
        gsl_matrix *X = gsl_matrix_calloc(rows, (size_t)p);
        gsl_vector *y = gsl_vector_calloc(rows);
        gsl_vector *b = gsl_vector_alloc((size_t)p);
        gsl_matrix *cov = gsl_matrix_alloc((size_t)p, (size_t)p);
        gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(rows, (size_t)p);
        double chisq = 0;
        if (X && y && b && cov && ws) {
            for (long i = 0; i < nseg; i++) {
                gsl_vector_set(y, (size_t)i, seg[i].dur);
                for (int j = 0; j < seg[i].n; j++)
                    if (colof[seg[i].col[j]] >= 0)
                        gsl_matrix_set(X, (size_t)i, (size_t)colof[seg[i].col[j]],
                                       gsl_matrix_get(X, (size_t)i, (size_t)colof[seg[i].col[j]]) +
                                           seg[i].val[j] * prior[seg[i].col[j]]);
            }
            for (int c = 0; c < lay.ncols; c++)
                if (colof[c] >= 0) {
                    size_t row = (size_t)nseg + (size_t)colof[c];
                    gsl_matrix_set(X, row, (size_t)colof[c], mu);
                    gsl_vector_set(y, row, mu);
                }
            gsl_multifit_linear(X, y, b, cov, &chisq, ws);
            double ss = 0, st = 0, mean = tot_time / (double)nseg;
            for (long i = 0; i < nseg; i++) {
                double pred = 0;
                for (int j = 0; j < p; j++)
                    pred += gsl_matrix_get(X, (size_t)i, (size_t)j) * gsl_vector_get(b, (size_t)j);
                ss += (seg[i].dur - pred) * (seg[i].dur - pred);
                st += (seg[i].dur - mean) * (seg[i].dur - mean);
            }
            m->cost_r2 = st > 0 ? 1 - ss / st : 1;
            for (int c = 0; c < lay.ncols; c++)
                if (colof[c] >= 0) {
                    x[c] = gsl_vector_get(b, (size_t)colof[c]);
                    /* GSL scales cov by the residual variance already */
                    xse[c] = sqrt(fabs(gsl_matrix_get(cov, (size_t)colof[c], (size_t)colof[c])));
                }
        }
        gsl_matrix_free(X);
        gsl_vector_free(y);
        gsl_vector_free(b);
        gsl_matrix_free(cov);
        if (ws)
            gsl_multifit_linear_free(ws);
    }
    /* results; negative costs are clamped to zero (noise in a cost too small
     * to see) */
    m->seg_ns = fmax(0, x[0] * prior[0]);
    m->seg_se = isfinite(xse[0]) ? xse[0] * prior[0] : 0;
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        for (int k = 0; k < mf->d->nloops; k++) {
            int c = lay.loop_col_base[f] + k;
            /* a negative fit: the loop is too cheap for the data to see;
             * keep a tenth of its prior rather than calling it free */
            mf->loops[k].cost_ns = x[c] > 0.1 ? x[c] * prior[c] : 0.1 * prior[c];
            mf->loops[k].cost_se = isfinite(xse[c]) ? xse[c] * prior[c] : prior[c];
            mf->loops[k].cost_fitted = used[c] && isfinite(xse[c]) && xse[c] < 0.5;
            if (used[c] && !mf->loops[k].cost_fitted)
                m->cost_rank_deficient = 1;
        }
        for (int k = 0; k < mf->d->ncalls; k++) {
            int c = lay.call_col_base[f] + k;
            mf->call_cost[k] = fmax(0, x[c] * prior[c]);
        }
    }
    if (m->cost_rank_deficient)
        pp_prog_warn(m, "the run cannot separate the cost of some loops (they always run together); "
                        "their split follows the static operation counts (show marks them with *)");
    free(prior); free(used); free(colof); free(x); free(xse);
    rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "out of memory while fitting costs");
done:
    for (long i = 0; i < nseg; i++) {
        free(seg[i].col);
        free(seg[i].val);
    }
    free(seg);
    for (int f = 0; maps && f < m->nfuncs; f++)
        free(maps[f]);
    free(maps);
    free(lay.loop_col_base);
    free(lay.call_col_base);
    return rc;
}
