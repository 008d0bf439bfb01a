/* timeline.h - the predicted timeline (perfpred timeline): the traversal
 * of one (chi, P) on the PRAM or the real machine written in the Chrome
 * trace-event JSON format, which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open: one track per thread or rank, its computation
 * (by loop and function body), communication, synchronisation cost,
 * waiting and idle time as slices, and messages, forks and creates as
 * flows (docs/commands.md, "perfpred timeline").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TIMELINE_H
#define PERFPRED_TIMELINE_H

#include "machine.h"
#include "model.h"

#define PP_TIMELINE_MAX_EVENTS 2000000L

typedef struct {
    double time;          /* T of the traversal (ns) */
    int nthreads;
    long events;          /* in the file: metadata, slices, flow ends */
    long slices, flows;   /* X events; flows (each two events)        */
} pp_timeline_info;

/* Unroll the model at the values pv for P, walk it on mach
 * (NULL: the PRAM) and write the trace to path ("-": standard output)
 * through a temporary file renamed at the end, so that path is either
 * the whole trace or untouched.  More than max_events events is an
 * error, and nothing is written.  title names the process track.
 * 0, or -1 with a message. */
int pp_timeline_write(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, const pp_machine *cost_mach,
                      const char *path, long max_events, const char *title, pp_timeline_info *info, char *err,
                      size_t errlen);

#endif
