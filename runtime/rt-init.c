/* rt-init.c - lazy initialisation, the clock, and the exit hook.
 *
 * The runtime initialises from a constructor (so that the main thread is
 * known and the clock starts before main) and, should instrumented code run
 * before that constructor (another constructor), on first use.  The record
 * is written from a destructor, i.e. after main returns or exit() is called
 * and after the program's own atexit handlers.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt-internal.h"

_Atomic int pp_state = PP_ST_UNINIT;

static uint64_t pp_t_start;        /* absolute ns at init; read-only after */
static pid_t pp_init_pid;          /* a forked child must not write a record */
static pthread_once_t pp_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t pp_seq;
static _Atomic int pp_finished;

static uint64_t abs_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t pp_now(void)
{
    return abs_ns() - pp_t_start;
}

uint64_t pp_cpu_now(const struct pp_thread *t)
{
    struct timespec ts;
    if (!t || !t->has_cpuclock || clock_gettime(t->cpuclock, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t pp_next_seq(void)
{
    return atomic_fetch_add_explicit(&pp_seq, 1, memory_order_relaxed);
}

void pp_warn(const char *fmt, ...)
{
    int saved = errno;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* one write(2): the line cannot interleave with other output */
    char line[560];
    int n = snprintf(line, sizeof line, "perfpred-rt: %s\n", buf);
    if (n > (int)sizeof line - 1)
        n = (int)sizeof line - 1;
    ssize_t w = write(2, line, (size_t)n);
    (void)w;
    errno = saved;
}

static int env_disabled(void)
{
    const char *v = getenv("PERFPRED_DISABLE");
    return v && *v && strcmp(v, "0") != 0;
}

static void init_once(void)
{
    int saved = errno;
    pp_t_start = abs_ns();
    pp_timing_init();
    pp_init_pid = getpid();
    if (env_disabled() || pp_thread_init() != 0) {
        atomic_store_explicit(&pp_state, PP_ST_DISABLED, memory_order_release);
        errno = saved;
        return;
    }
    /* Publish before creating the first thread state: pp_self_slow may call
     * back into code that checks pp_active(). */
    atomic_store_explicit(&pp_state, PP_ST_ACTIVE, memory_order_release);
    pp_exe_init();
    pp_signal_init();
    /* The initialising thread is normally main; pp_self_slow decides. */
    (void)pp_get_self();
    errno = saved;
}

void pp_init_slow(void)
{
    pthread_once(&pp_once, init_once);
}

__attribute__((constructor)) static void pp_ctor(void)
{
    pp_init_slow();
}

__attribute__((destructor)) static void pp_dtor(void)
{
    if (atomic_load_explicit(&pp_state, memory_order_acquire) != PP_ST_ACTIVE)
        return;
    if (getpid() != pp_init_pid)
        return;                 /* a fork()ed child: the parent writes */
    if (atomic_exchange(&pp_finished, 1))
        return;
    int saved = errno;
    pp_write_record();
    errno = saved;
}
