/* net.h - the network of an MPI machine: LogGP (Alexandrov et al. 1995)
 * point-to-point costs and the collective algorithms real MPIs use,
 * evaluated for the ranks' arrival times at a collective.
 *
 * A message of m bytes sent by a rank at time t (docs/machine-format.md,
 * "MPI network (LogGP)"):
 *   - the sender is busy s(m) = o + max(m-1, 0) G;
 *   - the data are at the receiver at t + s(m) + L;
 *   - the receiver, once it is ready too, finishes o later:
 *     recv done = max(receiver ready, arrival) + o;
 *   - two sends by one rank start at least max(g, s(m)) apart, and two
 *     messages arrive at one rank at least max(g, (m-1) G) apart;
 *   - a message larger than eager_bytes (rendezvous) leaves only after a
 *     request and a reply (each o + L): the data start at
 *     D = max(t + o + L, receiver posted) + o + L.
 * Collectives are simulated rank by rank with these costs, each rank from
 * its own arrival time.  Cost of a call: O(P log P) for the tree,
 * recursive-doubling, Bruck and dissemination algorithms, O(P^2) for the
 * ring, pairwise and linear all-to-all ones (P^2 messages) - except with
 * every rank arriving at once, when the symmetric ones take their closed
 * form (pp_net_set_shortcut).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_NET_H
#define PERFPRED_NET_H

typedef enum {
    PP_COLL_BCAST, PP_COLL_REDUCE, PP_COLL_ALLREDUCE, PP_COLL_GATHER, PP_COLL_SCATTER,
    PP_COLL_ALLGATHER, PP_COLL_ALLTOALL, PP_COLL_BARRIER, PP_COLL_N
} pp_coll;

/* "bcast", "reduce", "allreduce", "gather", "scatter", "allgather",
 * "alltoall", "barrier"; NULL out of range. */
const char *pp_coll_name(pp_coll k);
/* 1 for the collectives with a root (bcast, reduce, gather, scatter). */
int pp_coll_rooted(pp_coll k);

typedef enum {
    PP_ALG_AUTO,               /* resolved by pp_net_alg (the AUTO rules)        */
    PP_ALG_BINOMIAL,           /* bcast, reduce, gather, scatter                 */
    PP_ALG_LINEAR,             /* bcast, reduce, gather, scatter, alltoall,
                                  barrier                                         */
    PP_ALG_RECURSIVE_DOUBLING, /* allreduce, allgather (P a power of two, else
                                  Bruck, as Open MPI), barrier                    */
    PP_ALG_RING,               /* allreduce, allgather                           */
    PP_ALG_DISSEMINATION,      /* barrier                                        */
    PP_ALG_PAIRWISE,           /* alltoall                                       */
    PP_ALG_BRUCK,              /* allgather                                      */
    PP_ALG_SCATTER_ALLGATHER,  /* bcast: binomial scatter + ring allgather
                                  (van de Geijn)                                  */
    PP_ALG_REDUCE_SCATTER_GATHER, /* reduce: ring reduce-scatter + binomial
                                  gather (Rabenseifner's shape)                   */
    PP_ALG_N
} pp_alg;

typedef struct pp_net {
    double L;        /* latency, ns */
    double o;        /* overhead per message at each end (sender and receiver), ns */
    double g;        /* gap: minimum interval between two messages sent (or received) by one rank, ns */
    double G;        /* gap per byte, ns per byte (1/bandwidth) */
    double gamma;    /* ns per byte to combine two buffers in a reduction (MPI_SUM of doubles) */
    double eager_bytes; /* messages up to this size are sent eagerly (the send completes locally);
                           larger ones wait for the receive (rendezvous) */
    pp_alg alg[PP_COLL_N];  /* the algorithm per collective; PP_ALG_AUTO = the AUTO rules (pp_net_alg) */
    int ranks_per_node;     /* ranks sharing one node's processors: the compute slowdown
                               (scale.compute) is taken at min(active ranks, ranks_per_node);
                               0 = all ranks on one node (this host) */
    int source;             /* 0 = hand (machine file), 1 = measured by calibrate --mpi,
                               2 = built-in default, 3 = PRAM */
} pp_net;

/* Every cost 0 (and every message eager): the PRAM (data dependences only). */
void pp_net_pram(pp_net *n);
/* Conservative built-in figures for ranks on one shared-memory host
 * (docs/machine-format.md, "MPI network (LogGP)", defaults). */
void pp_net_default(pp_net *n);

/* ---- point-to-point pieces the traversal composes (bytes >= 0) ---------- */

int    pp_net_is_eager(const pp_net *n, double bytes);
/* The sender's own time in a blocking send or in posting an Isend:
 * o + (bytes>1 ? (bytes-1)*G : 0) */
double pp_net_send_ns(const pp_net *n, double bytes);
/* From the end of the sender's send_ns to the data being at the receiver: L */
double pp_net_wire_ns(const pp_net *n, double bytes);
/* The receiver's own time once the data is there: o */
double pp_net_recv_ns(const pp_net *n, double bytes);
/* A matched blocking MPI_Send (called at ts) and MPI_Recv (called at tr),
 * nothing else in flight: when each returns.  Eager: send_done = ts +
 * send_ns, recv_done = max(tr, send_done + L) + o.  Rendezvous: the data
 * start at D = max(ts + o + L, tr) + o + L, send_done = D + send_ns,
 * recv_done = send_done + L + o. */
void pp_net_p2p(const pp_net *n, double bytes, double ts, double tr, double *send_done,
                double *recv_done);

/* ---- collectives --------------------------------------------------------- */

#define PP_NET_MAX_P (1 << 24)   /* the most ranks a collective may have */

/* A collective on P ranks: arr[r] is when rank r enters it (ns); fills
 * rel[r], when rank r leaves it (rel[r] >= arr[r]).  bytes: the count*type
 * size the call passes (for gather/scatter/allgather/alltoall: the block
 * per rank, as MPI's count means).  root: for bcast/reduce/gather/scatter
 * (0..P-1), ignored otherwise.  Returns 0, or -1 (bad P (1..PP_NET_MAX_P)/root/kind, an
 * algorithm the collective does not have, or out of memory).  For P = 1,
 * rel = arr.  arr and rel may be the same array. */
int pp_net_collective(const pp_net *n, pp_coll k, int P, int root, double bytes, const double *arr,
                      double *rel);

/* Tests only: 0 makes pp_net_collective simulate every call.  By default
 * a symmetric algorithm (ring, pairwise, Bruck, dissemination, linear
 * all-to-all: O(P^2) to simulate for some) with every rank arriving at the
 * same time and g <= L + 2o takes its closed form, which the simulation
 * equals (tests/unit/test_net.c checks it with the shortcut off). */
void pp_net_set_shortcut(int on);

/* The algorithm actually used for (k, P, bytes) after resolving AUTO (and
 * recursive doubling for an allgather on P not a power of two, which is
 * Bruck's, as in Open MPI); PP_ALG_AUTO when k is out of range or the
 * algorithm set is not one k has. */
pp_alg pp_net_alg(const pp_net *n, pp_coll k, int P, double bytes);
/* "auto", "binomial", "linear", "recursive_doubling", "ring",
 * "dissemination", "pairwise", "bruck", "scatter_allgather",
 * "reduce_scatter_gather"; NULL out of range. */
const char *pp_alg_name(pp_alg a);
int pp_alg_parse(const char *s, pp_alg *out);   /* 0 or -1 */
/* 1 when collective k has algorithm a (AUTO: always), else 0. */
int pp_net_alg_valid(pp_coll k, pp_alg a);

/* The completion time (the last rank's release) of collective k with
 * algorithm a (not AUTO) when all P ranks arrive together, from the
 * closed forms of docs/machine-format.md (exact for P a power of two,
 * eager messages and g <= L + 2o; otherwise the estimate AUTO compares).
 * -1 for a bad k/a/P. */
double pp_net_closed_form(const pp_net *n, pp_coll k, pp_alg a, int P, double bytes);

/* 1 when P is a power of two (P > 0). */
static inline int pp_net_is_pow2(int P)
{
    return P > 0 && (P & (P - 1)) == 0;
}

/* ceil(log2 P): the rounds of a tree or a doubling over P ranks (0 for
 * P <= 1). */
static inline int pp_net_ceil_log2(int P)
{
    int n = 0;
    while ((1L << n) < P)
        n++;
    return n;
}

/* The ranks sharing one node's processors when P run: min(P, ranks_per_node),
 * or P when ranks_per_node is 0 (all on this host). */
int pp_net_node_ranks(const pp_net *n, int P);

#endif /* PERFPRED_NET_H */
