/* calibrate_compute.c - how much a thread slows down when k threads run at
 * once: a fixed FLOP kernel (registers only) and a streaming triad over
 * per-thread arrays larger than the caches; and the cache sizes (hwloc).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FLOP_INNER 64           /* inner trips of the FLOP kernel          */

static volatile double sink;

/* The kernels are timed in the thread's CPU time, not wall time: the
 * slowdown we want is that of a thread running on its own processor
 * (shared caches, memory bandwidth, clock), not the time it spends waiting
 * for a processor when the host is busy. */
static double thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* 8 independent multiply-add chains; 16 * FLOP_INNER flops per iteration. */
static double flop_kernel(long iters, double seed)
{
    double x0 = seed, x1 = seed + 1, x2 = seed + 2, x3 = seed + 3;
    double x4 = seed + 4, x5 = seed + 5, x6 = seed + 6, x7 = seed + 7;
    const double a = 0.999999, b = 1e-6;
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < FLOP_INNER; j++) {
            x0 = x0 * a + b; x1 = x1 * a + b; x2 = x2 * a + b;
            x3 = x3 * a + b; x4 = x4 * a + b; x5 = x5 * a + b;
            x6 = x6 * a + b; x7 = x7 * a + b;
        }
    return x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

/* One pass of a[i] = b[i] + s * c[i] per iteration. */
static double triad_kernel(long iters, double *a, const double *b,
                           const double *c, size_t n)
{
    const double s = 1.0000001;
    for (long it = 0; it < iters; it++)
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
    return a[n / 2];
}

int pp_cal_kernel_setup(pp_cal_kernel *kc, int kmax, size_t bytes_per_thread,
                        char *err, size_t errlen)
{
    memset(kc, 0, sizeof *kc);
    kc->elems = bytes_per_thread / (3 * sizeof(double));
    kc->elems -= kc->elems % 8;
    if (kc->elems < 8)
        kc->elems = 8;
    kc->arrays = calloc((size_t)kmax * 3, sizeof *kc->arrays);
    if (!kc->arrays)
        goto oom;
    size_t bytes = kc->elems * sizeof(double);
    for (int i = 0; i < kmax * 3; i++) {
        kc->arrays[i] = aligned_alloc(64, bytes);
        if (!kc->arrays[i])
            goto oom;
        for (size_t j = 0; j < kc->elems; j++)
            kc->arrays[i][j] = (double)(j % 1000) * 0.001;
    }
    return 0;
oom:
    pp_cal_kernel_free(kc, kmax);
    snprintf(err, errlen, "out of memory for %d x %zu bytes of kernel arrays",
             kmax, bytes_per_thread);
    return -1;
}

void pp_cal_kernel_free(pp_cal_kernel *kc, int kmax)
{
    if (kc->arrays)
        for (int i = 0; i < kmax * 3; i++)
            free(kc->arrays[i]);
    free(kc->arrays);
    kc->arrays = NULL;
}

double pp_cal_kernel_bytes(const pp_cal_kernel *kc)
{
    return 3.0 * sizeof(double) * (double)kc->elems;
}

/* A gate holds the threads until all are made (or tells them to give up),
 * then a barrier starts them together. */
typedef struct kshared {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int gate;                   /* 0 wait, 1 go, 2 abort                   */
    pthread_barrier_t start;
} kshared;

typedef struct kjob {
    const pp_cal_kernel *kc;
    kshared *sh;
    int idx;
    long iters;
    double ns;
} kjob;

static void *kernel_thread(void *arg)
{
    kjob *j = arg;
    const pp_cal_kernel *kc = j->kc;
    kshared *sh = j->sh;
    pthread_mutex_lock(&sh->mu);
    while (sh->gate == 0)
        pthread_cond_wait(&sh->cv, &sh->mu);
    int go = sh->gate == 1;
    pthread_mutex_unlock(&sh->mu);
    if (!go)
        return NULL;
    pthread_barrier_wait(&sh->start);
    double t0 = thread_cpu_ns(), r;
    if (kc->memory)
        r = triad_kernel(j->iters, kc->arrays[3 * j->idx],
                         kc->arrays[3 * j->idx + 1],
                         kc->arrays[3 * j->idx + 2], kc->elems);
    else
        r = flop_kernel(j->iters, (double)j->idx);
    j->ns = thread_cpu_ns() - t0;
    sink = r;
    return NULL;
}

int pp_cal_kernel_run(void *ctx, long iters, double *out, char *err,
                      size_t errlen)
{
    const pp_cal_kernel *kc = ctx;
    int k = kc->k;
    pthread_t *th = calloc((size_t)k, sizeof *th);
    kjob *jobs = calloc((size_t)k, sizeof *jobs);
    kshared sh;
    memset(&sh, 0, sizeof sh);
    pthread_mutex_init(&sh.mu, NULL);
    pthread_cond_init(&sh.cv, NULL);
    pthread_barrier_init(&sh.start, NULL, (unsigned)k);
    int made = 1, rc = (th && jobs) ? 0 : ENOMEM;
    /* Thread 0 is this thread; the others are started here. */
    for (int i = 0; rc == 0 && i < k; i++) {
        jobs[i].kc = kc;
        jobs[i].sh = &sh;
        jobs[i].idx = i;
        jobs[i].iters = iters;
    }
    for (; rc == 0 && made < k; made++) {
        rc = pthread_create(&th[made], NULL, kernel_thread, &jobs[made]);
        if (rc)
            break;
    }
    pthread_mutex_lock(&sh.mu);
    sh.gate = rc ? 2 : 1;
    pthread_cond_broadcast(&sh.cv);
    pthread_mutex_unlock(&sh.mu);
    if (rc == 0)
        kernel_thread(&jobs[0]);
    for (int i = 1; i < made; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&sh.start);
    pthread_cond_destroy(&sh.cv);
    pthread_mutex_destroy(&sh.mu);
    double sum = 0.0;
    for (int i = 0; rc == 0 && i < k; i++)
        sum += jobs[i].ns;
    free(th);
    free(jobs);
    if (rc) {
        snprintf(err, errlen, "cannot start %d threads: %s", k, strerror(rc));
        return -1;
    }
    out[0] = sum / k / (double)iters;
    return 0;
}

/* The largest cache of a level hwloc finds (0: none), and how many
 * processing units share one of them. */
static long hw_cache(hwloc_topology_t t, hwloc_obj_type_t type, int *shared_by)
{
    long best = 0;
    int n = hwloc_get_nbobjs_by_type(t, type);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, type, (unsigned)i);
        if (o && o->attr && (long)o->attr->cache.size > best) {
            best = (long)o->attr->cache.size;
            if (shared_by)
                *shared_by = o->cpuset ? hwloc_bitmap_weight(o->cpuset) : 0;
        }
    }
    return best;
}

/* The cache sizes and core topology from hwloc, which reads what the
 * kernel reports (/sys); sysconf's answers come from CPUID and on the
 * development VM they disagree (sysconf: a 320 MiB L3, hwloc: 32 MiB).
 * Either is only what the hypervisor says: the model places the edge of
 * the memory where calibrate's bandwidth curve shows it
 * (pp_machine_memory_edge), not at these sizes.  sysconf where hwloc
 * fails. */
void pp_cal_cache_sizes(long *l1d, long *l2, long *l3)
{
    pp_cal_topology t;
    pp_cal_topology_get(&t);
    *l1d = t.l1d;
    *l2 = t.l2;
    *l3 = t.l3;
}

void pp_cal_topology_get(pp_cal_topology *out)
{
    memset(out, 0, sizeof *out);
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) == 0) {
        if (hwloc_topology_load(t) == 0) {
            out->l1d = hw_cache(t, HWLOC_OBJ_L1CACHE, NULL);
            out->l2 = hw_cache(t, HWLOC_OBJ_L2CACHE, NULL);
            out->l3 = hw_cache(t, HWLOC_OBJ_L3CACHE, &out->l3_shared_by);
            out->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
            out->pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
            out->from_hwloc = out->l1d > 0 || out->l2 > 0 || out->l3 > 0;
        }
        hwloc_topology_destroy(t);
    }
    if (out->from_hwloc)
        return;
    long v;
    v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    out->l1d = v > 0 ? v : 0;
    v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    out->l2 = v > 0 ? v : 0;
    v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    out->l3 = v > 0 ? v : 0;
}
