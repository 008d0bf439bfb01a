/* resolve.h - express a function-local expression in the problem
 * parameters: (arg X) through the function's only call site (or its only
 * pthread_create site), (shared X) through its only fork site, (var X) and
 * (global X) as the parameter's name.  What cannot be resolved stays as it
 * is (an argument of a function called from several places, say).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RESOLVE_H
#define PERFPRED_RESOLVE_H

#include "model.h"

pp_expr *pp_resolve_roots(const pp_prog *m, int func, const pp_expr *e);

/* If e is PARAM or PARAM + c (c an integer), return the parameter index
 * and set *offset = c; else -1. */
int pp_resolve_param_plus(const pp_prog *m, const pp_expr *e, long *offset);

/* A loop's iterations per entry as text for people, in the parameters
 * where they can be resolved, enclosing IVs by their source names; the
 * observed average for a constant rule.  malloc'd. */
char *pp_loop_count_text(const pp_prog *m, int func, int loop_index);

#endif
