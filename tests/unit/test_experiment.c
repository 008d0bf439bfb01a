/* test_experiment.c - the experiment file reader (good files, and bad
 * ones whose error names the file and the line), its lists and integer
 * expressions, and the crossover finder on hand-made curves.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "xover.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pp-exp-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    /* records only need to exist for the reader */
    const char *recs[] = {"rows.ppr", "blocks-64.ppr", "blocks-128.ppr"};
    for (int i = 0; i < 3; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, recs[i]);
        FILE *f = fopen(p, "w");
        if (!f)
            return -1;
        fclose(f);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *write_exp(const char *name, const char *text)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void test_good_file(void **state)
{
    (void)state;
    const char *p = write_exp("good.experiment",
                              "perfpred-experiment 1\n"
                              "# MatMul\n"
                              "name = MatMul rows and blocks   # a label\n"
                              "machine = host.machine\n"
                              "set M = 2*N\n"
                              "\n"
                              "variant rows\n"
                              "  records = rows.ppr\n"
                              "variant blocks\n"
                              "  records = blocks-*.ppr\n"
                              "  set PR = sqdiv(P)\n"
                              "  set PC = P / sqdiv(P)\n"
                              "step P = 1,2,4..64\n"
                              "step N = 256..1024+256\n"
                              "outputs = time, speedup E machines\n"
                              "output = out\n"
                              "baseline = rows\n"
                              "draws = 0\n"
                              "cache-rule = off\n");
    pp_experiment x;
    char err[512] = "";
    assert_int_equal(pp_exp_load(p, &x, err, sizeof err), 0);
    assert_string_equal(x.name, "MatMul rows and blocks");
    char want[160];
    snprintf(want, sizeof want, "%s/host.machine", dir);
    assert_string_equal(x.machine, want);
    snprintf(want, sizeof want, "%s/out", dir);
    assert_string_equal(x.outdir, want);
    assert_int_equal(x.nvar, 2);
    assert_string_equal(x.var[0].name, "rows");
    assert_int_equal(x.var[0].nrec, 1);
    assert_int_equal(x.var[1].nrec, 2);   /* the glob, sorted */
    snprintf(want, sizeof want, "%s/blocks-128.ppr", dir);
    assert_string_equal(x.var[1].rec[0], want);
    assert_int_equal(x.var[1].line, 9);
    assert_int_equal(x.nset, 1);
    assert_string_equal(x.set[0].name, "M");
    assert_int_equal(x.var[1].nset, 2);
    assert_int_equal(x.var[1].set[1].line, 12);
    assert_int_equal(x.nstep, 2);
    assert_string_equal(x.step[0].name, "P");
    assert_int_equal(x.step[0].n, 7);
    assert_int_equal(x.step[0].v[6], 64);
    assert_int_equal(x.step[1].n, 4);
    assert_int_equal(x.step[1].v[2], 768);
    assert_int_equal(x.outputs, PP_XO_TIME | PP_XO_SPEEDUP | PP_XO_E | PP_XO_MACHINES);
    assert_string_equal(x.baseline, "rows");
    assert_int_equal(x.draws, 0);
    assert_int_equal(x.cache_rule, 0);
    /* PC at P = 8: 8 / sqdiv(8) = 8 / 2 */
    const char *names[] = {"P", "N"};
    long vals[] = {8, 256}, v;
    assert_int_equal(pp_iexpr_eval(x.var[1].set[1].e, names, vals, 2, &v, err, sizeof err), 0);
    assert_int_equal(v, 4);
    pp_exp_free(&x);

    /* defaults: no steps, the name from the file */
    p = write_exp("min.exp", "perfpred-experiment 1\nvariant a\nrecords = rows.ppr\n");
    assert_int_equal(pp_exp_load(p, &x, err, sizeof err), 0);
    assert_string_equal(x.name, "min");
    assert_null(x.machine);
    assert_int_equal(x.nstep, 0);
    assert_int_equal(x.outputs, PP_XO_DEFAULT);
    assert_int_equal(x.draws, -1);
    assert_int_equal(x.cache_rule, 1);
    pp_exp_free(&x);
}

/* Each bad file: its error names the file and this line, and says this. */
static void test_bad_files(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line;
        const char *says;
    } bad[] = {
        {"perfpred-machine 1\n", 1, "not a perfpred experiment file"},
        {"perfpred-experiment 2\nvariant a\n", 1, "first line must be"},
        {"", 0, "empty file"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nmachine\n", 4, "expected 'KEY = VALUE'"},
        {"perfpred-experiment 1\nrecords = rows.ppr\n", 2, "outside a variant"},
        {"perfpred-experiment 1\nvariant a\nrecords = nope.ppr\n", 3, "nope.ppr': No such file"},
        {"perfpred-experiment 1\nvariant a\nrecords = zz*.ppr\n", 3, "matches no file"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nvariant a\n", 4, "already defined at line 2"},
        {"perfpred-experiment 1\nvariant a\n\nvariant b\nrecords = rows.ppr\n", 2, "variant a has no records"},
        {"perfpred-experiment 1\nname = x\n", 2, "no variant"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nstep P = 1,4,2\n", 4, "must increase: 2 after 4"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nstep P = 0..8\n", 4, "A >= 1"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nstep P = 0,1\n", 4, "1 to 1000000"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nstep N = 8..4\n", 4, "empty"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nstep N = 1,x\n", 4, "'x' is not an integer"},
        {"perfpred-experiment 1\nstep N = 1\nvariant a\nrecords = rows.ppr\nstep N = 2\n", 5, "already stepped at line 2"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nset PR = sqdiv(P\n", 4, "')' expected"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nset PR = cube(P)\n", 4, "unknown function"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nset PR = 2*Q\n", 4, "'Q' is neither P nor a stepped"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nset P = 4\n", 4, "P is the processor count"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nset N = 4\nset N = 5\n", 5, "already set at line 4"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\noutputs = time, speed\n", 4, "unknown output 'speed'"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\ncolour = red\n", 4, "unknown key 'colour'"},
        {"perfpred-experiment 1\nmachine = a\nvariant a\nrecords = rows.ppr\nmachine = b\n", 5, "given twice (first at line 2)"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\nbaseline = c\n", 4, "no variant named 'c'"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\ndraws = -3\n", 4, "draws: '-3'"},
        {"perfpred-experiment 1\nvariant a\nrecords = rows.ppr\ninsitu = maybe\n", 4, "not on or off"},
        {"perfpred-experiment 1\nvariant a b\n", 2, "expected 'variant NAME'"},
        {"perfpred-experiment 1\nvariant a\nrecords =\n", 3, "no path given"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.experiment", i);
        const char *p = write_exp(name, bad[i].text);
        pp_experiment x;
        char err[512] = "";
        int rc = pp_exp_load(p, &x, err, sizeof err);
        char where[160];
        if (bad[i].line > 0)
            snprintf(where, sizeof where, "%s:%d: ", p, bad[i].line);
        else
            snprintf(where, sizeof where, "%s: ", p);
        if (rc != -1 || strncmp(err, where, strlen(where)) != 0 || !strstr(err, bad[i].says))
            fail_msg("bad file %zu: rc %d, message '%s' (wanted '%s...%s')", i, rc, err, where, bad[i].says);
    }
    pp_experiment x;
    char err[512];
    assert_int_equal(pp_exp_load("/nonexistent/x.experiment", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.experiment: cannot open"));
}

static void test_lists(void **state)
{
    (void)state;
    long *v;
    int n;
    char err[256];
    assert_int_equal(pp_exp_parse_list("1,2,4..1024", &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 11);
    for (int i = 0; i < n; i++)
        assert_int_equal(v[i], 1L << i);
    free(v);
    assert_int_equal(pp_exp_parse_list(" 256 .. 1024 + 256 ", &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[3], 1024);
    free(v);
    assert_int_equal(pp_exp_parse_list("1..30*3", &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[3], 27);
    free(v);
    assert_int_equal(pp_exp_parse_list("-4,-1,0", &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    free(v);
    assert_int_equal(pp_exp_parse_list("1..4*1", &v, &n, err, sizeof err), -1);
    assert_int_equal(pp_exp_parse_list("", &v, &n, err, sizeof err), -1);
    assert_int_equal(pp_exp_parse_list("1..100000+1", &v, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than"));
}

static long ev(const char *s, long P)
{
    char err[256];
    pp_iexpr *e = pp_iexpr_parse(s, err, sizeof err);
    if (!e)
        fail_msg("%s: %s", s, err);
    const char *names[] = {"P"};
    long v = 0;
    if (pp_iexpr_eval(e, names, &P, 1, &v, err, sizeof err))
        fail_msg("%s: %s", s, err);
    pp_iexpr_free(e);
    return v;
}

static void test_expressions(void **state)
{
    (void)state;
    assert_int_equal(ev("1 + 2*3 - (4 - 1)", 0), 4);
    assert_int_equal(ev("-7 / 2", 0), -4);   /* rounds down */
    assert_int_equal(ev("-7 % 2", 0), 1);
    assert_int_equal(ev("7 / -2", 0), -4);
    assert_int_equal(ev("min(P, 3, 9)", 5), 3);
    assert_int_equal(ev("max(P, 3, 9)", 50), 50);
    assert_int_equal(ev("isqrt(P)", 99), 9);
    assert_int_equal(ev("isqrt(P)", 100), 10);
    assert_int_equal(ev("log2(P)", 1023), 9);
    assert_int_equal(ev("isqrt(P)", 0), 0);
    assert_int_equal(ev("isqrt(P)", 9223372036854775807L), 3037000499L);
    assert_int_equal(ev("sqdiv(P)", 999998000001L), 999999L);   /* 999999^2 */
    /* the most nearly square grid of matmul_blocks.c */
    static const long grid[][2] = {{1, 1}, {2, 1}, {4, 2}, {6, 2}, {8, 2}, {9, 3}, {12, 3}, {16, 4}, {17, 1},
                                   {32, 4}, {64, 8}, {1024, 32}};
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++)
        assert_int_equal(ev("sqdiv(P)", grid[i][0]), grid[i][1]);
    char err[256];
    const char *names[] = {"P"};
    long P = 0, v;
    pp_iexpr *e = pp_iexpr_parse("8 / (P - P)", err, sizeof err);
    assert_non_null(e);
    assert_int_equal(pp_iexpr_eval(e, names, &P, 1, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "division by zero"));
    pp_iexpr_free(e);
    e = pp_iexpr_parse("N + 1", err, sizeof err);
    assert_int_equal(pp_iexpr_eval(e, names, &P, 1, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "'N' has no value"));
    pp_iexpr_free(e);
    e = pp_iexpr_parse("sqdiv(P)", err, sizeof err);
    assert_int_equal(pp_iexpr_eval(e, names, &P, 1, &v, err, sizeof err), -1);
    pp_iexpr_free(e);
    e = pp_iexpr_parse("9223372036854775807 + 1", err, sizeof err);
    assert_int_equal(pp_iexpr_eval(e, names, &P, 1, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "overflow"));
    pp_iexpr_free(e);
    assert_null(pp_iexpr_parse("2 +", err, sizeof err));
    assert_null(pp_iexpr_parse("2 3", err, sizeof err));
    assert_null(pp_iexpr_parse("isqrt(1, 2)", err, sizeof err));
    assert_null(pp_iexpr_parse("(", err, sizeof err));
}

/* ---------------------------------------------------------------- crossovers */

typedef struct {
    double (*a)(double), (*b)(double);
    int calls;
} curves;

static double a_line(double x) { return 100 - 3 * x; }
static double b_line(double x) { return 12 + 2 * x; }      /* crosses a at 17.6 */
static double b_line2(double x) { return 10 + 2 * x; }     /* crosses a at 18   */
static double a_par(double x) { return (x - 10) * (x - 40); }
static double zero(double x) { (void)x; return 0; }

static int diff(void *vp, long x, double *d, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    curves *c = vp;
    c->calls++;
    *d = c->a((double)x) - c->b((double)x);
    return 0;
}

static int failing(void *vp, long x, double *d, char *err, size_t errlen)
{
    (void)vp;
    (void)d;
    snprintf(err, errlen, "no prediction at %ld", x);
    return -1;
}

static int grid_diff(curves *c, const long *xs, int n, double *d)
{
    for (int i = 0; i < n; i++)
        d[i] = c->a((double)xs[i]) - c->b((double)xs[i]);
    return n;
}

static void test_crossover_lines(void **state)
{
    (void)state;
    long xs[] = {1, 2, 4, 8, 16, 32, 64};
    double d[7];
    pp_xover out[7];
    char err[128];
    curves c = {a_line, b_line, 0};
    grid_diff(&c, xs, 7, d);
    /* a is slower below 17.6, b above: one crossing between 16 and 32 */
    assert_int_equal(pp_xover_find(xs, d, 7, diff, &c, out, 7, err, sizeof err), 1);
    assert_int_equal(out[0].lo, 17);
    assert_int_equal(out[0].hi, 18);
    assert_int_equal(out[0].below, 1);    /* d > 0: b faster below */
    assert_int_equal(out[0].above, -1);   /* a faster from 18 */
    assert_true(fabs(out[0].at - 17.6) < 1e-9);
    assert_int_equal(out[0].evals, c.calls);
    assert_true(c.calls <= 4);            /* bisection of 16..32 */

    /* equal at 18 exactly */
    c = (curves){a_line, b_line2, 0};
    grid_diff(&c, xs, 7, d);
    assert_int_equal(pp_xover_find(xs, d, 7, diff, &c, out, 7, err, sizeof err), 1);
    assert_int_equal(out[0].lo, 17);
    assert_int_equal(out[0].hi, 18);
    assert_int_equal(out[0].above, 0);
    assert_true(fabs(out[0].at - 18) < 1e-9);

    /* not refined */
    c = (curves){a_line, b_line, 0};
    assert_int_equal(pp_xover_find(xs, d, 7, NULL, NULL, out, 7, err, sizeof err), 1);
    assert_int_equal(out[0].lo, 16);
    assert_int_equal(out[0].hi, 32);

    /* a parabola against 0: two crossings, where it is 0 at 10 (between
     * 8 and 16) and at 40 (between 32 and 64) */
    c = (curves){a_par, zero, 0};
    grid_diff(&c, xs, 7, d);
    assert_int_equal(pp_xover_find(xs, d, 7, diff, &c, out, 7, err, sizeof err), 2);
    assert_int_equal(out[0].lo, 9);
    assert_int_equal(out[0].hi, 10);
    assert_int_equal(out[0].above, 0);
    assert_int_equal(out[0].below, 1);
    assert_int_equal(out[1].lo, 39);
    assert_int_equal(out[1].hi, 40);
    assert_int_equal(out[1].below, -1);
    assert_int_equal(out[1].above, 0);

    /* no crossing: b faster everywhere; zero everywhere; a touch */
    c = (curves){b_line, zero, 0};
    grid_diff(&c, xs, 7, d);
    assert_int_equal(pp_xover_find(xs, d, 7, diff, &c, out, 7, err, sizeof err), 0);
    assert_int_equal(c.calls, 0);
    c = (curves){zero, zero, 0};
    grid_diff(&c, xs, 7, d);
    assert_int_equal(pp_xover_find(xs, d, 7, diff, &c, out, 7, err, sizeof err), 0);
    double touch[] = {5, 0, 5};
    long x3[] = {1, 2, 3};
    assert_int_equal(pp_xover_find(x3, touch, 3, diff, &c, out, 3, err, sizeof err), 0);
    /* a zero on the grid between two signs: the crossing ends there */
    double through[] = {5, 0, -5};
    assert_int_equal(pp_xover_find(x3, through, 3, NULL, NULL, out, 3, err, sizeof err), 1);
    assert_int_equal(out[0].lo, 1);
    assert_int_equal(out[0].hi, 2);
    assert_int_equal(out[0].above, 0);
    /* a failed point is skipped */
    double gap[] = {5, NAN, -5};
    assert_int_equal(pp_xover_find(x3, gap, 3, NULL, NULL, out, 3, err, sizeof err), 1);
    assert_int_equal(out[0].lo, 1);
    assert_int_equal(out[0].hi, 3);
    /* the evaluation's error comes back */
    c = (curves){a_line, b_line, 0};
    grid_diff(&c, xs, 7, d);
    assert_int_equal(pp_xover_find(xs, d, 7, failing, NULL, out, 7, err, sizeof err), -1);
    assert_non_null(strstr(err, "no prediction at 24"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_crossover_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
