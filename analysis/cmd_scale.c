/* cmd_scale.c - `perfpred scale RECORD --machine FILE --scale N[,M]
 * --P 2,4,8 --Ea 0.7 --E 0.25`: the algorithmic scalability table at E_a
 * (machine-independent: PRAM against MIRACLE) and the combination table at
 * E (the real machine), upper triangular, with the problem size for each P
 * in the last row (Zhang & Xu, Tables 1-10).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "scale.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *usage =
    "usage: perfpred scale RECORD [--machine FILE] --scale NAME[,NAME...] --P P,P,...\n"
    "                      [--Ea X] [--E X] [--set NAME=VALUE]... [--with NAME=VALUE,...]\n"
    "                      [--format text|csv|json]\n"
    "  For each P, finds the smallest problem size on the scaling path (the --scale\n"
    "  parameters grown together, in their recorded ratios; the others as recorded or\n"
    "  --set) that holds the algorithmic efficiency E_a (--Ea) or the parallel\n"
    "  efficiency E (--E), and prints Scale(P,P') = L(chi,P)/L(chi',P').\n"
    "  --csv FILE and --json FILE also write the tables in those formats.\n"
    "  --cost-quantile Q: the costs sit at the Q-quantile of the segments' slowdown\n"
    "  against their least-squares fit (default 'mean': the fit as it is).\n"
    "  --with NAME=VALUE,...: the tables of a machine changed so (see predict).\n"
    "  --insitu on|off, --cache-rule on|off, --model-error E: as for predict.\n";

static void print_text(FILE *o, const pp_prog *m, const pp_scale_table *t)
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
}

static void print_csv(FILE *o, const pp_prog *m, const pp_scale_table *t)
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
}

static void print_json(FILE *o, const pp_prog *m, const pp_scale_table *t)
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
    fprintf(o, "]}");
}

int pp_cmd_scale(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "scale", "set,machine,P,format,scale,Ea,E,csv,json,cache-rule,insitu,model-error,cost-quantile,with", usage, &c);
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
    pp_prog *m = &s.prog;
    int sp[32];
    int rc = 0;
    if (c.nscale > 32) {
        fprintf(stderr, "perfpred scale: at most 32 --scale parameters\n");
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < c.nscale; i++) {
        sp[i] = pp_prog_param_index(m, c.scale[i]);
        if (sp[i] < 0) {
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
    /* --set values become the base of the path */
    for (int i = 0; rc == 0 && i < m->nparams; i++)
        m->params[i].recorded = m->params[i].value;
    int ntab = 0;
    pp_scale_table tabs[2];
    for (int k = 0; rc == 0 && k < 2; k++) {
        if ((k == 0 && !c.has_Ea) || (k == 1 && !c.has_E))
            continue;
        if (pp_scale_compute(m, &s.mach, k == 0 ? PP_SCALE_ALGORITHMIC : PP_SCALE_COMBINATION,
                             k == 0 ? c.Ea : c.E, sp, c.nscale, c.P, c.nP, &tabs[ntab], pp_cli_progress, NULL,
                             err, sizeof err)) {
            fprintf(stderr, "perfpred scale: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        ntab++;
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
            fprintf(o, "{\"tables\":[");
        if (s.has_with && fmt == PP_FMT_TEXT) {
            char w[1024];
            pp_whatif_text(&c.with, w, sizeof w);
            fprintf(o, "machine: %s with %s\n\n", c.machine ? c.machine : "built-in defaults", w);
        }
        for (int i = 0; i < ntab; i++) {
            if (fmt == PP_FMT_JSON) {
                fprintf(o, "%s", i ? "," : "");
                print_json(o, m, &tabs[i]);
            } else if (fmt == PP_FMT_CSV) {
                if (i)
                    fprintf(o, "\n");
                print_csv(o, m, &tabs[i]);
            } else {
                if (i)
                    fprintf(o, "\n");
                print_text(o, m, &tabs[i]);
            }
        }
        if (fmt == PP_FMT_JSON)
            fprintf(o, "]}\n");
        if (pass && fclose(o) != 0) {
            fprintf(stderr, "perfpred scale: %s: cannot write: %s\n", path, strerror(errno));
            rc = 2;
        }
    }
    for (int i = 0; i < ntab; i++)
        pp_scale_free(&tabs[i]);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
