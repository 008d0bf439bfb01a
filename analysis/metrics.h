/* metrics.h - predicted times on the three machines of Zhang & Xu and the
 * latencies and efficiencies derived from them, at the model's current
 * parameter values:
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
} pp_metrics;

/* The latencies and efficiencies from the three times (eqs. 2-6). */
void pp_metrics_compute(pp_metrics *mt, double t1, double t_pram, double t_real, int P);

/* Predict at the current parameters for P processors.  keep_real, when
 * not NULL, receives the real machine's traversal (the caller frees it). */
int pp_predict(pp_prog *m, const pp_machine *mach, int P, pp_metrics *out, char *err, size_t errlen);

/* A 90% confidence interval of T_real (ns) at the current parameters: the
 * costs drawn `draws` times from the normal distribution of the fit (their
 * covariance, so costs the run could not separate keep their well-known
 * sum), each draw predicted, and T_real +- 2 standard deviations, as
 * Clement & Quinn give "twice-standard-error points ... approximately 90%
 * confidence intervals for the mean response".  Deterministic (fixed
 * seed).  The interval covers the uncertainty of the fitted costs, not
 * model error (cache effects at another size, say). */
/* center: the T_real pp_predict gave at these parameters and P. */
int pp_predict_interval(pp_prog *m, const pp_machine *mach, int P, double center, int draws, double *lo,
                        double *hi, char *err, size_t errlen);

#endif
