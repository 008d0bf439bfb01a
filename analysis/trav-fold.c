/* trav-fold.c - a barrier's phase walked once for the threads that run it
 * alike (docs/model.md, "Barrier phases walked once").
 *
 * Threads that work between barriers (pthread workers in one long loop,
 * a hand-built barrier's parties) make, phase after phase, the same
 * actions as some of the others: the same slice, the same loops, then
 * the next barrier.  Which threads are alike changes from phase to phase
 * (a shrinking range splits the workers into two slice sizes, not always
 * the same two groups), so the instance cannot tell it once for a
 * thread's whole list, as it does for an OpenMP team's members
 * (trav-class.c); the walk can, at each release.
 *
 * When a barrier releases its waiters, those that resume at the same
 * time and whose next phase holds the same actions (compared action by
 * action) form a group.  A phase is computations, loop marks and the
 * locks of a mutex of the thread's own, up to the first other action.
 * The group's first waiter walks the phase for all of them with their
 * weight: the running threads count it that many times (processor
 * sharing) and so does a barrier it reaches.  The others are parked:
 * resumed in their figures (their own wait and synchronisation at the
 * release, as they would be) but in no queue.  When the walker reaches
 * the phase's end, each parked thread is at its own action of that
 * place, at the walker's time and in its state, with what the phase
 * added to the walker's computation, synchronisation and waiting: at a
 * barrier it arrives with the walker; elsewhere all are made ready, the
 * walker too, and the queue orders them as it would have.
 *
 * In the full walk the members of a group move at the same times: the
 * same release, the same actions at the same rates (a computation's rate
 * follows the running threads and its share of memory traffic, the same
 * for each), the same fixed costs.  Nothing they do in the phase meets
 * another thread, so walking one of them for all gives every time the
 * full walk gives (tests/e2e/99-class-walk.t compares them,
 * PERFPRED_FULL_WALK=1 turning this off).  Off with a sink (the spans
 * are each thread's own), in MPI runs and where the instance has team
 * segments (their weights are per segment).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS_MAX 16          /* groups looked for per release */

struct trav_fold {
    int *head, *next;          /* a walker's parked threads: head[walker],
                                  next[member] (-1 ends)                 */
    int *start;                /* a walker's pc at its phase's start     */
    int *end;                  /* a walker's phase's last action + 1
                                  where it is not a barrier (-1: one)   */
    double *busy0, *sync0, *wait0; /* a walker's figures there           */
    int *grp;                  /* scratch: per waiter, its group (-1)    */
    int *plen;                 /* scratch: per waiter, its phase's length */
    double *at, *own;          /* scratch: per waiter, when it resumes and
                                  its own cost of the wait              */
    int cap;
    unsigned char *own_key;    /* per object: one thread's own (a guess) */
    long phases, parked;       /* PERFPRED_CLASS_STATS                   */
};

int pp_trav_fold_init(tctx *c, int on)
{
    if (!on || c->sink || c->cls || c->m->pkind == PP_P_MPI)
        return 0;
    int n = c->in->nthreads;
    int nbar = 0;
    for (int k = 0; k < c->in->nkeys && !nbar; k++)
        nbar = c->in->key_parties && c->in->key_parties[k] > 2;
    if (!nbar)
        return 0;
    struct trav_fold *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    c->fold = f;
    c->weight = malloc(sizeof *c->weight * ((size_t)n + 1));
    f->head = malloc(sizeof *f->head * ((size_t)n + 1));
    f->next = malloc(sizeof *f->next * ((size_t)n + 1));
    f->start = calloc((size_t)n + 1, sizeof *f->start);
    f->end = calloc((size_t)n + 1, sizeof *f->end);
    f->busy0 = calloc((size_t)n + 1, sizeof(double));
    f->sync0 = calloc((size_t)n + 1, sizeof(double));
    f->wait0 = calloc((size_t)n + 1, sizeof(double));
    f->own_key = calloc((size_t)c->in->nkeys + 1, 1);
    if (!c->weight || !f->head || !f->next || !f->start || !f->end || !f->busy0 || !f->sync0 || !f->wait0 || !f->own_key)
        return -1;
    /* inst-events.c names an object it guesses per thread "guess:...@t" */
    for (int k = 0; k < c->in->nkeys; k++)
        f->own_key[k] = strncmp(c->in->keys[k], "guess:", 6) == 0;
    for (int t = 0; t <= n; t++) {
        c->weight[t] = 1;
        f->head[t] = f->next[t] = -1;
    }
    return 0;
}

void pp_trav_fold_free(tctx *c)
{
    struct trav_fold *f = c->fold;
    if (!f)
        return;
    if (getenv("PERFPRED_CLASS_STATS") && f->phases > 0)
        fprintf(stderr, "perfpred: P=%d: %ld barrier phases walked once for %ld more threads alike\n", c->in->P, f->phases,
                f->parked);
    free(c->weight);
    c->weight = NULL;
    free(f->head);
    free(f->next);
    free(f->start);
    free(f->end);
    free(f->busy0);
    free(f->sync0);
    free(f->wait0);
    free(f->grp);
    free(f->plen);
    free(f->at);
    free(f->own);
    free(f->own_key);
    free(f);
    c->fold = NULL;
}

/* Thread t's phase after its barrier action (its pc): how many actions
 * up to the one that ends it, that one included (the thread's end, one
 * past its last action, counts), or 0 where there is nothing to walk.
 * A phase holds computations and loop marks, and may lock and unlock
 * one mutex of the thread's own (an object guessed per thread, as the
 * mutex of a hand-built barrier whose object the plugin could not name
 * is), unlocked when the phase begins and when it ends: nobody else
 * waits for it.  Anything else ends it. */
static int phase_len(const tctx *c, int t)
{
    const trav_thread *th = &c->th[t];
    int lk = -1, depth = 0;
    unsigned i = (unsigned)th->pc + 1;
    for (; i < th->nact; i++) {
        const pp_action *a = &th->act[i];
        if (a->kind == PP_A_WORK || a->kind == PP_A_LOOP_WORK || a->kind == PP_A_LOOP_OPEN ||
            a->kind == PP_A_LOOP_CLOSE)
            continue;
        if (a->kind == PP_A_LOCK && lk < 0 && c->fold->own_key[a->key] && c->objs[a->key].owner < 0) {
            lk = a->key;
            depth = 1;
        } else if (a->kind == PP_A_LOCK && a->key == lk)
            depth++;
        else if (a->kind == PP_A_UNLOCK && a->key == lk && depth > 0)
            depth--;
        else
            break;
    }
    if (depth > 0 || i == (unsigned)th->pc + 1)
        return 0;
    return (int)(i - (unsigned)th->pc);
}

/* Do a's and b's phases (len actions each, phase_len's) hold the same
 * actions?  Their own mutexes are each other's counterpart; the actions
 * that end them are the same, or both end their threads. */
static int same_phase(const tctx *c, int a, int b, int len)
{
    const trav_thread *ta = &c->th[a], *tb = &c->th[b];
    const pp_action *x = ta->act + ta->pc + 1, *y = tb->act + tb->pc + 1;
    int xend = (unsigned)(ta->pc + len) >= ta->nact, yend = (unsigned)(tb->pc + len) >= tb->nact;
    if (xend != yend)
        return 0;
    for (int i = 0; i < len - xend; i++) {
        if (x[i].kind != y[i].kind || x[i].n != y[i].n || x[i].ns != y[i].ns)
            return 0;
        if (i < len - 1 && (x[i].kind == PP_A_LOCK || x[i].kind == PP_A_UNLOCK))
            continue;
        if (x[i].key != y[i].key || x[i].comm != y[i].comm)
            return 0;
    }
    return 1;
}

static int grow(struct trav_fold *f, int n)
{
    if (n <= f->cap)
        return 0;
    int cap = n * 2;
    int *g = realloc(f->grp, sizeof *g * (size_t)cap);
    if (g)
        f->grp = g;
    int *l = realloc(f->plen, sizeof *l * (size_t)cap);
    if (l)
        f->plen = l;
    double *x = realloc(f->at, sizeof *x * (size_t)cap);
    if (x)
        f->at = x;
    double *y = realloc(f->own, sizeof *y * (size_t)cap);
    if (y)
        f->own = y;
    if (!g || !l || !x || !y)
        return -1;
    f->cap = cap;
    return 0;
}

int pp_trav_fold_release(tctx *c, ilist *waiters, double tmax, int kind, double release, double bc)
{
    struct trav_fold *f = c->fold;
    int n = waiters->n;
    if (grow(f, n))
        return -1;
    const double *at = f->at, *own = f->own;
    /* each waiter's record and next actions are in no cache (at a
     * hundred threads and more): asked for a few waiters ahead */
    for (int i = 0; i < n && i < 16; i++)
        __builtin_prefetch(&c->th[waiters->v[i]]);
    for (int i = 0; i < n; i++) {
        if (i + 16 < n)
            __builtin_prefetch(&c->th[waiters->v[i + 16]]);
        if (i + 8 < n) {
            const trav_thread *ahead = &c->th[waiters->v[i + 8]];
            __builtin_prefetch(&ahead->act[ahead->pc + 1]);
        }
        int w = waiters->v[i];
        double wk = pp_trav_wakeup_ns(c, kind, tmax - c->th[w].blocked_at, tmax);
        /* the barrier cost and the wake-up are not waiting */
        f->at[i] = release + wk;
        f->own[i] = c->mach ? bc + wk : 0;
    }
    /* the groups: each waiter against the first of each group so far */
    int rep[GROUPS_MAX], size[GROUPS_MAX], ng = 0;
    for (int i = 0; i < n; i++) {
        int w = waiters->v[i];
        f->grp[i] = -1;
        f->plen[i] = phase_len(c, w);
        if (f->plen[i] == 0)
            continue;
        int g = 0;
        for (; g < ng; g++) {
            int r = rep[g];
            if (at[r] == at[i] && f->plen[r] == f->plen[i] && same_phase(c, waiters->v[r], w, f->plen[i]))
                break;
        }
        if (g == ng) {
            if (ng == GROUPS_MAX)
                continue;
            rep[ng] = i;
            size[ng++] = 0;
        }
        f->grp[i] = g;
        size[g]++;
    }
    for (int i = 0; i < n; i++) {
        int w = waiters->v[i], g = f->grp[i];
        if (g < 0 || size[g] == 1) {
            pp_trav_resume(c, w, at[i], own[i], PP_TR_SYNC, PP_TR_WAIT);
            continue;
        }
        int r = waiters->v[rep[g]];
        if (w == r) {
            /* the walker: its figures once resumed (as pp_trav_resume
             * adds them), from which the phase's are taken */
            double from = c->th[w].blocked_at, to = at[i] > c->th[w].clock ? at[i] : c->th[w].clock;
            double o = own[i] > to - from ? to - from : own[i];
            const trav_thread *th = &c->th[w];
            f->busy0[w] = c->out->busy[w];
            f->sync0[w] = c->out->sync[w] + o;
            f->wait0[w] = c->out->wait[w] + ((to - o) - from);
            f->start[w] = th->pc + 1;
            unsigned e = (unsigned)(th->pc + f->plen[i]);
            f->end[w] = e < th->nact && th->act[e].kind == PP_A_BARRIER ? -1 : (int)e;
            c->weight[w] = size[g];
            f->phases++;
            pp_trav_resume(c, w, at[i], own[i], PP_TR_SYNC, PP_TR_WAIT);
            continue;
        }
        /* parked: resumed in its figures, walked by r */
        if (at[i] > c->th[w].clock)
            c->th[w].clock = at[i];
        double from = c->th[w].blocked_at, to = c->th[w].clock;
        double o = own[i] > to - from ? to - from : own[i];
        c->out->sync[w] += o;
        c->out->wait[w] += (to - o) - from;
        c->th[w].pc++;
        f->next[w] = f->head[r];
        f->head[r] = w;
        f->parked++;
    }
    return 0;
}

/* Walker t's parked threads reach the end of the phase with it: at its
 * clock and in its state, their own figures plus the phase's.  Each is
 * passed to put (a barrier's list, or the queue); -1 out of memory. */
static int unpark(tctx *c, int t, ilist *waiters)
{
    struct trav_fold *f = c->fold;
    const trav_thread *th = &c->th[t];
    int len = th->pc - f->start[t];
    double db = c->out->busy[t] - f->busy0[t], ds = c->out->sync[t] - f->sync0[t];
    double dw = c->out->wait[t] - f->wait0[t];
    for (int m = f->head[t], nx; m >= 0; m = nx) {
        nx = f->next[m];
        f->next[m] = -1;
        trav_thread *mt = &c->th[m];
        mt->pc += len;
        mt->clock = th->clock;
        mt->seg_paid = th->seg_paid;
        c->out->busy[m] += db;
        c->out->sync[m] += ds;
        c->out->wait[m] += dw;
        if (waiters) {
            mt->blocked_at = th->blocked_at;
            if (ilist_push(waiters, m))
                return -1;
        } else {
            /* running again, each its own weight: the running count
             * stays what the walker's weight made it */
            mt->state = TS_RUN;
            pp_trav_ready(c, m);
        }
    }
    f->head[t] = -1;
    f->end[t] = -1;
    c->weight[t] = 1;
    return 0;
}

int pp_trav_fold_arrive(tctx *c, int t, ilist *waiters)
{
    return c->fold->head[t] < 0 ? 0 : unpark(c, t, waiters);
}

int pp_trav_fold_due(const tctx *c, int t)
{
    const struct trav_fold *f = c->fold;
    return f->head[t] >= 0 && c->th[t].pc == f->end[t];
}

void pp_trav_fold_end(tctx *c, int t)
{
    (void)unpark(c, t, NULL);
}
