/* trav-work.c - the computations of threads that share the processors
 * (trav-internal.h): processor sharing in the traversal.
 *
 * A computation of ns (one thread alone) runs at the rate 1 / s(a), s the
 * machine's slowdown when a threads run at once (scale.compute, blended
 * with scale.memory for its share of memory traffic beyond the private
 * caches), and a changes while it runs: a parent that creates a thread
 * and then waits in pthread_join runs beside it only for the first
 * microseconds.  So a computation stays open from its start to its end,
 * and every change of a moves the end of all the open ones.
 *
 * Done one by one, that is P open computations moved at each of the P
 * arrivals at a barrier: P^2 per episode (9 s instead of 2 for a 1024-
 * thread prediction).  Instead the computations are grouped by their
 * share of memory traffic, rounded to 1/1024 (PP_WCLS classes: the
 * memory share of a computation is then off by at most 1/2048): all of a
 * class run at the same rate, so each class keeps one virtual clock (the
 * ns each of its computations has done since the walk began) and a heap
 * of its computations by the virtual time at which they end.  Only the
 * head of a heap is in the queue of runnable threads, at the real time
 * its virtual end comes at the current rate; the others wait at
 * PP_WORK_HIDDEN.  A change of a costs one update per class in use.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define PP_WCLS 1025           /* memory shares 0, 1/1024, ..., 1 */
#define PP_WORK_HIDDEN (DBL_MAX / 4)

typedef struct {
    double v, vt;              /* virtual time v at real time vt */
    int n, cap;
    int *heap;                 /* threads, a min-heap on vend */
} wclass;

/* a thread's open computation, in one record (read together at its end;
 * at 10^4 ranks and more, four arrays were four cache misses) */
typedef struct {
    double vend;               /* its end in its class's virtual time */
    double start;              /* the real time it started            */
    int pc;                    /* its action                          */
    int cls;                   /* its class (-1: none open)           */
} wopen;

struct trav_work {
    wclass cls[PP_WCLS];
    int used[PP_WCLS], nused;  /* the classes with open computations */
    wopen *op;                 /* per thread                          */
};

double pp_trav_work_scale(tctx *c, int act, double mem)
{
    /* MPI ranks spread over nodes slow down only their node's others */
    if (c->mpi && c->mach->net.ranks_per_node > 0 && act > c->mach->net.ranks_per_node)
        act = c->mach->net.ranks_per_node;
    /* a segment's walker takes its members' weight when its fixed cost
     * is paid, and a member parked (PP_A_PARK) may end at the same
     * instant a moment later: the count can pass the threads there */
    if (act > c->in->nthreads)
        act = c->in->nthreads;
    if (act < 1)
        act = 1;
    if (c->scale_of[act] <= 0)
        c->scale_of[act] = pp_machine_compute_scale(c->mach, act);
    double s = c->scale_of[act];
    if (mem > 0 && act > 1) {
        /* its memory traffic beyond the last cache level shares the
         * bandwidth with the others: the streaming slowdown for it */
        if (c->mscale_of[act] <= 0)
            c->mscale_of[act] = pp_machine_memory_scale(c->mach, act);
        s = (1.0 - mem) * s + mem * c->mscale_of[act];
    }
    return s;
}

static double class_scale(tctx *c, int k, int act)
{
    return pp_trav_work_scale(c, act, (double)k / (PP_WCLS - 1));
}

int pp_trav_work_init(tctx *c, int n)
{
    struct trav_work *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    c->work = w;
    w->op = calloc((size_t)n + 1, sizeof *w->op);
    if (!w->op)
        return -1;
    for (int t = 0; t <= n; t++)
        w->op[t].cls = -1;
    return 0;
}

void pp_trav_work_free(tctx *c)
{
    struct trav_work *w = c->work;
    if (!w)
        return;
    for (int k = 0; k < PP_WCLS; k++)
        free(w->cls[k].heap);
    free(w->op);
    free(w);
    c->work = NULL;
}

static int heap_push(struct trav_work *w, wclass *k, int t)
{
    if (k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 8;
        int *nh = realloc(k->heap, sizeof *nh * (size_t)cap);
        if (!nh)
            return -1;
        k->heap = nh;
        k->cap = cap;
    }
    int i = k->n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (w->op[k->heap[p]].vend <= w->op[t].vend)
            break;
        k->heap[i] = k->heap[p];
        i = p;
    }
    k->heap[i] = t;
    return 0;
}

static void heap_pop(struct trav_work *w, wclass *k)
{
    int last = k->heap[--k->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        double vm = w->op[last].vend;
        if (l < k->n && w->op[k->heap[l]].vend < vm) {
            m = l;
            vm = w->op[k->heap[l]].vend;
        }
        if (r < k->n && w->op[k->heap[r]].vend < vm)
            m = r;
        if (m == i)
            break;
        k->heap[i] = k->heap[m];
        i = m;
    }
    if (k->n > 0)
        k->heap[i] = last;
}

/* class k's virtual clock to real time now, at the rate of the current
 * number of running threads */
static void advance(tctx *c, int k, double now)
{
    wclass *cl = &c->work->cls[k];
    if (cl->n > 0 && now > cl->vt)
        cl->v += (now - cl->vt) / class_scale(c, k, c->active);
    if (now > cl->vt || cl->n == 0)
        cl->vt = now;
}

/* the head of class k into the queue at the real time its computation
 * ends at the current rate */
static void schedule_head(tctx *c, int k)
{
    struct trav_work *w = c->work;
    wclass *cl = &w->cls[k];
    int h = cl->heap[0];
    double left = w->op[h].vend - cl->v;
    c->th[h].clock = cl->vt + (left > 0 ? left * class_scale(c, k, c->active) : 0);
    pp_trav_queue_update(c, h);
}

int pp_trav_work_open(tctx *c, int t, double ns, double mem)
{
    struct trav_work *w = c->work;
    int k = (int)lrint(mem * (PP_WCLS - 1));
    k = k < 0 ? 0 : k >= PP_WCLS ? PP_WCLS - 1 : k;
    wclass *cl = &w->cls[k];
    double now = c->th[t].clock;
    advance(c, k, now);
    int old = cl->n ? cl->heap[0] : -1;
    wopen *o = &w->op[t];
    o->vend = cl->v + ns;
    o->start = now;
    o->pc = c->th[t].pc;
    if (heap_push(w, cl, t))
        return -1;
    o->cls = k;
    if (cl->n == 1)
        w->used[w->nused++] = k;
    if (cl->heap[0] == t) {
        if (old >= 0) {
            c->th[old].clock = PP_WORK_HIDDEN;
            pp_trav_queue_update(c, old);
        }
        c->th[t].clock = now + ns * class_scale(c, k, c->active);
    } else
        c->th[t].clock = PP_WORK_HIDDEN;
    return 0;
}

void pp_trav_work_done(tctx *c, int t)
{
    struct trav_work *w = c->work;
    wopen *o = &w->op[t];
    int k = o->cls;
    if (k < 0)
        return;
    wclass *cl = &w->cls[k];
    double t0 = o->start, t1 = c->th[t].clock;
    if (__builtin_expect(c->sink != NULL, 0) && t1 > t0)
        c->sink->span(c->sink, t, o->pc, PP_TR_WORK, t0, t1);
    c->out->busy[t] += t1 - t0;
    /* t was the head: its end is where the class's clock stands */
    if (o->vend > cl->v)
        cl->v = o->vend;
    cl->vt = t1;
    heap_pop(w, cl);
    o->cls = -1;
    if (cl->n > 0) {
        schedule_head(c, k);
        return;
    }
    for (int i = 0; i < w->nused; i++)
        if (w->used[i] == k) {
            w->used[i] = w->used[--w->nused];
            break;
        }
}

void pp_trav_work_set_active(tctx *c, int delta)
{
    struct trav_work *w = c->work;
    if (!w || w->nused == 0) {
        c->active += delta;
        return;
    }
    for (int i = 0; i < w->nused; i++)
        advance(c, w->used[i], c->now);
    c->active += delta;
    for (int i = 0; i < w->nused; i++)
        schedule_head(c, w->used[i]);
}
