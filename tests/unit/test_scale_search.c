/* test_scale_search.c - the scale search's estimate of the doublings
 * still needed (scale.c, pp_scale_doublings_left): the odds E / (1 - E)
 * grow like a power of the size, c from the last doubling.
 *
 * By hand:
 *  - E 1/9 then 1/5 (odds 1/8, 1/4: c = 1), target 1/2 (odds 1): 2;
 *  - E 1/3 then 1/2 (odds 1/2, 1: c = 1), target 0.8 (odds 4): 2;
 *  - E 0.2 then 0.25 (odds 1/4, 1/3: c = log2(4/3)), target 0.5:
 *    log2(3) / log2(4/3) = 3.8188;
 *  - E 0.8 then 0.9 (odds 4, 9), target 0.99 (odds 99):
 *    log2(11) / log2(9/4) = 2.9570;
 *  - far below the target, E 0.0009 then 0.0023 (a team far too large
 *    for the size; 1 - E hardly moves), target 0.3: about 5.56, not the
 *    hundreds that the inefficiency alone would say;
 *  - an Amdahl limit, E 0.5 then 0.501 (c = 0.0058): flat (HUGE_VAL);
 *    E that fell: flat; a target of 1: never; E already there: 0.
 *
 * And the narrowing's curve through three sizes (pp_scale_iqi): x(f) the
 * parabola through (x, f) = (0, -3), (1, -1), (2, 2) is, by Lagrange,
 * 0 + 1 * (0 + 3)(0 - 2) / ((-1 + 3)(-1 - 2)) + 2 * (0 + 3)(0 + 1) /
 * ((2 + 3)(2 + 1)) = 1 + 2/5 = 1.4 at f = 0 (the line through the last
 * two says 1 + 1/3); points on a line f = 2x - 4 give its root, 2, in
 * any order; two equal f: NAN.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "scale.h"

static void near(double got, double want)
{
    if (fabs(got - want) > 1e-4 * fabs(want))
        fail_msg("%.6f, by hand %.6f", got, want);
}

static void test_the_odds_law(void **state)
{
    (void)state;
    near(pp_scale_doublings_left(1.0 / 9, 0.2, 1, 0.5), 2);
    near(pp_scale_doublings_left(1.0 / 3, 0.5, 1, 0.8), 2);
    near(pp_scale_doublings_left(0.2, 0.25, 1, 0.5), log2(3) / log2(4.0 / 3));
    near(pp_scale_doublings_left(0.8, 0.9, 1, 0.99), log2(11) / log2(9.0 / 4));
}

static void test_far_below_the_target(void **state)
{
    (void)state;
    double d = pp_scale_doublings_left(0.0009, 0.0023, 1, 0.3);
    near(d, 5.5607);
    assert_true(d < 40);
}

static void test_flat_and_degenerate(void **state)
{
    (void)state;
    assert_true(pp_scale_doublings_left(0.5, 0.501, 1, 0.9) == HUGE_VAL);
    assert_true(pp_scale_doublings_left(0.5, 0.4, 1, 0.9) == HUGE_VAL);
    assert_true(pp_scale_doublings_left(0.5, 0.6, 1, 1.0) == HUGE_VAL);
    assert_true(pp_scale_doublings_left(0.5, 0.0, 1, 0.9) == HUGE_VAL);
    assert_true(pp_scale_doublings_left(0.4, 0.95, 1, 0.9) == 0);
    /* no efficiency one doubling before (that size failed): one doubling
     * of the odds assumed */
    near(pp_scale_doublings_left(0, 0.2, 1, 0.5), 2);
}

static void test_the_curve_through_three(void **state)
{
    (void)state;
    near(pp_scale_iqi((double[]){0, 1, 2}, (double[]){-3, -1, 2}), 1.4);
    near(pp_scale_iqi((double[]){0, 1, 3}, (double[]){-4, -2, 2}), 2);
    near(pp_scale_iqi((double[]){3, 0, 1}, (double[]){2, -4, -2}), 2);
    assert_true(isnan(pp_scale_iqi((double[]){0, 1, 2}, (double[]){-1, -1, 2})));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_odds_law),
        cmocka_unit_test(test_far_below_the_target),
        cmocka_unit_test(test_flat_and_degenerate),
        cmocka_unit_test(test_the_curve_through_three),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
