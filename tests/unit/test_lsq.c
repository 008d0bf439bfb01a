/* test_lsq.c - the cost regression on synthetic data: it recovers known
 * costs exactly where the data determine them, follows the prior where
 * they cannot, and its standard errors shrink as runs are added.
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

/* Segments of a loop with cost per iteration 2.5 ns and per entry 40 ns,
 * plus 100 ns per segment; trip counts vary (a triangular nest), so the
 * two loop costs are separable. */
static void test_recovers_known_costs(void **state)
{
    (void)state;
    enum { R = 30, C = 3 };
    double A[R * C], d[R], prior[C] = {50, 1, 10}, c[C], se[C], r2;
    for (int i = 0; i < R; i++) {
        double iters = 10.0 * (i + 1), entries = 1 + i % 3;
        A[i * C + 0] = 1;
        A[i * C + 1] = iters;
        A[i * C + 2] = entries;
        d[i] = 100 + 2.5 * iters + 40 * entries;
    }
    assert_int_equal(pp_lsq_solve(A, d, R, C, prior, NULL, 1e-6, c, se, &r2), 0);
    assert_true(fabs(c[0] - 100) < 0.01);
    assert_true(fabs(c[1] - 2.5) < 1e-4);
    assert_true(fabs(c[2] - 40) < 0.01);
    assert_true(r2 > 0.999999);
}

/* Two loops that always run in the proportion 1:1 cannot be separated:
 * their sum is right and the prior (3:1) decides the split. */
static void test_inseparable_follows_prior(void **state)
{
    (void)state;
    enum { R = 20, C = 2 };
    double A[R * C], d[R], prior[C] = {3, 1}, c[C], se[C], r2;
    for (int i = 0; i < R; i++) {
        double n = 100.0 * (i + 1);
        A[i * C + 0] = n;
        A[i * C + 1] = n;
        d[i] = 8.0 * n;   /* c0 + c1 = 8 */
    }
    assert_int_equal(pp_lsq_solve(A, d, R, C, prior, NULL, 0.01, c, se, &r2), 0);
    assert_true(fabs(c[0] + c[1] - 8) < 0.01);
    assert_true(fabs(c[0] / c[1] - 3) < 0.01);
}

/* A measured loop recorded at two sizes (apsp's search: 1024 entries of
 * 32 iterations, then 4096 of 64; 0.95 ns an iteration and 36.5 ns an
 * entry) beside a loop of 10^7 iterations at 1 ns in another row.  The
 * entry column is a few percent of the rows' time: a pull toward the
 * common scale of 1% of all the durations' norm (pp_lsq_solve_bounded)
 * decides it, and the entries' time lands on the iterations; with each
 * column's pull a share of its own data (pp_lsq_solve_bounded_col) the
 * two rows decide: 0.95 and 36.5 within 1%. */
static void test_column_penalty_keeps_entry_cost(void **state)
{
    (void)state;
    enum { R = 3, C = 3 };
    double prior[C] = {1, 1, 10}, lo[C] = {0.01, 0.01, 0.1}, c[C], se[C], r2;
    double A[R * C] = {
        0, 32768, 1024,
        0, 262144, 4096,
        1e7, 0, 0,
    };
    double d[R] = {32768 * 0.95 + 1024 * 36.5, 262144 * 0.95 + 4096 * 36.5, 1e7};
    assert_int_equal(pp_lsq_solve_bounded(A, d, R, C, prior, NULL, 0.01, lo, c, se, &r2, NULL), 0);
    assert_true(c[2] < 0.5 * 36.5);   /* the global pull: the entry cost is lost */
    assert_int_equal(pp_lsq_solve_bounded_col(A, d, R, C, prior, NULL, 0.01, lo, c, se, &r2, NULL), 0);
    assert_true(fabs(c[0] - 1) < 0.01);
    assert_true(fabs(c[1] - 0.95) < 0.0095);
    assert_true(fabs(c[2] - 36.5) < 0.365);
}

/* With each column's own pull, costs the rows cannot separate still
 * split in the ratio of their priors (3:1), their sum right. */
static void test_column_penalty_inseparable(void **state)
{
    (void)state;
    enum { R = 20, C = 2 };
    double A[R * C], d[R], prior[C] = {3, 1}, lo[C] = {0, 0}, c[C], se[C], r2;
    for (int i = 0; i < R; i++) {
        double n = 100.0 * (i + 1);
        A[i * C + 0] = n;
        A[i * C + 1] = n;
        d[i] = 8.0 * n;
    }
    assert_int_equal(pp_lsq_solve_bounded_col(A, d, R, C, prior, NULL, 0.01, lo, c, se, &r2, NULL), 0);
    assert_true(fabs(c[0] + c[1] - 8) < 0.01);
    assert_true(fabs(c[0] / c[1] - 3) < 0.01);
}

/* Noisy segments (deterministic pseudo-noise): the standard error of the
 * cost per iteration falls as more runs (rows) are added. */
static double noise(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((double)((*s >> 8) & 0xffff) / 65535.0 - 0.5);
}

static double se_with(int runs)
{
    enum { C = 2 };
    int R = 10 * runs;
    double *A = malloc(sizeof *A * (size_t)(R * C)), *d = malloc(sizeof *d * (size_t)R);
    double prior[C] = {100, 2}, c[C], se[C], r2;
    unsigned s = 42;
    for (int i = 0; i < R; i++) {
        double iters = 50.0 * (1 + i % 10) * (1 + i / 10);
        A[i * C + 0] = 1;
        A[i * C + 1] = iters;
        d[i] = 100 + 2 * iters + 20 * noise(&s);
    }
    assert_int_equal(pp_lsq_solve(A, d, R, C, prior, NULL, 1e-6, c, se, &r2), 0);
    assert_true(fabs(c[1] - 2) < 0.1);
    free(A);
    free(d);
    return se[1];
}

static void test_errors_shrink_with_runs(void **state)
{
    (void)state;
    double s1 = se_with(1), s2 = se_with(2), s4 = se_with(4);
    assert_true(s1 > 0);
    assert_true(s2 < s1);
    assert_true(s4 < s2);
}

static void test_unused_column_keeps_prior(void **state)
{
    (void)state;
    double A[4] = {1, 0, 2, 0}, d[2] = {5, 10}, prior[2] = {1, 7}, c[2], se[2], r2;
    assert_int_equal(pp_lsq_solve(A, d, 2, 2, prior, NULL, 1e-6, c, se, &r2), 0);
    assert_true(fabs(c[0] - 5) < 1e-3);
    assert_true(c[1] == 7 && isinf(se[1]));
}

/* A loop whose true cost is 5 ns and a second column that the data
 * credit with a negative cost (the segments with more of it were faster):
 * least squares gives the second a negative cost; bounded at 0, it stays
 * at 0 and the first is fitted to the whole time, so the fitted total
 * is not inflated when the negative cost is raised. */
static void test_bounded_keeps_costs_nonnegative(void **state)
{
    (void)state;
    enum { R = 12, C = 2 };
    double A[R * C], d[R], prior[C] = {5, 5}, lo[C] = {0, 0}, c[C], se[C], r2;
    double sum = 0;
    for (int i = 0; i < R; i++) {
        double x = 100.0 * (i + 1), y = 10.0 * (i % 4);
        A[i * C + 0] = x;
        A[i * C + 1] = y;
        d[i] = 5 * x - 2 * y;
        sum += d[i];
    }
    assert_int_equal(pp_lsq_solve(A, d, R, C, prior, NULL, 1e-6, c, se, &r2), 0);
    assert_true(fabs(c[1] + 2) < 1e-3);   /* unbounded: -2 */
    assert_int_equal(pp_lsq_solve_bounded(A, d, R, C, prior, NULL, 1e-6, lo, c, se, &r2, NULL), 0);
    assert_true(c[1] == 0 && isinf(se[1]));
    /* the first alone: least squares of d on x (computed by hand below) */
    double sxy = 0, sxx = 0;
    for (int i = 0; i < R; i++) {
        sxy += A[i * C] * d[i];
        sxx += A[i * C] * A[i * C];
    }
    assert_true(fabs(c[0] - sxy / sxx) < 1e-6);
    double fitted = 0;
    for (int i = 0; i < R; i++)
        fitted += A[i * C] * c[0];
    assert_true(fabs(fitted - sum) / sum < 0.02);
    assert_true(r2 > 0.99 && r2 < 1);
}

/* The quantile level: rows whose fitted work is 1 each, a quarter of the
 * work recorded at the fit's time and the rest 30% slower (a fit of the
 * mean lies between): the 0.25 level is the quiet rows' ratio. */
static void test_quantile_level(void **state)
{
    (void)state;
    enum { R = 8, C = 1 };
    double A[R], d[R], c[C] = {1.0};
    for (int i = 0; i < R; i++) {
        A[i] = 1;
        d[i] = i < 2 ? 0.8 : 1.04;   /* 0.8 = 1.04 / 1.3 */
    }
    assert_true(fabs(pp_lsq_quantile_level(A, d, R, C, c, 0.25) - 0.8) < 1e-12);
    assert_true(fabs(pp_lsq_quantile_level(A, d, R, C, c, 0.2) - 0.8) < 1e-12);
    /* the 0.5 level is above 1: the fit is left alone */
    assert_true(pp_lsq_quantile_level(A, d, R, C, c, 0.5) == 1.0);
    /* least squares, too few rows, or a level that is a misfit */
    assert_true(pp_lsq_quantile_level(A, d, R, C, c, 0) == 1.0);
    assert_true(pp_lsq_quantile_level(A, d, 3, C, c, 0.25) == 1.0);
    for (int i = 0; i < R; i++)
        d[i] = 0.3;
    assert_true(pp_lsq_quantile_level(A, d, R, C, c, 0.25) == 1.0);
    /* work-weighted: one long quiet row outweighs three short slow ones */
    double A2[4] = {10, 1, 1, 1}, d2[4] = {9, 2, 2, 2};
    assert_true(fabs(pp_lsq_quantile_level(A2, d2, 4, 1, c, 0.25) - 0.9) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_known_costs),
        cmocka_unit_test(test_inseparable_follows_prior),
        cmocka_unit_test(test_column_penalty_keeps_entry_cost),
        cmocka_unit_test(test_column_penalty_inseparable),
        cmocka_unit_test(test_errors_shrink_with_runs),
        cmocka_unit_test(test_unused_column_keeps_prior),
        cmocka_unit_test(test_bounded_keeps_costs_nonnegative),
        cmocka_unit_test(test_quantile_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
