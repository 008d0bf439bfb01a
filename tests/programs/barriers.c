/* barriers.c - test program: one OpenMP parallel region in which every
 * thread does the same work and then meets the others at an explicit
 * barrier, B times.
 *
 * Usage: barriers W B [P]
 *   W  units of work per thread between two barriers, W >= 1
 *   B  barriers, B >= 1
 *   P  threads, 1 <= P <= 256, passed to omp_set_num_threads
 *
 * Structure: parallel {
 *              for b = 0..B-1: for i = 0..W-1: work;  #pragma omp barrier
 *            }
 * Every thread does the same work, so nobody waits at a barrier on the
 * PRAM: the barriers' cost on the real machine is B x barrier(P) per
 * thread, at the barrier's site.
 *
 * Prints one line "checksum <sum>" which does not depend on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256

static void usage(void)
{
    fprintf(stderr, "usage: barriers W B [P]\n"
                    "  W  work units per thread between barriers, W >= 1\n"
                    "  B  barriers, B >= 1\n"
                    "  P  threads, 1 <= P <= %d\n", MAXP);
    exit(2);
}

static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 9 && s[n] == '\0';
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4)
        usage();
    for (int k = 1; k < argc; k++)
        if (!is_count(argv[k]))
            usage();
    long W = atol(argv[1]);
    long B = atol(argv[2]);
    if (W < 1 || B < 1)
        usage();
    if (argc == 4) {
        int P = atoi(argv[3]);
        if (P < 1 || P > MAXP)
            usage();
        omp_set_num_threads(P);
    }
    double total = 0.0;
#pragma omp parallel reduction(+ : total)
    {
        double s = 0.0;
        for (long b = 0; b < B; b++) {
            for (long i = 0; i < W; i++)
                s += 1.0 / (double)(i + b + 1);
#pragma omp barrier
        }
        total += s / omp_get_num_threads();
    }
    printf("checksum %.6f\n", total);
    return 0;
}
