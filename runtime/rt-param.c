/* rt-param.c - problem parameters (__pp_param) and their merge at exit.
 *
 * Each thread keeps its own entries (list + small direct-mapped cache), so
 * __pp_param takes no lock; the writer merges them per (function, id):
 * counts add up, min/max combine, first/last go by timestamp.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt-internal.h"

static unsigned pcache_slot(const struct pp_fdesc *d, uint32_t id)
{
    uintptr_t h = (uintptr_t)d >> 3;
    h ^= h >> 7;
    return (unsigned)((h + id * 0x9e37u) & 31u);
}

static struct pp_pent *find_or_add(struct pp_thread *t, const struct pp_fdesc *d, uint32_t id)
{
    for (struct pp_pent *e = atomic_load_explicit(&t->params, memory_order_relaxed); e;
         e = atomic_load_explicit(&e->next, memory_order_relaxed))
        if (e->d == d && e->id == id)
            return e;
    int saved = errno;
    struct pp_pent *e = calloc(1, sizeof *e);
    errno = saved;
    if (!e)
        return NULL;
    e->d = d;
    e->id = id;
    atomic_init(&e->next, atomic_load_explicit(&t->params, memory_order_relaxed));
    atomic_store_explicit(&t->params, e, memory_order_release);
    return e;
}

PP_EXPORT void __pp_param(const struct pp_fdesc *d, uint32_t id, int64_t value)
{
    if (!pp_active())
        return;
    struct pp_thread *t = pp_get_self();
    if (!t)
        return;
    unsigned h = pcache_slot(d, id);
    struct pp_pent *e = t->pcache[h];
    if (!e || e->d != d || e->id != id) {
        e = find_or_add(t, d, id);
        if (!e)
            return;
        t->pcache[h] = e;
    }
    uint64_t now = pp_now();
    if (e->count == 0) {
        e->first = e->min = e->max = value;
        e->t_first = now;
    } else {
        if (value < e->min)
            e->min = value;
        if (value > e->max)
            e->max = value;
    }
    e->last = value;
    e->t_last = now;
    e->count++;
}

/* Records list params by function then id; functions compare by address
 * here, which is the section order for descriptors in the section. */
static int pent_cmp(const void *a, const void *b)
{
    const struct pp_pent *x = a, *y = b;
    if (x->d != y->d)
        return (uintptr_t)x->d < (uintptr_t)y->d ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

struct pp_pent *pp_params_merge(struct pp_thread *const *th, size_t nth, size_t *n)
{
    size_t cap = 0, k = 0;
    struct pp_pent *out = NULL;
    for (size_t i = 0; i < nth; i++) {
        for (struct pp_pent *e = atomic_load_explicit(&th[i]->params, memory_order_acquire); e;
             e = atomic_load_explicit(&e->next, memory_order_acquire)) {
            if (e->count == 0)
                continue;
            size_t j = 0;
            while (j < k && !(out[j].d == e->d && out[j].id == e->id))
                j++;
            if (j == k) {
                if (k == cap) {
                    cap = cap ? 2 * cap : 16;
                    struct pp_pent *no = realloc(out, cap * sizeof *out);
                    if (!no)
                        goto done;
                    out = no;
                }
                out[k] = *e;
                atomic_init(&out[k].next, NULL);
                k++;
                continue;
            }
            struct pp_pent *m = &out[j];
            m->count += e->count;
            if (e->min < m->min)
                m->min = e->min;
            if (e->max > m->max)
                m->max = e->max;
            if (e->t_first < m->t_first) {
                m->t_first = e->t_first;
                m->first = e->first;
            }
            if (e->t_last >= m->t_last) {
                m->t_last = e->t_last;
                m->last = e->last;
            }
        }
    }
done:
    if (k)
        qsort(out, k, sizeof *out, pent_cmp);
    *n = k;
    return out;
}
