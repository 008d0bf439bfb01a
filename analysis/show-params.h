/* show-params.h - the parameters' part of `perfpred show` (show-params.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SHOW_PARAMS_H
#define PERFPRED_SHOW_PARAMS_H

#include "model.h"

/* The inputs, each name once, with the derived globals under the input
 * they read first (text: the lines after "parameters:", P excluded). */
void pp_show_params_text(const pp_prog *m, const pp_vals *pv);
/* "params":{...},"set":{...},"derived":{...} (no braces around). */
void pp_show_params_json(const pp_prog *m, const pp_vals *pv);

#endif
