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
 * 1/PP_TIMING_SHARE of the loop, 1/PP_TIMING_WARM_SHARE over its first
 * timed entries (rt-period.h): a loop that runs 100 us per entry is
 * timed every time, one that runs 50 ns about one entry in five hundred.
 * In place a timed entry costs about twice the start-up measure (its two
 * branches mispredicted, its code out of the caches), and the loops of a
 * nest each take their share of the same time: md.c's four timed loops
 * deep spent 2.6% of the run in timed entries at a share of 1/200, and
 * about 1% at 1/1000 (with fewer timed entries, each of them costlier).  The
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

/* The handlers are called from the middle of compiled code on x86-64
 * (rt-timing-x86.S): general registers only, no call, no sanitizer hook,
 * so that no vector or x87 state the program holds there is touched.  */
#if defined(__x86_64__)
#define PP_GR __attribute__((target("general-regs-only"), no_sanitize_address, \
                             no_sanitize("undefined"), no_sanitize_thread))
#else
#define PP_GR
#endif
#define PP_HANDLER PP_GR __attribute__((noinline))

#define PP_PERIOD_ATTR PP_GR
#include "rt-period.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline PP_GR uint64_t ticks(void)
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
/* initial-exec: read without __tls_get_addr (the handlers call nothing) */
static _Thread_local uint64_t rnd_state __attribute__((tls_model("initial-exec")));

static inline PP_GR uint64_t next_rnd(void)
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

PP_EXPORT PP_HANDLER void __pp_tbegin(uint64_t *scr)
{
    uint64_t period = scr[2] ? scr[2] : 1;
    scr[0] = period / 2 + next_rnd() % period;
    scr[1] = ticks() | 1;          /* never 0: 0 is "not timed" */
}

PP_EXPORT PP_HANDLER void __pp_tend(uint64_t *scr, uint64_t *slot)
{
    uint64_t now = ticks();
    uint64_t t0 = scr[1];
    scr[1] = 0;
    uint64_t d = now > t0 ? now - t0 : 0;
    slot[0] += d;
    slot[1] += 1;
    scr[2] = pp_timing_period(scr[2], d, pair_ticks, slot[1]);
}

#if defined(__x86_64__) && defined(__ELF__)
/* One timed entry and its exit as the plugin's asm form does it
 * (plugin/pp-timing.cc): the countdown and stamp in SCR, the branches to
 * out-of-line call paths that push the offsets of SCR and SLOT from the thread
 * pointer and call rt-timing-x86.S.  */
void __pp_tbegin_x86(void);
void __pp_tend_x86(void);

static void pair_asm(uint64_t *scr, uint64_t *slot)
{
    uint64_t tp;
    __asm__("movq %%fs:0, %0" : "=r"(tp));
    uint64_t so = (uint64_t)(uintptr_t)scr - tp, lo = (uint64_t)(uintptr_t)slot - tp;
    scr[0] = 0;
    __asm__ volatile("movq %[so], %%r11\n\t"
                     "movq $0, %%fs:8(%%r11)\n\t"
                     "subq $1, %%fs:0(%%r11)\n\t"
                     "jle 2f\n"
                     "1:\n\t"
                     ".pushsection .text.perfpred_cold,\"ax\",@progbits\n"
                     "2:\tleaq -128(%%rsp), %%rsp\n\t"
                     "pushq %[so]\n\t"
                     "call *__pp_tbegin_x86@GOTPCREL(%%rip)\n\t"
                     "leaq 136(%%rsp), %%rsp\n\t"
                     "jmp 1b\n\t"
                     ".popsection\n\t"
                     "movq %[so], %%r11\n\t"
                     "cmpq $0, %%fs:8(%%r11)\n\t"
                     "jne 4f\n"
                     "3:\n\t"
                     ".pushsection .text.perfpred_cold,\"ax\",@progbits\n"
                     "4:\tleaq -128(%%rsp), %%rsp\n\t"
                     "pushq %[lo]\n\t"
                     "pushq %[so]\n\t"
                     "call *__pp_tend_x86@GOTPCREL(%%rip)\n\t"
                     "leaq 144(%%rsp), %%rsp\n\t"
                     "jmp 3b\n\t"
                     ".popsection"
                     : "+m"(*(uint64_t(*)[3])scr), "+m"(*(uint64_t(*)[2])slot)
                     : [so] "r"(so), [lo] "r"(lo)
                     : "r11", "cc", "memory");
}
#else
static void pair_asm(uint64_t *scr, uint64_t *slot)
{
    void (*volatile begin)(uint64_t *) = __pp_tbegin;
    void (*volatile end)(uint64_t *, uint64_t *) = __pp_tend;
    begin(scr);
    end(scr, slot);
}
#endif

void pp_timing_init(void)
{
    tick0 = ticks();
    ns0 = mono_ns();
    /* the cost of a pair, and the part of it inside the timed window
     * (from tbegin's clock read to tend's: what an empty entry measures),
     * the fastest of a few rounds, made the way the plugin's code makes
     * it (not inlined) */
    uint64_t scr[3] = {0}, slot[2] = {0};
    uint64_t best = UINT64_MAX, best_win = UINT64_MAX;
    uint64_t saved = rnd_state;
    for (int r = 0; r < 5; r++) {
        uint64_t s0 = slot[0];
        uint64_t a = ticks();
        for (int i = 0; i < 64; i++) {
            scr[2] = 1;
            pair_asm(scr, slot);
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
