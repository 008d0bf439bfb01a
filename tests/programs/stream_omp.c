/* stream_omp.c - test program: R passes of an OpenMP loop that streams
 * an array of N doubles into another (the shared memory bandwidth's
 * hand-computed case, 66-memory.t).
 *
 * Usage: stream_omp N R     (N >= 1 doubles, R >= 1 passes)
 *
 * Prints one line "sum <sum>".
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
    if (N < 1 || R < 1 || N > 100000000 || R > 1000000)
        return 2;
    double *a = malloc(sizeof *a * (size_t)N), *b = malloc(sizeof *b * (size_t)N);
    if (!a || !b)
        return 1;
    /* both arrays touched here, so that the first parallel pass does not
     * take their page faults (66-memory.t weighs the passes' segments) */
    for (long i = 0; i < N; i++) {
        a[i] = (double)(i % 7);
        b[i] = 0;
    }
    for (long r = 0; r < R; r++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < N; i++)
            b[i] = a[i] * 0.5 + (double)r;
    }
    double s = 0;
    for (long i = 0; i < N; i++)
        s += b[i];
    printf("sum %g\n", s);
    free(a);
    free(b);
    return 0;
}
