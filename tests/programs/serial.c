/* serial.c - test program with a known serial fraction (Amdahl): a serial
 * loop of S units of work in main, then a parallel loop of W units split
 * evenly over P pthreads.  One unit is one iteration of the same loop body
 * in both loops, so the serial fraction is f = S / (S + W).
 *
 * Usage: serial S W P    (S >= 0, W >= 0 units; 1 <= P <= 256 threads)
 *
 * Structure:
 *   main:     for u = 0..S-1: unit(u);  create P threads;  join P threads;
 *             checksum.
 *   thread t: for u in [t*W/P, (t+1)*W/P): unit(u)
 *             (exactly W/P units when P divides W).
 * A unit mixes its index through a 64-bit hash and adds it to a sum
 * (modulo 2^64, so the order of the additions does not matter).
 *
 * Prints one line "checksum <value>" which does not depend on P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256

static long W;                /* parallel units (set once in main) */
static int P;                 /* threads (set once in main) */
static unsigned long *partial; /* partial[tid]: sum of the thread's units */

static void usage(void)
{
    fprintf(stderr, "usage: serial S W P\n"
                    "  S  serial units, S >= 0\n"
                    "  W  parallel units, W >= 0\n"
                    "  P  threads, 1 <= P <= %d\n", MAXP);
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

static void *worker(void *arg)
{
    long tid = (long)arg;
    long lo = tid * W / P;
    long hi = (tid + 1) * W / P;
    unsigned long sum = 0;
    for (long u = lo; u < hi; u++) {
        unsigned long h = (unsigned long)u * 0x9E3779B97F4A7C15UL;
        h ^= h >> 30;
        h *= 0xBF58476D1CE4E5B9UL;
        h ^= h >> 27;
        h *= 0x94D049BB133111EBUL;
        h ^= h >> 31;
        sum += h;
    }
    partial[tid] = sum;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4 || !is_count(argv[1]) || !is_count(argv[2]) || !is_count(argv[3]))
        usage();
    long S = atoi(argv[1]);
    W = atoi(argv[2]);
    P = atoi(argv[3]);
    if (P < 1 || P > MAXP)
        usage();

    partial = malloc((size_t)P * sizeof *partial);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!partial || !th) {
        fprintf(stderr, "serial: out of memory\n");
        return 1;
    }

    /* serial part: units 0..S-1, the same body as the parallel loop */
    unsigned long sum = 0;
    for (long u = 0; u < S; u++) {
        unsigned long h = (unsigned long)u * 0x9E3779B97F4A7C15UL;
        h ^= h >> 30;
        h *= 0xBF58476D1CE4E5B9UL;
        h ^= h >> 27;
        h *= 0x94D049BB133111EBUL;
        h ^= h >> 31;
        sum += h;
    }

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "serial: pthread_create failed\n");
            return 1;
        }
    }
    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);
    for (long t = 0; t < P; t++)
        sum += partial[t];

    printf("checksum %.10g\n", (double)(sum >> 11));
    free(th);
    free(partial);
    return 0;
}
