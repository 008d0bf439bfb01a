/* experiment-run.h - the results of `perfpred run-experiment` (computed in
 * cmd_experiment.c, written by experiment-out.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_EXPERIMENT_RUN_H
#define PERFPRED_EXPERIMENT_RUN_H

#include "cli.h"
#include "experiment.h"
#include "metrics.h"
#include "xover.h"

/* One point of one variant. */
typedef struct {
    int ok;              /* predicted (the whole run stops otherwise)     */
    int P;
    pp_metrics mt;       /* T1 is the variant's at P = 1 (see t1 below)   */
    pp_interval iv;
    int has_iv;
    double speedup, eff; /* NaN: no prediction at P = 1                   */
    long *vals;          /* the model's parameter values there            */
} pp_xpoint;

typedef struct {
    pp_exp_variant *v;
    pp_session s;
    int open;
    int P_default;       /* the P of its records (or of --set)            */
    int nset;            /* the parameters set (the experiment's, then    */
    const char **set_name; /* the variant's), for the tables' columns     */
    int *set_param;      /* their index in the model                      */
    pp_xpoint *pt;       /* [npts]                                        */
    double *t1;          /* [group]: T_PRAM at P = 1 (0: none)            */
    double *treal1;      /* [group]: T_real at P = 1 (NaN: none)          */
    char base_err[2048]; /* why there is no prediction at P = 1           */
    pp_whatif with;      /* the machine's changes: the experiment's, then
                            the variant's `with` lines                   */
} pp_xvar;

/* Where T_real of two variants crosses along one stepped parameter, the
 * others fixed. */
typedef struct {
    int a, b;            /* variants                                      */
    int k;               /* the stepped parameter                         */
    int first;           /* the line's first point (its other coordinates) */
    int n;               /* crossings found                               */
    pp_xover *x;
    int sign;            /* with none: -1 a faster throughout, +1 b, 0 equal */
    double rmin, rmax;   /* |T_a - T_b| / max(T_a, T_b) over the grid     */
} pp_xline;

typedef struct {
    pp_experiment x;
    const char *machine; /* the machine file used; NULL: built-in         */
    int nvar;
    pp_xvar *var;
    int npts;            /* points of the cross product (1 with no step)  */
    int nord;            /* the steps from the slowest varying to the     */
    int ord[PP_EXP_MAXSTEP]; /* fastest: file order, P last               */
    int xstep;           /* the plots' x: P when it has two values, else
                            the first stepped parameter that has; -1: none */
    int ngroups;         /* points with P = 1 put for P (npts / P's count) */
    int nline;
    pp_xline *line;
    long npred;          /* predictions made                              */
} pp_xrun;

/* The stepped values at point i (val[k] for step k). */
void pp_xrun_coords(const pp_xrun *r, int i, long *val);
/* How many points apart two neighbours along step k are. */
int pp_xrun_stride(const pp_xrun *r, int k);
/* The group of point i: the points that differ in P only. */
int pp_xrun_group(const pp_xrun *r, int i);
/* "N=256 P=8" for point i, leaving out step `skip` (-1: none). */
void pp_xrun_label(const pp_xrun *r, int i, int skip, char *buf, size_t n);

/* experiment-out.c: the tables and crossovers to f in fmt (text, csv,
 * json). */
void pp_xrun_print(FILE *f, const pp_xrun *r, pp_format fmt);
/* Into dir: experiment.txt, experiment.json, VARIANT.csv, crossovers.csv,
 * and for the plots the data files, gnuplot scripts and their SVGs.
 * 0, or -1 with a message (2: gnuplot failed: 1 is the exit status). */
int pp_xrun_write(const pp_xrun *r, const char *dir, char *err, size_t errlen);

#endif
