/* md.c - molecular-dynamics-like kernel with cell lists, a cluster of P
 * pthreads and a main thread that rebuilds the cell lists (after the md1
 * GENESIS kernel of de Ronde et al., PET, Figure II: the HEAD/LIST linked
 * lists walked by a loop whose count is known only by running it).
 *
 * Usage: md NPART STEPS P     (96 <= NPART <= 16777216 particles,
 *                              STEPS >= 1 time steps, 1 <= P <= 256 threads)
 *
 * The box is NCX x NCY cells of side 1 (NCX = NPART/32, NCY = 8), periodic
 * in both directions, so there are about 4 particles per cell for every
 * NPART.  The particles start at deterministic pseudo-random positions (a
 * 64-bit linear congruential generator).  Two particles closer than 1 repel
 * with the soft force (1 - r^2)^2 (dx, dy); there is no velocity: each step
 * moves a particle by DT times its force (at most 0.25 per coordinate) and
 * wraps it into the box.  Positions are double buffered: step s reads buffer
 * s % 2 and writes buffer (s+1) % 2.
 *
 * Cell lists: head[c] is the first particle of cell c and next[i] the one
 * after particle i (-1 ends a list), built by main in particle order.  A
 * worker walks the 3 x 3 cells around each of its particles with
 * `j = head[c]; while (j >= 0) { ...; j = next[j]; }`: the number of
 * iterations is the number of particles in the cell, which depends on the
 * positions (4 on average).
 *
 * Structure (one barrier object with P+1 parties: the workers and main):
 *   main:     initialise positions; create P workers;
 *             for s = 0..STEPS-1: rebuild the cell lists (reset NCX*NCY
 *                                 heads, insert NPART particles);
 *                                 barrier (lists ready); barrier (step done)
 *             join P workers; checksum.
 *   worker t: for s = 0..STEPS-1: barrier (lists ready);
 *               for i in [t*NPART/P, (t+1)*NPART/P):
 *                 for 3 x 3 neighbour cells: while over the cell's list;
 *                 new position of i;
 *               barrier (step done)
 *
 * The force on a particle is summed in the order of the cell lists, which
 * main builds serially, so the positions, and the checksum, do not depend
 * on P.  Prints one line "checksum <sum of x + 2 y over the particles>".
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 256
#define MINPART 96
#define MAXPART 16777216
#define NCY 8         /* cells in y */
#define DT 0.02       /* step length */
#define MAXMOVE 0.25  /* largest move per coordinate and step */

static int NPART;             /* particles (set once in main) */
static int STEPS;             /* time steps (set once in main) */
static int P;                 /* worker threads (set once in main) */
static int NCX;               /* cells in x = NPART/32 (set once in main) */
static double *px[2];         /* x positions, double buffered */
static double *py[2];         /* y positions, double buffered */
static long *head;            /* NCX*NCY list heads */
static long *next;            /* NPART list links */
static pthread_barrier_t bar; /* P+1 parties */

static void usage(void)
{
    fprintf(stderr, "usage: md NPART STEPS P\n"
                    "  NPART  particles, %d <= NPART <= %d\n"
                    "  STEPS  time steps, STEPS >= 1\n"
                    "  P      worker threads, 1 <= P <= %d\n",
            MINPART, MAXPART, MAXP);
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

/* Minimum image of a coordinate difference in a periodic box of side w. */
static double wrap_diff(double d, double w)
{
    if (d > 0.5 * w)
        return d - w;
    if (d < -0.5 * w)
        return d + w;
    return d;
}

/* Coordinate moved by m (|m| <= MAXMOVE), wrapped into [0, w). */
static double wrap_pos(double x, double m, double w)
{
    if (m > MAXMOVE)
        m = MAXMOVE;
    if (m < -MAXMOVE)
        m = -MAXMOVE;
    x += m;
    if (x < 0.0)
        x += w;
    if (x >= w)
        x -= w;
    return x;
}

static void *worker(void *arg)
{
    long tid = (long)arg;
    long lo = tid * NPART / P;
    long hi = (tid + 1) * NPART / P;
    double w = (double)NCX, h = (double)NCY;

    for (long s = 0; s < STEPS; s++) {
        pthread_barrier_wait(&bar); /* cell lists of step s ready */
        const double *x = px[s % 2], *y = py[s % 2];
        double *xn = px[(s + 1) % 2], *yn = py[(s + 1) % 2];
        for (long i = lo; i < hi; i++) {
            double xi = x[i], yi = y[i], fx = 0.0, fy = 0.0;
            long cx = (long)xi, cy = (long)yi;
            for (long dy = -1; dy <= 1; dy++) {
                for (long dx = -1; dx <= 1; dx++) {
                    long c = ((cy + dy + NCY) % NCY) * NCX + (cx + dx + NCX) % NCX;
                    long j = head[c];
                    while (j >= 0) { /* the particles of cell c */
                        if (j != i) {
                            double ddx = wrap_diff(xi - x[j], w);
                            double ddy = wrap_diff(yi - y[j], h);
                            double r2 = ddx * ddx + ddy * ddy;
                            if (r2 < 1.0) {
                                double f = (1.0 - r2) * (1.0 - r2);
                                fx += f * ddx;
                                fy += f * ddy;
                            }
                        }
                        j = next[j];
                    }
                }
            }
            xn[i] = wrap_pos(xi, DT * fx, w);
            yn[i] = wrap_pos(yi, DT * fy, h);
        }
        pthread_barrier_wait(&bar); /* step s done */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4 || !is_count(argv[1]) || !is_count(argv[2]) || !is_count(argv[3]))
        usage();
    NPART = atoi(argv[1]);
    STEPS = atoi(argv[2]);
    P = atoi(argv[3]);
    if (NPART < MINPART || NPART > MAXPART || STEPS < 1 || P < 1 || P > MAXP)
        usage();
    NCX = NPART / 32;

    for (int k = 0; k < 2; k++) {
        px[k] = malloc((size_t)NPART * sizeof *px[k]);
        py[k] = malloc((size_t)NPART * sizeof *py[k]);
    }
    head = malloc((size_t)(NPART / 32) * NCY * sizeof *head);
    next = malloc((size_t)NPART * sizeof *next);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!px[0] || !py[0] || !px[1] || !py[1] || !head || !next || !th) {
        fprintf(stderr, "md: out of memory\n");
        return 1;
    }
    if (pthread_barrier_init(&bar, NULL, (unsigned)P + 1) != 0) {
        fprintf(stderr, "md: pthread_barrier_init failed\n");
        return 1;
    }

    /* deterministic pseudo-random positions in the NCX x NCY box */
    uint64_t seed = 88172645463325252u;
    for (long i = 0; i < NPART; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        px[0][i] = (double)(seed >> 11) * 0x1p-53 * (double)NCX;
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        py[0][i] = (double)(seed >> 11) * 0x1p-53 * (double)NCY;
    }

    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "md: pthread_create failed\n");
            return 1;
        }
    }

    long ncell = (long)(NPART / 32) * NCY;
    for (long s = 0; s < STEPS; s++) {
        /* cell lists from the positions of step s */
        const double *x = px[s % 2], *y = py[s % 2];
        for (long c = 0; c < ncell; c++)
            head[c] = -1;
        for (long i = 0; i < NPART; i++) {
            long cx = (long)x[i], cy = (long)y[i];
            if (cx >= NCX) /* rounding at the edge of the box */
                cx = NCX - 1;
            if (cy >= NCY)
                cy = NCY - 1;
            long c = cy * NCX + cx;
            next[i] = head[c];
            head[c] = i;
        }
        pthread_barrier_wait(&bar); /* cell lists of step s ready */
        pthread_barrier_wait(&bar); /* step s done */
    }

    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);

    const double *x = px[STEPS % 2], *y = py[STEPS % 2];
    double sum = 0.0;
    for (long i = 0; i < NPART; i++)
        sum += x[i] + 2.0 * y[i];
    printf("checksum %.10g\n", sum);

    pthread_barrier_destroy(&bar);
    free(th);
    free(next);
    free(head);
    for (int k = 0; k < 2; k++) {
        free(py[k]);
        free(px[k]);
    }
    return 0;
}
