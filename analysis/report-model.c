/* report-model.c - the report's sections on the program and its model: the
 * problem and the machine, the model's quality (every loop's count rule
 * checked against the run and its fitted cost, as `perfpred show` lists
 * them), and the breakdown, for the whole program and by loop and
 * function (`predict --by`; the symbolic equations are in
 * report-equations.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "breakdown.h"
#include "costs.h"
#include "report.h"
#include "resolve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base(const char *p)
{
    return p && strrchr(p, '/') ? strrchr(p, '/') + 1 : p ? p : "?";
}

static const char *pkind_text(const pp_prog *m, char *buf, size_t n)
{
    switch (m->pkind) {
    case PP_P_OMP: snprintf(buf, n, "the OpenMP team size"); break;
    case PP_P_MPI: snprintf(buf, n, "the number of MPI ranks"); break;
    case PP_P_PARAM:
        snprintf(buf, n, "the threads the program creates: parameter `%s`%+ld", m->params[m->p_param].name,
                 m->p_offset);
        if (!m->p_offset)
            buf[strlen(buf) - 2] = 0;
        break;
    default: snprintf(buf, n, "not variable (no parallelism the model can vary)");
    }
    return buf;
}

static void params_table(pp_rep_ctx *x)
{
    const pp_prog *m = &x->s->prog;
    pp_rep_table *t = pp_rep_table_new(x->doc, "parameters", "Problem parameters", 4);
    pp_rep_col(t, 0, "parameter", 'l');
    pp_rep_col(t, 1, "recorded", 'r');
    pp_rep_col(t, 2, "this report", 'r');
    pp_rep_col(t, 3, "source", 'l');
    for (int i = 0; i < m->nparams; i++) {
        const pp_param *p = &m->params[i];
        int isP = m->pkind == PP_P_PARAM && i == m->p_param;
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%s", p->name);
        pp_rep_cell_set(t, 1, NULL, "%ld", p->recorded);
        if (isP)
            pp_rep_cell_set(t, 2, "", "P");
        else
            pp_rep_cell_set(t, 2, NULL, "%ld", x->s->vals.v[i]);
        if (p->is_global)
            pp_rep_cell_set(t, 3, NULL, "global `%s`%s", p->src, isP ? "; the thread count" : "");
        else
            pp_rep_cell_set(t, 3, NULL, "`%s` in `%s`%s", p->src, m->funcs[p->func].d->name,
                            isP ? "; the thread count" : "");
    }
    /* derived globals: computed from the inputs above (model-derived.c) */
    for (int d = 0; d < m->nderived; d++) {
        const pp_derived *dv = &m->derived[d];
        char *s = pp_expr_to_infix(dv->def);
        long v;
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%s", dv->name);
        pp_rep_cell_set(t, 1, NULL, "%ld", dv->recorded);
        if (pp_prog_derived_value(m, &x->s->vals, d, &v) == 0)
            pp_rep_cell_set(t, 2, NULL, "%ld", v);
        pp_rep_cell_set(t, 3, NULL, "global `%s` = `%s` (derived, line %d of `%s`)", dv->name, s ? s : "?", dv->line,
                        m->funcs[dv->func].d->name);
        free(s);
    }
    if (!m->nparams) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "(none: the problem size is fixed in the program)");
    }
}

/* The machine's costs at the smallest and the largest P of the report. */
static void machine_table(pp_rep_ctx *x)
{
    const pp_machine *mc = &x->s->mach;
    const pp_prog *m = &x->s->prog;
    int p0 = x->P[0], p1 = x->P[0];
    for (int i = 0; i < x->nP; i++) {
        p0 = x->P[i] < p0 ? x->P[i] : p0;
        p1 = x->P[i] > p1 ? x->P[i] : p1;
    }
    char h1[32], h2[32];
    snprintf(h1, sizeof h1, "at P = %d", p0);
    snprintf(h2, sizeof h2, "at P = %d", p1);
    pp_rep_table *t = pp_rep_table_new(x->doc, "machine", "The machine's costs as the prediction uses them", 4);
    pp_rep_col(t, 0, "cost", 'l');
    pp_rep_col(t, 1, "model", 'l');
    pp_rep_col(t, 2, h1, 'r');
    pp_rep_col(t, 3, h2, 'r');
    double k = mc->sync_scale > 0 ? mc->sync_scale : 1;
    for (int c = 0; c < PP_COST_N; c++) {
        const pp_model *md = &mc->cost[c];
        int fac = pp_cost_is_factor((pp_cost_id)c);
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%s", pp_cost_key((pp_cost_id)c));
        pp_rep_cell_set(t, 1, NULL, "%s", pp_model_kind_name(md->kind));
        int pp[2] = {p0, p1};
        for (int j = 0; j < 2; j++) {
            double v = pp_model_eval(md, pp[j]);
            char raw[48];
            if (fac) {
                snprintf(raw, sizeof raw, "%.6g", v);
                pp_rep_cell_set(t, 2 + j, raw, "x%.3g", v);
            } else
                pp_rep_cell_time(t, 2 + j, v > 0 ? k * v : 0);
        }
    }
    if (!m->mpi && !x->s->mach.has_net)
        return;
    const pp_net *n = &mc->net;
    struct {
        const char *name;
        double v;
        const char *unit;
    } rows[] = {{"mpi.latency (L)", n->L, "ns"},        {"mpi.overhead (o)", n->o, "ns"},
                {"mpi.gap (g)", n->g, "ns"},            {"mpi.gap_per_byte (G)", n->G, "ns/B"},
                {"mpi.reduce_per_byte", n->gamma, "ns/B"}, {"mpi.eager_bytes", n->eager_bytes, "B"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%s", rows[i].name);
        pp_rep_cell_set(t, 1, NULL, "%s", "network");
        for (int j = 0; j < 2; j++) {
            if (!strcmp(rows[i].unit, "ns"))
                pp_rep_cell_time(t, 2 + j, rows[i].v);
            else {
                char raw[48];
                snprintf(raw, sizeof raw, "%.6g", rows[i].v);
                pp_rep_cell_set(t, 2 + j, raw, "%.6g %s", rows[i].v, rows[i].unit);
            }
        }
    }
    pp_rep_row(t);
    pp_rep_cell_set(t, 0, NULL, "mpi.ranks_per_node");
    pp_rep_cell_set(t, 1, NULL, "network");
    for (int j = 0; j < 2; j++)
        pp_rep_cell_set(t, 2 + j, NULL, "%d", n->ranks_per_node);
}

int pp_rep_sec_problem(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_session *s = x->s;
    const pp_prog *m = &s->prog;
    char buf[4096] = "", pk[256];
    for (int i = 0; i < s->rec.argc; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", s->rec.argv[i]);
    pp_rep_h2(d, "problem", "The program, the problem and the machine");
    pp_rep_item(d, "Program: `%s`, recorded as `%s`%s%s%s.", s->rec.program ? s->rec.program : "?", buf,
                s->rec.host ? " on host `" : "", s->rec.host ? s->rec.host : "", s->rec.host ? "`" : "");
    buf[0] = 0;
    for (int i = 0; i < x->c->nrec; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s`%s`", i ? ", " : "", x->c->rec[i]);
    if (m->mpi)
        pp_rep_item(d, "Records: %s: an MPI run of %d ranks (%d records)%s%s.", buf, m->p_recorded, m->nrec,
                    s->rec.mpi_lib ? ", MPI library " : "", s->rec.mpi_lib ? s->rec.mpi_lib : "");
    else
        pp_rep_item(d, "Record%s: %s (%d thread%s at run time).", x->c->nrec > 1 ? "s" : "", buf, m->p_recorded,
                    m->p_recorded == 1 ? "" : "s");
    pp_rep_item(d, "P is %s; recorded at P = %d.", pkind_text(m, pk, sizeof pk), m->p_recorded);
    buf[0] = 0;
    for (int i = 0; i < x->nP; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? ", " : "", x->P[i]);
    char prob[1024] = "";
    for (int i = 0; i < m->nparams; i++)
        if (!(m->pkind == PP_P_PARAM && i == m->p_param))
            snprintf(prob + strlen(prob), sizeof prob - strlen(prob), "%s%s = %ld", prob[0] ? ", " : "",
                     m->params[i].name, s->vals.v[i]);
    pp_rep_item(d, "Predicted at %s for P = %s.", prob[0] ? prob : "the recorded size", buf);
    const pp_machine *mc = &s->mach;
    pp_rep_item(d, "Machine: %s%s%s (`%s`, %s, %d processors%s).", x->c->machine ? "`" : "",
                x->c->machine ? x->c->machine : "built-in default costs (no --machine: not this host's)",
                x->c->machine ? "`" : "", mc->name[0] ? mc->name : "unnamed", pp_machine_source_name(mc->source),
                mc->cores, mc->quick ? ", measured with --quick" : "");
    if (s->has_with) {
        char w[1024];
        pp_whatif_text(&x->c->with, w, sizeof w);
        pp_rep_item(d, "What-if: the machine changed with `%s` (docs/commands.md, \"What-if machines\").", w);
    }
    const pp_insitu *q = &s->insitu;
    if (q->applied)
        pp_rep_item(d, "Synchronisation costs x%.3g the machine file's: the model then replays the recorded run in "
                       "the recorded time (in-situ calibration).", q->factor);
    else if (q->why[0])
        pp_rep_item(d, "Synchronisation costs as in the machine file (%s).", q->why);
    params_table(x);
    machine_table(x);
    return 0;
}

int pp_rep_sec_quality(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_prog *m = &x->s->prog;
    pp_rep_h2(d, "quality", "Model quality");
    pp_rep_para(d, "Every loop the plugin described: its count rule (symbolic: the compiler's expression checked "
                   "against the run; fitted; constant), its iterations per entry, the iterations the run observed "
                   "and the model's at the recorded size%s, and its cost per iteration fitted to the time between "
                   "events with its standard error; `prior` marks costs the run could not separate, which follow "
                   "the static operation counts (`perfpred show`).", m->mpi ? " (summed over the ranks)" : "");
    pp_rep_table *t = pp_rep_table_new(d, "model-quality", "Loops: count rules and fitted costs", 10);
    static const char *head[] = {"loop", "where", "rule", "iterations per entry", "observed", "model",
                                 "matched", "ns/iter", "std. error", "cost from"};
    static const char al[] = "llllrrlrrl";
    for (int c = 0; c < 10; c++)
        pp_rep_col(t, c, head[c], al[c]);
    int nloops = 0, nmatched = 0, nrun = 0;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_mfunc *mf = &m->funcs[f];
        for (int k = 0; k < mf->d->nloops; k++) {
            const pp_mloop *ml = &mf->loops[k];
            const pp_dloop *dl = &mf->d->loops[k];
            char *expr = pp_loop_count_text(m, f, k);
            char raw[64];
            pp_rep_row(t);
            pp_rep_cell_set(t, 0, NULL, "%s:L%d", mf->d->name, dl->id);
            pp_rep_cell_set(t, 1, NULL, "%s:%d", base(mf->d->file), dl->line);
            pp_rep_cell_set(t, 2, NULL, "%s", pp_rule_name(ml->rule));
            pp_rep_cell_set(t, 3, expr ? expr : "", "`%s`", expr ? expr : "?");
            pp_rep_cell_set(t, 4, NULL, "%llu", (unsigned long long)ml->obs_iters);
            pp_rep_cell_set(t, 5, NULL, "%.0Lf", ml->model_iters);
            pp_rep_cell_set(t, 6, ml->matched ? "yes" : "no", "%s", ml->matched ? "yes" : "**no**");
            pp_rep_cell_num(t, 7, "%.4g", pp_prog_cost(m, ml->slot));
            pp_rep_cell_num(t, 8, "%.2g", ml->cost_se);
            snprintf(raw, sizeof raw, "%s", ml->cost_fitted ? "run" : "prior");
            pp_rep_cell_set(t, 9, raw, "%s", ml->cost_fitted ? "the run" : "prior");
            free(expr);
            nloops++;
            nmatched += ml->matched;
            nrun += ml->cost_fitted;
        }
    }
    if (!nloops) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "(the program has no loops the plugin described)");
    }
    pp_rep_para(d, "%d of %d loops' counts match the run exactly; the run determined %d of their costs. Cost fit: "
                   "R^2 = %.4f, %.4g ns per segment between events (standard error %.2g)%s.", nmatched, nloops, nrun,
                m->cost_r2, pp_prog_cost(m, PP_SLOT_SEG), m->seg_se,
                m->cost_rank_deficient ? "; some costs cannot be separated by the run (they always run together)"
                                       : "");
    if (m->rec_conc > 1.05)
        pp_rep_para(d, "The recorded threads ran %.2f at once on average; %s.", m->rec_conc,
                    m->rec_deflate > 1.0005 ? "the costs are one thread's (the machine's slowdown for that "
                                              "concurrency is taken out)"
                                            : "no machine slowdown was taken out");
    pp_rep_h3(d, "Warnings");
    if (!m->nwarn)
        pp_rep_para(d, "None: the model was built without warnings.");
    for (int i = 0; i < m->nwarn; i++)
        pp_rep_item(d, "%s", m->warn[i]);
    return 0;
}

/* One table of `predict --by` at P on the real machine: each site's
 * categories as shares of all the threads' time, the largest first (at
 * most 15 rows, the rest summed). */
#define BD_ROWS 15
static int breakdown_table(pp_rep_ctx *x, pp_by by, int P)
{
    pp_breakdown b;
    int r = pp_breakdown_run(&x->s->prog, &x->s->vals, &x->s->mach, P, by, NULL, &b, x->err, sizeof x->err);
    if (r) {
        x->rc = r == -2 ? 1 : 2;
        return -1;
    }
    const int k = PP_BD_REAL;
    double all = b.time[k] * b.nthreads;
    double (*sum)[PP_TR_NCAT + 1] = calloc((size_t)b.nrows + 1, sizeof *sum);
    int *o = malloc(sizeof *o * ((size_t)b.nrows + 1));
    if (!sum || !o) {
        free(sum);
        free(o);
        pp_breakdown_free(&b);
        snprintf(x->err, sizeof x->err, "out of memory");
        x->rc = 1;
        return -1;
    }
    for (int row = 0; row < b.nrows; row++) {
        o[row] = row;
        for (int t = 0; t < b.nthreads; t++)
            for (int c = 0; c < PP_TR_NCAT; c++) {
                double v = b.v[k][((size_t)t * (size_t)b.nrows + (size_t)row) * PP_TR_NCAT + c];
                sum[row][c] += v;
                sum[row][PP_TR_NCAT] += v;
            }
    }
    for (int i = 1; i < b.nrows; i++)
        for (int j = i; j > 0 && sum[o[j - 1]][PP_TR_NCAT] < sum[o[j]][PP_TR_NCAT]; j--) {
            int tmp = o[j];
            o[j] = o[j - 1];
            o[j - 1] = tmp;
        }
    char id[32], cap[160];
    snprintf(id, sizeof id, "breakdown-%s", pp_by_name(by));
    snprintf(cap, sizeof cap, "By %s at P = %d, real machine: %% of the %d %s' time (%d x T_real)", pp_by_name(by),
             P, b.nthreads, b.ranks ? "ranks" : "threads", b.nthreads);
    pp_rep_table *t = pp_rep_table_new(x->doc, id, cap, 9);
    static const char *const head[] = {"site", "where", "computation", "communication", "sync cost", "wait",
                                       "idle", "share", "kind"};
    for (int c = 0; c < 9; c++)
        pp_rep_col(t, c, head[c], c < 2 || c == 8 ? 'l' : 'r');
    double rest[PP_TR_NCAT + 1] = {0};
    int nrest = 0;
    for (int i = 0; i < b.nrows; i++) {
        const double *v = sum[o[i]];
        if (i >= BD_ROWS) {
            for (int c = 0; c <= PP_TR_NCAT; c++)
                rest[c] += v[c];
            nrest++;
            continue;
        }
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%s", b.rows[o[i]].name);
        pp_rep_cell_set(t, 1, NULL, "%s", b.rows[o[i]].where);
        for (int c = 0; c <= PP_TR_NCAT; c++)
            pp_rep_cell_num(t, 2 + c, "%.1f", all > 0 ? 100 * v[c] / all : NAN);
        pp_rep_cell_set(t, 8, NULL, "%s", b.rows[o[i]].kind);
    }
    if (nrest) {
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "(%d other sites)", nrest);
        pp_rep_cell_set(t, 1, NULL, "%s", "");
        for (int c = 0; c <= PP_TR_NCAT; c++)
            pp_rep_cell_num(t, 2 + c, "%.1f", all > 0 ? 100 * rest[c] / all : NAN);
        pp_rep_cell_set(t, 8, NULL, "%s", "");
    }
    free(sum);
    free(o);
    pp_breakdown_free(&b);
    return 0;
}

/* The breakdown at the whole-program level (Parashar et al.'s first
 * level): computation, waiting and synchronisation on the real machine
 * from the predictions; then per loop and per function (`predict --by`)
 * at the largest P. */
int pp_rep_sec_breakdown(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_prog *m = &x->s->prog;
    pp_rep_h2(d, "breakdown", "Where the time goes");
    pp_rep_para(d, "The whole program on the real machine, all %s summed, each from 0 to its own end: "
                   "computation, waiting (for a barrier, a join, a lock or a message, and with no work before "
                   "its end: a worker between teams or before its create) and the machine's synchronisation and "
                   "communication costs.", m->mpi ? "ranks" : "threads");
    pp_rep_table *t = pp_rep_table_new(d, "breakdown", "Real machine: where the threads' time goes (%)", 5);
    pp_rep_col(t, 0, "P", 'r');
    pp_rep_col(t, 1, m->mpi ? "ranks" : "threads", 'r');
    pp_rep_col(t, 2, "computation", 'r');
    pp_rep_col(t, 3, "waiting", 'r');
    pp_rep_col(t, 4, "synchronisation cost", 'r');
    for (int i = 0; i < x->nP; i++) {
        const pp_metrics *mt = &x->pred[i].mt;
        double tot = mt->busy + mt->wait + mt->sync;
        pp_rep_row(t);
        pp_rep_cell_set(t, 0, NULL, "%d", mt->P);
        pp_rep_cell_set(t, 1, NULL, "%d", mt->nthreads);
        pp_rep_cell_num(t, 2, "%.1f", tot > 0 ? 100 * mt->busy / tot : NAN);
        pp_rep_cell_num(t, 3, "%.1f", tot > 0 ? 100 * mt->wait / tot : NAN);
        pp_rep_cell_num(t, 4, "%.1f", tot > 0 ? 100 * mt->sync / tot : NAN);
    }
    char err[1024];
    if (pp_rep_table_csv(t, x->dir, err, sizeof err)) {
        snprintf(x->err, sizeof x->err, "%s", err);
        x->rc = 2;
        return -1;
    }
    if (pp_rep_plot_breakdown(x))
        return -1;
    pp_rep_figure(d, "plot-breakdown.svg",
                  m->mpi ? "The share of all the ranks' time in computation, waiting and synchronisation and "
                           "communication cost on the real machine against P (the table above)."
                         : "The share of all the threads' time in computation, waiting and synchronisation cost on "
                           "the real machine against P (the table above).");
    int P = 0;
    for (int i = 0; i < x->nP; i++)
        if (x->P[i] > P)
            P = x->P[i];
    if (P < 1)
        return 0;
    pp_rep_h3(d, "By loop and by function");
    pp_rep_para(d, "At P = %d on the real machine, as `perfpred predict --by loop` and `--by function` give it "
                   "(Parashar et al.'s unit level): each site's computation (with the machine's slowdown), "
                   "communication, synchronisation cost, waiting and idle time, as shares of all the %s' time; "
                   "a loop's row is its own statements, a function's its body and loops, `(idle)` the time the "
                   "threads have no work.", P, m->mpi ? "ranks" : "threads");
    if (breakdown_table(x, PP_BY_LOOP, P) || breakdown_table(x, PP_BY_FUNCTION, P))
        return -1;
    return 0;
}
