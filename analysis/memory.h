/* memory.h - the memory hierarchy in the prediction (docs/model.md,
 * "memory").
 *
 * The costs are fitted at the recorded size, where the program's data may
 * sit in a near cache; at the predicted size they may not.  For every loop
 * the plugin lists its memory streams (mem=: the bytes its own statements
 * walk per iteration; desc.h).  A stream its enclosing loop walks again (a
 * row reused) comes back after one entry of the loop: it is served at the
 * bandwidth of a working set of the loop's trip count times the bytes all
 * its streams walk per iteration (taken as cached when the trip count
 * depends on an enclosing loop's variable).  The others come back when
 * the enclosing loop is entered again: they are served at the bandwidth
 * of what one entry of the enclosing loop walks (its streams and its
 * sub-loops', a sub-loop's reused stream counted once), at most the
 * program's arrays (the shapes the plugin found, evaluated at the size);
 * the program's arrays when that is not known (a trip count in the
 * enclosing loops' variables, a call to a function of the program).
 * Where such a count is a thread's own (a block partition's lo..hi), the
 * instantiation prices the loop per thread with the thread's values
 * (pp_mem_thread_ns, inst-mem.c).  The machine file gives that
 * bandwidth: one thread streaming working sets of half of each cache level
 * and one larger than the caches, interpolated in log(bytes).
 *
 * A loop's time per iteration at a size is then its fitted cost plus the
 * extra time of its streams there over their time at the recorded size
 * (no overlap of computation and memory: an upper bound; a loop the data
 * at the recorded size already left the caches for changes little).  A
 * stream counts its step's bytes (a cache line at most), 3/4 of them read
 * and 3/2 written in calibrate's units, and once per row when the rows it
 * merges (a stencil's u[i-1][j], u[i+1][j]) no longer fit in the L1
 * (pp_mem_row_lines, pp_mem_line_ns).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MEMORY_H
#define PERFPRED_MEMORY_H

#include "machine.h"
#include "costs.h"
#include "model.h"

/* ns per iteration of a stream of `bytes` per iteration (its step, a
 * cache line at most) walking `lines` line streams (pp_mem_row_lines),
 * served at bw bytes/ns of calibrate's triad: the stream counts 3/4 of
 * its bytes when only read, 3/2 when written (the triad moves 32 bytes
 * for the 24 it is counted); each further line (a row only read: a
 * stencil's neighbours above and below) 3/4 of its bytes at bw over what
 * they cost at bw_l1, the bandwidth of a working set in the L1, where the
 * row was read when it stayed there (that time is in the fitted cost).
 * 0 for bw <= 0. */
double pp_mem_line_ns(double bytes, int written, int lines, double bw, double bw_l1);

/* The cache-line streams one memory stream walks when it merges `rows`
 * rows (memr=: u[i-1][j], u[i][j] and u[i+1][j] of a stencil, each read
 * again one entry of the loop after the one before it): one while the
 * rows the loop reads at once fit in the L1 (live_bytes, the loop's trip
 * count times the cache bytes of all its streams' rows per iteration, at
 * most l1_bytes), then every row: each is read again from beyond the L1,
 * and from where the stream's data are (its working set's bandwidth: on
 * the development VM a five-point stencil whose rows miss the L1 slows by
 * what a stream per row costs from the memory, and by nothing while its
 * data sit in the L2 or L3).  1 for rows <= 1 or without an L1 size. */
int pp_mem_row_lines(int rows, double live_bytes, double l1_bytes);

/* ns per iteration loop k of function f spends on its streams at pv
 * (NULL: the recorded point), with the program's arrays `footprint` bytes large;
 * 0 without streams or bandwidths. */
double pp_mem_stream_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k,
                        double footprint);

/* The part of pp_mem_stream_ns served from the memory (a working set
 * larger than the last cache level): the traffic whose bandwidth the
 * threads that run at once share (the machine's scale.memory); 0 without
 * cache sizes. */
double pp_mem_shared_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k,
                        double footprint);

/* Where pp_mem_thread_ns gets a loop's trip count (iterations per
 * entry) from: trip(u, k, &n) gives loop k's of the function, 0 when it
 * could (instantiate's frame: a thread's values).  A stream whose working
 * set depends on a thread's values is that thread's own data: `threads`
 * of them run at once, each with its own private L2 (cache.l2_bytes) and
 * the shared levels divided among them, priced as one thread streaming
 * L2 + threads x (ws - L2) bytes on the machine's one-thread curve.  Out:
 * unknown (a trip count could not be had), beyond (a stream past the
 * memory edge), whole (a stream served at the program's arrays, which
 * all threads share: not divided), ws (the largest working set of the
 * other streams, the thread's own). */
typedef struct pp_mem_eval {
    int (*trip)(void *u, int k, double *n);
    void *u;
    int threads;
    int unknown, beyond, whole;
    double ws;
} pp_mem_eval;

/* pp_mem_stream_ns of loop k of f with x's trip counts; *shared gets the
 * part of it past the memory edge (pp_mem_shared_ns).  -1 when a trip
 * count could not be had. */
double pp_mem_thread_ns(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int f, int k, double footprint,
                        pp_mem_eval *x, double *shared);

/* Make the model ready to price the memory at any parameters on mach, a
 * part of building it for a machine: the streams' times at the recorded
 * size, which loops are priced per thread and at what in the record
 * (model.h, pp_mem_rec), computed once per machine, before the machine
 * is changed by a what-if (the recorded costs were measured on it).  The
 * evaluation only reads them (pp_mem_rec_of); on a machine the model was
 * not prepared for it computes them for the point alone.  -1 when memory
 * runs out.
 * pp_mem_forget drops a machine's (one that goes out of scope). */
int pp_mem_prepare(pp_prog *m, const pp_machine *mach);
void pp_mem_forget(pp_prog *m, const pp_machine *mach);
/* The prices pp_mem_prepare made for mach, or NULL. */
const pp_mem_rec *pp_mem_rec_of(const pp_prog *m, const pp_machine *mach);

/* The costs at the point pv for mach into *out (pp_costs_free
 * frees them): those given (from, [m->nslot]; NULL: the fitted ones)
 * with every loop's cost moved by the change of its stream time and its
 * shared part (pp_mem_shared_ns, at most the cost) in out->mem.  They are
 * the costs given as they are (out->mem NULL) when the model is off
 * (m->cache_rule == 0), without a machine, or without shapes.  The model
 * only read (pp_mem_prepare(m, mach) first spares computing the prices
 * at the recorded size each time).  With the model off, *out refers to
 * `from`: it must outlive *out.  Returns -1 when memory runs out. */
int pp_mem_costs(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, const double *from, pp_costs *out);

/* What the model prices for one loop with streams (predict's "memory"
 * lines): the bytes its streams take per iteration (a cache line at most
 * each), the largest working set one of them is served from at the
 * point's values and at the recorded ones (0 when each is taken as
 * cached), whether that lies beyond the memory edge
 * (pp_machine_memory_edge), and the ns per iteration the model adds to
 * the fitted cost (before the what-if `memory` factor). */
typedef struct {
    int f, k;
    double bytes;
    double ws, ws_rec;
    int beyond, beyond_rec;
    double extra_ns;
    /* 1: ws, ws_rec and extra_ns are a thread's (the largest working set
     * of the threads, the iteration-weighted mean of the added time),
     * `threads` sharing the last level; 2: a trip count its working set
     * needs is in neither the parameters nor a thread's values (a
     * triangular nest, a count from loaded data): the rule of the whole
     * data */
    int per_thread, threads;
} pp_mem_loop;

/* The loops with streams (or gathers and chases) at pv and P into *out (malloc'd; the caller frees it); their
 * number, 0 when the model does not apply (the conditions of
 * pp_mem_costs), -1 when memory runs out. */
int pp_mem_report(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_mem_loop **out);

#endif
