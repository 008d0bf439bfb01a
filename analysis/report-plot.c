/* report-plot.c - the report's plots: a gnuplot script per plot, written
 * into the report's directory beside the CSV tables it reads, run there
 * (`set terminal svg`) by pp_gnuplot (plot.h: a time limit,
 * PERFPRED_GNUPLOT names another gnuplot); `cd DIR && gnuplot NAME.gp`
 * draws it again.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "report.h"
#include "desc.h"
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pp_rep_gnuplot_check(char *err, size_t errlen)
{
    const char *g = pp_gnuplot_prog();
    if (strchr(g, '/')) {
        if (access(g, X_OK) == 0)
            return 0;
        snprintf(err, errlen, "%s: cannot run gnuplot (PERFPRED_GNUPLOT): %s", g, strerror(errno));
        return -1;
    }
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : ""; p && *p;) {
        const char *q = strchr(p, ':');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", g);
        if (access(buf, X_OK) == 0)
            return 0;
        p = q ? q + 1 : NULL;
    }
    snprintf(err, errlen, "%s: not found on PATH: the plots need it (Debian: apt-get install gnuplot-nox)", g);
    return -1;
}

/* The last line of a file (gnuplot's complaint), or "". */
static void last_line(const char *path, char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (line[0] != '\n') {
            line[strcspn(line, "\n")] = 0;
            snprintf(out, n, "%s", line);
        }
    fclose(f);
}

/* Write NAME.gp, run gnuplot on it in dir, check NAME.svg. */
static int run_plot(pp_rep_ctx *x, const char *name, const char *script)
{
    char gp[4096], svg[4096], log[4096], gpname[256], svgname[256];
    snprintf(gpname, sizeof gpname, "%s.gp", name);
    snprintf(svgname, sizeof svgname, "%s.svg", name);
    snprintf(gp, sizeof gp, "%s/%s", x->dir, gpname);
    snprintf(svg, sizeof svg, "%s/%s", x->dir, svgname);
    snprintf(log, sizeof log, "%s/gnuplot.log", x->dir);
    pp_rep_note_file(gpname);
    pp_rep_note_file(svgname);
    FILE *f = fopen(gp, "w");
    if (!f || fputs(script, f) < 0 || fclose(f) != 0) {
        snprintf(x->err, sizeof x->err, "%.2000s: cannot write: %s", gp, strerror(errno));
        x->rc = 2;
        return -1;
    }
    pp_rep_note_file("gnuplot.log");
    int st = pp_gnuplot(x->dir, gpname);
    char why[512];
    last_line(log, why, sizeof why);
    unlink(log);
    struct stat sb;
    if (st == 124)
        snprintf(x->err, sizeof x->err, "%.2000s: gnuplot did not finish within %d s", gp, PP_GNUPLOT_SECONDS);
    else if (st == 127 || st == 126 || st < 0) {
        snprintf(x->err, sizeof x->err, "%.2000s: cannot run gnuplot ('%s')", gp, pp_gnuplot_prog());
        x->rc = 2;
        return -1;
    } else if (st != 0)
        snprintf(x->err, sizeof x->err, "%.2000s: gnuplot failed%s%s", gp, why[0] ? ": " : "", why);
    else if (stat(svg, &sb) != 0 || sb.st_size < 100)
        snprintf(x->err, sizeof x->err, "%.2000s: gnuplot wrote no %s", gp, svgname);
    else
        return 0;
    x->rc = 1;
    return -1;
}

/* The terminal and the P axis of the plots against P. */
static void head(FILE *f, const char *name, const char *title)
{
    fprintf(f, "# %s.gp: drawn by perfpred report; `gnuplot %s.gp` in this directory draws %s.svg again\n",
            name, name, name);
    fprintf(f, "set terminal svg size 820,540 fixed enhanced font 'sans,12' background rgb 'white'\n"
               "set output '%s.svg'\nset datafile separator ','\n"
               "set title \"%s\" noenhanced\nset grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n",
            name, title);
}

static void p_axis(FILE *f, const pp_rep_ctx *x)
{
    int lo = x->P[0], hi = x->P[0];
    fputs("set logscale x 2\nset xlabel 'processors P'\nset xtics (", f);
    for (int i = 0; i < x->nP; i++) {
        fprintf(f, "%s%d", i ? ", " : "", x->P[i]);
        lo = x->P[i] < lo ? x->P[i] : lo;
        hi = x->P[i] > hi ? x->P[i] : hi;
    }
    fprintf(f, ")\nset xrange [%g:%g]\n", lo / 1.25, hi * 1.25);
}

static const char *prog_name(const pp_rep_ctx *x)
{
    const char *p = x->s->rec.program ? x->s->rec.program : "program";
    return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

/* A time unit for values up to max_ns: its name and its factor from s. */
static const char *unit_of(double max_ns, double *k)
{
    if (max_ns >= 1e9) {
        *k = 1;
        return "s";
    }
    if (max_ns >= 1e6) {
        *k = 1e3;
        return "ms";
    }
    *k = 1e6;
    return "us";
}

static int begin(pp_rep_ctx *x, char **buf, size_t *n, FILE **f)
{
    *buf = NULL;
    *f = open_memstream(buf, n);
    if (*f)
        return 1;
    snprintf(x->err, sizeof x->err, "out of memory");
    x->rc = 1;
    return 0;
}

static int finish(pp_rep_ctx *x, const char *name, FILE *f, char **bufp)
{
    int bad = fclose(f) != 0;
    char *buf = *bufp;
    if (bad || !buf) {
        free(buf);
        snprintf(x->err, sizeof x->err, "out of memory");
        x->rc = 1;
        return -1;
    }
    pp_rep_progress("plot %s", name);
    int rc = run_plot(x, name, buf);
    free(buf);
    return rc;
}

int pp_rep_plot_times(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    double mx = 0, k;
    for (int i = 0; i < x->nP; i++) {
        double v = x->pred[i].has_iv ? x->pred[i].iv.hi : x->pred[i].mt.t_real;
        mx = fmax(mx, fmax(v, x->pred[i].mt.t_pram));
    }
    const char *u = unit_of(mx, &k);
    snprintf(title, sizeof title, "%s: predicted time on the three machines", prog_name(x));
    head(f, "plot-time", title);
    p_axis(f, x);
    fprintf(f, "set logscale y\nset ylabel 'time (%s)'\nset key below\n"
               "set style fill transparent solid 0.18 noborder\nplot ", u);
    int has_iv = 0;
    for (int i = 0; i < x->nP; i++)
        has_iv |= x->pred[i].has_iv;
    const char *csv = "'table-predictions.csv' skip 1";
    if (has_iv)
        fprintf(f, "%s using %d:($%d*%g):($%d*%g) with filledcurves lc rgb '#d62728' title 'real: 90%% interval', \\\n     ",
                csv, PP_RC_P + 1, PP_RC_LO + 1, k, PP_RC_HI + 1, k);
    fprintf(f, "%s using %d:($%d*%g) with linespoints lw 2 pt 7 lc rgb '#2ca02c' title 'MIRACLE (T_1/P)', \\\n"
               "     %s using %d:($%d*%g) with linespoints lw 2 pt 5 lc rgb '#1f77b4' title 'PRAM', \\\n"
               "     %s using %d:($%d*%g) with linespoints lw 2 pt 9 lc rgb '#d62728' title 'real machine'\n",
            csv, PP_RC_P + 1, PP_RC_TMIR + 1, k, csv, PP_RC_P + 1, PP_RC_TPRAM + 1, k, csv, PP_RC_P + 1,
            PP_RC_TREAL + 1, k);
    return finish(x, "plot-time", f, &buf);
}

int pp_rep_plot_speedup(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    snprintf(title, sizeof title, "%s: speedup T_1/T against P", prog_name(x));
    head(f, "plot-speedup", title);
    p_axis(f, x);
    const char *csv = "'table-predictions.csv' skip 1";
    fprintf(f, "set logscale y 2\nset ylabel 'speedup T_1 / T'\nset key below\n"
               "plot x with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'MIRACLE: P (linear)', \\\n"
               "     %s using %d:%d with linespoints lw 2 pt 5 lc rgb '#1f77b4' title 'PRAM: T_1/T_{PRAM}', \\\n"
               "     %s using %d:%d with linespoints lw 2 pt 9 lc rgb '#d62728' title 'real: T_1/T_{real}'\n",
            csv, PP_RC_P + 1, PP_RC_SPRAM + 1, csv, PP_RC_P + 1, PP_RC_SREAL + 1);
    return finish(x, "plot-speedup", f, &buf);
}

int pp_rep_plot_efficiency(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    snprintf(title, sizeof title, "%s: efficiencies E_a and E against P", prog_name(x));
    head(f, "plot-efficiency", title);
    p_axis(f, x);
    const char *csv = "'table-predictions.csv' skip 1";
    fprintf(f, "set ylabel 'efficiency'\nset yrange [0:1.05]\nset key below\n"
               "plot %s using %d:%d with linespoints lw 2 pt 7 lc rgb '#1f77b4' "
               "title 'E_a = T_{MIR}/T_{PRAM} (the algorithm)', \\\n"
               "     %s using %d:%d with linespoints lw 2 pt 5 lc rgb '#d62728' "
               "title 'E = T_{MIR}/T_{real} (algorithm and machine)'",
            csv, PP_RC_P + 1, PP_RC_EA + 1, csv, PP_RC_P + 1, PP_RC_E + 1);
    if (x->c->has_Ea)
        fprintf(f, ", \\\n     %g with lines dt 2 lc rgb '#1f77b4' title 'E_a target %g'", x->c->Ea, x->c->Ea);
    if (x->c->has_E)
        fprintf(f, ", \\\n     %g with lines dt 2 lc rgb '#d62728' title 'E target %g'", x->c->E, x->c->E);
    fputc('\n', f);
    return finish(x, "plot-efficiency", f, &buf);
}

/* Zhang & Xu, Figures 10-14: L_a and L against the problem size that
 * holds E_a and E, one point per P. */
int pp_rep_plot_latency(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    const pp_prog *m = &x->s->prog;
    const char *xname = m->params[x->tab[0].scale_param[0]].name;
    double mx = 0, k;
    int npts[2] = {0, 0};
    for (int t = 0; t < x->ntab; t++)
        for (int j = 0; j < x->tab[t].nP; j++)
            if (x->tab[t].found[j] && x->tab[t].latency[j] > 0) {
                mx = fmax(mx, x->tab[t].latency[j]);
                npts[x->tab[t].kind]++;
            }
    const char *u = unit_of(mx, &k);
    snprintf(title, sizeof title, "%s: latency at fixed efficiency (Zhang & Xu, Figs. 10-14)", prog_name(x));
    head(f, "plot-latency", title);
    fprintf(f, "set xlabel 'problem size %s on the scaling path' noenhanced\nset ylabel 'latency (%s)'\n"
               "set key below\n", xname, u);
    if (npts[0] + npts[1] == 0) {
        fputs("set xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\n"
              "set label 'no efficiency target is reached at any P on the scaling path' at graph 0.5, graph 0.5 center\n"
              "plot -1 notitle\n", f);
        return finish(x, "plot-latency", f, &buf);
    }
    fputs("set logscale xy\nset offsets graph 0.05, graph 0.05, graph 0.1, graph 0.1\nplot ", f);
    const char *csv = "'table-latency.csv' skip 1";
    int first = 1;
    for (int t = 0; t < x->ntab; t++) {
        int alg = x->tab[t].kind == PP_SCALE_ALGORITHMIC;
        int cx = alg ? PP_LC_XA : PP_LC_X, cl = alg ? PP_LC_LA : PP_LC_L;
        if (!npts[x->tab[t].kind]) {
            fprintf(f, "%s1/0 title '%s: not reached at any P'", first ? "" : ", \\\n     ",
                    alg ? "L_a" : "L");
            first = 0;
            continue;
        }
        fprintf(f, "%s%s using %d:($%d > 0 ? $%d*%g : 1/0) with linespoints lw 2 pt %d lc rgb '%s' "
                   "title '%s at %s = %g', \\\n"
                   "     %s using %d:($%d > 0 ? $%d*%g : 1/0):(sprintf('P=%%d', $%d)) with labels offset char 0,1 "
                   "font 'sans,9' notitle",
                first ? "" : ", \\\n     ", csv, cx + 1, cl + 1, cl + 1, k, alg ? 7 : 5,
                alg ? "#1f77b4" : "#d62728", alg ? "L_a (algorithmic, PRAM)" : "L (parallel, real machine)",
                alg ? "E_a" : "E", x->tab[t].target, csv, cx + 1, cl + 1, cl + 1, k, PP_LC_P + 1);
        first = 0;
    }
    fputc('\n', f);
    return finish(x, "plot-latency", f, &buf);
}

/* The whole program's breakdown against P (table-breakdown.csv): the
 * share of the threads' time in computation, waiting and synchronisation
 * cost on the real machine, the thread programs' counterpart of Clement &
 * Quinn's Figure 6 (their kinds of operation; an MPI program also gets
 * the kinds of call, pp_rep_plot_mpi). */
int pp_rep_plot_breakdown(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    int mpi = x->s->prog.mpi;
    snprintf(title, sizeof title, "%s: where the %s' time goes on the real machine", prog_name(x),
             mpi ? "ranks" : "threads");
    head(f, "plot-breakdown", title);
    p_axis(f, x);
    const char *csv = "'table-breakdown.csv' skip 1";
    fprintf(f, "set ylabel 'share of the %s'' time (%%)'\nset yrange [0:100]\nset key below\n"
               "plot %s using 1:3 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title 'computation', \\\n"
               "     %s using 1:4 with linespoints lw 2 pt 5 lc rgb '#1f77b4' title 'waiting', \\\n"
               "     %s using 1:5 with linespoints lw 2 pt 9 lc rgb '#d62728' title 'synchronisation%s cost'\n",
            mpi ? "ranks" : "threads", csv, csv, csv, mpi ? " and communication" : "");
    return finish(x, "plot-breakdown", f, &buf);
}

/* Clement & Quinn, Figure 6: the share of the time in each kind of MPI
 * call against P. */
int pp_rep_plot_mpi(pp_rep_ctx *x)
{
    char *buf, title[256];
    size_t n;
    FILE *f;
    if (!begin(x, &buf, &n, &f))
        return -1;
    static const char *col[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                                "#17becf", "#7f7f7f", "#bcbd22"};
    snprintf(title, sizeof title, "%s: share of the time in MPI calls (Clement & Quinn, Fig. 6)", prog_name(x));
    head(f, "plot-mpi-share", title);
    p_axis(f, x);
    const char *csv = "'table-mpi-share.csv' skip 1";
    fprintf(f, "set ylabel 'share of the ranks'' time (%%)'\nset yrange [0:100]\nset key below\n"
               "plot %s using 1:2 with linespoints lw 2.5 pt 7 lc rgb '#333333' title 'all MPI calls'", csv);
    for (int i = 0; i < x->nkinds; i++)
        fprintf(f, ", \\\n     %s using 1:%d with linespoints lw 1.5 pt %d lc rgb '%s' title '%s' noenhanced", csv,
                3 + i, 4 + i, col[i % 10], pp_evkind_name(x->kinds[i]));
    fputc('\n', f);
    return finish(x, "plot-mpi-share", f, &buf);
}
