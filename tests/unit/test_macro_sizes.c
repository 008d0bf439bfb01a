/* test_macro_sizes.c - compile-time sizes (analysis/macro-sizes.c): the
 * constants that differ between builds at other macro values become the
 * simplest form of the macros that reproduces them, checked by hand:
 * N - 1 and N/4 from two builds; N*N + 2*N is only a fitted 252*N - 15000
 * with two builds and found with three; a constant that follows no form
 * keeps the first build's value; macros that vary together are said;
 * a single build gives the hint.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "macro-sizes.h"

/* A record of one function, macros N (and K = N when alias) and M = 7,
 * one loop per count given, a static array of N x M doubles. */
static void load(pp_record *r, long n, int alias, const long *counts, int ncounts)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/pp-test-macro-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "perfpred-record 1\n"
               "program path=\"/x/k\" pid=7 host=\"h\" clock=monotonic_ns abi=1 runtime=\"perfpred-rt 0.1\"\n"
               "func idx=0\n"
               "func name=main file=k.c line=1 kind=normal nslots=%d args=() ops=(0 0 0 0 0 0)\n"
               "macro name=N value=%ld\nmacro name=M value=7\n",
            1 + 2 * ncounts, n);
    if (alias)
        fprintf(f, "macro name=K value=%ld\n", n);
    for (int i = 0; i < ncounts; i++)
        fprintf(f, "loop id=%d parent=- pos=%d line=%d slot=%d shape=top count=%ld ops=(0 0 0 0 0 0)\n", i, i + 1,
                10 + i, 1 + 2 * i, counts[i]);
    fprintf(f, "shape id=0 line=2 name=A kind=static elem=8 dims=(%ld 7) bytes=%ld\n"
               "end\n"
               "thread id=0 kind=main parent=- start=0 end=100\n"
               "tail thread=0 t=100 delta=()\n"
               "end events=0 threads=1\n",
            n, 8 * 7 * n);
    fclose(f);
    char err[512];
    int rc = pp_record_load(path, r, err, sizeof err);
    unlink(path);
    if (rc)
        fail_msg("%s", err);
}

static void assert_count(const pp_record *r, int loop, const char *want)
{
    char *s = pp_expr_to_infix(r->funcs[0].loops[loop].count);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
}

static const pp_mrule *rule(const pp_macros *m, const char *text)
{
    for (int i = 0; i < m->nrules; i++)
        if (!strcmp(m->rules[i].rule, text))
            return &m->rules[i];
    return NULL;
}

static void test_two_builds(void **state)
{
    (void)state;
    /* N = 100, 150: N - 1, N/4 (25, 37), 7 (M, the same), 37 and 52
     * (no form: kept 37), N*N + 2*N (10200, 22800) */
    long a[] = {99, 25, 7, 37, 10200}, b[] = {149, 37, 7, 52, 22800};
    pp_record r[2];
    load(&r[0], 100, 0, a, 5);
    load(&r[1], 150, 0, b, 5);
    pp_record *all[2] = {&r[0], &r[1]};
    pp_macros m;
    char err[256];
    assert_int_equal(pp_macros_unify(all, 2, &m, err, sizeof err), 0);
    assert_int_equal(m.nbuilds, 2);
    const pp_msize *N = pp_macros_find(&m, "N"), *M = pp_macros_find(&m, "M");
    assert_non_null(N);
    assert_non_null(M);
    assert_true(N->used && N->varies);
    assert_false(M->used || M->varies);
    assert_non_null(N->array);
    assert_string_equal(N->array, "A");
    for (int k = 0; k < 2; k++) {
        assert_count(&r[k], 0, "N - 1");
        assert_count(&r[k], 1, "N/4");
        assert_count(&r[k], 2, "7");
        assert_count(&r[k], 3, "37");
        /* two builds: a line through them comes first, fitted not checked */
        assert_count(&r[k], 4, "252*N - 15000");
        /* the gparam the model reads N from */
        assert_int_equal(r[k].ngparams, 1);
        assert_string_equal(r[k].gparams[0].name, "N");
        assert_int_equal(r[k].gparams[0].value, k ? 150 : 100);
    }
    assert_int_equal(rule(&m, "N - 1")->checked, 1);
    assert_int_equal(rule(&m, "252*N - 15000")->checked, 0);
    assert_int_equal(m.nunmatched, 1);
    assert_non_null(strstr(m.unmatched[0], "loop 3 (line 13) count: 37, 52"));
    /* bytes 8*7*N: one coefficient, 56 */
    char *s = pp_expr_to_infix(r[1].funcs[0].shapes[0].bytes);
    assert_string_equal(s, "56*N");
    free(s);
    pp_macros_free(&m);
    pp_record_free(&r[0]);
    pp_record_free(&r[1]);
}

static void test_three_builds(void **state)
{
    (void)state;
    /* a third build, N = 200 (40400), rules the line out: N^2 + 2*N */
    long a[] = {10200}, b[] = {22800}, c[] = {40400};
    pp_record r[3];
    load(&r[0], 100, 0, a, 1);
    load(&r[1], 150, 0, b, 1);
    load(&r[2], 200, 0, c, 1);
    pp_record *all[3] = {&r[0], &r[1], &r[2]};
    pp_macros m;
    char err[256];
    assert_int_equal(pp_macros_unify(all, 3, &m, err, sizeof err), 0);
    assert_int_equal(m.nbuilds, 3);
    assert_count(&r[2], 0, "N^2 + 2*N");
    assert_int_equal(m.nrules >= 1, 1);
    assert_int_equal(rule(&m, "N^2 + 2*N")->checked, 1);
    assert_int_equal(m.nunmatched, 0);
    pp_macros_free(&m);
    for (int k = 0; k < 3; k++)
        pp_record_free(&r[k]);
}

static void test_alias_and_single(void **state)
{
    (void)state;
    long a[] = {100}, b[] = {150};
    pp_record r[2];
    load(&r[0], 100, 1, a, 1);
    load(&r[1], 150, 1, b, 1);
    pp_record *all[2] = {&r[0], &r[1]};
    pp_macros m;
    char err[256], hint[200];
    assert_int_equal(pp_macros_unify(all, 2, &m, err, sizeof err), 0);
    assert_non_null(m.alias);
    assert_true(strstr(m.alias, "N") && strstr(m.alias, "K"));
    pp_macros_free(&m);
    /* one build: nothing rewritten, the hint names the macro sizing A */
    assert_int_equal(pp_macros_unify(all, 1, &m, err, sizeof err), 0);
    assert_int_equal(m.nbuilds, 1);
    assert_int_equal(m.nrules, 0);
    assert_non_null(pp_macros_hint(&m, hint, sizeof hint));
    assert_non_null(strstr(hint, "build it again with another value (e.g. -D"));
    assert_non_null(strstr(hint, "=200) and give both records"));
    pp_macros_free(&m);
    pp_record_free(&r[0]);
    pp_record_free(&r[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_builds),
        cmocka_unit_test(test_three_builds),
        cmocka_unit_test(test_alias_and_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
