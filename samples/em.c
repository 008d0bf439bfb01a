/* em.c - an EM-simulation-like thread cluster (Zhang & Xu 1995, Figure 6):
 * P pthreads run T time steps; each step is five loop phases over the
 * thread's static share of an I x J field grid ("region A") and of two
 * M x N slot grids, each phase ended by a barrier, and one critical section
 * per thread and step that adds the thread's partial field energy into a
 * shared accumulator.  The accumulated energy of step t sets the amplitude
 * of the incident wave in step t+1.
 *
 * Usage: em I J M N P [T]
 *   I, J  field grid (I >= M, J >= 2N)     M, N  slot grid (>= 1)
 *   P     threads, 1 <= P <= 256           T     time steps (default 200)
 *
 * Structure (thread t, rows [t*I/P, (t+1)*I/P) of the field grid and rows
 * [t*M/P, (t+1)*M/P) of the slot grids):
 *   for step = 0..T-1:
 *     1. H update  (own field rows x J)   barrier
 *     2. E update  (own field rows x J)   barrier
 *     3. slot update (own slot rows x N)  barrier
 *     4. slot radiation into E (own slot rows x N)   barrier
 *     5. partial energy (own field rows x J); mutex lock; acc[step] += q;
 *        mutex unlock;  barrier
 * main: initialise (serial), create P threads, join, checksum.
 *
 * The energy is summed as integers (each point quantised on its own), so
 * the result, and the checksum, do not depend on P.
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
#define MAXDIM 65536
#define MAXT 1000000

static int I, J, M, N, P, T; /* parameters (set once in main) */
static double *E, *H;        /* I x J field grids, row major */
static double *S;            /* 2 buffers x 2 slots x M x N */
static long long *acc;       /* acc[step]: quantised field energy */
static pthread_barrier_t bar; /* P parties */
static pthread_mutex_t acc_lock = PTHREAD_MUTEX_INITIALIZER;

static void usage(void)
{
    fprintf(stderr, "usage: em I J M N P [T]\n"
                    "  I J  field grid, M <= I <= %d, 2N <= J <= %d\n"
                    "  M N  slot grid, M >= 1, N >= 1\n"
                    "  P    threads, 1 <= P <= %d\n"
                    "  T    time steps, 1 <= T <= %d (default 200)\n",
            MAXDIM, MAXDIM, MAXP, MAXT);
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
    long ilo = tid * I / P;
    long ihi = (tid + 1) * I / P;
    long mlo = tid * M / P;
    long mhi = (tid + 1) * M / P;
    long MN = (long)M * N;

    for (long step = 0; step < T; step++) {
        double amp = step == 0 ? 1.0 : 1.0 / (1.0 + 1e-9 * (double)acc[step - 1]);
        double *src = S + (step % 2) * 2 * MN;
        double *dst = S + ((step + 1) % 2) * 2 * MN;

        /* 1. magnetic field from the electric field */
        for (long i = ilo; i < ihi; i++) {
            long ip = i + 1 == I ? 0 : i + 1;
            for (long j = 0; j < J; j++)
                H[i * J + j] = 0.5 * H[i * J + j] + 0.25 * (E[i * J + j] + E[ip * J + j]);
        }
        pthread_barrier_wait(&bar);

        /* 2. electric field from the magnetic field (damped), incident wave
         *    on row 0 */
        for (long i = ilo; i < ihi; i++) {
            for (long j = 0; j < J; j++) {
                long jp = j + 1 == J ? 0 : j + 1;
                double e = 0.4 * E[i * J + j] + 0.25 * (H[i * J + j] + H[i * J + jp]);
                if (i == 0)
                    e += amp * 0.125 * ((double)((step + j) % 16) - 7.5);
                E[i * J + j] = e;
            }
        }
        pthread_barrier_wait(&bar);

        /* 3. slot fields: driven by E above the slot, coupled through the
         *    network to the other slot */
        for (long m = mlo; m < mhi; m++) {
            long i = m * I / M;
            for (long n = 0; n < N; n++) {
                long j1 = n * (J / 2) / N;
                long j2 = J / 2 + j1;
                double s1 = src[m * N + n];
                double s2 = src[MN + m * N + n];
                dst[m * N + n] = 0.5 * s1 + 0.25 * E[i * J + j1] + 0.25 * s2;
                dst[MN + m * N + n] = 0.5 * s2 + 0.25 * E[i * J + j2] + 0.25 * s1;
            }
        }
        pthread_barrier_wait(&bar);

        /* 4. equivalent magnetic currents in the slots radiate into E */
        for (long m = mlo; m < mhi; m++) {
            long i = m * I / M;
            for (long n = 0; n < N; n++) {
                long j1 = n * (J / 2) / N;
                long j2 = J / 2 + j1;
                E[i * J + j1] += 0.05 * dst[m * N + n];
                E[i * J + j2] += 0.05 * dst[MN + m * N + n];
            }
        }
        pthread_barrier_wait(&bar);

        /* 5. field energy: partial sum, then the shared accumulator */
        long long q = 0;
        for (long i = ilo; i < ihi; i++) {
            for (long j = 0; j < J; j++) {
                double e = E[i * J + j];
                q += (long long)(e * e * 1e6);
            }
        }
        pthread_mutex_lock(&acc_lock);
        acc[step] += q;
        pthread_mutex_unlock(&acc_lock);
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 7)
        usage();
    for (int k = 1; k < argc; k++)
        if (!is_count(argv[k]))
            usage();
    I = atoi(argv[1]);
    J = atoi(argv[2]);
    M = atoi(argv[3]);
    N = atoi(argv[4]);
    P = atoi(argv[5]);
    T = 200;
    if (argc == 7)
        T = atoi(argv[6]);
    if (M < 1 || N < 1 || I < M || J < 2 * N || I > MAXDIM || J > MAXDIM ||
        P < 1 || P > MAXP || T < 1 || T > MAXT)
        usage();

    long MN = (long)M * N;
    E = malloc((size_t)I * (size_t)J * sizeof *E);
    H = malloc((size_t)I * (size_t)J * sizeof *H);
    S = malloc((size_t)(4 * MN) * sizeof *S);
    acc = malloc((size_t)T * sizeof *acc);
    pthread_t *th = malloc((size_t)P * sizeof *th);
    if (!E || !H || !S || !acc || !th) {
        fprintf(stderr, "em: out of memory\n");
        return 1;
    }
    for (long i = 0; i < I; i++) {
        for (long j = 0; j < J; j++) {
            E[i * J + j] = 0.001 * (double)((i * 3 + j * 5) % 11);
            H[i * J + j] = 0.0;
        }
    }
    for (long k = 0; k < 4 * MN; k++)
        S[k] = 0.0;
    for (long t = 0; t < T; t++)
        acc[t] = 0;

    if (pthread_barrier_init(&bar, NULL, (unsigned)P) != 0) {
        fprintf(stderr, "em: pthread_barrier_init failed\n");
        return 1;
    }
    for (long t = 0; t < P; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "em: pthread_create failed\n");
            return 1;
        }
    }
    for (long t = 0; t < P; t++)
        pthread_join(th[t], NULL);

    /* checksum, serial and in a fixed order */
    double sum = 0.0;
    for (long k = 0; k < (long)I * J; k++)
        sum += E[k] + 0.5 * H[k];
    const double *fin = S + (T % 2) * 2 * MN;
    for (long k = 0; k < 2 * MN; k++)
        sum += fin[k];
    sum += 1e-6 * (double)acc[T - 1];
    printf("checksum %.10g\n", sum);

    pthread_barrier_destroy(&bar);
    free(th);
    free(acc);
    free(S);
    free(H);
    free(E);
    return 0;
}
