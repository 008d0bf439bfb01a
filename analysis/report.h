/* report.h - `perfpred report`: one page per program (docs/report.md).
 *
 * The page is built as a document of blocks (headings, paragraphs,
 * tables, figures, preformatted text) in a temporary directory; the
 * writers then render it three ways: index.html (one self-contained page:
 * CSS inline, every figure an SVG data: URI, every table's CSV a data:
 * link), report.md (the same in Markdown, the figures linked as the SVG
 * files beside it) and one CSV file per table (table-ID.csv).  The
 * sections (report-sections.c, report-model.c) fill the document from the
 * analyser's library: pp_predict and pp_predict_interval per P, the scale
 * tables, pp_sensitivity, the thread graph (tgraph.h), the model's loops
 * and count rules; the plots are gnuplot scripts run in the directory
 * (report-plot.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_REPORT_H
#define PERFPRED_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "metrics.h"
#include "scale.h"

/* ---- the document (report-doc.c) -------------------------------------- */

/* A table cell: what a person reads, and what the CSV holds (raw numbers,
 * seconds unscaled; NULL: the same as text). */
typedef struct {
    char *text;
    char *csv;
} pp_rep_cell;

typedef struct {
    char *id;            /* the anchor and the CSV file table-ID.csv       */
    char *caption;
    int ncols;
    char **head;
    char *align;         /* per column 'l' or 'r'                          */
    int nrows, caprows;
    pp_rep_cell *cells;  /* nrows x ncols                                  */
} pp_rep_table;

typedef enum {
    PP_REP_H2,           /* a section: text, id (anchor)                   */
    PP_REP_H3,
    PP_REP_PARA,         /* text with `code` and **bold**                  */
    PP_REP_ITEM,         /* one item of a bulleted list                    */
    PP_REP_TABLE,
    PP_REP_FIGURE,       /* file: an SVG in the directory; text: caption   */
    PP_REP_PRE,          /* preformatted text                              */
    PP_REP_WARN          /* a warning box, shown before the contents      */
} pp_rep_kind;

typedef struct {
    pp_rep_kind kind;
    char *text;
    char *id;
    char *file;
    pp_rep_table *table;
} pp_rep_block;

typedef struct {
    char *title;
    char *subtitle;
    int n, cap;
    pp_rep_block *b;
    int oom;             /* an allocation failed: the writers refuse       */
} pp_rep_doc;

void pp_rep_doc_init(pp_rep_doc *d, const char *title);
void pp_rep_doc_free(pp_rep_doc *d);
void pp_rep_h2(pp_rep_doc *d, const char *id, const char *text);
void pp_rep_h3(pp_rep_doc *d, const char *text);
void pp_rep_para(pp_rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pp_rep_item(pp_rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pp_rep_pre(pp_rep_doc *d, const char *text);
void pp_rep_warn(pp_rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pp_rep_figure(pp_rep_doc *d, const char *file, const char *caption);
/* A new table owned by the document (NULL when out of memory: the doc's
 * oom is set and the cell functions do nothing with NULL). */
pp_rep_table *pp_rep_table_new(pp_rep_doc *d, const char *id, const char *caption, int ncols);
void pp_rep_col(pp_rep_table *t, int col, const char *head, char align);
/* Start a row; then fill its cells (text and, optionally, csv). */
void pp_rep_row(pp_rep_table *t);
void pp_rep_cell_set(pp_rep_table *t, int col, const char *csv, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Convenience: a time in ns shown as "1.23 ms", CSV in seconds. */
void pp_rep_cell_time(pp_rep_table *t, int col, double ns);
/* A plain number shown with fmt, CSV with %.9g (NaN: empty). */
void pp_rep_cell_num(pp_rep_table *t, int col, const char *fmt, double v);

/* ---- the writers (report-html.c, report-md.c) ------------------------- */

/* dir holds the figures' SVG files.  0, or -1 with a message. */
int pp_rep_write_html(const pp_rep_doc *d, const char *dir, const char *path, char *err, size_t errlen);
int pp_rep_write_md(const pp_rep_doc *d, const char *path, char *err, size_t errlen);
/* Every table to dir/table-ID.csv; each file is noted with pp_rep_note_file. */
int pp_rep_write_csv(const pp_rep_doc *d, const char *dir, char *err, size_t errlen);
/* One table to dir/table-ID.csv now (the plots read them). */
int pp_rep_table_csv(const pp_rep_table *t, const char *dir, char *err, size_t errlen);
/* RFC 4180 field (quoted when it holds a comma, quote or newline), and a
 * whole table: the header, then the rows' CSV values. */
void pp_rep_csv_field(FILE *f, const char *s);
void pp_rep_csv_table(FILE *f, const pp_rep_table *t);

/* ---- the files of the temporary directory (cmd_report.c) -------------- */

/* Every file written into the temporary directory is noted first, so that
 * a failure or a signal removes exactly those (no partial output). */
void pp_rep_note_file(const char *name);

/* ---- what the sections share ------------------------------------------ */

/* The columns of the predictions table (table-predictions.csv), which the
 * plots read by number. */
enum {
    PP_RC_P, PP_RC_TMIR, PP_RC_TPRAM, PP_RC_TREAL, PP_RC_LO, PP_RC_HI, PP_RC_LA, PP_RC_L, PP_RC_EA, PP_RC_E,
    PP_RC_SPRAM, PP_RC_SREAL, PP_RC_N
};
/* The latency table (table-latency.csv): P, then per efficiency the
 * problem size (the first --scale parameter) and the latency. */
enum { PP_LC_P, PP_LC_XA, PP_LC_LA, PP_LC_X, PP_LC_L, PP_LC_N };

typedef struct {
    pp_metrics mt;
    pp_interval iv;
    int has_iv;
} pp_rep_pred;

typedef struct {
    pp_cli *c;
    pp_session *s;
    pp_rep_doc *doc;
    const char *dir;     /* the temporary directory written into           */
    int nP, *P;          /* the predictions' P list                        */
    int nsP, *sP;        /* the scale tables' P list                       */
    int graph_P, sens_P;
    int draws;           /* for the intervals (PP_DRAWS_AUTO, 0: none)     */
    pp_rep_pred *pred;   /* per P                                          */
    int ntab;            /* the scale tables computed (--scale)            */
    pp_scale_table tab[2];
    pp_rep_table *tpred, *tmpi, *tlat;  /* the tables the plots read      */
    int nkinds;          /* MPI: the kinds of call with time              */
    int kinds[PP_EV_OTHER + 1];
    char err[4096];      /* a section's failure                            */
    int rc;              /* its exit status (2 input, 1 internal)          */
} pp_rep_ctx;

/* Progress on stderr when it is a terminal. */
void pp_rep_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Each returns 0, or -1 with ctx->err and ctx->rc set. */
int pp_rep_sec_problem(pp_rep_ctx *x);     /* report-model.c */
int pp_rep_sec_quality(pp_rep_ctx *x);
int pp_rep_sec_breakdown(pp_rep_ctx *x);
int pp_rep_sec_equations(pp_rep_ctx *x);
int pp_rep_predict_all(pp_rep_ctx *x);     /* report-sections.c */
int pp_rep_sec_summary(pp_rep_ctx *x);
int pp_rep_sec_predictions(pp_rep_ctx *x);
int pp_rep_sec_plots(pp_rep_ctx *x);
int pp_rep_sec_graph(pp_rep_ctx *x);
int pp_rep_scale_compute(pp_rep_ctx *x);  /* --scale: x->tab */
int pp_rep_sec_scale(pp_rep_ctx *x);
int pp_rep_sec_sensitivity(pp_rep_ctx *x);

/* ---- gnuplot (report-plot.c) ------------------------------------------ */

/* Whether the gnuplot to run (pp_gnuplot_prog: $PERFPRED_GNUPLOT, else
 * gnuplot on PATH) is there: 0, or -1 with a message naming it. */
int pp_rep_gnuplot_check(char *err, size_t errlen);
/* The plots of the page, each NAME.gp and NAME.svg in x->dir, reading the
 * tables' CSV files (already written): returns 0 or -1 (x->err). */
int pp_rep_plot_times(pp_rep_ctx *x);
int pp_rep_plot_speedup(pp_rep_ctx *x);
int pp_rep_plot_efficiency(pp_rep_ctx *x);
int pp_rep_plot_latency(pp_rep_ctx *x);
int pp_rep_plot_mpi(pp_rep_ctx *x);
int pp_rep_plot_breakdown(pp_rep_ctx *x);

#endif
