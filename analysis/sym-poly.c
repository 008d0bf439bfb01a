/* sym-poly.c - multivariate polynomials with mpq coefficients: terms in a
 * canonical order, arithmetic, substitution, degree, exact evaluation and
 * the test for integer-valued polynomials.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdlib.h>
#include <string.h>

pp_poly *pp__poly_new(void)
{
    pp_poly *p = pp__xmalloc(sizeof *p);
    p->n = p->cap = 0;
    p->t = NULL;
    return p;
}

static void term_clear(pp_pterm *t)
{
    mpq_clear(t->c);
    for (int i = 0; i < t->nf; i++)
        pp_expr_free(t->f[i].v);
    free(t->f);
}

void pp_poly_free(pp_poly *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        term_clear(&p->t[i]);
    free(p->t);
    free(p);
}

void pp__poly_push(pp_poly *p, const mpq_t c, int nf, const pp_pfac *f)
{
    if (p->n == p->cap)
        p->t = pp__xrealloc(p->t, sizeof *p->t * (size_t)(p->cap = p->cap ? 2 * p->cap : 4));
    pp_pterm *t = &p->t[p->n++];
    mpq_init(t->c);
    mpq_set(t->c, c);
    t->nf = nf;
    t->f = nf ? pp__xmalloc(sizeof *t->f * (size_t)nf) : NULL;
    for (int i = 0; i < nf; i++) {
        t->f[i].v = pp_expr_ref(f[i].v);
        t->f[i].e = f[i].e;
    }
}

pp_poly *pp__poly_const_q(const mpq_t c)
{
    pp_poly *p = pp__poly_new();
    if (mpq_sgn(c))
        pp__poly_push(p, c, 0, NULL);
    return p;
}

pp_poly *pp__poly_const_z(const mpz_t c)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, c);
    pp_poly *p = pp__poly_const_q(q);
    mpq_clear(q);
    return p;
}

pp_poly *pp__poly_const_si(long c)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, c, 1);
    pp_poly *p = pp__poly_const_q(q);
    mpq_clear(q);
    return p;
}

pp_poly *pp__poly_var(const pp_expr *v)
{
    pp_poly *p = pp__poly_new();
    pp_pfac f = {(pp_expr *)v, 1};
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    pp__poly_push(p, one, 1, &f);
    mpq_clear(one);
    return p;
}

static unsigned long tdeg(const pp_pterm *t)
{
    unsigned long d = 0;
    for (int i = 0; i < t->nf; i++)
        d += t->f[i].e;
    return d;
}

/* graded lexicographic: higher total degree first, then the term with the
 * higher power of the smallest variable (pp_expr_compare order) */
static int mono_cmp(const pp_pterm *a, const pp_pterm *b)
{
    unsigned long da = tdeg(a), db = tdeg(b);
    if (da != db)
        return da > db ? -1 : 1;
    int i;
    for (i = 0; i < a->nf && i < b->nf; i++) {
        int c = pp_expr_compare(a->f[i].v, b->f[i].v);
        if (c)
            return c;
        if (a->f[i].e != b->f[i].e)
            return a->f[i].e > b->f[i].e ? -1 : 1;
    }
    return a->nf > i ? -1 : b->nf > i ? 1 : 0;
}

static int mono_qsort_cmp(const void *a, const void *b)
{
    return mono_cmp(a, b);
}

void pp__poly_normalize(pp_poly *p)
{
    if (p->n > 1)
        qsort(p->t, (size_t)p->n, sizeof *p->t, mono_qsort_cmp);
    int w = 0;
    for (int r = 0; r < p->n; r++) {
        if (w > 0 && mono_cmp(&p->t[w - 1], &p->t[r]) == 0) {
            mpq_add(p->t[w - 1].c, p->t[w - 1].c, p->t[r].c);
            term_clear(&p->t[r]);
        } else {
            if (w != r)
                p->t[w] = p->t[r];
            w++;
        }
    }
    int z = 0;
    for (int r = 0; r < w; r++) {
        if (mpq_sgn(p->t[r].c) == 0)
            term_clear(&p->t[r]);
        else
            p->t[z++] = p->t[r];
    }
    p->n = z;
}

pp_poly *pp_poly_copy(const pp_poly *p)
{
    pp_poly *r = pp__poly_new();
    for (int i = 0; i < p->n; i++)
        pp__poly_push(r, p->t[i].c, p->t[i].nf, p->t[i].f);
    return r;
}

pp_poly *pp_poly_add(const pp_poly *a, const pp_poly *b)
{
    pp_poly *r = pp_poly_copy(a);
    for (int i = 0; i < b->n; i++)
        pp__poly_push(r, b->t[i].c, b->t[i].nf, b->t[i].f);
    pp__poly_normalize(r);
    return r;
}

pp_poly *pp_poly_sub(const pp_poly *a, const pp_poly *b)
{
    pp_poly *r = pp_poly_copy(a);
    for (int i = 0; i < b->n; i++) {
        pp__poly_push(r, b->t[i].c, b->t[i].nf, b->t[i].f);
        mpq_neg(r->t[r->n - 1].c, r->t[r->n - 1].c);
    }
    pp__poly_normalize(r);
    return r;
}

pp_poly *pp__poly_scale(const pp_poly *p, const mpq_t c)
{
    pp_poly *r = pp_poly_copy(p);
    for (int i = 0; i < r->n; i++)
        mpq_mul(r->t[i].c, r->t[i].c, c);
    pp__poly_normalize(r);
    return r;
}

pp_poly *pp_poly_scale(const pp_poly *p, const mpq_t c)
{
    return pp__poly_scale(p, c);
}

/* product of two monomials (sorted factor lists) into out (size >= na+nb) */
static int mono_mul(const pp_pterm *a, const pp_pterm *b, pp_pfac *out)
{
    int i = 0, j = 0, n = 0;
    while (i < a->nf || j < b->nf) {
        int c = i == a->nf ? 1 : j == b->nf ? -1 : pp_expr_compare(a->f[i].v, b->f[j].v);
        if (c < 0)
            out[n++] = a->f[i++];
        else if (c > 0)
            out[n++] = b->f[j++];
        else {
            out[n] = a->f[i++];
            out[n++].e += b->f[j++].e;
        }
    }
    return n;
}

pp_poly *pp_poly_mul(const pp_poly *a, const pp_poly *b)
{
    pp_poly *r = pp__poly_new();
    mpq_t c;
    mpq_init(c);
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            pp_pfac stack[16];
            size_t need = (size_t)(a->t[i].nf + b->t[j].nf);
            pp_pfac *f = need <= 16 ? stack : pp__xmalloc(sizeof *f * need);
            int nf = mono_mul(&a->t[i], &b->t[j], f);
            mpq_mul(c, a->t[i].c, b->t[j].c);
            pp__poly_push(r, c, nf, f);
            if (f != stack)
                free(f);
        }
    mpq_clear(c);
    pp__poly_normalize(r);
    return r;
}

pp_poly *pp__poly_add_take(pp_poly *a, pp_poly *b)
{
    pp_poly *r = pp_poly_add(a, b);
    pp_poly_free(a);
    pp_poly_free(b);
    return r;
}

pp_poly *pp__poly_mul_take(pp_poly *a, pp_poly *b)
{
    pp_poly *r = pp_poly_mul(a, b);
    pp_poly_free(a);
    pp_poly_free(b);
    return r;
}

pp_poly *pp__poly_pow(const pp_poly *p, unsigned long e)
{
    pp_poly *r = pp__poly_const_si(1), *base = pp_poly_copy(p);
    while (e) {
        if (e & 1)
            r = pp__poly_mul_take(r, pp_poly_copy(base));
        e >>= 1;
        if (e)
            base = pp__poly_mul_take(base, pp_poly_copy(base));
    }
    pp_poly_free(base);
    return r;
}

int pp_poly_is_zero(const pp_poly *p)
{
    return p->n == 0;
}

int pp__poly_is_const(const pp_poly *p, mpq_t out)
{
    if (p->n > 1 || (p->n == 1 && p->t[0].nf > 0))
        return 0;
    if (out) {
        if (p->n == 0)
            mpq_set_ui(out, 0, 1);
        else
            mpq_set(out, p->t[0].c);
    }
    return 1;
}

int pp__poly_equal(const pp_poly *a, const pp_poly *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (mono_cmp(&a->t[i], &b->t[i]) != 0 || !mpq_equal(a->t[i].c, b->t[i].c))
            return 0;
    return 1;
}

int pp_poly_degree_in(const pp_poly *p, const pp_expr *var)
{
    unsigned long d = 0;
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < p->t[i].nf; j++) {
            const pp_pfac *f = &p->t[i].f[j];
            if (pp_expr_equal(f->v, var)) {
                if (f->e > d)
                    d = f->e;
            } else if (pp__contains(f->v, var)) {
                return -1;
            }
        }
    return d > 0x7fffffffUL ? 0x7fffffff : (int)d;
}

pp_poly *pp_poly_subst(const pp_poly *p, const pp_expr *var, const pp_poly *q)
{
    pp_poly *res = pp__poly_new();
    pp_expr *qe = NULL;
    for (int i = 0; i < p->n; i++) {
        const pp_pterm *t = &p->t[i];
        pp_poly *part = pp__poly_const_q(t->c);
        for (int j = 0; j < t->nf; j++) {
            const pp_pfac *f = &t->f[j];
            pp_poly *fp;
            if (pp_expr_equal(f->v, var)) {
                fp = pp_poly_copy(q);
            } else if (pp__contains(f->v, var)) {
                /* inside an opaque atom: substitute, then re-simplify */
                if (!qe)
                    qe = pp_poly_to_expr(q);
                pp_expr *ne = pp__replace(f->v, var, qe);
                fp = pp_poly_from_expr(ne);
                pp_expr_free(ne);
            } else {
                fp = pp__poly_var(f->v);
            }
            if (f->e != 1) {
                pp_poly *pw = pp__poly_pow(fp, f->e);
                pp_poly_free(fp);
                fp = pw;
            }
            part = pp__poly_mul_take(part, fp);
        }
        res = pp__poly_add_take(res, part);
    }
    pp_expr_free(qe);
    return res;
}

/* ---------------------------------------------------------------- values */

typedef struct {
    int n;
    const pp_expr **var;
    mpz_t *val;
} varvals;

static void vv_clear(varvals *vv)
{
    for (int i = 0; i < vv->n; i++)
        mpz_clear(vv->val[i]);
    free(vv->var);
    free(vv->val);
}

/* distinct variables of p, in order of first appearance */
static void vv_collect(const pp_poly *p, varvals *vv)
{
    int cap = 0;
    vv->n = 0;
    vv->var = NULL;
    vv->val = NULL;
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < p->t[i].nf; j++) {
            const pp_expr *v = p->t[i].f[j].v;
            int k;
            for (k = 0; k < vv->n && !pp_expr_equal(vv->var[k], v); k++)
                ;
            if (k < vv->n)
                continue;
            if (vv->n == cap) {
                cap = cap ? 2 * cap : 8;
                vv->var = pp__xrealloc(vv->var, sizeof *vv->var * (size_t)cap);
                vv->val = pp__xrealloc(vv->val, sizeof *vv->val * (size_t)cap);
            }
            vv->var[vv->n] = v;
            mpz_init(vv->val[vv->n++]);
        }
}

static const mpz_t *vv_get(const varvals *vv, const pp_expr *v)
{
    for (int k = 0; k < vv->n; k++)
        if (vv->var[k] == v || pp_expr_equal(vv->var[k], v))
            return (const mpz_t *)&vv->val[k];
    return NULL;
}

static void vv_eval_poly(const pp_poly *p, const varvals *vv, mpq_t out)
{
    mpq_t acc;
    mpz_t pw;
    mpq_init(acc);
    mpz_init(pw);
    mpq_set_ui(out, 0, 1);
    for (int i = 0; i < p->n; i++) {
        mpq_set(acc, p->t[i].c);
        for (int j = 0; j < p->t[i].nf; j++) {
            const mpz_t *v = vv_get(vv, p->t[i].f[j].v);
            mpz_pow_ui(pw, *v, p->t[i].f[j].e);
            mpz_mul(mpq_numref(acc), mpq_numref(acc), pw);
        }
        mpq_canonicalize(acc);
        mpq_add(out, out, acc);
    }
    mpz_clear(pw);
    mpq_clear(acc);
}

int pp_poly_eval_q(const pp_poly *p, pp_lookup_fn lookup, void *ctx, mpq_t out)
{
    varvals vv;
    vv_collect(p, &vv);
    int rc = 0;
    for (int k = 0; k < vv.n && rc == 0; k++)
        rc = pp_expr_eval_z(vv.var[k], lookup, ctx, vv.val[k]);
    if (rc == 0)
        vv_eval_poly(p, &vv, out);
    vv_clear(&vv);
    return rc;
}

/* Integer-valued on all of Z^n iff integer on the grid Π {0..deg_i}
 * (Newton's forward differences: the coefficients in the binomial basis
 * are integer combinations of those values). */
int pp_poly_is_integer_valued(const pp_poly *p)
{
    int all_int = 1;
    for (int i = 0; i < p->n && all_int; i++)
        all_int = mpz_cmp_ui(mpq_denref(p->t[i].c), 1) == 0;
    if (all_int)
        return 1;
    varvals vv;
    vv_collect(p, &vv);
    unsigned long *deg = calloc((size_t)vv.n + 1, sizeof *deg);
    if (!deg)
        abort();
    unsigned long points = 1;
    for (int k = 0; k < vv.n; k++) {
        deg[k] = 0;                 /* exponent of this variable itself */
        for (int i = 0; i < p->n; i++)
            for (int j = 0; j < p->t[i].nf; j++)
                if (p->t[i].f[j].v == vv.var[k] || pp_expr_equal(p->t[i].f[j].v, vv.var[k]))
                    deg[k] = p->t[i].f[j].e > deg[k] ? p->t[i].f[j].e : deg[k];
        if (deg[k] >= PP_IV_GRID_MAX) {
            points = PP_IV_GRID_MAX + 1;
            continue;
        }
        if (points > PP_IV_GRID_MAX / (deg[k] + 1))
            points = PP_IV_GRID_MAX + 1;
        else
            points *= deg[k] + 1;
    }
    int ok = 0;
    if (points <= PP_IV_GRID_MAX) {
        mpq_t v;
        mpq_init(v);
        ok = 1;
        for (int k = 0; k < vv.n; k++)
            mpz_set_ui(vv.val[k], 0);
        for (;;) {
            vv_eval_poly(p, &vv, v);
            if (mpz_cmp_ui(mpq_denref(v), 1) != 0) {
                ok = 0;
                break;
            }
            int k = 0;                     /* next grid point (odometer) */
            while (k < vv.n && mpz_cmp_ui(vv.val[k], deg[k]) == 0)
                mpz_set_ui(vv.val[k++], 0);
            if (k == vv.n)
                break;
            mpz_add_ui(vv.val[k], vv.val[k], 1);
        }
        mpq_clear(v);
    }
    free(deg);
    vv_clear(&vv);
    return ok;
}

/* ---------------------------------------------------------------- to_expr */

static pp_expr *term_expr(const pp_pterm *t, const mpz_t c)
{
    size_t n = 0;
    for (int i = 0; i < t->nf; i++)
        n += t->f[i].e;
    if (n == 0)
        return pp_expr_int_z(c);
    int unit = mpz_cmpabs_ui(c, 1) == 0;
    size_t nk = n + !unit, k = 0;
    pp_expr **kids = pp__xmalloc(sizeof *kids * nk);
    if (!unit)
        kids[k++] = pp_expr_int_z(c);
    for (int i = 0; i < t->nf; i++)
        for (unsigned long e = 0; e < t->f[i].e; e++)
            kids[k++] = pp_expr_ref(t->f[i].v);
    pp_expr *r = nk == 1 ? kids[0] : pp__take_op(PP_E_MUL, (int)nk, kids);
    free(kids);
    if (unit && mpz_sgn(c) < 0) {
        pp_expr *one[1] = {r};
        r = pp__take_op(PP_E_NEG, 1, one);
    }
    return r;
}

pp_expr *pp_poly_to_expr(const pp_poly *p)
{
    if (p->n == 0)
        return pp_expr_int(0);
    mpz_t d, c;
    mpz_init_set_ui(d, 1);
    mpz_init(c);
    for (int i = 0; i < p->n; i++)
        mpz_lcm(d, d, mpq_denref(p->t[i].c));
    pp_expr **kids = pp__xmalloc(sizeof *kids * (size_t)p->n);
    for (int i = 0; i < p->n; i++) {
        mpz_divexact(c, d, mpq_denref(p->t[i].c));
        mpz_mul(c, c, mpq_numref(p->t[i].c));
        kids[i] = term_expr(&p->t[i], c);
    }
    pp_expr *r = p->n == 1 ? kids[0] : pp__take_op(PP_E_ADD, p->n, kids);
    free(kids);
    if (mpz_cmp_ui(d, 1) != 0)
        r = pp__take2(PP_E_DIV, r, pp_expr_int_z(d));
    mpz_clears(d, c, NULL);
    return r;
}
