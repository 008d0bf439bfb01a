/* syrk_omp.c - repeated symmetric rank-k updates C += A A^T (lower
 * triangle), OpenMP, as in the trailing update of a blocked Cholesky.
 *
 * Usage: syrk_omp N K PANELS [NTHREADS]
 *
 * C is N x N (row major, only i >= j touched), each panel A is N x K.
 * With a small K the update streams C: at N = 2560 the triangle is 26 MB,
 * out of the L2 and at the edge of the L3, where at N = 160 it is 100 KB.
 * Rows are dealt in small dynamic chunks (the triangle is unbalanced).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void fill_panel(double *a, int n, int k, int panel)
{
    unsigned x = 12345u + 7919u * (unsigned)panel;
    for (int i = 0; i < n * k; i++) {
        x = x * 1103515245u + 12345u;
        a[i] = ((x >> 8) & 0xffff) / 65536.0 - 0.5;
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s N K PANELS [NTHREADS]\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), k = atoi(argv[2]), panels = atoi(argv[3]);
    if (argc > 4)
        omp_set_num_threads(atoi(argv[4]));
    if (n < 1 || k < 1 || panels < 1) {
        fprintf(stderr, "syrk_omp: bad arguments\n");
        return 2;
    }
    double *c = calloc((size_t)n * n, sizeof *c);
    double *a = malloc(sizeof *a * (size_t)n * k);
    if (!c || !a) {
        fprintf(stderr, "syrk_omp: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        c[(size_t)i * n + i] = n;

    for (int p = 0; p < panels; p++) {
        fill_panel(a, n, k, p);
#pragma omp parallel for schedule(dynamic, 16)
        for (int i = 0; i < n; i++) {
            const double *ai = a + (size_t)i * k;
            double *ci = c + (size_t)i * n;
            for (int j = 0; j <= i; j++) {
                const double *aj = a + (size_t)j * k;
                double s = 0.0;
                for (int l = 0; l < k; l++)
                    s += ai[l] * aj[l];
                ci[j] -= s;
            }
        }
    }

    double trace = 0.0, low = 0.0;
    for (int i = 0; i < n; i++) {
        trace += c[(size_t)i * n + i];
        for (int j = 0; j < i; j++)
            low += c[(size_t)i * n + j];
    }
    printf("checksum %.9e %.9e\n", trace, low);
    free(a);
    free(c);
    return 0;
}
