/* sym-simplify.c - from expressions to polynomials (pp_poly_from_expr) and
 * the algebraic normal form (pp_expr_simplify).  Sub-expressions that are
 * not polynomial (div, mod, min, max, comparisons, ...) become opaque atoms
 * after their operands are simplified and constants folded.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdlib.h>

static pp_poly *from_expr(const pp_expr *e);

/* polynomial of the normal form of e (new reference) */
static pp_expr *norm(const pp_expr *e)
{
    pp_poly *p = from_expr(e);
    pp_expr *r = pp_poly_to_expr(p);
    pp_poly_free(p);
    return r;
}

static int poly_int(const pp_poly *p, mpz_t out)
{
    mpq_t q;
    mpq_init(q);
    int ok = pp__poly_is_const(p, q) && mpz_cmp_ui(mpq_denref(q), 1) == 0;
    if (ok && out)
        mpz_set(out, mpq_numref(q));
    mpq_clear(q);
    return ok;
}

/* An opaque atom from kind and normalised kids (references taken over);
 * folded to a constant when every kid is one and evaluation succeeds. */
static pp_poly *opaque(pp_ekind k, int n, pp_expr **kids)
{
    pp_expr *e = pp__take_op(k, n, kids);
    int all_const = 1;
    for (int i = 0; i < n && all_const; i++)
        all_const = kids[i]->kind == PP_E_INT;
    if (all_const && k != PP_E_LIST) {
        mpz_t v;
        mpz_init(v);
        if (pp_expr_eval_z(e, NULL, NULL, v) == 0) {
            pp_poly *p = pp__poly_const_z(v);
            mpz_clear(v);
            pp_expr_free(e);
            return p;
        }
        mpz_clear(v);
    }
    pp_poly *p = pp__poly_var(e);
    pp_expr_free(e);
    return p;
}

static pp_poly *opaque2(pp_ekind k, pp_expr *a, pp_expr *b)
{
    pp_expr *kids[2] = {a, b};
    return opaque(k, 2, kids);
}

static pp_poly *opaque_norm(const pp_expr *e)
{
    pp_expr **kids = pp__xmalloc(sizeof *kids * (size_t)(e->nkids ? e->nkids : 1));
    for (int i = 0; i < e->nkids; i++)
        kids[i] = norm(e->kids[i]);
    pp_poly *p = opaque(e->kind, e->nkids, kids);
    free(kids);
    return p;
}

/* div, mod, fdiv, cdiv of polynomials a and b */
static pp_poly *divide(pp_ekind k, pp_poly *a, pp_poly *b)
{
    pp_poly *r = NULL;
    mpz_t d;
    mpz_init(d);
    if (pp_poly_is_zero(a) && !pp_poly_is_zero(b)) {
        r = pp__poly_const_si(0);                    /* assumes b != 0 */
    } else if (!pp_poly_is_zero(a) && pp__poly_equal(a, b)) {
        r = pp__poly_const_si(k == PP_E_MOD ? 0 : 1);
    } else if (poly_int(b, d) && mpz_sgn(d) != 0 && !poly_int(a, NULL)) {
        mpq_t inv;
        mpq_init(inv);
        mpz_set_ui(mpq_numref(inv), 1);
        mpz_set(mpq_denref(inv), d);
        mpq_canonicalize(inv);
        pp_poly *q = pp__poly_scale(a, inv);
        if (pp_poly_is_integer_valued(q)) {          /* exact division */
            r = k == PP_E_MOD ? pp__poly_const_si(0) : q;
            if (k == PP_E_MOD)
                pp_poly_free(q);
        } else if (k == PP_E_FDIV || k == PP_E_CDIV) {
            /* floor((d*q + r)/d) = q + floor(r/d) when q has integer
             * coefficients: split off the terms divisible by d */
            pp_poly *qi = pp__poly_new(), *rest = pp__poly_new();
            for (int i = 0; i < q->n; i++) {
                int integral = mpz_cmp_ui(mpq_denref(q->t[i].c), 1) == 0;
                pp__poly_push(integral ? qi : rest, integral ? q->t[i].c : a->t[i].c,
                              q->t[i].nf, q->t[i].f);
            }
            pp__poly_normalize(qi);
            pp__poly_normalize(rest);
            if (!pp_poly_is_zero(qi)) {
                pp_poly *bb = pp__poly_const_z(d);
                pp_poly *tail = divide(k, rest, bb);
                r = pp__poly_add_take(qi, tail);
                pp_poly_free(bb);
            } else {
                pp_poly_free(qi);
            }
            pp_poly_free(rest);
            pp_poly_free(q);
        } else {
            pp_poly_free(q);
        }
        mpq_clear(inv);
    }
    if (!r)
        r = opaque2(k, pp_poly_to_expr(a), pp_poly_to_expr(b));
    mpz_clear(d);
    return r;
}

/* (shl a k) / (shr a k) with k a small constant become * 2^k / fdiv 2^k */
static pp_poly *shift(const pp_expr *e)
{
    pp_poly *a = from_expr(e->kids[0]), *k = from_expr(e->kids[1]), *r = NULL;
    mpz_t s;
    mpz_init(s);
    if (poly_int(k, s) && mpz_cmpabs_ui(s, 4096) <= 0) {
        long n = mpz_get_si(s);
        if (e->kind == PP_E_SHR)
            n = -n;
        mpz_set_ui(s, 1);
        mpz_mul_2exp(s, s, (mp_bitcnt_t)(n < 0 ? -n : n));
        pp_poly *pw = pp__poly_const_z(s);
        if (n >= 0)
            r = pp_poly_mul(a, pw);
        else
            r = divide(PP_E_FDIV, a, pw);
        pp_poly_free(pw);
    }
    if (!r)
        r = opaque2(e->kind, pp_poly_to_expr(a), pp_poly_to_expr(k));
    mpz_clear(s);
    pp_poly_free(a);
    pp_poly_free(k);
    return r;
}

/* band, bor, bxor, bnot: opaque, constants folded (opaque()), and the
 * identities x & -1 = x | 0 = x ^ 0 = x, x & 0 = 0, ~~x = x */
static pp_poly *bitwise(const pp_expr *e)
{
    pp_expr *a = norm(e->kids[0]);
    if (e->kind == PP_E_BNOT) {
        if (a->kind == PP_E_BNOT && a->nkids == 1) {
            pp_poly *r = from_expr(a->kids[0]);
            pp_expr_free(a);
            return r;
        }
        pp_expr *k[1] = {a};
        return opaque(PP_E_BNOT, 1, k);
    }
    pp_expr *b = norm(e->kids[1]);
    long va = 1, vb = 1;
    int ca = pp_expr_is_int(a, &va), cb = pp_expr_is_int(b, &vb);
    if (!(ca && cb)) {
        long v = ca ? va : vb;
        pp_expr *x = ca ? b : a;
        if ((ca || cb) && ((v == 0 && e->kind != PP_E_BAND) || (v == -1 && e->kind == PP_E_BAND))) {
            pp_poly *r = from_expr(x);
            pp_expr_free(a);
            pp_expr_free(b);
            return r;
        }
        if ((ca || cb) && v == 0 && e->kind == PP_E_BAND) {
            pp_expr_free(a);
            pp_expr_free(b);
            return pp__poly_const_si(0);
        }
    }
    return opaque2(e->kind, a, b);
}

static int cmp_expr_ptr(const void *a, const void *b)
{
    return pp_expr_compare(*(pp_expr *const *)a, *(pp_expr *const *)b);
}

/* min / max: flatten, drop arguments dominated by a constant difference,
 * sort the rest; (max 0 x) stays as it is.  Each operand is converted once
 * (re-reading normalised operands would make nested min/max exponential). */
typedef struct { pp_expr *e; pp_poly *p; } mm_arg;

static void minmax_collect(const pp_expr *e, pp_ekind k, mm_arg **v, int *n, int *cap)
{
    for (int i = 0; i < e->nkids; i++) {
        const pp_expr *kid = e->kids[i];
        if (kid->kind == k) {
            minmax_collect(kid, k, v, n, cap);
            continue;
        }
        pp_poly *p = from_expr(kid);
        pp_expr *s = pp_poly_to_expr(p);
        if (s->kind == k) {         /* rare: normalisation made one, e.g. (+ (min a b) 0) */
            minmax_collect(s, k, v, n, cap);
            pp_expr_free(s);
            pp_poly_free(p);
            continue;
        }
        if (*n == *cap)
            *v = pp__xrealloc(*v, sizeof **v * (size_t)(*cap = *cap ? 2 * *cap : 8));
        (*v)[*n].e = s;
        (*v)[(*n)++].p = p;
    }
}

static pp_poly *minmax(const pp_expr *e)
{
    mm_arg *v = NULL;
    int n = 0, cap = 0;
    minmax_collect(e, e->kind, &v, &n, &cap);
    mpq_t c;
    mpq_init(c);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && v[i].e; j++) {
            if (!v[j].e)
                continue;
            pp_poly *d = pp_poly_sub(v[i].p, v[j].p);
            if (pp__poly_is_const(d, c)) {
                /* keep the larger for max, the smaller for min */
                int drop = ((mpq_sgn(c) >= 0) == (e->kind == PP_E_MAX)) ? j : i;
                pp_expr_free(v[drop].e);
                pp_poly_free(v[drop].p);
                v[drop].e = NULL;
                v[drop].p = NULL;
            }
            pp_poly_free(d);
        }
    mpq_clear(c);
    pp_expr **kids = pp__xmalloc(sizeof *kids * (size_t)(n ? n : 1));
    int m = 0, last = -1;
    for (int i = 0; i < n; i++)
        if (v[i].e) {
            kids[m++] = v[i].e;
            last = i;
        }
    pp_poly *r;
    if (m == 1) {
        r = v[last].p;
        v[last].p = NULL;
        pp_expr_free(kids[0]);
    } else {
        qsort(kids, (size_t)m, sizeof *kids, cmp_expr_ptr);
        r = opaque(e->kind, m, kids);
    }
    for (int i = 0; i < n; i++)
        pp_poly_free(v[i].p);
    free(kids);
    free(v);
    return r;
}

/* lt le gt ge eq ne: decided when the difference is a constant */
static pp_poly *compare(const pp_expr *e)
{
    pp_poly *a = from_expr(e->kids[0]), *b = from_expr(e->kids[1]);
    pp_poly *d = pp_poly_sub(a, b), *r;
    mpq_t c;
    mpq_init(c);
    if (pp__poly_is_const(d, c)) {
        pp_expr *x = pp__take2(e->kind, pp_expr_int(mpq_sgn(c)), pp_expr_int(0));
        mpz_t v;
        mpz_init(v);
        pp_expr_eval_z(x, NULL, NULL, v);
        r = pp__poly_const_z(v);
        mpz_clear(v);
        pp_expr_free(x);
    } else {
        r = opaque2(e->kind, pp_poly_to_expr(a), pp_poly_to_expr(b));
    }
    mpq_clear(c);
    pp_poly_free(a);
    pp_poly_free(b);
    pp_poly_free(d);
    return r;
}

/* and / or: a constant operand decides or disappears */
static pp_poly *logic(const pp_expr *e)
{
    int is_and = e->kind == PP_E_AND;
    pp_expr **kids = pp__xmalloc(sizeof *kids * (size_t)e->nkids);
    int n = 0;
    for (int i = 0; i < e->nkids; i++) {
        pp_expr *s = norm(e->kids[i]);
        if (s->kind == PP_E_INT) {
            int truth = mpz_sgn(s->z) != 0;
            pp_expr_free(s);
            if (truth != is_and) {              /* decides: 0 for and, 1 for or */
                for (int j = 0; j < n; j++)
                    pp_expr_free(kids[j]);
                free(kids);
                return pp__poly_const_si(!is_and);
            }
            continue;
        }
        kids[n++] = s;
    }
    pp_poly *r;
    if (n == 0)
        r = pp__poly_const_si(is_and);
    else
        r = opaque(e->kind, n, kids);
    free(kids);
    return r;
}

static pp_poly *cond(const pp_expr *e)
{
    pp_expr *c = norm(e->kids[0]);
    pp_poly *r;
    if (c->kind == PP_E_INT) {
        r = from_expr(e->kids[mpz_sgn(c->z) ? 1 : 2]);
        pp_expr_free(c);
        return r;
    }
    pp_poly *pa = from_expr(e->kids[1]), *pb = from_expr(e->kids[2]);
    if (pp__poly_equal(pa, pb)) {
        pp_poly_free(pb);
        pp_expr_free(c);
        return pa;
    }
    pp_expr *kids[3] = {c, pp_poly_to_expr(pa), pp_poly_to_expr(pb)};
    pp_poly_free(pa);
    pp_poly_free(pb);
    return opaque(PP_E_COND, 3, kids);
}

static pp_poly *from_expr(const pp_expr *e)
{
    pp_poly *r, *a;
    switch (e->kind) {
    case PP_E_INT:
        return pp__poly_const_z(e->z);
    case PP_E_ADD: case PP_E_MUL:
        if (!pp__arity_ok(e->kind, e->nkids))
            break;
        r = from_expr(e->kids[0]);
        for (int i = 1; i < e->nkids; i++)
            r = e->kind == PP_E_ADD ? pp__poly_add_take(r, from_expr(e->kids[i]))
                                    : pp__poly_mul_take(r, from_expr(e->kids[i]));
        return r;
    case PP_E_SUB:
        if (e->nkids != 2)
            break;
        a = from_expr(e->kids[0]);
        r = from_expr(e->kids[1]);
        {
            pp_poly *d = pp_poly_sub(a, r);
            pp_poly_free(a);
            pp_poly_free(r);
            return d;
        }
    case PP_E_NEG:
        if (e->nkids != 1)
            break;
        a = from_expr(e->kids[0]);
        r = pp_poly_sub(&(pp_poly){0, 0, NULL}, a);
        pp_poly_free(a);
        return r;
    case PP_E_DIV: case PP_E_MOD: case PP_E_FDIV: case PP_E_CDIV:
        if (e->nkids != 2)
            break;
        a = from_expr(e->kids[0]);
        {
            pp_poly *b = from_expr(e->kids[1]);
            r = divide(e->kind, a, b);
            pp_poly_free(b);
        }
        pp_poly_free(a);
        return r;
    case PP_E_SHL: case PP_E_SHR:
        if (e->nkids != 2)
            break;
        return shift(e);
    case PP_E_MIN: case PP_E_MAX:
        if (e->nkids < 1)
            break;
        return minmax(e);
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE: case PP_E_EQ: case PP_E_NE:
        if (e->nkids != 2)
            break;
        return compare(e);
    case PP_E_AND: case PP_E_OR:
        if (e->nkids < 1)
            break;
        return logic(e);
    case PP_E_NOT:
        if (e->nkids != 1)
            break;
        return opaque_norm(e);
    case PP_E_BNOT:
        if (e->nkids != 1)
            break;
        return bitwise(e);
    case PP_E_BAND: case PP_E_BOR: case PP_E_BXOR:
        if (e->nkids != 2)
            break;
        return bitwise(e);
    case PP_E_COND:
        if (e->nkids != 3)
            break;
        return cond(e);
    case PP_E_LIST:
        return opaque_norm(e);
    case PP_E_ADDR:
        if (e->nkids == 1) {            /* normalise the index */
            pp_expr *idx = norm(e->kids[0]);
            pp_expr *ad = pp_expr_addr(e->name, idx);
            pp_expr_free(idx);
            r = pp__poly_var(ad);
            pp_expr_free(ad);
            return r;
        }
        return pp__poly_var(e);
    default:                            /* atoms */
        return pp__poly_var(e);
    }
    /* malformed operator node: keep it as it is */
    return pp__poly_var(e);
}

pp_poly *pp_poly_from_expr(const pp_expr *e)
{
    return from_expr(e);
}

pp_expr *pp_expr_simplify(const pp_expr *e)
{
    pp_expr *r = norm(e);
    /* never turn an unknown quantity into a known one: (- ? ?) stays */
    if (pp_expr_has_unknown(e) && !pp_expr_has_unknown(r)) {
        pp_expr_free(r);
        return pp_expr_ref((pp_expr *)e);
    }
    return r;
}
