/* inline.c - small static functions the plain -O2 build inlines
 * (tests/e2e/14-inline.t): the plugin must not keep them out of line, and
 * their counts must stay exact when they are registered by their callers
 * (clampsum, sgn) or by themselves (odd: called through a pointer).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static double clampsum(const double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] > 1.0 ? 1.0 : a[i];
    return s;
}

static int sgn(long x)
{
    if (x > 0)
        return 1;
    if (x < 0)
        return -1;
    return 0;
}

static int odd(long x)
{
    if (x & 1)
        return 1;
    return 0;
}

int (*volatile odd_p)(long) = odd;

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double *a = malloc((size_t)n * sizeof *a);
    long t = 0;
    if (!a)
        return 1;
    for (int i = 0; i < n; i++) {
        a[i] = (i % 7) * 0.3;
        t += sgn(i - n / 3) + odd_p(i);
    }
    double s = 0.0;
    for (int r = 0; r < 10; r++)
        s += clampsum(a, n);
    printf("%.3f %ld\n", s, t);
    free(a);
    return 0;
}
