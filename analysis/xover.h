/* xover.h - crossover points of two curves sampled on a grid: where the
 * sign of their difference d(x) = a(x) - b(x) changes between two grid
 * points, refined by bisection on the integers between them with more
 * evaluations of d (run-experiment: T_real of two variants predicted at
 * the value; Mohr et al. 1995, section 5: "crossover point information").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_XOVER_H
#define PERFPRED_XOVER_H

#include <stddef.h>

/* d(x) at an integer x: 0, or -1 with a message. */
typedef int (*pp_xover_fn)(void *ctx, long x, double *d, char *err, size_t errlen);

typedef struct {
    long lo, hi;        /* adjacent integers (hi = lo + 1) unless d was not
                           evaluated between them: the sign of d changes
                           from lo to hi, hi is the first value where it
                           is no longer the sign at lo                  */
    double dlo, dhi;    /* d at lo and hi                               */
    double at;          /* the zero of d interpolated linearly between lo
                           and hi                                       */
    int below;          /* the sign of d up to lo: -1 (a lower, a wins)
                           or +1 (b wins)                               */
    int above;          /* the sign from hi: -1, +1 or 0 (equal at hi)  */
    int evals;          /* evaluations of d this refinement made        */
} pp_xover;

/* xs[0..n-1] strictly increasing, d[i] = d(xs[i]).  Every change of sign
 * between consecutive grid points where d is not zero (a zero between
 * two of the same sign is a touch, not a crossing) is refined by integer
 * bisection with fn (NULL: not refined, lo and hi are the grid points)
 * into out[] (at most max of them).  One change of sign between two grid
 * points is assumed: when d changes sign several times there, one of the
 * crossings is found.  Returns the number found, or -1 with fn's
 * message. */
int pp_xover_find(const long *xs, const double *d, int n, pp_xover_fn fn, void *ctx, pp_xover *out, int max,
                  char *err, size_t errlen);

#endif
