/* test_report.c - the writers of `perfpred report` on a document made by
 * hand: HTML escaping and inline markup, the figure as a base64 data: URI
 * that decodes back to the SVG file, the table's CSV (quoted fields, the
 * raw values) inline and as table-ID.csv, Markdown's escaped pipes and
 * links, and an out-of-memory document refused.
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

#include "report.h"

static char dir[64];

static char *slurp(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void spew(const char *name, const char *s)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(s, f);
    fclose(f);
}

static int b64val(int c)
{
    const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = strchr(t, c);
    return c && p ? (int)(p - t) : -1;
}

/* Decode base64 up to the first character that is not one. */
static char *unbase64(const char *s)
{
    size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=");
    char *out = calloc(1, n + 1);
    size_t k = 0;
    for (size_t i = 0; i + 3 < n + 1 && i + 4 <= n; i += 4) {
        int a = b64val(s[i]), b = b64val(s[i + 1]), c = b64val(s[i + 2]), d = b64val(s[i + 3]);
        out[k++] = (char)(a << 2 | b >> 4);
        if (c >= 0)
            out[k++] = (char)((b & 15) << 4 | c >> 2);
        if (d >= 0)
            out[k++] = (char)((c & 3) << 6 | d);
    }
    out[k] = 0;
    return out;
}

static void make_doc(pp_rep_doc *d)
{
    pp_rep_doc_init(d, "A <test> & its page");
    pp_rep_h2(d, "first", "First section");
    pp_rep_para(d, "Some `code <b>` and **bold** & more.");
    pp_rep_item(d, "one");
    pp_rep_item(d, "two");
    pp_rep_table *t = pp_rep_table_new(d, "numbers", "Numbers, with a comma", 3);
    pp_rep_col(t, 0, "name", 'l');
    pp_rep_col(t, 1, "time", 'r');
    pp_rep_col(t, 2, "a|b", 'r');
    pp_rep_row(t);
    pp_rep_cell_set(t, 0, NULL, "x, \"quoted\"");
    pp_rep_cell_time(t, 1, 1.5e6);
    pp_rep_cell_num(t, 2, "%.2f", 0.125);
    pp_rep_row(t);
    pp_rep_cell_set(t, 0, NULL, "y|z");
    pp_rep_cell_time(t, 1, 2500);
    pp_rep_cell_num(t, 2, "%.2f", 1.0 / 0.0 - 1.0 / 0.0);
    pp_rep_h2(d, "second", "Second section");
    pp_rep_figure(d, "plot-x.svg", "A plot");
    pp_rep_pre(d, "T = 2*N + P\n");
}

static void test_html(void **st)
{
    (void)st;
    pp_rep_doc d;
    make_doc(&d);
    const char *svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"5\" "
                      "height=\"5\"/></svg>\n";
    spew("plot-x.svg", svg);
    char err[512], path[256];
    snprintf(path, sizeof path, "%s/index.html", dir);
    assert_int_equal(pp_rep_write_html(&d, dir, path, err, sizeof err), 0);
    char *h = slurp("index.html");
    assert_non_null(h);
    assert_non_null(strstr(h, "<title>A &lt;test&gt; &amp; its page</title>"));
    assert_non_null(strstr(h, "<p>Some <code>code &lt;b&gt;</code> and <strong>bold</strong> &amp; more.</p>"));
    assert_non_null(strstr(h, "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"));
    assert_non_null(strstr(h, "<li><a href=\"#first\">First section</a></li>"));
    assert_non_null(strstr(h, "<h2 id=\"second\">Second section</h2>"));
    assert_non_null(strstr(h, "<td>x, &quot;quoted&quot;</td><td class=\"r\">1.5 ms</td><td class=\"r\">0.12</td>"));
    assert_non_null(strstr(h, "<pre>T = 2*N + P\n</pre>"));
    /* the figure: a data: URI that decodes to the file */
    const char *u = strstr(h, "src=\"data:image/svg+xml;base64,");
    assert_non_null(u);
    char *dec = unbase64(u + strlen("src=\"data:image/svg+xml;base64,"));
    assert_string_equal(dec, svg);
    free(dec);
    /* the table's CSV: raw values, quoted fields */
    u = strstr(h, "download=\"table-numbers.csv\" href=\"data:text/csv;base64,");
    assert_non_null(u);
    dec = unbase64(strstr(u, "base64,") + 7);
    assert_string_equal(dec, "name,time,a|b\n\"x, \"\"quoted\"\"\",0.0015,0.125\ny|z,2.5e-06,\n");
    free(dec);
    /* nothing but anchors and data: */
    for (const char *p = h; (p = strstr(p, "href=\"")) != NULL; p++)
        assert_true(p[6] == '#' || strncmp(p + 6, "data:", 5) == 0);
    for (const char *p = h; (p = strstr(p, "src=\"")) != NULL; p++)
        assert_true(strncmp(p + 5, "data:", 5) == 0);
    assert_non_null(strstr(h, "data-check"));
    free(h);
    /* a missing figure is an error naming it */
    char p2[256];
    snprintf(p2, sizeof p2, "%s/plot-x.svg", dir);
    unlink(p2);
    assert_int_equal(pp_rep_write_html(&d, dir, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "plot-x.svg"));
    pp_rep_doc_free(&d);
}

static void test_md_csv(void **st)
{
    (void)st;
    pp_rep_doc d;
    make_doc(&d);
    char err[512], path[256];
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(pp_rep_write_md(&d, path, err, sizeof err), 0);
    char *m = slurp("report.md");
    assert_non_null(m);
    assert_non_null(strstr(m, "# A <test> & its page\n"));
    assert_non_null(strstr(m, "## First section\n"));
    assert_non_null(strstr(m, "- one\n- two\n\n"));
    assert_non_null(strstr(m, "**Numbers, with a comma** ([CSV](table-numbers.csv))"));
    assert_non_null(strstr(m, "| name | time | a\\|b |\n|---|---:|---:|\n"));
    assert_non_null(strstr(m, "| y\\|z | 2.5 us | - |\n"));
    assert_non_null(strstr(m, "![A plot](plot-x.svg)"));
    assert_non_null(strstr(m, "```\nT = 2*N + P\n```\n"));
    free(m);
    assert_int_equal(pp_rep_write_csv(&d, dir, err, sizeof err), 0);
    char *c = slurp("table-numbers.csv");
    assert_non_null(c);
    assert_string_equal(c, "name,time,a|b\n\"x, \"\"quoted\"\"\",0.0015,0.125\ny|z,2.5e-06,\n");
    free(c);
    d.oom = 1;
    assert_int_equal(pp_rep_write_md(&d, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of memory"));
    pp_rep_doc_free(&d);
}

static int setup(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/pp-test-report-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    const char *f[] = {"index.html", "report.md", "table-numbers.csv", "plot-x.svg"};
    char p[256];
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, f[i]);
        unlink(p);
    }
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_md_csv),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
