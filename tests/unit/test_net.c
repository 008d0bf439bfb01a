/* test_net.c - the MPI network model (analysis/net.h): LogGP point to
 * point, every collective algorithm against times worked out by hand
 * (in the comments), the closed forms of docs/machine-format.md against
 * the simulation, P = 1, the PRAM (release = the latest arrival a rank
 * depends on), late roots and late leaves, rendezvous, the AUTO rules,
 * monotonicity and the names.
 *
 * Unless a test says otherwise the network is
 *   L = 1000, o = 100, g = 50, G = 1 ns/byte, gamma = 0, every message eager,
 * so a message of m bytes costs the sender s(m) = o + (m-1)G = 99 + m
 * (m >= 1; s(0) = 100) and is received c(m) = s(m) + L + o = 1199 + m after
 * the send started (c(0) = 1200); a rank's consecutive sends are
 * d(m) = max(g, s(m)) = s(m) apart.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net-fixture.h"
#include "net.h"

#define MAXP 80

static pp_net base(void)
{
    return net_of(1000, 100, 50, 1, 0, 1e9);
}

/* rel of collective k with algorithm a, all arriving at 0 unless arr */
static void run(pp_net n, pp_coll k, pp_alg a, int P, int root, double bytes, const double *arr,
                double *rel)
{
    double zero[MAXP] = {0};
    n.alg[k] = a;
    assert_int_equal(pp_net_collective(&n, k, P, root, bytes, arr ? arr : zero, rel), 0);
    for (int r = 0; r < P; r++)
        assert_true(rel[r] >= (arr ? arr[r] : 0));
}

static double maxv(const double *v, int P)
{
    double m = -INFINITY;
    for (int r = 0; r < P; r++)
        m = fmax(m, v[r]);
    return m;
}

static void expect(const double *rel, const double *want, int P)
{
    for (int r = 0; r < P; r++)
        if (fabs(rel[r] - want[r]) > 1e-9)
            fail_msg("rank %d: got %.3f, want %.3f", r, rel[r], want[r]);
}

/* ---- names, parsing ------------------------------------------------------ */

static void test_names(void **state)
{
    (void)state;
    static const char *const colls[] = {"bcast", "reduce", "allreduce", "gather", "scatter",
                                        "allgather", "alltoall", "barrier"};
    for (int k = 0; k < PP_COLL_N; k++)
        assert_string_equal(pp_coll_name((pp_coll)k), colls[k]);
    assert_null(pp_coll_name(PP_COLL_N));
    /* every algorithm's name parses back to it */
    for (int a = 0; a < PP_ALG_N; a++) {
        const char *s = pp_alg_name((pp_alg)a);
        assert_non_null(s);
        pp_alg b = PP_ALG_N;
        assert_int_equal(pp_alg_parse(s, &b), 0);
        assert_int_equal(b, a);
    }
    assert_string_equal(pp_alg_name(PP_ALG_BINOMIAL), "binomial");
    assert_string_equal(pp_alg_name(PP_ALG_RECURSIVE_DOUBLING), "recursive_doubling");
    assert_null(pp_alg_name(PP_ALG_N));
    pp_alg b = PP_ALG_RING;
    assert_int_equal(pp_alg_parse("tree", &b), -1);
    assert_int_equal(pp_alg_parse("", &b), -1);
    assert_int_equal(pp_alg_parse("Binomial", &b), -1);
    assert_int_equal(pp_alg_parse(NULL, &b), -1);
    assert_int_equal(b, PP_ALG_RING);      /* untouched on failure */
    /* which collective has which algorithm */
    assert_true(pp_net_alg_valid(PP_COLL_BCAST, PP_ALG_BINOMIAL));
    assert_true(pp_net_alg_valid(PP_COLL_BCAST, PP_ALG_AUTO));
    assert_false(pp_net_alg_valid(PP_COLL_BCAST, PP_ALG_RING));
    assert_true(pp_net_alg_valid(PP_COLL_ALLREDUCE, PP_ALG_RING));
    assert_false(pp_net_alg_valid(PP_COLL_ALLREDUCE, PP_ALG_BINOMIAL));
    assert_true(pp_net_alg_valid(PP_COLL_BARRIER, PP_ALG_DISSEMINATION));
    assert_false(pp_net_alg_valid(PP_COLL_BARRIER, PP_ALG_PAIRWISE));
    assert_false(pp_net_alg_valid(PP_COLL_N, PP_ALG_AUTO));
}

/* ---- point to point -------------------------------------------------------- */

static void test_p2p(void **state)
{
    (void)state;
    pp_net n = base();
    assert_float_equal(pp_net_send_ns(&n, 0), 100, 0);
    assert_float_equal(pp_net_send_ns(&n, 1), 100, 0);
    assert_float_equal(pp_net_send_ns(&n, 8), 107, 0);
    assert_float_equal(pp_net_wire_ns(&n, 8), 1000, 0);
    assert_float_equal(pp_net_recv_ns(&n, 8), 100, 0);
    double sd, rd;
    /* eager, receiver waiting: send returns at 107, data there at 1107,
     * received at 1207 */
    pp_net_p2p(&n, 8, 0, 0, &sd, &rd);
    assert_float_equal(sd, 107, 0);
    assert_float_equal(rd, 1207, 0);
    /* eager, receiver late (5000): it finds the data there, 5100 */
    pp_net_p2p(&n, 8, 0, 5000, &sd, &rd);
    assert_float_equal(sd, 107, 0);
    assert_float_equal(rd, 5100, 0);
    /* rendezvous (eager limit 4): request and reply first, D = max(0 + 1100,
     * 0) + 1100 = 2200; send done 2307; received 2307 + 1000 + 100 = 3407 */
    n.eager_bytes = 4;
    assert_true(pp_net_is_eager(&n, 4));
    assert_false(pp_net_is_eager(&n, 8));
    pp_net_p2p(&n, 8, 0, 0, &sd, &rd);
    assert_float_equal(sd, 2307, 0);
    assert_float_equal(rd, 3407, 0);
    /* rendezvous, receiver late (10000): D = 10000 + 1100, the sender waits */
    pp_net_p2p(&n, 8, 0, 10000, &sd, &rd);
    assert_float_equal(sd, 11207, 0);
    assert_float_equal(rd, 12307, 0);
}

/* ---- broadcast ---------------------------------------------------------------- */

/* Binomial broadcast of 8 bytes, P = 8, root 0 (s = 107, c = 1207):
 *   round 1: 0 sends to 4 at 0 (4 has it at 1207), to 2 at 107 (1314), to 1
 *            at 214 (1421); 0 leaves at 321
 *   4 sends to 6 at 1207 (6: 2414) and to 5 at 1314 (5: 2521), leaves 1421
 *   2 sends to 3 at 1314 (3: 2521), leaves 1421; 1 leaves at 1421
 *   6 sends to 7 at 2414 (7: 3621), leaves 2521
 * = 3 c(8) = 3621 for the last rank. */
static void test_bcast_binomial(void **state)
{
    (void)state;
    double rel[MAXP];
    const double want[8] = {321, 1421, 1421, 2521, 1421, 2521, 2521, 3621};
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 0, 8, NULL, rel);
    expect(rel, want, 8);
    /* root 3: the same tree over relative ranks (r - 3) mod 8 */
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 3, 8, NULL, rel);
    for (int v = 0; v < 8; v++)
        assert_float_equal(rel[(v + 3) % 8], want[v], 1e-9);
    /* P = 5: 0 sends to 4 (1207), 2 (1314), 1 (1421); 2 to 3 at 1314 (2521) */
    const double w5[5] = {321, 1421, 1421, 2521, 1207};
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 5, 0, 8, NULL, rel);
    expect(rel, w5, 5);
}

/* Linear broadcast, P = 4: the root sends to 1, 2, 3 at 0, 107, 214. */
static void test_bcast_linear(void **state)
{
    (void)state;
    double rel[MAXP];
    const double want[4] = {321, 1207, 1314, 1421};
    run(base(), PP_COLL_BCAST, PP_ALG_LINEAR, 4, 0, 8, NULL, rel);
    expect(rel, want, 4);
}

/* Scatter + ring allgather broadcast of 8000 bytes on P = 4 (blocks of
 * 2000, s(2000) = 2099, c(2000) = 3199; sends of 4000: s = 4099):
 *   scatter: 0 sends 4000 to 2 at 0 (2: 5199), 2000 to 1 at 4099 (1: 7298);
 *            2 sends 2000 to 3 at 5199 (3: 8398); 0 is free at 6198
 *   ring step 1 (send to r+1 at one's clock, receive from r-1):
 *            sends at 6198, 7298, 7298, 8398 -> data at 9297 (1), 10397
 *            (2), 10397 (3), 11497 (0); clocks 11597, 9497, 10497, 10597
 *            (rank 1's data wait for its send to end: 9397 + 100)
 *   step 2:  data at 14696 (1), 12596 (2), 13596 (3), 13696 (0);
 *            clocks 13796, 14796, 12696, 13696
 *   step 3:  data at 16895 (1), 17895 (2), 15795 (3), 16795 (0);
 *            clocks 16895, 16995, 17995, 15895
 * (no receiving gap binds: arrivals at a rank are > 1999 apart). */
static void test_bcast_scatter_allgather(void **state)
{
    (void)state;
    double rel[MAXP];
    const double want[4] = {16895, 16995, 17995, 15895};
    run(base(), PP_COLL_BCAST, PP_ALG_SCATTER_ALLGATHER, 4, 0, 8000, NULL, rel);
    expect(rel, want, 4);
}

/* ---- reduce ---------------------------------------------------------------- */

/* Binomial reduce of 8 bytes, P = 4, gamma = 1 (8 ns per combine):
 *   3 sends to 2 at 0: 2 has it at 1207, combined 1215, sends to 0
 *   1 sends to 0 at 0: 0 has it at 1207, combined 1215
 *   then 0 receives from 2 (sent at 1215): 1215 + 1207 = 2422, combined 2430
 * leaving: 0 at 2430, 1 at 107, 2 at 1322, 3 at 107. */
static void test_reduce_binomial(void **state)
{
    (void)state;
    double rel[MAXP];
    pp_net n = net_of(1000, 100, 50, 1, 1, 1e9);
    const double want[4] = {2430, 107, 1322, 107};
    run(n, PP_COLL_REDUCE, PP_ALG_BINOMIAL, 4, 0, 8, NULL, rel);
    expect(rel, want, 4);
    /* root 1: rank (v + 1) mod 4 plays v */
    run(n, PP_COLL_REDUCE, PP_ALG_BINOMIAL, 4, 1, 8, NULL, rel);
    for (int v = 0; v < 4; v++)
        assert_float_equal(rel[(v + 1) % 4], want[v], 1e-9);
}

/* Linear reduce, P = 4, gamma = 1: all send at 0; data at 1107, but two
 * messages arrive at one rank at least max(g, 7) = 50 apart: 1107, 1157,
 * 1207 (from 3, 2, 1, the order Open MPI takes them).  The root: 1107 +
 * 100 + 8 = 1215; max(1215, 1157) + 108 = 1323; max(1323, 1207) + 108 =
 * 1431. */
static void test_reduce_linear(void **state)
{
    (void)state;
    double rel[MAXP];
    pp_net n = net_of(1000, 100, 50, 1, 1, 1e9);
    const double want[4] = {1431, 107, 107, 107};
    run(n, PP_COLL_REDUCE, PP_ALG_LINEAR, 4, 0, 8, NULL, rel);
    expect(rel, want, 4);
    /* rank 1 arrives at 5000: the root first takes 3 (1215) and 2 (1323),
     * then waits for 1's data (5000 + 1107): 6107 + 108 = 6215.  (Taken in
     * the order 1, 2, 3 it would be 6431.) */
    const double arr[4] = {0, 5000, 0, 0};
    run(n, PP_COLL_REDUCE, PP_ALG_LINEAR, 4, 0, 8, arr, rel);
    assert_float_equal(rel[0], 6215, 1e-9);
}

/* Reduce-scatter + gather, P = 4, 8000 bytes (blocks of 2000), gamma = 0:
 * three ring steps of c(2000) = 3199, then a binomial gather of one block
 * per rank: 1 -> 0 (2000 bytes, 3199) and 3 -> 2, then 2 -> 0 (4000 bytes,
 * c = 5199): 3 x 3199 + 3199 + 5199 = 17995. */
static void test_reduce_scatter_gather(void **state)
{
    (void)state;
    double rel[MAXP];
    run(base(), PP_COLL_REDUCE, PP_ALG_REDUCE_SCATTER_GATHER, 4, 0, 8000, NULL, rel);
    assert_float_equal(rel[0], 17995, 1e-9);
    assert_float_equal(maxv(rel, 4), 17995, 1e-9);
}

/* ---- allreduce ---------------------------------------------------------------- */

/* Recursive doubling, 8 bytes, gamma = 1: P = 4 is two exchanges of
 * c(8) + 8 = 1215 each: everyone leaves at 2430.
 * P = 3 (pof2 = 2, rem = 1):
 *   pre:  0 sends to 1 at 0 (0 free at 107); 1 has it at 1207, combined 1215
 *   RD:   1 (at 1215) and 2 (at 0) exchange: 2's data reach 1 at 1107, and
 *         after the gap behind the pre-step's message (1107 + 50) at 1157;
 *         1 sends at 1215 (free at 1322), receives at max(1322, 1157) + 100
 *         = 1422, combined 1430.  1's data reach 2 at 1215 + 1107 = 2322:
 *         2 leaves at 2422 + 8 = 2430
 *   post: 1 sends the result to 0 at 1430 (free at 1537): 0 has it at
 *         2537 + 100 = 2637. */
static void test_allreduce_rd(void **state)
{
    (void)state;
    double rel[MAXP];
    pp_net n = net_of(1000, 100, 50, 1, 1, 1e9);
    const double w4[4] = {2430, 2430, 2430, 2430};
    run(n, PP_COLL_ALLREDUCE, PP_ALG_RECURSIVE_DOUBLING, 4, 0, 8, NULL, rel);
    expect(rel, w4, 4);
    const double w3[3] = {2637, 1537, 2430};
    run(n, PP_COLL_ALLREDUCE, PP_ALG_RECURSIVE_DOUBLING, 3, 0, 8, NULL, rel);
    expect(rel, w3, 3);
}

/* Ring allreduce, P = 4, 8000 bytes, gamma = 0.5: blocks of 2000 bytes,
 * each step c(2000) = 3199; the three reduce-scatter steps also combine
 * 2000 bytes (1000 ns): 3 x 4199 + 3 x 3199 = 22194 for every rank. */
static void test_allreduce_ring(void **state)
{
    (void)state;
    double rel[MAXP];
    pp_net n = net_of(1000, 100, 50, 1, 0.5, 1e9);
    run(n, PP_COLL_ALLREDUCE, PP_ALG_RING, 4, 0, 8000, NULL, rel);
    for (int r = 0; r < 4; r++)
        assert_float_equal(rel[r], 22194, 1e-9);
}

/* ---- gather, scatter -------------------------------------------------------- */

/* Binomial gather of 8-byte blocks, P = 8: a rank first takes its
 * children's subtrees, smallest first: 1 -> 0, 3 -> 2, 5 -> 4, 7 -> 6
 * (8 bytes, 1207); 2 -> 0, 6 -> 4 (16 bytes, sent at 1207, + 1215 =
 * 2422); 4 -> 0 (32 bytes, sent at 2422, + 1231 = 3653). */
static void test_gather(void **state)
{
    (void)state;
    double rel[MAXP];
    run(base(), PP_COLL_GATHER, PP_ALG_BINOMIAL, 8, 0, 8, NULL, rel);
    assert_float_equal(rel[0], 3653, 1e-9);
    assert_float_equal(rel[4], 2422 + 131, 1e-9);   /* its send of 32 bytes */
    assert_float_equal(rel[7], 107, 1e-9);
    /* linear, P = 4: arrivals at 1107, 1157, 1207; the root 1207, 1307, 1407 */
    run(base(), PP_COLL_GATHER, PP_ALG_LINEAR, 4, 0, 8, NULL, rel);
    assert_float_equal(rel[0], 1407, 1e-9);
}

/* Binomial scatter of 8-byte blocks, P = 8: 0 sends 32 bytes to 4 at 0
 * (s = 131: 4 has them at 1231), 16 to 2 at 131 (s = 115: 1346), 8 to 1
 * at 246 (1453); 4 sends 16 to 6 at 1231 (2446), 8 to 5 at 1346 (2553);
 * 2 sends 8 to 3 at 1346 (2553); 6 sends 8 to 7 at 2446 (3653). */
static void test_scatter(void **state)
{
    (void)state;
    double rel[MAXP];
    const double want[8] = {353, 1453, 1453, 2553, 1453, 2553, 2553, 3653};
    run(base(), PP_COLL_SCATTER, PP_ALG_BINOMIAL, 8, 0, 8, NULL, rel);
    expect(rel, want, 8);
    /* linear, P = 4: as the linear broadcast */
    const double w4[4] = {321, 1207, 1314, 1421};
    run(base(), PP_COLL_SCATTER, PP_ALG_LINEAR, 4, 0, 8, NULL, rel);
    expect(rel, w4, 4);
}

/* ---- allgather, alltoall ------------------------------------------------------ */

static void test_allgather(void **state)
{
    (void)state;
    double rel[MAXP];
    /* ring, P = 4: three steps of c(8) = 1207 */
    run(base(), PP_COLL_ALLGATHER, PP_ALG_RING, 4, 0, 8, NULL, rel);
    assert_float_equal(maxv(rel, 4), 3621, 1e-9);
    assert_float_equal(rel[0], 3621, 1e-9);
    /* recursive doubling, P = 4: c(8) + c(16) = 1207 + 1215 */
    run(base(), PP_COLL_ALLGATHER, PP_ALG_RECURSIVE_DOUBLING, 4, 0, 8, NULL, rel);
    assert_float_equal(rel[3], 2422, 1e-9);
    /* Bruck, P = 5: distances 1, 2, 4 send 1, 2, min(4, 1) = 1 blocks:
     * 1207 + 1215 + 1207 = 3629; recursive doubling on P = 5 is Bruck's */
    run(base(), PP_COLL_ALLGATHER, PP_ALG_BRUCK, 5, 0, 8, NULL, rel);
    assert_float_equal(maxv(rel, 5), 3629, 1e-9);
    pp_net n = base();
    n.alg[PP_COLL_ALLGATHER] = PP_ALG_RECURSIVE_DOUBLING;
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLGATHER, 5, 8), PP_ALG_BRUCK);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLGATHER, 8, 8), PP_ALG_RECURSIVE_DOUBLING);
    double rel2[MAXP];
    run(base(), PP_COLL_ALLGATHER, PP_ALG_RECURSIVE_DOUBLING, 5, 0, 8, NULL, rel2);
    expect(rel2, rel, 5);
}

static void test_alltoall(void **state)
{
    (void)state;
    double rel[MAXP];
    /* pairwise, P = 4: three exchanges of c(8) */
    run(base(), PP_COLL_ALLTOALL, PP_ALG_PAIRWISE, 4, 0, 8, NULL, rel);
    assert_float_equal(maxv(rel, 4), 3621, 1e-9);
    /* Bruck, P = 4: distance 1 sends blocks 1 and 3 (16 bytes), distance
     * 2 blocks 2 and 3 (16 bytes): 2 x 1215 */
    run(base(), PP_COLL_ALLTOALL, PP_ALG_BRUCK, 4, 0, 8, NULL, rel);
    assert_float_equal(maxv(rel, 4), 2430, 1e-9);
    /* linear, P = 4: each rank sends three messages at 0, 107, 214 (free
     * at 321); its messages arrive at 1107, 1214, 1321 and take 100 each:
     * 1421 */
    run(base(), PP_COLL_ALLTOALL, PP_ALG_LINEAR, 4, 0, 8, NULL, rel);
    for (int r = 0; r < 4; r++)
        assert_float_equal(rel[r], 1421, 1e-9);
}

/* ---- barrier ------------------------------------------------------------------ */

static void test_barrier(void **state)
{
    (void)state;
    double rel[MAXP];
    /* dissemination, P = 5: ceil(log2 5) = 3 rounds of 0-byte messages,
     * each L + 2o = 1200 */
    run(base(), PP_COLL_BARRIER, PP_ALG_DISSEMINATION, 5, 0, 0, NULL, rel);
    for (int r = 0; r < 5; r++)
        assert_float_equal(rel[r], 3600, 1e-9);
    /* recursive doubling, P = 8: 3 exchanges */
    run(base(), PP_COLL_BARRIER, PP_ALG_RECURSIVE_DOUBLING, 8, 0, 0, NULL, rel);
    assert_float_equal(maxv(rel, 8), 3600, 1e-9);
    /* linear, P = 4: 1, 2, 3 send at 0; 0-byte arrivals 1100, 1150, 1200
     * (the receiving gap); rank 0 has them at 1200, 1300, 1400, answers
     * at 1400, 1500, 1600 (free at 1700): 1, 2, 3 have the answers at
     * 2600, 2700, 2800 */
    run(base(), PP_COLL_BARRIER, PP_ALG_LINEAR, 4, 0, 0, NULL, rel);
    const double want[4] = {1700, 2600, 2700, 2800};
    expect(rel, want, 4);
}

/* ---- rendezvous --------------------------------------------------------------- */

/* Binomial broadcast of 8 bytes, P = 4, eager limit 4 (h = 2(o+L) = 2200):
 *   0 -> 2: request at 0, data at 2200, send done 2307, 2 has it at 3407
 *   0 -> 1: from 2307, data at 4507, done 4614, 1 has it at 5714
 *   2 -> 3: from 3407, data at 5607, done 5714, 3 has it at 6814
 * = 2 (c + h).  A leaf that arrives late now holds its sender up. */
static void test_rendezvous(void **state)
{
    (void)state;
    double rel[MAXP];
    pp_net n = net_of(1000, 100, 50, 1, 0, 4);
    const double want[4] = {4614, 5714, 5714, 6814};
    run(n, PP_COLL_BCAST, PP_ALG_BINOMIAL, 4, 0, 8, NULL, rel);
    expect(rel, want, 4);
    double arr[4] = {0, 20000, 0, 0};
    /* 0 -> 1 is sent second: request at 2307, reply once 1 posts at 20000:
     * data at 21100, the root is done at 21207 */
    run(n, PP_COLL_BCAST, PP_ALG_BINOMIAL, 4, 0, 8, arr, rel);
    assert_float_equal(rel[0], 21207, 1e-9);
    /* eager: the root does not wait for it (two sends: 214) */
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 4, 0, 8, arr, rel);
    assert_float_equal(rel[0], 214, 1e-9);
    assert_float_equal(rel[1], 20100, 1e-9);
}

/* ---- late arrivals -------------------------------------------------------------- */

static void test_late_root_and_leaf(void **state)
{
    (void)state;
    double rel[MAXP], base_rel[MAXP];
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 0, 8, NULL, base_rel);
    /* a late root delays everyone by its lateness */
    double arr[MAXP] = {5000, 0, 0, 0, 0, 0, 0, 0};
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 0, 8, arr, rel);
    for (int r = 0; r < 8; r++)
        assert_float_equal(rel[r], base_rel[r] + 5000, 1e-9);
    /* a late leaf (7, child of 6) delays only itself: it finds the data
     * there and leaves 100 after arriving */
    memset(arr, 0, sizeof arr);
    arr[7] = 10000;
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 0, 8, arr, rel);
    for (int r = 0; r < 7; r++)
        assert_float_equal(rel[r], base_rel[r], 1e-9);
    assert_float_equal(rel[7], 10100, 1e-9);
    /* a late inner rank (4) delays its subtree 4, 5, 6, 7 only */
    memset(arr, 0, sizeof arr);
    arr[4] = 10000;
    run(base(), PP_COLL_BCAST, PP_ALG_BINOMIAL, 8, 0, 8, arr, rel);
    for (int r = 0; r < 4; r++)
        assert_float_equal(rel[r], base_rel[r], 1e-9);
    for (int r = 4; r < 8; r++)
        assert_true(rel[r] > 10000);
    /* in a reduction it is the other way round: a late leaf delays the
     * root, the root's own lateness only itself */
    memset(arr, 0, sizeof arr);
    arr[7] = 10000;
    run(base(), PP_COLL_REDUCE, PP_ALG_BINOMIAL, 8, 0, 8, arr, rel);
    assert_true(rel[0] > 10000 + 3 * 1207 - 1);
    memset(arr, 0, sizeof arr);
    arr[0] = 10000;
    run(base(), PP_COLL_REDUCE, PP_ALG_BINOMIAL, 8, 0, 8, arr, rel);
    assert_float_equal(rel[4], 2414 + 107, 1e-9);   /* sent, eagerly */
}

/* ---- P = 1, PRAM ------------------------------------------------------------------ */

static void each_alg(void (*fn)(pp_coll, pp_alg))
{
    for (int k = 0; k < PP_COLL_N; k++)
        for (int a = 1; a < PP_ALG_N; a++)
            if (pp_net_alg_valid((pp_coll)k, (pp_alg)a))
                fn((pp_coll)k, (pp_alg)a);
}

static void one_rank(pp_coll k, pp_alg a)
{
    double arr[1] = {1234.5}, rel[1];
    pp_net n = base();
    n.alg[k] = a;
    assert_int_equal(pp_net_collective(&n, k, 1, 0, 4096, arr, rel), 0);
    assert_float_equal(rel[0], 1234.5, 0);
    assert_float_equal(pp_net_closed_form(&n, k, a, 1, 4096), 0, 0);
}

static void test_one_rank(void **state)
{
    (void)state;
    each_alg(one_rank);
}

static unsigned lcg = 12345;
static double rnd(void)
{
    lcg = lcg * 1103515245u + 12345u;
    return (double)((lcg >> 8) % 100000);
}

/* the relative rank v's ancestors in the binomial tree include v */
static double path_max(const double *arr, int P, int root, int v)
{
    double m = -INFINITY;
    for (;;) {
        m = fmax(m, arr[(v + root) % P]);
        if (v == 0)
            return m;
        v &= v - 1;   /* clear the lowest set bit: the parent */
    }
}

static double subtree_max(const double *arr, int P, int root, int v)
{
    int low = 1;
    while (low < P && !(v & low))
        low <<= 1;
    int end = v == 0 ? P : (v + low < P ? v + low : P);
    double m = -INFINITY;
    for (int u = v; u < end; u++)
        m = fmax(m, arr[(u + root) % P]);
    return m;
}

static void pram(pp_coll k, pp_alg a)
{
    pp_net n;
    pp_net_pram(&n);
    n.alg[k] = a;
    double arr[MAXP], rel[MAXP];
    for (int P = 1; P <= 19; P++)
        for (int root = 0; root < P; root += 3) {
            for (int r = 0; r < P; r++)
                arr[r] = rnd();
            double all = maxv(arr, P);
            double bytes = 1 << (P % 12);
            assert_int_equal(pp_net_collective(&n, k, P, root, bytes, arr, rel), 0);
            for (int r = 0; r < P; r++) {
                int v = (r - root + P) % P;
                double want = all;
                if ((k == PP_COLL_BCAST || k == PP_COLL_SCATTER) && a != PP_ALG_SCATTER_ALLGATHER)
                    want = a == PP_ALG_LINEAR ? fmax(arr[r], arr[root]) : path_max(arr, P, root, v);
                if ((k == PP_COLL_REDUCE && a != PP_ALG_REDUCE_SCATTER_GATHER) || k == PP_COLL_GATHER)
                    want = v == 0 ? all : a == PP_ALG_LINEAR ? arr[r] : subtree_max(arr, P, root, v);
                if (rel[r] != want)
                    fail_msg("%s %s P=%d root=%d rank %d: %g, want %g", pp_coll_name(k), pp_alg_name(a), P,
                             root, r, rel[r], want);
            }
        }
}

/* Every cost 0: a rank leaves when the last rank it depends on arrives. */
static void test_pram(void **state)
{
    (void)state;
    each_alg(pram);
}

/* ---- closed forms ------------------------------------------------------------------ */

static const double nets[][6] = {
    /* L, o, g, G, gamma, eager */
    {1000, 100, 50, 1, 0, 1e9},
    {1000, 100, 50, 1, 2, 4},           /* rendezvous above 4 bytes */
    {1500, 300, 400, 0.08, 0.25, 12288},/* the example cluster */
    {500, 250, 250, 0.1, 0.1, 4096},    /* the defaults */
};

static void closed(pp_coll k, pp_alg a)
{
    static const double sizes[] = {0, 1, 8, 100, 4096, 4097, 20000, 1 << 20};
    double arr[MAXP] = {0}, rel[MAXP];
    for (size_t ni = 0; ni < sizeof nets / sizeof *nets; ni++) {
        pp_net n = net_of(nets[ni][0], nets[ni][1], nets[ni][2], nets[ni][3], nets[ni][4], nets[ni][5]);
        n.alg[k] = a;
        for (int P = 2; P <= 70; P++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                if (pp_net_alg(&n, k, P, sizes[si]) != a)
                    continue;      /* recursive-doubling allgather on 2^k +- j */
                assert_int_equal(pp_net_collective(&n, k, P, 0, sizes[si], arr, rel), 0);
                double sim = maxv(rel, P), cf = pp_net_closed_form(&n, k, a, P, sizes[si]);
                /* exact for every P but recursive doubling (P = 2^k only)
                 * and scatter_allgather (a bound) */
                int exact = !((a == PP_ALG_RECURSIVE_DOUBLING && (P & (P - 1)))
                              || a == PP_ALG_SCATTER_ALLGATHER);
                if (exact ? fabs(sim - cf) > 1e-9 * cf : sim > cf * (1 + 1e-12))
                    fail_msg("net %zu %s %s P=%d m=%g: simulated %.3f, closed form %.3f", ni,
                             pp_coll_name(k), pp_alg_name(a), P, sizes[si], sim, cf);
            }
    }
}

static void test_closed_forms(void **state)
{
    (void)state;
    pp_net_set_shortcut(0);     /* simulate every call */
    each_alg(closed);
    pp_net_set_shortcut(1);     /* and with the closed forms taken */
    each_alg(closed);
    pp_net n = base();
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_BCAST, PP_ALG_AUTO, 4, 8), -1, 0);
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_BCAST, PP_ALG_RING, 4, 8), -1, 0);
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_BCAST, PP_ALG_BINOMIAL, 0, 8), -1, 0);
    /* the shortcut applies only to simultaneous arrivals and g <= L + 2o:
     * a rank arriving late, or g > L + 2o, is simulated */
    double arr[8] = {0, 0, 0, 5000, 0, 0, 0, 0}, r1[8], r2[8];
    n.alg[PP_COLL_ALLGATHER] = PP_ALG_RING;
    pp_net_set_shortcut(0);
    assert_int_equal(pp_net_collective(&n, PP_COLL_ALLGATHER, 8, 0, 8, arr, r1), 0);
    pp_net_set_shortcut(1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_ALLGATHER, 8, 0, 8, arr, r2), 0);
    expect(r2, r1, 8);
    assert_true(r1[3] != r1[0]);
    pp_net slow = net_of(100, 10, 200, 1, 0, 1e9);   /* g > L + 2o */
    slow.alg[PP_COLL_ALLGATHER] = PP_ALG_RING;
    double z[8] = {0};
    assert_int_equal(pp_net_collective(&slow, PP_COLL_ALLGATHER, 8, 0, 1, z, r1), 0);
    /* 7 steps, each rank's sends max(g, s) = 200 apart > c(1) = 120 */
    assert_float_equal(maxv(r1, 8), 6 * 200 + 120, 1e-9);
    /* the docs' formulas, on the base network (c(m) = 1199 + m):
     * binomial bcast P = 16: 4 c(m); ring allreduce P = 4, 8000 bytes:
     * 6 c(2000); dissemination barrier P = 9: 4 (L + 2o) */
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_BCAST, PP_ALG_BINOMIAL, 16, 8), 4 * 1207.0, 1e-9);
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_ALLREDUCE, PP_ALG_RING, 4, 8000), 6 * 3199.0, 1e-9);
    assert_float_equal(pp_net_closed_form(&n, PP_COLL_BARRIER, PP_ALG_DISSEMINATION, 9, 0), 4800.0, 1e-9);
}

/* ---- monotone ---------------------------------------------------------------------- */

static void monotone(pp_coll k, pp_alg a)
{
    static const double sizes[] = {0, 1, 8, 64, 100, 1000, 4096, 4097, 65536, 1 << 20};
    double arr[MAXP] = {0}, rel[MAXP];
    for (size_t ni = 0; ni < sizeof nets / sizeof *nets; ni++) {
        pp_net n = net_of(nets[ni][0], nets[ni][1], nets[ni][2], nets[ni][3], nets[ni][4], nets[ni][5]);
        n.alg[k] = a;
        double prevP = 0;
        for (int P = 1; P <= 40; P++) {
            double prev = 0;
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                assert_int_equal(pp_net_collective(&n, k, P, 0, sizes[si], arr, rel), 0);
                double t = maxv(rel, P);
                if (t < prev - 1e-9)
                    fail_msg("%s %s P=%d: %g bytes take %g < %g", pp_coll_name(k), pp_alg_name(a), P,
                             sizes[si], t, prev);
                prev = t;
            }
            /* in P (at 8 bytes): recursive doubling is faster on 2^k ranks
             * than on 2^k - 1 (no pre- and post-step), so it is left out */
            assert_int_equal(pp_net_collective(&n, k, P, 0, 8, arr, rel), 0);
            double t = maxv(rel, P);
            if (a != PP_ALG_RECURSIVE_DOUBLING && t < prevP - 1e-9)
                fail_msg("%s %s: P=%d takes %g < %g at P-1", pp_coll_name(k), pp_alg_name(a), P, t, prevP);
            prevP = t;
        }
        /* a later arrival never lets anyone leave earlier */
        for (int P = 2; P <= 23; P += 7) {
            double a0[MAXP], r0[MAXP], r1[MAXP];
            for (int r = 0; r < P; r++)
                a0[r] = rnd();
            assert_int_equal(pp_net_collective(&n, k, P, 1, 4096, a0, r0), 0);
            for (int j = 0; j < P; j++) {
                a0[j] += 777;
                assert_int_equal(pp_net_collective(&n, k, P, 1, 4096, a0, r1), 0);
                for (int r = 0; r < P; r++)
                    assert_true(r1[r] >= r0[r] - 1e-9);
                memcpy(r0, r1, sizeof r0);
            }
        }
    }
}

static void test_monotone(void **state)
{
    (void)state;
    each_alg(monotone);
}

/* ---- AUTO ---------------------------------------------------------------------------- */

static void test_auto(void **state)
{
    (void)state;
    pp_net n = base();
    assert_int_equal(pp_net_alg(&n, PP_COLL_BCAST, 64, 8), PP_ALG_BINOMIAL);
    assert_int_equal(pp_net_alg(&n, PP_COLL_REDUCE, 4, 8), PP_ALG_LINEAR);      /* P < 8, < 512 B */
    assert_int_equal(pp_net_alg(&n, PP_COLL_REDUCE, 4, 8000), PP_ALG_BINOMIAL);  /* P < 8, < 20 KiB */
    assert_int_equal(pp_net_alg(&n, PP_COLL_REDUCE, 16, 8), PP_ALG_BINOMIAL);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLREDUCE, 1024, 8), PP_ALG_RECURSIVE_DOUBLING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_GATHER, 4, 8), PP_ALG_LINEAR);
    assert_int_equal(pp_net_alg(&n, PP_COLL_GATHER, 16, 8), PP_ALG_BINOMIAL);
    assert_int_equal(pp_net_alg(&n, PP_COLL_GATHER, 100, 4000), PP_ALG_BINOMIAL);
    assert_int_equal(pp_net_alg(&n, PP_COLL_GATHER, 100, 8000), PP_ALG_LINEAR);
    assert_int_equal(pp_net_alg(&n, PP_COLL_SCATTER, 16, 8), PP_ALG_BINOMIAL);
    assert_int_equal(pp_net_alg(&n, PP_COLL_SCATTER, 8, 8), PP_ALG_LINEAR);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLGATHER, 8, 8), PP_ALG_RECURSIVE_DOUBLING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLGATHER, 6, 8), PP_ALG_BRUCK);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLGATHER, 8, 10000), PP_ALG_RING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLTOALL, 16, 8), PP_ALG_BRUCK);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLTOALL, 8, 8), PP_ALG_LINEAR);
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLTOALL, 16, 4096), PP_ALG_PAIRWISE);
    assert_int_equal(pp_net_alg(&n, PP_COLL_BARRIER, 8, 0), PP_ALG_RECURSIVE_DOUBLING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_BARRIER, 6, 0), PP_ALG_DISSEMINATION);
    /* large messages: the cheaper of the tree and the bandwidth-saving
     * algorithm.  Allreduce of 1 MiB on P = 4: recursive doubling 2 c(1 MiB)
     * = 2.1 ms, ring 6 c(256 KiB) = 1.6 ms; broadcast: binomial 2.1 ms,
     * scatter + allgather 0.8 + 0.8 ms; reduce likewise */
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLREDUCE, 4, 1 << 20), PP_ALG_RING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_BCAST, 4, 1 << 20), PP_ALG_SCATTER_ALLGATHER);
    assert_int_equal(pp_net_alg(&n, PP_COLL_REDUCE, 4, 1 << 20), PP_ALG_REDUCE_SCATTER_GATHER);
    n.G = 0.001;   /* near-infinite bandwidth: latency decides, trees win
                    * (P = 64: 6 c(1 MiB) = 13.5 us against 126 steps) */
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLREDUCE, 64, 1 << 20), PP_ALG_RECURSIVE_DOUBLING);
    assert_int_equal(pp_net_alg(&n, PP_COLL_BCAST, 64, 1 << 20), PP_ALG_BINOMIAL);
    /* AUTO runs what it names */
    double rel[MAXP], rel2[MAXP];
    n = base();
    run(n, PP_COLL_ALLREDUCE, PP_ALG_AUTO, 16, 0, 1 << 20, NULL, rel);
    run(n, PP_COLL_ALLREDUCE, pp_net_alg(&n, PP_COLL_ALLREDUCE, 16, 1 << 20), 16, 0, 1 << 20, NULL, rel2);
    expect(rel, rel2, 16);
    /* a fixed algorithm is used whatever the size */
    n.alg[PP_COLL_ALLREDUCE] = PP_ALG_RING;
    assert_int_equal(pp_net_alg(&n, PP_COLL_ALLREDUCE, 16, 8), PP_ALG_RING);
}

/* ---- errors, defaults ------------------------------------------------------------------ */

static void test_errors(void **state)
{
    (void)state;
    pp_net n = base();
    double arr[4] = {0}, rel[4];
    assert_int_equal(pp_net_collective(&n, PP_COLL_BCAST, 0, 0, 8, arr, rel), -1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_BCAST, 4, 4, 8, arr, rel), -1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_BCAST, 4, -1, 8, arr, rel), -1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_N, 4, 0, 8, arr, rel), -1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_BCAST, 4, 0, -1, arr, rel), -1);
    assert_int_equal(pp_net_collective(&n, PP_COLL_BCAST, 4, 0, NAN, arr, rel), -1);
    /* root is ignored where there is none */
    assert_int_equal(pp_net_collective(&n, PP_COLL_BARRIER, 4, 99, 0, arr, rel), 0);
    n.alg[PP_COLL_BARRIER] = PP_ALG_RING;    /* not a barrier algorithm */
    assert_int_equal(pp_net_alg(&n, PP_COLL_BARRIER, 4, 0), PP_ALG_AUTO);
    assert_int_equal(pp_net_collective(&n, PP_COLL_BARRIER, 4, 0, 0, arr, rel), -1);
    /* arr and rel may be one array */
    n = base();
    n.alg[PP_COLL_ALLGATHER] = PP_ALG_RING;
    double io[4] = {0, 500, 0, 0};
    arr[1] = 500;
    assert_int_equal(pp_net_collective(&n, PP_COLL_ALLGATHER, 4, 0, 8, arr, rel), 0);
    assert_int_equal(pp_net_collective(&n, PP_COLL_ALLGATHER, 4, 0, 8, io, io), 0);
    expect(io, rel, 4);
    assert_true(maxv(io, 4) >= 3621);
}

static void test_defaults(void **state)
{
    (void)state;
    pp_net d, p;
    pp_net_default(&d);
    pp_net_pram(&p);
    assert_int_equal(d.source, 2);
    assert_int_equal(p.source, 3);
    assert_true(d.L > 0 && d.o > 0 && d.g > 0 && d.G > 0 && d.gamma > 0 && d.eager_bytes > 0);
    for (int k = 0; k < PP_COLL_N; k++) {
        assert_int_equal(d.alg[k], PP_ALG_AUTO);
        assert_int_equal(p.alg[k], PP_ALG_AUTO);
    }
    assert_true(pp_net_is_eager(&p, 1e18));
    assert_float_equal(pp_net_send_ns(&p, 1e6), 0, 0);
    /* ranks per node */
    assert_int_equal(pp_net_node_ranks(&d, 64), 64);
    d.ranks_per_node = 32;
    assert_int_equal(pp_net_node_ranks(&d, 64), 32);
    assert_int_equal(pp_net_node_ranks(&d, 8), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_p2p),
        cmocka_unit_test(test_bcast_binomial),
        cmocka_unit_test(test_bcast_linear),
        cmocka_unit_test(test_bcast_scatter_allgather),
        cmocka_unit_test(test_reduce_binomial),
        cmocka_unit_test(test_reduce_linear),
        cmocka_unit_test(test_reduce_scatter_gather),
        cmocka_unit_test(test_allreduce_rd),
        cmocka_unit_test(test_allreduce_ring),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_scatter),
        cmocka_unit_test(test_allgather),
        cmocka_unit_test(test_alltoall),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_rendezvous),
        cmocka_unit_test(test_late_root_and_leaf),
        cmocka_unit_test(test_one_rank),
        cmocka_unit_test(test_pram),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
