/* sym-eval.c - exact evaluation of expressions with C integer semantics
 * (GMP), and the int64 fast path with overflow detection.  Both walk the
 * tree in the same order (cond, and, or short-circuit) so that they agree
 * whenever the fast path succeeds.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"
#include "sym-i64.h"

#include <limits.h>

/* ---------------------------------------------------------------- exact */

static int ev_z(const pp_expr *e, pp_lookup_fn lk, void *ctx, mpz_t out);

/* a * 2^k (k may be negative: floor division) */
static int shift_z(mpz_t out, const mpz_t a, const mpz_t k, int left)
{
    if (!mpz_fits_slong_p(k) || mpz_cmp_si(k, -LONG_MAX) < 0)
        goto huge;
    long s = mpz_get_si(k);
    if (!left)
        s = -s;          /* may not overflow: |s| <= LONG_MAX after fits */
    if (s >= 0) {
        if (s > PP_SHIFT_MAX && mpz_sgn(a) != 0)
            return PP_EVAL_OVERFLOW;
        mpz_mul_2exp(out, a, (mp_bitcnt_t)(mpz_sgn(a) ? s : 0));
    } else {
        mpz_fdiv_q_2exp(out, a, (mp_bitcnt_t)-s);
    }
    return 0;
huge:
    /* |k| beyond long: a right shift gives 0 or -1, a left one overflows */
    if ((mpz_sgn(k) < 0) == (left != 0)) {
        mpz_set_si(out, mpz_sgn(a) < 0 ? -1 : 0);
        return 0;
    }
    if (mpz_sgn(a) == 0) {
        mpz_set_ui(out, 0);
        return 0;
    }
    return PP_EVAL_OVERFLOW;
}

static int ev_z_op(const pp_expr *e, pp_lookup_fn lk, void *ctx, mpz_t out)
{
    int rc = 0;
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    switch (e->kind) {
    case PP_E_ADD: case PP_E_MUL: case PP_E_MIN: case PP_E_MAX:
        if ((rc = ev_z(e->kids[0], lk, ctx, a)))
            break;
        for (int i = 1; i < e->nkids && rc == 0; i++) {
            if ((rc = ev_z(e->kids[i], lk, ctx, b)))
                break;
            if (e->kind == PP_E_ADD)
                mpz_add(a, a, b);
            else if (e->kind == PP_E_MUL)
                mpz_mul(a, a, b);
            else if ((e->kind == PP_E_MIN) == (mpz_cmp(b, a) < 0))
                mpz_set(a, b);
        }
        mpz_set(out, a);
        break;
    case PP_E_NEG: case PP_E_NOT: case PP_E_BNOT:
        if ((rc = ev_z(e->kids[0], lk, ctx, a)))
            break;
        if (e->kind == PP_E_NEG)
            mpz_neg(out, a);
        else if (e->kind == PP_E_BNOT)
            mpz_com(out, a);            /* -a - 1 */
        else
            mpz_set_ui(out, mpz_sgn(a) == 0);
        break;
    case PP_E_AND: case PP_E_OR: {
        int is_and = e->kind == PP_E_AND, v = is_and;
        for (int i = 0; i < e->nkids; i++) {
            if ((rc = ev_z(e->kids[i], lk, ctx, a)))
                break;
            if ((mpz_sgn(a) != 0) != is_and) {
                v = !is_and;
                break;
            }
        }
        mpz_set_ui(out, (unsigned long)v);
        break;
    }
    case PP_E_COND:
        if ((rc = ev_z(e->kids[0], lk, ctx, a)))
            break;
        rc = ev_z(e->kids[mpz_sgn(a) ? 1 : 2], lk, ctx, out);
        break;
    default:    /* binary */
        if ((rc = ev_z(e->kids[0], lk, ctx, a)) || (rc = ev_z(e->kids[1], lk, ctx, b)))
            break;
        switch (e->kind) {
        case PP_E_SUB: mpz_sub(out, a, b); break;
        case PP_E_DIV: case PP_E_MOD: case PP_E_FDIV: case PP_E_CDIV:
            if (mpz_sgn(b) == 0) {
                rc = PP_EVAL_DIVZERO;
                break;
            }
            if (e->kind == PP_E_DIV) mpz_tdiv_q(out, a, b);
            else if (e->kind == PP_E_MOD) mpz_tdiv_r(out, a, b);
            else if (e->kind == PP_E_FDIV) mpz_fdiv_q(out, a, b);
            else mpz_cdiv_q(out, a, b);
            break;
        case PP_E_SHL: case PP_E_SHR:
            rc = shift_z(out, a, b, e->kind == PP_E_SHL);
            break;
        /* GMP's logical operations act on the infinite two's complement
         * form: the C result whenever the operands fit the C type */
        case PP_E_BAND: mpz_and(out, a, b); break;
        case PP_E_BOR: mpz_ior(out, a, b); break;
        case PP_E_BXOR: mpz_xor(out, a, b); break;
        default:
            mpz_set_ui(out, (unsigned long)pp_i64_cmp_result(e->kind, mpz_cmp(a, b)));
            break;
        }
    }
    mpz_clears(a, b, NULL);
    return rc;
}

static int ev_z(const pp_expr *e, pp_lookup_fn lk, void *ctx, mpz_t out)
{
    if (e->kind == PP_E_INT) {
        mpz_set(out, e->z);
        return 0;
    }
    if (e->kind == PP_E_UNKNOWN || e->kind == PP_E_LIST)
        return PP_EVAL_UNKNOWN;
    if (pp_expr_is_atom(e))
        return lk && lk(ctx, e, out) == 0 ? 0 : PP_EVAL_UNKNOWN;
    if (!pp__arity_ok(e->kind, e->nkids))
        return PP_EVAL_UNKNOWN;
    return ev_z_op(e, lk, ctx, out);
}

int pp_expr_eval_z(const pp_expr *e, pp_lookup_fn lookup, void *ctx, mpz_t out)
{
    if (!e)
        return PP_EVAL_UNKNOWN;
    mpz_t r;
    mpz_init(r);
    int rc = ev_z(e, lookup, ctx, r);
    if (rc == 0)
        mpz_set(out, r);
    mpz_clear(r);
    return rc;
}

/* ---------------------------------------------------------------- int64 */

static int ev_i(const pp_expr *e, pp_lookup_i64_fn lk, void *ctx, int64_t *out);

static int ev_i_op(const pp_expr *e, pp_lookup_i64_fn lk, void *ctx, int64_t *out)
{
    int rc;
    int64_t a, b;
    switch (e->kind) {
    case PP_E_ADD: case PP_E_MUL: case PP_E_MIN: case PP_E_MAX:
        if ((rc = ev_i(e->kids[0], lk, ctx, &a)))
            return rc;
        for (int i = 1; i < e->nkids; i++)
            if ((rc = ev_i(e->kids[i], lk, ctx, &b)) || (rc = pp_expr_op2_i64(e->kind, a, b, &a)))
                return rc;
        *out = a;
        return 0;
    case PP_E_NEG:
        if ((rc = ev_i(e->kids[0], lk, ctx, &a)))
            return rc;
        if (a == INT64_MIN)
            return PP_EVAL_OVERFLOW;
        *out = -a;
        return 0;
    case PP_E_NOT:
        if ((rc = ev_i(e->kids[0], lk, ctx, &a)))
            return rc;
        *out = a == 0;
        return 0;
    case PP_E_BNOT:
        if ((rc = ev_i(e->kids[0], lk, ctx, &a)))
            return rc;
        *out = ~a;          /* never overflows: ~INT64_MIN == INT64_MAX */
        return 0;
    case PP_E_AND: case PP_E_OR: {
        int is_and = e->kind == PP_E_AND;
        for (int i = 0; i < e->nkids; i++) {
            if ((rc = ev_i(e->kids[i], lk, ctx, &a)))
                return rc;
            if ((a != 0) != is_and) {
                *out = !is_and;
                return 0;
            }
        }
        *out = is_and;
        return 0;
    }
    case PP_E_COND:
        if ((rc = ev_i(e->kids[0], lk, ctx, &a)))
            return rc;
        return ev_i(e->kids[a ? 1 : 2], lk, ctx, out);
    default:
        break;
    }
    if ((rc = ev_i(e->kids[0], lk, ctx, &a)) || (rc = ev_i(e->kids[1], lk, ctx, &b)))
        return rc;
    return pp_expr_op2_i64(e->kind, a, b, out);
}

static int ev_i(const pp_expr *e, pp_lookup_i64_fn lk, void *ctx, int64_t *out)
{
    if (e->kind == PP_E_INT) {
        if (!mpz_fits_slong_p(e->z) || sizeof(long) < sizeof(int64_t))
            return PP_EVAL_OVERFLOW;
        *out = mpz_get_si(e->z);
        return 0;
    }
    if (e->kind == PP_E_UNKNOWN || e->kind == PP_E_LIST)
        return PP_EVAL_UNKNOWN;
    if (pp_expr_is_atom(e))
        return lk && lk(ctx, e, out) == 0 ? 0 : PP_EVAL_UNKNOWN;
    if (!pp__arity_ok(e->kind, e->nkids))
        return PP_EVAL_UNKNOWN;
    return ev_i_op(e, lk, ctx, out);
}

int pp_expr_eval_i64(const pp_expr *e, pp_lookup_i64_fn lookup, void *ctx, int64_t *out)
{
    if (!e)
        return PP_EVAL_UNKNOWN;
    int64_t r = 0;
    int rc = ev_i(e, lookup, ctx, &r);
    if (rc == 0)
        *out = r;
    return rc;
}
