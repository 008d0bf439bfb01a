/* pth_spin_rwlock.c - spinning on atomics, and reader-writer locks.
 *
 * Stresses synchronisation that never blocks in the kernel, and rwlocks:
 * a sense-reversing barrier that spins on an atomic flag (each thread
 * keeps its own sense; the last to arrive resets the count and flips the
 * shared sense), a ticket lock (__atomic_fetch_add on the next ticket, a
 * spin on now-serving) guarding a shared accumulator, and a table guarded
 * by a pthread_rwlock_t: writers (pthread_rwlock_wrlock) move units between
 * entries, keeping the table's sum constant, while readers
 * (pthread_rwlock_rdlock, some by pthread_rwlock_tryrdlock) check that sum;
 * a reader that saw a half-done move counts a violation.  The spins yield
 * (the threads may outnumber the cores).
 *
 *   pth_spin_rwlock P STEPS
 *
 * perfpred-diff: kind=pthread args="{P} 200" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <pthread.h>

#define TABLE 64

struct arg {
    int id;
    long steps;
};

static int nthreads;
static int bar_count, bar_sense;
static unsigned next_ticket, now_serving;
static long acc;
static long table[TABLE];
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static long violations, reads, writes;

static void spin_barrier(int *my_sense)
{
    *my_sense = !*my_sense;
    if (__atomic_add_fetch(&bar_count, 1, __ATOMIC_ACQ_REL) == nthreads) {
        __atomic_store_n(&bar_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&bar_sense, *my_sense, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&bar_sense, __ATOMIC_ACQUIRE) != *my_sense)   /* count depends on timing */
            sched_yield();
    }
}

static void ticket_lock(void)
{
    unsigned me = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != me)   /* count depends on timing */
        sched_yield();
}

static void ticket_unlock(void)
{
    __atomic_store_n(&now_serving, now_serving + 1, __ATOMIC_RELEASE);
}

static void *worker(void *p)
{
    struct arg *a = p;
    int sense = 0;
    long r = 0, w = 0, bad = 0;
    for (long s = 0; s < a->steps; s++) {
        ticket_lock();
        acc = (acc + (long)(a->id + 1) * (s + 1)) % 1000000007L;
        ticket_unlock();
        if ((s + a->id) % 4 == 0) {
            pthread_rwlock_wrlock(&rw);
            int from = (int)((s * 7 + a->id) % TABLE), to = (int)((s * 13 + 3 * a->id + 1) % TABLE);
            table[from] -= 5;
            sched_yield();          /* a reader must never see this state */
            table[to] += 5;
            pthread_rwlock_unlock(&rw);
            w++;
        } else {
            int got = 1;
            if (s % 3 == 0)
                got = pthread_rwlock_tryrdlock(&rw) == 0;
            if (!got || s % 3 != 0)
                pthread_rwlock_rdlock(&rw);
            long sum = 0;
            for (int i = 0; i < TABLE; i++)
                sum += table[i];
            bad += sum != TABLE * 100;
            pthread_rwlock_unlock(&rw);
            r++;
        }
        if (s % 25 == 24)
            spin_barrier(&sense);
    }
    __atomic_fetch_add(&reads, r, __ATOMIC_RELAXED);
    __atomic_fetch_add(&writes, w, __ATOMIC_RELAXED);
    __atomic_fetch_add(&violations, bad, __ATOMIC_RELAXED);
    return NULL;
}

int main(int argc, char **argv)
{
    nthreads = argc > 1 ? atoi(argv[1]) : 4;
    long steps = argc > 2 ? atol(argv[2]) : 200;
    if (nthreads < 1 || nthreads > 256 || steps < 1) {
        fprintf(stderr, "usage: pth_spin_rwlock P STEPS\n");
        return 2;
    }
    for (int i = 0; i < TABLE; i++)
        table[i] = 100;
    pthread_t *th = malloc(nthreads * sizeof *th);
    struct arg *args = malloc(nthreads * sizeof *args);
    for (int t = 0; t < nthreads; t++) {
        args[t].id = t;
        args[t].steps = steps;
        pthread_create(&th[t], NULL, worker, &args[t]);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    /* the accumulator and the table are sums of fixed per-thread
       contributions: the same for a given P in any interleaving */
    unsigned long h = 0;
    for (int i = 0; i < TABLE; i++)
        h = h * 31 + (unsigned long)table[i];
    printf("threads %d acc %ld table %lu reads %ld writes %ld violations %ld tickets %u\n",
           nthreads, acc, h, reads, writes, violations, next_ticket);
    free(th);
    free(args);
    return violations != 0;
}
