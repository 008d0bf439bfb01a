/* omp_nested.c - nested parallel regions and threadprivate data.
 *
 * Stresses regions inside regions: omp_set_max_active_levels(2), an outer
 * region of 2 threads (one per half of a matrix) each opening an inner
 * region of OMP_NUM_THREADS threads with its own work-sharing loop,
 * reduction and barrier; a third level that is inactive (one thread, as
 * the limit says); omp_get_level/omp_get_active_level checked at each
 * level; and `threadprivate` counters and scratch buffers: each thread
 * counts the rows it did in its threadprivate copy, which must survive to
 * the next region of the same size (dynamic threads are turned off), where
 * the copies are added up; `copyin` starts them from the master's value.
 *
 *   omp_nested N REPS         (threads: OMP_NUM_THREADS)
 *
 * perfpred-diff: kind=omp args="160 4" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static long rows_done;              /* per thread: rows this thread did */
static long scratch[64];            /* per thread: a row's partial sums */
#pragma omp threadprivate(rows_done, scratch)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 160;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2 || reps < 1) {
        fprintf(stderr, "usage: omp_nested N REPS\n");
        return 2;
    }
    int inner = omp_get_max_threads();
    long *m = malloc(n * n * sizeof *m);
    for (long i = 0; i < n * n; i++)
        m[i] = (i * 37 + 11) % 101;
    long half_sum[2] = { 0, 0 };
    long bad_level = 0, inner_rows = 0, third = 0;

    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    for (int r = 0; r < reps; r++) {
#pragma omp parallel num_threads(2) shared(half_sum)
        {
            int h = omp_get_thread_num();
            if (omp_get_level() != 1 || omp_get_active_level() != (omp_get_num_threads() > 1)) {
#pragma omp atomic
                bad_level++;
            }
            long lo = h * n / 2, hi = (h + 1) * n / 2, s = 0;
#pragma omp parallel num_threads(inner) reduction(+:s)
            {
                if (omp_get_level() != 2) {
#pragma omp atomic
                    bad_level++;
                }
#pragma omp for schedule(static, 3)
                for (long i = lo; i < hi; i++) {
                    for (int k = 0; k < 64; k++)
                        scratch[k] = 0;
                    for (long j = 0; j < n; j++)
                        scratch[j % 64] += m[i * n + j] * (r + 1);
                    for (int k = 0; k < 64; k++)
                        s += scratch[k] * (k + 1);
                }
#pragma omp barrier
#pragma omp single
                {
#pragma omp parallel num_threads(4)     /* beyond max-active-levels: one thread */
                    {
#pragma omp atomic
                        third++;
                    }
                }
            }
            half_sum[h] += s;
        }
        /* threadprivate: counted in one region (copyin starts every copy
           from the master's 0), added up in the region that follows, of
           the same size with no region between: the copies persist */
        rows_done = 0;
#pragma omp parallel copyin(rows_done)
        {
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++)
                rows_done++;
        }
#pragma omp parallel reduction(+:inner_rows)
        inner_rows += rows_done;
    }
    /* the third level: inactive (one thread) when the inner level is
       active, else the second active level (4 threads) */
    long third_want = 2L * reps * (inner > 1 ? 1 : 4);

    printf("halves %ld %ld levels-bad %ld threadprivate-rows %ld third-level %s\n",
           half_sum[0], half_sum[1], bad_level, inner_rows, third == third_want ? "ok" : "wrong");
    free(m);
    return bad_level != 0 || inner_rows != n * reps || third != third_want;
}
