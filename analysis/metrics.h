/* metrics.h - predicted times on the three machines of Zhang & Xu and the
 * latencies and efficiencies derived from them, at a point's parameter
 * values (model.h, pp_vals):
 *
 *   T_MIR(chi, P) = T_PRAM(chi, 1) / P          (eq. 6: linear speedup)
 *   L_a = T_PRAM - T_MIR,   L = T_real - T_MIR   (eqs. 2, 3)
 *   E_a = T_MIR / T_PRAM,   E = T_MIR / T_real   (eqs. 4, 5)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_METRICS_H
#define PERFPRED_METRICS_H

#include "machine.h"
#include "model.h"
#include "traverse.h"

typedef struct {
    int P;
    double t1;            /* T_PRAM(chi, 1): the sequential time          */
    double t_mir, t_pram, t_real;
    double La, L, Ea, E;
    int approx;           /* some loop sums were sampled                  */
    /* breakdown on the real machine, summed over threads (ns) */
    double busy, wait, sync;
    int nthreads;         /* threads in the thread graph                  */
    long graph;           /* its actions, a class's members' counted      */
    /* MPI, on the real machine: time inside MPI calls summed over the
     * ranks, and by the calls' kind (pp_evkind); the share of a kind is
     * mpi_kind[k] / (P t_real) (Clement & Quinn, Figure 6) */
    double mpi, mpi_kind[PP_EV_OTHER + 1];
    long unmatched;       /* messages never received                      */
    char note[400];
    int t1_summed;        /* MPI: the program cannot run on one rank with
                             these parameters (a Q x Q grid): T1 is the
                             computation of all P ranks, summed          */
} pp_metrics;

/* The latencies and efficiencies from the three times (eqs. 2-6). */
void pp_metrics_compute(pp_metrics *mt, double t1, double t_pram, double t_real, int P);

/* Predict at the point's values pv (model.h) for P processors. */
int pp_predict(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_metrics *out, char *err,
               size_t errlen);
/* The same with only the walks at P that walks names (T1 always): a time
 * not walked is NAN, and so are the metrics made from it (the PRAM's
 * t_pram, La, Ea; the real machine's t_real, L, E); without the real
 * machine's walk the breakdown (busy, wait, sync, mpi) is 0. */
#define PP_WALK_PRAM 1
#define PP_WALK_REAL 2
int pp_predict_walks(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int walks, pp_metrics *out,
                     char *err, size_t errlen);
/* T_real alone (ns): no T1, no PRAM. */
int pp_predict_real(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, double *t_real, char *err,
                    size_t errlen);
/* The same with the costs `costs` ([m->nslot], costs.h; NULL: the
 * fitted ones): the intervals' and the sensitivity's moved costs. */
int pp_predict_real_with(const pp_prog *m, const pp_vals *pv, const double *costs, const pp_machine *mach, int P,
                         double *t_real, char *err, size_t errlen);

/* Unroll the model as pp_predict does at pv for P (the costs at its
 * size) with pp_instantiate's flags, and give the instance to fn (which
 * returns 0, or -1 with a message).  0 or -1. */
typedef int (*pp_instance_fn)(void *u, const pp_prog *m, const pp_instance *in, char *err, size_t errlen);
int pp_with_instance(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int flags, pp_instance_fn fn,
                     void *u, char *err, size_t errlen);

/* How many of n evaluations to run at once: the processors OpenMP offers
 * (OMP_NUM_THREADS), as many as fit into half of the free memory at
 * bytes_each (0: no bound).  At least 1. */
int pp_par_threads(int n, double bytes_each);

/* A 90% confidence interval of T_real (ns) at the point pv,
 * from three independent relative errors added in quadrature:
 *  - the fitted costs: with draws = PP_DRAWS_AUTO, the delta method
 *    (T_real's secant over one standard error in each cost, and their
 *    covariance); otherwise drawn `draws` times from the normal
 *    distribution of the fit (their covariance, so costs the run could
 *    not separate keep their well-known sum), each draw predicted
 *    (deterministic seed).  The covariance is the posterior of a prior
 *    of half each cost (cost.c, lsq-cov.c): what the run did not
 *    determine keeps that spread instead of counting as exact;
 *  - the host: its run-to-run variation (noise.cov of the machine file,
 *    measured by calibrate);
 *  - the model: m->model_error per doubling of the sequential work from
 *    the recorded size to this one (log2(T1 / T1 recorded)), an empirical
 *    rate measured by `make bench` (docs/model.md, "intervals").
 * The interval is T_real exp(+-2 sigma) (two standard errors, as Clement &
 * Quinn give "twice-standard-error points ... approximately 90%
 * confidence intervals"), the errors being relative. */
typedef struct {
    double lo, hi;            /* ns */
    double fit, host, model;  /* the three relative standard errors */
    double counts;            /* and the fitted data-dependent counts' */
} pp_interval;

/* mt: what pp_predict gave at pv and P. */
int pp_predict_interval(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, const pp_metrics *mt,
                        int draws, pp_interval *out, char *err, size_t errlen);

/* draws for pp_predict_interval: the delta method (q + 1 predictions
 * for q costs; Monte Carlo with PP_DRAWS_DEFAULT draws when
 * that is fewer), what predict and validate do without --draws. */
#define PP_DRAWS_AUTO (-1)
#define PP_DRAWS_DEFAULT 24

/* Whether `draws` asks for an interval (0 and 1: none). */
static inline int pp_interval_wanted(int draws)
{
    return draws >= 2 || draws == PP_DRAWS_AUTO;
}

/* The walks of the thread graph at P that pp_predict_interval makes
 * (the progress of a long prediction, longrun.h). */
int pp_interval_walks(const pp_prog *m, int draws);

/* The default of m->model_error: 3% per doubling of the work. */
#define PP_MODEL_ERROR_DEFAULT 0.03

#endif
