/* inst-events.c - what each event of the thread graph makes while the
 * model is unrolled (instantiate.c): a fork's team on the forking thread's
 * pool of logical threads, a create's new thread and its FIFO of threads
 * to join, and the interned object keys of barriers and locks with their
 * parties; MPI events go to inst-mpi.c.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Render an object expression as a key: "bar", "locks[3]", "critical". */
static long object_key_slow(ictx *c, const frame *fr, const pp_devent *ev, int fi);

/* A site's object key: cached when the object depends on no frame (the
 * common "bar" or "critical"), which saves a format and a search per
 * event.  An (arg NAME) object is the caller's: never cached. */
static long object_key(ictx *c, const frame *fr, const pp_devent *ev, int fi)
{
    const pp_expr *o = ev->obj;
    int idx = (int)(ev - c->m->funcs[fi].d->events);
    if (c->keycache && c->keycache[fi] && c->keycache[fi][idx])
        return c->keycache[fi][idx] - 1;    /* set only where constant */
    int constant = o && o->kind == PP_E_ADDR && o->name
                       ? o->nkids == 0
                       : (o && o->kind == PP_E_CRITICAL) ||
                             (ev->callee && (strstr(ev->callee, "GOMP_atomic") || strstr(ev->callee, "GOMP_critical")));
    long k = object_key_slow(c, fr, ev, fi);
    if (constant && k >= 0 && c->keycache && c->keycache[fi])
        c->keycache[fi][idx] = k + 1;
    return k;
}

/* (arg NAME): the key of the object the caller passed (call_frame binds
 * it), or -1. */
static long arg_key(const frame *fr, const pp_expr *o)
{
    if (!o || o->kind != PP_E_ARG || !o->name)
        return -1;
    const pp_dfunc *d = fr->mf->d;
    for (int i = 0; i < d->nargs; i++)
        if (strcmp(d->argnames[i], o->name) == 0 && fr->arg_obj[i] > 0)
            return fr->arg_obj[i] - 1;
    return -1;
}

long pp_inst_obj_key(ictx *c, const frame *fr, const pp_expr *o)
{
    char buf[320];
    if (o && o->kind == PP_E_ADDR && o->name) {
        int64_t ix;
        if (o->nkids > 0 && pp_inst_eval(c, fr, o->kids[0], &ix) == 0)
            snprintf(buf, sizeof buf, "%s[%lld]", o->name, (long long)ix);
        else if (o->nkids > 0)
            snprintf(buf, sizeof buf, "%s[?]", o->name);
        else
            snprintf(buf, sizeof buf, "%s", o->name);
        return pp_inst_intern(c, buf);
    }
    long k = arg_key(fr, o);
    if (k >= 0)
        return k;
    /* Not resolved: a guess that gives lock and unlock of the same
     * expression in the same function on the same thread the same key
     * (one key per site would never release the lock), and other threads
     * other keys (so no false exclusion between them; a key per call
     * would make as many keys as calls). */
    char *txt = o ? pp_expr_to_sexpr(o) : NULL;
    pp_inst_class_bad(c);   /* a key per thread: not a class's to copy */
    snprintf(buf, sizeof buf, "guess:%s:%s@%d", fr->mf->d->name, txt ? txt : "?", c->cur_t);
    free(txt);
    return pp_inst_intern(c, buf);
}

static long object_key_slow(ictx *c, const frame *fr, const pp_devent *ev, int fi)
{
    char buf[256];
    const pp_expr *o = ev->obj;
    if (o && o->kind == PP_E_ADDR && o->name)
        return pp_inst_obj_key(c, fr, o);
    if (o && o->kind == PP_E_CRITICAL)
        snprintf(buf, sizeof buf, "critical%s%s", o->name ? ":" : "", o->name ? o->name : "");
    else if (ev->callee && strstr(ev->callee, "GOMP_atomic"))
        snprintf(buf, sizeof buf, "omp-atomic");
    else if (ev->callee && strstr(ev->callee, "GOMP_critical"))
        snprintf(buf, sizeof buf, "critical");
    else if (ev->kind == PP_EV_BARRIER) {
        /* a barrier whose object is not known: every thread that reaches
         * the site waits at the same one */
        long k = arg_key(fr, o);
        if (k >= 0)
            return k;
        snprintf(buf, sizeof buf, "site:%s:%d", c->m->funcs[fi].d->name, ev->id);
    } else {
        /* an object the plugin could not name and the caller did not
         * bind: the run's one shared address, when it showed one */
        const pp_mfunc *mf = &c->m->funcs[fi];
        const char *rk = mf->ev_runkey ? mf->ev_runkey[ev - mf->d->events] : NULL;
        if (rk && arg_key(fr, o) < 0)
            return pp_inst_intern(c, rk);
        return pp_inst_obj_key(c, fr, o);
    }
    return pp_inst_intern(c, buf);
}

/* The run's one shared address of event ev of fr's function, where the
 * model could not name its object and the caller did not bind it
 * (model-lockobj.c), or NULL */
static const char *run_key(const frame *fr, const pp_devent *ev)
{
    const pp_mfunc *mf = fr->mf;
    const char *rk = mf->ev_runkey ? mf->ev_runkey[ev - mf->d->events] : NULL;
    return rk && arg_key(fr, ev->obj) < 0 ? rk : NULL;
}

/* A condition variable's or semaphore's key (event ev's object o): its
 * object's, in a name space of its own, SPACE (a struct's mutex and cond
 * var have the same (addr NAME) when the plugin drops the field). */
static long cond_key(ictx *c, const frame *fr, const pp_devent *ev, const pp_expr *o, const char *space)
{
    char buf[320];
    const char *rk = ev ? run_key(fr, ev) : NULL;
    if (rk)
        snprintf(buf, sizeof buf, "%s:%s", space, rk);
    else {
        long k = pp_inst_obj_key(c, fr, o);
        if (k < 0)
            return -1;
        snprintf(buf, sizeof buf, "%s:%s", space, c->in->keys[k]);
    }
    return pp_inst_intern(c, buf);
}

/* The key of the mutex a cond_wait (event w) releases: its object's, or,
 * where the model cannot name it and the caller did not bind it, the
 * run's address of the lock of the same function on the same expression
 * (mf->ev_mutex_lock, model-lockobj.c). */
static long cond_mutex_key(ictx *c, const frame *fr, const pp_devent *w)
{
    const pp_mfunc *mf = fr->mf;
    int l = mf->ev_mutex_lock ? mf->ev_mutex_lock[w - mf->d->events] : -1;
    if (l >= 0 && arg_key(fr, w->mutex) < 0)
        return pp_inst_intern(c, mf->ev_runkey[l]);
    return pp_inst_obj_key(c, fr, w->mutex);
}

int pp_inst_condbar(ictx *c, int t, frame *fr, int k)
{
    c->cur_t = t;
    const pp_devent *w = &fr->mf->d->events[fr->mf->cb_wait[k]];
    long mu = cond_mutex_key(c, fr, w);
    long cv = cond_key(c, fr, w, w->obj, "cond");
    if (mu < 0 || cv < 0)
        return -1;
    c->nbarriers++;
    if (pp_inst_sync_action(c, t, PP_A_UNLOCK, mu, 0, fr->fi, w->id) ||
        pp_inst_sync_action(c, t, PP_A_BARRIER, cv, 0, fr->fi, w->id))
        return -1;
    return pp_inst_sync_action(c, t, PP_A_LOCK, mu, 0, fr->fi, w->id);
}

/* The values a fork's data block or a create's argument struct holds
 * (data=), evaluated in the parent's frame fr into sv (its arrays freed
 * by the caller).  0, or -1 out of memory. */
static int data_block(ictx *c, const frame *fr, const pp_devent *ev, shared_val *sv)
{
    memset(sv, 0, sizeof *sv);
    sv->n = ev->ndata;
    sv->name = ev->data_name;
    sv->val = calloc((size_t)sv->n + 1, sizeof *sv->val);
    sv->known = calloc((size_t)sv->n + 1, 1);
    if (!sv->val || !sv->known) {
        free(sv->val);
        free(sv->known);
        return pp_inst_fail(c, "out of memory");
    }
    for (int i = 0; i < sv->n; i++)
        sv->known[i] = ev->data_val[i] && pp_inst_eval(c, fr, ev->data_val[i], &sv->val[i]) == 0;
    return 0;
}

/* The pool's hash index of (owner, tid): its slot's first probe. */
static size_t pool_slot(const ictx *c, int owner, int tid)
{
    uint64_t k = ((uint64_t)(uint32_t)owner << 32 | (uint32_t)tid) * 0x9e3779b97f4a7c15ull;
    return (size_t)(k ^ (k >> 31)) & (c->poolhcap - 1);
}

/* The pool entry of (owner, tid), or -1. */
static int pool_find(const ictx *c, int owner, int tid)
{
    if (!c->poolhcap)
        return -1;
    for (size_t j = pool_slot(c, owner, tid);; j = (j + 1) & (c->poolhcap - 1)) {
        int i = c->poolh[j] - 1;
        if (i < 0 || (c->pool_owner[i] == owner && c->pool_tid[i] == tid))
            return i;
    }
}

/* Entry i into the hash index, made anew at twice the entries; -1 out
 * of memory. */
static int pool_index(ictx *c, int i)
{
    if (2 * (size_t)c->npool > c->poolhcap) {
        size_t cap = c->poolhcap ? 2 * c->poolhcap : 64;
        while (cap < 2 * (size_t)c->npool)
            cap *= 2;
        int *h = calloc(cap, sizeof *h);
        if (!h)
            return -1;
        free(c->poolh);
        c->poolh = h;
        c->poolhcap = cap;
        for (int k = 0; k < c->npool; k++)
            if (k != i)
                pool_index(c, k);
    }
    size_t j = pool_slot(c, c->pool_owner[i], c->pool_tid[i]);
    while (c->poolh[j])
        j = (j + 1) & (c->poolhcap - 1);
    c->poolh[j] = i + 1;
    return 0;
}

static int pool_thread(ictx *c, int owner, int tid, int cfi)
{
    /* a fork asks for its members in tid order, and the pool holds them
     * in that order from the first fork on: the next one is where the
     * last one was found; else the hash index.  A team costs O(P), not
     * O(P^2) (a fork of 100000 threads took minutes) */
    int h = c->pool_hint;
    if (h >= 0 && h < c->npool && c->pool_owner[h] == owner && c->pool_tid[h] == tid) {
        c->pool_hint = h + 1;
        return c->pool_thread[h];
    }
    int f = pool_find(c, owner, tid);
    if (f >= 0) {
        c->pool_hint = f + 1;
        return c->pool_thread[f];
    }
    int id = pp_inst_new_thread(c, PP_IT_OMP, owner, tid, cfi);
    if (id < 0)
        return -1;
    if (c->npool == c->cappool) {
        int cap = c->cappool ? 2 * c->cappool : 16;
        int *a = realloc(c->pool_owner, sizeof *a * (size_t)cap);
        if (a) c->pool_owner = a;
        int *b = realloc(c->pool_tid, sizeof *b * (size_t)cap);
        if (b) c->pool_tid = b;
        int *d = realloc(c->pool_thread, sizeof *d * (size_t)cap);
        if (d) c->pool_thread = d;
        int *e = realloc(c->pool_run, sizeof *e * (size_t)cap);
        if (e) c->pool_run = e;
        if (!a || !b || !d || !e)
            return pp_inst_fail(c, "out of memory");
        c->cappool = cap;
    }
    int i = c->npool++;
    c->pool_owner[i] = owner;
    c->pool_tid[i] = tid;
    c->pool_thread[i] = id;
    c->pool_run[i] = i > 0 && c->pool_owner[i - 1] == owner && c->pool_tid[i - 1] == tid - 1 &&
                             c->pool_thread[i - 1] == id - 1 ? c->pool_run[i - 1] : i;
    if (pool_index(c, i))
        return pp_inst_fail(c, "out of memory");
    c->pool_hint = c->npool;
    return id;
}

/* The pool threads of owner's members a..b, made where they are not
 * yet: 0 when their thread ids are consecutive (*lo: a's), 1 when not,
 * -1 when memory runs out.  O(1) once they are made. */
static int pool_range(ictx *c, int owner, int a, int b, int cfi, int *lo)
{
    int id = pool_thread(c, owner, a, cfi);
    if (id < 0)
        return -1;
    int ia = c->pool_hint - 1, ib = ia + (b - a);
    if (ib >= c->npool)
        for (int tid = a + 1; tid <= b; tid++)
            if (pool_thread(c, owner, tid, cfi) < 0)
                return -1;
    if (ib < c->npool && c->pool_owner[ib] == owner && c->pool_tid[ib] == b && c->pool_run[ib] <= ia) {
        *lo = id;
        c->pool_hint = ib + 1;
        return 0;
    }
    return 1;
}

/* Members a..b of a team copy class k: at once where they need no
 * actions of their own (pp_inst_class_virtual), else one by one (their
 * TEAM_WAIT, then the class's actions). */
static int copy_members(ictx *c, pp_inst_team *tm, int k, int owner, int cfi, int team, int n, int fi,
                        int site, int a, int b)
{
    c->members += b - a + 1;
    c->copied += b - a + 1;
    if (pp_inst_class_virtual(c, tm, k)) {
        int lo, r = pool_range(c, owner, a, b, cfi, &lo);
        if (r < 0)
            return -1;
        if (r == 0)
            return pp_inst_class_copy_run(c, tm, k, lo, b - a + 1);
    }
    for (int tid = a; tid <= b; tid++) {
        int wt = pool_thread(c, owner, tid, cfi);
        if (wt < 0 || pp_inst_sync_action(c, wt, PP_A_TEAM_WAIT, team, n, fi, site) ||
            pp_inst_class_copy(c, tm, k, wt))
            return -1;
    }
    return 0;
}

static int exec_fork(ictx *c, int t, frame *fr, const pp_devent *ev, int idx)
{
    const pp_mfunc *mf = fr->mf;
    int cfi = mf->ev_child[idx];
    int64_t n = 0;
    if (ev->nthreads)
        pp_inst_eval(c, fr, ev->nthreads, &n);
    if (n <= 0)
        n = pp_prog_team_size(c->m, c->P);
    if (n < 1)
        n = 1;
    pp_instance *in = c->in;
    int team = in->nteams++;
    /* capacity 16, then doubled when full (a power of two) */
    if (team == 0 || (team >= 16 && (team & (team - 1)) == 0)) {
        int *ts = realloc(in->team_size, sizeof *ts * (size_t)(team ? 2 * team : 16));
        if (!ts)
            return pp_inst_fail(c, "out of memory");
        in->team_size = ts;
    }
    in->team_size[team] = (int)n;
    if (pp_inst_sync_action(c, t, PP_A_FORK, team, (int)n, fr->fi, ev->id))
        return -1;
    if (cfi < 0)
        return pp_inst_sync_action(c, t, PP_A_JOIN_TEAM, team, (int)n, fr->fi, ev->id);
    /* the shared data block, evaluated in the parent */
    shared_val sv;
    if (data_block(c, fr, ev, &sv))
        return -1;
    int rc = 0;
    /* the members after the first (the forking thread runs its own part
     * among its other actions) in classes (inst-class.c) */
    pp_inst_team *tm = n > 2 ? pp_inst_team_new(c) : NULL;
    int64_t copy_to = 0;    /* the members up to it are class cur's copies */
    int cur = -1;
    for (int64_t tid = 0; tid < n && rc == 0; tid++) {
        int wt = t;
        if (tid > 0) {
            /* the members up to copy_to copy class cur; one whose
             * number gives a class's trace its results starts a run */
            int k = cur >= 0 && tid <= copy_to ? cur : pp_inst_class_find(c, tm, tid);
            if (k >= 0) {
                if (k != cur || tid > copy_to)
                    copy_to = pp_inst_class_extent(c, tm, k, tid, n - 1);
                cur = k;
                rc = copy_members(c, tm, k, t, cfi, team, (int)n, fr->fi, ev->id, (int)tid, (int)copy_to);
                tid = copy_to;
                continue;
            }
            wt = pool_thread(c, t, (int)tid, cfi);
            if (wt < 0) {
                rc = -1;
                break;
            }
            rc = pp_inst_sync_action(c, wt, PP_A_TEAM_WAIT, team, (int)n, fr->fi, ev->id);
            if (rc)
                break;
            c->members++;
            pp_inst_class_begin(c, tm, wt);
        }
        frame cf;
        if (pp_inst_frame_init(&cf, c->m, cfi)) {
            rc = pp_inst_fail(c, "out of memory");
            pp_inst_class_end(c, tm, 0);
            break;
        }
        cf.shared = &sv;
        cf.omp = 1;
        cf.nthreads = n;
        cf.tid = tid;
        cf.thr_known = 1;
        cf.thr_k = tid;
        cf.thr_n = n;
        cf.team = team;
        rc = pp_inst_exec_func(c, wt, &cf, 1, 1, NULL);
        pp_inst_frame_free(&cf);
        if (rc == 0 && tid > 0)
            rc = pp_inst_sync_action(c, wt, PP_A_TEAM_DONE, team, (int)n, fr->fi, ev->id);
        if (tid > 0 && (cur = pp_inst_class_end(c, tm, rc == 0)) >= 0)
            copy_to = pp_inst_class_extent(c, tm, cur, tid, n - 1);
    }
    pp_inst_team_free(tm);
    free(sv.val);
    free(sv.known);
    if (rc)
        return rc;
    return pp_inst_sync_action(c, t, PP_A_JOIN_TEAM, team, (int)n, fr->fi, ev->id);
}

static int exec_create(ictx *c, int t, frame *fr, const pp_devent *ev, int idx)
{
    int cfi = fr->mf->ev_child[idx];
    /* its creation order among the pthreads (counted, not searched: a
     * create per thread made P creates cost O(P^2)) */
    int nt = pp_inst_new_thread(c, PP_IT_PTHREAD, t, (int)c->npthreads++, cfi);
    if (nt < 0)
        return -1;
    if (pp_inst_sync_action(c, t, PP_A_CREATE, nt, 0, fr->fi, ev->id))
        return -1;
    /* FIFO of threads this thread created and has not joined yet
     * (next_unjoined[nt] is -1: pp_inst_new_thread) */
    if (c->unjoined[t] < 0)
        c->unjoined[t] = nt;
    else {
        int q = c->unjoined[t];
        while (c->next_unjoined[q] >= 0)
            q = c->next_unjoined[q];
        c->next_unjoined[q] = nt;
    }
    if (pp_inst_push_action(c, nt, (pp_action){.kind = PP_A_START, .key = t, .func = fr->fi, .site = ev->id}))
        return -1;
    if (cfi < 0)
        return 0;
    frame cf;
    if (pp_inst_frame_init(&cf, c->m, cfi))
        return pp_inst_fail(c, "out of memory");
    int64_t a;
    if (ev->arg && pp_inst_eval(c, fr, ev->arg, &a) == 0 && cf.mf->d->nargs > 0) {
        cf.args[0] = a;
        cf.args_known[0] = 1;
    }
    /* its index among the threads running this function, and their
     * count: the P of the model's threads */
    if (!c->pthreads_of && !(c->pthreads_of = calloc((size_t)c->m->nfuncs + 1, sizeof *c->pthreads_of))) {
        pp_inst_frame_free(&cf);
        return pp_inst_fail(c, "out of memory");
    }
    cf.thr_known = 1;
    cf.thr_k = c->pthreads_of[cfi]++;
    cf.thr_n = pp_prog_team_size(c->m, c->P);
    /* the fields of the object the argument points to, as the parent
     * stored them before the call (j->first: (shared first)) */
    shared_val sv;
    if (data_block(c, fr, ev, &sv)) {
        pp_inst_frame_free(&cf);
        return -1;
    }
    if (sv.n > 0)
        cf.shared = &sv;
    int rc = pp_inst_exec_func(c, nt, &cf, 1, 1, NULL);
    pp_inst_frame_free(&cf);
    free(sv.val);
    free(sv.known);
    if (rc == 0)
        rc = pp_inst_flush(c, nt);
    return rc;
}

int pp_inst_graph_event(ictx *c, int t, frame *fr, const pp_devent *ev, int idx)
{
    c->cur_t = t;
    /* a team member's barriers and locks are its own actions; the other
     * events change what the members share (threads, teams, queues of
     * waiters, messages): such a member is not a class's to copy */
    int ranks = pp_inst_class_ranks(c);
    if (c->team_rec && !ranks && ev->kind != PP_EV_BARRIER && ev->kind != PP_EV_LOCK && ev->kind != PP_EV_UNLOCK &&
        (ev->kind == PP_EV_FORK || ev->kind == PP_EV_CREATE || ev->kind == PP_EV_JOIN ||
         ev->kind == PP_EV_COND_WAIT || ev->kind == PP_EV_COND_SIGNAL || ev->kind == PP_EV_COND_BROADCAST ||
         ev->kind == PP_EV_SEM_WAIT || ev->kind == PP_EV_SEM_POST || pp_evkind_is_mpi(ev->kind)))
        pp_inst_class_bad(c);
    /* a class of ranks: its messages and collectives are its own (their
     * peers, roots and sizes in its trace), the rest is as above, and a
     * communicator made or freed is state of the rank's */
    if (ranks && (!pp_evkind_is_mpi(ev->kind) || ev->kind == PP_EV_COMM_SPLIT ||
                                   ev->kind == PP_EV_COMM_DUP || ev->kind == PP_EV_COMM_FREE))
        pp_inst_class_bad(c);
    switch (ev->kind) {
    case PP_EV_FORK:
        return exec_fork(c, t, fr, ev, idx);
    case PP_EV_CREATE:
        return exec_create(c, t, fr, ev, idx);
    case PP_EV_JOIN: {
        int q = c->unjoined[t];
        if (q < 0)
            return 0;   /* joins a thread the model did not create */
        c->unjoined[t] = c->next_unjoined[q];
        return pp_inst_sync_action(c, t, PP_A_JOIN_THREAD, q, 0, fr->fi, ev->id);
    }
    case PP_EV_BARRIER: {
        long key;
        char buf[64];
        if (fr->omp && (!ev->obj || (ev->callee && strncmp(ev->callee, "GOMP_", 5) == 0))) {
            snprintf(buf, sizeof buf, "team:%d", fr->team);
            key = pp_inst_intern(c, buf);
        } else
            key = object_key(c, fr, ev, fr->fi);
        if (key < 0)
            return -1;
        c->nbarriers++;
        return pp_inst_sync_action(c, t, PP_A_BARRIER, key, 0, fr->fi, ev->id);
    }
    case PP_EV_LOCK:
    case PP_EV_UNLOCK: {
        long key = object_key(c, fr, ev, fr->fi);
        if (key < 0)
            return -1;
        return pp_inst_sync_action(c, t, ev->kind == PP_EV_LOCK ? PP_A_LOCK : PP_A_UNLOCK, key, 0, fr->fi, ev->id);
    }
    case PP_EV_COND_WAIT: {
        /* outside a hand-built barrier (those never get here): release
         * the mutex, wait for a wake-up, take the mutex again */
        long mu = cond_mutex_key(c, fr, ev);
        long cv = cond_key(c, fr, ev, ev->obj, "cond");
        if (mu < 0 || cv < 0 || pp_inst_sync_action(c, t, PP_A_UNLOCK, mu, 0, fr->fi, ev->id) ||
            pp_inst_sync_action(c, t, PP_A_COND_WAIT, cv, 0, fr->fi, ev->id))
            return -1;
        return pp_inst_sync_action(c, t, PP_A_LOCK, mu, 0, fr->fi, ev->id);
    }
    case PP_EV_COND_SIGNAL:
    case PP_EV_COND_BROADCAST: {
        long cv = cond_key(c, fr, ev, ev->obj, "cond");
        if (cv < 0)
            return -1;
        return pp_inst_sync_action(c, t, PP_A_COND_WAKE, cv, ev->kind == PP_EV_COND_SIGNAL, fr->fi, ev->id);
    }
    case PP_EV_SEM_WAIT:
    case PP_EV_SEM_POST: {
        long s = cond_key(c, fr, NULL, ev->obj, "sem");
        if (s < 0)
            return -1;
        return pp_inst_sync_action(c, t, ev->kind == PP_EV_SEM_WAIT ? PP_A_SEM_WAIT : PP_A_SEM_POST, s, 0,
                                   fr->fi, ev->id);
    }
    default:
        if (c->mpi && pp_evkind_is_mpi(ev->kind))
            return pp_inst_mpi_event(c, t, fr, ev, idx);
        return 0;   /* atomic, single, loop_end: no ordering in the graph */
    }
}

/* Barrier parties: the number of distinct threads that wait on a key
 * (a team barrier: the team size). */
void pp_inst_count_parties(ictx *c)
{
    pp_instance *in = c->in;
    if (c->nbarriers == 0)
        return;         /* every count stays 0: no need to read every action */
    int *last = malloc(sizeof *last * (size_t)(in->nkeys + 1));
    if (!last)
        return;
    for (int k = 0; k < in->nkeys; k++) {
        last[k] = -1;
        in->key_parties[k] = 0;
    }
    for (int t = 0; t < in->nthreads; t++)
        for (int a = 0; a < in->threads[t].nact; a++) {
            pp_action *ac = &in->threads[t].act[a];
            if (ac->kind != PP_A_BARRIER)
                continue;
            if (last[ac->key] != t) {
                last[ac->key] = t;
                in->key_parties[ac->key]++;
            }
        }
    pp_inst_vseg_parties(c);
    for (int t = 0; t < in->nthreads; t++)
        for (int a = 0; a < in->threads[t].nact; a++)
            if (in->threads[t].act[a].kind == PP_A_BARRIER)
                in->threads[t].act[a].n = in->key_parties[in->threads[t].act[a].key];
    free(last);
}
