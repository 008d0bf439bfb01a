/* test_inst_code.c - expressions compiled and run by the instantiation's
 * interpreter (inst-code.c, pp_inst_eval).
 *
 * A trip count as the plugin writes it, (cond (le A B) (- B A) 0), is
 * compiled as max(B - A, 0): A and B once, not twice (ge_pthreads' count
 * of a worker's columns, (k + 1 + (tid + 1)(N - k)/P) less
 * (k + 1 + tid (N - k)/P), went from 41 instructions to 20).  By hand,
 * A = (iv 0), B = (iv 1):
 *  - A = 3, B = 10: 7; A = B = 10: 0; A = 12, B = 10: 0 (the cond's 0);
 *  - with lt the same three values;
 *  - its code: IV 1, IV 0, SUB, MAX 0, END (5 instructions);
 *  - a cond whose difference is not B - A ((- A B) after (le A B)) is
 *    not rewritten: at A = 3, B = 10 it is -7, at A = 12, B = 10 it is 0;
 *  - a cond whose else is not 0 is not rewritten: (cond (le A B) (- B A)
 *    5) at A = 12, B = 10 is 5;
 *  - constants fold: (cond (le 4 9) (- 9 4) 0) is the one instruction 5;
 *  - D need only equal X - Y as a polynomial, plus 0 or 1 after ge (or
 *    le), -1 or 0 after gt (or lt): (cond (ge (+ B 1) A) (+ (- B A) 1) 0)
 *    is max(B - A + 1, 0): 8 at A = 3, B = 10, 1 at A = B = 10, 0 at
 *    A = 12, B = 10 (D = -1); (cond (gt A 1) (+ A -2) 0) is max(A - 2, 0):
 *    3 at A = 5, 0 at A = 2 and A = 1;
 *  - not where D is not X - Y + c: (cond (ge A 0) (* A 4) 0) stays a
 *    cond (12 at A = 3, 0 at A = -1);
 *  - not where D reads less than T: (cond (ge (+ A B) B) A 0) has no
 *    value where B has none, as the cond has none;
 *  - a chunk (cond (lt A B) (+ B 1) B) is B + (A < B): 11 at A = 3,
 *    B = 10, 10 at A = 12; its code ends with an ADD of the two; not
 *    where the test is a value, not a comparison: (cond A (+ B 1) B) is
 *    11 at A = 3, B = 10 (B + A would be 13).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "inst-internal.h"

typedef struct {
    pp_dfunc d;
    pp_mfunc mf;
    pp_prog m;
    ictx c;
    frame fr;
    int64_t iv[2];
    unsigned char known[2];
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->mf.d = &f->d;
    f->mf.max_loop_id = 1;
    f->m.funcs = &f->mf;
    f->m.nfuncs = 1;
    f->c.m = &f->m;
    f->fr.fi = 0;
    f->fr.mf = &f->mf;
    f->fr.iv = f->iv;
    f->fr.iv_known = f->known;
    f->known[0] = f->known[1] = 1;
}

/* e's value at A = a, B = b, and the length of its code (to its END) */
static int64_t eval_at(fixture *f, const pp_expr *e, int64_t a, int64_t b, int *len)
{
    f->iv[0] = a;
    f->iv[1] = b;
    int64_t v = 0;
    assert_int_equal(pp_inst_eval(&f->c, &f->fr, e, &v), 0);
    /* the program is the newest: the code emitted for e ends the array */
    if (len) {
        int n = 0;
        for (int i = f->c.ncode - 1; i > 0 && f->c.code[i - 1].op != I_END; i--)
            n++;
        *len = n + 1;
    }
    return v;
}

static pp_expr *parse(const char *s)
{
    char err[256];
    pp_expr *e = pp_expr_parse(s, NULL, err, sizeof err);
    assert_non_null(e);
    return e;
}

static void test_trip_count_as_max(void **state)
{
    (void)state;
    static fixture f;
    const char *forms[] = {"(cond (le (iv 0) (iv 1)) (- (iv 1) (iv 0)) 0)",
                           "(cond (lt (iv 0) (iv 1)) (- (iv 1) (iv 0)) 0)"};
    for (int k = 0; k < 2; k++) {
        setup(&f);
        pp_expr *e = parse(forms[k]);
        int len = 0;
        assert_true(eval_at(&f, e, 3, 10, &len) == 7);
        assert_int_equal(len, 5);
        assert_int_equal(f.c.code[0].op, I_IV);
        assert_int_equal(f.c.code[0].a, 1);
        assert_int_equal(f.c.code[2].op, I_BIN + PP_E_SUB - PP_E_ADD);
        assert_int_equal(f.c.code[3].op, I_BINK + PP_E_MAX - PP_E_ADD);
        assert_true(f.c.code[3].v == 0);
        assert_true(eval_at(&f, e, 10, 10, NULL) == 0);
        assert_true(eval_at(&f, e, 12, 10, NULL) == 0);
        pp_expr_free(e);
        pp_inst_code_free(&f.c);
    }
}

static void test_other_conds_kept(void **state)
{
    (void)state;
    static fixture f;
    setup(&f);
    pp_expr *e = parse("(cond (le (iv 0) (iv 1)) (- (iv 0) (iv 1)) 0)");
    int len = 0;
    assert_true(eval_at(&f, e, 3, 10, &len) == -7);
    assert_true(len > 5);
    assert_true(eval_at(&f, e, 12, 10, NULL) == 0);
    /* (the programs are cached by the tree's address, which the next
     * parse may reuse once this one is freed) */
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
    e = parse("(cond (le (iv 0) (iv 1)) (- (iv 1) (iv 0)) 5)");
    assert_true(eval_at(&f, e, 12, 10, NULL) == 5);
    assert_true(eval_at(&f, e, 3, 10, NULL) == 7);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
}

static void test_constants_fold(void **state)
{
    (void)state;
    static fixture f;
    setup(&f);
    pp_expr *e = parse("(cond (le 4 9) (- 9 4) 0)");
    int len = 0;
    assert_true(eval_at(&f, e, 0, 0, &len) == 5);
    assert_int_equal(len, 2);
    assert_int_equal(f.c.code[0].op, I_K);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
}

/* the last instruction before e's END */
static int last_op(const fixture *f)
{
    return f->c.code[f->c.ncode - 2].op;
}

static void test_count_forms(void **state)
{
    (void)state;
    static fixture f;
    setup(&f);
    pp_expr *e = parse("(cond (ge (+ (iv 1) 1) (iv 0)) (+ (- (iv 1) (iv 0)) 1) 0)");
    assert_true(eval_at(&f, e, 3, 10, NULL) == 8);
    assert_int_equal(last_op(&f), I_BINK + PP_E_MAX - PP_E_ADD);
    assert_true(eval_at(&f, e, 10, 10, NULL) == 1);
    assert_true(eval_at(&f, e, 12, 10, NULL) == 0);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);   /* (the decisions are kept by the tree's address) */
    e = parse("(cond (gt (iv 0) 1) (+ (iv 0) -2) 0)");
    assert_true(eval_at(&f, e, 5, 0, NULL) == 3);
    assert_int_equal(last_op(&f), I_BINK + PP_E_MAX - PP_E_ADD);
    assert_true(eval_at(&f, e, 2, 0, NULL) == 0);
    assert_true(eval_at(&f, e, 1, 0, NULL) == 0);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
    e = parse("(cond (ge (iv 0) 0) (* (iv 0) 4) 0)");
    assert_true(eval_at(&f, e, 3, 0, NULL) == 12);
    assert_int_not_equal(last_op(&f), I_BINK + PP_E_MAX - PP_E_ADD);
    assert_true(eval_at(&f, e, -1, 0, NULL) == 0);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
    /* B unknown: no value either way */
    e = parse("(cond (ge (+ (iv 0) (iv 1)) (iv 1)) (iv 0) 0)");
    f.known[1] = 0;
    int64_t v = 0;
    assert_int_equal(pp_inst_eval(&f.c, &f.fr, e, &v), -1);
    f.known[1] = 1;
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
}

static void test_chunk_plus_test(void **state)
{
    (void)state;
    static fixture f;
    setup(&f);
    pp_expr *e = parse("(cond (lt (iv 0) (iv 1)) (+ (iv 1) 1) (iv 1))");
    assert_true(eval_at(&f, e, 3, 10, NULL) == 11);
    assert_int_equal(last_op(&f), I_BIN + PP_E_ADD - PP_E_ADD);
    assert_true(eval_at(&f, e, 12, 10, NULL) == 10);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
    e = parse("(cond (iv 0) (+ (iv 1) 1) (iv 1))");
    assert_true(eval_at(&f, e, 3, 10, NULL) == 11);
    assert_true(eval_at(&f, e, 0, 10, NULL) == 10);
    pp_expr_free(e);
    pp_inst_code_free(&f.c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trip_count_as_max),
        cmocka_unit_test(test_other_conds_kept),
        cmocka_unit_test(test_constants_fold),
        cmocka_unit_test(test_count_forms),
        cmocka_unit_test(test_chunk_plus_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
