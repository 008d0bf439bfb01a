/* resolve.c - see resolve.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RESOLVE_DEPTH 16

typedef struct {
    const pp_prog *m;
    int func;
    int depth;
} rctx;

static pp_expr *resolve(const pp_prog *m, int func, const pp_expr *e, int depth);

/* An expression brought in from another function: its (iv L) atoms mean
 * that function's loops, so name them now (display only). */
static pp_expr *foreign_iv(void *vp, const pp_expr *a)
{
    const pp_dfunc *d = vp;
    if (a->kind != PP_E_IV)
        return NULL;
    const pp_dloop *l = pp_desc_loop(d, (int)a->ival);
    char buf[160];
    if (l && l->iv)
        snprintf(buf, sizeof buf, "%s", l->iv);
    else
        snprintf(buf, sizeof buf, "%s.i%ld", d->name, a->ival);
    return pp_expr_sym(buf);
}

static pp_expr *resolve_foreign(const pp_prog *m, int sf, const pp_expr *val, int depth)
{
    pp_expr *r = resolve(m, sf, val, depth);
    if (!r)
        return NULL;
    pp_expr *n = pp_expr_subst(r, foreign_iv, (void *)m->funcs[sf].d);
    pp_expr_free(r);
    return n;
}

static int arg_position(const pp_dfunc *d, const char *name)
{
    for (int i = 0; name && i < d->nargs; i++)
        if (strcmp(d->argnames[i], name) == 0)
            return i;
    return -1;
}

static pp_expr *subst_atom(void *vp, const pp_expr *a)
{
    const rctx *c = vp;
    const pp_prog *m = c->m;
    const pp_mfunc *mf = &m->funcs[c->func];
    if (a->kind == PP_E_VAR) {
        for (int i = 0; i < mf->d->nparams; i++)
            if (a->name && strcmp(mf->d->params[i].var, a->name) == 0 && mf->param_of[i] >= 0)
                return pp_expr_sym(m->params[mf->param_of[i]].name);
        return NULL;
    }
    if (a->kind == PP_E_GLOBAL) {
        for (int i = 0; i < m->nparams; i++)
            if (m->params[i].is_global && a->name && strcmp(m->params[i].src, a->name) == 0)
                return pp_expr_sym(m->params[i].name);
        /* a derived global: its definition in the inputs (model-derived.c) */
        int d = pp_prog_derived_index(m, a->name);
        return d >= 0 ? pp_expr_ref(m->derived[d].expr) : NULL;
    }
    if (c->depth >= MAX_RESOLVE_DEPTH)
        return NULL;
    if (a->kind == PP_E_ARG) {
        int pos = arg_position(mf->d, a->name);
        if (pos < 0)
            return NULL;
        /* the only site that enters this function */
        int sites = 0, sf = -1;
        const pp_expr *val = NULL;
        for (int g = 0; g < m->nfuncs; g++) {
            const pp_mfunc *mg = &m->funcs[g];
            for (int k = 0; k < mg->d->ncalls; k++)
                if (mg->call_callee[k] == c->func) {
                    sites++;
                    sf = g;
                    val = pos < mg->d->calls[k].nargs ? mg->d->calls[k].args[pos] : NULL;
                }
            for (int k = 0; k < mg->d->nevents; k++)
                if (mg->ev_child[k] == c->func && mg->d->events[k].kind == PP_EV_CREATE) {
                    sites++;
                    sf = g;
                    val = pos == 0 ? mg->d->events[k].arg : NULL;
                }
        }
        if (sites != 1 || !val)
            return NULL;
        return resolve_foreign(m, sf, val, c->depth + 1);
    }
    if (a->kind == PP_E_SHARED) {
        int sites = 0, sf = -1;
        const pp_expr *val = NULL;
        for (int g = 0; g < m->nfuncs; g++) {
            const pp_mfunc *mg = &m->funcs[g];
            for (int k = 0; k < mg->d->nevents; k++) {
                const pp_devent *ev = &mg->d->events[k];
                if (mg->ev_child[k] != c->func || (ev->kind != PP_EV_FORK && ev->kind != PP_EV_CREATE))
                    continue;
                sites++;
                sf = g;
                val = NULL;
                for (int j = 0; j < ev->ndata; j++)
                    if (a->name && strcmp(ev->data_name[j], a->name) == 0)
                        val = ev->data_val[j];
            }
        }
        if (sites != 1 || !val)
            return NULL;
        return resolve_foreign(m, sf, val, c->depth + 1);
    }
    return NULL;
}

static pp_expr *resolve(const pp_prog *m, int func, const pp_expr *e, int depth)
{
    rctx c = {m, func, depth};
    return pp_expr_subst(e, subst_atom, &c);
}

pp_expr *pp_resolve_roots(const pp_prog *m, int func, const pp_expr *e)
{
    if (!e)
        return NULL;
    pp_expr *r = resolve(m, func, e, 0);
    pp_expr *s = r ? pp_expr_simplify(r) : NULL;
    pp_expr_free(r);
    return s;
}

int pp_resolve_param_plus(const pp_prog *m, const pp_expr *e, long *offset)
{
    *offset = 0;
    /* max(0, X): a count that cannot go negative; the thread count is X */
    if (e->kind == PP_E_MAX && e->nkids == 2) {
        long z;
        if (pp_expr_is_int(e->kids[0], &z) && z == 0)
            e = e->kids[1];
        else if (pp_expr_is_int(e->kids[1], &z) && z == 0)
            e = e->kids[0];
    }
    const pp_expr *sym = NULL;
    if (e->kind == PP_E_SYM)
        sym = e;
    else if (e->kind == PP_E_ADD && e->nkids == 2) {
        long c;
        if (e->kids[0]->kind == PP_E_SYM && pp_expr_is_int(e->kids[1], &c)) {
            sym = e->kids[0];
            *offset = c;
        } else if (e->kids[1]->kind == PP_E_SYM && pp_expr_is_int(e->kids[0], &c)) {
            sym = e->kids[1];
            *offset = c;
        }
    }
    if (!sym || !sym->name)
        return -1;
    return pp_prog_param_index(m, sym->name);
}

typedef struct {
    const pp_dfunc *d;
} ivname_ctx;

/* (iv L) -> the loop's source induction variable name, when it has one */
static pp_expr *iv_to_name(void *vp, const pp_expr *a)
{
    const ivname_ctx *c = vp;
    if (a->kind != PP_E_IV)
        return NULL;
    const pp_dloop *l = pp_desc_loop(c->d, (int)a->ival);
    if (!l || !l->iv)
        return NULL;
    return pp_expr_sym(l->iv);
}

/* For people: cond(A <= B, B - A, 0) (GCC's niter with its may-be-zero
 * test) reads max(0, B - A), with B - A simplified. */
static pp_expr *readable(const pp_expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == PP_E_COND && e->nkids == 3) {
        long z;
        const pp_expr *c = e->kids[0];
        if (pp_expr_is_int(e->kids[2], &z) && z == 0 && c->nkids == 2 &&
            (c->kind == PP_E_LE || c->kind == PP_E_LT || c->kind == PP_E_GE || c->kind == PP_E_GT)) {
            /* cond(A < B, X, 0) = max(0, X) when X = B - A or B - A - 1;
             * cond(A <= B, X, 0) when X = B - A or B - A + 1 */
            int up = c->kind == PP_E_LE || c->kind == PP_E_LT;
            int strict = c->kind == PP_E_LT || c->kind == PP_E_GT;
            pp_expr *ba[2] = {c->kids[up ? 1 : 0], c->kids[up ? 0 : 1]};
            pp_expr *diff = pp_expr_op(PP_E_SUB, 2, ba);
            pp_expr *xd[2] = {e->kids[1], diff};
            pp_expr *gap = diff ? pp_expr_op(PP_E_SUB, 2, xd) : NULL;
            pp_expr *g = gap ? pp_expr_simplify(gap) : NULL;
            pp_expr *x = pp_expr_simplify(e->kids[1]);
            pp_expr *r = NULL;
            long d;
            if (g && x && pp_expr_is_int(g, &d) && (d == 0 || d == (strict ? -1 : 1))) {
                pp_expr *zero = pp_expr_int(0);
                pp_expr *mk[2] = {zero, x};
                r = pp_expr_op(PP_E_MAX, 2, mk);
                pp_expr_free(zero);
            }
            pp_expr_free(diff);
            pp_expr_free(gap);
            pp_expr_free(g);
            pp_expr_free(x);
            if (r)
                return r;
        }
    }
    if (e->nkids == 0 || e->kind == PP_E_LIST)
        return pp_expr_ref((pp_expr *)e);
    pp_expr **k = calloc((size_t)e->nkids, sizeof *k);
    if (!k)
        return pp_expr_ref((pp_expr *)e);
    for (int i = 0; i < e->nkids; i++)
        k[i] = readable(e->kids[i]);
    pp_expr *r = pp_expr_op(e->kind, e->nkids, k);
    for (int i = 0; i < e->nkids; i++)
        pp_expr_free(k[i]);
    free(k);
    return r ? r : pp_expr_ref((pp_expr *)e);
}

char *pp_loop_count_text(const pp_prog *m, int f, int k)
{
    const pp_mloop *ml = &m->funcs[f].loops[k];
    if (!ml->count) {
        char buf[200];
        if (ml->pow_param >= 0 && ml->pow_param < m->nparams && ml->pow_lin)
            snprintf(buf, sizeof buf, "%.4g*%s %c %.4g", ml->pow_a, m->params[ml->pow_param].name,
                     ml->pow_b < 0 ? '-' : '+', fabs(ml->pow_b));
        else if (ml->pow_param >= 0 && ml->pow_param < m->nparams)
            snprintf(buf, sizeof buf, "%.4g*%s^%.3g", ml->pow_a, m->params[ml->pow_param].name, ml->pow_b);
        else
            snprintf(buf, sizeof buf, "%.6g", ml->trip);
        return strdup(buf);
    }
    pp_expr *r = pp_resolve_roots(m, f, ml->count);
    ivname_ctx c = {m->funcs[f].d};
    pp_expr *n = r ? pp_expr_subst(r, iv_to_name, &c) : NULL;
    pp_expr *h = n ? readable(n) : NULL;
    char *s = h ? pp_expr_to_infix(h) : pp_expr_to_infix(ml->count);
    pp_expr_free(r);
    pp_expr_free(n);
    pp_expr_free(h);
    return s;
}

