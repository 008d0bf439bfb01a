/* segments.h - the work segments of a record: per thread, the time from
 * the return of one event to the entry of the next (CPU time where the
 * record has it, wall time otherwise) and the counter increments in it.
 * Left out: what is not the program's work (an OpenMP pool thread idle
 * between teams, libgomp starting a team or joining it).
 *
 * Each segment also carries its concurrency: the mean number of work
 * segments (its own included) running at the same wall-clock time.  The
 * cost fit uses it to take out the slowdown threads running together
 * cause each other (shared core resources, memory bandwidth), so that the
 * fitted costs are one thread's, and the traversal puts back the slowdown
 * of the concurrency at the predicted P (see docs/model.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SEGMENTS_H
#define PERFPRED_SEGMENTS_H

#include "record.h"

/* Called once per segment; a non-zero return stops the walk and is
 * returned (-1 is also returned when memory runs out). */
/* ns is the segment's time (CPU time where the record has it), wall its
 * wall-clock time. */
typedef int (*pp_segment_fn)(void *ctx, double ns, double wall, double conc, const pp_rdelta *d, int nd);

int pp_segments_walk(const pp_record *r, pp_segment_fn fn, void *ctx);

#endif
