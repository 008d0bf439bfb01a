/* test_validate.c - validate's error arithmetic on a hand-made case.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "validate.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_hand_made_case(void **state)
{
    (void)state;
    /* predicted, actual, interval */
    pp_vpoint p[5] = {
        {.predicted = 1.1, .actual = 1.0, .lo = 0.9, .hi = 1.3},   /* +10%, inside  */
        {.predicted = 1.8, .actual = 2.0, .lo = 1.6, .hi = 1.95},  /* -10%, outside */
        {.predicted = 3.0, .actual = 4.0, .lo = 1, .hi = 0},       /* -25%, none    */
        {.predicted = 5.0, .actual = 5.0, .lo = 4.5, .hi = 5.5},   /*   0%, inside  */
        {.predicted = 12.0, .actual = 8.0, .lo = 10, .hi = 14},    /* +50%, outside */
    };
    pp_vsummary s;
    pp_validate_summarise(p, 5, 100.0, 0.5, &s);
    NEAR(p[0].error, 0.1);
    NEAR(p[1].error, -0.1);
    NEAR(p[2].error, -0.25);
    NEAR(p[3].error, 0.0);
    NEAR(p[4].error, 0.5);
    assert_int_equal(p[0].inside, 1);
    assert_int_equal(p[1].inside, 0);
    assert_int_equal(p[2].inside, -1);
    assert_int_equal(p[4].inside, 0);
    /* |errors| 0.1 0.1 0.25 0 0.5: mean 0.19, median 0.1, max 0.5 */
    NEAR(s.mean_abs_error, 0.19);
    NEAR(s.median_abs_error, 0.1);
    NEAR(s.max_abs_error, 0.5);
    /* SSE = 0.01 + 0.04 + 1 + 0 + 16 = 17.05; sigma = sqrt(17.05 / 2) */
    NEAR(s.sigma, sqrt(17.05 / 2));
    NEAR(s.mean_actual, 4.0);
    NEAR(s.cov, sqrt(17.05 / 2) / 4.0);
    assert_int_equal(s.with_interval, 4);
    assert_int_equal(s.inside, 2);
    NEAR(s.reduction, 200.0);
}

static void test_few_points_use_n(void **state)
{
    (void)state;
    pp_vpoint p[2] = {{.predicted = 2, .actual = 1, .lo = 1, .hi = 0},
                      {.predicted = 4, .actual = 4, .lo = 1, .hi = 0}};
    pp_vsummary s;
    pp_validate_summarise(p, 2, 1, 1, &s);
    NEAR(s.sigma, sqrt(1.0 / 2));
    NEAR(s.median_abs_error, 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_case),
        cmocka_unit_test(test_few_points_use_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
