/* fit.h - the linear machine model of Clement & Quinn (section 3.3):
 * t = sum_i chi_i beta_i over the work segments of any number of runs (of
 * any programs), chi the operation counts of the segment (the static
 * operation counts of each loop body times its iterations, plus the
 * iterations, entries and segments themselves), beta the time of one
 * operation of each class, fitted by least squares with standard errors.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_FIT_H
#define PERFPRED_FIT_H

#include "machine.h"
#include "record.h"

typedef struct {
    double beta[PP_NBETA], se[PP_NBETA];
    double r2;
    long nseg;
} pp_betafit;

int pp_fit_beta(pp_record *const *recs, int nrec, pp_betafit *out, char *err, size_t errlen);

#endif
