/* cost.h - the time per iteration of every loop body and per call, fitted
 * to the run's segments (the time between two events of a thread and the
 * loop iterations it ran).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_COST_H
#define PERFPRED_COST_H

#include "model.h"

/* The default of m->cost_quantile (--cost-quantile): the costs are the
 * fit that a quarter of the segments exceed, not the mean.  On a shared
 * host a segment is slowed by other work now and then and never sped up;
 * the mean of a short record follows those slowdowns, the lower quantile
 * the program (docs/model.md, "robust costs"). */
#define PP_COST_QUANTILE_DEFAULT 0.25

/* Fills loops[].cost_ns/cost_se/cost_fitted, call_cost[] and seg_ns. */
int pp_cost_fit(pp_prog *m, char *err, size_t errlen);

#endif
