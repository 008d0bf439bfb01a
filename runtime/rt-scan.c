/* rt-scan.c - the event snapshot's fast path: finding the counters that
 * moved since the previous event without a pass per registered block.
 *
 * The runtime cannot see which functions ran between two events: it has to
 * read every registered counter.  What it can make cheap is the reading.
 * The plugin's counter arrays of a translation unit lie end to end in the
 * TLS block (SQLite's 3436 arrays, 53 900 slots, are one run), so the
 * blocks of a thread whose arrays are adjacent are merged into *ranges*,
 * each with a contiguous copy of its counters as they were at the last
 * snapshot; a snapshot compares each range with its copy a window at a
 * time (memcmp: libc's is vectorised) and looks at single blocks only in
 * the windows that differ.  The per-block shadows (struct pp_block) stay
 * the authority for the deltas and the counts: a copy only says where to
 * look.  Blocks registered since the ranges were built are compared one by
 * one until the next rebuild (the ranges are rebuilt, sorted by address,
 * once enough blocks are pending or registrations have quieted down).
 *
 * All of this is owner-only state: only the thread itself snapshots
 * through here (pp_ev_begin); closing a thread, by itself or by the record
 * writer, goes through pp_snapshot and the block list.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt-internal.h"

/* Slots compared by one memcmp, and again in sub-windows of PP_SUB when
 * the window differs (a memcmp call costs about as much as 10 slots of
 * a slot-by-slot walk). */
#define PP_WINDOW 256
#define PP_SUB 16
/* Rebuild the ranges when this many blocks are pending, or when some are
 * and this many snapshots were taken since the last rebuild. */
#define PP_PENDING_MAX 32
#define PP_REBUILD_EVERY 64

struct pp_range {
    const uint64_t *lo;     /* first counter */
    uint64_t *copy;         /* the counters at the last snapshot */
    uint32_t n;             /* slots */
    uint32_t b0, nb;        /* its blocks: sorted[b0 .. b0 + nb) */
};

struct pp_scan {
    struct pp_range *r;
    size_t nr;
    struct pp_block **sorted;   /* the blocks in ranges, by address */
    size_t nsorted;
    struct pp_block *last;      /* last block (list order) in the ranges */
    uint32_t since;             /* snapshots since the last rebuild */
};

static int by_address(const void *a, const void *b)
{
    const struct pp_block *x = *(struct pp_block *const *)a, *y = *(struct pp_block *const *)b;
    return x->cnt < y->cnt ? -1 : x->cnt > y->cnt;
}

static void free_ranges(struct pp_scan *s)
{
    for (size_t i = 0; i < s->nr; i++)
        free(s->r[i].copy);
    free(s->r);
    free(s->sorted);
    s->r = NULL;
    s->sorted = NULL;
    s->nr = s->nsorted = 0;
    s->last = NULL;
}

/* Ranges of every block of t; on failure none (every block is then
 * compared one by one, as pending). */
static void rebuild(struct pp_thread *t, struct pp_scan *s)
{
    free_ranges(s);
    s->since = 0;
    size_t nb = t->nblocks;
    struct pp_block **v = malloc((nb ? nb : 1) * sizeof *v);
    struct pp_range *r = malloc((nb ? nb : 1) * sizeof *r);
    if (!v || !r) {
        free(v);
        free(r);
        return;
    }
    size_t k = 0;
    struct pp_block *last = NULL;
    for (struct pp_block *b = atomic_load_explicit(&t->blocks, memory_order_relaxed); b && k < nb;
         b = atomic_load_explicit(&b->next, memory_order_relaxed))
        v[k++] = last = b;
    qsort(v, k, sizeof *v, by_address);
    size_t nr = 0;
    for (size_t i = 0; i < k; i++) {
        if (nr && v[i]->cnt == r[nr - 1].lo + r[nr - 1].n) {
            r[nr - 1].n += v[i]->nslots;
            r[nr - 1].nb++;
        } else {
            r[nr++] = (struct pp_range){ .lo = v[i]->cnt, .n = v[i]->nslots, .b0 = (uint32_t)i,
                                         .nb = 1 };
        }
    }
    for (size_t i = 0; i < nr; i++) {
        r[i].copy = malloc(r[i].n * sizeof *r[i].copy);
        if (!r[i].copy) {
            for (size_t j = 0; j < i; j++)
                free(r[j].copy);
            free(v);
            free(r);
            return;
        }
        /* the copy starts as the shadows: increments not yet snapshotted
         * show as differences */
        uint64_t *c = r[i].copy;
        for (uint32_t j = r[i].b0; j < r[i].b0 + r[i].nb; j++) {
            memcpy(c, v[j]->shadow, v[j]->nslots * sizeof *c);
            c += v[j]->nslots;
        }
    }
    s->r = r;
    s->nr = nr;
    s->sorted = v;
    s->nsorted = k;
    s->last = last;
}

/* Slots [from, to) of block b into out/where; false when out is full. */
static int walk_block(struct pp_block *b, uint32_t from, uint32_t to, struct pp_delta *out,
                      uint64_t **where, size_t cap, uint32_t *n)
{
    const uint64_t *cnt = b->cnt;
    uint64_t *sh = b->shadow;
    for (uint32_t s = from; s < to; s++) {
        uint64_t v = cnt[s];
        if (v != sh[s]) {
            if (*n == cap)
                return 0;
            out[*n].block = b->idx;
            out[*n].slot = s;
            out[*n].inc = v - sh[s];
            where[*n] = &sh[s];
            (*n)++;
        }
    }
    return 1;
}

uint32_t pp_scan_peek(struct pp_thread *t, struct pp_delta *out, uint64_t **where, size_t cap)
{
    struct pp_scan *s = t->scan;
    if (!s) {
        int saved = errno;
        s = t->scan = calloc(1, sizeof *s);
        errno = saved;
        if (!s)
            return 0;           /* the increments go to a later snapshot */
    }
    size_t pending = t->nblocks - s->nsorted;
    if (pending && (pending >= PP_PENDING_MAX || s->since >= PP_REBUILD_EVERY)) {
        int saved = errno;
        rebuild(t, s);
        errno = saved;
    }
    s->since++;
    uint32_t n = 0;
    for (size_t i = 0; i < s->nr; i++) {
        struct pp_range *r = &s->r[i];
        uint32_t bend = r->b0 + r->nb;
        for (uint32_t w = 0; w < r->n; w += PP_WINDOW) {
            uint32_t m = r->n - w < PP_WINDOW ? r->n - w : PP_WINDOW;
            if (memcmp(r->lo + w, r->copy + w, m * sizeof *r->lo) == 0)
                continue;
            for (uint32_t u = w; u < w + m; u += PP_SUB) {
                uint32_t q = w + m - u < PP_SUB ? w + m - u : PP_SUB;
                const uint64_t *wlo = r->lo + u, *whi = wlo + q;
                if (memcmp(wlo, r->copy + u, q * sizeof *wlo) == 0)
                    continue;
                /* the first block that ends past wlo */
                uint32_t lo = r->b0, hi = bend;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (s->sorted[mid]->cnt + s->sorted[mid]->nslots <= wlo)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                for (uint32_t k = lo; k < bend && s->sorted[k]->cnt < whi; k++) {
                    struct pp_block *b = s->sorted[k];
                    uint32_t from = b->cnt < wlo ? (uint32_t)(wlo - b->cnt) : 0;
                    uint32_t to = b->cnt + b->nslots > whi ? (uint32_t)(whi - b->cnt) : b->nslots;
                    if (!walk_block(b, from, to, out, where, cap, &n))
                        return n;
                }
                /* the shadows advance when the event is committed; if it
                 * is dropped, the copy is ahead of them and those
                 * increments are found the next time their window
                 * differs, or at close */
                memcpy(r->copy + u, wlo, q * sizeof *wlo);
            }
        }
    }
    /* blocks registered since the rebuild, one by one */
    for (struct pp_block *b = s->last ? atomic_load_explicit(&s->last->next, memory_order_relaxed)
                                      : atomic_load_explicit(&t->blocks, memory_order_relaxed);
         b; b = atomic_load_explicit(&b->next, memory_order_relaxed)) {
        if (memcmp(b->cnt, b->shadow, b->nslots * sizeof *b->cnt) == 0)
            continue;
        if (!walk_block(b, 0, b->nslots, out, where, cap, &n))
            return n;
    }
    return n;
}
