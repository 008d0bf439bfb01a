/* cost.h - the time per iteration of every loop body and per call, fitted
 * to the run's segments (the time between two events of a thread and the
 * loop iterations it ran).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_COST_H
#define PERFPRED_COST_H

#include "model.h"

/* Fills loops[].cost_ns/cost_se/cost_fitted, call_cost[] and seg_ns. */
int pp_cost_fit(pp_prog *m, char *err, size_t errlen);

#endif
