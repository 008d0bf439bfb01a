/* stream.c - test program: one loop streaming an array of N doubles, R
 * times (the memory model's hand-computed case, 66-memory.t).
 *
 * Usage: stream N R     (N >= 1 doubles, R >= 1 passes)
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
    double *a = malloc(sizeof *a * (size_t)N);
    if (!a)
        return 1;
    for (long i = 0; i < N; i++)
        a[i] = (double)(i % 7);
    double s = 0;
    for (long r = 0; r < R; r++)
        for (long i = 0; i < N; i++)
            s += a[i] * 0.5;
    printf("sum %g\n", s);
    free(a);
    return 0;
}
