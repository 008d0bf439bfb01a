/* cost.h - the time per iteration of every loop body and per call, fitted
 * to the run's segments (the time between two events of a thread and the
 * loop iterations it ran).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_COST_H
#define PERFPRED_COST_H

#include "model.h"

/* The default of m->cost_quantile (--cost-quantile): 0, the least-
 * squares costs as they are.  The quiet level (0.25: the costs of the
 * quietest quarter of the run's work) is an option: on the development
 * host it moved records 30% apart where the mean moved them 9% apart, and
 * did not make the bench more accurate (docs/model.md, "quiet level"). */
#define PP_COST_QUANTILE_DEFAULT 0.0

/* Fills the costs (m->fit and their slots: costs.h), loops[].cost_se,
 * cost_fitted, seg_se and the covariance. */
int pp_cost_fit(pp_prog *m, char *err, size_t errlen);

#endif
