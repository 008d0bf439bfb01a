/* indirect.c - test program: R passes of a gather (s += a[idx[i]]) over N
 * elements, then R passes of a chase through a random cycle (s += val[j];
 * j = nxt[j]).  The memory model prices them with the machine's gather and
 * chase curves (tests/e2e/66-memory.t).
 *
 * Usage: indirect N R
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    long N = atol(argv[1]), R = atol(argv[2]);
    if (N < 2 || R < 1)
        return 2;
    double *a = malloc(N * sizeof *a);
    int *idx = malloc(N * sizeof *idx);
    double *val = malloc(N * sizeof *val);
    long *nxt = malloc(N * sizeof *nxt);
    if (!a || !idx || !val || !nxt)
        return 1;
    /* 7919 is prime: i -> (7919 i + 1) mod N is one cycle when N is not a
     * multiple of it, which the test's sizes are not */
    for (long i = 0; i < N; i++) {
        a[i] = (double)(i % 10);
        idx[i] = (int)((i * 7919) % N);
        val[i] = 1.0;
        nxt[i] = (i * 7919 + 1) % N;
    }
    double s = 0;
    for (long r = 0; r < R; r++)
        for (long i = 0; i < N; i++)
            s += a[idx[i]];
    long j = 0;
    for (long r = 0; r < R; r++)
        for (long i = 0; i < N; i++) {
            s += val[j];
            j = nxt[j];
        }
    printf("%.0f %ld\n", s, j);
    free(a);
    free(idx);
    free(val);
    free(nxt);
    return 0;
}
