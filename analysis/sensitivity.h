/* sensitivity.h - dT/dbeta: how the predicted time on the real machine
 * moves with each machine parameter (Clement & Quinn, section 4.3 and
 * Figure 7: "the execution time was differentiated with respect to message
 * startup cost").
 *
 * Our T_real is a traversal, not a closed formula, so the derivative is a
 * central difference: the parameter is moved by +-1% of its value (the
 * whole cost curve in P for a synchronisation cost) and T_real predicted
 * twice; a parameter at 0 is moved up by a small absolute step (one-sided).
 * For a cost in ns, dT/dbeta is how many times that cost lies on the
 * critical path; for the network's G (ns per byte), the bytes on it.
 *
 * The elasticity (beta/T) dT/dbeta is the per cent T moves for 1% of the
 * parameter.  T is homogeneous of degree one in the times (every cost, the
 * network's L, o, g, G, gamma and the computation): scaling them all by k
 * scales every event of the traversal by k.  So their elasticities sum to
 * 1 (Euler's theorem) where T is differentiable, which the output checks.
 * Where the critical path changes within the step (a kink of T, a max of
 * two sums), the central difference averages the two slopes and the sum
 * need not be 1: each parameter's one-sided elasticities are kept too and
 * the output says where they differ.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SENSITIVITY_H
#define PERFPRED_SENSITIVITY_H

#include "machine.h"
#include "model.h"
#include "scale.h"
#include "whatif.h"

typedef struct {
    const pp_par_info *par;
    double value;        /* at P, as the program sees it (speed: 1)       */
    double dT;           /* dT/dbeta: ns of T per unit of the parameter   */
    double elasticity;   /* (beta / T) dT/dbeta                            */
    int one_sided;       /* the parameter was 0: a forward difference     */
    int used;            /* T moved with it                                */
    /* the one-sided elasticities, from T at the point and 1% below, and
     * 1% above (two-sided only; with one_sided both are the elasticity) */
    double elast_below, elast_above;
    int kink;            /* they differ by more than PP_SENS_KINK: T is
                            not differentiable in it within the step    */
} pp_sens;

/* The relative step of the central difference. */
#define PP_SENS_STEP 0.01

/* Two one-sided elasticities further apart than this mark a kink: a max
 * between two paths (the critical path changes) within +-1% of the
 * parameter.  T is continuous and piecewise linear in the times, so away
 * from such points both are equal to rounding (about 1e-8); smaller
 * kinks (many ranks' order changing by a hair) are not worth a line. */
#define PP_SENS_KINK 1e-3

/* For each of the n parameters which[i] (the pp_par_get index), dT/dbeta
 * at the values pv for P processors; t_real is T_real there
 * (ns).  The machine and the program are restored before returning.  The
 * parameters that are not differentiable (pp_par_info.differentiable) are
 * refused.  progress may be NULL.  Returns 0, or -1 with a message. */
int pp_sensitivity(const pp_prog *m, const pp_vals *pv, pp_machine *mach, int P, double t_real, const int *which, int n,
                   pp_sens *out, pp_progress_fn progress, void *pctx, char *err, size_t errlen);

/* The one-sided elasticities at beta from T = t there, tm at bm below
 * and tp at bp above: *below = beta (t - tm) / ((beta - bm) t), *above
 * likewise.  Returns 1 when they differ by more than PP_SENS_KINK (a
 * kink), 0 otherwise or when t <= 0 or a side did not move (then *below
 * and *above are left as they are). */
int pp_sens_sides(double beta, double bm, double tm, double t, double bp, double tp, double *below,
                  double *above);

/* 1 when the parameter's value is a time (ns, ns per byte) or the
 * computation: those whose elasticities sum to 1. */
int pp_sens_is_time(const pp_par_info *p);

#endif
