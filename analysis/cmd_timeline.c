/* cmd_timeline.c - `perfpred timeline RECORD... [--set NAME=V]... [--P N]
 * [--on real|pram] [--machine FILE] [--max-events K] -o FILE`: the
 * predicted traversal at (chi, P) as a Chrome trace-event JSON file for
 * Perfetto (timeline.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "longrun.h"
#include "cmds.h"
#include "timeline.h"

#include <stdio.h>
#include <string.h>

static const char *usage =
    "usage: perfpred timeline RECORD... [--set NAME=VALUE]... [--P N] [--on real|pram]\n"
    "                         [--machine FILE] [--max-events K] -o FILE\n"
    "  Writes the predicted execution at the given problem size and P (default:\n"
    "  the recorded ones) on the real machine (or the PRAM, --on pram) in the\n"
    "  Chrome trace-event JSON format, which Perfetto (ui.perfetto.dev) opens: one\n"
    "  track per thread or rank, its computation (by loop and function), MPI\n"
    "  communication, synchronisation cost, waiting and idle time as slices,\n"
    "  messages, forks and creates as arrows.  FILE is written whole or not at\n"
    "  all (-o -: standard output).  A timeline of more than K events (default\n"
    "  2000000, about 120 bytes each) is refused: choose a smaller P or size.\n"
    "  --cache-rule, --insitu, --cost-quantile and --with are predict's.\n";

int pp_cmd_timeline(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "timeline", "set,machine,P,on,max-events,o,cache-rule,insitu,cost-quantile,with",
                          usage, &c);
    if (st >= 0)
        return st;
    if (!c.out) {
        fprintf(stderr, "perfpred timeline: needs -o FILE (a .json file for Perfetto; - for standard output)\n%s",
                usage);
        pp_cli_free(&c);
        return 2;
    }
    if (c.nP > 1) {
        fprintf(stderr, "perfpred timeline: --P takes one processor count\n");
        pp_cli_free(&c);
        return 2;
    }
    int pram = c.on == 2;
    pp_session s;
    if ((st = pp_cli_open("timeline", &c, 1, &s)) >= 0)
        return st;
    pp_prog *m = &s.prog;
    int P = c.nP ? c.P[0] : pp_prog_default_P(m, &s.vals);
    char title[512];
    size_t len = (size_t)snprintf(title, sizeof title, "%s", s.rec.program ? s.rec.program : "program");
    for (int k = 0; k < m->nparams && len < sizeof title; k++) {
        if (m->pkind == PP_P_PARAM && k == m->p_param)
            continue;
        len += (size_t)snprintf(title + len, sizeof title - len, " %s=%ld", m->params[k].name, s.vals.v[k]);
    }
    if (len < sizeof title)
        snprintf(title + len, sizeof title - len, " P=%d, %s", P, pram ? "PRAM" : "real machine");
    pp_timeline_info info;
    int rc = 0;
    /* progress, an estimate, Ctrl-C (longrun.h): one walk at P */
    char what[64];
    snprintf(what, sizeof what, "P=%d", P);
    pp_long_point_begin(P, 1, what);
    int wr = pp_timeline_write(m, &s.vals, pram ? NULL : &s.mach, P, &s.mach, c.out, c.max_events, title, &info, err,
                               sizeof err);
    pp_long_point_end();
    if (wr) {
        fprintf(stderr, "perfpred timeline: %s: %s\n", s.rec.path, err);
        rc = 2;
    } else if (strcmp(c.out, "-")) {
        char tb[32];
        pp_session_mark(&s, &c, stdout, PP_FMT_TEXT);   /* a marked machine file: the first line */
        printf("%s: %ld events (%ld slices, %ld flows) on %d tracks, T_%s = %s\n", c.out, info.events, info.slices,
               info.flows, info.nthreads, pram ? "PRAM" : "real", pp_fmt_time(info.time, tb, sizeof tb));
    }
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
