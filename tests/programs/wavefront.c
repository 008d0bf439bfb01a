/* wavefront.c - a Gauss-Seidel style sweep of an n x n grid along its
 * anti-diagonals: the cells of one diagonal are independent, so each
 * diagonal is a parallel loop, and the sweep is 2n - 1 of them, short at
 * the corners and long in the middle.  The number of fork-joins grows
 * with the size, as in a wavefront solver or a dynamic-programming
 * table filled diagonal by diagonal.
 *
 * Usage: wavefront [n [sweeps]]   (defaults N_DEFAULT and 2)
 *
 * Prints "checksum <sum of the grid>".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N_DEFAULT
#define N_DEFAULT 300
#endif

static double cell(const double *g, int n, int i, int j)
{
    double up = i > 0 ? g[(i - 1) * n + j] : 1.0;
    double left = j > 0 ? g[i * n + j - 1] : 1.0;
    return 0.5 * (up + left) + 1e-3 * g[i * n + j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : N_DEFAULT;
    int sweeps = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 2 || sweeps < 1) {
        fprintf(stderr, "usage: wavefront [n >= 2 [sweeps >= 1]]\n");
        return 2;
    }
    double *g = calloc((size_t)n * (size_t)n, sizeof *g);
    if (!g) {
        fprintf(stderr, "wavefront: out of memory\n");
        return 1;
    }
    for (int s = 0; s < sweeps; s++)
        for (int d = 0; d < 2 * n - 1; d++) {
            /* the cells (i, d - i) inside the grid */
            int lo = d < n ? 0 : d - n + 1;
            int hi = d < n ? d : n - 1;
#pragma omp parallel for schedule(static)
            for (int i = lo; i <= hi; i++)
                g[i * n + (d - i)] = cell(g, n, i, d - i);
        }
    double sum = 0;
    for (long k = 0; k < (long)n * n; k++)
        sum += g[k];
    printf("checksum %.6f\n", sum);
    free(g);
    return 0;
}
