/* ge_omp.c - Gaussian elimination, OpenMP version of ge_pthreads.c:
 * serial pivoting in the master thread and one parallel region per step
 * (fork/join) eliminating the remaining columns (Zhang & Xu 1995, Figure 3).
 *
 * Usage: ge_omp N [P]     (N >= 2 system size; P >= 1 threads, passed to
 *                          omp_set_num_threads; without P, OMP_NUM_THREADS)
 *
 * The system A x = b has A(i,j) = 1/(i+j+1) + (i==j ? N : 0) (diagonally
 * dominant) and b(i) = sum_j A(i,j), so that x(i) ~ 1.  A is stored column
 * major with b as column N: A(i,j) = a[j*N + i], 0 <= j <= N.
 *
 * Structure (P threads in each team):
 *   parallel for schedule(static) j = 0..N-1: initialise column j;
 *   b = row sums (serial);
 *   for k = 0..N-2:
 *     pivot (serial): search column k, swap rows, multipliers;
 *     parallel for schedule(static) j = k+1..N: eliminate column j;
 *   back substitution (serial); checksum.
 *
 * Prints one line "checksum <sum of x>" which does not depend on P.
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
    fprintf(stderr, "usage: ge_omp N [P]\n"
                    "  N  system size, 2 <= N <= %d\n"
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
    if (argc < 2 || argc > 3 || !is_count(argv[1]) || (argc == 3 && !is_count(argv[2])))
        usage();
    int N = atoi(argv[1]);
    if (N < 2 || N > MAXN)
        usage();
    if (argc == 3) {
        int P = atoi(argv[2]);
        if (P < 1 || P > MAXP)
            usage();
        omp_set_num_threads(P);
    }

    double *a = malloc((size_t)N * (size_t)(N + 1) * sizeof *a);
    double *x = malloc((size_t)N * sizeof *x);
    if (!a || !x) {
        fprintf(stderr, "ge_omp: out of memory\n");
        return 1;
    }

    /* parallel initialisation, one column per iteration */
#pragma omp parallel for schedule(static)
    for (long j = 0; j < N; j++)
        for (long i = 0; i < N; i++)
            a[j * N + i] = 1.0 / (double)(i + j + 1) + (i == j ? (double)N : 0.0);

    /* right-hand side: row sums, so that x ~ 1 */
    for (long i = 0; i < N; i++) {
        double s = 0.0;
        for (long j = 0; j < N; j++)
            s += a[j * N + i];
        a[(long)N * N + i] = s;
    }

    for (long k = 0; k < N - 1; k++) {
        /* pivot search in column k, rows k..N-1 */
        long p = k;
        double best = a[k * N + k] < 0 ? -a[k * N + k] : a[k * N + k];
        for (long i = k + 1; i < N; i++) {
            double v = a[k * N + i] < 0 ? -a[k * N + i] : a[k * N + i];
            if (v > best) {
                best = v;
                p = i;
            }
        }
        /* row swap over columns k..N */
        if (p != k) {
            for (long j = k; j <= N; j++) {
                double t = a[j * N + k];
                a[j * N + k] = a[j * N + p];
                a[j * N + p] = t;
            }
        }
        /* multipliers, stored in column k below the diagonal */
        double piv = a[k * N + k];
        for (long i = k + 1; i < N; i++)
            a[k * N + i] /= piv;

        /* elimination of columns k+1..N (b included) */
#pragma omp parallel for schedule(static)
        for (long j = k + 1; j <= N; j++) {
            double akj = a[j * N + k];
            for (long i = k + 1; i < N; i++)
                a[j * N + i] -= a[k * N + i] * akj;
        }
    }

    /* back substitution */
    for (long i = N - 1; i >= 0; i--) {
        double s = a[(long)N * N + i];
        for (long j = i + 1; j < N; j++)
            s -= a[j * N + i] * x[j];
        x[i] = s / a[i * N + i];
    }

    double sum = 0.0;
    for (long i = 0; i < N; i++)
        sum += x[i];
    printf("checksum %.10g\n", sum);

    free(x);
    free(a);
    return 0;
}
