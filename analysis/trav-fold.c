/* trav-fold.c - a barrier's or a collective's phase walked once for the
 * threads that run it alike (docs/model.md, "Barrier phases walked
 * once").
 *
 * Threads that work between barriers (pthread workers in one long loop,
 * a hand-built barrier's parties) and MPI ranks between collectives make,
 * phase after phase, the same actions as some of the others: the same
 * slice, the same loops, then the next barrier or call.  Which threads
 * are alike changes from phase to phase (a shrinking range splits the
 * workers into two slice sizes, not always the same two groups; a
 * broadcast's tree releases the ranks at a few dozen distinct times), so
 * the instance cannot tell it once for a thread's whole list, as it does
 * for an OpenMP team's members (trav-class.c); the walk can, at each
 * release.
 *
 * When a barrier or a collective releases its threads, those that resume
 * at the same time and whose next phase holds the same actions (compared
 * action by action; found through a hash of the time and the actions)
 * form a group.  A phase is computations, loop marks and the locks of a
 * mutex of the thread's own, up to the first other action.  The group's
 * first thread walks the phase for all of them with their weight: the
 * running threads count it that many times (processor sharing) and so
 * does a barrier it reaches.  The others are parked: resumed in their
 * figures (their own wait and synchronisation at the release, as they
 * would be) but in no queue.  When the walker reaches the phase's end,
 * each parked thread is at its own action of that place, at the
 * walker's time and in its state, with what the phase added to the
 * walker's computation, synchronisation and waiting: at a barrier or a
 * collective it arrives with the walker; elsewhere all are made ready,
 * the walker too, and the queue orders them as it would have.
 *
 * In the full walk the members of a group move at the same times: the
 * same release, the same actions at the same rates (a computation's rate
 * follows the running threads and its share of memory traffic, the same
 * for each), the same fixed costs.  Nothing they do in the phase meets
 * another thread, so walking one of them for all gives every time the
 * full walk gives (tests/e2e/99-class-walk.t and 99-rank-classes.t
 * compare them, PERFPRED_FULL_WALK=1 turning this off).  Off with a sink
 * (the spans are each thread's own) and where the instance has team
 * segments (their weights are per segment).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAR 16                /* groups looked for before the hash */

/* A thread walking a phase for others (a few at a time: a record
 * each, not arrays over the threads, which at 10^6 ranks are 8 MB per
 * double) */
typedef struct {
    ilist mem;                 /* its parked threads, in the release's
                                  order (an array: walked with their
                                  records asked for ahead)              */
    int start;                 /* its pc at the phase's start            */
    int end;                   /* the phase's end where it is not a
                                  barrier or a collective (-1: one)     */
    double busy0, sync0, wait0;/* its figures there                      */
    int next_free;             /* in the free list                       */
} walker;

struct trav_fold {
    int *wslot;                /* per thread: its walker record, or -1   */
    walker *wk;
    int nwk, capwk, free_wk;   /* the records, the first free one (-1)   */
    /* scratch, per thread released (cap of them): its group (release's
     * note), its phase's length, the thread, when it resumes and its
     * own cost of the wait; the groups' hash table (room for 4 cap) */
    int *grp, *plen, *who;
    double *at, *own;
    int cap;
    int *slot;
    ilist arrived;             /* pp_trav_fold_arrive_list's */
    unsigned char *own_key;    /* per object: one thread's own (a guess) */
    long phases, parked;       /* PERFPRED_CLASS_STATS                   */
};

int pp_trav_fold_init(tctx *c, int on)
{
    if (!on || c->sink || c->cls)
        return 0;
    int n = c->in->nthreads;
    int nbar = c->m->pkind == PP_P_MPI && n > 2;
    for (int k = 0; k < c->in->nkeys && !nbar; k++)
        nbar = c->in->key_parties && c->in->key_parties[k] > 2;
    if (!nbar)
        return 0;
    struct trav_fold *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    c->fold = f;
    c->weight = malloc(sizeof *c->weight * ((size_t)n + 1));
    f->wslot = malloc(sizeof *f->wslot * ((size_t)n + 1));
    f->free_wk = -1;
    f->own_key = calloc((size_t)c->in->nkeys + 1, 1);
    if (!c->weight || !f->wslot || !f->own_key)
        return -1;
    /* inst-events.c names an object it guesses per thread "guess:...@t" */
    for (int k = 0; k < c->in->nkeys; k++)
        f->own_key[k] = strncmp(c->in->keys[k], "guess:", 6) == 0;
    for (int t = 0; t <= n; t++) {
        c->weight[t] = 1;
        f->wslot[t] = -1;
    }
    return 0;
}

void pp_trav_fold_free(tctx *c)
{
    struct trav_fold *f = c->fold;
    if (!f)
        return;
    if (getenv("PERFPRED_CLASS_STATS") && f->phases > 0)
        fprintf(stderr, "perfpred: P=%d: %ld phases after a barrier or collective walked once for %ld more "
                "threads alike\n", c->in->P, f->phases, f->parked);
    free(c->weight);
    c->weight = NULL;
    for (int k = 0; k < f->nwk; k++)
        free(f->wk[k].mem.v);
    free(f->wk);
    free(f->wslot);
    free(f->grp);
    free(f->plen);
    free(f->who);
    free(f->slot);
    free(f->arrived.v);
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
    if (x == y)
        return 1;               /* one list (ranks of a class share theirs) */
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

/* p (an lvalue) with room for n of its elements: 0, or -1 out of
 * memory (p kept); q, a void * of the caller's, holds the new block */
#define RESIZE(p, n, q) ((q) = realloc((p), sizeof *(p) * (size_t)(n)), (q) ? ((p) = (q), 0) : -1)

static int grow(struct trav_fold *f, int n)
{
    if (n <= f->cap)
        return 0;
    /* a barrier's or a communicator's size is the same each time: the
     * first is taken as it is (at 10^6 ranks, each int of room per
     * thread is 4 MB) */
    int cap = f->cap == 0 ? n : n > 2 * f->cap ? n : 2 * f->cap, bits = 1;
    while ((1 << bits) < 2 * cap)
        bits++;
    void *q;
    if (RESIZE(f->grp, cap, q) || RESIZE(f->plen, cap, q) || RESIZE(f->who, cap, q) || RESIZE(f->at, cap, q) ||
        RESIZE(f->own, cap, q) || RESIZE(f->slot, (size_t)1 << bits, q))
        return -1;
    f->cap = cap;
    return 0;
}

/* A free walker record's index, or -1 out of memory */
static int new_walker(struct trav_fold *f)
{
    if (f->free_wk >= 0) {
        int k = f->free_wk;
        f->free_wk = f->wk[k].next_free;
        return k;
    }
    if (f->nwk == f->capwk) {
        int cap = f->capwk ? 2 * f->capwk : 16;
        walker *w = realloc(f->wk, sizeof *w * (size_t)cap);
        if (!w)
            return -1;
        f->wk = w;
        f->capwk = cap;
    }
    f->wk[f->nwk].mem = (ilist){0, 0, NULL};
    return f->nwk++;
}

/* A hash of a phase's actions (len of them from x; a thread's own mutex
 * counted as any) */
static uint64_t phase_hash(const pp_action *x, int len)
{
    uint64_t h = 1469598103934665603u, u;
    for (int i = 0; i < len; i++) {
        memcpy(&u, &x[i].ns, sizeof u);
        h = (h ^ ((uint64_t)x[i].kind << 32 | (uint32_t)x[i].n)) * 1099511628211u;
        h = (h ^ u) * 1099511628211u;
        if (x[i].kind != PP_A_LOCK && x[i].kind != PP_A_UNLOCK)
            h = (h ^ ((uint64_t)(uint32_t)x[i].key << 32 | (uint32_t)x[i].comm)) * 1099511628211u;
    }
    return h;
}

/* ... with the time and the length: what makes a group */
static unsigned group_hash(uint64_t ph, double at, int len)
{
    uint64_t h = ph, u;
    memcpy(&u, &at, sizeof u);
    h = (h ^ u) * 1099511628211u;
    h = (h ^ (uint64_t)len) * 1099511628211u;
    /* a multiply carries only upwards: the low bits (the slot's) from
     * all of them (MurmurHash3's finaliser) */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return (unsigned)h;
}

/* The threads who[0..n) released: thread who[i] at at[i], own[i] of its
 * wait its own cost (cat_own), grouped and resumed.  grp[i]: -1, not to
 * be grouped (nothing to walk); i, the first of its group, alone so far;
 * r < i, in r's group; -2 - i, the first of a group of two or more. */
static int release(tctx *c, int n, pp_trcat cat_own)
{
    struct trav_fold *f = c->fold;
    const int *who = f->who;
    const double *at = f->at, *own = f->own;
    int bits = 1;
    while ((1 << bits) < 2 * n)
        bits++;
    unsigned mask = (1u << bits) - 1;
    memset(f->slot, -1, sizeof *f->slot * ((size_t)mask + 1));
    /* each one's record and next actions are in no cache (at a hundred
     * threads and more): asked for a few ahead */
    for (int i = 0; i < n && i < 16; i++)
        __builtin_prefetch(&c->th[who[i]]);
    struct near {
        double at;
        const pp_action *x;
        int len, i;
    } near[NEAR];
    int nnear = 0;
    const pp_action *last = NULL;   /* the previous one's phase, its hash */
    int last_len = 0;
    uint64_t last_ph = 0;
    for (int i = 0; i < n; i++) {
        if (i + 16 < n)
            __builtin_prefetch(&c->th[who[i + 16]]);
        if (i + 8 < n) {
            const trav_thread *ahead = &c->th[who[i + 8]];
            __builtin_prefetch(&ahead->act[ahead->pc + 1]);
        }
        int w = who[i];
        f->grp[i] = -1;
        f->plen[i] = phase_len(c, w);
        if (f->plen[i] == 0)
            continue;
        /* the group: among the first groups made (a release makes a
         * few dozen, mostly), held here; else the first in the hash's
         * slots that holds the same; else a free slot, a new group */
        const trav_thread *th = &c->th[w];
        const pp_action *x = th->act + th->pc + 1;
        int len = f->plen[i], r = -1;
        for (int k = 0; k < nnear; k++)
            if (near[k].at == at[i] && near[k].len == len &&
                (near[k].x == x || same_phase(c, who[near[k].i], w, len))) {
                r = near[k].i;
                break;
            }
        if (r < 0) {
            if (x != last || len != last_len) {
                last = x;
                last_len = len;
                last_ph = phase_hash(x, len - ((unsigned)(th->pc + len) >= th->nact));
            }
            unsigned h = group_hash(last_ph, at[i], len) & mask;
            for (;; h = (h + 1) & mask) {
                int q = f->slot[h];
                if (q < 0) {
                    f->slot[h] = i;
                    break;
                }
                if (at[q] == at[i] && f->plen[q] == len && same_phase(c, who[q], w, len)) {
                    r = q;
                    break;
                }
            }
        }
        if (r < 0) {
            f->grp[i] = i;
            if (nnear < NEAR)
                near[nnear++] = (struct near){at[i], x, len, i};
        } else {
            f->grp[i] = r;
            f->grp[r] = -2 - r;         /* a group of two or more */
        }
    }
    for (int i = 0; i < n; i++) {
        int w = who[i], g = f->grp[i];
        if (g == i || g == -1) {
            pp_trav_resume(c, w, at[i], own[i], cat_own, PP_TR_WAIT);
            continue;
        }
        if (g <= -2) {
            /* the walker: its figures once resumed (as pp_trav_resume
             * adds them), from which the phase's are taken; its weight
             * counted when its members are parked (they come after) */
            double from = c->th[w].blocked_at, to = at[i] > c->th[w].clock ? at[i] : c->th[w].clock;
            double o = own[i] > to - from ? to - from : own[i];
            const trav_thread *th = &c->th[w];
            int k = new_walker(f);
            if (k < 0)
                return -1;
            walker *wr = &f->wk[k];
            f->wslot[w] = k;
            wr->busy0 = c->out->busy[w];
            wr->sync0 = c->out->sync[w] + o;
            wr->wait0 = c->out->wait[w] + ((to - o) - from);
            wr->start = th->pc + 1;
            unsigned e = (unsigned)(th->pc + f->plen[i]);
            wr->end = e < th->nact && (th->act[e].kind == PP_A_BARRIER || th->act[e].kind == PP_A_COLL)
                          ? -1 : (int)e;
            c->weight[w] = 1;
            f->phases++;
            continue;
        }
        /* parked: resumed in its figures, walked by the group's first */
        int r = who[g];
        if (at[i] > c->th[w].clock)
            c->th[w].clock = at[i];
        double from = c->th[w].blocked_at, to = c->th[w].clock;
        double o = own[i] > to - from ? to - from : own[i];
        c->out->sync[w] += o;
        c->out->wait[w] += (to - o) - from;
        c->th[w].pc++;
        if (ilist_push(&f->wk[f->wslot[r]].mem, w))
            return -1;
        c->weight[r]++;
        f->parked++;
    }
    /* the walkers, now of their weight */
    for (int i = 0; i < n; i++)
        if (f->grp[i] <= -2)
            pp_trav_resume(c, who[i], at[i], own[i], cat_own, PP_TR_WAIT);
    return 0;
}

int pp_trav_fold_release(tctx *c, ilist *waiters, double tmax, int kind, double rel, double bc)
{
    struct trav_fold *f = c->fold;
    int n = waiters->n;
    if (grow(f, n))
        return -1;
    for (int i = 0; i < n; i++) {
        int w = waiters->v[i];
        double wk = pp_trav_wakeup_ns(c, kind, tmax - c->th[w].blocked_at, tmax);
        /* the barrier cost and the wake-up are not waiting */
        f->who[i] = w;
        f->at[i] = rel + wk;
        f->own[i] = c->mach ? bc + wk : 0;
    }
    return release(c, n, PP_TR_SYNC);
}

int pp_trav_fold_begin(tctx *c, int n)
{
    if (grow(c->fold, n))
        return -1;
    return 0;
}

void pp_trav_fold_add(tctx *c, int i, int t, double at, double own)
{
    struct trav_fold *f = c->fold;
    f->who[i] = t;
    f->at[i] = at;
    f->own[i] = own;
}

int pp_trav_fold_resume(tctx *c, int n)
{
    return release(c, n, PP_TR_COMM);
}

/* Walker t's parked threads reach the end of the phase with it: at its
 * clock and in its state, their own figures plus the phase's.  Each is
 * passed to put (a barrier's list, or the queue); -1 out of memory. */
static int unpark(tctx *c, int t, ilist *waiters)
{
    struct trav_fold *f = c->fold;
    const trav_thread *th = &c->th[t];
    int k = f->wslot[t];
    walker *wr = &f->wk[k];
    int len = th->pc - wr->start;
    double db = c->out->busy[t] - wr->busy0, ds = c->out->sync[t] - wr->sync0;
    double dw = c->out->wait[t] - wr->wait0;
    const ilist *ms = &wr->mem;
    pp_trav *out = c->out;
    for (int i = 0; i < ms->n; i++) {
        if (i + 8 < ms->n) {
            /* scattered over the threads (every so many ranks): each
             * array's line asked for ahead */
            int a = ms->v[i + 8];
            __builtin_prefetch(&c->th[a], 1);
            __builtin_prefetch(&out->busy[a], 1);
            __builtin_prefetch(&out->sync[a], 1);
            __builtin_prefetch(&out->wait[a], 1);
        }
        int m = ms->v[i];
        trav_thread *mt = &c->th[m];
        mt->pc += len;
        mt->clock = th->clock;
        mt->seg_paid = th->seg_paid;
        out->busy[m] += db;
        out->sync[m] += ds;
        out->wait[m] += dw;
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
    wr->mem.n = 0;
    if (wr->mem.cap > 4096) {
        /* a big group's list goes: kept by every record that ever held
         * one, they would add up to many times the threads */
        free(wr->mem.v);
        wr->mem = (ilist){0, 0, NULL};
    }
    wr->next_free = f->free_wk;
    f->free_wk = k;
    f->wslot[t] = -1;
    c->weight[t] = 1;
    return 0;
}

int pp_trav_fold_arrive(tctx *c, int t, ilist *waiters)
{
    return c->fold->wslot[t] < 0 ? 0 : unpark(c, t, waiters);
}

const ilist *pp_trav_fold_arrive_list(tctx *c, int t)
{
    struct trav_fold *f = c->fold;
    f->arrived.n = 0;
    if (f->wslot[t] >= 0 && unpark(c, t, &f->arrived))
        return NULL;
    return &f->arrived;
}

int pp_trav_fold_due(const tctx *c, int t)
{
    const struct trav_fold *f = c->fold;
    return f->wslot[t] >= 0 && c->th[t].pc == f->wk[f->wslot[t]].end;
}

void pp_trav_fold_end(tctx *c, int t)
{
    (void)unpark(c, t, NULL);
}
