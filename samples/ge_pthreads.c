/* ge_pthreads.c - Gaussian elimination with a pivoting main thread and a
 * cluster of P eliminating worker threads (Zhang & Xu 1995, Figure 3).
 *
 * Usage: ge_pthreads N P      (N >= 2 system size, 1 <= P <= 256 workers)
 *
 * The system A x = b has A(i,j) = 1/(i+j+1) + (i==j ? N : 0) (diagonally
 * dominant) and b(i) = sum_j A(i,j), so that x(i) ~ 1.  A is stored column
 * major with b as column N: A(i,j) = a[j*N + i], 0 <= j <= N.
 *
 * Structure:
 *   main:     create P workers; barrier (init done); b = row sums;
 *             for k = 0..N-2: pivot (search column k, swap rows, multipliers);
 *                             barrier (pivot done); barrier (elimination done)
 *             join P workers; back substitution; checksum.
 *   worker t: initialise columns [t*N/P, (t+1)*N/P); barrier (init done);
 *             for k = 0..N-2: barrier (pivot done);
 *                             eliminate columns [k+1 + t*(N-k)/P,
 *                                                k+1 + (t+1)*(N-k)/P);
 *                             barrier (elimination done)
 * All barriers have P+1 parties (the workers and main).
 *
 * Prints one line "checksum <sum of x>" which does not depend on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256
#define MAXN 16384

static int N;                 /* system size (set once in main) */
static int P;                 /* number of worker threads (set once in main) */
static double *a;             /* N x (N+1) augmented matrix, column major */
static pthread_barrier_t bar; /* P+1 parties */

static void usage(void)
{
    fprintf(stderr, "usage: ge_pthreads N P\n"
                    "  N  system size, 2 <= N <= %d\n"
                    "  P  worker threads, 1 <= P <= %d\n", MAXN, MAXP);
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

static void *worker(void *arg)
{
    long tid = (long)arg;

    /* parallel initialisation of this worker's block of columns */
    long lo = tid * N / P;
    long hi = (tid + 1) * N / P;
    for (long j = lo; j < hi; j++)
        for (long i = 0; i < N; i++)
            a[j * N + i] = 1.0 / (double)(i + j + 1) + (i == j ? (double)N : 0.0);
    pthread_barrier_wait(&bar); /* init done */

    for (long k = 0; k < N - 1; k++) {
        pthread_barrier_wait(&bar); /* pivot of step k done */
        /* columns k+1..N (N-k of them, b included), block partition */
        long jlo = k + 1 + tid * (N - k) / P;
        long jhi = k + 1 + (tid + 1) * (N - k) / P;
        for (long j = jlo; j < jhi; j++) {
            double akj = a[j * N + k];
            for (long i = k + 1; i < N; i++)
                a[j * N + i] -= a[k * N + i] * akj;
        }
        pthread_barrier_wait(&bar); /* elimination of step k done */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !is_count(argv[1]) || !is_count(argv[2]))
        usage();
    N = atoi(argv[1]);
    P = atoi(argv[2]);
    if (N < 2 || N > MAXN || P < 1 || P > MAXP)
        usage();

    a = malloc((size_t)N * (size_t)(N + 1) * sizeof *a);
    double *x = malloc((size_t)N * sizeof *x);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!a || !x || !th) {
        fprintf(stderr, "ge_pthreads: out of memory\n");
        return 1;
    }
    if (pthread_barrier_init(&bar, NULL, (unsigned)P + 1) != 0) {
        fprintf(stderr, "ge_pthreads: pthread_barrier_init failed\n");
        return 1;
    }

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "ge_pthreads: pthread_create failed\n");
            return 1;
        }
    }
    pthread_barrier_wait(&bar); /* init done */

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
        pthread_barrier_wait(&bar); /* pivot of step k done */
        pthread_barrier_wait(&bar); /* elimination of step k done */
    }

    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);

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

    pthread_barrier_destroy(&bar);
    free(th);
    free(x);
    free(a);
    return 0;
}
