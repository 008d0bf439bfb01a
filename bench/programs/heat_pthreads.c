/* heat_pthreads.c - explicit 2-D heat equation on an N x N plate, pthreads.
 *
 * Usage: heat_pthreads N STEPS NTHREADS
 *
 * Each thread owns a block of rows, handed to it in a struct.  After every
 * step the threads meet at a barrier made of a mutex and a condition
 * variable (generation counter), and thread 0 swaps the two grids.  A
 * final loop in main sums the plate and prints the checksum.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int count;
    int waiting;
    unsigned long generation;
} barrier_t;

static void barrier_init(barrier_t *b, int count)
{
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->cond, NULL);
    b->count = count;
    b->waiting = 0;
    b->generation = 0;
}

/* returns 1 in the last thread to arrive */
static int barrier_wait(barrier_t *b)
{
    pthread_mutex_lock(&b->lock);
    unsigned long gen = b->generation;
    int last = 0;
    if (++b->waiting == b->count) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cond);
        last = 1;
    } else {
        while (gen == b->generation)
            pthread_cond_wait(&b->cond, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    return last;
}

struct plate {
    int n;
    int steps;
    double alpha;
    double *cur;
    double *next;
    barrier_t bar;
};

struct work {
    struct plate *pl;
    int id;
    int first_row;  /* interior rows first_row .. last_row - 1 */
    int last_row;
};

static void *worker(void *arg)
{
    struct work *w = arg;
    struct plate *pl = w->pl;
    int n = pl->n;

    for (int s = 0; s < pl->steps; s++) {
        const double *u = pl->cur;
        double *v = pl->next;
        for (int i = w->first_row; i < w->last_row; i++) {
            for (int j = 1; j < n - 1; j++) {
                double c = u[i * n + j];
                double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1] - 4.0 * c;
                v[i * n + j] = c + pl->alpha * lap;
            }
        }
        if (barrier_wait(&pl->bar)) {
            double *t = pl->cur;
            pl->cur = pl->next;
            pl->next = t;
        }
        barrier_wait(&pl->bar);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s N STEPS NTHREADS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    int steps = atoi(argv[2]);
    int nthreads = atoi(argv[3]);
    if (n < 3 || steps < 1 || nthreads < 1 || nthreads > 1024) {
        fprintf(stderr, "heat_pthreads: bad arguments\n");
        return 2;
    }

    struct plate pl;
    pl.n = n;
    pl.steps = steps;
    pl.alpha = 0.2;
    pl.cur = malloc(sizeof(double) * n * n);
    pl.next = malloc(sizeof(double) * n * n);
    if (!pl.cur || !pl.next) {
        perror("malloc");
        return 1;
    }
    /* hot left edge, cold elsewhere, a warm square in the middle */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            if (j == 0)
                t = 100.0;
            else if (i > n / 4 && i < 3 * n / 4 && j > n / 4 && j < 3 * n / 4)
                t = 50.0;
            pl.cur[i * n + j] = t;
        }
    memcpy(pl.next, pl.cur, sizeof(double) * n * n);
    barrier_init(&pl.bar, nthreads);

    pthread_t *tid = malloc(sizeof *tid * nthreads);
    struct work *w = malloc(sizeof *w * nthreads);
    int rows = n - 2;
    for (int t = 0; t < nthreads; t++) {
        w[t].pl = &pl;
        w[t].id = t;
        w[t].first_row = 1 + (int)((long)rows * t / nthreads);
        w[t].last_row = 1 + (int)((long)rows * (t + 1) / nthreads);
        pthread_create(&tid[t], NULL, worker, &w[t]);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            sum += pl.cur[i * n + j];
            wsum += pl.cur[i * n + j] * (j + 1);
        }
    printf("checksum %.6f %.6f\n", sum, wsum);

    free(w);
    free(tid);
    free(pl.cur);
    free(pl.next);
    return 0;
}
