/* test_cache.c - the memory side of the machine model: the bandwidths
 * survive the machine file, and the streaming bandwidth of a working set
 * is interpolated from the measured points by hand.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "machine.h"

static pp_machine small(void)
{
    pp_machine m;
    pp_machine_default(&m);
    m.cache_l1d_bytes = 32 << 10;
    m.cache_l2_bytes = 1 << 20;
    m.cache_l3_bytes = 8 << 20;
    m.bw_l1_bytes_per_ns = 64;
    m.bw_l2_bytes_per_ns = 32;
    m.bw_l3_bytes_per_ns = 16;
    m.mem_bw1_bytes_per_ns = 8;
    m.mem_bw_all_bytes_per_ns = 12;
    return m;
}

static void test_bandwidths_round_trip(void **state)
{
    (void)state;
    pp_machine m = small(), r;
    char err[512];
    assert_int_equal(pp_machine_save("/tmp/perfpred-test-cache.machine", &m, err, sizeof err), 0);
    assert_int_equal(pp_machine_load("/tmp/perfpred-test-cache.machine", &r, err, sizeof err), 0);
    assert_true(fabs(r.bw_l2_bytes_per_ns - 32) < 1e-9);
    assert_int_equal(r.cache_l3_bytes, 8 << 20);
}

/* The streaming bandwidth by working set, from the machine's points
 * (half of each cache level; mem.footprint_bytes for main memory),
 * interpolated in log(bytes) and flat outside them.  By hand, with the
 * points 16 KiB: 64, 512 KiB: 32, 4 MiB: 16 and 64 MiB: 8 (footprint). */
static void test_stream_bandwidth(void **state)
{
    (void)state;
    pp_machine m = small();
    m.mem_footprint_bytes = 64L << 20;
    assert_true(fabs(pp_machine_stream_bw(&m, 1024) - 64) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 16 << 10) - 64) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 512 << 10) - 32) < 1e-12);
    /* halfway in log between 16 KiB and 512 KiB: sqrt(16 * 512) KiB */
    assert_true(fabs(pp_machine_stream_bw(&m, sqrt(16.0 * 512) * 1024) - 48) < 1e-9);
    /* 16 MiB: halfway in log from 4 MiB to 64 MiB is 16 MiB */
    assert_true(fabs(pp_machine_stream_bw(&m, 16 << 20) - 12) < 1e-9);
    assert_true(fabs(pp_machine_stream_bw(&m, 1e12) - 8) < 1e-12);
    /* no bandwidths: no model */
    pp_machine z;
    pp_machine_default(&z);
    z.bw_l1_bytes_per_ns = z.bw_l2_bytes_per_ns = z.bw_l3_bytes_per_ns = z.mem_bw1_bytes_per_ns = 0;
    assert_true(pp_machine_stream_bw(&z, 1e6) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bandwidths_round_trip),
        cmocka_unit_test(test_stream_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
