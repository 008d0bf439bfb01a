/* bfs_omp.c - breadth-first search inside one long OpenMP parallel region.
 *
 * The shape of a graph500-style level-synchronous BFS: the frontier lives in
 * one shared queue moved by two shared counters (__sync_fetch_and_add), one
 * thread swaps the levels in an `omp single`, the frontier is shared out
 * with `omp for`, parents are claimed with __sync_bool_compare_and_swap and
 * the levels are separated by barriers.  The graph is a deterministic
 * pseudo-random one (an LCG per vertex), so the output (vertices reached,
 * levels, a checksum of the depths and whether every parent is valid) is
 * the same for any thread count.
 *
 *   bfs_omp SCALE DEGREE     (2^SCALE vertices; threads: OMP_NUM_THREADS)
 *
 * perfpred-diff: kind=omp args="14 8" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#define ROOT 1

struct graph {
    long nv;
    long *start;     /* CSR: edges of v in adj[start[v] .. start[v+1]) */
    long *adj;
};

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 17;
}

static void build(struct graph *g, int scale, int degree)
{
    long nv = 1L << scale, ne = nv * degree;
    long *deg = calloc(nv + 1, sizeof *deg);
    long *src = malloc(ne * sizeof *src), *dst = malloc(ne * sizeof *dst);
    uint64_t s = 12345;
    for (long e = 0; e < ne; e++) {
        src[e] = (long)(lcg(&s) % (uint64_t)nv);
        dst[e] = (long)(lcg(&s) % (uint64_t)nv);
        deg[src[e]]++;
        deg[dst[e]]++;
    }
    g->nv = nv;
    g->start = malloc((nv + 1) * sizeof *g->start);
    g->adj = malloc(2 * ne * sizeof *g->adj);
    g->start[0] = 0;
    for (long v = 0; v < nv; v++)
        g->start[v + 1] = g->start[v] + deg[v];
    for (long v = 0; v < nv; v++)
        deg[v] = g->start[v];
    for (long e = 0; e < ne; e++) {
        g->adj[deg[src[e]]++] = dst[e];
        g->adj[deg[dst[e]]++] = src[e];
    }
    free(deg);
    free(src);
    free(dst);
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 14;
    int degree = argc > 2 ? atoi(argv[2]) : 8;
    struct graph g;
    build(&g, scale, degree);
    long nv = g.nv;
    long *parent = malloc(nv * sizeof *parent);
    long *queue = malloc(nv * sizeof *queue);
    long head = 0, tail = 0, level_end = 0;
    int levels = 0;

    for (long v = 0; v < nv; v++)
        parent[v] = -1;
    parent[ROOT] = ROOT;
    queue[tail++] = ROOT;

#pragma omp parallel
    {
        long *mine = malloc(64 * sizeof *mine);   /* a thread-private buffer */
        int nmine;
        for (;;) {
#pragma omp single
            {
                level_end = tail;
                if (head < level_end)
                    levels++;
            }
            if (head >= level_end)
                break;
            long lo = head, hi = level_end;
#pragma omp for schedule(dynamic, 16)
            for (long i = lo; i < hi; i++) {
                long u = queue[i];
                nmine = 0;
                for (long k = g.start[u]; k < g.start[u + 1]; k++) {
                    long w = g.adj[k];
                    if (parent[w] == -1 && __sync_bool_compare_and_swap(&parent[w], -1, u)) {
                        mine[nmine++] = w;
                        if (nmine == 64) {
                            long at = __sync_fetch_and_add(&tail, nmine);
                            for (int j = 0; j < nmine; j++)   /* count depends on timing */
                                queue[at + j] = mine[j];
                            nmine = 0;
                        }
                    }
                }
                if (nmine) {
                    long at = __sync_fetch_and_add(&tail, nmine);
                    for (int j = 0; j < nmine; j++)   /* count depends on timing */
                        queue[at + j] = mine[j];
                }
            }
#pragma omp single
            head = level_end;
        }
        free(mine);
    }

    /* verify: every reached vertex's parent is reached, adjacent, one level up */
    long *depth = malloc(nv * sizeof *depth);
    for (long v = 0; v < nv; v++)
        depth[v] = -1;
    depth[ROOT] = 0;
    for (long i = 1; i < tail; i++)
        depth[queue[i]] = -2;
    long reached = 0, bad = 0;
    uint64_t sum = 0;
    for (long i = 0; i < tail; i++) {   /* the queue is in level order */
        long v = queue[i];
        reached++;
        if (v == ROOT)
            continue;
        long p = parent[v];
        int adjacent = 0;
        for (long k = g.start[v]; k < g.start[v + 1]; k++)
            adjacent |= g.adj[k] == p;
        if (p < 0 || depth[p] < 0 || !adjacent)
            bad++;
        else
            depth[v] = depth[p] + 1;
        sum += (uint64_t)depth[v] * (uint64_t)(v + 1);
    }
    long unreached_parent = 0;
    for (long v = 0; v < nv; v++)
        unreached_parent += parent[v] != -1 && depth[v] == -1;
    printf("vertices %ld reached %ld levels %d invalid %ld lost %ld depthsum %llu\n",
           nv, reached, levels, bad, unreached_parent, (unsigned long long)sum);
    free(depth);
    free(parent);
    free(queue);
    free(g.start);
    free(g.adj);
    return bad != 0 || unreached_parent != 0;
}
