/* test_inst_range.c - a compiled expression run over a range of ranks at
 * once (inst-range.c, pp_inst_run_range), the class walk's test of which
 * ranks evaluate alike: against cases worked by hand, and against every
 * rank of the range evaluated on its own (pp_inst_run).
 *
 * By hand (P = 1024 or 65 536, n = 256):
 *  - rank * 1024 / 1024 over 0..1023: the rank itself (affine: slope 1,
 *    since 1024 divides the slope 1024); asked for one value: the ranks
 *    differ from the first on (cut 0);
 *  - (n - rank + P - 1) / P over 256..65535 (mpi_ge's rows of a rank past
 *    them): 0 at every rank;
 *  - rank / 4 over 8..11: 2; over 8..12: 2 up to 11 (cut 11);
 *  - rank * 5 / 3 over 0..10: 0 at rank 0, 1 at rank 1 (cut 0);
 *  - (rank - 5) * 4 / 4 over 0..10: a truncating division whose
 *    numerator changes sign is not followed as affine (cut 0: -5, -4);
 *    the floor division is (rank - 5, slope 1);
 *  - an argument affine in the rank (10 + rank) less the rank: 10;
 *  - remainders: (3 rank + 1) % 3 over 0..100 is 1 (3 divides the
 *    slope); rank % 3 over 0..10 changes at once (cut 0) and repeats
 *    every 3 ranks (the period a run of iterations notes); (2 rank) % 6:
 *    period 6 / gcd(2, 6) = 3; rank % 2 + rank % 3: lcm(2, 3) = 6;
 *    -rank % 4 over 1..10 (negative all along, C's remainder keeps the
 *    sign): period 4; (rank - 5) % 3 over 0..10, whose numerator
 *    changes sign, changes at once (-2, -1: cut 0) with no period noted;
 *    (3 rank - 5) % 3 is -2 up to rank 1 and 1 from rank 2 on (cut 1);
 *    over one rank, 7 % 3 = 1.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "inst-internal.h"

/* a context whose program is the instructions given (ending with I_END) */
typedef struct {
    ictx c;
    pp_icode code[32];
    int64_t stack[32];
} prog;

static void load(prog *p, const pp_icode *in, int n)
{
    memset(p, 0, sizeof *p);
    memcpy(p->code, in, sizeof *in * (size_t)n);
    p->c.code = p->code;
    p->c.ncode = n;
    p->c.capcode = 32;
    p->c.stack = p->stack;
    p->c.capstack = 32;
    p->c.mpi = 1;
}

#define K(x) {.op = I_K, .v = (x)}
#define BINK(k, x) {.op = I_BINK + (k) - PP_E_ADD, .v = (x)}
#define BIN(k) {.op = I_BIN + (k) - PP_E_ADD}
#define RANK {.op = I_RANK}
#define END {.op = I_END}

/* over ranks lo..hi: the range's answer (1 alike, 0 not), its value and
 * slope, and where the ranks stop agreeing */
static int over(prog *p, const frame *fr, int64_t lo, int64_t hi, int with_slope, int64_t *v, int64_t *slope,
                int64_t *cut)
{
    int ok = 0;
    *cut = hi;
    *slope = 0;
    p->c.range_rank = 1;
    int r = pp_inst_run_range(&p->c, fr, 0, lo, hi, &ok, v, with_slope ? slope : NULL, cut);
    p->c.range_rank = 0;
    assert_true(r == 0 || ok);
    return r;
}

/* what the range says agrees with each rank's own evaluation */
static void check_against_each(prog *p, const frame *fr, int64_t lo, int64_t hi)
{
    int64_t v, slope, cut;
    int r = over(p, fr, lo, hi, 1, &v, &slope, &cut);
    int64_t first = 0;
    for (int64_t t = lo; t <= hi; t++) {
        int64_t x;
        p->c.rank = (int)t;
        assert_int_equal(pp_inst_run(&p->c, fr, 0, &x), 0);
        if (t == lo)
            first = x;
        if (r == 1)
            assert_true(x == v + slope * t);
        else if (t <= cut)
            assert_true(x == first);    /* alike up to the cut */
    }
    if (r == 0)
        assert_true(cut >= lo && cut < hi);
}

static void test_division_by_the_slope(void **state)
{
    (void)state;
    prog p;
    const pp_icode in[] = {RANK, BINK(PP_E_MUL, 1024), BINK(PP_E_DIV, 1024), END};
    load(&p, in, 4);
    int64_t v, slope, cut;
    assert_int_equal(over(&p, NULL, 0, 1023, 1, &v, &slope, &cut), 1);
    assert_true(v == 0 && slope == 1);
    assert_int_equal(over(&p, NULL, 0, 1023, 0, &v, &slope, &cut), 0);
    assert_true(cut == 0);
    check_against_each(&p, NULL, 0, 1023);
}

static void test_rows_past_the_ranks(void **state)
{
    (void)state;
    prog p;
    /* (256 - rank + 65535) / 65536 */
    const pp_icode in[] = {K(256), RANK, BIN(PP_E_SUB), BINK(PP_E_ADD, 65535), BINK(PP_E_DIV, 65536), END};
    load(&p, in, 6);
    int64_t v, slope, cut;
    assert_int_equal(over(&p, NULL, 256, 65535, 0, &v, &slope, &cut), 1);
    assert_true(v == 0);
    /* rank 255 still owns a row */
    assert_int_equal(over(&p, NULL, 255, 65535, 0, &v, &slope, &cut), 0);
    assert_true(cut == 255);
}

static void test_quotients_that_change(void **state)
{
    (void)state;
    prog p;
    const pp_icode by4[] = {RANK, BINK(PP_E_DIV, 4), END};
    load(&p, by4, 3);
    int64_t v, slope, cut;
    assert_int_equal(over(&p, NULL, 8, 11, 0, &v, &slope, &cut), 1);
    assert_true(v == 2);
    assert_int_equal(over(&p, NULL, 8, 12, 0, &v, &slope, &cut), 0);
    assert_true(cut == 11);
    check_against_each(&p, NULL, 0, 40);

    const pp_icode five_thirds[] = {RANK, BINK(PP_E_MUL, 5), BINK(PP_E_DIV, 3), END};
    load(&p, five_thirds, 4);
    assert_int_equal(over(&p, NULL, 0, 10, 1, &v, &slope, &cut), 0);
    assert_true(cut == 0);
    check_against_each(&p, NULL, 0, 10);
    check_against_each(&p, NULL, 3, 3);
}

static void test_sign_of_a_truncation(void **state)
{
    (void)state;
    prog p;
    const pp_icode trunc[] = {RANK, BINK(PP_E_SUB, 5), BINK(PP_E_MUL, 4), BINK(PP_E_DIV, 4), END};
    load(&p, trunc, 5);
    int64_t v, slope, cut;
    assert_int_equal(over(&p, NULL, 0, 10, 1, &v, &slope, &cut), 0);
    assert_true(cut == 0);
    check_against_each(&p, NULL, 0, 10);
    const pp_icode flr[] = {RANK, BINK(PP_E_SUB, 5), BINK(PP_E_MUL, 4), BINK(PP_E_FDIV, 4), END};
    load(&p, flr, 5);
    assert_int_equal(over(&p, NULL, 0, 10, 1, &v, &slope, &cut), 1);
    assert_true(v == -5 && slope == 1);
    check_against_each(&p, NULL, 0, 10);
}

static void test_a_slot_affine_in_the_rank(void **state)
{
    (void)state;
    prog p;
    /* (arg 0) - rank, the argument 10 + rank over the range */
    const pp_icode in[] = {{.op = I_ARG, .a = 0}, RANK, BIN(PP_E_SUB), END};
    load(&p, in, 4);
    int64_t args[1] = {10}, c1[1] = {1};
    unsigned char known[1] = {1};
    frame fr;
    memset(&fr, 0, sizeof fr);
    fr.args = args;
    fr.args_known = known;
    fr.args_c1 = c1;
    int64_t v, slope, cut;
    assert_int_equal(over(&p, &fr, 0, 100, 0, &v, &slope, &cut), 1);
    assert_true(v == 10);
}

/* the period noted over lo..hi for the program (a run of iterations) */
static int64_t period_of(prog *p, int64_t lo, int64_t hi, int64_t *cut)
{
    int64_t v, slope;
    p->c.itr.on = 1;
    p->c.itr.period = 0;
    int r = over(p, NULL, lo, hi, 0, &v, &slope, cut);
    p->c.itr.on = 0;
    assert_int_equal(r, 0);
    return p->c.itr.period;
}

static void test_remainders(void **state)
{
    (void)state;
    prog p;
    int64_t v, slope, cut;
    const pp_icode one[] = {RANK, BINK(PP_E_MUL, 3), BINK(PP_E_ADD, 1), BINK(PP_E_MOD, 3), END};
    load(&p, one, 5);
    assert_int_equal(over(&p, NULL, 0, 100, 0, &v, &slope, &cut), 1);
    assert_true(v == 1);
    check_against_each(&p, NULL, 0, 100);

    const pp_icode by3[] = {RANK, BINK(PP_E_MOD, 3), END};
    load(&p, by3, 3);
    assert_int_equal(period_of(&p, 0, 10, &cut), 3);
    assert_true(cut == 0);
    check_against_each(&p, NULL, 0, 10);
    assert_int_equal(over(&p, NULL, 7, 7, 0, &v, &slope, &cut), 1);
    assert_true(v == 1);

    const pp_icode even6[] = {RANK, BINK(PP_E_MUL, 2), BINK(PP_E_MOD, 6), END};
    load(&p, even6, 4);
    assert_int_equal(period_of(&p, 0, 10, &cut), 3);
    check_against_each(&p, NULL, 0, 10);

    const pp_icode both[] = {RANK, BINK(PP_E_MOD, 2), RANK, BINK(PP_E_MOD, 3), BIN(PP_E_ADD), END};
    load(&p, both, 6);
    assert_int_equal(period_of(&p, 0, 10, &cut), 6);
    check_against_each(&p, NULL, 0, 10);

    const pp_icode neg[] = {K(0), RANK, BIN(PP_E_SUB), BINK(PP_E_MOD, 4), END};
    load(&p, neg, 5);
    assert_int_equal(period_of(&p, 1, 10, &cut), 4);
    assert_true(cut == 1);
    check_against_each(&p, NULL, 1, 10);

    const pp_icode sign[] = {RANK, BINK(PP_E_SUB, 5), BINK(PP_E_MOD, 3), END};
    load(&p, sign, 4);
    assert_int_equal(period_of(&p, 0, 10, &cut), 0);
    assert_true(cut == 0);
    check_against_each(&p, NULL, 0, 10);

    const pp_icode sign3[] = {RANK, BINK(PP_E_MUL, 3), BINK(PP_E_SUB, 5), BINK(PP_E_MOD, 3), END};
    load(&p, sign3, 5);
    assert_int_equal(period_of(&p, 0, 10, &cut), 0);
    assert_true(cut == 1);
    check_against_each(&p, NULL, 0, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_division_by_the_slope),
        cmocka_unit_test(test_rows_past_the_ranks),
        cmocka_unit_test(test_quotients_that_change),
        cmocka_unit_test(test_sign_of_a_truncation),
        cmocka_unit_test(test_a_slot_affine_in_the_rank),
        cmocka_unit_test(test_remainders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
