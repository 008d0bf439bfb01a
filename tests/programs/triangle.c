/* triangle.c - test program: a triangular loop nest (serial).
 *
 * Usage: triangle N     (N >= 0)
 *
 * Structure: for i = 0..N-1: for j = 0..i-1: work
 * The inner body runs N(N-1)/2 times in all; the inner loop is entered
 * N times, with trip count i.
 *
 * Prints one line "checksum <value>".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static void usage(void)
{
    fprintf(stderr, "usage: triangle N\n  N  size, N >= 0\n");
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

int main(int argc, char **argv)
{
    if (argc != 2 || !is_count(argv[1]))
        usage();
    int N = atoi(argv[1]);

    double sum = 0.0;
    for (long i = 0; i < N; i++) {
        for (long j = 0; j < i; j++) {
            double x = (double)((i * 31 + j * 17) % 64);
            sum += x * 0.5 + 0.25;
        }
    }
    printf("checksum %.10g\n", sum);
    return 0;
}
