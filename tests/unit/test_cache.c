/* test_cache.c - the memory side of the machine model: the bandwidths
 * survive the machine file, and the streaming bandwidth of a working set
 * is interpolated from the measured points by hand; the measured curve
 * (point.mem.stream) replaces the three levels, and says where the memory,
 * whose bandwidth the cores share, begins.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
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

/* A measured dip (a working set measured while the host was busy) is read
 * as the bandwidth of the next larger working set: the curve's upper
 * envelope from the right; the points themselves stay as measured. */
static void test_stream_curve_dip(void **state)
{
    (void)state;
    pp_machine m = small();
    const long ws[] = {64L << 10, 128L << 10, 256L << 10, 1L << 20, 64L << 20, 1L << 30};
    const double bw[] = {69, 29, 28, 73, 45, 29};
    for (int i = 0; i < 6; i++)
        assert_int_equal(pp_curve_add(&m.stream, ws[i], bw[i]), 0);
    /* 128 KB and 256 KB: 73, as 1 MB; and 64 KB too (69 measured): a
     * smaller working set streams at least as fast as a larger one */
    assert_true(fabs(pp_machine_stream_bw(&m, 128 << 10) - 73) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 256 << 10) - 73) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 64 << 10) - 73) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 64L << 20) - 45) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 2e9) - 29) < 1e-12);
    assert_true(m.stream.v[1] == 29);   /* as measured */
    /* the memory's edge: the last working set 1.25 x above the memory's */
    assert_true(fabs(pp_machine_memory_edge(&m) - (double)(64L << 20)) < 1);
}

/* A guest that gets less of the L3 than it reports: the curve is flat
 * at 24 up to 32 MiB, 16 at 64 MiB, 10 from 128 MiB (the memory kernel's
 * 512 MiB: 10).  By hand: 24 below 32 MiB; halfway in log between 32 and
 * 64 MiB (sqrt(32 * 64) MiB): 20; 10 beyond.  The memory edge is the last
 * point more than 25% faster than the memory (16 > 12.5 at 64 MiB), not
 * the nominal 256 MiB L3. */
static void test_stream_curve(void **state)
{
    (void)state;
    pp_machine m = small();
    m.cache_l3_bytes = 256L << 20;
    m.mem_footprint_bytes = 512L << 20;
    /* without the curve: the nominal L3 */
    assert_true(fabs(pp_machine_memory_edge(&m) - (double)(256L << 20)) < 1);
    const long ws[] = {512L << 20, 16L << 10, 1L << 20, 32L << 20, 128L << 20, 64L << 20};
    const double bw[] = {10, 24, 24, 24, 10, 16};
    for (int i = 0; i < 6; i++)   /* out of order: kept sorted */
        assert_int_equal(pp_curve_add(&m.stream, ws[i], bw[i]), 0);
    assert_int_equal(m.stream.n, 6);
    for (int i = 1; i < m.stream.n; i++)
        assert_true(m.stream.ws[i] > m.stream.ws[i - 1]);
    assert_true(fabs(pp_machine_stream_bw(&m, 1024) - 24) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 8 << 20) - 24) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, sqrt(32.0 * 64) * (1 << 20)) - 20) < 1e-9);
    assert_true(fabs(pp_machine_stream_bw(&m, 200.0 * (1 << 20)) - 10) < 1e-12);
    assert_true(fabs(pp_machine_stream_bw(&m, 1e12) - 10) < 1e-12);
    assert_true(fabs(pp_machine_memory_edge(&m) - (double)(64L << 20)) < 1);
    /* the same working set again replaces its bandwidth */
    assert_int_equal(pp_curve_add(&m.stream, 64L << 20, 11), 0);
    assert_int_equal(m.stream.n, 6);
    assert_true(fabs(pp_machine_memory_edge(&m) - (double)(32L << 20)) < 1);
    /* the file keeps it */
    pp_machine r;
    char err[512];
    assert_int_equal(pp_machine_save("/tmp/perfpred-test-cache.machine", &m, err, sizeof err), 0);
    assert_int_equal(pp_machine_load("/tmp/perfpred-test-cache.machine", &r, err, sizeof err), 0);
    assert_int_equal(r.stream.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(r.stream.ws[i], m.stream.ws[i]);
        assert_true(fabs(r.stream.v[i] - m.stream.v[i]) < 1e-5 * m.stream.v[i]);
    }
    /* the load curves survive the file too, and are read by pp_curve_at */
    assert_int_equal(pp_curve_add(&m.chase, 16384, 2), 0);
    assert_int_equal(pp_curve_add(&m.chase, 64L << 20, 82), 0);
    assert_int_equal(pp_curve_add(&m.gather, 16384, 1), 0);
    assert_int_equal(pp_machine_save("/tmp/perfpred-test-cache.machine", &m, err, sizeof err), 0);
    assert_int_equal(pp_machine_load("/tmp/perfpred-test-cache.machine", &r, err, sizeof err), 0);
    assert_int_equal(r.chase.n, 2);
    assert_int_equal(r.gather.n, 1);
    /* halfway in log from 16 KiB to 64 MiB (sqrt(16 * 65536) KiB): 42 */
    assert_true(fabs(pp_curve_at(&r.chase, sqrt(16.0 * 65536) * 1024) - 42) < 1e-9);
    assert_true(fabs(pp_curve_at(&r.gather, 1e9) - 1) < 1e-12);
    pp_curve none = {0};
    assert_true(pp_curve_at(&none, 1e6) == 0);
    /* a curve that never leaves the memory's speed: its first point */
    pp_machine f = small();
    pp_curve_add(&f.stream, 1L << 20, 10);
    pp_curve_add(&f.stream, 8L << 20, 10);
    assert_true(fabs(pp_machine_memory_edge(&f) - (double)(1L << 20)) < 1);
    /* full */
    pp_machine g = small();
    for (int i = 0; i < PP_MACHINE_MAX_POINTS; i++)
        assert_int_equal(pp_curve_add(&g.stream, 1000L + i, 1), 0);
    assert_int_equal(pp_curve_add(&g.stream, 5, 1), -1);
}

/* Where the edge comes from, in words: the measured curve's size with the
 * reported L3 beside it (and which one is used when they differ by more
 * than 2x), the nominal size without a curve, nothing without either; the
 * machine file carries it as a comment that its reader skips. */
static void test_edge_note(void **state)
{
    (void)state;
    char note[256];
    pp_machine m = small();
    pp_machine_edge_note(&m, note, sizeof note);
    assert_string_equal(note, "last cache level 8.0 MiB, the host's nominal size (no measured bandwidth curve)");
    m.cache_l3_bytes = 32L << 20;
    pp_curve_add(&m.stream, 16384, 64);
    pp_curve_add(&m.stream, 8L << 20, 64);
    pp_curve_add(&m.stream, (8L << 20) + 8, 8);
    pp_curve_add(&m.stream, 64L << 20, 8);
    pp_machine_edge_note(&m, note, sizeof note);
    assert_string_equal(note, "last cache level 8.0 MiB, where the measured bandwidth curve reaches the memory's "
                              "(the host reports a 32.0 MiB L3: the measured size is used)");
    m.cache_l3_bytes = 12L << 20;   /* within 2x: both agree */
    pp_machine_edge_note(&m, note, sizeof note);
    assert_string_equal(note, "last cache level 8.0 MiB, where the measured bandwidth curve reaches the memory's "
                              "(the host reports a 12.0 MiB L3)");
    char err[512];
    pp_machine r;
    assert_int_equal(pp_machine_save("/tmp/perfpred-test-cache.machine", &m, err, sizeof err), 0);
    FILE *f = fopen("/tmp/perfpred-test-cache.machine", "r");
    assert_non_null(f);
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, f))
        seen |= strncmp(line, "# memory model: last cache level 8.0 MiB,", 41) == 0;
    fclose(f);
    assert_true(seen);
    assert_int_equal(pp_machine_load("/tmp/perfpred-test-cache.machine", &r, err, sizeof err), 0);
    pp_machine fl = small();   /* a flat curve: no cache seen at all */
    pp_curve_add(&fl.stream, 16384, 10);
    pp_curve_add(&fl.stream, 64L << 20, 9);
    pp_machine_edge_note(&fl, note, sizeof note);
    assert_string_equal(note, "the measured bandwidth curve is flat: every working set from 16.0 KiB on is served "
                              "at the memory's bandwidth (a busy host or a slow build may flatten it; calibrate again)");
    pp_machine d = small();
    d.cache_l1d_bytes = d.cache_l2_bytes = d.cache_l3_bytes = 0;
    pp_machine_edge_note(&d, note, sizeof note);
    assert_string_equal(note, "");
}

/* Bad point.mem.stream lines: one error naming the file and line. */
static void test_stream_curve_errors(void **state)
{
    (void)state;
    pp_machine m = small(), r;
    char err[512];
    const char *path = "/tmp/perfpred-test-cache-bad.machine";
    assert_int_equal(pp_machine_save(path, &m, err, sizeof err), 0);
    const char *bad[] = {"point.mem.stream = 1024", "point.mem.stream = 1024 0",
                         "point.mem.stream = x 3", "point.mem.stream = 1024 3 4",
                         "point.mem.stream = 1024 -3", "point.mem.stream = 0 3"};
    const char *want[] = {"expected 'BYTES BYTES_PER_NS'", "must be > 0", "not an integer",
                          "expected 'BYTES BYTES_PER_NS'", "negative value", "out of range"};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pp_machine_save(path, &m, err, sizeof err), 0);
        FILE *f = fopen(path, "a");
        assert_non_null(f);
        fprintf(f, "%s\n", bad[i]);
        fclose(f);
        assert_int_equal(pp_machine_load(path, &r, err, sizeof err), -1);
        assert_non_null(strstr(err, path));
        assert_non_null(strstr(err, want[i]));
    }
    /* the load curves: times, the same rules */
    const char *lbad[] = {"point.mem.chase = 1024", "point.mem.gather = 1024 0"};
    const char *lwant[] = {"expected 'BYTES NS'", "the time must be > 0"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pp_machine_save(path, &m, err, sizeof err), 0);
        FILE *f = fopen(path, "a");
        assert_non_null(f);
        fprintf(f, "%s\n", lbad[i]);
        fclose(f);
        assert_int_equal(pp_machine_load(path, &r, err, sizeof err), -1);
        assert_non_null(strstr(err, lwant[i]));
    }
    /* a duplicate working set */
    assert_int_equal(pp_machine_save(path, &m, err, sizeof err), 0);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fprintf(f, "point.mem.stream = 4096 3\npoint.mem.stream = 4096 5\n");
    fclose(f);
    assert_int_equal(pp_machine_load(path, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "duplicate point for 4096 bytes"));
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bandwidths_round_trip),
        cmocka_unit_test(test_stream_bandwidth),
        cmocka_unit_test(test_stream_curve),
        cmocka_unit_test(test_stream_curve_dip),
        cmocka_unit_test(test_stream_curve_errors),
        cmocka_unit_test(test_edge_note),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
