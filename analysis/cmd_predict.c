/* cmd_predict.c - `perfpred predict RECORD --machine FILE [--set N=V]...
 * --P P`: times on the MIRACLE, PRAM and real machines, the latencies L_a
 * and L, and the efficiencies E_a and E (Zhang & Xu, eqs. 2-5).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "breakdown.h"
#include "cli.h"
#include "cmds.h"
#include "metrics.h"
#include "point.h"
#include "predict-out.h"

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
static int put_files(const pp_pout *x, pp_pout_point *pts)
{
    char err[4200];
    for (int pass = 0; pass < 2; pass++) {
        const char *path = pass ? x->c->also_json : x->c->also_csv;
        if (path && pp_pout_file(x, path, pass ? PP_FMT_JSON : PP_FMT_CSV, pts, err, sizeof err)) {
            fprintf(stderr, "perfpred predict: %s\n", err);
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
    pp_pout x;
    pp_pout_init(&x, &c, &s, c.nP ? c.nP : 1);
    pp_pout_point *pts = calloc((size_t)x.nP, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "perfpred predict: out of memory\n");
        pp_session_close(&s);
        pp_cli_free(&c);
        return 1;
    }
    int rc = 0, done = 0;
    pp_pout_head(stdout, c.format, &x);
    for (int i = 0; i < x.nP && rc == 0; i++) {
        pp_pout_point *p = &pts[i];
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
        pp_pout_write(stdout, c.format, &x, i, p);
    }
    pp_pout_tail(stdout, c.format, &x);
    if (rc == 0)
        rc = put_files(&x, pts);
    for (int i = 0; c.by && i < done; i++)
        pp_breakdown_free(&pts[i].bd);
    free(pts);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
