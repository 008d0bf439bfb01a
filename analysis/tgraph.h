/* tgraph.h - the thread graph of an instance (Zhang & Xu 1995, section 3.1,
 * Figures 2-6) as a Graphviz graph: one cluster per logical thread with its
 * events top to bottom, loops holding events as arcs annotated with their
 * iteration counts, and communication edges (create/start, exit/join,
 * fork/team, team/join, barrier ovals, lock boxes).  Written as DOT
 * (agwrite) or laid out with dot and rendered as SVG.  docs/graph.md
 * describes the drawing.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TGRAPH_H
#define PERFPRED_TGRAPH_H

#include <stddef.h>
#include <graphviz/cgraph.h>

#include "cli.h"
#include "model.h"

/* Build the graph of an instance made with PP_INST_ACTIONS|PP_INST_STRUCT.
 * m gives source lines and count texts; it may be NULL (or lack a
 * function an action names), and the labels then say less.  The root graph
 * carries the attributes `threads`, `barrier_sites`, `locks`, `P`; each
 * thread cluster `kind` (main, pthread, omp) and `thread`; each LOOP_OPEN
 * node `count`; each barrier oval `object`, `parties` and `members`.
 * Returns NULL with a message on failure.  Free with pp_tgraph_free. */
Agraph_t *pp_tgraph_build(const pp_prog *m, const pp_instance *in, char *err, size_t errlen);
void pp_tgraph_free(Agraph_t *g);

/* Write g as PP_FMT_DOT or PP_FMT_SVG to path (NULL or "-": stdout).
 * Returns 0, or -1 with a message naming the file. */
int pp_tgraph_write(Agraph_t *g, pp_format fmt, const char *path, char *err, size_t errlen);

#endif
