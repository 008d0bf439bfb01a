/* test_memory_rows.c - a stream's rows in the memory model (docs/model.md,
 * "Memory", rows): a stencil's neighbours a row apart are read again from
 * beyond the L1 once the rows the loop reads at once do not fit there,
 * and each such row costs a read stream's time at the stream's bandwidth.
 * Hand-computed cases.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "memory.h"

/* rows u[i-1][j], u[i][j], u[i+1][j] of a Jacobi sweep beside the written
 * row v[i][j], 8 bytes each an iteration, nx - 2 iterations an entry, an
 * L1 of 32 KiB: live bytes (nx - 2) x (3 + 1) x 8. */
static void test_row_lines(void **state)
{
    (void)state;
    /* nx = 1000: 998 x 32 = 31936 <= 32768: the rows stay in the L1 */
    assert_int_equal(pp_mem_row_lines(3, 998.0 * 32, 32768), 1);
    /* nx = 1026: 1024 x 32 = 32768, exactly the L1: still inside */
    assert_int_equal(pp_mem_row_lines(3, 1024.0 * 32, 32768), 1);
    /* nx = 1100: 1098 x 32 = 35136 > 32768: all three rows are streams */
    assert_int_equal(pp_mem_row_lines(3, 1098.0 * 32, 32768), 3);
    /* one row, or no L1 size known: one line stream */
    assert_int_equal(pp_mem_row_lines(1, 1e9, 32768), 1);
    assert_int_equal(pp_mem_row_lines(5, 1e9, 0), 1);
}

/* The time of a stream, by hand, at 8 bytes an iteration, 8 bytes/ns
 * where the data are and 64 in the L1: read alone 0.75 x 8 / 8 = 0.75 ns;
 * written 1.5 ns; three rows read 0.75 + 2 x 0.75 x 8 x (1/8 - 1/64) =
 * 2.0625 ns; three rows, one written (an in-place stencil) 1.5 + 1.3125 =
 * 2.8125 ns; in the L1's bandwidth the further rows add nothing.  The
 * increase a Jacobi sweep's two streams (u read, three rows; v written)
 * get past a hand machine's edge (64 B/ns inside, 8 beyond), recorded
 * with its rows in the L1 (18 calibrated bytes at 64 B/ns): beyond the
 * edge with the rows in the L1 18 x (1/8 - 1/64) = 1.96875 ns, with the
 * rows out of it 1.3125 ns more, 3.28125; inside the edge with the rows
 * out of the L1, nothing. */
static void test_line_ns(void **state)
{
    (void)state;
    assert_true(fabs(pp_mem_line_ns(8, 0, 1, 8, 64) - 0.75) < 1e-12);
    assert_true(fabs(pp_mem_line_ns(8, 1, 1, 8, 64) - 1.5) < 1e-12);
    assert_true(fabs(pp_mem_line_ns(8, 0, 3, 8, 64) - 2.0625) < 1e-12);
    assert_true(fabs(pp_mem_line_ns(8, 1, 3, 8, 64) - 2.8125) < 1e-12);
    assert_true(fabs(pp_mem_line_ns(8, 0, 3, 64, 64) - 0.09375) < 1e-12);
    assert_true(pp_mem_line_ns(8, 0, 3, 0, 64) == 0);
    double rec = pp_mem_line_ns(8, 0, 1, 64, 64) + pp_mem_line_ns(8, 1, 1, 64, 64);
    double fit = pp_mem_line_ns(8, 0, 1, 8, 64) + pp_mem_line_ns(8, 1, 1, 8, 64);
    double miss = pp_mem_line_ns(8, 0, 3, 8, 64) + pp_mem_line_ns(8, 1, 1, 8, 64);
    double cached = pp_mem_line_ns(8, 0, 3, 64, 64) + pp_mem_line_ns(8, 1, 1, 64, 64);
    assert_true(fabs((fit - rec) - 1.96875) < 1e-12);
    assert_true(fabs((miss - rec) - 3.28125) < 1e-12);
    assert_true(fabs(cached - rec) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_lines),
        cmocka_unit_test(test_line_ns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
