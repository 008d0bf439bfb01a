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

/* The same with lower bounds lo (absolute units; NULL: none): a cost the
 * fit puts below its bound is fixed at the bound, its time taken off the
 * durations, and the others fitted again, until none is below (an active
 * set, one column at a time, the most violated first).  Without it, an
 * ill-conditioned fit pays for a large cost with negative ones, and
 * raising those to their bounds afterwards adds time no segment took.  A
 * fixed cost has se = INFINITY and zero covariance. */
int pp_lsq_solve_bounded(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                         double mu_rel, const double *lo, double *c, double *se, double *r2, double *cov);

/* The same, with each column's pull (toward the common scale, or its own
 * prior) mu_rel times the norm of that column's own data (A_j prior_j)
 * rather than of all the durations.  A cost the rows see in small
 * amounts but distinctly (a loop's cost per entry, from records at two
 * sizes: its column is a few percent of the rows' time) is then decided
 * by the rows, not pulled to the common scale by the weight of the
 * others; costs the rows cannot separate still share the scale. */
int pp_lsq_solve_bounded_col(const double *A, const double *d, int nrows, int ncols, const double *prior,
                             const int *own, double mu_rel, const double *lo, double *c, double *se, double *r2,
                             double *cov);

/* What pp_lsq_posterior_cov found: the data rows, the priced columns
 * (tau > 0), the rank of the rows over them, the residual degrees of
 * freedom nrows - rank, the residual standard deviation, and whether the
 * prior alone stands (no degree of freedom left to estimate the noise). */
typedef struct {
    int nrows, q, rank, dof, prior_only;
    double sigma;
} pp_lsq_post;

/* The covariance of the fitted costs c (ncols x ncols, row-major, absolute
 * units) for the intervals: a normal prior per column with standard
 * deviation tau[j] (tau[j] <= 0: the column is left out, zero rows and
 * columns) updated by the rows (A, d) with the residual variance of c,
 *     Cov = (A'A / sigma^2 + diag(1 / tau^2))^-1      (lsq-cov.c).
 * What the rows determine gets their variance, what they cannot separate
 * keeps the prior's; a column no row uses keeps tau^2.  Returns 0, or -1
 * when out of memory. */
int pp_lsq_posterior_cov(const double *A, const double *d, int nrows, int ncols, const double *c, const double *tau,
                         double *cov, pp_lsq_post *info);

/* The level of a fit c of the rows (A, dur): each row's duration over the
 * fitted one is its slowdown against the fit; the tau-quantile of those
 * slowdowns, each row counted by its fitted duration (its work), is the
 * factor that puts the costs at the quiet part of the run.  Returns 1 for
 * tau outside (0, 1), fewer than 4 rows, or a level outside (0.5, 1] (a
 * misfit rather than noise). */
double pp_lsq_quantile_level(const double *A, const double *dur, int nrows, int ncols, const double *c, double tau);

/* The same from the fitted durations fit[i] of the rows. */
double pp_lsq_quantile_level_pred(const double *fit, const double *dur, int nrows, double tau);

/* Sparse rows (CSR, column indices increasing within a row), for the fit
 * of records with many costs (lsq-big.c).  Every column is used by some
 * row. */
typedef struct {
    int nrows, ncols;
    const long *rowptr;   /* nrows + 1 */
    const int *col;
    const double *val;
} pp_sprows;

/* pp_lsq_solve_bounded (lo required) by the dual of the normal equations:
 * an nrows x nrows inverse per active-set round instead of a dense SVD in
 * the columns.  For nrows small against ncols.  Returns 0, -1 when out of
 * memory, 1 when the system is singular. */
int pp_lsq_big_solve(const pp_sprows *A, const double *d, const double *prior, const int *own, double mu_rel,
                     const double *lo, double *c, double *se, double *r2);

/* pp_lsq_posterior_cov over the columns of A (all priced: tau > 0), cov
 * ncols x ncols, by the same dual. */
int pp_lsq_big_cov(const pp_sprows *A, const double *d, const double *c, const double *tau, double *cov,
                   pp_lsq_post *info);

/* pp_lsq_quantile_level on sparse rows. */
double pp_lsq_big_level(const pp_sprows *A, const double *dur, const double *c, double tau);

#endif
