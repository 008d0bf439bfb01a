/* desc.h - the static description of one function, as the plugin wrote it
 * (docs/descriptor-format.md), parsed.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_DESC_H
#define PERFPRED_DESC_H

#include "lex.h"
#include "sym.h"

enum { PP_OPS_INT, PP_OPS_FP, PP_OPS_LOAD, PP_OPS_STORE, PP_OPS_BRANCH, PP_OPS_CALL, PP_NOPS };

#define PP_MAX_STREAMS 16

typedef enum { PP_CMP_NONE, PP_CMP_LT, PP_CMP_LE, PP_CMP_GT, PP_CMP_GE, PP_CMP_NE } pp_cmp;
typedef enum { PP_SHAPE_TOP, PP_SHAPE_BOTTOM, PP_SHAPE_MULTI } pp_lshape;

#define PP_LF_COMPILER    1u
#define PP_LF_OMP_CHUNK   2u
#define PP_LF_OMP_DISPATCH 4u
#define PP_LF_OMP_SCHED   8u   /* counts from the schedule model (desc-sched.c) */

typedef struct {
    int id, parent, pos, line, slot;
    int tslot;                    /* timing slots (ticks, timed entries:
                                     plugin/pp-timing.cc), or -1          */
    pp_lshape shape;
    pp_expr *count;               /* per entry, or NULL when unknown      */
    char *iv;                     /* source name or NULL                  */
    pp_expr *init, *bound, *step; /* NULL unless affine                   */
    pp_cmp cmp;
    char *why;
    pp_expr *sched;               /* dispatch loop: sched=(KIND START END
                                     INCR CHUNK), or NULL                 */
    unsigned flags;
    /* the induction variable's values the schedule model deals (dispatch
     * and chunk loops of a dynamic or guided schedule, desc-sched.c): used
     * instead of init and step when the model unrolls the loop; NULL
     * otherwise */
    pp_expr *deal_init, *deal_step;
    int guard_branch, guard_true; /* innermost controlling branch, or -1  */
    long ops[PP_NOPS];
    /* memory streams of the loop's own statements (mem=, memx=): bytes
     * per iteration (0: a step in the program's variables, '?'), reused
     * by the enclosing loop?, written?, and its rows (memr=: references
     * a row apart merged into it, 1 without memr=) */
    int nstreams;
    long stream_step[PP_MAX_STREAMS];
    unsigned char stream_reuse[PP_MAX_STREAMS], stream_written[PP_MAX_STREAMS];
    unsigned char stream_rows[PP_MAX_STREAMS];
    int memx;                     /* references the plugin could not follow */
    int memg, memc;               /* gathers (a[idx[i]]) and chases
                                     (p = p->next): memg=, memc=          */
    int has_mem;                  /* the line had mem= (newer plugins)      */
} pp_dloop;

#define PP_MAX_FSLOT 32

typedef struct {
    int id, loop, pos, line, slot;
    /* the false count: slot + 1, or, with fslot=, the sum of these slots,
     * a negative entry -s subtracting slot s (docs/descriptor-format.md) */
    int nfslot;
    int fslot[PP_MAX_FSLOT];
    pp_expr *cond;                /* NULL when unknown                    */
    int guard_branch, guard_true; /* the branch it is itself under, or -1 */
} pp_dbranch;

typedef enum {
    PP_EV_FORK, PP_EV_CREATE, PP_EV_JOIN, PP_EV_BARRIER, PP_EV_LOCK,
    PP_EV_UNLOCK, PP_EV_SINGLE, PP_EV_LOOP_END, PP_EV_ATOMIC,
    /* condition variables and semaphores (docs/model.md, "Condition
     * variables") */
    PP_EV_COND_WAIT, PP_EV_COND_SIGNAL, PP_EV_COND_BROADCAST, PP_EV_SEM_WAIT, PP_EV_SEM_POST,
    /* kinds the runtime logs by itself */
    PP_EV_BEGIN, PP_EV_TEAM_BEGIN, PP_EV_TEAM_END, PP_EV_JOIN_TEAM,
    /* MPI (docs/descriptor-format.md, "MPI events") */
    PP_EV_MPI_INIT, PP_EV_MPI_FINALIZE, PP_EV_SEND, PP_EV_RECV, PP_EV_ISEND,
    PP_EV_IRECV, PP_EV_SENDRECV, PP_EV_WAIT, PP_EV_WAITALL, PP_EV_BCAST,
    PP_EV_REDUCE, PP_EV_ALLREDUCE, PP_EV_GATHER, PP_EV_SCATTER,
    PP_EV_ALLGATHER, PP_EV_ALLTOALL, PP_EV_MPI_BARRIER,
    PP_EV_COMM_SPLIT, PP_EV_COMM_DUP, PP_EV_COMM_FREE, PP_EV_MPI_OTHER,
    PP_EV_OTHER
} pp_evkind;

const char *pp_evkind_name(pp_evkind k);
pp_evkind pp_evkind_parse(const char *s);
/* 1 for the MPI kinds (mpi_init .. mpi_other). */
int pp_evkind_is_mpi(pp_evkind k);

enum { PP_COMM_NONE = -1, PP_COMM_UNKNOWN = 0, PP_COMM_WORLD = 1, PP_COMM_VAR = 2 };

typedef struct {
    int id, loop, pos, line, slot;
    pp_evkind kind;
    char *callee;
    int guard_branch;             /* -1 when unguarded                    */
    int guard_true;               /* 1: runs on the true edge             */
    char *child;                  /* fork, create                         */
    pp_expr *nthreads;            /* fork                                 */
    pp_expr *obj;                 /* barrier, lock, unlock, join, cond_*,
                                     sem_*                                */
    pp_expr *mutex;               /* cond_wait: the mutex it releases     */
    pp_expr *arg;                 /* create                               */
    int ndata;                    /* fork: shared data block values       */
    char **data_name;
    pp_expr **data_val;
    int implicit;
    /* MPI: message fields as expressions (NULL: absent or '?'), the
     * datatypes' names; comm_split: peer = color, tag = key.
     * comm: PP_COMM_* below; comm_var: the communicator variable's name
     * (PP_COMM_VAR); newcomm: the variable comm_split and comm_dup set and
     * comm_free frees (NULL: unknown) */
    pp_expr *count, *peer, *tag, *root, *rcount, *rpeer, *rtag;
    char *type, *rtype;
    int comm;
    char *comm_var, *newcomm;
} pp_devent;

typedef struct {
    int id, loop, pos, line, slot;
    char *callee;
    int guard_branch, guard_true;
    int nargs;
    pp_expr **args;               /* NULL entries for '?'                 */
} pp_dcall;

typedef struct {
    int id, line;
    char *name, *kind;
    pp_expr *elem, *bytes;        /* may be NULL                          */
    int ndims;
    pp_expr **dims;
} pp_dshape;

typedef struct {
    int id, line, pragma;
    char *name, *kind;
    char *var;                    /* source variable name ((var X) atoms) */
} pp_dparam;

/* `macro name=N value=V`: an object-like macro of the function's unit
 * whose expansion is one integer literal (a size macro, docs/model.md
 * "Compile-time sizes") */
typedef struct {
    char *name;
    long value;
} pp_dmacro;
/* A store to a global outside loops (a `gdef' line): the value stored as
 * an expression of the inputs, or NULL with why (in-loop, parallel,
 * unknown, constant, not-inputs). */
typedef struct {
    int line;
    char *name;
    pp_expr *expr;
    char *why;
} pp_dgdef;

typedef struct {
    char *name, *file, *kind;
    int line, nslots;
    int nargs;
    char **argnames;              /* parameter names in order, "?" unknown */
    long ops[PP_NOPS];
    int nloops, nbranches, nevents, ncalls, nshapes, nparams, ngdefs;
    pp_dloop *loops;
    pp_dbranch *branches;
    pp_devent *events;
    pp_dcall *calls;
    pp_dshape *shapes;
    pp_dparam *params;
    int nmacros;
    pp_dmacro *macros;
    pp_dgdef *gdefs;
} pp_dfunc;

/* Parse one descriptor from lines[0..n) ("func ..." to "end").  Sets
 * *used to the number of lines consumed.  On error returns -1 with the
 * message in w (w->line is advanced as lines are read). */
int pp_desc_parse(char **lines, long n, long *used, pp_dfunc *f, pp_where *w);
void pp_desc_free(pp_dfunc *f);

/* Lookups by id (ids are dense in well-formed descriptors, but do not rely
 * on it). */
pp_dloop *pp_desc_loop(const pp_dfunc *f, int id);
/* The counts of the dynamic, guided and runtime-scheduled OpenMP loops of
 * f from their sched= (desc-sched.c); omp_schedule is the run's
 * OMP_SCHEDULE (NULL: unset, libgomp's dynamic,1). */
void pp_desc_sched_apply(pp_dfunc *f, const char *omp_schedule);
/* Where descriptor B (of another record) differs from A in what the model
 * is built from, as a phrase for an error ("was compiled from another
 * source: its loop L2 (line 31) has bound 2*n, not n"), in buf or a
 * constant; NULL when they describe the same code (desc-diff.c).  A NULL
 * A: "is not in it". */
const char *pp_desc_differs(const pp_dfunc *a, const pp_dfunc *b, char *buf, size_t n);
pp_devent *pp_desc_event(const pp_dfunc *f, int id);
pp_dcall *pp_desc_call(const pp_dfunc *f, int id);
pp_dbranch *pp_desc_branch(const pp_dfunc *f, int id);
pp_dparam *pp_desc_param(const pp_dfunc *f, int id);

#endif
