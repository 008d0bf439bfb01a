/* test_sym.c - unit tests of the symbolic engine (analysis/sym.h).  Every
 * expected value below was computed by hand (or by a brute-force loop in
 * the test itself).
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

#include "sym.h"

/* ------------------------------------------------------------ helpers */

static pp_expr *P(const char *s)
{
    char err[200];
    const char *end = NULL;
    pp_expr *e = pp_expr_parse(s, &end, err, sizeof err);
    if (!e)
        fail_msg("parse of '%s' failed: %s", s, err);
    assert_non_null(e);
    assert_ptr_equal(end, s + strlen(s));
    return e;
}

static void check_sexpr(const pp_expr *e, const char *want)
{
    char *s = pp_expr_to_sexpr(e);
    if (strcmp(s, want) != 0)
        fail_msg("sexpr: got '%s', want '%s'", s, want);
    free(s);
}

static void check_infix(const pp_expr *e, const char *want)
{
    char *s = pp_expr_to_infix(e);
    if (strcmp(s, want) != 0)
        fail_msg("infix: got '%s', want '%s'", s, want);
    free(s);
}

/* values of atoms, by their infix name (n, N, P, tid, i0, ...) */
typedef struct { int n; const char *name[8]; long val[8]; } env;

static int env_find(const env *v, const pp_expr *atom, long *out)
{
    char *name = pp_expr_to_infix(atom);
    int rc = 1;
    for (int i = 0; i < v->n; i++)
        if (strcmp(name, v->name[i]) == 0) {
            *out = v->val[i];
            rc = 0;
        }
    free(name);
    return rc;
}

static int lookup_z(void *ctx, const pp_expr *atom, mpz_t out)
{
    long v;
    if (env_find(ctx, atom, &v))
        return 1;
    mpz_set_si(out, v);
    return 0;
}

static int lookup_i64(void *ctx, const pp_expr *atom, int64_t *out)
{
    long v;
    if (env_find(ctx, atom, &v))
        return 1;
    *out = v;
    return 0;
}

/* exact value of s under env, as a decimal string (or "E<rc>") */
static char *eval_str(const char *s, env *v)
{
    pp_expr *e = P(s);
    mpz_t z;
    mpz_init(z);
    int rc = pp_expr_eval_z(e, lookup_z, v, z);
    char *r;
    if (rc) {
        r = malloc(8);
        snprintf(r, 8, "E%d", rc);
    } else {
        r = malloc(mpz_sizeinbase(z, 10) + 2);
        mpz_get_str(r, 10, z);
    }
    mpz_clear(z);
    pp_expr_free(e);
    return r;
}

static void check_eval(const char *s, env *v, const char *want)
{
    char *got = eval_str(s, v);
    if (strcmp(got, want) != 0)
        fail_msg("eval %s: got %s, want %s", s, got, want);
    free(got);
}

/* simplify(a) must print as want */
static void check_simplify(const char *a, const char *want)
{
    pp_expr *e = P(a), *s = pp_expr_simplify(e);
    char *got = pp_expr_to_sexpr(s);
    if (strcmp(got, want) != 0)
        fail_msg("simplify %s: got %s, want %s", a, got, want);
    /* idempotent */
    pp_expr *s2 = pp_expr_simplify(s);
    assert_true(pp_expr_equal(s, s2));
    free(got);
    pp_expr_free(s2);
    pp_expr_free(s);
    pp_expr_free(e);
}

static void check_same(const char *a, const char *b)
{
    pp_expr *ea = P(a), *eb = P(b);
    pp_expr *sa = pp_expr_simplify(ea), *sb = pp_expr_simplify(eb);
    if (!pp_expr_equal(sa, sb)) {
        char *x = pp_expr_to_sexpr(sa), *y = pp_expr_to_sexpr(sb);
        fail_msg("%s -> %s differs from %s -> %s", a, x, b, y);
    }
    pp_expr_free(ea); pp_expr_free(eb); pp_expr_free(sa); pp_expr_free(sb);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ------------------------------------------------------------ parse/print */

static void test_roundtrip(void **state)
{
    (void)state;
    static const char *cases[] = {
        "0", "-7", "?", "N", "j", "foo._omp_fn.0",
        "123456789012345678901234567890",
        "-340282366920938463463374607431768211456",
        "(arg n)", "(var N)", "(global G)", "(shared n)", "(iv 2)",
        "(nthreads)", "(tid)", "(load)", "(call foo._omp_fn.0)",
        "(addr bar)", "(addr locks (iv 2))", "(critical)", "(critical lk)",
        "(rank)", "(nprocs)", "(rank row.7578)", "(nprocs MPI_comm_x)",
        "(mod (+ (rank row.1) 1) (nprocs row.1))",
        "(call \"a b\")", "(arg \"q\\\"x\\\\\")",
        "(+ (* 2 (arg n)) 1)", "(max 0 (- (arg hi) (arg lo)))",
        "(- a b)", "(neg a)", "(div -7 2)", "(mod a b)", "(fdiv N P)", "(cdiv N P)",
        "(min a b c)", "(shl 1 (shr N 2))",
        "(and (not (eq a b)) (or (ne a 1) (le a b) (ge a b) (gt a b) (lt a b)))",
        "(cond (lt (tid) (nthreads)) (fdiv N P) (cdiv N P))",
        "((iv 0) (arg n))", "(3 0 1 0 1 0)", "()", "(? (arg n))",
        "((n (arg n)) (a (var a)))", "(\"min\" x)", "(\"arg\")", "(N)",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pp_expr *e = P(cases[i]);
        check_sexpr(e, cases[i]);
        char *s = pp_expr_to_sexpr(e);
        pp_expr *e2 = P(s);
        assert_true(pp_expr_equal(e, e2));
        assert_int_equal(pp_expr_compare(e, e2), 0);
        free(s);
        pp_expr_free(e2);
        pp_expr_free(e);
    }
    /* kinds */
    pp_expr *e = P("((iv 0) (arg n))");
    assert_int_equal(e->kind, PP_E_LIST);
    assert_int_equal(e->nkids, 2);
    assert_int_equal(e->kids[0]->kind, PP_E_IV);
    assert_int_equal(e->kids[0]->ival, 0);
    assert_int_equal(e->kids[1]->kind, PP_E_ARG);
    assert_string_equal(e->kids[1]->name, "n");
    pp_expr_free(e);
    e = P("((n (arg n)))");
    assert_int_equal(e->kids[0]->kind, PP_E_LIST);
    assert_int_equal(e->kids[0]->kids[0]->kind, PP_E_SYM);
    pp_expr_free(e);
    e = P("(\"min\" x)");
    assert_int_equal(e->kind, PP_E_LIST);
    pp_expr_free(e);
    e = P("(addr locks (iv 2))");
    assert_int_equal(e->kind, PP_E_ADDR);
    assert_int_equal(e->nkids, 1);
    pp_expr_free(e);

    /* whitespace and the (- a) shorthand normalise */
    e = P(" ( +\t1\n  (- x) )");
    check_sexpr(e, "(+ 1 (neg x))");
    pp_expr_free(e);

    /* end points just past the expression */
    const char *in = "(arg n) step=1", *end = NULL;
    char err[100];
    e = pp_expr_parse(in, &end, err, sizeof err);
    assert_non_null(e);
    assert_ptr_equal(end, in + 7);
    pp_expr_free(e);
}

static void test_big_integers(void **state)
{
    (void)state;
    pp_expr *e = P("18446744073709551616");         /* 2^64 */
    long v;
    assert_false(pp_expr_is_int(e, &v));
    mpz_t z, w;
    mpz_inits(z, w, NULL);
    mpz_ui_pow_ui(w, 2, 64);
    assert_int_equal(mpz_cmp(e->z, w), 0);
    pp_expr_free(e);
    e = P("(* 18446744073709551616 18446744073709551616 -1)");
    assert_int_equal(pp_expr_eval_z(e, NULL, NULL, z), 0);
    check_sexpr(e, "(* 18446744073709551616 18446744073709551616 -1)");
    mpz_mul(w, w, w);
    mpz_neg(w, w);
    assert_int_equal(mpz_cmp(z, w), 0);             /* -2^128 */
    pp_expr_free(e);
    e = P("-9223372036854775808");
    assert_true(pp_expr_is_int(e, &v));
    assert_true(v == INT64_MIN);
    pp_expr_free(e);
    mpz_clears(z, w, NULL);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    enum { D = 1000 };
    char *s = malloc(6 * (D + 1) + 16);
    size_t n = 0;
    for (int i = 0; i < D; i++)
        n += (size_t)sprintf(s + n, "(neg ");
    n += (size_t)sprintf(s + n, "x");
    for (int i = 0; i < D; i++)
        s[n++] = ')';
    s[n] = '\0';
    pp_expr *e = P(s);
    check_sexpr(e, s);
    env v = {1, {"x"}, {5}};
    check_eval(s, &v, "5");                          /* 1000 negations */
    pp_expr *sm = pp_expr_simplify(e);
    check_sexpr(sm, "x");
    pp_expr_free(sm);
    pp_expr_free(e);
    free(s);

    /* one level deeper than the limit: an error at the innermost token */
    s = malloc(6 * (D + 2) + 16);
    n = 0;
    for (int i = 0; i < D + 1; i++)
        n += (size_t)sprintf(s + n, "(neg ");
    n += (size_t)sprintf(s + n, "x");
    for (int i = 0; i < D + 1; i++)
        s[n++] = ')';
    s[n] = '\0';
    char err[200], want[64];
    assert_null(pp_expr_parse(s, NULL, err, sizeof err));
    snprintf(want, sizeof want, "offset %d:", 5 * (D + 1));
    assert_memory_equal(err, want, strlen(want));
    free(s);
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct { const char *in; int off; } cases[] = {
        {"", 0}, {"   ", 3}, {"(+ 1 2", 6}, {")", 0}, {"(div 1)", 1},
        {"(arg)", 4}, {"(iv x)", 4}, {"(+ 1 2x)", 5}, {"(+ 1 @)", 5},
        {"\"abc", 0}, {"(arg n m)", 7}, {"(cond 1 2)", 1}, {"(+ 1 *)", 5},
        {"12ab", 0}, {"(tid 3)", 5}, {"(neg)", 1}, {"(- 1 2 3)", 1},
        {"(\"a\\n\")", 3}, {"((iv 0) (arg n)", 15}, {"(iv 99999999999999999999)", 4},
        {"(addr)", 5}, {"--1", 0}, {"-", 0}, {"(+ 1 -)", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[200] = "unchanged", want[32];
        const char *end = (const char *)1;
        pp_expr *e = pp_expr_parse(cases[i].in, &end, err, sizeof err);
        if (e)
            fail_msg("'%s' parsed", cases[i].in);
        snprintf(want, sizeof want, "offset %d: ", cases[i].off);
        if (strncmp(err, want, strlen(want)) != 0)
            fail_msg("'%s': error '%s', want offset %d", cases[i].in, err, cases[i].off);
        assert_ptr_equal(end, (const char *)1);      /* untouched on failure */
    }
    /* a tiny error buffer is respected */
    char small[4];
    assert_null(pp_expr_parse("(", NULL, small, sizeof small));
    assert_int_equal(strlen(small), 3);
    assert_null(pp_expr_parse("(", NULL, NULL, 0));
}

static void fuzz_one(const char *buf)
{
    char err[128];
    const char *end;
    pp_expr *e = pp_expr_parse(buf, &end, err, sizeof err);
    if (!e) {
        assert_memory_equal(err, "offset ", 7);
        long off = strtol(err + 7, NULL, 10);
        assert_true(off >= 0 && (size_t)off <= strlen(buf));
        return;
    }
    assert_true(end > buf && end <= buf + strlen(buf));
    char *s = pp_expr_to_sexpr(e);
    pp_expr *e2 = pp_expr_parse(s, NULL, err, sizeof err);
    assert_non_null(e2);
    assert_true(pp_expr_equal(e, e2));
    char *t = pp_expr_to_infix(e);
    pp_expr *sm = pp_expr_simplify(e);
    mpz_t z;
    mpz_init(z);
    int64_t i64;
    env v = {3, {"a", "b", "N"}, {3, -2, 10}};
    int rz = pp_expr_eval_z(e, lookup_z, &v, z);
    int ri = pp_expr_eval_i64(e, lookup_i64, &v, &i64);
    if (rz == 0 && ri == 0)
        assert_true(mpz_cmp_si(z, i64) == 0);
    mpz_clear(z);
    pp_expr_free(sm);
    free(t);
    free(s);
    pp_expr_free(e2);
    pp_expr_free(e);
}

static void test_fuzz(void **state)
{
    (void)state;
    static const char alphabet[] = "()()? -0123456789abN\"\\+*-divmodneg \t\n";
    char buf[80];
    for (int it = 0; it < 20000; it++) {
        size_t n = rnd() % 64;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rnd();
            buf[i] = (r & 1) ? (char)(1 + (r >> 8) % 255)          /* any byte but NUL */
                             : alphabet[(r >> 8) % (sizeof alphabet - 1)];
        }
        buf[n] = '\0';
        fuzz_one(buf);
    }
    /* mutations of valid inputs */
    static const char *seeds[] = {
        "(+ (* 2 (arg n)) (fdiv (var N) (nthreads)) -1)",
        "(cond (lt (iv 0) (arg k)) (min a b) (max 0 (- N 1)))",
        "((iv 0) (arg n) (addr locks (iv 2)) (critical x))",
    };
    for (int it = 0; it < 20000; it++) {
        const char *sd = seeds[rnd() % 3];
        size_t n = strlen(sd);
        memcpy(buf, sd, n + 1);
        for (int m = 0; m < 3; m++) {
            size_t pos = rnd() % (n + 1);
            switch (rnd() % 3) {
            case 0: if (pos < n) { memmove(buf + pos, buf + pos + 1, n - pos); n--; } break;
            case 1: if (n < 78) { memmove(buf + pos + 1, buf + pos, n - pos + 1);
                                  buf[pos] = alphabet[rnd() % (sizeof alphabet - 1)]; n++; } break;
            default: if (pos < n) buf[pos] = alphabet[rnd() % (sizeof alphabet - 1)]; break;
            }
        }
        fuzz_one(buf);
    }
}

static void test_infix(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"(arg n)", "n"}, {"(var N)", "N"}, {"(global N)", "N"}, {"(shared n)", "n"},
        {"(iv 2)", "i2"}, {"(nthreads)", "P"}, {"(tid)", "tid"}, {"(call f)", "f()"},
        {"(load)", "load"}, {"?", "?"}, {"-3", "-3"},
        {"(fdiv (var N) (nthreads))", "floor(N/P)"},
        {"(cdiv (var N) (nthreads))", "ceil(N/P)"},
        {"(div N P)", "N/P"}, {"(min a b)", "min(a, b)"}, {"(max 0 (- hi lo))", "max(0, hi - lo)"},
        {"(div (* N (- N 1)) 2)", "N*(N - 1)/2"},
        {"(div (+ (* N N) (neg N)) 2)", "(N^2 - N)/2"},
        {"(- (+ a b) (- c d))", "a + b - (c - d)"},
        {"(* (+ a 1) b)", "(a + 1)*b"}, {"(* a (div b c))", "a*(b/c)"},
        {"(* (div a b) c)", "a/b*c"}, {"(neg (+ a 1))", "-(a + 1)"},
        {"(+ N (* -3 M) -2 (neg K))", "N - 3*M - 2 - K"},
        {"(* -1 N P)", "-N*P"}, {"(* N N N P)", "N^3*P"},
        {"(mod a 2)", "a % 2"}, {"(shl 1 (+ k 1))", "1 << k + 1"},
        {"(cond (lt (iv 0) N) a b)", "i0 < N ? a : b"},
        {"(and (ge a 0) (or (eq b 1) (ne c 2)))", "a >= 0 && (b == 1 || c != 2)"},
        {"(not (le a b))", "!(a <= b)"}, {"(addr locks (iv 2))", "&locks[i2]"},
        {"((iv 0) (arg n))", "(i0, n)"}, {"(- N -3)", "N - -3"},
        {"(+ (neg (* M N)) 1)", "1 - M*N"}, {"(neg (* a b))", "-a*b"},
        {"(+ (neg N) (* -2 M) 5 (neg K))", "5 - N - 2*M - K"}, {"(+ (neg N) -1)", "-N - 1"},
        {"(neg (* -2 a))", "-(-2*a)"},
        {"(mod (+ (rank row) 1) (nprocs row))", "(rank(row) + 1) % P(row)"},
        {"(div (rank) (nprocs))", "rank/P"},
        {"(- (min (* (+ (tid) 1) (cdiv N (nthreads))) N) (* (tid) (cdiv N (nthreads))))",
         "min((tid + 1)*ceil(N/P), N) - tid*ceil(N/P)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pp_expr *e = P(cases[i][0]);
        check_infix(e, cases[i][1]);
        pp_expr_free(e);
    }
    /* named induction variable */
    pp_expr *iv = pp_expr_atom(PP_E_IV, "k", 3);
    check_infix(iv, "k");
    check_sexpr(iv, "(iv 3)");
    pp_expr_free(iv);
}

/* ------------------------------------------------------------ evaluation */

static void test_c_division(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"(div -7 2)", "-3"}, {"(mod -7 2)", "-1"}, {"(fdiv -7 2)", "-4"}, {"(cdiv -7 2)", "-3"},
        {"(div 7 -2)", "-3"}, {"(mod 7 -2)", "1"}, {"(fdiv 7 -2)", "-4"}, {"(cdiv 7 -2)", "-3"},
        {"(div -7 -2)", "3"}, {"(mod -7 -2)", "-1"}, {"(fdiv -7 -2)", "3"}, {"(cdiv -7 -2)", "4"},
        {"(div 7 2)", "3"}, {"(mod 7 2)", "1"}, {"(fdiv 7 2)", "3"}, {"(cdiv 7 2)", "4"},
        {"(div -6 2)", "-3"}, {"(fdiv -6 2)", "-3"}, {"(cdiv -6 2)", "-3"}, {"(mod -6 2)", "0"},
        {"(shr -7 1)", "-4"}, {"(shr 7 1)", "3"}, {"(shl 3 4)", "48"}, {"(shl -3 2)", "-12"},
        {"(shr 5 -1)", "10"}, {"(shl 5 -1)", "2"}, {"(shr -1 200)", "-1"}, {"(shr 9 200)", "0"},
        {"(shl 1 100)", "1267650600228229401496703205376"},
        {"(lt 1 2)", "1"}, {"(le 2 2)", "1"}, {"(gt 1 2)", "0"}, {"(ge 1 2)", "0"},
        {"(eq 3 3)", "1"}, {"(ne 3 3)", "0"}, {"(not 0)", "1"}, {"(not 5)", "0"},
        {"(and 1 2 3)", "1"}, {"(and 1 0 (div 1 0))", "0"}, {"(or 0 0)", "0"},
        {"(or 0 -4 (div 1 0))", "1"}, {"(cond 1 5 (div 1 0))", "5"}, {"(cond 0 (div 1 0) 6)", "6"},
        {"(min 4 -2 7)", "-2"}, {"(max 4 -2 7)", "7"}, {"(- 3 10)", "-7"}, {"(neg -4)", "4"},
        {"(+ 1 2 3 4)", "10"}, {"(* 2 3 4)", "24"},
        {"(div 1 0)", "E2"}, {"(mod 1 0)", "E2"}, {"(fdiv 1 (- 2 2))", "E2"},
        {"?", "E1"}, {"(+ 1 ?)", "E1"}, {"(load)", "E1"}, {"(arg zz)", "E1"}, {"(1 2)", "E1"},
        {"(shl 1 99999999999)", "E3"}, {"(shl 0 99999999999999999999999)", "0"},
        {"(shr 1 -99999999999999999999999)", "E3"}, {"(shr -5 99999999999999999999999)", "-1"},
        {"(+ n (* 2 N) (tid) (nthreads) (iv 1))", "30"},
    };
    env v = {5, {"n", "N", "tid", "P", "i1"}, {1, 10, 2, 4, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_eval(cases[i][0], &v, cases[i][1]);
        /* the int64 path agrees whenever it succeeds */
        pp_expr *e = P(cases[i][0]);
        int64_t r = 0;
        int rc = pp_expr_eval_i64(e, lookup_i64, &v, &r);
        if (rc == 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)r);
            assert_string_equal(buf, cases[i][1]);
        } else if (rc != PP_EVAL_OVERFLOW) {
            char buf[8];
            snprintf(buf, sizeof buf, "E%d", rc);
            assert_string_equal(buf, cases[i][1]);
        }
        pp_expr_free(e);
    }
}

static void test_i64_overflow(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        /* expr, exact value: the int64 path must report overflow */
        {"(* 4294967296 4294967296)", "18446744073709551616"},
        {"(+ 9223372036854775807 1)", "9223372036854775808"},
        {"(- -9223372036854775808 1)", "-9223372036854775809"},
        {"(neg -9223372036854775808)", "9223372036854775808"},
        {"(div -9223372036854775808 -1)", "9223372036854775808"},
        {"(fdiv -9223372036854775808 -1)", "9223372036854775808"},
        {"(shl 1 63)", "9223372036854775808"},
        {"(shl 3 62)", "13835058055282163712"},
        {"18446744073709551616", "18446744073709551616"},
        {"(- (* 4611686018427387904 2) (* 4611686018427387904 2))", "0"},   /* intermediate */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_eval(cases[i][0], NULL, cases[i][1]);
        pp_expr *e = P(cases[i][0]);
        int64_t r;
        assert_int_equal(pp_expr_eval_i64(e, NULL, NULL, &r), PP_EVAL_OVERFLOW);
        pp_expr_free(e);
    }
    static const char *ok[][2] = {
        {"(mod -9223372036854775808 -1)", "0"},
        {"(shl -1 63)", "-9223372036854775808"},
        {"(+ 9223372036854775807 0)", "9223372036854775807"},
        {"(shr -9223372036854775808 63)", "-1"},
        {"(shr -9223372036854775808 -9223372036854775808)", "E3"},
        {"(cdiv -9223372036854775808 2)", "-4611686018427387904"},
        {"(fdiv 9223372036854775807 -2)", "-4611686018427387904"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        pp_expr *e = P(ok[i][0]);
        int64_t r;
        int rc = pp_expr_eval_i64(e, NULL, NULL, &r);
        if (ok[i][1][0] == 'E') {
            assert_int_equal(rc, PP_EVAL_OVERFLOW);
        } else {
            assert_int_equal(rc, 0);
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)r);
            assert_string_equal(buf, ok[i][1]);
        }
        check_eval(ok[i][0], NULL, ok[i][1]);
        pp_expr_free(e);
    }
}

static const pp_ekind rand_ops[] = {
    PP_E_ADD, PP_E_MUL, PP_E_SUB, PP_E_NEG, PP_E_DIV, PP_E_MOD, PP_E_FDIV, PP_E_CDIV,
    PP_E_MIN, PP_E_MAX, PP_E_SHL, PP_E_SHR, PP_E_LT, PP_E_LE, PP_E_GT, PP_E_GE,
    PP_E_EQ, PP_E_NE, PP_E_AND, PP_E_OR, PP_E_NOT, PP_E_COND,
    PP_E_BAND, PP_E_BOR, PP_E_BXOR, PP_E_BNOT,
};

static pp_expr *rand_leaf(void)
{
    static const long small[] = {0, 1, -1, 2, -2, 3, 7, -7, 64, 63};
    static const char *syms[] = {"a", "b", "N"};
    switch (rnd() % 4) {
    case 0: return pp_expr_int(small[rnd() % 10]);
    case 1: return pp_expr_int((long)(rnd() >> (rnd() % 64)) * ((rnd() & 1) ? 1 : -1));
    default: return pp_expr_sym(syms[rnd() % 3]);
    }
}

static pp_expr *rand_expr(int depth)
{
    if (depth == 0 || rnd() % 4 == 0)
        return rand_leaf();
    pp_ekind k = rand_ops[rnd() % (sizeof rand_ops / sizeof rand_ops[0])];
    int n = k == PP_E_NEG || k == PP_E_NOT || k == PP_E_BNOT ? 1 : k == PP_E_COND ? 3 :
            (k == PP_E_ADD || k == PP_E_MUL || k == PP_E_MIN || k == PP_E_MAX ||
             k == PP_E_AND || k == PP_E_OR) ? 1 + (int)(rnd() % 3) : 2;
    pp_expr *kids[3];
    for (int i = 0; i < n; i++)
        kids[i] = rand_expr(depth - 1);
    pp_expr *e = pp_expr_op(k, n, kids);
    for (int i = 0; i < n; i++)
        pp_expr_free(kids[i]);
    assert_non_null(e);
    return e;
}

static void test_i64_matches_exact(void **state)
{
    (void)state;
    env v = {3, {"a", "b", "N"}, {5, -3, 1000000007}};
    int agree = 0, overflow = 0;
    mpz_t z;
    mpz_init(z);
    for (int it = 0; it < 20000; it++) {
        pp_expr *e = rand_expr(it % 10 == 0 ? 8 : 4);
        int64_t r;
        int rz = pp_expr_eval_z(e, lookup_z, &v, z);
        int ri = pp_expr_eval_i64(e, lookup_i64, &v, &r);
        if (ri == 0) {
            assert_int_equal(rz, 0);
            assert_true(mpz_cmp_si(z, r) == 0);
            agree++;
        } else if (ri == PP_EVAL_OVERFLOW) {
            overflow++;
        } else {
            assert_int_equal(rz, ri);                 /* same error, same place */
        }
        if (rz == 0 && !mpz_fits_slong_p(z))
            assert_int_equal(ri, PP_EVAL_OVERFLOW);
        /* simplification preserves the value where it is defined */
        if (rz == 0) {
            pp_expr *s = pp_expr_simplify(e);
            mpz_t zs;
            mpz_init(zs);
            int rs = pp_expr_eval_z(s, lookup_z, &v, zs);
            if (rs == 0 && mpz_cmp(zs, z) != 0) {
                char *x = pp_expr_to_sexpr(e), *y = pp_expr_to_sexpr(s);
                fail_msg("simplify changed the value: %s -> %s", x, y);
            }
            /* idempotent */
            pp_expr *s2 = pp_expr_simplify(s);
            if (!pp_expr_equal(s, s2)) {
                char *x = pp_expr_to_sexpr(s), *y = pp_expr_to_sexpr(s2);
                fail_msg("not idempotent: %s -> %s", x, y);
            }
            pp_expr_free(s2);
            mpz_clear(zs);
            pp_expr_free(s);
        }
        pp_expr_free(e);
    }
    mpz_clear(z);
    assert_true(agree > 5000);
    assert_true(overflow > 100);
}

/* ------------------------------------------------------------ polynomials */

static pp_poly *PP(const char *s)
{
    pp_expr *e = P(s);
    pp_poly *p = pp_poly_from_expr(e);
    pp_expr_free(e);
    return p;
}

static void check_poly_eq(const pp_poly *a, const char *b)
{
    pp_poly *pb = PP(b);
    pp_poly *d = pp_poly_sub(a, pb);
    if (!pp_poly_is_zero(d)) {
        pp_expr *x = pp_poly_to_expr(a);
        char *s = pp_expr_to_sexpr(x);
        fail_msg("poly %s differs from %s", s, b);
    }
    pp_poly_free(d);
    pp_poly_free(pb);
}

static int eval_poly_q(const pp_poly *p, env *v, mpq_t out)
{
    return pp_poly_eval_q(p, lookup_z, v, out);
}

static void check_poly_value(const pp_poly *p, env *v, const char *want)
{
    mpq_t q;
    mpq_init(q);
    assert_int_equal(eval_poly_q(p, v, q), 0);
    char *got = mpq_get_str(NULL, 10, q);
    if (strcmp(got, want) != 0)
        fail_msg("poly value %s, want %s", got, want);
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(got, strlen(got) + 1);
    mpq_clear(q);
}

static void test_triangular(void **state)
{
    (void)state;
    /* for (i = 0; i < N; i++) for (j = 0; j < i; j++) body */
    pp_expr *i = P("(iv 0)"), *j = P("(iv 1)"), *one = P("1"), *zero = P("0");
    pp_expr *im1 = P("(- (iv 0) 1)"), *nm1 = P("(- (var N) 1)");
    pp_expr *inner = pp_expr_sum(one, j, zero, im1);
    check_sexpr(inner, "(iv 0)");
    pp_expr *outer = pp_expr_sum(inner, i, zero, nm1);
    check_sexpr(outer, "(div (+ (* (var N) (var N)) (neg (var N))) 2)");
    check_infix(outer, "(N^2 - N)/2");
    check_same("(div (+ (* (var N) (var N)) (neg (var N))) 2)",
               "(div (* (var N) (- (var N) 1)) 2)");

    /* as a polynomial: N^2/2 - N/2 exactly */
    pp_poly *p = pp_poly_from_expr(outer);
    assert_true(pp_poly_is_integer_valued(p));
    pp_poly *pn = PP("(var N)"), *pn2 = pp_poly_mul(pn, pn), *d = pp_poly_sub(pn2, pn);
    mpq_t half;
    mpq_init(half);
    mpq_set_ui(half, 1, 2);
    pp_poly *want = pp_poly_scale(d, half);
    pp_poly *diff = pp_poly_sub(p, want);
    assert_true(pp_poly_is_zero(diff));
    assert_int_equal(pp_poly_degree_in(p, nm1->kids[0]), 2);
    env v = {1, {"N"}, {1000}};
    check_poly_value(p, &v, "499500");
    check_eval("(div (+ (* (var N) (var N)) (neg (var N))) 2)", &v, "499500");
    mpz_t z;
    mpz_init(z);
    assert_int_equal(pp_expr_eval_z(outer, lookup_z, &v, z), 0);
    assert_int_equal(mpz_get_si(z), 499500);
    int64_t r;
    assert_int_equal(pp_expr_eval_i64(outer, lookup_i64, &v, &r), 0);
    assert_int_equal(r, 499500);
    /* and at N = 1, 2 (hand: 0, 1) */
    v.val[0] = 1;
    check_poly_value(p, &v, "0");
    v.val[0] = 2;
    check_poly_value(p, &v, "1");

    mpz_clear(z);
    mpq_clear(half);
    pp_poly_free(p); pp_poly_free(pn); pp_poly_free(pn2); pp_poly_free(d);
    pp_poly_free(want); pp_poly_free(diff);
    pp_expr_free(inner);
    pp_expr_free(outer);
    pp_expr_free(i); pp_expr_free(j); pp_expr_free(one); pp_expr_free(zero);
    pp_expr_free(im1); pp_expr_free(nm1);
}

static void test_sum_powers(void **state)
{
    (void)state;
    pp_expr *i = P("i"), *lo = P("1"), *hi = P("n");
    pp_expr *e = P("(* i i)");
    pp_expr *s = pp_expr_sum(e, i, lo, hi);
    pp_expr *want = P("(div (* n (+ n 1) (+ (* 2 n) 1)) 6)");
    pp_expr *ws = pp_expr_simplify(want);
    assert_true(pp_expr_equal(s, ws));
    check_sexpr(s, "(div (+ (* 2 n n n) (* 3 n n) n) 6)");
    check_infix(s, "(2*n^3 + 3*n^2 + n)/6");
    /* against a loop */
    for (long n = 0; n <= 30; n++) {
        env v = {1, {"n"}, {n}};
        long acc = 0;
        for (long k = 1; k <= n; k++)
            acc += k * k;
        char buf[32];
        snprintf(buf, sizeof buf, "%ld", acc);
        char *got = eval_str("(div (+ (* 2 n n n) (* 3 n n) n) 6)", &v);
        assert_string_equal(got, buf);
        free(got);
    }
    pp_expr_free(e); pp_expr_free(s); pp_expr_free(want); pp_expr_free(ws);

    /* sum of i^5, 1..n = n^2 (n+1)^2 (2n^2 + 2n - 1) / 12 */
    e = P("(* i i i i i)");
    s = pp_expr_sum(e, i, lo, hi);
    want = P("(div (* n n (+ n 1) (+ n 1) (- (+ (* 2 n n) (* 2 n)) 1)) 12)");
    ws = pp_expr_simplify(want);
    assert_true(pp_expr_equal(s, ws));
    env v = {1, {"n"}, {10}};
    pp_poly *ps = pp_poly_from_expr(s);
    check_poly_value(ps, &v, "220825");       /* 1+32+243+...+100000 */
    pp_poly_free(ps);
    pp_expr_free(e); pp_expr_free(s); pp_expr_free(want); pp_expr_free(ws);

    /* empty range: hi = lo - 1 gives 0 */
    e = P("(* i i i)");
    pp_expr *lo2 = P("(+ k 1)"), *hi2 = P("k");
    s = pp_expr_sum(e, i, lo2, hi2);
    check_sexpr(s, "0");
    pp_expr_free(e); pp_expr_free(s); pp_expr_free(lo2); pp_expr_free(hi2);
    pp_expr_free(i); pp_expr_free(lo); pp_expr_free(hi);
}

static void test_sum_poly_bounds(void **state)
{
    (void)state;
    /* sum over j = k+1 .. N-1 of (N-k-1) = (N-k-1)^2 */
    pp_expr *j = P("j"), *i = P("i"), *k = P("k");
    pp_expr *body = P("(- (- N k) 1)"), *lo = P("(+ k 1)"), *hi = P("(- N 1)");
    pp_expr *s = pp_expr_sum(body, j, lo, hi);
    check_same("(* (- (- N k) 1) (- (- N k) 1))", "(* (- (- N k) 1) (- (- N k) 1))");
    pp_expr *want = P("(* (- (- N k) 1) (- (- N k) 1))"), *ws = pp_expr_simplify(want);
    assert_true(pp_expr_equal(s, ws));
    pp_expr_free(s); pp_expr_free(want); pp_expr_free(ws);

    /* Gaussian elimination: sum_k sum_{i>k} sum_{j>k} 1 = (N-1) N (2N-1) / 6 */
    pp_expr *one = P("1"), *zero = P("0");
    pp_expr *sj = pp_expr_sum(one, j, lo, hi);
    pp_expr *si = pp_expr_sum(sj, i, lo, hi);
    pp_expr *sk = pp_expr_sum(si, k, zero, hi);
    want = P("(div (* (- N 1) N (- (* 2 N) 1)) 6)");
    ws = pp_expr_simplify(want);
    assert_true(pp_expr_equal(sk, ws));
    env v = {1, {"N"}, {3}};
    pp_poly *p = pp_poly_from_expr(sk);
    check_poly_value(p, &v, "5");                /* k=0: 2*2, k=1: 1*1, k=2: 0 */
    pp_poly_free(p);
    pp_expr_free(sj); pp_expr_free(si); pp_expr_free(sk); pp_expr_free(want); pp_expr_free(ws);

    /* random polynomial bodies and bounds against brute force */
    for (int it = 0; it < 200; it++) {
        /* body: c0 + c1 j + c2 j^2 + c3 j N + c4 j^3, bounds lo = a0 + a1 N, hi = b0 + b1 N */
        long c[5], a0 = (long)(rnd() % 5) - 2, a1 = (long)(rnd() % 2), b0 = (long)(rnd() % 7) - 2,
             b1 = (long)(rnd() % 3);
        for (int q = 0; q < 5; q++)
            c[q] = (long)(rnd() % 11) - 5;
        char buf[256];
        snprintf(buf, sizeof buf, "(+ %ld (* %ld j) (* %ld j j) (* %ld j N) (* %ld j j j))",
                 c[0], c[1], c[2], c[3], c[4]);
        pp_expr *b = P(buf);
        snprintf(buf, sizeof buf, "(+ %ld (* %ld N))", a0, a1);
        pp_expr *l = P(buf);
        snprintf(buf, sizeof buf, "(+ %ld (* %ld N))", b0, b1);
        pp_expr *h = P(buf);
        pp_expr *sum = pp_expr_sum(b, j, l, h);
        assert_non_null(sum);
        for (long N = 0; N <= 8; N++) {
            long L = a0 + a1 * N, H = b0 + b1 * N;
            if (H < L - 1)
                continue;                        /* polynomial extension only */
            long acc = 0;
            for (long x = L; x <= H; x++)
                acc += c[0] + c[1] * x + c[2] * x * x + c[3] * x * N + c[4] * x * x * x;
            env w = {1, {"N"}, {N}};
            mpz_t z;
            mpz_init(z);
            assert_int_equal(pp_expr_eval_z(sum, lookup_z, &w, z), 0);
            if (mpz_cmp_si(z, acc) != 0)
                fail_msg("sum mismatch at N=%ld: %ld", N, acc);
            mpz_clear(z);
        }
        pp_expr_free(b); pp_expr_free(l); pp_expr_free(h); pp_expr_free(sum);
    }

    /* not a polynomial in the variable: NULL */
    pp_expr *op = P("(fdiv j 2)");
    assert_null(pp_expr_sum(op, j, lo, hi));
    pp_expr_free(op);
    /* the variable inside a bound: NULL */
    pp_expr *bad = P("(+ j 1)");
    assert_null(pp_expr_sum(one, j, zero, bad));
    pp_expr_free(bad);
    /* an opaque atom without the variable is a coefficient */
    op = P("(fdiv N P)");
    s = pp_expr_sum(op, j, zero, hi);
    check_sexpr(s, "(* N (fdiv N P))");
    pp_expr_free(s);
    pp_expr_free(op);

    pp_expr_free(one); pp_expr_free(zero);
    pp_expr_free(j); pp_expr_free(i); pp_expr_free(k);
    pp_expr_free(body); pp_expr_free(lo); pp_expr_free(hi);
}

static pp_expr *subst_n(void *ctx, const pp_expr *atom)
{
    if (atom->kind == PP_E_SYM && strcmp(atom->name, "N") == 0)
        return pp_expr_ref(ctx);
    return NULL;
}

static void test_subst(void **state)
{
    (void)state;
    pp_expr *e = P("(+ (* N N) (fdiv N P) (addr a N) 1)");
    pp_expr *m2 = P("(* 2 M)");
    pp_expr *r = pp_expr_subst(e, subst_n, m2);
    check_sexpr(r, "(+ (* (* 2 M) (* 2 M)) (fdiv (* 2 M) P) (addr a (* 2 M)) 1)");
    check_same("(+ (* (* 2 M) (* 2 M)) (fdiv (* 2 M) P) (addr a (* 2 M)) 1)",
               "(+ (* 4 M M) (fdiv (* M 2) P) (addr a (+ M M)) 1)");
    /* the original is untouched and unchanged subtrees are shared */
    check_sexpr(e, "(+ (* N N) (fdiv N P) (addr a N) 1)");
    pp_expr *x = P("(+ (* a b) N)");
    pp_expr *rx = pp_expr_subst(x, subst_n, m2);
    assert_ptr_equal(rx->kids[0], x->kids[0]);
    pp_expr_free(rx); pp_expr_free(x);

    /* polynomial substitution, also inside opaque atoms */
    pp_poly *p = PP("(+ (* N N) (fdiv N P) 1)");
    pp_poly *q = PP("(* 2 M)");
    pp_expr *nv = P("N");
    pp_poly *ps = pp_poly_subst(p, nv, q);
    check_poly_eq(ps, "(+ (* 4 M M) (fdiv (* 2 M) P) 1)");
    pp_poly_free(ps);
    pp_poly *eight = PP("8");
    pp_poly *p4 = PP("(+ (fdiv N 4) (* N k))");
    ps = pp_poly_subst(p4, nv, eight);
    check_poly_eq(ps, "(+ 2 (* 8 k))");
    assert_int_equal(pp_poly_degree_in(p4, nv), -1);      /* N inside (fdiv N 4) */
    pp_poly_free(ps);
    pp_poly_free(p4); pp_poly_free(eight);
    pp_poly_free(p); pp_poly_free(q);
    pp_expr_free(nv);
    pp_expr_free(r); pp_expr_free(m2); pp_expr_free(e);
}

static void test_simplify(void **state)
{
    (void)state;
    check_same("(+ (* 2 N) (- N) 1)", "(+ N 1)");
    check_simplify("(+ (* 2 N) (- N) 1)", "(+ N 1)");
    check_simplify("(- (* (+ a b) (+ a b)) (+ (* a a) (* 2 a b) (* b b)))", "0");
    check_simplify("(+ (* 3 a) (* -5 b) 2)", "(+ (* 3 a) (* -5 b) 2)");
    check_simplify("(- 0 N)", "(neg N)");
    check_simplify("(max 0 x)", "(max 0 x)");
    check_simplify("(max x 0)", "(max 0 x)");
    check_simplify("(min 3 7 x)", "(min 3 x)");
    check_simplify("(min (min a 3) (min b 7))", "(min 3 a b)");
    check_simplify("(max N (+ N 1) (- N 4))", "(+ N 1)");
    check_simplify("(min 4 9 -2)", "-2");
    check_simplify("(div 7 2)", "3");
    check_simplify("(div -7 2)", "-3");
    check_simplify("(mod -7 2)", "-1");
    check_simplify("(fdiv -7 2)", "-4");
    check_simplify("(cdiv -7 2)", "-3");
    check_simplify("(div 1 0)", "(div 1 0)");
    check_simplify("(cond (lt 1 2) a b)", "a");
    check_simplify("(cond c a a)", "a");
    check_simplify("(cond c a b)", "(cond c a b)");
    check_simplify("(div (* 2 N) 2)", "N");
    check_simplify("(mod (* 6 N) 3)", "0");
    check_simplify("(div (* N (- N 1)) 2)", "(div (+ (* N N) (neg N)) 2)");
    check_simplify("(fdiv (+ (* 4 N) 3) 2)", "(+ (* 2 N) 1)");
    check_simplify("(cdiv (+ (* 4 N) 3) 2)", "(+ (* 2 N) 2)");
    check_simplify("(cdiv (+ (* 4 N) M) 2)", "(+ (* 2 N) (cdiv M 2))");
    check_simplify("(div (+ (* 4 N) 3) 2)", "(div (+ (* 4 N) 3) 2)");
    check_simplify("(div (+ N 1) 1)", "(+ N 1)");
    check_simplify("(div (+ N 1) (+ 1 N))", "1");
    check_simplify("(shl N 2)", "(* 4 N)");
    check_simplify("(shr (* 8 N) 3)", "N");
    check_simplify("(shr N 1)", "(fdiv N 2)");
    check_simplify("(shl N k)", "(shl N k)");
    check_simplify("(lt N (+ N 1))", "1");
    check_simplify("(ge N (+ N 1))", "0");
    check_simplify("(lt N M)", "(lt N M)");
    check_simplify("(and 1 (lt a b))", "(and (lt a b))");
    check_simplify("(and 0 (lt a b))", "0");
    check_simplify("(or (lt a b) 3)", "1");
    check_simplify("(not (eq 1 2))", "1");
    check_simplify("((+ 1 1) (* 2 N N) ?)", "(2 (* 2 N N) ?)");
    check_simplify("(addr a (+ (iv 0) (iv 0)))", "(addr a (* 2 (iv 0)))");
    check_simplify("(+ ? 1 -1)", "?");
    check_simplify("(- ? ?)", "(- ? ?)");              /* unknowns never cancel */
    check_simplify("(- (load) (load))", "(- (load) (load))");
    check_simplify("(* (+ (arg n) 1) (- (arg n) 1))", "(+ (* (arg n) (arg n)) -1)");
    /* canonical order does not depend on the input order */
    check_same("(+ (* b a) (* 3 (tid)) (nthreads) (iv 1) (arg x))",
               "(+ (arg x) (iv 1) (nthreads) (* (tid) 3) (* a b))");
}

static void test_opaque_atoms(void **state)
{
    (void)state;
    check_same("(fdiv (+ N 0) P)", "(fdiv N (* 1 P))");
    check_simplify("(- (fdiv (+ N 0) (nthreads)) (fdiv (* 1 N) (nthreads)))", "0");
    check_same("(min a b)", "(min b a)");
    check_same("(+ (max 0 (- hi lo)) (max 0 (- hi lo)))", "(* 2 (max 0 (+ hi (neg lo))))");
    check_simplify("(* (fdiv N P) (fdiv N P))", "(* (fdiv N P) (fdiv N P))");
    check_simplify("(- (cdiv N P) (fdiv N P))", "(+ (neg (fdiv N P)) (cdiv N P))");
    /* a keyword away from the head of a list is a plain symbol */
    pp_expr *kw = P("(+ 1 div)");
    assert_int_equal(kw->kids[1]->kind, PP_E_SYM);
    check_sexpr(kw, "(+ 1 \"div\")");
    pp_expr_free(kw);
    /* the opaque atom is a variable of the polynomial */
    pp_poly *p = PP("(+ (* 3 (fdiv N P)) (fdiv (+ N 0) P))");
    check_poly_eq(p, "(* 4 (fdiv N P))");
    pp_expr *a = P("(fdiv N P)");
    assert_int_equal(pp_poly_degree_in(p, a), 1);
    env v = {2, {"N", "P"}, {10, 3}};
    check_poly_value(p, &v, "12");
    pp_expr_free(a);
    pp_poly_free(p);
}

static void test_poly_rational(void **state)
{
    (void)state;
    /* p = N^2/3 + N/2 */
    pp_poly *n = PP("N"), *n2 = pp_poly_mul(n, n);
    mpq_t c;
    mpq_init(c);
    mpq_set_ui(c, 1, 3);
    pp_poly *a = pp_poly_scale(n2, c);
    mpq_set_ui(c, 1, 2);
    pp_poly *b = pp_poly_scale(n, c);
    pp_poly *p = pp_poly_add(a, b);
    env v = {1, {"N"}, {5}};
    check_poly_value(p, &v, "65/6");            /* 25/3 + 5/2 */
    v.val[0] = -7;
    check_poly_value(p, &v, "77/6");            /* 49/3 - 7/2 */
    assert_false(pp_poly_is_integer_valued(p));
    pp_expr *e = pp_poly_to_expr(p);
    check_sexpr(e, "(div (+ (* 2 N N) (* 3 N)) 6)");
    pp_expr_free(e);
    /* (N^3 - N)/6 is integer valued; N^2/2 is not */
    pp_poly *n3 = pp_poly_mul(n2, n), *d = pp_poly_sub(n3, n);
    mpq_set_ui(c, 1, 6);
    pp_poly *t = pp_poly_scale(d, c);
    assert_true(pp_poly_is_integer_valued(t));
    mpq_set_ui(c, 1, 2);
    pp_poly *h = pp_poly_scale(n2, c);
    assert_false(pp_poly_is_integer_valued(h));
    /* two variables: N*M*(N+1)/2 integer valued, N*M/2 not */
    pp_poly *m = PP("(* N M (+ N 1))"), *mh = pp_poly_scale(m, c);
    assert_true(pp_poly_is_integer_valued(mh));
    pp_poly *nm = PP("(* N M)"), *nmh = pp_poly_scale(nm, c);
    assert_false(pp_poly_is_integer_valued(nmh));
    /* copy, zero, unknown atoms */
    pp_poly *cp = pp_poly_copy(p), *z = pp_poly_sub(cp, p);
    assert_true(pp_poly_is_zero(z));
    mpq_t q;
    mpq_init(q);
    env none = {0, {NULL}, {0}};
    assert_int_equal(pp_poly_eval_q(p, lookup_z, &none, q), PP_EVAL_UNKNOWN);
    pp_poly *div0 = PP("(+ N (div 1 (- N N)))");
    v.val[0] = 1;
    assert_int_equal(pp_poly_eval_q(div0, lookup_z, &v, q), PP_EVAL_DIVZERO);
    mpq_clear(q);
    pp_poly_free(div0);
    pp_poly_free(cp); pp_poly_free(z);
    pp_poly_free(m); pp_poly_free(mh); pp_poly_free(nm); pp_poly_free(nmh);
    pp_poly_free(n3); pp_poly_free(d); pp_poly_free(t); pp_poly_free(h);
    pp_poly_free(n); pp_poly_free(n2); pp_poly_free(a); pp_poly_free(b); pp_poly_free(p);
    mpq_clear(c);
}

static void test_predicates(void **state)
{
    (void)state;
    pp_expr *e = P("(+ (arg n) (call f))");
    assert_true(pp_expr_has_unknown(e));
    assert_false(pp_expr_is_atom(e));
    assert_true(pp_expr_is_atom(e->kids[0]));
    pp_expr_free(e);
    e = P("(* (load) 2)");
    assert_true(pp_expr_has_unknown(e));
    pp_expr_free(e);
    e = P("(max 0 (- (arg hi) (arg lo)))");
    assert_false(pp_expr_has_unknown(e));
    pp_expr_free(e);
    e = P("42");
    long v = 0;
    assert_true(pp_expr_is_int(e, &v));
    assert_int_equal(v, 42);
    assert_false(pp_expr_is_atom(e));
    pp_expr_free(e);
    e = P("?");
    assert_true(pp_expr_is_atom(e));
    assert_true(pp_expr_has_unknown(e));
    pp_expr_free(e);

    /* construction: wrong arity or kind is refused; references counted */
    pp_expr *a = pp_expr_sym("a"), *b = pp_expr_int(2);
    pp_expr *k2[2] = {a, b};
    assert_null(pp_expr_op(PP_E_NEG, 2, k2));
    assert_null(pp_expr_op(PP_E_DIV, 1, k2));
    assert_null(pp_expr_op(PP_E_INT, 2, k2));
    assert_null(pp_expr_atom(PP_E_ADD, "x", 0));
    pp_expr *s = pp_expr_op(PP_E_ADD, 2, k2);
    pp_expr_free(a);
    pp_expr_free(b);                             /* s still holds them */
    check_sexpr(s, "(+ a 2)");
    pp_expr *s2 = pp_expr_ref(s);
    pp_expr_free(s);
    check_infix(s2, "a + 2");
    pp_expr_free(s2);
    /* compare is a total order consistent with equal */
    pp_expr *x = P("(+ a 1)"), *y = P("(+ a 2)"), *z = P("(+ b 0)");
    assert_true(pp_expr_compare(x, y) < 0 && pp_expr_compare(y, x) > 0);
    assert_true(pp_expr_compare(y, z) < 0 && pp_expr_compare(x, z) < 0);
    pp_expr_free(x); pp_expr_free(y); pp_expr_free(z);
}

/* band bor bxor bnot: two's complement values computed by hand (-6 is
 * ...11010, 3 is 011, 5 is 101), the exact and the int64 evaluation, the
 * compiled evaluation of inst-code.c being checked by the e2e tests */
static void test_bitwise(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"(bxor 0 1)", "1"}, {"(bxor 1 1)", "0"}, {"(bxor 6 1)", "7"}, {"(bxor 7 1)", "6"},
        {"(bxor 5 3)", "6"}, {"(band 5 3)", "1"}, {"(bor 5 3)", "7"},
        {"(bxor -6 3)", "-7"},         /* ...11010 ^ 011 = ...11001 */
        {"(band -6 3)", "2"},          /* ...11010 & 011 = 010 */
        {"(bor -6 3)", "-5"},          /* ...11011 */
        {"(band -1 -8)", "-8"}, {"(bor -8 7)", "-1"}, {"(bxor -1 -1)", "0"},
        {"(bnot 0)", "-1"}, {"(bnot 5)", "-6"}, {"(bnot -6)", "5"},
        {"(bnot 9223372036854775807)", "-9223372036854775808"},
        {"(bnot -9223372036854775808)", "9223372036854775807"},
        {"(bxor (shl 1 70) 1)", "1180591620717411303425"},   /* 2^70 + 1 */
        {"(band (neg (shl 1 70)) 255)", "0"},
        /* the partners of an exchange: rank ^ 1 at rank 4, 5 and P = 6 */
        {"(bxor (rank) 1)", "5"}, {"(bxor (+ (rank) 1) 1)", "4"},
        {"(band (rank) (bnot 1))", "4"}, {"(bor (rank) 1)", "5"},
        {"(bxor (rank) ?)", "E1"},
    };
    env v = {2, {"rank", "P"}, {4, 6}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_eval(cases[i][0], &v, cases[i][1]);
        pp_expr *e = P(cases[i][0]);
        int64_t r = 0;
        int rc = pp_expr_eval_i64(e, lookup_i64, &v, &r);
        char buf[32];
        if (rc == 0)
            snprintf(buf, sizeof buf, "%lld", (long long)r);
        else
            snprintf(buf, sizeof buf, "E%d", rc);
        if (rc != PP_EVAL_OVERFLOW)
            assert_string_equal(buf, cases[i][1]);
        pp_expr_free(e);
    }
    static const char *infix[][2] = {
        {"(bxor (rank) 1)", "rank ^ 1"}, {"(band a (bor b c))", "a & (b | c)"},
        {"(bnot (+ a 1))", "~(a + 1)"}, {"(lt (bxor (rank) 1) (nprocs))", "(rank ^ 1) < P"},
        {"(bor (shl a 2) 1)", "a << 2 | 1"},
    };
    for (size_t i = 0; i < sizeof infix / sizeof infix[0]; i++) {
        pp_expr *e = P(infix[i][0]);
        check_infix(e, infix[i][1]);
        check_sexpr(e, infix[i][0]);
        pp_expr_free(e);
    }
    check_simplify("(bxor 6 1)", "7");
    check_simplify("(bxor (+ N 0) 0)", "N");
    check_simplify("(bor 0 N)", "N");
    check_simplify("(band N -1)", "N");
    check_simplify("(band N 0)", "0");
    check_simplify("(bnot (bnot N))", "N");
    check_simplify("(bxor (+ (rank) 0) 1)", "(bxor (rank) 1)");
    check_simplify("(- (bxor (rank) 1) (bxor (* 1 (rank)) 1))", "0");
    /* wrong arity is a parse error */
    char err[128];
    assert_null(pp_expr_parse("(bnot 1 2)", NULL, err, sizeof err));
    assert_null(pp_expr_parse("(bxor 1)", NULL, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_big_integers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_fuzz),
        cmocka_unit_test(test_infix),
        cmocka_unit_test(test_c_division),
        cmocka_unit_test(test_bitwise),
        cmocka_unit_test(test_i64_overflow),
        cmocka_unit_test(test_i64_matches_exact),
        cmocka_unit_test(test_triangular),
        cmocka_unit_test(test_sum_powers),
        cmocka_unit_test(test_sum_poly_bounds),
        cmocka_unit_test(test_subst),
        cmocka_unit_test(test_simplify),
        cmocka_unit_test(test_opaque_atoms),
        cmocka_unit_test(test_poly_rational),
        cmocka_unit_test(test_predicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
