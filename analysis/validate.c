/* validate.c - the error arithmetic of validate (see validate.h).
 *
 *   error = (predicted - actual) / actual                (C&Q, section 5)
 *   sigma = sqrt(SSE / (n - 3)),  SSE = sum (predicted - actual)^2
 *   C.O.V. = sigma / mean(actual)
 *
 * (n - 3 as in the paper; with three points or fewer, n.)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void pp_validate_summarise(pp_vpoint *pts, int n, double experiment_s, double prediction_s, pp_vsummary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->experiment_s = experiment_s;
    s->prediction_s = prediction_s;
    s->reduction = prediction_s > 0 ? experiment_s / prediction_s : INFINITY;
    if (n <= 0)
        return;
    double *abs_err = malloc(sizeof *abs_err * (size_t)n);
    double sse = 0, sum_abs = 0, sum_act = 0;
    for (int i = 0; i < n; i++) {
        pp_vpoint *p = &pts[i];
        p->error = p->actual > 0 ? (p->predicted - p->actual) / p->actual : NAN;
        if (p->lo <= p->hi) {
            p->inside = p->actual >= p->lo && p->actual <= p->hi;
            s->with_interval++;
            s->inside += p->inside;
        } else
            p->inside = -1;
        double d = p->predicted - p->actual;
        sse += d * d;
        double a = fabs(p->error);
        if (abs_err)
            abs_err[i] = a;
        sum_abs += a;
        sum_act += p->actual;
        if (a > s->max_abs_error)
            s->max_abs_error = a;
    }
    s->mean_abs_error = sum_abs / n;
    if (abs_err) {
        qsort(abs_err, (size_t)n, sizeof *abs_err, cmp_double);
        s->median_abs_error = n % 2 ? abs_err[n / 2] : 0.5 * (abs_err[n / 2 - 1] + abs_err[n / 2]);
        free(abs_err);
    }
    s->sigma = sqrt(sse / (n > 3 ? n - 3 : n));
    s->mean_actual = sum_act / n;
    s->cov = s->mean_actual > 0 ? s->sigma / s->mean_actual : NAN;
}
