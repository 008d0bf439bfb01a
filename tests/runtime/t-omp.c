/* t-omp.c - an OpenMP program as GCC lowers it, instrumented by hand.
 *
 * usage: t-omp N   (compile with -fopenmp)
 *   region A: body, 3 threads (main's fork site 0)
 *   region B: body, 2 threads (fork site 1)
 *   region C: body, 3 threads (fork site 0 again)
 *   region D: a combined parallel loop, schedule(dynamic,4), 3 threads
 *             (GOMP_parallel_loop_dynamic, fork site 2)
 *   region E: combined parallel sections, 3 sections, 2 threads
 *             (GOMP_parallel_sections, fork site 3)
 * body (an outlined `omp parallel`): a cyclic loop over N, a barrier, the
 * unnamed critical, a single with its implicit barrier, a named critical
 * and an atomic section.
 *
 * Expected counters of the body in a team of P, member t, it = #{i in
 * [t,N) step P}: slot1 += it+1, slot2 += 1, slots 3..11 += 1 each.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pp-emul.h"

extern bool GOMP_loop_dynamic_next(long *, long *);
extern unsigned GOMP_sections_next(void);

struct data {
    long n;
    long total, named_total, atomic_total, loop_total, sections;
    int singles;
};

static void *named_lock;        /* what GCC calls .gomp_critical_user_NAME */

/* ------------------------------------------------------------ body */
PP_FDESC(d_body, 12, "main._omp_fn.0",
         "func name=main._omp_fn.0 file=t-omp.c line=40 kind=omp_child nslots=12 ops=(2 0 1 1 0 0)\n"
         "loop id=0 parent=- pos=1 line=44 slot=1 shape=top iv=i init=(tid) bound=(shared n) step=(nthreads) cmp=lt count=(max 0 (cdiv (- (shared n) (tid)) (nthreads))) flags=omp_chunk ops=(2 0 0 0 1 0)\n"
         "event id=0 loop=- pos=2 line=46 slot=3 kind=barrier callee=GOMP_barrier\n"
         "event id=1 loop=- pos=3 line=47 slot=4 kind=lock obj=(critical) callee=GOMP_critical_start\n"
         "event id=2 loop=- pos=4 line=49 slot=5 kind=unlock obj=(critical) callee=GOMP_critical_end\n"
         "event id=3 loop=- pos=5 line=50 slot=6 kind=single callee=GOMP_single_start\n"
         "event id=4 loop=- pos=6 line=52 slot=7 kind=barrier implicit=1 callee=GOMP_barrier\n"
         "event id=5 loop=- pos=7 line=53 slot=8 kind=lock obj=(critical nm) callee=GOMP_critical_name_start\n"
         "event id=6 loop=- pos=8 line=55 slot=9 kind=unlock obj=(critical nm) callee=GOMP_critical_name_end\n"
         "event id=7 loop=- pos=9 line=56 slot=10 kind=lock obj=(critical atomic) callee=GOMP_atomic_start\n"
         "event id=8 loop=- pos=10 line=58 slot=11 kind=unlock obj=(critical atomic) callee=GOMP_atomic_end\n"
         "end\n");
static __thread uint64_t c_body[12];

static void body(void *p)
{
    struct data *dt = p;
    PP_ENTER(d_body, c_body);
    long tid = omp_get_thread_num(), nth = omp_get_num_threads(), local = 0, it = 0;
    for (long i = tid; i < dt->n; i += nth) {
        local += i;
        it++;
    }
    c_body[1] += (uint64_t)it + 1;
    c_body[2] += 1;
    c_body[3]++;
    __pp_w_GOMP_barrier(&d_body, 0);
    c_body[4]++;
    __pp_w_GOMP_critical_start(&d_body, 1);
    dt->total += local;
    c_body[5]++;
    __pp_w_GOMP_critical_end(&d_body, 2);
    c_body[6]++;
    if (__pp_w_GOMP_single_start(&d_body, 3))
        dt->singles++;
    c_body[7]++;
    __pp_w_GOMP_barrier(&d_body, 4);
    c_body[8]++;
    __pp_w_GOMP_critical_name_start(&d_body, 5, &named_lock);
    dt->named_total += 1;
    c_body[9]++;
    __pp_w_GOMP_critical_name_end(&d_body, 6, &named_lock);
    c_body[10]++;
    __pp_w_GOMP_atomic_start(&d_body, 7);
    dt->atomic_total += 2;
    c_body[11]++;
    __pp_w_GOMP_atomic_end(&d_body, 8);
}

/* ------------------------------------------------------------ loop body */
PP_FDESC(d_loop, 6, "main._omp_fn.1",
         "func name=main._omp_fn.1 file=t-omp.c line=70 kind=omp_child nslots=6 ops=(0 0 0 0 0 0)\n"
         "loop id=0 parent=- pos=1 line=72 slot=1 shape=top count=? why=data-dependent flags=omp_dispatch ops=(0 0 0 0 1 1)\n"
         "loop id=1 parent=0 pos=2 line=73 slot=3 shape=top count=? why=data-dependent ops=(1 0 0 1 1 0)\n"
         "event id=0 loop=- pos=3 line=75 slot=5 kind=loop_end callee=GOMP_loop_end_nowait\n"
         "end\n");
static __thread uint64_t c_loop[6];

static void loop_body(void *p)
{
    struct data *dt = p;
    PP_ENTER(d_loop, c_loop);
    long s, e, local = 0;
    c_loop[2]++;
    for (;;) {
        c_loop[1]++;
        if (!GOMP_loop_dynamic_next(&s, &e))
            break;
        c_loop[3] += (uint64_t)(e - s) + 1;
        c_loop[4] += 1;
        for (long i = s; i < e; i++)
            local += i;
    }
    c_loop[5]++;
    __pp_w_GOMP_loop_end_nowait(&d_loop, 0);
    __atomic_add_fetch(&dt->loop_total, local, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ sections */
PP_FDESC(d_sect, 3, "main._omp_fn.2",
         "func name=main._omp_fn.2 file=t-omp.c line=120 kind=omp_child nslots=3 ops=(0 0 0 0 0 0)\n"
         "event id=0 loop=- pos=1 line=126 slot=1 kind=loop_end callee=GOMP_sections_end_nowait\n"
         "end\n");
static __thread uint64_t c_sect[3];

static void sections_body(void *p)
{
    struct data *dt = p;
    PP_ENTER(d_sect, c_sect);
    for (unsigned i = GOMP_sections_next(); i != 0; i = GOMP_sections_next())
        __atomic_add_fetch(&dt->sections, (long)i, __ATOMIC_RELAXED);
    c_sect[1]++;
    __pp_w_GOMP_sections_end_nowait(&d_sect, 0);
}

/* ------------------------------------------------------------ main */
PP_FDESC(d_main, 5, "main",
         "func name=main file=t-omp.c line=90 kind=normal nslots=5 ops=(0 0 0 0 0 3)\n"
         "param id=0 name=n kind=var line=92\n"
         "event id=0 loop=- pos=1 line=95 slot=1 kind=fork child=main._omp_fn.0 nthreads=3 data=((n (var n))) callee=GOMP_parallel\n"
         "event id=1 loop=- pos=2 line=96 slot=2 kind=fork child=main._omp_fn.0 nthreads=2 data=((n (var n))) callee=GOMP_parallel\n"
         "event id=2 loop=- pos=3 line=98 slot=3 kind=fork child=main._omp_fn.1 nthreads=3 callee=GOMP_parallel_loop_dynamic\n"
         "event id=3 loop=- pos=4 line=99 slot=4 kind=fork child=main._omp_fn.2 nthreads=2 callee=GOMP_parallel_sections\n"
         "end\n");
static __thread uint64_t c_main[5];

int main(int argc, char **argv)
{
    PP_ENTER(d_main, c_main);
    struct data dt = { 0 };
    dt.n = argc > 1 ? atol(argv[1]) : 100;
    __pp_param(&d_main, 0, dt.n);
    c_main[1]++;
    __pp_w_GOMP_parallel(&d_main, 0, body, &dt, 3, 0);
    c_main[2]++;
    __pp_w_GOMP_parallel(&d_main, 1, body, &dt, 2, 0);
    c_main[1]++;
    __pp_w_GOMP_parallel(&d_main, 0, body, &dt, 3, 0);
    c_main[3]++;
    __pp_w_GOMP_parallel_loop_dynamic(&d_main, 2, loop_body, &dt, 3, 0, dt.n, 1, 4, 0);
    c_main[4]++;
    __pp_w_GOMP_parallel_sections(&d_main, 3, sections_body, &dt, 2, 3, 0);
    printf("total=%ld named=%ld atomic=%ld singles=%d loop=%ld sections=%ld\n", dt.total,
           dt.named_total, dt.atomic_total, dt.singles, dt.loop_total, dt.sections);
    return 0;
}
