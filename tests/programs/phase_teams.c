/* phase_teams.c - a time-stepped stencil written the way such codes
 * usually are: per step one parallel region in which each thread takes
 * its slab of rows (from a table of slabs filled once, indexed by the
 * thread's number), updates it, waits at a barrier, copies it back; and
 * every EVERY steps, and at the end, a reduction of the boundary by a
 * smaller team (num_threads(half + 1)), so that the pool's threads do
 * not all belong to the same teams (EVERY = 0: none).
 *
 *   phase_teams [N [STEPS [EVERY]]]   (threads: OMP_NUM_THREADS)
 *
 * Prints "checksum <value> edge <value>", the same for any thread count.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 1024

struct slab {
    int first, last;     /* rows first..last - 1 */
};

static struct slab slabs[MAX_THREADS];

/* n interior rows over p threads, the remainder to the last threads */
static void make_slabs(int n, int p)
{
    int q = n / p, r = n % p;
    for (int t = 0, row = 1; t < p; t++) {
        int take = q + (t >= p - r ? 1 : 0);
        slabs[t].first = row;
        slabs[t].last = row + take;
        row += take;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int steps = argc > 2 ? atoi(argv[2]) : 6;
    int every = argc > 3 ? atoi(argv[3]) : 3;
    int p = omp_get_max_threads();
    if (n < 4 || steps < 1 || every < 0 || p > MAX_THREADS) {
        fprintf(stderr, "usage: phase_teams [N [STEPS [EVERY]]] (at most %d threads)\n", MAX_THREADS);
        return 2;
    }
    int w = n + 2;
    double *u = malloc(sizeof *u * (size_t)w * (size_t)w);
    double *v = malloc(sizeof *v * (size_t)w * (size_t)w);
    if (!u || !v) {
        fprintf(stderr, "phase_teams: out of memory\n");
        return 1;
    }
    for (int i = 0; i < w * w; i++)
        u[i] = v[i] = (i % 7) * 0.125;
    make_slabs(n, p);
    double edge = 0;
    for (int s = 1; s <= steps; s++) {
#pragma omp parallel
        {
            const struct slab *my = &slabs[omp_get_thread_num()];
            for (int i = my->first; i < my->last; i++)
                for (int j = 1; j <= n; j++)
                    v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] +
                                           u[i * w + j + 1]);
#pragma omp barrier
            for (int i = my->first; i < my->last; i++)
                for (int j = 1; j <= n; j++)
                    u[i * w + j] = v[i * w + j];
        }
        if (every > 0 && (s % every == 0 || s == steps)) {
            double sum = 0;
#pragma omp parallel for num_threads(p / 2 + 1) reduction(+ : sum)
            for (int j = 1; j <= n; j++)
                sum += u[w + j] + u[n * w + j];
            edge += sum;
        }
    }
    double check = 0;
    for (int i = 0; i < w * w; i++)
        check += u[i];
    printf("checksum %.6f edge %.6f\n", check, edge);
    free(u);
    free(v);
    return 0;
}
