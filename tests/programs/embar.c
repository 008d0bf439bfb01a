/* embar.c - test program: an embarrassingly parallel OpenMP loop.
 *
 * Usage: embar N [P [R]]
 *   N  iterations of the parallel loop, N >= 1
 *   P  threads, 1 <= P <= 256, passed to omp_set_num_threads
 *      (without P, OMP_NUM_THREADS applies)
 *   R  repetitions, R >= 1 (default 10)
 *
 * Structure: for r = 0..R-1 (serial):
 *              parallel for schedule(static) i = 0..N-1   (fork/join)
 *                for k = 0..199: fixed floating point work
 * With N divisible by P every thread gets exactly N/P iterations per
 * repetition; the inner loop always runs 200 times.
 *
 * Prints one line "checksum <sum of y>" which does not depend on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256
#define INNER 200

static void usage(void)
{
    fprintf(stderr, "usage: embar N [P [R]]\n"
                    "  N  iterations, N >= 1\n"
                    "  P  threads, 1 <= P <= %d (default: OMP_NUM_THREADS)\n"
                    "  R  repetitions, R >= 1 (default 10)\n", MAXP);
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
    if (argc < 2 || argc > 4)
        usage();
    for (int k = 1; k < argc; k++)
        if (!is_count(argv[k]))
            usage();
    int N = atoi(argv[1]);
    int R = 10;
    if (argc >= 4)
        R = atoi(argv[3]);
    if (N < 1 || R < 1)
        usage();
    if (argc >= 3) {
        int P = atoi(argv[2]);
        if (P < 1 || P > MAXP)
            usage();
        omp_set_num_threads(P);
    }

    double *y = malloc((size_t)N * sizeof *y);
    if (!y) {
        fprintf(stderr, "embar: out of memory\n");
        return 1;
    }
    for (long i = 0; i < N; i++)
        y[i] = 0.0;

    for (long r = 0; r < R; r++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < N; i++) {
            double x = 0.01 * (double)(i % 97) + 0.001 * (double)r;
            for (int k = 0; k < INNER; k++)
                x = x * 0.999 + 0.001;
            y[i] += x;
        }
    }

    double sum = 0.0;
    for (long i = 0; i < N; i++)
        sum += y[i];
    printf("checksum %.10g\n", sum);
    free(y);
    return 0;
}
