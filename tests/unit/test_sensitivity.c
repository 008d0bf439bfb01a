/* test_sensitivity.c - sensitivity's one-sided elasticities and its kink
 * mark (pp_sens_sides), against a max of two sums computed by hand.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "sensitivity.h"

/* T(b) = max(100 + 2b, 130 + b), the two paths of a traversal crossing at
 * b = 30 (T = 160).  At b = 30 +- 1% (0.3): T(29.7) = max(159.4, 159.7) =
 * 159.7, T(30.3) = max(160.6, 160.3) = 160.6.  Below, the slope is 1: the
 * elasticity 30 x 1 / 160 = 0.1875; above, 2: 0.375; the central
 * difference 1.5 gives 0.28125, which neither side has: a kink. */
static double T(double b)
{
    return fmax(100 + 2 * b, 130 + b);
}

static void test_kink_by_hand(void **st)
{
    (void)st;
    double below = -1, above = -1;
    double b = 30, bm = b * (1 - PP_SENS_STEP), bp = b * (1 + PP_SENS_STEP);
    assert_int_equal(pp_sens_sides(b, bm, T(bm), T(b), bp, T(bp), &below, &above), 1);
    assert_true(fabs(below - 0.1875) < 1e-12);
    assert_true(fabs(above - 0.375) < 1e-12);
}

/* Away from the crossing (b = 50: the first path, T = 200) both sides
 * have slope 2: elasticity 50 x 2 / 200 = 0.5, no kink. */
static void test_smooth_by_hand(void **st)
{
    (void)st;
    double below = -1, above = -1;
    double b = 50, bm = b * (1 - PP_SENS_STEP), bp = b * (1 + PP_SENS_STEP);
    assert_int_equal(pp_sens_sides(b, bm, T(bm), T(b), bp, T(bp), &below, &above), 0);
    assert_true(fabs(below - 0.5) < 1e-12 && fabs(above - 0.5) < 1e-12);
}

/* A side that did not move (a factor clamped at 1) or T = 0: nothing is
 * computed and the outputs stay as the caller set them. */
static void test_degenerate(void **st)
{
    (void)st;
    double below = 7, above = 7;
    assert_int_equal(pp_sens_sides(1, 1, 5, 5, 1.01, 6, &below, &above), 0);
    assert_int_equal(pp_sens_sides(1, 0.99, 0, 0, 1.01, 0, &below, &above), 0);
    assert_true(below == 7 && above == 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kink_by_hand),
        cmocka_unit_test(test_smooth_by_hand),
        cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
