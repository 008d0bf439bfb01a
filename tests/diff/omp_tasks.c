/* omp_tasks.c - recursive and grouped OpenMP tasks.
 *
 * Stresses the tasking entry points: a recursive Fibonacci whose two calls
 * are tasks joined by `omp taskwait` (a cut-off makes the small ones plain
 * calls), a merge sort whose halves are tasks, a `omp taskgroup` whose
 * tasks spawn further tasks (the group waits for the grandchildren too)
 * with the results added by `omp atomic`, tasks with `depend` clauses
 * forming a chain, and a `omp taskloop` with a grainsize.  All of them
 * start from one `omp single` in a parallel region (the usual way).  A
 * taskwait that did not wait, or a task run twice or never, changes a
 * printed value.
 *
 *   omp_tasks FIB N           (threads: OMP_NUM_THREADS)
 *
 * perfpred-diff: kind=omp args="20 20000" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    if (n < 12)
        return fib(n - 1) + fib(n - 2);
    long x, y;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

static void merge(const long *a, long na, const long *b, long nb, long *out)
{
    long i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

static void msort(long *a, long *tmp, long n)
{
    if (n < 256) {      /* insertion sort below the cut-off */
        for (long i = 1; i < n; i++) {
            long v = a[i], j = i - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
        return;
    }
    long h = n / 2;
#pragma omp task
    msort(a, tmp, h);
#pragma omp task
    msort(a + h, tmp + h, n - h);
#pragma omp taskwait
    merge(a, h, a + h, n - h, tmp);
    memcpy(a, tmp, n * sizeof *a);
}

static void spawn(long depth, long *total)
{
#pragma omp atomic
    *total += depth;
    if (depth > 0)
        for (int c = 0; c < 3; c++) {
#pragma omp task
            spawn(depth - 1, total);
        }
}

int main(int argc, char **argv)
{
    int fn = argc > 1 ? atoi(argv[1]) : 20;
    long n = argc > 2 ? atol(argv[2]) : 20000;
    if (fn < 0 || fn > 40 || n < 1) {
        fprintf(stderr, "usage: omp_tasks FIB N\n");
        return 2;
    }
    long *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
    unsigned long s = 88172645463325252UL;
    for (long i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        a[i] = (long)(s % 1000000);
    }
    long f = 0, grouped = 0, chain = 0, tl = 0, after_group = -1;

#pragma omp parallel
#pragma omp single
    {
        f = fib(fn);
        msort(a, tmp, n);
#pragma omp taskgroup
        {
            for (int t = 0; t < 4; t++) {
#pragma omp task
                spawn(4, &grouped);
            }
        }
        after_group = grouped;      /* the group waited for every descendant */
        for (int k = 1; k <= 20; k++) {
#pragma omp task depend(inout: chain)
            chain = chain * 3 % 1000003 + k;
        }
#pragma omp taskwait
#pragma omp taskloop grainsize(50) reduction(+:tl)
        for (long i = 0; i < n; i++)
            tl += a[i] % 1000;
    }

    long unsorted = 0;
    unsigned long h = 0;
    for (long i = 0; i < n; i++) {
        unsorted += i > 0 && a[i - 1] > a[i];
        h = h * 1000003 + (unsigned long)a[i];
    }
    printf("fib %ld sorted %ld unsorted %ld hash %lu group %ld/%ld chain %ld taskloop %ld\n",
           f, n, unsorted, h, after_group, grouped, chain, tl);
    free(a);
    free(tmp);
    return unsorted != 0 || after_group != grouped;
}
