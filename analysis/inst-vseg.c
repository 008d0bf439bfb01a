/* inst-vseg.c - the segments that stand for several team members
 * (PP_INST_CLASSES, model.h): what the traversal needs to walk each of
 * them once, weighted by the members it stands for.
 *
 * A member that copies its class's first member holds no actions for
 * that team (inst-class.c, pp_inst_class_copy_run): the first member's
 * segment, from its TEAM_WAIT to its TEAM_DONE, stands for it.  The walk
 * (trav-class.c) gives the segment the weight of its members: they are
 * released by the fork together, run at the same rate, reach the team's
 * barriers and its end together.  After a segment a member pays the
 * fixed cost of the next one (traverse.c, pay_segment) before it waits
 * for its next team, unless it has none: the first member's own next
 * TEAM_WAIT pays it for all of them, so they must agree on whether
 * there is a next team.  Here, once the unrolling is done:
 *
 *   - each thread's last team it is a copy in (vlast), from the runs,
 *     the latest team first, each thread taken once;
 *   - a thread whose later teams are all copies ends in a PARK: it pays
 *     the next segment's fixed cost as it would, and leaves the walk;
 *   - the check that every member of a run has a next team exactly when
 *     the segment's thread has one (teams of one size always do); where
 *     not, the instantiation is made again without PP_INST_CLASSES.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdlib.h>

/* the next thread at or after x not yet given its last team */
static int next_free(int *next, int x)
{
    int r = x;
    while (next[r] != r)
        r = next[r];
    while (next[x] != r) {
        int y = next[x];
        next[x] = r;
        x = y;
    }
    return r;
}

typedef struct {
    int team, seg;
} team_seg;

static int later_team_first(const void *a, const void *b)
{
    int x = ((const team_seg *)a)->team, y = ((const team_seg *)b)->team;
    return (x < y) - (x > y);
}

/* in->vlast: each thread's last team as a copy (-1: none).  0 or -1. */
static int last_copies(pp_instance *in)
{
    int n = in->nthreads;
    int *vlast = malloc(sizeof *vlast * (size_t)(n + 1));
    int *next = malloc(sizeof *next * (size_t)(n + 1));
    team_seg *order = malloc(sizeof *order * (size_t)in->nvseg);
    if (!vlast || !next || !order) {
        free(vlast);
        free(next);
        free(order);
        return -1;
    }
    for (int t = 0; t <= n; t++) {
        vlast[t] = -1;
        next[t] = t;
    }
    for (int i = 0; i < in->nvseg; i++)
        order[i] = (team_seg){in->vsegs[i].team, i};
    qsort(order, (size_t)in->nvseg, sizeof *order, later_team_first);
    for (int i = 0; i < in->nvseg; i++) {
        const struct pp_vseg *v = &in->vsegs[order[i].seg];
        for (int r = v->first; r >= 0; r = in->vruns[r].next)
            for (int x = next_free(next, in->vruns[r].lo); x <= in->vruns[r].hi; x = next_free(next, x + 1)) {
                vlast[x] = v->team;
                next[x] = x + 1;
            }
    }
    free(next);
    free(order);
    in->vlast = vlast;
    return 0;
}

/* the last team of thread t's own segments (its last TEAM_DONE), -1 */
static int own_last(const pp_instance *in, int t)
{
    const pp_ithread *th = &in->threads[t];
    for (int a = th->nact - 1; a >= 0; a--)
        if (th->act[a].kind == PP_A_TEAM_DONE)
            return th->act[a].key;
    return -1;
}

/* A tree of the least and the greatest last team over ranges of
 * threads. */
typedef struct {
    int n;
    int *lo, *hi;
} span_tree;

static int tree_make(span_tree *s, const int *last, int n)
{
    s->n = n;
    s->lo = malloc(sizeof *s->lo * 2 * (size_t)n);
    s->hi = malloc(sizeof *s->hi * 2 * (size_t)n);
    if (!s->lo || !s->hi)
        return -1;
    for (int i = 0; i < n; i++)
        s->lo[n + i] = s->hi[n + i] = last[i];
    for (int i = n - 1; i > 0; i--) {
        int a = s->lo[2 * i], b = s->lo[2 * i + 1];
        s->lo[i] = a < b ? a : b;
        a = s->hi[2 * i];
        b = s->hi[2 * i + 1];
        s->hi[i] = a > b ? a : b;
    }
    return 0;
}

static void tree_range(const span_tree *s, int l, int r, int *mn, int *mx)
{
    *mn = s->lo[s->n + l];
    *mx = s->hi[s->n + l];
    for (l += s->n, r += s->n + 1; l < r; l >>= 1, r >>= 1) {
        if (l & 1) {
            *mn = s->lo[l] < *mn ? s->lo[l] : *mn;
            *mx = s->hi[l] > *mx ? s->hi[l] : *mx;
            l++;
        }
        if (r & 1) {
            r--;
            *mn = s->lo[r] < *mn ? s->lo[r] : *mn;
            *mx = s->hi[r] > *mx ? s->hi[r] : *mx;
        }
    }
}

int pp_inst_vseg_finish(ictx *c)
{
    pp_instance *in = c->in;
    if (in->nvseg == 0)
        return 0;
    if (last_copies(in))
        return pp_inst_fail(c, "out of memory");
    int n = in->nthreads;
    int *last = malloc(sizeof *last * (size_t)(n + 1));
    if (!last)
        return pp_inst_fail(c, "out of memory");
    for (int t = 0; t < n; t++) {
        int own = own_last(in, t);
        last[t] = own > in->vlast[t] ? own : in->vlast[t];
    }
    span_tree s = {0, NULL, NULL};
    int ok = tree_make(&s, last, n) == 0;
    for (int i = 0; ok && i < in->nvseg; i++) {
        const struct pp_vseg *v = &in->vsegs[i];
        int more = last[v->thread] > v->team;
        for (int r = v->first; ok && r >= 0; r = in->vruns[r].next) {
            int mn, mx;
            tree_range(&s, in->vruns[r].lo, in->vruns[r].hi, &mn, &mx);
            ok = more ? mn > v->team : mx <= v->team;
        }
    }
    int rc = s.lo && s.hi ? ok ? 0 : 1 : pp_inst_fail(c, "out of memory");
    free(s.lo);
    free(s.hi);
    for (int t = 0; rc == 0 && t < n; t++)
        if (in->vlast[t] >= 0 && in->vlast[t] > own_last(in, t)) {
            /* most have no other action: room for this one only */
            rc = pp_inst_reserve(c, t, in->threads[t].nact + 1);
            if (rc == 0)
                rc = pp_inst_push_action(c, t, (pp_action){.kind = PP_A_PARK, .func = -1, .site = -1});
            c->ngraph--;   /* not the full unrolling's */
        }
    free(last);
    return rc;
}

void pp_inst_vseg_parties(ictx *c)
{
    pp_instance *in = c->in;
    for (int i = 0; i < in->nvseg; i++) {
        const struct pp_vseg *v = &in->vsegs[i];
        const pp_ithread *th = &in->threads[v->thread];
        for (int a = v->at + 1; a < th->nact && th->act[a].kind != PP_A_TEAM_DONE; a++)
            if (th->act[a].kind == PP_A_BARRIER) {
                /* the team's barrier: met by this segment's members */
                in->key_parties[th->act[a].key] += v->copies;
                break;
            }
    }
}
