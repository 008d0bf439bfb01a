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
    int forked, done_count, master;
    double fork_time, done_max;
    ilist waiters;
} team_st;

typedef struct {
    int arrived;
    double tmax;
    ilist waiters;        /* arrival times are the waiters' blocked_at */
    int owner;            /* locks */
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

typedef struct {
    const pp_prog *m;
    const pp_instance *in;
    const pp_machine *mach;
    double *clock, *blocked_at;
    int *pc, *state;
    /* the runnable threads: a winner tree over the threads (trav-queue.c) */
    trav_node *win;
    int nleaf;
    int cur, cur_ready;       /* the thread moving; made ready again */
    int batch;                /* pushes only mark leaves (see queue_batch) */
    int *created;
    double *create_time, *done_time;
    ilist *joiners;
    team_st *teams;
    obj_st *objs;
    int active;
    unsigned char *omp_key;   /* per key: an OpenMP team barrier */
    double *scale_of;         /* compute slowdown by running threads (cache) */
    pp_trav *out;
    struct mpi_st *mpi;       /* MPI runs: messages, requests, collectives */
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
/* the runnable thread with the smallest (clock, thread), or -1 */
int pp_trav_first(const tctx *c);
/* traverse.c: t becomes runnable at its clock (on the PRAM after the
 * computation it has next, which meets no other thread there). */
void pp_trav_ready(tctx *c, int t);
void pp_trav_block(tctx *c, int t);
/* Wake t at time `at` (its action is then done: pc advances); the time
 * blocked counts as waiting. */
void pp_trav_wake(tctx *c, int t, double at);
/* "file:line (function)" of an action's site. */
const char *pp_trav_site(const tctx *c, const pp_action *a, char *buf, size_t n);

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
