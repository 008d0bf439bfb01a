/* test_eq_net.c - the network terms of an MPI program's equations
 * (analysis/eq-net.c): every collective algorithm they express, built as
 * terms in P and the bytes m and evaluated, against the closed forms of
 * docs/machine-format.md (pp_net_closed_form, which tests/unit/test_net.c
 * checks against the rank-by-rank simulation), for P a power of two from
 * 2 to 1024, messages below and above the eager limit and a gap larger
 * than the sending time; recursive doubling on P not a power of two; the
 * point-to-point calls by hand; P = 1 costs nothing; the algorithms not
 * expressed are said in a note and add no term; a call on another
 * communicator likewise.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq-internal.h"
#include "net-fixture.h"
#include "net.h"

/* one block, the walk at top level, P = P_at */
typedef struct {
    pp_equations q;
    wctx w;
    int bstack[1];
    pp_machine mach;
    pp_prog prog;
} fixture;

static void setup(fixture *f, const pp_net *net, int P)
{
    memset(f, 0, sizeof *f);
    f->q.blocks = calloc(1, sizeof *f->q.blocks);
    f->q.nblocks = 1;
    f->q.blocks[0].id = strdup("program");
    f->mach.net = *net;
    f->w.m = &f->prog;
    f->w.mach = &f->mach;
    f->w.q = &f->q;
    f->w.mult = 1;
    f->w.bstack = f->bstack;
    f->w.nb = 1;
    f->w.P = pp_expr_atom(PP_E_NPROCS, NULL, 0);
    f->w.P_at = P;
}

static void teardown(fixture *f)
{
    pp_expr_free(f->w.P);
    f->q.blocks[0].nterms = 0;
    pp_equations_free(&f->q);
}

/* T_sync of one call of kind k with m bytes (MPI_BYTE) at P */
static double eq_time(const pp_net *net, pp_evkind k, double m, int P, int comm, int *nnotes, char **note)
{
    fixture f;
    setup(&f, net, P);
    pp_devent ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = k;
    ev.line = 7;
    ev.comm = comm;
    ev.type = "ompi_mpi_byte";
    pp_eq_mpi_net(&f.w, &ev, "main", pp_expr_int((long)m));
    int approx = 0;
    double t = (double)pp_eqblock_eval(&f.q.blocks[0], 1, &f.prog, NULL, P, &approx);
    if (nnotes)
        *nnotes = f.q.nnotes;
    if (note)
        *note = f.q.nnotes ? strdup(f.q.notes[f.q.nnotes - 1]) : NULL;   /* the call's own */
    assert_int_equal(approx, 0);
    teardown(&f);
    return t;
}

static const struct { pp_evkind ev; pp_coll k; pp_alg a; } expressed[] = {
    {PP_EV_BCAST, PP_COLL_BCAST, PP_ALG_BINOMIAL},
    {PP_EV_BCAST, PP_COLL_BCAST, PP_ALG_LINEAR},
    {PP_EV_REDUCE, PP_COLL_REDUCE, PP_ALG_BINOMIAL},
    {PP_EV_REDUCE, PP_COLL_REDUCE, PP_ALG_LINEAR},
    {PP_EV_ALLREDUCE, PP_COLL_ALLREDUCE, PP_ALG_RECURSIVE_DOUBLING},
    {PP_EV_ALLREDUCE, PP_COLL_ALLREDUCE, PP_ALG_RING},
    {PP_EV_GATHER, PP_COLL_GATHER, PP_ALG_BINOMIAL},
    {PP_EV_GATHER, PP_COLL_GATHER, PP_ALG_LINEAR},
    {PP_EV_SCATTER, PP_COLL_SCATTER, PP_ALG_BINOMIAL},
    {PP_EV_SCATTER, PP_COLL_SCATTER, PP_ALG_LINEAR},
    {PP_EV_ALLGATHER, PP_COLL_ALLGATHER, PP_ALG_RING},
    {PP_EV_ALLGATHER, PP_COLL_ALLGATHER, PP_ALG_RECURSIVE_DOUBLING},
    {PP_EV_ALLGATHER, PP_COLL_ALLGATHER, PP_ALG_BRUCK},
    {PP_EV_ALLTOALL, PP_COLL_ALLTOALL, PP_ALG_PAIRWISE},
    {PP_EV_ALLTOALL, PP_COLL_ALLTOALL, PP_ALG_LINEAR},
    {PP_EV_MPI_BARRIER, PP_COLL_BARRIER, PP_ALG_DISSEMINATION},
    {PP_EV_MPI_BARRIER, PP_COLL_BARRIER, PP_ALG_RECURSIVE_DOUBLING},
    {PP_EV_MPI_BARRIER, PP_COLL_BARRIER, PP_ALG_LINEAR},
};

static void close_to(double got, double want, const char *what, int P, double m)
{
    if (fabs(got - want) > 1e-9 * fmax(1, fabs(want))) {
        print_error("%s at P = %d, m = %g: equations %.9g, closed form %.9g\n", what, P, m, got, want);
        fail();
    }
}

/* every expressed algorithm, P = 2 .. 1024 (powers of two), bytes below
 * and above the eager limit, on three networks: the cluster's figures,
 * an eager limit of 600 bytes (a doubling's later rounds go rendezvous),
 * and a gap larger than the sending time of every message here (still
 * g <= L + 2o, where the closed forms are the simulation's) */
static void test_closed_forms(void **state)
{
    (void)state;
    pp_net nets[3] = {
        net_of(1500, 300, 400, 0.08, 0.125, 12288),
        net_of(1000, 100, 50, 1, 0.5, 600),
        net_of(800, 50, 850, 0.25, 0, 1 << 20),
    };
    /* multiples of 1024: the ring allreduce's blocks m/P are whole */
    const double ms[] = {1024, 4096, 65536};
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++)
        for (size_t e = 0; e < sizeof expressed / sizeof *expressed; e++)
            for (int P = 2; P <= 1024; P *= 2)
                for (size_t j = 0; j < sizeof ms / sizeof *ms; j++) {
                    pp_net n = nets[i];
                    n.alg[expressed[e].k] = expressed[e].a;
                    double m = expressed[e].k == PP_COLL_BARRIER ? 0 : ms[j];
                    double want = pp_net_closed_form(&n, expressed[e].k, expressed[e].a, P, m);
                    char what[96];
                    snprintf(what, sizeof what, "%s %s (network %zu)", pp_coll_name(expressed[e].k),
                             pp_alg_name(expressed[e].a), i);
                    close_to(eq_time(&n, expressed[e].ev, m, P, PP_COMM_WORLD, NULL, NULL), want, what, P, m);
                }
}

/* small messages (m >= 1) under AUTO: the algorithm AUTO picks at P and m */
static void test_auto(void **state)
{
    (void)state;
    pp_net n = net_of(1500, 300, 400, 0.08, 0.125, 12288);
    const double ms[] = {8, 16, 512};
    for (size_t e = 0; e < sizeof expressed / sizeof *expressed; e++)
        for (int P = 2; P <= 256; P *= 2)
            for (size_t j = 0; j < sizeof ms / sizeof *ms; j++) {
                pp_coll k = expressed[e].k;
                double m = k == PP_COLL_BARRIER ? 0 : ms[j];
                pp_alg a = pp_net_alg(&n, k, P, m);
                if (k == PP_COLL_ALLTOALL && a == PP_ALG_BRUCK)
                    continue;   /* not expressed: test_not_expressed */
                int nn = 0;
                char *note = NULL;
                double got = eq_time(&n, expressed[e].ev, m, P, PP_COMM_WORLD, &nn, &note);
                close_to(got, pp_net_closed_form(&n, k, a, P, m), pp_coll_name(k), P, m);
                /* the note names the algorithm and that AUTO chose it */
                assert_non_null(note);
                assert_non_null(strstr(note, pp_alg_name(a)));
                assert_non_null(strstr(note, "AUTO"));
                free(note);
            }
}

/* recursive doubling on P not a power of two: the extra step */
static void test_not_pow2(void **state)
{
    (void)state;
    pp_net n = net_of(1000, 100, 50, 1, 0.5, 1e9);
    n.alg[PP_COLL_ALLREDUCE] = PP_ALG_RECURSIVE_DOUBLING;
    n.alg[PP_COLL_BARRIER] = PP_ALG_RECURSIVE_DOUBLING;
    for (int P = 3; P <= 100; P += 7) {
        close_to(eq_time(&n, PP_EV_ALLREDUCE, 64, P, PP_COMM_WORLD, NULL, NULL),
                 pp_net_closed_form(&n, PP_COLL_ALLREDUCE, PP_ALG_RECURSIVE_DOUBLING, P, 64), "allreduce", P, 64);
        close_to(eq_time(&n, PP_EV_MPI_BARRIER, 0, P, PP_COMM_WORLD, NULL, NULL),
                 pp_net_closed_form(&n, PP_COLL_BARRIER, PP_ALG_RECURSIVE_DOUBLING, P, 0), "barrier", P, 0);
    }
}

/* By hand, L = 1000, o = 100, G = 1, eager up to 1000 bytes: a send of m
 * bytes is the sender's s(m) = o + (m-1)G = 99 + m; a receive and an
 * exchange the whole message x(m) = 2o + L + (m-1)G = 1199 + m, plus the
 * handshake 2(o + L) = 2200 above the eager limit.  One rank: a
 * collective costs nothing, a message its LogGP time. */
static void test_point_to_point(void **state)
{
    (void)state;
    pp_net n = net_of(1000, 100, 50, 1, 0, 1000);
    close_to(eq_time(&n, PP_EV_SEND, 100, 4, PP_COMM_WORLD, NULL, NULL), 199, "send", 4, 100);
    close_to(eq_time(&n, PP_EV_ISEND, 100, 4, PP_COMM_WORLD, NULL, NULL), 199, "isend", 4, 100);
    close_to(eq_time(&n, PP_EV_SEND, 2000, 4, PP_COMM_WORLD, NULL, NULL), 2099 + 2200, "rendezvous send", 4, 2000);
    close_to(eq_time(&n, PP_EV_RECV, 100, 4, PP_COMM_WORLD, NULL, NULL), 1299, "recv", 4, 100);
    close_to(eq_time(&n, PP_EV_IRECV, 2000, 4, PP_COMM_WORLD, NULL, NULL), 3199 + 2200, "rendezvous irecv", 4, 2000);
    close_to(eq_time(&n, PP_EV_SENDRECV, 8, 2, PP_COMM_WORLD, NULL, NULL), 1207, "sendrecv", 2, 8);
    n.alg[PP_COLL_BCAST] = PP_ALG_BINOMIAL;
    close_to(eq_time(&n, PP_EV_BCAST, 100, 1, PP_COMM_WORLD, NULL, NULL), 0, "bcast on one rank", 1, 100);
    close_to(eq_time(&n, PP_EV_SEND, 100, 1, PP_COMM_WORLD, NULL, NULL), 199, "send on one rank", 1, 100);
}

/* the algorithms with no term (the scatter-allgather broadcast, the
 * reduce-scatter-gather reduce, Bruck's all-to-all), and a call on a
 * communicator other than the world: no term, a note that says so */
static void test_not_expressed(void **state)
{
    (void)state;
    pp_net n = net_of(1000, 100, 50, 1, 0, 1e9);
    n.alg[PP_COLL_BCAST] = PP_ALG_SCATTER_ALLGATHER;
    n.alg[PP_COLL_REDUCE] = PP_ALG_REDUCE_SCATTER_GATHER;
    n.alg[PP_COLL_ALLTOALL] = PP_ALG_BRUCK;
    const pp_evkind ks[] = {PP_EV_BCAST, PP_EV_REDUCE, PP_EV_ALLTOALL};
    for (size_t i = 0; i < 3; i++) {
        int nn = 0;
        char *note = NULL;
        assert_true(eq_time(&n, ks[i], 4096, 16, PP_COMM_WORLD, &nn, &note) == 0);
        assert_int_equal(nn, 2);   /* what T_sync holds, and this call's */
        assert_non_null(strstr(note, "is not in the equations"));
        free(note);
    }
    int nn = 0;
    char *note = NULL;
    n.alg[PP_COLL_BCAST] = PP_ALG_BINOMIAL;
    assert_true(eq_time(&n, PP_EV_BCAST, 64, 16, PP_COMM_VAR, &nn, &note) == 0);
    assert_int_equal(nn, 1);
    assert_non_null(strstr(note, "other than MPI_COMM_WORLD"));
    free(note);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_not_pow2),
        cmocka_unit_test(test_point_to_point),
        cmocka_unit_test(test_not_expressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
