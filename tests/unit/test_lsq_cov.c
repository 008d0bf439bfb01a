/* test_lsq_cov.c - the covariance of the costs for the intervals
 * (pp_lsq_posterior_cov) on a hand-built rank-deficient fit, the shape of
 * an MPI run: every rank's segments run the same counts, so a loop's
 * cost per iteration, the call in its body and its cost per entry always
 * come together.  What the rows determine gets the data's variance, what
 * they cannot separate keeps the prior's, and no cost is exactly known.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "lsq.h"

enum { C = 4, M = 12, K = 8, R = M + K };
#define N 1000.0   /* loop iterations per segment, on every rank */

/* Columns: c0 per segment, c1 per iteration, c2 per call (one per
 * iteration), c3 per entry.  M compute segments (4 ranks x 3) of
 * (1, N, N, 1) and K segments of c0 alone; the noise sums to zero in
 * each group, so the true costs are a least-squares solution and the
 * residuals are the noise. */
static const double truth[C] = {1000, 2, 3, 10}, tau[C] = {500, 1, 1.5, 5};

static void build(double *A, double *d, double scale)
{
    for (int i = 0; i < R; i++) {
        int compute = i < M;
        double row[C] = {1, compute ? N : 0, compute ? N : 0, compute ? 1 : 0};
        d[i] = 0;
        for (int j = 0; j < C; j++) {
            A[i * C + j] = row[j];
            d[i] += row[j] * truth[j];
        }
        d[i] += scale * (compute ? 30.0 : 10.0) * (i % 2 ? 1 : -1);
    }
}

/* h' Cov h */
static double var_of(const double *cov, const double *h)
{
    double v = 0;
    for (int a = 0; a < C; a++)
        for (int b = 0; b < C; b++)
            v += h[a] * h[b] * cov[a * C + b];
    return v;
}

static void test_rank_deficient(void **state)
{
    (void)state;
    double A[R * C], d[R], cov[C * C];
    pp_lsq_post info;
    build(A, d, 1.0);
    assert_int_equal(pp_lsq_posterior_cov(A, d, R, C, truth, tau, cov, &info), 0);
    assert_int_equal(info.rank, 2);
    assert_int_equal(info.dof, R - 2);
    assert_false(info.prior_only);
    double s2 = (M * 900.0 + K * 100.0) / (R - 2);
    assert_true(fabs(info.sigma - sqrt(s2)) < 1e-9 * sqrt(s2));
    /* no cost is taken as exactly known */
    for (int j = 0; j < C; j++)
        assert_true(cov[j * C + j] > 0);
    /* symmetric */
    for (int a = 0; a < C; a++)
        for (int b = 0; b < C; b++)
            assert_true(fabs(cov[a * C + b] - cov[b * C + a]) <= 1e-12 * (fabs(cov[a * C + b]) + 1e-300));
    /* the time of a compute segment: the mean of M replicated rows,
     * variance sigma^2 / M (the prior's 3.5e6 hardly shrinks it) */
    double seg[C] = {1, N, N, 1};
    assert_true(fabs(var_of(cov, seg) - s2 / M) < 0.01 * s2 / M);
    /* the fixed cost per segment alone: the K rows of c0 only */
    double c0[C] = {1, 0, 0, 0};
    assert_true(fabs(var_of(cov, c0) - s2 / K) < 0.01 * s2 / K);
    /* the split of the iteration's time between the loop and the call:
     * the data say nothing, the prior stands, given the determined sum
     * s = c3 + N (c1 + c2): var(c1 - c2 | s) */
    double diff[C] = {0, 1, -1, 0};
    double t1 = tau[1] * tau[1], t2 = tau[2] * tau[2], t3 = tau[3] * tau[3];
    double want = (t1 + t2) - N * N * (t1 - t2) * (t1 - t2) / (N * N * (t1 + t2) + t3);
    assert_true(fabs(var_of(cov, diff) - want) < 1e-3 * want);
    /* that is most of the prior's spread of either cost: far from the
     * data's (the split is a guess, and the interval says so) */
    assert_true(cov[1 * C + 1] > 0.4 * t1);
}

/* Replication shrinks what the rows determine, not the split. */
static void test_replication(void **state)
{
    (void)state;
    double A[R * C], d[R], cov[C * C], cov4[C * C];
    pp_lsq_post info;
    build(A, d, 1.0);
    assert_int_equal(pp_lsq_posterior_cov(A, d, R, C, truth, tau, cov, &info), 0);
    /* the same rows four times (four times the ranks) */
    double A4[4 * R * C], d4[4 * R];
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < R; i++) {
            d4[r * R + i] = d[i];
            for (int j = 0; j < C; j++)
                A4[(r * R + i) * C + j] = A[i * C + j];
        }
    assert_int_equal(pp_lsq_posterior_cov(A4, d4, 4 * R, C, truth, tau, cov4, &info), 0);
    double seg[C] = {1, N, N, 1}, diff[C] = {0, 1, -1, 0};
    double ratio = var_of(cov4, seg) / var_of(cov, seg);
    /* sigma^2 / M: four times the residuals over 78 degrees of freedom
     * instead of 18, over four times the rows */
    double want = (4.0 / 78.0) / 4.0 / (1.0 / 18.0);
    assert_true(fabs(ratio - want) < 0.02 * want);
    assert_true(fabs(var_of(cov4, diff) - var_of(cov, diff)) < 1e-3 * var_of(cov, diff));
}

/* Noise-free rows: what they determine is exact, the split still is not. */
static void test_exact_rows(void **state)
{
    (void)state;
    double A[R * C], d[R], cov[C * C];
    pp_lsq_post info;
    build(A, d, 0.0);
    assert_int_equal(pp_lsq_posterior_cov(A, d, R, C, truth, tau, cov, &info), 0);
    double seg[C] = {1, N, N, 1}, diff[C] = {0, 1, -1, 0};
    assert_true(fabs(var_of(cov, seg)) < 1e-9);
    assert_true(var_of(cov, diff) > 2.0);
}

/* A column no row uses keeps its prior, uncorrelated; with no degree of
 * freedom left the rows cannot say how noisy they are, and the prior
 * stands alone; tau 0 leaves a column out. */
static void test_unused_and_prior_only(void **state)
{
    (void)state;
    double A[R * C], d[R], cov[C * C], t[C] = {500, 1, 1.5, 5};
    pp_lsq_post info;
    build(A, d, 1.0);
    for (int i = 0; i < R; i++)
        A[i * C + 2] = 0;            /* the call never ran */
    for (int i = 0; i < R; i++)
        d[i] -= i < M ? N * truth[2] : 0;
    assert_int_equal(pp_lsq_posterior_cov(A, d, R, C, truth, t, cov, &info), 0);
    assert_true(fabs(cov[2 * C + 2] - t[2] * t[2]) < 1e-9);
    for (int j = 0; j < C; j++)
        if (j != 2)
            assert_true(fabs(cov[2 * C + j]) < 1e-9);

    double A1[C] = {1, N, N, 1}, d1[1] = {1000 + 5 * N + 10};
    assert_int_equal(pp_lsq_posterior_cov(A1, d1, 1, C, truth, t, cov, &info), 0);
    assert_true(info.prior_only);
    assert_int_equal(info.dof, 0);
    for (int a = 0; a < C; a++)
        for (int b = 0; b < C; b++)
            assert_true(fabs(cov[a * C + b] - (a == b ? t[a] * t[a] : 0)) < 1e-9);

    t[3] = 0;
    build(A, d, 1.0);
    assert_int_equal(pp_lsq_posterior_cov(A, d, R, C, truth, t, cov, &info), 0);
    assert_int_equal(info.q, 3);
    for (int j = 0; j < C; j++)
        assert_true(cov[3 * C + j] == 0 && cov[j * C + 3] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_deficient),
        cmocka_unit_test(test_replication),
        cmocka_unit_test(test_exact_rows),
        cmocka_unit_test(test_unused_and_prior_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
