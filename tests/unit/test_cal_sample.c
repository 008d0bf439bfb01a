/* test_cal_sample.c - calibrate's sampler (analysis/calibrate_sample.c):
 * the warm-up sizes the samples from warm calls.  A benchmark whose first
 * call is slow (40 ms, as the first two-thread run after calibrate's
 * large kernel arrays was on the development VM) and whose iterations
 * take 2 us of busy waiting must be sampled at about target / 2 us
 * iterations, not at the one iteration that first call suggests (which
 * made scale.compute(2) 12-14 instead of 1).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <time.h>

#include "calibrate.h"

typedef struct {
    int calls;
    long last_iters;
} bench;

static void spin_ns(double ns)
{
    double t0 = pp_cal_now_ns();
    while (pp_cal_now_ns() - t0 < ns)
        ;
}

/* 40 ms on the first call, then 2 us an iteration */
static int cold_first(void *ctx, long iters, double *out, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    bench *b = ctx;
    double t0 = pp_cal_now_ns();
    if (b->calls++ == 0)
        spin_ns(40e6);
    else
        spin_ns(2e3 * (double)iters);
    b->last_iters = iters;
    out[0] = (pp_cal_now_ns() - t0) / (double)iters;
    return 0;
}

static void test_cold_first_call(void **state)
{
    (void)state;
    bench b = {0, 0};
    pp_cal_cfg cfg = {0};
    cfg.target_ns = 4e6;
    cfg.reps = 3;
    cfg.max_iters = 1000000;
    double s[3];
    char err[128];
    assert_int_equal(pp_cal_sample(cold_first, &b, 1, &cfg, s, err, sizeof err), 0);
    /* target 4 ms at 2 us: about 2000 iterations a sample (one before).
     * The bounds leave room for a busy host, where a spin that loses its
     * processor takes longer (fewer iterations, slower samples: the suite
     * runs beside other builds), and still fail the old sampler, which
     * took one iteration at the first call's 40 ms. */
    assert_true(b.last_iters >= 20 && b.last_iters <= 4000);
    for (int r = 0; r < 3; r++)
        assert_true(s[r] >= 2e3 && s[r] < 1e6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cold_first_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
