/* test_rt_period.c - loop timing's sampling period (runtime/rt-period.h):
 * hand-computed periods, the warm share over a loop's first timed entries,
 * the bounds.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>

#include "../../runtime/rt-period.h"

/* past the warm entries: a pair of 20 ticks against a 100-tick entry asks
 * for 20 x 1000 / 100 = 200, and the period moves half-way there */
static void test_steady(void **state)
{
    (void)state;
    assert_int_equal(pp_timing_period(0, 100, 20, 100), (1 + 200 + 1) / 2);    /* 101 */
    assert_int_equal(pp_timing_period(101, 100, 20, 101), (101 + 200 + 1) / 2); /* 151 */
    assert_int_equal(pp_timing_period(200, 100, 20, 500), 200);
    assert_int_equal(pp_timing_period(400, 100, 20, 500), (400 + 200 + 1) / 2); /* 300 */
}

/* the first 64 timed entries ask for 20 x 200 / 100 = 40; the 65th for 200 */
static void test_warm(void **state)
{
    (void)state;
    assert_int_equal(pp_timing_period(0, 100, 20, 1), (1 + 40 + 1) / 2);  /* 21 */
    assert_int_equal(pp_timing_period(40, 100, 20, 64), 40);
    assert_int_equal(pp_timing_period(40, 100, 20, 65), (40 + 200 + 1) / 2); /* 120 */
}

/* an entry longer than the budget asks for 1 (every entry timed); an entry
 * of 0 ticks for the longest period, 2^20 */
static void test_bounds(void **state)
{
    (void)state;
    assert_int_equal(pp_timing_period(1, 30000, 20, 100), 1);
    assert_int_equal(pp_timing_period(0, 30000, 20, 100), 1);
    assert_int_equal(pp_timing_period(1, 0, 20, 100), (1 + (1u << 20) + 1) / 2);
    assert_int_equal(pp_timing_period(1u << 20, 1, 20000, 100), 1u << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steady),
        cmocka_unit_test(test_warm),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
