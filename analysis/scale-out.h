/* scale-out.h - scale's output: the scalability tables with T_real at the
 * sizes found, in text, CSV or JSON (docs/commands.md, "perfpred scale"),
 * written by scale (stdout, --csv, --json) and by report (its scale.txt,
 * .csv, .json).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PP_SCALE_OUT_H
#define PP_SCALE_OUT_H

#include <stdio.h>

#include "cli.h"
#include "scale.h"

/* T_real at each size a table found, and its 90% interval. */
typedef struct {
    double *t, *lo, *hi;   /* ns, per P; t < 0: not found; lo > hi: no interval */
} pp_scale_times;

/* T_real at every size table t found, at its P, and its interval with
 * draws as predict's --draws: a prediction at the values base with the
 * scaled parameters at the size found (without an interval, the one the
 * search made there).
 * 0, or -1 with a message; pp_scale_times_free frees st either way. */
int pp_scale_times_at(const pp_prog *m, const pp_machine *mach, const pp_scale_table *t, const pp_vals *base,
                      int draws, pp_scale_times *st, char *err, size_t errlen);
void pp_scale_times_free(pp_scale_times *st);

/* The ntab tables (with their times) in fmt, as scale prints them. */
void pp_scale_out(FILE *o, pp_format fmt, const pp_cli *c, const pp_session *s, const pp_scale_table *tabs,
                  const pp_scale_times *times, int ntab);
/* The same into path: 0, or -1 with a message (the file is removed). */
int pp_scale_out_file(const char *path, pp_format fmt, const pp_cli *c, const pp_session *s,
                      const pp_scale_table *tabs, const pp_scale_times *times, int ntab, char *err, size_t errlen);

#endif
