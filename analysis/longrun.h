/* longrun.h - a prediction that takes long (a large P, large sizes):
 * progress on stderr when it is a terminal, otherwise one line estimating
 * its time when the estimate is over PERFPRED_ESTIMATE_AFTER_MS
 * milliseconds (5000 by default), and Ctrl-C (SIGINT) that stops it at
 * once with a message and exit status 130 (docs/commands.md,
 * "Conventions").
 *
 * A point (pp_point_predict) is a few walks of the thread graph at P:
 * each unrolls the model (instantiate.c) and walks it (traverse.c).  Those
 * call pp_long_tick every PP_LONG_EVERY steps; it reads the clock and
 * nothing else, so a short prediction costs nothing measurable.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_LONGRUN_H
#define PERFPRED_LONGRUN_H

#define PP_LONG_EVERY 4096   /* steps between two looks at the clock (a power of 2) */

/* The command's name, for the lines ("predict"). */
void pp_long_command(const char *cmd);
/* A point at P of `walks` walks begins: SIGINT now stops the command.
 * `what` says which ("P=1000000"). */
void pp_long_point_begin(int P, int walks, const char *what);
/* The point is done: the terminal's line cleared, SIGINT as before. */
void pp_long_point_end(void);
/* A file being written (a temporary one) that Ctrl-C removes; NULL: none. */
void pp_long_remove_on_stop(const char *path);

enum { PP_LONG_UNROLL, PP_LONG_WALK };
/* A walk at P begins (pp_instantiate), its unrolling is done (threads and
 * actions made), and `done` of `total` steps of the phase went by. */
void pp_long_walk_begin(int P);
void pp_long_unrolled(int P, int nthreads, long nactions);
void pp_long_tick(int phase, long done, long total);
/* The walks that follow run n at a time (1: one after the other, as
 * from a point's start): the estimate divides the rest among them, and
 * every thread's walk counts. */
void pp_long_parallel(int n);
/* Whether a tick is due (a tenth of a second since the last; at most
 * every PP_LONG_EVERY steps): for a count that takes time to make. */
int pp_long_due(void);

#endif
