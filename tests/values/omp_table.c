/* omp_table.c - one long parallel region: a `single` thread fills the
 * table of row bounds from the team size, then each thread sums its own
 * rows, found in the table by its thread number.  The bounds a thread
 * reads from the table belong to that thread; the model must find their
 * rule in the thread number, the team size and n.
 *
 * usage: omp_table N   (OMP_NUM_THREADS threads, at most 64)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 64

static long bound[MAX_THREADS + 1];

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double s = 0;
#pragma omp parallel reduction(+ : s)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        if (team <= MAX_THREADS) {
#pragma omp single
            for (int k = 0; k <= team; k++)
                bound[k] = n * k / team;
            long from = bound[me], to = bound[me + 1];
            for (long i = from; i < to; i++)
                s += 1.0 / (double)(i + 1);
        }
    }
    printf("%.9f\n", s);
    return 0;
}
