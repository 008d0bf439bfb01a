/* matmul_rows.c - C = A x B for N x N doubles, a cluster of P pthreads with
 * a (BLOCK, WHOLE) distribution: thread t computes the block of rows
 * [t*N/P, (t+1)*N/P) of C and reads all of B (Mohr et al. 1995, MatMul;
 * Clement & Quinn 1997).  See matmul_blocks.c for the (BLOCK, BLOCK) form.
 *
 * Usage: matmul_rows N P      (N >= 1 matrix size, 1 <= P <= 256 threads)
 *
 * A(i,j) = ((i*7 + j*3) % 11 - 3) / 8, B(i,j) = ((i*5 + j*9) % 13 - 4) / 8,
 * all stored row major.  Every product and sum is exact in double
 * precision (multiples of 1/64 below 2^40), so the checksum does not depend
 * on the order of the sums.
 *
 * Each row of C is computed in i-k-j order: C(i,:) += A(i,k) * B(k,:), a
 * streaming update of the row of C with every row of B in turn.  Each
 * thread thus reads the whole of B (8 N^2 bytes) once per row of C; when B
 * does not fit in the cache, that is a memory stream of 8 N^2 bytes per row.
 *
 * Structure:
 *   main:     initialise A and B (serial); create P threads; join P threads;
 *             checksum.
 *   thread t: for i in [t*N/P, (t+1)*N/P):
 *               j = 0..N-1: C(i,j) = 0;
 *               k = 0..N-1: j = 0..N-1: C(i,j) += A(i,k) * B(k,j).
 *             No synchronisation between create and join.
 *
 * Prints one line "checksum <sum of C(i,j) * (1 + (i+j) % 3)>" which does not
 * depend on P.
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

static int N;       /* matrix size (set once in main) */
static int P;       /* number of threads (set once in main) */
static double *a;   /* N x N, row major */
static double *b;   /* N x N, row major */
static double *c;   /* N x N, row major */

static void usage(void)
{
    fprintf(stderr, "usage: matmul_rows N P\n"
                    "  N  matrix size, 1 <= N <= %d\n"
                    "  P  threads, 1 <= P <= %d\n", MAXN, MAXP);
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
    long lo = tid * N / P;
    long hi = (tid + 1) * N / P;

    for (long i = lo; i < hi; i++) {
        double *ci = c + i * N;
        const double *ai = a + i * N;
        for (long j = 0; j < N; j++)
            ci[j] = 0.0;
        for (long k = 0; k < N; k++) {
            double aik = ai[k];
            const double *bk = b + k * N;
            for (long j = 0; j < N; j++)
                ci[j] += aik * bk[j];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !is_count(argv[1]) || !is_count(argv[2]))
        usage();
    N = atoi(argv[1]);
    P = atoi(argv[2]);
    if (N < 1 || N > MAXN || P < 1 || P > MAXP)
        usage();

    a = malloc((size_t)N * (size_t)N * sizeof *a);
    b = malloc((size_t)N * (size_t)N * sizeof *b);
    c = malloc((size_t)N * (size_t)N * sizeof *c);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!a || !b || !c || !th) {
        fprintf(stderr, "matmul_rows: out of memory\n");
        return 1;
    }

    for (long i = 0; i < N; i++) {
        for (long j = 0; j < N; j++) {
            a[i * N + j] = (double)((i * 7 + j * 3) % 11 - 3) / 8.0;
            b[i * N + j] = (double)((i * 5 + j * 9) % 13 - 4) / 8.0;
        }
    }

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "matmul_rows: pthread_create failed\n");
            return 1;
        }
    }
    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);

    double sum = 0.0;
    for (long i = 0; i < N; i++)
        for (long j = 0; j < N; j++)
            sum += c[i * N + j] * (double)(1 + (i + j) % 3);
    printf("checksum %.10g\n", sum);

    free(th);
    free(c);
    free(b);
    free(a);
    return 0;
}
