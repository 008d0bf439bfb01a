/* insitu.h - the machine's synchronisation costs, checked against the
 * recorded runs themselves.
 *
 * A machine file's synchronisation costs come from micro-benchmarks
 * (perfpred calibrate): threads arriving at a barrier together, a mutex
 * handed to a sleeping waiter.  A program's own barriers and wake-ups can
 * cost much less (the waiter was still spinning, or the hypervisor's halt
 * polling caught the wake-up) or more.  When the record was made on the
 * machine the file describes, the record says what they cost: the model
 * replays every recorded run (same size, same P) and one factor on all
 * synchronisation costs is solved for (GSL's Brent root finder) so that
 * the replayed wall times add up to the recorded ones (less the one-time
 * start of OpenMP's thread pool, which the model leaves out).  The work costs are
 * fitted on the same runs, so the difference is the synchronisation's.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_INSITU_H
#define PERFPRED_INSITU_H

#include "machine.h"
#include "model.h"

typedef struct {
    int applied;          /* 1: mach->sync_scale was set                  */
    double factor;        /* the factor found (or the bound it stopped at)*/
    int at_bound;         /* -1: at the lower bound, 1: at the upper one  */
    double rec_ns;        /* the records' wall times, summed, less:       */
    double startup_ns;    /* the start of OpenMP's thread pool (once per
                             process, in the first parallel region: not
                             in the model)                                */
    double fit_ns;        /* the replay's with the factor                 */
    char why[200];        /* when not applied: why                        */
} pp_insitu;

/* The bounds of the factor. */
#define PP_INSITU_MIN 0.02
#define PP_INSITU_MAX 20.0

/* Solve for the factor and set mach->sync_scale to it.  Not applied (and
 * out->why says why) when a record was made on another host than mach
 * describes, when a record has no wall time, or when the program has no
 * synchronisation to scale.  The parameters are restored.  Returns 0, or
 * -1 with a message on an internal error. */
int pp_insitu_sync(const pp_prog *m, pp_machine *mach, pp_insitu *out, char *err, size_t errlen);

#endif
