/* Test-only stand-in for libperfpred-rt, used by tests/e2e/10-plugin.t.
 *
 * It defines the symbols of docs/runtime-abi.md: __pp_register keeps the
 * (descriptor, counter block) of each thread, __pp_param keeps the last
 * value, and every __pp_w_NAME wrapper counts its calls and forwards to the
 * real function.  At exit it walks __start___pp_desc .. __stop___pp_desc
 * and prints each descriptor text and the counter totals over all threads
 * (threads that ended are folded in by a pthread key destructor), to the
 * file named by PP_STUB_OUT (default stderr).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

struct pp_fdesc {
    uint32_t version;
    uint32_t nslots;
    const char *text;
    const char *name;
    const char *file;
};

struct pp_gdesc {
    uint32_t version;
    uint32_t size;
    uint32_t is_signed;
    uint32_t pad;
    const char *name;
    const void *addr;
};

/* the runtime's link marker, which the plugin's code references */
#include "../../runtime/perfpred-link.h"
PP_DEFINE_LINK_MARKER(PP_LINK_MARKER_RUNTIME);

extern const struct pp_fdesc __start___pp_desc[] __attribute__((weak));
extern const struct pp_fdesc __stop___pp_desc[] __attribute__((weak));
extern const struct pp_gdesc __start___pp_gdesc[] __attribute__((weak));
extern const struct pp_gdesc __stop___pp_gdesc[] __attribute__((weak));

#define MAXB 4096
struct block { const struct pp_fdesc *d; uint64_t *cnt; int alive; };
static struct block blocks[MAXB];
static int nblocks;
static uint64_t *totals[MAXB];          /* per descriptor index */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static __thread int my_first = -1;      /* this thread's blocks: a list */
static int next_of[MAXB];

#define MAXP 256
static struct { const struct pp_fdesc *d; uint32_t id; int64_t v; long n; } params[MAXP];
static int nparams;
static long wrap_calls;

static int desc_index(const struct pp_fdesc *d)
{
    if (!__start___pp_desc || d < __start___pp_desc || d >= __stop___pp_desc)
        return -1;
    return (int)(d - __start___pp_desc);
}

static void fold(int b)
{
    int i = desc_index(blocks[b].d);
    if (i < 0 || !blocks[b].alive)
        return;
    if (!totals[i])
        totals[i] = calloc(blocks[b].d->nslots, sizeof(uint64_t));
    for (uint32_t s = 0; s < blocks[b].d->nslots; s++)
        totals[i][s] += blocks[b].cnt[s];
    blocks[b].alive = 0;
}

static void thread_end(void *p)
{
    (void)p;
    pthread_mutex_lock(&mu);
    for (int b = my_first; b >= 0; b = next_of[b])
        fold(b);
    pthread_mutex_unlock(&mu);
}

static void make_key(void) { pthread_key_create(&key, thread_end); }

void __pp_register(const struct pp_fdesc *d, uint64_t *cnt)
{
    pthread_once(&once, make_key);
    pthread_mutex_lock(&mu);
    if (nblocks < MAXB) {
        blocks[nblocks].d = d;
        blocks[nblocks].cnt = cnt;
        blocks[nblocks].alive = 1;
        next_of[nblocks] = my_first;
        my_first = nblocks++;
    }
    pthread_mutex_unlock(&mu);
    pthread_setspecific(key, (void *)1);
    cnt[0] = 1;
}

/* Loop timing, deterministic: every entry is timed (the countdown stays
 * at 0) and counts one tick, so a timed loop's two slots both equal its
 * entries when every entry reaches an exit (tests/e2e/10-plugin.t).  On
 * x86-64 the plugin's code calls them through runtime/rt-timing-x86.S,
 * from the middle of compiled code: general registers only, as there. */
#if defined(__x86_64__)
#define STUB_HANDLER __attribute__((target("general-regs-only"), noinline))
#else
#define STUB_HANDLER
#endif

STUB_HANDLER void __pp_tbegin(uint64_t *scr)
{
    scr[0] = 0;
    scr[1] = 1;
}

STUB_HANDLER void __pp_tend(uint64_t *scr, uint64_t *slot)
{
    scr[1] = 0;
    slot[0] += 1;
    slot[1] += 1;
}

void __pp_param(const struct pp_fdesc *d, uint32_t id, int64_t v)
{
    pthread_mutex_lock(&mu);
    int i;
    for (i = 0; i < nparams; i++)
        if (params[i].d == d && params[i].id == id)
            break;
    if (i == nparams && nparams < MAXP)
        nparams++;
    if (i < MAXP) {
        params[i].d = d;
        params[i].id = id;
        params[i].v = v;
        params[i].n++;
    }
    pthread_mutex_unlock(&mu);
}

__attribute__((destructor)) static void dump(void)
{
    const char *path = getenv("PP_STUB_OUT");
    FILE *o = path ? fopen(path, "w") : stderr;
    if (!o)
        o = stderr;
    pthread_mutex_lock(&mu);
    for (int b = 0; b < nblocks; b++)
        fold(b);
    int n = __start___pp_desc ? (int)(__stop___pp_desc - __start___pp_desc) : 0;
    for (int i = 0; i < n; i++) {
        const struct pp_fdesc *d = &__start___pp_desc[i];
        if (d->version != 1) {
            fprintf(o, "=== bad record %d\n", i);
            continue;
        }
        fprintf(o, "=== desc %s %s nslots=%u\n%s", d->name, d->file, d->nslots, d->text);
        fprintf(o, "=== counts %s", d->name);
        for (uint32_t s = 0; s < d->nslots; s++)
            fprintf(o, " %llu", (unsigned long long)(totals[i] ? totals[i][s] : 0));
        fprintf(o, "\n");
    }
    for (int i = 0; i < nparams; i++)
        fprintf(o, "=== param %s %u %lld %ld\n", params[i].d->name, params[i].id,
                (long long)params[i].v, params[i].n);
    if (__start___pp_gdesc)
        for (const struct pp_gdesc *g = __start___pp_gdesc; g < __stop___pp_gdesc; g++) {
            long long v = 0;
            switch (g->size) {
            case 1: v = g->is_signed ? (long long)*(const int8_t *)g->addr : (long long)*(const uint8_t *)g->addr; break;
            case 2: v = g->is_signed ? (long long)*(const int16_t *)g->addr : (long long)*(const uint16_t *)g->addr; break;
            case 4: v = g->is_signed ? (long long)*(const int32_t *)g->addr : (long long)*(const uint32_t *)g->addr; break;
            default: v = *(const int64_t *)g->addr; break;
            }
            fprintf(o, "=== global %s %lld\n", g->name, v);
        }
    fprintf(o, "=== wrapcalls %ld\n", wrap_calls);
    pthread_mutex_unlock(&mu);
    if (o != stderr)
        fclose(o);
}

/* ------------------------------------------------------------ wrappers */

#define COUNT() __atomic_fetch_add(&wrap_calls, 1, __ATOMIC_RELAXED)
typedef const struct pp_fdesc *D;

int __pp_w_pthread_create(D d, uint32_t s, pthread_t *t, const pthread_attr_t *a,
                          void *(*fn)(void *), void *arg)
{ (void)d; (void)s; COUNT(); return pthread_create(t, a, fn, arg); }
int __pp_w_pthread_join(D d, uint32_t s, pthread_t t, void **r)
{ (void)d; (void)s; COUNT(); return pthread_join(t, r); }
int __pp_w_pthread_barrier_wait(D d, uint32_t s, pthread_barrier_t *b)
{ (void)d; (void)s; COUNT(); return pthread_barrier_wait(b); }
int __pp_w_pthread_mutex_lock(D d, uint32_t s, pthread_mutex_t *m)
{ (void)d; (void)s; COUNT(); return pthread_mutex_lock(m); }
int __pp_w_pthread_mutex_trylock(D d, uint32_t s, pthread_mutex_t *m)
{ (void)d; (void)s; COUNT(); return pthread_mutex_trylock(m); }
int __pp_w_pthread_mutex_unlock(D d, uint32_t s, pthread_mutex_t *m)
{ (void)d; (void)s; COUNT(); return pthread_mutex_unlock(m); }

typedef void (*ompfn)(void *);
void GOMP_parallel(ompfn, void *, unsigned, unsigned);
void GOMP_parallel_loop_static(ompfn, void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_dynamic(ompfn, void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_guided(ompfn, void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_dynamic(ompfn, void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_guided(ompfn, void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_runtime(ompfn, void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(ompfn, void *, unsigned, long, long, long, unsigned);
void GOMP_barrier(void);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_critical_name_start(void **);
void GOMP_critical_name_end(void **);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);
bool GOMP_single_start(void);
void GOMP_sections_end(void);
void GOMP_sections_end_nowait(void);
void GOMP_parallel_loop_nonmonotonic_runtime(ompfn, void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_sections(ompfn, void *, unsigned, unsigned, unsigned);

void __pp_w_GOMP_parallel(D d, uint32_t s, ompfn f, void *x, unsigned n, unsigned fl)
{ (void)d; (void)s; COUNT(); GOMP_parallel(f, x, n, fl); }
#define PLOOP(NAME) \
void __pp_w_##NAME(D d, uint32_t s, ompfn f, void *x, unsigned n, long a, long b, long c, long k, unsigned fl) \
{ (void)d; (void)s; COUNT(); NAME(f, x, n, a, b, c, k, fl); }
PLOOP(GOMP_parallel_loop_static)
PLOOP(GOMP_parallel_loop_dynamic)
PLOOP(GOMP_parallel_loop_guided)
PLOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PLOOP(GOMP_parallel_loop_nonmonotonic_guided)
#define PLOOPR(NAME) \
void __pp_w_##NAME(D d, uint32_t s, ompfn f, void *x, unsigned n, long a, long b, long c, unsigned fl) \
{ (void)d; (void)s; COUNT(); NAME(f, x, n, a, b, c, fl); }
PLOOPR(GOMP_parallel_loop_runtime)
PLOOPR(GOMP_parallel_loop_maybe_nonmonotonic_runtime)
PLOOPR(GOMP_parallel_loop_nonmonotonic_runtime)
void __pp_w_GOMP_parallel_sections(D d, uint32_t s, ompfn f, void *x, unsigned n, unsigned c, unsigned fl)
{ (void)d; (void)s; COUNT(); GOMP_parallel_sections(f, x, n, c, fl); }
#define VOID0(NAME) void __pp_w_##NAME(D d, uint32_t s) { (void)d; (void)s; COUNT(); NAME(); }
VOID0(GOMP_barrier)
VOID0(GOMP_loop_end)
VOID0(GOMP_loop_end_nowait)
VOID0(GOMP_critical_start)
VOID0(GOMP_critical_end)
VOID0(GOMP_atomic_start)
VOID0(GOMP_atomic_end)
VOID0(GOMP_sections_end)
VOID0(GOMP_sections_end_nowait)
void __pp_w_GOMP_critical_name_start(D d, uint32_t s, void **p)
{ (void)d; (void)s; COUNT(); GOMP_critical_name_start(p); }
void __pp_w_GOMP_critical_name_end(D d, uint32_t s, void **p)
{ (void)d; (void)s; COUNT(); GOMP_critical_name_end(p); }
bool __pp_w_GOMP_single_start(D d, uint32_t s)
{ (void)d; (void)s; COUNT(); return GOMP_single_start(); }
