/* scale.h - the scalability tables of Zhang & Xu (eqs. 8, 9): for each P
 * the problem size chi_P on the scaling path that holds the target
 * efficiency, and Scale(P, P') = L(chi_P, P) / L(chi_P', P').
 *
 * The scaling path: the parameters named by --scale grow together with
 * the ratios they had in the run (one of them, the first, is the search
 * variable s; the others are round(s * recorded_i / recorded_first));
 * every other parameter keeps its recorded value.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SCALE_H
#define PERFPRED_SCALE_H

#include "metrics.h"

typedef enum { PP_SCALE_ALGORITHMIC, PP_SCALE_COMBINATION } pp_scale_kind;

/* What the search of a P ended with (docs/commands.md, "scale"). */
typedef enum {
    PP_SCALE_REACHED,   /* the size holds the efficiency                  */
    PP_SCALE_LIMIT,     /* not reached up to the largest size the search
                           unrolls (8 million actions) or 10^9            */
    PP_SCALE_FLAT,      /* the efficiency stopped growing (an Amdahl limit) */
    PP_SCALE_FAR,       /* more than 40 doublings of the size away        */
    PP_SCALE_ONE,       /* a target of exactly 1, not met at the start    */
    PP_SCALE_FAILED     /* the model has no instance at a size on the way */
} pp_scale_why;

/* "reached", "limit", "flat", "far", "one", "failed" */
const char *pp_scale_why_name(pp_scale_why w);

typedef struct {
    pp_scale_kind kind;
    double target;
    int nP;
    int *P;
    int nscale;
    int *scale_param;     /* parameter indices on the path                */
    int *found;           /* per P: the efficiency was reached            */
    long **chi;           /* per P: value of each scaled parameter        */
    double *latency;      /* per P: L_a or L at chi_P (ns)                */
    double *eff;          /* per P: the efficiency reached at chi_P       */
    double *t_real;       /* per P: T_real at chi_P (ns), from the search */
    double **scale;       /* [i][j], j >= i; NAN where undefined          */
    pp_scale_why *why;    /* per P: how its search ended                  */
    long *last;           /* per P not reached: the largest size (of the
                             first scaled parameter) searched, 0: none;
                             PP_SCALE_FAILED: the size that failed       */
    double *last_eff;     /* its efficiency (NAN: none)                   */
    long limit;           /* the search's limit on the thread graph's
                             actions (PERFPRED_SCALE_MAX_ACTIONS)         */
    long max_size;        /* the largest size searched (--max; 0: 10^9)   */
    double *beyond;       /* PP_SCALE_LIMIT: the size (of the first scaled
                             parameter) where the odds law of the last two
                             sizes puts the target; NAN: none            */
} pp_scale_table;

/* What ended P[j]'s search at its limit (PP_SCALE_LIMIT): "max" (--max),
 * "size" (the sizes' own limit, 10^9) or "actions" (the thread graph's). */
const char *pp_scale_limited_by(const pp_scale_table *t, int j);

typedef void (*pp_progress_fn)(void *ctx, const char *what, int done, int total);

/* The table along the path that starts at the values `start` (the
 * recorded ones and those --set gave) and moves the parameters
 * scale_param in proportion.  No search probes a size of scale_param[0]
 * above max_size (0: 10^9); the start's must not be above it. */
int pp_scale_compute(const pp_prog *m, const pp_vals *start, const pp_machine *mach, pp_scale_kind kind, double target,
                     const int *scale_param, int nscale, const int *P, int nP, long max_size,
                     pp_scale_table *out, pp_progress_fn progress, void *pctx, char *err, size_t errlen);
void pp_scale_free(pp_scale_table *t);

/* The search's estimate of the doublings of the size still needed to
 * reach the efficiency `target` from `e`, the efficiency `span`
 * doublings before being `prev`: 0 when e already holds it, HUGE_VAL
 * when the efficiency stopped growing (scale.c says how). */
double pp_scale_doublings_left(double prev, double e, double span, double target);
/* Inverse quadratic interpolation: the x at which the parabola x(f)
 * through the three points (x[i], f[i]) has f = 0 (the search's x is log
 * s, its f the log-odds gap to the target); NAN where two f coincide. */
double pp_scale_iqi(const double x[3], const double f[3]);

#endif
