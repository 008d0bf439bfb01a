/* thread_ids.c - a 1-D Jacobi sweep, the workers started with an argument
 * struct that holds only their id (args[k].id = k); each computes its own
 * slice from the id and the globals, and the workers meet at a
 * pthread_barrier after each half-step.  The id belongs to a thread: it
 * is no problem parameter.
 *
 * usage: thread_ids N STEPS NTHREADS
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct worker_arg { int id; };

static int n, steps, nworkers;
static double *u, *v;
static pthread_barrier_t step_done;

static void *sweep(void *p)
{
    const struct worker_arg *a = p;
    int lo = 1 + (n - 2) * a->id / nworkers;
    int hi = 1 + (n - 2) * (a->id + 1) / nworkers;
    for (int t = 0; t < steps; t++) {
        for (int i = lo; i < hi; i++)
            v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        pthread_barrier_wait(&step_done);
        for (int i = lo; i < hi; i++)
            u[i] = v[i];
        pthread_barrier_wait(&step_done);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 10000;
    steps = argc > 2 ? atoi(argv[2]) : 10;
    nworkers = argc > 3 ? atoi(argv[3]) : 2;
    if (n < 3 || steps < 0 || nworkers < 1) {
        fprintf(stderr, "usage: thread_ids N STEPS NTHREADS\n");
        return 2;
    }
    u = calloc(n, sizeof *u);
    v = calloc(n, sizeof *v);
    struct worker_arg *args = malloc(sizeof *args * nworkers);
    pthread_t *th = malloc(sizeof *th * nworkers);
    if (!u || !v || !args || !th)
        return 1;
    u[n / 2] = 1.0;
    pthread_barrier_init(&step_done, NULL, nworkers);
    for (int k = 0; k < nworkers; k++) {
        args[k].id = k;
        pthread_create(&th[k], NULL, sweep, &args[k]);
    }
    for (int k = 0; k < nworkers; k++)
        pthread_join(th[k], NULL);
    printf("%.6f\n", u[n / 2]);
    return 0;
}
