/* streams.c - loops whose memory streams are known by hand (12-streams.t).
 * Each loop is marked with L:name on its line.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static double *ga;   /* a global pointer, loaded in the loops */
static double *gb;
static int gn;

static void stencil(const double *u, double *v, long n)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++) /* L:stencil */
            v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
}

static void rows(double *c, const double *b, long n)
{
    for (long k = 0; k < n; k++) {
        const double *bk = b + k * n;
        for (long j = 0; j < n; j++) /* L:rowreuse */
            c[j] += 0.5 * bk[j];
    }
}

static double strided(const double *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i += 16) /* L:strided */
        s += a[i];
    return s;
}

static double invariant(const double *a, long n, long k)
{
    double s = 0;
    for (long i = 0; i < n; i++) /* L:invariant */
        s += a[k] * (double)i;
    return s;
}

static long chase(const long *next, long start, long n)
{
    long j = start, steps = 0;
    while (j >= 0 && steps < n) { /* L:chase */
        j = next[j];
        steps++;
    }
    return steps;
}

static double gather(const double *a, const long *next, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++) /* L:gather */
        s += a[next[i] < 0 ? 0 : next[i]];
    return s;
}

static double table[256];

static double lookup(const long *next, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++) /* L:lookup */
        s += table[next[i] & 255];
    return s;
}

/* a histogram into a table allocated at a constant size: its working set
 * does not grow either (at -O2, where the pointer is the call's value) */
static long heaptable(const long *next, long n)
{
    long *cnt = calloc(256, sizeof *cnt);
    if (!cnt)
        return 0;
    for (long i = 0; i < n; i++) /* L:heaptable */
        cnt[next[i] & 255]++;
    long s = cnt[3];
    free(cnt);
    return s;
}

static double divided(const double *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++) /* L:divided */
        s += a[i * 3 / 7];
    return s;
}

static double column(const double *a, long n, long j)
{
    double s = 0;
    for (long i = 0; i < n; i++) /* L:column */
        s += a[i * n + j];
    return s;
}

static double global_ptr(void)
{
    double s = 0;
    for (int i = 0; i < gn; i++) /* L:global */
        s += ga[i];
    return s;
}

/* flat arrays through global pointers, indexed with a global size (all
 * reloaded in the loop): gb[j] the same row for every k, ga[k*gn + j]
 * moving with k */
static void gflat(void)
{
    for (int k = 0; k < gn; k++)
        for (int j = 0; j < gn; j++) /* L:gflat */
            gb[j] += ga[k * gn + j];
}

/* rows of a double ** (the row pointers loaded in the loop): c[i] is the
 * same row for every k (reused), b[k] moves with k */
static void rowptr(double **c, double **b, long n)
{
    for (long i = 0; i < n; i++)
        for (long k = 0; k < n; k++)
            for (long j = 0; j < n; j++) /* L:rowptr */
                c[i][j] += 0.25 * b[k][j];
}

int main(void)
{
    long n = 64;
    double *u = calloc((size_t)(n * n), sizeof *u), *v = calloc((size_t)(n * n), sizeof *v);
    long *next = malloc(sizeof *next * (size_t)n);
    if (!u || !v || !next)
        return 1;
    for (long i = 0; i < n; i++)
        next[i] = (i * 7 + 3) % n == 0 ? -1 : (i * 7 + 3) % n;
    ga = u;
    gn = (int)n;
    stencil(u, v, n);
    rows(v, u, n);
    double *cr[64], *br[64];
    for (long i = 0; i < n; i++) {
        cr[i] = v + i * n;
        br[i] = u + i * n;
    }
    rowptr(cr, br, n);
    gb = v;
    gflat();
    double s = strided(u, n * n) + invariant(u, n, 3) + (double)chase(next, 1, n) + global_ptr() + column(u, n, 2)
               + gather(u, next, n) + divided(u, n) + lookup(next, n) + (double)heaptable(next, n);
    printf("%g\n", s + v[n + 1]);
    free(u);
    free(v);
    free(next);
    return 0;
}
