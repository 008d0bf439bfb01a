/* lsq.h - least squares with a weak prior, for the cost model.
 *
 * Solves for c in  d ~ A c  (rows: observations, columns: unknowns) with
 * c_j = x_j prior_j and a penalty mu (x_j - s) per column, mu = mu_rel *
 * ||d|| / sqrt(columns), where s is one common scale, itself an unknown:
 * where the data determine a cost the penalty is negligible; where they
 * cannot (two columns always in the same proportion) the columns share the
 * scale, so their costs split in the ratio of their priors.  Columns with
 * own[j] set are pulled toward their own prior (x_j -> 1) instead.  Standard errors come from the covariance of
 * the fit (GSL gsl_multifit_linear).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_LSQ_H
#define PERFPRED_LSQ_H

/* A is row-major, nrows x ncols.  Columns that are zero in every row are
 * left out (c_j = prior_j, se_j = INFINITY).  Writes c, se (absolute
 * units) and the coefficient of determination r2 of the data rows.
 * Returns 0, or -1 when out of memory. */
int pp_lsq_solve(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                 double mu_rel, double *c, double *se, double *r2);

/* The same, also writing the covariance of c (ncols x ncols, row-major,
 * absolute units; zero rows and columns for the unused columns) into cov
 * when it is not NULL. */
int pp_lsq_solve_cov(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                     double mu_rel, double *c, double *se, double *r2, double *cov);

#endif
