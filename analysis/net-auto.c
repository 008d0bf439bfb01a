/* net-auto.c - the collectives' closed forms (every rank arriving at
 * once: what the simulation of net.c gives then) and the AUTO rules that
 * choose an algorithm the way Open MPI's fixed rules do.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "net-internal.h"

#include <math.h>

/* ---- closed forms -------------------------------------------------------- */

/* pieces of the closed forms */
static double c_of(const pp_net *n, double m)   /* one message, end to end */
{
    return pp_net_send_ns(n, m) + n->L + n->o;
}

static double h_of(const pp_net *n, double m)   /* rendezvous handshake */
{
    return pp_net_is_eager(n, m) ? 0 : 2 * (n->o + n->L);
}

static double x_of(const pp_net *n, double m)
{
    return c_of(n, m) + h_of(n, m);
}

static double d_of(const pp_net *n, double m)   /* spacing of two sends */
{
    return maxd(n->g, pp_net_send_ns(n, m));
}

static double rgap_of(const pp_net *n, double m) /* spacing of two arrivals */
{
    return maxd(n->g, m > 1 ? (m - 1) * n->G : 0);
}

/* sum over k < ceil(log2 P) of x(2^k b) */
static double sum_doubling(const pp_net *n, int P, double b)
{
    double t = 0;
    for (int d = 1; d < P; d <<= 1)
        t += x_of(n, b * d);
    return t;
}

/* The binomial tree's completion for simultaneous arrival, any size S,
 * by its recursion: a subtree of size S is a binomial tree of S ranks.
 * Down (bcast, scatter): the root's i-th send starts after i-1 sends of
 * d + h each; child i is done x after its send started, and its subtree
 * after that. */
static double down_cf(const pp_net *n, int S, double m, int scatter, const double *full)
{
    if (S <= 1)
        return 0;
    int top = 1, lg = 0;
    while (top < S) {
        top <<= 1;
        lg++;
    }
    double t = 0, worst = 0;
    for (int mask = top >> 1, j = lg - 1; mask > 0; mask >>= 1, j--) {
        int sub = S - mask < mask ? S - mask : mask;
        double bytes = scatter ? m * sub : m;
        double below = sub == mask ? full[j] : down_cf(n, sub, m, scatter, full);
        worst = maxd(worst, t + x_of(n, bytes) + below);
        t += d_of(n, bytes) + h_of(n, bytes);
    }
    return worst;
}

/* Up (reduce, gather): the root takes its children in increasing mask
 * order; child k is ready when its own subtree is done, and its message
 * arrives no earlier than the previous one plus the receiving gap. */
static double up_cf(const pp_net *n, int S, double m, int gather, const double *full)
{
    double R = 0, alast = -INFINITY;
    for (int mask = 1, j = 0; mask < S; mask <<= 1, j++) {
        int sub = S - mask < mask ? S - mask : mask;
        double bytes = gather ? m * sub : m;
        double tc = sub == mask ? full[j] : up_cf(n, sub, m, gather, full);
        double st = tc;
        if (!pp_net_is_eager(n, bytes))
            st = rendezvous_start(n, st, R);
        double a = maxd(st + pp_net_send_ns(n, bytes) + n->L, alast + rgap_of(n, bytes));
        alast = a;
        R = maxd(R, a) + n->o + (gather ? 0 : n->gamma * m);
    }
    return R;
}

static double tree_cf(const pp_net *n, int P, double m, int up, int blocks)
{
    double full[64];
    full[0] = 0;
    for (int j = 1; j < 63 && (1L << j) <= P; j++)
        full[j] = up ? up_cf(n, 1 << j, m, blocks, full) : down_cf(n, 1 << j, m, blocks, full);
    return up ? up_cf(n, P, m, blocks, full) : down_cf(n, P, m, blocks, full);
}

double pp_net_closed_form(const pp_net *n, pp_coll k, pp_alg a, int P, double m)
{
    if ((unsigned)k >= PP_COLL_N || a == PP_ALG_AUTO || !pp_net_alg_valid(k, a) || P < 1 || P > PP_NET_MAX_P
        || !(m >= 0))
        return -1;
    if (P == 1)
        return 0;
    int lg = ceil_log2(P);
    double gm = n->gamma * m, b = m / P;
    switch (k) {
    case PP_COLL_BCAST:
        if (a == PP_ALG_BINOMIAL)
            return tree_cf(n, P, m, 0, 0);
        if (a == PP_ALG_LINEAR)
            return (P - 2) * (d_of(n, m) + h_of(n, m)) + x_of(n, m);
        return tree_cf(n, P, b, 0, 1) + (P - 1) * x_of(n, b);   /* scatter + ring: a bound */
    case PP_COLL_REDUCE:
        if (a == PP_ALG_BINOMIAL)
            return tree_cf(n, P, m, 1, 0);
        if (a == PP_ALG_LINEAR) {
            if (pp_net_is_eager(n, m))
                return c_of(n, m) + gm + (P - 2) * maxd(n->o + gm, rgap_of(n, m));
            return x_of(n, m) + gm + (P - 2) * (x_of(n, m) - n->L - n->o + gm);
        }
        return (P - 1) * (x_of(n, b) + n->gamma * b) + tree_cf(n, P, b, 1, 1);
    case PP_COLL_ALLREDUCE:
        if (a == PP_ALG_RING)
            return 2.0 * (P - 1) * x_of(n, b) + (P - 1) * n->gamma * b;
        /* P not a power of two: pre-step, log2 pof2 steps, post-step (a
         * bound: the ranks that skip the pre-step start early) */
        return lg * (x_of(n, m) + gm) + (is_pow2(P) ? 0 : x_of(n, m));
    case PP_COLL_GATHER:
        if (a == PP_ALG_BINOMIAL)
            return tree_cf(n, P, m, 1, 1);
        if (pp_net_is_eager(n, m))
            return c_of(n, m) + (P - 2) * maxd(n->o, rgap_of(n, m));
        return x_of(n, m) + (P - 2) * (x_of(n, m) - n->L - n->o);
    case PP_COLL_SCATTER:
        if (a == PP_ALG_BINOMIAL)
            return tree_cf(n, P, m, 0, 1);
        return (P - 2) * (d_of(n, m) + h_of(n, m)) + x_of(n, m);
    case PP_COLL_ALLGATHER:
        if (a == PP_ALG_RING)
            return (P - 1) * x_of(n, m);
        if (a == PP_ALG_RECURSIVE_DOUBLING && is_pow2(P))
            return sum_doubling(n, P, m);
        {
            double t = 0;
            for (int d = 1; d < P; d <<= 1)
                t += x_of(n, m * (d < P - d ? d : P - d));
            return t;
        }
    case PP_COLL_ALLTOALL:
        if (a == PP_ALG_PAIRWISE)
            return (P - 1) * x_of(n, m);
        if (a == PP_ALG_BRUCK) {
            double t = 0;
            for (int d = 1; d < P; d <<= 1) {
                int cnt = 0;
                for (int j = 0; j < P; j++)
                    if (j & d)
                        cnt++;
                t += x_of(n, m * cnt);
            }
            return t;
        }
        return (P - 2) * (d_of(n, m) + h_of(n, m)) + h_of(n, m) + pp_net_send_ns(n, m)
             + maxd((P - 1) * n->o, n->L + n->o);
    case PP_COLL_BARRIER:
        if (a == PP_ALG_DISSEMINATION)
            return lg * c_of(n, 0);
        if (a == PP_ALG_LINEAR)
            return 2 * c_of(n, 0) + 2.0 * (P - 2) * maxd(n->o, n->g);
        return lg * c_of(n, 0) + (is_pow2(P) ? 0 : c_of(n, 0));   /* a bound unless P = 2^k */
    default:
        return -1;
    }
}

/* ---- AUTO ---------------------------------------------------------------- */

/* The AUTO rules (docs/machine-format.md): Open MPI's fixed decisions
 * (coll_tuned_decision_fixed.c of Open MPI 1.x-3.x) where they choose an
 * algorithm simulated here; where they choose a segmented tree or pipeline
 * (large bcast, reduce, allreduce), the cheaper of the simulated
 * bandwidth-saving algorithm and the tree for simultaneous arrival. */
static pp_alg cheaper(const pp_net *n, pp_coll k, int P, double m, pp_alg x, pp_alg y)
{
    return pp_net_closed_form(n, k, y, P, m) < pp_net_closed_form(n, k, x, P, m) ? y : x;
}

static pp_alg auto_rule(const pp_net *n, pp_coll k, int P, double m)
{
    switch (k) {
    case PP_COLL_BCAST:
        if (m < 2048)
            return PP_ALG_BINOMIAL;
        return cheaper(n, k, P, m, PP_ALG_BINOMIAL, PP_ALG_SCATTER_ALLGATHER);
    case PP_COLL_REDUCE:
        if (P < 8 && m < 512)
            return PP_ALG_LINEAR;
        if ((P < 8 && m < 20480) || m < 2048)
            return PP_ALG_BINOMIAL;
        return cheaper(n, k, P, m, PP_ALG_BINOMIAL, PP_ALG_REDUCE_SCATTER_GATHER);
    case PP_COLL_ALLREDUCE:
        if (m < 10000)
            return PP_ALG_RECURSIVE_DOUBLING;
        return cheaper(n, k, P, m, PP_ALG_RECURSIVE_DOUBLING, PP_ALG_RING);
    case PP_COLL_GATHER:
        if (m > 6000)
            return PP_ALG_LINEAR;
        if (P > 60 || (P > 10 && m < 1024))
            return PP_ALG_BINOMIAL;
        return PP_ALG_LINEAR;
    case PP_COLL_SCATTER:
        return P > 10 && m < 300 ? PP_ALG_BINOMIAL : PP_ALG_LINEAR;
    case PP_COLL_ALLGATHER:
        if (m * P < 50000)
            return is_pow2(P) ? PP_ALG_RECURSIVE_DOUBLING : PP_ALG_BRUCK;
        return PP_ALG_RING;
    case PP_COLL_ALLTOALL:
        if (P == 2)
            return PP_ALG_PAIRWISE;
        if (m < 200 && P > 12)
            return PP_ALG_BRUCK;
        return m < 3000 ? PP_ALG_LINEAR : PP_ALG_PAIRWISE;
    case PP_COLL_BARRIER:
        return is_pow2(P) ? PP_ALG_RECURSIVE_DOUBLING : PP_ALG_DISSEMINATION;
    default:
        return PP_ALG_AUTO;
    }
}

pp_alg pp_net_alg(const pp_net *n, pp_coll k, int P, double bytes)
{
    if ((unsigned)k >= PP_COLL_N)
        return PP_ALG_AUTO;
    pp_alg a = n->alg[k];
    if (!pp_net_alg_valid(k, a))
        return PP_ALG_AUTO;
    if (a == PP_ALG_AUTO)
        a = auto_rule(n, k, P, bytes);
    if (k == PP_COLL_ALLGATHER && a == PP_ALG_RECURSIVE_DOUBLING && !is_pow2(P))
        a = PP_ALG_BRUCK;
    return a;
}
