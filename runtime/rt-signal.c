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
 * writes the record under an alarm().  A lock another thread held at the
 * fork is held in the child for ever: a child found asleep without using
 * the processor is ended and another forked (write_in_child).  One that
 * the interrupted thread itself held is held in every child: SIGALRM ends
 * the last before the rename, and its handler removes the temporary file.
 * The parent waits for the children (bounded), restores the default
 * action and re-raises the signal.  Other threads of the parent keep
 * running meanwhile (a few milliseconds, at most ~12 s).
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
#include <fcntl.h>
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
static int stall_first;             /* the first writer sleeps with its
                                       file open (for the tests:
                                       PERFPRED_SIGNAL_TEST_STALL=1) */
static int attempt_now;             /* in a writer: which one it is */

static void nap_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The writer's own SIGALRM: its time is up, or the parent found it stuck
 * on a lock: the temporary file goes too (unlink is async-signal-safe). */
static void child_alarm_handler(int sig)
{
    (void)sig;
    if (pp_out_tmp_set)
        unlink(pp_out_tmp_sig);
    _exit(1);
}

/* Milliseconds of the monotonic clock (async-signal-safe). */
static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The forked writer: one thread, a copy of the program's memory, `secs`
 * seconds to write the record. */
static void __attribute__((noreturn)) child_write(int sig, pid_t parent, int secs)
{
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    for (size_t i = 0; i < PP_NFATAL; i++)
        sigaction(pp_fatal[i], &dfl, NULL);
    struct sigaction al = { .sa_handler = child_alarm_handler };
    sigemptyset(&al.sa_mask);
    sigaction(SIGALRM, &al, NULL);      /* not the program's handler */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    alarm((unsigned)secs);
    pp_sig_child = 1;
    pp_incomplete_sig = sig;
    pp_record_pid = parent;
    /* Another thread of the program may have held the registry lock; that
     * thread does not exist here. */
    pp_reg_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    pp_write_record();
    _exit(0);
}

/* The state letter and CPU ticks (user + system) of process c from
 * /proc/c/stat, with async-signal-safe calls only; 0, or -1. */
static int proc_stat(pid_t c, char *state, unsigned long long *ticks)
{
    char path[40] = "/proc/", digits[24], buf[1024];
    int nd = 0, n = 6;
    for (long v = c; v > 0 && nd < 20; v /= 10)
        digits[nd++] = (char)('0' + v % 10);
    while (nd > 0)
        path[n++] = digits[--nd];
    memcpy(path + n, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len <= 0)
        return -1;
    buf[len] = '\0';
    /* "pid (comm) S ppid ...": the fields after the last ')', the state
     * first; utime and stime are the 12th and 13th after it */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return -1;
    p += 2;
    *state = *p;
    unsigned long long sum = 0;
    for (int field = 0; field < 13 && *p; field++) {
        if (field >= 11) {
            unsigned long long v = 0;
            while (*p >= '0' && *p <= '9')
                v = v * 10 + (unsigned)(*p++ - '0');
            sum += v;
        } else
            while (*p && *p != ' ')
                p++;
        while (*p == ' ')
            p++;
    }
    *ticks = sum;
    return 0;
}

/* Write the record in a forked child and wait for it: at most child_alarm
 * seconds in all.  The child is a snapshot of the whole address space with
 * only this thread in it: a lock another thread held at that instant
 * (the allocator's, in the middle of a malloc) stays held there for
 * ever.  Such a writer sleeps and uses no processor time: after a quarter
 * of a second so, it is ended (its SIGALRM handler removes its temporary
 * file) and another child forked, the other threads having run on
 * meanwhile.  A lock the interrupted thread itself holds (abort() inside
 * free()) stays held in every child: the time bound ends them. */
static void write_in_child(int sig)
{
    long left_ms = (long)child_alarm * 1000;
    for (int attempt = 0; attempt < 4 && left_ms > 0; attempt++) {
        int secs = (int)((left_ms + 999) / 1000);
        attempt_now = attempt;
        pid_t c = _Fork();
        if (c == 0)
            child_write(sig, sig_pid, secs);
        if (c < 0)
            return;
        int st, done = 0, stuck = 0;
        unsigned long long last = 0;
        long waited = 0, still = 0, sampled = 0, t0 = now_ms();
        /* the child's alarm at secs, and 2 s more before SIGKILL */
        while (!done && waited < secs * 1000L + 2000) {
            pid_t w = waitpid(c, &st, WNOHANG);
            if (w == c || (w < 0 && errno != EINTR)) {
                done = 1;   /* ECHILD: the program reaps (SIGCHLD ignored) */
                break;
            }
            nap_ms(1);
            waited = now_ms() - t0;
            if (waited - sampled >= 50) {
                sampled = waited;
                char state = 0;
                unsigned long long ticks = 0;
                int ok = proc_stat(c, &state, &ticks) == 0;
                if (ok && state == 'S' && ticks == last)
                    still += 50;
                else
                    still = 0;
                if (ok)
                    last = ticks;
                /* another try only where time is left for it */
                if (still >= 250 && left_ms - waited > 500) {
                    stuck = 1;
                    break;
                }
            }
        }
        left_ms -= waited;
        if (done)
            return;
        kill(c, SIGALRM);   /* its handler removes the temporary file */
        long t1 = now_ms();
        while (now_ms() - t1 < 200) {
            pid_t w = waitpid(c, &st, WNOHANG);
            if (w == c || (w < 0 && errno != EINTR)) {
                done = 1;
                break;
            }
            nap_ms(1);
        }
        left_ms -= now_ms() - t1;
        if (!done) {
            kill(c, SIGKILL);
            waitpid(c, &st, 0);
        }
        if (!stuck)
            return;     /* the time bound, not a lock */
    }
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
        write_in_child(sig);
    }
    /* die as the program would have: default action, signal re-raised (it
     * is blocked here, so it is delivered when the handler returns; a fault
     * re-executes the faulting instruction anyway) */
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

void pp_sig_test_stall(void)
{
    /* asleep, using no processor time: as a writer stuck on a lock */
    if (pp_sig_child && stall_first && attempt_now == 0)
        for (;;)
            pause();
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
    const char *st = getenv("PERFPRED_SIGNAL_TEST_STALL");
    stall_first = st && strcmp(st, "1") == 0;
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
