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

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *usage =
    "usage: perfpred scale RECORD [--machine FILE] --scale NAME[,NAME...] --P P,P,...\n"
    "                      [--Ea X] [--E X] [--set NAME=VALUE]... [--format text|csv|json]\n"
    "  For each P, finds the smallest problem size on the scaling path (the --scale\n"
    "  parameters grown together, in their recorded ratios; the others as recorded or\n"
    "  --set) that holds the algorithmic efficiency E_a (--Ea) or the parallel\n"
    "  efficiency E (--E), and prints Scale(P,P') = L(chi,P)/L(chi',P').\n";

static void print_text(const pp_prog *m, const pp_scale_table *t)
{
    printf("%s scalability, %s = %.2f%s\n", t->kind == PP_SCALE_ALGORITHMIC ? "Algorithmic" : "Combination",
           t->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E", t->target,
           t->kind == PP_SCALE_ALGORITHMIC ? " (PRAM against MIRACLE: the algorithm)" : " (the real machine)");
    printf("%-8s", "P, P'");
    for (int j = 0; j < t->nP; j++)
        printf(" %9d", t->P[j]);
    printf("\n");
    for (int i = 0; i < t->nP; i++) {
        printf("%-8d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i)
                printf(" %9s", "");
            else if (isnan(t->scale[i][j]))
                printf(" %9s", "-");
            else
                printf(" %9.4g", t->scale[i][j]);
        }
        printf("\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        printf("%-8s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++) {
            if (t->found[j])
                printf(" %9ld", t->chi[j][k]);
            else
                printf(" %9s", "unreach.");
        }
        printf("\n");
    }
}

static void print_csv(const pp_prog *m, const pp_scale_table *t)
{
    const char *kind = t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination";
    printf("%s %.4g", kind, t->target);
    for (int j = 0; j < t->nP; j++)
        printf(",%d", t->P[j]);
    printf("\n");
    for (int i = 0; i < t->nP; i++) {
        printf("%d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i || isnan(t->scale[i][j]))
                printf(",");
            else
                printf(",%.6g", t->scale[i][j]);
        }
        printf("\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        printf("%s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++)
            if (t->found[j])
                printf(",%ld", t->chi[j][k]);
            else
                printf(",");
        printf("\n");
    }
}

static void print_json(const pp_prog *m, const pp_scale_table *t)
{
    printf("{\"kind\":\"%s\",\"efficiency\":", t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination");
    pp_json_num(stdout, t->target);
    printf(",\"P\":[");
    for (int j = 0; j < t->nP; j++)
        printf("%s%d", j ? "," : "", t->P[j]);
    printf("],\"problem\":[");
    for (int j = 0; j < t->nP; j++) {
        if (!t->found[j]) {
            printf("%snull", j ? "," : "");
            continue;
        }
        printf("%s{", j ? "," : "");
        for (int k = 0; k < t->nscale; k++) {
            printf("%s", k ? "," : "");
            pp_json_str(stdout, m->params[t->scale_param[k]].name);
            printf(":%ld", t->chi[j][k]);
        }
        printf("}");
    }
    printf("],\"latency\":[");
    for (int j = 0; j < t->nP; j++) {
        printf("%s", j ? "," : "");
        pp_json_num(stdout, t->found[j] ? t->latency[j] / 1e9 : NAN);
    }
    printf("],\"scale\":[");
    for (int i = 0; i < t->nP; i++) {
        printf("%s[", i ? "," : "");
        for (int j = 0; j < t->nP; j++) {
            printf("%s", j ? "," : "");
            pp_json_num(stdout, j < i ? NAN : t->scale[i][j]);
        }
        printf("]");
    }
    printf("]}");
}

int pp_cmd_scale(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "scale", "set,machine,P,format,scale,Ea,E", usage, &c);
    if (st >= 0)
        return st;
    if (!c.nscale || !c.nP || (!c.has_Ea && !c.has_E)) {
        fprintf(stderr, "perfpred scale: needs --scale, --P and at least one of --Ea, --E\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    if ((st = pp_cli_open("scale", &c, c.has_E, &s)) >= 0)
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
    if (rc == 0) {
        if (c.format == PP_FMT_JSON)
            printf("{\"tables\":[");
        for (int i = 0; i < ntab; i++) {
            if (c.format == PP_FMT_JSON) {
                printf("%s", i ? "," : "");
                print_json(m, &tabs[i]);
            } else if (c.format == PP_FMT_CSV) {
                if (i)
                    printf("\n");
                print_csv(m, &tabs[i]);
            } else {
                if (i)
                    printf("\n");
                print_text(m, &tabs[i]);
            }
        }
        if (c.format == PP_FMT_JSON)
            printf("]}\n");
    }
    for (int i = 0; i < ntab; i++)
        pp_scale_free(&tabs[i]);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
