/* rt-log.c - per-thread event buffers and counter snapshots.
 *
 * Each thread appends its events to its own list of chunks: no lock, no
 * atomic read-modify-write, an allocation only when a chunk is full.  An
 * event is the fixed struct pp_ev followed by its sparse counter deltas;
 * it is written in place past the chunk's committed size and becomes
 * visible (release store of `used`) when committed.  Chunks never move and
 * are never freed, so a pointer to a committed event stays valid (the
 * OpenMP fork event is patched with the team size after the region).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt-internal.h"

#define PP_CHUNK_BYTES (64 * 1024)

const char *const pp_evkind_names[PP_EV_NKINDS] = {
    [PP_EV_BEGIN] = "begin", [PP_EV_CREATE] = "create", [PP_EV_JOIN] = "join",
    [PP_EV_BARRIER] = "barrier", [PP_EV_LOCK] = "lock", [PP_EV_UNLOCK] = "unlock",
    [PP_EV_FORK] = "fork", [PP_EV_TEAM_BEGIN] = "team_begin", [PP_EV_TEAM_END] = "team_end",
    [PP_EV_SINGLE] = "single", [PP_EV_LOOP_END] = "loop_end",
    [PP_EV_MPI_INIT] = "mpi_init", [PP_EV_MPI_FINALIZE] = "mpi_finalize",
    [PP_EV_SEND] = "send", [PP_EV_RECV] = "recv", [PP_EV_ISEND] = "isend",
    [PP_EV_IRECV] = "irecv", [PP_EV_SENDRECV] = "sendrecv", [PP_EV_WAIT] = "wait",
    [PP_EV_WAITALL] = "waitall", [PP_EV_BCAST] = "bcast", [PP_EV_REDUCE] = "reduce",
    [PP_EV_ALLREDUCE] = "allreduce", [PP_EV_GATHER] = "gather", [PP_EV_SCATTER] = "scatter",
    [PP_EV_ALLGATHER] = "allgather", [PP_EV_ALLTOALL] = "alltoall",
    [PP_EV_MPI_BARRIER] = "mpi_barrier", [PP_EV_COMM_SPLIT] = "comm_split",
    [PP_EV_COMM_DUP] = "comm_dup", [PP_EV_COMM_FREE] = "comm_free",
    [PP_EV_COND_WAIT] = "cond_wait", [PP_EV_COND_SIGNAL] = "cond_signal",
    [PP_EV_COND_BROADCAST] = "cond_broadcast", [PP_EV_SEM_WAIT] = "sem_wait",
    [PP_EV_SEM_POST] = "sem_post",
};

/* Most blocks are unchanged at most events (a program registers many
 * functions and runs a few between two events): a block is compared with
 * its shadow in one memcmp (libc's is vectorised; GCC 12 does not vectorise
 * a loop here at -O2), slot by slot only when it differs.  This is still a
 * pass over every registered slot at every event: the runtime cannot tell
 * which functions ran without reading their counters (docs/runtime.md,
 * "Cost of an event").
 *
 * The increments of t's counters since the last snapshot into out (at most
 * cap), and in where[i] (when where is not NULL) the shadow slot of out[i];
 * the shadows are left alone (the caller advances them). */
static uint32_t snapshot_peek(struct pp_thread *t, struct pp_delta *out, uint64_t **where,
                              size_t cap)
{
    uint32_t n = 0;
    for (struct pp_block *b = atomic_load_explicit(&t->blocks, memory_order_acquire); b;
         b = atomic_load_explicit(&b->next, memory_order_acquire)) {
        const uint64_t *cnt = b->cnt;
        uint64_t *sh = b->shadow;
        if (memcmp(cnt, sh, b->nslots * sizeof *cnt) == 0)
            continue;
        for (uint32_t s = 0; s < b->nslots; s++) {
            uint64_t v = cnt[s];
            if (v != sh[s]) {
                if (n == cap)
                    return n;
                out[n].block = b->idx;
                out[n].slot = s;
                out[n].inc = v - sh[s];
                if (where)
                    where[n] = &sh[s];
                n++;
            }
        }
    }
    return n;
}

uint32_t pp_snapshot(struct pp_thread *t, struct pp_delta *out, size_t cap)
{
    uint32_t n = snapshot_peek(t, out, NULL, cap);
    /* advance the shadows: each delta names its block's index, walk the
     * list once more in step (deltas are in list order) */
    uint32_t i = 0;
    for (struct pp_block *b = atomic_load_explicit(&t->blocks, memory_order_acquire); b && i < n;
         b = atomic_load_explicit(&b->next, memory_order_acquire))
        for (; i < n && out[i].block == b->idx; i++)
            b->shadow[out[i].slot] += out[i].inc;
    return n;
}

/* Room for a snapshot of every slot t has registered: the scratch arrays
 * an event's deltas are gathered in before the event's exact size is
 * reserved in a chunk.  0, or -1 out of memory. */
static int scratch_reserve(struct pp_thread *t)
{
    if (t->scratch_cap >= t->total_slots)
        return 0;
    size_t cap = t->scratch_cap ? t->scratch_cap : 256;
    while (cap < t->total_slots)
        cap *= 2;
    int saved = errno;
    struct pp_delta *d = malloc(cap * sizeof *d);
    uint64_t **w = malloc(cap * sizeof *w);
    errno = saved;
    if (!d || !w) {
        free(d);
        free(w);
        return -1;
    }
    free(t->scratch);
    free(t->scratch_where);
    t->scratch = d;
    t->scratch_where = w;
    t->scratch_cap = cap;
    return 0;
}

static struct pp_chunk *new_chunk(struct pp_thread *t, size_t need)
{
    size_t cap = PP_CHUNK_BYTES - sizeof(struct pp_chunk);
    if (need > cap)
        cap = need;
    int saved = errno;          /* the program must not see our malloc */
    struct pp_chunk *c = malloc(sizeof *c + cap);
    errno = saved;
    if (!c)
        return NULL;
    atomic_init(&c->next, NULL);
    atomic_init(&c->used, 0);
    c->cap = cap;
    if (t->cur) {
        /* an event still open in the old chunk is published as it is */
        atomic_store_explicit(&t->cur->used, t->resv, memory_order_release);
        atomic_store_explicit(&t->cur->next, c, memory_order_release);
    } else {
        atomic_store_explicit(&t->chunks, c, memory_order_release);
    }
    t->cur = c;
    t->resv = 0;
    return c;
}

struct pp_ev *pp_ev_begin(struct pp_thread *t, const struct pp_fdesc *d, uint32_t site, int kind)
{
    uint64_t t0 = pp_now();
    /* The deltas are gathered first and the event takes exactly its size
     * in the chunk: reserving room for every registered slot would make a
     * chunk last a few events in a program that registers thousands of
     * functions (and every event a malloc). */
    uint32_t nd = 0;
    if (scratch_reserve(t) == 0)
        nd = pp_scan_peek(t, t->scratch, t->scratch_where, t->total_slots);
    /* else: the counters stay unsnapshotted (see below) */
    size_t need = sizeof(struct pp_ev) + nd * sizeof(struct pp_delta);
    struct pp_chunk *c = t->cur;
    if (!c || c->cap - t->resv < need) {
        c = new_chunk(t, need);
        if (!c) {
            /* The shadows are not advanced: the increments go to the next
             * event, so only this event's times are lost. */
            t->dropped++;
            return NULL;
        }
    }
    struct pp_ev *e = (struct pp_ev *)(c->data + t->resv);
    memset(e, 0, sizeof *e);
    e->d = d;
    e->site = site;
    e->kind = (uint16_t)kind;
    e->t0 = t0;
    e->c0 = pp_cpu_now(t);
    e->ndelta = nd;
    struct pp_delta *out = (struct pp_delta *)(e + 1);
    for (uint32_t i = 0; i < nd; i++) {
        out[i] = t->scratch[i];
        *t->scratch_where[i] += t->scratch[i].inc;
    }
    t->resv += need;
    t->open++;
    return e;
}

void pp_ev_commit(struct pp_thread *t, struct pp_ev *e)
{
    if (!e)
        return;
    if (e->t1 < e->t0)
        e->t1 = pp_now();
    e->c1 = pp_cpu_now(t);
    /* publish when the outermost open event is complete */
    if (--t->open == 0)
        atomic_store_explicit(&t->cur->used, t->resv, memory_order_release);
}

void pp_ev_team_fields(const struct pp_thread *t, struct pp_ev *e)
{
    if (e && t->cur_team) {
        e->team = t->cur_team;
        e->tid = t->cur_tid;
        e->nthreads = t->cur_nthreads;
        e->has |= PP_HAS_TEAM | PP_HAS_TID | PP_HAS_NTHREADS;
    }
}
