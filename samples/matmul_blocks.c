/* matmul_blocks.c - C = A x B for N x N doubles, a cluster of P pthreads
 * with a (BLOCK, BLOCK) distribution: the threads form a PR x PC grid and
 * thread (bi, bj) computes the block of C with rows [bi*N/PR, (bi+1)*N/PR)
 * and columns [bj*N/PC, (bj+1)*N/PC) (Mohr et al. 1995, MatMul; Clement &
 * Quinn 1997).  See matmul_rows.c for the (BLOCK, WHOLE) form.
 *
 * Usage: matmul_blocks N P    (N >= 1 matrix size, 1 <= P <= 256 threads)
 *
 * The grid: PR is the largest divisor of P with PR*PR <= P and PC = P/PR,
 * so PR = PC = sqrt(P) when P is a perfect square, and PR x PC is the most
 * nearly square factorisation otherwise (1 x P for a prime P).  Thread t is
 * (bi, bj) = (t / PC, t - bi*PC).  PR and PC are globals set once in main.
 *
 * A(i,j) = ((i*7 + j*3) % 11 - 3) / 8, B(i,j) = ((i*5 + j*9) % 13 - 4) / 8,
 * all stored row major, as in matmul_rows.c.  Every product and sum is exact
 * in double precision, so the checksum is the same as matmul_rows.c's and
 * does not depend on P.
 *
 * Each thread first copies its block column of B, transposed, into a local
 * buffer (8 N^2/PC bytes, contiguous), then computes each C(i,j) of its
 * block as a dot product of row i of A and row j of the copy, accumulated
 * in a register.  Compared with matmul_rows.c it reads N^2/PR elements of A
 * and N^2/PC of B instead of N^2/P and N^2, and its inner loop does two
 * loads and no store instead of two loads and a store.
 *
 * Structure:
 *   main:     initialise A and B (serial); grid PR x PC; create P threads;
 *             join P threads; checksum.
 *   thread t: for j in [bj*N/PC, (bj+1)*N/PC): k = 0..N-1: copy B(k,j);
 *             for i in [bi*N/PR, (bi+1)*N/PR):
 *               for j in [bj*N/PC, (bj+1)*N/PC): k = 0..N-1: dot product.
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
static int PR;      /* rows of the thread grid (set once in main) */
static int PC;      /* columns of the thread grid (set once in main) */
static double *a;   /* N x N, row major */
static double *b;   /* N x N, row major */
static double *c;   /* N x N, row major */

static void usage(void)
{
    fprintf(stderr, "usage: matmul_blocks N P\n"
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
    long bi = tid / PC;
    long bj = tid - bi * PC;
    long ilo = bi * N / PR;
    long ihi = (bi + 1) * N / PR;
    long jlo = bj * N / PC;
    long jhi = (bj + 1) * N / PC;

    /* local, transposed copy of the block column of B: bt[(j-jlo)*N + k] */
    double *bt = malloc(((size_t)(jhi - jlo) * (size_t)N + 1) * sizeof *bt);
    if (!bt) {
        fprintf(stderr, "matmul_blocks: out of memory\n");
        exit(1);
    }
    for (long j = jlo; j < jhi; j++) {
        double *btj = bt + (j - jlo) * N;
        for (long k = 0; k < N; k++)
            btj[k] = b[k * N + j];
    }

    for (long i = ilo; i < ihi; i++) {
        const double *ai = a + i * N;
        for (long j = jlo; j < jhi; j++) {
            const double *btj = bt + (j - jlo) * N;
            double s = 0.0;
            for (long k = 0; k < N; k++)
                s += ai[k] * btj[k];
            c[i * N + j] = s;
        }
    }
    free(bt);
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
        fprintf(stderr, "matmul_blocks: out of memory\n");
        return 1;
    }

    for (long i = 0; i < N; i++) {
        for (long j = 0; j < N; j++) {
            a[i * N + j] = (double)((i * 7 + j * 3) % 11 - 3) / 8.0;
            b[i * N + j] = (double)((i * 5 + j * 9) % 13 - 4) / 8.0;
        }
    }

    /* thread grid: PR = the largest divisor of P with PR*PR <= P */
    PR = 1;
    for (int d = 2; d * d <= P; d++)
        if (P % d == 0)
            PR = d;
    PC = P / PR;

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "matmul_blocks: pthread_create failed\n");
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
