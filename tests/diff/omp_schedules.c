/* omp_schedules.c - work-sharing loops of every schedule in one region.
 *
 * Stresses the loop and sections entry points of libgomp inside one long
 * parallel region: `omp for` with schedule(static), (static, 7),
 * (dynamic), (dynamic, 3), (guided), (guided, 5) and (runtime) (set with
 * omp_set_schedule to dynamic,4, then by every thread to guided,2 and
 * dynamic,4 in turn), several of them
 * `nowait` (they write disjoint arrays, and a barrier comes before the
 * arrays are read), an `ordered` loop, a collapse(2) nest, `omp sections`
 * (with and without nowait) and reductions (+, *, max, min, ^, &&, ||) on
 * integers.  A chunk handed out twice or never, or a reduction combined
 * twice, changes a checksum.
 *
 *   omp_schedules N REPS      (threads: OMP_NUM_THREADS)
 *
 * perfpred-diff: kind=omp args="3000 6" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static long f(long i, int r)
{
    unsigned long x = (unsigned long)(i * 2654435761L + r * 40503L);
    x ^= x >> 13;
    return (long)(x % 1000);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 3000;
    int reps = argc > 2 ? atoi(argv[2]) : 6;
    if (n < 1 || reps < 1) {
        fprintf(stderr, "usage: omp_schedules N REPS\n");
        return 2;
    }
    long *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
    long *d = calloc(n, sizeof *d), *e = calloc(n, sizeof *e), *g = calloc(n, sizeof *g);
    long *ord = calloc(n, sizeof *ord);
    long nord = 0;
    long sum = 0, mx = -1, mn = 1L << 40, x = 0, grid = 0;
    unsigned long prod = 1;     /* mod 2^64: the same in any order */
    int all = 1, any = 0;
    long sec[4] = { 0 };
    int sect_by[4];

    omp_set_schedule(omp_sched_dynamic, 4);
#pragma omp parallel
    {
        for (int r = 0; r < reps; r++) {
#pragma omp for schedule(static) nowait
            for (long i = 0; i < n; i++)
                a[i] += f(i, r);
#pragma omp for schedule(static, 7) nowait
            for (long i = 0; i < n; i++)
                b[i] += f(i, r + 1);
#pragma omp for schedule(dynamic) nowait
            for (long i = 0; i < n; i++)
                c[i] += f(i, r + 2);
#pragma omp for schedule(dynamic, 3) nowait
            for (long i = n - 1; i >= 0; i--)
                d[i] += f(i, r + 3);
#pragma omp for schedule(guided) nowait
            for (long i = 0; i < n; i += 2)
                e[i] += f(i, r + 4);
#pragma omp for schedule(guided, 5) nowait
            for (long i = 1; i < n; i += 2)
                e[i] += f(i, r + 5);
#pragma omp for schedule(runtime)
            for (long i = 0; i < n; i++)
                g[i] += f(i, r + 6);
            /* the implicit barrier above: every array is complete */
#pragma omp for schedule(static) reduction(+:sum) reduction(max:mx) reduction(min:mn) reduction(^:x)
            for (long i = 0; i < n; i++) {
                long v = a[i] + 2 * b[i] + 3 * c[i] + 5 * d[i] + 7 * e[i] + 11 * g[i];
                sum += v;
                if (v > mx)
                    mx = v;
                if (v < mn)
                    mn = v;
                x ^= v * (i + 1);
            }
#pragma omp for schedule(dynamic, 16) reduction(*:prod) reduction(&&:all) reduction(||:any)
            for (long i = 0; i < n; i++) {
                if (i % 97 == 0)
                    prod *= (unsigned long)(1 + 2 * (a[i] % 5));
                all = all && a[i] >= 0;
                any = any || g[i] == 999 * (r + 1);
            }
#pragma omp for schedule(dynamic, 5) ordered
            for (long i = 0; i < n; i += 3) {
                long v = f(i, r) % 10;
#pragma omp ordered
                {
                    ord[nord % n] = ord[nord % n] * 3 + v + i;
                    nord++;
                }
            }
#pragma omp for collapse(2) schedule(guided, 3) reduction(+:grid)
            for (int i = 0; i < 60; i++)
                for (int j = 0; j < 50; j++)
                    grid += (long)(i + 1) * (j + 2) * (r + 1) % 17;
#pragma omp sections
            {
#pragma omp section
                { sec[0] += r + 1; sect_by[0] = omp_get_thread_num(); }
#pragma omp section
                { sec[1] += 2 * r; sect_by[1] = omp_get_thread_num(); }
#pragma omp section
                { sec[2] += a[r % n]; sect_by[2] = omp_get_thread_num(); }
            }
#pragma omp sections nowait
            {
                /* what it reads is written again only after a barrier of
                   the next repetition (b[], written by the next one's
                   first nowait loops, raced with a late section) */
#pragma omp section
                sec[3] += sec[2] % 1000 + r;
#pragma omp section
                sect_by[3] = sect_by[0] + sect_by[1] + sect_by[2] >= 0;
            }
            /* every thread sets its own run-sched-var: they must agree */
            omp_set_schedule(r % 2 ? omp_sched_dynamic : omp_sched_guided, r % 2 ? 4 : 2);
        }
    }

    unsigned long h = 0;
    for (long i = 0; i < n; i++)
        h = h * 1000003 + (unsigned long)(a[i] + 3 * b[i] + 5 * c[i] + 7 * d[i] + 11 * e[i] + 13 * g[i] + 17 * ord[i]);
    printf("sum %ld prod %lu max %ld min %ld xor %ld all %d any %d grid %ld ordered %ld "
           "sections %ld %ld %ld %ld/%d hash %lu\n",
           sum, prod, mx, mn, x, all, any, grid, nord, sec[0], sec[1], sec[2], sec[3], sect_by[3], h);
    free(a); free(b); free(c); free(d); free(e); free(g); free(ord);
    return 0;
}
