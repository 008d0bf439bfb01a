/* eq-internal.h - what the two halves of the equations share: the walk's
 * state (equations.c: names, levels, terms, blocks) and the walk itself
 * (eq-walk.c: frames, substitution, loops, calls, events).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_EQ_INTERNAL_H
#define PERFPRED_EQ_INTERNAL_H

#include "equations.h"
#include "model-internal.h"

/* One enclosing level of the walk: a loop (var from lo to hi, n values; var
 * NULL: its variable is not followed, the count multiplies) or a condition
 * (cond != NULL).  fmark: the facts before the level's. */
typedef struct {
    pp_expr *cond;
    pp_expr *var, *lo, *hi, *n;
    int fmark;
    int fi, loop;            /* the loop's function and index (-1: a cond) */
    int skip;                /* counts once: a thread created in its first
                                iteration (the walk follows that thread)   */
} eqlevel;

/* A function being walked: what its atoms stand for, in the symbols of
 * the equations (NULL: not known). */
typedef struct eqframe {
    int fi;
    const pp_mfunc *mf;
    pp_expr **args;          /* per argument                               */
    const pp_devent *fork;   /* the fork whose data block it sees          */
    pp_expr **shared;        /* per fork->data_name                        */
    int omp;
    pp_expr *nthreads, *tid;
    pp_expr **iv;            /* per loop id                                */
} eqframe;

typedef struct {
    const pp_prog *m;
    const pp_vals *pv;       /* the values of P_at (NULL: the recorded)    */
    const pp_machine *mach;
    pp_equations *q;
    int **lblock;            /* [func][loop]: block index                  */
    int *fblock;             /* [func]: block index                        */
    eqlevel *lv;
    int nlv, caplv;
    pp_facts F;
    double mult;             /* observed ratios of the sites around        */
    int *bstack, nb;         /* blocks the walk is inside                  */
    int depth;
    char **names;            /* identifiers in use                         */
    int nnames;
    pp_expr *P;              /* the processor count's symbol               */
    pp_expr *unknown;        /* '?'                                        */
    int mpi_named;           /* named communicators met                    */
    int P_at;                /* the P (>= 1) the network's regimes and
                                algorithms are decided at (eq-net.c)       */
    int cant_follow;         /* counts that fell back to the observed mean */
    char err[512];
} wctx;

/* equations.c */
int pp_eq_name_used(const wctx *w, const char *s);
pp_expr *pp_eq_fresh(wctx *w, const char *base);
void pp_eq_names_pop(wctx *w, int mark);
void pp_eq_term(wctx *w, int sync, double ns, const char *what, pp_cx *count);
void pp_eq_push_level(wctx *w, eqlevel l);
void pp_eq_pop_level(wctx *w);                       /* and its facts    */
void pp_eq_push_cond(wctx *w, pp_expr *c);           /* takes c          */
void pp_eq_push_block(wctx *w, int b);
void pp_eq_note(pp_equations *q, const char *s);

/* eq-walk.c: main on thread 0 (rank 0), its terms into w's blocks */
int pp_eq_walk(wctx *w);
/* (k a b) simplified; takes a and b */
pp_expr *pp_eq_op2(pp_ekind k, pp_expr *a, pp_expr *b);

/* eq-net.c: an MPI call's network terms (T_sync) on rank 0's path, with
 * count its message count (an exchange's sending half) in the equations'
 * symbols (taken) */
void pp_eq_mpi_net(wctx *w, const pp_devent *ev, const char *func, pp_expr *count);

#endif
