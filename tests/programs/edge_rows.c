/* edge_rows.c - an OpenMP smoother along the rows of a grid, all its time
 * steps in one parallel region, whose cells within HALO of a row's ends
 * are updated by a costlier helper than the interior ones, and whose
 * first and last rows are held: the tests of the row and of the column
 * inside the loops, the way such code is usually written.
 *
 * Usage: edge_rows [N [STEPS]]   (N >= 2 HALO + 2; defaults GRID_N and
 *        GRID_STEPS); the threads are OpenMP's (OMP_NUM_THREADS).
 * Output: "sum <value>", the same for every thread count.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define HALO 4
#define GRID_N 256
#define GRID_STEPS 4
#define AT(a, i, j, n) ((a)[(i) * (n) + (j)])

/* a cell near a row's end: the mean of four cells along the row, the
 * row taken as a ring */
static double edge_cell(const double *row, long j, long n)
{
    double s = 0.0;
    for (long k = 0; k < 4; k++)
        s += row[(j + n - 2 + k) % n];
    return 0.25 * s;
}

static double inner_cell(const double *row, long j)
{
    return 0.25 * row[j - 1] + 0.5 * row[j] + 0.25 * row[j + 1];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : GRID_N;
    long steps = argc > 2 ? atol(argv[2]) : GRID_STEPS;
    if (n < 2 * HALO + 2 || steps < 0) {
        fprintf(stderr, "usage: edge_rows [N [STEPS]]   (N >= %d)\n", 2 * HALO + 2);
        return 2;
    }
    double *u = malloc(sizeof *u * (size_t)(n * n));
    double *v = malloc(sizeof *v * (size_t)(n * n));
    if (!u || !v) {
        fprintf(stderr, "edge_rows: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n * n; i++)
        u[i] = v[i] = (double)(i % 23) / 23.0;
#pragma omp parallel
    for (long t = 0; t < steps; t++) {
        const double *a = t % 2 ? v : u;
        double *b = t % 2 ? u : v;
#pragma omp for
        for (long i = 0; i < n; i++) {
            const double *row = a + i * n;
            if (i == 0 || i == n - 1) {
                /* the first and the last row are held */
                for (long j = 0; j < n; j++)
                    AT(b, i, j, n) = row[j];
                continue;
            }
            for (long j = 0; j < n; j++) {
                if (j >= HALO && j < n - HALO)
                    AT(b, i, j, n) = inner_cell(row, j);
                else
                    AT(b, i, j, n) = edge_cell(row, j, n);
            }
        }
    }
    const double *last = steps % 2 ? v : u;
    double sum = 0.0;
    for (long i = 0; i < n * n; i++)
        sum += last[i];
    printf("sum %.9f\n", sum);
    free(u);
    free(v);
    return 0;
}
