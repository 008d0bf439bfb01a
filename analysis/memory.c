/* memory.c - see memory.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "memory.h"
#include "model-internal.h"
#include "record.h"
#include "resolve.h"

#include <math.h>
#include <stdlib.h>

#define CACHE_LINE 64.0

/* What a stream's bytes cost in calibrate's units.  The triad calibrate
 * times, a[i] = b[i] + s*c[i], is counted as 24 bytes an element (two loads
 * and a store) but moves 32: the stored line is read for ownership and
 * later written back.  So a stream only read moves 3/4 of its bytes' worth
 * of calibrated bandwidth, and a written one (stored, or read and stored in
 * place) 3/2: a copy b[i] = a[i] costs 18 calibrated bytes an element, a
 * sum over a[i] 6, and the triad itself 24 as measured. */
#define READ_WEIGHT 0.75
#define WRITE_WEIGHT 1.5


/* Iterations per entry of loop k of f at the current parameters; -1 when
 * they depend on more than the parameters (a triangular nest). */
static double trip_now(const pp_prog *m, int f, int k)
{
    const pp_mloop *ml = &m->funcs[f].loops[k];
    if (ml->rule == PP_RULE_CONSTANT || !ml->count)
        return pp_loop_trip(m, ml);
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

/* The bytes a stream's step walks: a step in the program's variables (0,
 * a column walk) is taken as past a cache line. */
static double step_bytes(long step)
{
    return step == 0 ? CACHE_LINE : fabs((double)step);
}

/* The cache bytes a stream takes per iteration: its step, a line at most
 * (a stride past a line still brings in one line per iteration). */
static double line_bytes(long step)
{
    double s = step_bytes(step);
    return s < CACHE_LINE ? s : CACHE_LINE;
}

/* 1 when a loop of f with this id is loop k or inside it. */
static int within(const pp_mfunc *mf, int id, int k)
{
    for (int steps = 0; id >= 0 && steps <= mf->d->nloops; steps++) {
        if (id == mf->d->loops[k].id)
            return 1;
        int i = pp_model_scope_of(mf, id);
        if (i < 0)
            return 0;
        id = mf->d->loops[i].parent;
    }
    return 0;
}

/* The distinct bytes one entry of loop k of f walks through its streams
 * and its sub-loops' (a sub-loop's stream whose start does not move with
 * loop k counted once, the others once per iteration of k); -1 when a
 * trip count is not known in the parameters, the loop calls a function
 * of the program (whose data it cannot see) or has references the
 * streams do not describe.  The reuse distance of a
 * stream that loop k re-walks on its next entry (memory.h). */
static double entry_bytes(const pp_prog *m, int f, int k, int *budget)
{
    const pp_mfunc *mf = &m->funcs[f];
    const pp_dloop *dl = &mf->d->loops[k];
    /* each visit scans the function's loops and calls: a nest too large
     * for that (thousands of loops) keeps the rule of the whole data */
    *budget -= mf->d->nloops + mf->d->ncalls + 1;
    if (*budget < 0)
        return -1;
    double trip = trip_now(m, f, k);
    /* references the streams do not describe (memx=, gathers, chases):
     * bytes not known */
    if (trip < 0 || dl->memx > 0 || dl->memg > 0 || dl->memc > 0)
        return -1;
    for (int c = 0; c < mf->d->ncalls; c++)
        if (within(mf, mf->d->calls[c].loop, k) && mf->d->calls[c].callee &&
            pp_record_func_index(m->rec, mf->d->calls[c].callee) >= 0)
            return -1;
    double per_iter = 0, once = 0;
    for (int s = 0; s < dl->nstreams; s++)
        per_iter += line_bytes(dl->stream_step[s]);
    for (int c = 0; c < mf->d->nloops; c++) {
        const pp_dloop *cl = &mf->d->loops[c];
        if (cl->parent != dl->id)
            continue;
        double cb = entry_bytes(m, f, c, budget);
        double ct = trip_now(m, f, c);
        if (cb < 0 || ct < 0)
            return -1;
        double fixed = 0;
        for (int s = 0; s < cl->nstreams; s++)
            if (cl->stream_reuse[s])
                fixed += ct * line_bytes(cl->stream_step[s]);
        if (fixed > cb)
            fixed = cb;
        per_iter += cb - fixed;
        once += fixed;
    }
    return trip * per_iter + once;
}

/* The working set a stream of loop k of f is served from (memory.h): one
 * entry of loop k's streams when the enclosing loop walks it again; else
 * what one entry of the enclosing loop walks, when known (the stream comes
 * back when that loop is entered again: B's rows in an i-k-j matrix
 * multiply come back after B, not after A, B and C), at most the
 * program's arrays; else the program's arrays.  -1: taken as cached. */
static double stream_ws(const pp_prog *m, int f, int k, int s, double footprint)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    if (dl->stream_reuse[s]) {
        double walk = 0;   /* bytes all the loop's streams walk per iteration */
        for (int t = 0; t < dl->nstreams; t++)
            walk += step_bytes(dl->stream_step[t]);
        double trip = trip_now(m, f, k);
        return trip < 0 ? -1 : trip * walk;   /* unknown reuse distance: cached */
    }
    int p = pp_model_scope_of(&m->funcs[f], dl->parent);
    if (p >= 0) {
        int budget = 100000;
        double ws = entry_bytes(m, f, p, &budget);
        if (ws >= 0)
            return ws < footprint ? ws : footprint;
    }
    return footprint;
}

/* ns per iteration loop k of f spends on its streams; *beyond (when not
 * NULL) gets the part of it from streams whose working set is larger than
 * min_ws bytes. */
static double streams_ns(const pp_prog *m, const pp_machine *mach, int f, int k, double footprint,
                         double min_ws, double *beyond)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double ns = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        /* a stride past a cache line still moves one line per iteration */
        double bytes = line_bytes(dl->stream_step[s]);
        double ws = stream_ws(m, f, k, s, footprint);
        if (ws < 0)
            continue;
        double bw = pp_machine_stream_bw(mach, ws);
        if (bw > 0) {
            double t = (dl->stream_written[s] ? WRITE_WEIGHT : READ_WEIGHT) * bytes / bw;
            ns += t;
            if (beyond && ws > min_ws)
                *beyond += t;
        }
    }
    /* Loads at addresses from loaded values, anywhere in the data set: a
     * gather (a[idx[i]]) at calibrate's time of independent random loads,
     * a chase (p = p->next) at its latency.  Gathers beyond the caches
     * share the memory's bandwidth like streams; a chase, one miss at a
     * time, does not. */
    if (dl->memg > 0 && mach->gather.n > 0) {
        double t = dl->memg * pp_curve_at(&mach->gather, footprint);
        ns += t;
        if (beyond && footprint > min_ws)
            *beyond += t;
    }
    if (dl->memc > 0 && mach->chase.n > 0)
        ns += dl->memc * pp_curve_at(&mach->chase, footprint);
    return ns;
}

double pp_mem_stream_ns(const pp_prog *m, const pp_machine *mach, int f, int k, double footprint)
{
    return streams_ns(m, mach, f, k, footprint, 0, NULL);
}

/* The last cache level: traffic beyond it goes to the memory, whose
 * bandwidth the cores share (what calibrate's scale.memory measures: threads
 * streaming working sets larger than the caches).  Traffic a shared last
 * level serves scales with the cores far better: on the development VM
 * (a 260 MB L3) the bench's samples at P = 2 ran 1.9 to 2.3 times faster
 * than at P = 1 while scale.memory(2) measured 1.3 to 1.7, and charging
 * their L3 traffic that slowdown over-predicted every P = 2 point by 10 to
 * 40 points.  Where the machine file has the measured bandwidth curve, the
 * edge is where that curve reaches the memory's bandwidth, not the nominal
 * L3 (pp_machine_memory_edge). */
static double last_cache_bytes(const pp_machine *mach)
{
    return pp_machine_memory_edge(mach);
}

double pp_mem_shared_ns(const pp_prog *m, const pp_machine *mach, int f, int k, double footprint)
{
    double last = last_cache_bytes(mach), sh = 0;
    if (last <= 0)
        return 0;   /* no cache sizes: nothing known to be shared */
    streams_ns(m, mach, f, k, footprint, last, &sh);
    return sh;
}

/* The streams' time per iteration of every loop at the recorded size, for
 * mach: computed once per model and machine. */
static const double *recorded_ns(pp_prog *m, const pp_machine *mach, int n)
{
    if (m->mem_rec_ns && m->mem_rec_of == mach)
        return m->mem_rec_ns;
    double *rec = realloc(m->mem_rec_ns, sizeof *rec * (size_t)(n + 1));
    long *vals = pp_prog_params_save(m);
    if (!rec || !vals) {
        if (rec)
            m->mem_rec_ns = rec;
        free(vals);
        m->mem_rec_of = NULL;
        return NULL;
    }
    m->mem_rec_ns = rec;
    m->mem_rec_of = mach;
    pp_prog_reset(m);
    int i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++)
            rec[i++] = pp_mem_stream_ns(m, mach, f, k, m->footprint_rec);
    pp_prog_params_restore(m, vals);
    return rec;
}

/* Whether the memory model applies at the point (1; 0 when it is off,
 * without a machine, shapes or a footprint), with the number of loops n,
 * the footprint now and each loop's recorded stream time; -1 when out of
 * memory. */
static int model_applies(pp_prog *m, const pp_machine *mach, int *n, double *foot, const double **rec)
{
    *n = 0;
    *rec = NULL;
    if (!m->cache_rule || !mach || m->nshape == 0 || m->footprint_rec <= 0)
        return 0;
    *foot = pp_prog_footprint(m);
    if (*foot <= 0)
        return 0;
    for (int f = 0; f < m->nfuncs; f++)
        *n += m->funcs[f].d->nloops;
    *rec = recorded_ns(m, mach, *n);
    return *rec ? 1 : -1;
}

int pp_mem_apply(pp_prog *m, const pp_machine *mach, double **saved)
{
    *saved = NULL;
    int n;
    double foot;
    const double *rec;
    int on = model_applies(m, mach, &n, &foot, &rec);
    if (on <= 0)
        return on;
    double *sv = malloc(sizeof *sv * (size_t)(n + 1));
    if (!sv) {
        free(sv);
        return -1;
    }
    double last = last_cache_bytes(mach);
    /* what-if: the memory hierarchy's time per byte (whatif.h, `memory`):
     * the time added here, and the shared part, times mu.  The recorded
     * costs hold the recorded working set's time, which moves with
     * `speed`: so T stays homogeneous of degree one in the times */
    double mu = pp_machine_mem_time_scale(mach);
    int i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            pp_mloop *ml = &m->funcs[f].loops[k];
            /* the streams' time here, and its part the threads share */
            double sh = 0;
            double extra = streams_ns(m, mach, f, k, foot, last, last > 0 ? &sh : NULL) - rec[i];
            sh *= mu;
            sv[i++] = ml->cost_ns;
            if (extra > 0)
                ml->cost_ns += extra * mu;
            ml->mem_ns = sh < ml->cost_ns ? sh : ml->cost_ns > 0 ? ml->cost_ns : 0;
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
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            m->funcs[f].loops[k].cost_ns = saved[i++];
            m->funcs[f].loops[k].mem_ns = 0;
        }
    free(saved);
}

/* The largest working set loop k's streams are served from (0: none
 * known; each stream taken as cached), and its cache bytes per
 * iteration. */
static double loop_ws(const pp_prog *m, int f, int k, double footprint, double *bytes)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double ws = 0;
    *bytes = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        *bytes += line_bytes(dl->stream_step[s]);
        double w = stream_ws(m, f, k, s, footprint);
        if (w > ws)
            ws = w;
    }
    /* gathers and chases: anywhere in the data */
    if ((dl->memg > 0 || dl->memc > 0) && footprint > ws)
        ws = footprint;
    return ws;
}

int pp_mem_report(pp_prog *m, const pp_machine *mach, pp_mem_loop **out)
{
    *out = NULL;
    int n;
    double foot;
    const double *rec;
    int on = model_applies(m, mach, &n, &foot, &rec);
    if (on <= 0)
        return on;
    pp_mem_loop *r = calloc((size_t)n + 1, sizeof *r);
    long *vals = pp_prog_params_save(m);
    if (!r || !vals) {
        free(r);
        free(vals);
        return -1;
    }
    double edge = pp_machine_memory_edge(mach);
    int i = 0, nr = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++, i++) {
            const pp_dloop *dl = &m->funcs[f].d->loops[k];
            if (dl->nstreams == 0 && dl->memg == 0 && dl->memc == 0)
                continue;
            pp_mem_loop *e = &r[nr++];
            e->f = f;
            e->k = k;
            e->ws = loop_ws(m, f, k, foot, &e->bytes);
            e->beyond = edge > 0 && e->ws > edge;
            double x = pp_mem_stream_ns(m, mach, f, k, foot) - rec[i];
            e->extra_ns = x > 0 ? x : 0;
        }
    /* the same at the recorded parameters */
    pp_prog_reset(m);
    for (int j = 0; j < nr; j++) {
        double b;
        r[j].ws_rec = loop_ws(m, r[j].f, r[j].k, m->footprint_rec, &b);
        r[j].beyond_rec = edge > 0 && r[j].ws_rec > edge;
    }
    pp_prog_params_restore(m, vals);
    *out = r;
    return nr;
}
