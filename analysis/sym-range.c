/* sym-range.c - simplification under facts: what holds inside a loop body
 * (the induction variable between its first and last value, the loop's
 * own test) or on one side of a branch, as polynomials f with f >= 0.
 * With them `(max 0 (- N k 1))` inside `for (k = 0; k < N - 1; k++)` is
 * N - k - 1, and `(cond (gt N k) A B)` is A, so that the body becomes a
 * polynomial in k that sym-sum.c sums in closed form.
 *
 * The prover is deliberately small: x >= 0 holds when x minus a
 * non-negative multiple of one fact, or of two, is a non-negative
 * constant.  It never claims what does not follow; it misses what needs
 * more (docs/symbolic.md, "Simplification under facts").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdlib.h>

void pp_facts_init(pp_facts *F)
{
    F->n = F->cap = 0;
    F->f = NULL;
}

void pp_facts_pop(pp_facts *F, int mark)
{
    while (F->n > mark)
        pp_poly_free(F->f[--F->n]);
}

void pp_facts_free(pp_facts *F)
{
    pp_facts_pop(F, 0);
    free(F->f);
    F->f = NULL;
    F->cap = 0;
}

static void push(pp_facts *F, pp_poly *p)
{
    mpq_t c;
    mpq_init(c);
    /* a constant says nothing (or is a contradiction: keep it out) */
    if (pp__poly_is_const(p, c)) {
        mpq_clear(c);
        pp_poly_free(p);
        return;
    }
    mpq_clear(c);
    if (F->n == F->cap)
        F->f = pp__xrealloc(F->f, sizeof *F->f * (size_t)(F->cap = F->cap ? 2 * F->cap : 8));
    F->f[F->n++] = p;
}

/* a - b + k */
static pp_poly *diff(const pp_expr *a, const pp_expr *b, long k)
{
    pp_poly *pa = pp_poly_from_expr(a), *pb = pp_poly_from_expr(b);
    pp_poly *d = pp_poly_sub(pa, pb);
    pp_poly *kk = pp__poly_const_si(k);
    pp_poly *r = pp_poly_add(d, kk);
    pp_poly_free(pa);
    pp_poly_free(pb);
    pp_poly_free(d);
    pp_poly_free(kk);
    return r;
}

void pp_facts_add_ge0(pp_facts *F, const pp_expr *x)
{
    push(F, pp_poly_from_expr(x));
}

static int is_cmp(pp_ekind k)
{
    return k == PP_E_LT || k == PP_E_LE || k == PP_E_GT || k == PP_E_GE || k == PP_E_EQ || k == PP_E_NE;
}

/* the facts of (a OP b), truth = 1, or of its negation */
static void add_cmp(pp_facts *F, pp_ekind k, const pp_expr *a, const pp_expr *b, int truth)
{
    if (!truth) {
        switch (k) {
        case PP_E_LT: k = PP_E_GE; break;
        case PP_E_LE: k = PP_E_GT; break;
        case PP_E_GT: k = PP_E_LE; break;
        case PP_E_GE: k = PP_E_LT; break;
        case PP_E_EQ: k = PP_E_NE; break;
        default: k = PP_E_EQ; break;
        }
    }
    switch (k) {
    case PP_E_LT: push(F, diff(b, a, -1)); break;
    case PP_E_LE: push(F, diff(b, a, 0)); break;
    case PP_E_GT: push(F, diff(a, b, -1)); break;
    case PP_E_GE: push(F, diff(a, b, 0)); break;
    case PP_E_EQ:
        push(F, diff(a, b, 0));
        push(F, diff(b, a, 0));
        break;
    default: break;   /* a != b: no linear fact */
    }
}

void pp_facts_add_cond(pp_facts *F, const pp_expr *c, int truth)
{
    if (!c)
        return;
    if (is_cmp(c->kind))
        add_cmp(F, c->kind, c->kids[0], c->kids[1], truth);
    else if (c->kind == PP_E_NOT)
        pp_facts_add_cond(F, c->kids[0], !truth);
    else if ((c->kind == PP_E_AND && truth) || (c->kind == PP_E_OR && !truth))
        for (int i = 0; i < c->nkids; i++)
            pp_facts_add_cond(F, c->kids[i], truth);
    else if (!truth && c->kind != PP_E_AND && c->kind != PP_E_OR && c->kind != PP_E_INT) {
        pp_expr *zero = pp_expr_int(0);
        add_cmp(F, PP_E_EQ, c, zero, 1);
        pp_expr_free(zero);
    }
}

static int same_monomial(const pp_pterm *a, const pp_pterm *b)
{
    if (a->nf != b->nf)
        return 0;
    for (int i = 0; i < a->nf; i++)
        if (a->f[i].e != b->f[i].e || !pp_expr_equal(a->f[i].v, b->f[i].v))
            return 0;
    return 1;
}

static int nonneg_const(const pp_poly *p)
{
    mpq_t c;
    mpq_init(c);
    int ok = pp__poly_is_const(p, c) && mpq_sgn(c) >= 0;
    mpq_clear(c);
    return ok;
}

/* p - lambda f with lambda > 0 chosen to cancel f's first non-constant
 * term in p; NULL when p does not have that term with the right sign */
static pp_poly *take(const pp_poly *p, const pp_poly *f)
{
    const pp_pterm *tf = NULL;
    for (int i = 0; i < f->n && !tf; i++)
        if (f->t[i].nf > 0)
            tf = &f->t[i];
    if (!tf)
        return NULL;
    for (int i = 0; i < p->n; i++) {
        if (!same_monomial(&p->t[i], tf))
            continue;
        mpq_t l;
        mpq_init(l);
        mpq_div(l, p->t[i].c, tf->c);
        pp_poly *r = NULL;
        if (mpq_sgn(l) > 0) {
            pp_poly *s = pp_poly_scale(f, l);
            r = pp_poly_sub(p, s);
            pp_poly_free(s);
        }
        mpq_clear(l);
        return r;
    }
    return NULL;
}

static int nonneg_poly(const pp_facts *F, const pp_poly *p)
{
    if (nonneg_const(p))
        return 1;
    for (int i = 0; F && i < F->n; i++) {
        pp_poly *r = take(p, F->f[i]);
        if (!r)
            continue;
        int ok = nonneg_const(r);
        for (int j = 0; !ok && j < F->n; j++) {
            if (j == i)
                continue;
            pp_poly *r2 = take(r, F->f[j]);
            if (r2) {
                ok = nonneg_const(r2);
                pp_poly_free(r2);
            }
        }
        pp_poly_free(r);
        if (ok)
            return 1;
    }
    return 0;
}

int pp_facts_nonneg(const pp_facts *F, const pp_expr *x)
{
    pp_poly *p = pp_poly_from_expr(x);
    int ok = nonneg_poly(F, p);
    pp_poly_free(p);
    return ok;
}

/* a - b + k >= 0 follows from F */
static int holds(const pp_facts *F, const pp_expr *a, const pp_expr *b, long k)
{
    pp_poly *d = diff(a, b, k);
    int ok = nonneg_poly(F, d);
    pp_poly_free(d);
    return ok;
}

int pp_facts_decide(const pp_facts *F, const pp_expr *c)
{
    const pp_expr *a = c->nkids > 0 ? c->kids[0] : NULL, *b = c->nkids > 1 ? c->kids[1] : NULL;
    switch (c->kind) {
    case PP_E_INT:
        return mpz_sgn(c->z) != 0;
    case PP_E_LT:
        return holds(F, b, a, -1) ? 1 : holds(F, a, b, 0) ? 0 : -1;
    case PP_E_LE:
        return holds(F, b, a, 0) ? 1 : holds(F, a, b, -1) ? 0 : -1;
    case PP_E_GT:
        return holds(F, a, b, -1) ? 1 : holds(F, b, a, 0) ? 0 : -1;
    case PP_E_GE:
        return holds(F, a, b, 0) ? 1 : holds(F, b, a, -1) ? 0 : -1;
    case PP_E_EQ:
    case PP_E_NE: {
        int eq = holds(F, a, b, 0) && holds(F, b, a, 0) ? 1
                 : holds(F, a, b, -1) || holds(F, b, a, -1) ? 0 : -1;
        return eq < 0 ? -1 : c->kind == PP_E_EQ ? eq : !eq;
    }
    case PP_E_NOT: {
        int d = pp_facts_decide(F, a);
        return d < 0 ? -1 : !d;
    }
    case PP_E_AND:
    case PP_E_OR: {
        int all = 1;
        for (int i = 0; i < c->nkids; i++) {
            int d = pp_facts_decide(F, c->kids[i]);
            if (d == (c->kind == PP_E_OR))
                return d;
            all &= d >= 0;
        }
        return all ? c->kind == PP_E_AND : -1;
    }
    default: {
        /* a value as a condition: non-zero */
        pp_expr *zero = pp_expr_int(0);
        int d = holds(F, c, zero, -1) || holds(F, zero, c, -1) ? 1
                : holds(F, c, zero, 0) && holds(F, zero, c, 0) ? 0 : -1;
        pp_expr_free(zero);
        return d;
    }
    }
}

static pp_expr *under(const pp_expr *e, pp_facts *F);

static pp_expr *under_cond(const pp_expr *e, pp_facts *F)
{
    int d = pp_facts_decide(F, e->kids[0]);
    if (d >= 0)
        return under(e->kids[d ? 1 : 2], F);
    pp_expr *k[3];
    k[0] = under(e->kids[0], F);
    int mark = F->n;
    pp_facts_add_cond(F, e->kids[0], 1);
    k[1] = under(e->kids[1], F);
    pp_facts_pop(F, mark);
    pp_facts_add_cond(F, e->kids[0], 0);
    k[2] = under(e->kids[2], F);
    pp_facts_pop(F, mark);
    return pp__take_op(PP_E_COND, 3, k);
}

/* min/max: drop an operand another one always beats */
static pp_expr *under_minmax(const pp_expr *e, pp_facts *F)
{
    int n = e->nkids, m = 0;
    pp_expr **k = pp__xmalloc(sizeof *k * (size_t)n);
    char *keep = pp__xmalloc((size_t)n);
    for (int i = 0; i < n; i++) {
        k[i] = under(e->kids[i], F);
        keep[i] = 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n && keep[i]; j++)
            if (j != i && keep[j] &&
                (e->kind == PP_E_MAX ? holds(F, k[j], k[i], 0) : holds(F, k[i], k[j], 0)))
                keep[i] = 0;
    for (int i = 0; i < n; i++) {
        if (keep[i])
            k[m++] = k[i];
        else
            pp_expr_free(k[i]);
    }
    free(keep);
    pp_expr *r = m == 1 ? k[0] : pp__take_op(e->kind, m, k);
    free(k);
    return r;
}

static int nodes(const pp_expr *e)
{
    int n = 1;
    for (int i = 0; i < e->nkids; i++)
        n += nodes(e->kids[i]);
    return n;
}

static pp_ekind flip(pp_ekind k)
{
    switch (k) {
    case PP_E_LT: return PP_E_GT;
    case PP_E_LE: return PP_E_GE;
    case PP_E_GT: return PP_E_LT;
    case PP_E_GE: return PP_E_LE;
    default: return k;
    }
}

static pp_ekind negate(pp_ekind k)
{
    switch (k) {
    case PP_E_LT: return PP_E_GE;
    case PP_E_LE: return PP_E_GT;
    case PP_E_GT: return PP_E_LE;
    case PP_E_GE: return PP_E_LT;
    case PP_E_EQ: return PP_E_NE;
    default: return PP_E_EQ;
    }
}

static pp_expr *simp2(pp_ekind k, const pp_expr *a, const pp_expr *b)
{
    pp_expr *kids[2] = {(pp_expr *)a, (pp_expr *)b};
    pp_expr *e = pp_expr_op(k, 2, kids);
    pp_expr *r = pp_expr_simplify(e);
    pp_expr_free(e);
    return r;
}

/* (a OP b) as (d OP' 0) with d = a - b or b - a, when that is smaller:
 * (ge s (+ s q)) is (le q 0) */
static pp_expr *compare(pp_ekind k, pp_expr *a, pp_expr *b)
{
    pp_expr *d1 = simp2(PP_E_SUB, a, b), *d2 = simp2(PP_E_SUB, b, a);
    int n1 = nodes(d1), n2 = nodes(d2), nab = nodes(a) + nodes(b);
    long z;
    pp_expr *r;
    if ((n1 < nab || n2 < nab) && !(pp_expr_is_int(b, &z) && z == 0) && !(pp_expr_is_int(a, &z) && z == 0)) {
        int second = n2 < n1;
        r = pp__take2(second ? flip(k) : k, pp_expr_ref(second ? d2 : d1), pp_expr_int(0));
        pp_expr_free(a);
        pp_expr_free(b);
    } else
        r = pp__take2(k, a, b);
    pp_expr_free(d1);
    pp_expr_free(d2);
    return r;
}

static int positive_divisor(const pp_expr *b, pp_facts *F)
{
    long v;
    if (pp_expr_is_int(b, &v))
        return v > 0;
    if ((b->kind == PP_E_NPROCS || b->kind == PP_E_NTHREADS) && !b->name)
        return 1;
    pp_expr *one = pp_expr_int(1);
    int ok = holds(F, b, one, 0);
    pp_expr_free(one);
    return ok;
}

static pp_expr *under(const pp_expr *e, pp_facts *F)
{
    if (e->nkids == 0 || e->kind == PP_E_LIST || pp_expr_is_atom(e))
        return pp_expr_ref((pp_expr *)e);
    if (e->kind == PP_E_NOT && is_cmp(e->kids[0]->kind)) {
        /* !(a < b) is a >= b */
        const pp_expr *c = e->kids[0];
        pp_expr *n = pp__take2(negate(c->kind), pp_expr_ref(c->kids[0]), pp_expr_ref(c->kids[1]));
        pp_expr *r = under(n, F);
        pp_expr_free(n);
        return r;
    }
    if (e->kind == PP_E_COND)
        return under_cond(e, F);
    if (e->kind == PP_E_MIN || e->kind == PP_E_MAX)
        return under_minmax(e, F);
    if (is_cmp(e->kind) || e->kind == PP_E_AND || e->kind == PP_E_OR || e->kind == PP_E_NOT) {
        int d = pp_facts_decide(F, e);
        if (d >= 0)
            return pp_expr_int(d);
    }
    pp_expr **k = pp__xmalloc(sizeof *k * (size_t)e->nkids);
    for (int i = 0; i < e->nkids; i++)
        k[i] = under(e->kids[i], F);
    pp_ekind kind = e->kind;
    /* C's division of a non-negative by a positive number is floor's */
    if (kind == PP_E_DIV && pp_facts_nonneg(F, k[0]) && positive_divisor(k[1], F))
        kind = PP_E_FDIV;
    pp_expr *r = is_cmp(kind) ? compare(kind, k[0], k[1]) : pp__take_op(kind, e->nkids, k);
    free(k);
    return r;
}

pp_expr *pp_expr_simplify_under(const pp_expr *e, pp_facts *F)
{
    pp_facts none;
    pp_facts_init(&none);
    pp_expr *s = pp_expr_simplify(e);
    pp_expr *u = under(s, F ? F : &none);
    pp_expr *r = pp_expr_simplify(u);
    pp_expr_free(s);
    pp_expr_free(u);
    pp_facts_free(&none);
    return r;
}
