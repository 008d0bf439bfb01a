/* experiment.h - experiment description files (docs/experiment-format.md),
 * after speedy's (Mohr et al. 1995, section 4): named program variants
 * with their records and fixed parameter values, the machine, the
 * parameters to step (P over powers of two, N over a list; their cross
 * product) and the outputs wanted.  `perfpred run-experiment FILE` runs
 * one (cmd_experiment.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_EXPERIMENT_H
#define PERFPRED_EXPERIMENT_H

#include <stddef.h>

#include "whatif.h"

#define PP_EXP_MAXSTEP 4        /* stepped parameters                     */
#define PP_EXP_MAXVALUES 4096   /* values of one stepped parameter        */
#define PP_EXP_MAXPOINTS 100000 /* points of the cross product            */

/* An integer expression of a `set` line: + - * / % (division rounds
 * down), parentheses, the stepped parameters and P by name, and min(),
 * max(), isqrt(), log2() (rounded down) and sqdiv(x), the largest
 * divisor d of x with d*d <= x (the rows of the most nearly square grid
 * of x processors). */
typedef struct pp_iexpr pp_iexpr;

typedef struct {
    char *name;          /* the parameter set                             */
    char *text;          /* the expression as written                     */
    pp_iexpr *e;
    long line;
} pp_exp_set;

typedef struct {
    char *name;
    long line;           /* of its `variant` line                         */
    int nrec;            /* records, globs expanded, relative to the      */
    char **rec;          /* experiment file's directory resolved          */
    long rec_line;       /* of its first `records` line                   */
    int nset;
    pp_exp_set *set;
    pp_whatif with;      /* `with` lines in the variant: the machine     */
                         /* changed so for it, after the experiment's    */
} pp_exp_variant;

typedef struct {
    char *name;          /* "P": the processor count; else a parameter    */
    long line;
    int n;
    long *v;             /* strictly increasing                           */
} pp_exp_step;

/* outputs */
enum {
    PP_XO_TIME = 1,        /* the time plot (T_real is always tabled)     */
    PP_XO_SPEEDUP = 2,
    PP_XO_EFFICIENCY = 4,
    PP_XO_EA = 8,
    PP_XO_E = 16,
    PP_XO_MACHINES = 32,   /* T_MIRACLE, T_PRAM and T1 besides T_real     */
    PP_XO_INTERVAL = 64    /* T_real's 90% interval                       */
};
#define PP_XO_DEFAULT (PP_XO_TIME | PP_XO_SPEEDUP | PP_XO_EFFICIENCY)

typedef struct {
    char *path;          /* the file as given                             */
    char *dir;           /* its directory ("." when none)                 */
    char *name;          /* `name =`, default the file's base name        */
    char *machine;       /* `machine =`, resolved; NULL: none             */
    long machine_line;
    char *outdir;        /* `output =`, resolved; NULL: none              */
    char *baseline;      /* `baseline =` a variant; NULL: each its own    */
    long baseline_line;
    unsigned outputs;
    int draws;           /* `draws =` (interval); PP_DRAWS_AUTO default   */
    double model_error;  /* `model-error =`; negative: not given          */
    int cache_rule;      /* `cache-rule = on|off` (on)                    */
    int insitu_off;      /* `insitu = off`                                */
    int nset;            /* `set` lines before the first variant: every   */
    pp_exp_set *set;     /* variant's, before its own                     */
    pp_whatif with;      /* `with` lines before the first variant         */
    int nvar;
    pp_exp_variant *var;
    int nstep;
    pp_exp_step step[PP_EXP_MAXSTEP];
} pp_experiment;

/* Read and check an experiment file.  Returns 0, or -1 with
 * "FILE:LINE: message" (or "FILE: message") in err. */
int pp_exp_load(const char *path, pp_experiment *x, char *err, size_t errlen);
void pp_exp_free(pp_experiment *x);

/* The stepped parameter named `name`, or -1. */
int pp_exp_step_index(const pp_experiment *x, const char *name);

/* Parse an integer expression; NULL with a message in err.  The names
 * it may use are checked by the caller (pp_iexpr_names). */
pp_iexpr *pp_iexpr_parse(const char *s, char *err, size_t errlen);
void pp_iexpr_free(pp_iexpr *e);
/* Call fn for each name the expression uses; stops at the first nonzero
 * return and returns it. */
int pp_iexpr_names(const pp_iexpr *e, int (*fn)(void *ctx, const char *name), void *ctx);
/* Evaluate with names[i] = vals[i].  0, or -1 with a message (an unknown
 * name, division by zero, overflow). */
int pp_iexpr_eval(const pp_iexpr *e, const char *const *names, const long *vals, int n, long *out, char *err,
                  size_t errlen);

/* A list of integers as a `step` line writes it: items separated by
 * commas, each an integer, A..B (doubling from A up to B), A..B*K (times
 * K) or A..B+K (plus K).  *v is malloc'd.  0, or -1 with a message. */
int pp_exp_parse_list(const char *s, long **v, int *n, char *err, size_t errlen);

#endif
