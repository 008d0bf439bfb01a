/* plot.h - running gnuplot (gnuplot-nox) on a script the analyser wrote,
 * for the SVG plots of run-experiment, validate, sensitivity and report.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_PLOT_H
#define PERFPRED_PLOT_H

#include <stdio.h>

/* Run `gnuplot SCRIPT` in directory dir, its stdout and stderr appended to
 * dir/gnuplot.log.  Returns 0, 127 when gnuplot is not installed, -1 when
 * it cannot be started, 124 when it did not finish within
 * PP_GNUPLOT_SECONDS (it is killed), or gnuplot's exit status (128 +
 * signal). */
int pp_gnuplot(const char *dir, const char *script);

#define PP_GNUPLOT_SECONDS 60

/* The gnuplot run: $PERFPRED_GNUPLOT when set, else gnuplot on PATH. */
const char *pp_gnuplot_prog(void);
/* Before any work: 0 when the directory of FILE.svg is writable, else -1
 * with "--plot FILE: the directory D is not writable: why" in err. */
int pp_plot_dir_ok(const char *svg, char *err, size_t errlen);

/* The directory of FILE.svg ("." when none, "/" for /FILE.svg) and its
 * name without ".svg": --plot writes base.gp and base.dat there. */
void pp_plot_names(const char *svg, char *dir, size_t dn, char *base, size_t bn);

/* Run gnuplot on dir/base.gp and check that svg was drawn (not empty).
 * 0, or -1 with "--plot: ..." in err (gnuplot missing, failed, or drew
 * nothing). */
int pp_plot_render(const char *svg, const char *dir, const char *base, char *err, size_t errlen);

/* s as a gnuplot single-quoted string ('' for a quote). */
void pp_gp_str(FILE *f, const char *s);

#endif
