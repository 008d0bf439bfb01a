/* omp_critical_atomic.c - shared results built by many threads at once.
 *
 * Stresses mutual exclusion and atomics inside one parallel region:
 * `omp atomic` update (a histogram), capture (a ticket that gives each
 * produced item its own slot), read and write (a published high-water
 * mark), the unnamed `omp critical` (pushing onto a linked list) and two
 * named criticals (the smallest and the largest key, each with its index,
 * kept as pairs so a torn update shows).  A lost update changes a count; a
 * ticket handed out twice leaves a hole or a duplicate in the slots.
 *
 *   omp_critical_atomic N      (threads: OMP_NUM_THREADS)
 *
 * The slots are sorted before printing, and every other value is a count,
 * a sum of integers or a minimum/maximum, so the output does not depend on
 * the thread count or the interleaving.
 *
 * perfpred-diff: kind=omp args="40000" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#define NBINS 64

struct node {
    long key;
    struct node *next;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40000;
    if (n < 1) {
        fprintf(stderr, "usage: omp_critical_atomic N\n");
        return 2;
    }
    long hist[NBINS] = { 0 };
    long *slots = malloc(n * sizeof *slots);
    long next_slot = 0, high = -1;
    struct node *list = NULL;
    long min_key = -1, min_at = -1, max_key = -1, max_at = -1;
    long sum = 0;

    for (long i = 0; i < n; i++)
        slots[i] = -1;

#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 64)
        for (long i = 0; i < n; i++) {
            long key = (long)(mix((uint64_t)i) % 1000000007ULL);
#pragma omp atomic update
            hist[key % NBINS]++;
#pragma omp atomic
            sum += key % 1000;
            if (key % 3 == 0) {     /* an item: take a ticket for its slot */
                long at;
#pragma omp atomic capture
                at = next_slot++;
                slots[at] = key;
                long seen;
#pragma omp atomic read
                seen = high;
                if (at > seen) {
#pragma omp critical (high_mark)
                    if (at > high) {
#pragma omp atomic write
                        high = at;
                    }
                }
            }
            if (key % 97 == 0) {
                struct node *nd = malloc(sizeof *nd);
                nd->key = key;
#pragma omp critical
                {
                    nd->next = list;
                    list = nd;
                }
            }
            long lo, hi;
#pragma omp atomic read
            lo = min_key;
#pragma omp atomic read
            hi = max_key;
            if (lo < 0 || key <= lo) {
#pragma omp critical (minimum)
                if (min_key < 0 || key < min_key || (key == min_key && i < min_at)) {
                    min_key = key;
                    min_at = i;
                }
            }
            if (key >= hi) {
#pragma omp critical (maximum)
                if (key > max_key || (key == max_key && i < max_at)) {
                    max_key = key;
                    max_at = i;
                }
            }
        }
    }

    long total = 0;
    unsigned long hsum = 0;
    for (int b = 0; b < NBINS; b++) {
        total += hist[b];
        hsum = hsum * 31 + hist[b];
    }
    qsort(slots, next_slot, sizeof *slots, cmp_long);
    long holes = 0, ssum = 0;
    for (long i = 0; i < next_slot; i++) {
        holes += slots[i] < 0 || (i > 0 && slots[i] == slots[i - 1]);
        ssum = (ssum * 131 + slots[i]) % 1000000007L;
    }
    long nlist = 0, lsum = 0;
    for (struct node *p = list, *q; p; p = q) {
        q = p->next;
        nlist++;
        lsum += p->key % 10007;
        free(p);
    }
    printf("items %ld hist %ld/%lu sum %ld slots %ld high %ld holes %ld slotsum %ld "
           "list %ld/%ld min %ld@%ld max %ld@%ld\n",
           n, total, hsum, sum, next_slot, high, holes, ssum, nlist, lsum,
           min_key, min_at, max_key, max_at);
    free(slots);
    return total != n || holes != 0 || high != next_slot - 1;
}
