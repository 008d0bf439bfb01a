/* sym-expr.c - expression nodes: construction, reference counting,
 * structural comparison, predicates and substitution.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *pp__xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("perfpred: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *pp__xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("perfpred: out of memory\n", stderr);
        abort();
    }
    return q;
}

char *pp__xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pp__xmalloc(n);
    memcpy(d, s, n);
    return d;
}

static const struct { pp_ekind k; const char *w; } keywords[] = {
    {PP_E_ARG, "arg"}, {PP_E_VAR, "var"}, {PP_E_GLOBAL, "global"},
    {PP_E_SHARED, "shared"}, {PP_E_IV, "iv"}, {PP_E_NTHREADS, "nthreads"},
    {PP_E_TID, "tid"}, {PP_E_ADDR, "addr"}, {PP_E_CALL, "call"},
    {PP_E_LOAD, "load"}, {PP_E_CRITICAL, "critical"},
    {PP_E_RANK, "rank"}, {PP_E_NPROCS, "nprocs"},
    {PP_E_ADD, "+"}, {PP_E_MUL, "*"}, {PP_E_SUB, "-"}, {PP_E_NEG, "neg"},
    {PP_E_DIV, "div"}, {PP_E_MOD, "mod"}, {PP_E_FDIV, "fdiv"},
    {PP_E_CDIV, "cdiv"}, {PP_E_MIN, "min"}, {PP_E_MAX, "max"},
    {PP_E_SHL, "shl"}, {PP_E_SHR, "shr"}, {PP_E_BAND, "band"},
    {PP_E_BOR, "bor"}, {PP_E_BXOR, "bxor"}, {PP_E_BNOT, "bnot"}, {PP_E_LT, "lt"}, {PP_E_LE, "le"},
    {PP_E_GT, "gt"}, {PP_E_GE, "ge"}, {PP_E_EQ, "eq"}, {PP_E_NE, "ne"},
    {PP_E_AND, "and"}, {PP_E_OR, "or"}, {PP_E_NOT, "not"},
    {PP_E_COND, "cond"},
};

const char *pp__keyword(pp_ekind k)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (keywords[i].k == k)
            return keywords[i].w;
    return NULL;
}

int pp__keyword_kind(const char *s, size_t n, pp_ekind *k)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i].w) == n && memcmp(keywords[i].w, s, n) == 0) {
            *k = keywords[i].k;
            return 1;
        }
    return 0;
}

int pp__is_op(pp_ekind k)
{
    return k >= PP_E_ADD && k <= PP_E_COND;
}

int pp__arity_ok(pp_ekind k, int n)
{
    switch (k) {
    case PP_E_ADD: case PP_E_MUL: case PP_E_MIN: case PP_E_MAX:
    case PP_E_AND: case PP_E_OR:
        return n >= 1;
    case PP_E_NEG: case PP_E_NOT: case PP_E_BNOT:
        return n == 1;
    case PP_E_COND:
        return n == 3;
    case PP_E_LIST:
        return n >= 0;
    default:
        return pp__is_op(k) ? n == 2 : 0;
    }
}

static pp_expr *node(pp_ekind k)
{
    pp_expr *e = pp__xmalloc(sizeof *e);
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->refs = 1;
    mpz_init(e->z);
    return e;
}

pp_expr *pp_expr_int(long v)
{
    pp_expr *e = node(PP_E_INT);
    mpz_set_si(e->z, v);
    return e;
}

pp_expr *pp_expr_int_z(const mpz_t v)
{
    pp_expr *e = node(PP_E_INT);
    mpz_set(e->z, v);
    return e;
}

pp_expr *pp_expr_sym(const char *name)
{
    return pp_expr_atom(PP_E_SYM, name, 0);
}

pp_expr *pp_expr_atom(pp_ekind kind, const char *name, long ival)
{
    if (kind == PP_E_INT || kind > PP_E_NPROCS)
        return NULL;
    pp_expr *e = node(kind);
    switch (kind) {
    case PP_E_SYM: case PP_E_ARG: case PP_E_VAR: case PP_E_GLOBAL:
    case PP_E_SHARED: case PP_E_ADDR: case PP_E_CALL:
        e->name = pp__xstrdup(name ? name : "");
        break;
    case PP_E_CRITICAL:
    case PP_E_RANK:      /* a communicator's name; NULL: MPI_COMM_WORLD */
    case PP_E_NPROCS:
        e->name = name ? pp__xstrdup(name) : NULL;
        break;
    case PP_E_IV:
        e->ival = ival;
        e->name = name ? pp__xstrdup(name) : NULL;   /* decoration only */
        break;
    default:
        break;
    }
    return e;
}

pp_expr *pp_expr_addr(const char *name, pp_expr *index)
{
    pp_expr *e = pp_expr_atom(PP_E_ADDR, name, 0);
    if (index) {
        e->kids = pp__xmalloc(sizeof *e->kids);
        e->kids[0] = pp_expr_ref(index);
        e->nkids = 1;
    }
    return e;
}

pp_expr *pp__take_op(pp_ekind k, int n, pp_expr **kids)
{
    pp_expr *e = node(k);
    e->nkids = n;
    e->kids = pp__xmalloc(sizeof *e->kids * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        e->kids[i] = kids[i];
    return e;
}

pp_expr *pp__take2(pp_ekind k, pp_expr *a, pp_expr *b)
{
    pp_expr *kids[2] = {a, b};
    return pp__take_op(k, 2, kids);
}

pp_expr *pp_expr_op(pp_ekind kind, int nkids, pp_expr *const *kids)
{
    if (!(pp__is_op(kind) || kind == PP_E_LIST) || !pp__arity_ok(kind, nkids))
        return NULL;
    for (int i = 0; i < nkids; i++)
        if (!kids[i])
            return NULL;
    pp_expr *e = node(kind);
    e->nkids = nkids;
    e->kids = pp__xmalloc(sizeof *e->kids * (size_t)(nkids > 0 ? nkids : 1));
    for (int i = 0; i < nkids; i++)
        e->kids[i] = pp_expr_ref(kids[i]);
    return e;
}

pp_expr *pp_expr_ref(pp_expr *e)
{
    if (e)
        __atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
    return e;
}

void pp_expr_free(pp_expr *e)
{
    if (!e || __atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    for (int i = 0; i < e->nkids; i++)
        pp_expr_free(e->kids[i]);
    free(e->kids);
    free(e->name);
    mpz_clear(e->z);
    free(e);
}

static int cmp_name(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    int c = strcmp(a, b);
    return (c > 0) - (c < 0);
}

int pp_expr_compare(const pp_expr *a, const pp_expr *b)
{
    if (a == b)
        return 0;
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    int c;
    switch (a->kind) {
    case PP_E_INT:
        c = mpz_cmp(a->z, b->z);
        return (c > 0) - (c < 0);
    case PP_E_IV:
        return (a->ival > b->ival) - (a->ival < b->ival);
    default:
        break;
    }
    if ((c = cmp_name(a->name, b->name)) != 0)
        return c;
    if (a->nkids != b->nkids)
        return a->nkids < b->nkids ? -1 : 1;
    for (int i = 0; i < a->nkids; i++)
        if ((c = pp_expr_compare(a->kids[i], b->kids[i])) != 0)
            return c;
    return 0;
}

int pp_expr_equal(const pp_expr *a, const pp_expr *b)
{
    return pp_expr_compare(a, b) == 0;
}

int pp_expr_is_int(const pp_expr *e, long *v)
{
    if (!e || e->kind != PP_E_INT || !mpz_fits_slong_p(e->z))
        return 0;
    if (v)
        *v = mpz_get_si(e->z);
    return 1;
}

int pp_expr_has_unknown(const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_UNKNOWN || e->kind == PP_E_CALL || e->kind == PP_E_LOAD)
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (pp_expr_has_unknown(e->kids[i]))
            return 1;
    return 0;
}

int pp_expr_is_atom(const pp_expr *e)
{
    return e && e->kind >= PP_E_UNKNOWN && e->kind <= PP_E_NPROCS;
}

int pp_expr_arity_ok(pp_ekind k, int n)
{
    return pp__arity_ok(k, n);
}

int pp__contains(const pp_expr *e, const pp_expr *sub)
{
    if (pp_expr_equal(e, sub))
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (pp__contains(e->kids[i], sub))
            return 1;
    return 0;
}

int pp_expr_contains(const pp_expr *e, const pp_expr *sub)
{
    return pp__contains(e, sub);
}

/* Rebuild e with kid i replaced by the new references in nk[]; nk[i] ==
 * NULL keeps the old kid. */
static pp_expr *rebuild(const pp_expr *e, pp_expr **nk)
{
    int changed = 0;
    for (int i = 0; i < e->nkids; i++)
        changed |= nk[i] != NULL;
    if (!changed)
        return pp_expr_ref((pp_expr *)e);
    pp_expr *r = node(e->kind);
    r->ival = e->ival;
    r->name = e->name ? pp__xstrdup(e->name) : NULL;
    mpz_set(r->z, e->z);
    r->nkids = e->nkids;
    r->kids = pp__xmalloc(sizeof *r->kids * (size_t)e->nkids);
    for (int i = 0; i < e->nkids; i++)
        r->kids[i] = nk[i] ? nk[i] : pp_expr_ref(e->kids[i]);
    return r;
}

/* Returns a new reference, or NULL when nothing changed. */
static pp_expr *subst_rec(const pp_expr *e, pp_subst_fn fn, void *ctx)
{
    if (pp_expr_is_atom(e) && fn) {
        pp_expr *r = fn(ctx, e);
        if (r)
            return r;
    }
    if (e->nkids == 0)
        return NULL;
    pp_expr *stack[8];
    pp_expr **nk = e->nkids <= 8 ? stack : pp__xmalloc(sizeof *nk * (size_t)e->nkids);
    int changed = 0;
    for (int i = 0; i < e->nkids; i++)
        changed |= (nk[i] = subst_rec(e->kids[i], fn, ctx)) != NULL;
    pp_expr *r = changed ? rebuild(e, nk) : NULL;
    if (nk != stack)
        free(nk);
    return r;
}

pp_expr *pp_expr_subst(const pp_expr *e, pp_subst_fn fn, void *ctx)
{
    pp_expr *r = subst_rec(e, fn, ctx);
    return r ? r : pp_expr_ref((pp_expr *)e);
}

static pp_expr *replace_rec(const pp_expr *e, const pp_expr *what, const pp_expr *with)
{
    if (pp_expr_equal(e, what))
        return pp_expr_ref((pp_expr *)with);
    if (e->nkids == 0)
        return NULL;
    pp_expr **nk = pp__xmalloc(sizeof *nk * (size_t)e->nkids);
    int changed = 0;
    for (int i = 0; i < e->nkids; i++)
        changed |= (nk[i] = replace_rec(e->kids[i], what, with)) != NULL;
    pp_expr *r = changed ? rebuild(e, nk) : NULL;
    free(nk);
    return r;
}

pp_expr *pp__replace(const pp_expr *e, const pp_expr *what, const pp_expr *with)
{
    pp_expr *r = replace_rec(e, what, with);
    return r ? r : pp_expr_ref((pp_expr *)e);
}
