/* test_whatif.c - --with: units, names and aliases, what each override
 * does to the machine (by hand), and the errors that name what is wrong.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "whatif.h"

static void test_units(void **st)
{
    (void)st;
    double v;
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "2us", &v), 0);
    assert_true(v == 2000);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "1.5ms", &v), 0);
    assert_true(v == 1.5e6);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "150", &v), 0);   /* bare: ns */
    assert_true(v == 150);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "3 s", &v), 0);
    assert_true(v == 3e9);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "2\xc2\xb5s", &v), 0);
    assert_true(v == 2000);
    assert_int_equal(pp_unit_parse(PP_UNIT_BANDWIDTH, "20GB/s", &v), 0);
    assert_true(v == 2e10);
    assert_int_equal(pp_unit_parse(PP_UNIT_BANDWIDTH, "100Gbit/s", &v), 0);
    assert_true(v == 1.25e10);
    assert_int_equal(pp_unit_parse(PP_UNIT_BANDWIDTH, "1GiB/s", &v), 0);
    assert_true(v == 1073741824.0);
    assert_int_equal(pp_unit_parse(PP_UNIT_BANDWIDTH, "20", &v), -1);   /* a unit is needed */
    assert_int_equal(pp_unit_parse(PP_UNIT_BYTES, "12KiB", &v), 0);
    assert_true(v == 12288);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS_PER_BYTE, "80ps/B", &v), 0);
    assert_true(fabs(v - 0.08) < 1e-15);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "2GB/s", &v), -1);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "us", &v), -1);
    assert_int_equal(pp_unit_parse(PP_UNIT_COUNT, "2.5", &v), -1);
    assert_int_equal(pp_unit_parse(PP_UNIT_NS, "nan", &v), -1);
}

static void test_lookup(void **st)
{
    (void)st;
    const pp_par_info *f[4];
    assert_int_equal(pp_par_lookup("barrier", f, 4), 2);
    assert_string_equal(f[0]->name, "barrier.omp");
    assert_string_equal(f[1]->name, "barrier.pthread");
    assert_int_equal(pp_par_lookup("L", f, 4), 1);
    assert_string_equal(f[0]->name, "mpi.latency");
    assert_int_equal(pp_par_lookup("mpi.gap_per_byte_ns", f, 4), 1);   /* the file's key */
    assert_string_equal(f[0]->name, "mpi.gap_per_byte");
    assert_int_equal(pp_par_lookup("alg.bcast", f, 4), 1);
    assert_string_equal(f[0]->name, "mpi.alg.bcast");
    assert_int_equal(pp_par_lookup("cpu", f, 4), 1);
    assert_int_equal(f[0]->kind, PP_PAR_SPEED);
    assert_int_equal(pp_par_lookup("barier", f, 4), 0);
}

/* Each override by hand, with an in-situ factor of 2 on the
 * synchronisation costs: absolute values are what the program sees. */
static void test_apply(void **st)
{
    (void)st;
    pp_machine m;
    pp_machine_default(&m);
    m.sync_scale = 2;
    double G0 = m.net.G, L0 = m.net.L;
    pp_whatif w = {0};
    char err[1024];
    assert_int_equal(pp_whatif_parse(&w, "barrier=2us,forkjoin=x3,bandwidth=20GB/s,latency=x0.5", err, sizeof err), 0);
    assert_int_equal(pp_whatif_parse(&w, "eager=64KiB,alg.bcast=linear,speed=4,lock.a=100", err, sizeof err), 0);
    assert_int_equal(w.n, 9);   /* barrier is two */
    pp_model fj = m.cost[PP_COST_FORKJOIN_OMP];
    assert_int_equal(pp_whatif_apply_machine(&w, &m, err, sizeof err), 0);
    /* barrier: 2 us at every P, as the program sees it (through the factor) */
    assert_true(pp_machine_barrier_ns(&m, 1, PP_SYNC_OMP) == 2000);
    assert_true(pp_machine_barrier_ns(&m, 64, PP_SYNC_OMP) == 2000);
    assert_true(pp_machine_barrier_ns(&m, 64, PP_SYNC_PTHREAD) == 2000);
    /* forkjoin x3: the whole curve */
    assert_true(m.cost[PP_COST_FORKJOIN_OMP].a == 3 * fj.a && m.cost[PP_COST_FORKJOIN_OMP].b == 3 * fj.b);
    assert_int_equal(m.cost[PP_COST_FORKJOIN_OMP].kind, fj.kind);
    /* bandwidth 20 GB/s: G = 0.05 ns per byte */
    assert_true(fabs(m.net.G - 0.05) < 1e-15);
    assert_true(G0 != m.net.G);
    assert_true(m.net.L == L0 * 0.5);
    assert_true(m.net.eager_bytes == 65536);
    assert_int_equal(m.net.alg[PP_COLL_BCAST], PP_ALG_LINEAR);
    assert_true(pp_machine_lock_ns(&m) == 100);
    assert_true(pp_whatif_speed(&w) == 4);
    char txt[512];
    pp_whatif_text(&w, txt, sizeof txt);
    assert_string_equal(txt, "barrier=2us, forkjoin=x3, bandwidth=20GB/s, latency=x0.5, eager=64KiB, "
                             "alg.bcast=linear, speed=4, lock.a=100");
    /* bandwidth x2 halves G */
    pp_whatif w2 = {0};
    assert_int_equal(pp_whatif_parse(&w2, "bandwidth=x2", err, sizeof err), 0);
    assert_int_equal(pp_whatif_apply_machine(&w2, &m, err, sizeof err), 0);
    assert_true(fabs(m.net.G - 0.025) < 1e-15);
    /* a value as the file gives it: the parameter's value */
    assert_true(pp_par_value(pp_par_get(0), &m, 8) == 1.0);   /* speed */
}

static void expect_error(const char *spec, const char *needle)
{
    pp_whatif w = {0};
    char err[2048] = "";
    assert_int_equal(pp_whatif_parse(&w, spec, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("'%s': error '%s' does not say '%s'", spec, err, needle);
}

static void test_errors(void **st)
{
    (void)st;
    expect_error("barier=2us", "unknown parameter 'barier'");
    expect_error("barrier", "is not NAME=VALUE");
    expect_error("barrier=", "is not NAME=VALUE");
    expect_error("barrier=fast", "is not a time like");
    expect_error("barrier=-1us", "(0 or more)");
    expect_error("bandwidth=0GB/s", "above 0");
    expect_error("bandwidth=20", "a bandwidth like");
    expect_error("speed=0", "above 0");
    expect_error("latency=xfast", "is not a factor");
    expect_error("alg.bcast=ring", "not an algorithm bcast has");
    expect_error("latency.a=1us", "not a cost curve");
    expect_error("ranks_per_node=2.5", "whole number");
    expect_error(",", "names no parameter");
    /* a constant cost has no .b */
    pp_machine m;
    pp_machine_default(&m);
    pp_whatif w = {0};
    char err[512];
    assert_int_equal(pp_whatif_parse(&w, "lock.b=5", err, sizeof err), 0);
    assert_int_equal(pp_whatif_apply_machine(&w, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "constant"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
