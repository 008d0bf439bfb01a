/* stress-pthread.c - many pthreads, in waves, under the recorder
 * (tests/e2e/22-stress.t).
 *
 *   stress-pthread waves W T N       W waves of T threads (T <= 64); thread
 *                                    i of a wave runs (i+1)*N iterations
 *   stress-pthread exit T N K        thread K calls exit(5) after its loop
 *                                    while the others still run
 *   stress-pthread mainexit T N      main calls pthread_exit; the last
 *                                    thread ends the process (status 0)
 *
 * Prints the sums it computed, so that the plain and the instrumented
 * builds can be compared.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
    long n;
    long id;
    long exit_id;
    long sum;
    pthread_mutex_t *mu;
    long *total;
};

static volatile int spin_stop;

static void *work(void *p)
{
    struct job *j = p;
    long s = 0;
    for (long i = 0; i < j->n; i++)   /* L:work */
        s += (i ^ j->id) & 15;
    j->sum = s;
    pthread_mutex_lock(j->mu);
    *j->total += s;
    pthread_mutex_unlock(j->mu);
    if (j->id == j->exit_id) {
        printf("exit from thread %ld sum %ld\n", j->id, s);
        fflush(stdout);
        exit(5);
    }
    if (j->exit_id >= 0)
        while (!spin_stop)         /* still running when exit comes */
            ;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static long total;
    static struct job jobs[64];
    static pthread_t th[64];
    const char *mode = argv[1];
    if (!strcmp(mode, "waves")) {
        int w = atoi(argv[2]), t = atoi(argv[3]);
        long n = atol(argv[4]);
        if (t > 64)
            t = 64;
        for (int k = 0; k < w; k++) {
            for (int i = 0; i < t; i++) {
                jobs[i] = (struct job){ .n = (i + 1) * n, .id = i, .exit_id = -1, .mu = &mu, .total = &total };
                if (pthread_create(&th[i], NULL, work, &jobs[i]) != 0)
                    return 3;
            }
            for (int i = 0; i < t; i++)
                pthread_join(th[i], NULL);
        }
        printf("total %ld\n", total);
        return 0;
    }
    int t = atoi(argv[2]);
    long n = atol(argv[3]);
    long exit_id = !strcmp(mode, "exit") && argc > 4 ? atol(argv[4]) : -1;
    if (t > 64)
        t = 64;
    for (int i = 0; i < t; i++) {
        jobs[i] = (struct job){ .n = (i + 1) * n, .id = i, .exit_id = exit_id, .mu = &mu, .total = &total };
        if (pthread_create(&th[i], NULL, work, &jobs[i]) != 0)
            return 3;
    }
    if (!strcmp(mode, "mainexit")) {
        printf("main leaves\n");
        fflush(stdout);
        pthread_exit(NULL);
    }
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    printf("total %ld\n", total);   /* not reached in mode exit */
    return 0;
}
