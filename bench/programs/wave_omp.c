/* wave_omp.c - 2-D wave equation (leapfrog) on an N x N membrane, OpenMP.
 *
 * Usage: wave_omp N STEPS [NTHREADS]
 *
 * One parallel region around the whole time loop: the update is an
 * `omp for`, the energy a reduction every step, and one thread (`single`)
 * rotates the three time levels and keeps the energy history.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define IDX(i, j) ((size_t)(i) * n + (j))

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N STEPS [NTHREADS]\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    int steps = atoi(argv[2]);
    if (argc > 3)
        omp_set_num_threads(atoi(argv[3]));
    if (n < 4 || steps < 1) {
        fprintf(stderr, "wave_omp: N must be >= 4 and STEPS >= 1\n");
        return 2;
    }

    double *prev = calloc((size_t)n * n, sizeof(double));
    double *cur = calloc((size_t)n * n, sizeof(double));
    double *next = calloc((size_t)n * n, sizeof(double));
    double *energy = malloc(sizeof(double) * steps);
    if (!prev || !cur || !next || !energy) {
        fprintf(stderr, "wave_omp: out of memory\n");
        return 1;
    }
    const double c2 = 0.25; /* (c dt / dx)^2, stable below 0.5 */
    double e = 0.0;

    /* a bump off the centre */
    int ci = n / 3, cj = n / 2, r = n / 10 + 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double d2 = (double)(i - ci) * (i - ci) + (double)(j - cj) * (j - cj);
            if (d2 < (double)r * r)
                cur[IDX(i, j)] = prev[IDX(i, j)] = 1.0 - d2 / ((double)r * r);
        }

#pragma omp parallel
    {
        for (int s = 0; s < steps; s++) {
#pragma omp for schedule(static)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++) {
                    double lap = cur[IDX(i - 1, j)] + cur[IDX(i + 1, j)] + cur[IDX(i, j - 1)] +
                                 cur[IDX(i, j + 1)] - 4.0 * cur[IDX(i, j)];
                    next[IDX(i, j)] = 2.0 * cur[IDX(i, j)] - prev[IDX(i, j)] + c2 * lap;
                }

#pragma omp single
            e = 0.0;

#pragma omp for schedule(static) reduction(+ : e)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++) {
                    double v = next[IDX(i, j)] - cur[IDX(i, j)];
                    e += v * v;
                }

#pragma omp single
            {
                energy[s] = e;
                double *t = prev;
                prev = cur;
                cur = next;
                next = t;
            }
        }
    }

    double sum = 0.0, hist = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            sum += fabs(cur[IDX(i, j)]);
    for (int s = 0; s < steps; s++)
        hist += energy[s];
    printf("checksum %.9e %.9e\n", sum, hist);
    free(prev);
    free(cur);
    free(next);
    free(energy);
    return 0;
}
