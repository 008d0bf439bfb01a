/* cmd_show.c - `perfpred show RECORD [--set NAME=V]... [--P N]`: every loop
 * with its count rule, its count per entry in the parameters, the
 * iterations the run observed and the model's, and with --set the total
 * predicted at that size; the parameters and how P enters.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "costs.h"
#include "cmds.h"
#include "memory-out.h"
#include "mpirun.h"
#include "resolve.h"
#include "show-params.h"
#include "show_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred show RECORD... [--set NAME=VALUE]... [--P N] [--machine FILE]\n"
    "       perfpred show MPI-RUN [--view mpi|model] [--format text|csv|json]\n"
    "                     [--cost-quantile Q|mean] [--format text|csv|json]\n"
    "  Lists the problem parameters and every loop the plugin described: its count\n"
    "  rule (symbolic, fitted, constant), its iterations per entry as an expression\n"
    "  in the parameters, the iterations the run observed and the model's at the\n"
    "  recorded size, and, with --set, the total predicted at that size.  The\n"
    "  costs are fitted on every record given; with --machine, they are one\n"
    "  thread's (the recorded threads' slowdown of each other taken out).\n"
    "  --cost-quantile Q: the costs' level is the Q-quantile of the segments'\n"
    "  slowdown against the least-squares fit (default 'mean': the fit as it is).\n"
    "  MPI-RUN (a directory of the ranks' records, or one of them): the ranks, each\n"
    "  MPI call site over all ranks, and the point-to-point messages matched;\n"
    "  --view model: its model as for other records (counts checked on every rank,\n"
    "  costs fitted on all of them).\n";

static const char *pkind_text(const pp_prog *m, char *buf, size_t n)
{
    switch (m->pkind) {
    case PP_P_OMP:
        snprintf(buf, n, "OpenMP team size");
        break;
    case PP_P_MPI:
        snprintf(buf, n, "MPI ranks");
        break;
    case PP_P_PARAM:
        if (m->p_offset)
            snprintf(buf, n, "threads created: %s %+ld", m->params[m->p_param].name, m->p_offset);
        else
            snprintf(buf, n, "threads created: %s", m->params[m->p_param].name);
        break;
    default:
        snprintf(buf, n, "not variable");
    }
    return buf;
}

/* Values that belong to each thread (model-thread-values.c): not
 * parameters; their rule, or why the model knows them only at the
 * recorded P. */
static void thread_values_text(const pp_prog *m)
{
    if (m->ntvals == 0)
        return;
    printf("values that belong to each thread (tid: the thread's index, P: the thread count; not parameters):\n");
    for (int i = 0; i < m->ntvals; i++) {
        const pp_thread_value *tv = &m->tvals[i];
        char *rule = tv->rule ? pp_expr_to_infix(tv->rule) : NULL;
        if (rule) {
            /* the rule's atoms print as tid and nthreads */
            printf("  %-12s = %s   (%s; %ld to %ld over the run's %d threads)\n", tv->name, rule, tv->where,
                   tv->lo, tv->hi, tv->nthreads);
        } else
            printf("  %-12s   %s: %ld to %ld over %d threads, no rule in tid, P and the parameters gives each "
                   "its value: known only in the recorded run (P = %ld)\n", tv->name, tv->where, tv->lo, tv->hi,
                   tv->nthreads, tv->P);
        free(rule);
    }
}

static void thread_values_json(const pp_prog *m)
{
    printf(",\"thread_values\":[");
    for (int i = 0; i < m->ntvals; i++) {
        const pp_thread_value *tv = &m->tvals[i];
        printf("%s{\"name\":", i ? "," : "");
        pp_json_str(stdout, tv->name);
        printf(",\"where\":");
        pp_json_str(stdout, tv->where);
        printf(",\"rule\":");
        char *rule = tv->rule ? pp_expr_to_sexpr(tv->rule) : NULL;
        if (rule)
            pp_json_str(stdout, rule);
        else
            printf("null");
        free(rule);
        printf(",\"min\":%ld,\"max\":%ld,\"threads\":%d}", tv->lo, tv->hi, tv->nthreads);
    }
    printf("]");
}

/* where a loop's cost came from: its own timing, the fit to the
 * segments' times, or the static prior */
static const char *cost_from(const pp_mloop *ml)
{
    return ml->cost_measured ? "measured" : ml->cost_fitted ? "run" : "prior";
}

int pp_cmd_show(int argc, char **argv)
{
    pp_cli c;
    char err[1024];
    int st = pp_cli_start(argc, argv, "show", "set,P,format,machine,cost-quantile,view", usage, &c);
    if (st >= 0)
        return st;
    if (c.nrec >= 1 && pp_mpirun_is(c.rec[0]) == 1 && !c.view_model) {
        st = pp_show_mpi(&c);
        pp_cli_free(&c);
        return st;
    }
    pp_session s;
    c.replay_warns = 1;     /* show is where to look at such a model */
    if ((st = pp_cli_open("show", &c, c.machine != NULL, &s)) >= 0)
        return st;
    pp_prog *m = &s.prog;
    if (c.nP > 1) {
        fprintf(stderr, "perfpred show: --P takes one processor count (predict takes a list)\n");
        pp_session_close(&s);
        pp_cli_free(&c);
        return 2;
    }
    int P = c.nP ? c.P[0] : pp_prog_default_P(m, &s.vals);
    /* totals at the requested size */
    pp_instance in;
    memset(&in, 0, sizeof in);
    pp_vals_apply_P(m, &s.vals, P);
    int have_pred = pp_instantiate(m, &s.vals, P, PP_INST_TOTALS, &in, err, sizeof err) == 0;
    if (!have_pred)
        fprintf(stderr, "perfpred show: cannot predict the totals: %s\n", err);
    if (c.format == PP_FMT_JSON) {
        printf("{");
        pp_show_params_json(m, &s.vals);
        printf(",\"P\":{\"recorded\":%d,\"used\":%d}", m->p_recorded, P);
        /* the records, and which are repeats of one point (rec_group) */
        printf(",\"records\":[");
        for (int k = 0; k < m->nrec; k++) {
            printf("%s{\"path\":", k ? "," : "");
            pp_json_str(stdout, m->recs[k]->path);
            printf(",\"group\":%d}", m->rec_group[k]);
        }
        printf("],\"points\":%d", m->ngroups);
        thread_values_json(m);
        printf(",\"loops\":[");
    } else if (c.format == PP_FMT_CSV) {
        printf("id,file,line,rule,expr,observed,model,match,predicted\n");
    } else {
        char pb[128];
        printf("record %s", s.rec.path);
        if (s.rec.argc) {
            printf(" (");
            for (int i = 0; i < s.rec.argc; i++)
                printf("%s%s", i ? " " : "", s.rec.argv[i]);
            printf(")");
        }
        printf("\n");
        if (m->nrec > 1)
            printf("records: %d, in %d group%s of repeats (the same parameters and P%s)\n", m->nrec,
                   m->ngroups, m->ngroups == 1 ? "" : "s", m->mpi ? ", and rank" : "");
        printf("parameters:\n");
        pp_show_params_text(m, &s.vals);
        if (m->pkind != PP_P_PARAM) {
            printf("  %-12s = %d", "P", m->p_recorded);
            if (P != m->p_recorded)
                printf("  -> %d", P);
            printf("   (%s)\n", pkind_text(m, pb, sizeof pb));
        }
        thread_values_text(m);
        printf("loops:\n  %-22s %-20s %-9s %14s %14s %-5s %16s %11s  %s\n", "id", "where", "rule", "observed",
               "model", "match", "predicted", "ns/iter", "iterations per entry");
    }
    int first = 1;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_mfunc *mf = &m->funcs[f];
        for (int k = 0; k < mf->d->nloops; k++) {
            const pp_mloop *ml = &mf->loops[k];
            const pp_dloop *dl = &mf->d->loops[k];
            char id[160], where[300];
            snprintf(id, sizeof id, "%s:L%d", mf->d->name, dl->id);
            const char *file = mf->d->file ? mf->d->file : "?";
            const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
            snprintf(where, sizeof where, "%s:%d", base, dl->line);
            char *expr = pp_loop_count_text(m, f, k);
            long double pred = have_pred ? in.totals[f][k] : NAN;
            const char *match = ml->matched ? "exact" : (dl->flags & PP_LF_OMP_SCHED) ? "sched" : "no";
            if (c.format == PP_FMT_JSON) {
                printf("%s{\"id\":", first ? "" : ",");
                pp_json_str(stdout, id);
                printf(",\"file\":");
                pp_json_str(stdout, file);
                printf(",\"line\":%d,\"rule\":\"%s\",\"expr\":", dl->line, pp_rule_name(ml->rule));
                pp_json_str(stdout, expr);
                printf(",\"observed\":%llu,\"model\":%.0Lf,\"match\":%s,\"predicted\":",
                       (unsigned long long)ml->obs_iters, ml->model_iters, ml->matched ? "true" : "false");
                if (isfinite((double)pred))
                    printf("%.0Lf", pred);
                else
                    printf("null");
                printf(",\"compiler\":%s,\"cost_ns\":", (dl->flags & PP_LF_COMPILER) ? "true" : "false");
                pp_json_num(stdout, pp_prog_cost(m, ml->slot));
                printf(",\"cost_from\":\"%s\",\"entry_ns\":", cost_from(ml));
                pp_json_num(stdout, pp_prog_cost(m, ml->entry_slot));
                printf(",\"entry_from\":\"%s\"", ml->entry_fitted ? "run" : "prior");
                if (ml->fit_note) {
                    printf(",\"note\":");
                    pp_json_str(stdout, ml->fit_note);
                }
                printf("}");
            } else if (c.format == PP_FMT_CSV) {
                printf("%s,%s,%d,%s,\"%s\",%llu,%.0Lf,%s,%.0Lf\n", id, file, dl->line, pp_rule_name(ml->rule),
                       expr, (unsigned long long)ml->obs_iters, ml->model_iters, match, pred);
            } else {
                char cost[32];
                snprintf(cost, sizeof cost, "%.3g%s", pp_prog_cost(m, ml->slot),
                         ml->cost_measured ? "" : ml->cost_fitted ? "~" : "*");
                printf("  %-22s %-20s %-9s %14llu %14.0Lf %-5s %16.0Lf %11s  %s\n", id, where,
                       pp_rule_name(ml->rule), (unsigned long long)ml->obs_iters, ml->model_iters, match, pred,
                       cost, expr);
                if (ml->fit_note)
                    printf("  %22s   %s\n", "", ml->fit_note);
            }
            first = 0;
            free(expr);
        }
    }
    if (c.format == PP_FMT_JSON) {
        printf("],\"approx\":%s,\"cost\":{\"segment_ns\":", in.approx ? "true" : "false");
        pp_json_num(stdout, pp_prog_cost(m, PP_SLOT_SEG));
        printf(",\"segment_se_ns\":");
        pp_json_num(stdout, m->seg_se);
        printf(",\"r2\":");
        pp_json_num(stdout, m->cost_r2);
        printf(",\"separable\":%s,\"recorded_concurrency\":", m->cost_rank_deficient ? "false" : "true");
        pp_json_num(stdout, m->rec_conc);
        printf(",\"slowdown_removed\":");
        pp_json_num(stdout, m->rec_deflate);
        printf(",\"quantile\":");
        pp_json_num(stdout, m->cost_quantile);
        printf(",\"level\":");
        pp_json_num(stdout, m->cost_level);
        printf(",\"timed_share\":");
        if (m->timed_share >= 0)
            pp_json_num(stdout, m->timed_share);
        else
            printf("null");
        /* the size macros (macro-sizes.h): values per record, parameter or not */
        printf("},\"macros\":[");
        for (int i = 0; i < s.macros.nmacros; i++) {
            const pp_msize *ms = &s.macros.macros[i];
            printf("%s{\"name\":", i ? "," : "");
            pp_json_str(stdout, ms->name);
            printf(",\"values\":[");
            for (int k = 0; k < s.macros.nrec; k++)
                printf("%s%ld", k ? "," : "", ms->value[k]);
            printf("],\"parameter\":%s,\"array\":", ms->used ? "true" : "false");
            if (ms->array)
                pp_json_str(stdout, ms->array);
            else
                printf("null");
            printf("}");
        }
        printf("],\"unmatched_constants\":%d}\n", s.macros.nunmatched);
    } else if (c.format == PP_FMT_TEXT)
        printf("cost model: %.4g ns per segment between events (se %.2g), R^2 = %.4f; ns/iter from the loop's "
               "own timing, marked ~ from the fit to the segments' times%s\n", pp_prog_cost(m, PP_SLOT_SEG), m->seg_se, m->cost_r2,
               m->cost_rank_deficient ? ", marked * from the static prior" : "");
    if (c.format == PP_FMT_TEXT && m->timed_share >= 0)
        printf("loop timing: the measured loops took %.0f%% of the work's time; the rest (code outside them, "
               "calls, loops not timed) from the fit\n", 100 * m->timed_share);
    else if (c.format == PP_FMT_TEXT)
        printf("loop timing: none in the record (an older runtime, or built with "
               "-fplugin-arg-perfpred-no-loop-timing): every cost is fitted to the segments\n");
    if (c.format == PP_FMT_TEXT && m->cost_quantile > 0)
        printf("costs at the %.2g quantile of the segments' slowdown against the least-squares fit: x%.3f%s\n",
               m->cost_quantile, m->cost_level,
               m->cost_level < 1 ? "" : " (the fit as it is)");
    if (c.format == PP_FMT_TEXT && m->rec_conc > 1.05)
        printf("the recorded threads ran %.2f at once on average; %s\n", m->rec_conc,
               m->rec_deflate > 1.0005 ? "the costs are one thread's: the machine's slowdown for that "
                                         "concurrency is taken out (the prediction puts back the "
                                         "slowdown of the predicted one)"
                                       : "no machine slowdown taken out (give --machine)");
    if (c.format == PP_FMT_TEXT && m->rec_deflate > 1.0005)
        printf("slowdown taken out: %.3f on average\n", m->rec_deflate);
    if (c.format == PP_FMT_TEXT && in.approx)
        printf("(predicted totals of some loops were summed from samples, not enumerated)\n");
    /* the memory model's edge and its loops at these parameters, as predict prints them */
    if (c.format == PP_FMT_TEXT && s.have_machine)
        pp_mem_text(stdout, m, &s.vals, &s.mach, pp_prog_default_P(m, &s.vals));
    if (c.format == PP_FMT_TEXT) {
        int own = 0;      /* problem parameters but the thread count's */
        for (int i = 0; i < m->nparams; i++)
            own += !(m->pkind == PP_P_PARAM && i == m->p_param);
        pp_macros_text(&s.macros, own > 0, stdout);
    }
    if (have_pred)
        pp_instance_free(&in);
    pp_session_close(&s);
    pp_cli_free(&c);
    return 0;
}
