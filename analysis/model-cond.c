/* model-cond.c - hand-built barriers on a condition variable: a branch
 * whose one side broadcasts on a cond var and whose other side waits on
 * the same cond var (a cond_wait, or a loop around one):
 *
 *     lock(&b->mu);
 *     if (++b->count == b->total) { b->count = 0; b->gen++; broadcast(&b->cv); }
 *     else while (gen == b->gen) cond_wait(&b->cv, &b->mu);
 *     unlock(&b->mu);
 *
 * Which side a thread takes depends on the order the threads arrive in,
 * not on a ratio: the instantiation makes the pair one barrier on the
 * cond var among the threads that reach it (instantiate.c, exec_scope;
 * inst-events.c, pp_inst_condbar), whoever arrives last being the one
 * that broadcasts.  docs/model.md, "Condition variables".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdlib.h>
#include <string.h>

/* Are a and b the same (known) object expression? */
static int same_obj(const pp_expr *a, const pp_expr *b)
{
    if (!a || !b)
        return 0;
    char *x = pp_expr_to_sexpr(a), *y = pp_expr_to_sexpr(b);
    int same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* The side (1 true, 0 false) of branch b that the guard chain starting
 * at (g, want) requires, or -1 when b is not on it. */
static int chain_side(const pp_mfunc *mf, int g, int want, int b)
{
    for (int depth = 0; g >= 0 && depth < 64; depth++) {
        if (g == b)
            return want;
        if (g > mf->max_branch_id || mf->branch_index_by_id[g] < 0)
            return -1;
        const pp_dbranch *br = &mf->d->branches[mf->branch_index_by_id[g]];
        want = br->guard_true;
        g = br->guard_branch;
    }
    return -1;
}

/* The item of scope `loop` (a loop id, -1 the body) that holds cond_wait
 * w: *ev = 1 and w itself, or *ev = 0 and the index of the outermost
 * loop under `loop` around it; -1 when w is not under `loop`. */
static int item_in(const pp_mfunc *mf, const pp_devent *w, int loop, int *ev)
{
    if (w->loop == loop) {
        *ev = 1;
        return 0;
    }
    *ev = 0;
    int l = w->loop;
    for (int depth = 0; l >= 0 && depth < 256; depth++) {
        if (l > mf->max_loop_id || mf->loop_index[l] < 0)
            return -1;
        int k = mf->loop_index[l];
        if (mf->d->loops[k].parent == loop)
            return k;
        l = mf->d->loops[k].parent;
    }
    return -1;
}

static int find(pp_mfunc *mf)
{
    const pp_dfunc *d = mf->d;
    for (int bi = 0; bi < d->nevents; bi++) {
        const pp_devent *b = &d->events[bi];
        if (b->kind != PP_EV_COND_BROADCAST || mf->cb_of_event[bi] >= 0)
            continue;
        for (int wi = 0; wi < d->nevents; wi++) {
            const pp_devent *w = &d->events[wi];
            if (w->kind != PP_EV_COND_WAIT || !same_obj(b->obj, w->obj))
                continue;
            int is_ev, k = item_in(mf, w, b->loop, &is_ev);
            if (k < 0 || (is_ev && mf->cb_of_event[wi] >= 0) || (!is_ev && mf->cb_of_loop[k] >= 0))
                continue;
            int g = is_ev ? w->guard_branch : d->loops[k].guard_branch;
            int gt = is_ev ? w->guard_true : d->loops[k].guard_true;
            /* the innermost branch above the broadcast that has the wait
             * on its other side */
            int found = 0, br = b->guard_branch, side = b->guard_true;
            for (int depth = 0; br >= 0 && depth < 64 && !found; depth++) {
                int ws = chain_side(mf, g, gt, br);
                if (ws >= 0 && ws != side)
                    found = 1;
                else if (br > mf->max_branch_id || mf->branch_index_by_id[br] < 0)
                    break;
                else {
                    const pp_dbranch *x = &d->branches[mf->branch_index_by_id[br]];
                    side = x->guard_true;
                    br = x->guard_branch;
                }
            }
            if (!found || mf->ncb >= 64)
                continue;
            int *nw = realloc(mf->cb_wait, sizeof *nw * (size_t)(mf->ncb + 1));
            if (!nw)
                return -1;
            mf->cb_wait = nw;
            mf->cb_wait[mf->ncb] = wi;
            mf->cb_of_event[bi] = mf->ncb;
            if (is_ev)
                mf->cb_of_event[wi] = mf->ncb;
            else
                mf->cb_of_loop[k] = mf->ncb;
            mf->ncb++;
            break;
        }
    }
    return 0;
}

int pp_model_condbars(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        mf->cb_of_event = malloc(sizeof *mf->cb_of_event * (size_t)(d->nevents + 1));
        mf->cb_of_loop = malloc(sizeof *mf->cb_of_loop * (size_t)(d->nloops + 1));
        if (!mf->cb_of_event || !mf->cb_of_loop)
            return -1;
        for (int i = 0; i < d->nevents; i++)
            mf->cb_of_event[i] = -1;
        for (int i = 0; i < d->nloops; i++)
            mf->cb_of_loop[i] = -1;
        if (find(mf))
            return -1;
    }
    return 0;
}
