/* rt-timing.c - loop timing (__pp_tbegin, __pp_tend; plugin/pp-timing.cc).
 *
 * The plugin keeps, per timed loop and thread, three scratch slots (a
 * TLS array of their own): scr[0] the countdown of entries to the next
 * timed one, scr[1] the start stamp of a timed entry (0: this entry is
 * not timed), scr[2] the current sampling period.  A timed entry adds its
 * ticks to the counter slot S and one to slot S + 1, which the record's
 * events and totals carry (`tslot=S` in the descriptor).
 *
 * The period is chosen from the loop's own time per entry, so that the
 * pair of calls (measured once at start-up, `timing cost_ns`) costs about
 * 1/PP_TIMING_SHARE of the loop: a loop that runs 100 us per entry is
 * timed every time, one that runs 50 ns one entry in a few hundred.  The
 * next timed entry is drawn around the period (k/2 + a random part below
 * k), so that a loop whose work alternates with the period (red and black
 * rows) is not always sampled on the same phase.  Everything is the
 * calling thread's own: no lock, no shared write.
 *
 * Ticks are the time-stamp counter on x86-64 (constant rate on every
 * processor since ~2008; the record gives its rate, measured against
 * CLOCK_MONOTONIC over the run) and CLOCK_MONOTONIC nanoseconds
 * elsewhere.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "rt-internal.h"

/* the timing's cost against the loop's time */
#define PP_TIMING_SHARE 200
#define PP_TIMING_MAX_PERIOD (1u << 20)

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    return mono_ns();
#endif
}

static uint64_t tick0, ns0;        /* at start-up */
static uint64_t pair_ticks = 1;    /* a __pp_tbegin + __pp_tend pair */
static uint64_t window_ticks;      /* of it, inside the timed window */
static _Thread_local uint64_t rnd_state;

static uint64_t next_rnd(void)
{
    uint64_t x = rnd_state;
    if (!x)
        x = (uint64_t)(uintptr_t)&rnd_state ^ ticks() ^ 0x9e3779b97f4a7c15u;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rnd_state = x;
    return x;
}

PP_EXPORT void __pp_tbegin(uint64_t *scr)
{
    uint64_t period = scr[2] ? scr[2] : 1;
    scr[0] = period / 2 + next_rnd() % period;
    scr[1] = ticks() | 1;          /* never 0: 0 is "not timed" */
}

PP_EXPORT void __pp_tend(uint64_t *scr, uint64_t *slot)
{
    uint64_t now = ticks();
    uint64_t t0 = scr[1];
    scr[1] = 0;
    uint64_t d = now > t0 ? now - t0 : 0;
    slot[0] += d;
    slot[1] += 1;
    /* the period this entry asks for, moved half-way there */
    uint64_t want = d ? pair_ticks * PP_TIMING_SHARE / d : PP_TIMING_MAX_PERIOD;
    if (want < 1)
        want = 1;
    if (want > PP_TIMING_MAX_PERIOD)
        want = PP_TIMING_MAX_PERIOD;
    uint64_t cur = scr[2] ? scr[2] : 1;
    scr[2] = (cur + want + 1) / 2;
}

void pp_timing_init(void)
{
    tick0 = ticks();
    ns0 = mono_ns();
    /* the cost of a pair, and the part of it inside the timed window
     * (from tbegin's clock read to tend's: what an empty entry measures),
     * the fastest of a few rounds; called through pointers, as the
     * plugin's code calls them, not inlined */
    void (*volatile begin)(uint64_t *) = __pp_tbegin;
    void (*volatile end)(uint64_t *, uint64_t *) = __pp_tend;
    uint64_t scr[3] = {0}, slot[2] = {0}, best = UINT64_MAX, best_win = UINT64_MAX;
    uint64_t saved = rnd_state;
    for (int r = 0; r < 5; r++) {
        uint64_t s0 = slot[0];
        uint64_t a = ticks();
        for (int i = 0; i < 64; i++) {
            scr[2] = 1;
            begin(scr);
            end(scr, slot);
        }
        uint64_t b = ticks();
        if (b - a < best)
            best = b - a;
        if (slot[0] - s0 < best_win)
            best_win = slot[0] - s0;
    }
    rnd_state = saved;
    pair_ticks = best / 64 ? best / 64 : 1;
    window_ticks = best_win / 64;
}

void pp_timing_write(FILE *f)
{
    uint64_t dt = ticks() - tick0, dn = mono_ns() - ns0;
    double tick_ns = dt > 0 && dn > 0 ? (double)dn / (double)dt : 1.0;
#if !(defined(__x86_64__) || defined(__i386__))
    tick_ns = 1.0;
#endif
    fprintf(f, "timing tick_ns=%.9g cost_ns=%.4g window_ns=%.4g\n", tick_ns, (double)pair_ticks * tick_ns,
            (double)window_ticks * tick_ns);
}
