/* rt-wrap-pthread.c - event wrappers of the pthread calls.
 *
 * Each wrapper forwards to the real call with the same arguments and
 * returns its result unchanged; around it, it logs one event (t0 and the
 * counter snapshot before the call, t1 after it).  pthread_create passes a
 * trampoline so that the child binds the thread state its parent prepared
 * (parent, site, creation order, argument) before the start routine runs.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt-internal.h"

struct pp_start {
    void *(*fn)(void *);
    void *arg;
    struct pp_thread *t;
};

/* creation order per (descriptor, site), under pp_reg_lock */
struct pp_site_order {
    struct pp_site_order *next;
    const struct pp_fdesc *d;
    uint32_t site;
    uint64_t next_order;
};
static struct pp_site_order *site_orders;

static uint64_t next_order(const struct pp_fdesc *d, uint32_t site)
{
    struct pp_site_order *o;
    for (o = site_orders; o; o = o->next)
        if (o->d == d && o->site == site)
            return o->next_order++;
    o = calloc(1, sizeof *o);
    if (!o)
        return 0;
    o->d = d;
    o->site = site;
    o->next_order = 1;
    o->next = site_orders;
    site_orders = o;
    return 0;
}

static void *start_trampoline(void *p)
{
    struct pp_start s = *(struct pp_start *)p;
    free(p);
    pp_thread_bind(s.t);
    struct pp_ev *e = pp_ev_begin(s.t, NULL, 0, PP_EV_BEGIN);
    if (e) {
        e->t1 = e->t0;
        pp_ev_commit(s.t, e);
    }
    void *r = s.fn(s.arg);
    /* normal return; pthread_exit() closes from the key destructor */
    pp_thread_close(s.t, pp_now());
    return r;
}

PP_EXPORT int __pp_w_pthread_create(const struct pp_fdesc *d, uint32_t site, pthread_t *thread,
                                    const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    if (!pp_active())
        return pthread_create(thread, attr, start, arg);
    struct pp_thread *self = pp_get_self();
    struct pp_start *s = self ? malloc(sizeof *s) : NULL;
    struct pp_thread *c = s ? pp_thread_new(PP_TK_PTHREAD) : NULL;
    if (!c) {
        free(s);
        return pthread_create(thread, attr, start, arg);
    }
    c->parent = self;
    c->site_d = d;
    c->site = site;
    c->arg = (int64_t)(intptr_t)arg;
    c->key1 = pp_next_seq();
    pp_thread_publish(c);
    s->fn = start;
    s->arg = arg;
    s->t = c;

    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_CREATE);
    int rc = pthread_create(thread, attr, start_trampoline, s);
    pthread_mutex_lock(&pp_reg_lock);
    if (rc == 0) {
        c->ptid = *thread;
        c->has_ptid = 1;
        c->order = next_order(d, site);
    } else {
        c->failed = 1;
    }
    pthread_mutex_unlock(&pp_reg_lock);
    if (rc != 0)
        free(s);
    if (e) {
        if (rc == 0) {
            e->child = c;
            e->has |= PP_HAS_CHILD;
        } else {
            e->result = rc;
            e->has |= PP_HAS_RESULT;
        }
        pp_ev_commit(self, e);
    }
    return rc;
}

/* The not-yet-joined thread created with handle `th` (the newest one if a
 * handle was reused), or NULL for a thread the runtime did not create. */
static struct pp_thread *find_joinable(pthread_t th)
{
    size_t n;
    struct pp_thread **all = pp_threads_all(&n);
    struct pp_thread *best = NULL;
    if (!all)
        return NULL;
    pthread_mutex_lock(&pp_reg_lock);
    for (size_t i = 0; i < n; i++) {
        struct pp_thread *t = all[i];
        if (t->has_ptid && !t->joined && pthread_equal(t->ptid, th) &&
            (!best || t->key1 > best->key1))
            best = t;
    }
    pthread_mutex_unlock(&pp_reg_lock);
    free(all);
    return best;
}

PP_EXPORT int __pp_w_pthread_join(const struct pp_fdesc *d, uint32_t site, pthread_t thread,
                                  void **retval)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_join(thread, retval);
    struct pp_thread *child = find_joinable(thread);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_JOIN);
    int rc = pthread_join(thread, retval);
    if (rc == 0 && child) {
        pthread_mutex_lock(&pp_reg_lock);
        child->joined = 1;
        pthread_mutex_unlock(&pp_reg_lock);
    }
    if (e) {
        if (child) {
            e->child = child;
            e->has |= PP_HAS_CHILD;
        }
        if (rc != 0) {
            e->result = rc;
            e->has |= PP_HAS_RESULT;
        }
        pp_ev_commit(self, e);
    }
    return rc;
}

PP_EXPORT int __pp_w_pthread_barrier_wait(const struct pp_fdesc *d, uint32_t site,
                                          pthread_barrier_t *b)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_barrier_wait(b);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_BARRIER);
    int rc = pthread_barrier_wait(b);
    if (e) {
        e->obj = (uint64_t)(uintptr_t)b;
        e->has |= PP_HAS_OBJ;
        pp_ev_commit(self, e);
    }
    return rc;
}

/* lock, trylock, unlock: one shape */
static int mutex_call(const struct pp_fdesc *d, uint32_t site, pthread_mutex_t *m, int kind,
                      int (*real)(pthread_mutex_t *), int log_result)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return real(m);
    struct pp_ev *e = pp_ev_begin(self, d, site, kind);
    int rc = real(m);
    if (e) {
        e->obj = (uint64_t)(uintptr_t)m;
        e->has |= PP_HAS_OBJ;
        if (log_result || rc != 0) {
            e->result = rc;
            e->has |= PP_HAS_RESULT;
        }
        pp_ev_commit(self, e);
    }
    return rc;
}

PP_EXPORT int __pp_w_pthread_mutex_lock(const struct pp_fdesc *d, uint32_t site, pthread_mutex_t *m)
{
    return mutex_call(d, site, m, PP_EV_LOCK, pthread_mutex_lock, 0);
}

PP_EXPORT int __pp_w_pthread_mutex_trylock(const struct pp_fdesc *d, uint32_t site,
                                           pthread_mutex_t *m)
{
    return mutex_call(d, site, m, PP_EV_LOCK, pthread_mutex_trylock, 1);
}

PP_EXPORT int __pp_w_pthread_mutex_unlock(const struct pp_fdesc *d, uint32_t site,
                                          pthread_mutex_t *m)
{
    return mutex_call(d, site, m, PP_EV_UNLOCK, pthread_mutex_unlock, 0);
}

/* Condition variables and semaphores: one event each, on the object the
 * call waits on or wakes (the cond var, not cond_wait's mutex: the
 * descriptor names that one).  A cond_wait's or sem_wait's time blocked
 * is the event's (t0 to t1), not the computation's around it. */
static int cond_end(struct pp_thread *self, struct pp_ev *e, const void *obj, int rc0)
{
    if (e) {
        e->obj = (uint64_t)(uintptr_t)obj;
        e->has |= PP_HAS_OBJ;
        if (rc0 != 0) {
            e->result = rc0;
            e->has |= PP_HAS_RESULT;
        }
        pp_ev_commit(self, e);
    }
    return rc0;
}

PP_EXPORT int __pp_w_pthread_cond_wait(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv,
                                       pthread_mutex_t *m)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_cond_wait(cv, m);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_COND_WAIT);
    int rc = pthread_cond_wait(cv, m);
    return cond_end(self, e, cv, rc);
}

PP_EXPORT int __pp_w_pthread_cond_timedwait(const struct pp_fdesc *d, uint32_t site,
                                            pthread_cond_t *cv, pthread_mutex_t *m,
                                            const struct timespec *abstime)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_cond_timedwait(cv, m, abstime);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_COND_WAIT);
    int rc = pthread_cond_timedwait(cv, m, abstime);
    return cond_end(self, e, cv, rc);
}

PP_EXPORT int __pp_w_pthread_cond_signal(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_cond_signal(cv);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_COND_SIGNAL);
    int rc = pthread_cond_signal(cv);
    return cond_end(self, e, cv, rc);
}

PP_EXPORT int __pp_w_pthread_cond_broadcast(const struct pp_fdesc *d, uint32_t site,
                                            pthread_cond_t *cv)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return pthread_cond_broadcast(cv);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_COND_BROADCAST);
    int rc = pthread_cond_broadcast(cv);
    return cond_end(self, e, cv, rc);
}

/* sem_wait and sem_post report errors in errno and return -1: the result
 * logged is that -1, errno is left as the call set it. */
PP_EXPORT int __pp_w_sem_wait(const struct pp_fdesc *d, uint32_t site, sem_t *s)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return sem_wait(s);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_SEM_WAIT);
    int rc = sem_wait(s);
    int err = errno;
    rc = cond_end(self, e, s, rc);
    errno = err;
    return rc;
}

PP_EXPORT int __pp_w_sem_post(const struct pp_fdesc *d, uint32_t site, sem_t *s)
{
    struct pp_thread *self = pp_active() ? pp_get_self() : NULL;
    if (!self)
        return sem_post(s);
    struct pp_ev *e = pp_ev_begin(self, d, site, PP_EV_SEM_POST);
    int rc = sem_post(s);
    int err = errno;
    rc = cond_end(self, e, s, rc);
    errno = err;
    return rc;
}
