/* lsq.c - see lsq.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "lsq.h"

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>

int pp_lsq_solve(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                 double mu_rel, double *c, double *se, double *r2)
{
    return pp_lsq_solve_cov(A, d, nrows, ncols, prior, own, mu_rel, c, se, r2, NULL);
}

/* The penalised fit; with col_mu, each column's pull toward the common
 * scale (or its own prior) is mu_rel times the norm of its own scaled
 * data, not of all the rows' durations (see lsq.h). */
static int solve_cov(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                     double mu_rel, int col_mu, double *c, double *se, double *r2, double *covout)
{
    if (covout)
        for (long i = 0; i < (long)ncols * ncols; i++)
            covout[i] = 0;
    int *colof = malloc(sizeof *colof * (size_t)(ncols + 1));
    if (!colof)
        return -1;
    int p = 0;
    for (int j = 0; j < ncols; j++) {
        int used = 0;
        for (int i = 0; i < nrows && !used; i++)
            used = A[(size_t)i * (size_t)ncols + (size_t)j] != 0;
        colof[j] = used ? p++ : -1;
        c[j] = prior[j];
        se[j] = INFINITY;
    }
    *r2 = 1;
    if (p == 0 || nrows == 0) {
        free(colof);
        return 0;
    }
    double dn = 0, mean = 0;
    for (int i = 0; i < nrows; i++) {
        dn += d[i] * d[i];
        mean += d[i];
    }
    mean /= nrows;
    double mu = mu_rel * sqrt(dn) / sqrt((double)p) + 1e-12;
    /* unknowns: the p used columns, then the common scale s */
    size_t q = (size_t)p + 1;
    size_t rows = (size_t)nrows + (size_t)p + 1;
    gsl_matrix *X = gsl_matrix_calloc(rows, q);
    gsl_vector *y = gsl_vector_calloc(rows);
    gsl_vector *b = gsl_vector_alloc(q);
    gsl_matrix *cov = gsl_matrix_alloc(q, q);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(rows, q);
    int rc = 0;
    if (!X || !y || !b || !cov || !ws)
        rc = -1;
    if (rc == 0) {
        for (int i = 0; i < nrows; i++) {
            gsl_vector_set(y, (size_t)i, d[i]);
            for (int j = 0; j < ncols; j++)
                if (colof[j] >= 0)
                    gsl_matrix_set(X, (size_t)i, (size_t)colof[j],
                                   A[(size_t)i * (size_t)ncols + (size_t)j] * prior[j]);
        }
        double mmin = mu;
        for (int j = 0; j < ncols; j++)
            if (colof[j] >= 0) {
                size_t row = (size_t)nrows + (size_t)colof[j];
                double mj = mu;
                if (col_mu) {
                    double nj = 0;
                    for (int i = 0; i < nrows; i++) {
                        double x = gsl_matrix_get(X, (size_t)i, (size_t)colof[j]);
                        nj += x * x;
                    }
                    mj = mu_rel * sqrt(nj) + 1e-12;
                    mmin = colof[j] == 0 || mj < mmin ? mj : mmin;
                }
                gsl_matrix_set(X, row, (size_t)colof[j], mj);
                if (own && own[j])
                    gsl_vector_set(y, row, mj);                /* x_j -> 1 */
                else
                    gsl_matrix_set(X, row, (size_t)p, -mj);    /* x_j -> s */
            }
        /* a pull of the common scale itself toward 1 (the prior is already
         * scaled to the run's total time), so that it is defined even when
         * every column shares it; weaker than every column's own pull, so
         * that costs the rows cannot separate split in their priors' ratio */
        gsl_matrix_set(X, rows - 1, (size_t)p, 0.1 * mmin);
        gsl_vector_set(y, rows - 1, 0.1 * mmin);
        double chisq;
        gsl_multifit_linear(X, y, b, cov, &chisq, ws);
        double ss = 0, st = 0;
        for (int i = 0; i < nrows; i++) {
            double pred = 0;
            for (int j = 0; j < p; j++)
                pred += gsl_matrix_get(X, (size_t)i, (size_t)j) * gsl_vector_get(b, (size_t)j);
            ss += (d[i] - pred) * (d[i] - pred);
            st += (d[i] - mean) * (d[i] - mean);
        }
        *r2 = st > 0 ? 1 - ss / st : 1;
        for (int j = 0; j < ncols; j++)
            if (colof[j] >= 0) {
                c[j] = gsl_vector_get(b, (size_t)colof[j]) * prior[j];
                /* GSL scales cov by the residual variance already */
                se[j] = sqrt(fabs(gsl_matrix_get(cov, (size_t)colof[j], (size_t)colof[j]))) * prior[j];
                for (int k = 0; covout && k < ncols; k++)
                    if (colof[k] >= 0)
                        covout[(size_t)j * (size_t)ncols + (size_t)k] =
                            gsl_matrix_get(cov, (size_t)colof[j], (size_t)colof[k]) * prior[j] * prior[k];
            }
    }
    gsl_matrix_free(X);
    gsl_vector_free(y);
    gsl_vector_free(b);
    gsl_matrix_free(cov);
    if (ws)
        gsl_multifit_linear_free(ws);
    free(colof);
    return rc;
}

int pp_lsq_solve_cov(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                     double mu_rel, double *c, double *se, double *r2, double *covout)
{
    return solve_cov(A, d, nrows, ncols, prior, own, mu_rel, 0, c, se, r2, covout);
}

static int solve_bounded(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                         double mu_rel, int col_mu, const double *lo, double *c, double *se, double *r2, double *cov)
{
    if (!lo)
        return solve_cov(A, d, nrows, ncols, prior, own, mu_rel, col_mu, c, se, r2, cov);
    size_t na = (size_t)nrows * (size_t)ncols;
    double *Af = malloc(sizeof *Af * (na ? na : 1));
    double *df = malloc(sizeof *df * (size_t)(nrows ? nrows : 1));
    int *fixed = calloc((size_t)(ncols ? ncols : 1), sizeof *fixed);
    int rc = -1;
    if (!Af || !df || !fixed)
        goto out;
    for (int round = 0; round <= ncols; round++) {
        /* the fixed columns' time comes off the durations; the others are
         * fitted to the rest */
        for (int i = 0; i < nrows; i++) {
            df[i] = d[i];
            for (int j = 0; j < ncols; j++) {
                double a = A[(size_t)i * (size_t)ncols + (size_t)j];
                Af[(size_t)i * (size_t)ncols + (size_t)j] = fixed[j] ? 0 : a;
                if (fixed[j])
                    df[i] -= a * lo[j];
            }
        }
        if (solve_cov(Af, df, nrows, ncols, prior, own, mu_rel, col_mu, c, se, r2, cov))
            goto out;
        /* the column furthest below its bound (relative to its prior) is
         * fixed at the bound; after eight rounds, all of them at once */
        int worst = -1;
        double wv = 0;
        for (int j = 0; j < ncols; j++) {
            /* a NaN (a failed solve) counts as below its bound */
            if (fixed[j] || c[j] >= lo[j])
                continue;
            double v = isnan(c[j]) ? INFINITY : (lo[j] - c[j]) / (fabs(prior[j]) + 1e-300);
            if (worst < 0 || v > wv) {
                worst = j;
                wv = v;
            }
        }
        if (worst < 0)
            break;
        for (int j = 0; j < ncols; j++)
            if (j == worst || (round >= 8 && !(c[j] >= lo[j])))
                fixed[j] = 1;
    }
    for (int j = 0; j < ncols; j++)
        if (fixed[j]) {
            c[j] = lo[j];
            se[j] = INFINITY;
        }
    /* the coefficient of determination of the whole fit, on the durations
     * as recorded */
    double mean = 0, ss = 0, st = 0;
    for (int i = 0; i < nrows; i++)
        mean += d[i];
    mean /= nrows > 0 ? nrows : 1;
    for (int i = 0; i < nrows; i++) {
        double pred = 0;
        for (int j = 0; j < ncols; j++) {
            double a = A[(size_t)i * (size_t)ncols + (size_t)j];
            if (a != 0)
                pred += a * c[j];
        }
        ss += (d[i] - pred) * (d[i] - pred);
        st += (d[i] - mean) * (d[i] - mean);
    }
    *r2 = st > 0 ? 1 - ss / st : 1;
    rc = 0;
out:
    free(Af);
    free(df);
    free(fixed);
    return rc;
}

int pp_lsq_solve_bounded(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                         double mu_rel, const double *lo, double *c, double *se, double *r2, double *cov)
{
    return solve_bounded(A, d, nrows, ncols, prior, own, mu_rel, 0, lo, c, se, r2, cov);
}

int pp_lsq_solve_bounded_col(const double *A, const double *d, int nrows, int ncols, const double *prior,
                             const int *own, double mu_rel, const double *lo, double *c, double *se, double *r2,
                             double *cov)
{
    return solve_bounded(A, d, nrows, ncols, prior, own, mu_rel, 1, lo, c, se, r2, cov);
}

/* rows by their slowdown against the fit (pp_lsq_quantile_level) */
typedef struct {
    double ratio, work;
} ratio_w;

static int by_ratio(const void *a, const void *b)
{
    double x = ((const ratio_w *)a)->ratio, y = ((const ratio_w *)b)->ratio;
    return (x > y) - (x < y);
}

double pp_lsq_quantile_level(const double *A, const double *dur, int nrows, int ncols, const double *c, double tau)
{
    if (!(tau > 0 && tau < 1) || nrows < 4)
        return 1.0;
    double *pred = malloc(sizeof *pred * (size_t)nrows);
    if (!pred)
        return 1.0;
    for (long i = 0; i < nrows; i++) {
        pred[i] = 0;
        for (int j = 0; j < ncols; j++)
            pred[i] += A[(size_t)i * (size_t)ncols + (size_t)j] * c[j];
    }
    double l = pp_lsq_quantile_level_pred(pred, dur, nrows, tau);
    free(pred);
    return l;
}

double pp_lsq_quantile_level_pred(const double *fit, const double *dur, int nrows, double tau)
{
    if (!(tau > 0 && tau < 1) || nrows < 4)
        return 1.0;
    ratio_w *r = malloc(sizeof *r * (size_t)nrows);
    if (!r)
        return 1.0;
    long n = 0;
    double tot = 0;
    for (long i = 0; i < nrows; i++) {
        double pred = fit[i];
        if (pred > 0 && dur[i] > 0) {
            r[n++] = (ratio_w){dur[i] / pred, pred};
            tot += pred;
        }
    }
    double level = 1.0;
    if (n >= 4 && tot > 0) {
        qsort(r, (size_t)n, sizeof *r, by_ratio);
        double acc = 0;
        for (long i = 0; i < n; i++) {
            acc += r[i].work;
            if (acc >= tau * tot) {
                level = r[i].ratio;
                break;
            }
        }
    }
    free(r);
    /* a level far from 1 is a misfit, not noise: leave the fit alone */
    return level > 0.5 && level <= 1.0 ? level : 1.0;
}

