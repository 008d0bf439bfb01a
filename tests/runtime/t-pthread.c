/* t-pthread.c - a pthread program instrumented by hand (see pp-emul.h).
 *
 * usage: t-pthread N K [EXIT]
 *   NT=3 workers created at main's site 0 with arg i; worker i runs N*(i+1)
 *   iterations (a branch on parity inside), then K rounds of
 *   barrier + lock/unlock; worker 2 leaves with pthread_exit.  A fourth
 *   thread is created with plain pthread_create (the runtime does not see
 *   it created: kind=other) and calls an instrumented helper.  main then
 *   joins, try-locks once, and prints a checksum; exit status EXIT.
 *
 * Expected counters (checked by tests/e2e/20-runtime.t):
 *   worker i: (1, N*(i+1)+1, 1, K, K+1, 1, K, K, floor(it/2), it-floor(it/2))
 *             with it = N*(i+1)
 *   main:     (1, NT+1, 1, NT, NT, NT+1, 1, 1, 1)
 *   helper:   (1, 11, 1)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pp-emul.h"

#define NT 3

int g_scale;                    /* a global that bounds loops: gparam */
PP_GDESC(gd_scale, g_scale, 1);
PP_GDESC(gd_scale_again, g_scale, 1);   /* a duplicate from "another unit" */

static pthread_barrier_t bar;
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static long sum;
static int rounds;

/* ------------------------------------------------------------ worker */
PP_FDESC(d_worker, 10, "worker",
         "func name=worker file=t-pthread.c line=40 kind=thread_start nslots=10 ops=(1 0 0 0 0 0)\n"
         "loop id=0 parent=- pos=1 line=45 slot=1 shape=top iv=j init=0 bound=(* (global g_scale) (+ (arg arg) 1)) step=1 cmp=lt count=(* (global g_scale) (+ (arg arg) 1)) ops=(2 0 0 0 1 0)\n"
         "branch id=0 loop=0 pos=2 line=46 slot=8 cond=(ne (mod (iv 0) 2) 0)\n"
         "loop id=1 parent=- pos=3 line=50 slot=4 shape=top iv=r init=0 bound=(load) step=1 cmp=lt count=? why=data-dependent ops=(1 0 1 0 1 0)\n"
         "event id=0 loop=1 pos=4 line=51 slot=3 kind=barrier obj=(addr bar) callee=pthread_barrier_wait\n"
         "event id=1 loop=1 pos=5 line=52 slot=6 kind=lock obj=(addr mtx) callee=pthread_mutex_lock\n"
         "event id=2 loop=1 pos=6 line=54 slot=7 kind=unlock obj=(addr mtx) callee=pthread_mutex_unlock\n"
         "end\n");
static __thread uint64_t c_worker[10];

static void *worker(void *arg)
{
    PP_ENTER(d_worker, c_worker);
    long i = (long)(intptr_t)arg, it = (long)g_scale * (i + 1), local = 0;
    c_worker[1] += (uint64_t)it + 1;        /* known trip count: on the preheader */
    c_worker[2] += 1;
    for (long j = 0; j < it; j++) {
        if (j % 2 != 0) {
            c_worker[8]++;
            local += j;
        } else {
            c_worker[9]++;
            local -= 1;
        }
    }
    c_worker[5] += 1;
    for (int r = 0;; r++) {
        c_worker[4]++;
        if (!(r < rounds))
            break;
        c_worker[3]++;
        __pp_w_pthread_barrier_wait(&d_worker, 0, &bar);
        c_worker[6]++;
        __pp_w_pthread_mutex_lock(&d_worker, 1, &mtx);
        sum += local + r;
        c_worker[7]++;
        __pp_w_pthread_mutex_unlock(&d_worker, 2, &mtx);
    }
    if (i == 2)
        pthread_exit((void *)(intptr_t)local);
    return (void *)(intptr_t)local;
}

/* ------------------------------------------------------------ helper */
PP_FDESC(d_helper, 3, "helper",
         "func name=helper file=t-pthread.c line=80 kind=normal nslots=3 ops=(0 0 0 0 0 0)\n"
         "loop id=0 parent=- pos=1 line=82 slot=1 shape=top iv=k init=0 bound=10 step=1 cmp=lt count=10 ops=(1 0 0 0 1 0)\n"
         "end\n");
static __thread uint64_t c_helper[3];

static long helper(void)
{
    PP_ENTER(d_helper, c_helper);
    long s = 0;
    c_helper[1] += 11;
    c_helper[2] += 1;
    for (int k = 0; k < 10; k++)
        s += k;
    return s;
}

static void *raw_thread(void *arg)
{
    *(long *)arg = helper();
    return NULL;
}

/* ------------------------------------------------------------ main */
PP_FDESC(d_main, 9, "main",
         "func name=main file=t-pthread.c line=100 kind=normal nslots=9 ops=(3 0 0 0 0 2)\n"
         "param id=0 name=n kind=var line=102\n"
         "param id=1 name=k kind=var line=103\n"
         "loop id=0 parent=- pos=1 line=110 slot=1 shape=top iv=i init=0 bound=3 step=1 cmp=lt count=3 ops=(1 0 0 0 1 0)\n"
         "event id=0 loop=0 pos=2 line=111 slot=3 kind=create child=worker arg=(iv 0) callee=pthread_create\n"
         "loop id=1 parent=- pos=3 line=115 slot=5 shape=top iv=i init=0 bound=3 step=1 cmp=lt count=3 ops=(1 0 0 0 1 0)\n"
         "event id=1 loop=1 pos=4 line=116 slot=4 kind=join obj=? callee=pthread_join\n"
         "event id=2 loop=- pos=5 line=120 slot=7 kind=lock obj=(addr mtx) callee=pthread_mutex_trylock\n"
         "event id=3 loop=- pos=6 line=121 slot=8 kind=unlock obj=(addr mtx) callee=pthread_mutex_unlock\n"
         "end\n");
static __thread uint64_t c_main[9];

int main(int argc, char **argv)
{
    PP_ENTER(d_main, c_main);
    if (argc < 3) {
        fprintf(stderr, "usage: t-pthread N K [EXIT]\n");
        return 2;
    }
    int n = atoi(argv[1]);
    __pp_param(&d_main, 0, n);
    int k = 5;
    __pp_param(&d_main, 1, k);
    k = atoi(argv[2]);
    __pp_param(&d_main, 1, k);
    g_scale = n;
    rounds = k;
    pthread_barrier_init(&bar, NULL, NT);

    pthread_t th[NT];
    c_main[1] += NT + 1;
    c_main[2] += 1;
    for (long i = 0; i < NT; i++) {
        c_main[3]++;
        if (__pp_w_pthread_create(&d_main, 0, &th[i], NULL, worker, (void *)(intptr_t)i) != 0)
            return 1;
    }
    long raw_result = 0;
    pthread_t raw;
    pthread_create(&raw, NULL, raw_thread, &raw_result);
    pthread_join(raw, NULL);

    long total = 0;
    c_main[5] += NT + 1;
    c_main[6] += 1;
    for (long i = 0; i < NT; i++) {
        void *r;
        c_main[4]++;
        __pp_w_pthread_join(&d_main, 1, th[i], &r);
        total += (long)(intptr_t)r;
    }
    c_main[7]++;
    if (__pp_w_pthread_mutex_trylock(&d_main, 2, &mtx) == 0) {
        c_main[8]++;
        __pp_w_pthread_mutex_unlock(&d_main, 3, &mtx);
    }
    printf("sum=%ld total=%ld raw=%ld\n", sum, total, raw_result);
    return argc > 3 ? atoi(argv[3]) : 0;
}
