/* test_tgraph.c - the thread graph of a small hand-made instance: node and
 * edge counts, the attributes a reader checks (threads, barrier_sites,
 * kind, count), labels from a minimal model, DOT and SVG output, and the
 * error for an unwritable file.
 *
 * The instance: main creates two pthreads, waits at a barrier, runs a loop
 * of 7 iterations holding a barrier, takes a lock, joins both threads and
 * forks an OpenMP team of 2 (main and one pool thread).  Each pthread
 * waits at the barrier (thread 2 at another site), runs the same loop and
 * takes the lock.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tgraph.h"

#define A(k, key_, n_, f, s) ((pp_action){.kind = (k), .key = (key_), .n = (n_), .func = (f), .site = (s)})

/* Under SANITIZE=1: Graphviz's SVG renderer and fontconfig keep caches
 * they never free; LeakSanitizer reads this hook (unused otherwise). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libgvc.so\nleak:libfontconfig.so\nleak:libcgraph.so\nleak:libpango\nleak:libcairo\n";
}

static void add(pp_ithread *t, pp_action a)
{
    t->act = realloc(t->act, sizeof *t->act * (size_t)(t->nact + 1));
    assert_non_null(t->act);
    t->act[t->nact++] = a;
    t->capact = t->nact;
}

/* keys: 0 = "bar" (3 parties), 1 = "m" (a lock) */
static void make_instance(pp_instance *in)
{
    memset(in, 0, sizeof *in);
    in->P = 2;
    in->nthreads = 4;
    in->threads = calloc(4, sizeof *in->threads);
    in->nkeys = 2;
    in->keys = calloc(2, sizeof *in->keys);
    in->key_parties = calloc(2, sizeof *in->key_parties);
    assert_non_null(in->threads);
    assert_non_null(in->keys);
    assert_non_null(in->key_parties);
    in->keys[0] = strdup("bar");
    in->keys[1] = strdup("m");
    in->key_parties[0] = 3;
    in->nteams = 1;
    in->team_size = calloc(1, sizeof *in->team_size);
    in->team_size[0] = 2;

    pp_ithread *t0 = &in->threads[0], *t1 = &in->threads[1], *t2 = &in->threads[2], *t3 = &in->threads[3];
    t0->kind = PP_IT_MAIN;
    t0->parent = -1;
    t0->start_func = 0;
    add(t0, A(PP_A_CREATE, 1, 0, 0, 1));
    add(t0, A(PP_A_CREATE, 2, 0, 0, 1));
    add(t0, A(PP_A_BARRIER, 0, 3, 0, 0));
    add(t0, A(PP_A_LOOP_OPEN, 0, 7, 0, 0));
    add(t0, (pp_action){.kind = PP_A_WORK, .ns = 100, .func = -1, .site = -1});
    add(t0, A(PP_A_BARRIER, 0, 3, 0, 0));
    add(t0, A(PP_A_LOOP_CLOSE, 0, 7, 0, 0));
    add(t0, A(PP_A_LOCK, 1, 0, 0, 2));
    add(t0, A(PP_A_UNLOCK, 1, 0, 0, 3));
    add(t0, A(PP_A_JOIN_THREAD, 1, 0, 0, 4));
    add(t0, A(PP_A_JOIN_THREAD, 2, 0, 0, 4));
    add(t0, A(PP_A_FORK, 0, 2, 0, 5));
    add(t0, A(PP_A_JOIN_TEAM, 0, 2, 0, 5));
    for (int i = 1; i <= 2; i++) {
        pp_ithread *t = i == 1 ? t1 : t2;
        t->kind = PP_IT_PTHREAD;
        t->parent = 0;
        t->tid = i - 1;
        t->start_func = 0;
        add(t, A(PP_A_START, 0, 0, 0, 1));
        add(t, A(PP_A_BARRIER, 0, 3, 0, i == 1 ? 0 : 4));   /* thread 2: another site */
        add(t, A(PP_A_LOOP_OPEN, 0, 7, 0, 0));
        add(t, A(PP_A_BARRIER, 0, 3, 0, 0));
        add(t, A(PP_A_LOOP_CLOSE, 0, 7, 0, 0));
        add(t, A(PP_A_LOCK, 1, 0, 0, 2));
        add(t, A(PP_A_UNLOCK, 1, 0, 0, 3));
    }
    t3->kind = PP_IT_OMP;
    t3->parent = 0;
    t3->tid = 1;
    t3->start_func = -1;
    add(t3, A(PP_A_TEAM_WAIT, 0, 2, 0, 5));
    add(t3, (pp_action){.kind = PP_A_WORK, .ns = 50, .func = -1, .site = -1});
    add(t3, A(PP_A_TEAM_DONE, 0, 2, 0, 5));
}

/* A model with one function "f" in dir/t.c: loop 0 at line 10 with count
 * N - 1 over the global parameter N = 8; events 0..5 at lines 12..17. */
typedef struct {
    pp_prog m;
    pp_mfunc mf;
    pp_dfunc d;
    pp_dloop loop;
    pp_mloop mloop;
    pp_devent ev[6];
    pp_param par;
} mini;

static void make_model(mini *x)
{
    memset(x, 0, sizeof *x);
    x->d.name = (char *)"f";
    x->d.file = (char *)"dir/t.c";
    x->d.nloops = 1;
    x->d.loops = &x->loop;
    x->loop.id = 0;
    x->loop.line = 10;
    x->d.nevents = 6;
    x->d.events = x->ev;
    static const pp_evkind kinds[6] = {PP_EV_BARRIER, PP_EV_CREATE, PP_EV_LOCK, PP_EV_UNLOCK, PP_EV_JOIN, PP_EV_FORK};
    for (int i = 0; i < 6; i++) {
        x->ev[i].id = i;
        x->ev[i].line = 12 + i;
        x->ev[i].kind = kinds[i];
    }
    char err[128];
    x->mloop.rule = PP_RULE_SYMBOLIC;
    x->mloop.count = pp_expr_parse("(- (global N) 1)", NULL, err, sizeof err);
    assert_non_null(x->mloop.count);
    x->mf.d = &x->d;
    x->mf.loops = &x->mloop;
    x->par.name = (char *)"N";
    x->par.src = (char *)"N";
    x->par.is_global = 1;
    x->par.recorded = 8;
    x->m.nfuncs = 1;
    x->m.funcs = &x->mf;
    x->m.main_func = 0;
    x->m.nparams = 1;
    x->m.params = &x->par;
    x->m.p_recorded = 2;
}

static const char *nattr(Agraph_t *g, const char *node, const char *attr)
{
    Agnode_t *n = agnode(g, (char *)node, 0);
    assert_non_null(n);
    const char *v = agget(n, (char *)attr);
    return v ? v : "";
}

static Agraph_t *cluster(Agraph_t *g, int t)
{
    char name[32];
    snprintf(name, sizeof name, "cluster_t%d", t);
    Agraph_t *s = agsubg(g, name, 0);
    assert_non_null(s);
    return s;
}

static void counts_and_attributes(void **state)
{
    (void)state;
    pp_instance in;
    make_instance(&in);
    char err[256] = "";
    Agraph_t *g = pp_tgraph_build(NULL, &in, err, sizeof err);
    assert_non_null(g);
    /* nodes: main start + 12 drawn actions + end = 14; each pthread its
     * START + 6 + end = 8; the pool thread start + 2 + end = 4; 2 barrier
     * ovals (the barrier before the loop and the one in it); 1 lock box */
    assert_int_equal(agnnodes(g), 14 + 8 + 8 + 4 + 2 + 1);
    /* edges: chains 13 + 7 + 7 + 3; loop arcs 3; create 2, join 2, fork 1,
     * team done 1; barrier 6; lock and unlock 6 */
    assert_int_equal(agnedges(g), 30 + 3 + 2 + 2 + 1 + 1 + 6 + 6);
    assert_string_equal(agget(g, (char *)"threads"), "4");
    assert_string_equal(agget(g, (char *)"barrier_sites"), "2");
    assert_string_equal(agget(g, (char *)"locks"), "1");
    assert_string_equal(agget(g, (char *)"P"), "2");
    assert_string_equal(agget(cluster(g, 0), (char *)"kind"), "main");
    assert_string_equal(agget(cluster(g, 1), (char *)"kind"), "pthread");
    assert_string_equal(agget(cluster(g, 2), (char *)"kind"), "pthread");
    assert_string_equal(agget(cluster(g, 3), (char *)"kind"), "omp");
    assert_string_equal(agget(cluster(g, 1), (char *)"label"), "thread 1 (pthread, order 0)");
    assert_string_equal(agget(cluster(g, 3), (char *)"label"), "omp 3 (tid 1)");
    assert_int_equal(agnnodes(cluster(g, 0)), 14);
    assert_int_equal(agnnodes(cluster(g, 3)), 4);
    /* LOOP_OPEN carries its count; the WORK action (index 4) is not drawn */
    assert_string_equal(nattr(g, "t0_a3", "count"), "7");
    assert_string_equal(nattr(g, "t1_a2", "count"), "7");
    assert_null(agnode(g, (char *)"t0_a4", 0));
    /* both barrier ovals join all three threads */
    assert_string_equal(nattr(g, "barrier_k0_0", "members"), "3");
    assert_string_equal(nattr(g, "barrier_k0_1", "members"), "3");
    assert_string_equal(nattr(g, "barrier_k0_1", "parties"), "3");
    assert_string_equal(nattr(g, "barrier_k0_1", "object"), "bar");
    assert_non_null(strstr(nattr(g, "barrier_k0_1", "label"), "3 parties (P+1)"));
    /* the loop arc goes from LOOP_CLOSE back to LOOP_OPEN */
    Agnode_t *close = agnode(g, (char *)"t0_a6", 0), *open = agnode(g, (char *)"t0_a3", 0);
    Agedge_t *arc = agedge(g, close, open, NULL, 0);
    assert_non_null(arc);
    assert_string_equal(agget(arc, (char *)"count"), "7");
    /* communication edges */
    assert_non_null(agedge(g, agnode(g, (char *)"t0_a0", 0), agnode(g, (char *)"t1_a0", 0), NULL, 0));
    assert_non_null(agedge(g, agnode(g, (char *)"t2_end", 0), agnode(g, (char *)"t0_a10", 0), NULL, 0));
    assert_non_null(agedge(g, agnode(g, (char *)"t0_a11", 0), agnode(g, (char *)"t3_a0", 0), NULL, 0));
    assert_non_null(agedge(g, agnode(g, (char *)"t3_a2", 0), agnode(g, (char *)"t0_a12", 0), NULL, 0));
    /* the WORK before the second barrier is on the chain edge */
    Agedge_t *ch = agedge(g, open, agnode(g, (char *)"t0_a5", 0), NULL, 0);
    assert_non_null(ch);
    assert_string_equal(agget(ch, (char *)"ns"), "100");
    pp_tgraph_free(g);
    pp_instance_free(&in);
}

static void labels_from_model(void **state)
{
    (void)state;
    pp_instance in;
    make_instance(&in);
    mini x;
    make_model(&x);
    char err[256] = "";
    Agraph_t *g = pp_tgraph_build(&x.m, &in, err, sizeof err);
    assert_non_null(g);
    assert_string_equal(nattr(g, "t0_a2", "label"), "barrier\nt.c:12");
    assert_string_equal(nattr(g, "t0_a3", "label"), "loop t.c:10\nN - 1 (= 7) iterations");
    assert_string_equal(nattr(g, "t0_a0", "label"), "create thread 1\nt.c:13");
    assert_string_equal(nattr(g, "t1_a0", "label"), "start f()");
    assert_string_equal(agget(cluster(g, 1), (char *)"label"), "thread 1 (pthread, order 0)\nf()");
    Agedge_t *arc = agedge(g, agnode(g, (char *)"t0_a6", 0), agnode(g, (char *)"t0_a3", 0), NULL, 0);
    assert_non_null(arc);
    assert_string_equal(agget(arc, (char *)"label"), "N - 1 (= 7)");
    /* the first barrier: main and thread 1 wait at line 12, thread 2 at
     * line 16; the second: all at line 12, listed once */
    assert_string_equal(nattr(g, "barrier_k0_0", "sites"), "t.c:12, 16");
    assert_string_equal(nattr(g, "barrier_k0_1", "sites"), "t.c:12");
    assert_string_equal(nattr(g, "barrier_k0_0", "label"), "barrier 'bar'\n3 parties (P+1)\nt.c:12, 16");
    pp_tgraph_free(g);
    pp_expr_free(x.mloop.count);
    pp_instance_free(&in);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void write_dot_and_svg(void **state)
{
    (void)state;
    pp_instance in;
    make_instance(&in);
    char err[512] = "";
    Agraph_t *g = pp_tgraph_build(NULL, &in, err, sizeof err);
    assert_non_null(g);
    char dir[] = "/tmp/pp-tgraph-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char dot[64], svg[64], bad[96];
    snprintf(dot, sizeof dot, "%s/g.dot", dir);
    snprintf(svg, sizeof svg, "%s/g.svg", dir);
    snprintf(bad, sizeof bad, "%s/no/such/dir/g.dot", dir);

    assert_int_equal(pp_tgraph_write(g, PP_FMT_DOT, dot, err, sizeof err), 0);
    const char *s = slurp(dot);
    assert_non_null(strstr(s, "digraph thread_graph"));
    assert_non_null(strstr(s, "subgraph cluster_t3"));
    assert_non_null(strstr(s, "barrier_sites=2"));

    assert_int_equal(pp_tgraph_write(g, PP_FMT_SVG, svg, err, sizeof err), 0);
    s = slurp(svg);
    assert_true(strncmp(s, "<?xml", 5) == 0 || strncmp(s, "<svg", 4) == 0);
    assert_non_null(strstr(s, "</svg>"));
    assert_non_null(strstr(s, "<title>cluster_t3</title>"));
    assert_non_null(strstr(s, "<title>barrier_k0_1</title>"));

    err[0] = 0;
    assert_int_equal(pp_tgraph_write(g, PP_FMT_DOT, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, bad));

    unlink(dot);
    unlink(svg);
    rmdir(dir);
    pp_tgraph_free(g);
    pp_instance_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_and_attributes),
        cmocka_unit_test(labels_from_model),
        cmocka_unit_test(write_dot_and_svg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
