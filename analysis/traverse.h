/* traverse.h - walk an instance's thread graph in global-clock order and
 * give its execution time on the PRAM (no synchronisation cost, no
 * contention; critical sections still serialise) or on a real machine
 * (the machine file's costs, and the slowdown of threads that run at
 * once).  A thread graph that cannot finish (a barrier not all parties
 * reach, a join of a thread that never ends) is reported as a hang with
 * the threads and sites involved, not given a time.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TRAVERSE_H
#define PERFPRED_TRAVERSE_H

#include "machine.h"
#include "model.h"

typedef struct {
    double time;          /* when the last thread finished (ns)           */
    int nthreads;
    double *busy;         /* per thread: computation (ns)                 */
    double *wait;         /* per thread: blocked in synchronisation       */
    double *sync;         /* per thread: cost of the synchronisation calls */
    double *finish;       /* per thread: finish time                      */
    double total_busy, total_wait, total_sync;
    /* MPI: time inside MPI calls (waiting included), per thread, in all,
     * and summed by the call's kind (pp_evkind: bcast, send, ...) */
    double *mpi;
    double total_mpi;
    double mpi_kind[PP_EV_OTHER + 1];
    long unmatched;       /* messages sent and never received             */
    long spurious;        /* cond var / semaphore waits released where the
                             walk would have hung (traverse.c)             */
    char note[400];       /* what the user should know of them            */
} pp_trav;

/* mach == NULL: the PRAM (for MPI: a network of zero cost, messages and
 * collectives keeping only their data dependences).  Returns 0, or -1 with a message (a hang, with
 * the blocked threads and their source lines). */
int pp_traverse(const pp_prog *m, const pp_instance *in, const pp_machine *mach, pp_trav *out,
                char *err, size_t errlen);

/* What a thread does with its time (predict --by, timeline):
 *   WORK  computation (the slowdown of the real machine included);
 *   COMM  MPI: the network's cost to the rank inside a call (overheads,
 *         bytes x G, its part of a collective's algorithm);
 *   SYNC  the machine's cost of a synchronisation call (fork/join, barrier,
 *         lock, hand-off, wake-up, create, join);
 *   WAIT  blocked: at a barrier, a join, a lock, for a message, in a
 *         collective, in MPI_Wait;
 *   IDLE  no work: before its fork or create releases it, between a pool
 *         thread's teams, and after it ends (the sink does not see the last:
 *         from pp_trav.finish to pp_trav.time).
 * pp_trav's totals are these spans' sums: busy = WORK, sync = SYNC + COMM,
 * wait = WAIT + IDLE (before the end); mpi = the spans of MPI actions. */
typedef enum { PP_TR_WORK, PP_TR_COMM, PP_TR_SYNC, PP_TR_WAIT, PP_TR_IDLE, PP_TR_NCAT } pp_trcat;
/* Flows: a message (send posted -> receive done), a fork (the fork's
 * end -> a team member starts), a create (-> the thread starts), a rooted
 * collective (bcast, scatter: the root's arrival -> a member's release;
 * reduce, gather: a member's arrival -> the root's release). */
typedef enum { PP_FL_MESSAGE, PP_FL_FORK, PP_FL_CREATE, PP_FL_COLLECTIVE } pp_flkind;

typedef struct pp_trav_sink {
    /* thread t spent [t0, t1) (t1 > t0) in cat, at action `act` of its
     * list (the one it was doing: for WORK, the WORK action) */
    void (*span)(struct pp_trav_sink *s, int t, int act, pp_trcat cat, double t0, double t1);
    /* may be NULL */
    void (*flow)(struct pp_trav_sink *s, pp_flkind kind, int from, double t_from, int to, double t_to);
} pp_trav_sink;

/* The same, every span of time and every flow told to sink (NULL: none,
 * and the same as pp_traverse).  The times are the same either way. */
int pp_traverse_sink(const pp_prog *m, const pp_instance *in, const pp_machine *mach, pp_trav *out,
                     pp_trav_sink *sink, char *err, size_t errlen);
void pp_trav_free(pp_trav *t);

#endif
