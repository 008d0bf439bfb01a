/* rt-thread.c - per-thread state: registry, binding, counter blocks, close.
 *
 * Every thread the runtime sees gets a struct pp_thread, kept until the
 * process ends (never freed: the record is written at exit).  A thread state
 * is *bound* to the thread that runs with it (pp_self, and a pthread key
 * whose destructor closes the state when the thread exits).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt-internal.h"

__thread struct pp_thread *pp_self __attribute__((tls_model("initial-exec")));
pthread_mutex_t pp_reg_lock = PTHREAD_MUTEX_INITIALIZER;

static struct pp_thread *pp_reg_head;   /* under pp_reg_lock */
static pthread_key_t pp_key;

/* Thread exit (return from the start routine, pthread_exit, cancellation):
 * close the state while the thread's TLS counters still exist. */
static void key_dtor(void *p)
{
    pp_thread_close(p, pp_now());
}

/* fork(): the child must not inherit pp_reg_lock held by another thread */
static void atfork_prepare(void)
{
    pthread_mutex_lock(&pp_reg_lock);
}

static void atfork_release(void)
{
    pthread_mutex_unlock(&pp_reg_lock);
}

int pp_thread_init(void)
{
    if (pp_instance_defer())
        return -1;              /* another runtime records this process */
    if (pthread_key_create(&pp_key, key_dtor) != 0)
        return -1;
    return pthread_atfork(atfork_prepare, atfork_release, atfork_release) != 0 ? -1 : 0;
}

struct pp_thread *pp_thread_new(int kind)
{
    struct pp_thread *t = calloc(1, sizeof *t);
    if (t) {
        t->kind = kind;
        t->tid = -1;
    }
    return t;
}

void pp_thread_publish(struct pp_thread *t)
{
    pthread_mutex_lock(&pp_reg_lock);
    t->reg_next = pp_reg_head;
    pp_reg_head = t;
    pthread_mutex_unlock(&pp_reg_lock);
}

void pp_thread_bind(struct pp_thread *t)
{
    t->start = pp_now();
    /* the CPU clock of this thread, readable from any thread while it lives */
    t->has_cpuclock = pthread_getcpuclockid(pthread_self(), &t->cpuclock) == 0;
    t->cstart = pp_cpu_now(t);
    pp_self = t;
    pthread_setspecific(pp_key, t);
}

struct pp_thread *pp_self_slow(void)
{
    if (atomic_load_explicit(&pp_state, memory_order_acquire) != PP_ST_ACTIVE)
        return NULL;
    /* main is the thread whose kernel tid is the pid */
    int is_main = (pid_t)syscall(SYS_gettid) == getpid();
    struct pp_thread *t = pp_thread_new(is_main ? PP_TK_MAIN : PP_TK_OTHER);
    if (!t)
        return NULL;
    t->key1 = pp_next_seq();
    pp_thread_publish(t);
    pp_thread_bind(t);
    if (is_main)
        t->start = 0;           /* main ran before the runtime started */
    return t;
}

void pp_thread_close(struct pp_thread *t, uint64_t now)
{
    if (!t || atomic_exchange_explicit(&t->closing, 1, memory_order_acq_rel))
        return;
    size_t cap = t->total_slots;
    t->tail = cap ? malloc(cap * sizeof *t->tail) : NULL;
    t->ntail = t->tail ? pp_snapshot(t, t->tail, cap) : 0;
    t->end = now;
    t->cend = pp_cpu_now(t);
    atomic_store_explicit(&t->closed, 1, memory_order_release);
}

struct pp_thread **pp_threads_all(size_t *n)
{
    pthread_mutex_lock(&pp_reg_lock);
    size_t k = 0;
    for (struct pp_thread *t = pp_reg_head; t; t = t->reg_next)
        k++;
    struct pp_thread **v = malloc((k ? k : 1) * sizeof *v);
    k = 0;
    if (v)
        for (struct pp_thread *t = pp_reg_head; t; t = t->reg_next)
            v[k++] = t;
    pthread_mutex_unlock(&pp_reg_lock);
    *n = k;
    return v;
}

/* ------------------------------------------------------------ ABI */

static _Atomic int warned_version;

PP_EXPORT void __pp_register(const struct pp_fdesc *d, uint64_t *cnt)
{
    /* Set the flag first and whatever happens: the plugin's guard must not
     * call us again for this (function, thread). */
    cnt[0] = 1;
    if (!pp_active() || !d)
        return;
    if (d->version != PP_ABI_VERSION || d->nslots == 0) {
        if (!atomic_exchange(&warned_version, 1))
            pp_warn("function %s: descriptor ABI version %u, runtime expects %d; not recorded",
                    d->name ? d->name : "?", d->version, PP_ABI_VERSION);
        return;
    }
    struct pp_thread *t = pp_get_self();
    if (!t)
        return;
    pp_instance_pin(d);         /* its library must outlive a dlclose */
    struct pp_block *b = calloc(1, sizeof *b + d->nslots * sizeof(uint64_t));
    if (!b)
        return;                 /* counts of this function are lost */
    b->d = d;
    b->cnt = cnt;
    b->shadow = (uint64_t *)(b + 1);
    b->nslots = d->nslots;
    b->idx = t->nblocks++;
    t->total_slots += d->nslots;
    /* release: a reader that finds b sees it initialised */
    if (t->blocks_tail)
        atomic_store_explicit(&t->blocks_tail->next, b, memory_order_release);
    else
        atomic_store_explicit(&t->blocks, b, memory_order_release);
    t->blocks_tail = b;
}
