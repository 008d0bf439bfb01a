/* report-sections.c - the report's sections on the predictions: the
 * summary, the times per P with their intervals, the plots, the MPI
 * shares, the thread graph, the scalability tables and the sensitivity.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "predict-out.h"
#include "report.h"
#include "sensitivity.h"
#include "tgraph.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(pp_rep_ctx *x, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(pp_rep_ctx *x, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, sizeof x->err, fmt, ap);
    va_end(ap);
    x->rc = rc;
    return -1;
}


int pp_rep_predict_all(pp_rep_ctx *x)
{
    pp_prog *m = &x->s->prog;
    char err[1536];
    x->nkinds = pp_mpi_kinds(&x->s->prog, x->kinds);
    for (int i = 0; i < x->nP; i++) {
        pp_rep_pred *p = &x->pred[i];
        pp_rep_progress("predicting P = %d (%d of %d)%s", x->P[i], i + 1, x->nP,
                        pp_interval_wanted(x->draws) ? ", with its interval" : "");
        if (pp_predict(m, &x->s->vals, &x->s->mach, x->P[i], &p->mt, err, sizeof err)) {
            snprintf(x->err, sizeof x->err, "%s: at P = %d: %s", x->s->rec.path, x->P[i], err);
            x->rc = 2;
            return -1;
        }
        if (pp_interval_wanted(x->draws)) {
            if (pp_predict_interval(m, &x->s->vals, &x->s->mach, x->P[i], &p->mt, x->draws, &p->iv, err,
                                    sizeof err)) {
                snprintf(x->err, sizeof x->err, "%s: the interval at P = %d: %s", x->s->rec.path, x->P[i], err);
                x->rc = 2;
                return -1;
            }
            p->has_iv = p->iv.lo <= p->iv.hi;
        }
    }
    return 0;
}

/* "I = 48, J = 48": the problem size of table column j. */
static void chi_text(const pp_prog *m, const pp_scale_table *tb, int j, char *buf, size_t n)
{
    buf[0] = 0;
    for (int k = 0; k < tb->nscale; k++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s = %ld", k ? ", " : "", m->params[tb->scale_param[k]].name,
                 tb->chi[j][k]);
}

/* What limits the program at the largest P (as tools/report-helper.pl's
 * index says): E = E_a (E/E_a), the algorithm's part and the machine's. */
int pp_rep_sec_summary(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_metrics *last = &x->pred[x->nP - 1].mt;
    double mach = last->Ea > 0 ? last->E / last->Ea : 0;
    char b1[32], b2[32];
    pp_rep_h2(d, "summary", "Summary");
    const char *who;
    double ea_t = x->c->has_Ea ? x->c->Ea : 0.7, e_t = x->c->has_E ? x->c->E : 0.25;
    if (last->Ea >= ea_t && last->E >= e_t)
        who = "neither the algorithm nor the machine limits it yet";
    else if (last->Ea <= mach)
        who = "**the algorithm** limits it";
    else
        who = "**the machine** limits it";
    pp_rep_para(d, "At P = %d, %s: E_a = %.3f (the PRAM takes %.2fx the MIRACLE time: serial parts, load imbalance "
                   "and dependences), E/E_a = %.3f (the real machine takes %.2fx the PRAM time: synchronisation, "
                   "communication and memory), so E = %.3f. T_real = %s against T_MIRACLE = T_1/P = %s.",
                last->P, who, last->Ea, last->Ea > 0 ? 1 / last->Ea : 0, mach, mach > 0 ? 1 / mach : 0, last->E,
                pp_fmt_time(last->t_real, b1, sizeof b1), pp_fmt_time(last->t_mir, b2, sizeof b2));
    int fa = -1, fe = -1;
    for (int i = x->nP - 1; i >= 0; i--) {
        if (x->pred[i].mt.Ea < ea_t)
            fa = i;
        if (x->pred[i].mt.E < e_t)
            fe = i;
    }
    char sa[64], se[64];
    snprintf(sa, sizeof sa, fa >= 0 ? "from P = %d" : "at no P predicted", fa >= 0 ? x->P[fa] : 0);
    snprintf(se, sizeof se, fe >= 0 ? "from P = %d" : "at no P predicted", fe >= 0 ? x->P[fe] : 0);
    pp_rep_para(d, "E_a falls below %g %s; E falls below %g %s.", ea_t, sa, e_t, se);
    for (int t = 0; t < x->ntab; t++) {
        const pp_scale_table *tb = &x->tab[t];
        int n = 0, j0 = -1, j1 = -1;
        for (int j = 0; j < tb->nP; j++)
            if (tb->found[j]) {
                n++;
                j1 = j;
                if (j0 < 0)
                    j0 = j;
            }
        const char *ef = tb->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E";
        if (!n) {
            pp_rep_para(d, "Holding %s = %g is not possible at any P of the table on this scaling path.", ef,
                        tb->target);
            continue;
        }
        char at0[256], at1[256], and[300] = "";
        chi_text(&x->s->prog, tb, j0, at0, sizeof at0);
        chi_text(&x->s->prog, tb, j1, at1, sizeof at1);
        if (j1 != j0)
            snprintf(and, sizeof and, " and %s at P = %d", at1, tb->P[j1]);
        pp_rep_para(d, "Holding %s = %g needs %s at P = %d%s (%d of %d P reach it; see the scalability tables).", ef,
                    tb->target, at0, tb->P[j0], and, n, tb->nP);
    }
    return 0;
}

int pp_rep_sec_predictions(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_prog *m = &x->s->prog;
    pp_rep_h2(d, "predictions", "Predictions per P");
    pp_rep_para(d, "T_MIRACLE = T_1/P (linear speedup; T_1 the work of one thread), T_PRAM: the thread graph walked "
                   "with the work's costs only (no synchronisation or communication cost, no fixed cost per "
                   "segment), T_real: walked on the machine. L_a = T_PRAM - T_MIR and L = T_real - T_MIR "
                   "are the algorithmic and parallel latencies, E_a = T_MIR/T_PRAM and E = T_MIR/T_real the "
                   "efficiencies (Zhang & Xu, eqs. 2-6).%s",
                pp_interval_wanted(x->draws)
                    ? " The 90% interval of T_real adds the fitted costs', the host's and the model's relative "
                      "errors (`perfpred predict --help`)."
                    : " No intervals (`--draws 0`).");
    pp_rep_table *t = pp_rep_table_new(d, "predictions", "Predicted times, latencies and efficiencies", PP_RC_N);
    x->tpred = t;
    static const char *head[PP_RC_N] = {"P", "T_MIRACLE", "T_PRAM", "T_real", "T_real 90% low",
                                        "T_real 90% high", "L_a", "L", "E_a", "E", "speedup PRAM",
                                        "speedup real"};
    for (int c = 0; c < PP_RC_N; c++)
        pp_rep_col(t, c, head[c], 'r');
    int approx = 0, summed = 0;
    for (int i = 0; i < x->nP; i++) {
        const pp_metrics *mt = &x->pred[i].mt;
        const pp_rep_pred *p = &x->pred[i];
        approx |= mt->approx;
        summed |= mt->t1_summed;
        pp_rep_row(t);
        pp_rep_cell_num(t, PP_RC_P, "%.0f", mt->P);
        pp_rep_cell_time(t, PP_RC_TMIR, mt->t_mir);
        pp_rep_cell_time(t, PP_RC_TPRAM, mt->t_pram);
        pp_rep_cell_time(t, PP_RC_TREAL, mt->t_real);
        pp_rep_cell_time(t, PP_RC_LO, p->has_iv ? p->iv.lo : NAN);
        pp_rep_cell_time(t, PP_RC_HI, p->has_iv ? p->iv.hi : NAN);
        pp_rep_cell_time(t, PP_RC_LA, mt->La);
        pp_rep_cell_time(t, PP_RC_L, mt->L);
        pp_rep_cell_num(t, PP_RC_EA, "%.4f", mt->Ea);
        pp_rep_cell_num(t, PP_RC_E, "%.4f", mt->E);
        pp_rep_cell_num(t, PP_RC_SPRAM, "%.3g", mt->t_pram > 0 ? mt->t1 / mt->t_pram : NAN);
        pp_rep_cell_num(t, PP_RC_SREAL, "%.3g", mt->t_real > 0 ? mt->t1 / mt->t_real : NAN);
    }
    if (approx)
        pp_rep_para(d, "Some loop sums were sampled, not enumerated (very long loops): those times are close, not "
                       "exact.");
    if (summed)
        pp_rep_para(d, "The program cannot run on one rank with these parameters: T_1 (and T_MIR = T_1/P) is the "
                       "computation of the P ranks, summed.");
    if (!m->mpi)
        return 0;
    pp_rep_h3(d, "MPI: the share of the ranks' time per kind of call");
    pp_rep_para(d, "Time inside MPI calls on the real machine, summed over the ranks, over P T_real (Clement & "
                   "Quinn, Fig. 6, per kind of call).");
    t = pp_rep_table_new(d, "mpi-share", "Share of the time in MPI calls (%)", 2 + x->nkinds);
    x->tmpi = t;
    pp_rep_col(t, 0, "P", 'r');
    pp_rep_col(t, 1, "all MPI calls", 'r');
    for (int k = 0; k < x->nkinds; k++)
        pp_rep_col(t, 2 + k, pp_evkind_name(x->kinds[k]), 'r');
    long unmatched = 0;
    for (int i = 0; i < x->nP; i++) {
        const pp_metrics *mt = &x->pred[i].mt;
        pp_rep_row(t);
        pp_rep_cell_num(t, 0, "%.0f", mt->P);
        pp_rep_cell_num(t, 1, "%.2f", 100 * pp_rank_share(mt, mt->mpi));
        for (int k = 0; k < x->nkinds; k++)
            pp_rep_cell_num(t, 2 + k, "%.2f", 100 * pp_rank_share(mt, mt->mpi_kind[x->kinds[k]]));
        if (mt->unmatched && !unmatched) {
            unmatched = mt->unmatched;
            pp_rep_para(d, "Warning at P = %d: %s", mt->P, mt->note);
        }
    }
    return 0;
}

int pp_rep_sec_plots(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    char err[1024];
    if (pp_rep_table_csv(x->tpred, x->dir, err, sizeof err) ||
        (x->tmpi && pp_rep_table_csv(x->tmpi, x->dir, err, sizeof err)))
        return fail(x, 2, "%s", err);
    pp_rep_h2(d, "plots", "Plots against P");
    if (pp_rep_plot_times(x))
        return -1;
    pp_rep_figure(d, "plot-time.svg", "Predicted time on MIRACLE (T_1/P), the PRAM and the real machine against P, "
                                      "with the 90% interval of T_real (log-log).");
    if (pp_rep_plot_speedup(x))
        return -1;
    pp_rep_figure(d, "plot-speedup.svg", "Speedup T_1/T on the PRAM and the real machine; MIRACLE's is P.");
    if (pp_rep_plot_efficiency(x))
        return -1;
    pp_rep_figure(d, "plot-efficiency.svg", "E_a (the algorithm: MIRACLE against PRAM) and E (algorithm and "
                                            "machine: MIRACLE against real) against P.");
    if (x->tmpi) {
        if (pp_rep_plot_mpi(x))
            return -1;
        pp_rep_figure(d, "plot-mpi-share.svg", "Share of the ranks' time in MPI calls, all and per kind of call, "
                                               "against P (Clement & Quinn, Fig. 6).");
    }
    return 0;
}

int pp_rep_sec_graph(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    pp_prog *m = &x->s->prog;
    char err[1024], path[4096];
    int P = x->graph_P;
    pp_rep_progress("thread graph at P = %d", P);
    pp_instance in;
    if (pp_instantiate(m, &x->s->vals, P, PP_INST_ACTIONS | PP_INST_STRUCT, &in, err, sizeof err)) {
        snprintf(x->err, sizeof x->err, "%s: the thread graph at P = %d: %s", x->s->rec.path, P, err);
        x->rc = 2;
        return -1;
    }
    Agraph_t *g = pp_tgraph_build(m, &in, err, sizeof err);
    int rc = 0;
    snprintf(path, sizeof path, "%s/thread-graph.svg", x->dir);
    pp_rep_note_file("thread-graph.svg");
    if (!g)
        rc = fail(x, 1, "the thread graph: %s", err);
    else if (pp_tgraph_write(g, PP_FMT_SVG, path, err, sizeof err))
        rc = fail(x, 1, "the thread graph: %s", err);
    pp_tgraph_free(g);
    pp_instance_free(&in);
    if (rc)
        return rc;
    pp_rep_h2(d, "graph", "Thread graph");
    pp_rep_para(d, "The thread graph at P = %d and the problem size of this report (Zhang & Xu, section 3.1; "
                   "docs/graph.md): one column per %s with its events in order, loops holding events drawn once "
                   "with their iteration counts, and the edges between threads (create, fork, join, barriers, "
                   "locks, messages).", P, m->mpi ? "rank" : "thread");
    char cap[128];
    snprintf(cap, sizeof cap, "Thread graph at P = %d.", P);
    pp_rep_figure(d, "thread-graph.svg", cap);
    return 0;
}

static void scale_table(pp_rep_ctx *x, const pp_scale_table *tb)
{
    const pp_prog *m = &x->s->prog;
    int alg = tb->kind == PP_SCALE_ALGORITHMIC;
    char cap[256];
    snprintf(cap, sizeof cap, "%s scalability, %s = %g%s (Zhang & Xu, Tables 1-10)", alg ? "Algorithmic" : "Combination",
             alg ? "E_a" : "E", tb->target, alg ? ": the algorithm (PRAM against MIRACLE)" : ": the real machine");
    pp_rep_table *t = pp_rep_table_new(x->doc, alg ? "scale-algorithmic" : "scale-combination", cap, 1 + tb->nP);
    pp_rep_col(t, 0, "P, P'", 'l');
    for (int j = 0; j < tb->nP; j++) {
        char h[32];
        snprintf(h, sizeof h, "%d", tb->P[j]);
        pp_rep_col(t, 1 + j, h, 'r');
    }
    for (int i = 0; i < tb->nP; i++) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%d", tb->P[i]);
        for (int j = 0; j < tb->nP; j++) {
            if (j < i)
                pp_rep_cell_set(t, 1 + j, "", "%s", "");
            else
                pp_rep_cell_num(t, 1 + j, "%.4g", tb->scale[i][j]);
        }
    }
    for (int k = 0; k < tb->nscale; k++) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, m->params[tb->scale_param[k]].name, "**%s**", m->params[tb->scale_param[k]].name);
        for (int j = 0; j < tb->nP; j++) {
            if (tb->found[j])
                pp_rep_cell_set(t, 1 + j, NULL, "%ld", tb->chi[j][k]);
            else if (tb->why[j] == PP_SCALE_LIMIT && tb->last[j] > 0 && k == 0)
                pp_rep_cell_set(t, 1 + j, "", "over %ld (%s)", tb->last[j],
                                !strcmp(pp_scale_limited_by(tb, j), "max") ? "--max" : "the search's limit");
            else
                pp_rep_cell_set(t, 1 + j, "", "unreachable");
        }
    }
    pp_rep_row(t);
    pp_rep_cell_set(t, 0, alg ? "L_a" : "L", "%s", alg ? "**L_a**" : "**L**");
    for (int j = 0; j < tb->nP; j++)
        pp_rep_cell_time(t, 1 + j, tb->found[j] ? tb->latency[j] : NAN);
}

static int scale_params(pp_rep_ctx *x, int *sp)
{
    pp_prog *m = &x->s->prog;
    for (int i = 0; i < x->c->nscale; i++) {
        const char *nm = x->c->scale[i];
        sp[i] = pp_prog_param_index(m, nm);
        if (sp[i] < 0)
            return fail(x, 2, "--scale %s: no such parameter in %s", nm, x->s->rec.path);
        if (m->pkind == PP_P_PARAM && sp[i] == m->p_param)
            return fail(x, 2, "--scale %s: that parameter is the thread count P", nm);
        if (x->s->vals.v[sp[i]] <= 0)
            return fail(x, 2, "--scale %s: its value is not positive", nm);
    }
    return 0;
}

int pp_rep_scale_compute(pp_rep_ctx *x)
{
    if (!x->c->nscale)
        return 0;
    pp_prog *m = &x->s->prog;
    int sp[32];
    if (x->c->nscale > 32)
        return fail(x, 2, "at most 32 --scale parameters");
    if (scale_params(x, sp))
        return -1;
    /* the report's problem size is the start of the path (as scale does
     * with --set) */
    char err[1536];
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        if ((k == 0 && !x->c->has_Ea) || (k == 1 && !x->c->has_E))
            continue;
        pp_rep_progress("%s scalability table", k == 0 ? "algorithmic" : "combination");
        if (pp_scale_compute(m, &x->s->vals, &x->s->mach, k == 0 ? PP_SCALE_ALGORITHMIC : PP_SCALE_COMBINATION,
                             k == 0 ? x->c->Ea : x->c->E, sp, x->c->nscale, x->sP, x->nsP, x->c->max_size, &x->tab[x->ntab],
                             pp_cli_progress, NULL, err, sizeof err))
            rc = fail(x, 2, "%s: the scalability table: %s", x->s->rec.path, err);
        else
            x->ntab++;
    }
    return rc;
}

int pp_rep_sec_scale(pp_rep_ctx *x)
{
    if (!x->c->nscale)
        return 0;
    pp_prog *m = &x->s->prog;
    pp_rep_doc *d = x->doc;
    char err[1536];
    char path[512] = "";
    for (int i = 0; i < x->c->nscale; i++)
        snprintf(path + strlen(path), sizeof path - strlen(path), "%s%s", i ? ", " : "", x->c->scale[i]);
    pp_rep_h2(d, "scalability", "Scalability");
    pp_rep_para(d, "For each P, the smallest problem size on the scaling path (%s grown together in the ratios of "
                   "this report's values, the other parameters as they are) that holds the efficiency; Scale(P, P') = L(chi, P) / L(chi', P') "
                   "(Zhang & Xu, eqs. 8 and 9). The last rows give the problem size and the latency at each P.", path);
    for (int t = 0; t < x->ntab; t++)
        scale_table(x, &x->tab[t]);
    /* the latencies at fixed efficiency (Zhang & Xu, Figures 10-14) */
    pp_rep_table *t = pp_rep_table_new(d, "latency", "Latency at fixed efficiency: the points of the plot below",
                                       PP_LC_N);
    x->tlat = t;
    const char *xn = m->params[x->tab[0].scale_param[0]].name;
    char h[4][96];
    snprintf(h[0], sizeof h[0], "%s at E_a", xn);
    snprintf(h[1], sizeof h[1], "L_a at E_a");
    snprintf(h[2], sizeof h[2], "%s at E", xn);
    snprintf(h[3], sizeof h[3], "L at E");
    pp_rep_col(t, 0, "P", 'r');
    for (int c = 0; c < 4; c++)
        pp_rep_col(t, 1 + c, h[c], 'r');
    for (int j = 0; j < x->nsP; j++) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%d", x->sP[j]);
        for (int c = 1; c < PP_LC_N; c++)
            pp_rep_cell_set(t, c, "", "-");
        for (int k = 0; k < x->ntab; k++) {
            const pp_scale_table *tb = &x->tab[k];
            int col = tb->kind == PP_SCALE_ALGORITHMIC ? PP_LC_XA : PP_LC_X;
            if (!tb->found[j])
                continue;
            pp_rep_cell_set(t, col, NULL, "%ld", tb->chi[j][0]);
            pp_rep_cell_time(t, col + 1, tb->latency[j]);
        }
    }
    if (pp_rep_table_csv(t, x->dir, err, sizeof err))
        return fail(x, 2, "%s", err);
    if (pp_rep_plot_latency(x))
        return -1;
    pp_rep_figure(d, "plot-latency.svg", "Algorithmic latency L_a (at E_a) and parallel latency L (at E) against "
                                         "the problem size that holds the efficiency, one point per P (Zhang & Xu, "
                                         "Figs. 10-14; log-log).");
    return 0;
}

static int by_elasticity(const void *a, const void *b)
{
    const pp_sens *p = a, *q = b;
    double x = fabs(p->elasticity), y = fabs(q->elasticity);
    return x < y ? 1 : x > y ? -1 : strcmp(p->par->name, q->par->name);
}

static const char *par_name(const pp_par_info *p)
{
    return p->kind == PP_PAR_SPEED ? "computation" : p->name;
}

#define SENS_TOP 10

int pp_rep_sec_sensitivity(pp_rep_ctx *x)
{
    pp_prog *m = &x->s->prog;
    pp_rep_doc *d = x->doc;
    int which[128], n = 0;
    for (int i = 0; i < pp_par_count() && n < 128; i++)
        if (pp_par_get(i)->differentiable)
            which[n++] = i;
    pp_sens *sv = calloc((size_t)n + 1, sizeof *sv);
    if (!sv)
        return fail(x, 1, "out of memory");
    char err[1536];
    double t;
    pp_rep_progress("sensitivity at P = %d (%d parameters)", x->sens_P, n);
    if (pp_predict_real(m, &x->s->vals, &x->s->mach, x->sens_P, &t, err, sizeof err) ||
        pp_sensitivity(m, &x->s->vals, &x->s->mach, x->sens_P, t, which, n, sv, pp_cli_progress, NULL, err,
                       sizeof err)) {
        free(sv);
        return fail(x, 2, "%s: sensitivity: %s", x->s->rec.path, err);
    }
    qsort(sv, (size_t)n, sizeof *sv, by_elasticity);
    double esum = 0;
    for (int i = 0; i < n; i++)
        if (pp_sens_is_time(sv[i].par))
            esum += sv[i].elasticity;
    char b[48];
    pp_rep_h2(d, "sensitivity", "Sensitivity to the machine");
    pp_rep_para(d, "dT/dbeta and the elasticity (beta/T) dT/dbeta of T_real = %s at P = %d for every machine "
                   "parameter, by central differences of 1%% (Clement & Quinn, Fig. 7; `perfpred sensitivity`). An "
                   "elasticity of 0.3 means 1%% more of that parameter costs 0.3%% more time. The parameters with "
                   "the largest elasticities, largest first; the times' elasticities sum to %.4f (1 when every time "
                   "the prediction adds is one of them).", pp_fmt_time(t, b, sizeof b), x->sens_P, esum);
    pp_rep_table *tb = pp_rep_table_new(d, "sensitivity", "Top machine parameters by elasticity", 5);
    pp_rep_col(tb, 0, "parameter", 'l');
    pp_rep_col(tb, 1, "value", 'r');
    pp_rep_col(tb, 2, "unit", 'l');
    pp_rep_col(tb, 3, "dT/dbeta", 'r');
    pp_rep_col(tb, 4, "elasticity", 'r');
    int shown = 0;
    char unused[1024] = "";
    for (int i = 0; i < n; i++) {
        const char *unit = sv[i].par->kind == PP_PAR_SPEED ? "factor" : pp_unit_name(sv[i].par->unit);
        if (!sv[i].used || shown >= SENS_TOP) {
            if (!sv[i].used)
                snprintf(unused + strlen(unused), sizeof unused - strlen(unused), "%s%s", unused[0] ? ", " : "",
                         par_name(sv[i].par));
            continue;
        }
        pp_rep_row(tb);
        pp_rep_cell_set(tb, 0, NULL, "%s", par_name(sv[i].par));
        pp_rep_cell_num(tb, 1, "%.4g", sv[i].value);
        pp_rep_cell_set(tb, 2, NULL, "%s", unit);
        pp_rep_cell_num(tb, 3, "%.4g", sv[i].dT);
        pp_rep_cell_num(tb, 4, "%+.4f", sv[i].elasticity);
        shown++;
    }
    if (!shown) {
        pp_rep_row(tb);
        pp_rep_cell_set(tb, 0, NULL, "(none moves T here)");
    }
    if (unused[0])
        pp_rep_para(d, "Not moving T here: %s.", unused);
    free(sv);
    return 0;
}
