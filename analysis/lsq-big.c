/* lsq-big.c - the cost fit of lsq.c and lsq-cov.c for records with many
 * costs and few segments (pp_lsq_big_*, lsq.h).
 *
 * A single-threaded run of a real code base (Lua: one segment, about two
 * thousand loops and call sites that ran) gives the penalised fit of
 * lsq.c one unknown per cost; its dense solve (an SVD of a matrix with a
 * row and a column per cost) is cubic in the costs and repeated for every
 * bound the active set fixes: hours.  Here the same problem is solved in
 * the small dimension, the rows.  With B = A diag(prior) (n rows, p used
 * columns), the unknowns x (c_j = x_j prior_j) and the common scale s,
 * the normal equations are
 *
 *     [ K        -mu^2 e        ] [x]   [ B'd + mu^2 e_own ]
 *     [ -mu^2 e'  mu^2 (|e|+.01)] [s] = [ 0.01 mu^2        ]
 *
 * with K = B'B + mu^2 I and e the columns pulled toward s.  K^-1 comes from
 * Woodbury, K^-1 = (I - B' (mu^2 I + B B')^-1 B) / mu^2, an n x n inverse,
 * and s from the Schur complement of K.  The standard errors are GSL's
 * (the residual of all rows over the n residual degrees of freedom times
 * the diagonal of the inverse), so that the results match lsq.c's to
 * rounding.  The posterior covariance (lsq-cov.c) is likewise
 * (I + Z'Z / sigma^2)^-1 = I - Z' (sigma^2 I + Z Z')^-1 Z.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "lsq.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* W = diag_add I + B B' over the active columns, B = A diag(scale),
 * inverted in place (Cholesky).  Returns 0, -1 out of memory, 1 not
 * positive definite. */
static int gram_inverse(const pp_sprows *A, const double *scale, const int *act, double diag_add, const double *ext,
                        double ext_w, gsl_matrix **out)
{
    int n = A->nrows;
    gsl_matrix *W = gsl_matrix_calloc((size_t)n, (size_t)n);
    double *x = calloc((size_t)A->ncols + 1, sizeof *x);
    if (!W || !x) {
        if (W)
            gsl_matrix_free(W);
        free(x);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            if (!act || act[A->col[e]])
                x[A->col[e]] += A->val[e] * scale[A->col[e]];
        for (int k = 0; k <= i; k++) {
            double v = 0;
            for (long e = A->rowptr[k]; e < A->rowptr[k + 1]; e++)
                if (!act || act[A->col[e]])
                    v += x[A->col[e]] * A->val[e] * scale[A->col[e]];
            v += (i == k ? diag_add : 0) + (ext ? ext_w * ext[i] * ext[k] : 0);
            gsl_matrix_set(W, (size_t)i, (size_t)k, v);
            gsl_matrix_set(W, (size_t)k, (size_t)i, v);
        }
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            x[A->col[e]] = 0;
    }
    free(x);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_linalg_cholesky_decomp1(W) || gsl_linalg_cholesky_invert(W);
    gsl_set_error_handler(old);
    if (rc) {
        gsl_matrix_free(W);
        return 1;
    }
    *out = W;
    return 0;
}

/* y = B v (rows) and w = B' r (columns), over the active columns */
static void bmul(const pp_sprows *A, const double *scale, const int *act, const double *v, double *y)
{
    for (int i = 0; i < A->nrows; i++) {
        double s = 0;
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            if (!act || act[A->col[e]])
                s += A->val[e] * scale[A->col[e]] * v[A->col[e]];
        y[i] = s;
    }
}

static void btmul(const pp_sprows *A, const double *scale, const int *act, const double *r, double *w)
{
    memset(w, 0, sizeof *w * (size_t)A->ncols);
    for (int i = 0; i < A->nrows; i++)
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            if (!act || act[A->col[e]])
                w[A->col[e]] += A->val[e] * scale[A->col[e]] * r[i];
}

/* One penalised solve over the active columns (lsq.c's pp_lsq_solve_cov
 * without the covariance).  Returns 0, -1 out of memory, 1 failed.
 *
 * Written around the prior's point (x_j = 1, s = 1) it is a ridge
 * problem: with w = (x_own - 1, x_j - s for the others, s - 1), penalties
 * mu^2 on each and 0.01 mu^2 on the last, and columns C = [B, b_s],
 * b_s = B e (the scale moves every column it pulls), the residual at the
 * prior r0 = d - B 1 is fitted by
 *     w = Lambda^-1 C' alpha,   alpha = M^-1 r0,
 *     M = mu^2 I + B B' + 100 b_s b_s'           (n x n)
 * and (C'C + Lambda)^-1 = Lambda^-1 - Lambda^-1 C' mu^2 M^-1 C Lambda^-1.
 * Eliminating s by a Schur complement instead lost six digits to
 * cancellation. */
static int solve_once(const pp_sprows *A, const double *d, const double *prior, const int *own, double mu_rel,
                      const int *act, double *c, double *se)
{
    int n = A->nrows, p = A->ncols, pa = 0;
    for (int j = 0; j < p; j++) {
        c[j] = prior[j];
        se[j] = INFINITY;
        pa += act[j] != 0;
    }
    if (pa == 0 || n == 0)
        return 0;
    double dn = 0;
    for (int i = 0; i < n; i++)
        dn += d[i] * d[i];
    double mu = mu_rel * sqrt(dn) / sqrt((double)pa) + 1e-12, m2 = mu * mu;
    double *e = calloc((size_t)p, sizeof *e), *one = calloc((size_t)p, sizeof *one);
    double *w = calloc((size_t)p, sizeof *w), *h = calloc((size_t)p, sizeof *h);
    double *bs = calloc((size_t)n, sizeof *bs), *r0 = calloc((size_t)n, sizeof *r0);
    double *al = calloc((size_t)n, sizeof *al), *qv = calloc((size_t)n, sizeof *qv);
    gsl_matrix *Mi = NULL;
    int rc = -1;
    if (!e || !one || !w || !h || !bs || !r0 || !al || !qv)
        goto out;
    for (int j = 0; j < p; j++)
        if (act[j]) {
            one[j] = 1;
            e[j] = !(own && own[j]);
        }
    bmul(A, prior, act, e, bs);
    bmul(A, prior, act, one, r0);
    for (int i = 0; i < n; i++)
        r0[i] = d[i] - r0[i];
    rc = gram_inverse(A, prior, act, m2, bs, 100.0, &Mi);
    if (rc)
        goto out;
    double sw = 0, bqb = 0;
    for (int i = 0; i < n; i++) {
        double a = 0, q = 0;
        for (int k = 0; k < n; k++) {
            a += gsl_matrix_get(Mi, (size_t)i, (size_t)k) * r0[k];
            q += gsl_matrix_get(Mi, (size_t)i, (size_t)k) * bs[k];
        }
        al[i] = a;
        qv[i] = q;
    }
    for (int i = 0; i < n; i++) {
        sw += bs[i] * al[i];
        bqb += bs[i] * qv[i];
    }
    btmul(A, prior, act, al, w);    /* w_j = c_j' alpha */
    btmul(A, prior, act, qv, h);    /* h_j = c_j' M^-1 b_s */
    double s = 1 + 100 * sw;
    double *x = one;   /* reused: the solution */
    for (int j = 0; j < p; j++)
        x[j] = !act[j] ? 0 : e[j] ? s + w[j] : 1 + w[j];
    /* the residual of every row, data and penalty (GSL's chisq) */
    bmul(A, prior, act, x, r0);
    double chisq = 0.01 * m2 * (s - 1) * (s - 1);
    for (int i = 0; i < n; i++)
        chisq += (d[i] - r0[i]) * (d[i] - r0[i]);
    for (int j = 0; j < p; j++)
        if (act[j]) {
            double t = e[j] ? x[j] - s : x[j] - 1;
            chisq += m2 * t * t;
        }
    double s2 = chisq / n;
    /* c_j' M^-1 c_j, c_j sparse: over pairs of rows sharing column j */
    double *dg = w;   /* reused */
    for (int j = 0; j < p; j++)
        dg[j] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double mik = gsl_matrix_get(Mi, (size_t)i, (size_t)k);
            long a = A->rowptr[i], ae = A->rowptr[i + 1], b = A->rowptr[k], be = A->rowptr[k + 1];
            while (a < ae && b < be) {
                if (A->col[a] < A->col[b])
                    a++;
                else if (A->col[a] > A->col[b])
                    b++;
                else {
                    int j = A->col[a];
                    if (act[j])
                        dg[j] += mik * A->val[a] * A->val[b] * prior[j] * prior[j];
                    a++;
                    b++;
                }
            }
        }
    double var_s = 100 * (1 - 100 * bqb) / m2;
    for (int j = 0; j < p; j++)
        if (act[j]) {
            double v = (1 - dg[j]) / m2;
            if (e[j])   /* x_j = t_j + s */
                v += var_s - 2 * 100 * h[j] / m2;
            c[j] = x[j] * prior[j];
            se[j] = sqrt(fabs(s2 * v)) * prior[j];
        }
    rc = 0;
out:
    if (Mi)
        gsl_matrix_free(Mi);
    free(e); free(one); free(w); free(h); free(bs); free(r0); free(al); free(qv);
    return rc;
}

int pp_lsq_big_solve(const pp_sprows *A, const double *d, const double *prior, const int *own, double mu_rel,
                     const double *lo, double *c, double *se, double *r2)
{
    int n = A->nrows, p = A->ncols;
    int *act = malloc(sizeof *act * (size_t)(p + 1));
    double *df = malloc(sizeof *df * (size_t)(n + 1));
    double *tn = malloc(sizeof *tn * (size_t)(n + 1));
    int rc = -1;
    if (!act || !df || !tn)
        goto out;
    /* every column is used (the caller left the others out) */
    for (int j = 0; j < p; j++)
        act[j] = 1;
    for (int round = 0; round <= p; round++) {
        /* the fixed columns' time comes off the durations (lsq.c) */
        int *fix = act;   /* act[j] == 0: fixed at lo */
        for (int i = 0; i < n; i++) {
            df[i] = d[i];
            for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
                if (!fix[A->col[e]])
                    df[i] -= A->val[e] * lo[A->col[e]];
        }
        int s = solve_once(A, df, prior, own, mu_rel, act, c, se);
        if (s) {
            rc = s;
            goto out;
        }
        int worst = -1;
        double wv = 0;
        for (int j = 0; j < p; j++) {
            if (!act[j] || c[j] >= lo[j])
                continue;
            double v = isnan(c[j]) ? INFINITY : (lo[j] - c[j]) / (fabs(prior[j]) + 1e-300);
            if (worst < 0 || v > wv) {
                worst = j;
                wv = v;
            }
        }
        if (worst < 0)
            break;
        for (int j = 0; j < p; j++)
            if (j == worst || (round >= 8 && act[j] && !(c[j] >= lo[j])))
                act[j] = 0;
    }
    for (int j = 0; j < p; j++)
        if (!act[j]) {
            c[j] = lo[j];
            se[j] = INFINITY;
        }
    {
        double mean = 0, ss = 0, st = 0;
        for (int i = 0; i < n; i++)
            mean += d[i];
        mean /= n > 0 ? n : 1;
        for (int i = 0; i < n; i++) {
            double pred = 0;
            for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
                pred += A->val[e] * c[A->col[e]];
            ss += (d[i] - pred) * (d[i] - pred);
            st += (d[i] - mean) * (d[i] - mean);
        }
        *r2 = st > 0 ? 1 - ss / st : 1;
    }
    rc = 0;
out:
    free(act);
    free(df);
    free(tn);
    return rc;
}

int pp_lsq_big_cov(const pp_sprows *A, const double *d, const double *c, const double *tau, double *cov,
                   pp_lsq_post *info)
{
    int n = A->nrows, p = A->ncols;
    memset(info, 0, sizeof *info);
    info->nrows = n;
    info->q = p;
    memset(cov, 0, sizeof *cov * (size_t)p * (size_t)p);
    double ss = 0;
    for (int i = 0; i < n; i++) {
        double r = d[i];
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            r -= A->val[e] * c[A->col[e]];
        ss += r * r;
    }
    /* the rank of Z = A diag(tau) from the eigenvalues of Z Z' (n x n):
     * s_k^2 there, so the threshold is on s_k / s_max > 1e-7 (lsq-cov.c's
     * 1e-10 is below what the squares resolve) */
    gsl_matrix *G = NULL;
    int rank = 0;
    if (n > 0) {
        G = gsl_matrix_calloc((size_t)n, (size_t)n);
        gsl_vector *ev = gsl_vector_alloc((size_t)n);
        gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc((size_t)n);
        double *x = calloc((size_t)p + 1, sizeof *x);
        if (!G || !ev || !ws || !x) {
            if (G)
                gsl_matrix_free(G);
            if (ev)
                gsl_vector_free(ev);
            if (ws)
                gsl_eigen_symm_free(ws);
            free(x);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
                x[A->col[e]] += A->val[e] * tau[A->col[e]];
            for (int k = 0; k <= i; k++) {
                double v = 0;
                for (long e = A->rowptr[k]; e < A->rowptr[k + 1]; e++)
                    v += x[A->col[e]] * A->val[e] * tau[A->col[e]];
                gsl_matrix_set(G, (size_t)i, (size_t)k, v);
                gsl_matrix_set(G, (size_t)k, (size_t)i, v);
            }
            for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
                x[A->col[e]] = 0;
        }
        free(x);
        gsl_eigen_symm(G, ev, ws);
        double lmax = 0;
        for (int i = 0; i < n; i++)
            lmax = fmax(lmax, gsl_vector_get(ev, (size_t)i));
        for (int i = 0; i < n; i++)
            rank += gsl_vector_get(ev, (size_t)i) > 1e-14 * lmax && gsl_vector_get(ev, (size_t)i) > 0;
        gsl_matrix_free(G);
        gsl_vector_free(ev);
        gsl_eigen_symm_free(ws);
    }
    info->rank = rank;
    info->dof = n - rank;
    double sigma2 = info->dof >= 1 ? ss / info->dof : INFINITY;
    info->sigma = sqrt(sigma2);
    info->prior_only = !isfinite(sigma2);
    for (int a = 0; a < p; a++)
        cov[(size_t)a * (size_t)p + (size_t)a] = tau[a] * tau[a];
    if (info->prior_only || rank == 0)
        return 0;
    /* Cov = T (I - Z' M Z) T, M = (sigma^2 I + Z Z')^-1 */
    gsl_matrix *M = NULL;
    int g = gram_inverse(A, tau, NULL, sigma2 > 0 ? sigma2 : 1e-300, NULL, 0, &M);
    if (g < 0)
        return -1;
    if (g > 0)
        return 0;   /* the prior stands */
    double *Y = calloc((size_t)n * (size_t)p + 1, sizeof *Y);
    if (!Y) {
        gsl_matrix_free(M);
        return -1;
    }
    for (int k = 0; k < n; k++)
        for (long e = A->rowptr[k]; e < A->rowptr[k + 1]; e++) {
            int b = A->col[e];
            double z = A->val[e] * tau[b];
            for (int i = 0; i < n; i++)
                Y[(size_t)i * (size_t)p + (size_t)b] += gsl_matrix_get(M, (size_t)i, (size_t)k) * z;
        }
    for (int i = 0; i < n; i++)
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++) {
            int a = A->col[e];
            double z = A->val[e] * tau[a];
            for (int b = 0; b < p; b++)
                cov[(size_t)a * (size_t)p + (size_t)b] -= z * Y[(size_t)i * (size_t)p + (size_t)b] * tau[a] * tau[b];
        }
    free(Y);
    gsl_matrix_free(M);
    return 0;
}

/* pp_lsq_quantile_level (lsq.c) on sparse rows */
double pp_lsq_big_level(const pp_sprows *A, const double *dur, const double *c, double tau)
{
    int n = A->nrows;
    double *pred = malloc(sizeof *pred * (size_t)(n + 1));
    if (!pred)
        return 1.0;
    for (int i = 0; i < n; i++) {
        pred[i] = 0;
        for (long e = A->rowptr[i]; e < A->rowptr[i + 1]; e++)
            pred[i] += A->val[e] * c[A->col[e]];
    }
    double l = pp_lsq_quantile_level_pred(pred, dur, n, tau);
    free(pred);
    return l;
}
