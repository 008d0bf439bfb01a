/* rt-internal.h - shared internals of libperfpred-rt (not installed).
 *
 * Ownership rule that makes the runtime lock-free on its hot paths: every
 * piece of per-thread state (counter-block list, shadows, event chunks,
 * parameter entries) is written only by its own thread, until the thread is
 * *closed* (release store of `closed`); the record writer reads it after an
 * acquire load of `closed`.  Lists are append-only and nothing is ever freed
 * or moved, so a reader that races with a still-running thread at exit can
 * read stale values but never dangling memory.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RT_INTERNAL_H
#define PERFPRED_RT_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "perfpred-rt.h"

#define PP_EXPORT __attribute__((visibility("default")))

#define PP_LIKELY(x) __builtin_expect(!!(x), 1)
#define PP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PP_RUNTIME_NAME "perfpred-rt 0.1"

/* ThreadSanitizer does not see the order libgomp (not instrumented)
 * provides: in a TSan build of the runtime the OpenMP wrappers tell it, as
 * release/acquire on a sync object per team (fork, join, barriers) or per
 * lock (critical, atomic).  No-ops otherwise. */
#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define PP_TSAN_ACQUIRE(a) __tsan_acquire((void *)(a))
#define PP_TSAN_RELEASE(a) __tsan_release((void *)(a))
#else
#define PP_TSAN_ACQUIRE(a) ((void)(a))
#define PP_TSAN_RELEASE(a) ((void)(a))
#endif

/* ------------------------------------------------------------ rt-init.c */
enum { PP_ST_UNINIT = 0, PP_ST_ACTIVE = 1, PP_ST_DISABLED = 2 };
extern _Atomic int pp_state;

void pp_init_slow(void);
/* 1 when recording is on (initialising on first use), 0 when disabled. */
static inline int pp_active(void)
{
    int s = atomic_load_explicit(&pp_state, memory_order_acquire);
    if (PP_UNLIKELY(s == PP_ST_UNINIT)) {
        pp_init_slow();
        s = atomic_load_explicit(&pp_state, memory_order_acquire);
    }
    return s == PP_ST_ACTIVE;
}
/* Nanoseconds of CLOCK_MONOTONIC since the runtime started. */
uint64_t pp_now(void);
/* rt-timing.c: loop timing's start-up measure and its record line */
void pp_timing_init(void);
void pp_timing_write(FILE *f);
/* CPU time (ns) a thread has used, from its CPU clock; 0 when unknown.
 * Segments are fitted on CPU time, so that preemption on a loaded or
 * oversubscribed machine does not count as work. */
struct pp_thread;
uint64_t pp_cpu_now(const struct pp_thread *t);
/* One line on stderr, prefixed "perfpred-rt: ". */
void pp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Global sequence used to order threads and teams deterministically. */
uint64_t pp_next_seq(void);

/* ------------------------------------------------------------ rt-thread.c */
enum pp_tkind { PP_TK_MAIN, PP_TK_PTHREAD, PP_TK_OMP, PP_TK_OTHER };

/* Counter block of one function in one thread (appended at registration). */
struct pp_block {
    struct pp_block *_Atomic next;
    const struct pp_fdesc *d;
    uint64_t *cnt;         /* the thread's TLS counters (plugin-owned) */
    uint64_t *shadow;      /* values at the last snapshot; final counts */
    uint32_t nslots;
    uint32_t idx;          /* position in the thread's list */
};

/* A sparse counter increment: block of the logging thread, slot, amount. */
struct pp_delta {
    uint32_t block;
    uint32_t slot;
    uint64_t inc;
};

struct pp_chunk;
struct pp_pent;

struct pp_thread {
    struct pp_thread *reg_next;     /* registry list (under pp_reg_lock) */
    /* ---- set before the thread runs, or under pp_reg_lock */
    int kind;
    int failed;                     /* pthread_create failed: not in record */
    uint64_t key1, key2;            /* sort key for record ids */
    struct pp_thread *parent;
    const struct pp_fdesc *site_d;  /* creating event site */
    uint32_t site;
    uint64_t order;                 /* pthread: creation order at its site */
    int64_t arg;
    uint64_t team;                  /* omp: first team */
    int32_t tid, nthreads;
    pthread_t ptid;                 /* pthread: for join lookup */
    int has_ptid, joined;
    /* ---- owner-only until closed */
    uint64_t start;
    clockid_t cpuclock;             /* the thread's CPU clock */
    int has_cpuclock;
    uint64_t cstart, cend;          /* CPU time at start and end */
    struct pp_block *_Atomic blocks;
    struct pp_block *blocks_tail;
    uint32_t nblocks;
    size_t total_slots;
    struct pp_delta *scratch;       /* pp_ev_begin's snapshot (rt-log.c) */
    uint64_t **scratch_where;       /* the shadow slot of each of them */
    size_t scratch_cap;
    struct pp_scan *scan;           /* ranges of adjacent blocks (rt-scan.c) */
    struct pp_chunk *_Atomic chunks;
    struct pp_chunk *cur;
    size_t resv;                    /* bytes of cur handed out (>= used) */
    int open;                       /* events begun and not yet committed */
    uint64_t dropped;               /* events lost (out of memory) */
    struct pp_pent *_Atomic params;
    struct pp_pent *pcache[32];
    uint64_t cur_team;              /* OpenMP team being executed, 0 none */
    int32_t cur_tid, cur_nthreads;
    const void *cur_sync;           /* its ThreadSanitizer sync object */
    /* ---- written by whoever closes the thread */
    _Atomic int closing;
    _Atomic int closed;
    uint64_t end;
    struct pp_delta *tail;
    uint32_t ntail;
    /* ---- record writer scratch */
    uint32_t rid;
    /* a thread closed by the writer may still be running (docs/runtime.md,
     * "Thread safety"): the events and start time the record shows are
     * those of the moment it was closed */
    int w_frozen;
    struct pp_chunk *w_chunk;       /* last chunk then, and its used bytes */
    size_t w_used;
    uint64_t w_start;
    /* ---- the thread's CPU time when a fatal signal came (rt-signal.c),
     * read by the handler: a forked writer cannot read the clocks of the
     * program's threads */
    uint64_t sig_cpu;
};

extern __thread struct pp_thread *pp_self __attribute__((tls_model("initial-exec")));
extern pthread_mutex_t pp_reg_lock;

struct pp_thread *pp_self_slow(void);
/* The calling thread's state; creates a kind=main/other one if needed. */
static inline struct pp_thread *pp_get_self(void)
{
    struct pp_thread *t = pp_self;
    return PP_LIKELY(t != NULL) ? t : pp_self_slow();
}
/* A new thread state (not yet in the registry, not bound to any thread);
 * fill its fields, then pp_thread_publish it. */
struct pp_thread *pp_thread_new(int kind);
void pp_thread_publish(struct pp_thread *t);
/* Make t the calling thread's state (start time, exit destructor). */
void pp_thread_bind(struct pp_thread *t);
/* Final snapshot (tail) and end time; once per thread, idempotent. */
void pp_thread_close(struct pp_thread *t, uint64_t now);
/* Registry snapshot: malloc'd array of every thread, count in *n. */
struct pp_thread **pp_threads_all(size_t *n);
/* Thread key (exit destructor) and fork handlers, from pp_init_slow. */
int pp_thread_init(void);
/* From a signal handler: sig_cpu of every thread not closed yet (walks the
 * registry without its lock; async-signal-safe). */
void pp_sig_snapshot_cpu(void);

/* ------------------------------------------------------------ rt-instance.c */
/* 1 in libperfpred-rt.so.1 when the process already has another runtime
 * (the executable's, which instrumented code binds to): stay disabled. */
int pp_instance_defer(void);
/* Keep the shared object that holds descriptor d loaded until exit (the
 * record reads its descriptors and counters). */
void pp_instance_pin(const struct pp_fdesc *d);

/* ------------------------------------------------------------ rt-log.c */
enum pp_evkind {
    PP_EV_BEGIN, PP_EV_CREATE, PP_EV_JOIN, PP_EV_BARRIER, PP_EV_LOCK, PP_EV_UNLOCK,
    PP_EV_FORK, PP_EV_TEAM_BEGIN, PP_EV_TEAM_END, PP_EV_SINGLE, PP_EV_LOOP_END,
    /* MPI (runtime/mpi/rt-wrap-mpi.c) */
    PP_EV_MPI_INIT, PP_EV_MPI_FINALIZE, PP_EV_SEND, PP_EV_RECV, PP_EV_ISEND, PP_EV_IRECV,
    PP_EV_SENDRECV, PP_EV_WAIT, PP_EV_WAITALL, PP_EV_BCAST, PP_EV_REDUCE, PP_EV_ALLREDUCE,
    PP_EV_GATHER, PP_EV_SCATTER, PP_EV_ALLGATHER, PP_EV_ALLTOALL, PP_EV_MPI_BARRIER,
    PP_EV_COMM_SPLIT, PP_EV_COMM_DUP, PP_EV_COMM_FREE,
    /* condition variables and semaphores (rt-wrap-pthread.c) */
    PP_EV_COND_WAIT, PP_EV_COND_SIGNAL, PP_EV_COND_BROADCAST, PP_EV_SEM_WAIT, PP_EV_SEM_POST,
    PP_EV_NKINDS
};
/* which optional fields an event carries */
enum { PP_HAS_OBJ = 1, PP_HAS_CHILD = 2, PP_HAS_TEAM = 4, PP_HAS_TID = 8,
       PP_HAS_NTHREADS = 16, PP_HAS_RESULT = 32,
       PP_HAS_PEER = 64,      /* peer, tag */
       PP_HAS_BYTES = 128,    /* bytes */
       PP_HAS_COMM = 256,     /* comm */
       PP_HAS_ROOT = 512,     /* root */
       PP_HAS_RMSG = 1024,    /* rpeer, rtag, rbytes (sendrecv) */
       PP_HAS_COUNT = 2048,   /* count (waitall) */
       PP_HAS_NEWCOMM = 4096 }; /* comm_split, comm_dup: root = the new
                                 communicator's number (-1: none), rpeer =
                                 the rank's rank in it, rtag = its size */

/* An event in a thread's buffer, followed by `ndelta` struct pp_delta. */
struct pp_ev {
    const struct pp_fdesc *d;       /* NULL: generated by the runtime */
    struct pp_thread *child;
    uint64_t t0, t1;
    uint64_t c0, c1;                /* the thread's CPU time at t0, t1 */
    uint64_t obj;
    uint64_t team;
    int64_t result;
    uint32_t site;
    uint32_t ndelta;
    int32_t tid, nthreads;
    uint16_t kind, has;
    uint32_t pad;
    /* MPI: ranks in the communicator, bytes = count x type size; comm: 0
     * MPI_COMM_WORLD, K the K-th communicator the rank made, -1 another */
    int32_t peer, tag, rpeer, rtag, root, comm;
    uint64_t bytes, rbytes;
    uint32_t count, pad2;
};

struct pp_chunk {
    struct pp_chunk *_Atomic next;
    _Atomic size_t used;            /* committed bytes of data[] */
    size_t cap;
    _Alignas(8) unsigned char data[];
};

extern const char *const pp_evkind_names[PP_EV_NKINDS];

/* Start an event in t's buffer: t0 = now, counter snapshot into the deltas.
 * Returns NULL when out of memory (the event is then dropped).  The event
 * becomes visible with pp_ev_commit, which sets t1 = now unless set.
 * Events may nest (a barrier that runs OpenMP tasks which log events of
 * their own): the outer event keeps its place, before the inner ones. */
struct pp_ev *pp_ev_begin(struct pp_thread *t, const struct pp_fdesc *d, uint32_t site, int kind);
void pp_ev_commit(struct pp_thread *t, struct pp_ev *e);
/* Counter increments of t since the last snapshot into out (at most cap
 * entries; what does not fit stays for the next snapshot). */
uint32_t pp_snapshot(struct pp_thread *t, struct pp_delta *out, size_t cap);
/* ------------------------------------------------------------ rt-scan.c */
/* The calling thread t's counter increments since the last snapshot into
 * out (at most cap), where[i] the shadow slot of out[i]; the shadows are
 * left alone (the caller adds out[i].inc to *where[i] once the event has
 * its place).  Owner-only: the thread itself, from pp_ev_begin. */
uint32_t pp_scan_peek(struct pp_thread *t, struct pp_delta *out, uint64_t **where, size_t cap);

/* Adds the calling thread's OpenMP team fields (team, tid, nthreads). */
void pp_ev_team_fields(const struct pp_thread *t, struct pp_ev *e);

/* ------------------------------------------------------------ rt-param.c */
struct pp_pent {
    struct pp_pent *_Atomic next;
    const struct pp_fdesc *d;
    uint32_t id;
    uint64_t count;
    int64_t first, last, min, max;
    uint64_t t_first, t_last;       /* to merge first/last across threads */
};

/* Parameters of all threads merged per (function, id): malloc'd array. */
struct pp_pent *pp_params_merge(struct pp_thread *const *th, size_t nth, size_t *n);

/* ------------------------------------------------------------ rt-desc.c */
/* The functions of the record: the __pp_desc section first, in section
 * order, then descriptors met at run time outside it (e.g. in a shared
 * object other than the one whose section the runtime sees). */
struct pp_ftab {
    const struct pp_fdesc **v;
    size_t n, cap;
    const struct pp_fdesc **hkey;   /* open addressing, hcap a power of 2 */
    uint32_t *hval;
    size_t hcap;
};
int pp_ftab_init(struct pp_ftab *ft);
/* Index of d, added at the end if new; -1 for NULL (or out of memory). */
long pp_ftab_add(struct pp_ftab *ft, const struct pp_fdesc *d);
/* Index of d or -1. */
long pp_ftab_find(const struct pp_ftab *ft, const struct pp_fdesc *d);
void pp_ftab_free(struct pp_ftab *ft);
/* Globals of the __pp_gdesc section, one per address: malloc'd array. */
const struct pp_gdesc **pp_gdescs(size_t *n);

/* ------------------------------------------------------------ rt-write.c */
/* Write the record (once, at exit). */
void pp_write_record(void);
/* Set by the MPI_Init wrapper: this process's rank in MPI_COMM_WORLD (-1:
 * not an MPI run), the number of ranks, the run's id and rank 0's pid (the
 * same in every rank's record, so that the analyser can check that the
 * records belong together). */
extern int pp_mpi_rank, pp_mpi_size;
extern uint64_t pp_mpi_run, pp_mpi_pid0;
/* Also set by the MPI_Init wrapper: the implementation's MPI_ANY_SOURCE,
 * MPI_ANY_TAG and MPI_PROC_NULL (the values its mpi.h gives the program,
 * which the descriptors' expressions hold) and the first line of
 * MPI_Get_library_version ("" when unknown). */
extern int pp_mpi_any_source, pp_mpi_any_tag, pp_mpi_proc_null;
extern char pp_mpi_lib[96];

/* ------------------------------------------------------------ rt-exe.c */
/* Read the executable's build id from its program headers (at start). */
void pp_exe_init(void);
/* The record's `exe` line: the build id, or else the size and hash of
 * /proc/self/exe; nothing when neither can be had. */
void pp_exe_print(FILE *f);

/* ------------------------------------------------------------ rt-signal.c */
/* Install the fatal-signal handler where the program has the default
 * action (from pp_init_slow; PERFPRED_SIGNALS=0: not at all). */
void pp_signal_init(void);
/* "SEGV" for SIGSEGV. */
const char *pp_signal_name(int sig);
/* In the writer forked by the handler: 1, the signal, the program's pid. */
extern int pp_sig_child;
extern int pp_incomplete_sig;
extern pid_t pp_record_pid;
/* In the first such writer under PERFPRED_SIGNAL_TEST_STALL=1 (the
 * tests): sleep for ever, as one stuck on a lock held at the fork. */
void pp_sig_test_stall(void);

/* ------------------------------------------------------------ rt-out.c */
/* Create PATH atomically: pp_out_open gives a FILE on a temporary file in
 * the same directory; pp_out_close flushes, syncs and renames it into place
 * (or removes it and returns -1 with errno set). */
struct pp_out;
struct pp_out *pp_out_open(const char *path);
FILE *pp_out_file(struct pp_out *o);
int pp_out_close(struct pp_out *o);
/* In the writer forked by a signal's handler: the temporary file's name
 * once it is open (pp_out_tmp_set), for that writer's own SIGALRM handler
 * to remove when it is ended. */
extern char pp_out_tmp_sig[4096];
extern volatile sig_atomic_t pp_out_tmp_set;
/* Write s as a quoted string with escapes. */
void pp_out_quoted(FILE *f, const char *s);

#endif
