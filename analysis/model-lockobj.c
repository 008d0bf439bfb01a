/* model-lockobj.c - the identity of a lock or a condition variable the
 * plugin could not name, from the run: a mutex reached through a pointer
 * (a thread's start argument, `pthread_mutex_lock(&q->lock)` with
 * `q = arg`; a hand-built barrier's gate held in each worker's struct)
 * has no expression the model can evaluate, but the record gives the
 * address every lock and unlock, cond_wait, signal and broadcast event
 * used (docs/record-format.md, `obj`; a cond_wait's is its cond var).  A site whose events,
 * in every record where it ran, all used one address, and that two
 * threads or more reached, locks one object shared by the threads; sites
 * of one record at the same address lock the same one.  Such a site gets
 * the key "run:R:ADDR" (R the first record it ran in), which
 * inst-events.c uses instead of the one-per-thread guess.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is event i of f a lock or unlock, a condition variable's wait or wake,
 * whose object the model cannot name? */
static int unnamed_lock(const pp_devent *ev)
{
    if (ev->kind != PP_EV_LOCK && ev->kind != PP_EV_UNLOCK && ev->kind != PP_EV_COND_WAIT &&
        ev->kind != PP_EV_COND_SIGNAL && ev->kind != PP_EV_COND_BROADCAST)
        return 0;
    if (ev->callee && strncmp(ev->callee, "GOMP_", 5) == 0)
        return 0;
    const pp_expr *o = ev->obj;
    return !(o && o->kind == PP_E_ADDR && o->name) && !(o && o->kind == PP_E_CRITICAL);
}

static int is_cond(pp_evkind k)
{
    return k == PP_EV_COND_WAIT || k == PP_EV_COND_SIGNAL || k == PP_EV_COND_BROADCAST;
}

/* Does site `site` of f count as evidence for event ev (index i)?  Its
 * own site; for a condition variable, also the function's other waits
 * and wakes on the same expression: a hand-built barrier's last thread
 * broadcasts where the others wait, so with unequal work one thread may
 * be the only one ever to wait, and another the only one to broadcast. */
static int same_object(const pp_dfunc *d, int i, int site, char **text)
{
    const pp_devent *ev = &d->events[i];
    if (site == ev->id)
        return 1;
    if (!is_cond(ev->kind) || !text[i])
        return 0;
    for (int j = 0; j < d->nevents; j++)
        if (d->events[j].id == site)
            return is_cond(d->events[j].kind) && text[j] && strcmp(text[j], text[i]) == 0;
    return 0;
}

/* mf->ev_mutex_lock: for each cond_wait whose mutex the plugin could not
 * name, the lock of the same function on the same expression that the
 * run named (the lock the thread took before it waits), so that the wait
 * releases what the lock took.  -1 out of memory. */
static int cond_mutexes(pp_mfunc *mf, char **text)
{
    const pp_dfunc *d = mf->d;
    if (d->nevents <= 0)
        return 0;
    mf->ev_mutex_lock = malloc(sizeof *mf->ev_mutex_lock * (size_t)d->nevents);
    if (!mf->ev_mutex_lock)
        return -1;
    for (int i = 0; i < d->nevents; i++) {
        mf->ev_mutex_lock[i] = -1;
        const pp_expr *o = d->events[i].mutex;
        if (d->events[i].kind != PP_EV_COND_WAIT || !o || (o->kind == PP_E_ADDR && o->name))
            continue;
        char *want = pp_expr_to_sexpr(o);
        for (int j = 0; want && j < d->nevents && mf->ev_mutex_lock[i] < 0; j++) {
            if (d->events[j].kind != PP_EV_LOCK || !mf->ev_runkey[j] || !d->events[j].obj)
                continue;
            char *have = text[j] ? text[j] : pp_expr_to_sexpr(d->events[j].obj);
            if (have && strcmp(have, want) == 0)
                mf->ev_mutex_lock[i] = j;
            if (have != text[j])
                free(have);
        }
        free(want);
    }
    return 0;
}

int pp_model_run_locks(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        if (!d->nevents)
            continue;
        mf->ev_runkey = calloc((size_t)d->nevents, sizeof *mf->ev_runkey);
        char **text = calloc((size_t)d->nevents, sizeof *text);
        if (!mf->ev_runkey || !text) {
            free(text);
            return -1;
        }
        for (int i = 0; i < d->nevents; i++)
            if (is_cond(d->events[i].kind) && d->events[i].obj)
                text[i] = pp_expr_to_sexpr(d->events[i].obj);
        for (int i = 0; i < d->nevents; i++) {
            const pp_devent *ev = &d->events[i];
            if (!unnamed_lock(ev))
                continue;
            int first_rec = -1, ok = 1, many = 0;
            uint64_t first_addr = 0;
            for (int ri = 0; ri < m->nrec && ok; ri++) {
                const pp_record *r = m->recs[ri];
                uint64_t addr = 0;
                int seen = 0, thread = -1;
                for (long e = 0; e < r->nevents && ok; e++) {
                    const pp_rev *rv = &r->events[e];
                    if (rv->func < 0 || rv->func >= r->nfuncs || m->fmap[ri][rv->func] != f ||
                        !same_object(d, i, rv->site, text))
                        continue;
                    if (!seen) {
                        addr = rv->obj;
                        thread = rv->thread;
                        seen = 1;
                    } else if (rv->obj != addr)
                        ok = 0;
                    else if (rv->thread != thread)
                        many = 1;
                }
                if (seen && ok && first_rec < 0) {
                    first_rec = ri;
                    first_addr = addr;
                }
            }
            /* one thread alone proves nothing about sharing: keep the guess */
            if (!ok || first_rec < 0 || !many || !first_addr)
                continue;
            char buf[64];
            snprintf(buf, sizeof buf, "run:%d:%llx", first_rec, (unsigned long long)first_addr);
            if (!(mf->ev_runkey[i] = strdup(buf))) {
                for (int j = 0; j < d->nevents; j++)
                    free(text[j]);
                free(text);
                return -1;
            }
        }
        if (cond_mutexes(mf, text)) {
            for (int j = 0; j < d->nevents; j++)
                free(text[j]);
            free(text);
            return -1;
        }
        for (int j = 0; j < d->nevents; j++)
            free(text[j]);
        free(text);
    }
    return 0;
}
