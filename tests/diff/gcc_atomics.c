/* gcc_atomics.c - GCC's __sync_* and __atomic_* builtins in OpenMP threads.
 *
 * Stresses read-modify-writes made by hand rather than by OpenMP:
 * __sync_fetch_and_add and __atomic_fetch_add counters, a running maximum
 * and a product modulo a prime kept by compare-and-swap retry loops
 * (__sync_val_compare_and_swap, __sync_bool_compare_and_swap and
 * __atomic_compare_exchange_n), __atomic_fetch_or/and on bit masks, a
 * test-and-set spin lock made of __atomic_exchange_n and __atomic_store_n
 * guarding a plain counter, __atomic_load_n polling of a flag that the
 * last thread to arrive sets (counted by __atomic_add_fetch), and
 * __sync_lock_test_and_set/__sync_lock_release.  A lost update changes a
 * count, a torn CAS loop the product.
 *
 *   gcc_atomics N             (threads: OMP_NUM_THREADS)
 *
 * perfpred-diff: kind=omp args="50000" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <omp.h>

#define PRIME 1000003L

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 50000;
    if (n < 1) {
        fprintf(stderr, "usage: gcc_atomics N\n");
        return 2;
    }
    long c1 = 0, c2 = 0, maxv = 0, prod = 1, locked_count = 0, tas_count = 0;
    unsigned long mask_or = 0, mask_and = ~0UL;
    int spin = 0, tas = 0, arrived = 0, go = 0, all_saw_go = 0;
    long cas_retries = 0;

#pragma omp parallel
    {
        int nt = omp_get_num_threads();
#pragma omp for schedule(guided, 8) nowait
        for (long i = 0; i < n; i++) {
            long v = (i * 7919 + 13) % 100003;
            __sync_fetch_and_add(&c1, v % 10);
            __atomic_fetch_add(&c2, 1, __ATOMIC_RELAXED);
            /* running maximum: CAS loop */
            long old = __atomic_load_n(&maxv, __ATOMIC_RELAXED);
            while (v > old) {   /* count depends on timing */
                long seen = __sync_val_compare_and_swap(&maxv, old, v);
                if (seen == old)
                    break;
                old = seen;
                __atomic_fetch_add(&cas_retries, 1, __ATOMIC_RELAXED);
            }
            /* product mod PRIME: the same in any order */
            if (i % 50 == 0) {
                long p = __atomic_load_n(&prod, __ATOMIC_RELAXED);
                while (!__atomic_compare_exchange_n(&prod, &p, p * (v % 97 + 1) % PRIME, 0,   /* count depends on timing */
                                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
                    ;
            }
            if (i % 64 == 0) {
                long q;
                do
                    q = *(volatile long *)&prod;
                while (!__sync_bool_compare_and_swap(&prod, q, q * 3 % PRIME));   /* count depends on timing */
            }
            __atomic_fetch_or(&mask_or, 1UL << (i % 61), __ATOMIC_RELAXED);
            if (i % 61 != 5)
                __atomic_fetch_and(&mask_and, ~(1UL << (v % 64 == 63 ? 62 : v % 64)), __ATOMIC_RELAXED);
            if (i % 8 == 0) {       /* spin lock from exchange */
                while (__atomic_exchange_n(&spin, 1, __ATOMIC_ACQUIRE))   /* count depends on timing */
                    while (__atomic_load_n(&spin, __ATOMIC_RELAXED))   /* count depends on timing */
                        sched_yield();
                locked_count += v % 3;
                __atomic_store_n(&spin, 0, __ATOMIC_RELEASE);
            }
            if (i % 11 == 0) {      /* the __sync lock pair */
                while (__sync_lock_test_and_set(&tas, 1))   /* count depends on timing */
                    sched_yield();
                tas_count++;
                __sync_lock_release(&tas);
            }
        }
        /* a flag barrier: the last to arrive sets go; everyone polls it */
        if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == nt)
            __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))   /* count depends on timing */
            sched_yield();
        if (__atomic_load_n(&c2, __ATOMIC_RELAXED) == n)
            __atomic_fetch_add(&all_saw_go, 1, __ATOMIC_RELAXED);
        else
            __atomic_fetch_sub(&all_saw_go, 1000, __ATOMIC_RELAXED);
    }
    int nthreads = omp_get_max_threads();
    printf("c1 %ld c2 %ld max %ld prod %ld or %lx and %lx locked %ld tas %ld flag %s\n",
           c1, c2, maxv, prod, mask_or, mask_and, locked_count, tas_count,
           all_saw_go == nthreads ? "ok" : "wrong");
    (void)cas_retries;
    return c2 != n || all_saw_go != nthreads;
}
