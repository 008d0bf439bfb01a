/* segments.c - see segments.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "segments.h"

#include <stdlib.h>

typedef struct {
    double ns;             /* CPU (or wall) time of the segment */
    uint64_t w0, w1;       /* its wall-clock extent */
    double conc;
    const pp_rdelta *d;
    int nd;
} seg;

typedef struct {
    uint64_t at;
    int seg;               /* index into the segments */
    int end;               /* 1: the segment ends here */
} edge;

static int edge_cmp(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->end - y->end;   /* starts before ends at the same instant */
}

/* The mean number of segments running during each segment: a sweep over
 * the start and end instants, integrating the running count. */
static int concurrency(seg *s, long n)
{
    if (n == 0)
        return 0;
    edge *e = malloc(sizeof *e * (size_t)(2 * n));
    double *at_start = malloc(sizeof *at_start * (size_t)n);
    if (!e || !at_start) {
        free(e);
        free(at_start);
        return -1;
    }
    for (long i = 0; i < n; i++) {
        e[2 * i] = (edge){s[i].w0, (int)i, 0};
        e[2 * i + 1] = (edge){s[i].w1, (int)i, 1};
    }
    qsort(e, (size_t)(2 * n), sizeof *e, edge_cmp);
    double integral = 0;   /* of the running count, from the first edge */
    long running = 0;
    uint64_t last = e[0].at;
    for (long k = 0; k < 2 * n; k++) {
        integral += (double)running * (double)(e[k].at - last);
        last = e[k].at;
        seg *g = &s[e[k].seg];
        if (!e[k].end) {
            at_start[e[k].seg] = integral;
            running++;
            /* an instantaneous segment: the count at that instant */
            g->conc = (double)running;
        } else {
            if (g->w1 > g->w0)
                g->conc = (integral - at_start[e[k].seg]) / (double)(g->w1 - g->w0);
            running--;
        }
    }
    for (long i = 0; i < n; i++)
        if (!(s[i].conc >= 1.0))
            s[i].conc = 1.0;
    free(e);
    free(at_start);
    return 0;
}

int pp_segments_walk(const pp_record *r, pp_segment_fn fn, void *ctx)
{
    seg *s = NULL;
    long n = 0, cap = 0;
    int rc = 0;
    for (int t = 0; t < r->nthreads && rc == 0; t++) {
        const pp_rthread *th = &r->threads[t];
        if (th->id < 0)
            continue;
        /* CPU time where the record has it: preemption is not work */
        int cpu = th->has_cpu;
        uint64_t prev = cpu ? th->cstart : th->start, prev_w = th->start;
        for (int e = 0; e <= th->nev; e++) {
            const pp_rev *ev = e < th->nev ? th->ev[e] : NULL;
            uint64_t end = ev ? (cpu ? ev->c0 : ev->t0) : (cpu ? th->tail_c : th->tail_t);
            uint64_t end_w = ev ? ev->t0 : th->tail_t;
            const pp_rdelta *d = ev ? ev->delta : th->tail;
            int nd = ev ? ev->ndelta : th->ntail;
            /* an OpenMP pool thread is idle between team_end and the next
             * team_begin, and after its last team; between team_end and
             * the join the master is in libgomp's join (spinning: CPU
             * time), and before team_begin libgomp starts the team:
             * synchronisation, which the machine file prices, not work */
            const pp_rev *pv = e > 0 ? th->ev[e - 1] : NULL;
            int idle = (ev && ev->kind == PP_EV_TEAM_BEGIN) || (pv && pv->kind == PP_EV_TEAM_END) ||
                       (th->kind == PP_T_OMP && !ev && nd == 0) || (!ev && th->tail_t == 0);
            if (!idle && end >= prev) {
                if (n == cap) {
                    long nc = cap ? 2 * cap : 256;
                    seg *ns = realloc(s, sizeof *ns * (size_t)nc);
                    if (!ns) {
                        rc = -1;
                        break;
                    }
                    s = ns;
                    cap = nc;
                }
                s[n++] = (seg){(double)(end - prev), prev_w, end_w >= prev_w ? end_w : prev_w, 1.0, d, nd};
            }
            if (ev) {
                prev = cpu ? ev->c1 : ev->t1;
                prev_w = ev->t1;
            }
        }
    }
    if (rc == 0)
        rc = concurrency(s, n);
    for (long i = 0; rc == 0 && i < n; i++)
        rc = fn(ctx, s[i].ns, (double)(s[i].w1 - s[i].w0), s[i].conc, s[i].d, s[i].nd);
    free(s);
    return rc;
}
