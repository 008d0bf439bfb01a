/* sym-i64.h - the int64 arithmetic of pp_expr_eval_i64 (sym-eval.c), inline
 * so that other evaluators of expressions (the instantiation's compiled
 * programs, inst-code.c) share it and agree with the tree walk exactly.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SYM_I64_H
#define PERFPRED_SYM_I64_H

#include "sym.h"

#include <stdint.h>

/* a comparison's result from the sign c of (a - b) */
static inline int pp_i64_cmp_result(pp_ekind k, int c)
{
    switch (k) {
    case PP_E_LT: return c < 0;
    case PP_E_LE: return c <= 0;
    case PP_E_GT: return c > 0;
    case PP_E_GE: return c >= 0;
    case PP_E_EQ: return c == 0;
    default: return c != 0;
    }
}

/* a shifted left (left) or right by k, with C's floor for right shifts */
static inline int pp_i64_shift(int64_t a, int64_t k, int left, int64_t *out)
{
    if (!left) {
        if (k == INT64_MIN)
            return a == 0 ? (*out = 0, 0) : PP_EVAL_OVERFLOW;
        k = -k;
    }
    if (k >= 0) {                       /* a * 2^k */
        if (a == 0) {
            *out = 0;
            return 0;
        }
        if (k >= 64)
            return PP_EVAL_OVERFLOW;
        if (k == 63) {
            if (a != -1)
                return PP_EVAL_OVERFLOW;
            *out = INT64_MIN;
            return 0;
        }
        int64_t r;
        if (__builtin_mul_overflow(a, (int64_t)1 << k, &r))
            return PP_EVAL_OVERFLOW;
        *out = r;
        return 0;
    }
    /* floor(a / 2^-k) */
    if (k <= -63)
        *out = a < 0 ? -1 : 0;
    else
        *out = a >= 0 ? a >> -k : -(int64_t)(((uint64_t)(-(a + 1)) >> -k)) - 1;
    return 0;
}

/* a div, mod, fdiv or cdiv b */
static inline int pp_i64_div(pp_ekind k, int64_t a, int64_t b, int64_t *out)
{
    if (b == 0)
        return PP_EVAL_DIVZERO;
    if (b == -1) {              /* a / -1 overflows for INT64_MIN; a % -1 == 0 */
        if (k == PP_E_MOD) {
            *out = 0;
            return 0;
        }
        if (a == INT64_MIN)
            return PP_EVAL_OVERFLOW;
        *out = -a;
        return 0;
    }
    int64_t q = a / b, r = a % b;
    switch (k) {
    case PP_E_DIV: *out = q; break;
    case PP_E_MOD: *out = r; break;
    case PP_E_FDIV: *out = (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q; break;
    default: *out = (r != 0 && ((r < 0) == (b < 0))) ? q + 1 : q; break;
    }
    return 0;
}

/* a k b for a binary operator, or one step of the left fold of an n-ary
 * one (add, mul, min, max); 0, PP_EVAL_DIVZERO or PP_EVAL_OVERFLOW */
static inline int pp_expr_op2_i64(pp_ekind k, int64_t a, int64_t b, int64_t *out)
{
    switch (k) {
    case PP_E_ADD:
        return __builtin_add_overflow(a, b, out) ? PP_EVAL_OVERFLOW : 0;
    case PP_E_MUL:
        return __builtin_mul_overflow(a, b, out) ? PP_EVAL_OVERFLOW : 0;
    case PP_E_MIN:
        *out = b < a ? b : a;
        return 0;
    case PP_E_MAX:
        *out = b < a ? a : b;
        return 0;
    case PP_E_SUB:
        return __builtin_sub_overflow(a, b, out) ? PP_EVAL_OVERFLOW : 0;
    case PP_E_DIV: case PP_E_MOD: case PP_E_FDIV: case PP_E_CDIV:
        return pp_i64_div(k, a, b, out);
    case PP_E_SHL: case PP_E_SHR:
        return pp_i64_shift(a, b, k == PP_E_SHL, out);
    /* int64_t is two's complement (C11 7.20.1.1): the same bits as GMP's */
    case PP_E_BAND:
        *out = a & b;
        return 0;
    case PP_E_BOR:
        *out = a | b;
        return 0;
    case PP_E_BXOR:
        *out = a ^ b;
        return 0;
    default:
        *out = pp_i64_cmp_result(k, (a > b) - (a < b));
        return 0;
    }
}

#endif
