/* cmd_scale.c - `perfpred scale RECORD --machine FILE --scale N[,M]
 * --P 2,4,8 --Ea 0.7 --E 0.25`: the algorithmic scalability table at E_a
 * (machine-independent: PRAM against MIRACLE) and the combination table at
 * E (the real machine), upper triangular, with the problem size for each P
 * in the last row (Zhang & Xu, Tables 1-10), then T_real at each of those
 * sizes with its 90% confidence interval (as predict gives it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "point.h"
#include "scale.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred scale RECORD [--machine FILE] --scale NAME[,NAME...] --P P,P,...\n"
    "                      [--Ea X] [--E X] [--set NAME=VALUE]... [--with NAME=VALUE,...]\n"
    "                      [--draws K] [--format text|csv|json]\n"
    "  For each P, finds the smallest problem size on the scaling path (the --scale\n"
    "  parameters grown together, in their recorded ratios; the others as recorded or\n"
    "  --set) that holds the algorithmic efficiency E_a (--Ea) or the parallel\n"
    "  efficiency E (--E), and prints Scale(P,P') = L(chi,P)/L(chi',P'), then T_real\n"
    "  at each size found with its 90% confidence interval, as predict gives it\n"
    "  (--draws K: from K Monte Carlo draws of the costs; 0: no interval).\n"
    "  --csv FILE and --json FILE also write the tables in those formats.\n"
    "  --cost-quantile Q: the costs sit at the Q-quantile of the segments' slowdown\n"
    "  against their least-squares fit (default 'mean': the fit as it is).\n"
    "  --with NAME=VALUE,...: the tables of a machine changed so (see predict).\n"
    "  --insitu on|off, --cache-rule on|off, --model-error E: as for predict.\n";

/* T_real at each size a table found, and its 90% interval. */
typedef struct {
    double *t, *lo, *hi;   /* ns, per P; t < 0: not found; lo > hi: no interval */
} scale_times;

static void times_free(scale_times *st)
{
    free(st->t);
    free(st->lo);
    free(st->hi);
}

/* Predicts every size of t at its P: the parameters at base, the scaled
 * ones at the size found. */
static int table_times(const pp_prog *m, const pp_machine *mach, const pp_scale_table *t, const pp_vals *base, int draws,
                       scale_times *st, char *err, size_t errlen)
{
    st->t = calloc((size_t)t->nP + 1, sizeof *st->t);
    st->lo = calloc((size_t)t->nP + 1, sizeof *st->lo);
    st->hi = calloc((size_t)t->nP + 1, sizeof *st->hi);
    if (!st->t || !st->lo || !st->hi) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_vals at;
    if (pp_vals_copy(&at, m, base)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int j = 0; rc == 0 && j < t->nP; j++) {
        st->t[j] = -1;
        st->lo[j] = 1;
        st->hi[j] = 0;
        if (!t->found[j])
            continue;
        for (int k = 0; k < t->nscale; k++)
            at.v[t->scale_param[k]] = t->chi[j][k];
        pp_metrics mt;
        pp_interval iv;
        int has_iv;
        pp_cli_progress(NULL, "T_real at the sizes found", j, t->nP);
        rc = pp_point_predict(m, &at, mach, t->P[j], 0, draws, &mt, &iv, &has_iv, err, errlen);
        if (rc == 0) {
            st->t[j] = mt.t_real;
            if (has_iv) {
                st->lo[j] = iv.lo;
                st->hi[j] = iv.hi;
            }
        }
    }
    pp_cli_progress(NULL, "T_real at the sizes found", t->nP, t->nP);
    pp_vals_free(&at);
    return rc;
}

static void print_text(FILE *o, const pp_prog *m, const pp_scale_table *t, const scale_times *st)
{
    fprintf(o, "%s scalability, %s = %.2f%s\n", t->kind == PP_SCALE_ALGORITHMIC ? "Algorithmic" : "Combination",
           t->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E", t->target,
           t->kind == PP_SCALE_ALGORITHMIC ? " (PRAM against MIRACLE: the algorithm)" : " (the real machine)");
    fprintf(o, "%-8s", "P, P'");
    for (int j = 0; j < t->nP; j++)
        fprintf(o, " %9d", t->P[j]);
    fprintf(o, "\n");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%-8d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i)
                fprintf(o, " %9s", "");
            else if (isnan(t->scale[i][j]))
                fprintf(o, " %9s", "-");
            else
                fprintf(o, " %9.4g", t->scale[i][j]);
        }
        fprintf(o, "\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        fprintf(o, "%-8s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++) {
            if (t->found[j])
                fprintf(o, " %9ld", t->chi[j][k]);
            else
                fprintf(o, " %9s", "unreach.");
        }
        fprintf(o, "\n");
    }
    /* the time at those sizes, and its 90% interval */
    const char *row[3] = {"T_real", "90% lo", "90% hi"};
    for (int r = 0; r < 3; r++) {
        int any = 0;
        for (int j = 0; j < t->nP; j++)
            any |= st->t[j] >= 0 && (r == 0 || st->lo[j] <= st->hi[j]);
        if (!any)
            continue;
        fprintf(o, "%-8s", row[r]);
        for (int j = 0; j < t->nP; j++) {
            char b[32];
            if (st->t[j] < 0 || (r > 0 && st->lo[j] > st->hi[j]))
                fprintf(o, " %9s", "-");
            else
                fprintf(o, " %9s", pp_fmt_time(r == 0 ? st->t[j] : r == 1 ? st->lo[j] : st->hi[j], b, sizeof b));
        }
        fprintf(o, "\n");
    }
}

static void print_csv(FILE *o, const pp_prog *m, const pp_scale_table *t, const scale_times *st)
{
    const char *kind = t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination";
    fprintf(o, "%s %.4g", kind, t->target);
    for (int j = 0; j < t->nP; j++)
        fprintf(o, ",%d", t->P[j]);
    fprintf(o, "\n");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i || isnan(t->scale[i][j]))
                fprintf(o, ",");
            else
                fprintf(o, ",%.6g", t->scale[i][j]);
        }
        fprintf(o, "\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        fprintf(o, "%s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++)
            if (t->found[j])
                fprintf(o, ",%ld", t->chi[j][k]);
            else
                fprintf(o, ",");
        fprintf(o, "\n");
    }
    const char *row[3] = {"T_real_s", "T_real_lo_s", "T_real_hi_s"};
    for (int r = 0; r < 3; r++) {
        fprintf(o, "%s", row[r]);
        for (int j = 0; j < t->nP; j++) {
            if (st->t[j] < 0 || (r > 0 && st->lo[j] > st->hi[j]))
                fprintf(o, ",");
            else
                fprintf(o, ",%.6g", (r == 0 ? st->t[j] : r == 1 ? st->lo[j] : st->hi[j]) / 1e9);
        }
        fprintf(o, "\n");
    }
}

static void print_json(FILE *o, const pp_prog *m, const pp_scale_table *t, const scale_times *st)
{
    fprintf(o, "{\"kind\":\"%s\",\"efficiency\":", t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination");
    pp_json_num(o, t->target);
    fprintf(o, ",\"P\":[");
    for (int j = 0; j < t->nP; j++)
        fprintf(o, "%s%d", j ? "," : "", t->P[j]);
    fprintf(o, "],\"problem\":[");
    for (int j = 0; j < t->nP; j++) {
        if (!t->found[j]) {
            fprintf(o, "%snull", j ? "," : "");
            continue;
        }
        fprintf(o, "%s{", j ? "," : "");
        for (int k = 0; k < t->nscale; k++) {
            fprintf(o, "%s", k ? "," : "");
            pp_json_str(o, m->params[t->scale_param[k]].name);
            fprintf(o, ":%ld", t->chi[j][k]);
        }
        fprintf(o, "}");
    }
    fprintf(o, "],\"latency\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        pp_json_num(o, t->found[j] ? t->latency[j] / 1e9 : NAN);
    }
    fprintf(o, "],\"scale\":[");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%s[", i ? "," : "");
        for (int j = 0; j < t->nP; j++) {
            fprintf(o, "%s", j ? "," : "");
            pp_json_num(o, j < i ? NAN : t->scale[i][j]);
        }
        fprintf(o, "]");
    }
    fprintf(o, "],\"T_real\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        pp_json_num(o, st->t[j] >= 0 ? st->t[j] / 1e9 : NAN);
    }
    fprintf(o, "],\"interval\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        if (st->t[j] < 0 || st->lo[j] > st->hi[j]) {
            fprintf(o, "null");
            continue;
        }
        fprintf(o, "[");
        pp_json_num(o, st->lo[j] / 1e9);
        fprintf(o, ",");
        pp_json_num(o, st->hi[j] / 1e9);
        fprintf(o, "]");
    }
    fprintf(o, "]}");
}

int pp_cmd_scale(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "scale", "set,machine,P,format,draws,scale,Ea,E,csv,json,cache-rule,insitu,model-error,cost-quantile,with", usage, &c);
    if (st >= 0)
        return st;
    if (!c.nscale || !c.nP || (!c.has_Ea && !c.has_E)) {
        fprintf(stderr, "perfpred scale: needs --scale, --P and at least one of --Ea, --E\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    if ((st = pp_cli_open("scale", &c, c.has_E || c.with.n > 0, &s)) >= 0)
        return st;
    const pp_prog *m = &s.prog;
    int sp[32];
    int rc = 0;
    if (c.nscale > 32) {
        fprintf(stderr, "perfpred scale: at most 32 --scale parameters\n");
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < c.nscale; i++) {
        sp[i] = pp_prog_param_index(m, c.scale[i]);
        char hint[512];
        if (sp[i] < 0 && pp_prog_derived_hint(m, c.scale[i], hint, sizeof hint) == 0) {
            fprintf(stderr, "perfpred scale: --scale %s: %s\n", c.scale[i], hint);
            rc = 2;
        } else if (sp[i] < 0) {
            fprintf(stderr, "perfpred scale: --scale %s: no such parameter in %s\n", c.scale[i], s.rec.path);
            rc = 2;
        } else if (m->pkind == PP_P_PARAM && sp[i] == m->p_param) {
            fprintf(stderr, "perfpred scale: --scale %s: that parameter is the thread count P\n", c.scale[i]);
            rc = 2;
        } else if (m->params[sp[i]].recorded <= 0) {
            fprintf(stderr, "perfpred scale: --scale %s: its recorded value %ld is not positive\n", c.scale[i],
                    m->params[sp[i]].recorded);
            rc = 2;
        }
    }
    /* --set values are the start of the path */
    int ntab = 0;
    pp_scale_table tabs[2];
    for (int k = 0; rc == 0 && k < 2; k++) {
        if ((k == 0 && !c.has_Ea) || (k == 1 && !c.has_E))
            continue;
        if (pp_scale_compute(m, &s.vals, &s.mach, k == 0 ? PP_SCALE_ALGORITHMIC : PP_SCALE_COMBINATION,
                             k == 0 ? c.Ea : c.E, sp, c.nscale, c.P, c.nP, &tabs[ntab], pp_cli_progress, NULL,
                             err, sizeof err)) {
            fprintf(stderr, "perfpred scale: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        ntab++;
    }
    scale_times times[2];
    memset(times, 0, sizeof times);
    int draws = c.has_draws ? c.draws : PP_DRAWS_AUTO;
    for (int i = 0; rc == 0 && i < ntab; i++)
        if (table_times(m, &s.mach, &tabs[i], &s.vals, draws, &times[i], err, sizeof err)) {
            fprintf(stderr, "perfpred scale: %s: %s\n", s.rec.path, err);
            rc = 2;
        }
    for (int pass = 0; rc == 0 && pass < 3; pass++) {
        /* pass 0: stdout in --format; 1: --csv FILE; 2: --json FILE */
        pp_format fmt = pass == 0 ? c.format : pass == 1 ? PP_FMT_CSV : PP_FMT_JSON;
        const char *path = pass == 1 ? c.also_csv : pass == 2 ? c.also_json : NULL;
        if (pass && !path)
            continue;
        FILE *o = pass ? fopen(path, "w") : stdout;
        if (!o) {
            fprintf(stderr, "perfpred scale: %s: cannot write: %s\n", path, strerror(errno));
            rc = 2;
            break;
        }
        if (fmt == PP_FMT_JSON)
            fprintf(o, "{");
        pp_session_mark(&s, &c, o, fmt);   /* a marked machine file: first */
        if (fmt == PP_FMT_JSON)
            fprintf(o, "\"tables\":[");
        if (s.has_with && fmt == PP_FMT_TEXT) {
            char w[1024];
            pp_whatif_text(&c.with, w, sizeof w);
            fprintf(o, "machine: %s with %s\n\n", c.machine ? c.machine : "built-in defaults", w);
        }
        for (int i = 0; i < ntab; i++) {
            if (fmt == PP_FMT_JSON) {
                fprintf(o, "%s", i ? "," : "");
                print_json(o, m, &tabs[i], &times[i]);
            } else if (fmt == PP_FMT_CSV) {
                if (i)
                    fprintf(o, "\n");
                print_csv(o, m, &tabs[i], &times[i]);
            } else {
                if (i)
                    fprintf(o, "\n");
                print_text(o, m, &tabs[i], &times[i]);
            }
        }
        if (fmt == PP_FMT_JSON)
            fprintf(o, "]}\n");
        if (pass && fclose(o) != 0) {
            fprintf(stderr, "perfpred scale: %s: cannot write: %s\n", path, strerror(errno));
            rc = 2;
        }
    }
    for (int i = 0; i < ntab; i++) {
        pp_scale_free(&tabs[i]);
        times_free(&times[i]);
    }
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
