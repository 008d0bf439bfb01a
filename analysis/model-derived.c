/* model-derived.c - derived globals: a global the program sets once from
 * its inputs (nv = 1L << scale; nedge = 16 * nv: `gdef' lines,
 * docs/descriptor-format.md) is no coordinate of chi.  Its definition, in
 * the inputs, replaces it wherever an expression reads it, so that
 * --set scale=15 moves nv and nedge.  A definition is used only when it is
 * the global's one store the plugin saw and, at the inputs of every
 * record, gives the value the record read at exit (a global reassigned
 * through a pointer, or set again in another translation unit, fails
 * that); otherwise the global stays an input, with a note saying why
 * (docs/model.md, "Derived globals").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"
#include "resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A candidate: one global parameter with one gdef line. */
typedef struct {
    int param;           /* index in m->params                           */
    int func, line;
    pp_expr *def;        /* resolved into the parameters' names          */
    pp_expr *expr;       /* in the inputs (this round's expansion)        */
    int ok;              /* still derived                                 */
} cand;

typedef struct {
    const pp_prog *m;
    cand *c;
    int nc;
    int depth;
    int bad;             /* expansion too deep (a cycle)                  */
} xctx;

static int cand_of(const xctx *x, const char *name)
{
    for (int i = 0; i < x->nc; i++)
        if (x->c[i].ok && strcmp(x->m->params[x->c[i].param].name, name) == 0)
            return i;
    return -1;
}

static pp_expr *expand(xctx *x, const pp_expr *e);

/* A symbol that names a derived candidate (and no input that keeps its
 * name: a local copied into a global of the same name is one quantity)
 * is replaced by its definition, expanded in turn. */
static pp_expr *expand_atom(void *vp, const pp_expr *a)
{
    xctx *x = vp;
    if (a->kind != PP_E_SYM || !a->name)
        return NULL;
    int k = cand_of(x, a->name);
    if (k < 0)
        return NULL;
    for (int i = 0; i < x->m->nparams; i++) {
        int derived = 0;
        for (int j = 0; j < x->nc; j++)
            derived |= x->c[j].ok && x->c[j].param == i;
        if (!derived && strcmp(x->m->params[i].name, a->name) == 0)
            return NULL;
    }
    if (x->depth > 32) {
        x->bad = 1;
        return NULL;
    }
    x->depth++;
    pp_expr *r = expand(x, x->c[k].def);
    x->depth--;
    return r;
}

static pp_expr *expand(xctx *x, const pp_expr *e)
{
    return pp_expr_subst(e, expand_atom, x);
}

typedef struct {
    const pp_prog *m;
    int k;               /* record */
} rctx;

/* The inputs' values in record k. */
static int input_in(void *vp, const pp_expr *a, int64_t *out)
{
    const rctx *c = vp;
    if (a->kind != PP_E_SYM || !a->name)
        return -1;
    int i = pp_prog_param_index(c->m, a->name);
    long v;
    if (i < 0 || pp_prog_param_in(c->m, c->k, i, &v))
        return -1;
    *out = v;
    return 0;
}

/* Only symbols of parameters: an atom left unresolved ((arg n) of a
 * function with several callers) makes no definition. */
static int only_params(const pp_prog *m, const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_SYM)
        return e->name && pp_prog_param_index(m, e->name) >= 0;
    if (e->kind == PP_E_INT)
        return 1;
    if (pp_expr_is_atom(e) || e->kind == PP_E_UNKNOWN)
        return 0;
    for (int i = 0; i < e->nkids; i++)
        if (!only_params(m, e->kids[i]))
            return 0;
    return 1;
}

/* The name of a parameter e reads that the run set to several values. */
static const char *varying_in(const pp_prog *m, const pp_expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == PP_E_SYM) {
        int i = e->name ? pp_prog_param_index(m, e->name) : -1;
        return i >= 0 && m->params[i].varying ? m->params[i].name : NULL;
    }
    for (int k = 0; k < e->nkids; k++) {
        const char *v = varying_in(m, e->kids[k]);
        if (v)
            return v;
    }
    return NULL;
}

static int has_sym(const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_SYM)
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (has_sym(e->kids[i]))
            return 1;
    return 0;
}

static void set_note(pp_param *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_note(pp_param *p, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(p->note);
    p->note = strdup(buf);
}

/* Check every candidate against every record; drop the ones that fail
 * (then the others are expanded again: nedge = 16 * nv with nv an input
 * is still derived).  Returns the number dropped. */
static int check_round(pp_prog *m, cand *c, int nc)
{
    xctx x = {m, c, nc, 0, 0};
    for (int i = 0; i < nc; i++) {
        pp_expr_free(c[i].expr);
        c[i].expr = NULL;
    }
    for (int i = 0; i < nc; i++)
        if (c[i].ok) {
            x.bad = 0;
            c[i].expr = expand(&x, c[i].def);
            if (x.bad || !c[i].expr) {
                set_note(&m->params[c[i].param], "its definition at line %d reads itself", c[i].line);
                c[i].ok = -1;   /* dropped after the round */
            } else if (!has_sym(c[i].expr))
                /* set from constants only (init(1024) with N = n): the
                 * global is the one place the size can be changed, it
                 * stays an input */
                c[i].ok = -1;
        }
    int dropped = 0;
    for (int i = 0; i < nc; i++) {
        if (c[i].ok < 0) {
            c[i].ok = 0;
            dropped++;
            continue;
        }
        if (!c[i].ok)
            continue;
        pp_param *p = &m->params[c[i].param];
        for (int k = 0; k < (m->nrec > 0 ? m->nrec : 1); k++) {
            long rec;
            if (pp_prog_param_in(m, k, c[i].param, &rec))
                continue;
            rctx rc = {m, k};
            int64_t v;
            char *s = pp_expr_to_infix(c[i].def);
            if (pp_expr_eval_i64(c[i].expr, input_in, &rc, &v)) {
                set_note(p, "its definition %s cannot be evaluated at the recorded inputs", s ? s : "?");
                c[i].ok = 0;
            } else if (v != rec) {
                char in[40] = "";
                if (k)
                    snprintf(in, sizeof in, " in record %d", k + 1);
                set_note(p, "its definition %s gives %ld, but it was %ld at exit%s (assigned elsewhere?)",
                         s ? s : "?", (long)v, rec, in);
                c[i].ok = 0;
            }
            free(s);
            if (!c[i].ok) {
                dropped++;
                break;
            }
        }
    }
    return dropped;
}

int pp_model_derive_globals(pp_prog *m)
{
    cand *c = calloc((size_t)m->nparams + 1, sizeof *c);
    if (!c)
        return -1;
    int nc = 0;
    for (int i = 0; i < m->nparams; i++) {
        pp_param *p = &m->params[i];
        if (!p->is_global)
            continue;
        int n = 0, func = -1;
        const pp_dgdef *one = NULL;
        int lines[2] = {0, 0};
        for (int f = 0; f < m->nfuncs; f++) {
            const pp_dfunc *d = m->funcs[f].d;
            for (int g = 0; g < d->ngdefs; g++)
                if (d->gdefs[g].name && strcmp(d->gdefs[g].name, p->src) == 0) {
                    if (n < 2)
                        lines[n] = d->gdefs[g].line;
                    n++;
                    one = &d->gdefs[g];
                    func = f;
                }
        }
        if (n == 0 || (n == 1 && !one->expr))
            continue;   /* an input: set from outside or not followed */
        if (n > 1) {
            char buf[200];
            snprintf(buf, sizeof buf, "assigned in %d places (lines %d, %d%s)", n, lines[0], lines[1],
                     n > 2 ? ", ..." : "");
            free(p->note);
            p->note = strdup(buf);
            continue;
        }
        pp_expr *def = pp_resolve_roots(m, func, one->expr);
        if (!def || !only_params(m, def)) {
            /* set from a value the plugin could not follow (init(atoi
             * (argv[1])) with SCALE = scale): an input */
            pp_expr_free(def);
            continue;
        }
        const char *v = varying_in(m, def);
        if (v) {
            /* a value that changed during the run gives no one value */
            set_note(p, "its definition reads %s, which the run set to several values", v);
            pp_expr_free(def);
            continue;
        }
        c[nc++] = (cand){i, func, one->line, def, NULL, 1};
    }
    while (nc && check_round(m, c, nc) > 0)
        ;
    int nd = 0;
    for (int i = 0; i < nc; i++)
        nd += c[i].ok;
    int rc = 0;
    if (nd) {
        pp_derived *d = calloc((size_t)nd, sizeof *d);
        if (!d)
            rc = -1;
        /* move them out of the parameters (only globals move; locals,
         * which param_of points at, come first and keep their indices) */
        int j = 0, w = 0;
        for (int i = 0; d && i < m->nparams; i++) {
            int k = -1;
            for (int q = 0; q < nc; q++)
                if (c[q].ok && c[q].param == i)
                    k = q;
            if (k < 0) {
                m->params[w++] = m->params[i];
                continue;
            }
            pp_param *p = &m->params[i];
            d[j++] = (pp_derived){p->name, c[k].func, c[k].line, c[k].def, c[k].expr, p->recorded};
            c[k].def = c[k].expr = NULL;
            free(p->src);
            free(p->note);
        }
        if (d) {
            m->nparams = w;
            m->derived = d;
            m->nderived = nd;
        }
    }
    for (int i = 0; i < nc; i++) {
        pp_expr_free(c[i].def);
        pp_expr_free(c[i].expr);
    }
    free(c);
    return rc;
}

int pp_prog_derived_index(const pp_prog *m, const char *name)
{
    for (int i = 0; name && i < m->nderived; i++)
        if (strcmp(m->derived[i].name, name) == 0)
            return i;
    return -1;
}

int pp_prog_derived_value(const pp_prog *m, const pp_vals *pv, int d, long *out)
{
    int64_t v;
    if (d < 0 || d >= m->nderived || pp_prog_eval(m, pv, m->derived[d].expr, &v))
        return -1;
    *out = (long)v;
    return 0;
}

int pp_model_global_nondet(const pp_prog *m, const char *name)
{
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        for (int g = 0; g < d->ngdefs; g++)
            if (d->gdefs[g].name && d->gdefs[g].why && strcmp(d->gdefs[g].name, name) == 0 &&
                strcmp(d->gdefs[g].why, "nondet") == 0)
                return 1;
    }
    return 0;
}

/* "scale" or "n or m": the parameters expression e reads, in buf. */
static void syms_of(const pp_expr *e, char *buf, size_t n)
{
    if (!e)
        return;
    if (e->kind == PP_E_SYM && e->name) {
        size_t len = strlen(buf);
        /* each once: compare whole names in the list */
        for (const char *s = buf; (s = strstr(s, e->name)) != NULL; s++)
            if ((s == buf || s[-1] == ' ') && (s[strlen(e->name)] == 0 || s[strlen(e->name)] == ' '))
                return;
        snprintf(buf + len, n - len, "%s%s", len ? " or " : "", e->name);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        syms_of(e->kids[i], buf, n);
}

int pp_prog_derived_hint(const pp_prog *m, const char *name, char *buf, size_t n)
{
    int d = pp_prog_derived_index(m, name);
    if (d < 0)
        return -1;
    char inputs[200] = "";
    syms_of(m->derived[d].expr, inputs, sizeof inputs);
    char *s = pp_expr_to_infix(m->derived[d].def);
    snprintf(buf, n, "'%s' is computed by the program (%s = %s, line %d of %s): set %s instead", name, name,
             s ? s : "?", m->derived[d].line, m->funcs[m->derived[d].func].d->name,
             inputs[0] ? inputs : "its inputs");
    free(s);
    return 0;
}
