/* test_trace_sink.c - the traversal's sink (traverse.h, pp_traverse_sink)
 * on thread graphs built by hand: the spans of every thread cover [0, its
 * end) once, without gaps or overlaps; their sums are the traversal's own
 * totals (busy = computation, sync = synchronisation cost + communication,
 * wait = waiting + idle, mpi = the spans of MPI actions); the times are the
 * same with and without a sink; and the categories and flows against values
 * computed by hand (a team's uneven chunks wait for the join, a thread not
 * yet created is idle, a lock hand-off, messages and a broadcast).
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

static pp_prog prog;

static int thread(pp_instance *in, pp_itkind kind)
{
    in->threads = realloc(in->threads, sizeof *in->threads * (size_t)(in->nthreads + 1));
    memset(&in->threads[in->nthreads], 0, sizeof *in->threads);
    in->threads[in->nthreads].kind = kind;
    in->threads[in->nthreads].parent = -1;
    in->threads[in->nthreads].tid = in->nthreads;
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

/* ---- the checking sink ---------------------------------------------------- */

#define MAXT 16
#define MAXS 4096

typedef struct {
    pp_trav_sink base;
    const pp_instance *in;
    int n;
    struct {
        int t, act, cat;
        double t0, t1;
    } s[MAXS];
    double cat[MAXT][PP_TR_NCAT];
    double mpi[MAXT];
    int nflow[4];
    struct {
        int from, to;
        double t_from, t_to;
    } f[64];
    int nf;
} sink_t;

static void span(pp_trav_sink *b, int t, int a, pp_trcat cat, double t0, double t1)
{
    sink_t *s = (sink_t *)b;
    assert_true(t >= 0 && t < MAXT && s->n < MAXS);
    assert_true(t1 > t0);
    assert_true(a >= 0 && a < s->in->threads[t].nact);
    s->s[s->n].t = t;
    s->s[s->n].act = a;
    s->s[s->n].cat = cat;
    s->s[s->n].t0 = t0;
    s->s[s->n++].t1 = t1;
    s->cat[t][cat] += t1 - t0;
    pp_akind k = s->in->threads[t].act[a].kind;
    if (k >= PP_A_SEND && k <= PP_A_COLL)
        s->mpi[t] += t1 - t0;
}

static void flow(pp_trav_sink *b, pp_flkind k, int from, double t_from, int to, double t_to)
{
    sink_t *s = (sink_t *)b;
    s->nflow[k]++;
    assert_true(t_to >= t_from);
    if (s->nf < 64) {
        s->f[s->nf].from = from;
        s->f[s->nf].to = to;
        s->f[s->nf].t_from = t_from;
        s->f[s->nf++].t_to = t_to;
    }
}

static int by_start(const void *a, const void *b)
{
    const double *x = (const double *)a, *y = (const double *)b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Traverse with the sink and check it against the traversal's totals;
 * the times must be those of a traversal without a sink. */
static void traverse_checked(pp_instance *in, const pp_machine *mach, sink_t *s, pp_trav *tr)
{
    memset(s, 0, sizeof *s);
    s->base.span = span;
    s->base.flow = flow;
    s->in = in;
    char err[1024];
    assert_int_equal(pp_traverse_sink(&prog, in, mach, tr, &s->base, err, sizeof err), 0);
    pp_trav plain;
    assert_int_equal(pp_traverse(&prog, in, mach, &plain, err, sizeof err), 0);
    assert_true(plain.time == tr->time);
    for (int t = 0; t < in->nthreads; t++) {
        assert_true(plain.finish[t] == tr->finish[t]);
        assert_true(plain.busy[t] == tr->busy[t]);
        assert_true(plain.sync[t] == tr->sync[t]);
        assert_true(plain.wait[t] == tr->wait[t]);
    }
    pp_trav_free(&plain);
    double eps = 1e-9 * (tr->time + 1);
    for (int t = 0; t < in->nthreads; t++) {
        const double *c = s->cat[t];
        assert_true(fabs(c[PP_TR_WORK] - tr->busy[t]) < eps);
        assert_true(fabs(c[PP_TR_SYNC] + c[PP_TR_COMM] - tr->sync[t]) < eps);
        assert_true(fabs(c[PP_TR_WAIT] + c[PP_TR_IDLE] - tr->wait[t]) < eps);
        assert_true(fabs(s->mpi[t] - tr->mpi[t]) < eps);
        /* the spans tile [0, finish) */
        double (*iv)[2] = malloc(sizeof *iv * MAXS);
        int n = 0;
        for (int i = 0; i < s->n; i++)
            if (s->s[i].t == t) {
                iv[n][0] = s->s[i].t0;
                iv[n++][1] = s->s[i].t1;
            }
        qsort(iv, (size_t)n, sizeof *iv, by_start);
        double at = 0;
        for (int i = 0; i < n; i++) {
            assert_true(fabs(iv[i][0] - at) < eps);
            at = iv[i][1];
        }
        assert_true(fabs(at - tr->finish[t]) < eps);
        free(iv);
    }
}

static void free_in(pp_instance *in)
{
    pp_instance_free(in);
}

/* ---- OpenMP: uneven chunks, the join, the pool between teams ---------------- */

/* Two teams of 3: chunks 300 / 100 / 200, then 100 / 300 / 300, with 1000
 * of serial work between them.  On the PRAM: member 1 waits 200 at the
 * first join, member 2 100; both are idle for the serial 1000; at the
 * second join the master waits 200. */
static void omp_two_teams(pp_instance *in)
{
    memset(in, 0, sizeof *in);
    int a = team(in, 3), b = team(in, 3);
    int t0 = thread(in, PP_IT_MAIN);
    double ch[2][3] = {{300, 100, 200}, {100, 300, 300}};
    act(in, t0, PP_A_FORK, a, 3, 0);
    act(in, t0, PP_A_WORK, 0, 0, ch[0][0]);
    act(in, t0, PP_A_JOIN_TEAM, a, 3, 0);
    act(in, t0, PP_A_WORK, 0, 0, 1000);
    act(in, t0, PP_A_FORK, b, 3, 0);
    act(in, t0, PP_A_WORK, 0, 0, ch[1][0]);
    act(in, t0, PP_A_JOIN_TEAM, b, 3, 0);
    for (int i = 1; i < 3; i++) {
        int t = thread(in, PP_IT_OMP);
        in->threads[t].parent = t0;
        act(in, t, PP_A_TEAM_WAIT, a, 3, 0);
        act(in, t, PP_A_WORK, 0, 0, ch[0][i]);
        act(in, t, PP_A_TEAM_DONE, a, 3, 0);
        act(in, t, PP_A_TEAM_WAIT, b, 3, 0);
        act(in, t, PP_A_WORK, 0, 0, ch[1][i]);
        act(in, t, PP_A_TEAM_DONE, b, 3, 0);
    }
}

static void test_omp_join_wait_and_pool_idle(void **state)
{
    (void)state;
    pp_instance in;
    omp_two_teams(&in);
    static sink_t s;
    pp_trav tr;
    traverse_checked(&in, NULL, &s, &tr);
    assert_true(fabs(tr.time - 1600) < 1e-9);
    /* member 1: 100 + 300 work, waits 200 for the first join, is idle for
     * the serial 1000, and ends with the second team at 1600 */
    assert_true(fabs(s.cat[1][PP_TR_WORK] - 400) < 1e-9);
    assert_true(fabs(s.cat[1][PP_TR_WAIT] - 200) < 1e-9);
    assert_true(fabs(s.cat[1][PP_TR_IDLE] - 1000) < 1e-9);
    assert_true(fabs(s.cat[2][PP_TR_WAIT] - 100) < 1e-9);
    assert_true(fabs(s.cat[2][PP_TR_IDLE] - 1000) < 1e-9);
    /* the master waits 200 at the second join, is never idle */
    assert_true(fabs(s.cat[0][PP_TR_WAIT] - 200) < 1e-9);
    assert_true(s.cat[0][PP_TR_IDLE] == 0);
    assert_true(fabs(tr.finish[1] - 1600) < 1e-9);
    /* one fork flow per member and team */
    assert_int_equal(s.nflow[PP_FL_FORK], 4);
    pp_trav_free(&tr);

    /* the real machine: the same tiling, sync costs at the forks and joins */
    static pp_machine mach;
    pp_machine_default(&mach);
    traverse_checked(&in, &mach, &s, &tr);
    assert_true(s.cat[0][PP_TR_SYNC] > 0);
    assert_true(tr.time > 1600);
    pp_trav_free(&tr);
    free_in(&in);
}

/* ---- pthreads: not yet created, joins, locks, barriers --------------------- */

static void test_pthreads_create_join_lock_barrier(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int lk = key(&in, "lock", 0), br = key(&in, "bar", 2);
    int t0 = thread(&in, PP_IT_MAIN);
    act(&in, t0, PP_A_WORK, 0, 0, 1000);
    int w[2];
    for (int i = 0; i < 2; i++) {
        w[i] = thread(&in, PP_IT_PTHREAD);
        act(&in, t0, PP_A_CREATE, w[i], 0, 0);
        act(&in, w[i], PP_A_START, t0, 0, 0);
        act(&in, w[i], PP_A_WORK, 0, 0, 100.0 * (i + 1));
        act(&in, w[i], PP_A_LOCK, lk, 0, 0);
        act(&in, w[i], PP_A_WORK, 0, 0, 50);
        act(&in, w[i], PP_A_UNLOCK, lk, 0, 0);
        act(&in, w[i], PP_A_BARRIER, br, 2, 0);
        act(&in, w[i], PP_A_WORK, 0, 0, 10);
    }
    for (int i = 0; i < 2; i++)
        act(&in, t0, PP_A_JOIN_THREAD, w[i], 0, 0);
    static sink_t s;
    pp_trav tr;
    traverse_checked(&in, NULL, &s, &tr);
    /* PRAM: both start at 1000 (idle before); worker 1 holds the lock
     * 1100 -> 1150, worker 2 takes it free at 1200; they meet at the
     * barrier at 1250 and end at 1260 */
    assert_true(fabs(s.cat[w[0]][PP_TR_IDLE] - 1000) < 1e-9);
    assert_true(fabs(s.cat[w[1]][PP_TR_IDLE] - 1000) < 1e-9);
    assert_true(fabs(s.cat[w[0]][PP_TR_WAIT] - 100) < 1e-9);   /* barrier 1150 -> 1250 */
    assert_true(fabs(tr.time - 1260) < 1e-9);
    assert_true(fabs(s.cat[t0][PP_TR_WAIT] - 260) < 1e-9);      /* joins 1000 -> 1260 */
    assert_int_equal(s.nflow[PP_FL_CREATE], 2);
    pp_trav_free(&tr);

    static pp_machine mach;
    pp_machine_default(&mach);
    traverse_checked(&in, &mach, &s, &tr);
    /* creates, the lock, the barrier and the joins cost */
    assert_true(s.cat[t0][PP_TR_SYNC] > 0);
    assert_true(s.cat[w[0]][PP_TR_SYNC] > 0 && s.cat[w[1]][PP_TR_SYNC] > 0);
    pp_trav_free(&tr);
    free_in(&in);
}

/* Worker 1 holds the lock for 1 ms while worker 2 asks: the hand-off is
 * worker 2's synchronisation cost, the time before it is waiting. */
static void test_lock_handoff(void **state)
{
    (void)state;
    pp_instance in;
    memset(&in, 0, sizeof in);
    int lk = key(&in, "lock", 0);
    int t0 = thread(&in, PP_IT_MAIN);
    int w[2];
    for (int i = 0; i < 2; i++) {
        w[i] = thread(&in, PP_IT_PTHREAD);
        act(&in, t0, PP_A_CREATE, w[i], 0, 0);
        act(&in, w[i], PP_A_START, t0, 0, 0);
        act(&in, w[i], PP_A_WORK, 0, 0, 10.0 * (i + 1));
        act(&in, w[i], PP_A_LOCK, lk, 0, 0);
        act(&in, w[i], PP_A_WORK, 0, 0, 1e6);
        act(&in, w[i], PP_A_UNLOCK, lk, 0, 0);
    }
    for (int i = 0; i < 2; i++)
        act(&in, t0, PP_A_JOIN_THREAD, w[i], 0, 0);
    static sink_t s;
    pp_trav tr;
    traverse_checked(&in, NULL, &s, &tr);
    assert_true(fabs(s.cat[w[1]][PP_TR_WAIT] - (1e6 - 10)) < 1e-6);    /* 20 -> 1e6 + 10 */
    pp_trav_free(&tr);
    static pp_machine mach;
    pp_machine_default(&mach);
    traverse_checked(&in, &mach, &s, &tr);
    double hc = pp_machine_handoff_ns(&mach) + pp_machine_lock_ns(&mach);
    /* worker 2: its own lock call would cost lock(); it pays the hand-off */
    assert_true(fabs(s.cat[w[1]][PP_TR_SYNC] - hc) < 1e-6);
    pp_trav_free(&tr);
    free_in(&in);
}

/* ---- MPI --------------------------------------------------------------------- */

static void ranks(pp_instance *in, int P)
{
    memset(in, 0, sizeof *in);
    in->P = P;
    for (int r = 0; r < P; r++) {
        int t = thread(in, PP_IT_RANK);
        in->threads[t].tid = r;
    }
    prog.pkind = PP_P_MPI;
}

static pp_machine netm;
static const pp_machine *net_machine(void)
{
    pp_machine_default(&netm);
    netm.net.L = 1000;
    netm.net.o = 100;
    netm.net.g = 0;
    netm.net.G = 1;
    netm.net.gamma = 0;
    netm.net.eager_bytes = 65536;
    netm.net.ranks_per_node = 1;
    return &netm;
}

/* rank 0 computes 100, sends 8 bytes; rank 1 receives at once: the send
 * is 107 of communication, the receive 1207 of waiting and 100 of
 * communication (o), ending at 1307; one message flow 100 -> 1307.  Then
 * a ring of rendezvous Isends and a broadcast from rank 2. */
static void test_mpi_messages_and_collective(void **state)
{
    (void)state;
    pp_instance in;
    ranks(&in, 2);
    act(&in, 0, PP_A_WORK, 0, 0, 100);
    act(&in, 0, PP_A_SEND, 1, 0, 8);
    act(&in, 1, PP_A_RECV, 0, 0, 8);
    static sink_t s;
    pp_trav tr;
    traverse_checked(&in, net_machine(), &s, &tr);
    assert_true(fabs(tr.time - 1307) < 1e-9);
    assert_true(fabs(s.cat[0][PP_TR_COMM] - 107) < 1e-9);
    assert_true(fabs(s.cat[1][PP_TR_WAIT] - 1207) < 1e-9);
    assert_true(fabs(s.cat[1][PP_TR_COMM] - 100) < 1e-9);
    assert_true(fabs(s.cat[0][PP_TR_IDLE] - 0) < 1e-9);
    assert_int_equal(s.nflow[PP_FL_MESSAGE], 1);
    assert_true(fabs(s.f[0].t_from - 100) < 1e-9 && fabs(s.f[0].t_to - 1307) < 1e-9);
    pp_trav_free(&tr);
    pp_instance_free(&in);

    int P = 4;
    ranks(&in, P);
    for (int r = 0; r < P; r++) {
        act(&in, r, PP_A_WORK, 0, 0, 100.0 * (r + 1));
        act(&in, r, PP_A_IRECV, (r + P - 1) % P, 0, 8);
        act(&in, r, PP_A_ISEND, (r + 1) % P, 0, 1 << 20);
        act(&in, r, PP_A_WAIT, 0, -1, 0);
        act(&in, r, PP_A_COLL, PP_COLL_BCAST, 2, 4096);
        act(&in, r, PP_A_WORK, 0, 0, r == 3 ? 700 : 0);
    }
    traverse_checked(&in, net_machine(), &s, &tr);
    assert_int_equal(s.nflow[PP_FL_MESSAGE], P);
    assert_int_equal(s.nflow[PP_FL_COLLECTIVE], P - 1);
    for (int r = 0; r < P; r++)
        assert_true(s.cat[r][PP_TR_COMM] > 0);
    /* ranks 0..2 end before rank 3 (its 700 after the broadcast): idle
     * is not the sink's (pp_trav.finish to T) */
    pp_trav_free(&tr);
    traverse_checked(&in, NULL, &s, &tr);
    for (int r = 0; r < P; r++)
        assert_true(s.cat[r][PP_TR_COMM] == 0);
    pp_trav_free(&tr);
    pp_instance_free(&in);
    prog.pkind = PP_P_NONE;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_omp_join_wait_and_pool_idle),
        cmocka_unit_test(test_pthreads_create_join_lock_barrier),
        cmocka_unit_test(test_lock_handoff),
        cmocka_unit_test(test_mpi_messages_and_collective),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
