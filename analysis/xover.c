/* xover.c - see xover.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "xover.h"

#include <math.h>

static int sign(double v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

int pp_xover_find(const long *xs, const double *d, int n, pp_xover_fn fn, void *ctx, pp_xover *out, int max,
                  char *err, size_t errlen)
{
    int found = 0;
    int prev = -1;     /* the last grid point with d != 0 */
    for (int i = 0; i < n; i++) {
        if (isnan(d[i]) || sign(d[i]) == 0)
            continue;
        if (prev >= 0 && sign(d[i]) != sign(d[prev]) && found < max) {
            pp_xover x = {xs[prev], xs[i], d[prev], d[i], 0, sign(d[prev]), sign(d[i]), 0};
            /* the first zero on the way from prev to i */
            for (int k = prev + 1; k < i; k++)
                if (!isnan(d[k])) {
                    x.hi = xs[k];
                    x.dhi = d[k];
                    x.above = 0;
                    break;
                }
            while (fn && x.hi - x.lo > 1) {
                long mid = x.lo + (x.hi - x.lo) / 2;
                double dm;
                if (fn(ctx, mid, &dm, err, errlen))
                    return -1;
                x.evals++;
                if (sign(dm) == x.below) {
                    x.lo = mid;
                    x.dlo = dm;
                } else {
                    x.hi = mid;
                    x.dhi = dm;
                    x.above = sign(dm);
                }
            }
            x.at = x.dlo != x.dhi ? (double)x.lo + x.dlo / (x.dlo - x.dhi) * (double)(x.hi - x.lo) : (double)x.hi;
            out[found++] = x;
        }
        prev = i;
    }
    return found;
}
