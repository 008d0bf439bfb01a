/* omp_locks.c - a hash table guarded by OpenMP locks.
 *
 * Stresses the omp_lock_t and omp_nest_lock_t routines: a table of
 * buckets, each with its own omp_lock_t, that every thread inserts keys
 * into; each thread first gathers its keys in a thread-private buffer and
 * flushes it in batches (the lock taken once per key of the batch, or
 * tried first with omp_test_lock and, when busy, the key kept for the next
 * flush); a statistics block under an omp_nest_lock_t taken twice by the
 * same thread (a function calling another that locks again).  A lock that
 * did not exclude loses an insertion or a count.
 *
 *   omp_locks N               (threads: OMP_NUM_THREADS)
 *
 * The output is sums over the table (the same in any insertion order).
 *
 * perfpred-diff: kind=omp args="30000" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NB 97
#define BATCH 32

struct entry {
    long key, count;
    struct entry *next;
};

static struct entry *bucket[NB];
static omp_lock_t block[NB];
static omp_nest_lock_t stats_lock;
static long stats_flushes, stats_keys;

static void add_keys(long k)
{
    omp_set_nest_lock(&stats_lock);
    stats_keys += k;
    omp_unset_nest_lock(&stats_lock);
}

static void count_flush(long k)
{
    omp_set_nest_lock(&stats_lock);
    stats_flushes++;
    add_keys(k);                /* the same thread locks again */
    omp_unset_nest_lock(&stats_lock);
}

static void insert_locked(long key)
{
    struct entry *e;
    for (e = bucket[key % NB]; e; e = e->next)   /* count depends on timing */
        if (e->key == key) {
            e->count++;
            return;
        }
    e = malloc(sizeof *e);
    e->key = key;
    e->count = 1;
    e->next = bucket[key % NB];
    bucket[key % NB] = e;
}

/* insert buf[0..n); returns how many are left (moved to the front) */
static int flush(long *buf, int n, int try_only)
{
    int left = 0;
    for (int i = 0; i < n; i++) {   /* count depends on timing */
        long b = buf[i] % NB;
        if (try_only) {
            if (!omp_test_lock(&block[b])) {
                buf[left++] = buf[i];
                continue;
            }
        } else {
            omp_set_lock(&block[b]);
        }
        insert_locked(buf[i]);
        omp_unset_lock(&block[b]);
    }
    count_flush(n - left);
    return left;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 30000;
    if (n < 1) {
        fprintf(stderr, "usage: omp_locks N\n");
        return 2;
    }
    for (int b = 0; b < NB; b++)
        omp_init_lock(&block[b]);
    omp_init_nest_lock(&stats_lock);

#pragma omp parallel
    {
        long *buf = malloc(BATCH * sizeof *buf);    /* this thread's buffer */
        int nbuf = 0, tries = 0;
#pragma omp for schedule(dynamic, 100)
        for (long i = 0; i < n; i++) {
            buf[nbuf++] = (i * i + 7 * i) % 5003;
            if (nbuf == BATCH)
                nbuf = flush(buf, nbuf, tries++ % 2);
        }
        while (nbuf)   /* count depends on timing */
            nbuf = flush(buf, nbuf, 0);
        free(buf);
    }

    long distinct = 0, total = 0, weighted = 0, longest = 0;
    for (int b = 0; b < NB; b++) {
        long len = 0;
        for (struct entry *e = bucket[b], *f; e; e = f) {
            f = e->next;
            distinct++;
            total += e->count;
            weighted += e->key * e->count;
            len++;
            free(e);
        }
        if (len > longest)
            longest = len;
        omp_destroy_lock(&block[b]);
    }
    omp_destroy_nest_lock(&stats_lock);
    printf("keys %ld distinct %ld weighted %ld longest %ld stats %ld\n",
           total, distinct, weighted, longest, stats_keys);
    return total != n || stats_keys != n || stats_flushes < 1;
}
