/* workq_pthreads.c - Mandelbrot set image, rows handed out from a shared
 * queue under a mutex (dynamic load balance), pthreads.
 *
 * Usage: workq_pthreads N MAXIT NTHREADS
 *
 * The image is N x N pixels of [-2, 0.6] x [-1.3, 1.3]; a row costs from
 * N to N * MAXIT iterations, so static blocks of rows would be unbalanced.
 * Each worker takes the next CHUNK rows, computes them, and adds its
 * count of escaped pixels to the total under the same mutex at the end.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 4

struct queue {
    pthread_mutex_t lock;
    int next_row;
    int nrows;
    int maxit;
    unsigned short *image;
    long escaped;
};

static int take_rows(struct queue *q, int *first)
{
    pthread_mutex_lock(&q->lock);
    int n = 0;
    if (q->next_row < q->nrows) {
        *first = q->next_row;
        n = q->nrows - q->next_row < CHUNK ? q->nrows - q->next_row : CHUNK;
        q->next_row += n;
    }
    pthread_mutex_unlock(&q->lock);
    return n;
}

static void *worker(void *arg)
{
    struct queue *q = arg;
    int size = q->nrows;
    long mine = 0;
    int first, count;
    while ((count = take_rows(q, &first)) > 0) {
        for (int row = first; row < first + count; row++) {
            double ci = -1.3 + 2.6 * row / size;
            for (int col = 0; col < size; col++) {
                double cr = -2.0 + 2.6 * col / size;
                double zr = 0.0, zi = 0.0;
                int it = 0;
                while (it < q->maxit && zr * zr + zi * zi <= 4.0) {
                    double t = zr * zr - zi * zi + cr;
                    zi = 2.0 * zr * zi + ci;
                    zr = t;
                    it++;
                }
                q->image[(long)row * size + col] = (unsigned short)it;
                if (it < q->maxit)
                    mine++;
            }
        }
    }
    pthread_mutex_lock(&q->lock);
    q->escaped += mine;
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s N MAXIT NTHREADS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), maxit = atoi(argv[2]), nthreads = atoi(argv[3]);
    if (n < 1 || maxit < 1 || maxit > 65535 || nthreads < 1) {
        fprintf(stderr, "workq_pthreads: bad arguments\n");
        return 2;
    }
    struct queue q = {.next_row = 0, .nrows = n, .maxit = maxit, .escaped = 0};
    pthread_mutex_init(&q.lock, NULL);
    q.image = malloc(sizeof *q.image * (size_t)n * n);
    pthread_t *th = malloc(sizeof *th * nthreads);
    if (!q.image || !th) {
        fprintf(stderr, "workq_pthreads: out of memory\n");
        return 1;
    }
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, &q);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);

    unsigned long long sum = 0;
    for (long i = 0; i < (long)n * n; i++)
        sum += q.image[i];
    printf("checksum %ld %llu\n", q.escaped, sum);
    free(q.image);
    free(th);
    return 0;
}
