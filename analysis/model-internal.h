/* model-internal.h - what the parts of the program model share.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MODEL_INTERNAL_H
#define PERFPRED_MODEL_INTERNAL_H

#include "model.h"

/* the scope (-1: the body, else a loop index) of an item in loop lid */
int pp_model_scope_of(const pp_mfunc *mf, int lid);
/* model-cond.c: find the hand-built barriers on condition variables
 * (pp_mfunc.cb_*); -1: out of memory. */
int pp_model_condbars(pp_prog *m);
/* model-params.c: the problem parameters from the record, and how P
 * enters (the loop around pthread_create, or the OpenMP team size) */
int pp_model_build_params(pp_prog *m);
void pp_model_bind_P(pp_prog *m);
/* model-mpi.c: mark the model as an MPI run's when its records are ranks
 * (all of them must be: 0, or -1 with a message); each MPI site's datatype
 * sizes and recorded bytes per call (0, or -1 out of memory). */
int pp_model_mpi_init(pp_prog *m, char *err, size_t errlen);
int pp_model_mpi_sites(pp_prog *m);

#endif
