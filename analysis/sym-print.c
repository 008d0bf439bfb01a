/* sym-print.c - printing expressions as s-expressions (re-parseable) and
 * in infix form for people.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *s; size_t n, cap; } sbuf;

static void sb_putn(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? 2 * b->cap : 64;
        b->s = pp__xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_puts(b, tmp);
}

static void sb_mpz(sbuf *b, const mpz_t z)
{
    char *s = mpz_get_str(NULL, 10, z);
    sb_puts(b, s);
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(s, strlen(s) + 1);
}

static char *sb_finish(sbuf *b)
{
    if (!b->s)
        sb_puts(b, "");
    return b->s;
}

/* ---------------------------------------------------------------- s-expr */

static int plain_name(const char *s, int bare)
{
    if (!s || !*s)
        return 0;
    int c = (unsigned char)s[0];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$'))
        return 0;
    for (const char *p = s; *p; p++) {
        c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '$'))
            return 0;
    }
    pp_ekind k;
    /* a bare symbol spelled like a keyword is quoted so that it stays a
     * symbol at the head of a list */
    return !(bare && pp__keyword_kind(s, strlen(s), &k));
}

static void put_name(sbuf *b, const char *s, int bare)
{
    if (plain_name(s, bare)) {
        sb_puts(b, s);
        return;
    }
    sb_puts(b, "\"");
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_puts(b, "\\");
        sb_putn(b, p, 1);
    }
    sb_puts(b, "\"");
}

static void sexpr(sbuf *b, const pp_expr *e)
{
    switch (e->kind) {
    case PP_E_INT:
        sb_mpz(b, e->z);
        return;
    case PP_E_UNKNOWN:
        sb_puts(b, "?");
        return;
    case PP_E_SYM:
        put_name(b, e->name, 1);
        return;
    case PP_E_IV:
        sb_printf(b, "(iv %ld)", e->ival);
        return;
    case PP_E_LIST:
        sb_puts(b, "(");
        break;
    default:
        sb_puts(b, "(");
        sb_puts(b, pp__keyword(e->kind));
        if (pp_expr_is_atom(e) && e->name) {
            sb_puts(b, " ");
            put_name(b, e->name, 0);
        }
        break;
    }
    for (int i = 0; i < e->nkids; i++) {
        if (i > 0 || e->kind != PP_E_LIST)
            sb_puts(b, " ");
        sexpr(b, e->kids[i]);
    }
    sb_puts(b, ")");
}

char *pp_expr_to_sexpr(const pp_expr *e)
{
    sbuf b = {0};
    if (e)
        sexpr(&b, e);
    return sb_finish(&b);
}

/* ---------------------------------------------------------------- infix */

/* precedence levels (higher binds tighter) */
/* C's order: the bitwise operators bind looser than comparisons */
enum { P_COND = 1, P_OR, P_AND, P_BOR, P_BXOR, P_BAND, P_CMP, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_ATOM };

static int is_negative_int(const pp_expr *e)
{
    return e->kind == PP_E_INT && mpz_sgn(e->z) < 0;
}

/* a term that prints with a leading minus: -3, (neg x), (* -3 x) */
static int is_negated(const pp_expr *e)
{
    return is_negative_int(e) || e->kind == PP_E_NEG ||
           (e->kind == PP_E_MUL && e->nkids >= 1 && is_negative_int(e->kids[0]));
}

static int prec(const pp_expr *e)
{
    switch (e->kind) {
    case PP_E_INT: return mpz_sgn(e->z) < 0 ? P_UNARY : P_ATOM;
    case PP_E_ADD: case PP_E_SUB: return e->nkids > 1 ? P_ADD : prec(e->kids[0]);
    case PP_E_MUL:
        if (e->nkids == 1)
            return prec(e->kids[0]);
        return is_negative_int(e->kids[0]) ? P_UNARY : P_MUL;
    case PP_E_DIV: case PP_E_MOD: return P_MUL;
    case PP_E_NEG: case PP_E_NOT: case PP_E_BNOT: return P_UNARY;
    case PP_E_SHL: case PP_E_SHR: return P_SHIFT;
    case PP_E_BAND: return P_BAND;
    case PP_E_BXOR: return P_BXOR;
    case PP_E_BOR: return P_BOR;
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE:
    case PP_E_EQ: case PP_E_NE: return P_CMP;
    case PP_E_AND: return e->nkids > 1 ? P_AND : prec(e->kids[0]);
    case PP_E_OR: return e->nkids > 1 ? P_OR : prec(e->kids[0]);
    case PP_E_COND: return P_COND;
    default: return P_ATOM;
    }
}

static void infix(sbuf *b, const pp_expr *e, int min_prec);

static void infix_args(sbuf *b, const char *fn, const pp_expr *e)
{
    sb_puts(b, fn);
    sb_puts(b, "(");
    for (int i = 0; i < e->nkids; i++) {
        if (i)
            sb_puts(b, ", ");
        infix(b, e->kids[i], 0);
    }
    sb_puts(b, ")");
}

/* magnitude of a negated term: -3 -> 3, (neg x) -> x, (* -3 x) -> 3*x */
static void infix_abs_term(sbuf *b, const pp_expr *e, int min_prec)
{
    if (e->kind == PP_E_INT) {
        mpz_t a;
        mpz_init(a);
        mpz_abs(a, e->z);
        sb_mpz(b, a);
        mpz_clear(a);
    } else if (e->kind == PP_E_NEG) {
        infix(b, e->kids[0], min_prec);
    } else {
        pp_expr *k0 = e->kids[0];
        int unit = mpz_cmp_si(k0->z, -1) == 0;
        if (min_prec > P_MUL)
            sb_puts(b, "(");
        if (!unit) {
            mpz_t a;
            mpz_init(a);
            mpz_abs(a, k0->z);
            sb_mpz(b, a);
            mpz_clear(a);
        }
        for (int i = 1; i < e->nkids; i++) {
            if (i > 1 || !unit)
                sb_puts(b, "*");
            infix(b, e->kids[i], i == 1 && unit ? P_MUL : P_POW);
        }
        if (min_prec > P_MUL)
            sb_puts(b, ")");
    }
}

static void infix_mul(sbuf *b, const pp_expr *e)
{
    int i = 0;
    if (e->nkids > 1 && e->kids[0]->kind == PP_E_INT && mpz_cmp_si(e->kids[0]->z, -1) == 0) {
        sb_puts(b, "-");
        i = 1;
    }
    for (int first = 1; i < e->nkids; first = 0) {
        int j = i + 1;
        while (j < e->nkids && e->kids[j]->kind != PP_E_INT && pp_expr_equal(e->kids[j], e->kids[i]))
            j++;
        if (!first)
            sb_puts(b, "*");
        if (j - i > 1) {                                /* x*x*x -> x^3 */
            infix(b, e->kids[i], P_ATOM);
            sb_printf(b, "^%d", j - i);
        } else {
            infix(b, e->kids[i], first ? P_MUL : P_POW);
        }
        i = j;
    }
}

static const char *cmp_op(pp_ekind k)
{
    switch (k) {
    case PP_E_LT: return " < ";
    case PP_E_LE: return " <= ";
    case PP_E_GT: return " > ";
    case PP_E_GE: return " >= ";
    case PP_E_EQ: return " == ";
    default: return " != ";
    }
}

static void infix(sbuf *b, const pp_expr *e, int min_prec)
{
    int p = prec(e);
    int paren = p < min_prec;
    if (paren)
        sb_puts(b, "(");
    switch (e->kind) {
    case PP_E_INT: sb_mpz(b, e->z); break;
    case PP_E_UNKNOWN: sb_puts(b, "?"); break;
    case PP_E_SYM: case PP_E_ARG: case PP_E_VAR: case PP_E_GLOBAL: case PP_E_SHARED:
        sb_puts(b, e->name); break;
    case PP_E_IV:
        if (e->name)
            sb_puts(b, e->name);
        else
            sb_printf(b, "i%ld", e->ival);
        break;
    case PP_E_NTHREADS: sb_puts(b, "P"); break;
    case PP_E_TID: sb_puts(b, "tid"); break;
    case PP_E_RANK:
    case PP_E_NPROCS:
        sb_puts(b, e->kind == PP_E_RANK ? "rank" : "P");
        if (e->name) {       /* of another communicator than the world */
            sb_puts(b, "(");
            sb_puts(b, e->name);
            sb_puts(b, ")");
        }
        break;
    case PP_E_LOAD: sb_puts(b, "load"); break;
    case PP_E_CALL: sb_puts(b, e->name); sb_puts(b, "()"); break;
    case PP_E_ADDR:
        sb_puts(b, "&");
        sb_puts(b, e->name);
        if (e->nkids) {
            sb_puts(b, "[");
            infix(b, e->kids[0], 0);
            sb_puts(b, "]");
        }
        break;
    case PP_E_CRITICAL:
        sb_puts(b, "critical");
        if (e->name) {
            sb_puts(b, "(");
            sb_puts(b, e->name);
            sb_puts(b, ")");
        }
        break;
    case PP_E_ADD: {
        /* start with a positive term when there is one: "1 - N", not
         * "-N + 1" (addition is exact, so the order is free) */
        int lead = 0;
        while (lead < e->nkids && is_negated(e->kids[lead]))
            lead++;
        if (lead == e->nkids)
            lead = 0;
        for (int n = 0; n < e->nkids; n++) {
            int i = n == 0 ? lead : (n <= lead ? n - 1 : n);
            const pp_expr *k = e->kids[i];
            if (n == 0) {
                infix(b, k, e->nkids > 1 ? P_ADD : min_prec);
            } else if (is_negated(k)) {
                sb_puts(b, " - ");
                infix_abs_term(b, k, P_MUL);
            } else {
                sb_puts(b, " + ");
                infix(b, k, P_MUL);
            }
        }
        break;
    }
    case PP_E_SUB:
        infix(b, e->kids[0], P_ADD);
        sb_puts(b, " - ");
        infix(b, e->kids[1], P_MUL);
        break;
    case PP_E_NEG:
        sb_puts(b, "-");
        /* -(a*b) prints -a*b; a leading negative factor keeps parens */
        infix(b, e->kids[0], e->kids[0]->kind == PP_E_MUL && prec(e->kids[0]) == P_MUL
                                 ? P_MUL : P_POW);
        break;
    case PP_E_NOT: case PP_E_BNOT:
        sb_puts(b, e->kind == PP_E_NOT ? "!" : "~");
        infix(b, e->kids[0], P_UNARY);
        break;
    case PP_E_BAND: case PP_E_BOR: case PP_E_BXOR:
        /* operands that are themselves bitwise or comparisons get
         * parentheses: C's precedence here surprises people */
        infix(b, e->kids[0], P_SHIFT);
        sb_puts(b, e->kind == PP_E_BAND ? " & " : e->kind == PP_E_BOR ? " | " : " ^ ");
        infix(b, e->kids[1], P_SHIFT);
        break;
    case PP_E_MUL:
        if (e->nkids == 1)
            infix(b, e->kids[0], min_prec);
        else
            infix_mul(b, e);
        break;
    case PP_E_DIV: case PP_E_MOD:
        infix(b, e->kids[0], P_MUL);
        sb_puts(b, e->kind == PP_E_DIV ? "/" : " % ");
        infix(b, e->kids[1], P_POW);
        break;
    case PP_E_FDIV: case PP_E_CDIV:
        sb_puts(b, e->kind == PP_E_FDIV ? "floor(" : "ceil(");
        infix(b, e->kids[0], P_MUL);
        sb_puts(b, "/");
        infix(b, e->kids[1], P_POW);
        sb_puts(b, ")");
        break;
    case PP_E_MIN: infix_args(b, "min", e); break;
    case PP_E_MAX: infix_args(b, "max", e); break;
    case PP_E_SHL: case PP_E_SHR:
        infix(b, e->kids[0], P_SHIFT);
        sb_puts(b, e->kind == PP_E_SHL ? " << " : " >> ");
        infix(b, e->kids[1], P_ADD);
        break;
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE: case PP_E_EQ: case PP_E_NE:
        infix(b, e->kids[0], P_SHIFT);
        sb_puts(b, cmp_op(e->kind));
        infix(b, e->kids[1], P_SHIFT);
        break;
    case PP_E_AND: case PP_E_OR:
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                sb_puts(b, e->kind == PP_E_AND ? " && " : " || ");
            infix(b, e->kids[i], e->nkids > 1 ? p + 1 : min_prec);
        }
        break;
    case PP_E_COND:
        infix(b, e->kids[0], P_OR);
        sb_puts(b, " ? ");
        infix(b, e->kids[1], P_OR);
        sb_puts(b, " : ");
        infix(b, e->kids[2], P_COND);
        break;
    case PP_E_LIST:
        infix_args(b, "", e);
        break;
    }
    if (paren)
        sb_puts(b, ")");
}

char *pp_expr_to_infix(const pp_expr *e)
{
    sbuf b = {0};
    if (e)
        infix(&b, e, 0);
    return sb_finish(&b);
}
