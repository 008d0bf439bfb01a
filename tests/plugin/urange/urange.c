/* urange.c - range tests in a loop, which GCC folds into one unsigned
 * comparison: j >= WIN_LO && j <= WIN_HI becomes (unsigned) (j - WIN_LO)
 * <= WIN_HI - WIN_LO, and j < CUT_LO || j > CUT_HI becomes (unsigned)
 * (j - CUT_LO) > CUT_HI - CUT_LO.  Each guards a call of a helper whose
 * loop makes the calls countable: mark 5 iterations a call, skip 3.
 *
 * Usage: urange [N]   (default 1000, N > CUT_HI)
 * Output: "<sum>", the same with and without the plugin.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define WIN_LO 35
#define WIN_HI 41
#define CUT_LO 10
#define CUT_HI 20

__attribute__((noinline)) static double mark(long j)
{
    double s = 0.0;
    for (long k = 0; k < 5; k++)
        s += (double)(j + k);
    return s;
}

__attribute__((noinline)) static double skip(long j)
{
    double s = 0.0;
    for (long k = 0; k < 3; k++)
        s += (double)(j * k);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double s = 0.0;
    for (long j = 0; j < n; j++)
        if (j >= WIN_LO && j <= WIN_HI)
            s += mark(j);
    for (long j = 0; j < n; j++)
        if (j < CUT_LO || j > CUT_HI)
            s += skip(j);
    printf("%.1f\n", s);
    return 0;
}
