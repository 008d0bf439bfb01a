/* omp.c - app_omp: an OpenMP reduction (built with -fopenmp).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++)
        s += sqrt((double)i);
    printf("sum %.3f\n", s);
    return 0;
}
