/* test_rt_fmt.c - the record writer's hand-made number formatting
 * (runtime/rt-fmt.h) gives the text printf gives, at the edges of every
 * type it replaces, and through buffer flushes.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/rt-fmt.h"

/* the line buffer's text, written through a memory stream */
static char *run(void (*fill)(struct pp_lbuf *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    struct pp_lbuf *l = malloc(sizeof *l);
    assert_non_null(l);
    l->f = f;
    l->n = 0;
    fill(l);
    pp_lb_flush(l);
    free(l);
    fclose(f);
    return buf;
}

static const uint64_t U[] = {0, 1, 9, 10, 99, 100, 4294967295u, 4294967296u, 10000000000000000000u, UINT64_MAX};
static const int64_t I[] = {0, 1, -1, 9, -10, 2147483647, -2147483648LL, INT64_MAX, INT64_MIN};

static void fill_numbers(struct pp_lbuf *l)
{
    for (size_t i = 0; i < sizeof U / sizeof *U; i++) {
        pp_lb_u64(l, U[i]);
        pp_lb_ch(l, ' ');
        pp_lb_hex(l, U[i]);
        pp_lb_ch(l, '\n');
    }
    for (size_t i = 0; i < sizeof I / sizeof *I; i++) {
        pp_lb_i64(l, I[i]);
        pp_lb_str(l, "|");
    }
}

static void numbers_as_printf(void **state)
{
    (void)state;
    char want[2048];
    size_t n = 0;
    for (size_t i = 0; i < sizeof U / sizeof *U; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%" PRIu64 " %" PRIx64 "\n", U[i], U[i]);
    for (size_t i = 0; i < sizeof I / sizeof *I; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%" PRId64 "|", I[i]);
    char *got = run(fill_numbers);
    assert_string_equal(got, want);
    free(got);
}

/* 3000 numbers and a long string: more than the buffer, flushed in the
 * middle of nothing */
static void fill_long(struct pp_lbuf *l)
{
    for (uint64_t i = 0; i < 3000; i++) {
        pp_lb_u64(l, i * 1000003u);
        pp_lb_ch(l, ' ');
    }
    static char big[5000];
    memset(big, 'x', sizeof big - 1);
    pp_lb_str(l, big);
    pp_lb_str(l, "end");
}

static void through_flushes(void **state)
{
    (void)state;
    size_t cap = 64 * 1024, n = 0;
    char *want = malloc(cap);
    assert_non_null(want);
    for (uint64_t i = 0; i < 3000; i++)
        n += (size_t)snprintf(want + n, cap - n, "%" PRIu64 " ", i * 1000003u);
    memset(want + n, 'x', 4999);
    n += 4999;
    memcpy(want + n, "end", 4);
    char *got = run(fill_long);
    assert_string_equal(got, want);
    free(got);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_as_printf),
        cmocka_unit_test(through_flushes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
