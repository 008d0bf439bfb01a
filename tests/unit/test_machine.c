/* test_machine.c - the machine model: file round trip, every malformed
 * file, model evaluation, the slowdown factors, the least-squares fits, and
 * a quick calibration of this host.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate.h"
#include "machine.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pp-test-machine.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A hypothetical machine written by hand: one line per entry. */
static const char *const hand[] = {
    "perfpred-machine 1",                       /*  1 */
    "# a hypothetical machine, written by hand",/*  2 */
    "name = hypothetical 64-core",              /*  3 */
    "cores = 64",                               /*  4 */
    "thread.create.model = const",              /*  5 */
    "thread.create.a_ns = 20000",               /*  6 */
    "thread.create_call.model = const",         /*  7 */
    "thread.create_call.a_ns = 8000",           /*  8 */
    "thread.join.model = const",                /*  9 */
    "thread.join.a_ns = 5000   # trailing",     /* 10 */
    "forkjoin.omp.model = linear",              /* 11 */
    "forkjoin.omp.a_ns = 1000",                 /* 12 */
    "forkjoin.omp.b_ns = 100",                  /* 13 */
    "barrier.omp.model = log2",                 /* 14 */
    "barrier.omp.a_ns = 100",                   /* 15 */
    "barrier.omp.b_ns = 50",                    /* 16 */
    "barrier.pthread.model = linear",           /* 17 */
    "barrier.pthread.a_ns = 500",               /* 18 */
    "barrier.pthread.b_ns = 200",               /* 19 */
    "mutex.lock.model = const",                 /* 20 */
    "mutex.lock.a_ns = 20",                     /* 21 */
    "mutex.handoff.model = const",              /* 22 */
    "mutex.handoff.a_ns = 1000",                /* 23 */
    "scale.compute.model = linear",             /* 24 */
    "scale.compute.a = 1",                      /* 25 */
    "scale.compute.b = 0.01",                   /* 26 */
    "scale.memory.model = log2",                /* 27 */
    "scale.memory.a = 1",                       /* 28 */
    "scale.memory.b = 0.5",                     /* 29 */
    "point.barrier.omp = 2 150",                /* 30 */
    "point.barrier.omp = 128 500 oversub",      /* 31 */
};
#define NHAND ((int)(sizeof hand / sizeof *hand))

/* Write the hand file with line `line` (1-based) replaced by `repl` (NULL
 * deletes it; line 0 replaces nothing) and `extra` appended. */
static const char *write_variant(const char *name, int line, const char *repl,
                                 const char *extra)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < NHAND; i++) {
        if (i + 1 == line) {
            if (repl)
                fprintf(f, "%s\n", repl);
        } else {
            fprintf(f, "%s\n", hand[i]);
        }
    }
    if (extra)
        fprintf(f, "%s\n", extra);
    fclose(f);
    return path;
}

/* Loading must fail with one message naming the file and the line. */
static void expect_error(const char *path, int line, const char *words)
{
    pp_machine m;
    char err[512] = "";
    assert_int_not_equal(pp_machine_load(path, &m, err, sizeof err), 0);
    char where[200];
    snprintf(where, sizeof where, "%s:%d:", path, line);
    if (!strstr(err, where) || (words && !strstr(err, words)))
        fail_msg("error '%s' should contain '%s' and '%s'", err, where,
                 words ? words : "");
}

/* ---- hand-written files ------------------------------------------------ */

static void test_hand_file(void **state)
{
    (void)state;
    const char *p = write_variant("hand.machine", 0, NULL, NULL);
    pp_machine m;
    char err[512] = "";
    int rc = pp_machine_load(p, &m, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    assert_string_equal(m.name, "hypothetical 64-core");
    assert_int_equal(m.source, PP_MACHINE_HAND);
    assert_int_equal(m.cores, 64);
    assert_int_equal(m.cost[PP_COST_BARRIER_OMP].kind, PP_MODEL_LOG2);
    /* hand-computed: 100 + 50 * log2(8) = 250 */
    assert_float_equal(pp_machine_barrier_ns(&m, 8, PP_SYNC_OMP), 250.0,
                       1e-9);
    /* 500 + 200 * 8 = 2100 */
    assert_float_equal(pp_machine_barrier_ns(&m, 8, PP_SYNC_PTHREAD), 2100.0,
                       1e-9);
    /* 1000 + 100 * 16 = 2600 */
    assert_float_equal(pp_machine_fork_join_ns(&m, 16), 2600.0, 1e-9);
    assert_float_equal(pp_machine_create_ns(&m), 20000.0, 1e-9);
    assert_float_equal(pp_machine_create_call_ns(&m), 8000.0, 1e-9);
    assert_float_equal(pp_machine_join_ns(&m), 5000.0, 1e-9);
    assert_float_equal(pp_machine_lock_ns(&m), 20.0, 1e-9);
    assert_float_equal(pp_machine_handoff_ns(&m), 1000.0, 1e-9);
    /* 1 + 0.01 * 11 = 1.11; memory: 1 + 0.5 * log2(16) = 3 */
    assert_float_equal(pp_machine_compute_scale(&m, 11), 1.11, 1e-12);
    assert_float_equal(pp_machine_memory_scale(&m, 16), 3.0, 1e-12);
    assert_float_equal(pp_machine_scale(&m, 16, 0.5),
                       0.5 * 1.16 + 0.5 * 3.0, 1e-12);
    assert_int_equal(m.points[PP_COST_BARRIER_OMP].n, 2);
    assert_int_equal(m.points[PP_COST_BARRIER_OMP].pt[1].p, 128);
    assert_int_equal(m.points[PP_COST_BARRIER_OMP].pt[1].oversub, 1);
    assert_int_equal(m.points[PP_COST_BARRIER_OMP].pt[0].oversub, 0);
}

static void test_unknown_key_ignored(void **state)
{
    (void)state;
    const char *p = write_variant("unknown.machine", 0, NULL,
                                  "network.latency_ns = 1500");
    pp_machine m;
    char err[512] = "";
    assert_int_equal(pp_machine_load(p, &m, err, sizeof err), 0);
    assert_int_equal(m.cores, 64);
}

/* ---- malformed files --------------------------------------------------- */

static void test_missing_file(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/does-not-exist.machine", dir);
    pp_machine m;
    char err[512] = "";
    assert_int_not_equal(pp_machine_load(path, &m, err, sizeof err), 0);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "No such file"));
}

static void test_bad_magic(void **state)
{
    (void)state;
    expect_error(write_variant("magic.machine", 1, "perfpred-record 1", NULL),
                 1, "not a perfpred machine file");
    expect_error(write_variant("magic2.machine", 1, "perfpred-machinex 1",
                               NULL), 1, "not a perfpred machine file");
    expect_error(write_variant("version.machine", 1, "perfpred-machine 2",
                               NULL), 1, "unsupported version 2");
    expect_error(write_variant("version2.machine", 1, "perfpred-machine one",
                               NULL), 1, "bad version");
    char path[128];
    snprintf(path, sizeof path, "%s/empty.machine", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    expect_error(path, 1, "empty file");
}

static void test_unknown_model(void **state)
{
    (void)state;
    expect_error(write_variant("model.machine", 14,
                               "barrier.omp.model = cubic", NULL),
                 14, "unknown model 'cubic'");
    expect_error(write_variant("model2.machine", 20,
                               "mutex.lock.model = linear", NULL),
                 20, "not allowed");
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_error(write_variant("nan.machine", 15, "barrier.omp.a_ns = fast",
                               NULL), 15, "not a number");
    expect_error(write_variant("nan2.machine", 15, "barrier.omp.a_ns = 12x",
                               NULL), 15, "not a number");
    expect_error(write_variant("inf.machine", 15, "barrier.omp.a_ns = inf",
                               NULL), 15, "not a number");
    expect_error(write_variant("neg.machine", 16, "barrier.omp.b_ns = -5",
                               NULL), 16, "negative");
    expect_error(write_variant("negc.machine", 4, "cores = -2", NULL), 4,
                 "negative");
    expect_error(write_variant("zeroc.machine", 4, "cores = 0", NULL), 4,
                 "out of range");
    expect_error(write_variant("empty.machine", 21, "mutex.lock.a_ns =",
                               NULL), 21, "empty value");
    expect_error(write_variant("noeq.machine", 21, "mutex.lock.a_ns 20",
                               NULL), 21, "key = value");
    expect_error(write_variant("src.machine", 3, "source = guessed", NULL),
                 3, "source");
    expect_error(write_variant("pt.machine", 30, "point.barrier.omp = 2",
                               NULL), 30, "expected 'P VALUE'");
    expect_error(write_variant("pt2.machine", 30,
                               "point.barrier.omp = 2 150 extra", NULL),
                 30, "expected 'P VALUE'");
    expect_error(write_variant("pt3.machine", 30,
                               "point.barrier.omp = 128 150", NULL),
                 31, "duplicate point");
}

static void test_missing_key(void **state)
{
    (void)state;
    /* b of a linear model: the error points at the model's line */
    expect_error(write_variant("miss-b.machine", 13, NULL, NULL), 11,
                 "forkjoin.omp.b_ns");
    expect_error(write_variant("miss-a.machine", 21, NULL, NULL), 20,
                 "mutex.lock.a_ns");
    /* a whole model or cores: at the end of the file */
    expect_error(write_variant("miss-model.machine", 22, NULL, NULL),
                 NHAND - 1, "mutex.handoff.model");
    expect_error(write_variant("miss-cores.machine", 4, NULL, NULL),
                 NHAND - 1, "'cores'");
}

static void test_duplicate_key(void **state)
{
    (void)state;
    expect_error(write_variant("dup.machine", 0, NULL, "cores = 8"),
                 NHAND + 1, "duplicate key 'cores' (first on line 4)");
    expect_error(write_variant("dup2.machine", 0, NULL,
                               "barrier.omp.a_ns = 300"),
                 NHAND + 1, "duplicate key 'barrier.omp.a_ns'");
}

static void test_binary_garbage(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/binary.machine", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("perfpred-machine 1\ncores = 2\n", f);
    fputc('\0', f);
    fputs("x = 1\n", f);
    fclose(f);
    expect_error(path, 3, "NUL");
}

/* ---- round trip --------------------------------------------------------- */

static void test_round_trip(void **state)
{
    (void)state;
    pp_machine a, b;
    pp_machine_default(&a);
    snprintf(a.name, sizeof a.name, "%s", "round trip");
    a.source = PP_MACHINE_MEASURED;
    a.cores = 6;
    a.max_threads = 24;
    a.quick = 1;
    a.cache_l1d_bytes = 32768;
    a.cache_l2_bytes = 1 << 20;
    a.cache_l3_bytes = 8 << 20;
    a.mem_bw1_bytes_per_ns = 12.5;
    a.mem_bw_all_bytes_per_ns = 30.25;
    a.mem_footprint_bytes = 64 << 20;
    a.cost[PP_COST_BARRIER_OMP].a_se = 3.25;
    a.cost[PP_COST_BARRIER_OMP].b_se = 1.0 / 3.0;
    a.cost[PP_COST_BARRIER_OMP].r2 = 0.987654;
    a.cost[PP_COST_BARRIER_OMP].n = 45;
    a.cost[PP_COST_FORKJOIN_OMP].oversub_fit = 1;
    a.cost[PP_COST_LOCK].a = 21.123456789;
    a.busy_rounds = 5;                     /* the round keys */
    a.busy_steal = 0.4821;
    a.spread[PP_COST_FORKJOIN_OMP] = 3.25;
    a.spread[PP_COST_SCALE_MEMORY] = 1.125;
    a.compute_kernel_ns = 109.125;
    for (int p = 1; p <= 6; p++)
        pp_machine_add_point(&a, PP_COST_BARRIER_OMP, p, 100.0 + p / 7.0, 0);
    pp_machine_add_point(&a, PP_COST_BARRIER_OMP, 12, 4000.5, 1);
    pp_machine_add_point(&a, PP_COST_SCALE_MEMORY, 2, 1.75, 0);

    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/rt.machine", dir);
    if (pp_machine_save(path, &a, err, sizeof err))
        fail_msg("%s", err);
    if (pp_machine_load(path, &b, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(a.name, b.name);
    assert_int_equal(b.source, PP_MACHINE_MEASURED);
    assert_int_equal(b.cores, 6);
    assert_int_equal(b.max_threads, 24);
    assert_int_equal(b.quick, 1);
    assert_int_equal(b.cache_l2_bytes, 1 << 20);
    assert_int_equal(b.mem_footprint_bytes, 64 << 20);
    assert_float_equal(b.mem_bw_all_bytes_per_ns, 30.25, 1e-9);
    assert_int_equal(b.busy_rounds, 5);
    assert_float_equal(b.busy_steal, 0.4821, 1e-9);
    assert_float_equal(b.spread[PP_COST_FORKJOIN_OMP], 3.25, 1e-9);
    assert_float_equal(b.spread[PP_COST_SCALE_MEMORY], 1.125, 1e-9);
    assert_true(b.spread[PP_COST_LOCK] == 0);
    assert_float_equal(b.compute_kernel_ns, 109.125, 1e-9);
    assert_true(pp_machine_marked(&b));       /* by the steal and the spread */
    assert_int_equal(b.busy, 0);              /* busy = 1 is calibrate's to write */
    for (int i = 0; i < PP_COST_N; i++) {
        const pp_model *x = &a.cost[i], *y = &b.cost[i];
        assert_int_equal(x->kind, y->kind);
        assert_float_equal(x->a, y->a, 1e-8 * (1 + fabs(x->a)));
        assert_float_equal(x->b, y->b, 1e-8 * (1 + fabs(x->b)));
        assert_float_equal(x->a_se, y->a_se, 1e-8 * (1 + x->a_se));
        assert_float_equal(x->b_se, y->b_se, 1e-8 * (1 + x->b_se));
        assert_int_equal(x->n, y->n);
        assert_int_equal(x->oversub_fit, y->oversub_fit);
        if (x->r2 >= 0)
            assert_float_equal(x->r2, y->r2, 1e-6);
        else
            assert_true(y->r2 < 0);
        assert_int_equal(a.points[i].n, b.points[i].n);
        for (int j = 0; j < a.points[i].n; j++) {
            assert_int_equal(a.points[i].pt[j].p, b.points[i].pt[j].p);
            assert_int_equal(a.points[i].pt[j].oversub,
                             b.points[i].pt[j].oversub);
            assert_float_equal(a.points[i].pt[j].v, b.points[i].pt[j].v,
                               1e-8 * a.points[i].pt[j].v);
        }
    }
    /* the defaults survive as such */
    pp_machine d, e;
    pp_machine_default(&d);
    snprintf(path, sizeof path, "%s/default.machine", dir);
    assert_int_equal(pp_machine_save(path, &d, err, sizeof err), 0);
    assert_int_equal(pp_machine_load(path, &e, err, sizeof err), 0);
    assert_int_equal(e.source, PP_MACHINE_DEFAULT);
    assert_int_equal(pp_machine_marked(&e), 0);   /* no round keys: not marked */
    assert_int_equal(e.busy_rounds, 0);
    assert_float_equal(pp_machine_barrier_ns(&e, 32, PP_SYNC_OMP),
                       pp_machine_barrier_ns(&d, 32, PP_SYNC_OMP), 1e-9);
    /* no temporary file left behind */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q tmp", dir);
    assert_int_not_equal(system(cmd), 0);
}

static void test_save_error(void **state)
{
    (void)state;
    pp_machine m;
    pp_machine_default(&m);
    char err[512] = "";
    assert_int_not_equal(pp_machine_save("/nonexistent-dir/x.machine", &m,
                                         err, sizeof err), 0);
    assert_non_null(strstr(err, "/nonexistent-dir/x.machine"));
}

/* ---- the MPI network (mpi.*) -------------------------------------------- */

/* The hand file plus the lines extra[0..n-1]: they start at line NHAND + 1. */
static const char *write_extra(const char *name, const char *const *extra, int n)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < NHAND; i++)
        fprintf(f, "%s\n", hand[i]);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", extra[i]);
    fclose(f);
    return path;
}

static const char *const mpi_lines[] = {
    "mpi.source = hand",               /* NHAND + 1 */
    "mpi.latency_ns = 1500",           /* + 2 */
    "mpi.overhead_ns = 300",           /* + 3 */
    "mpi.gap_ns = 400",                /* + 4 */
    "mpi.gap_per_byte_ns = 0.08",      /* + 5 */
    "mpi.reduce_ns_per_byte = 0.125",  /* + 6 */
    "mpi.eager_bytes = 12288",         /* + 7 */
    "mpi.ranks_per_node = 32",         /* + 8 */
    "mpi.alg.bcast = linear",          /* + 9 */
    "mpi.alg.allreduce = ring",        /* + 10 */
    "mpi.alg.barrier = dissemination", /* + 11 */
    "point.mpi.pingpong = 0 2100",     /* + 12 */
    "point.mpi.pingpong = 1048576 85000", /* + 13 */
    "point.mpi.barrier = 2 2500",      /* + 14 */
    "point.mpi.barrier = 128 90000 oversub", /* + 15 */
    "point.mpi.allreduce = 4 5000",    /* + 16 */
};
#define NMPI ((int)(sizeof mpi_lines / sizeof *mpi_lines))

/* mpi_lines with line i (0-based) replaced by repl (NULL deletes it) */
static const char *mpi_variant(const char *name, int i, const char *repl)
{
    const char *v[NMPI + 1];
    int n = 0;
    for (int j = 0; j < NMPI; j++)
        if (j != i)
            v[n++] = mpi_lines[j];
        else if (repl)
            v[n++] = repl;
    return write_extra(name, v, n);
}

static void test_mpi_keys(void **state)
{
    (void)state;
    pp_machine m;
    char err[512] = "";
    /* no mpi.* keys: the built-in network, has_net 0 */
    if (pp_machine_load(write_variant("nonet.machine", 0, NULL, NULL), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.has_net, 0);
    pp_net d;
    pp_net_default(&d);
    assert_int_equal(m.net.source, 2);
    assert_float_equal(m.net.L, d.L, 0);
    assert_float_equal(m.net.eager_bytes, d.eager_bytes, 0);
    /* all of them */
    if (pp_machine_load(mpi_variant("net.machine", -1, NULL), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.has_net, 1);
    assert_int_equal(m.net.source, 0);
    assert_float_equal(m.net.L, 1500, 0);
    assert_float_equal(m.net.o, 300, 0);
    assert_float_equal(m.net.g, 400, 0);
    assert_float_equal(m.net.G, 0.08, 1e-15);
    assert_float_equal(m.net.gamma, 0.125, 0);
    assert_float_equal(m.net.eager_bytes, 12288, 0);
    assert_int_equal(m.net.ranks_per_node, 32);
    assert_int_equal(m.net.alg[PP_COLL_BCAST], PP_ALG_LINEAR);
    assert_int_equal(m.net.alg[PP_COLL_ALLREDUCE], PP_ALG_RING);
    assert_int_equal(m.net.alg[PP_COLL_BARRIER], PP_ALG_DISSEMINATION);
    assert_int_equal(m.net.alg[PP_COLL_REDUCE], PP_ALG_AUTO);
    assert_int_equal(m.mpi_points[PP_MPI_PT_PINGPONG].n, 2);
    assert_int_equal(m.mpi_points[PP_MPI_PT_PINGPONG].pt[0].p, 0);
    assert_int_equal(m.mpi_points[PP_MPI_PT_PINGPONG].pt[1].p, 1048576);
    assert_float_equal(m.mpi_points[PP_MPI_PT_PINGPONG].pt[1].v, 85000, 0);
    assert_int_equal(m.mpi_points[PP_MPI_PT_BARRIER].pt[1].oversub, 1);
    assert_int_equal(m.mpi_points[PP_MPI_PT_ALLREDUCE].pt[0].p, 4);
    /* the thread costs are untouched */
    assert_float_equal(pp_machine_barrier_ns(&m, 8, PP_SYNC_OMP), 250.0, 1e-9);
    /* only the four LogGP keys are required */
    const char *const four[] = {"mpi.latency_ns = 1", "mpi.overhead_ns = 2", "mpi.gap_ns = 3",
                                "mpi.gap_per_byte_ns = 4"};
    if (pp_machine_load(write_extra("four.machine", four, 4), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.has_net, 1);
    assert_int_equal(m.net.source, 0);
    assert_float_equal(m.net.gamma, d.gamma, 0);             /* the default */
    assert_float_equal(m.net.eager_bytes, d.eager_bytes, 0);
    assert_int_equal(m.net.alg[PP_COLL_ALLTOALL], PP_ALG_AUTO);
    /* raw points alone are no network */
    const char *const pts[] = {"point.mpi.barrier = 2 2500"};
    if (pp_machine_load(write_extra("pts.machine", pts, 1), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.has_net, 0);
    assert_int_equal(m.mpi_points[PP_MPI_PT_BARRIER].n, 1);
}

static void test_mpi_errors(void **state)
{
    (void)state;
    const int L0 = NHAND;   /* mpi_lines[i] is on line L0 + 1 + i */
    /* a missing LogGP key: at the first mpi.* line */
    expect_error(mpi_variant("m1.machine", 1, NULL), L0 + 1, "missing required key 'mpi.latency_ns'");
    expect_error(mpi_variant("m2.machine", 4, NULL), L0 + 1, "'mpi.gap_per_byte_ns'");
    const char *const just_alg[] = {"mpi.alg.bcast = binomial"};
    expect_error(write_extra("m3.machine", just_alg, 1), L0 + 1, "missing required key 'mpi.latency_ns'");
    /* algorithms */
    expect_error(mpi_variant("a1.machine", 10, "mpi.alg.barrier = ring"), L0 + 11,
                 "mpi.alg.barrier: barrier has no algorithm 'ring' (expected linear, recursive_doubling, "
                 "dissemination or auto)");
    expect_error(mpi_variant("a2.machine", 8, "mpi.alg.bcast = tree"), L0 + 9,
                 "mpi.alg.bcast: unknown algorithm 'tree'");
    expect_error(mpi_variant("a3.machine", 9, "mpi.alg.allreduce = binomial"), L0 + 10,
                 "allreduce has no algorithm 'binomial' (expected recursive_doubling, ring or auto)");
    /* values */
    expect_error(mpi_variant("v1.machine", 1, "mpi.latency_ns = -3"), L0 + 2, "negative");
    expect_error(mpi_variant("v2.machine", 4, "mpi.gap_per_byte_ns = fast"), L0 + 5, "not a number");
    expect_error(mpi_variant("v3.machine", 6, "mpi.eager_bytes = 4.5"), L0 + 7, "not an integer");
    expect_error(mpi_variant("v4.machine", 0, "mpi.source = guessed"), L0 + 1, "mpi.source: unknown value");
    expect_error(mpi_variant("v5.machine", 7, "mpi.ranks_per_node = -1"), L0 + 8, "negative");
    expect_error(mpi_variant("v6.machine", 12, "mpi.latency_ns = 7"), L0 + 13,
                 "duplicate key 'mpi.latency_ns' (first on line");
    /* points */
    expect_error(mpi_variant("p1.machine", 11, "point.mpi.pingpong = 0 2100 oversub"), L0 + 12,
                 "expected 'BYTES NS'");
    expect_error(mpi_variant("p2.machine", 13, "point.mpi.barrier = 2"), L0 + 14, "expected 'RANKS NS'");
    expect_error(mpi_variant("p3.machine", 12, "point.mpi.pingpong = 0 7"), L0 + 13, "duplicate point");
    expect_error(mpi_variant("p4.machine", 13, "point.mpi.barrier = 0 7"), L0 + 14, "out of range");
}

static void test_mpi_round_trip(void **state)
{
    (void)state;
    pp_machine a, b;
    pp_machine_default(&a);
    assert_int_equal(a.has_net, 0);
    assert_int_equal(a.net.source, 2);
    a.has_net = 1;
    a.net.source = 1;
    a.net.L = 1234.5678901;
    a.net.o = 321.125;
    a.net.g = 400;
    a.net.G = 1.0 / 3.0;
    a.net.gamma = 0.0625;
    a.net.eager_bytes = 4096;
    a.net.ranks_per_node = 16;
    a.net.alg[PP_COLL_GATHER] = PP_ALG_BINOMIAL;
    a.net.alg[PP_COLL_ALLGATHER] = PP_ALG_BRUCK;
    pp_machine_add_mpi_point(&a, PP_MPI_PT_PINGPONG, 0, 2100.5, 0);
    pp_machine_add_mpi_point(&a, PP_MPI_PT_PINGPONG, 65536, 9999, 0);
    pp_machine_add_mpi_point(&a, PP_MPI_PT_ALLREDUCE, 4, 7777, 1);
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/net-rt.machine", dir);
    if (pp_machine_save(path, &a, err, sizeof err) || pp_machine_load(path, &b, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(b.has_net, 1);
    assert_int_equal(b.net.source, 1);
    assert_float_equal(b.net.L, a.net.L, 1e-9);
    assert_float_equal(b.net.o, a.net.o, 0);
    assert_float_equal(b.net.g, a.net.g, 0);
    assert_float_equal(b.net.G, a.net.G, 1e-10);
    assert_float_equal(b.net.gamma, a.net.gamma, 0);
    assert_float_equal(b.net.eager_bytes, 4096, 0);
    assert_int_equal(b.net.ranks_per_node, 16);
    for (int k = 0; k < PP_COLL_N; k++)
        assert_int_equal(b.net.alg[k], a.net.alg[k]);
    for (int i = 0; i < PP_MPI_PT_N; i++) {
        assert_int_equal(b.mpi_points[i].n, a.mpi_points[i].n);
        for (int j = 0; j < a.mpi_points[i].n; j++) {
            assert_int_equal(b.mpi_points[i].pt[j].p, a.mpi_points[i].pt[j].p);
            assert_int_equal(b.mpi_points[i].pt[j].oversub, a.mpi_points[i].pt[j].oversub);
            assert_float_equal(b.mpi_points[i].pt[j].v, a.mpi_points[i].pt[j].v, 1e-9);
        }
    }
    /* a machine without a network writes no mpi.* keys and reads back so */
    pp_machine_default(&a);
    if (pp_machine_save(path, &a, err, sizeof err) || pp_machine_load(path, &b, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(b.has_net, 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "grep -q '^mpi\\.' '%s'", path);
    assert_int_not_equal(system(cmd), 0);
    /* an "every message eager" network survives (2^53 bytes) */
    pp_machine_default(&a);
    a.has_net = 1;
    pp_net_pram(&a.net);
    if (pp_machine_save(path, &a, err, sizeof err) || pp_machine_load(path, &b, err, sizeof err))
        fail_msg("%s", err);
    assert_true(pp_net_is_eager(&b.net, 1e15));
    assert_float_equal(b.net.L, 0, 0);
}

/* docs/examples/cluster.machine: the example of docs/machine-format.md */
static void test_cluster_example(void **state)
{
    (void)state;
    pp_machine m;
    char err[512] = "";
    if (pp_machine_load("docs/examples/cluster.machine", &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.has_net, 1);
    assert_int_equal(m.net.source, 0);
    assert_float_equal(m.net.L, 1500, 0);
    assert_float_equal(m.net.o, 300, 0);
    assert_float_equal(m.net.g, 400, 0);
    assert_float_equal(m.net.G, 0.08, 1e-15);
    assert_int_equal(m.net.ranks_per_node, 32);
    /* the thread costs are the defaults' */
    pp_machine d;
    pp_machine_default(&d);
    for (int i = 0; i < PP_COST_N; i++) {
        assert_int_equal(m.cost[i].kind, d.cost[i].kind);
        assert_float_equal(m.cost[i].a, d.cost[i].a, 1e-12);
        assert_float_equal(m.cost[i].b, d.cost[i].b, 1e-12);
    }
    /* the docs' figure: an 8-byte allreduce on 4096 ranks, all arriving
     * together, is 12 exchanges of c(8) = 0.3 + 7 x 0.00008 + 1.5 + 0.3 us
     * = 2100.56 ns (recursive doubling, gamma 8 x 0.125 = 1 ns): 25218.72 ns */
    enum { P = 4096 };
    double *arr = calloc(P, sizeof *arr), *rel = malloc(P * sizeof *rel);
    assert_non_null(arr);
    assert_non_null(rel);
    assert_int_equal(pp_net_alg(&m.net, PP_COLL_ALLREDUCE, P, 8), PP_ALG_RECURSIVE_DOUBLING);
    assert_int_equal(pp_net_collective(&m.net, PP_COLL_ALLREDUCE, P, 0, 8, arr, rel), 0);
    assert_float_equal(rel[P - 1], 12 * (300 + 7 * 0.08 + 1500 + 300 + 8 * 0.125), 1e-6);
    free(arr);
    free(rel);
}

/* ---- evaluation --------------------------------------------------------- */

static void test_model_eval(void **state)
{
    (void)state;
    pp_model lg = { PP_MODEL_LOG2, 100, 50, 0, 0, -1, 0, 0 };
    pp_model li = { PP_MODEL_LINEAR, 100, 50, 0, 0, -1, 0, 0 };
    pp_model co = { PP_MODEL_CONST, 100, 50, 0, 0, -1, 0, 0 };
    assert_float_equal(pp_model_eval(&lg, 8), 250.0, 1e-12);
    assert_float_equal(pp_model_eval(&lg, 1), 100.0, 1e-12);
    assert_float_equal(pp_model_eval(&lg, 0), 100.0, 1e-12); /* P<1 -> 1 */
    assert_float_equal(pp_model_eval(&lg, 6), 100 + 50 * log2(6.0), 1e-9);
    assert_float_equal(pp_model_eval(&li, 8), 500.0, 1e-12);
    assert_float_equal(pp_model_eval(&co, 8), 100.0, 1e-12);
}

static void check_scale(const pp_machine *m)
{
    double pc = 1.0, pm = 1.0;
    assert_float_equal(pp_machine_compute_scale(m, 1), 1.0, 0.0);
    assert_float_equal(pp_machine_memory_scale(m, 1), 1.0, 0.0);
    for (int P = 0; P <= 4096; P = P < 64 ? P + 1 : P * 2) {
        double c = pp_machine_compute_scale(m, P);
        double s = pp_machine_memory_scale(m, P);
        assert_true(c >= 1.0 && s >= 1.0);
        assert_true(c >= pc - 1e-12 && s >= pm - 1e-12);
        double b = pp_machine_scale(m, P, 0.3);
        assert_true(b >= 1.0);
        pc = c;
        pm = s;
    }
}

static void test_compute_scale(void **state)
{
    (void)state;
    pp_machine m;
    pp_machine_default(&m);
    check_scale(&m);
    assert_true(pp_machine_memory_scale(&m, 64) > 1.0);
    /* odd hand-written coefficients: below 1, and b = 0 */
    m.cost[PP_COST_SCALE_COMPUTE] =
        (pp_model){ PP_MODEL_LINEAR, 0.5, 0.1, 0, 0, -1, 0, 0 };
    m.cost[PP_COST_SCALE_MEMORY] =
        (pp_model){ PP_MODEL_CONST, 0.9, 0, 0, 0, -1, 0, 0 };
    check_scale(&m);
    assert_float_equal(pp_machine_compute_scale(&m, 10), 1.5, 1e-12);
    assert_float_equal(pp_machine_memory_scale(&m, 10), 1.0, 0.0);
}

static void test_defaults(void **state)
{
    (void)state;
    pp_machine m;
    pp_machine_default(&m);
    assert_int_equal(m.source, PP_MACHINE_DEFAULT);
    assert_string_equal(pp_machine_source_name(m.source), "default");
    for (int P = 1; P <= 1024; P *= 2) {
        assert_true(pp_machine_fork_join_ns(&m, P) > 0);
        assert_true(pp_machine_barrier_ns(&m, P, PP_SYNC_OMP) > 0);
        assert_true(pp_machine_barrier_ns(&m, P, PP_SYNC_PTHREAD) > 0);
        assert_true(pp_machine_barrier_ns(&m, 2 * P, PP_SYNC_OMP)
                    >= pp_machine_barrier_ns(&m, P, PP_SYNC_OMP));
    }
    assert_true(pp_machine_lock_ns(&m) > 0);
    assert_true(pp_machine_handoff_ns(&m) > pp_machine_lock_ns(&m));
    assert_true(pp_machine_create_ns(&m) > 0);
    assert_true(pp_machine_join_ns(&m) > 0);
}

/* ---- fits --------------------------------------------------------------- */

static void test_fit_exact(void **state)
{
    (void)state;
    int P[12];
    double y[12];
    for (int i = 0; i < 12; i++) {
        P[i] = 1 + i % 6;
        y[i] = 100.0 + 50.0 * log2((double)P[i]);
    }
    pp_model m;
    assert_int_equal(pp_cal_fit_best(P, y, 12, 1, PP_MODEL_LINEAR, &m), 0);
    assert_int_equal(m.kind, PP_MODEL_LOG2);
    assert_float_equal(m.a, 100.0, 1e-9);
    assert_float_equal(m.b, 50.0, 1e-9);
    assert_float_equal(m.r2, 1.0, 1e-12);
    for (int i = 0; i < 12; i++)
        y[i] = 300.0 + 20.0 * P[i];
    assert_int_equal(pp_cal_fit_best(P, y, 12, 1, PP_MODEL_LOG2, &m), 0);
    assert_int_equal(m.kind, PP_MODEL_LINEAR);
    assert_float_equal(m.a, 300.0, 1e-9);
    assert_float_equal(m.b, 20.0, 1e-9);
    assert_int_equal(m.n, 12);
}

/* Standard errors against the textbook formulas for y = a + b x:
 * s^2 = RSS / (n-2), se(b) = s / sqrt(Sxx), se(a) = s sqrt(1/n + xbar^2/Sxx).
 * Data: x = 1,2,3,4,5; y = 2,4,5,4,5 -> b = 0.6, a = 2.2, RSS = 2.4. */
static void test_fit_se(void **state)
{
    (void)state;
    int P[5] = { 1, 2, 3, 4, 5 };
    double y[5] = { 2, 4, 5, 4, 5 };
    pp_model m;
    assert_int_equal(pp_cal_fit(P, y, 5, PP_MODEL_LINEAR, &m), 0);
    assert_float_equal(m.a, 2.2, 1e-12);
    assert_float_equal(m.b, 0.6, 1e-12);
    double s = sqrt(2.4 / 3.0), sxx = 10.0;
    assert_float_equal(m.b_se, s / sqrt(sxx), 1e-12);
    assert_float_equal(m.a_se, s * sqrt(1.0 / 5 + 9.0 / sxx), 1e-12);
    assert_float_equal(m.r2, 1.0 - 2.4 / 6.0, 1e-12);
}

static void test_fit_nonneg(void **state)
{
    (void)state;
    int P[4] = { 1, 2, 3, 4 };
    double down[4] = { 40, 30, 20, 10 };         /* slope < 0 -> const  */
    double steep[4] = { 10, 40, 70, 100 };       /* a = -20 -> origin   */
    pp_model m;
    assert_int_equal(pp_cal_fit(P, down, 4, PP_MODEL_LINEAR, &m), 0);
    assert_int_equal(m.kind, PP_MODEL_CONST);
    assert_float_equal(m.a, 25.0, 1e-12);
    assert_int_equal(pp_cal_fit(P, steep, 4, PP_MODEL_LINEAR, &m), 0);
    assert_int_equal(m.kind, PP_MODEL_LINEAR);
    assert_float_equal(m.a, 0.0, 0.0);
    assert_true(m.b > 0.0);
    /* the through-origin estimate: sum(xy)/sum(xx) = 700/30 */
    assert_float_equal(m.b, 700.0 / 30.0, 1e-12);
    /* one P only: const, with the standard error of the mean */
    int one[3] = { 2, 2, 2 };
    double v[3] = { 9, 10, 11 };
    assert_int_equal(pp_cal_fit_best(one, v, 3, 1, PP_MODEL_LOG2, &m), 0);
    assert_int_equal(m.kind, PP_MODEL_CONST);
    assert_float_equal(m.a, 10.0, 1e-12);
    assert_float_equal(m.a_se, 1.0 / sqrt(3.0), 1e-12);
    double med[4] = { 5, 1, 4, 2 };
    assert_float_equal(pp_cal_median(med, 4), 3.0, 0.0);
}

/* ---- a quick calibration of this host ----------------------------------- */

static void test_quick_calibration(void **state)
{
    (void)state;
    pp_calib_opts o = { 1, 4, 0, NULL };
    pp_machine *m = malloc(sizeof *m), *n = malloc(sizeof *n);
    assert_non_null(m);
    assert_non_null(n);
    char err[512] = "";
    if (pp_calibrate(m, &o, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m->source, PP_MACHINE_MEASURED);
    assert_true(m->cores >= 1);
    assert_true(m->max_threads >= 1 && m->max_threads <= 4);
    char path[128];
    snprintf(path, sizeof path, "%s/host.machine", dir);
    if (pp_machine_save(path, m, err, sizeof err)
        || pp_machine_load(path, n, err, sizeof err))
        fail_msg("%s", err);
    /* plausible ranges, in ns: not wall-clock limits */
    double lock = pp_machine_lock_ns(n);
    assert_true(lock > 1.0 && lock < 1e6);
    assert_true(pp_machine_create_ns(n) > 100.0);
    assert_true(pp_machine_handoff_ns(n) > 1.0);
    for (int P = 1; P <= 64; P *= 2) {
        assert_true(pp_machine_fork_join_ns(n, P) > 1.0);
        assert_true(pp_machine_barrier_ns(n, P, PP_SYNC_OMP) > 0.0);
        assert_true(pp_machine_barrier_ns(n, P, PP_SYNC_PTHREAD) > 0.0);
    }
    check_scale(n);
    for (int i = 0; i < PP_COST_N; i++) {
        assert_true(n->cost[i].n > 0);
        assert_true(n->points[i].n > 0);
        assert_true(n->spread[i] >= 1);         /* every cost's rounds */
    }
    assert_int_equal(n->busy_rounds, 3);
    assert_true(n->busy_steal >= 0 && n->busy_steal <= 1);
    assert_true(n->compute_kernel_ns > 0);
    /* every non-oversubscribed team size up to the cores was measured */
    int top = m->cores < 4 ? m->cores : 4;
    int seen = 0;
    for (int j = 0; j < n->points[PP_COST_BARRIER_OMP].n; j++)
        if (n->points[PP_COST_BARRIER_OMP].pt[j].p == top
            && !n->points[PP_COST_BARRIER_OMP].pt[j].oversub)
            seen = 1;
    assert_true(seen);
    free(m);
    free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_file),
        cmocka_unit_test(test_unknown_key_ignored),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_unknown_model),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_missing_key),
        cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_save_error),
        cmocka_unit_test(test_mpi_keys),
        cmocka_unit_test(test_mpi_errors),
        cmocka_unit_test(test_mpi_round_trip),
        cmocka_unit_test(test_cluster_example),
        cmocka_unit_test(test_model_eval),
        cmocka_unit_test(test_compute_scale),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_fit_exact),
        cmocka_unit_test(test_fit_se),
        cmocka_unit_test(test_fit_nonneg),
        cmocka_unit_test(test_quick_calibration),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
