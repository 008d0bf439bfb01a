/* calibrate_fit.c - medians and least-squares fits of cost models (GSL),
 * with standard errors from the covariance of the estimates.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pp_cal_median(double *v, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double pp_cal_quantile(double *v, int n, double q)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double pos = q * (double)(n - 1);
    int i = (int)pos;
    double f = pos - (double)i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[n - 1];
}

static double xof(pp_model_kind k, int P)
{
    double p = P < 1 ? 1.0 : (double)P;
    return k == PP_MODEL_LOG2 ? log2(p) : k == PP_MODEL_LINEAR ? p : 1.0;
}

static double rss_of(const pp_model *m, const int *P, const double *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double r = y[i] - pp_model_eval(m, P[i]);
        s += r * r;
    }
    return s;
}

static void finish(pp_model *m, const int *P, const double *y, int n)
{
    double mean = 0.0, tss = 0.0;
    for (int i = 0; i < n; i++)
        mean += y[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        tss += (y[i] - mean) * (y[i] - mean);
    double rss = rss_of(m, P, y, n);
    double r2 = tss > 0.0 ? 1.0 - rss / tss : 1.0;
    m->r2 = r2 < 0.0 ? 0.0 : r2 > 1.0 ? 1.0 : r2;
    m->n = n;
}

static void fit_const(const int *P, const double *y, int n, pp_model *m)
{
    double mean = 0.0, ss = 0.0;
    for (int i = 0; i < n; i++)
        mean += y[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        ss += (y[i] - mean) * (y[i] - mean);
    memset(m, 0, sizeof *m);
    m->kind = PP_MODEL_CONST;
    m->a = mean < 0.0 ? 0.0 : mean;
    m->a_se = n > 1 ? sqrt(ss / (n - 1) / n) : 0.0;
    finish(m, P, y, n);
    m->r2 = -1.0;               /* nothing explained by P: not reported   */
}

/* y = b*x through the origin. */
static void fit_origin(const int *P, const double *y, int n,
                       pp_model_kind k, pp_model *m)
{
    double sxx = 0.0, sxy = 0.0;
    for (int i = 0; i < n; i++) {
        double x = xof(k, P[i]);
        sxx += x * x;
        sxy += x * y[i];
    }
    memset(m, 0, sizeof *m);
    m->kind = k;
    m->b = sxx > 0.0 ? sxy / sxx : 0.0;
    if (m->b < 0.0)
        m->b = 0.0;
    double rss = rss_of(m, P, y, n);
    m->b_se = (n > 1 && sxx > 0.0) ? sqrt(rss / (n - 1) / sxx) : 0.0;
    finish(m, P, y, n);
}

/* Unconstrained a + b*x with GSL; returns -1 when x does not vary. */
static int fit_affine(const int *P, const double *y, int n, pp_model_kind k,
                      pp_model *m)
{
    double x0 = xof(k, P[0]);
    int varies = 0;
    for (int i = 1; i < n; i++)
        if (xof(k, P[i]) != x0)
            varies = 1;
    if (!varies || n < 2)
        return -1;
    memset(m, 0, sizeof *m);
    m->kind = k;
    if (n == 2) {               /* exact; no degrees of freedom left      */
        double x1 = xof(k, P[1]);
        m->b = (y[1] - y[0]) / (x1 - x0);
        m->a = y[0] - m->b * x0;
        finish(m, P, y, n);
        return 0;
    }
    gsl_matrix *X = gsl_matrix_alloc((size_t)n, 2);
    gsl_vector *Y = gsl_vector_alloc((size_t)n);
    gsl_vector *c = gsl_vector_alloc(2);
    gsl_matrix *cov = gsl_matrix_alloc(2, 2);
    gsl_multifit_linear_workspace *w =
        gsl_multifit_linear_alloc((size_t)n, 2);
    int rc = -1;
    if (X && Y && c && cov && w) {
        for (int i = 0; i < n; i++) {
            gsl_matrix_set(X, (size_t)i, 0, 1.0);
            gsl_matrix_set(X, (size_t)i, 1, xof(k, P[i]));
            gsl_vector_set(Y, (size_t)i, y[i]);
        }
        double chisq;
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        if (gsl_multifit_linear(X, Y, c, cov, &chisq, w) == GSL_SUCCESS) {
            m->a = gsl_vector_get(c, 0);
            m->b = gsl_vector_get(c, 1);
            /* GSL scales cov by the residual variance chisq / (n - 2). */
            m->a_se = sqrt(fabs(gsl_matrix_get(cov, 0, 0)));
            m->b_se = sqrt(fabs(gsl_matrix_get(cov, 1, 1)));
            finish(m, P, y, n);
            rc = 0;
        }
        gsl_set_error_handler(old);
    }
    if (w) gsl_multifit_linear_free(w);
    if (cov) gsl_matrix_free(cov);
    if (c) gsl_vector_free(c);
    if (Y) gsl_vector_free(Y);
    if (X) gsl_matrix_free(X);
    return rc;
}

int pp_cal_fit(const int *P, const double *y, int n, pp_model_kind kind,
               pp_model *out)
{
    if (n <= 0)
        return -1;
    if (kind == PP_MODEL_CONST || fit_affine(P, y, n, kind, out) != 0) {
        fit_const(P, y, n, out);
        return 0;
    }
    if (out->b < 0.0)
        fit_const(P, y, n, out);
    else if (out->a < 0.0)
        fit_origin(P, y, n, kind, out);
    return 0;
}

int pp_cal_fit_best(const int *P, const double *y, int n, int depends_on_p,
                    pp_model_kind prefer, pp_model *out)
{
    if (n <= 0)
        return -1;
    int distinct = 0;
    for (int i = 1; i < n; i++)
        if (P[i] != P[0])
            distinct = 1;
    if (!depends_on_p || !distinct)
        return pp_cal_fit(P, y, n, PP_MODEL_CONST, out);
    pp_model lin, lg;
    if (pp_cal_fit(P, y, n, PP_MODEL_LINEAR, &lin)
        || pp_cal_fit(P, y, n, PP_MODEL_LOG2, &lg))
        return -1;
    double rl = rss_of(&lin, P, y, n), rg = rss_of(&lg, P, y, n);
    double hi = rl > rg ? rl : rg;
    if (hi <= 0.0 || fabs(rl - rg) <= 0.05 * hi)
        *out = prefer == PP_MODEL_LOG2 ? lg : lin;
    else
        *out = rl < rg ? lin : lg;
    return 0;
}
