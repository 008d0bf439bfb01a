/* model-thread-values.c - values that belong to threads.
 *
 * A parameter the threads of the run set to different values (the
 * runtime's tparam lines) is no coordinate of the problem: it is each
 * thread's own value, e.g. `first = lo[id]` read from a table main
 * filled, or an id a thread took from a counter under a lock.  Where the
 * plugin could not follow it to the thread index, the model looks for a
 * rule in the thread's index k, the thread count P and the problem
 * parameters that gives EVERY recorded thread its value (a small set of
 * the forms block and cyclic partitions take, the simplest first).  With
 * one, a thread of any instance gets the rule's value; with none, each
 * thread k of the recorded P gets its recorded value, and any other P is
 * refused with the value and its place named (pp_prog.thread_refusal),
 * rather than a guess.
 *
 * k is the thread's creation order at its pthread_create site, or its
 * OpenMP thread number (the team's master, the main thread, is 0).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long k, v;
} kv;

/* the values for evaluating a candidate: k, P and the parameters */
typedef struct {
    const pp_prog *m;
    int64_t k, P;
} fctx;

static int lookup(void *vp, const pp_expr *a, int64_t *out)
{
    const fctx *c = vp;
    switch (a->kind) {
    case PP_E_TID:
        *out = c->k;
        return 0;
    case PP_E_NTHREADS:
        *out = c->P;
        return 0;
    case PP_E_SYM: {
        int i = a->name ? pp_prog_param_index(c->m, a->name) : -1;
        if (i < 0)
            return 1;
        *out = c->m->params[i].recorded;
        return 0;
    }
    case PP_E_GLOBAL:
        for (int i = 0; a->name && i < c->m->nparams; i++)
            if (c->m->params[i].is_global && strcmp(c->m->params[i].src, a->name) == 0) {
                *out = c->m->params[i].recorded;
                return 0;
            }
        return 1;
    default:
        return 1;
    }
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Does the s-expression text give the threads their values?  As a
 * multiset: a thread that took its id from a counter under a lock got
 * it in the order the threads arrived, not in the order they were
 * created, and threads that run the same code are interchangeable.  The
 * parsed rule, or NULL. */
static pp_expr *try_rule(const pp_prog *m, const char *text, const kv *t, int n, long P)
{
    char err[120];
    pp_expr *e = pp_expr_parse(text, NULL, err, sizeof err);
    long *want = malloc(sizeof *want * (size_t)n), *got = malloc(sizeof *got * (size_t)n);
    int ok = e && want && got;
    fctx c = {m, 0, P};
    for (int i = 0; ok && i < n; i++) {
        int64_t v;
        c.k = t[i].k;
        want[i] = t[i].v;
        ok = pp_expr_eval_i64(e, lookup, &c, &v) == 0;
        got[i] = (long)v;
    }
    if (ok) {
        qsort(want, (size_t)n, sizeof *want, cmp_long);
        qsort(got, (size_t)n, sizeof *got, cmp_long);
        ok = memcmp(want, got, sizeof *want * (size_t)n) == 0;
    }
    free(want);
    free(got);
    if (!ok) {
        pp_expr_free(e);
        return NULL;
    }
    return e;
}

/* The simplest rule that reproduces all n (k, v) pairs, or NULL.  Forms,
 * with X a parameter (or X - 1, X - 2, X + 1) and c the constant that
 * thread k = 0 (the smallest k) fixes: k + c; floor(X k / P) + c and
 * floor(X (k + 1) / P) + c (block partitions); k floor(X / P) + c,
 * k ceil(X / P) + c, (k + 1) floor(X / P) + c, min(X, (k + 1) ceil(X / P))
 * + c; then a k + c with a constant stride a (no size in it). */
static pp_expr *fit(const pp_prog *m, const kv *t, int n, long P)
{
    char buf[400];
    /* the rules are compared as multisets and every form grows with k:
     * the smallest value is the smallest k's */
    long k0 = t[0].k, v0 = t[0].v, k1 = t[0].k, v1 = t[0].v;
    for (int i = 1; i < n; i++) {
        k0 = t[i].k < k0 ? t[i].k : k0;
        v0 = t[i].v < v0 ? t[i].v : v0;
        k1 = t[i].k > k1 ? t[i].k : k1;
        v1 = t[i].v > v1 ? t[i].v : v1;
    }
    if (v0 - k0)
        snprintf(buf, sizeof buf, "(+ (tid) %ld)", v0 - k0);
    else
        snprintf(buf, sizeof buf, "(tid)");
    pp_expr *e = try_rule(m, buf, t, n, P);
    if (e)
        return e;
    static const char *const forms[] = {
        "(fdiv (* %s (tid)) (nthreads))",
        "(fdiv (* %s (+ (tid) 1)) (nthreads))",
        "(* (tid) (fdiv %s (nthreads)))",
        "(* (tid) (cdiv %s (nthreads)))",
        "(* (+ (tid) 1) (fdiv %s (nthreads)))",
        "(min %s (* (+ (tid) 1) (cdiv %s (nthreads))))",
    };
    static const long shifts[] = {0, -1, -2, 1};
    /* first the rules with no constant added: a constant is a size of
     * the run that would not move with the parameters */
    for (int with_c = 0; with_c < 2; with_c++)
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
        for (int p = 0; p < m->nparams; p++)
            for (size_t s = 0; s < sizeof shifts / sizeof *shifts; s++) {
                /* a global as (global NAME): it stays right if the
                 * global turns out derived (model-derived.c), which
                 * takes it out of the parameters */
                char x[200], name[160];
                if (m->params[p].is_global)
                    snprintf(name, sizeof name, "(global %s)", m->params[p].src);
                else
                    snprintf(name, sizeof name, "%s", m->params[p].name);
                if (shifts[s])
                    snprintf(x, sizeof x, "(+ %s %ld)", name, shifts[s]);
                else
                    snprintf(x, sizeof x, "%s", name);
                char form[300];
                snprintf(form, sizeof form, forms[f], x, x);
                /* c from the smallest k */
                fctx c = {m, k0, P};
                char err[120];
                pp_expr *fe = pp_expr_parse(form, NULL, err, sizeof err);
                int64_t at0;
                if (!fe)
                    continue;
                int ok = pp_expr_eval_i64(fe, lookup, &c, &at0) == 0;
                pp_expr_free(fe);
                if (!ok)
                    continue;
                if ((v0 != at0) != with_c)
                    continue;
                if (with_c)
                    snprintf(buf, sizeof buf, "(+ %s %ld)", form, (long)(v0 - at0));
                else
                    snprintf(buf, sizeof buf, "%s", form);
                if ((e = try_rule(m, buf, t, n, P)))
                    return e;
            }
    if (n >= 2 && k1 > k0) {
        if ((v1 - v0) % (k1 - k0) == 0) {
            long a = (v1 - v0) / (k1 - k0);
            snprintf(buf, sizeof buf, "(+ (* %ld (tid)) %ld)", a, v0 - a * k0);
            if ((e = try_rule(m, buf, t, n, P)))
                return e;
        }
    }
    return NULL;
}

/* (cond (eq (tid) k1) v1 (cond ... vn)): each recorded thread's value,
 * right at the recorded P only. */
static pp_expr *table(const kv *t, int n)
{
    size_t cap = 64 + (size_t)n * 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t len = 0;
    for (int i = 0; i < n - 1; i++)
        len += (size_t)snprintf(s + len, cap - len, "(cond (eq (tid) %ld) %ld ", t[i].k, t[i].v);
    len += (size_t)snprintf(s + len, cap - len, "%ld", t[n - 1].v);
    for (int i = 0; i < n - 1; i++)
        s[len++] = ')';
    s[len] = 0;
    char err[120];
    pp_expr *e = pp_expr_parse(s, NULL, err, sizeof err);
    free(s);
    return e;
}

int pp_model_thread_varying(const pp_record *r, const pp_rparam *rp)
{
    int n = 0;
    long v0 = 0;
    for (int i = 0; i < r->ntparams; i++) {
        const pp_rtparam *tp = &r->tparams[i];
        if (tp->func != rp->func || tp->id != rp->id)
            continue;
        if (n++ == 0)
            v0 = tp->min;
        if (tp->min != v0 || tp->max != v0)
            return 1;
    }
    return 0;
}

/* One thread value: fit it, install it in its function, note it. */
static int thread_value(pp_prog *m, const pp_rparam *rp)
{
    const pp_record *r = m->rec;
    const pp_dfunc *d = &r->funcs[rp->func];
    const pp_dparam *dp = pp_desc_param(d, rp->id);
    kv *t = malloc(sizeof *t * (size_t)(r->ntparams + 1));
    if (!t)
        return -1;
    int n = 0, usable = 1;
    long P = 0;
    const char *why = NULL;
    for (int i = 0; i < r->ntparams; i++) {
        const pp_rtparam *tp = &r->tparams[i];
        if (tp->func != rp->func || tp->id != rp->id)
            continue;
        const pp_rthread *th = &r->threads[tp->thread];
        long k = -1, np = 0;
        if (th->kind == PP_T_PTHREAD) {
            k = th->order;
            for (int j = 0; j < r->nthreads; j++)
                np += r->threads[j].id >= 0 && r->threads[j].kind == PP_T_PTHREAD &&
                      r->threads[j].site_func == th->site_func && r->threads[j].site_id == th->site_id;
        } else if (th->kind == PP_T_OMP) {
            k = th->tid;
            np = th->nthreads;
        } else if (th->kind == PP_T_MAIN) {
            k = 0;      /* the master of the teams; their size from the others */
            np = 1;
        }
        if (k < 0 || np < 1) {
            usable = 0;
            why = "a thread that is neither a pthread nor an OpenMP team member set it";
        } else if (tp->min != tp->max) {
            usable = 0;
            why = "a thread set it to several values";
        }
        if (np > P)
            P = np;
        t[n++] = (kv){k, tp->value};
    }
    pp_expr *rule = usable && n > 0 ? fit(m, t, n, P) : NULL;
    int fitted = rule != NULL;
    if (!rule && usable && n > 0)
        rule = table(t, n);
    char where[300];
    const char *file = d->file ? d->file : "?";
    snprintf(where, sizeof where, "%s in %s (%s:%d)", dp->var, d->name ? d->name : "?",
             strrchr(file, '/') ? strrchr(file, '/') + 1 : file, dp->line);
    pp_thread_value *nv = realloc(m->tvals, sizeof *nv * (size_t)(m->ntvals + 1));
    if (!nv) {
        free(t);
        pp_expr_free(rule);
        return -1;
    }
    m->tvals = nv;
    pp_thread_value *tv = &m->tvals[m->ntvals++];
    memset(tv, 0, sizeof *tv);
    tv->name = strdup(dp->name);
    tv->where = strdup(where);
    tv->rule = fitted ? pp_expr_ref(rule) : NULL;
    tv->nthreads = n;
    tv->P = P;
    long lo = t[0].v, hi = t[0].v;
    for (int i = 1; i < n; i++) {
        lo = t[i].v < lo ? t[i].v : lo;
        hi = t[i].v > hi ? t[i].v : hi;
    }
    tv->lo = lo;
    tv->hi = hi;
    pp_mfunc *mf = &m->funcs[rp->func];
    for (int j = 0; j < d->nparams; j++)
        if (d->params[j].id == rp->id) {
            mf->param_of[j] = -1;
            mf->thread_rule[j] = rule ? pp_expr_ref(rule) : NULL;
        }
    pp_expr_free(rule);
    if (!fitted && !m->thread_refusal) {
        char msg[1200];
        snprintf(msg, sizeof msg,
                 "%s differs between threads (%ld to %ld over %d threads) and no rule in the thread index, "
                 "P and the parameters gives every thread its value%s%s: the model knows it only in the "
                 "recorded run (P = %ld and the recorded sizes)",
                 where, lo, hi, n, why ? "; " : "", why ? why : "", P);
        m->thread_refusal = strdup(msg);
    }
    free(t);
    return 0;
}

int pp_model_thread_values(pp_prog *m)
{
    const pp_record *r = m->rec;
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        if (!mf->thread_rule && mf->d->nparams > 0 &&
            !(mf->thread_rule = calloc((size_t)mf->d->nparams, sizeof *mf->thread_rule)))
            return -1;
    }
    for (int i = 0; i < r->nparams; i++)
        if (pp_model_thread_varying(r, &r->params[i]) && thread_value(m, &r->params[i]))
            return -1;
    return 0;
}

void pp_model_thread_values_free(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        for (int j = 0; mf->thread_rule && j < mf->d->nparams; j++)
            pp_expr_free(mf->thread_rule[j]);
        free(mf->thread_rule);
        mf->thread_rule = NULL;
    }
    for (int i = 0; i < m->ntvals; i++) {
        free(m->tvals[i].name);
        free(m->tvals[i].where);
        pp_expr_free(m->tvals[i].rule);
    }
    free(m->tvals);
    m->tvals = NULL;
    m->ntvals = 0;
    free(m->thread_refusal);
    m->thread_refusal = NULL;
}
