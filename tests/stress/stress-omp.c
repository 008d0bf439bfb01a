/* stress-omp.c - OpenMP under the recorder (tests/e2e/22-stress.t).
 *
 *   stress-omp many T N        a parallel loop of N iterations on T threads,
 *                              and a loop of N iterations in every thread
 *   stress-omp nested A B N    A threads, each opening a team of B (nested,
 *                              max active levels 2); every inner thread
 *                              runs N iterations, and the inner teams share
 *                              a worksharing loop of N iterations
 *   stress-omp tasks T K N     K tasks of N iterations on T threads
 *
 * (GCC reports a worksharing loop at its body's line, a dynamic one as two
 * loops there, the chunks and the iterations: the L: markers that
 * tests/e2e/22-stress.t looks for are there.)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *mode = argv[1];
    long total = 0, shared = 0;
    if (!strcmp(mode, "many")) {
        int t = atoi(argv[2]);
        long n = atol(argv[3]);
#pragma omp parallel for num_threads(t) reduction(+ : shared) schedule(static)
        for (long i = 0; i < n; i++)
            shared += i % 5;   /* L:pfor */
#pragma omp parallel num_threads(t) reduction(+ : total)
        {
            long s = 0;
            for (long i = 0; i < n; i++)   /* L:each */
                s += (i ^ omp_get_thread_num()) & 7;
            total += s;
        }
        printf("shared %ld total %ld\n", shared, total);
        return 0;
    }
    if (!strcmp(mode, "nested") && argc > 4) {
        int a = atoi(argv[2]), b = atoi(argv[3]);
        long n = atol(argv[4]);
        omp_set_max_active_levels(2);
        int levels_ok = 1;
#pragma omp parallel num_threads(a) reduction(+ : total, shared)
        {
#pragma omp parallel num_threads(b) reduction(+ : total, shared)
            {
                if (omp_get_level() != 2 || omp_get_num_threads() != b)
#pragma omp atomic write
                    levels_ok = 0;
                long s = 0;
                for (long i = 0; i < n; i++)   /* L:inner */
                    s += i & 3;
                total += s;
#pragma omp for schedule(dynamic, 7)
                for (long i = 0; i < n; i++)
                    shared += i % 3;   /* L:innerfor */
            }
        }
        printf("levels %d total %ld shared %ld\n", levels_ok, total, shared);
        return 0;
    }
    if (!strcmp(mode, "tasks") && argc > 4) {
        int t = atoi(argv[2]), k = atoi(argv[3]);
        long n = atol(argv[4]);
#pragma omp parallel num_threads(t)
#pragma omp single
        for (int j = 0; j < k; j++) {
#pragma omp task firstprivate(j)
            {
                long s = 0;
                for (long i = 0; i < n; i++)   /* L:task */
                    s += (i + j) & 1;
#pragma omp atomic
                total += s;
            }
        }
        printf("tasks total %ld\n", total);
        return 0;
    }
    return 2;
}
