/* cmd_graph.c - `perfpred graph RECORD [--P N] [--set NAME=V]... [-o FILE]
 * [--format dot|svg]`: the thread graph of the program at (chi, P), each
 * loop holding events drawn once with its iteration count (tgraph.h,
 * docs/graph.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "tgraph.h"

#include <stdio.h>
#include <string.h>

#define MAX_GRAPH_P 4096

static const char *usage =
    "usage: perfpred graph RECORD [--P N] [--set NAME=VALUE]... [-o FILE] [--format dot|svg]\n"
    "  Draws the thread graph (Zhang & Xu 1995) at the given problem size and P\n"
    "  (default: the recorded ones): one cluster per thread with its events in\n"
    "  order, loops holding events as arcs labelled with their iteration counts,\n"
    "  fork/join/create edges, one oval per barrier and one box per lock.\n"
    "  The format is --format, else the extension of -o (.svg, .dot/.gv), else DOT;\n"
    "  the output goes to FILE, or to standard output.\n";

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* --format, else -o's extension, else DOT.  -1 for a table format. */
static int output_format(const pp_cli *c, pp_format *fmt)
{
    if (c->format_given) {
        if (c->format != PP_FMT_DOT && c->format != PP_FMT_SVG)
            return -1;
        *fmt = c->format;
    } else if (c->out && (ends_with(c->out, ".svg") || ends_with(c->out, ".SVG")))
        *fmt = PP_FMT_SVG;
    else
        *fmt = PP_FMT_DOT;
    return 0;
}

static int run(const pp_cli *c, pp_format fmt)
{
    char err[1024];
    pp_session s;
    if (pp_session_open(&s, c, 0, err, sizeof err)) {
        fprintf(stderr, "perfpred graph: %s\n", err);
        return 2;
    }
    pp_session_warn(&s);
    pp_prog *m = &s.prog;
    int P = c->nP ? c->P[0] : pp_prog_default_P(m, &s.vals);
    if (P < 1 || P > MAX_GRAPH_P) {
        fprintf(stderr, "perfpred graph: %s: P = %d: a drawing needs 1 <= P <= %d\n", s.rec.path, P,
                MAX_GRAPH_P);
        pp_session_close(&s);
        return 2;
    }
    pp_vals_apply_P(m, &s.vals, P);
    pp_instance in;
    if (pp_instantiate(m, &s.vals, P, PP_INST_ACTIONS | PP_INST_STRUCT, &in, err, sizeof err)) {
        fprintf(stderr, "perfpred graph: %s: at P = %d: %s\n", s.rec.path, P, err);
        pp_session_close(&s);
        return 2;
    }
    int rc = 0;
    Agraph_t *g = pp_tgraph_build(m, &in, err, sizeof err);
    if (!g) {
        fprintf(stderr, "perfpred graph: %s: %s\n", s.rec.path, err);
        rc = 1;
    } else if (pp_tgraph_write(g, fmt, c->out, err, sizeof err)) {
        fprintf(stderr, "perfpred graph: %s\n", err);
        rc = 2;
    }
    pp_tgraph_free(g);
    pp_instance_free(&in);
    pp_session_close(&s);
    return rc;
}

int pp_cmd_graph(int argc, char **argv)
{
    pp_cli c;
    int st = pp_cli_start(argc, argv, "graph", "set,P,format,o,graphfmt", usage, &c);
    if (st >= 0)
        return st;
    pp_format fmt;
    int rc;
    if (c.nP > 1) {
        fprintf(stderr, "perfpred graph: --P takes one processor count for a drawing\n%s", usage);
        rc = 2;
    } else if (output_format(&c, &fmt)) {
        fprintf(stderr, "perfpred graph: --format: a graph is written as dot or svg\n%s", usage);
        rc = 2;
    } else
        rc = run(&c, fmt);
    pp_cli_free(&c);
    return rc;
}
