/* trav-queue.c - the traversal's runnable threads, ordered by (clock,
 * thread): a winner tree (tournament tree) over the thread numbers.
 *
 * Leaf nleaf + t holds t while t is runnable and the sentinel thread n
 * (whose clock is +inf) otherwise; every inner node holds the first of
 * its two children, so the root is the thread that moves next.  Taking
 * the first thread out and putting a thread in each walk one leaf-to-root
 * path with one comparison per level: for the traversal of a thousand MPI
 * ranks that is about a third of the work of a binary heap's pop and push,
 * and the order is the same (the minimum by clock, ties to the lower
 * thread number), so the traversal, and every time it gives, is too.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"

#include <math.h>
#include <stdlib.h>

static inline int before(const double *clk, int a, int b)
{
    return clk[a] < clk[b] || (clk[a] == clk[b] && a < b);
}

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
        c->win[i] = n;
    c->clock[n] = HUGE_VAL;     /* the sentinel (clock has n + 1 entries) */
    return 0;
}

void pp_trav_queue_free(tctx *c)
{
    free(c->win);
    c->win = NULL;
}

void pp_trav_ready(tctx *c, int t)
{
    int *win = c->win;
    const double *clk = c->clock;
    int i = c->nleaf + t;
    win[i] = t;
    /* up while t wins; where the winner does not change, nothing above
     * does (t was not in the tree, so no node above holds it) */
    while (i > 1) {
        int p = i >> 1, a = win[i], s = win[i ^ 1];
        int w = before(clk, a, s) ? a : s;
        if (win[p] == w)
            break;
        win[p] = w;
        i = p;
    }
    /* its next action is read when it moves: start loading it now (a
     * thousand ranks' action lists do not stay in the cache) */
    const pp_ithread *th = &c->in->threads[t];
    if (th->act && c->pc[t] < th->nact)
        __builtin_prefetch(&th->act[c->pc[t]]);
}

void pp_trav_unready(tctx *c, int t)
{
    int *win = c->win;
    const double *clk = c->clock;
    int i = c->nleaf + t;
    int w = c->in->nthreads;
    win[i] = w;
    /* every node on the path may have held t: recompute all of them */
    while (i > 1) {
        int s = win[i ^ 1];
        if (before(clk, s, w))
            w = s;
        i >>= 1;
        win[i] = w;
    }
}
