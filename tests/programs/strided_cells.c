/* strided_cells.c - a 1-D field of cells of three materials interleaved
 * (a cell's material is its index modulo 3, as a three-colour ordering
 * lays them out), relaxed for a few steps by an OpenMP loop; the work of a
 * cell depends on its material: a helper whose series runs one, two or
 * three terms.  The per-cell call's count moves with the loop's variable
 * modulo 3, so no two neighbouring cells make the same work.
 *
 *   strided_cells [NCELLS [STEPS]]
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define NCELLS 100000
#define STEPS 3
#define MATERIALS 3

/* the material's response: a series of `terms` terms */
static double response(long terms, double x)
{
    double s = 0.0;
    for (long t = 0; t < terms; t++)
        s += x / (double)(t + 2);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : NCELLS;
    int steps = argc > 2 ? atoi(argv[2]) : STEPS;
    if (n < 3 || steps < 1) {
        fprintf(stderr, "usage: strided_cells [NCELLS >= 3 [STEPS >= 1]]\n");
        return 2;
    }
    double *u = malloc((size_t)n * sizeof *u), *v = malloc((size_t)n * sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "strided_cells: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n; i++)
        u[i] = v[i] = (double)(i % 17) / 17.0;
    for (int s = 0; s < steps; s++) {
#pragma omp parallel for schedule(static)
        for (long i = 1; i < n - 1; i++) {
            long material = i % MATERIALS;
            v[i] = 0.5 * u[i] + response(material + 1, u[i - 1] + u[i + 1]);
        }
        double *t = u;
        u = v;
        v = t;
    }
    double sum = 0.0;
    for (long i = 0; i < n; i++)
        sum += u[i];
    printf("checksum %.10g\n", sum);
    free(u);
    free(v);
    return 0;
}
