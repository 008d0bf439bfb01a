/* test_segments.c - the work segments of a hand-built record and their
 * concurrency (the mean number of segments running beside each, itself
 * included), computed by hand below.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "segments.h"

typedef struct {
    int n;
    double ns[8], conc[8];
} seen;

static int collect(void *vp, double ns, double wall, double conc, const pp_rdelta *d, int nd)
{
    (void)wall;
    (void)d;
    (void)nd;
    seen *s = vp;
    if (s->n < 8) {
        s->ns[s->n] = ns;
        s->conc[s->n] = conc;
        s->n++;
    }
    return 0;
}

/* main:   [0, 1000] work, a barrier to 1100, [1100, 2000] work
 * worker: [500, 1500] work
 * By hand: the first main segment has 500 ns alone and 500 ns beside the
 * worker: (500 + 2*500)/1000 = 1.5.  The worker: 500 ns beside the first
 * main segment, 100 ns alone (main in the barrier), 400 ns beside the
 * second: (1000 + 100 + 800)/1000 = 1.9.  The second main segment: 400 ns
 * beside the worker, 500 alone: (800 + 500)/900. */
static void test_concurrency_by_hand(void **state)
{
    (void)state;
    pp_rev bar;
    memset(&bar, 0, sizeof bar);
    bar.kind = PP_EV_BARRIER;
    bar.t0 = 1000;
    bar.t1 = 1100;
    pp_rev *evs[1] = {&bar};
    pp_rthread th[2];
    memset(th, 0, sizeof th);
    th[0].id = 0;
    th[0].kind = PP_T_MAIN;
    th[0].start = 0;
    th[0].nev = 1;
    th[0].ev = evs;
    th[0].tail_t = 2000;
    th[1].id = 1;
    th[1].kind = PP_T_PTHREAD;
    th[1].start = 500;
    th[1].tail_t = 1500;
    pp_record r;
    memset(&r, 0, sizeof r);
    r.nthreads = 2;
    r.threads = th;
    seen s = {0};
    assert_int_equal(pp_segments_walk(&r, collect, &s), 0);
    assert_int_equal(s.n, 3);
    /* in thread order: main's two, then the worker's */
    assert_true(fabs(s.ns[0] - 1000) < 1e-9);
    assert_true(fabs(s.conc[0] - 1.5) < 1e-9);
    assert_true(fabs(s.ns[1] - 900) < 1e-9);
    assert_true(fabs(s.conc[1] - 1300.0 / 900.0) < 1e-9);
    assert_true(fabs(s.ns[2] - 1000) < 1e-9);
    assert_true(fabs(s.conc[2] - 1.9) < 1e-9);
}

/* One thread alone: concurrency 1; CPU time where the record has it. */
static void test_single_thread_cpu_time(void **state)
{
    (void)state;
    pp_rthread th;
    memset(&th, 0, sizeof th);
    th.id = 0;
    th.kind = PP_T_MAIN;
    th.start = 100;
    th.tail_t = 5100;
    th.has_cpu = 1;
    th.cstart = 10;
    th.tail_c = 3010;   /* preempted for 2000 ns: not work */
    pp_record r;
    memset(&r, 0, sizeof r);
    r.nthreads = 1;
    r.threads = &th;
    seen s = {0};
    assert_int_equal(pp_segments_walk(&r, collect, &s), 0);
    assert_int_equal(s.n, 1);
    assert_true(fabs(s.ns[0] - 3000) < 1e-9);
    assert_true(fabs(s.conc[0] - 1.0) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrency_by_hand),
        cmocka_unit_test(test_single_thread_cpu_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
