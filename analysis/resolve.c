/* resolve.c - see resolve.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "resolve.h"

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
        return NULL;
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
                if (mg->ev_child[k] != c->func || ev->kind != PP_EV_FORK)
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

char *pp_loop_count_text(const pp_prog *m, int f, int k)
{
    const pp_mloop *ml = &m->funcs[f].loops[k];
    if (!ml->count) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.6g", ml->trip);
        return strdup(buf);
    }
    pp_expr *r = pp_resolve_roots(m, f, ml->count);
    ivname_ctx c = {m->funcs[f].d};
    pp_expr *n = r ? pp_expr_subst(r, iv_to_name, &c) : NULL;
    char *s = n ? pp_expr_to_infix(n) : pp_expr_to_infix(ml->count);
    pp_expr_free(r);
    pp_expr_free(n);
    return s;
}

