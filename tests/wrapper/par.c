/* par.c - libpar.so: a sum over n split among threads (pthreads).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>

#include "par.h"

struct part {
    int lo, hi;
    long sum;
};

static void *part_sum(void *arg)
{
    struct part *p = arg;
    long s = 0;
    for (int i = p->lo; i < p->hi; i++)
        s += i % 11;
    p->sum = s;
    return NULL;
}

long par_sum(int n, int nthreads)
{
    pthread_t t[8];
    struct part p[8];
    if (nthreads > 8)
        nthreads = 8;
    for (int k = 0; k < nthreads; k++) {
        p[k].lo = n * k / nthreads;
        p[k].hi = n * (k + 1) / nthreads;
        pthread_create(&t[k], NULL, part_sum, &p[k]);
    }
    long s = 0;
    for (int k = 0; k < nthreads; k++) {
        pthread_join(t[k], NULL);
        s += p[k].sum;
    }
    return s;
}
