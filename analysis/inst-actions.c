/* inst-actions.c - the instance's threads and their action lists: new
 * logical threads, appending actions (with the cap on their number), the
 * pending computation flushed as one WORK action before each event, and
 * the interned object keys.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "longrun.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ACTIONS  (60L * 1000 * 1000)

int pp_inst_new_thread(ictx *c, pp_itkind kind, int parent, int tid, int start_func)
{
    pp_instance *in = c->in;
    /* the per-thread arrays grow together, doubling (a thread at a time
     * was P reallocations of a growing array: quadratic where realloc
     * cannot grow in place) */
    if (in->nthreads + 1 > c->cappending) {
        int cap = c->cappending ? c->cappending * 2 : 16;
        pp_ithread *nt = realloc(in->threads, sizeof *nt * (size_t)cap);
        if (nt)
            in->threads = nt;
        pp_work *np = realloc(c->pending, sizeof *np * (size_t)cap);
        if (np)
            c->pending = np;
        int *nu = realloc(c->unjoined, sizeof *nu * (size_t)cap);
        if (nu)
            c->unjoined = nu;
        int *nn = realloc(c->next_unjoined, sizeof *nn * (size_t)cap);
        if (nn)
            c->next_unjoined = nn;
        if (!nt || !np || !nu || !nn)
            return pp_inst_fail(c, "out of memory");
        c->cappending = cap;
    }
    if ((c->flags & PP_INST_SITES) && pp_inst_sites_thread(c, in->nthreads))
        return -1;
    int id = in->nthreads++;
    memset(&in->threads[id], 0, sizeof in->threads[id]);
    in->threads[id].kind = kind;
    in->threads[id].parent = parent;
    in->threads[id].tid = tid;
    in->threads[id].start_func = start_func;
    c->pending[id] = (pp_work){0};
    c->unjoined[id] = -1;
    c->next_unjoined[id] = -1;
    return id;
}

int pp_inst_push_action(ictx *c, int t, pp_action a)
{
    if (!(c->flags & PP_INST_ACTIONS))
        return 0;
    pp_ithread *th = &c->in->threads[t];
    if (th->borrowed)
        return pp_inst_fail(c, "an action for thread %d, which shares another rank's actions", t);
    if (th->nact == th->capact) {
        int cap = th->capact ? th->capact * 2 : 16;
        pp_action *na = realloc(th->act, sizeof *na * (size_t)cap);
        if (!na)
            return pp_inst_fail(c, "out of memory");
        th->act = na;
        th->capact = cap;
        if ((c->flags & PP_INST_SITES) && pp_inst_sites_act(c, t, cap))
            return -1;
    }
    long cap = c->m->max_actions > 0 ? c->m->max_actions : MAX_ACTIONS;
    if (++c->nactions > cap)
        return pp_inst_fail(c, PP_ERR_GRAPH_LIMIT " %ld actions at this size; "
                       "choose a smaller problem size or P", cap);
    if (pp_inst_graph_grows(c, 1))
        return -1;
    if (__builtin_expect((c->nactions & (PP_LONG_EVERY - 1)) == 0, 0))
        pp_long_tick(PP_LONG_UNROLL, c->nactions, 0);
    if (__builtin_expect(c->flags & PP_INST_SITES, 0))
        c->in->act_ctx[t][th->nact] = c->node;
    th->act[th->nact++] = a;
    return 0;
}

int pp_inst_graph_grows(ictx *c, long n)
{
    c->ngraph += n;
    if (c->pv->max_graph > 0 && c->ngraph > c->pv->max_graph)
        return pp_inst_fail(c, PP_ERR_GRAPH_LIMIT " %ld actions at this size; "
                            "choose a smaller problem size or P", c->pv->max_graph);
    return 0;
}

int pp_inst_reserve(ictx *c, int t, int n)
{
    pp_ithread *th = &c->in->threads[t];
    if (!(c->flags & PP_INST_ACTIONS) || th->capact >= n || th->borrowed)
        return 0;
    pp_action *na = realloc(th->act, sizeof *na * (size_t)n);
    if (!na)
        return pp_inst_fail(c, "out of memory");
    th->act = na;
    th->capact = n;
    if (c->flags & PP_INST_SITES)
        return pp_inst_sites_act(c, t, n);
    return 0;
}

int pp_inst_flush(ictx *c, int t)
{
    pp_work w = c->pending[t];
    if (w.ns <= 0) {
        if (c->flags & PP_INST_SITES)
            pp_inst_sites_drop(c, t);
        return 0;
    }
    c->pending[t] = (pp_work){0};
    c->in->work_ns += w.ns;
    pp_action a = {.kind = PP_A_WORK, .ns = w.ns, .mem = pp_inst_mem_share(w), .func = -1, .site = -1};
    if (__builtin_expect(c->flags & PP_INST_SITES, 0) && pp_inst_sites_take(c, t, &a))
        return -1;
    return pp_inst_push_action(c, t, a);
}

int pp_inst_sync_action(ictx *c, int t, pp_akind k, long key, int n, int fi, int site)
{
    /* Every event ends a segment, and the fit gave each segment a fixed
     * cost (the costs' PP_SLOT_SEG, the instance's seg_ns).  It is not
     * computation: the runtime's own time at the event and the
     * synchronisation's, which the real machine charges with the event
     * itself (traverse.c, pay_segment) and the PRAM does
     * not.  So no WORK holds it: T1 and the PRAM are the work alone. */
    if (pp_inst_flush(c, t))
        return -1;
    return pp_inst_push_action(c, t, (pp_action){.kind = k, .key = key, .n = n, .func = fi, .site = site});
}

static size_t key_hash(const char *s)
{
    size_t h = 14695981039346656037u;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The keys' hash index (c->keyidx: index + 1, 0 empty), made anew at
 * twice the keys; -1 out of memory. */
static int key_index_grow(ictx *c)
{
    size_t cap = c->keycap ? c->keycap * 2 : 64;
    int *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < c->in->nkeys; i++) {
        size_t j = key_hash(c->in->keys[i]) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = i + 1;
    }
    free(c->keyidx);
    c->keyidx = t;
    c->keycap = cap;
    return 0;
}

long pp_inst_intern(ictx *c, const char *key)
{
    pp_instance *in = c->in;
    /* a key per team ("team:%d"), per lock of an array, per guessed
     * object: thousands of them; a search of all of them per event
     * was quadratic */
    if ((size_t)(in->nkeys + 1) * 2 > c->keycap && key_index_grow(c))
        return pp_inst_fail(c, "out of memory");
    size_t j = key_hash(key) & (c->keycap - 1);
    while (c->keyidx[j]) {
        if (strcmp(in->keys[c->keyidx[j] - 1], key) == 0)
            return c->keyidx[j] - 1;
        j = (j + 1) & (c->keycap - 1);
    }
    if ((size_t)in->nkeys + 1 > c->keyarr) {
        /* the arrays as large as the index allows (half its slots) */
        size_t cap = c->keycap / 2;
        char **nk = realloc(in->keys, sizeof *nk * cap);
        int *np = realloc(in->key_parties, sizeof *np * cap);
        if (nk)
            in->keys = nk;
        if (np)
            in->key_parties = np;
        if (!nk || !np)
            return pp_inst_fail(c, "out of memory");
        c->keyarr = cap;
    }
    if (!(in->keys[in->nkeys] = strdup(key)))
        return pp_inst_fail(c, "out of memory");
    in->key_parties[in->nkeys] = 0;
    c->keyidx[j] = in->nkeys + 1;
    return in->nkeys++;
}

