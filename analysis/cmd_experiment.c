/* cmd_experiment.c - `perfpred run-experiment FILE [-o DIR] [--format
 * text|csv|json] [--machine FILE]`: every variant of an experiment file
 * (docs/experiment-format.md) predicted at every point of its stepped
 * parameters, with speedup and efficiency, and the crossover points of
 * T_real between every two variants along each stepped parameter (Mohr et
 * al. 1995, speedy, section 5: MatMul's (BLOCK, WHOLE) against (BLOCK,
 * BLOCK)).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "domain.h"
#include "experiment-run.h"
#include "point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred run-experiment FILE [-o DIR] [--format text|csv|json] [--machine FILE]\n"
    "  Runs the experiment FILE describes (docs/experiment-format.md): each variant's\n"
    "  records predicted at every point of the stepped parameters (their cross\n"
    "  product) on the MIRACLE, PRAM and real machines, with speedup = T_real at P = 1\n"
    "  over T_real (of the variant itself, or of the file's baseline variant) and\n"
    "  efficiency = speedup / P; then, for every two variants, where their T_real\n"
    "  curves cross along each stepped parameter (refined by bisection on the\n"
    "  integers between two points), and which one is faster on each side.\n"
    "  The tables go to stdout in --format; with -o DIR (or the file's 'output')\n"
    "  DIR also gets them as text, CSV and JSON, and SVG plots of time, speedup and\n"
    "  efficiency against P drawn by gnuplot (with their data and .gp scripts).\n"
    "  --machine FILE replaces the file's 'machine'.\n";

int pp_xrun_stride(const pp_xrun *r, int k)
{
    int s = 1;
    for (int j = r->nord - 1; j >= 0 && r->ord[j] != k; j--)
        s *= r->x.step[r->ord[j]].n;
    return s;
}

void pp_xrun_coords(const pp_xrun *r, int i, long *val)
{
    for (int j = r->nord - 1; j >= 0; j--) {
        const pp_exp_step *s = &r->x.step[r->ord[j]];
        val[r->ord[j]] = s->v[i % s->n];
        i /= s->n;
    }
}

int pp_xrun_group(const pp_xrun *r, int i)
{
    int ip = pp_exp_step_index(&r->x, "P");
    return ip >= 0 ? i / r->x.step[ip].n : i;
}

void pp_xrun_label(const pp_xrun *r, int i, int skip, char *buf, size_t n)
{
    long val[PP_EXP_MAXSTEP];
    pp_xrun_coords(r, i, val);
    size_t o = 0;
    buf[0] = 0;
    for (int j = 0; j < r->nord && o < n; j++)
        if (r->ord[j] != skip)
            o += (size_t)snprintf(buf + o, n - o, "%s%s=%ld", o ? " " : "", r->x.step[r->ord[j]].name,
                                  val[r->ord[j]]);
}

/* The parameters of variant xv at the stepped values val (P = Pover
 * instead when Pover > 0) into at: the stepped problem parameters, then
 * the experiment's sets, then the variant's.  *P: the processor count. */
static int apply(const pp_xrun *r, pp_xvar *xv, const long *val, long Pover, pp_vals *at, int *P, char *err,
                 size_t errlen)
{
    const pp_experiment *x = &r->x;
    const pp_prog *m = &xv->s.prog;
    const char *names[PP_EXP_MAXSTEP + 1];
    long vals[PP_EXP_MAXSTEP + 1];
    int nn = 0, pstep = pp_exp_step_index(x, "P");
    char e[1024];
    for (int k = 0; k < x->nstep; k++) {
        names[nn] = x->step[k].name;
        vals[nn++] = k == pstep && Pover > 0 ? Pover : val[k];
        if (k != pstep && pp_vals_set(m, at, x->step[k].name, val[k], e, sizeof e)) {
            snprintf(err, errlen, "%s:%ld: step %s: %s", x->path, x->step[k].line, x->step[k].name, e);
            return -1;
        }
    }
    if (pstep < 0) {
        names[nn] = "P";
        vals[nn++] = Pover > 0 ? Pover : xv->P_default;
    }
    for (int pass = 0; pass < 2; pass++) {
        const pp_exp_set *set = pass ? xv->v->set : x->set;
        int nset = pass ? xv->v->nset : x->nset;
        for (int i = 0; i < nset; i++) {
            long v;
            if (pp_iexpr_eval(set[i].e, names, vals, nn, &v, e, sizeof e) ||
                pp_vals_set(m, at, set[i].name, v, e, sizeof e)) {
                snprintf(err, errlen, "%s:%ld: set %s = %s: %s", x->path, set[i].line, set[i].name, set[i].text, e);
                return -1;
            }
        }
    }
    /* values outside the program's domain (domain.h) */
    if (pp_domain_check(m, at, "step/set", e, sizeof e, NULL, 0)) {
        snprintf(err, errlen, "%s: %s", x->path, e);
        return -1;
    }
    long p = Pover > 0 ? Pover : pstep >= 0 ? val[pstep] : pp_prog_default_P(m, at);
    if (p < 1 || p > 1000000) {
        snprintf(err, errlen, "P = %ld: the processor count must be 1 to 1000000", p);
        return -1;
    }
    *P = (int)p;
    return 0;
}

/* One prediction of variant xv: with pt, the whole point (T1 given:
 * t1); else T_real alone into *treal. */
static int predict_at(pp_xrun *r, pp_xvar *xv, const long *val, long Pover, double t1, int draws, pp_xpoint *pt,
                      double *treal, char *err, size_t errlen)
{
    pp_prog *m = &xv->s.prog;
    pp_vals at;
    if (pp_vals_copy(&at, m, &xv->s.vals)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int P = 0, rc;
    char e[1536];
    if ((rc = apply(r, xv, val, Pover, &at, &P, e, sizeof e)) == 0) {
        if (pt) {
            pt->P = P;
            rc = pp_point_predict(m, &at, &xv->s.mach, P, t1, draws, &pt->mt, &pt->iv, &pt->has_iv, e,
                                  sizeof e);
            if (rc == 0 && !(pt->vals = malloc(sizeof *pt->vals * (size_t)(m->nparams ? m->nparams : 1)))) {
                snprintf(e, sizeof e, "out of memory");
                rc = -1;
            }
            for (int i = 0; rc == 0 && i < m->nparams; i++)
                pt->vals[i] = at.v[i];
            pt->ok = rc == 0;
        } else
            rc = pp_predict_real(m, &at, &xv->s.mach, P, treal, e, sizeof e);
    }
    pp_vals_free(&at);
    r->npred++;
    if (rc) {
        char where[256];
        long v2[PP_EXP_MAXSTEP];
        memcpy(v2, val, sizeof v2);
        int ip = pp_exp_step_index(&r->x, "P");
        if (ip >= 0 && Pover > 0)
            v2[ip] = Pover;
        size_t o = 0;
        where[0] = 0;
        for (int k = 0; k < r->x.nstep && o < sizeof where; k++)
            o += (size_t)snprintf(where + o, sizeof where - o, " %s=%ld", r->x.step[k].name, v2[k]);
        if (ip < 0 && P > 0 && o < sizeof where)
            snprintf(where + o, sizeof where - o, " P=%d", P);
        snprintf(err, errlen, "variant %s at%s: %s", xv->v->name, where[0] ? where : " its recorded point", e);
    }
    return rc;
}

/* total 0: the crossovers' bisections, whose number is not known */
static void progress(const pp_xrun *r, long total)
{
    pp_cli_progress(NULL, total ? "run-experiment: predictions" : "run-experiment: crossovers, predictions",
                    (int)r->npred, (int)(total ? total : r->npred));
}

static int param_list(const pp_prog *m, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < m->nparams && o < n; i++)
        if (pp_problem_shown(m, i) || (m->pkind == PP_P_PARAM && i == m->p_param))
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", m->params[i].name);
    return 0;
}

/* Open every variant's records; check the parameters the file names. */
static int open_variants(pp_xrun *r, char *err, size_t errlen)
{
    pp_experiment *x = &r->x;
    r->var = calloc((size_t)x->nvar, sizeof *r->var);
    if (!r->var) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->nvar = x->nvar;
    if (!r->machine)
        fprintf(stderr, "perfpred run-experiment: no machine (a 'machine = FILE' line or --machine): the real "
                        "machine uses built-in default costs (run 'perfpred calibrate -o host.machine' for this "
                        "host's)\n");
    for (int i = 0; i < x->nvar; i++) {
        pp_xvar *xv = &r->var[i];
        xv->v = &x->var[i];
        pp_cli c;
        memset(&c, 0, sizeof c);
        c.nrec = xv->v->nrec;
        c.rec = xv->v->rec;
        c.machine = r->machine;
        c.cache_rule = x->cache_rule;
        c.model_error = x->model_error;
        c.cost_quantile = -1;
        c.insitu_off = x->insitu_off;
        c.quiet_default = 1;
        /* the experiment's what-if changes, then the variant's */
        c.with = x->with;
        for (int k = 0; k < xv->v->with.n && c.with.n < PP_WHATIF_MAX; k++)
            c.with.ov[c.with.n++] = xv->v->with.ov[k];
        xv->with = c.with;
        char e[2048];
        if (pp_session_open(&xv->s, &c, 1, e, sizeof e)) {
            snprintf(err, errlen, "%s:%ld: variant %s: %s", x->path, xv->v->rec_line, xv->v->name, e);
            return -1;
        }
        xv->open = 1;
        if (i == 0 && r->machine)   /* a marked machine file, once */
            pp_machine_busy_warn(stderr, "run-experiment", r->machine, &xv->s.mach);
        pp_prog *m = &xv->s.prog;
        for (int w = 0; w < m->nwarn; w++)
            fprintf(stderr, "perfpred run-experiment: variant %s: warning: %s\n", xv->v->name, m->warn[w]);
        xv->P_default = pp_prog_default_P(m, &xv->s.vals);
        char names[512];
        param_list(m, names, sizeof names);
        for (int k = 0; k < x->nstep; k++)
            if (strcmp(x->step[k].name, "P") && pp_prog_param_index(m, x->step[k].name) < 0) {
                snprintf(err, errlen, "%s:%ld: step %s: variant %s has no parameter '%s' (its parameters: %s)",
                         x->path, x->step[k].line, x->step[k].name, xv->v->name, x->step[k].name, names);
                return -1;
            }
        xv->set_name = calloc((size_t)(x->nset + xv->v->nset) + 1, sizeof *xv->set_name);
        xv->set_param = calloc((size_t)(x->nset + xv->v->nset) + 1, sizeof *xv->set_param);
        if (!xv->set_name || !xv->set_param) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (int pass = 0; pass < 2; pass++) {
            const pp_exp_set *set = pass ? xv->v->set : x->set;
            int nset = pass ? xv->v->nset : x->nset;
            for (int s = 0; s < nset; s++) {
                int pi = pp_prog_param_index(m, set[s].name);
                if (pi < 0) {
                    snprintf(err, errlen, "%s:%ld: set %s: variant %s has no parameter '%s' (its parameters: %s)",
                             x->path, set[s].line, set[s].name, xv->v->name, set[s].name, names);
                    return -1;
                }
                int dup = pp_exp_step_index(x, set[s].name) >= 0;
                for (int j = 0; j < xv->nset; j++)
                    dup |= !strcmp(xv->set_name[j], set[s].name);
                if (!dup) {
                    xv->set_name[xv->nset] = set[s].name;
                    xv->set_param[xv->nset++] = pi;
                }
            }
        }
    }
    return 0;
}

/* The crossover finder's d(x): T_real of a minus b, the line's other
 * coordinates fixed. */
typedef struct {
    pp_xrun *r;
    const pp_xline *l;
} dctx;

static int diff_at(void *vp, long xv, double *d, char *err, size_t errlen)
{
    dctx *c = vp;
    long val[PP_EXP_MAXSTEP];
    pp_xrun_coords(c->r, c->l->first, val);
    val[c->l->k] = xv;
    double ta, tb;
    if (predict_at(c->r, &c->r->var[c->l->a], val, 0, 0, 0, NULL, &ta, err, errlen) ||
        predict_at(c->r, &c->r->var[c->l->b], val, 0, 0, 0, NULL, &tb, err, errlen))
        return -1;
    progress(c->r, 0);
    *d = ta - tb;
    return 0;
}

static int crossovers(pp_xrun *r, char *err, size_t errlen)
{
    const pp_experiment *x = &r->x;
    for (int k = 0; k < x->nstep; k++) {
        int n = x->step[k].n, stride = pp_xrun_stride(r, k);
        if (n < 2)
            continue;
        for (int a = 0; a < r->nvar; a++)
            for (int b = a + 1; b < r->nvar; b++)
                for (int i = 0; i < r->npts; i++) {
                    if ((i / stride) % n != 0)
                        continue;   /* not the first point of a line along k */
                    pp_xline *nl = realloc(r->line, sizeof *nl * (size_t)(r->nline + 1));
                    if (!nl) {
                        snprintf(err, errlen, "out of memory");
                        return -1;
                    }
                    r->line = nl;
                    pp_xline *l = &nl[r->nline++];
                    memset(l, 0, sizeof *l);
                    l->a = a;
                    l->b = b;
                    l->k = k;
                    l->first = i;
                    double *d = malloc(sizeof *d * (size_t)n);
                    l->x = malloc(sizeof *l->x * (size_t)n);
                    if (!d || !l->x) {
                        free(d);
                        snprintf(err, errlen, "out of memory");
                        return -1;
                    }
                    l->rmin = INFINITY;
                    for (int j = 0; j < n; j++) {
                        double ta = r->var[a].pt[i + j * stride].mt.t_real;
                        double tb = r->var[b].pt[i + j * stride].mt.t_real;
                        d[j] = ta - tb;
                        if (!l->sign && d[j] != 0)
                            l->sign = d[j] < 0 ? -1 : 1;
                        double rel = fmax(ta, tb) > 0 ? fabs(d[j]) / fmax(ta, tb) : 0;
                        l->rmin = fmin(l->rmin, rel);
                        l->rmax = fmax(l->rmax, rel);
                    }
                    dctx c = {r, l};
                    l->n = pp_xover_find(x->step[k].v, d, n, diff_at, &c, l->x, n, err, errlen);
                    free(d);
                    if (l->n < 0)
                        return -1;
                }
    }
    return 0;
}

static int run(pp_xrun *r, char *err, size_t errlen)
{
    const pp_experiment *x = &r->x;
    int draws = (x->outputs & PP_XO_INTERVAL) ? x->draws : 0;
    long total = (long)r->nvar * (r->npts + r->ngroups);
    /* P = 1 of every group: T1 and the speedups' base */
    for (int v = 0; v < r->nvar; v++) {
        pp_xvar *xv = &r->var[v];
        xv->pt = calloc((size_t)r->npts, sizeof *xv->pt);
        xv->t1 = calloc((size_t)r->ngroups, sizeof *xv->t1);
        xv->treal1 = calloc((size_t)r->ngroups, sizeof *xv->treal1);
        if (!xv->pt || !xv->t1 || !xv->treal1) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (int g = 0; g < r->ngroups; g++) {
            long val[PP_EXP_MAXSTEP];
            pp_xrun_coords(r, g * (r->npts / r->ngroups), val);
            pp_xpoint one;
            memset(&one, 0, sizeof one);
            char e[2048];
            if (predict_at(r, xv, val, 1, 0, 0, &one, NULL, e, sizeof e) == 0) {
                xv->t1[g] = one.mt.t1;
                xv->treal1[g] = one.mt.t_real;
            } else {
                xv->treal1[g] = NAN;
                if (!xv->base_err[0])
                    snprintf(xv->base_err, sizeof xv->base_err, "%s", e);
            }
            free(one.vals);
            progress(r, total);
        }
        if (xv->base_err[0])
            fprintf(stderr, "perfpred run-experiment: variant %s: no prediction at P = 1 (%s): its speedup and "
                            "efficiency are not given there, and its T1 is predict's\n", xv->v->name, xv->base_err);
    }
    int base = -1;
    for (int v = 0; x->baseline && v < r->nvar; v++)
        if (!strcmp(r->var[v].v->name, x->baseline))
            base = v;
    for (int v = 0; v < r->nvar; v++) {
        pp_xvar *xv = &r->var[v];
        const pp_xvar *bv = base >= 0 ? &r->var[base] : xv;
        for (int i = 0; i < r->npts; i++) {
            long val[PP_EXP_MAXSTEP];
            pp_xrun_coords(r, i, val);
            pp_xpoint *pt = &xv->pt[i];
            int g = pp_xrun_group(r, i);
            if (predict_at(r, xv, val, 0, xv->t1[g], draws, pt, NULL, err, errlen))
                return -1;
            pt->speedup = bv->treal1[g] / pt->mt.t_real;
            pt->eff = pt->speedup / pt->P;
            progress(r, total);
        }
    }
    int rc = crossovers(r, err, errlen);
    pp_cli_progress(NULL, NULL, 0, 0);
    return rc;
}

static void xrun_free(pp_xrun *r)
{
    for (int v = 0; v < r->nvar; v++) {
        pp_xvar *xv = &r->var[v];
        for (int i = 0; xv->pt && i < r->npts; i++)
            free(xv->pt[i].vals);
        free(xv->pt);
        free(xv->t1);
        free(xv->treal1);
        free(xv->set_name);
        free(xv->set_param);
        if (xv->open)
            pp_session_close(&xv->s);
    }
    free(r->var);
    for (int i = 0; i < r->nline; i++)
        free(r->line[i].x);
    free(r->line);
    pp_exp_free(&r->x);
}

int pp_cmd_experiment(int argc, char **argv)
{
    pp_cli c;
    char err[4096];
    int st = pp_cli_start(argc, argv, "run-experiment", "o,format,machine", usage, &c);
    if (st >= 0)
        return st;
    if (c.nrec != 1) {
        fprintf(stderr, "perfpred run-experiment: %s\n%s",
                c.nrec ? "give one experiment file" : "no experiment file given", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_xrun r;
    memset(&r, 0, sizeof r);
    if (pp_exp_load(c.rec[0], &r.x, err, sizeof err)) {
        fprintf(stderr, "perfpred run-experiment: %s\n", err);
        pp_cli_free(&c);
        return 2;
    }
    r.machine = c.machine ? c.machine : r.x.machine;
    const char *outdir = c.out ? c.out : r.x.outdir;
    /* the steps from the slowest to the fastest, P last (the groups);
     * the plots' x: P when it has two values or more */
    int ip = pp_exp_step_index(&r.x, "P");
    r.xstep = ip >= 0 && r.x.step[ip].n >= 2 ? ip : -1;
    r.npts = 1;
    for (int k = 0; k < r.x.nstep; k++) {
        r.npts *= r.x.step[k].n;
        if (r.xstep < 0 && r.x.step[k].n >= 2)
            r.xstep = k;
        if (k != ip)
            r.ord[r.nord++] = k;
    }
    if (ip >= 0)
        r.ord[r.nord++] = ip;
    r.ngroups = ip >= 0 ? r.npts / r.x.step[ip].n : r.npts;
    int rc = 0;
    if (open_variants(&r, err, sizeof err) || run(&r, err, sizeof err)) {
        fprintf(stderr, "perfpred run-experiment: %s\n", err);
        rc = 2;
    }
    if (rc == 0)
        pp_xrun_print(stdout, &r, c.format);
    if (rc == 0 && outdir) {
        int w = pp_xrun_write(&r, outdir, err, sizeof err);
        if (w) {
            fprintf(stderr, "perfpred run-experiment: %s\n", err);
            rc = w == 2 ? 1 : 2;
        }
    }
    xrun_free(&r);
    pp_cli_free(&c);
    return rc;
}
