/* cmd_scale.c - `perfpred scale RECORD --machine FILE --scale N[,M]
 * --P 2,4,8 --Ea 0.7 --E 0.25`: the algorithmic scalability table at E_a
 * (PRAM against MIRACLE: no synchronisation cost, the costs those of the
 * --machine given, as in predict) and the combination table at
 * E (the real machine), upper triangular, with the problem size for each P
 * in the last row (Zhang & Xu, Tables 1-10), then T_real at each of those
 * sizes with its 90% confidence interval (as predict gives it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "point.h"
#include "scale.h"
#include "scale-out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred scale RECORD [--machine FILE] --scale NAME[,NAME...] --P P,P,...\n"
    "                      [--Ea X] [--E X] [--set NAME=VALUE]... [--with NAME=VALUE,...]\n"
    "                      [--max S] [--draws K] [--format text|csv|json]\n"
    "  For each P, finds the smallest problem size on the scaling path (the --scale\n"
    "  parameters grown together, in their recorded ratios; the others as recorded or\n"
    "  --set) that holds the algorithmic efficiency E_a (--Ea) or the parallel\n"
    "  efficiency E (--E), and prints Scale(P,P') = L(chi,P)/L(chi',P'), then T_real\n"
    "  at each size found with its 90% confidence interval, as predict gives it\n"
    "  (--draws K: from K Monte Carlo draws of the costs; 0: no interval).\n"
    "  --max S: no size of the first --scale parameter above S is searched (a P not\n"
    "  reached by then is at the limit, with the efficiency at S).\n"
    "  --csv FILE and --json FILE also write the tables in those formats.\n"
    "  --cost-quantile Q: the costs sit at the Q-quantile of the segments' slowdown\n"
    "  against their least-squares fit (default 'mean': the fit as it is).\n"
    "  --with NAME=VALUE,...: the tables of a machine changed so (see predict).\n"
    "  --insitu on|off, --cache-rule on|off, --model-error E: as for predict.\n";

int pp_cmd_scale(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "scale", "set,machine,P,format,draws,scale,Ea,E,csv,json,cache-rule,insitu,model-error,cost-quantile,with,max", usage, &c);
    if (st >= 0)
        return st;
    if (!c.nscale || !c.nP || (!c.has_Ea && !c.has_E)) {
        fprintf(stderr, "perfpred scale: needs --scale, --P and at least one of --Ea, --E\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    /* the machine given is loaded for E_a too: its slowdown at the
     * recorded concurrency comes out of the costs and its memory model
     * prices the loops, as in predict (without it the algorithmic table
     * found other sizes than predict's E_a said) */
    if ((st = pp_cli_open("scale", &c, c.has_E || c.with.n > 0 || c.machine != NULL, &s)) >= 0)
        return st;
    const pp_prog *m = &s.prog;
    int sp[32];
    int rc = 0;
    if (c.nscale > 32) {
        fprintf(stderr, "perfpred scale: at most 32 --scale parameters\n");
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < c.nscale; i++) {
        sp[i] = pp_prog_param_index(m, c.scale[i]);
        char hint[512];
        if (sp[i] < 0 && pp_prog_derived_hint(m, c.scale[i], hint, sizeof hint) == 0) {
            fprintf(stderr, "perfpred scale: --scale %s: %s\n", c.scale[i], hint);
            rc = 2;
        } else if (sp[i] < 0) {
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
    /* --set values are the start of the path */
    int ntab = 0;
    pp_scale_table tabs[2];
    for (int k = 0; rc == 0 && k < 2; k++) {
        if ((k == 0 && !c.has_Ea) || (k == 1 && !c.has_E))
            continue;
        if (pp_scale_compute(m, &s.vals, &s.mach, k == 0 ? PP_SCALE_ALGORITHMIC : PP_SCALE_COMBINATION,
                             k == 0 ? c.Ea : c.E, sp, c.nscale, c.P, c.nP, c.max_size, &tabs[ntab], pp_cli_progress, NULL,
                             err, sizeof err)) {
            fprintf(stderr, "perfpred scale: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        ntab++;
    }
    pp_scale_times times[2];
    memset(times, 0, sizeof times);
    int draws = c.has_draws ? c.draws : PP_DRAWS_AUTO;
    for (int i = 0; rc == 0 && i < ntab; i++)
        if (pp_scale_times_at(m, &s.mach, &tabs[i], &s.vals, draws, &times[i], err, sizeof err)) {
            fprintf(stderr, "perfpred scale: %s: %s\n", s.rec.path, err);
            rc = 2;
        }
    if (rc == 0)
        pp_scale_out(stdout, c.format, &c, &s, tabs, times, ntab);
    for (int pass = 0; rc == 0 && pass < 2; pass++) {
        /* --csv FILE, --json FILE */
        const char *path = pass ? c.also_json : c.also_csv;
        if (path && pp_scale_out_file(path, pass ? PP_FMT_JSON : PP_FMT_CSV, &c, &s, tabs, times, ntab, err,
                                      sizeof err)) {
            fprintf(stderr, "perfpred scale: %s\n", err);
            rc = 2;
        }
    }
    for (int i = 0; i < ntab; i++) {
        pp_scale_free(&tabs[i]);
        pp_scale_times_free(&times[i]);
    }
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
