/* trav-class.c - walking a segment once for the team members it stands
 * for (PP_INST_CLASSES; the instance's side is inst-vseg.c).
 *
 * A thread that walks a segment standing for `copies` other members has
 * the weight 1 + copies from its TEAM_WAIT on: the running threads
 * (c->active) count it that many times, and so do the team's end and
 * its barriers.  The weight stays until the thread's next TEAM_WAIT or
 * its end: after the team the members pay the next segment's fixed cost
 * together (inst-vseg.c checked that they all have a next team when the
 * thread has one).
 *
 * The members' own figures: what the segment added to its thread's
 * computation and synchronisation (from before the TEAM_WAIT's fixed
 * cost to the TEAM_DONE) is added to every member of its runs, through
 * a difference array over the threads, a constant time per run.  A
 * member's finish is the end of its last team, as a pool thread's is;
 * its waiting is the rest (a thread's computation, synchronisation and
 * waiting add up to its finish: every span of its time is one of them).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <stdlib.h>

struct trav_class {
    int *seg;                  /* per thread: its segment's vsegs index + 1 */
    double *busy0, *sync0;     /* per thread: its figures when it began     */
    double *dbusy, *dsync;     /* differences over the threads              */
};

int pp_trav_class_init(tctx *c)
{
    const pp_instance *in = c->in;
    if (in->nvseg == 0)
        return 0;
    int n = in->nthreads;
    struct trav_class *k = calloc(1, sizeof *k);
    c->cls = k;
    c->weight = malloc(sizeof *c->weight * ((size_t)n + 1));
    if (!k || !c->weight)
        return -1;
    k->seg = calloc((size_t)n + 1, sizeof *k->seg);
    k->busy0 = calloc((size_t)n + 1, sizeof(double));
    k->sync0 = calloc((size_t)n + 1, sizeof(double));
    k->dbusy = calloc((size_t)n + 2, sizeof(double));
    k->dsync = calloc((size_t)n + 2, sizeof(double));
    if (!k->seg || !k->busy0 || !k->sync0 || !k->dbusy || !k->dsync)
        return -1;
    for (int t = 0; t <= n; t++)
        c->weight[t] = 1;
    return 0;
}

void pp_trav_class_free(tctx *c)
{
    struct trav_class *k = c->cls;
    if (!k)
        return;
    free(c->weight);
    c->weight = NULL;
    free(k->seg);
    free(k->busy0);
    free(k->sync0);
    free(k->dbusy);
    free(k->dsync);
    free(k);
    c->cls = NULL;
}

void pp_trav_class_enter(tctx *c, int t, const pp_action *a)
{
    struct trav_class *k = c->cls;
    k->seg[t] = a->vseg;
    if (a->vseg) {
        k->busy0[t] = c->out->busy[t];
        k->sync0[t] = c->out->sync[t];
    }
}

int pp_trav_class_weight(const tctx *c, int t)
{
    int s = c->cls->seg[t];
    return s ? 1 + c->in->vsegs[s - 1].copies : 1;
}

void pp_trav_class_leave(tctx *c, int t)
{
    struct trav_class *k = c->cls;
    int s = k->seg[t];
    if (!s)
        return;
    k->seg[t] = 0;
    const pp_instance *in = c->in;
    double db = c->out->busy[t] - k->busy0[t], ds = c->out->sync[t] - k->sync0[t];
    for (int r = in->vsegs[s - 1].first; r >= 0; r = in->vruns[r].next) {
        k->dbusy[in->vruns[r].lo] += db;
        k->dbusy[in->vruns[r].hi + 1] -= db;
        k->dsync[in->vruns[r].lo] += ds;
        k->dsync[in->vruns[r].hi + 1] -= ds;
    }
}

void pp_trav_class_finish(tctx *c)
{
    struct trav_class *k = c->cls;
    const pp_instance *in = c->in;
    pp_trav *out = c->out;
    double b = 0, s = 0;
    for (int t = 0; t < in->nthreads; t++) {
        b += k->dbusy[t];
        s += k->dsync[t];
        int last = in->vlast[t];
        if (last < 0)
            continue;
        out->busy[t] += b;
        out->sync[t] += s;
        if (c->teams[last].end > out->finish[t])
            out->finish[t] = c->teams[last].end;
        out->wait[t] = out->finish[t] - out->busy[t] - out->sync[t];
    }
}
