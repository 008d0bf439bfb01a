/* rt-wrap-gomp.c - event wrappers of the libgomp entry points.
 *
 * libgomp is referenced weakly: a program without OpenMP links without it.
 * A program that calls a wrapper called the libgomp function it replaces,
 * and the plugin keeps a reference to that function in the program's
 * object (plugin/pp-keep.cc), so that a static link pulls it from
 * libgomp.a too.  A wrapper that still finds its function missing (an
 * object instrumented by a plugin without that reference, linked -static;
 * libgomp dropped by the linker) stops the program with a message naming
 * the function: skipping a barrier or running a `single` on every thread
 * would silently compute something else.
 *
 * GOMP_parallel*: the master logs `fork` at entry, every team member
 * (master included) runs the body through a trampoline that logs
 * `team_begin` / `team_end` with the team id, omp_get_thread_num() and
 * omp_get_num_threads(); the master logs `join` when the call returns,
 * with t0 = its own team_end.  Pool threads register as kind=omp the first
 * time they run a team body.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdlib.h>
#include <unistd.h>

#include "rt-internal.h"

#define WEAK __attribute__((weak))
typedef void (*omp_fn)(void *);

extern void GOMP_parallel(omp_fn, void *, unsigned, unsigned) WEAK;
extern void GOMP_parallel_loop_static(omp_fn, void *, unsigned, long, long, long, long, unsigned) WEAK;
extern void GOMP_parallel_loop_dynamic(omp_fn, void *, unsigned, long, long, long, long, unsigned) WEAK;
extern void GOMP_parallel_loop_guided(omp_fn, void *, unsigned, long, long, long, long, unsigned) WEAK;
extern void GOMP_parallel_loop_runtime(omp_fn, void *, unsigned, long, long, long, unsigned) WEAK;
extern void GOMP_parallel_loop_nonmonotonic_dynamic(omp_fn, void *, unsigned, long, long, long,
                                                    long, unsigned) WEAK;
extern void GOMP_parallel_loop_nonmonotonic_guided(omp_fn, void *, unsigned, long, long, long,
                                                   long, unsigned) WEAK;
extern void GOMP_parallel_loop_nonmonotonic_runtime(omp_fn, void *, unsigned, long, long, long,
                                                    unsigned) WEAK;
extern void GOMP_parallel_loop_maybe_nonmonotonic_runtime(omp_fn, void *, unsigned, long, long,
                                                          long, unsigned) WEAK;
extern void GOMP_parallel_sections(omp_fn, void *, unsigned, unsigned, unsigned) WEAK;
extern void GOMP_barrier(void) WEAK;
extern void GOMP_loop_end(void) WEAK;
extern void GOMP_loop_end_nowait(void) WEAK;
extern void GOMP_critical_start(void) WEAK;
extern void GOMP_critical_end(void) WEAK;
extern void GOMP_critical_name_start(void **) WEAK;
extern void GOMP_critical_name_end(void **) WEAK;
extern void GOMP_atomic_start(void) WEAK;
extern void GOMP_atomic_end(void) WEAK;
extern bool GOMP_single_start(void) WEAK;
extern void GOMP_sections_end(void) WEAK;
extern void GOMP_sections_end_nowait(void) WEAK;
extern int omp_get_thread_num(void) WEAK;
extern int omp_get_num_threads(void) WEAK;

/* Identities for the locks libgomp does not expose: the unnamed critical
 * section and the global atomic lock (obj= must name one lock). */
static const char unnamed_critical_token, atomic_lock_token;

static _Atomic uint64_t next_team = 1;

/* NAME (a libgomp function an instrumented call needs) did not link */
static _Noreturn void missing(const char *name)
{
    pp_warn("%s is not linked into this program, but its instrumented code calls it "
            "(libgomp.a left it out of a -static link, or libgomp was not linked): "
            "rebuild every object with this perfpred and link with -fopenmp; "
            "stopping rather than running the program without it", name);
    _exit(2);
}

/* ------------------------------------------------------------ parallel */

enum which {
    W_PARALLEL, W_STATIC, W_DYNAMIC, W_GUIDED, W_RUNTIME, W_NM_DYNAMIC, W_NM_GUIDED,
    W_NM_RUNTIME, W_MNM_RUNTIME, W_SECTIONS
};

struct par_call {
    enum which which;
    unsigned num_threads, flags;
    long start, end, incr, chunk;   /* W_SECTIONS: start = section count */
};

struct team {
    omp_fn fn;
    void *data;
    const struct pp_fdesc *d;
    uint32_t site;
    struct pp_thread *master;
    uint64_t id, seq;
    /* written by team member 0, which is the master thread itself */
    int32_t nthreads;
    uint64_t master_end;
};

static const char *const which_name[] = {
    [W_PARALLEL] = "GOMP_parallel", [W_STATIC] = "GOMP_parallel_loop_static",
    [W_DYNAMIC] = "GOMP_parallel_loop_dynamic", [W_GUIDED] = "GOMP_parallel_loop_guided",
    [W_RUNTIME] = "GOMP_parallel_loop_runtime",
    [W_NM_DYNAMIC] = "GOMP_parallel_loop_nonmonotonic_dynamic",
    [W_NM_GUIDED] = "GOMP_parallel_loop_nonmonotonic_guided",
    [W_NM_RUNTIME] = "GOMP_parallel_loop_nonmonotonic_runtime",
    [W_MNM_RUNTIME] = "GOMP_parallel_loop_maybe_nonmonotonic_runtime",
    [W_SECTIONS] = "GOMP_parallel_sections",
};

static int real_present(enum which w)
{
    switch (w) {
    case W_PARALLEL: return GOMP_parallel != NULL;
    case W_STATIC: return GOMP_parallel_loop_static != NULL;
    case W_DYNAMIC: return GOMP_parallel_loop_dynamic != NULL;
    case W_GUIDED: return GOMP_parallel_loop_guided != NULL;
    case W_RUNTIME: return GOMP_parallel_loop_runtime != NULL;
    case W_NM_DYNAMIC: return GOMP_parallel_loop_nonmonotonic_dynamic != NULL;
    case W_NM_GUIDED: return GOMP_parallel_loop_nonmonotonic_guided != NULL;
    case W_NM_RUNTIME: return GOMP_parallel_loop_nonmonotonic_runtime != NULL;
    case W_MNM_RUNTIME: return GOMP_parallel_loop_maybe_nonmonotonic_runtime != NULL;
    case W_SECTIONS: return GOMP_parallel_sections != NULL;
    }
    return 0;
}

static void call_real(const struct par_call *c, omp_fn fn, void *data)
{
    unsigned n = c->num_threads, fl = c->flags;
    switch (c->which) {
    case W_PARALLEL: GOMP_parallel(fn, data, n, fl); break;
    case W_STATIC: GOMP_parallel_loop_static(fn, data, n, c->start, c->end, c->incr, c->chunk, fl); break;
    case W_DYNAMIC: GOMP_parallel_loop_dynamic(fn, data, n, c->start, c->end, c->incr, c->chunk, fl); break;
    case W_GUIDED: GOMP_parallel_loop_guided(fn, data, n, c->start, c->end, c->incr, c->chunk, fl); break;
    case W_RUNTIME: GOMP_parallel_loop_runtime(fn, data, n, c->start, c->end, c->incr, fl); break;
    case W_NM_DYNAMIC:
        GOMP_parallel_loop_nonmonotonic_dynamic(fn, data, n, c->start, c->end, c->incr, c->chunk, fl);
        break;
    case W_NM_GUIDED:
        GOMP_parallel_loop_nonmonotonic_guided(fn, data, n, c->start, c->end, c->incr, c->chunk, fl);
        break;
    case W_NM_RUNTIME:
        GOMP_parallel_loop_nonmonotonic_runtime(fn, data, n, c->start, c->end, c->incr, fl);
        break;
    case W_MNM_RUNTIME:
        GOMP_parallel_loop_maybe_nonmonotonic_runtime(fn, data, n, c->start, c->end, c->incr, fl);
        break;
    case W_SECTIONS: GOMP_parallel_sections(fn, data, n, (unsigned)c->start, fl); break;
    }
}

static struct pp_thread *bind_pool_thread(const struct team *tm, int tid, int n)
{
    struct pp_thread *t = pp_thread_new(PP_TK_OMP);
    if (!t)
        return NULL;
    t->parent = tm->master;
    t->site_d = tm->d;
    t->site = tm->site;
    t->team = tm->id;
    t->tid = tid;
    t->nthreads = n;
    /* record ids: pool threads in the order of (first team, tid) */
    t->key1 = tm->seq;
    t->key2 = (uint64_t)tid;
    pp_thread_publish(t);
    pp_thread_bind(t);
    return t;
}

static void team_trampoline(void *p)
{
    struct team *tm = p;
    PP_TSAN_ACQUIRE(&tm->fn);       /* the fork (the master released it) */
    int tid = omp_get_thread_num ? omp_get_thread_num() : 0;
    int n = omp_get_num_threads ? omp_get_num_threads() : 1;
    struct pp_thread *t = pp_self;
    if (!t) {
        t = bind_pool_thread(tm, tid, n);
    } else if (t->kind == PP_TK_OTHER && !t->team && t != tm->master) {
        /* a pool thread first seen running code outside any wrapped region
         * (e.g. a construct the plugin does not replace): now we know it */
        t->kind = PP_TK_OMP;
        t->parent = tm->master;
        t->site_d = tm->d;
        t->site = tm->site;
        t->team = tm->id;
        t->tid = tid;
        t->nthreads = n;
    }
    if (!t) {
        tm->fn(tm->data);
        PP_TSAN_RELEASE(&tm->master_end);
        return;
    }
    uint64_t save_team = t->cur_team;
    int32_t save_tid = t->cur_tid, save_n = t->cur_nthreads;
    const void *save_sync = t->cur_sync;
    t->cur_team = tm->id;
    t->cur_tid = tid;
    t->cur_nthreads = n;
    t->cur_sync = &tm->id;
    if (tid == 0)
        tm->nthreads = n;

    struct pp_ev *e = pp_ev_begin(t, NULL, 0, PP_EV_TEAM_BEGIN);
    if (e) {
        pp_ev_team_fields(t, e);
        e->t1 = e->t0;
        pp_ev_commit(t, e);
    }
    tm->fn(tm->data);
    e = pp_ev_begin(t, NULL, 0, PP_EV_TEAM_END);
    if (e) {
        pp_ev_team_fields(t, e);
        e->t1 = e->t0;
        pp_ev_commit(t, e);
    }
    if (tid == 0)
        tm->master_end = e ? e->t0 : pp_now();
    t->cur_team = save_team;
    t->cur_tid = save_tid;
    t->cur_nthreads = save_n;
    t->cur_sync = save_sync;
    PP_TSAN_RELEASE(&tm->master_end);   /* the join (the master acquires it) */
}

static void parallel(const struct pp_fdesc *d, uint32_t site, omp_fn fn, void *data,
                     const struct par_call *c)
{
    if (!real_present(c->which))
        missing(which_name[c->which]);
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self) {
        call_real(c, fn, data);
        return;
    }
    struct team tm = {
        .fn = fn, .data = data, .d = d, .site = site, .master = self,
        .id = atomic_fetch_add_explicit(&next_team, 1, memory_order_relaxed),
        .seq = pp_next_seq(),
    };
    struct pp_ev *fork = pp_ev_begin(self, d, site, PP_EV_FORK);
    if (fork) {
        fork->team = tm.id;
        fork->nthreads = (int32_t)c->num_threads;   /* requested; patched below */
        fork->has |= PP_HAS_TEAM | PP_HAS_NTHREADS;
        fork->t1 = fork->t0;
        pp_ev_commit(self, fork);
    }
    PP_TSAN_RELEASE(&tm.fn);
    call_real(c, team_trampoline, &tm);
    PP_TSAN_ACQUIRE(&tm.master_end);
    if (fork && tm.nthreads)
        fork->nthreads = tm.nthreads;
    struct pp_ev *join = pp_ev_begin(self, d, site, PP_EV_JOIN);
    if (join) {
        if (tm.master_end)
            join->t0 = tm.master_end;
        join->team = tm.id;
        join->nthreads = tm.nthreads;
        join->has |= PP_HAS_TEAM | PP_HAS_NTHREADS;
        pp_ev_commit(self, join);
    }
}

PP_EXPORT void __pp_w_GOMP_parallel(const struct pp_fdesc *d, uint32_t site, omp_fn fn,
                                    void *data, unsigned num_threads, unsigned flags)
{
    struct par_call c = { .which = W_PARALLEL, .num_threads = num_threads, .flags = flags };
    parallel(d, site, fn, data, &c);
}

#define PARALLEL_LOOP_CHUNK(NAME, W)                                                          \
    PP_EXPORT void __pp_w_GOMP_parallel_loop_##NAME(const struct pp_fdesc *d, uint32_t site,  \
                                                    omp_fn fn, void *data, unsigned nthr,     \
                                                    long start, long end, long incr,          \
                                                    long chunk, unsigned flags)               \
    {                                                                                         \
        struct par_call c = { W, nthr, flags, start, end, incr, chunk };                      \
        parallel(d, site, fn, data, &c);                                                      \
    }
#define PARALLEL_LOOP_NOCHUNK(NAME, W)                                                        \
    PP_EXPORT void __pp_w_GOMP_parallel_loop_##NAME(const struct pp_fdesc *d, uint32_t site,  \
                                                    omp_fn fn, void *data, unsigned nthr,     \
                                                    long start, long end, long incr,          \
                                                    unsigned flags)                           \
    {                                                                                         \
        struct par_call c = { W, nthr, flags, start, end, incr, 0 };                          \
        parallel(d, site, fn, data, &c);                                                      \
    }

PARALLEL_LOOP_CHUNK(static, W_STATIC)
PARALLEL_LOOP_CHUNK(dynamic, W_DYNAMIC)
PARALLEL_LOOP_CHUNK(guided, W_GUIDED)
PARALLEL_LOOP_NOCHUNK(runtime, W_RUNTIME)
PARALLEL_LOOP_CHUNK(nonmonotonic_dynamic, W_NM_DYNAMIC)
PARALLEL_LOOP_CHUNK(nonmonotonic_guided, W_NM_GUIDED)
PARALLEL_LOOP_NOCHUNK(nonmonotonic_runtime, W_NM_RUNTIME)
PARALLEL_LOOP_NOCHUNK(maybe_nonmonotonic_runtime, W_MNM_RUNTIME)

/* combined parallel sections: beyond the ABI table, offered to the plugin */
PP_EXPORT void __pp_w_GOMP_parallel_sections(const struct pp_fdesc *d, uint32_t site, omp_fn fn,
                                             void *data, unsigned num_threads, unsigned count,
                                             unsigned flags)
{
    struct par_call c = { .which = W_SECTIONS, .num_threads = num_threads, .flags = flags,
                          .start = (long)count };
    parallel(d, site, fn, data, &c);
}

/* ------------------------------------------------------------ in-team calls */

static struct pp_ev *team_ev_begin(const struct pp_fdesc *d, uint32_t site, int kind)
{
    struct pp_thread *t = pp_active() ? pp_get_self() : NULL;
    if (!t)
        return NULL;
    struct pp_ev *e = pp_ev_begin(t, d, site, kind);
    pp_ev_team_fields(t, e);
    return e;
}

static void team_ev_end(struct pp_ev *e, const void *obj)
{
    if (!e)
        return;
    if (obj) {
        e->obj = (uint64_t)(uintptr_t)obj;
        e->has |= PP_HAS_OBJ;
    }
    pp_ev_commit(pp_self, e);
}

/* The calling thread's team sync object for ThreadSanitizer (a barrier:
 * release before, acquire after; one object per team, so TSan may also
 * order a fast thread's work after a barrier before a slow thread's exit
 * from the same barrier: it can miss a race there, never report a false
 * one) */
static const void *team_sync(void)
{
    struct pp_thread *t = pp_self;
    static const char no_team;
    return t && t->cur_sync ? t->cur_sync : &no_team;
}

/* void libgomp call without arguments; a missing one stops the program.
 * SYNC: 1 barrier, 2 lock taken, 3 lock released (for ThreadSanitizer) */
#define VOID_CALL(NAME, KIND, OBJ, SYNC)                                             \
    PP_EXPORT void __pp_w_##NAME(const struct pp_fdesc *d, uint32_t site)            \
    {                                                                                \
        struct pp_ev *e = team_ev_begin(d, site, KIND);                              \
        if (SYNC == 1)                                                               \
            PP_TSAN_RELEASE(team_sync());                                            \
        if (SYNC == 3)                                                               \
            PP_TSAN_RELEASE(OBJ);                                                    \
        if (!NAME)                                                                   \
            missing(#NAME);                                                          \
        NAME();                                                                      \
        if (SYNC == 1)                                                               \
            PP_TSAN_ACQUIRE(team_sync());                                            \
        if (SYNC == 2)                                                               \
            PP_TSAN_ACQUIRE(OBJ);                                                    \
        team_ev_end(e, SYNC == 1 ? NULL : OBJ);                                      \
    }

VOID_CALL(GOMP_barrier, PP_EV_BARRIER, &unnamed_critical_token, 1)
VOID_CALL(GOMP_loop_end, PP_EV_BARRIER, &unnamed_critical_token, 1)
VOID_CALL(GOMP_loop_end_nowait, PP_EV_LOOP_END, NULL, 0)
VOID_CALL(GOMP_sections_end, PP_EV_BARRIER, &unnamed_critical_token, 1)
VOID_CALL(GOMP_sections_end_nowait, PP_EV_LOOP_END, NULL, 0)
VOID_CALL(GOMP_critical_start, PP_EV_LOCK, &unnamed_critical_token, 2)
VOID_CALL(GOMP_critical_end, PP_EV_UNLOCK, &unnamed_critical_token, 3)
VOID_CALL(GOMP_atomic_start, PP_EV_LOCK, &atomic_lock_token, 2)
VOID_CALL(GOMP_atomic_end, PP_EV_UNLOCK, &atomic_lock_token, 3)

PP_EXPORT void __pp_w_GOMP_critical_name_start(const struct pp_fdesc *d, uint32_t site, void **pptr)
{
    struct pp_ev *e = team_ev_begin(d, site, PP_EV_LOCK);
    if (!GOMP_critical_name_start)
        missing("GOMP_critical_name_start");
    GOMP_critical_name_start(pptr);
    PP_TSAN_ACQUIRE(pptr);
    team_ev_end(e, pptr);
}

PP_EXPORT void __pp_w_GOMP_critical_name_end(const struct pp_fdesc *d, uint32_t site, void **pptr)
{
    struct pp_ev *e = team_ev_begin(d, site, PP_EV_UNLOCK);
    PP_TSAN_RELEASE(pptr);
    if (!GOMP_critical_name_end)
        missing("GOMP_critical_name_end");
    GOMP_critical_name_end(pptr);
    team_ev_end(e, pptr);
}

PP_EXPORT bool __pp_w_GOMP_single_start(const struct pp_fdesc *d, uint32_t site)
{
    struct pp_ev *e = team_ev_begin(d, site, PP_EV_SINGLE);
    if (!GOMP_single_start)
        missing("GOMP_single_start");
    bool r = GOMP_single_start();
    if (e) {
        e->result = r;
        e->has |= PP_HAS_RESULT;
    }
    team_ev_end(e, NULL);
    return r;
}
