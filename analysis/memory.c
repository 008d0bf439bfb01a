/* memory.c - see memory.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "memory.h"
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

/* ns per iteration loop k of f spends on its streams; *beyond (when not
 * NULL) gets the part of it from streams whose working set is larger than
 * min_ws bytes. */
static double streams_ns(const pp_prog *m, const pp_machine *mach, int f, int k, double footprint,
                         double min_ws, double *beyond)
{
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    double walk = 0;   /* bytes all the loop's streams walk per iteration */
    for (int s = 0; s < dl->nstreams; s++)
        walk += step_bytes(dl->stream_step[s]);
    double ns = 0;
    for (int s = 0; s < dl->nstreams; s++) {
        double step = step_bytes(dl->stream_step[s]);
        /* a stride past a cache line still moves one line per iteration */
        double bytes = step < CACHE_LINE ? step : CACHE_LINE;
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
    const double *rec = recorded_ns(m, mach, n);
    double *sv = malloc(sizeof *sv * (size_t)(n + 1));
    if (!rec || !sv) {
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
