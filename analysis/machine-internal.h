/* machine-internal.h - what machine.c and machine-file.c share: the names
 * of the models, costs and sources.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MACHINE_INTERNAL_H
#define PERFPRED_MACHINE_INTERNAL_H

#include "machine.h"

typedef struct {
    const char *key;
    int factor;           /* dimensionless (scale.*)                     */
    int depends_on_p;     /* linear / log2 allowed                       */
} pp_cost_info;

extern const char *const pp_model_names[3];
extern const pp_cost_info pp_costs[PP_COST_N];
extern const char *const pp_source_names[3];

#endif
