/* fir.c - a FIR filter run over a signal, pass after pass: each output
 * sample is the dot product of the taps with the input around it.
 *
 * Usage: fir N TAPS PASSES
 *
 * The taps loop is short (a few multiply-adds an entry): timing one of
 * its entries measures mostly the timing itself, and its cost comes from
 * the sample loop around it (docs/model.md, "Measured loop costs").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: fir N TAPS PASSES\n");
        return 2;
    }
    long n = atol(argv[1]);
    int taps = atoi(argv[2]), passes = atoi(argv[3]);
    if (n < 1 || taps < 1 || passes < 1) {
        fprintf(stderr, "fir: bad arguments\n");
        return 2;
    }
    double *x = malloc(sizeof *x * (size_t)(n + taps));
    double *y = malloc(sizeof *y * (size_t)n);
    double *w = malloc(sizeof *w * (size_t)taps);
    if (!x || !y || !w) {
        fprintf(stderr, "fir: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n + taps; i++)
        x[i] = sin(0.01 * (double)i);
    for (int k = 0; k < taps; k++)
        w[k] = 1.0 / (k + 1);
    double norm = 0;
    for (int k = 0; k < taps; k++)
        norm += w[k];
    for (int p = 0; p < passes; p++) {
        for (long i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < taps; k++)
                s += w[k] * x[i + k];
            y[i] = s / norm;
        }
        memcpy(x, y, sizeof *x * (size_t)n);
    }
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += y[i];
    printf("checksum %.9e\n", sum);
    free(w);
    free(y);
    free(x);
    return 0;
}
