/* net-internal.h - what the network's two files share (net.c: the
 * simulation; net-auto.c: the closed forms and the AUTO rules).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_NET_INTERNAL_H
#define PERFPRED_NET_INTERNAL_H

#include "net.h"

#include <math.h>

/* fmax(a, b) without the call: the larger, b when they are equal, the one
 * that is not a NaN if one is (what glibc's fmax gives), inline: the
 * collectives' simulation takes a few per message */
static inline double maxd(double a, double b)
{
    return a > b || isnan(b) ? a : b;
}

static inline int is_pow2(int P)
{
    return pp_net_is_pow2(P);
}

static inline int floor_pow2(int P)
{
    int p = 1;
    while (p <= P / 2)
        p <<= 1;
    return p;
}

static inline int ceil_log2(int P)
{
    return pp_net_ceil_log2(P);
}

static inline double rendezvous_start(const pp_net *n, double st, double tpost)
{
    return maxd(st + n->o + n->L, tpost) + n->o + n->L;
}

#endif
