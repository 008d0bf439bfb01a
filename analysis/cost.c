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
 * Loops the runtime timed where they ran (cost-timed.c) add rows of their
 * own: a measured loop's cost is fitted to its own time first, and the
 * segments then decide only the costs no loop timing measured.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cost.h"
#include "lsq.h"
#include "memory.h"
#include "segments.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost-internal.h"

static double ops_weight(const long *ops)
{
    /* one for the loop's own increment and test, plus its statements;
     * floating point and memory statements weigh more */
    return 1.0 + (double)ops[PP_OPS_INT] + 2.0 * (double)ops[PP_OPS_FP] + 2.0 * (double)ops[PP_OPS_LOAD] +
           2.0 * (double)ops[PP_OPS_STORE] + (double)ops[PP_OPS_BRANCH] + 5.0 * (double)ops[PP_OPS_CALL];
}

int pp_cost_add_entry(segment *s, int col, double v)
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

static int add_deltas(const pp_prog *m, const layout *lay, slotmap **maps, segment *s, const pp_rdelta *d0, int n,
                      const int *fmap)
{
    for (int i = 0; i < n; i++) {
        pp_rdelta dd = d0[i];
        dd.func = fmap ? fmap[dd.func] : dd.func;
        const pp_rdelta *d = &dd;
        const slotmap *sm = &maps[d->func][d->slot];
        if (sm->kind < 0)
            continue;
        const pp_mfunc *mf = &m->funcs[d->func];
        if (sm->kind == 0 && pp_cost_add_entry(s, lay->loop_col_base[d->func] + sm->idx, (double)d->delta))
            return -1;
        if (sm->kind == 1 && mf->d->loops[sm->idx].shape != PP_SHAPE_BOTTOM &&
            pp_cost_add_entry(s, lay->loop_col_base[d->func] + sm->idx, -(double)d->delta))
            return -1;
        if (sm->kind == 1 && pp_cost_add_entry(s, lay->entry_col_base[d->func] + sm->idx, (double)d->delta))
            return -1;
        if (sm->kind == 2 && pp_cost_add_entry(s, lay->call_col_base[d->func] + sm->idx, (double)d->delta))
            return -1;
    }
    return 0;
}

typedef struct {
    const pp_prog *m;
    const layout *lay;
    slotmap **maps;
    const int *fmap;
    segment **seg;
    long *nseg, *capseg;
    double conc_w, w, defl_w;   /* work-weighted sums: concurrency, slowdown */
    const double *shared;       /* per column: ns of a loop iteration's
                                   memory traffic beyond the last cache level
                                   at the recorded size (NULL: none) */
    pp_timed *timed;            /* loop timing's rows (cost-timed.c) */
    const pp_record *rec;
    int ri;
} seg_ctx;

/* The machine's compute (or memory-streaming) slowdown at a fractional
 * concurrency: linear between the whole thread counts around it. */
static double slowdown(const pp_machine *mach, double conc, int memory)
{
    /* the built-in defaults are guesses: nothing measured to take out */
    if (!mach || conc <= 1.0 || mach->source == PP_MACHINE_DEFAULT)
        return 1.0;
    double (*scale)(const pp_machine *, int) = memory ? pp_machine_memory_scale : pp_machine_compute_scale;
    int lo = (int)conc;
    double f = conc - lo;
    double a = scale(mach, lo), b = scale(mach, lo + 1);
    return a + f * (b - a);
}

static int add_segment(void *vp, double ns, double wall, double conc, const pp_rdelta *d, int nd)
{
    seg_ctx *c = vp;
    if (*c->nseg == *c->capseg) {
        long cap = *c->capseg ? *c->capseg * 2 : 256;
        segment *n = realloc(*c->seg, sizeof *n * (size_t)cap);
        if (!n)
            return -1;
        *c->seg = n;
        *c->capseg = cap;
    }
    segment *s = &(*c->seg)[(*c->nseg)++];
    memset(s, 0, sizeof *s);
    if (pp_cost_add_entry(s, 0, 1.0) || add_deltas(c->m, c->lay, c->maps, s, d, nd, c->fmap))
        return -1;
    /* the loop timing's own cost is not the program's */
    /* the share of the segment's wall-clock time the thread ran (its CPU
     * time over its wall time): loop timing reads a wall clock */
    double running = wall > 0 && ns < wall ? ns / wall : 1.0;
    if (c->timed)
        ns = fmax(0, ns - pp_timed_overhead(c->timed, c->rec, d, nd, c->fmap));
    /* the segment ran beside conc - 1 others: one thread alone would have
     * taken ns / slowdown (the traversal multiplies by the slowdown of
     * the predicted concurrency, memory.h: its memory traffic beyond the
     * last cache level by the streaming one) */
    double slow = slowdown(c->m->fit_mach, conc, 0);
    if (c->shared && conc > 1.0 && ns > 0) {
        /* mem ns of it (at one thread) went to shared traffic, slowed by
         * ms, the rest by the compute slowdown: ns = (u - mem) slow +
         * mem ms for its time u alone, which is what the traversal
         * gives back (all of it shared when mem ms >= ns) */
        double mem = 0;
        for (int i = 0; i < s->n; i++)
            mem += s->val[i] * c->shared[s->col[i]];
        double ms = slowdown(c->m->fit_mach, conc, 1);
        if (mem > 0) {
            double u = mem * ms >= ns ? ns / ms : (ns - mem * ms) / slow + mem;
            slow = ns / u;
        }
    }
    c->conc_w += ns * conc;
    c->defl_w += ns * slow;
    c->w += ns;
    s->dur = ns / slow;
    if (c->timed && pp_timed_segment(c->timed, c->ri, c->rec, d, nd, c->fmap, slow / running, s->dur))
        return -1;
    return 0;
}

/* More used costs than this: fit_big rather than the dense fit of lsq.c
 * (cubic in the costs).  No sample comes near it, so their fits stay
 * those of lsq.c to the bit. */
#define PP_COST_DENSE_MAX 300
/* The weight of a measured loop's row against a segment's where the two
 * enter one system (the intervals' covariance, and fit_big's one-stage
 * fit): a loop's own timing is a direct measure of its cost, a segment's
 * time a sum with whatever else ran in it.  The dense fit takes the
 * measured rows first, alone (fit_measured_first). */
#define PP_COST_TIMED_WEIGHT 4.0
/* ...and at most this many segments for the dual solve of lsq-big.c
 * (cubic in the segments); beyond, the costs keep their static priors. */
#define PP_COST_DUAL_MAX_ROWS 600

static int by_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Up to this many costs in all, the covariance covers every cost, the
 * unused ones with their prior's variance (as lsq-cov.c gives them);
 * beyond, only the used ones (fit_big). */
#define PP_COST_COV_ALL_MAX 2000

/* The fit of a record with thousands of costs (a real code base): only
 * the columns some segment uses enter it (the others keep their priors,
 * as in lsq.c), sparse, and solved in the dimension of the segments
 * (lsq-big.c).  The covariance for the intervals covers the used columns
 * only (*covcol, *ncov): a dense one over every cost, used or not, was
 * hundreds of megabytes, and each of its costs a prediction in the delta
 * method of metrics.c.  Up to PP_COST_COV_ALL_MAX costs it covers all
 * of them, the unused ones with their prior's variance alone. */
static int fit_big(pp_prog *m, const segment *seg, long nseg, int ncols, const int *used, int nu,
                   const double *prior, const int *own, const double *lo, double *cst, double *cse, double **covp,
                   int **covcolp, int *ncovp)
{
    int rc = -1;
    long nnz = 0;
    for (long i = 0; i < nseg; i++)
        nnz += seg[i].n;
    int *cu = malloc(sizeof *cu * (size_t)ncols), *covcol = malloc(sizeof *covcol * (size_t)(nu + 1));
    long *rowptr = malloc(sizeof *rowptr * (size_t)(nseg + 1));
    int *col = malloc(sizeof *col * (size_t)(nnz + 1));
    double *val = malloc(sizeof *val * (size_t)(nnz + 1)), *dur = malloc(sizeof *dur * (size_t)(nseg + 1));
    double *pu = malloc(sizeof *pu * (size_t)(nu + 1)), *lou = malloc(sizeof *lou * (size_t)(nu + 1));
    double *cu_c = malloc(sizeof *cu_c * (size_t)(nu + 1)), *cu_se = malloc(sizeof *cu_se * (size_t)(nu + 1));
    double *tau = malloc(sizeof *tau * (size_t)(nu + 1));
    int *ownu = calloc((size_t)nu + 1, sizeof *ownu);
    double *cov = malloc(sizeof *cov * (size_t)nu * (size_t)nu + 1);
    if (!cu || !covcol || !rowptr || !col || !val || !dur || !pu || !lou || !cu_c || !cu_se || !tau || !ownu || !cov)
        goto out;
    int k = 0;
    for (int c = 0; c < ncols; c++) {
        cu[c] = used[c] ? k : -1;
        if (used[c]) {
            covcol[k] = c;
            pu[k] = prior[c];
            lou[k] = lo[c];
            ownu[k] = own[c];
            k++;
        }
    }
    long e = 0;
    for (long i = 0; i < nseg; i++) {
        rowptr[i] = e;
        dur[i] = seg[i].dur;
        /* (column, value) pairs sorted by column: lsq-big.c merges rows */
        long e0 = e;
        for (int j = 0; j < seg[i].n; j++)
            if (seg[i].val[j] != 0)
                col[e++] = seg[i].col[j];
        qsort(col + e0, (size_t)(e - e0), sizeof *col, by_int);
        for (long x = e0; x < e; x++) {
            int c = col[x];
            double v = 0;
            for (int j = 0; j < seg[i].n; j++)
                if (seg[i].col[j] == c)
                    v += seg[i].val[j];
            val[x] = v;
            col[x] = cu[c];
        }
    }
    rowptr[nseg] = e;
    pp_sprows A = {(int)nseg, nu, rowptr, col, val};
    int s = nseg <= PP_COST_DUAL_MAX_ROWS ? pp_lsq_big_solve(&A, dur, pu, ownu, 0.01, lou, cu_c, cu_se, &m->cost_r2)
                                          : 1;
    if (s < 0)
        goto out;
    if (s > 0) {
        for (int j = 0; j < nu; j++) {
            cu_c[j] = pu[j];
            cu_se[j] = INFINITY;
        }
        m->cost_r2 = NAN;
        pp_prog_warn(m, "the run has %ld segments over %d costs: too many to fit them in reasonable time; "
                        "every cost follows the static operation counts (show marks them with *)", nseg, nu);
    }
    for (int c = 0; c < ncols; c++) {
        cst[c] = cu[c] >= 0 ? cu_c[cu[c]] : prior[c];
        cse[c] = cu[c] >= 0 ? cu_se[cu[c]] : INFINITY;
    }
    for (int j = 0; j < nu; j++)
        tau[j] = 0.5 * fmax(cu_c[j], pu[j]);
    pp_lsq_post post;
    if (s == 0) {
        if (pp_lsq_big_cov(&A, dur, cu_c, tau, cov, &post))
            goto out;
        m->cost_level = pp_lsq_big_level(&A, dur, cu_c, m->cost_quantile);
    } else {
        memset(cov, 0, sizeof *cov * (size_t)nu * (size_t)nu);
        for (int j = 0; j < nu; j++)
            cov[(size_t)j * (size_t)nu + (size_t)j] = tau[j] * tau[j];
        m->cost_level = 1.0;
    }
    if (ncols <= PP_COST_COV_ALL_MAX) {
        double *all = calloc((size_t)ncols * (size_t)ncols + 1, sizeof *all);
        if (!all)
            goto out;
        for (int a = 0; a < ncols; a++) {
            if (cu[a] < 0) {
                double t = 0.5 * prior[a];
                all[(size_t)a * (size_t)ncols + (size_t)a] = t * t;
                continue;
            }
            for (int b = 0; b < ncols; b++)
                if (cu[b] >= 0)
                    all[(size_t)a * (size_t)ncols + (size_t)b] = cov[(size_t)cu[a] * (size_t)nu + (size_t)cu[b]];
        }
        *covp = all;
        *covcolp = NULL;
        *ncovp = ncols;
        rc = 0;
        goto out;
    }
    *covp = cov;
    cov = NULL;
    *covcolp = covcol;
    covcol = NULL;
    *ncovp = nu;
    rc = 0;
out:
    free(cu); free(covcol); free(rowptr); free(col); free(val); free(dur); free(pu); free(lou);
    free(cu_c); free(cu_se); free(tau); free(ownu); free(cov);
    return rc;
}

/* The fit with loop timing (dense): the rows of A from nseg on are the
 * measured loops' (cost-timed.c).  First the costs those rows use, from
 * them alone: a measured loop's cost is its own time, whatever else its
 * segments held (a set-up outside every loop would otherwise be spread
 * over the loops that ran beside it).  Then the other costs (the fixed
 * cost per segment, calls, loops not timed) from the segments, less the
 * measured loops' part of them.  A measured cost may go down to 1e-4 of
 * its prior (the prior's tenth is there for costs the data cannot see; a
 * timed loop's is seen, and the prior is scaled to the whole run's time
 * over the static operations: a run whose segment holds a slow start,
 * the sanitizers' or a cold binary's, put a hundredth of it at 4.4 ns an
 * iteration for a loop its timing measured at 0.5). */
/* The pull toward the prior in the measured rows' fit: weak when the
 * records hold two sizes or more, the segments' otherwise (see below). */
#define MEASURED_MU_SIZES 1e-3
#define MEASURED_MU_ONE 0.01

/* Do two of the records differ in some parameter's value (the problem
 * size: not P, not the rank)? */
static int several_sizes(const pp_prog *m)
{
    for (int i = 0; i < m->nparams; i++) {
        long v0 = 0, v = 0;
        int h0 = pp_prog_param_in(m, 0, i, &v0) == 0;
        for (int r = 1; r < m->nrec; r++) {
            int h = pp_prog_param_in(m, r, i, &v) == 0;
            if (h != h0 || (h && v != v0))
                return 1;
        }
    }
    return 0;
}


static int fit_measured_first(pp_prog *m, const double *A, const double *dur, long nseg, long nmeas, int ncols,
                              const double *prior, const int *own, const double *lo, double *cst, double *cse)
{
    int rc = -1;
    size_t nc = (size_t)ncols;
    int *meas = calloc(nc, sizeof *meas);
    double *lo1 = malloc(sizeof *lo1 * nc), *c1 = calloc(nc, sizeof *c1), *se1 = calloc(nc, sizeof *se1);
    double *A2 = malloc(sizeof *A2 * (size_t)(nseg ? nseg : 1) * nc), *d2 = malloc(sizeof *d2 * (size_t)(nseg + 1));
    double *Aw = malloc(sizeof *Aw * (size_t)(nmeas ? nmeas : 1) * nc), *dw = malloc(sizeof *dw * (size_t)(nmeas + 1));
    double r2;
    if (!meas || !lo1 || !c1 || !se1 || !A2 || !d2 || !Aw || !dw)
        goto out;
    const double *A1 = A + (size_t)nseg * nc;
    for (long i = 0; i < nmeas; i++)
        for (int c = 0; c < ncols; c++)
            if (A1[(size_t)i * nc + (size_t)c] != 0)
                meas[c] = 1;
    for (int c = 0; c < ncols; c++)
        lo1[c] = meas[c] ? 1e-4 * prior[c] : lo[c];
    /* Each measured row weighted by 1/sqrt of its time: a row sums many
     * timed entries, whose noise adds up in variance, so its variance
     * grows with its time.  With records at two sizes or more, the pull
     * toward the prior is weak (MEASURED_MU_SIZES, against 0.01 for the
     * segments): each size's rows sum many entries of one length, and a
     * timed loop's costs are its own, far from the static guess where
     * they are: with the segments' pull, apsp's relaxation loop, whose
     * rows at two sizes say about 150 ns an entry and 1.8 ns an
     * iteration, would get the prior's 1 ns an entry and 2.4 ns an
     * iteration, +94% at 16x the size.  From one size, a loop's cost per
     * entry shows only in its short entries (a triangle's first rows),
     * whose time is mostly the timing's and the host's: a weak pull there
     * gave a pair-interaction triangle 17-72 ns an entry and T1 growing
     * 33-57x at 8x n, where it grows 63-72x (61-omp-triangle.t).  The
     * pull also splits what the rows cannot: a loop whose entries all
     * run the same count, recorded at one size. */
    for (long i = 0; i < nmeas; i++) {
        double t = dur[nseg + i], w = t > 0 ? 1.0 / sqrt(t) : 1.0;
        for (size_t c = 0; c < nc; c++)
            Aw[(size_t)i * nc + c] = A1[(size_t)i * nc + c] * w;
        dw[i] = t * w;
    }
    if (pp_lsq_solve_bounded(Aw, dw, (int)nmeas, ncols, prior, own, several_sizes(m) ? MEASURED_MU_SIZES : MEASURED_MU_ONE,
                             lo1, c1, se1, &r2, NULL))
        goto out;
    memcpy(A2, A, sizeof *A2 * (size_t)nseg * nc);
    for (long i = 0; i < nseg; i++) {
        d2[i] = dur[i];
        for (int c = 0; c < ncols; c++)
            if (meas[c]) {
                d2[i] -= A2[(size_t)i * nc + (size_t)c] * c1[c];
                A2[(size_t)i * nc + (size_t)c] = 0;
            }
    }
    if (pp_lsq_solve_bounded(A2, d2, (int)nseg, ncols, prior, own, 0.01, lo, cst, cse, &m->cost_r2, NULL))
        goto out;
    for (int c = 0; c < ncols; c++)
        if (meas[c]) {
            cst[c] = c1[c];
            cse[c] = se1[c];
        }
    /* R^2 of the segments' times, all costs in (what show reports) */
    double mean = 0, ss_tot = 0, ss_res = 0;
    for (long i = 0; i < nseg; i++)
        mean += dur[i] / (double)nseg;
    for (long i = 0; i < nseg; i++) {
        double p = 0;
        for (int c = 0; c < ncols; c++)
            p += A[(size_t)i * nc + (size_t)c] * cst[c];
        ss_res += (dur[i] - p) * (dur[i] - p);
        ss_tot += (dur[i] - mean) * (dur[i] - mean);
    }
    m->cost_r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
    rc = 0;
out:
    free(meas); free(lo1); free(c1); free(se1); free(A2); free(d2); free(Aw); free(dw);
    return rc;
}

double pp_cost_group_scale(const double *A, const double *dur, long nseg, long nrows, int ncols, const double *c)
{
    double ss[2] = {0, 0};
    long n[2] = {0, 0};
    for (long i = 0; i < nrows; i++) {
        double r = dur[i];
        for (int j = 0; j < ncols; j++)
            r -= A[(size_t)i * (size_t)ncols + (size_t)j] * c[j];
        int g = i >= nseg;
        ss[g] += r * r;
        n[g]++;
    }
    if (!n[0] || !n[1] || ss[0] <= 0 || ss[1] <= 0)
        return 1;
    return sqrt((ss[0] / (double)n[0]) / (ss[1] / (double)n[1]));
}

/* Per column, the ns a loop iteration spends on memory traffic beyond
 * the last cache level at the recorded size (memory.h); *out stays NULL
 * when there is none (no measured machine, the memory model off, no
 * shapes, or every loop inside the caches).  -1: out of memory. */
static int shared_traffic(pp_prog *m, const layout *lay, double **out)
{
    const pp_machine *mach = m->fit_mach;
    *out = NULL;
    if (!mach || mach->source == PP_MACHINE_DEFAULT || !m->cache_rule || m->nshape == 0 || m->footprint_rec <= 0)
        return 0;
    double *sh = calloc((size_t)lay->ncols, sizeof *sh);
    if (!sh)
        return -1;
    int any = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            double v = pp_mem_shared_ns(m, NULL, mach, f, k, m->footprint_rec);
            sh[lay->loop_col_base[f] + k] = v;
            any |= v > 0;
        }
    if (!any)
        free(sh);
    *out = any ? sh : NULL;
    return 0;
}

int pp_cost_fit(pp_prog *m, char *err, size_t errlen)
{
    layout lay = {0};
    lay.loop_col_base = calloc((size_t)m->nfuncs + 1, sizeof(int));
    lay.call_col_base = calloc((size_t)m->nfuncs + 1, sizeof(int));
    lay.entry_col_base = calloc((size_t)m->nfuncs + 1, sizeof(int));
    slotmap **maps = calloc((size_t)m->nfuncs + 1, sizeof *maps);
    segment *seg = NULL;
    long nseg = 0, capseg = 0;
    double *shared = NULL;
    pp_timed *timed = NULL;
    int rc = -1;
    if (!lay.loop_col_base || !lay.call_col_base || !lay.entry_col_base || !maps)
        goto oom;
    lay.ncols = 1;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        lay.loop_col_base[f] = lay.ncols;
        lay.ncols += d->nloops;
        lay.call_col_base[f] = lay.ncols;
        lay.ncols += d->ncalls;
        lay.entry_col_base[f] = lay.ncols;
        lay.ncols += d->nloops;
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
            if (d->loops[k].tslot > 0 && d->loops[k].tslot + 1 < d->nslots) {
                maps[f][d->loops[k].tslot] = (slotmap){f, 3, k};
                maps[f][d->loops[k].tslot + 1] = (slotmap){f, 4, k};
            }
        }
        for (int k = 0; k < d->ncalls; k++)
            if (d->calls[k].slot < d->nslots)
                maps[f][d->calls[k].slot] = (slotmap){f, 2, k};
    }
    /* the loops' shared memory traffic at the recorded size, taken out
     * with the concurrency (with several records, at the first one's
     * size, as the memory model's recorded stream times) */
    if (shared_traffic(m, &lay, &shared))
        goto oom;
    /* segments, of every record */
    double conc_w = 0, defl_w = 0, w = 0;
    timed = pp_timed_new(m, &lay, maps);
    if (!timed)
        goto oom;
    for (int ri = 0; ri < (m->nrec ? m->nrec : 1); ri++) {
        const pp_record *rec = m->nrec ? m->recs[ri] : m->rec;
        seg_ctx sc = {m, &lay, maps, m->nrec ? m->fmap[ri] : NULL, &seg, &nseg, &capseg, 0, 0, 0, shared,
                      timed, rec, ri};
        if (pp_segments_walk(rec, add_segment, &sc))
            goto oom;
        conc_w += sc.conc_w;
        defl_w += sc.defl_w;
        w += sc.w;
    }
    free(shared);
    shared = NULL;
    m->rec_conc = w > 0 ? conc_w / w : 1.0;
    m->rec_deflate = w > 0 ? defl_w / w : 1.0;
    /* the measured loops' rows; the prior's scale (below) is the
     * segments' alone */
    long nseg_runs = nseg;
    if (pp_timed_rows(timed, &seg, &nseg, &capseg, PP_COST_TIMED_WEIGHT))
        goto oom;
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
        /* entering a loop: its set-up and the mispredicted exit test */
        for (int k = 0; k < d->nloops; k++)
            prior[lay.entry_col_base[f] + k] = 10.0;
    }
    double tot_time = 0, tot_w = 0;
    for (long i = 0; i < nseg_runs; i++) {
        tot_time += seg[i].dur;
        for (int j = 0; j < seg[i].n; j++)
            if (seg[i].col[j] > 0)
                tot_w += seg[i].val[j] * prior[seg[i].col[j]];
    }
    double beta = tot_w > 0 ? tot_time / tot_w : 1.0;
    for (int c = 1; c < lay.ncols; c++)
        prior[c] *= beta;
    prior[0] = 1000.0;  /* 1 us per segment; the data decides */
    if (m->has_beta_prior) {
        /* a machine file's linear model (perfpred fit): t = sum ops x beta;
         * a floor keeps a class fitted to zero from making a cost free */
        static const int cls[PP_NOPS] = {PP_BETA_INT, PP_BETA_FP, PP_BETA_LOAD, PP_BETA_STORE, PP_BETA_BRANCH,
                                         PP_BETA_CALL};
        const double *b = m->beta_prior;
        for (int f = 0; f < m->nfuncs; f++) {
            const pp_dfunc *d = m->funcs[f].d;
            for (int k = 0; k < d->nloops; k++) {
                double v = b[PP_BETA_ITER];
                for (int o = 0; o < PP_NOPS; o++)
                    v += (double)d->loops[k].ops[o] * b[cls[o]];
                prior[lay.loop_col_base[f] + k] = fmax(v, 0.05 * prior[lay.loop_col_base[f] + k]);
                prior[lay.entry_col_base[f] + k] = fmax(b[PP_BETA_ENTRY], 0.05 * prior[lay.entry_col_base[f] + k]);
            }
            for (int k = 0; k < d->ncalls; k++)
                prior[lay.call_col_base[f] + k] = fmax(b[PP_BETA_CALL], 0.05 * prior[lay.call_col_base[f] + k]);
        }
        if (b[PP_BETA_SEGMENT] > 0)
            prior[0] = b[PP_BETA_SEGMENT];
    }

    /* the fit (lsq.c): c = x * prior, standard errors in ns */
    double *dur = calloc((size_t)nseg + 1, sizeof *dur);
    double *cst = calloc((size_t)lay.ncols, sizeof *cst), *cse = calloc((size_t)lay.ncols, sizeof *cse);
    int *used = calloc((size_t)lay.ncols, sizeof *used);
    if (!dur || !cst || !cse || !used) {
        free(dur); free(cst); free(cse); free(used); free(prior);
        goto oom;
    }
    int nused = 0;
    for (long i = 0; i < nseg; i++) {
        dur[i] = seg[i].dur;
        for (int j = 0; j < seg[i].n; j++)
            if (seg[i].val[j] != 0 && !used[seg[i].col[j]]) {
                used[seg[i].col[j]] = 1;
                nused++;
            }
    }
    /* the fixed cost per segment has its own, arbitrary prior: it is not
     * on the common scale of the operation counts */
    int *own = calloc((size_t)lay.ncols, sizeof *own);
    if (own)
        own[0] = 1;
    /* costs are not negative, and a loop's iteration costs at least a
     * tenth of its prior (cheaper than that, the data cannot see it; that
     * tenth rather than calling it free) */
    double *lo = calloc((size_t)lay.ncols, sizeof *lo);
    for (int f = 0; lo && f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++)
            lo[lay.loop_col_base[f] + k] = 0.1 * prior[lay.loop_col_base[f] + k];
    double *cov = NULL;
    int ncov = lay.ncols, *covcol = NULL;   /* the covariance's columns (NULL: all) */
    int lrc;
    if (nused > PP_COST_DENSE_MAX) {
        /* a real code base: thousands of costs (fit_big, lsq-big.c) */
        lrc = !lo || !own ? -1 : fit_big(m, seg, nseg, lay.ncols, used, nused, prior, own, lo, cst, cse, &cov,
                                          &covcol, &ncov);
    } else {
        double *A = calloc((size_t)(nseg ? nseg : 1) * (size_t)lay.ncols, sizeof *A);
        cov = malloc(sizeof *cov * (size_t)lay.ncols * (size_t)lay.ncols);
        for (long i = 0; A && i < nseg; i++)
            for (int j = 0; j < seg[i].n; j++)
                A[(size_t)i * (size_t)lay.ncols + (size_t)seg[i].col[j]] += seg[i].val[j];
        double *tau = calloc((size_t)lay.ncols, sizeof *tau);
        lrc = !lo || !tau || !A || !own ? -1
              : nseg > nseg_runs
                  ? fit_measured_first(m, A, dur, nseg_runs, nseg - nseg_runs, lay.ncols, prior, own, lo, cst, cse)
                  : pp_lsq_solve_bounded(A, dur, (int)nseg, lay.ncols, prior, own, 0.01, lo, cst, cse,
                                         &m->cost_r2, NULL);
        /* The covariance for the intervals (lsq-cov.c): each cost's prior
         * is normal around its value with a standard deviation of half the
         * larger of its value and its static prior (a cost the run did not
         * determine is known to about a factor of two: show's threshold),
         * and the segments update it.  The penalised fit's own covariance
         * would give such a cost a spread set by the penalty's weight;
         * holding it fixed instead gave MPI runs, whose ranks all run the
         * same counts, an interval of zero width.  Columns no segment uses
         * keep their prior. */
        for (int c = 0; lrc == 0 && c < lay.ncols; c++)
            tau[c] = 0.5 * fmax(cst[c], prior[c]);
        pp_lsq_post post;
        /* The measured loops' rows and the segments' are two kinds of
         * data with their own noise (a loop's few timed entries, scaled
         * to all its entries, against a segment's whole time): for the
         * covariance each kind is weighed by its own residual spread
         * (pp_cost_group_scale), so that one residual variance fits both
         * and the costs the measured rows decide get their spread (the
         * segments' many well-fitted rows gave syrk_omp's loop costs a
         * spread of 0.2-0.9% where records of the same runs moved them
         * by 25%). */
        double gs = lrc == 0 && nseg > nseg_runs ? pp_cost_group_scale(A, dur, nseg_runs, nseg, lay.ncols, cst) : 1;
        for (long i = nseg_runs; gs != 1 && i < nseg; i++) {
            dur[i] *= gs;
            for (int c = 0; c < lay.ncols; c++)
                A[(size_t)i * (size_t)lay.ncols + (size_t)c] *= gs;
        }
        if (lrc == 0 && cov && pp_lsq_posterior_cov(A, dur, (int)nseg, lay.ncols, cst, tau, cov, &post))
            lrc = -1;
        for (long i = nseg_runs; gs != 1 && i < nseg; i++) {
            dur[i] /= gs;
            for (int c = 0; c < lay.ncols; c++)
                A[(size_t)i * (size_t)lay.ncols + (size_t)c] /= gs;
        }
        if (lrc == 0 && cov)
            m->cost_level = pp_lsq_quantile_level(A, dur, (int)nseg, lay.ncols, cst, m->cost_quantile);
        free(tau);
        free(A);
    }
    free(lo);
    free(own);
    if (lrc || !cov) {
        free(dur); free(cst); free(cse); free(used); free(prior); free(cov); free(covcol);
        goto oom;
    }
    for (int c = 0; c < lay.ncols; c++) {
        cst[c] *= m->cost_level;
        cse[c] *= m->cost_level;
    }
    for (long i = 0; i < (long)ncov * ncov; i++)
        cov[i] *= m->cost_level * m->cost_level;
    free(dur);
    /* results (cst, cse in ns).  A cost is the run's when its standard
     * error is below half its prior; otherwise the prior decided it. */
#define DETERMINED(c) (used[c] && isfinite(cse[c]) && cse[c] < 0.5 * prior[c])
#define SE(c) (isfinite(cse[c]) ? cse[c] : prior[c])
    pp_timed_finish(timed, m);
    /* the costs' slots are the fit's columns */
    free(m->fit);
    m->fit = cst;
    m->nslot = lay.ncols;
    cst = NULL;
    m->seg_se = isfinite(cse[0]) ? cse[0] : 0;
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        for (int k = 0; k < mf->d->nloops; k++) {
            int c = lay.loop_col_base[f] + k;
            mf->loops[k].slot = c;   /* at least its bound (lo above) */
            mf->loops[k].cost_se = SE(c);
            mf->loops[k].cost_fitted = DETERMINED(c) || mf->loops[k].cost_measured;
            if (used[c] && !mf->loops[k].cost_fitted)
                m->cost_rank_deficient = 1;
            c = lay.entry_col_base[f] + k;
            mf->loops[k].entry_slot = c;
            mf->loops[k].entry_se = SE(c);
            mf->loops[k].entry_fitted = DETERMINED(c);
        }
        mf->call_slot = lay.call_col_base[f];
    }
#undef DETERMINED
#undef SE
    /* the fitted costs and their covariance, for the intervals (metrics.c) */
    free(m->cost_slot);
    free(m->cost_cov);
    m->ncost = ncov;
    m->cost_slot = calloc((size_t)ncov + 1, sizeof *m->cost_slot);
    m->cost_cov = cov;
    cov = NULL;
    if (m->cost_slot) {
        for (int c = 0; c < ncov; c++) {
            int col = covcol ? covcol[c] : c;
            m->cost_slot[c] = col >= 0 && col < lay.ncols ? col : -1;
        }
    } else
        m->ncost = 0;
    free(covcol);
    if (m->cost_rank_deficient)
        pp_prog_warn(m, "the run cannot separate the cost of some loops (they always run together); "
                        "their split follows the static operation counts (show marks them with *)%s",
                     m->nrec == 1 ? "; a second record at about half the size separates a loop's cost "
                                    "per entry from its cost per iteration" : "");
    free(prior); free(used); free(cst); free(cse); free(cov);
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
    free(shared);
    pp_timed_free(timed);
    for (int f = 0; maps && f < m->nfuncs; f++)
        free(maps[f]);
    free(maps);
    free(lay.loop_col_base);
    free(lay.call_col_base);
    free(lay.entry_col_base);
    return rc;
}
