/* trav-queue.c - the traversal's runnable threads, ordered by (clock,
 * thread): a winner tree (tournament tree) over the thread numbers.
 *
 * Leaf nleaf + t holds (clock, t) while t is runnable and the sentinel
 * (above every clock, n) otherwise; every inner node holds the first of its two
 * children, so the root is the thread that moves next.  The clocks are
 * copied into the nodes so that a comparison does not wait for a load.
 *
 * The thread that moves stays in the tree while it does (its clock in the
 * nodes is then stale, and other threads made ready meanwhile may compare
 * against it); pp_trav_settle then recomputes its whole path with its new
 * clock, or without it if it blocked or ended.  The nodes off that path
 * never held it, so the tree is exact again.  Taking
 * the first thread out and putting a thread in each walk one leaf-to-root
 * path with one comparison per level: for the traversal of a thousand MPI
 * ranks that is about a third of the work of a binary heap's pop and push,
 * and the order is the same (the minimum by clock, ties to the lower
 * thread number), so the traversal, and every time it gives, is too.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A clock as an integer in the same order (the IEEE bits, with negative
 * numbers' reversed and -0 taken as +0), so that the comparisons are
 * integer ones. */
static inline uint64_t key_of(double clock)
{
    double d = clock + 0.0;         /* -0.0 + 0.0 is +0.0 */
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

#ifdef __SIZEOF_INT128__
static inline trav_node node(uint64_t key, int t)
{
    return (trav_node)key << 64 | (uint32_t)t;
}
static inline int node_t(trav_node a)
{
    return (int)(uint32_t)a;
}
/* Is node a before node b?  (clock, then thread) */
static inline int before(trav_node a, trav_node b)
{
    return a < b;
}
#else
static inline trav_node node(uint64_t key, int t)
{
    return (trav_node){key, t};
}
static inline int node_t(trav_node a)
{
    return a.t;
}
static inline int before(trav_node a, trav_node b)
{
    return (a.key < b.key) | ((a.key == b.key) & (a.t < b.t));
}
#endif

int pp_trav_queue_init(tctx *c)
{
    int n = c->in->nthreads, nl = 1;
    while (nl < n)
        nl *= 2;
    c->nleaf = nl;
    c->win = malloc(sizeof *c->win * 2 * (size_t)nl);
    if (!c->win)
        return -1;
    for (int i = 0; i < 2 * nl; i++)
        c->win[i] = node(UINT64_MAX, n);
    c->cur = -1;
    c->cur_ready = 0;
    c->batch = 0;
    return 0;
}

int pp_trav_first(const tctx *c)
{
    int t = node_t(c->win[1]);
    return t < c->in->nthreads ? t : -1;
}

void pp_trav_queue_free(tctx *c)
{
    free(c->win);
    c->win = NULL;
}

void pp_trav_queue_push(tctx *c, int t)
{
    if (t == c->cur) {
        c->cur_ready = 1;       /* pp_trav_settle puts it back */
        return;
    }
    trav_node *win = c->win;
    int i = c->nleaf + t;
    win[i] = node(key_of(c->th[t].clock), t);
    if (c->batch)
        return;                 /* the tree is rebuilt at the batch's end */
    /* up while t wins; where the winner does not change, nothing above
     * does (t was not in the tree, so no node above holds it; a node that
     * holds the thread moving now is recomputed when it settles) */
    while (i > 1) {
        trav_node a = win[i], s = win[i ^ 1];
        trav_node w = before(a, s) ? a : s;
        i >>= 1;
        if (node_t(win[i]) == node_t(w))
            break;
        win[i] = w;
    }
}

void pp_trav_queue_update(tctx *c, int t)
{
    if (t == c->cur)
        return;                 /* its settle puts it in at its clock */
    trav_node *win = c->win;
    int i = c->nleaf + t;
    win[i] = node(key_of(c->th[t].clock), t);
    if (c->batch)
        return;
    /* its key may have gone either way: the whole path again */
    while (i > 1) {
        trav_node s = win[i ^ 1], w = win[i];
        i >>= 1;
        win[i] = before(s, w) ? s : w;
    }
}

void pp_trav_queue_batch(tctx *c, int on)
{
    c->batch = on;
    if (on)
        return;
    /* every inner node from its children, bottom up (a winner tree is
     * fixed by its leaves: the same tree as one push at a time).  The
     * moving thread's leaf may be stale: its settle redoes its path. */
    trav_node *win = c->win;
    for (int i = c->nleaf - 1; i >= 1; i--)
        win[i] = before(win[2 * i], win[2 * i + 1]) ? win[2 * i] : win[2 * i + 1];
}

void pp_trav_settle(tctx *c, int t)
{
    trav_node *win = c->win;
    int i = c->nleaf + t;
    trav_node w = c->cur_ready ? node(key_of(c->th[t].clock), t) : node(UINT64_MAX, c->in->nthreads);
    c->cur = -1;
    c->cur_ready = 0;
    win[i] = w;
    /* every node on the path held t: recompute all of them (which clock is
     * smaller is as good as random: a select, not a branch) */
    while (i > 1) {
        trav_node s = win[i ^ 1];
        w = before(s, w) ? s : w;
        i >>= 1;
        win[i] = w;
    }
}
