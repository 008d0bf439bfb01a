/* apsp.c - all pairs shortest paths by Dijkstra's algorithm from every
 * source, a cluster of P pthreads with a static block partition of the
 * sources (Zhang & Xu 1995, Figure 5).
 *
 * Usage: apsp N P      (N >= 2 nodes, 1 <= P <= 256 threads)
 *
 * Graph: dense, directed; edge i->j (i != j) has weight
 * w(i,j) = 1 + ((i*7 + j*13) % 17), except that it is absent when
 * (i + 2*j) % 5 == 0.  Dijkstra is the O(N^2) dense form: a linear search
 * for the nearest unvisited node, then relaxation of all its edges.
 *
 * Structure:
 *   main:     build the weight matrix (serial); create P threads;
 *             join P threads; checksum.
 *   thread t: for s in [t*N/P, (t+1)*N/P): Dijkstra from s
 *             (N steps, each a min search over N nodes and a relaxation
 *             over N nodes).  No synchronisation between create and join.
 *
 * Prints one line "checksum <sum of all distances>" which does not depend
 * on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256
#define MAXN 16384
#define INF 1000000000

static int N;        /* number of nodes (set once in main) */
static int P;        /* number of threads (set once in main) */
static int *w;       /* N x N weights, row major, 0 = no edge */
static int *dist;    /* N x N path matrix: dist[s*N + v] */
static char *visited; /* P x N: visited flags of each thread */

static void usage(void)
{
    fprintf(stderr, "usage: apsp N P\n"
                    "  N  number of nodes, 2 <= N <= %d\n"
                    "  P  threads, 1 <= P <= %d\n", MAXN, MAXP);
    exit(2);
}

/* Non-empty string of at most 9 decimal digits. */
static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 9 && s[n] == '\0';
}

static void *worker(void *arg)
{
    long tid = (long)arg;
    long lo = tid * N / P;
    long hi = (tid + 1) * N / P;
    char *vis = visited + tid * N;

    for (long s = lo; s < hi; s++) {
        int *d = dist + s * N;
        for (long v = 0; v < N; v++) {
            d[v] = INF;
            vis[v] = 0;
        }
        d[s] = 0;
        for (long step = 0; step < N; step++) {
            /* nearest unvisited node */
            long u = -1;
            int best = INF;
            for (long v = 0; v < N; v++) {
                if (!vis[v] && d[v] < best) {
                    best = d[v];
                    u = v;
                }
            }
            if (u < 0)
                break; /* the rest is unreachable */
            vis[u] = 1;
            /* relax the edges leaving u */
            const int *wu = w + u * N;
            for (long v = 0; v < N; v++) {
                int wt = wu[v];
                if (wt > 0 && !vis[v] && best + wt < d[v])
                    d[v] = best + wt;
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !is_count(argv[1]) || !is_count(argv[2]))
        usage();
    N = atoi(argv[1]);
    P = atoi(argv[2]);
    if (N < 2 || N > MAXN || P < 1 || P > MAXP)
        usage();

    w = malloc((size_t)N * (size_t)N * sizeof *w);
    dist = malloc((size_t)N * (size_t)N * sizeof *dist);
    visited = malloc((size_t)P * (size_t)N);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!w || !dist || !visited || !th) {
        fprintf(stderr, "apsp: out of memory\n");
        return 1;
    }

    for (long i = 0; i < N; i++)
        for (long j = 0; j < N; j++)
            w[i * N + j] = (i == j || (i + 2 * j) % 5 == 0) ? 0 : (int)(1 + (i * 7 + j * 13) % 17);

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "apsp: pthread_create failed\n");
            return 1;
        }
    }
    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);

    long long sum = 0;
    for (long i = 0; i < (long)N * N; i++)
        sum += dist[i] == INF ? 0 : dist[i];
    printf("checksum %.10g\n", (double)sum);

    free(th);
    free(visited);
    free(dist);
    free(w);
    return 0;
}
