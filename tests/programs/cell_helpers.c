/* cell_helpers.c - a heat-like grid code whose loops call small helper
 * functions for every cell, the way such code is usually written: the
 * set-up through an initialiser with the boundary tests inside it, the
 * sweep through a stencil helper, a source term whose cost depends on
 * the cell (a series with 1 to 3 terms), a conductivity set per cell by
 * a helper with its own tests of the position, and a row checksum
 * through a helper that loops over its argument's length.
 *
 * Usage: cell_helpers [N [STEPS]]   (defaults GRID_N and GRID_STEPS)
 *        N >= 3; the threads are OpenMP's (OMP_NUM_THREADS).
 * Output: "sum <value>", the same for every thread count.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define GRID_N 200
#define GRID_STEPS 4
#define IDX(i, j, n) ((i) * (n) + (j))

static double edge_value(long i, long j, long n)
{
    if (i == 0)
        return 1.0;
    if (j == 0 || j == n - 1)
        return 0.5;
    return 0.0;
}

static double initial_value(long i, long j, long n)
{
    if (i == 0 || i == n - 1 || j == 0 || j == n - 1)
        return edge_value(i, j, n);
    return (double)((i * 7 + j * 13) % 29) / 29.0;
}

/* the material: a slower square in the middle, a faster border */
static double conductivity(long i, long j, long n)
{
    if (i < n / 8 || j < n / 8 || i >= n - n / 8 || j >= n - n / 8)
        return 1.0;
    if (i > n / 3 && i < 2 * n / 3 && j > n / 3 && j < 2 * n / 3)
        return 0.25;
    return 0.75;
}

static double stencil(const double *u, long i, long j, long n)
{
    return 0.25 * (u[IDX(i - 1, j, n)] + u[IDX(i + 1, j, n)] + u[IDX(i, j - 1, n)] + u[IDX(i, j + 1, n)]);
}

/* a source term whose cost depends on the cell: terms = 1, 2 or 3 */
static double source(long terms, double x)
{
    double s = 0.0;
    for (long t = 0; t < terms; t++)
        s += x / (double)(t + 1);
    return 1e-3 * s;
}

static double row_sum(const double *row, long len)
{
    double s = 0.0;
    for (long j = 0; j < len; j++)
        s += row[j];
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : GRID_N;
    long steps = argc > 2 ? atol(argv[2]) : GRID_STEPS;
    if (n < 3 || steps < 0) {
        fprintf(stderr, "usage: cell_helpers [N [STEPS]]   (N >= 3)\n");
        return 2;
    }
    double *u = malloc(sizeof *u * (size_t)(n * n));
    double *v = malloc(sizeof *v * (size_t)(n * n));
    double *k = malloc(sizeof *k * (size_t)(n * n));
    if (!u || !v || !k) {
        fprintf(stderr, "cell_helpers: out of memory\n");
        return 1;
    }
    double sum = 0.0;
#pragma omp parallel
    {
#pragma omp for
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++)
                u[IDX(i, j, n)] = v[IDX(i, j, n)] = initial_value(i, j, n);
#pragma omp for
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++)
                k[IDX(i, j, n)] = conductivity(i, j, n);
        for (long t = 0; t < steps; t++) {
#pragma omp for
            for (long i = 1; i < n - 1; i++)
                for (long j = 1; j < n - 1; j++)
                    v[IDX(i, j, n)] = k[IDX(i, j, n)] * stencil(u, i, j, n) + source(1 + (i + j) % 3, u[IDX(i, j, n)]);
#pragma omp single
            {
                double *w = u;
                u = v;
                v = w;
            }
        }
#pragma omp for reduction(+ : sum)
        for (long i = 0; i < n; i++)
            sum += row_sum(u + i * n, n);
    }
    printf("sum %.6f\n", sum);
    free(u);
    free(v);
    free(k);
    return 0;
}
