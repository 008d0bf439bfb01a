/* t-task.c - events nested in events: OpenMP tasks run inside a barrier.
 *
 * usage: t-task   (compile with -fopenmp)
 * A team of 2; member 0 creates NTASK deferred tasks (GOMP_task, as GCC
 * lowers `#pragma omp task`), then both members wait at an explicit
 * barrier, where libgomp runs the tasks.  Each task takes the unnamed
 * critical section through the wrappers, so its lock/unlock events are
 * logged while the thread's barrier event is still open.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pp-emul.h"

#define NTASK 6

extern void GOMP_task(void (*)(void *), void *, void (*)(void *, void *), long, long, bool,
                      unsigned, void **, int, void *);
extern int omp_get_thread_num(void);

static long total;

PP_FDESC(d_task, 4, "main._omp_fn.1",
         "func name=main._omp_fn.1 file=t-task.c line=30 kind=omp_child nslots=4 ops=(0 0 0 0 0 0)\n"
         "event id=0 loop=- pos=1 line=32 slot=1 kind=lock obj=(critical) callee=GOMP_critical_start\n"
         "event id=1 loop=- pos=2 line=34 slot=2 kind=unlock obj=(critical) callee=GOMP_critical_end\n"
         "end\n");
static __thread uint64_t c_task[4];

static void task_fn(void *p)
{
    PP_ENTER(d_task, c_task);
    long v = *(long *)p;
    c_task[1]++;
    __pp_w_GOMP_critical_start(&d_task, 0);
    total += v;
    c_task[2]++;
    __pp_w_GOMP_critical_end(&d_task, 1);
    c_task[3] += (uint64_t)v;
}

PP_FDESC(d_body, 4, "main._omp_fn.0",
         "func name=main._omp_fn.0 file=t-task.c line=40 kind=omp_child nslots=4 ops=(0 0 0 0 0 0)\n"
         "loop id=0 parent=- pos=1 line=43 slot=1 shape=top count=6 ops=(0 0 0 0 1 1)\n"
         "event id=0 loop=- pos=2 line=46 slot=3 kind=barrier callee=GOMP_barrier\n"
         "end\n");
static __thread uint64_t c_body[4];

static void body(void *p)
{
    (void)p;
    PP_ENTER(d_body, c_body);
    if (omp_get_thread_num() == 0) {
        c_body[1] += NTASK + 1;
        c_body[2] += 1;
        for (long i = 1; i <= NTASK; i++)   /* firstprivate(i): copied by GOMP_task */
            GOMP_task(task_fn, &i, NULL, sizeof i, _Alignof(long), true, 0, NULL, 0, NULL);
    }
    c_body[3]++;
    __pp_w_GOMP_barrier(&d_body, 0);
}

PP_FDESC(d_main, 2, "main",
         "func name=main file=t-task.c line=50 kind=normal nslots=2 ops=(0 0 0 0 0 1)\n"
         "event id=0 loop=- pos=1 line=52 slot=1 kind=fork child=main._omp_fn.0 nthreads=2 callee=GOMP_parallel\n"
         "end\n");
static __thread uint64_t c_main[2];

int main(void)
{
    PP_ENTER(d_main, c_main);
    c_main[1]++;
    __pp_w_GOMP_parallel(&d_main, 0, body, NULL, 2, 0);
    printf("total=%ld\n", total);
    return 0;
}
