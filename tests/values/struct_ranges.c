/* struct_ranges.c - a lower-triangular update whose rows are dealt to the
 * threads in blocks, each thread's block handed to it through a struct
 * (the way pthreads code is usually written): thread k of P takes rows
 * [n*k/P, n*(k+1)/P) and row i costs i + 1 inner iterations, so the last
 * thread has the most work and E_a = 1/(2 - 1/P) for large n.
 *
 * usage: struct_ranges N NTHREADS
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct block {
    long first, last;       /* rows [first, last) */
    double *dst;
    double partial;
};

static void *lower_rows(void *p)
{
    struct block *b = p;
    double s = 0;
    for (long i = b->first; i < b->last; i++) {
        double acc = 0;
        for (long j = 0; j <= i; j++)
            acc += 1.0 / (double)(1 + i + j);
        b->dst[i] = acc;
        s += acc;
    }
    b->partial = s;
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 600;
    int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 1 || nthreads < 1) {
        fprintf(stderr, "usage: struct_ranges N NTHREADS\n");
        return 2;
    }
    double *dst = malloc(sizeof *dst * n);
    pthread_t *tid = malloc(sizeof *tid * nthreads);
    struct block *blocks = calloc(nthreads, sizeof *blocks);
    if (!dst || !tid || !blocks)
        return 1;
    for (int k = 0; k < nthreads; k++) {
        struct block *b = &blocks[k];
        b->first = n * k / nthreads;
        b->last = n * (k + 1) / nthreads;
        b->dst = dst;
        if (pthread_create(&tid[k], NULL, lower_rows, b) != 0)
            return 1;
    }
    double total = 0;
    for (int k = 0; k < nthreads; k++) {
        pthread_join(tid[k], NULL);
        total += blocks[k].partial;
    }
    printf("%.6f\n", total);
    free(blocks); free(tid); free(dst);
    return 0;
}
