/* dynsched.c - test program: an OpenMP loop with schedule(dynamic, 16)
 * whose iterations cost the same (200 sines each), then one with
 * schedule(guided) (the schedule model, 61-omp-schedule.t).
 *
 * Usage: dynsched N     (N >= 1 iterations)
 *
 * Prints one number, the sum of the results (it does not depend on the
 * number of threads).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv)
{
    long N = argc > 1 ? atol(argv[1]) : 1000;
    if (N < 1 || N > 100000000)
        return 2;
    double *a = malloc(sizeof *a * N);
    if (!a)
        return 1;
#pragma omp parallel for schedule(dynamic, 16)
    for (long i = 0; i < N; i++) {
        double x = 0;
        for (int k = 0; k < 200; k++)
            x += sin((double)(i + k));
        a[i] = x;
    }
    double s = 0;
#pragma omp parallel
    {
#pragma omp for schedule(guided)
        for (long i = 0; i < N; i++)
            a[i] *= 2;
    }
#pragma omp parallel for schedule(runtime)
    for (long i = 0; i < N; i++)
        a[i] += 1;
    for (long i = 0; i < N; i++)
        s += a[i];
    printf("%g\n", s);
    free(a);
    return 0;
}
