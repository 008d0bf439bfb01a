/* rt-signal.c - the record of a program killed by a signal.
 *
 * When the program dies of a signal whose default action kills it (abort(),
 * a segfault, kill -TERM, Ctrl-C ...), the record made so far is written
 * and marked incomplete (an `incomplete` line, docs/record-format.md), and
 * the program still dies of the same signal (same wait status, core dump
 * as before).
 *
 * Writing the record is not async-signal-safe (malloc, stdio, the registry
 * lock; the interrupted thread may hold any of them).  So the handler does
 * not write: it calls _Fork() (async-signal-safe, runs no atfork handler),
 * and the child - a snapshot of the whole address space, one thread -
 * writes the record under an alarm(): if it deadlocks on a lock that was
 * held at the fork, SIGALRM kills it before the rename, leaving at most the
 * temporary file.  The parent waits for the child (bounded), restores the
 * default action and re-raises the signal.  Other threads of the parent
 * keep running meanwhile (a few milliseconds, at most ~12 s).
 *
 * The handler is installed at init only where the program has the default
 * action (a handler the program installs later simply replaces it), with
 * every handled signal blocked while it runs; a second fatal signal in
 * another thread waits for the first to finish.  PERFPRED_SIGNALS=0 leaves
 * all dispositions alone; PERFPRED_SIGNAL_TIMEOUT=S bounds the writer to S
 * seconds (default 10).  Nothing can be done for SIGKILL, for a stack
 * overflow (no alternate stack: the kernel kills the program at once) or
 * for _exit().
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt-internal.h"

static const int pp_fatal[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM,
                                SIGINT,  SIGHUP,  SIGQUIT, SIGPIPE, SIGXCPU, SIGSYS };
#define PP_NFATAL (sizeof pp_fatal / sizeof *pp_fatal)

int pp_sig_child;                   /* 1 in the forked writer */
int pp_incomplete_sig;              /* the signal the record is cut by */
pid_t pp_record_pid;                /* the program's pid, in the writer */

static _Atomic int sig_busy;        /* the signal being handled, 0 none */
static pid_t sig_pid;               /* the process that installed us */
static int child_alarm = 10;        /* seconds the writer may take
                                       (PERFPRED_SIGNAL_TIMEOUT) */

static void nap_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The forked writer: one thread, a copy of the program's memory. */
static void __attribute__((noreturn)) child_write(int sig, pid_t parent)
{
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    for (size_t i = 0; i < PP_NFATAL; i++)
        sigaction(pp_fatal[i], &dfl, NULL);
    sigaction(SIGALRM, &dfl, NULL);     /* not the program's handler */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    alarm((unsigned)child_alarm);
    pp_sig_child = 1;
    pp_incomplete_sig = sig;
    pp_record_pid = parent;
    /* Another thread of the program may have held the registry lock; that
     * thread does not exist here. */
    pp_reg_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    pp_write_record();
    _exit(0);
}

static void handler(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    (void)uc;
    int saved = errno;
    int none = 0;
    if (!atomic_compare_exchange_strong(&sig_busy, &none, sig)) {
        /* Another thread is writing the record: it will kill the process
         * when done.  If it does not (it was its own handler's signal that
         * the program ignored meanwhile), die of ours. */
        for (int i = 0; i < 1500 && atomic_load(&sig_busy); i++)
            nap_ms(10);
    } else if (getpid() == sig_pid &&
               atomic_load_explicit(&pp_state, memory_order_acquire) == PP_ST_ACTIVE) {
        pp_sig_snapshot_cpu();
        pid_t c = _Fork();
        if (c == 0)
            child_write(sig, sig_pid);
        if (c > 0) {
            int st, done = 0;
            for (int i = 0; i < (child_alarm + 2) * 1000 && !done; i++) {
                pid_t w = waitpid(c, &st, WNOHANG);
                if (w == c || (w < 0 && errno != EINTR))
                    done = 1;   /* ECHILD: the program reaps (SIGCHLD ignored) */
                else
                    nap_ms(1);
            }
            if (!done) {
                kill(c, SIGKILL);
                waitpid(c, &st, 0);
            }
        }
    }
    /* die as the program would have: default action, signal re-raised (it
     * is blocked here, so it is delivered when the handler returns; a fault
     * re-executes the faulting instruction anyway) */
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

void pp_signal_init(void)
{
    const char *v = getenv("PERFPRED_SIGNALS");
    if (v && strcmp(v, "0") == 0)
        return;
    const char *to = getenv("PERFPRED_SIGNAL_TIMEOUT");
    if (to && *to) {
        char *end;
        long t = strtol(to, &end, 10);
        if (*end || t < 1 || t > 3600)
            pp_warn("PERFPRED_SIGNAL_TIMEOUT='%s' is not a number of seconds from 1 to 3600; "
                    "using %d", to, child_alarm);
        else
            child_alarm = (int)t;
    }
    sig_pid = getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < PP_NFATAL; i++)
        sigaddset(&sa.sa_mask, pp_fatal[i]);
    for (size_t i = 0; i < PP_NFATAL; i++) {
        struct sigaction old;
        if (sigaction(pp_fatal[i], NULL, &old) != 0)
            continue;
        /* only where the program (or a sanitizer) left the default */
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
            sigaction(pp_fatal[i], &sa, NULL);
    }
}

const char *pp_signal_name(int sig)
{
    const char *n = sigabbrev_np(sig);
    return n ? n : "UNKNOWN";
}
