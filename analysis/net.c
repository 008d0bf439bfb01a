/* net.c - the network of an MPI machine: LogGP point-to-point costs and
 * the collective algorithms of real MPIs, simulated rank by rank from the
 * ranks' arrival times (net.h; docs/machine-format.md, "MPI network").
 * Their closed forms and the AUTO rules are in net-auto.c.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "net-internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------- */

static const char *const coll_names[PP_COLL_N] = {
    "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall", "barrier",
};

static const char *const alg_names[PP_ALG_N] = {
    "auto", "binomial", "linear", "recursive_doubling", "ring", "dissemination", "pairwise",
    "bruck", "scatter_allgather", "reduce_scatter_gather",
};

#define A(x) (1u << (x))
/* The algorithms each collective has. */
static const unsigned coll_algs[PP_COLL_N] = {
    [PP_COLL_BCAST] = A(PP_ALG_BINOMIAL) | A(PP_ALG_LINEAR) | A(PP_ALG_SCATTER_ALLGATHER),
    [PP_COLL_REDUCE] = A(PP_ALG_BINOMIAL) | A(PP_ALG_LINEAR) | A(PP_ALG_REDUCE_SCATTER_GATHER),
    [PP_COLL_ALLREDUCE] = A(PP_ALG_RECURSIVE_DOUBLING) | A(PP_ALG_RING),
    [PP_COLL_GATHER] = A(PP_ALG_BINOMIAL) | A(PP_ALG_LINEAR),
    [PP_COLL_SCATTER] = A(PP_ALG_BINOMIAL) | A(PP_ALG_LINEAR),
    [PP_COLL_ALLGATHER] = A(PP_ALG_RECURSIVE_DOUBLING) | A(PP_ALG_RING) | A(PP_ALG_BRUCK),
    [PP_COLL_ALLTOALL] = A(PP_ALG_PAIRWISE) | A(PP_ALG_LINEAR) | A(PP_ALG_BRUCK),
    [PP_COLL_BARRIER] = A(PP_ALG_DISSEMINATION) | A(PP_ALG_RECURSIVE_DOUBLING) | A(PP_ALG_LINEAR),
};

int pp_coll_rooted(pp_coll k)
{
    return k == PP_COLL_BCAST || k == PP_COLL_REDUCE || k == PP_COLL_GATHER || k == PP_COLL_SCATTER;
}

const char *pp_coll_name(pp_coll k)
{
    return (unsigned)k < PP_COLL_N ? coll_names[k] : NULL;
}

const char *pp_alg_name(pp_alg a)
{
    return (unsigned)a < PP_ALG_N ? alg_names[a] : NULL;
}

int pp_alg_parse(const char *s, pp_alg *out)
{
    if (!s)
        return -1;
    for (int i = 0; i < PP_ALG_N; i++)
        if (strcmp(s, alg_names[i]) == 0) {
            if (out)
                *out = (pp_alg)i;
            return 0;
        }
    return -1;
}

int pp_net_alg_valid(pp_coll k, pp_alg a)
{
    if ((unsigned)k >= PP_COLL_N || (unsigned)a >= PP_ALG_N)
        return 0;
    return a == PP_ALG_AUTO || (coll_algs[k] & A(a)) != 0;
}

/* ---- machines ---------------------------------------------------------- */

void pp_net_pram(pp_net *n)
{
    memset(n, 0, sizeof *n);
    n->eager_bytes = DBL_MAX;      /* a send never waits for its receiver */
    n->source = 3;
}

/* Ranks on one shared-memory host through Open MPI's shared-memory
 * transport, on the high side (docs/machine-format.md lists them). */
void pp_net_default(pp_net *n)
{
    memset(n, 0, sizeof *n);
    n->L = 500;
    n->o = 250;
    n->g = 250;
    n->G = 0.1;           /* 10 GB/s */
    n->gamma = 0.1;       /* 10 GB/s of doubles summed */
    n->eager_bytes = 4096;
    n->ranks_per_node = 0;
    n->source = 2;
}

int pp_net_node_ranks(const pp_net *n, int P)
{
    if (P < 1)
        return 1;
    return n->ranks_per_node > 0 && n->ranks_per_node < P ? n->ranks_per_node : P;
}

/* ---- point to point ---------------------------------------------------- */

int pp_net_is_eager(const pp_net *n, double bytes)
{
    return bytes <= n->eager_bytes;
}

double pp_net_send_ns(const pp_net *n, double bytes)
{
    return n->o + (bytes > 1 ? (bytes - 1) * n->G : 0);
}

double pp_net_wire_ns(const pp_net *n, double bytes)
{
    (void)bytes;
    return n->L;
}

double pp_net_recv_ns(const pp_net *n, double bytes)
{
    (void)bytes;
    return n->o;
}

void pp_net_p2p(const pp_net *n, double bytes, double ts, double tr, double *send_done,
                double *recv_done)
{
    double s = pp_net_send_ns(n, bytes);
    double start = ts;
    if (!pp_net_is_eager(n, bytes))
        start = maxd(ts + n->o + n->L, tr) + n->o + n->L;
    double sd = start + s;
    if (send_done)
        *send_done = sd;
    if (recv_done)
        *recv_done = maxd(tr, sd + n->L) + n->o;
}

/* ---- the simulation ---------------------------------------------------- */

typedef struct sim {
    const pp_net *n;
    int P;
    double *t;       /* the rank's clock: when it can do its next operation */
    double *snext;   /* earliest start of its next send (the gap)            */
    double *rlast;   /* when its last message arrived (the receiving gap)    */
    double *post;    /* scratch: when each rank posted the step's receive    */
    double *arrv;    /* scratch: when the step's message is at each rank     */
    double *sb;      /* scratch: bytes each rank sends in the step           */
    int *to, *from;  /* scratch: the step's partners, -1 = none              */
} sim;

/* Rank src sends m bytes to a rank that posted the receive at tpost: it
 * starts when free and past its gap; a rendezvous message first waits for
 * the request and reply.  Its clock becomes the send's completion; returns
 * when the data are at the receiver. */
static double send_msg(sim *S, int src, double m, double tpost)
{
    const pp_net *n = S->n;
    double s = pp_net_send_ns(n, m);
    double st = maxd(S->t[src], S->snext[src]);
    if (!pp_net_is_eager(n, m))
        st = rendezvous_start(n, st, tpost);
    S->snext[src] = st + maxd(n->g, s);
    S->t[src] = st + s;
    return st + s + n->L;
}

/* Rank dst receives m bytes whose data reach it at a (no earlier than its
 * previous message plus the receiving gap); done o after both it and the
 * data are there. */
static void recv_msg(sim *S, int dst, double m, double a)
{
    const pp_net *n = S->n;
    double gap = maxd(n->g, m > 1 ? (m - 1) * n->G : 0);
    a = maxd(a, S->rlast[dst] + gap);
    S->rlast[dst] = a;
    S->t[dst] = maxd(S->t[dst], a) + n->o;
}

/* One exchange step (MPI_Sendrecv): every rank r with to[r] >= 0 sends
 * sb[r] bytes to to[r], every rank with from[r] >= 0 receives from
 * from[r]; both posted at the rank's clock.  A receiver then combines cb
 * bytes (gamma per byte) when cb > 0.  Each rank receives at most one
 * message per step. */
static void exchange(sim *S, double cb)
{
    int P = S->P;
    for (int r = 0; r < P; r++)
        S->post[r] = S->t[r];
    for (int r = 0; r < P; r++)
        if (S->to[r] >= 0)
            S->arrv[S->to[r]] = send_msg(S, r, S->sb[r], S->post[S->to[r]]);
    for (int r = 0; r < P; r++)
        if (S->from[r] >= 0) {
            recv_msg(S, r, S->sb[S->from[r]], S->arrv[r]);
            if (cb > 0)
                S->t[r] += S->n->gamma * cb;
        }
}

static void clear_step(sim *S)
{
    for (int r = 0; r < S->P; r++) {
        S->to[r] = -1;
        S->from[r] = -1;
        S->sb[r] = 0;
    }
}

/* absolute rank of relative rank v */
static int abs_rank(int v, int root, int P)
{
    int r = v + root;           /* both below P: no division */
    return r < P ? r : r - P;
}

/* The binomial tree of MPICH and Open MPI over relative ranks v = (r - root)
 * mod P: the parent of v > 0 is v minus its lowest set bit; the children of
 * v are v + mask for the masks below that bit (below the first power of two
 * >= P for the root), largest (farthest subtree) first.  Data flow down: a
 * broadcast (each message m bytes) or a scatter (block x the child's
 * subtree). */
static void tree_down(sim *S, int root, double m, int scatter, const double *arr)
{
    int P = S->P;
    int top = 1;                /* the root's: the first power of two >= P */
    while (top < P)
        top <<= 1;
    /* arrv[v]: when v's message is at it; processed in increasing v, so a
     * parent (smaller v) has sent before its children receive */
    for (int v = 0; v < P; v++) {
        int r = abs_rank(v, root, P);
        int low = v ? v & -v : top;     /* v's lowest set bit */
        if (v > 0) {
            double sub = P - v < low ? P - v : low;   /* v's subtree */
            recv_msg(S, r, scatter ? m * sub : m, S->arrv[v]);
        }
        for (int mask = low >> 1; mask > 0; mask >>= 1) {
            int c = v + mask;
            if (c >= P)
                continue;
            double sub = P - c < mask ? P - c : mask;
            int rc = abs_rank(c, root, P);
            S->arrv[c] = send_msg(S, r, scatter ? m * sub : m, arr[rc]);
        }
    }
}

/* Data flow up the same tree: a reduction (m bytes per message, combined
 * on arrival) or a gather (block x the sender's subtree).  A rank receives
 * from its children in increasing mask order, then sends to its parent.
 * Processed in decreasing v: a child is ready before its parent posts. */
static void tree_up(sim *S, int root, double m, int gather)
{
    int P = S->P;
    for (int v = P - 1; v >= 0; v--) {
        int r = abs_rank(v, root, P);
        for (int mask = 1; mask < P; mask <<= 1) {
            if (v & mask)
                break;
            int c = v | mask;
            if (c >= P)
                break;
            double sub = P - c < mask ? P - c : mask;
            double bytes = gather ? m * sub : m;
            int rc = abs_rank(c, root, P);
            double a = send_msg(S, rc, bytes, S->t[r]);
            recv_msg(S, r, bytes, a);
            if (!gather)
                S->t[r] += S->n->gamma * m;
        }
    }
}

/* The root sends to every other rank in turn (linear bcast / scatter). */
static void linear_down(sim *S, int root, double m, const double *arr)
{
    int P = S->P;
    for (int v = 1; v < P; v++) {
        int r = abs_rank(v, root, P);
        double a = send_msg(S, root, m, arr[r]);
        recv_msg(S, r, m, a);
    }
}

/* The root receives from every other rank in turn, in the order Open MPI's
 * basic linear algorithms post them: P-1 down to 0 for reduce (combining
 * each), 0 up to P-1 for gather. */
static void linear_up(sim *S, int root, double m, int reduce)
{
    int P = S->P;
    for (int i = 0; i < P; i++) {
        int r = reduce ? P - 1 - i : i;
        if (r == root)
            continue;
        double a = send_msg(S, r, m, S->t[root]);
        recv_msg(S, root, m, a);
        if (reduce)
            S->t[root] += S->n->gamma * m;
    }
}

/* Recursive doubling (MPICH's allreduce): with pof2 the largest power of
 * two <= P and rem = P - pof2, the even ranks below 2 rem first send to
 * their odd neighbour (which combines), the pof2 remaining ranks exchange
 * and combine with the partner at distance 1, 2, 4, ..., and the odd ranks
 * below 2 rem send the result back.  Also the recursive-doubling barrier
 * (m = 0). */
static void recursive_doubling(sim *S, double m)
{
    int P = S->P, pof2 = floor_pow2(P), rem = P - pof2;
    if (rem > 0) {
        clear_step(S);
        for (int r = 0; r < 2 * rem; r += 2) {
            S->to[r] = r + 1;
            S->sb[r] = m;
            S->from[r + 1] = r;
        }
        exchange(S, m);
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            int nr = r < 2 * rem ? (r % 2 ? r / 2 : -1) : r - rem;
            if (nr < 0)
                continue;
            int nd = nr ^ mask;
            int d = nd < rem ? nd * 2 + 1 : nd + rem;
            S->to[r] = d;
            S->from[r] = d;
            S->sb[r] = m;
        }
        exchange(S, m);
    }
    if (rem > 0) {
        clear_step(S);
        for (int r = 1; r < 2 * rem; r += 2) {
            S->to[r] = r - 1;
            S->sb[r] = m;
            S->from[r - 1] = r;
        }
        exchange(S, 0);
    }
}

/* steps of a ring: send b bytes to r+1, receive from r-1 (combining cb) */
static void ring_steps(sim *S, int steps, double b, double cb)
{
    int P = S->P;
    for (int k = 0; k < steps; k++) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = (r + 1) % P;
            S->from[r] = (r + P - 1) % P;
            S->sb[r] = b;
        }
        exchange(S, cb);
    }
}

/* Recursive-doubling allgather (P a power of two): exchange with r ^ mask
 * the mask blocks gathered so far. */
static void allgather_rd(sim *S, double b)
{
    int P = S->P;
    for (int mask = 1; mask < P; mask <<= 1) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = r ^ mask;
            S->from[r] = r ^ mask;
            S->sb[r] = b * mask;
        }
        exchange(S, 0);
    }
}

/* Bruck's allgather: at distance d = 1, 2, 4, ... send min(d, P - d)
 * blocks to r - d, receive from r + d. */
static void allgather_bruck(sim *S, double b)
{
    int P = S->P;
    for (int d = 1; d < P; d <<= 1) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = (r - d + P) % P;
            S->from[r] = (r + d) % P;
            S->sb[r] = b * (d < P - d ? d : P - d);
        }
        exchange(S, 0);
    }
}

/* Bruck's all-to-all (Open MPI's modified Bruck): at distance d = 1, 2,
 * 4, ... send the blocks whose index has bit d (of P blocks) to r + d,
 * receive from r - d. */
static void alltoall_bruck(sim *S, double b)
{
    int P = S->P;
    for (int d = 1; d < P; d <<= 1) {
        int cnt = 0;
        for (int j = 0; j < P; j++)
            if (j & d)
                cnt++;
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = (r + d) % P;
            S->from[r] = (r - d + P) % P;
            S->sb[r] = b * cnt;
        }
        exchange(S, 0);
    }
}

/* Pairwise exchange: at step k send to r + k, receive from r - k. */
static void alltoall_pairwise(sim *S, double b)
{
    int P = S->P;
    for (int k = 1; k < P; k++) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = (r + k) % P;
            S->from[r] = (r - k + P) % P;
            S->sb[r] = b;
        }
        exchange(S, 0);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Open MPI's basic linear all-to-all: every rank posts its receives, sends
 * to r-1, r-2, ..., r+1 in turn, then takes the messages in the order they
 * arrive.  Needs P (P-1) doubles. */
static int alltoall_linear(sim *S, double b, const double *arr)
{
    int P = S->P;
    double *a = malloc(sizeof *a * (size_t)P * (size_t)(P - 1));
    if (!a)
        return -1;
    int *cnt = calloc((size_t)P, sizeof *cnt);
    if (!cnt) {
        free(a);
        return -1;
    }
    for (int r = 0; r < P; r++)
        for (int j = 1; j < P; j++) {
            int d = (r - j + P) % P;
            a[(size_t)d * (size_t)(P - 1) + (size_t)cnt[d]++] = send_msg(S, r, b, arr[d]);
        }
    for (int r = 0; r < P; r++) {
        double *ar = a + (size_t)r * (size_t)(P - 1);
        qsort(ar, (size_t)(P - 1), sizeof *ar, cmp_double);
        for (int j = 0; j < P - 1; j++)
            recv_msg(S, r, b, ar[j]);
    }
    free(cnt);
    free(a);
    return 0;
}

/* Open MPI's linear barrier: every rank but 0 sends 0 bytes to rank 0 and
 * waits for its answer; rank 0 takes the P-1 messages as they arrive, then
 * answers ranks 1..P-1 in turn. */
static int barrier_linear(sim *S)
{
    int P = S->P;
    double *a = malloc(sizeof *a * (size_t)P);
    if (!a)
        return -1;
    for (int r = 1; r < P; r++)
        a[r - 1] = send_msg(S, r, 0, S->t[0]);
    qsort(a, (size_t)(P - 1), sizeof *a, cmp_double);
    for (int j = 0; j < P - 1; j++)
        recv_msg(S, 0, 0, a[j]);
    for (int r = 1; r < P; r++) {
        double ar = send_msg(S, 0, 0, S->t[r]);
        recv_msg(S, r, 0, ar);
    }
    free(a);
    return 0;
}

/* Dissemination barrier: in round k every rank sends 0 bytes to r + 2^k
 * and receives from r - 2^k. */
static void barrier_dissemination(sim *S)
{
    int P = S->P;
    for (int d = 1; d < P; d <<= 1) {
        clear_step(S);
        for (int r = 0; r < P; r++) {
            S->to[r] = (r + d) % P;
            S->from[r] = (r - d + P) % P;
        }
        exchange(S, 0);
    }
}

/* ---- collectives ----------------------------------------------------------- */

static int shortcut = 1;

void pp_net_set_shortcut(int on)
{
    shortcut = on;
}

/* The algorithms in which every rank does the same thing: with every rank
 * arriving at once they all leave together, at the closed form. */
static int symmetric(pp_coll k, pp_alg a)
{
    return a == PP_ALG_RING || a == PP_ALG_PAIRWISE || a == PP_ALG_BRUCK || a == PP_ALG_DISSEMINATION
        || (k == PP_COLL_ALLTOALL && a == PP_ALG_LINEAR);
}

int pp_net_collective(const pp_net *n, pp_coll k, int P, int root, double bytes, const double *arr,
                      double *rel)
{
    if (!n || (unsigned)k >= PP_COLL_N || P < 1 || P > PP_NET_MAX_P || !arr || !rel || !(bytes >= 0)
        || !isfinite(bytes))
        return -1;
    int rooted = pp_coll_rooted(k);
    if (rooted && (root < 0 || root >= P))
        return -1;
    if (!rooted)
        root = 0;
    pp_alg a = pp_net_alg(n, k, P, bytes);
    if (a == PP_ALG_AUTO)
        return -1;
    if (P == 1) {
        rel[0] = arr[0];
        return 0;
    }
    /* O(P^2) simulations that the closed form gives exactly (the tests
     * compare them) */
    if (shortcut && symmetric(k, a) && n->g <= n->L + 2 * n->o) {
        int same = 1;
        for (int r = 1; r < P && same; r++)
            same = arr[r] == arr[0];
        if (same) {
            double t = arr[0] + pp_net_closed_form(n, k, a, P, bytes);
            for (int r = 0; r < P; r++)
                rel[r] = t;
            return 0;
        }
    }

    sim S;
    S.n = n;
    S.P = P;
    double *d = malloc(sizeof *d * (size_t)P * 7);
    int *iv = malloc(sizeof *iv * (size_t)P * 2);
    if (!d || !iv) {
        free(d);
        free(iv);
        return -1;
    }
    S.t = d;
    S.snext = d + P;
    S.rlast = d + 2 * (size_t)P;
    S.post = d + 3 * (size_t)P;
    S.arrv = d + 4 * (size_t)P;
    S.sb = d + 5 * (size_t)P;
    double *in = d + 6 * (size_t)P;   /* the arrivals (arr may be rel) */
    S.to = iv;
    S.from = iv + P;
    for (int r = 0; r < P; r++) {
        in[r] = arr[r];
        S.t[r] = arr[r];
        S.snext[r] = -INFINITY;
        S.rlast[r] = -INFINITY;
        S.arrv[r] = arr[r];
    }
    int rc = 0;
    double b = bytes / P;
    switch (k) {
    case PP_COLL_BCAST:
        if (a == PP_ALG_BINOMIAL)
            tree_down(&S, root, bytes, 0, in);
        else if (a == PP_ALG_LINEAR)
            linear_down(&S, root, bytes, in);
        else {
            tree_down(&S, root, b, 1, in);
            ring_steps(&S, P - 1, b, 0);
        }
        break;
    case PP_COLL_REDUCE:
        if (a == PP_ALG_BINOMIAL)
            tree_up(&S, root, bytes, 0);
        else if (a == PP_ALG_LINEAR)
            linear_up(&S, root, bytes, 1);
        else {
            ring_steps(&S, P - 1, b, b);
            tree_up(&S, root, b, 1);
        }
        break;
    case PP_COLL_ALLREDUCE:
        if (a == PP_ALG_RING) {
            ring_steps(&S, P - 1, b, b);
            ring_steps(&S, P - 1, b, 0);
        } else {
            recursive_doubling(&S, bytes);
        }
        break;
    case PP_COLL_GATHER:
        if (a == PP_ALG_BINOMIAL)
            tree_up(&S, root, bytes, 1);
        else
            linear_up(&S, root, bytes, 0);
        break;
    case PP_COLL_SCATTER:
        if (a == PP_ALG_BINOMIAL)
            tree_down(&S, root, bytes, 1, in);
        else
            linear_down(&S, root, bytes, in);
        break;
    case PP_COLL_ALLGATHER:
        if (a == PP_ALG_RING)
            ring_steps(&S, P - 1, bytes, 0);
        else if (a == PP_ALG_RECURSIVE_DOUBLING)
            allgather_rd(&S, bytes);
        else
            allgather_bruck(&S, bytes);
        break;
    case PP_COLL_ALLTOALL:
        if (a == PP_ALG_PAIRWISE)
            alltoall_pairwise(&S, bytes);
        else if (a == PP_ALG_BRUCK)
            alltoall_bruck(&S, bytes);
        else
            rc = alltoall_linear(&S, bytes, in);
        break;
    case PP_COLL_BARRIER:
        if (a == PP_ALG_DISSEMINATION)
            barrier_dissemination(&S);
        else if (a == PP_ALG_LINEAR)
            rc = barrier_linear(&S);
        else
            recursive_doubling(&S, 0);
        break;
    default:
        rc = -1;
    }
    if (rc == 0)
        for (int r = 0; r < P; r++)
            rel[r] = S.t[r] > in[r] ? S.t[r] : in[r];
    free(d);
    free(iv);
    return rc;
}
