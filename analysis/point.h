/* point.h - one prediction as `perfpred predict` makes it, shared by
 * predict and run-experiment: the three machines at a point's parameter
 * values and, when asked, T_real's interval; and the problem
 * parameters as predict prints them.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_POINT_H
#define PERFPRED_POINT_H

#include <stdio.h>

#include "metrics.h"

/* pp_predict at P, then (t1 > 0) the metrics again with that T1 (a
 * variant whose parameters follow P computes its T1 with the values at
 * P = 1), then pp_predict_interval when pp_interval_wanted(draws):
 * *has_iv says whether iv holds one. */
int pp_point_predict(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, double t1, int draws,
                     pp_metrics *mt, pp_interval *iv, int *has_iv, char *err, size_t errlen);

/* Whether parameter i is one predict shows: not the thread-count
 * parameter (its value is P) and not a second parameter of that name. */
int pp_problem_shown(const pp_prog *m, int i);
/* {"N":1024,...} */
void pp_problem_json(FILE *f, const pp_prog *m, const pp_vals *pv);
/* " N=1024 M=3" */
void pp_problem_text(FILE *f, const pp_prog *m, const pp_vals *pv);

#endif
