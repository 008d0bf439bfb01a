/* report-html.c - the report as one self-contained HTML page: the style
 * inline, every figure an SVG as a data: URI (each image its own
 * document: the plots' and the graph's ids cannot clash), every table's
 * CSV a data: link, nothing fetched from anywhere.  A small inline script
 * checks, once the page has loaded, that every image decoded and every
 * table has rows, and says so in <body data-check="images=I/N
 * tables=T/M"> (what tests/e2e/96-report-html.t reads in a browser).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *style =
    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45;color:#222;"
    "background:#fff;margin:0 auto;max-width:1180px;padding:0 24px 48px}\n"
    "h1{font-size:26px;margin:28px 0 4px}h2{font-size:21px;margin:36px 0 10px;padding-bottom:4px;"
    "border-bottom:2px solid #2b6cb0}h3{font-size:17px;margin:22px 0 8px}\n"
    ".sub{color:#555;margin:0 0 14px}\n"
    "nav{background:#f3f6fa;border:1px solid #d5dde8;border-radius:6px;padding:8px 14px;margin:14px 0}\n"
    "nav ol{margin:4px 0;padding-left:22px;columns:2}nav a{color:#2b6cb0;text-decoration:none}\n"
    "table{border-collapse:collapse;margin:6px 0 4px;font-size:13.5px}\n"
    "th,td{border:1px solid #c9d1dc;padding:3px 9px;vertical-align:top}\n"
    "th{background:#e8eef6;text-align:left}td.r{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}\n"
    "tbody tr:nth-child(even){background:#f7f9fc}\n"
    "figure{margin:14px 0 20px}figure.table{overflow-x:auto}\n"
    "figcaption{font-size:13.5px;color:#444;margin:4px 0}\n"
    "figcaption a{margin-left:8px;font-size:12px;color:#2b6cb0}\n"
    "figure.plot img{display:block;max-width:100%;height:auto;border:1px solid #e2e6ec}\n"
    "code{background:#f1f3f6;padding:0 3px;border-radius:3px;font-size:90%}\n"
    "td code{white-space:pre-wrap;overflow-wrap:anywhere}td{max-width:560px}\n"
    "pre{background:#f6f8fa;border:1px solid #dde2e8;border-radius:4px;padding:8px 10px;font-size:13px;"
    "white-space:pre-wrap;overflow-wrap:anywhere}\n"
    "div.warning{background:#fff4e5;border:1px solid #e8a33d;border-left:6px solid #d9822b;border-radius:4px;"
    "padding:8px 12px;margin:12px 0}\n"
    "footer{margin-top:40px;color:#777;font-size:12.5px;border-top:1px solid #ddd;padding-top:8px}\n";

/* Runs once the page (and so every data: image) has loaded. */
static const char *check_script =
    "<script>\n"
    "window.addEventListener('load', function () {\n"
    "  var im = document.images, ok = 0, i;\n"
    "  for (i = 0; i < im.length; i++) if (im[i].complete && im[i].naturalWidth > 0) ok++;\n"
    "  var sv = document.querySelectorAll('svg'), sok = 0;\n"
    "  for (i = 0; i < sv.length; i++) { var b = sv[i].getBBox(); if (b.width > 0 && b.height > 0) sok++; }\n"
    "  var tb = document.querySelectorAll('table'), tok = 0;\n"
    "  for (i = 0; i < tb.length; i++) if (tb[i].tBodies.length && tb[i].tBodies[0].rows.length > 0) tok++;\n"
    "  document.body.setAttribute('data-check', 'images=' + (ok + sok) + '/' + (im.length + sv.length) +\n"
    "    ' tables=' + tok + '/' + tb.length);\n"
    "});\n"
    "</script>\n";

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Text with `code` and **bold**, escaped. */
static void inline_text(FILE *f, const char *s)
{
    int code = 0, bold = 0;
    for (; s && *s; s++) {
        if (*s == '`') {
            fputs(code ? "</code>" : "<code>", f);
            code = !code;
        } else if (!code && s[0] == '*' && s[1] == '*') {
            fputs(bold ? "</strong>" : "<strong>", f);
            bold = !bold;
            s++;
        } else {
            char c[2] = {*s, 0};
            esc(f, c);
        }
    }
    if (code)
        fputs("</code>", f);
    if (bold)
        fputs("</strong>", f);
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(FILE *f, const unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        fputc(b64[v >> 18], f);
        fputc(b64[(v >> 12) & 63], f);
        fputc(b64[(v >> 6) & 63], f);
        fputc(b64[v & 63], f);
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        fputc(b64[v >> 18], f);
        fputc(b64[(v >> 12) & 63], f);
        fputc(i + 1 < n ? b64[(v >> 6) & 63] : '=', f);
        fputc('=', f);
    }
}

/* The whole file in memory (malloc'd), or NULL. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t nc = cap ? 2 * cap : 65536;
            unsigned char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *n = len;
    return buf;
}

static int figure(FILE *f, const pp_rep_block *b, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, b->file);
    size_t n = 0;
    unsigned char *svg = slurp(path, &n);
    if (!svg || n == 0) {
        snprintf(err, errlen, "%s: cannot read the figure: %s", b->file, svg ? "empty" : strerror(errno));
        free(svg);
        return -1;
    }
    fputs("<figure class=\"plot\"><img alt=\"", f);
    esc(f, b->text);
    fputs("\" src=\"data:image/svg+xml;base64,", f);
    base64(f, svg, n);
    fputs("\"><figcaption>", f);
    inline_text(f, b->text);
    fputs("</figcaption></figure>\n", f);
    free(svg);
    return 0;
}

static int table(FILE *f, const pp_rep_table *t)
{
    char *csv = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&csv, &n);
    if (!m)
        return -1;
    pp_rep_csv_table(m, t);
    if (fclose(m) != 0) {
        free(csv);
        return -1;
    }
    fputs("<figure class=\"table\" id=\"table-", f);
    esc(f, t->id);
    fputs("\"><figcaption>", f);
    inline_text(f, t->caption);
    fputs("<a download=\"table-", f);
    esc(f, t->id);
    fputs(".csv\" href=\"data:text/csv;base64,", f);
    base64(f, (const unsigned char *)csv, n);
    fputs("\">CSV</a></figcaption>\n<table><thead><tr>", f);
    free(csv);
    for (int c = 0; c < t->ncols; c++) {
        fputs("<th>", f);
        inline_text(f, t->head[c]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (int r = 0; r < t->nrows; r++) {
        fputs("<tr>", f);
        for (int c = 0; c < t->ncols; c++) {
            fputs(t->align[c] == 'r' ? "<td class=\"r\">" : "<td>", f);
            inline_text(f, t->cells[r * t->ncols + c].text);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></figure>\n", f);
    return 0;
}

int pp_rep_write_html(const pp_rep_doc *d, const char *dir, const char *path, char *err, size_t errlen)
{
    if (d->oom) {
        snprintf(err, errlen, "out of memory while building the page");
        return -1;
    }
    pp_rep_note_file(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"perfpred report\">\n"
          "<link rel=\"icon\" href=\"data:,\">\n<title>", f);
    esc(f, d->title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    inline_text(f, d->title);
    fputs("</h1>\n", f);
    if (d->subtitle) {
        fputs("<p class=\"sub\">", f);
        inline_text(f, d->subtitle);
        fputs("</p>\n", f);
    }
    for (int i = 0; i < d->n; i++)
        if (d->b[i].kind == PP_REP_WARN) {
            fputs("<div class=\"warning\" role=\"alert\"><strong>Warning:</strong> ", f);
            inline_text(f, d->b[i].text);
            fputs("</div>\n", f);
        }
    fputs("<nav><strong>Contents</strong><ol>\n", f);
    for (int i = 0; i < d->n; i++)
        if (d->b[i].kind == PP_REP_H2) {
            fputs("<li><a href=\"#", f);
            esc(f, d->b[i].id);
            fputs("\">", f);
            inline_text(f, d->b[i].text);
            fputs("</a></li>\n", f);
        }
    fputs("</ol></nav>\n", f);
    int rc = 0;
    for (int i = 0; i < d->n && rc == 0; i++) {
        const pp_rep_block *b = &d->b[i];
        int list = b->kind == PP_REP_ITEM;
        if (list && (i == 0 || d->b[i - 1].kind != PP_REP_ITEM))
            fputs("<ul>\n", f);
        switch (b->kind) {
        case PP_REP_H2:
            fputs("<h2 id=\"", f);
            esc(f, b->id);
            fputs("\">", f);
            inline_text(f, b->text);
            fputs("</h2>\n", f);
            break;
        case PP_REP_H3:
            fputs("<h3>", f);
            inline_text(f, b->text);
            fputs("</h3>\n", f);
            break;
        case PP_REP_PARA:
            fputs("<p>", f);
            inline_text(f, b->text);
            fputs("</p>\n", f);
            break;
        case PP_REP_ITEM:
            fputs("<li>", f);
            inline_text(f, b->text);
            fputs("</li>\n", f);
            break;
        case PP_REP_PRE:
            fputs("<pre>", f);
            esc(f, b->text);
            fputs("</pre>\n", f);
            break;
        case PP_REP_FIGURE:
            rc = figure(f, b, dir, err, errlen);
            break;
        case PP_REP_WARN:   /* above the contents */
            break;
        case PP_REP_TABLE:
            if (table(f, b->table)) {
                snprintf(err, errlen, "out of memory while writing table %s", b->table->id);
                rc = -1;
            }
            break;
        }
        if (list && (i + 1 == d->n || d->b[i + 1].kind != PP_REP_ITEM))
            fputs("</ul>\n", f);
    }
    fputs("<footer>Written by <code>perfpred report</code> (perfpred 0.1). The same content is in "
          "<code>report.md</code> beside this page, every table as <code>table-ID.csv</code>, every figure as "
          "an SVG file with its gnuplot script.</footer>\n", f);
    fputs(check_script, f);
    fputs("</body>\n</html>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (rc == 0 && bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}
