/* pth_condbarrier.c - a barrier made by hand, and trylock loops.
 *
 * Stresses pthread_cond_wait/pthread_cond_broadcast and
 * pthread_mutex_trylock as real codes use them: an odd-even block
 * transposition sort in which the threads meet, phase after phase, at a
 * barrier built from a mutex, a condition variable and a generation
 * counter (the last to arrive bumps the generation and broadcasts; the
 * others wait while the generation is the one they arrived in, so
 * spurious wake-ups are harmless); and a shared work counter each thread
 * claims chunks from by spinning on pthread_mutex_trylock (yielding while
 * it is busy) before a final merge count.  A barrier that let a thread
 * through early leaves the array unsorted; a trylock that did not exclude,
 * a chunk claimed twice.
 *
 *   pth_condbarrier P N
 *
 * perfpred-diff: kind=pthread args="{P} 4000" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <pthread.h>

struct hand_barrier {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int parties, waiting;
    unsigned long generation;
};

static void hb_init(struct hand_barrier *b, int parties)
{
    pthread_mutex_init(&b->m, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->parties = parties;
    b->waiting = 0;
    b->generation = 0;
}

static void hb_wait(struct hand_barrier *b)
{
    pthread_mutex_lock(&b->m);
    unsigned long gen = b->generation;
    if (++b->waiting == b->parties) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->generation)   /* count depends on timing */
            pthread_cond_wait(&b->cv, &b->m);
    }
    pthread_mutex_unlock(&b->m);
}

struct task {
    int id;
    long lo, hi;         /* this thread's block of the array */
};

static int nthreads;
static long n;
static long *a;
static struct task *tasks;
static struct hand_barrier hb;
static pthread_mutex_t claim_lock = PTHREAD_MUTEX_INITIALIZER;
static long next_chunk, *chunk_owner, busy_tries;

static int cmp_long(const void *x, const void *y)
{
    long u = *(const long *)x, v = *(const long *)y;
    return (u > v) - (u < v);
}

/* merge blocks [lo1,hi1) and [hi1,hi2): the lower half goes left */
static void merge_pair(long lo1, long hi1, long hi2)
{
    long len = hi2 - lo1, *tmp = malloc(len * sizeof *tmp);
    long i = lo1, j = hi1, k = 0;
    while (i < hi1 && j < hi2)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < hi1)
        tmp[k++] = a[i++];
    while (j < hi2)
        tmp[k++] = a[j++];
    memcpy(a + lo1, tmp, len * sizeof *tmp);
    free(tmp);
}

static void *worker(void *arg)
{
    struct task *t = arg;
    qsort(a + t->lo, t->hi - t->lo, sizeof *a, cmp_long);
    hb_wait(&hb);
    for (int phase = 0; phase < nthreads; phase++) {
        /* pairs (0,1),(2,3).. in even phases, (1,2),(3,4).. in odd ones */
        if ((t->id - phase) % 2 == 0 && t->id + 1 < nthreads)
            merge_pair(t->lo, t->hi, tasks[t->id + 1].hi);
        hb_wait(&hb);
    }
    /* claim chunks of 100 elements by trylock; mark who checked each */
    long checked = 0;
    for (;;) {   /* count depends on timing */
        long c;
        while (pthread_mutex_trylock(&claim_lock) != 0) {   /* count depends on timing */
            __atomic_fetch_add(&busy_tries, 1, __ATOMIC_RELAXED);
            sched_yield();
        }
        c = next_chunk++;
        pthread_mutex_unlock(&claim_lock);
        if (c * 100 >= n)   /* count depends on timing */
            break;
        if (__atomic_exchange_n(&chunk_owner[c], (long)t->id + 1, __ATOMIC_ACQ_REL) != 0)
            checked -= 1000000;      /* claimed twice */
        for (long i = c * 100; i < (c + 1) * 100 && i < n; i++)
            checked += i > 0 && a[i - 1] > a[i];
    }
    return (void *)checked;
}

int main(int argc, char **argv)
{
    nthreads = argc > 1 ? atoi(argv[1]) : 4;
    n = argc > 2 ? atol(argv[2]) : 4000;
    if (nthreads < 1 || nthreads > 256 || n < nthreads) {
        fprintf(stderr, "usage: pth_condbarrier P N\n");
        return 2;
    }
    a = malloc(n * sizeof *a);
    tasks = malloc(nthreads * sizeof *tasks);
    chunk_owner = calloc((n + 99) / 100, sizeof *chunk_owner);
    pthread_t *th = malloc(nthreads * sizeof *th);
    unsigned long s = 2463534242UL;
    for (long i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        a[i] = (long)(s % 100000);
    }
    hb_init(&hb, nthreads);
    for (int t = 0; t < nthreads; t++) {
        tasks[t].id = t;
        tasks[t].lo = t * n / nthreads;
        tasks[t].hi = (t + 1) * n / nthreads;
        pthread_create(&th[t], NULL, worker, &tasks[t]);
    }
    long inversions = 0;
    for (int t = 0; t < nthreads; t++) {
        void *r;
        pthread_join(th[t], &r);
        inversions += (long)r;
    }
    long unclaimed = 0;
    for (long c = 0; c * 100 < n; c++)
        unclaimed += chunk_owner[c] == 0;
    unsigned long h = 0;
    for (long i = 0; i < n; i++)
        h = h * 31 + (unsigned long)a[i];
    printf("sorted %ld inversions %ld unclaimed %ld min %ld max %ld hash %lu generations %s\n",
           n, inversions, unclaimed, a[0], a[n - 1], h,
           hb.generation == (unsigned long)nthreads + 1 ? "ok" : "wrong");
    free(a);
    free(tasks);
    free(chunk_owner);
    free(th);
    return inversions != 0 || unclaimed != 0;
}
