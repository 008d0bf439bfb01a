/* test_cost_timed.c - the measured loops' rows: which loops are too short
 * to be timed, and the scale that gives the measured rows the segments'
 * residual spread for the covariance (cost-internal.h), on hand-computed
 * cases.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "cost-internal.h"

/* The timing's window is 8 ns an entry.  syrk_omp's dot product of four
 * elements: 47 timed entries measured 881 ns in all, 18.7 ns an entry,
 * 2.3 windows: too short.  apsp's search at N = 64: 127 entries, 108 ns
 * each, 13.5 windows: long enough.  The bound is 12 windows: 12 x 8 x 100
 * = 9600 ns over 100 entries is not too short, 9599 is. */
static void test_too_short(void **state)
{
    (void)state;
    assert_true(pp_timed_too_short(881.0, 47 * 8.0));
    assert_false(pp_timed_too_short(127 * 108.0, 127 * 8.0));
    assert_false(pp_timed_too_short(9600.0, 100 * 8.0));
    assert_true(pp_timed_too_short(9599.0, 100 * 8.0));
    /* no window measured (an old record): nothing is too short */
    assert_false(pp_timed_too_short(10.0, 0.0));
}

/* Two segments with residuals 1 and -1 (mean square 1) and two measured
 * rows with residuals 4 and -2 (mean square 10): the measured rows are
 * scaled by sqrt(1 / 10).  One column, cost 2. */
static void test_group_scale(void **state)
{
    (void)state;
    double A[4] = {10, 20, 30, 40};
    double c[1] = {2};
    double dur[4] = {21, 39, 64, 78};
    double g = pp_cost_group_scale(A, dur, 2, 4, 1, c);
    assert_true(fabs(g - sqrt(0.1)) < 1e-12);
    /* a group that fits exactly: no scale */
    double exact[4] = {20, 40, 64, 78};
    assert_true(pp_cost_group_scale(A, exact, 2, 4, 1, c) == 1.0);
    /* no measured rows */
    assert_true(pp_cost_group_scale(A, dur, 4, 4, 1, c) == 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_short),
        cmocka_unit_test(test_group_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
