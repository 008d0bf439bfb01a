/* sym-sum.c - exact summation of a polynomial over an integer range with
 * Faulhaber's formula (Bernoulli numbers computed with mpq).
 *
 *   T_k(m) = sum_{v=0}^{m-1} v^k = 1/(k+1) sum_{j=0}^{k} C(k+1,j) B_j m^{k+1-j}
 *   sum_{v=lo}^{hi} v^k = T_k(hi+1) - T_k(lo)
 *
 * with B_1 = -1/2.  The identity is polynomial, so it also holds for
 * symbolic bounds; for hi = lo - 1 the sum is 0 (empty range).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdlib.h>

/* B[0..m] */
static void bernoulli(unsigned long m, mpq_t *B)
{
    mpq_t s, t;
    mpz_t c;
    mpq_inits(s, t, NULL);
    mpz_init(c);
    mpq_set_ui(B[0], 1, 1);
    for (unsigned long k = 1; k <= m; k++) {
        mpq_set_ui(s, 0, 1);
        for (unsigned long j = 0; j < k; j++) {
            mpz_bin_uiui(c, k + 1, j);
            mpq_set_z(t, c);
            mpq_mul(t, t, B[j]);
            mpq_add(s, s, t);
        }
        mpq_set_ui(t, 1, k + 1);
        mpq_mul(s, s, t);
        mpq_neg(B[k], s);
    }
    mpz_clear(c);
    mpq_clears(s, t, NULL);
}

/* T_k(m) with pw[i] = m^i for i = 0..k+1 */
static pp_poly *power_sum(unsigned long k, const mpq_t *B, pp_poly *const *pw)
{
    pp_poly *r = pp__poly_new();
    mpq_t coef, inv;
    mpz_t c;
    mpq_inits(coef, inv, NULL);
    mpz_init(c);
    mpq_set_ui(inv, 1, k + 1);
    for (unsigned long j = 0; j <= k; j++) {
        if (mpq_sgn(B[j]) == 0)
            continue;
        mpz_bin_uiui(c, k + 1, j);
        mpq_set_z(coef, c);
        mpq_mul(coef, coef, B[j]);
        mpq_mul(coef, coef, inv);
        r = pp__poly_add_take(r, pp__poly_scale(pw[k + 1 - j], coef));
    }
    mpz_clear(c);
    mpq_clears(coef, inv, NULL);
    return r;
}

pp_poly *pp_poly_sum(const pp_poly *p, const pp_expr *var,
                     const pp_poly *lo, const pp_poly *hi)
{
    int deg = pp_poly_degree_in(p, var);
    if (deg < 0 || pp_poly_degree_in(lo, var) != 0 || pp_poly_degree_in(hi, var) != 0)
        return NULL;
    unsigned long K = (unsigned long)deg;
    mpq_t *B = pp__xmalloc(sizeof *B * (K + 1));
    for (unsigned long i = 0; i <= K; i++)
        mpq_init(B[i]);
    bernoulli(K, B);

    /* powers of hi+1 and lo, 0 .. K+1 */
    pp_poly **ph = pp__xmalloc(sizeof *ph * (K + 2)), **pl = pp__xmalloc(sizeof *pl * (K + 2));
    pp_poly *one = pp__poly_const_si(1);
    ph[0] = pp_poly_copy(one);
    pl[0] = pp_poly_copy(one);
    ph[1] = pp_poly_add(hi, one);
    pl[1] = pp_poly_copy(lo);
    for (unsigned long i = 2; i <= K + 1; i++) {
        ph[i] = pp_poly_mul(ph[i - 1], ph[1]);
        pl[i] = pp_poly_mul(pl[i - 1], pl[1]);
    }
    /* D[k] = sum_{v=lo}^{hi} v^k, computed when needed */
    pp_poly **D = calloc(K + 1, sizeof *D);
    if (!D)
        abort();

    pp_poly *res = pp__poly_new();
    for (int i = 0; i < p->n; i++) {
        const pp_pterm *t = &p->t[i];
        unsigned long e = 0;
        int nr = 0;
        pp_pfac *f = pp__xmalloc(sizeof *f * (size_t)(t->nf ? t->nf : 1));
        for (int j = 0; j < t->nf; j++) {
            if (pp_expr_equal(t->f[j].v, var))
                e = t->f[j].e;
            else
                f[nr++] = t->f[j];
        }
        if (!D[e]) {
            pp_poly *a = power_sum(e, B, ph), *b = power_sum(e, B, pl);
            D[e] = pp_poly_sub(a, b);
            pp_poly_free(a);
            pp_poly_free(b);
        }
        pp_poly *part = pp__poly_new();
        pp__poly_push(part, t->c, nr, f);
        free(f);
        res = pp__poly_add_take(res, pp__poly_mul_take(part, pp_poly_copy(D[e])));
    }

    for (unsigned long i = 0; i <= K; i++) {
        pp_poly_free(D[i]);
        mpq_clear(B[i]);
    }
    for (unsigned long i = 0; i <= K + 1; i++) {
        pp_poly_free(ph[i]);
        pp_poly_free(pl[i]);
    }
    free(D);
    free(B);
    free(ph);
    free(pl);
    pp_poly_free(one);
    return res;
}

pp_expr *pp_expr_sum(const pp_expr *e, const pp_expr *var,
                     const pp_expr *lo, const pp_expr *hi)
{
    pp_poly *p = pp_poly_from_expr(e), *l = pp_poly_from_expr(lo), *h = pp_poly_from_expr(hi);
    pp_poly *s = pp_poly_sum(p, var, l, h);
    pp_expr *r = s ? pp_poly_to_expr(s) : NULL;
    pp_poly_free(s);
    pp_poly_free(p);
    pp_poly_free(l);
    pp_poly_free(h);
    return r;
}
