/* model-internal.h - what the parts of the program model share.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MODEL_INTERNAL_H
#define PERFPRED_MODEL_INTERNAL_H

#include "model.h"

/* the scope (-1: the body, else a loop index) of an item in loop lid */
int pp_model_scope_of(const pp_mfunc *mf, int lid);
/* model-ivs.c: the arguments each function reads (pp_mfunc.arg_read, a
 * fixpoint over the calls; -1: out of memory), and the induction
 * variables loop k's subtree reads (into, loop k of mf; its inner loops
 * done first) */
int pp_model_args_read(pp_prog *m);
void pp_model_loop_ivs(const pp_prog *m, pp_mfunc *mf, int k, pp_mloop *into);
/* model-cond.c: find the hand-built barriers on condition variables
 * (pp_mfunc.cb_*); -1: out of memory. */
int pp_model_condbars(pp_prog *m);
/* model-lockobj.c: per unnamed lock/unlock site, the key of the one
 * object the run shows all its threads used (mf->ev_runkey) */
int pp_model_run_locks(pp_prog *m);
/* model-params.c: the problem parameters from the record, and how P
 * enters (the loop around pthread_create, or the OpenMP team size) */
int pp_model_build_params(pp_prog *m);
void pp_model_bind_P(pp_prog *m);
/* model-params.c: m->rec_group and m->ngroups from the records'
 * parameters and P (after pp_model_bind_P; 0, or -1 out of memory) */
int pp_model_rec_groups(pp_prog *m);
/* model-thread-values.c: does the record say that threads set parameter
 * rp to different values?  The rules of such values (after the problem
 * parameters are built: 0, or -1 out of memory), and their release. */
int pp_model_thread_varying(const pp_record *r, const pp_rparam *rp);
int pp_model_thread_values(pp_prog *m);
void pp_model_thread_values_free(pp_prog *m);
/* model-derived.c: move the globals that the program sets once from its
 * inputs (gdef lines whose expression the records confirm) from the
 * parameters to m->derived (0, or -1 out of memory).  Before anything
 * holds a parameter's index but the functions' param_of. */
int pp_model_derive_globals(pp_prog *m);
/* A store to global NAME puts a clock reading or a random number in it
 * (a gdef line with why=nondet): no parameter, the counts that read it are
 * not symbolic. */
int pp_model_global_nondet(const pp_prog *m, const char *name);
/* model-mpi.c: mark the model as an MPI run's when its records are ranks
 * (all of them must be: 0, or -1 with a message); each MPI site's datatype
 * sizes and recorded bytes per call (0, or -1 out of memory). */
int pp_model_mpi_init(pp_prog *m, char *err, size_t errlen);
int pp_model_mpi_sites(pp_prog *m);
/* model-rankvals.c: the parameters whose value differs between the ranks
 * of a run, and the rule in rank and P that gives each rank's (0, or -1
 * out of memory) */
int pp_model_rank_values(pp_prog *m);

#endif
