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
 * 1 (Euler's theorem) where T is differentiable, which the output checks;
 * the rest is the memory streams' time the cache rule adds beyond the
 * recorded working set, which no parameter here moves.
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
} pp_sens;

/* The relative step of the central difference. */
#define PP_SENS_STEP 0.01

/* For each of the n parameters which[i] (the pp_par_get index), dT/dbeta
 * at the current parameters for P processors; t_real is T_real there
 * (ns).  The machine and the program are restored before returning.  The
 * parameters that are not differentiable (pp_par_info.differentiable) are
 * refused.  progress may be NULL.  Returns 0, or -1 with a message. */
int pp_sensitivity(pp_prog *m, pp_machine *mach, int P, double t_real, const int *which, int n, pp_sens *out,
                   pp_progress_fn progress, void *pctx, char *err, size_t errlen);

/* 1 when the parameter's value is a time (ns, ns per byte) or the
 * computation: those whose elasticities sum to 1. */
int pp_sens_is_time(const pp_par_info *p);

#endif
