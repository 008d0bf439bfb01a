/* test_vals.c - a point's parameter values (model.h, pp_vals): the model
 * keeps the recorded values, a point carries its own.
 *
 * A hand-made model of three parameters: N (a local and a global of that
 * name, which move together), M, and T, the thread count of a pthreads
 * program (P = T + 1: main and T workers), and two loops whose trip count
 * per entry is a fitted power law 2 N^1.5 and a line 3 M + 4.  The
 * values by hand: at N = 16, 2 * 16^1.5 = 128; at M = 10, 3 * 10 + 4 = 34.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

typedef struct {
    pp_prog m;
    pp_param par[4];
    pp_mloop loops[2];
    pp_mfunc mf;
    pp_dfunc d;
} fixture;

static void setup(fixture *x)
{
    memset(x, 0, sizeof *x);
    const char *names[4] = {"N", "N", "M", "T"};
    long rec[4] = {4, 4, 5, 1};
    for (int i = 0; i < 4; i++) {
        x->par[i].name = (char *)names[i];
        x->par[i].src = (char *)names[i];
        x->par[i].is_global = i == 1;
        x->par[i].recorded = rec[i];
    }
    x->m.nparams = 4;
    x->m.params = x->par;
    x->m.pkind = PP_P_PARAM;
    x->m.p_param = 3;
    x->m.p_offset = 1;
    x->m.p_recorded = 2;
    /* 2 N^1.5 per entry, and 3 M + 4 */
    x->loops[0].pow_param = 0;
    x->loops[0].pow_a = 2;
    x->loops[0].pow_b = 1.5;
    x->loops[0].trip = 16;
    x->loops[1].pow_param = 2;
    x->loops[1].pow_lin = 1;
    x->loops[1].pow_a = 3;
    x->loops[1].pow_b = 4;
    x->loops[1].trip = 19;
    x->d.nloops = 2;
    x->d.name = "main";
    x->mf.d = &x->d;
    x->mf.loops = x->loops;
    x->m.nfuncs = 1;
    x->m.funcs = &x->mf;
}

static void test_recorded_and_set(void **state)
{
    (void)state;
    fixture x;
    setup(&x);
    pp_vals v;
    assert_int_equal(pp_vals_init(&v, &x.m), 0);
    assert_int_equal(v.v[0], 4);
    assert_int_equal(v.v[2], 5);
    char err[400];
    /* the local and the global named N move together; the model keeps 4 */
    assert_int_equal(pp_vals_set(&x.m, &v, "N", 16, err, sizeof err), 0);
    assert_int_equal(v.v[0], 16);
    assert_int_equal(v.v[1], 16);
    assert_int_equal(x.par[0].recorded, 4);
    assert_int_equal(x.par[1].recorded, 4);
    /* an unknown name: refused, naming the parameters there are */
    assert_int_equal(pp_vals_set(&x.m, &v, "K", 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "no parameter named 'K'"));
    assert_non_null(strstr(err, "N, N, M, T"));
    /* a value that differs between the ranks is no problem parameter */
    x.par[2].per_rank = 1;
    assert_int_equal(pp_vals_set(&x.m, &v, "M", 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "differs between the ranks"));
    assert_int_equal(v.v[2], 5);
    x.par[2].per_rank = 0;
    /* back to the recorded point */
    pp_vals_reset(&x.m, &v);
    assert_int_equal(v.v[0], 4);
    assert_int_equal(v.v[1], 4);
    pp_vals_free(&v);
    assert_null(v.v);
}

static void test_P_and_copies(void **state)
{
    (void)state;
    fixture x;
    setup(&x);
    pp_vals a, b, r;
    assert_int_equal(pp_vals_init(&a, &x.m), 0);
    /* P = 8 threads: main and 7 workers */
    pp_vals_apply_P(&x.m, &a, 8);
    assert_int_equal(a.v[3], 7);
    /* --set T=15 asks for P = 16 when no --P is given */
    char err[200];
    assert_int_equal(pp_vals_set(&x.m, &a, "T", 15, err, sizeof err), 0);
    assert_int_equal(pp_prog_default_P(&x.m, &a), 16);
    /* a copy is its own: changing it leaves the original */
    assert_int_equal(pp_vals_copy(&b, &x.m, &a), 0);
    b.v[0] = 99;
    pp_vals_apply_P(&x.m, &b, 2);
    assert_int_equal(a.v[0], 4);
    assert_int_equal(a.v[3], 15);
    assert_int_equal(b.v[3], 1);
    /* a copy of no values is the recorded point */
    assert_int_equal(pp_vals_copy(&r, &x.m, NULL), 0);
    assert_int_equal(r.v[3], 1);
    assert_int_equal(pp_prog_default_P(&x.m, &r), 2);
    /* P as OpenMP's team size is no parameter: the values stay */
    x.m.pkind = PP_P_OMP;
    pp_vals_apply_P(&x.m, &r, 32);
    assert_int_equal(r.v[3], 1);
    pp_vals_free(&a);
    pp_vals_free(&b);
    pp_vals_free(&r);
}

static void test_trips_at_the_point(void **state)
{
    (void)state;
    fixture x;
    setup(&x);
    pp_vals v;
    assert_int_equal(pp_vals_init(&v, &x.m), 0);
    char err[200];
    assert_int_equal(pp_vals_set(&x.m, &v, "N", 16, err, sizeof err), 0);
    assert_int_equal(pp_vals_set(&x.m, &v, "M", 10, err, sizeof err), 0);
    assert_true(fabs(pp_loop_trip(&x.m, &v, &x.loops[0]) - 128) < 1e-9);
    assert_true(fabs(pp_loop_trip(&x.m, &v, &x.loops[1]) - 34) < 1e-9);
    /* no values: the recorded ones (2 * 4^1.5 = 16, 3 * 5 + 4 = 19) */
    assert_true(fabs(pp_loop_trip(&x.m, NULL, &x.loops[0]) - 16) < 1e-9);
    assert_true(fabs(pp_loop_trip(&x.m, NULL, &x.loops[1]) - 19) < 1e-9);
    /* the interval's counts term moves one loop's trip, not the other's */
    v.scaled = &x.loops[0];
    v.trip_scale = 1.25;
    assert_true(fabs(pp_loop_trip(&x.m, &v, &x.loops[0]) - 160) < 1e-9);
    assert_true(fabs(pp_loop_trip(&x.m, &v, &x.loops[1]) - 34) < 1e-9);
    /* a work-queue loop deals its team total over P = T + 1 threads */
    x.loops[1].claim = 1;
    v.v[3] = 1;
    assert_true(fabs(pp_loop_team_total(&x.m, &v, &x.loops[1]) - 34) < 1e-9);
    assert_true(fabs(pp_loop_trip(&x.m, &v, &x.loops[1]) - 17) < 1e-9);
    pp_vals_free(&v);
}

static void test_expressions_at_the_point(void **state)
{
    (void)state;
    fixture x;
    setup(&x);
    pp_vals v;
    assert_int_equal(pp_vals_init(&v, &x.m), 0);
    char err[200];
    pp_expr *e = pp_expr_parse("(+ (* N M) 1)", NULL, err, sizeof err);
    assert_non_null(e);
    int64_t out;
    assert_int_equal(pp_prog_eval(&x.m, NULL, e, &out), 0);
    assert_int_equal(out, 21);
    assert_int_equal(pp_vals_set(&x.m, &v, "M", 7, err, sizeof err), 0);
    assert_int_equal(pp_prog_eval(&x.m, &v, e, &out), 0);
    assert_int_equal(out, 29);
    pp_expr_free(e);
    pp_vals_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorded_and_set),
        cmocka_unit_test(test_P_and_copies),
        cmocka_unit_test(test_trips_at_the_point),
        cmocka_unit_test(test_expressions_at_the_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
