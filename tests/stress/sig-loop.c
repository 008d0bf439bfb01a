/* sig-loop.c - a program that dies of a signal mid-loop (tests/e2e/23-signals.t).
 *
 *   sig-loop MODE N NTHREADS
 *
 * NTHREADS pthreads each run a loop; after N iterations main (which runs a
 * loop of its own) dies as MODE says: a signal number (raise), "abort",
 * "segv" (a null store), "fpe" (integer division by zero), "wait" (prints
 * "ready" and spins until killed from outside), "own" (installs its own
 * SIGTERM handler, which prints and exits 3, then raises SIGTERM), "exit"
 * (ends normally: the reference), "dfree" (frees a block twice: glibc
 * calls abort() while it holds malloc's lock, which the record writer then
 * needs: the writer's time bound must end it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile long sink;
static volatile int stop;

static void *worker(void *arg)
{
    long n = (long)arg;
    for (long i = 0; i < n; i++)   /* L:work */
        sink += i;
    while (!stop)   /* count depends on timing (18-differential.t) */
        sink++;
    return NULL;
}

static void own_term(int sig)
{
    static const char msg[] = "own handler\n";
    ssize_t w = write(1, msg, sizeof msg - 1);
    (void)w;
    (void)sig;
    _exit(3);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *mode = argv[1];
    long n = atol(argv[2]);
    int nt = atoi(argv[3]);
    pthread_t th[64];
    if (nt > 64)
        nt = 64;
    if (!strcmp(mode, "own"))
        signal(SIGTERM, own_term);
    for (int i = 0; i < nt; i++)
        pthread_create(&th[i], NULL, worker, (void *)n);
    long s = 0;
    for (long i = 0; i < n; i++)   /* L:main */
        s += i % 7;
    printf("main loop %ld\n", s);
    fflush(stdout);
    if (!strcmp(mode, "exit")) {
        stop = 1;
        for (int i = 0; i < nt; i++)
            pthread_join(th[i], NULL);
        return 0;
    }
    if (!strcmp(mode, "abort"))
        abort();
    if (!strcmp(mode, "segv")) {
        volatile int *p = NULL;
        *p = (int)s;
    }
    if (!strcmp(mode, "dfree")) {
        /* above the tcache and fastbin sizes, with a guard block so that
         * it does not merge into the top: the second free() finds it
         * free under the arena lock and aborts there */
        char *volatile a = malloc(4000);
        char *volatile g = malloc(4000);
        a[0] = g[0] = 1;
        free(a);
        free(a);
    }
    if (!strcmp(mode, "fpe")) {
        volatile int z = 0;
        sink = (int)s / z;
    }
    if (!strcmp(mode, "wait")) {
        printf("ready\n");
        fflush(stdout);
        for (long i = 0;; i++)
            sink += i;
    }
    if (!strcmp(mode, "own"))
        raise(SIGTERM);
    raise(atoi(mode));
    return 9;
}
