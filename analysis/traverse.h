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
    char note[400];       /* what the user should know of them            */
} pp_trav;

/* mach == NULL: the PRAM (for MPI: a network of zero cost, messages and
 * collectives keeping only their data dependences).  Returns 0, or -1 with a message (a hang, with
 * the blocked threads and their source lines). */
int pp_traverse(const pp_prog *m, const pp_instance *in, const pp_machine *mach, pp_trav *out,
                char *err, size_t errlen);
void pp_trav_free(pp_trav *t);

#endif
