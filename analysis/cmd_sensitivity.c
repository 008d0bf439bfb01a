/* cmd_sensitivity.c - `perfpred sensitivity RECORD --machine FILE [--set
 * N=V]... [--P P,...] [--along NAME=V1,V2,...] [--param NAME,...]`: dT/dbeta
 * and the elasticity of T_real for every machine parameter, at a point or
 * along a scaling path (Clement & Quinn, Figure 7).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "domain.h"
#include "metrics.h"
#include "plot.h"
#include "point.h"
#include "sensitivity.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred sensitivity RECORD... [--machine FILE] [--set NAME=VALUE]... [--P P[,P...]]\n"
    "                            [--along NAME=V1,V2,...] [--param NAME[,NAME...]]\n"
    "                            [--with NAME=VALUE,...] [--format text|csv|json]\n"
    "                            [--plot FILE.svg]\n"
    "  How the predicted time on the real machine moves with each machine\n"
    "  parameter: dT/dbeta (for a cost, the times it lies on the critical path; for\n"
    "  the network's G, the bytes on it) and the elasticity (beta/T) dT/dbeta, the\n"
    "  per cent T moves for 1% of the parameter, by central differences of +-1%.\n"
    "  At the --set size and each --P (default: as recorded), or along a path:\n"
    "  --along N=256,512,1024 steps one problem parameter.  --param limits the\n"
    "  parameters (names as for --with, and 'computation'); by default every one\n"
    "  the time can be differentiated by, and those it does not move are listed\n"
    "  apart.  The elasticities of the times (costs, L, o, g, G, gamma and the\n"
    "  computation) sum to 1: the output checks it.\n"
    "  --plot FILE.svg (one --param): dT/dbeta against the --along parameter, one\n"
    "  line per P (or against P without --along): Clement & Quinn's Figure 7.\n"
    "  --cache-rule on|off, --insitu on|off, --cost-quantile Q|mean: as for predict.\n";

typedef struct {
    char name[64];
    int n;
    long *v;
} along_t;

static int parse_along(const char *s, along_t *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof a->name || !eq[1]) {
        snprintf(err, errlen, "--along: '%s' is not NAME=V1,V2,...", s);
        return -1;
    }
    snprintf(a->name, sizeof a->name, "%.*s", (int)(eq - s), s);
    for (const char *p = eq + 1; *p;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || (*end && *end != ',')) {
            snprintf(err, errlen, "--along: '%s' is not NAME=V1,V2,... with whole numbers", s);
            free(a->v);
            return -1;
        }
        long *nv = realloc(a->v, sizeof *nv * (size_t)(a->n + 1));
        if (!nv) {
            free(a->v);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        a->v = nv;
        a->v[a->n++] = v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* The parameters to differentiate by: --param's, or every differentiable
 * one.  Returns how many, or -1. */
static int pick(const char *spec, int *which, char *err, size_t errlen)
{
    int n = 0;
    if (!spec) {
        for (int i = 0; i < pp_par_count(); i++)
            if (pp_par_get(i)->differentiable)
                which[n++] = i;
        return n;
    }
    char *dup = strdup(spec), *save = NULL;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const pp_par_info *f[4];
        int nf = strcmp(t, "computation") == 0 ? pp_par_lookup("speed", f, 4) : pp_par_lookup(t, f, 4);
        if (nf == 0) {
            snprintf(err, errlen, "--param: '%s' is not a machine parameter (see docs/commands.md, "
                     "'What-if machines')", t);
            free(dup);
            return -1;
        }
        for (int k = 0; k < nf; k++) {
            if (!f[k]->differentiable) {
                snprintf(err, errlen, "--param: %s is not a number the time can be differentiated by%s", f[k]->name,
                         f[k]->kind == PP_PAR_NET_BW ? " (take mpi.gap_per_byte, 1/bandwidth)" : "");
                free(dup);
                return -1;
            }
            int idx = -1;
            for (int i = 0; i < pp_par_count(); i++)
                if (pp_par_get(i) == f[k])
                    idx = i;
            int dup_i = 0;
            for (int i = 0; i < n; i++)
                dup_i |= which[i] == idx;
            if (!dup_i)
                which[n++] = idx;
        }
    }
    free(dup);
    return n;
}

static const char *row_name(const pp_par_info *p)
{
    return p->kind == PP_PAR_SPEED ? "computation" : p->name;
}

static int by_elasticity(const void *a, const void *b)
{
    const pp_sens *x = a, *y = b;
    double ex = fabs(x->elasticity), ey = fabs(y->elasticity);
    return ex < ey ? 1 : ex > ey ? -1 : strcmp(x->par->name, y->par->name);
}

static void value_text(const pp_sens *s, char *buf, size_t n)
{
    char t[32];
    switch (s->par->kind == PP_PAR_SPEED ? PP_UNIT_FACTOR : s->par->unit) {
    case PP_UNIT_NS: snprintf(buf, n, "%s", pp_fmt_time(s->value, t, sizeof t)); break;
    case PP_UNIT_NS_PER_BYTE: snprintf(buf, n, "%.4g ns/B", s->value); break;
    default: snprintf(buf, n, "x%.4g", s->value); break;
    }
}

static void slope_text(const pp_sens *s, char *buf, size_t n)
{
    char t[32];
    if (s->par->kind == PP_PAR_SPEED)
        snprintf(buf, n, "%s of computation on the critical path", pp_fmt_time(s->dT, t, sizeof t));
    else if (s->par->kind == PP_PAR_MEM)
        snprintf(buf, n, "%s of memory time on the critical path", pp_fmt_time(s->dT, t, sizeof t));
    else if (s->par->unit == PP_UNIT_NS)
        snprintf(buf, n, "x%.4g on the critical path (%s per us)", s->dT, pp_fmt_time(1e3 * s->dT, t, sizeof t));
    else if (s->par->unit == PP_UNIT_NS_PER_BYTE)
        snprintf(buf, n, "%.4g bytes on the critical path", s->dT);
    else
        snprintf(buf, n, "%s per +1 of the factor", pp_fmt_time(s->dT, t, sizeof t));
}

/* One point's output. */
static void emit(const pp_cli *c, const pp_session *s, int P, double t, pp_sens *sv, int n, int first)
{
    const pp_prog *m = &s->prog;
    qsort(sv, (size_t)n, sizeof *sv, by_elasticity);
    double esum = 0;
    int ntime = 0, nkink = 0;
    for (int i = 0; i < n; i++)
        if (pp_sens_is_time(sv[i].par)) {
            esum += sv[i].elasticity;
            ntime++;
            nkink += sv[i].kink;
        }
    /* " N=512 R=20", as predict prints it */
    char prob[512] = "";
    FILE *pf = fmemopen(prob, sizeof prob - 1, "w");
    if (pf) {
        pp_problem_text(pf, m, &s->vals);
        fclose(pf);
    }
    if (c->format == PP_FMT_CSV) {
        for (int i = 0; i < n; i++)
            printf("\"%s\",%d,%.9g,%s,%.10g,%s,%.10g,%.6f,%d\n", prob + (prob[0] == ' '), P, t / 1e9,
                   row_name(sv[i].par), sv[i].value,
                   sv[i].par->kind == PP_PAR_SPEED ? "" : pp_unit_name(sv[i].par->unit), sv[i].dT, sv[i].elasticity,
                   sv[i].one_sided);
        return;
    }
    if (c->format == PP_FMT_JSON) {
        printf("%s{", first ? "" : ",");
        pp_session_mark(s, c, stdout, c->format);   /* a marked machine file */
        printf("\"problem\":");
        pp_problem_json(stdout, m, &s->vals);
        printf(",\"P\":%d,\"t_real\":", P);
        pp_json_num(stdout, t / 1e9);
        printf(",\"params\":[");
        for (int i = 0; i < n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            pp_json_str(stdout, row_name(sv[i].par));
            printf(",\"value\":");
            pp_json_num(stdout, sv[i].value);
            printf(",\"unit\":");
            pp_json_str(stdout, sv[i].par->kind == PP_PAR_SPEED ? "" : pp_unit_name(sv[i].par->unit));
            printf(",\"dT_dbeta\":");
            pp_json_num(stdout, sv[i].dT);
            printf(",\"elasticity\":");
            pp_json_num(stdout, sv[i].elasticity);
            printf(",\"elasticity_below\":");
            pp_json_num(stdout, sv[i].elast_below);
            printf(",\"elasticity_above\":");
            pp_json_num(stdout, sv[i].elast_above);
            printf(",\"kink\":%s,\"used\":%s,\"one_sided\":%s}", sv[i].kink ? "true" : "false",
                   sv[i].used ? "true" : "false", sv[i].one_sided ? "true" : "false");
        }
        printf("],\"elasticity_sum\":");
        pp_json_num(stdout, ntime ? esum : NAN);
        printf("}");
        return;
    }
    char b[64], v[64], sl[160];
    char w[1024] = "";
    if (s->has_with)
        pp_whatif_text(&c->with, w, sizeof w);
    printf("%sproblem:%s   P=%d   machine: %s%s%s\n", first ? "" : "\n", prob, P,
           c->machine ? c->machine : "built-in defaults", s->has_with ? " with " : "", w);
    printf("  T_real %s\n", pp_fmt_time(t, b, sizeof b));
    printf("  %-22s %-12s %-52s %s\n", "parameter", "value", "dT/dbeta", "elasticity");
    int nunused = 0;
    for (int i = 0; i < n; i++) {
        if (!sv[i].used) {
            nunused++;
            continue;
        }
        value_text(&sv[i], v, sizeof v);
        slope_text(&sv[i], sl, sizeof sl);
        printf("  %-22s %-12s %-52s %+.4f%s", row_name(sv[i].par), v, sl, sv[i].elasticity,
               sv[i].one_sided ? " (at 0: one-sided)" : "");
        if (sv[i].kink)
            printf(" (kink: %+.4f below, %+.4f above)", sv[i].elast_below, sv[i].elast_above);
        printf("\n");
    }
    if (nunused) {
        printf("  not moving T here:");
        for (int i = 0, k = 0; i < n; i++)
            if (!sv[i].used)
                printf("%s %s", k++ ? "," : "", row_name(sv[i].par));
        printf("\n");
    }
    if (ntime && !c->params)
        printf("  the times' elasticities sum to %.4f (1 when every time the prediction adds is one of them)\n",
               esum);
    /* Euler's sum holds where T is differentiable: at a kink the central
     * difference averages two slopes, and the sum may be off by the jump */
    if (nkink)
        printf("  T has a kink here in %d of the times (the critical path changes within 1%% of them): their "
               "central differences average the slopes below and above, and the sum need not be 1\n", nkink);
}

/* The y of --plot for a slope: T per 1 us of a time (s), bytes for G,
 * seconds otherwise. */
static double plot_y(const pp_par_info *p, double dT)
{
    if (p->kind != PP_PAR_SPEED && p->unit == PP_UNIT_NS)
        return dT * 1e3 / 1e9;
    if (p->kind != PP_PAR_SPEED && p->unit == PP_UNIT_NS_PER_BYTE)
        return dT;
    return dT / 1e9;
}

static const char *plot_ylabel(const pp_par_info *p, char *buf, size_t n)
{
    if (p->kind == PP_PAR_SPEED)
        snprintf(buf, n, "computation on the critical path (s)");
    else if (p->unit == PP_UNIT_NS)
        snprintf(buf, n, "increase of T (s) per 1 us of %s", p->name);
    else if (p->unit == PP_UNIT_NS_PER_BYTE)
        snprintf(buf, n, "bytes on the critical path (dT/d %s)", p->name);
    else
        snprintf(buf, n, "dT/d %s (s)", p->name);
    return buf;
}

/* --plot: y[a * nP + i] at along value a (x) and P index i, one line per
 * P; without --along, x = P and one line.  FILE.dat, FILE.gp beside. */
static int write_plot(const pp_cli *c, const along_t *al, const pp_par_info *par, const double *y, char *err,
                      size_t errlen)
{
    char dir[900], base[500], path[1420], name[520], lab[200];
    const char *svg = c->plot;
    pp_plot_names(svg, dir, sizeof dir, base, sizeof base);
    int nP = c->nP ? c->nP : 1, na = c->along ? al->n : 1;
    snprintf(path, sizeof path, "%s/%s.dat", dir, base);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (c->along) {
        /* one block per P, separated by two blank lines (gnuplot's index) */
        for (int i = 0; i < nP; i++) {
            fprintf(f, "# P=%d: %s dT/dbeta\n", c->nP ? c->P[i] : 0, al->name);
            for (int a = 0; a < na; a++)
                fprintf(f, "%ld %.9g\n", al->v[a], y[a * nP + i]);
            fprintf(f, "\n\n");
        }
    } else
        for (int i = 0; i < nP; i++)
            fprintf(f, "%d %.9g\n", c->nP ? c->P[i] : 0, y[i]);
    if (fclose(f) != 0) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s.gp", dir, base);
    f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "set terminal svg size 720,480 dynamic background rgb 'white'\nset output ");
    snprintf(name, sizeof name, "%s.svg", base);
    pp_gp_str(f, name);
    snprintf(lab, sizeof lab, "Sensitivity of the predicted time to %s", par->kind == PP_PAR_SPEED ? "computation" : par->name);
    fprintf(f, "\nset title ");
    pp_gp_str(f, lab);
    fprintf(f, "\nset xlabel ");
    pp_gp_str(f, c->along ? al->name : "P (processors)");
    fprintf(f, "\nset ylabel ");
    pp_gp_str(f, plot_ylabel(par, lab, sizeof lab));
    fprintf(f, "\nset key top left\nset grid\nset logscale x 2\n");
    snprintf(name, sizeof name, "%s.dat", base);
    if (c->along) {
        fprintf(f, "plot ");
        for (int i = 0; i < nP; i++) {
            fprintf(f, "%s", i ? ", \\\n     " : "");
            pp_gp_str(f, name);
            fprintf(f, " index %d using 1:2 with linespoints pt 7 title 'P = %d'", i, c->nP ? c->P[i] : 0);
        }
        fprintf(f, "\n");
    } else {
        fprintf(f, "plot ");
        pp_gp_str(f, name);
        fprintf(f, " using 1:2 with linespoints pt 7 notitle\n");
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return pp_plot_render(svg, dir, base, err, errlen);
}

int pp_cmd_sensitivity(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "sensitivity",
                          "set,machine,P,format,cache-rule,insitu,cost-quantile,with,param,along,plot", usage, &c);
    if (st >= 0)
        return st;
    int which[64];
    int nw = pick(c.params, which, err, sizeof err);
    along_t al = {0};
    if (nw == 0 && c.plot) {
        nw = -1;
        snprintf(err, sizeof err, "--plot draws one parameter: give it with --param");
    } else if (nw > 1 && c.plot) {
        nw = -1;
        snprintf(err, sizeof err, "--plot draws one parameter: give one with --param (e.g. --param mpi.latency)");
    }
    if (nw >= 0 && c.plot && pp_plot_dir_ok(c.plot, err, sizeof err))
        nw = -1;
    if (nw < 0 || (c.along && parse_along(c.along, &al, err, sizeof err))) {
        fprintf(stderr, "perfpred sensitivity: %s\n%s", err, usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    if ((st = pp_cli_open("sensitivity", &c, 1, &s)) >= 0) {
        free(al.v);
        return st;
    }
    pp_prog *m = &s.prog;
    int rc = 0;
    char hint[512];
    if (c.along && pp_prog_param_index(m, al.name) < 0) {
        if (pp_prog_derived_hint(m, al.name, hint, sizeof hint) == 0)
            fprintf(stderr, "perfpred sensitivity: --along %s: %s\n", al.name, hint);
        else
            fprintf(stderr, "perfpred sensitivity: --along %s: no such parameter in %s\n", al.name, s.rec.path);
        rc = 2;
    }
    pp_sens *sv = calloc((size_t)nw + 1, sizeof *sv);
    if (!sv) {
        fprintf(stderr, "perfpred sensitivity: out of memory\n");
        rc = 1;
    }
    int nP = c.nP ? c.nP : 1;
    int na = c.along ? al.n : 1;
    double *ys = c.plot ? calloc((size_t)(nP * na), sizeof *ys) : NULL;
    if (c.plot && !ys) {
        fprintf(stderr, "perfpred sensitivity: out of memory\n");
        rc = 1;
    }
    if (rc == 0 && c.format != PP_FMT_JSON)   /* a marked machine file: the first line */
        pp_session_mark(&s, &c, stdout, c.format);
    if (rc == 0 && c.format == PP_FMT_CSV)
        printf("problem,P,t_real_s,parameter,value,unit,dT_dbeta,elasticity,one_sided\n");
    if (rc == 0 && c.format == PP_FMT_JSON)
        printf("[");
    for (int a = 0; rc == 0 && a < na; a++) {
        if (c.along && pp_vals_set(m, &s.vals, al.name, al.v[a], err, sizeof err)) {
            fprintf(stderr, "perfpred sensitivity: --along %s=%ld: %s\n", al.name, al.v[a], err);
            rc = 2;
            break;
        }
        /* a value outside the program's domain (domain.h) */
        if (c.along && pp_domain_check(m, &s.vals, "--along", err, sizeof err, NULL, 0)) {
            fprintf(stderr, "perfpred sensitivity: %s\n", err);
            rc = 2;
            break;
        }
        for (int i = 0; rc == 0 && i < nP; i++) {
            int P = c.nP ? c.P[i] : pp_prog_default_P(m, &s.vals);
            double t;
            if (pp_predict_real(m, &s.vals, &s.mach, P, &t, err, sizeof err) ||
                pp_sensitivity(m, &s.vals, &s.mach, P, t, which, nw, sv, pp_cli_progress, NULL, err, sizeof err)) {
                fprintf(stderr, "perfpred sensitivity: %s: %s\n", s.rec.path, err);
                rc = 2;
                break;
            }
            if (ys)
                ys[a * nP + i] = plot_y(sv[0].par, sv[0].dT);
            emit(&c, &s, P, t, sv, nw, a == 0 && i == 0);
        }
    }
    if (c.format == PP_FMT_JSON && rc == 0)
        printf("]\n");
    if (rc == 0 && c.plot && write_plot(&c, &al, pp_par_get(which[0]), ys, err, sizeof err)) {
        fprintf(stderr, "perfpred sensitivity: %s\n", err);
        rc = 2;
    }
    free(ys);
    free(sv);
    free(al.v);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
