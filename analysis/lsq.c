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

int pp_lsq_solve_cov(const double *A, const double *d, int nrows, int ncols, const double *prior, const int *own,
                     double mu_rel, double *c, double *se, double *r2, double *covout)
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
        for (int j = 0; j < ncols; j++)
            if (colof[j] >= 0) {
                size_t row = (size_t)nrows + (size_t)colof[j];
                gsl_matrix_set(X, row, (size_t)colof[j], mu);
                if (own && own[j])
                    gsl_vector_set(y, row, mu);                /* x_j -> 1 */
                else
                    gsl_matrix_set(X, row, (size_t)p, -mu);    /* x_j -> s */
            }
        /* a pull of the common scale itself toward 1 (the prior is already
         * scaled to the run's total time), so that it is defined even when
         * every column shares it */
        gsl_matrix_set(X, rows - 1, (size_t)p, 0.1 * mu);
        gsl_vector_set(y, rows - 1, 0.1 * mu);
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
