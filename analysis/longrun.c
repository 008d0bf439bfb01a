/* longrun.c - see longrun.h.
 *
 * The estimate: a point's walks at P take about as long as each other,
 * so the point takes the time to its second walk's end plus the others
 * at the second's time (before that: the first's time, or its unrolling
 * plus its walk extrapolated from the actions walked so far).  It is said once per command, when stderr is not a
 * terminal; a terminal gets the counter instead, redrawn with \r at most
 * five times a second once the point has run half a second (or the
 * threshold, when lower).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "longrun.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const char *command = "perfpred";

static struct {
    int active, P, walks;
    int par;              /* walks at once (pp_long_parallel; 0: one)   */
    char what[64];
    double t0;            /* the point's start                          */
    int walk;             /* walks begun at P                           */
    double tw0, tw1, tu;  /* this walk's start, the first's, this one's end of unrolling (0: not yet) */
    double walk1, walk2;  /* the first two walks' times (0: not done)   */
    double tw2;           /* the second's start                         */
    int nthreads;
    long nactions;        /* the last unrolling's actions               */
    long acts;            /* the actions of this unrolling so far       */
    int phase;            /* the last tick's                            */
    double frac;          /* the first walk's walked share              */
    double last_draw, last_due;
    int drawn;
    int tty;
    double threshold;     /* s */
    int handler;          /* SIGINT is ours                             */
    struct sigaction old;
} L;
/* the walks begun at P: counted by every thread when several walk at
 * once (pp_long_parallel) */
static int walks_begun(void)
{
    return __atomic_load_n(&L.walk, __ATOMIC_RELAXED);
}

static int estimated;     /* once per command: the estimate, and */
static int noticed;       /* that there is none yet                   */

/* what the handler writes (prepared: it may only write(2)), and the file
 * it removes */
static char stop_msg[256];
static size_t stop_len;
static char stop_path[4096];
static volatile sig_atomic_t stop_has_path;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_sigint(int sig)
{
    /* a handler of the command's own (report: its temporary files) goes
     * first and ends the process its way */
    if (L.old.sa_handler != SIG_DFL && L.old.sa_handler != SIG_IGN && !(L.old.sa_flags & SA_SIGINFO)) {
        sigaction(SIGINT, &L.old, NULL);
        L.old.sa_handler(sig);
    }
    if (stop_has_path)
        unlink(stop_path);
    ssize_t w = write(2, stop_msg, stop_len);
    (void)w;
    _exit(130);
}

void pp_long_remove_on_stop(const char *path)
{
    stop_has_path = 0;
    if (path && strlen(path) < sizeof stop_path) {
        memcpy(stop_path, path, strlen(path) + 1);
        stop_has_path = 1;
    }
}

void pp_long_command(const char *cmd)
{
    command = cmd;
}

static const char *span(double s, char *buf, size_t n)
{
    if (s < 90)
        snprintf(buf, n, "%.0f s", s < 1 ? 1 : s);
    else if (s < 5400)
        snprintf(buf, n, "%.0f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
    return buf;
}

void pp_long_point_begin(int P, int walks, const char *what)
{
    memset(&L, 0, sizeof L);
    L.active = 1;
    L.P = P;
    L.walks = walks > 0 ? walks : 1;
    snprintf(L.what, sizeof L.what, "%s", what);
    L.t0 = now_s();
    L.tty = isatty(2);
    const char *e = getenv("PERFPRED_ESTIMATE_AFTER_MS");
    char *end;
    double ms = e ? strtod(e, &end) : 5000;
    L.threshold = (e && (end == e || ms < 0) ? 5000 : ms) / 1000;
    snprintf(stop_msg, sizeof stop_msg, "%sperfpred %s: interrupted (SIGINT) at %s: stopped, nothing more written\n",
             L.tty ? "\r\n" : "", command, L.what);
    stop_len = strlen(stop_msg);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    /* a SIGINT the caller ignores (a background job) stays ignored */
    if (sigaction(SIGINT, NULL, &L.old) == 0 && L.old.sa_handler != SIG_IGN)
        L.handler = sigaction(SIGINT, &sa, NULL) == 0;
}

void pp_long_point_end(void)
{
    if (!L.active)
        return;
    if (L.drawn) {
        fprintf(stderr, "\r%100s\r", "");
        fflush(stderr);
    }
    if (L.handler)
        sigaction(SIGINT, &L.old, NULL);
    L.active = 0;
}

/* The point's whole time (s), or -1 when it cannot be told yet.  The
 * first walk at P also walks the PRAM (at once, on another processor
 * when there is one): the second tells the others best.  Until it is
 * done, a rough estimate from the first walk once the point has run a
 * sixth of it (at most 30 s: at P = 1000000 the first walk alone takes
 * minutes). */
static double estimate(void)
{
    if (L.walk2 > 0) {
        /* the shorter of the two: a busy host slows one walk now and then */
        double per = L.walk2 < L.walk1 ? L.walk2 : L.walk1;
        if (L.par <= 1)
            return (L.tw2 + L.walk2 - L.t0) + per * (L.walks - 2);
        /* n at a time: the walks not done yet (the one begun with them) */
        int left = L.walks - walks_begun() + 1;
        return (now_s() - L.t0) + per * ((left > 0 ? left + L.par - 1 : 0) / L.par);
    }
    double first = -1;
    if (L.walk1 > 0)
        first = L.walk1;
    else if (walks_begun() == 1 && L.tu > 0 && L.frac >= 0.02)
        first = (L.tu - L.tw0) + (now_s() - L.tu) / L.frac;
    if (first < 0)
        return -1;
    double rough = (L.tw1 - L.t0) + first * L.walks;
    if (L.walks == 1 && L.walk1 > 0)
        return rough;
    /* the rough one runs high (the first walk is two): said only when
     * the second walk is far off */
    double wait = rough / 6 < 30 ? rough / 6 : 30;
    return now_s() - L.t0 >= (wait > 1 ? wait : 1) ? rough : -1;
}

static void say_estimate(void)
{
    if (L.tty || estimated)
        return;
    double est = estimate();
    if (est < 0 && !noticed && now_s() - L.t0 > (L.threshold > 1 ? L.threshold : 1)) {
        /* no estimate yet (the first unrolling of a huge graph): say so */
        char b[32];
        fprintf(stderr, "%s: over %s so far for %s: %s the thread graph (%ld actions), %d walk%s of it to "
                "make; an estimate follows\n", command, span(now_s() - L.t0, b, sizeof b), L.what,
                L.phase == PP_LONG_WALK ? "walking" : "unrolling", L.acts, L.walks, L.walks > 1 ? "s" : "");
        fflush(stderr);
        noticed = 1;
        return;
    }
    if (est < 0 || est <= L.threshold)
        return;
    char b[32];
    fprintf(stderr, "%s: about %s for %s (%d walk%s of the thread graph of %d threads)\n", command,
            span(est, b, sizeof b), L.what, L.walks, L.walks > 1 ? "s" : "", L.nthreads);
    fflush(stderr);
    estimated = 1;
}

static void draw(int phase, long done, long total)
{
    double t = now_s();
    if (!L.tty || t - L.t0 < (L.threshold < 0.5 ? L.threshold : 0.5) || t - L.last_draw < 0.2)
        return;
    L.last_draw = t;
    char line[200], b[32];
    int n = snprintf(line, sizeof line, "\r%s: %s: walk %d/%d, ", command, L.what,
                     walks_begun() < 1 ? 1 : walks_begun(), L.walks);
    if (phase == PP_LONG_UNROLL && total > 0)
        n += snprintf(line + n, sizeof line - (size_t)n, "unrolling %ld%%", done * 100 / total < 100 ? done * 100 / total : 99);
    else if (phase == PP_LONG_UNROLL)
        n += snprintf(line + n, sizeof line - (size_t)n, "unrolling (%ld actions)", done);
    else
        n += snprintf(line + n, sizeof line - (size_t)n, "walking %ld%%",
                      total > 0 ? (done * 100 / total < 100 ? done * 100 / total : 99) : 0);
    double est = estimate();
    if (est > 0 && n < (int)sizeof line) {
        double left = est - (t - L.t0);
        n += snprintf(line + n, sizeof line - (size_t)n, ", about %s left", span(left > 1 ? left : 1, b, sizeof b));
    }
    fprintf(stderr, "%s   ", line);
    fflush(stderr);
    L.drawn = 1;
}

static int reporter(void)
{
#ifdef _OPENMP
    /* the PRAM's and the real machine's walks run at once: one tells */
    return omp_get_thread_num() == 0;
#else
    return 1;
#endif
}

void pp_long_parallel(int n)
{
    L.par = n;
}

void pp_long_walk_begin(int P)
{
    if (!L.active || P != L.P)
        return;
    /* every thread's walk counts (pp_long_parallel); the reporter times
     * its own: the first two it finishes tell the others */
    int walk = __atomic_add_fetch(&L.walk, 1, __ATOMIC_RELAXED);
    if (!reporter())
        return;
    double t = now_s();
    if (walk > 1 && L.tw0 > 0) {
        if (L.walk1 == 0)
            L.walk1 = t - L.tw0;
        else if (L.walk2 == 0) {
            L.walk2 = t - L.tw0;
            L.tw2 = L.tw0;
        }
    }
    L.tw0 = t;
    if (walk == 1)
        L.tw1 = t;
    L.tu = 0;
    say_estimate();
}

void pp_long_unrolled(int P, int nthreads, long nactions)
{
    if (!L.active || P != L.P || !reporter())
        return;
    L.tu = now_s();
    L.nthreads = nthreads;
    L.nactions = nactions;
}

void pp_long_tick(int phase, long done, long total)
{
    if (!L.active || !reporter())
        return;
    L.phase = phase;
    if (phase == PP_LONG_UNROLL)
        L.acts = done;
    if (phase == PP_LONG_UNROLL && total <= 0 && walks_begun() > 1)
        total = L.nactions;
    if (phase == PP_LONG_WALK && walks_begun() == 1 && L.tu > 0 && total > 0)
        L.frac = (double)done / (double)total;
    say_estimate();
    draw(phase, done, total);
}

int pp_long_due(void)
{
    if (!L.active || !reporter())
        return 0;
    double t = now_s();
    if (t - L.last_due < 0.1)
        return 0;
    L.last_due = t;
    return 1;
}
