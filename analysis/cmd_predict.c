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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage =
    "usage: perfpred predict RECORD [--machine FILE] [--set NAME=VALUE]... [--P P[,P...]]\n"
    "                        [--with NAME=VALUE[,NAME=VALUE...]] [--format text|csv|json]\n"
    "                        [--by loop|function|event [--region NAME|FILE:LINE] [--threads]]\n"
    "                        [--csv FILE] [--json FILE]\n"
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
    "  the breakdown's table replaces the prediction's.\n"
    "  --csv FILE, --json FILE: also write the predictions in CSV / JSON to FILE\n"
    "  (one evaluation, several formats; written when every P is predicted).\n";

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

static void mpi_text(FILE *o, const pp_prog *m, const pp_machine *mach, const pp_metrics *mt)
{
    int kinds[PP_EV_OTHER + 1];
    int nk = mpi_kinds(m, kinds);
    const pp_net *n = &mach->net;
    fprintf(o, "  network: L = %.3g us, o = %.3g us, g = %.3g us, G = %.3g ns/byte, eager up to %.0f bytes (%s)\n",
            n->L / 1e3, n->o / 1e3, n->g / 1e3, n->G, n->eager_bytes,
            mach->has_net ? (n->source == 1 ? "measured" : "machine file") : "built-in defaults");
    fprintf(o, "  MPI: %.1f%% of the ranks' time in MPI calls", 100 * share(mt, mt->mpi));
    for (int i = 0; i < nk; i++)
        if (mt->mpi_kind[kinds[i]] > 0)
            fprintf(o, "%s %s %.1f%%", i ? "," : ":", pp_evkind_name(kinds[i]),
                    100 * share(mt, mt->mpi_kind[kinds[i]]));
    fprintf(o, "\n");
    if (mt->unmatched)
        fprintf(o, "  warning: %s\n", mt->note);
    if (mt->t1_summed)
        fprintf(o, "  note: the program cannot run on one rank with these parameters: T1 (and T_MIR = T1/P) is the "
                   "computation of the %d ranks, summed\n", mt->P);
    int per_node = n->ranks_per_node > 0 && n->ranks_per_node < mt->P ? n->ranks_per_node : mt->P;
    if (mach->cores > 0 && per_node > mach->cores)
        fprintf(o, "  note: %d ranks share one node of %d processors (mpi.ranks_per_node = %d): their computation "
                   "is slowed by the machine's compute scaling at %d; describe a cluster in the machine file "
                   "(docs/examples/cluster.machine)\n", per_node, mach->cores, n->ranks_per_node, per_node);
}

/* One point's prediction, kept to be written in each format asked for. */
typedef struct {
    int P;
    pp_metrics mt;
    pp_interval iv;
    double ilo, ihi;      /* ilo > ihi: no interval */
    double tbase;         /* --with: T_real without the change */
    pp_breakdown bd;      /* --by */
} ppoint;

/* What every point's output reads. */
typedef struct {
    pp_cli *c;
    pp_session *s;
    int nk;
    int kinds[PP_EV_OTHER + 1];
    char withtxt[1024];
    int nP;
} pctx;

static void put_head(FILE *o, pp_format fmt, const pctx *x)
{
    const pp_prog *m = &x->s->prog;
    if (fmt != PP_FMT_JSON)   /* a marked machine file: the first line */
        pp_session_mark(x->s, x->c, o, fmt);
    if (fmt == PP_FMT_CSV && x->c->by)
        pp_breakdown_csv_header(o);
    else if (fmt == PP_FMT_CSV) {
        fprintf(o, "P,t_miracle_s,t_pram_s,t_real_s,La_s,L_s,Ea,E,t_real_lo_s,t_real_hi_s");
        if (m->mpi)
            fprintf(o, ",mpi_share");
        for (int k = 0; k < x->nk; k++)
            fprintf(o, ",%s_share", pp_evkind_name(x->kinds[k]));
        if (x->s->has_with)
            fprintf(o, ",t_real_base_s");
        fprintf(o, "\n");
    }
    if (fmt == PP_FMT_JSON && x->nP > 1)
        fprintf(o, "[");
}

static void put_json(FILE *o, const pctx *x, int i, ppoint *p)
{
    pp_session *s = x->s;
    const pp_prog *m = &s->prog;
    const pp_metrics *mt = &p->mt;
    fprintf(o, "%s{", i ? "," : "");
    pp_session_mark(s, x->c, o, PP_FMT_JSON);
    fprintf(o, "\"problem\":");
    pp_problem_json(o, m, &s->vals);
    fprintf(o, ",\"P\":%d,\"time\":{\"miracle\":", p->P);
    pp_json_num(o, mt->t_mir / 1e9);
    fprintf(o, ",\"pram\":");
    pp_json_num(o, mt->t_pram / 1e9);
    fprintf(o, ",\"real\":");
    pp_json_num(o, mt->t_real / 1e9);
    fprintf(o, "},\"La\":");
    pp_json_num(o, mt->La / 1e9);
    fprintf(o, ",\"L\":");
    pp_json_num(o, mt->L / 1e9);
    fprintf(o, ",\"Ea\":");
    pp_json_num(o, mt->Ea);
    fprintf(o, ",\"E\":");
    pp_json_num(o, mt->E);
    fprintf(o, ",\"T1\":");
    pp_json_num(o, mt->t1 / 1e9);
    fprintf(o, ",\"sync_scale\":");
    pp_json_num(o, s->insitu.applied ? s->insitu.factor : 1.0);
    fprintf(o, ",\"threads\":%d,\"thread_time\":{\"computation\":", mt->nthreads);
    pp_json_num(o, mt->busy / 1e9);
    fprintf(o, ",\"waiting\":");
    pp_json_num(o, mt->wait / 1e9);
    fprintf(o, ",\"synchronisation\":");
    pp_json_num(o, mt->sync / 1e9);
    fprintf(o, "},\"approx\":%s,", mt->approx ? "true" : "false");
    if (s->have_machine && pp_machine_marked(&s->mach)) {
        fprintf(o, "\"machine_busy\":");
        pp_machine_busy_json(o, &s->mach, x->c->machine);
        fprintf(o, ",");
    }
    if (s->has_with) {
        fprintf(o, "\"with\":");
        pp_json_str(o, x->withtxt);
        fprintf(o, ",\"baseline_real\":");
        pp_json_num(o, p->tbase / 1e9);
        fprintf(o, ",");
    }
    if (m->mpi) {
        fprintf(o, "\"mpi\":{\"share\":");
        pp_json_num(o, share(mt, mt->mpi));
        fprintf(o, ",\"by_call\":{");
        for (int k = 0; k < x->nk; k++) {
            fprintf(o, "%s\"%s\":", k ? "," : "", pp_evkind_name(x->kinds[k]));
            pp_json_num(o, share(mt, mt->mpi_kind[x->kinds[k]]));
        }
        fprintf(o, "},\"unmatched_messages\":%ld,\"t1_summed\":%s},", mt->unmatched, mt->t1_summed ? "true" : "false");
    }
    if (s->have_machine) {
        pp_mem_json(o, m, &s->vals, &s->mach, p->P);
        fprintf(o, ",");
    }
    fprintf(o, "\"interval\":");
    if (p->ilo <= p->ihi)
        pp_json_interval(o, p->ilo / 1e9, p->ihi / 1e9, p->iv.fit, p->iv.host, p->iv.model, p->iv.counts);
    else
        fprintf(o, "null");
    if (x->c->by) {
        fprintf(o, ",\"breakdown\":");
        pp_breakdown_json(o, &p->bd, 3, x->c->threads);
    }
    fprintf(o, "}");
}

static void put_csv(FILE *o, const pctx *x, ppoint *p)
{
    const pp_metrics *mt = &p->mt;
    if (x->c->by) {
        pp_breakdown_csv(o, &p->bd, 3, x->c->threads);
        return;
    }
    fprintf(o, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6f,%.6f,", p->P, mt->t_mir / 1e9, mt->t_pram / 1e9, mt->t_real / 1e9,
            mt->La / 1e9, mt->L / 1e9, mt->Ea, mt->E);
    if (p->ilo <= p->ihi)
        fprintf(o, "%.9g,%.9g", p->ilo / 1e9, p->ihi / 1e9);
    else
        fprintf(o, ",");
    if (x->s->prog.mpi)
        fprintf(o, ",%.6f", share(mt, mt->mpi));
    for (int k = 0; k < x->nk; k++)
        fprintf(o, ",%.6f", share(mt, mt->mpi_kind[x->kinds[k]]));
    if (x->s->has_with)
        fprintf(o, ",%.9g", p->tbase / 1e9);
    fprintf(o, "\n");
}

static void put_text(FILE *o, const pctx *x, int i, ppoint *p)
{
    pp_session *s = x->s;
    const pp_prog *m = &s->prog;
    const pp_metrics *mt = &p->mt;
    const pp_interval *iv = &p->iv;
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    fprintf(o, "problem:");
    pp_problem_text(o, m, &s->vals);
    fprintf(o, "   P=%d   machine: %s%s%s%s\n", p->P, x->c->machine ? x->c->machine : "built-in defaults",
            s->mach.source == PP_MACHINE_DEFAULT ? " (not measured)" : "", s->has_with ? " with " : "", x->withtxt);
    pp_session_insitu_text(s, o);
    fprintf(o, "  T_MIRACLE  %12s   (T1 = %s)\n", pp_fmt_time(mt->t_mir, b1, sizeof b1),
            pp_fmt_time(mt->t1, b5, sizeof b5));
    fprintf(o, "  T_PRAM     %12s\n", pp_fmt_time(mt->t_pram, b2, sizeof b2));
    fprintf(o, "  T_real     %12s", pp_fmt_time(mt->t_real, b3, sizeof b3));
    if (p->ilo <= p->ihi) {
        fprintf(o, "   90%% interval [%s, %s] (costs +-%.1f%%, host +-%.1f%%, model +-%.1f%%",
                pp_fmt_time(p->ilo, b1, sizeof b1), pp_fmt_time(p->ihi, b2, sizeof b2), 200 * iv->fit,
                200 * iv->host, 200 * iv->model);
        if (iv->counts > 0)
            fprintf(o, ", counts +-%.1f%%", 200 * iv->counts);
        fprintf(o, ")");
    }
    fprintf(o, "\n");
    if (s->has_with)
        fprintf(o, "  what-if: T_real %s with %s, %s without (%+.1f%%)\n", pp_fmt_time(mt->t_real, b1, sizeof b1),
                x->withtxt, pp_fmt_time(p->tbase, b2, sizeof b2),
                p->tbase > 0 ? 100 * (mt->t_real - p->tbase) / p->tbase : 0.0);
    fprintf(o, "  L_a = %s   L = %s\n", pp_fmt_time(mt->La, b1, sizeof b1), pp_fmt_time(mt->L, b4, sizeof b4));
    fprintf(o, "  E_a = %.4f   E = %.4f\n", mt->Ea, mt->E);
    double tot = mt->busy + mt->wait + mt->sync;
    /* hybrid MPI + OpenMP: the ranks' teams are threads too */
    char who[64];
    if (m->mpi && mt->nthreads != p->P)
        snprintf(who, sizeof who, "%d threads of the %d ranks", mt->nthreads, p->P);
    else
        snprintf(who, sizeof who, "%d %s", mt->nthreads, m->mpi ? "ranks" : "threads");
    if (tot > 0)
        fprintf(o, "  real machine, all %s: computation %.1f%%, waiting %.1f%%, synchronisation cost %.1f%%\n", who,
                100 * mt->busy / tot, 100 * mt->wait / tot, 100 * mt->sync / tot);
    if (m->mpi)
        mpi_text(o, m, &s->mach, mt);
    if (s->have_machine)
        pp_mem_text(o, m, &s->vals, &s->mach, p->P);
    if (mt->approx)
        fprintf(o, "  (some loop sums were sampled, not enumerated)\n");
    if (x->c->by)
        pp_breakdown_text(o, &p->bd, 3, x->c->threads);
    if (i + 1 < x->nP)
        fprintf(o, "\n");
}

static void put_point(FILE *o, pp_format fmt, const pctx *x, int i, ppoint *p)
{
    if (fmt == PP_FMT_JSON)
        put_json(o, x, i, p);
    else if (fmt == PP_FMT_CSV)
        put_csv(o, x, p);
    else
        put_text(o, x, i, p);
}

static void put_tail(FILE *o, pp_format fmt, const pctx *x)
{
    if (fmt == PP_FMT_JSON)
        fprintf(o, "%s\n", x->nP > 1 ? "]" : "");
}

/* Whether path can be written (its folder, and the file if it is there):
 * said before minutes of predictions rather than after. */
static int writable(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = 0;
    else
        snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK | X_OK) != 0 || (access(path, F_OK) == 0 && access(path, W_OK) != 0)) {
        fprintf(stderr, "perfpred predict: %s: cannot write: %s\n", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* --csv FILE and --json FILE: the points in that format, written once all
 * are predicted (an error or Ctrl-C before leaves no file).  0, or 2. */
static int put_files(const pctx *x, ppoint *pts)
{
    for (int pass = 0; pass < 2; pass++) {
        const char *path = pass ? x->c->also_json : x->c->also_csv;
        pp_format fmt = pass ? PP_FMT_JSON : PP_FMT_CSV;
        if (!path)
            continue;
        FILE *o = fopen(path, "w");
        if (!o) {
            fprintf(stderr, "perfpred predict: %s: cannot write: %s\n", path, strerror(errno));
            return 2;
        }
        put_head(o, fmt, x);
        for (int i = 0; i < x->nP; i++)
            put_point(o, fmt, x, i, &pts[i]);
        put_tail(o, fmt, x);
        if (ferror(o) | (fclose(o) != 0)) {
            fprintf(stderr, "perfpred predict: %s: cannot write: %s\n", path, strerror(errno));
            remove(path);
            return 2;
        }
    }
    return 0;
}

int pp_cmd_predict(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "predict",
                          "set,machine,P,format,draws,cache-rule,insitu,model-error,cost-quantile,with,by,region,threads,"
                          "csv,json",
                          usage, &c);
    if (st >= 0)
        return st;
    if (c.threads && !c.by && !c.region) {
        fprintf(stderr, "perfpred predict: --threads goes with --by (or --region)\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    if (c.region && !c.by)
        c.by = 1 + PP_BY_LOOP;
    if ((c.also_csv && !writable(c.also_csv)) || (c.also_json && !writable(c.also_json))) {
        pp_cli_free(&c);
        return 2;
    }
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
    pctx x = {.c = &c, .s = &s, .nP = c.nP ? c.nP : 1};
    x.nk = mpi_kinds(m, x.kinds);
    if (s.has_with)
        pp_whatif_text(&c.with, x.withtxt, sizeof x.withtxt);
    ppoint *pts = calloc((size_t)x.nP, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "perfpred predict: out of memory\n");
        pp_session_close(&s);
        pp_cli_free(&c);
        return 1;
    }
    int rc = 0, done = 0;
    put_head(stdout, c.format, &x);
    for (int i = 0; i < x.nP && rc == 0; i++) {
        ppoint *p = &pts[i];
        int P = p->P = c.nP ? c.P[i] : pp_prog_default_P(m, &s.vals);
        int draws = c.has_draws ? c.draws : PP_DRAWS_AUTO;
        int has_iv;
        if (pp_point_predict(m, &s.vals, &s.mach, P, 0, draws, &p->mt, &p->iv, &has_iv, err, sizeof err)) {
            fprintf(stderr, "perfpred predict: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        p->ilo = has_iv ? p->iv.lo : 1;
        p->ihi = has_iv ? p->iv.hi : 0;
        if (s.has_with && pp_session_baseline_real(&s, P, &p->tbase, err, sizeof err)) {
            fprintf(stderr, "perfpred predict: %s: without --with: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        if (c.by) {
            int r = pp_breakdown_run(m, &s.vals, &s.mach, P, (pp_by)(c.by - 1), c.region ? &region : NULL, &p->bd,
                                     err, sizeof err);
            if (r == 0 && (p->bd.time[PP_BD_REAL] != p->mt.t_real || p->bd.time[PP_BD_PRAM] != p->mt.t_pram)) {
                snprintf(err, sizeof err, "internal error: the breakdown's traversal gives T_real = %.17g ns, "
                         "T_PRAM = %.17g ns, the prediction's %.17g ns, %.17g ns", p->bd.time[PP_BD_REAL],
                         p->bd.time[PP_BD_PRAM], p->mt.t_real, p->mt.t_pram);
                pp_breakdown_free(&p->bd);
                r = -2;
            }
            if (r) {
                fprintf(stderr, "perfpred predict: %s: %s\n", s.rec.path, err);
                rc = r == -2 ? 1 : 2;
                break;
            }
        }
        done = i + 1;
        put_point(stdout, c.format, &x, i, p);
    }
    put_tail(stdout, c.format, &x);
    if (rc == 0)
        rc = put_files(&x, pts);
    for (int i = 0; c.by && i < done; i++)
        pp_breakdown_free(&pts[i].bd);
    free(pts);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
