/* trav-internal.h - what the traversal's parts share: its state, the
 * queue of runnable threads, blocking and waking (traverse.c), and the MPI
 * part (trav-mpi.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TRAV_INTERNAL_H
#define PERFPRED_TRAV_INTERNAL_H

#include "traverse.h"

#include <stdint.h>
#include <stdlib.h>

enum { TS_RUN, TS_BLOCKED, TS_DONE };

typedef struct {
    int n, cap;
    int *v;
} ilist;

static inline int ilist_push(ilist *l, int x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        int *nv = realloc(l->v, sizeof *nv * (size_t)cap);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

typedef struct {
    int forked, done_count, master, forker;
    double fork_time, done_max;
    ilist waiters;
    /* the join: when every member had arrived (ended); the members for
     * which it is the last team (they wait for the others until then) */
    int ended;
    double end;
    ilist members;
} team_st;

typedef struct {
    int arrived;
    double tmax;
    ilist waiters;        /* arrival times are the waiters' blocked_at */
    int owner;            /* locks */
    int depth;            /* times the owner locked it again */
    ilist queue;
    int qhead;
} obj_st;

/* A node of the queue's tree (trav-queue.c): a thread and its clock, as an
 * integer in the clock's order.  With 128-bit integers, one integer
 * (clock in the high half, thread in the low) that compares in one go. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 trav_node;
#else
typedef struct {
    uint64_t key;
    int t;
} trav_node;
#endif

/* What the walk reads and writes of a thread at nearly every step, in
 * one place: at 10^4 ranks and more a separate array per field was a
 * cache miss per field per step. */
typedef struct {
    double clock;             /* its time                                  */
    double blocked_at;        /* when it blocked (TS_BLOCKED)              */
    const pp_action *act;     /* its actions (in->threads[t]'s, copied: a
                                 step then reads one record of the thread,
                                 not two)                                 */
    int pc;                   /* its next action                           */
    /* (bit-fields: the record in 32 bytes, two to a cache line; an
     * instance has at most 60 million actions, inst-actions.c, and the
     * walk refuses a thread of 2^29 or more) */
    unsigned nact : 29;       /* how many actions it has                   */
    unsigned state : 2;       /* TS_RUN, TS_BLOCKED, TS_DONE               */
    unsigned seg_paid : 1;    /* the real machine: its next event's fixed
                                 cost is paid (pay_segment)               */
} trav_thread;

typedef struct {
    const pp_prog *m;
    const pp_instance *in;
    const pp_machine *mach;
    trav_thread *th;          /* per thread */
    /* the runnable threads: a winner tree over the threads (trav-queue.c) */
    trav_node *win;
    int nleaf;
    int cur, cur_ready;       /* the thread moving; made ready again */
    int batch;                /* pushes only mark leaves (see queue_batch) */
    int *created;
    int *last_team;           /* per thread: the team it was last done with */
    double *create_time, *done_time;
    ilist *joiners;
    team_st *teams;
    obj_st *objs;
    int active;
    unsigned char *omp_key;   /* per key: an OpenMP team barrier */
    double *scale_of;         /* compute slowdown by running threads (cache) */
    double *mscale_of;        /* memory-streaming slowdown, likewise         */
    struct trav_work *work;   /* open computations (trav-work.c); NULL for
                                 the PRAM                                 */
    double now;               /* the walk's time: the moving thread's clock
                                 when it was picked                        */
    pp_trav *out;
    pp_trav_sink *sink;       /* NULL: nobody is told the spans (traverse.h) */
    struct mpi_st *mpi;       /* MPI runs: messages, requests, collectives */
    /* the real machine: the fitted fixed cost of a segment, charged as
     * synchronisation before each event (0 on the PRAM; traverse.c,
     * pay_segment) */
    double seg_ns;
    /* PP_INST_CLASSES (trav-class.c; NULL without): per thread, the
     * members it walks for (1: itself) */
    int *weight;
    struct trav_class *cls;
    /* barrier phases walked once for the threads alike (trav-fold.c;
     * NULL: off); it uses weight too */
    struct trav_fold *fold;
    char *err;                /* where step() writes a model error         */
    size_t errlen;
} tctx;

/* trav-queue.c: the runnable threads in (clock, thread) order.  A thread
 * is in the queue or not; its clock must not change while it is in.  The
 * loop: t = pp_trav_first(), c->cur = t, t's step (which makes t ready
 * again unless it blocks or ends), pp_trav_settle(t). */
int pp_trav_queue_init(tctx *c);
void pp_trav_queue_free(tctx *c);
/* t is in the queue at its clock (see pp_trav_ready) */
void pp_trav_queue_push(tctx *c, int t);
/* after the step of t = c->cur: t back in at its new clock if it was made
 * ready, out otherwise */
void pp_trav_settle(tctx *c, int t);
/* on: the pushes that follow only mark their threads; off: the tree is
 * rebuilt from all its leaves (cheaper when most threads come back at
 * once, as at the end of a collective) */
void pp_trav_queue_batch(tctx *c, int on);
/* t (in the queue) has a new clock */
void pp_trav_queue_update(tctx *c, int t);
/* the runnable thread with the smallest (clock, thread), or -1 */
int pp_trav_first(const tctx *c);
/* traverse.c: t becomes runnable at its clock (on the PRAM after the
 * computation it has next, which meets no other thread there). */
void pp_trav_ready(tctx *c, int t);
void pp_trav_block(tctx *c, int t);
/* Wake t at time `at` (its action is then done: pc advances).  Of the time
 * it was blocked, the last `own` is its own cost (cat_own: PP_TR_SYNC or
 * PP_TR_COMM, added to out->sync), the rest waiting (cat_wait: PP_TR_WAIT
 * or PP_TR_IDLE, added to out->wait). */
void pp_trav_resume(tctx *c, int t, double at, double own, pp_trcat cat_own, pp_trcat cat_wait);

/* Thread t spends [t0, t1) in cat at its current action: the sink's. */
static inline void pp_trav_span(tctx *c, int t, pp_trcat cat, double t0, double t1)
{
    if (__builtin_expect(c->sink != NULL, 0) && t1 > t0)
        c->sink->span(c->sink, t, c->th[t].pc, cat, t0, t1);
}
static inline void pp_trav_flow(tctx *c, pp_flkind k, int from, double t_from, int to, double t_to)
{
    if (__builtin_expect(c->sink != NULL, 0) && c->sink->flow)
        c->sink->flow(c->sink, k, from, t_from, to, t_to);
}
/* "file:line (function)" of an action's site. */
const char *pp_trav_site(const tctx *c, const pp_action *a, char *buf, size_t n);

/* trav-work.c: threads' computations whose rate follows the threads
 * running at once (processor sharing). */
int pp_trav_work_init(tctx *c, int n);
void pp_trav_work_free(tctx *c);
/* The slowdown of a computation with a share mem (0..1) of memory traffic
 * beyond the last cache level when act threads run at once. */
double pp_trav_work_scale(tctx *c, int act, double mem);
/* Thread t (moving) starts ns of computation (one thread alone) at its
 * clock; its clock becomes its end at the current rate.  -1: out of
 * memory. */
int pp_trav_work_open(tctx *c, int t, double ns, double mem);
/* Thread t moves again: its open computation, if any, is over. */
void pp_trav_work_done(tctx *c, int t);
/* The threads running at once change by delta (c->active) at c->now: the
 * open computations run on at the new rate. */
void pp_trav_work_set_active(tctx *c, int delta);

/* trav-class.c: segments walked once for the members they stand for
 * (PP_INST_CLASSES).  init: nothing without such segments (c->weight
 * stays NULL), -1 out of memory; enter: thread t meets the TEAM_WAIT a
 * (before its fixed cost); weight: what t weighs from there on; leave:
 * t's TEAM_DONE of that segment, whose figures go to its members;
 * finish: the members' figures, after the walk. */
int pp_trav_class_init(tctx *c);
void pp_trav_class_free(tctx *c);
void pp_trav_class_enter(tctx *c, int t, const pp_action *a);
int pp_trav_class_weight(const tctx *c, int t);
void pp_trav_class_leave(tctx *c, int t);
void pp_trav_class_finish(tctx *c);

/* the threads thread t walks for */
static inline int pp_trav_weight(const tctx *c, int t)
{
    return __builtin_expect(c->weight != NULL, 0) ? c->weight[t] : 1;
}

/* traverse.c: the wake-up latency of a thread of a barrier or join kind
 * (PP_SYNC_*) that waited `waited` until `at` (0 on the PRAM) */
double pp_trav_wakeup_ns(const tctx *c, int kind, double waited, double at);

/* trav-fold.c: a barrier's phase walked once for the waiters that
 * resume together and run it alike.  init: on where `on` (not the full
 * walk) and the walk allows it, else nothing; -1 out of memory.
 * release: the barrier's waiters (the last came at tmax) resumed at
 * release plus each one's wake-up (bc + the wake-up their own cost),
 * the groups' first walking for the others (-1 out of memory); arrive:
 * t reached a barrier: where it walked a phase for others, they arrive
 * there too (added to waiters; -1 out of memory).  due: t, at its
 * step, has walked its phase for others to an end that is not a
 * barrier; end: they are made ready there, each on its own again. */
int pp_trav_fold_init(tctx *c, int on);
void pp_trav_fold_free(tctx *c);
int pp_trav_fold_release(tctx *c, ilist *waiters, double tmax, int kind, double release, double bc);
int pp_trav_fold_arrive(tctx *c, int t, ilist *waiters);
int pp_trav_fold_due(const tctx *c, int t);
void pp_trav_fold_end(tctx *c, int t);
/* The same for a collective: arrive_list gives the threads t walked for
 * (brought to their collective, blocked; NULL out of memory); the
 * release is begin (room for n, -1 out of memory), add (the i-th: thread
 * t resumes at `at`, own of its wait its own cost) and resume (the n
 * added, grouped; -1 out of memory). */
const ilist *pp_trav_fold_arrive_list(tctx *c, int t);
int pp_trav_fold_begin(tctx *c, int n);
void pp_trav_fold_add(tctx *c, int i, int t, double at, double own);
int pp_trav_fold_resume(tctx *c, int n);

/* trav-mpi.c */
int pp_trav_mpi_init(tctx *c);
void pp_trav_mpi_free(tctx *c);
/* One MPI action (PP_A_SEND .. PP_A_COLL) of thread t: 0, or -1 with a
 * message in c->err (out of memory, ranks disagreeing on a collective). */
int pp_trav_mpi_step(tctx *c, int t, const pp_action *a);
/* The hang report when MPI ranks are blocked (err: its start). */
void pp_trav_mpi_hang(tctx *c, char *err, size_t errlen);
/* After a complete traversal: messages never received (the note). */
void pp_trav_mpi_finish(tctx *c);

#endif
