/* record.h - a run's record (docs/record-format.md), read and checked.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RECORD_H
#define PERFPRED_RECORD_H

#include <stdint.h>
#include "desc.h"

typedef struct {
    int func, slot;
    int64_t delta;
} pp_rdelta;

typedef struct {
    int thread, n, func, site;    /* func = -1 for runtime events         */
    pp_evkind kind;
    uint64_t t0, t1;
    uint64_t c0, c1;              /* thread CPU time at t0, t1 (has_cpu)  */
    int has_cpu;
    uint64_t obj;
    int child, team, tid, nthreads;
    long result;
    int ndelta;
    pp_rdelta *delta;
    /* MPI: ranks in the communicator; has_msg: peer, tag; -1 when absent */
    int has_msg, peer, tag, root, rpeer, rtag, comm, count;
    int64_t bytes, rbytes;        /* -1 when absent                       */
    /* comm_id: 0 MPI_COMM_WORLD, K the K-th communicator the rank made
     * (comm=cK), -1 another or absent.  comm_split (peer = color, tag =
     * key), comm_dup: newcomm = K (0: MPI_COMM_NULL, -1 absent), with the
     * rank's rank and the size in it */
    int comm_id, newcomm, new_rank, new_size;
} pp_rev;

typedef enum { PP_T_MAIN, PP_T_PTHREAD, PP_T_OMP, PP_T_OTHER } pp_tkind;

typedef struct {
    int id;
    pp_tkind kind;
    int parent;
    int site_func, site_id;       /* pthread: creating event site         */
    int order;
    int tid;                      /* omp: the thread number in its team   */
    long arg;
    int nthreads;
    uint64_t start, end;
    uint64_t **counts;            /* [func][slot], NULL when no count line */
    int nev;                      /* its events, in order                 */
    pp_rev **ev;
    uint64_t tail_t;
    uint64_t cstart, tail_c;      /* CPU time at start and at the tail    */
    int has_cpu;                  /* cstart, every ev's c0/c1, tail_c     */
    int ntail;
    pp_rdelta *tail;
} pp_rthread;

typedef struct {
    char *name;
    long value;
} pp_rgparam;

typedef struct {
    int func, id;
    long value, count, first, last, min, max;
} pp_rparam;

/* A parameter's value in one thread (a tparam line): written when threads
 * set it to different values */
typedef struct {
    int func, id, thread;
    long value, count, min, max;
    int line;                     /* in the record, for errors            */
} pp_rtparam;

typedef struct {
    char *path;                   /* the record file                      */
    char *program;                /* the executable                       */
    char *host;                   /* where it ran (NULL: not recorded)    */
    /* the `exe` line, the executable's identity: its GNU build id (hex;
     * NULL: none recorded), or its size and FNV-1a hash (exe_hashed);
     * neither in a record of an older runtime (exe-id.h) */
    char *exe_build_id;
    int exe_hashed;
    uint64_t exe_size, exe_hash;
    int argc;
    char **argv;
    int nenv;
    char **env;                   /* "NAME=value"                         */
    int nfuncs;
    pp_dfunc *funcs;
    int ngparams;
    pp_rgparam *gparams;
    int nparams;
    pp_rparam *params;
    int ntparams;
    pp_rtparam *tparams;
    int nthreads;
    pp_rthread *threads;          /* indexed by thread id                 */
    long nevents;
    pp_rev *events;
    /* MPI (the `mpi` line): rank in MPI_COMM_WORLD (-1: not an MPI run),
     * number of ranks, the run's id and rank 0's pid */
    int mpi_rank, mpi_size;
    uint64_t mpi_run, mpi_pid0;
    /* the implementation's MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_PROC_NULL (a
     * record without them: Open MPI's -1, -1, -2) and library (NULL when
     * not recorded) */
    int mpi_any_source, mpi_any_tag, mpi_proc_null;
    char *mpi_lib;
    /* the `incomplete` line: the signal that killed the program before it
     * finished (0: a complete record) and its name */
    int incomplete_sig;
    char *incomplete_name;
    /* the `timing` line (loop timing, runtime/rt-timing.c): ns per tick
     * of the loops' timing slots and the cost of timing one entry, in ns
     * (has_timing 0: a record without loop timing) */
    int has_timing;
    double tick_ns, timing_cost_ns;
    double timing_window_ns;      /* what an empty timed entry measures  */
} pp_record;

/* Set by `--allow-incomplete` (any command, analysis/main.c): load records
 * marked incomplete, with a warning, instead of refusing them. */
extern int pp_record_allow_incomplete;

/* A and B were recorded with one MPI implementation: their mpi.h's
 * MPI_ANY_SOURCE, MPI_PROC_NULL and MPI_ANY_TAG agree. */
int pp_record_same_mpi(const pp_record *a, const pp_record *b);
/* Read and check a record.  On error returns -1 and writes one line
 * "FILE:LINE: what" to err. */
int pp_record_load(const char *path, pp_record *r, char *err, size_t errlen);
void pp_record_free(pp_record *r);

int pp_record_func_index(const pp_record *r, const char *name);
/* Total of one counter slot over all threads. */
uint64_t pp_record_slot_total(const pp_record *r, int func, int slot);
uint64_t pp_record_slot_thread(const pp_record *r, int thread, int func, int slot);

#endif
