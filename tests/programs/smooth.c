/* smooth.c - test program: repeated three-point smoothing of a vector
 * (OpenMP), then its sum.
 *
 * Usage: smooth N STEPS     (N >= 3, STEPS >= 1)
 *
 * Structure: for each of STEPS steps, a parallel loop over the interior
 * points 1..N-2; then a serial loop summing the N points.
 * tests/e2e/74-record-identity.t edits the sum loop's bound.
 *
 * Prints one line "sum <value>".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static void usage(void)
{
    fprintf(stderr, "usage: smooth N STEPS\n  N      points, N >= 3\n  STEPS  time steps, >= 1\n");
    exit(2);
}

static long count_arg(const char *s, long min)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > 100000000)
        usage();
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        usage();
    int n = (int)count_arg(argv[1], 3);
    int steps = (int)count_arg(argv[2], 1);
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    if (!a || !b) {
        fprintf(stderr, "smooth: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        a[i] = b[i] = (double)(i % 17);

    for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < n - 1; i++)
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
        double *tmp = a;
        a = b;
        b = tmp;
    }

    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[i];
    printf("sum %.10g\n", sum);
    free(a);
    free(b);
    return 0;
}
