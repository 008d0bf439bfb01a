/* inst-range.c - a compiled expression (inst-code.c) run over a range of
 * thread numbers at once, for the classes of team members (inst-class.c):
 * does every thread of the range get the same result, and if not, up to
 * which thread from the first one may it (inst-internal.h,
 * pp_inst_run_range).  In a run of iterations (ictx.itr, instantiate.c)
 * the range is that of the iterations, the frame's slots affine in them,
 * and the thread number and the rank are the frame's, constant.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "sym-i64.h"

/* A value over the thread numbers lo..hi of a range: c0 + c1 tid, exact
 * (int64 at every thread of the range).  The stack programs above read
 * (tid) and the thread's index; a static schedule's chunk is affine in
 * them, and a chunk's count (its end less its start) is the same over a
 * range: the affine form keeps the terms that cancel, where intervals
 * would not. */
typedef struct {
    int64_t c0, c1;
} affine;

typedef struct {
    int64_t lo, hi;
    int64_t *cut;   /* where the threads lo.. stop agreeing (see below) */
    int64_t *period;   /* runs of iterations: a remainder's stride (ictx.itr) */
    int *cut_lo;       /* a remainder cut the range at lo: the rest of the
                          program is run on for its own remainders' strides,
                          with that one's value at lo, and the range says
                          no at the end */
} trange;

/* x at thread tid (in __int128: no overflow) */
static inline __int128 aff_at(affine x, int64_t tid)
{
    return (__int128)x.c0 + (__int128)x.c1 * tid;
}

static inline int fits(__int128 v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* r = c0 + c1 tid from 128-bit coefficients: 0 unless r and every
 * thread's value fit in int64 (so that no thread's evaluation overflowed) */
static int aff_make(__int128 c0, __int128 c1, const trange *R, affine *r)
{
    if (!fits(c0) || !fits(c1))
        return 0;
    r->c0 = (int64_t)c0;
    r->c1 = (int64_t)c1;
    return fits(aff_at(*r, R->lo)) && fits(aff_at(*r, R->hi));
}

static void halve(const trange *R);

/* the sign of x over the range: -1 (< 0 at every thread), 1 (> 0), 2
 * (>= 0, zero somewhere), -2 (<= 0, zero somewhere), 0 (zero at every
 * thread), 3 (both signs) */
static int aff_sign(affine x, const trange *R)
{
    __int128 a = aff_at(x, R->lo), b = aff_at(x, R->hi);
    __int128 mn = a < b ? a : b, mx = a < b ? b : a;
    if (mx < 0)
        return -1;
    if (mn > 0)
        return 1;
    if (mn == 0 && mx == 0)
        return 0;
    if (mn >= 0)
        return 2;
    if (mx <= 0)
        return -2;
    return 3;
}

/* d k 0 at thread t (k a comparison's kind) */
static int cmp_at(int k, affine d, int64_t t)
{
    __int128 v = aff_at(d, t);
    switch (k) {
    case PP_E_LT: return v < 0;
    case PP_E_LE: return v <= 0;
    case PP_E_GT: return v > 0;
    case PP_E_GE: return v >= 0;
    case PP_E_EQ: return v == 0;
    default: return v != 0;
    }
}

/* The threads lo..hi disagree on d k 0: *R->cut goes down to the last
 * thread of the run from lo that agrees with lo.  d is monotone, so an
 * order comparison changes once (a binary search finds where) and an
 * equality holds at its root only. */
static void narrow(int k, affine d, const trange *R)
{
    int64_t e;
    if (k == PP_E_EQ || k == PP_E_NE) {
        if (aff_at(d, R->lo) == 0 || d.c1 == 0)
            e = R->lo;
        else {
            __int128 num = -(__int128)d.c0;
            __int128 root = num / d.c1;
            e = num % d.c1 == 0 && root > R->lo && root <= R->hi ? (int64_t)root - 1 : R->hi;
        }
    } else {
        int at_lo = cmp_at(k, d, R->lo);
        int64_t a = R->lo, b = R->hi;   /* a agrees, b may not */
        if (cmp_at(k, d, b) == at_lo)
            a = b;
        while (b - a > 1) {
            int64_t mid = a + (b - a) / 2;
            if (cmp_at(k, d, mid) == at_lo)
                a = mid;
            else
                b = mid;
        }
        e = a;
    }
    if (e < *R->cut)
        *R->cut = e;
}

/* no telling where the threads stop agreeing: the first half */
static void halve(const trange *R)
{
    int64_t e = R->lo + (R->hi - R->lo) / 2;
    if (e < *R->cut)
        *R->cut = e;
}

/* x is non-zero at every thread (1), zero at every thread (0), or not
 * the same there (-1): a truth value the range agrees on */
static int aff_truth(affine x, const trange *R)
{
    if (x.c1 == 0)
        return x.c0 != 0;
    int s = aff_sign(x, R);
    if (s == 3 || s == 2 || s == -2)
        narrow(PP_E_NE, x, R);
    return s == 1 || s == -1 ? 1 : s == 0 ? 0 : -1;
}

/* A comparison k of a and b over the range: 0 or 1 at every thread, or
 * -1 when the threads differ. */
static int aff_cmp(int k, affine a, affine b, const trange *R)
{
    affine d;
    if (!aff_make((__int128)a.c0 - b.c0, (__int128)a.c1 - b.c1, R, &d)) {
        halve(R);
        return -1;
    }
    int s = aff_sign(d, R), v;
    switch (k) {
    case PP_E_LT: v = s == -1 ? 1 : s == 1 || s == 2 || s == 0 ? 0 : -1; break;
    case PP_E_GE: v = s == -1 ? 0 : s == 1 || s == 2 || s == 0 ? 1 : -1; break;
    case PP_E_LE: v = s == -1 || s == -2 || s == 0 ? 1 : s == 1 ? 0 : -1; break;
    case PP_E_GT: v = s == -1 || s == -2 || s == 0 ? 0 : s == 1 ? 1 : -1; break;
    case PP_E_EQ: v = s == 0 ? 1 : s == 1 || s == -1 ? 0 : -1; break;
    case PP_E_NE: v = s == 0 ? 0 : s == 1 || s == -1 ? 1 : -1; break;
    default: return -1;
    }
    if (v < 0)
        narrow(k, d, R);
    return v;
}

/* a k d over the range, k a division (truncating, floor or ceiling) by
 * a constant d != 0: a monotone function of a, itself monotone in the
 * thread, so one value over the range when its ends agree, and affine
 * where d divides a's slope; else *R->cut goes down to where the threads
 * from lo stop agreeing (a binary search).  1 with *r, 0 when the
 * threads' quotients differ. */
static int aff_div(int k, affine a, int64_t d, const trange *R, affine *r)
{
    int64_t qlo, qhi, q;
    __int128 alo = aff_at(a, R->lo), ahi = aff_at(a, R->hi);
    if (!fits(alo) || !fits(ahi) || pp_expr_op2_i64((pp_ekind)k, (int64_t)alo, d, &qlo) ||
        pp_expr_op2_i64((pp_ekind)k, (int64_t)ahi, d, &qhi)) {
        halve(R);
        return 0;
    }
    if (qlo == qhi) {
        *r = (affine){qlo, 0};
        return 1;
    }
    /* a slope that d divides: (a(lo) + d k (t - lo)) / d is a(lo) / d +
     * k (t - lo), rounded the same way all along: always for the floor
     * and the ceiling, for the truncation where a keeps its sign */
    if ((__int128)a.c1 % d == 0 && (k != PP_E_DIV || (alo >= 0 && ahi >= 0) || (alo <= 0 && ahi <= 0))) {
        __int128 s = (__int128)a.c1 / d;     /* in 128 bits: INT64_MIN / -1 */
        return aff_make((__int128)qlo - s * R->lo, s, R, r) ? 1 : (halve(R), 0);
    }
    int64_t lo = R->lo, hi = R->hi;   /* lo agrees, hi does not */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        __int128 am = aff_at(a, mid);
        if (fits(am) && pp_expr_op2_i64((pp_ekind)k, (int64_t)am, d, &q) == 0 && q == qlo)
            lo = mid;
        else
            hi = mid;
    }
    if (lo < *R->cut)
        *R->cut = lo;
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* a % d (d a non-zero constant): one value over the range where d
 * divides the slope and a keeps its sign; otherwise it changes at the
 * range's second member already (a + c1 has another remainder), and
 * repeats every d / gcd(c1, d) members: that stride is noted for the
 * runs of iterations (R->period), which may take a loop's iterations
 * that far apart as one run (instantiate.c) */
static int aff_mod(affine a, int64_t d, const trange *R, affine *r)
{
    __int128 alo = aff_at(a, R->lo), ahi = aff_at(a, R->hi);
    int64_t q, q1;
    if (d == INT64_MIN || !fits(alo) || !fits(ahi) || pp_expr_op2_i64(PP_E_MOD, (int64_t)alo, d, &q)) {
        halve(R);
        return 0;
    }
    int same_sign = (alo >= 0 && ahi >= 0) || (alo <= 0 && ahi <= 0);
    if (R->lo == R->hi || ((__int128)a.c1 % d == 0 && same_sign)) {
        *r = (affine){q, 0};
        return 1;
    }
    if ((__int128)a.c1 % d == 0) {
        /* the same on each side of a's change of sign: up to it */
        int64_t lo = R->lo, hi = R->hi;   /* lo agrees, hi does not */
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            __int128 am = aff_at(a, mid);
            if (pp_expr_op2_i64(PP_E_MOD, (int64_t)am, d, &q1) == 0 && q1 == q)
                lo = mid;
            else
                hi = mid;
        }
        if (lo < *R->cut)
            *R->cut = lo;
        return 0;
    }
    /* the next member's remainder: another one where a keeps its sign */
    __int128 a1 = aff_at(a, R->lo + 1);
    if (!fits(a1) || pp_expr_op2_i64(PP_E_MOD, (int64_t)a1, d, &q1) || q1 == q) {
        halve(R);
        return 0;
    }
    if (R->lo < *R->cut)
        *R->cut = R->lo;
    if (!same_sign || !R->period || *R->period < 0)
        return 0;
    int64_t ad = d < 0 ? -d : d;
    int64_t s = (int64_t)((__int128)a.c1 % ad);
    int64_t p = ad / gcd64(s < 0 ? -s : s, ad);
    if (p > 64)
        *R->period = -1;
    else if (*R->period == 0)
        *R->period = p;
    else {
        __int128 l = (__int128)*R->period / gcd64(*R->period, p) * p;
        *R->period = l > 64 ? -1 : (int64_t)l;
    }
    /* on, for the other remainders' strides: (i + j) % 2 + (i + j) % 3
     * repeats every 6 */
    *R->cut_lo = 1;
    *r = (affine){q, 0};
    return 1;
}

/* a k b over the range (k a binary operator's kind): 1 with *r, 0 when
 * the threads' values are not one affine form, -1 when every thread's
 * evaluation fails alike (a constant division by zero, say) */
static int aff_op2(int k, affine a, affine b, const trange *R, affine *r)
{
    if (a.c1 == 0 && b.c1 == 0) {
        int64_t v;
        if (pp_expr_op2_i64((pp_ekind)k, a.c0, b.c0, &v))
            return -1;
        *r = (affine){v, 0};
        return 1;
    }
    switch (k) {
    case PP_E_ADD:
        return aff_make((__int128)a.c0 + b.c0, (__int128)a.c1 + b.c1, R, r);
    case PP_E_SUB:
        return aff_make((__int128)a.c0 - b.c0, (__int128)a.c1 - b.c1, R, r);
    case PP_E_MUL:
        if (a.c1 == 0)
            return aff_make((__int128)a.c0 * b.c0, (__int128)a.c0 * b.c1, R, r);
        if (b.c1 == 0)
            return aff_make((__int128)b.c0 * a.c0, (__int128)b.c0 * a.c1, R, r);
        halve(R);
        return 0;
    case PP_E_DIV:
    case PP_E_FDIV:
    case PP_E_CDIV:
        if (b.c1 == 0 && b.c0 != 0)
            return aff_div(k, a, b.c0, R, r);
        halve(R);
        return 0;
    case PP_E_MOD:
        if (b.c1 == 0 && b.c0 != 0)
            return aff_mod(a, b.c0, R, r);
        halve(R);
        return 0;
    case PP_E_MIN:
    case PP_E_MAX: {
        /* op2's min is b < a ? b : a: a where they are equal */
        int le = aff_cmp(PP_E_LE, a, b, R), ge = aff_cmp(PP_E_GE, a, b, R);
        if (le == 1)
            *r = k == PP_E_MIN ? a : b;
        else if (ge == 1)
            *r = k == PP_E_MIN ? b : a;
        else
            return 0;
        return 1;
    }
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE: case PP_E_EQ: case PP_E_NE: {
        int v = aff_cmp(k, a, b, R);
        if (v < 0)
            return 0;
        *r = (affine){v, 0};
        return 1;
    }
    default:
        halve(R);
        return 0;   /* division, shifts, bits of a varying value */
    }
}

int pp_inst_run_range(ictx *c, const frame *fr, int pc, int64_t lo, int64_t hi, int *ok, int64_t *out,
                      int64_t *slope, int64_t *cut)
{
    const pp_icode *code = c->code;
    int cut_lo = 0;
    /* the range's answer where the program ends early (fails, cannot be
     * followed): not alike after a remainder that changed (cut_lo) */
#define ALIKE (cut_lo ? 0 : 1)
    const trange *R = &(trange){lo, hi, cut, c->itr.on ? &c->itr.period : NULL, &cut_lo};
    affine st[64];
    int sp = 0;
    *ok = 0;
    for (;; pc++) {
        const pp_icode *in = &code[pc];
        if (sp >= 62) {
            halve(R);
            return 0;
        }
        switch (in->op) {
        case I_END:
            if (cut_lo)
                return 0;   /* a remainder changed at the range's second member */
            if (st[0].c1 != 0 && !slope) {
                *cut = lo;   /* a value that differs from thread to thread */
                return 0;
            }
            *ok = 1;
            *out = st[0].c0;
            if (slope)
                *slope = st[0].c1;
            return ALIKE;
        case I_K:
            st[sp++] = (affine){in->v, 0};
            break;
        case I_FAIL:
            return ALIKE;
        case I_ARG:
            if (!fr->args_known || !fr->args_known[in->a])
                return ALIKE;
            st[sp++] = (affine){fr->args[in->a], fr->args_c1 ? fr->args_c1[in->a] : 0};
            break;
        case I_IV:
            if (!fr->iv_known[in->a])
                return ALIKE;
            st[sp++] = (affine){fr->iv[in->a], fr->iv_c1 ? fr->iv_c1[in->a] : 0};
            break;
        case I_THRK:
        case I_THRN:
            if (!fr->thr_known)
                return ALIKE;
            st[sp++] = in->op == I_THRK ? (c->itr.on ? (affine){fr->thr_k, 0} : (affine){0, 1})
                                        : (affine){fr->thr_n, 0};
            break;
        case I_NTHREADS:
        case I_TID:
            if (!fr->omp)
                return ALIKE;
            st[sp++] = in->op == I_TID ? (c->itr.on ? (affine){fr->tid, 0} : (affine){0, 1})
                                       : (affine){fr->nthreads, 0};
            break;
        case I_SHARED: {
            /* the team's data block: the same at every thread */
            const shared_val *sv = fr->shared;
            int i = sv ? pp_inst_shared_index(sv, in->name) : -1;
            if (i < 0 || !sv->known[i])
                return ALIKE;
            st[sp++] = (affine){sv->val[i], 0};
            break;
        }
        case I_COMM: {
            int64_t rank, size;
            if (c->range_rank) {
                halve(R);   /* a communicator's rank: not followed over ranks */
                return 0;
            }
            if (pp_inst_comm_lookup(c, in->name, c->rank, &rank, &size))
                return ALIKE;
            st[sp++] = (affine){in->a ? size : rank, 0};
            break;
        }
        case I_RANK:
            st[sp++] = c->range_rank ? (affine){0, 1} : (affine){c->rank, 0};
            break;
        case I_RANKV: {
            int64_t v;
            if (c->range_rank) {
                halve(R);   /* a rule of the rank: not followed over ranks */
                return 0;
            }
            if (pp_prog_rank_value(c->m, c->pv, in->a, c->rank, c->P, c->single_rank, &v))
                return ALIKE;
            st[sp++] = (affine){v, 0};
            break;
        }
        case I_NEG:
            if (st[sp - 1].c1 == 0 && st[sp - 1].c0 == INT64_MIN)
                return ALIKE;   /* run() fails there, at every thread */
            if (!aff_make(-(__int128)st[sp - 1].c0, -(__int128)st[sp - 1].c1, R, &st[sp - 1]))
                return 0;
            break;
        case I_NOT: {
            int t = aff_truth(st[sp - 1], R);
            if (t < 0)
                return 0;
            st[sp - 1] = (affine){!t, 0};
            break;
        }
        case I_BNOT:
            if (st[sp - 1].c1 != 0) {
                halve(R);
                return 0;
            }
            st[sp - 1].c0 = ~st[sp - 1].c0;
            break;
        case I_AND:
        case I_OR: {
            int t = aff_truth(st[sp - 1], R);
            if (t < 0)
                return 0;
            if (t != (in->op == I_AND)) {
                st[sp - 1] = (affine){in->op == I_OR, 0};
                pc = in->a - 1;
            } else
                sp--;
            break;
        }
        case I_JZ: {
            int t = aff_truth(st[--sp], R);
            if (t < 0)
                return 0;
            if (!t)
                pc = in->a - 1;
            break;
        }
        case I_JMP:
            pc = in->a - 1;
            break;
        default:
            if (in->op >= I_BINK && in->op < I_BINK + 32) {
                int k = in->op - I_BINK + PP_E_ADD;
                if (st[sp - 1].c1 == 0) {
                    /* the same at every thread: as run() computes it */
                    if (pp_expr_op2_i64((pp_ekind)k, st[sp - 1].c0, in->v, &st[sp - 1].c0))
                        return ALIKE;
                } else {
                    int r = aff_op2(k, st[sp - 1], (affine){in->v, 0}, R, &st[sp - 1]);
                    if (r <= 0)
                        return r < 0 ? ALIKE : 0;
                }
            } else if (in->op >= I_BIN && in->op < I_BIN + 32) {
                int k = in->op - I_BIN + PP_E_ADD;
                sp--;
                if (st[sp - 1].c1 == 0 && st[sp].c1 == 0) {
                    if (pp_expr_op2_i64((pp_ekind)k, st[sp - 1].c0, st[sp].c0, &st[sp - 1].c0))
                        return ALIKE;
                } else {
                    int r = aff_op2(k, st[sp - 1], st[sp], R, &st[sp - 1]);
                    if (r <= 0)
                        return r < 0 ? ALIKE : 0;
                }
            } else
                return ALIKE;   /* not emitted: every thread fails, as run() does */
            break;
        }
    }
#undef ALIKE
}
