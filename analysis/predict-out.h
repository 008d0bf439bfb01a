/* predict-out.h - predict's output: the predictions at several P in text,
 * CSV or JSON (docs/commands.md, "perfpred predict"), written by predict
 * (stdout, --csv, --json) and by report (its predict.txt, .csv, .json).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PP_PREDICT_OUT_H
#define PP_PREDICT_OUT_H

#include <stdio.h>

#include "breakdown.h"
#include "cli.h"
#include "metrics.h"

/* One point's prediction, kept to be written in each format asked for. */
typedef struct {
    int P;
    pp_metrics mt;
    pp_interval iv;
    double ilo, ihi;      /* ilo > ihi: no interval */
    double tbase;         /* --with: T_real without the change */
    pp_breakdown bd;      /* --by */
} pp_pout_point;

/* What every point's output reads (pp_pout_init). */
typedef struct {
    const pp_cli *c;
    pp_session *s;
    int nk;
    int kinds[PP_EV_OTHER + 1];
    char withtxt[1024];
    int nP;
} pp_pout;

/* MPI: the kinds of call the program makes that take time (predict's
 * columns, the report's), into kinds; their number. */
int pp_mpi_kinds(const pp_prog *m, int *kinds);
/* A time summed over the ranks (or threads) as a share of their time,
 * ns / (P T_real): Clement & Quinn's Figure 6. */
double pp_rank_share(const pp_metrics *mt, double ns);

/* The context of c's and s's predictions at nP points. */
void pp_pout_init(pp_pout *x, const pp_cli *c, pp_session *s, int nP);
/* The header (CSV's column names, JSON's '['), point i, the end. */
void pp_pout_head(FILE *o, pp_format fmt, const pp_pout *x);
void pp_pout_write(FILE *o, pp_format fmt, const pp_pout *x, int i, pp_pout_point *p);
void pp_pout_tail(FILE *o, pp_format fmt, const pp_pout *x);
/* The x->nP points pts in fmt to path: 0, or -1 with a message (the file
 * is removed). */
int pp_pout_file(const pp_pout *x, const char *path, pp_format fmt, pp_pout_point *pts, char *err, size_t errlen);

#endif
