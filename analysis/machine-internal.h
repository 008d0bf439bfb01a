/* machine-internal.h - what machine.c, machine-file.c and machine-write.c share: the names
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

/* A message into err (when not NULL), printf-style: the reader's and the
 * writer's errors. */
void pp_machine_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
