/* jacobi.c - memory-bound 2-D Jacobi iteration (5-point stencil) on an
 * N x N grid of doubles, OpenMP.  Two grids are swapped after each sweep
 * (after the shallow water and stencil codes of Clement & Quinn 1997).
 *
 * Usage: jacobi N T [P]   (N >= 3 grid size, T >= 1 sweeps; P >= 1 threads,
 *                          passed to omp_set_num_threads; without P,
 *                          OMP_NUM_THREADS)
 *
 * The boundary is fixed: u = 1 on row 0, u = 0 on the other three sides.
 * The interior starts at u(i,j) = ((i*31 + j*17) % 64) / 64.  A sweep sets
 * v(i,j) = (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1)) / 4 for the interior
 * points, then the two grids are swapped.  Both grids are stored row major.
 *
 * Structure (P threads in each team):
 *   parallel for schedule(static) i = 0..N-1: initialise row i of u and v;
 *   for t = 0..T-1:
 *     parallel for schedule(static) i = 1..N-2: row i, j = 1..N-2;
 *     swap u and v (serial);
 *   checksum (serial).
 * Each sweep is a fork, the implicit barrier of the for, and a join.
 *
 * Working set: 2 * 8 * N^2 bytes (N = 128: 256 KiB; N = 2048: 64 MiB).
 *
 * Prints one line "checksum <sum of u>" which does not depend on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256
#define MAXN 16384

static void usage(void)
{
    fprintf(stderr, "usage: jacobi N T [P]\n"
                    "  N  grid size, 3 <= N <= %d\n"
                    "  T  sweeps, T >= 1\n"
                    "  P  threads, 1 <= P <= %d (default: OMP_NUM_THREADS)\n",
            MAXN, MAXP);
    exit(2);
}

/* Non-empty string of at most 9 decimal digits. */
static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 9 && s[n] == '\0';
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || !is_count(argv[1]) || !is_count(argv[2]) ||
        (argc == 4 && !is_count(argv[3])))
        usage();
    int N = atoi(argv[1]);
    int T = atoi(argv[2]);
    if (N < 3 || N > MAXN || T < 1)
        usage();
    if (argc == 4) {
        int P = atoi(argv[3]);
        if (P < 1 || P > MAXP)
            usage();
        omp_set_num_threads(P);
    }

    double *u = malloc((size_t)N * (size_t)N * sizeof *u);
    double *v = malloc((size_t)N * (size_t)N * sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "jacobi: out of memory\n");
        return 1;
    }

    /* parallel initialisation (first touch by the thread that sweeps the row) */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) {
        for (long j = 0; j < N; j++) {
            double x;
            if (i == 0)
                x = 1.0;
            else if (i == N - 1 || j == 0 || j == N - 1)
                x = 0.0;
            else
                x = (double)((i * 31 + j * 17) % 64) / 64.0;
            u[i * N + j] = x;
            v[i * N + j] = x;
        }
    }

    for (long t = 0; t < T; t++) {
#pragma omp parallel for schedule(static)
        for (long i = 1; i < N - 1; i++) {
            const double *up = u + (i - 1) * N;
            const double *uc = u + i * N;
            const double *dn = u + (i + 1) * N;
            double *vc = v + i * N;
            for (long j = 1; j < N - 1; j++)
                vc[j] = 0.25 * (up[j] + dn[j] + uc[j - 1] + uc[j + 1]);
        }
        double *w = u;
        u = v;
        v = w;
    }

    double sum = 0.0;
    for (long i = 0; i < (long)N * N; i++)
        sum += u[i];
    printf("checksum %.10g\n", sum);

    free(v);
    free(u);
    return 0;
}
