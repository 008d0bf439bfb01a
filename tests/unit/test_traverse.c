/* test_traverse.c - the traversal and the metrics on thread graphs built by
 * hand, against times computed by hand.
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

#include "metrics.h"
#include "traverse.h"

static pp_prog prog;   /* empty: hang reports then print '?' for sites */

static int thread(pp_instance *in, pp_itkind kind)
{
    in->threads = realloc(in->threads, sizeof *in->threads * (size_t)(in->nthreads + 1));
    memset(&in->threads[in->nthreads], 0, sizeof *in->threads);
    in->threads[in->nthreads].kind = kind;
    return in->nthreads++;
}

static void act(pp_instance *in, int t, pp_akind k, long key, int n, double ns)
{
    pp_ithread *th = &in->threads[t];
    th->act = realloc(th->act, sizeof *th->act * (size_t)(th->nact + 1));
    th->act[th->nact++] = (pp_action){.kind = k, .key = key, .n = n, .ns = ns, .func = -1, .site = -1};
}

static int key(pp_instance *in, const char *name, int parties)
{
    in->keys = realloc(in->keys, sizeof *in->keys * (size_t)(in->nkeys + 1));
    in->key_parties = realloc(in->key_parties, sizeof *in->key_parties * (size_t)(in->nkeys + 1));
    in->keys[in->nkeys] = strdup(name);
    in->key_parties[in->nkeys] = parties;
    return in->nkeys++;
}

static int team(pp_instance *in, int size)
{
    in->team_size = realloc(in->team_size, sizeof *in->team_size * (size_t)(in->nteams + 1));
    in->team_size[in->nteams] = size;
    return in->nteams++;
}

static void free_in(pp_instance *in)
{
    in->totals = NULL;
    pp_instance_free(in);
}

/* An OpenMP parallel loop of P equal chunks. */
static void omp_embar(pp_instance *in, int P, double chunk)
{
    memset(in, 0, sizeof *in);
    int tm = team(in, P);
    int t0 = thread(in, PP_IT_MAIN);
    act(in, t0, PP_A_FORK, tm, P, 0);
    act(in, t0, PP_A_WORK, 0, 0, chunk);
    act(in, t0, PP_A_JOIN_TEAM, tm, P, 0);
    for (int i = 1; i < P; i++) {
        int t = thread(in, PP_IT_OMP);
        act(in, t, PP_A_TEAM_WAIT, tm, P, 0);
        act(in, t, PP_A_WORK, 0, 0, chunk);
        act(in, t, PP_A_TEAM_DONE, tm, P, 0);
    }
}

static double pram_time(pp_instance *in)
{
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, in, NULL, &tr, err, sizeof err), 0);
    double t = tr.time;
    pp_trav_free(&tr);
    return t;
}

static void test_embarrassingly_parallel_Ea_is_1(void **state)
{
    (void)state;
    const double W = 1e6;  /* ns of total work */
    for (int P = 1; P <= 64; P *= 2) {
        pp_instance one, par;
        omp_embar(&one, 1, W);
        omp_embar(&par, P, W / P);
        pp_metrics mt;
        pp_metrics_compute(&mt, pram_time(&one), pram_time(&par), pram_time(&par), P);
        assert_true(fabs(mt.Ea - 1.0) < 0.01);
        assert_true(fabs(mt.La) < 1e-6 * W);
        free_in(&one);
        free_in(&par);
    }
}

/* Serial part f*T in main, then P threads share (1-f)*T. */
static void pthread_amdahl(pp_instance *in, int P, double T, double f)
{
    memset(in, 0, sizeof *in);
    int t0 = thread(in, PP_IT_MAIN);
    act(in, t0, PP_A_WORK, 0, 0, f * T);
    for (int i = 0; i < P; i++) {
        int t = thread(in, PP_IT_PTHREAD);
        act(in, t0, PP_A_CREATE, t, 0, 0);
        act(in, t, PP_A_START, t0, 0, 0);
        act(in, t, PP_A_WORK, 0, 0, (1 - f) * T / P);
    }
    for (int i = 1; i <= P; i++)
        act(in, t0, PP_A_JOIN_THREAD, i, 0, 0);
}

static void test_serial_fraction_gives_amdahl(void **state)
{
    (void)state;
    const double T = 1e8;
    double fs[] = {0.01, 0.05, 0.2};
    for (int fi = 0; fi < 3; fi++)
        for (int P = 2; P <= 128; P *= 4) {
            pp_instance one, par;
            pthread_amdahl(&one, 1, T, fs[fi]);
            pthread_amdahl(&par, P, T, fs[fi]);
            pp_metrics mt;
            double tp = pram_time(&par);
            pp_metrics_compute(&mt, pram_time(&one), tp, tp, P);
            double amdahl = 1.0 / (1.0 + fs[fi] * (P - 1));
            assert_true(fabs(mt.Ea - amdahl) / amdahl < 0.02);
            free_in(&one);
            free_in(&par);
        }
}

static void test_barrier_releases_at_last_arrival(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int b = key(&in, "bar", 3);
    double work[3] = {10, 30, 20};
    for (int i = 0; i < 3; i++) {
        int t = thread(&in, i ? PP_IT_PTHREAD : PP_IT_MAIN);
        act(&in, t, PP_A_WORK, 0, 0, work[i]);
        act(&in, t, PP_A_BARRIER, b, 3, 0);
        act(&in, t, PP_A_WORK, 0, 0, 5);
    }
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 35) < 1e-9);
    assert_true(fabs(tr.wait[0] - 20) < 1e-9);   /* thread 0 waited 10..30 */
    assert_true(fabs(tr.wait[1]) < 1e-9);
    pp_trav_free(&tr);
    /* the real machine adds the barrier cost once per episode, and the
     * threads that slept (arrived before the last) resume a wake-up
     * (the mutex hand-off to a blocked waiter) later */
    pp_machine mach;
    pp_machine_default(&mach);
    mach.cost[PP_COST_BARRIER_PTHREAD] = (pp_model){.kind = PP_MODEL_CONST, .a = 100};
    mach.cost[PP_COST_HANDOFF] = (pp_model){.kind = PP_MODEL_CONST, .a = 50};
    mach.cost[PP_COST_SCALE_COMPUTE] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    mach.cost[PP_COST_SCALE_MEMORY] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    assert_int_equal(pp_traverse(&prog, &in, &mach, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.finish[1] - 135) < 1e-6);   /* the last to arrive   */
    assert_true(fabs(tr.finish[0] - 185) < 1e-6);   /* slept: + 50 wake-up  */
    assert_true(fabs(tr.time - 185) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

static void test_critical_sections_serialise_on_pram(void **state)
{
    (void)state;
    const int P = 8;
    const double c = 1000;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int l = key(&in, "critical", 0);
    for (int i = 0; i < P; i++) {
        int t = thread(&in, i ? PP_IT_PTHREAD : PP_IT_MAIN);
        act(&in, t, PP_A_LOCK, l, 0, 0);
        act(&in, t, PP_A_WORK, 0, 0, c);
        act(&in, t, PP_A_UNLOCK, l, 0, 0);
    }
    assert_true(fabs(pram_time(&in) - P * c) < 1e-9);
    /* real: each hand-off costs handoff + lock; the first acquire only lock */
    pp_machine mach;
    pp_machine_default(&mach);
    mach.cost[PP_COST_LOCK] = (pp_model){.kind = PP_MODEL_CONST, .a = 20};
    mach.cost[PP_COST_HANDOFF] = (pp_model){.kind = PP_MODEL_CONST, .a = 100};
    mach.cost[PP_COST_SCALE_COMPUTE] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    mach.cost[PP_COST_SCALE_MEMORY] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, &in, &mach, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - (P * c + 20 + (P - 1) * 120)) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

/* The fitted fixed cost of a segment (the instance's seg_ns) is no work: the PRAM
 * never charges it, the real machine charges it as synchronisation just
 * before each event.  By hand, with seg = 1000 and a machine whose own
 * costs are all zero: main creates two threads and joins them; each does
 * 10000 of work, then 5000 under a lock.
 *   PRAM: both reach the lock at 10000; t2 waits for t1: 20000.
 *   real: main's creates pay a segment each (t1 starts at 1000, t2 at
 *   2000); t1 locks at 11000 + 1000, unlocks at 17000 + 1000 = 18000 and
 *   ends; t2 reached the lock at 12000 + 1000 and gets it at 18000,
 *   unlocks at 23000 + 1000 = 24000; main joins t1 (after its own segment
 *   at 3000), then t2 at 24000.  Sync: 4 segments of main, 2 of each. */
static void test_segment_cost_is_sync_not_work(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int l = key(&in, "critical", 0);
    int t0 = thread(&in, PP_IT_MAIN);
    for (int i = 1; i <= 2; i++) {
        int t = thread(&in, PP_IT_PTHREAD);
        act(&in, t0, PP_A_CREATE, t, 0, 0);
        act(&in, t, PP_A_START, t0, 0, 0);
        act(&in, t, PP_A_WORK, 0, 0, 10000);
        act(&in, t, PP_A_LOCK, l, 0, 0);
        act(&in, t, PP_A_WORK, 0, 0, 5000);
        act(&in, t, PP_A_UNLOCK, l, 0, 0);
    }
    act(&in, t0, PP_A_JOIN_THREAD, 1, 0, 0);
    act(&in, t0, PP_A_JOIN_THREAD, 2, 0, 0);
    in.seg_ns = 1000;
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 20000) < 1e-9);
    assert_true(fabs(tr.total_sync) < 1e-9);
    pp_trav_free(&tr);
    pp_machine mach;
    pp_machine_default(&mach);
    for (int i = 0; i < PP_COST_N; i++)
        mach.cost[i] = (pp_model){.kind = PP_MODEL_CONST, .a = 0};
    mach.cost[PP_COST_SCALE_COMPUTE] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    mach.cost[PP_COST_SCALE_MEMORY] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    assert_int_equal(pp_traverse(&prog, &in, &mach, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 24000) < 1e-6);
    assert_true(fabs(tr.finish[1] - 18000) < 1e-6);
    assert_true(fabs(tr.sync[0] - 4000) < 1e-6);
    assert_true(fabs(tr.sync[1] - 2000) < 1e-6 && fabs(tr.sync[2] - 2000) < 1e-6);
    assert_true(fabs(tr.busy[1] - 15000) < 1e-6 && fabs(tr.busy[2] - 15000) < 1e-6);
    /* t2 waited at the lock from 13000 to 18000 */
    assert_true(fabs(tr.wait[2] - (2000 + 5000)) < 1e-6);
    pp_trav_free(&tr);
    /* without it, the real machine is the PRAM here (t2 starts at 0 too) */
    in.seg_ns = 0;
    assert_int_equal(pp_traverse(&prog, &in, &mach, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 20000) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

static void test_missing_barrier_party_is_a_hang(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int b = key(&in, "bar", 3);
    for (int i = 0; i < 2; i++) {
        int t = thread(&in, i ? PP_IT_PTHREAD : PP_IT_MAIN);
        act(&in, t, PP_A_BARRIER, b, 3, 0);
    }
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), -1);
    assert_non_null(strstr(err, "hangs"));
    assert_non_null(strstr(err, "bar"));
    assert_non_null(strstr(err, "2 of 3"));
    free_in(&in);
}

/* A thread that locks a lock it holds goes on (the model took two objects
 * for one, docs/model.md): the lock is released by the unlock that
 * matches the first lock.  t0: lock, lock, 100, unlock, 30, unlock;
 * t1: 1, lock, 50, unlock.  t1 gets the lock at 130, ends at 180 (at
 * 150 if the first unlock released it; never, if the second lock
 * blocked). */
static void test_relock_by_owner_goes_on(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int l = key(&in, "guess:f:(arg a)@0", 0);
    int t0 = thread(&in, PP_IT_MAIN), t1 = thread(&in, PP_IT_PTHREAD);
    act(&in, t0, PP_A_LOCK, l, 0, 0);
    act(&in, t0, PP_A_LOCK, l, 0, 0);
    act(&in, t0, PP_A_WORK, 0, 0, 100);
    act(&in, t0, PP_A_UNLOCK, l, 0, 0);
    act(&in, t0, PP_A_WORK, 0, 0, 30);
    act(&in, t0, PP_A_UNLOCK, l, 0, 0);
    act(&in, t1, PP_A_WORK, 0, 0, 1);
    act(&in, t1, PP_A_LOCK, l, 0, 0);
    act(&in, t1, PP_A_WORK, 0, 0, 50);
    act(&in, t1, PP_A_UNLOCK, l, 0, 0);
    assert_true(fabs(pram_time(&in) - 180) < 1e-9);
    free_in(&in);
}

/* The hand-built cond-var barrier as the instantiation makes it (unlock
 * the mutex, barrier on the cond var, lock the mutex; then the program's
 * unlock): t0 works 100, t1 300; both leave at 300, t0 having waited
 * 200, and the mutex is free at the end. */
static void test_cond_barrier_waits_for_the_last(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int mu = key(&in, "bar", 0), cv = key(&in, "cond:bar", 2);
    double work[2] = {100, 300};
    for (int i = 0; i < 2; i++) {
        int t = thread(&in, i ? PP_IT_PTHREAD : PP_IT_MAIN);
        act(&in, t, PP_A_WORK, 0, 0, work[i]);
        act(&in, t, PP_A_LOCK, mu, 0, 0);
        act(&in, t, PP_A_UNLOCK, mu, 0, 0);
        act(&in, t, PP_A_BARRIER, cv, 2, 0);
        act(&in, t, PP_A_LOCK, mu, 0, 0);
        act(&in, t, PP_A_UNLOCK, mu, 0, 0);
        act(&in, t, PP_A_WORK, 0, 0, 10);
    }
    pp_trav tr;
    char err[512];
    assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), 0);
    assert_true(fabs(tr.time - 310) < 1e-9);
    assert_true(fabs(tr.wait[0] - 200) < 1e-9);
    assert_true(fabs(tr.wait[1]) < 1e-9);
    pp_trav_free(&tr);
    free_in(&in);
}

/* t0 waits on a semaphore that t1 posts after 100: t0 runs 10 more,
 * from 100 to 110, having waited 100.  A post before the wait is
 * counted: t1 posting at 0 lets t0 through at once (time 100: t1's). */
static void test_semaphore_counts(void **state)
{
    (void)state;
    for (int early = 0; early < 2; early++) {
        pp_instance in;
        memset(&in, 0, sizeof in);
        int s = key(&in, "sem:done", 0);
        int t0 = thread(&in, PP_IT_MAIN), t1 = thread(&in, PP_IT_PTHREAD);
        act(&in, t0, PP_A_SEM_WAIT, s, 0, 0);
        act(&in, t0, PP_A_WORK, 0, 0, 10);
        if (early)
            act(&in, t1, PP_A_SEM_POST, s, 0, 0);
        act(&in, t1, PP_A_WORK, 0, 0, 100);
        if (!early)
            act(&in, t1, PP_A_SEM_POST, s, 0, 0);
        pp_trav tr;
        char err[512];
        assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), 0);
        assert_true(fabs(tr.time - (early ? 100 : 110)) < 1e-9);
        assert_true(fabs(tr.wait[0] - (early ? 0 : 100)) < 1e-9);
        assert_int_equal(tr.spurious, 0);
        pp_trav_free(&tr);
        free_in(&in);
    }
}

/* A cond_wait is woken by a signal after it started waiting (t1 signals
 * at 40: t0 ends at 50); one that no signal reaches is released when
 * the walk would hang, at the latest clock (t1 done at 40 without a
 * signal: t0 runs 40..50 and the release is counted). */
static void test_cond_wait_woken_or_released(void **state)
{
    (void)state;
    for (int signal = 0; signal < 2; signal++) {
        pp_instance in;
        memset(&in, 0, sizeof in);
        int cv = key(&in, "cond:q", 0);
        int t0 = thread(&in, PP_IT_MAIN), t1 = thread(&in, PP_IT_PTHREAD);
        act(&in, t0, PP_A_COND_WAIT, cv, 0, 0);
        act(&in, t0, PP_A_WORK, 0, 0, 10);
        act(&in, t1, PP_A_WORK, 0, 0, 40);
        if (signal)
            act(&in, t1, PP_A_COND_WAKE, cv, 1, 0);
        pp_trav tr;
        char err[512];
        assert_int_equal(pp_traverse(&prog, &in, NULL, &tr, err, sizeof err), 0);
        assert_true(fabs(tr.time - 50) < 1e-9);
        assert_int_equal(tr.spurious, signal ? 0 : 1);
        pp_trav_free(&tr);
        free_in(&in);
    }
}

/* A team of four: the master works 10000 ns, the three others 6000, a
 * team barrier, 2000 each, the join; every event costs the segment's
 * fixed 1000 ns first.  With `weighted`, thread 1's segment stands for
 * threads 2 and 3, which hold a PARK only (PP_INST_CLASSES). */
static void team_of_four(pp_instance *in, int weighted)
{
    memset(in, 0, sizeof *in);
    int tm = team(in, 4);
    int b = key(in, "team:0", 4);
    int t0 = thread(in, PP_IT_MAIN);
    act(in, t0, PP_A_FORK, tm, 4, 0);
    act(in, t0, PP_A_WORK, 0, 0, 10000);
    act(in, t0, PP_A_BARRIER, b, 4, 0);
    act(in, t0, PP_A_WORK, 0, 0, 2000);
    act(in, t0, PP_A_JOIN_TEAM, tm, 4, 0);
    for (int i = 1; i < 4; i++) {
        int t = thread(in, PP_IT_OMP);
        if (weighted && i > 1) {
            act(in, t, PP_A_PARK, 0, 0, 0);
            continue;
        }
        act(in, t, PP_A_TEAM_WAIT, tm, 4, 0);
        act(in, t, PP_A_WORK, 0, 0, 6000);
        act(in, t, PP_A_BARRIER, b, 4, 0);
        act(in, t, PP_A_WORK, 0, 0, 2000);
        act(in, t, PP_A_TEAM_DONE, tm, 4, 0);
    }
    if (!weighted)
        return;
    in->threads[1].act[0].vseg = 1;
    in->nvseg = 1;
    in->vsegs = malloc(sizeof *in->vsegs);
    in->vsegs[0] = (struct pp_vseg){.thread = 1, .at = 0, .team = tm, .copies = 2, .first = 0, .last = 0};
    in->nvrun = 1;
    in->vruns = malloc(sizeof *in->vruns);
    in->vruns[0] = (struct pp_vrun){.lo = 2, .hi = 3, .next = -1};
    in->vlast = malloc(sizeof *in->vlast * 4);
    in->vlast[0] = in->vlast[1] = -1;
    in->vlast[2] = in->vlast[3] = tm;
}

static void test_segment_weighted_by_its_members(void **state)
{
    (void)state;
    pp_machine mach;
    pp_machine_default(&mach);
    for (int i = 0; i < PP_COST_N; i++)
        mach.cost[i] = (pp_model){.kind = PP_MODEL_CONST, .a = 0};
    /* a threads at once run at 1 / (0.5 + 0.5 a): 4 at once, 2.5x slower */
    mach.cost[PP_COST_SCALE_COMPUTE] = (pp_model){.kind = PP_MODEL_LINEAR, .a = 0.5, .b = 0.5};
    mach.cost[PP_COST_SCALE_MEMORY] = (pp_model){.kind = PP_MODEL_CONST, .a = 1};
    pp_trav full, weighted;
    char err[512];
    pp_instance a, b;
    team_of_four(&a, 0);
    team_of_four(&b, 1);
    a.seg_ns = b.seg_ns = 1000;
    assert_int_equal(pp_traverse(&prog, &a, &mach, &full, err, sizeof err), 0);
    assert_int_equal(pp_traverse(&prog, &b, &mach, &weighted, err, sizeof err), 0);
    /* by hand: all four run from the fork at 1000 at 2.5x; the members'
     * 6000 end at 16000, they pay 1000 (still running) and wait at the
     * barrier from 17000; the master has 3600 left at 17000, alone:
     * 20600, its 1000, the barrier at 21600; 2000 at 2.5x: 26600; the
     * last 1000: the join at 27600 */
    assert_true(fabs(full.time - 27600) < 1e-6);
    assert_true(fabs(full.busy[0] - 24600) < 1e-6 && fabs(full.wait[0]) < 1e-6);
    for (int t = 1; t < 4; t++)
        assert_true(fabs(full.busy[t] - 20000) < 1e-6 && fabs(full.sync[t] - 3000) < 1e-6 &&
                    fabs(full.wait[t] - 4600) < 1e-6 && fabs(full.finish[t] - 27600) < 1e-6);
    /* the weighted segment: the same, thread by thread */
    assert_true(fabs(weighted.time - full.time) < 1e-6);
    for (int t = 0; t < 4; t++)
        assert_true(fabs(weighted.busy[t] - full.busy[t]) < 1e-6 && fabs(weighted.sync[t] - full.sync[t]) < 1e-6 &&
                    fabs(weighted.wait[t] - full.wait[t]) < 1e-6 &&
                    fabs(weighted.finish[t] - full.finish[t]) < 1e-6);
    assert_true(fabs(weighted.total_busy - 84600) < 1e-6 && fabs(weighted.total_wait - 13800) < 1e-6 &&
                fabs(weighted.total_sync - 12000) < 1e-6);
    pp_trav_free(&full);
    pp_trav_free(&weighted);
    /* the PRAM: 1000 + 10000 for the master, the barrier, 2000 */
    assert_int_equal(pp_traverse(&prog, &b, NULL, &weighted, err, sizeof err), 0);
    assert_true(fabs(weighted.time - 12000) < 1e-6);
    pp_trav_free(&weighted);
    free_in(&a);
    free_in(&b);
}

static void test_real_is_never_faster_than_pram(void **state)
{
    (void)state;
    pp_machine mach;
    pp_machine_default(&mach);
    for (int P = 2; P <= 32; P *= 2) {
        pp_instance in;
        omp_embar(&in, P, 5000);
        pp_trav a, b;
        char err[512];
        assert_int_equal(pp_traverse(&prog, &in, NULL, &a, err, sizeof err), 0);
        assert_int_equal(pp_traverse(&prog, &in, &mach, &b, err, sizeof err), 0);
        assert_true(b.time >= a.time);
        pp_trav_free(&a);
        pp_trav_free(&b);
        free_in(&in);
    }
}

static void test_metric_formulas(void **state)
{
    (void)state;
    pp_metrics mt;
    pp_metrics_compute(&mt, 8.0, 2.5, 4.0, 4);
    assert_true(fabs(mt.t_mir - 2.0) < 1e-12);
    assert_true(fabs(mt.La - 0.5) < 1e-12);
    assert_true(fabs(mt.L - 2.0) < 1e-12);
    assert_true(fabs(mt.Ea - 0.8) < 1e-12);
    assert_true(fabs(mt.E - 0.5) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embarrassingly_parallel_Ea_is_1),
        cmocka_unit_test(test_serial_fraction_gives_amdahl),
        cmocka_unit_test(test_barrier_releases_at_last_arrival),
        cmocka_unit_test(test_critical_sections_serialise_on_pram),
        cmocka_unit_test(test_segment_cost_is_sync_not_work),
        cmocka_unit_test(test_missing_barrier_party_is_a_hang),
        cmocka_unit_test(test_relock_by_owner_goes_on),
        cmocka_unit_test(test_cond_barrier_waits_for_the_last),
        cmocka_unit_test(test_semaphore_counts),
        cmocka_unit_test(test_cond_wait_woken_or_released),
        cmocka_unit_test(test_segment_weighted_by_its_members),
        cmocka_unit_test(test_real_is_never_faster_than_pram),
        cmocka_unit_test(test_metric_formulas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
