/* cost-internal.h - what the cost fit (cost.c) and its measured rows
 * (cost-timed.c) share: the columns of the unknowns and the rows.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_COST_INTERNAL_H
#define PERFPRED_COST_INTERNAL_H

#include "model.h"

typedef struct {
    int func, kind, idx;   /* kind 0: loop iterations (H part), 1: loop
                              entries (subtracted for top-tested), 2: call,
                              3: a timed loop's ticks, 4: its timed
                              entries, -1: none of these */
} slotmap;

/* One row of the fit: a segment (dur its time) or a measured loop's time */
typedef struct {
    double dur;
    int n;
    int *col;
    double *val;
} segment;

/* Column of each unknown: 0 = c0, then loops, then calls. */
typedef struct {
    int ncols;
    int *loop_col_base;    /* per func: first column of its loops */
    int *call_col_base;
    int *entry_col_base;   /* per func: first column of its loops' entries */
} layout;

/* adds v to the row's column col; -1: out of memory */
int pp_cost_add_entry(segment *s, int col, double v);

/* The factor for the rows from nseg to nrows (the measured loops') that
 * gives them the mean squared residual, against the costs c, of the rows
 * before nseg (the segments'): the root of the ratio of the two mean
 * squares; 1 where either group has no residual. */
double pp_cost_group_scale(const double *A, const double *dur, long nseg, long nrows, int ncols, const double *c);

/* cost-timed.c: the rows loop timing gives (docs/model.md, "Measured
 * loop costs").  Per segment, pp_timed_segment notes every timed loop's
 * time in it; pp_timed_rows then appends one row per (record, loop,
 * iterations per entry within a factor of sqrt 2): the loop's measured
 * time, over the iterations and entries of it and of the loops inside it. */
typedef struct pp_timed pp_timed;

pp_timed *pp_timed_new(const pp_prog *m, const layout *lay, slotmap **maps);
void pp_timed_free(pp_timed *t);
/* The ns the timing itself took in a segment (timed entries x the
 * record's cost per entry). */
double pp_timed_overhead(const pp_timed *t, const pp_record *r, const pp_rdelta *d, int nd, const int *fmap);
/* Notes the segment's timed loops (record ri; their wall-clock times
 * divided by slow, the slowdown of concurrency over the share of the
 * segment the thread ran); dur is
 * the segment's own (deflated) time, for the cross-check.  -1: out of
 * memory. */
int pp_timed_segment(pp_timed *t, int ri, const pp_record *r, const pp_rdelta *d, int nd, const int *fmap,
                     double slow, double dur);
/* Appends the rows to *seg (weight w), the least of repeated runs only. */
int pp_timed_rows(pp_timed *t, segment **seg, long *nseg, long *capseg, double w);

/* A loop's timed entries measured raw ns in all, the timing's own window
 * over them window ns: too short to be timed (the window is more than a
 * quarter of what they measured), 1; else 0.  Such a loop's rows are
 * left out where a loop around it has rows of its own. */
#define PP_TIMED_MIN_WINDOWS 12.0
int pp_timed_too_short(double raw, double window);
/* After the fit: marks the measured loops (pp_mloop.cost_measured), and
 * warns where the measured loops' time exceeds their segments'. */
void pp_timed_finish(const pp_timed *t, pp_prog *m);

#endif
