/* relax.c - relaxation on a 1-D grid, written as such code usually is:
 * the sizes as macros and command-line arguments, the grid allocated with
 * n elements, a time-step loop around two parallel sweeps.
 * tests/e2e/94-set-and-large-p.t records it once and asks for points
 * outside its domain (a negative size, zero steps, an overflowing size).
 *
 *   relax [N [STEPS]]
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_N 4096
#define DEFAULT_STEPS 8

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : DEFAULT_N;
    int steps = argc > 2 ? atoi(argv[2]) : DEFAULT_STEPS;
    double *u = malloc(sizeof *u * (size_t)n);
    double *v = malloc(sizeof *v * (size_t)n);
    if (!u || !v) {
        fprintf(stderr, "relax: out of memory for n = %ld\n", n);
        return 1;
    }
    for (long i = 0; i < n; i++)
        u[i] = v[i] = (double)(i % 17);
    for (int t = 0; t < steps; t++) {
#pragma omp parallel for
        for (long i = 1; i < n - 1; i++)
            v[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
#pragma omp parallel for
        for (long i = 1; i < n - 1; i++)
            u[i] = v[i];
    }
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += u[i];
    printf("relax: n = %ld, %d steps, sum %.6g\n", n, steps, sum);
    free(u);
    free(v);
    return 0;
}
