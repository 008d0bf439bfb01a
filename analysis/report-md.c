/* report-md.c - the report as Markdown (report.md: the same blocks as the
 * HTML page, the figures linked as the SVG files beside it, each table
 * with a link to its CSV) and the tables as CSV files (table-ID.csv).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void pp_rep_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A table cell: | and newlines would break the row. */
static void md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void md_table(FILE *f, const pp_rep_table *t)
{
    fprintf(f, "<a id=\"table-%s\"></a>\n\n**", t->id);
    md_cell(f, t->caption);
    fprintf(f, "** ([CSV](table-%s.csv))\n\n|", t->id);
    for (int c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        md_cell(f, t->head[c]);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (int c = 0; c < t->ncols; c++)
        fputs(t->align[c] == 'r' ? "---:|" : "---|", f);
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        fputc('|', f);
        for (int c = 0; c < t->ncols; c++) {
            fputc(' ', f);
            md_cell(f, t->cells[r * t->ncols + c].text);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

int pp_rep_write_md(const pp_rep_doc *d, const char *path, char *err, size_t errlen)
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
    fprintf(f, "# %s\n\n", d->title);
    if (d->subtitle)
        fprintf(f, "%s\n\n", d->subtitle);
    for (int i = 0; i < d->n; i++)
        if (d->b[i].kind == PP_REP_WARN)
            fprintf(f, "> **Warning:** %s\n\n", d->b[i].text);
    fputs("Contents:", f);
    int k = 0;
    for (int i = 0; i < d->n; i++)
        if (d->b[i].kind == PP_REP_H2)
            fprintf(f, "%s [%s](#%s)", k++ ? "," : "", d->b[i].text, d->b[i].id);
    fputs(".\n\n", f);
    for (int i = 0; i < d->n; i++) {
        const pp_rep_block *b = &d->b[i];
        switch (b->kind) {
        case PP_REP_H2:
            fprintf(f, "<a id=\"%s\"></a>\n\n## %s\n\n", b->id, b->text);
            break;
        case PP_REP_H3:
            fprintf(f, "### %s\n\n", b->text);
            break;
        case PP_REP_PARA:
            fprintf(f, "%s\n\n", b->text);
            break;
        case PP_REP_ITEM:
            fprintf(f, "- %s\n", b->text);
            if (i + 1 == d->n || d->b[i + 1].kind != PP_REP_ITEM)
                fputc('\n', f);
            break;
        case PP_REP_PRE:
            fprintf(f, "```\n%s%s```\n\n", b->text, b->text[0] && b->text[strlen(b->text) - 1] == '\n' ? "" : "\n");
            break;
        case PP_REP_FIGURE:
            fprintf(f, "![%s](%s)\n\n*%s*\n\n", b->text, b->file, b->text);
            break;
        case PP_REP_TABLE:
            md_table(f, b->table);
            break;
        case PP_REP_WARN:   /* above the contents */
            break;
        }
    }
    fputs("---\nWritten by `perfpred report` (perfpred 0.1); `index.html` is the same page, self-contained.\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void pp_rep_csv_table(FILE *f, const pp_rep_table *t)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        pp_rep_csv_field(f, t->head[c]);
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const pp_rep_cell *x = &t->cells[r * t->ncols + c];
            if (c)
                fputc(',', f);
            pp_rep_csv_field(f, x->csv ? x->csv : x->text);
        }
        fputc('\n', f);
    }
}

static int write_one(const pp_rep_table *t, const char *dir, char *err, size_t errlen)
{
    char name[256], path[4096];
    snprintf(name, sizeof name, "table-%s.csv", t->id);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pp_rep_note_file(name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    pp_rep_csv_table(f, t);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int pp_rep_table_csv(const pp_rep_table *t, const char *dir, char *err, size_t errlen)
{
    return t ? write_one(t, dir, err, errlen) : 0;
}

int pp_rep_write_csv(const pp_rep_doc *d, const char *dir, char *err, size_t errlen)
{
    for (int i = 0; i < d->n; i++)
        if (d->b[i].kind == PP_REP_TABLE && write_one(d->b[i].table, dir, err, errlen))
            return -1;
    return 0;
}
