/* report-doc.c - the report's document: blocks and tables (report.h).
 * Allocation failures set doc->oom; the writers then refuse, so that a
 * page with holes is never written.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dup_or_null(pp_rep_doc *d, const char *s)
{
    if (!s)
        return NULL;
    char *r = strdup(s);
    if (!r)
        d->oom = 1;
    return r;
}

static char *vfmt(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        return NULL;
    return s;
}

void pp_rep_doc_init(pp_rep_doc *d, const char *title)
{
    memset(d, 0, sizeof *d);
    d->title = dup_or_null(d, title);
}

static void table_free(pp_rep_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ncols; i++)
        free(t->head[i]);
    for (int i = 0; i < t->nrows * t->ncols; i++) {
        free(t->cells[i].text);
        free(t->cells[i].csv);
    }
    free(t->head);
    free(t->align);
    free(t->cells);
    free(t->id);
    free(t->caption);
    free(t);
}

void pp_rep_doc_free(pp_rep_doc *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->b[i].text);
        free(d->b[i].id);
        free(d->b[i].file);
        table_free(d->b[i].table);
    }
    free(d->b);
    free(d->title);
    free(d->subtitle);
    memset(d, 0, sizeof *d);
}

static pp_rep_block *add(pp_rep_doc *d, pp_rep_kind k)
{
    if (d->n == d->cap) {
        int nc = d->cap ? 2 * d->cap : 32;
        pp_rep_block *nb = realloc(d->b, sizeof *nb * (size_t)nc);
        if (!nb) {
            d->oom = 1;
            return NULL;
        }
        d->b = nb;
        d->cap = nc;
    }
    pp_rep_block *b = &d->b[d->n++];
    memset(b, 0, sizeof *b);
    b->kind = k;
    return b;
}

void pp_rep_h2(pp_rep_doc *d, const char *id, const char *text)
{
    pp_rep_block *b = add(d, PP_REP_H2);
    if (b) {
        b->text = dup_or_null(d, text);
        b->id = dup_or_null(d, id);
    }
}

void pp_rep_h3(pp_rep_doc *d, const char *text)
{
    pp_rep_block *b = add(d, PP_REP_H3);
    if (b)
        b->text = dup_or_null(d, text);
}

static void add_text(pp_rep_doc *d, pp_rep_kind k, const char *fmt, va_list ap)
{
    char *s = vfmt(fmt, ap);
    if (!s) {
        d->oom = 1;
        return;
    }
    pp_rep_block *b = add(d, k);
    if (b)
        b->text = s;
    else
        free(s);
}

void pp_rep_para(pp_rep_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_text(d, PP_REP_PARA, fmt, ap);
    va_end(ap);
}

void pp_rep_item(pp_rep_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_text(d, PP_REP_ITEM, fmt, ap);
    va_end(ap);
}

void pp_rep_warn(pp_rep_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_text(d, PP_REP_WARN, fmt, ap);
    va_end(ap);
}

void pp_rep_pre(pp_rep_doc *d, const char *text)
{
    pp_rep_block *b = add(d, PP_REP_PRE);
    if (b)
        b->text = dup_or_null(d, text);
}

void pp_rep_figure(pp_rep_doc *d, const char *file, const char *caption)
{
    pp_rep_block *b = add(d, PP_REP_FIGURE);
    if (b) {
        b->file = dup_or_null(d, file);
        b->text = dup_or_null(d, caption);
    }
}

pp_rep_table *pp_rep_table_new(pp_rep_doc *d, const char *id, const char *caption, int ncols)
{
    pp_rep_table *t = calloc(1, sizeof *t);
    pp_rep_block *b = t ? add(d, PP_REP_TABLE) : NULL;
    if (!b) {
        free(t);
        d->oom = 1;
        return NULL;
    }
    b->table = t;
    t->ncols = ncols;
    t->id = dup_or_null(d, id);
    t->caption = dup_or_null(d, caption);
    t->head = calloc((size_t)ncols, sizeof *t->head);
    t->align = calloc((size_t)ncols + 1, 1);
    if (!t->head || !t->align) {
        d->oom = 1;
        return NULL;
    }
    memset(t->align, 'l', (size_t)ncols);
    return t;
}

void pp_rep_col(pp_rep_table *t, int col, const char *head, char align)
{
    if (!t || col < 0 || col >= t->ncols)
        return;
    free(t->head[col]);
    t->head[col] = strdup(head);
    t->align[col] = align;
}

void pp_rep_row(pp_rep_table *t)
{
    if (!t)
        return;
    if (t->nrows == t->caprows) {
        int nc = t->caprows ? 2 * t->caprows : 16;
        pp_rep_cell *n = realloc(t->cells, sizeof *n * (size_t)nc * (size_t)t->ncols);
        if (!n)
            return;   /* the row is not added: the writers see fewer rows */
        t->cells = n;
        t->caprows = nc;
    }
    memset(&t->cells[t->nrows * t->ncols], 0, sizeof *t->cells * (size_t)t->ncols);
    t->nrows++;
}

void pp_rep_cell_set(pp_rep_table *t, int col, const char *csv, const char *fmt, ...)
{
    if (!t || !t->nrows || col < 0 || col >= t->ncols)
        return;
    pp_rep_cell *c = &t->cells[(t->nrows - 1) * t->ncols + col];
    free(c->text);
    free(c->csv);
    va_list ap;
    va_start(ap, fmt);
    c->text = vfmt(fmt, ap);
    va_end(ap);
    c->csv = csv ? strdup(csv) : NULL;
}

void pp_rep_cell_time(pp_rep_table *t, int col, double ns)
{
    char b[48], v[48];
    if (!isfinite(ns)) {
        pp_rep_cell_set(t, col, "", "-");
        return;
    }
    snprintf(v, sizeof v, "%.9g", ns / 1e9);
    pp_rep_cell_set(t, col, v, "%s", pp_fmt_time(ns, b, sizeof b));
}

void pp_rep_cell_num(pp_rep_table *t, int col, const char *fmt, double v)
{
    char c[48];
    if (!isfinite(v)) {
        pp_rep_cell_set(t, col, "", "-");
        return;
    }
    snprintf(c, sizeof c, "%.9g", v);
    pp_rep_cell_set(t, col, c, fmt, v);
}

void pp_rep_progress(const char *fmt, ...)
{
    if (!isatty(2))
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("perfpred report: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
