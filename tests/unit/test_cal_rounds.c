/* test_cal_rounds.c - calibrate's rounds (analysis/calibrate_rounds.c):
 * the value kept of a cost measured in rounds (the minimum), its spread
 * (the median round over it), the steal of the probe (the median share a
 * round lost against the smallest CPU time), and the marks they give a
 * machine file (machine-busy.c), against hand-computed cases.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "calibrate.h"

static void test_rounds_quiet(void **state)
{
    (void)state;
    /* 5 rounds: sorted 100 102 104 110 120 -> kept 100 (round 2), median
     * 104, spread 1.04 */
    const double v[5] = {110, 104, 100, 120, 102};
    pp_cal_rounds r;
    assert_int_equal(pp_cal_rounds_summary(v, 5, &r), 0);
    assert_true(r.kept == 100);
    assert_int_equal(r.kept_round, 2);
    assert_true(r.median == 104);
    assert_true(r.spread > 1.0399 && r.spread < 1.0401);
    /* vals is left alone */
    assert_true(v[0] == 110 && v[3] == 120);
}

static void test_rounds_burst(void **state)
{
    (void)state;
    /* a burst of load in one round of three: the minimum and the median
     * stay quiet (kept 1000, median 1100, spread 1.1) */
    const double a[3] = {1000, 7.5e6, 1100};
    pp_cal_rounds r;
    assert_int_equal(pp_cal_rounds_summary(a, 3, &r), 0);
    assert_true(r.kept == 1000 && r.median == 1100);
    assert_true(r.spread > 1.0999 && r.spread < 1.1001);
    /* load in two rounds of three: median 7.5e6 over 1000, spread 7500:
     * marked (> 2) */
    const double b[3] = {7.5e6, 1000, 8e6};
    assert_int_equal(pp_cal_rounds_summary(b, 3, &r), 0);
    assert_true(r.kept == 1000 && r.kept_round == 1 && r.median == 7.5e6);
    assert_true(r.spread > 7499.99 && r.spread < 7500.01);
    /* an even count: the median of 10 20 30 40 is 25, spread 2.5 */
    const double c[4] = {40, 10, 30, 20};
    assert_int_equal(pp_cal_rounds_summary(c, 4, &r), 0);
    assert_true(r.kept == 10 && r.median == 25 && r.spread == 2.5);
    /* one round: spread 1; a zero minimum: spread 0 (unknown) */
    const double d[1] = {42};
    assert_int_equal(pp_cal_rounds_summary(d, 1, &r), 0);
    assert_true(r.kept == 42 && r.spread == 1);
    const double e[2] = {0, 5};
    assert_int_equal(pp_cal_rounds_summary(e, 2, &r), 0);
    assert_true(r.kept == 0 && r.spread == 0);
    assert_int_equal(pp_cal_rounds_summary(d, 0, &r), -1);
    assert_int_equal(pp_cal_rounds_summary(d, PP_CAL_MAX_ROUNDS + 1, &r), -1);
}

static void test_steal(void **state)
{
    (void)state;
    /* work = min cpu = 10 ms; rounds lost 1 - 10/10 = 0, 1 - 10/20 = 0.5,
     * 1 - 10/40 = 0.75 -> median 0.5 */
    const double wall[3] = {10e6, 20e6, 40e6}, cpu[3] = {10e6, 10e6, 12e6};
    double s = pp_cal_steal(wall, cpu, 3);
    assert_true(s > 0.4999 && s < 0.5001);
    /* a quiet host: wall = cpu up to noise: 1 - 10/10.2 = 0.0196,
     * 1 - 10/10.1 = 0.0099, 0 -> median 0.0099 */
    const double w2[3] = {10.2e6, 10.1e6, 10e6}, c2[3] = {10e6, 10e6, 10e6};
    s = pp_cal_steal(w2, c2, 3);
    assert_true(s > 0.0098 && s < 0.0100);
    /* hypervisor steal counts as CPU time in a guest: a round whose cpu and
     * wall are both 2x the quietest lost half (1 - 10/20) */
    const double w3[1] = {20e6}, c3[1] = {20e6};
    assert_true(pp_cal_steal(w3, c3, 1) == 0);   /* one round: nothing to compare with */
    const double w4[2] = {20e6, 10e6}, c4[2] = {20e6, 10e6};
    s = pp_cal_steal(w4, c4, 2);                  /* (0.5 + 0) / 2 */
    assert_true(s > 0.2499 && s < 0.2501);
    assert_true(pp_cal_steal(w4, c4, 0) == 0);
}

static void test_marks(void **state)
{
    (void)state;
    pp_machine m;
    memset(&m, 0, sizeof m);
    assert_int_equal(pp_machine_marked(&m), 0);
    char buf[2200];
    pp_machine_mark_note(&m, "h.machine", buf, sizeof buf);
    assert_string_equal(buf, "");
    m.spread[PP_COST_FORKJOIN_OMP] = 2.0;      /* 2 is not above 2 */
    m.busy_steal = 0.25;                       /* nor 0.25 above 0.25 */
    assert_int_equal(pp_machine_marked(&m), 0);
    m.spread[PP_COST_FORKJOIN_OMP] = 7500;
    assert_int_equal(pp_machine_cost_marked(&m, PP_COST_FORKJOIN_OMP), 1);
    assert_int_equal(pp_machine_cost_marked(&m, PP_COST_BARRIER_OMP), 0);
    assert_int_equal(pp_machine_marked(&m), 1);
    pp_machine_mark_note(&m, "h.machine", buf, sizeof buf);
    assert_non_null(strstr(buf, "warning: h.machine was calibrated on a busy host"));
    assert_non_null(strstr(buf, "rounds that disagree by more than 2x: forkjoin.omp 7500x"));
    m.spread[PP_COST_FORKJOIN_OMP] = 1.1;
    m.busy_steal = 0.48;
    assert_int_equal(pp_machine_marked(&m), 1);
    pp_machine_mark_note(&m, NULL, buf, sizeof buf);
    assert_non_null(strstr(buf, "a spin on every processor lost 48% of its time"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds_quiet),
        cmocka_unit_test(test_rounds_burst),
        cmocka_unit_test(test_steal),
        cmocka_unit_test(test_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
