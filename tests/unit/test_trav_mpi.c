/* test_trav_mpi.c - the MPI traversal on rank graphs built by hand: message
 * matching (source, tag, order, any source), eager and rendezvous times
 * against LogGP values computed by hand, requests and Wait, collectives on
 * the PRAM, and the hang detector on the three ways an MPI program hangs
 * (an unmatched receive, a collective not every rank reaches, a cycle of
 * blocking sends), each reported with the ranks involved.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "net.h"
#include "traverse.h"

static pp_prog prog;   /* empty but for pkind: sites print as '?' */

static void ranks(pp_instance *in, int P)
{
    memset(in, 0, sizeof *in);
    in->P = P;
    in->nthreads = P;
    in->threads = calloc((size_t)P, sizeof *in->threads);
    for (int r = 0; r < P; r++) {
        in->threads[r].kind = PP_IT_RANK;
        in->threads[r].tid = r;
        in->threads[r].parent = -1;
    }
    prog.pkind = PP_P_MPI;
}

static void act(pp_instance *in, int t, pp_akind k, long key, int n, double ns)
{
    pp_ithread *th = &in->threads[t];
    th->act = realloc(th->act, sizeof *th->act * (size_t)(th->nact + 1));
    th->act[th->nact++] = (pp_action){.kind = k, .key = key, .n = n, .ns = ns, .func = -1, .site = -1};
}

/* The last action of thread t is on communicator comm. */
static void on(pp_instance *in, int t, int comm)
{
    in->threads[t].act[in->threads[t].nact - 1].comm = comm;
}

/* The communicators: comms[0] the world, then one per NULL-terminated
 * list of world ranks (in their rank order there), as inst-comm.c builds
 * them; -1 ends a list. */
static void comms(pp_instance *in, int n, const int *const *members)
{
    in->ncomms = n + 1;
    in->comms = calloc((size_t)n + 1, sizeof *in->comms);
    in->comms[0].size = in->P;
    in->comms[0].parent = -1;
    for (int k = 1; k <= n; k++) {
        pp_comm *c = &in->comms[k];
        const int *m = members[k - 1];
        while (m[c->size] >= 0)
            c->size++;
        c->color = k;
        c->world = malloc(sizeof *c->world * (size_t)c->size);
        c->by_world = malloc(sizeof *c->by_world * (size_t)c->size);
        c->pos_of = malloc(sizeof *c->pos_of * (size_t)c->size);
        for (int i = 0; i < c->size; i++)
            c->world[i] = m[i];
        /* sorted by world rank (insertion: the lists are short) */
        for (int i = 0; i < c->size; i++) {
            int j = i;
            while (j > 0 && c->by_world[j - 1] > m[i]) {
                c->by_world[j] = c->by_world[j - 1];
                c->pos_of[j] = c->pos_of[j - 1];
                j--;
            }
            c->by_world[j] = m[i];
            c->pos_of[j] = i;
        }
    }
}

static void free_in(pp_instance *in)
{
    pp_instance_free(in);
}

/* A machine whose network is L = 1000, o = 100, g = 0, G = 1 ns/byte,
 * eager up to 65536 bytes. */
static pp_machine mach;
static const pp_machine *net_machine(void)
{
    pp_machine_default(&mach);
    mach.net.L = 1000;
    mach.net.o = 100;
    mach.net.g = 0;
    mach.net.G = 1;
    mach.net.gamma = 0;
    mach.net.eager_bytes = 65536;
    mach.net.ranks_per_node = 1;   /* ranks on their own nodes: no slowdown */
    return &mach;
}

static int trav(pp_instance *in, const pp_machine *m, pp_trav *tr, char *err, size_t n)
{
    return pp_traverse(&prog, in, m, tr, err, n);
}

/* rank 0 computes 100 ns, sends 8 bytes; rank 1 receives at once:
 * the send takes o + 7G = 107, the data arrives L = 1000 later, the
 * receive ends o = 100 after that: 100 + 107 + 1000 + 100 = 1307. */
static void test_eager_message_time(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_WORK, 0, 0, 100);
    act(&in, 0, PP_A_SEND, 1, 5, 8);
    act(&in, 1, PP_A_RECV, 0, 5, 8);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[0] - 207) < 1e-6);
    assert_true(fabs(tr.finish[1] - 1307) < 1e-6);
    assert_true(fabs(tr.time - 1307) < 1e-6);
    /* the receiver waited 1207 of its 1307 ns in MPI, paid o = 100 */
    assert_true(fabs(tr.mpi[1] - 1307) < 1e-6);
    assert_true(fabs(tr.sync[1] - 100) < 1e-6);
    assert_int_equal(tr.unmatched, 0);
    pp_trav_free(&tr);
    free_in(&in);
}

/* The fitted fixed cost of a segment (the instance's seg_ns = 50) is synchronisation
 * before each call on the real machine, outside the call; the PRAM does
 * not charge it.  test_eager_message_time by hand, with it: rank 0 sends
 * at 100 + 50 and is done 107 later (257); the data is at rank 1 at
 * 150 + 107 + 1000, which posted its receive at 50 and leaves it o = 100
 * after the arrival (1357), 1307 in the call.  On the PRAM the message
 * costs nothing: both end at 100. */
static void test_segment_cost_before_each_call(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_WORK, 0, 0, 100);
    act(&in, 0, PP_A_SEND, 1, 5, 8);
    act(&in, 1, PP_A_RECV, 0, 5, 8);
    in.seg_ns = 50;
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[0] - 257) < 1e-6);
    assert_true(fabs(tr.finish[1] - 1357) < 1e-6);
    assert_true(fabs(tr.sync[0] - (50 + 107)) < 1e-6 && fabs(tr.sync[1] - (50 + 100)) < 1e-6);
    assert_true(fabs(tr.mpi[0] - 107) < 1e-6 && fabs(tr.mpi[1] - 1307) < 1e-6);
    assert_true(fabs(tr.busy[0] - 100) < 1e-6);
    pp_trav_free(&tr);
    assert_int_equal(trav(&in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 100) < 1e-9 && fabs(tr.total_sync) < 1e-9);
    pp_trav_free(&tr);
    free_in(&in);
}

/* The ranks on a node share it: a computation runs at the rate 1 / s(a), a
 * the ranks running at once, and a changes while it runs (processor
 * sharing, as for threads), so the predicted time is continuous in every
 * cost (`perfpred sensitivity` differentiates it).  Two ranks on one
 * node, scale.compute 0.5 + 0.5 a: s(1) = 1, s(2) = 1.5.  Rank 1 computes
 * 100 at rate 1/1.5: done at 150, then it waits in its receive (not
 * running).  Rank 0 has done 150 / 1.5 = 100 of its 300 by then; the other
 * 200 alone at rate 1: done at 350 (a rate taken once at the start would
 * give 300 x 1.5 = 450).  Then its eager send: o + 7G = 107 (457); the data
 * is at rank 1 L = 1000 later and its receive ends o = 100 after: 1557. */
static void test_ranks_share_node(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_WORK, 0, 0, 300);
    act(&in, 0, PP_A_SEND, 1, 5, 8);
    act(&in, 1, PP_A_WORK, 0, 0, 100);
    act(&in, 1, PP_A_RECV, 0, 5, 8);
    net_machine();
    mach.net.ranks_per_node = 2;
    mach.cost[PP_COST_SCALE_COMPUTE] = (pp_model){.kind = PP_MODEL_LINEAR, .a = 0.5, .b = 0.5};
    pp_trav tr;
    char err[1024];
    assert_int_equal(pp_traverse(&prog, &in, &mach, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.busy[1] - 150) < 1e-6);
    assert_true(fabs(tr.busy[0] - 350) < 1e-6);
    assert_true(fabs(tr.finish[0] - 457) < 1e-6);
    assert_true(fabs(tr.finish[1] - 1557) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

/* Above the eager limit the data moves once the receive is posted:
 * posted at 5000, tx = max(0 + o + L, 5000) = 5000, the sender is done at
 * tx + L + (m-1)G, the receiver L + o later. */
static void test_rendezvous_message_time(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    double m = 1 << 20;
    act(&in, 0, PP_A_SEND, 1, 0, m);
    act(&in, 1, PP_A_WORK, 0, 0, 5000);
    act(&in, 1, PP_A_RECV, 0, 0, m);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    double send_done = 5000 + 1000 + (m - 1);
    assert_true(fabs(tr.finish[0] - send_done) < 1e-6);
    assert_true(fabs(tr.finish[1] - (send_done + 1100)) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

/* Messages match by tag, not by order; same-tag messages keep their
 * order.  On the PRAM the times are the data dependences only. */
static void test_matching_by_tag_and_order(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_WORK, 0, 0, 10);
    act(&in, 0, PP_A_SEND, 1, 2, 8);    /* t = 10, tag 2 */
    act(&in, 0, PP_A_WORK, 0, 0, 90);
    act(&in, 0, PP_A_SEND, 1, 1, 8);    /* t = 100, tag 1 */
    act(&in, 1, PP_A_RECV, 0, 1, 8);    /* gets the second: ends at 100 */
    act(&in, 1, PP_A_WORK, 0, 0, 1);
    act(&in, 1, PP_A_RECV, 0, 2, 8);    /* the first, long there: 101 */
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[1] - 101) < 1e-9);
    pp_trav_free(&tr);
    free_in(&in);
}

/* MPI_ANY_SOURCE takes the first message that arrives; every rank's
 * message is received once. */
static void test_any_source(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 4);
    for (int r = 1; r < 4; r++) {
        act(&in, r, PP_A_WORK, 0, 0, 100.0 * r);
        act(&in, r, PP_A_SEND, 0, 7, 8);
    }
    for (int i = 1; i < 4; i++)
        act(&in, 0, PP_A_RECV, PP_MPI_ANY, PP_MPI_ANY, 8);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[0] - 300) < 1e-9);
    assert_int_equal(tr.unmatched, 0);
    pp_trav_free(&tr);
    free_in(&in);
}

/* A neighbour exchange with Isend/Irecv/Waitall on a ring of 4 ranks:
 * no hang, and on the PRAM rank r ends when its left neighbour sent. */
static void test_nonblocking_ring_exchange(void **state)
{
    (void)state;
    pp_instance in;
    int P = 4;
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_WORK, 0, 0, 100.0 * (r + 1));
        act(&in, r, PP_A_IRECV, (r + P - 1) % P, 0, 8);
        act(&in, r, PP_A_ISEND, (r + 1) % P, 0, 1 << 20);   /* rendezvous too */
        act(&in, r, PP_A_WAIT, 0, -1, 0);
    }
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, NULL, &tr, err, sizeof err), 0);
    /* the PRAM buffers every message: rank 0 waits for rank 3's (sent at
     * 400), rank r > 0 only for itself (its left neighbour sent earlier) */
    assert_true(fabs(tr.finish[0] - 400) < 1e-9);
    assert_true(fabs(tr.finish[1] - 200) < 1e-9);
    assert_true(fabs(tr.finish[3] - 400) < 1e-9);
    pp_trav_free(&tr);
    free_in(&in);
}

/* The PRAM broadcast: every rank leaves when both it and the data are
 * there (the root comes last here: everyone leaves at its arrival); a
 * barrier releases every rank at the last arrival. */
static void test_pram_collectives(void **state)
{
    (void)state;
    pp_instance in;
    int P = 5;
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_WORK, 0, 0, r == 2 ? 500 : 10.0 * r);
        act(&in, r, PP_A_COLL, PP_COLL_BCAST, 2, 64);
        act(&in, r, PP_A_WORK, 0, 0, r == 4 ? 1000 : 0);
        act(&in, r, PP_A_COLL, PP_COLL_BARRIER, 0, 0);
    }
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, NULL, &tr, err, sizeof err), 0);
    for (int r = 0; r < P; r++)
        assert_true(fabs(tr.finish[r] - 1500) < 1e-9);
    /* everyone but rank 4 waited in the barrier 1000 ns */
    assert_true(tr.mpi_kind[PP_EV_OTHER] > 0);
    pp_trav_free(&tr);
    free_in(&in);
}

/* A send to MPI_PROC_NULL (-2) completes at once. */
static void test_proc_null(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_SEND, -2, 0, 8);
    act(&in, 0, PP_A_IRECV, -2, 0, 8);
    act(&in, 0, PP_A_WAIT, 0, 1, 0);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    assert_true(tr.finish[0] < 1e-9);
    pp_trav_free(&tr);
    free_in(&in);
}

static void expect_hang(pp_instance *in, const pp_machine *m, const char *const *needles)
{
    pp_trav tr;
    char err[2048];
    assert_int_equal(trav(in, m, &tr, err, sizeof err), -1);
    for (int i = 0; needles[i]; i++) {
        if (!strstr(err, needles[i]))
            fail_msg("'%s' not in: %s", needles[i], err);
    }
}

/* Broken program 1: rank 0 waits for a tag nobody sends. */
static void test_hang_unmatched_receive(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 1, PP_A_SEND, 0, 1, 8);
    act(&in, 0, PP_A_RECV, 1, 1, 8);
    act(&in, 0, PP_A_RECV, 1, 99, 8);
    const char *const needles[] = {"hangs", "rank 0 waits in MPI_Recv for a message from rank 1 with tag 99",
                                   NULL};
    expect_hang(&in, net_machine(), needles);
    free_in(&in);
}

/* Broken program 2: a broadcast only the even ranks reach. */
static void test_hang_partial_collective(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 4);
    act(&in, 0, PP_A_WORK, 0, 0, 5);
    act(&in, 0, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    act(&in, 2, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    const char *const needles[] = {"hangs", "rank 0 waits in bcast", "2 of 4 ranks arrived",
                                   "ranks 1, 3 finished without reaching that collective", NULL};
    expect_hang(&in, NULL, needles);
    free_in(&in);
}

/* Broken program 3: each rank sends 4 MiB to the next before receiving:
 * above the eager limit, a cycle of blocking sends. */
static void test_hang_send_cycle(void **state)
{
    (void)state;
    pp_instance in;
    int P = 3;
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_SEND, (r + 1) % P, 0, 4 << 20);
        act(&in, r, PP_A_RECV, (r + P - 1) % P, 0, 4 << 20);
    }
    const char *const needles[] = {"a cycle of blocking sends, ranks 0 -> 1 -> 2 -> 0",
                                   "rank 1 waits in MPI_Send to rank 2", NULL};
    expect_hang(&in, net_machine(), needles);
    free_in(&in);
    /* the same with 8-byte messages completes: they go eagerly */
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_SEND, (r + 1) % P, 0, 8);
        act(&in, r, PP_A_RECV, (r + P - 1) % P, 0, 8);
    }
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    pp_trav_free(&tr);
    free_in(&in);
    /* but not with MPI_Ssend */
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_SSEND, (r + 1) % P, 0, 8);
        act(&in, r, PP_A_RECV, (r + P - 1) % P, 0, 8);
    }
    const char *const n2[] = {"a cycle of blocking sends", "MPI_Ssend", NULL};
    expect_hang(&in, net_machine(), n2);
    free_in(&in);
}

/* Ranks calling different collectives: an error, not a time. */
static void test_collective_mismatch(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    act(&in, 1, PP_A_COLL, PP_COLL_REDUCE, 0, 8);
    const char *const needles[] = {"disagree", "bcast", "reduce", NULL};
    expect_hang(&in, NULL, needles);
    free_in(&in);
}

/* A message nobody receives is counted and named. */
static void test_unmatched_send_noted(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_SEND, 1, 3, 8);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    assert_int_equal(tr.unmatched, 1);
    assert_non_null(strstr(tr.note, "rank 0 to rank 1, tag 3"));
    pp_trav_free(&tr);
    free_in(&in);
}

/* A message is matched in its communicator only: a send on a duplicate
 * of the world does not match a receive on the world. */
static void test_comm_context(void **state)
{
    (void)state;
    static const int all[] = {0, 1, -1};
    const int *const lists[] = {all};
    pp_instance in;
    ranks(&in, 2);
    comms(&in, 1, lists);
    act(&in, 0, PP_A_SEND, 1, 5, 8);
    on(&in, 0, 1);
    act(&in, 1, PP_A_RECV, 0, 5, 8);
    const char *const needles[] = {"hangs", "rank 1 waits in MPI_Recv for a message from rank 0 with tag 5", NULL};
    expect_hang(&in, net_machine(), needles);
    free_in(&in);
    /* received on the same communicator, it is the eager message of
     * test_eager_message_time: 107 + 1000 + 100 */
    ranks(&in, 2);
    comms(&in, 1, lists);
    act(&in, 0, PP_A_SEND, 1, 5, 8);
    on(&in, 0, 1);
    act(&in, 1, PP_A_RECV, 0, 5, 8);
    on(&in, 1, 1);
    pp_trav tr;
    char err[1024];
    assert_int_equal(trav(&in, net_machine(), &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[1] - 1207) < 1e-6);
    assert_int_equal(tr.unmatched, 0);
    pp_trav_free(&tr);
    free_in(&in);
}

/* Two broadcasts at once on two halves of 4 ranks, {0, 2} and {3, 1}
 * (rank 0 of the second is world rank 3): each completes when its own
 * members arrived, released as the network's algorithm gives for 2 ranks,
 * whatever the other half does. */
static void test_subcomm_collectives(void **state)
{
    (void)state;
    static const int even[] = {0, 2, -1}, odd[] = {3, 1, -1};
    const int *const lists[] = {even, odd};
    pp_instance in;
    ranks(&in, 4);
    comms(&in, 2, lists);
    act(&in, 0, PP_A_WORK, 0, 0, 1000);
    act(&in, 0, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    on(&in, 0, 1);
    act(&in, 2, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    on(&in, 2, 1);
    act(&in, 1, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    on(&in, 1, 2);
    act(&in, 3, PP_A_WORK, 0, 0, 3000);
    act(&in, 3, PP_A_COLL, PP_COLL_BCAST, 0, 8);
    on(&in, 3, 2);
    pp_trav tr;
    char err[1024];
    const pp_machine *m = net_machine();
    assert_int_equal(trav(&in, m, &tr, err, sizeof err), 0);
    double arr_a[2] = {1000, 0}, rel_a[2], arr_b[2] = {3000, 0}, rel_b[2];
    assert_int_equal(pp_net_collective(&m->net, PP_COLL_BCAST, 2, 0, 8, arr_a, rel_a), 0);
    assert_int_equal(pp_net_collective(&m->net, PP_COLL_BCAST, 2, 0, 8, arr_b, rel_b), 0);
    assert_true(rel_a[1] > 1000 && rel_b[1] > 3000);
    assert_true(fabs(tr.finish[0] - rel_a[0]) < 1e-6);
    assert_true(fabs(tr.finish[2] - rel_a[1]) < 1e-6);
    assert_true(fabs(tr.finish[3] - rel_b[0]) < 1e-6);
    assert_true(fabs(tr.finish[1] - rel_b[1]) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
    /* only world rank 1 reaches the second half's: a hang in communicator
     * #2, 1 of its 2 ranks arrived, rank 3 finished without it */
    ranks(&in, 4);
    comms(&in, 2, lists);
    act(&in, 1, PP_A_COLL, PP_COLL_BARRIER, 0, 0);
    on(&in, 1, 2);
    const char *const needles[] = {"hangs", "rank 1 waits in barrier (collective #1 of communicator #2",
                                   "1 of 2 ranks arrived", "rank 3 of communicator #2 finished without reaching that collective",
                                   NULL};
    expect_hang(&in, net_machine(), needles);
    free_in(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eager_message_time),
        cmocka_unit_test(test_segment_cost_before_each_call),
        cmocka_unit_test(test_ranks_share_node),
        cmocka_unit_test(test_rendezvous_message_time),
        cmocka_unit_test(test_matching_by_tag_and_order),
        cmocka_unit_test(test_any_source),
        cmocka_unit_test(test_nonblocking_ring_exchange),
        cmocka_unit_test(test_pram_collectives),
        cmocka_unit_test(test_proc_null),
        cmocka_unit_test(test_hang_unmatched_receive),
        cmocka_unit_test(test_hang_partial_collective),
        cmocka_unit_test(test_hang_send_cycle),
        cmocka_unit_test(test_collective_mismatch),
        cmocka_unit_test(test_unmatched_send_noted),
        cmocka_unit_test(test_comm_context),
        cmocka_unit_test(test_subcomm_collectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
