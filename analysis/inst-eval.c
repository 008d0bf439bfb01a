/* inst-eval.c - the evaluation environment of the instantiation: frames
 * (a function's arguments and induction variables, the OpenMP context),
 * the lookup of every kind of symbol, and a cache that saves the name
 * comparisons on the hot path.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_inst_fail(ictx *c, const char *fmt, ...)
{
    if (!c->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, sizeof c->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- symbol lookup ------------------------------------------------------ */

typedef struct {
    const ictx *c;
    const frame *fr;
} lctx;

/* Name lookup for ARG, VAR, GLOBAL and SYM atoms (the slow path). */
static int resolve_atom(const pp_prog *m, const frame *fr, const pp_expr *a)
{
    const pp_dfunc *d = fr->mf->d;
    if (!a->name)
        return -1;
    switch (a->kind) {
    case PP_E_ARG:
        for (int i = 0; i < d->nargs; i++)
            if (strcmp(d->argnames[i], a->name) == 0)
                return i;
        return -1;
    case PP_E_VAR:
        for (int i = 0; i < d->nparams; i++)
            if (strcmp(d->params[i].var, a->name) == 0 && fr->mf->param_of[i] >= 0)
                return fr->mf->param_of[i];
        return -1;
    case PP_E_GLOBAL:
    case PP_E_SYM:
        for (int i = 0; i < m->nparams; i++)
            if ((m->params[i].is_global && strcmp(m->params[i].src, a->name) == 0) ||
                (a->kind == PP_E_SYM && strcmp(m->params[i].name, a->name) == 0))
                return i;
        if (a->kind == PP_E_SYM && strcmp(a->name, "P") == 0)
            return -2;
        return -1;
    default:
        return -1;
    }
}

static size_t ac_hash(const pp_expr *a, int fi)
{
    uintptr_t x = (uintptr_t)a >> 4;
    x ^= (uintptr_t)fi * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (size_t)x;
}

/* Cached resolve_atom; the cache lives as long as the instantiation. */
static int cached_atom(ictx *c, const frame *fr, const pp_expr *a)
{
    if (c->ac) {
        size_t i = ac_hash(a, fr->fi) & c->acmask;
        while (c->ac[i].atom) {
            if (c->ac[i].atom == a && c->ac[i].fi == fr->fi)
                return c->ac[i].idx;
            i = (i + 1) & c->acmask;
        }
    }
    int idx = resolve_atom(c->m, fr, a);
    if (c->acn * 2 >= c->acmask + 1 || !c->ac) {
        size_t cap = c->ac ? (c->acmask + 1) * 2 : 1024;
        acache_ent *n = calloc(cap, sizeof *n);
        if (!n)
            return idx;
        for (size_t k = 0; c->ac && k <= c->acmask; k++)
            if (c->ac[k].atom) {
                size_t j = ac_hash(c->ac[k].atom, c->ac[k].fi) & (cap - 1);
                while (n[j].atom)
                    j = (j + 1) & (cap - 1);
                n[j] = c->ac[k];
            }
        free(c->ac);
        c->ac = n;
        c->acmask = cap - 1;
    }
    size_t i = ac_hash(a, fr->fi) & c->acmask;
    while (c->ac[i].atom)
        i = (i + 1) & c->acmask;
    c->ac[i] = (acache_ent){a, fr->fi, idx};
    c->acn++;
    return idx;
}

static int lookup_i64(void *vp, const pp_expr *a, int64_t *out)
{
    const lctx *L = vp;
    const frame *fr = L->fr;
    const pp_prog *m = L->c->m;
    switch (a->kind) {
    case PP_E_ARG: {
        int i = cached_atom((ictx *)L->c, fr, a);
        if (i < 0 || !fr->args_known || !fr->args_known[i])
            return -1;
        *out = fr->args[i];
        return 0;
    }
    case PP_E_VAR:
    case PP_E_GLOBAL:
    case PP_E_SYM: {
        int i = cached_atom((ictx *)L->c, fr, a);
        if (i == -2) {
            *out = L->c->P;
            return 0;
        }
        if (i < 0)
            return -1;
        *out = m->params[i].value;
        return 0;
    }
    case PP_E_SHARED:
        if (!fr->shared || !a->name)
            return -1;
        for (int i = 0; i < fr->shared->n; i++)
            if (strcmp(fr->shared->name[i], a->name) == 0) {
                if (!fr->shared->known[i])
                    return -1;
                *out = fr->shared->val[i];
                return 0;
            }
        return -1;
    case PP_E_IV:
        if (a->ival < 0 || a->ival > fr->mf->max_loop_id || !fr->iv_known[a->ival])
            return -1;
        *out = fr->iv[a->ival];
        return 0;
    case PP_E_NTHREADS:
        if (!fr->omp)
            return -1;
        *out = fr->nthreads;
        return 0;
    case PP_E_TID:
        if (!fr->omp)
            return -1;
        *out = fr->tid;
        return 0;
    case PP_E_RANK:
    case PP_E_NPROCS: {
        int64_t rank, size;
        if (!L->c->mpi || pp_inst_comm_lookup(L->c, a->name, L->c->rank, &rank, &size))
            return -1;
        *out = a->kind == PP_E_RANK ? rank : size;
        return 0;
    }
    default:
        return -1;
    }
}

int pp_inst_eval(const ictx *c, const frame *fr, const pp_expr *e, int64_t *out)
{
    if (!e)
        return -1;
    lctx L = {c, fr};
    return pp_expr_eval_i64(e, lookup_i64, &L, out) == 0 ? 0 : -1;
}

/* ---- frames ------------------------------------------------------------- */

int pp_inst_frame_init(frame *fr, const pp_prog *m, int fi)
{
    fr->fi = fi;
    fr->mf = &m->funcs[fi];
    fr->team = -1;
    fr->shared = NULL;
    fr->omp = 0;
    fr->nthreads = fr->tid = 0;
    int na = fr->mf->d->nargs + 1, nl = fr->mf->max_loop_id + 2;
    if (na <= 8) {
        fr->args = fr->args_buf;
        fr->args_known = fr->args_known_buf;
        memset(fr->args_known_buf, 0, sizeof fr->args_known_buf);
    } else {
        fr->args = calloc((size_t)na, sizeof *fr->args);
        fr->args_known = calloc((size_t)na, 1);
    }
    if (nl <= 16) {
        fr->iv = fr->iv_buf;
        fr->iv_known = fr->iv_known_buf;
        memset(fr->iv_known_buf, 0, sizeof fr->iv_known_buf);
    } else {
        fr->iv = calloc((size_t)nl, sizeof *fr->iv);
        fr->iv_known = calloc((size_t)nl, 1);
    }
    return fr->args && fr->args_known && fr->iv && fr->iv_known ? 0 : -1;
}

void pp_inst_frame_free(frame *fr)
{
    if (fr->args != fr->args_buf)
        free(fr->args);
    if (fr->args_known != fr->args_known_buf)
        free(fr->args_known);
    if (fr->iv != fr->iv_buf)
        free(fr->iv);
    if (fr->iv_known != fr->iv_known_buf)
        free(fr->iv_known);
}
