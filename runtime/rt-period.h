/* rt-period.h - the sampling period of loop timing (rt-timing.c).
 *
 * After each timed entry of a loop, the loop's period (one entry timed in
 * about that many, per thread) moves half-way to the period that entry
 * asks for: the one at which a timed entry (a pair of calls, PAIR ticks)
 * costs 1/SHARE of the loop's time, D ticks an entry.  SHARE is
 * PP_TIMING_SHARE, or PP_TIMING_WARM_SHARE for a loop's first
 * PP_TIMING_WARM timed entries in the thread: a short run (a record at a
 * reduced size) still times enough entries of each loop, and a long one
 * spends about 1/PP_TIMING_SHARE of each timed loop's time on timing.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RT_PERIOD_H
#define PERFPRED_RT_PERIOD_H

#include <stdint.h>

#define PP_TIMING_SHARE 1000
#define PP_TIMING_WARM_SHARE 200
#define PP_TIMING_WARM 64
#define PP_TIMING_MAX_PERIOD (1u << 20)

/* rt-timing.c compiles it for the general registers only */
#ifndef PP_PERIOD_ATTR
#define PP_PERIOD_ATTR
#endif

/* The period after a timed entry of D ticks, the TIMED-th of the loop in
 * this thread (counting this one), the period being CUR (0: none yet) and
 * a pair of calls PAIR ticks. */
static inline PP_PERIOD_ATTR uint64_t pp_timing_period(uint64_t cur, uint64_t d, uint64_t pair, uint64_t timed)
{
    uint64_t share = timed <= PP_TIMING_WARM ? PP_TIMING_WARM_SHARE : PP_TIMING_SHARE;
    uint64_t want = d ? pair * share / d : PP_TIMING_MAX_PERIOD;
    if (want < 1)
        want = 1;
    if (want > PP_TIMING_MAX_PERIOD)
        want = PP_TIMING_MAX_PERIOD;
    if (!cur)
        cur = 1;
    return (cur + want + 1) / 2;
}

#endif
