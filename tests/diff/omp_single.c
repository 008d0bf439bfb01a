/* omp_single.c - a 1-D relaxation in one long OpenMP parallel region.
 *
 * Stresses what keeps the threads of one long region in step: `omp single`
 * with copyprivate (the relaxation weight of the sweep, read by one thread
 * and handed to all), `omp single nowait` (one thread logs the sweep while
 * the others go on), `omp master` and `omp masked filter(...)` (the sweep
 * counter and a trace, with no barrier of their own), explicit
 * `omp barrier`s, and the stop test every thread takes from a value it
 * copied before a barrier (the shared value is reset by the next single).
 * If a single ran on every thread, or on none, or a barrier were skipped,
 * the sweep count, the residual or the checksum would change (or the
 * threads would disagree on the weight: "disagree" counts it).
 *
 *   omp_single N SWEEPS        (threads: OMP_NUM_THREADS)
 *
 * Every value printed is computed element by element or as a maximum, so
 * it is the same for any thread count.
 *
 * perfpred-diff: kind=omp args="4096 120" repeat=3
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

static const double weights[4] = { 0.5, 0.625, 0.75, 0.875 };

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 4096;
    int sweeps = argc > 2 ? atoi(argv[2]) : 120;
    if (n < 3 || sweeps < 1) {
        fprintf(stderr, "usage: omp_single N SWEEPS\n");
        return 2;
    }
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    int *logged = calloc(sweeps + 1, sizeof *logged);
    int *traced = calloc(sweeps + 1, sizeof *traced);
    for (long i = 0; i < n; i++)
        u[i] = v[i] = (double)((i * 7919) % 1000) / 1000.0;
    u[0] = v[0] = 1.0;
    u[n - 1] = v[n - 1] = 0.0;

    double resid = 0.0;     /* shared: the sweep's largest change */
    int sweep = 0;          /* shared: advanced by the master thread only */
    int disagree = 0, singles = 0;

#pragma omp parallel
    {
        int mine = 0;       /* this thread's count of sweeps */
        for (;;) {
            double w;
#pragma omp single copyprivate(w)
            {
                w = weights[mine % 4];
                resid = 0.0;
                singles++;
            }
            if (w != weights[mine % 4]) {
#pragma omp atomic
                disagree++;
            }
#pragma omp for schedule(static) reduction(max:resid)
            for (long i = 1; i < n - 1; i++) {
                v[i] = (1.0 - w) * u[i] + w * 0.5 * (u[i - 1] + u[i + 1]);
                double d = fabs(v[i] - u[i]);
                if (d > resid)
                    resid = d;
            }
#pragma omp single nowait
            logged[mine]++;
#pragma omp master
            sweep++;
#pragma omp masked filter(omp_get_num_threads() - 1)
            traced[mine]++;
#pragma omp for schedule(static) nowait
            for (long i = 1; i < n - 1; i++)
                u[i] = v[i];
            double r = resid;   /* read before the barrier: the next single resets it */
            mine++;
#pragma omp barrier
            if (r < 1e-9 || mine >= sweeps)
                break;
        }
    }

    double sum = 0.0;
    long bad = 0;
    for (long i = 0; i < n; i++)
        sum += u[i] * (double)(i % 13 + 1);
    for (int s = 0; s < sweep; s++)
        bad += logged[s] != 1 || traced[s] != 1;
    printf("sweeps %d singles %d residual %.6e checksum %.10g disagree %d badlog %ld\n",
           sweep, singles, resid, sum, disagree, bad);
    free(u);
    free(v);
    free(logged);
    free(traced);
    return disagree != 0 || bad != 0 || singles != sweep;
}
