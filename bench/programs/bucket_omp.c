/* bucket_omp.c - a serial set-up phase, then parallel work, OpenMP.
 *
 * Usage: bucket_omp N [NTHREADS]
 *
 * One thread makes N pseudo-random samples, counts them into buckets,
 * turns the counts into offsets (a prefix sum) and scatters the samples
 * into bucket order; the team then smooths the sorted samples with a
 * window of WIN neighbours and sums the result.  The set-up is a fixed
 * share of the run whatever the thread count (Amdahl's serial part).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NBUCKETS 4096
#define WIN 24

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [NTHREADS]\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]);
    if (argc > 2)
        omp_set_num_threads(atoi(argv[2]));
    if (n < 2 * WIN) {
        fprintf(stderr, "bucket_omp: N must be at least %d\n", 2 * WIN);
        return 2;
    }
    double *x = malloc(sizeof *x * n);
    double *sorted = malloc(sizeof *sorted * n);
    int *bucket = malloc(sizeof *bucket * n);
    long *start = calloc(NBUCKETS + 1, sizeof *start);
    if (!x || !sorted || !bucket || !start) {
        fprintf(stderr, "bucket_omp: out of memory\n");
        return 1;
    }

    /* serial: the samples (a chain of dependent steps, as reading input is) */
    uint64_t s = 88172645463325252ull;
    for (long i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0;
        x[i] = u * u;  /* skewed: more samples in the low buckets */
        bucket[i] = (int)(x[i] * NBUCKETS);
        start[bucket[i] + 1]++;
    }
    for (int b = 0; b < NBUCKETS; b++)
        start[b + 1] += start[b];
    for (long i = 0; i < n; i++)
        sorted[start[bucket[i]]++] = x[i];

    /* parallel: windowed smoothing of the sorted samples */
    double total = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (long i = WIN; i < n - WIN; i++) {
        double acc = 0.0, wsum = 0.0;
        for (int d = -WIN; d <= WIN; d++) {
            double w = 1.0 / (1.0 + d * d);
            acc += w * sorted[i + d];
            wsum += w;
        }
        total += acc / wsum;
    }

    printf("checksum %.9e %.9e\n", total, sorted[n / 2]);
    free(x);
    free(sorted);
    free(bucket);
    free(start);
    return 0;
}
