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
#include <string.h>

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


/* Iterations per entry of loop k of f: at the values pv, or
 * from x's thread values when x has them; -1 when they depend on more
 * (a triangular nest; a thread's lo..hi without x), x->unknown then set. */
static double trip_now(const pp_prog *m, const pp_vals *pv, pp_mem_eval *x, int f, int k)
{
    const pp_mloop *ml = &m->funcs[f].loops[k];
    if (ml->rule == PP_RULE_CONSTANT || !ml->count)
        return pp_loop_trip(m, pv, ml);
    if (x && x->trip) {
        double v;
        if (x->trip(x->u, k, &v) == 0)
            return v > 0 ? v : 0;
        x->unknown = 1;
        return -1;
    }
    /* the count in the problem's parameters (variables, globals and
     * arguments traced back to them) */
    pp_expr *e = ml->count ? pp_resolve_roots(m, f, ml->count) : NULL;
    int64_t v;
    int rc = e ? pp_prog_eval(m, pv, e, &v) : -1;
    pp_expr_free(e);
    if (rc == 0)
        return v > 0 ? (double)v : 0;
    if (x)
        x->unknown = 1;
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

double pp_mem_line_ns(double bytes, int written, int lines, double bw, double bw_l1)
{
    if (!(bw > 0))
        return 0;
    double t = (written ? WRITE_WEIGHT : READ_WEIGHT) * bytes / bw;
    if (lines > 1 && bw_l1 > bw)
        t += (lines - 1) * READ_WEIGHT * bytes * (1 / bw - 1 / bw_l1);
    return t;
}

int pp_mem_row_lines(int rows, double live_bytes, double l1_bytes)
{
    if (rows <= 1 || !(live_bytes > l1_bytes) || !(l1_bytes > 0))
        return 1;
    return rows;
}

/* The line streams stream s of loop k of f walks (pp_mem_row_lines): all
 * its rows when the rows of all the loop's streams, over one entry (its
 * trip count times their cache bytes per iteration), do not fit in the
 * L1; 1 when they do, or the trip count is not known here (x->unknown is
 * left alone: the stream's working set decides that). */
static int stream_lines(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, pp_mem_eval *x, int f, int k,
                        int s)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    int rows = dl->stream_rows[s];
    if (rows <= 1 || mach->cache_l1d_bytes <= 0)
        return 1;
    int unknown = x ? x->unknown : 0;
    double trip = trip_now(m, pv, x, f, k);
    if (x)
        x->unknown = unknown;
    if (trip <= 0)
        return 1;
    double live = 0;
    for (int t = 0; t < dl->nstreams; t++)
        live += line_bytes(dl->stream_step[t]) * (dl->stream_rows[t] > 1 ? dl->stream_rows[t] : 1);
    return pp_mem_row_lines(rows, trip * live, (double)mach->cache_l1d_bytes);
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
static double entry_bytes(const pp_prog *m, const pp_vals *pv, pp_mem_eval *x, int f, int k, int *budget)
{
    const pp_mfunc *mf = &m->funcs[f];
    const pp_dloop *dl = &mf->d->loops[k];
    /* each visit scans the function's loops and calls: a nest too large
     * for that (thousands of loops) keeps the rule of the whole data */
    *budget -= mf->d->nloops + mf->d->ncalls + 1;
    if (*budget < 0)
        return -1;
    double trip = trip_now(m, pv, x, f, k);
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
        double cb = entry_bytes(m, pv, x, f, c, budget);
        double ct = trip_now(m, pv, x, f, c);
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
 * program's arrays; else the program's arrays (*whole then set, when not
 * NULL).  -1: taken as cached. */
static double stream_ws(const pp_prog *m, const pp_vals *pv, pp_mem_eval *x, int f, int k, int s, double footprint,
                        int *whole)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    if (whole)
        *whole = 0;
    if (dl->stream_reuse[s]) {
        double walk = 0;   /* bytes all the loop's streams walk per iteration */
        for (int t = 0; t < dl->nstreams; t++)
            walk += step_bytes(dl->stream_step[t]);
        double trip = trip_now(m, pv, x, f, k);
        return trip < 0 ? -1 : trip * walk;   /* unknown reuse distance: cached */
    }
    int p = pp_model_scope_of(&m->funcs[f], dl->parent);
    if (p >= 0) {
        int budget = 100000;
        double ws = entry_bytes(m, pv, x, f, p, &budget);
        if (ws >= 0 && ws <= footprint)
            return ws;
    }
    if (whole)
        *whole = 1;
    return footprint;
}

/* The one-thread working set that stands for a thread's working set ws
 * when x's threads, each walking its own data, run at once (memory.h):
 * the private L2 holds each thread's first L2 bytes, the rest of every
 * thread's data is in the shared levels together, so one thread alone
 * would see L2 + T (ws - L2) bytes.  Data all threads share (the
 * program's arrays, *whole) are not divided. */
static double shared_ws(const pp_machine *mach, const pp_mem_eval *x, double ws, int whole)
{
    int T = x ? x->threads : 1;
    if (T <= 1 || whole)
        return ws;
    double l2 = mach->cache_l2_bytes > 0 ? (double)mach->cache_l2_bytes : 0;
    return ws <= l2 ? ws : l2 + T * (ws - l2);
}

/* ns per iteration loop k of f spends on its streams; *beyond (when not
 * NULL) gets the part of it from streams whose working set is larger than
 * min_ws bytes.  x: the trip counts' source (NULL: the parameters); with
 * x, x->ws gets the largest working set a stream is served from. */
static double streams_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, pp_mem_eval *x, int f, int k,
                         double footprint, double min_ws, double *beyond)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double ns = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        /* a stride past a cache line still moves one line per iteration */
        double bytes = line_bytes(dl->stream_step[s]);
        int whole;
        double ws = stream_ws(m, pv, x, f, k, s, footprint, &whole);
        if (ws < 0)
            continue;
        if (x && whole)
            x->whole = 1;
        else if (x && ws > x->ws)
            x->ws = ws;
        ws = shared_ws(mach, x, ws, whole);
        if (x && ws > min_ws && min_ws > 0)
            x->beyond = 1;
        double bw = pp_machine_stream_bw(mach, ws);
        if (bw > 0) {
            /* its rows beyond the first that miss the L1 are read again
             * from where the stream's data are */
            double t = pp_mem_line_ns(bytes, dl->stream_written[s], stream_lines(m, pv, mach, x, f, k, s), bw,
                                      pp_machine_stream_bw(mach, (double)mach->cache_l1d_bytes / 2));
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

double pp_mem_stream_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k, double footprint)
{
    return streams_ns(m, pv, mach, NULL, f, k, footprint, 0, NULL);
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

double pp_mem_shared_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k, double footprint)
{
    double last = last_cache_bytes(mach), sh = 0;
    if (last <= 0)
        return 0;   /* no cache sizes: nothing known to be shared */
    streams_ns(m, pv, mach, NULL, f, k, footprint, last, &sh);
    return sh;
}

double pp_mem_thread_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k, double footprint,
                        pp_mem_eval *x, double *shared)
{
    double last = last_cache_bytes(mach), sh = 0;
    x->unknown = 0;
    x->beyond = 0;
    x->whole = 0;
    x->ws = 0;
    double ns = streams_ns(m, pv, mach, x, f, k, footprint, last, last > 0 ? &sh : NULL);
    if (x->unknown)
        return -1;
    *shared = sh;
    return ns;
}


/* An instantiation at pv and P that prices the loops rec marks per
 * thread with each thread's values and collects their stream times
 * (in->memstat), at footprint foot.  0, or -1 (nothing in *in). */
static int memstat_at(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, const pp_mem_rec *rec, int P,
                      double foot, pp_instance *in)
{
    pp_costs c;
    pp_costs_plain(&c, m, NULL);
    c.mem_mach = mach;
    c.mem_foot = foot;
    c.mem_rec = rec;
    char err[256];
    int rc = c.v ? pp_instantiate_costed(m, pv, &c, P, -1, PP_INST_TOTALS | PP_INST_MEMSTAT, in, err, sizeof err)
                 : -1;
    pp_costs_free(&c);
    if (rc == 0 && !in->memstat) {
        pp_instance_free(in);
        rc = -1;
    }
    return rc;
}

/* The recorded threads' own working sets (memory.h, "per thread"): for
 * the loops whose trip counts the parameters do not give (thr 1), an
 * instantiation of the recorded run (its parameters and P) prices each
 * thread's streams with its values; a loop no thread could price keeps
 * the rule of the whole data (thr 2). */
static void thread_rec(const pp_prog *m, const pp_machine *mach, pp_mem_rec *r)
{
    pp_instance in;
    pp_vals rec;
    int rc = pp_vals_init(&rec, m) ? -1
             : memstat_at(m, &rec, mach, r, m->p_recorded > 0 ? m->p_recorded : 1, m->footprint_rec, &in);
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            pp_mem_recloop *l = &r->loop[r->first[f] + k];
            if (l->thr != 1)
                continue;
            const struct pp_memstat *st = rc == 0 ? &in.memstat[f][k] : NULL;
            if (st && st->n > 0) {
                l->thr_ns = st->ns / st->n;
                l->thr_ws = st->ws;
                l->thr_beyond = st->beyond;
            } else
                l->thr = 2;
        }
    if (rc == 0)
        pp_instance_free(&in);
    pp_vals_free(&rec);
}

/* The streams' time per iteration of every loop at the recorded size on
 * mach, which loops are priced per thread, and at what in the record,
 * into r (n loops).  0, or -1 when memory runs out. */
static int recorded_prices(const pp_prog *m, const pp_machine *mach, int n, pp_mem_rec *r)
{
    r->mach = mach;
    r->first = malloc(sizeof *r->first * (size_t)(m->nfuncs + 1));
    r->loop = calloc((size_t)n + 1, sizeof *r->loop);
    if (!r->first || !r->loop) {
        pp_mem_rec_clear(r);
        return -1;
    }
    int i = 0, any = 0;
    for (int f = 0; f < m->nfuncs; f++) {
        r->first[f] = i;
        for (int k = 0; k < m->funcs[f].d->nloops; k++, i++) {
            /* a trip count the parameters do not give: a thread's values
             * may (thr 1, settled by thread_rec) */
            pp_mem_eval x = {.threads = 1};
            r->loop[i].ns = streams_ns(m, NULL, mach, &x, f, k, m->footprint_rec, 0, NULL);
            r->loop[i].thr = x.unknown && m->funcs[f].d->loops[k].nstreams > 0;
            any |= r->loop[i].thr;
        }
    }
    if (any)
        thread_rec(m, mach, r);
    return 0;
}

/* Whether the memory model applies at the point (1; 0 when it is off,
 * without a machine, shapes or a footprint), with the number of loops n
 * and the footprint now. */
static int model_applies(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int *n, double *foot)
{
    *n = 0;
    if (!m->cache_rule || !mach || m->nshape == 0 || m->footprint_rec <= 0)
        return 0;
    *foot = pp_prog_footprint(m, pv);
    if (*foot <= 0)
        return 0;
    for (int f = 0; f < m->nfuncs; f++)
        *n += m->funcs[f].d->nloops;
    return 1;
}

const pp_mem_rec *pp_mem_rec_of(const pp_prog *m, const pp_machine *mach)
{
    for (int i = 0; mach && i < m->nmemo; i++)
        if (m->memo[i].mach == mach)
            return &m->memo[i];
    return NULL;
}

int pp_mem_prepare(pp_prog *m, const pp_machine *mach)
{
    int n;
    double foot;
    if (model_applies(m, NULL, mach, &n, &foot) <= 0 || pp_mem_rec_of(m, mach))
        return 0;
    pp_mem_rec *memo = realloc(m->memo, sizeof *memo * (size_t)(m->nmemo + 1));
    if (!memo)
        return -1;
    m->memo = memo;
    if (recorded_prices(m, mach, n, &memo[m->nmemo]))
        return -1;
    m->nmemo++;
    return 0;
}

void pp_mem_forget(pp_prog *m, const pp_machine *mach)
{
    for (int i = 0; i < m->nmemo; i++)
        if (m->memo[i].mach == mach) {
            pp_mem_rec_clear(&m->memo[i]);
            m->memo[i] = m->memo[--m->nmemo];
            return;
        }
}

int pp_mem_costs(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, const double *from, pp_costs *out)
{
    pp_costs_plain(out, m, from);
    if (!out->v)
        return -1;
    int n;
    double foot;
    if (model_applies(m, pv, mach, &n, &foot) <= 0)
        return 0;
    /* the machine's prices at the recorded size: made when the model was
     * prepared for it, or here for these costs alone */
    const pp_mem_rec *rec = pp_mem_rec_of(m, mach);
    pp_mem_rec *own = NULL;
    if (!rec) {
        own = calloc(1, sizeof *own);
        if (!own || recorded_prices(m, mach, n, own)) {
            free(own);
            return -1;
        }
        rec = own;
    }
    /* the costs here, their shared parts, and the costs given (which
     * may be pp_costs_plain's own, freed below) */
    size_t ns = (size_t)m->nslot;
    double *v = malloc(sizeof *v * (3 * ns + 1));
    if (!v) {
        if (own)
            pp_mem_rec_clear(own);
        free(own);
        return -1;
    }
    double *mem = v + ns, *base = v + 2 * ns;
    memcpy(v, out->base, sizeof *v * ns);
    memcpy(base, out->base, sizeof *v * ns);
    memset(mem, 0, sizeof *mem * ns);
    double last = last_cache_bytes(mach);
    /* what-if: the memory hierarchy's time per byte (whatif.h, `memory`):
     * the time added here, and the shared part, times mu.  The recorded
     * costs hold the recorded working set's time, which moves with
     * `speed`: so T stays homogeneous of degree one in the times */
    double mu = pp_machine_mem_time_scale(mach);
    int i = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            int slot = m->funcs[f].loops[k].slot;
            /* the streams' time here, and its part the threads share */
            double sh = 0;
            double extra = streams_ns(m, pv, mach, NULL, f, k, foot, last, last > 0 ? &sh : NULL) - rec->loop[i++].ns;
            sh *= mu;
            if (extra > 0)
                v[slot] += extra * mu;
            mem[slot] = sh < v[slot] ? sh : v[slot] > 0 ? v[slot] : 0;
        }
    /* the loops priced per thread: the instantiation prices them with
     * each thread's values (inst-mem.c) */
    pp_costs_free(out);
    out->v = v;
    out->base = base;
    out->mem = mem;
    out->own = v;
    out->mem_mach = mach;
    out->mem_foot = foot;
    out->mem_rec = rec;
    out->own_rec = own;
    return 0;
}

/* The largest working set loop k's streams are served from (0: none
 * known; each stream taken as cached), and its cache bytes per
 * iteration. */
static double loop_ws(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k, double footprint,
                      double *bytes)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double ws = 0;
    *bytes = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        *bytes += line_bytes(dl->stream_step[s]) * stream_lines(m, pv, mach, NULL, f, k, s);
        double w = stream_ws(m, pv, NULL, f, k, s, footprint, NULL);
        if (w > ws)
            ws = w;
    }
    /* gathers and chases: anywhere in the data */
    if ((dl->memg > 0 || dl->memc > 0) && footprint > ws)
        ws = footprint;
    return ws;
}

/* The loops of r priced per thread at pv and P: an instantiation
 * collects their threads' working sets and times. */
static void thread_report(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, const pp_mem_rec *rec, int P,
                          double foot, pp_mem_loop *r, int nr)
{
    int any = 0;
    for (int j = 0; j < nr; j++) {
        const pp_mem_recloop *l = &rec->loop[rec->first[r[j].f] + r[j].k];
        r[j].per_thread = l->thr == 2 ? 2 : 0;
        any |= l->thr == 1;
    }
    if (!any)
        return;
    pp_instance in;
    if (memstat_at(m, pv, mach, rec, P, foot, &in))
        return;
    for (int j = 0; j < nr; j++) {
        const pp_mem_recloop *l = &rec->loop[rec->first[r[j].f] + r[j].k];
        const struct pp_memstat *st = &in.memstat[r[j].f][r[j].k];
        if (l->thr != 1)
            continue;
        if (!(st->n > 0)) {
            r[j].per_thread = 2;   /* no thread's values here */
            continue;
        }
        r[j].beyond = st->beyond;
        double x = st->ns / st->n - l->thr_ns;
        r[j].extra_ns = x > 0 ? x : 0;
        if (st->whole && !(st->ws > foot))
            continue;   /* its largest working set is the program's arrays */
        r[j].per_thread = 1;
        r[j].threads = st->threads;
        r[j].ws = st->ws;
        r[j].ws_rec = l->thr_ws;
        r[j].beyond_rec = l->thr_beyond;
    }
    pp_instance_free(&in);
}

int pp_mem_report(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_mem_loop **out)
{
    *out = NULL;
    int n;
    double foot;
    if (model_applies(m, pv, mach, &n, &foot) <= 0)
        return 0;
    const pp_mem_rec *rec = pp_mem_rec_of(m, mach);
    pp_mem_rec own = {0};
    if (!rec && recorded_prices(m, mach, n, &own))
        return -1;
    if (!rec)
        rec = &own;
    pp_mem_loop *r = calloc((size_t)n + 1, sizeof *r);
    if (!r) {
        pp_mem_rec_clear(&own);
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
            e->ws = loop_ws(m, pv, mach, f, k, foot, &e->bytes);
            e->beyond = edge > 0 && e->ws > edge;
            double x = pp_mem_stream_ns(m, pv, mach, f, k, foot) - rec->loop[i].ns;
            e->extra_ns = x > 0 ? x : 0;
        }
    /* the same at the recorded parameters */
    for (int j = 0; j < nr; j++) {
        double b;
        r[j].ws_rec = loop_ws(m, NULL, mach, r[j].f, r[j].k, m->footprint_rec, &b);
        r[j].beyond_rec = edge > 0 && r[j].ws_rec > edge;
    }
    thread_report(m, pv, mach, rec, P, foot, r, nr);
    pp_mem_rec_clear(&own);
    *out = r;
    return nr;
}
