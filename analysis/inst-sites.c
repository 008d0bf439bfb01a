/* inst-sites.c - where the time goes (PP_INST_SITES, for predict --by and
 * timeline): while the model is unrolled, the contexts (a calling-context
 * tree of function and loop bodies, forks and creates counting as calls),
 * the context each action was made in, and the parts each WORK action's
 * computation came from.
 *
 * The instantiation merges all computation between two events of a
 * thread into one WORK action, and costs an event-free loop nest in closed
 * form (count x own cost, its children's work multiplied).  Every cost
 * still enters at one place, add_own in instantiate.c: a loop's own
 * iterations and entries, a call's fixed cost (its callee's straight-line
 * code), a segment's fixed cost (at its event); and it enters multiplied
 * by the product of the counts and ratios above it in the closed form,
 * the `mult` the interpreter already carries for the loop totals.  So
 * mult x cost, added to the part of the current context, gives each
 * context's share of the WORK action exactly (up to the rounding of a
 * different order of additions).  The actions themselves, and so every
 * time of the traversal, are the same as without the flag.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pp_partlist {
    pp_wpart *v;
    int n, cap, last;
};

static int grow(void **p, long *cap, long need, size_t size)
{
    if (need <= *cap)
        return 0;
    long nc = *cap ? *cap : 8;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, size * (size_t)nc);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int new_node(ictx *c, int parent, int fi, int loop)
{
    pp_instance *in = c->in;
    long cap = in->capctx;
    if (grow((void **)&in->ctx, &cap, in->nctx + 1, sizeof *in->ctx))
        return -1;
    in->capctx = (int)cap;
    int k = in->nctx++;
    in->ctx[k] = (pp_ctxnode){parent, fi, loop, -1, -1};
    return k;
}

int pp_inst_ctx_child(ictx *c, int parent, int fi, int loop)
{
    pp_instance *in = c->in;
    if (in->nctx == 0 && new_node(c, -1, -1, -1) < 0)
        return -1;
    if (parent < 0 || parent >= in->nctx)
        parent = 0;
    int last = -1;
    for (int k = in->ctx[parent].child; k >= 0; k = in->ctx[k].next) {
        if (in->ctx[k].func == fi && in->ctx[k].loop == loop)
            return k;
        last = k;
    }
    int k = new_node(c, parent, fi, loop);
    if (k < 0)
        return -1;
    /* in the order they were first reached */
    if (last < 0)
        in->ctx[parent].child = k;
    else
        in->ctx[last].next = k;
    return k;
}

int pp_inst_part(ictx *c, int t, int node, double ns)
{
    if (ns == 0)
        return 0;
    struct pp_partlist *l = &c->pend[t];
    if (l->last < l->n && l->v[l->last].node == node) {
        l->v[l->last].ns += ns;
        return 0;
    }
    for (int i = 0; i < l->n; i++)
        if (l->v[i].node == node) {
            l->v[i].ns += ns;
            l->last = i;
            return 0;
        }
    long cap = l->cap;
    if (grow((void **)&l->v, &cap, l->n + 1, sizeof *l->v))
        return pp_inst_fail(c, "out of memory");
    l->cap = (int)cap;
    l->v[l->n] = (pp_wpart){node, ns};
    l->last = l->n++;
    return 0;
}

int pp_inst_sites_thread(ictx *c, int t)
{
    pp_instance *in = c->in;
    if (in->nctx == 0 && new_node(c, -1, -1, -1) < 0)
        return pp_inst_fail(c, "out of memory");
    if (t >= c->capsites) {
        long cap = c->capsites, n = t + 1;
        long c1 = cap, c2 = cap, c3 = cap, c4 = cap, c5 = cap;
        if (grow((void **)&in->act_ctx, &c1, n, sizeof *in->act_ctx) ||
            grow((void **)&in->wparts, &c2, n, sizeof *in->wparts) ||
            grow((void **)&in->nwparts, &c3, n, sizeof *in->nwparts) ||
            grow((void **)&c->capwparts, &c4, n, sizeof *c->capwparts) ||
            grow((void **)&c->pend, &c5, n, sizeof *c->pend))
            return pp_inst_fail(c, "out of memory");
        /* they all grew from the same capacity by the same rule */
        c->capsites = (int)c1;
    }
    in->act_ctx[t] = NULL;
    in->wparts[t] = NULL;
    in->nwparts[t] = 0;
    c->capwparts[t] = 0;
    memset(&c->pend[t], 0, sizeof c->pend[t]);
    return 0;
}

int pp_inst_sites_act(ictx *c, int t, int cap)
{
    pp_instance *in = c->in;
    int *p = realloc(in->act_ctx[t], sizeof *p * (size_t)cap);
    if (!p)
        return pp_inst_fail(c, "out of memory");
    in->act_ctx[t] = p;
    return 0;
}

int pp_inst_sites_take(ictx *c, int t, pp_action *a)
{
    pp_instance *in = c->in;
    struct pp_partlist *l = &c->pend[t];
    if (in->nwparts[t] + l->n > INT32_MAX)
        return pp_inst_fail(c, "too many computation parts on one thread (predict --by, timeline): "
                               "choose a smaller problem size or P");
    if (grow((void **)&in->wparts[t], &c->capwparts[t], in->nwparts[t] + l->n, sizeof **in->wparts))
        return pp_inst_fail(c, "out of memory");
    a->key = (int)in->nwparts[t];
    a->n = l->n;
    memcpy(in->wparts[t] + in->nwparts[t], l->v, sizeof *l->v * (size_t)l->n);
    in->nwparts[t] += l->n;
    l->n = 0;
    l->last = 0;
    return 0;
}

void pp_inst_sites_drop(ictx *c, int t)
{
    if (c->pend) {
        c->pend[t].n = 0;
        c->pend[t].last = 0;
    }
}

void pp_inst_sites_ctx_free(ictx *c)
{
    for (int t = 0; c->pend && t < c->in->nthreads && t < c->capsites; t++)
        free(c->pend[t].v);
    free(c->pend);
    free(c->capwparts);
    c->pend = NULL;
    c->capwparts = NULL;
}

void pp_inst_sites_free(pp_instance *in)
{
    for (int t = 0; t < in->nthreads; t++) {
        if (in->act_ctx)
            free(in->act_ctx[t]);
        if (in->wparts)
            free(in->wparts[t]);
    }
    free(in->act_ctx);
    free(in->wparts);
    free(in->nwparts);
    free(in->ctx);
    in->act_ctx = NULL;
    in->wparts = NULL;
    in->nwparts = NULL;
    in->ctx = NULL;
    in->nctx = in->capctx = 0;
}
