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
};

uint32_t pp_snapshot(struct pp_thread *t, struct pp_delta *out, size_t cap)
{
    uint32_t n = 0;
    for (struct pp_block *b = atomic_load_explicit(&t->blocks, memory_order_acquire); b;
         b = atomic_load_explicit(&b->next, memory_order_acquire)) {
        const uint64_t *cnt = b->cnt;
        uint64_t *sh = b->shadow;
        for (uint32_t s = 0; s < b->nslots; s++) {
            uint64_t v = cnt[s];
            if (v != sh[s]) {
                if (n == cap)
                    return n;
                out[n].block = b->idx;
                out[n].slot = s;
                out[n].inc = v - sh[s];
                n++;
                sh[s] = v;
            }
        }
    }
    return n;
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
    size_t need = sizeof(struct pp_ev) + t->total_slots * sizeof(struct pp_delta);
    struct pp_chunk *c = t->cur;
    if (!c || c->cap - t->resv < need) {
        c = new_chunk(t, need);
        if (!c) {
            /* The counters stay unsnapshotted: their increments go to the
             * next event, so only this event's times are lost. */
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
    e->ndelta = pp_snapshot(t, (struct pp_delta *)(e + 1), t->total_slots);
    t->resv += sizeof *e + e->ndelta * sizeof(struct pp_delta);
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
