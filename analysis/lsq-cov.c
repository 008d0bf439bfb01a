/* lsq-cov.c - the covariance of fitted costs for the intervals
 * (pp_lsq_posterior_cov, lsq.h).
 *
 * The penalised fit (lsq.c) splits the costs the data cannot separate by
 * the prior, and its own covariance gives such a cost a standard error
 * that depends on the penalty's weight, an arbitrary number.  Here every
 * cost gets an explicit prior, normal around its fitted value with the
 * standard deviation tau_j the caller gives, and the data rows (residual
 * variance sigma^2, from the fit) update it:
 *
 *     Cov = (A'A / sigma^2 + diag(1 / tau^2))^-1
 *
 * computed stably from the singular values s_k and right vectors V of
 * Z = A diag(tau):  Cov = diag(tau) V diag(1 / (1 + s_k^2 / sigma^2)) V'
 * diag(tau).  A combination of costs the rows determine (the sum of two
 * loops that always run together, the cost per iteration when every
 * segment has the same trip count) gets the data's variance, which
 * replicated rows (the same work on every rank) shrink; a combination
 * they do not see (the split of that sum) keeps the prior's.  No
 * threshold decides which is which.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "lsq.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int pp_lsq_posterior_cov(const double *A, const double *d, int nrows, int ncols, const double *c, const double *tau,
                         double *cov, pp_lsq_post *info)
{
    memset(info, 0, sizeof *info);
    for (long i = 0; i < (long)ncols * ncols; i++)
        cov[i] = 0;
    int *idx = malloc(sizeof *idx * (size_t)(ncols + 1));
    if (!idx)
        return -1;
    int q = 0;
    for (int j = 0; j < ncols; j++)
        if (tau[j] > 0 && isfinite(tau[j]))
            idx[q++] = j;
    /* the residuals of the fit: sigma^2 below */
    double ss = 0;
    for (int i = 0; i < nrows; i++) {
        double r = d[i];
        for (int j = 0; j < ncols; j++) {
            double a = A[(size_t)i * (size_t)ncols + (size_t)j];
            if (a != 0)
                r -= a * c[j];
        }
        ss += r * r;
    }
    info->nrows = nrows;
    info->q = q;
    if (q == 0) {
        free(idx);
        return 0;
    }
    /* GSL's SVD wants at least as many rows as columns: zero rows pad */
    size_t M = (size_t)(nrows > q ? nrows : q), N = (size_t)q;
    gsl_matrix *Z = gsl_matrix_calloc(M, N);
    gsl_matrix *V = gsl_matrix_alloc(N, N);
    gsl_vector *S = gsl_vector_alloc(N);
    gsl_vector *work = gsl_vector_alloc(N);
    int rc = -1;
    if (!Z || !V || !S || !work)
        goto out;
    for (int i = 0; i < nrows; i++)
        for (int k = 0; k < q; k++)
            gsl_matrix_set(Z, (size_t)i, (size_t)k, A[(size_t)i * (size_t)ncols + (size_t)idx[k]] * tau[idx[k]]);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int svd = gsl_linalg_SV_decomp(Z, V, S, work);
    gsl_set_error_handler(old);
    if (svd) {
        /* no decomposition: the prior alone */
        for (int k = 0; k < q; k++)
            cov[(size_t)idx[k] * (size_t)ncols + (size_t)idx[k]] = tau[idx[k]] * tau[idx[k]];
        info->prior_only = 1;
        rc = 0;
        goto out;
    }
    double smax = gsl_vector_get(S, 0);
    int rank = 0;
    for (size_t k = 0; k < N; k++)
        rank += gsl_vector_get(S, k) > 1e-10 * smax && gsl_vector_get(S, k) > 0;
    info->rank = rank;
    info->dof = nrows - rank;
    /* With no residual degree of freedom the rows cannot say how noisy
     * they are: they then determine nothing, and the prior stands. */
    double sigma2 = info->dof >= 1 ? ss / info->dof : INFINITY;
    info->sigma = sqrt(sigma2);
    info->prior_only = !isfinite(sigma2);
    for (int a = 0; a < q; a++)
        for (int b = 0; b < q; b++) {
            double v = 0;
            for (size_t k = 0; k < N; k++) {
                double s = gsl_vector_get(S, k);
                int seen = s > 1e-10 * smax && s > 0;
                /* the prior's share left in direction k */
                double w = !seen || !isfinite(sigma2) ? 1.0 : sigma2 > 0 ? 1.0 / (1.0 + s * s / sigma2) : 0.0;
                v += gsl_matrix_get(V, (size_t)a, k) * gsl_matrix_get(V, (size_t)b, k) * w;
            }
            cov[(size_t)idx[a] * (size_t)ncols + (size_t)idx[b]] = tau[idx[a]] * tau[idx[b]] * v;
        }
    rc = 0;
out:
    if (Z)
        gsl_matrix_free(Z);
    if (V)
        gsl_matrix_free(V);
    if (S)
        gsl_vector_free(S);
    if (work)
        gsl_vector_free(work);
    free(idx);
    return rc;
}
