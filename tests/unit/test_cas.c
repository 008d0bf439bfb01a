/* test_cas.c - unit tests of the equations' printers and algebra: the SymPy
 * and Maxima printers (analysis/sym-print-cas.c) against hand-written
 * strings, simplification under loop-range facts (analysis/sym-range.c),
 * and count trees (analysis/eq-tree.c): closed forms of triangular sums,
 * sums kept as sums, their exact values and how they print.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "equations.h"
#include "sym.h"

static pp_expr *E(const char *s)
{
    char err[200];
    pp_expr *e = pp_expr_parse(s, NULL, err, sizeof err);
    if (!e)
        fail_msg("parse of '%s' failed: %s", s, err);
    return e;
}

static void check(const char *in, pp_cas cas, int as_cond, const char *want)
{
    pp_expr *e = E(in);
    char *s = pp_expr_to_cas(e, cas, as_cond);
    if (strcmp(s, want) != 0)
        fail_msg("%s %s: got '%s', want '%s'", cas == PP_CAS_SYMPY ? "sympy" : "maxima", in, s, want);
    free(s);
    pp_expr_free(e);
}

static void both(const char *in, const char *sympy, const char *maxima)
{
    check(in, PP_CAS_SYMPY, 0, sympy);
    check(in, PP_CAS_MAXIMA, 0, maxima);
}

static void test_arithmetic(void **state)
{
    (void)state;
    both("(+ (var N) (neg (arg k)) -3)", "N - k - 3", "N - k - 3");
    both("(- (var N) (+ (arg k) 1))", "N - (k + 1)", "N - (k + 1)");
    both("(* 2 (var N) (var N) (var N))", "2*N**3", "2*N^3");
    both("(* -1 (+ (var N) 1))", "-1*(N + 1)", "-1*(N + 1)");
    both("(neg (var N))", "-N", "-N");
    both("(nthreads)", "P", "P");
    both("(nprocs)", "P", "P");
    both("(rank row)", "rank_row", "rank_row");
    both("(nprocs row)", "nprocs_row", "nprocs_row");
    both("(iv 3)", "i3", "i3");
    both("\"a.b\"", "a_b", "a_b");
}

/* C division and remainder, exactly */
static void test_division(void **state)
{
    (void)state;
    both("(div (var N) 2)", "sign(N)*floor(Abs(N)/2)", "truncate(N/2)");
    both("(div (var N) (arg b))", "sign(N)*sign(b)*floor(Abs(N)/Abs(b))", "truncate(N/b)");
    both("(div (- (var N) (arg k)) (nthreads))", "sign(N - k)*floor(Abs(N - k)/P)", "truncate((N - k)/P)");
    /* no remainder whatever N: a plain quotient */
    both("(div (+ (* (var N) (var N)) (neg (var N))) 2)", "((N**2 - N)/2)", "((N^2 - N)/2)");
    both("(mod (var N) (nthreads))", "sign(N)*Mod(Abs(N), P)", "(N - P*truncate(N/P))");
    both("(mod (var N) (arg b))", "sign(N)*Mod(Abs(N), Abs(b))", "(N - b*truncate(N/b))");
    both("(fdiv (var N) (nthreads))", "floor(N/P)", "floor(N/P)");
    both("(cdiv (- (var N) 1) (nthreads))", "ceiling((N - 1)/P)", "ceiling((N - 1)/P)");
    both("(min (var N) (* 2 (arg k)))", "Min(N, 2*k)", "min(N, 2*k)");
    both("(max 0 (- (var N) 1))", "Max(0, N - 1)", "max(0, N - 1)");
    both("(shl (var N) 3)", "N*2**3", "N*2^3");
    both("(shl (var N) (arg s))", "floor(N*2**s)", "floor(N*2^s)");
    both("(shr (var N) 2)", "floor(N/2**2)", "floor(N/2^2)");
}

static void test_conditions(void **state)
{
    (void)state;
    both("(lt (var N) (arg k))", "Piecewise((1, N < k), (0, True))", "charfun(N < k)");
    both("(cond (eq (arg a) 0) 1 2)", "Piecewise((1, Eq(a, 0)), (2, True))", "(if equal(a, 0) then 1 else 2)");
    both("(cond (and (lt (arg a) (arg b)) (arg c)) (arg x) (arg y))",
         "Piecewise((x, And(a < b, Ne(c, 0))), (y, True))",
         "(if (a < b) and (notequal(c, 0)) then x else y)");
    both("(cond (not (ne (arg a) 1)) 1 0)", "Piecewise((1, Not(Ne(a, 1))), (0, True))",
         "(if not (notequal(a, 1)) then 1 else 0)");
    check("(or (ge (arg a) 1) 0)", PP_CAS_SYMPY, 1, "Or(a >= 1, False)");
    check("(or (ge (arg a) 1) 0)", PP_CAS_MAXIMA, 1, "(a >= 1) or (false)");
    /* a comparison of a conditional value: the conditional comparison,
     * no Piecewise inside a condition */
    check("(lt (cond (arg c) 1 (arg d)) 3)", PP_CAS_SYMPY, 1,
          "Or(And(Ne(c, 0), 1 < 3), And(Not(Ne(c, 0)), d < 3))");
    check("(lt (cond (arg c) 1 (arg d)) 3)", PP_CAS_MAXIMA, 1,
          "((notequal(c, 0)) and (1 < 3)) or ((not (notequal(c, 0))) and (d < 3))");
}

/* inside for (k = 0; k < N - 1; k++): 0 <= k <= N - 2 */
static void loop_facts(pp_facts *F)
{
    pp_facts_init(F);
    pp_expr *a = E("k"), *b = E("(- (- N 2) k)");
    pp_facts_add_ge0(F, a);
    pp_facts_add_ge0(F, b);
    pp_expr_free(a);
    pp_expr_free(b);
}

static void under(pp_facts *F, const char *in, const char *want)
{
    pp_expr *e = E(in);
    pp_expr *r = pp_expr_simplify_under(e, F);
    char *s = pp_expr_to_infix(r);
    if (strcmp(s, want) != 0)
        fail_msg("under facts %s: got '%s', want '%s'", in, s, want);
    free(s);
    pp_expr_free(r);
    pp_expr_free(e);
}

static void test_facts(void **state)
{
    (void)state;
    pp_facts F;
    loop_facts(&F);
    under(&F, "(max 0 (- (- N k) 1))", "N - k - 1");
    under(&F, "(cond (gt N k) (+ (- N k) -1) 0)", "N - k - 1");
    under(&F, "(cond (le N k) 5 7)", "7");
    under(&F, "(min (- N k) 1)", "1");
    under(&F, "(div (- N k) 4)", "floor((N - k)/4)");
    under(&F, "(lt k N)", "1");
    /* what does not follow stays */
    under(&F, "(max 0 (- N (* 2 k)))", "max(0, N - 2*k)");
    under(&F, "(div (- k N) 4)", "(k - N)/4");
    /* !(s >= s + q) is q > 0 */
    under(NULL, "(not (ge (arg s) (+ (arg s) (arg q))))", "q > 0");
    pp_expr *c2 = E("(ge N 2)"), *c3 = E("(ge N 3)");
    assert_int_equal(pp_facts_decide(&F, c2), 1);
    assert_int_equal(pp_facts_decide(&F, c3), -1);
    pp_expr_free(c2);
    pp_expr_free(c3);
    pp_facts_free(&F);
}

static long double value(const pp_cx *c, long N)
{
    pp_prog m;
    memset(&m, 0, sizeof m);
    pp_param p = {.name = "N", .recorded = 1};
    m.nparams = 1;
    m.params = &p;
    long v0 = N;
    pp_vals at = {.v = &v0, .trip_scale = 1};
    pp_cx_env env = {&m, &at, 4, 0, 0, NULL, 0};
    long double v = pp_cx_eval(c, &env);
    free(env.b);
    return v;
}

static void print_is(const pp_cx *c, pp_eqfmt f, const char *want)
{
    char *s = pp_cx_print(c, f);
    if (strcmp(s, want) != 0)
        fail_msg("count tree: got '%s', want '%s'", s, want);
    free(s);
}

static void test_trees(void **state)
{
    (void)state;
    pp_expr *k = E("k"), *zero = E("0"), *hi = E("(- N 2)"), *n = E("(- N 1)");
    /* sum over k = 0 .. N-2 of N - k - 1: N(N-1)/2 */
    pp_cx *tri = pp_cx_sum(pp_cx_expr(E("(- (- N k) 1)")), k, zero, hi, n);
    assert_int_equal(tri->kind, PP_CX_EXPR);
    print_is(tri, PP_EQ_TEXT, "(N^2 - N)/2");
    assert_true(value(tri, 64) == 2016);
    assert_true(value(tri, 1) == 0);
    /* a body that is not a polynomial in k stays a sum, and is enumerated */
    pp_cx *fl = pp_cx_sum(pp_cx_expr(E("(fdiv (- N k) P)")), k, zero, hi, n);
    assert_int_equal(fl->kind, PP_CX_SUM);
    print_is(fl, PP_EQ_TEXT, "sum(k = 0 .. N - 2, floor((N - k)/P))");
    print_is(fl, PP_EQ_SYMPY, "Sum(floor((N - k)/P), (k, 0, N - 2))");
    print_is(fl, PP_EQ_MAXIMA, "sum(floor((N - k)/P), k, 0, N - 2)");
    long double want = 0;
    for (long kk = 0; kk <= 62; kk++)
        want += (64 - kk) / 4;
    assert_true(value(fl, 64) == want);
    /* a factor without k comes out of the sum; a condition wraps */
    pp_cx *c = pp_cx_cond(E("(gt N 0)"), pp_cx_mul(pp_cx_expr(E("N")), fl));
    print_is(c, PP_EQ_TEXT, "(N > 0 ? N*sum(k = 0 .. N - 2, floor((N - k)/P)) : 0)");
    print_is(c, PP_EQ_SYMPY, "Piecewise((N*Sum(floor((N - k)/P), (k, 0, N - 2)), N > 0), (0, True))");
    print_is(c, PP_EQ_MAXIMA, "(if N > 0 then N*sum(floor((N - k)/P), k, 0, N - 2) else 0)");
    assert_true(value(c, 64) == 64 * want);
    pp_cx *l = pp_cx_log2(E("P"));
    print_is(l, PP_EQ_SYMPY, "log(P, 2)");
    print_is(l, PP_EQ_MAXIMA, "(log(P)/log(2))");
    print_is(l, PP_EQ_TEXT, "log2(P)");
    assert_true(value(l, 1) == 2);
    char num[40];
    pp_eq_num(num, sizeof num, 0.1);
    assert_string_equal(num, "0.1");
    pp_eq_num(num, sizeof num, 56.35854085375726);
    assert_string_equal(num, "56.35854085375726");
    pp_cx_free(tri);
    pp_cx_free(c);
    pp_cx_free(l);
    pp_expr_free(k);
    pp_expr_free(zero);
    pp_expr_free(hi);
    pp_expr_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_division),
        cmocka_unit_test(test_conditions),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
