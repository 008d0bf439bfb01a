/* experiment-out.c - what `perfpred run-experiment` writes: the tables of
 * every variant and the crossovers as text, CSV or JSON, and into the
 * output directory the same plus plots of time, speedup and efficiency
 * (gnuplot scripts, their data and the SVGs).  See experiment-run.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "experiment-run.h"
#include "plot.h"
#include "point.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int has(const pp_xrun *r, unsigned o)
{
    return (r->x.outputs & o) != 0;
}

static const char *vname(const pp_xrun *r, int v)
{
    return r->var[v].v->name;
}

/* ---------------------------------------------------------------- text */

static void text_variant(FILE *f, const pp_xrun *r, int v)
{
    const pp_xvar *xv = &r->var[v];
    char b1[32], b2[32];
    fprintf(f, "\nvariant %s:", xv->v->name);
    for (int i = 0; i < xv->v->nrec; i++)
        fprintf(f, " %s", xv->v->rec[i]);
    if (xv->s.has_with) {
        char w[1024];
        pp_whatif_text(&xv->with, w, sizeof w);
        fprintf(f, " (machine with %s)", w);
    }
    fprintf(f, "\n");
    for (int j = 0; j < r->nord; j++)
        fprintf(f, "%8s", r->x.step[r->ord[j]].name);
    if (pp_exp_step_index(&r->x, "P") < 0)
        fprintf(f, "%8s", "P");
    for (int s = 0; s < xv->nset; s++)
        fprintf(f, "%8s", xv->set_name[s]);
    fprintf(f, " %11s", "T_real");
    if (has(r, PP_XO_INTERVAL))
        fprintf(f, " %-25s", "  90% interval");
    if (has(r, PP_XO_MACHINES))
        fprintf(f, " %11s %11s %11s", "T_MIRACLE", "T_PRAM", "T1");
    if (has(r, PP_XO_SPEEDUP))
        fprintf(f, " %9s", "speedup");
    if (has(r, PP_XO_EFFICIENCY))
        fprintf(f, " %10s", "efficiency");
    if (has(r, PP_XO_EA))
        fprintf(f, " %8s", "E_a");
    if (has(r, PP_XO_E))
        fprintf(f, " %8s", "E");
    fprintf(f, "\n");
    for (int i = 0; i < r->npts; i++) {
        const pp_xpoint *pt = &xv->pt[i];
        long val[PP_EXP_MAXSTEP];
        pp_xrun_coords(r, i, val);
        for (int j = 0; j < r->nord; j++)
            fprintf(f, "%8ld", val[r->ord[j]]);
        if (pp_exp_step_index(&r->x, "P") < 0)
            fprintf(f, "%8d", pt->P);
        for (int s = 0; s < xv->nset; s++)
            fprintf(f, "%8ld", pt->vals[xv->set_param[s]]);
        fprintf(f, " %11s", pp_fmt_time(pt->mt.t_real, b1, sizeof b1));
        if (has(r, PP_XO_INTERVAL)) {
            char iv[64] = "";
            if (pt->has_iv)
                snprintf(iv, sizeof iv, "[%s, %s]", pp_fmt_time(pt->iv.lo, b1, sizeof b1),
                         pp_fmt_time(pt->iv.hi, b2, sizeof b2));
            fprintf(f, " %-25s", iv);
        }
        if (has(r, PP_XO_MACHINES)) {
            fprintf(f, " %11s", pp_fmt_time(pt->mt.t_mir, b1, sizeof b1));
            fprintf(f, " %11s", pp_fmt_time(pt->mt.t_pram, b1, sizeof b1));
            fprintf(f, " %11s", pp_fmt_time(pt->mt.t1, b1, sizeof b1));
        }
        if (has(r, PP_XO_SPEEDUP))
            isnan(pt->speedup) ? fprintf(f, " %9s", "-") : fprintf(f, " %9.3f", pt->speedup);
        if (has(r, PP_XO_EFFICIENCY))
            isnan(pt->eff) ? fprintf(f, " %10s", "-") : fprintf(f, " %10.4f", pt->eff);
        if (has(r, PP_XO_EA))
            fprintf(f, " %8.4f", pt->mt.Ea);
        if (has(r, PP_XO_E))
            fprintf(f, " %8.4f", pt->mt.E);
        fprintf(f, "\n");
    }
}

static const char *winner(const pp_xrun *r, const pp_xline *l, int sign)
{
    return sign < 0 ? vname(r, l->a) : sign > 0 ? vname(r, l->b) : "neither";
}

static void text_cross(FILE *f, const pp_xrun *r)
{
    fprintf(f, "\ncrossovers of T_real:\n");
    if (r->nvar < 2)
        fprintf(f, "  one variant: nothing to compare\n");
    else if (r->nline == 0)
        fprintf(f, "  no stepped parameter takes two values or more\n");
    for (int i = 0; i < r->nline; i++) {
        const pp_xline *l = &r->line[i];
        const pp_exp_step *s = &r->x.step[l->k];
        char at[256];
        pp_xrun_label(r, l->first, l->k, at, sizeof at);
        fprintf(f, "  %s and %s along %s%s%s%s: ", vname(r, l->a), vname(r, l->b), s->name, at[0] ? " (" : "", at,
                at[0] ? ")" : "");
        if (l->n == 0) {
            if (l->sign)
                fprintf(f, "no crossover in the range: %s is faster at every %s from %ld to %ld (by %.3g%% to %.3g%%)\n",
                        winner(r, l, l->sign), s->name, s->v[0], s->v[s->n - 1], 100 * l->rmin, 100 * l->rmax);
            else
                fprintf(f, "no crossover in the range: the same times at every %s from %ld to %ld\n", s->name,
                        s->v[0], s->v[s->n - 1]);
            continue;
        }
        for (int c = 0; c < l->n; c++) {
            const pp_xover *x = &l->x[c];
            fprintf(f, "%s%s faster up to %s=%ld, ", c ? "; " : "", winner(r, l, x->below), s->name, x->lo);
            if (x->above)
                fprintf(f, "%s from %s=%ld", winner(r, l, x->above), s->name, x->hi);
            else
                fprintf(f, "equal at %s=%ld", s->name, x->hi);
            fprintf(f, " (crossing near %s=%.4g)", s->name, x->at);
        }
        fprintf(f, "; on the grid they differ by %.3g%% to %.3g%%\n", 100 * l->rmin, 100 * l->rmax);
    }
}

/* A machine file marked busy (machine.h, pp_machine_marked): the first
 * line of every output, or the JSON object's first member.  Every variant
 * reads the same file: the first says it. */
static void mark(FILE *f, const pp_xrun *r, int how)
{
    if (r->machine && r->nvar > 0 && r->var[0].open && r->var[0].s.have_machine)
        pp_machine_mark_print(f, how, &r->var[0].s.mach, r->machine);
}

static void print_text(FILE *f, const pp_xrun *r)
{
    mark(f, r, PP_MARK_TEXT);
    fprintf(f, "experiment %s (%s)\n", r->x.name, r->x.path);
    fprintf(f, "machine: %s\n", r->machine ? r->machine : "built-in defaults (not measured)");
    fprintf(f, "stepped:");
    for (int j = 0; j < r->nord; j++) {
        const pp_exp_step *s = &r->x.step[r->ord[j]];
        fprintf(f, "%s %s =", j ? ";" : "", s->name);
        for (int k = 0; k < s->n; k++)
            fprintf(f, "%s %ld", k ? "," : "", s->v[k]);
    }
    fprintf(f, "%s (%d point%s per variant)\n", r->nord ? "" : " nothing", r->npts, r->npts == 1 ? "" : "s");
    if (r->x.baseline)
        fprintf(f, "speedup = T_real of %s at P = 1 / T_real; efficiency = speedup / P\n", r->x.baseline);
    else
        fprintf(f, "speedup = T_real at P = 1 / T_real (each variant its own); efficiency = speedup / P\n");
    for (int v = 0; v < r->nvar; v++)
        text_variant(f, r, v);
    text_cross(f, r);
}

/* ---------------------------------------------------------------- CSV */

static void csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.9g", v);
    else
        fprintf(f, ",");
}

static void csv_variant(FILE *f, const pp_xrun *r, int v)
{
    const pp_xvar *xv = &r->var[v];
    int pstep = pp_exp_step_index(&r->x, "P");
    fprintf(f, "variant");
    for (int j = 0; j < r->nord; j++)
        fprintf(f, ",%s", r->x.step[r->ord[j]].name);
    if (pstep < 0)
        fprintf(f, ",P");
    for (int s = 0; s < xv->nset; s++)
        fprintf(f, ",%s", xv->set_name[s]);
    fprintf(f, ",t_real_s");
    if (has(r, PP_XO_INTERVAL))
        fprintf(f, ",t_real_lo_s,t_real_hi_s");
    if (has(r, PP_XO_MACHINES))
        fprintf(f, ",t_miracle_s,t_pram_s,T1_s");
    if (has(r, PP_XO_SPEEDUP))
        fprintf(f, ",speedup");
    if (has(r, PP_XO_EFFICIENCY))
        fprintf(f, ",efficiency");
    if (has(r, PP_XO_EA))
        fprintf(f, ",Ea");
    if (has(r, PP_XO_E))
        fprintf(f, ",E");
    fprintf(f, "\n");
    for (int i = 0; i < r->npts; i++) {
        const pp_xpoint *pt = &xv->pt[i];
        long val[PP_EXP_MAXSTEP];
        pp_xrun_coords(r, i, val);
        fprintf(f, "%s", xv->v->name);
        for (int j = 0; j < r->nord; j++)
            fprintf(f, ",%ld", val[r->ord[j]]);
        if (pstep < 0)
            fprintf(f, ",%d", pt->P);
        for (int s = 0; s < xv->nset; s++)
            fprintf(f, ",%ld", pt->vals[xv->set_param[s]]);
        csv_num(f, pt->mt.t_real / 1e9);
        if (has(r, PP_XO_INTERVAL)) {
            csv_num(f, pt->has_iv ? pt->iv.lo / 1e9 : NAN);
            csv_num(f, pt->has_iv ? pt->iv.hi / 1e9 : NAN);
        }
        if (has(r, PP_XO_MACHINES)) {
            csv_num(f, pt->mt.t_mir / 1e9);
            csv_num(f, pt->mt.t_pram / 1e9);
            csv_num(f, pt->mt.t1 / 1e9);
        }
        if (has(r, PP_XO_SPEEDUP))
            csv_num(f, pt->speedup);
        if (has(r, PP_XO_EFFICIENCY))
            csv_num(f, pt->eff);
        if (has(r, PP_XO_EA))
            csv_num(f, pt->mt.Ea);
        if (has(r, PP_XO_E))
            csv_num(f, pt->mt.E);
        fprintf(f, "\n");
    }
}

static void csv_cross(FILE *f, const pp_xrun *r)
{
    fprintf(f, "variant_a,variant_b,along,at,from,to,crossing,faster_below,faster_above,diff_min,diff_max\n");
    for (int i = 0; i < r->nline; i++) {
        const pp_xline *l = &r->line[i];
        const pp_exp_step *s = &r->x.step[l->k];
        char at[256];
        pp_xrun_label(r, l->first, l->k, at, sizeof at);
        if (l->n == 0)
            fprintf(f, "%s,%s,%s,%s,%ld,%ld,,%s,%s,%.6g,%.6g\n", vname(r, l->a), vname(r, l->b), s->name, at, s->v[0],
                    s->v[s->n - 1], winner(r, l, l->sign), winner(r, l, l->sign), l->rmin, l->rmax);
        for (int c = 0; c < l->n; c++)
            fprintf(f, "%s,%s,%s,%s,%ld,%ld,%.6g,%s,%s,%.6g,%.6g\n", vname(r, l->a), vname(r, l->b), s->name, at,
                    l->x[c].lo, l->x[c].hi, l->x[c].at, winner(r, l, l->x[c].below), winner(r, l, l->x[c].above),
                    l->rmin, l->rmax);
    }
}

/* ---------------------------------------------------------------- JSON */

static void json_at(FILE *f, const pp_xrun *r, int i, int skip)
{
    long val[PP_EXP_MAXSTEP];
    pp_xrun_coords(r, i, val);
    fputc('{', f);
    for (int j = 0, first = 1; j < r->nord; j++) {
        if (r->ord[j] == skip)
            continue;
        fputs(first ? "" : ",", f);
        pp_json_str(f, r->x.step[r->ord[j]].name);
        fprintf(f, ":%ld", val[r->ord[j]]);
        first = 0;
    }
    fputc('}', f);
}

static void json_point(FILE *f, const pp_xrun *r, const pp_xvar *xv, int i)
{
    const pp_xpoint *pt = &xv->pt[i];
    const pp_prog *m = &xv->s.prog;
    fprintf(f, "{\"at\":");
    json_at(f, r, i, -1);
    fprintf(f, ",\"P\":%d,\"problem\":{", pt->P);
    for (int k = 0, first = 1; k < m->nparams; k++) {
        if (!pp_problem_shown(m, k))
            continue;
        fputs(first ? "" : ",", f);
        pp_json_str(f, m->params[k].name);
        fprintf(f, ":%ld", pt->vals[k]);
        first = 0;
    }
    fprintf(f, "},\"time\":{\"miracle\":");
    pp_json_num(f, pt->mt.t_mir / 1e9);
    fprintf(f, ",\"pram\":");
    pp_json_num(f, pt->mt.t_pram / 1e9);
    fprintf(f, ",\"real\":");
    pp_json_num(f, pt->mt.t_real / 1e9);
    fprintf(f, "},\"T1\":");
    pp_json_num(f, pt->mt.t1 / 1e9);
    fprintf(f, ",\"speedup\":");
    pp_json_num(f, pt->speedup);
    fprintf(f, ",\"efficiency\":");
    pp_json_num(f, pt->eff);
    fprintf(f, ",\"La\":");
    pp_json_num(f, pt->mt.La / 1e9);
    fprintf(f, ",\"L\":");
    pp_json_num(f, pt->mt.L / 1e9);
    fprintf(f, ",\"Ea\":");
    pp_json_num(f, pt->mt.Ea);
    fprintf(f, ",\"E\":");
    pp_json_num(f, pt->mt.E);
    fprintf(f, ",\"interval\":");
    if (pt->has_iv) {
        pp_json_interval(f, pt->iv.lo / 1e9, pt->iv.hi / 1e9, pt->iv.fit, pt->iv.host, pt->iv.model, pt->iv.counts);
        fputc('}', f);
    } else
        fprintf(f, "null}");
}

static void print_json(FILE *f, const pp_xrun *r)
{
    fprintf(f, "{");
    mark(f, r, PP_MARK_JSON);
    fprintf(f, "\"experiment\":");
    pp_json_str(f, r->x.name);
    fprintf(f, ",\"file\":");
    pp_json_str(f, r->x.path);
    fprintf(f, ",\"machine\":");
    if (r->machine)
        pp_json_str(f, r->machine);
    else
        fprintf(f, "null");
    fprintf(f, ",\"baseline\":");
    if (r->x.baseline)
        pp_json_str(f, r->x.baseline);
    else
        fprintf(f, "null");
    fprintf(f, ",\"steps\":{");
    for (int j = 0; j < r->nord; j++) {
        const pp_exp_step *s = &r->x.step[r->ord[j]];
        fprintf(f, "%s", j ? "," : "");
        pp_json_str(f, s->name);
        fputs(":[", f);
        for (int k = 0; k < s->n; k++)
            fprintf(f, "%s%ld", k ? "," : "", s->v[k]);
        fputc(']', f);
    }
    fprintf(f, "},\"variants\":[");
    for (int v = 0; v < r->nvar; v++) {
        const pp_xvar *xv = &r->var[v];
        fprintf(f, "%s{\"name\":", v ? "," : "");
        pp_json_str(f, xv->v->name);
        fprintf(f, ",\"records\":[");
        for (int i = 0; i < xv->v->nrec; i++) {
            fprintf(f, "%s", i ? "," : "");
            pp_json_str(f, xv->v->rec[i]);
        }
        fprintf(f, "],\"with\":");
        if (xv->s.has_with) {
            char w[1024];
            pp_whatif_text(&xv->with, w, sizeof w);
            pp_json_str(f, w);
        } else
            fprintf(f, "null");
        fprintf(f, ",\"points\":[");
        for (int i = 0; i < r->npts; i++) {
            fprintf(f, "%s\n", i ? "," : "");
            json_point(f, r, xv, i);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\"crossovers\":[");
    for (int i = 0; i < r->nline; i++) {
        const pp_xline *l = &r->line[i];
        fprintf(f, "%s\n{\"variants\":[", i ? "," : "");
        pp_json_str(f, vname(r, l->a));
        fputc(',', f);
        pp_json_str(f, vname(r, l->b));
        fprintf(f, "],\"along\":");
        pp_json_str(f, r->x.step[l->k].name);
        fprintf(f, ",\"at\":");
        json_at(f, r, l->first, l->k);
        fprintf(f, ",\"crossings\":[");
        for (int c = 0; c < l->n; c++) {
            fprintf(f, "%s{\"from\":%ld,\"to\":%ld,\"crossing\":", c ? "," : "", l->x[c].lo, l->x[c].hi);
            pp_json_num(f, l->x[c].at);
            fprintf(f, ",\"faster_below\":");
            pp_json_str(f, winner(r, l, l->x[c].below));
            fprintf(f, ",\"faster_above\":");
            pp_json_str(f, winner(r, l, l->x[c].above));
            fprintf(f, ",\"evaluations\":%d}", l->x[c].evals);
        }
        fprintf(f, "],\"difference\":[");
        pp_json_num(f, l->rmin);
        fputc(',', f);
        pp_json_num(f, l->rmax);
        fprintf(f, "],\"faster\":");
        if (l->n == 0)
            pp_json_str(f, winner(r, l, l->sign));
        else
            fprintf(f, "null");
        fputc('}', f);
    }
    fprintf(f, "],\"predictions\":%ld}\n", r->npred);
}

void pp_xrun_print(FILE *f, const pp_xrun *r, pp_format fmt)
{
    if (fmt == PP_FMT_JSON)
        print_json(f, r);
    else if (fmt == PP_FMT_CSV) {
        mark(f, r, PP_MARK_CSV);
        for (int v = 0; v < r->nvar; v++) {
            csv_variant(f, r, v);
            fprintf(f, "\n");
        }
        csv_cross(f, r);
    } else
        print_text(f, r);
}

/* ---------------------------------------------------------------- files */

static int mkdirs(const char *dir, char *err, size_t errlen)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create: %s", buf, strerror(errno));
                return -1;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return -1;
    }
    return 0;
}

typedef enum { W_TEXT, W_JSON, W_CSV_VAR, W_CSV_CROSS } wkind;

static int write_file(const pp_xrun *r, const char *dir, const char *name, wkind k, int v, char *err,
                      size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (k == W_TEXT)
        print_text(f, r);
    else if (k == W_JSON)
        print_json(f, r);
    else {
        mark(f, r, PP_MARK_CSV);
        if (k == W_CSV_VAR)
            csv_variant(f, r, v);
        else
            csv_cross(f, r);
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static const char *const plot_kind[3] = {"time", "speedup", "efficiency"};

/* The plots of the points that share the other coordinates of point
 * `first`: one data file and a script per kind wanted. */
static int write_plots(const pp_xrun *r, const char *dir, int first, int *missing, char *err, size_t errlen)
{
    const pp_exp_step *xs = &r->x.step[r->xstep];
    int stride = pp_xrun_stride(r, r->xstep);
    char suffix[256] = "", label[256];
    long val[PP_EXP_MAXSTEP];
    pp_xrun_coords(r, first, val);
    for (int j = 0, o = 0; j < r->nord; j++)
        if (r->ord[j] != r->xstep && o < (int)sizeof suffix)
            o += snprintf(suffix + o, sizeof suffix - (size_t)o, "-%s%ld", r->x.step[r->ord[j]].name, val[r->ord[j]]);
    pp_xrun_label(r, first, r->xstep, label, sizeof label);
    char path[4096], data[300];
    snprintf(data, sizeof data, "curves%s.dat", suffix);
    snprintf(path, sizeof path, "%s/%s", dir, data);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# %s", xs->name);
    for (int v = 0; v < r->nvar; v++)
        fprintf(f, " %s:T_real_s %s:speedup %s:efficiency", vname(r, v), vname(r, v), vname(r, v));
    fprintf(f, "\n");
    double tmin = INFINITY, tmax = 0;
    for (int j = 0; j < xs->n; j++) {
        fprintf(f, "%ld", xs->v[j]);
        for (int v = 0; v < r->nvar; v++) {
            const pp_xpoint *pt = &r->var[v].pt[first + j * stride];
            double y[3] = {pt->mt.t_real / 1e9, pt->speedup, pt->eff};
            for (int k = 0; k < 3; k++)
                isfinite(y[k]) ? fprintf(f, " %.9g", y[k]) : fprintf(f, " nan");
            if (pt->mt.t_real > 0) {
                tmin = fmin(tmin, pt->mt.t_real);
                tmax = fmax(tmax, pt->mt.t_real);
            }
        }
        fprintf(f, "\n");
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    int logx = xs->v[0] > 0 && xs->v[xs->n - 1] >= 8 * xs->v[0];
    int isP = !strcmp(xs->name, "P");
    for (int kind = 0; kind < 3; kind++) {
        if (!has(r, (unsigned[]){PP_XO_TIME, PP_XO_SPEEDUP, PP_XO_EFFICIENCY}[kind]))
            continue;
        char gp[300], svg[300];
        snprintf(gp, sizeof gp, "%s%s.gp", plot_kind[kind], suffix);
        snprintf(svg, sizeof svg, "%s%s.svg", plot_kind[kind], suffix);
        snprintf(path, sizeof path, "%s/%s", dir, gp);
        if (!(f = fopen(path, "w"))) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            return -1;
        }
        fprintf(f, "# %s: %s against %s, one curve per variant (perfpred run-experiment)\n", r->x.name,
                plot_kind[kind], xs->name);
        fprintf(f, "set terminal svg size 640,420 font 'Helvetica,11' background rgb 'white'\nset output ");
        pp_gp_str(f, svg);
        char title[512];
        snprintf(title, sizeof title, "%s: %s%s%s%s", r->x.name,
                 kind == 0 ? "predicted T_real" : kind == 1 ? "speedup" : "efficiency", label[0] ? " (" : "", label,
                 label[0] ? ")" : "");
        fprintf(f, "\nset title ");
        pp_gp_str(f, title);
        fprintf(f, " noenhanced\nset xlabel ");
        pp_gp_str(f, isP ? "P (processors)" : xs->name);
        fprintf(f, " noenhanced\nset ylabel '%s'\n",
                kind == 0 ? "time (s)" : kind == 1 ? "speedup" : "efficiency = speedup / P");
        fprintf(f, "set datafile missing 'nan'\nset key top left\nset grid\n");
        if (logx)
            fprintf(f, "set logscale x 2\n");
        if ((kind == 0 && tmax > 100 * tmin) || (kind == 1 && logx))
            fprintf(f, "set logscale y%s\n", kind == 1 ? " 2" : "");
        if (kind == 2)
            fprintf(f, "set yrange [0:*]\n");
        /* the crossings of T_real along x on this plot's line */
        for (int i = 0; kind == 0 && i < r->nline; i++) {
            const pp_xline *l = &r->line[i];
            for (int c = 0; l->k == r->xstep && l->first == first && c < l->n; c++) {
                if (logx && !(l->x[c].at > 0))
                    continue;
                char lab[256];
                snprintf(lab, sizeof lab, "%s = %s ", vname(r, l->a), vname(r, l->b));
                fprintf(f, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dashtype 3 lc 'gray'\n",
                        l->x[c].at, l->x[c].at);
                fprintf(f, "set label ");
                pp_gp_str(f, lab);
                fprintf(f, " at %.6g, graph %.2f right noenhanced font ',9' tc 'gray40'\n", l->x[c].at,
                        0.95 - 0.05 * (i % 4));
            }
        }
        fprintf(f, "plot ");
        for (int v = 0; v < r->nvar; v++) {
            fprintf(f, "%s", v ? ", \\\n     " : "");
            pp_gp_str(f, data);
            fprintf(f, " using 1:%d with linespoints title ", 2 + 3 * v + kind);
            pp_gp_str(f, vname(r, v));
            fprintf(f, " noenhanced");
        }
        if (kind == 1 && isP && !r->x.baseline)
            fprintf(f, ", \\\n     x with lines dashtype 2 lc 'gray' title 'linear'");
        fprintf(f, "\n");
        if (fclose(f) != 0) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            return -1;
        }
        if (*missing)
            continue;
        int st = pp_gnuplot(dir, gp);
        if (st == 127) {
            *missing = 1;
            fprintf(stderr, "perfpred run-experiment: gnuplot not found (apt-get install gnuplot-nox): the .gp "
                            "scripts are in %s, the SVGs are not drawn\n", dir);
            continue;
        }
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, svg);
        if (st != 0 || stat(path, &sb) != 0 || sb.st_size == 0) {
            snprintf(err, errlen, "gnuplot %s failed (exit %d): see %s/gnuplot.log", gp, st, dir);
            return -2;
        }
    }
    return 0;
}

int pp_xrun_write(const pp_xrun *r, const char *dir, char *err, size_t errlen)
{
    if (mkdirs(dir, err, errlen) || write_file(r, dir, "experiment.txt", W_TEXT, 0, err, errlen) ||
        write_file(r, dir, "experiment.json", W_JSON, 0, err, errlen) ||
        write_file(r, dir, "crossovers.csv", W_CSV_CROSS, 0, err, errlen))
        return -1;
    for (int v = 0; v < r->nvar; v++) {
        char name[300];
        snprintf(name, sizeof name, "%s.csv", vname(r, v));
        if (write_file(r, dir, name, W_CSV_VAR, v, err, errlen))
            return -1;
    }
    if (r->xstep < 0 || !has(r, PP_XO_TIME | PP_XO_SPEEDUP | PP_XO_EFFICIENCY))
        return 0;
    int n = r->x.step[r->xstep].n, stride = pp_xrun_stride(r, r->xstep), missing = 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/gnuplot.log", dir);
    unlink(path);
    for (int i = 0; i < r->npts; i++) {
        if ((i / stride) % n != 0)
            continue;
        int rc = write_plots(r, dir, i, &missing, err, errlen);
        if (rc)
            return rc == -2 ? 2 : -1;
    }
    return 0;
}
