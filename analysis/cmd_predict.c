/* cmd_predict.c - `perfpred predict RECORD --machine FILE [--set N=V]...
 * --P P`: times on the MIRACLE, PRAM and real machines, the latencies L_a
 * and L, and the efficiencies E_a and E (Zhang & Xu, eqs. 2-5).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "breakdown.h"
#include "cli.h"
#include "cmds.h"
#include "memory-out.h"
#include "metrics.h"
#include "net.h"
#include "point.h"

#include <stdio.h>
#include <string.h>

static const char *usage =
    "usage: perfpred predict RECORD [--machine FILE] [--set NAME=VALUE]... [--P P[,P...]]\n"
    "                        [--with NAME=VALUE[,NAME=VALUE...]] [--format text|csv|json]\n"
    "                        [--by loop|function|event [--region NAME|FILE:LINE] [--threads]]\n"
    "  Predicts the execution time at the given problem size (default: the recorded\n"
    "  one) for P processors (default: the recorded P) on the MIRACLE machine\n"
    "  (T1/P), the PRAM (no synchronisation cost) and the real machine described by\n"
    "  FILE (from 'perfpred calibrate'), with L_a = T_PRAM - T_MIR, L = T_real - T_MIR,\n"
    "  E_a = T_MIR/T_PRAM and E = T_MIR/T_real.  T_real comes with a 90% confidence\n"
    "  interval (two standard errors, Clement & Quinn) that adds up three relative\n"
    "  errors: the fitted costs' (by default from T_real's slope in each cost the\n"
    "  run determined; --draws K: from K Monte Carlo draws of them; 0: no\n"
    "  interval), the host's run-to-run variation (noise.cov, from calibrate) and the\n"
    "  model's, --model-error E per doubling of the work beyond the record (default\n"
    "  0.03, measured by make bench).\n"
    "  When the record was made on the host FILE describes, the synchronisation costs\n"
    "  are scaled so that the model replays the recorded run in its recorded time\n"
    "  (--insitu off: as in FILE).\n"
    "  --cache-rule on|off: the memory model, loops' memory streams priced by the\n"
    "  bandwidth of their working set at the size (default on).\n"
    "  --cost-quantile Q: the costs sit at the Q-quantile of the segments' slowdown\n"
    "  against their least-squares fit (default 'mean': the fit as it is).\n"
    "  --with NAME=VALUE,...: what if the machine were different: barrier=2us,\n"
    "  latency=1us, bandwidth=20GB/s, speed=2 (a processor twice as fast), NAME=x0.5\n"
    "  (half the value it has); T_real is also given without the change\n"
    "  (docs/commands.md, 'What-if machines', lists every NAME).\n"
    "  --by loop|function|event: where the time goes (Parashar et al.'s three\n"
    "  levels): for each loop (and function body), function or event site, the\n"
    "  computation, communication, synchronisation cost, waiting and idle time per\n"
    "  thread on the real machine and on the PRAM (min, mean and max over the\n"
    "  threads; --threads: every thread), with the whole program's; --region NAME\n"
    "  (a function, or a loop as 'main:L2') or FILE:LINE: only the time spent in\n"
    "  that function or loop and what it calls and contains.  With --format csv,\n"
    "  the breakdown's table replaces the prediction's.\n";

/* MPI: the kinds of call the program makes that take time (columns). */
static int mpi_kinds(const pp_prog *m, int *kinds)
{
    int n = 0;
    if (!m->mpi)
        return 0;
    for (int k = PP_EV_SEND; k <= PP_EV_COMM_DUP; k++) {
        int has = 0;
        for (int f = 0; f < m->nfuncs && !has; f++)
            for (int e = 0; e < m->funcs[f].d->nevents && !has; e++)
                has = (int)m->funcs[f].d->events[e].kind == k;
        if (has)
            kinds[n++] = k;
    }
    return n;
}

static double share(const pp_metrics *mt, double ns)
{
    return mt->t_real > 0 && mt->nthreads > 0 ? ns / (mt->t_real * mt->P) : 0;
}

static void mpi_text(const pp_prog *m, const pp_machine *mach, const pp_metrics *mt)
{
    int kinds[PP_EV_OTHER + 1];
    int nk = mpi_kinds(m, kinds);
    const pp_net *n = &mach->net;
    printf("  network: L = %.3g us, o = %.3g us, g = %.3g us, G = %.3g ns/byte, eager up to %.0f bytes (%s)\n",
           n->L / 1e3, n->o / 1e3, n->g / 1e3, n->G, n->eager_bytes,
           mach->has_net ? (n->source == 1 ? "measured" : "machine file") : "built-in defaults");
    printf("  MPI: %.1f%% of the ranks' time in MPI calls", 100 * share(mt, mt->mpi));
    for (int i = 0; i < nk; i++)
        if (mt->mpi_kind[kinds[i]] > 0)
            printf("%s %s %.1f%%", i ? "," : ":", pp_evkind_name(kinds[i]), 100 * share(mt, mt->mpi_kind[kinds[i]]));
    printf("\n");
    if (mt->unmatched)
        printf("  warning: %s\n", mt->note);
    if (mt->t1_summed)
        printf("  note: the program cannot run on one rank with these parameters: T1 (and T_MIR = T1/P) is the "
               "computation of the %d ranks, summed\n", mt->P);
    int per_node = n->ranks_per_node > 0 && n->ranks_per_node < mt->P ? n->ranks_per_node : mt->P;
    if (mach->cores > 0 && per_node > mach->cores)
        printf("  note: %d ranks share one node of %d processors (mpi.ranks_per_node = %d): their computation "
               "is slowed by the machine's compute scaling at %d; describe a cluster in the machine file "
               "(docs/examples/cluster.machine)\n", per_node, mach->cores, n->ranks_per_node, per_node);
}

int pp_cmd_predict(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "predict", "set,machine,P,format,draws,cache-rule,insitu,model-error,cost-quantile,with,by,region,threads", usage, &c);
    if (st >= 0)
        return st;
    if (c.threads && !c.by && !c.region) {
        fprintf(stderr, "perfpred predict: --threads goes with --by (or --region)\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    if (c.region && !c.by)
        c.by = 1 + PP_BY_LOOP;
    pp_session s;
    if ((st = pp_cli_open("predict", &c, 1, &s)) >= 0)
        return st;
    pp_prog *m = &s.prog;
    pp_region region;
    if (c.region && pp_region_parse(m, c.region, &region, err, sizeof err)) {
        fprintf(stderr, "perfpred predict: %s\n", err);
        pp_session_close(&s);
        pp_cli_free(&c);
        return 2;
    }
    int nP = c.nP ? c.nP : 1;
    int rc = 0;
    int kinds[PP_EV_OTHER + 1];
    int nk = mpi_kinds(m, kinds);
    if (c.format != PP_FMT_JSON)   /* a marked machine file: the first line */
        pp_session_mark(&s, &c, stdout, c.format);
    if (c.format == PP_FMT_CSV && c.by)
        pp_breakdown_csv_header(stdout);
    else if (c.format == PP_FMT_CSV) {
        printf("P,t_miracle_s,t_pram_s,t_real_s,La_s,L_s,Ea,E,t_real_lo_s,t_real_hi_s");
        if (m->mpi)
            printf(",mpi_share");
        for (int k = 0; k < nk; k++)
            printf(",%s_share", pp_evkind_name(kinds[k]));
        if (s.has_with)
            printf(",t_real_base_s");
        printf("\n");
    }
    char withtxt[1024] = "";
    if (s.has_with)
        pp_whatif_text(&c.with, withtxt, sizeof withtxt);
    if (c.format == PP_FMT_JSON && nP > 1)
        printf("[");
    for (int i = 0; i < nP && rc == 0; i++) {
        int P = c.nP ? c.P[i] : pp_prog_default_P(m, &s.vals);
        pp_metrics mt;
        int draws = c.has_draws ? c.draws : PP_DRAWS_AUTO;
        pp_interval iv;
        int has_iv;
        if (pp_point_predict(m, &s.vals, &s.mach, P, 0, draws, &mt, &iv, &has_iv, err, sizeof err)) {
            fprintf(stderr, "perfpred predict: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        double ilo = has_iv ? iv.lo : 1, ihi = has_iv ? iv.hi : 0;
        double tbase = 0;
        if (s.has_with && pp_session_baseline_real(&s, P, &tbase, err, sizeof err)) {
            fprintf(stderr, "perfpred predict: %s: without --with: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        pp_breakdown bd;
        if (c.by) {
            int r = pp_breakdown_run(m, &s.vals, &s.mach, P, (pp_by)(c.by - 1), c.region ? &region : NULL, &bd, err,
                                     sizeof err);
            if (r == 0 && (bd.time[PP_BD_REAL] != mt.t_real || bd.time[PP_BD_PRAM] != mt.t_pram)) {
                snprintf(err, sizeof err, "internal error: the breakdown's traversal gives T_real = %.17g ns, "
                         "T_PRAM = %.17g ns, the prediction's %.17g ns, %.17g ns", bd.time[PP_BD_REAL],
                         bd.time[PP_BD_PRAM], mt.t_real, mt.t_pram);
                pp_breakdown_free(&bd);
                r = -2;
            }
            if (r) {
                fprintf(stderr, "perfpred predict: %s: %s\n", s.rec.path, err);
                rc = r == -2 ? 1 : 2;
                break;
            }
        }
        if (c.format == PP_FMT_CSV && c.by) {
            pp_breakdown_csv(stdout, &bd, 3, c.threads);
        } else if (c.format == PP_FMT_JSON) {
            printf("%s{", i ? "," : "");
            pp_session_mark(&s, &c, stdout, c.format);
            printf("\"problem\":");
            pp_problem_json(stdout, m, &s.vals);
            printf(",\"P\":%d,\"time\":{\"miracle\":", P);
            pp_json_num(stdout, mt.t_mir / 1e9);
            printf(",\"pram\":");
            pp_json_num(stdout, mt.t_pram / 1e9);
            printf(",\"real\":");
            pp_json_num(stdout, mt.t_real / 1e9);
            printf("},\"La\":");
            pp_json_num(stdout, mt.La / 1e9);
            printf(",\"L\":");
            pp_json_num(stdout, mt.L / 1e9);
            printf(",\"Ea\":");
            pp_json_num(stdout, mt.Ea);
            printf(",\"E\":");
            pp_json_num(stdout, mt.E);
            printf(",\"T1\":");
            pp_json_num(stdout, mt.t1 / 1e9);
            printf(",\"sync_scale\":");
            pp_json_num(stdout, s.insitu.applied ? s.insitu.factor : 1.0);
            printf(",\"threads\":%d,\"thread_time\":{\"computation\":", mt.nthreads);
            pp_json_num(stdout, mt.busy / 1e9);
            printf(",\"waiting\":");
            pp_json_num(stdout, mt.wait / 1e9);
            printf(",\"synchronisation\":");
            pp_json_num(stdout, mt.sync / 1e9);
            printf("},\"approx\":%s,", mt.approx ? "true" : "false");
            if (s.have_machine && pp_machine_marked(&s.mach)) {
                printf("\"machine_busy\":");
                pp_machine_busy_json(stdout, &s.mach, c.machine);
                printf(",");
            }
            if (s.has_with) {
                printf("\"with\":");
                pp_json_str(stdout, withtxt);
                printf(",\"baseline_real\":");
                pp_json_num(stdout, tbase / 1e9);
                printf(",");
            }
            if (m->mpi) {
                printf("\"mpi\":{\"share\":");
                pp_json_num(stdout, share(&mt, mt.mpi));
                printf(",\"by_call\":{");
                for (int k = 0; k < nk; k++) {
                    printf("%s\"%s\":", k ? "," : "", pp_evkind_name(kinds[k]));
                    pp_json_num(stdout, share(&mt, mt.mpi_kind[kinds[k]]));
                }
                printf("},\"unmatched_messages\":%ld,\"t1_summed\":%s},", mt.unmatched,
                       mt.t1_summed ? "true" : "false");
            }
            if (s.have_machine) {
                pp_mem_json(stdout, m, &s.vals, &s.mach, P);
                printf(",");
            }
            printf("\"interval\":");
            if (ilo <= ihi)
                pp_json_interval(stdout, ilo / 1e9, ihi / 1e9, iv.fit, iv.host, iv.model, iv.counts);
            else
                printf("null");
            if (c.by) {
                printf(",\"breakdown\":");
                pp_breakdown_json(stdout, &bd, 3, c.threads);
            }
            printf("}");
        } else if (c.format == PP_FMT_CSV) {
            printf("%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6f,%.6f,", P, mt.t_mir / 1e9, mt.t_pram / 1e9,
                   mt.t_real / 1e9, mt.La / 1e9, mt.L / 1e9, mt.Ea, mt.E);
            if (ilo <= ihi)
                printf("%.9g,%.9g", ilo / 1e9, ihi / 1e9);
            else
                printf(",");
            if (m->mpi)
                printf(",%.6f", share(&mt, mt.mpi));
            for (int k = 0; k < nk; k++)
                printf(",%.6f", share(&mt, mt.mpi_kind[kinds[k]]));
            if (s.has_with)
                printf(",%.9g", tbase / 1e9);
            printf("\n");
        } else {
            char b1[32], b2[32], b3[32], b4[32], b5[32];
            printf("problem:");
            pp_problem_text(stdout, m, &s.vals);
            printf("   P=%d   machine: %s%s%s%s\n", P, c.machine ? c.machine : "built-in defaults",
                   s.mach.source == PP_MACHINE_DEFAULT ? " (not measured)" : "", s.has_with ? " with " : "",
                   withtxt);
            pp_session_insitu_text(&s, stdout);
            printf("  T_MIRACLE  %12s   (T1 = %s)\n", pp_fmt_time(mt.t_mir, b1, sizeof b1),
                   pp_fmt_time(mt.t1, b5, sizeof b5));
            printf("  T_PRAM     %12s\n", pp_fmt_time(mt.t_pram, b2, sizeof b2));
            printf("  T_real     %12s", pp_fmt_time(mt.t_real, b3, sizeof b3));
            if (ilo <= ihi)
            {
                printf("   90%% interval [%s, %s] (costs +-%.1f%%, host +-%.1f%%, model +-%.1f%%",
                       pp_fmt_time(ilo, b1, sizeof b1), pp_fmt_time(ihi, b2, sizeof b2), 200 * iv.fit,
                       200 * iv.host, 200 * iv.model);
                if (iv.counts > 0)
                    printf(", counts +-%.1f%%", 200 * iv.counts);
                printf(")");
            }
            printf("\n");
            if (s.has_with)
                printf("  what-if: T_real %s with %s, %s without (%+.1f%%)\n", pp_fmt_time(mt.t_real, b1, sizeof b1),
                       withtxt, pp_fmt_time(tbase, b2, sizeof b2),
                       tbase > 0 ? 100 * (mt.t_real - tbase) / tbase : 0.0);
            printf("  L_a = %s   L = %s\n", pp_fmt_time(mt.La, b1, sizeof b1), pp_fmt_time(mt.L, b4, sizeof b4));
            printf("  E_a = %.4f   E = %.4f\n", mt.Ea, mt.E);
            double tot = mt.busy + mt.wait + mt.sync;
            /* hybrid MPI + OpenMP: the ranks' teams are threads too */
            char who[64];
            if (m->mpi && mt.nthreads != P)
                snprintf(who, sizeof who, "%d threads of the %d ranks", mt.nthreads, P);
            else
                snprintf(who, sizeof who, "%d %s", mt.nthreads, m->mpi ? "ranks" : "threads");
            if (tot > 0)
                printf("  real machine, all %s: computation %.1f%%, waiting %.1f%%, "
                       "synchronisation cost %.1f%%\n",
                       who, 100 * mt.busy / tot, 100 * mt.wait / tot, 100 * mt.sync / tot);
            if (m->mpi)
                mpi_text(m, &s.mach, &mt);
            if (s.have_machine)
                pp_mem_text(stdout, m, &s.vals, &s.mach, P);
            if (mt.approx)
                printf("  (some loop sums were sampled, not enumerated)\n");
            if (c.by)
                pp_breakdown_text(stdout, &bd, 3, c.threads);
            if (i + 1 < nP)
                printf("\n");
        }
        if (c.by)
            pp_breakdown_free(&bd);
    }
    if (c.format == PP_FMT_JSON)
        printf("%s\n", nP > 1 ? "]" : "");
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
