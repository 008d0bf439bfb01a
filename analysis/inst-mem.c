/* inst-mem.c - the memory model's working sets per thread (docs/model.md,
 * "Memory", "per thread"; memory.h, pp_mem_thread_ns).
 *
 * A loop nest whose enclosing loops run lo..hi of the thread's own block
 * has trip counts the parameters do not give: pp_mem_costs then prices
 * its streams at the program's arrays.  Here, where the instantiation
 * knows the thread (its argument, the fields of the struct it was given,
 * its index and count), the counts are evaluated with the thread's values
 * and the loop is priced at its thread's own working set, the shared
 * levels divided among the threads that run at once.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "memory.h"

#include <stdlib.h>

/* A loop's pricing in one frame (state: 0 not yet, 1 priced, 2 not to
 * be had), and its trip count there (trip_state the same way): both the
 * same all through the frame. */
struct inst_memc {
    int state, threads, beyond, whole;
    double ns, shared, ws;
    int trip_state;
    double trip;
};

typedef struct {
    ictx *c;
    frame *fr;
} tctx;

/* Does e give the same value all through the frame?  Arguments, the
 * fields of the thread's struct (fixed when it was created), its index
 * and count, parameters and globals do; an enclosing loop's variable (a
 * triangular nest: one working set per entry, left to the rule of the
 * whole data) and loaded values do not. */
static int frame_stable(const pp_expr *e)
{
    if (!e)
        return 1;
    switch (e->kind) {
    case PP_E_IV:
    case PP_E_LOAD:
    case PP_E_CALL:
    case PP_E_CRITICAL:
    case PP_E_UNKNOWN:
        return 0;
    case PP_E_RANK:
    case PP_E_NPROCS:
        if (e->name)
            return 0;   /* a communicator variable the body may rebind */
        break;
    default:
        break;
    }
    for (int i = 0; i < e->nkids; i++)
        if (!frame_stable(e->kids[i]))
            return 0;
    return 1;
}

static int frame_trip(void *u, int k, double *n)
{
    const tctx *t = u;
    struct inst_memc *e = &t->fr->memc[k];
    if (e->trip_state == 0) {
        const pp_mloop *ml = &t->fr->mf->loops[k];
        int64_t v;
        unsigned char *st = t->c->count_stable ? t->c->count_stable[t->fr->fi] : NULL;
        int stable;
        if (st && st[k])
            stable = st[k] == 1;
        else {
            /* the same for every frame of the function: asked once */
            stable = ml->count && frame_stable(ml->count);
            if (st)
                st[k] = stable ? 1 : 2;
        }
        e->trip_state = !stable || pp_inst_eval(t->c, t->fr, ml->count, &v) ? 2 : 1;
        e->trip = e->trip_state == 1 && v > 0 ? (double)v : 0;
    }
    *n = e->trip;
    return e->trip_state == 1 ? 0 : -1;
}

/* The threads that run at once with this one on its L3, each on its own
 * data: the threads its pthread_create site made (or its OpenMP team), at
 * most the machine's processors and at most those that share one L3
 * (cache.l3_shared_by: on a host with several, the threads spread over
 * them). */
static int threads_at_once(const frame *fr, const pp_machine *mach)
{
    int64_t T = fr->thr_known ? fr->thr_n : fr->omp ? fr->nthreads : 1;
    if (mach->cores > 0 && T > mach->cores)
        T = mach->cores;
    if (mach->cache_l3_shared_by > 0 && T > mach->cache_l3_shared_by)
        T = mach->cache_l3_shared_by;
    return T < 1 ? 1 : (int)T;
}

void pp_inst_mem_cost(ictx *c, frame *fr, int k, long double n, long double mult, double *cost, double *mem)
{
    const pp_prog *m = c->m;
    const pp_machine *mach = c->costs->mem_mach;
    const pp_mloop *ml = &fr->mf->loops[k];
    if (!fr->memc && !(fr->memc = calloc((size_t)fr->mf->d->nloops + 1, sizeof *fr->memc))) {
        c->oom = 1;
        return;
    }
    struct inst_memc *e = &fr->memc[k];
    if (e->state == 0) {
        /* every count it reads is the same all through the frame
         * (frame_trip refuses the others): priced once per frame */
        tctx t = {c, fr};
        pp_mem_eval x = {.trip = frame_trip, .u = &t, .threads = threads_at_once(fr, mach)};
        e->ns = pp_mem_thread_ns(m, c->pv, mach, fr->fi, k, c->costs->mem_foot, &x, &e->shared);
        e->state = e->ns < 0 ? 2 : 1;
        e->threads = x.threads;
        e->beyond = x.beyond;
        e->whole = x.whole;
        e->ws = x.ws;
    }
    if (e->state != 1)
        return;   /* this thread's values do not give it: pp_mem_costs' cost */
    if (c->flags & PP_INST_MEMSTAT) {
        if (c->in->memstat) {
            struct pp_memstat *st = &c->in->memstat[fr->fi][k];
            double it = (double)(mult * n);
            st->n += it;
            st->ns += it * e->ns;
            if (e->ws > st->ws)
                st->ws = e->ws;
            if (e->threads > st->threads)
                st->threads = e->threads;
            st->beyond |= e->beyond;
            st->whole |= e->whole;
        }
        return;
    }
    /* as pp_mem_costs: the fitted cost plus the increase over the
     * recorded threads' stream time, the what-if `memory` factor on the
     * part it adds and on the shared part */
    double mu = pp_machine_mem_time_scale(mach);
    const pp_mem_rec *rec = c->costs->mem_rec;
    double extra = e->ns - rec->loop[rec->first[fr->fi] + k].thr_ns;
    *cost = c->costs->base[ml->slot] + (extra > 0 ? extra * mu : 0);
    double sh = e->shared * mu;
    *mem = sh < *cost ? sh : *cost > 0 ? *cost : 0;
}
