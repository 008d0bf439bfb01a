/* sym-print-cas.c - expressions as input to computer algebra systems:
 * SymPy (Python) and Maxima.  The printed expression means exactly what the
 * engine's does (docs/symbolic.md, "Printing for a CAS"):
 *
 *   (div a b)  C division, truncating:  SymPy sign(a)*sign(b)*floor(Abs(a)/Abs(b));
 *              Maxima truncate(a/b); a plain a/b when a/d is a polynomial that
 *              takes integer values (d a constant: no remainder ever)
 *   (mod a b)  C remainder, the sign of a:  SymPy sign(a)*Mod(Abs(a), Abs(b));
 *              Maxima (a - b*truncate(a/b))
 *   (fdiv a b), (cdiv a b)  floor(a/b), ceiling(a/b) in both
 *   (min ..), (max ..)      Min/Max, min/max
 *   (shl a k), (shr a k)    a*2**k, floor(a/2**k) for a constant k >= 0;
 *                           floor(a*2**k), floor(a/2**k) otherwise (exact
 *                           for a negative k too)
 *   comparisons, and, or, not as values: 1 or 0 (Piecewise((1, c), (0,
 *   True)); charfun(c));  (cond c a b): Piecewise((a, c), (b, True));
 *   (if c then a else b).  A value x used as a condition means x != 0; a
 *   comparison of a conditional value becomes the conditional comparison
 *   ((c and a < y) or (not c and b < y)), so no Piecewise is inside a
 *   condition.
 *
 * A divisor known to be positive (a positive constant, (nthreads),
 * (nprocs)) drops its sign or Abs.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *s; size_t n, cap; } sbuf;

static void sb_puts(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? 2 * b->cap : 64;
        b->s = pp__xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sb_mpz(sbuf *b, const mpz_t z)
{
    char *s = mpz_get_str(NULL, 10, z);
    sb_puts(b, s);
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(s, strlen(s) + 1);
}

/* precedence (higher binds tighter) */
enum { C_ADD = 1, C_MUL, C_UNARY, C_ATOM };

typedef struct {
    sbuf b;
    pp_cas cas;
} pctx;

static void val(pctx *c, const pp_expr *e, int min_prec);
static void cond(pctx *c, const pp_expr *e);

/* An identifier both systems accept: letters, digits and '_'. */
static void put_ident(pctx *c, const char *prefix, const char *name)
{
    char buf[256];
    size_t n = 0;
    for (const char *p = prefix; p && *p && n < sizeof buf - 1; p++)
        buf[n++] = *p;
    for (const char *p = name ? name : ""; *p && n < sizeof buf - 1; p++) {
        char ch = *p;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (ch >= '0' && ch <= '9');
        if (n == 0 && ch >= '0' && ch <= '9')
            buf[n++] = '_';
        buf[n++] = ok ? ch : '_';
    }
    if (n == 0)
        buf[n++] = '_';
    buf[n] = '\0';
    sb_puts(&c->b, buf);
}

static void atom(pctx *c, const pp_expr *e)
{
    char buf[48];
    switch (e->kind) {
    case PP_E_UNKNOWN: sb_puts(&c->b, "unknown"); return;
    case PP_E_IV:
        if (e->name)
            put_ident(c, NULL, e->name);
        else {
            snprintf(buf, sizeof buf, "i%ld", e->ival);
            sb_puts(&c->b, buf);
        }
        return;
    case PP_E_NTHREADS: sb_puts(&c->b, "P"); return;
    case PP_E_TID: sb_puts(&c->b, "tid"); return;
    case PP_E_LOAD: sb_puts(&c->b, "load"); return;
    case PP_E_RANK:
        if (e->name)
            put_ident(c, "rank_", e->name);
        else
            sb_puts(&c->b, "rank");
        return;
    case PP_E_NPROCS:
        if (e->name)
            put_ident(c, "nprocs_", e->name);
        else
            sb_puts(&c->b, "P");
        return;
    case PP_E_CALL: put_ident(c, "call_", e->name); return;
    case PP_E_CRITICAL: put_ident(c, "critical_", e->name); return;
    case PP_E_ADDR: put_ident(c, "addr_", e->name); return;
    case PP_E_LIST: sb_puts(&c->b, "unknown"); return;
    default: put_ident(c, NULL, e->name); return;
    }
}

static int positive(const pp_expr *e)
{
    return (e->kind == PP_E_INT && mpz_sgn(e->z) > 0) || e->kind == PP_E_NTHREADS || e->kind == PP_E_NPROCS;
}

static int is_cmp(pp_ekind k)
{
    return k == PP_E_LT || k == PP_E_LE || k == PP_E_GT || k == PP_E_GE || k == PP_E_EQ || k == PP_E_NE;
}

static int is_bool(pp_ekind k)
{
    return is_cmp(k) || k == PP_E_AND || k == PP_E_OR || k == PP_E_NOT;
}

static int prec(const pp_expr *e)
{
    switch (e->kind) {
    case PP_E_INT: return mpz_sgn(e->z) < 0 ? C_UNARY : C_ATOM;
    case PP_E_ADD: return e->nkids > 1 ? C_ADD : prec(e->kids[0]);
    case PP_E_SUB: return C_ADD;
    case PP_E_MUL: return e->nkids > 1 ? C_MUL : prec(e->kids[0]);
    case PP_E_NEG: return C_UNARY;
    case PP_E_SHL: case PP_E_SHR: return C_MUL;
    default: return C_ATOM;
    }
}

static void fn1(pctx *c, const char *f, const pp_expr *a)
{
    sb_puts(&c->b, f);
    sb_puts(&c->b, "(");
    val(c, a, C_ADD);
    sb_puts(&c->b, ")");
}

/* "(a)/(b)" with the parentheses a quotient needs */
static void quot(pctx *c, const pp_expr *a, const pp_expr *b)
{
    val(c, a, C_UNARY + 1);
    sb_puts(&c->b, "/");
    val(c, b, C_ATOM);
}

static void fdiv(pctx *c, const char *f, const pp_expr *a, const pp_expr *b)
{
    sb_puts(&c->b, f);
    sb_puts(&c->b, "(");
    quot(c, a, b);
    sb_puts(&c->b, ")");
}

static void neg_of(pctx *c, const pp_expr *a)
{
    sb_puts(&c->b, "-");
    val(c, a, C_ATOM);
}

/* a/d is a polynomial that takes integer values (a quotient with no
 * remainder, whatever the values): a plain quotient */
static int exact_quotient(const pp_expr *a, const pp_expr *b)
{
    if (b->kind != PP_E_INT || mpz_sgn(b->z) == 0)
        return 0;
    pp_poly *p = pp_poly_from_expr(a);
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, b->z);
    mpq_inv(q, q);
    pp_poly *s = pp_poly_scale(p, q);
    int ok = pp_poly_is_integer_valued(s);
    pp_poly_free(s);
    pp_poly_free(p);
    mpq_clear(q);
    return ok;
}

/* C truncating division: sign(a)*sign(b)*floor(|a|/|b|) (SymPy: no
 * Piecewise, whose conditions SymPy is slow to build) */
static void trunc_div(pctx *c, const pp_expr *a, const pp_expr *b)
{
    if (exact_quotient(a, b)) {
        sb_puts(&c->b, "(");
        quot(c, a, b);
        sb_puts(&c->b, ")");
        return;
    }
    if (c->cas == PP_CAS_MAXIMA) {
        fdiv(c, "truncate", a, b);
        return;
    }
    int pos = positive(b);
    fn1(c, "sign", a);
    if (!pos) {
        sb_puts(&c->b, "*");
        fn1(c, "sign", b);
    }
    sb_puts(&c->b, "*floor(");
    fn1(c, "Abs", a);
    sb_puts(&c->b, "/");
    if (pos)
        val(c, b, C_ATOM);
    else
        fn1(c, "Abs", b);
    sb_puts(&c->b, ")");
}

/* C remainder (the sign of the dividend): sign(a)*Mod(|a|, |b|) */
static void c_mod(pctx *c, const pp_expr *a, const pp_expr *b)
{
    if (c->cas == PP_CAS_MAXIMA) {
        sb_puts(&c->b, "(");
        val(c, a, C_ADD);
        sb_puts(&c->b, " - ");
        val(c, b, C_UNARY + 1);
        sb_puts(&c->b, "*");
        fdiv(c, "truncate", a, b);
        sb_puts(&c->b, ")");
        return;
    }
    fn1(c, "sign", a);
    sb_puts(&c->b, "*Mod(");
    fn1(c, "Abs", a);
    sb_puts(&c->b, ", ");
    if (positive(b))
        val(c, b, C_ADD);
    else
        fn1(c, "Abs", b);
    sb_puts(&c->b, ")");
}

static void two_pow(pctx *c, const pp_expr *k)
{
    sb_puts(&c->b, c->cas == PP_CAS_SYMPY ? "2**" : "2^");
    val(c, k, C_ATOM);
}

static void shift(pctx *c, const pp_expr *e)
{
    const pp_expr *a = e->kids[0], *k = e->kids[1];
    int kconst = k->kind == PP_E_INT && mpz_sgn(k->z) >= 0;
    if (e->kind == PP_E_SHL && kconst) {
        val(c, a, C_MUL);
        sb_puts(&c->b, "*");
        two_pow(c, k);
        return;
    }
    sb_puts(&c->b, "floor(");
    val(c, a, e->kind == PP_E_SHL ? C_MUL : C_UNARY + 1);
    sb_puts(&c->b, e->kind == PP_E_SHL ? "*" : "/");
    two_pow(c, k);
    sb_puts(&c->b, ")");
}

static void minmax(pctx *c, const pp_expr *e)
{
    int sy = c->cas == PP_CAS_SYMPY;
    sb_puts(&c->b, e->kind == PP_E_MIN ? (sy ? "Min(" : "min(") : (sy ? "Max(" : "max("));
    for (int i = 0; i < e->nkids; i++) {
        if (i)
            sb_puts(&c->b, ", ");
        val(c, e->kids[i], C_ADD);
    }
    sb_puts(&c->b, ")");
}

/* bit_and(a, b), bit_or, bit_xor, bit_not(a): Maxima's functions of
 * these names compute them on integers (two's complement); SymPy has no
 * bitwise integer operation and keeps them as undefined functions */
static void bitwise(pctx *c, const pp_expr *e)
{
    sb_puts(&c->b, e->kind == PP_E_BAND ? "bit_and(" : e->kind == PP_E_BOR ? "bit_or("
                   : e->kind == PP_E_BXOR ? "bit_xor(" : "bit_not(");
    for (int i = 0; i < e->nkids; i++) {
        if (i)
            sb_puts(&c->b, ", ");
        val(c, e->kids[i], C_ADD);
    }
    sb_puts(&c->b, ")");
}

/* Piecewise((a, c), (b, True)) / (if c then a else b) */
static void ite(pctx *c, const pp_expr *cnd, const pp_expr *a, const pp_expr *b)
{
    if (c->cas == PP_CAS_SYMPY) {
        sb_puts(&c->b, "Piecewise((");
        if (a) val(c, a, C_ADD); else sb_puts(&c->b, "1");
        sb_puts(&c->b, ", ");
        cond(c, cnd);
        sb_puts(&c->b, "), (");
        if (b) val(c, b, C_ADD); else sb_puts(&c->b, "0");
        sb_puts(&c->b, ", True))");
        return;
    }
    if (!a && !b) {
        sb_puts(&c->b, "charfun(");
        cond(c, cnd);
        sb_puts(&c->b, ")");
        return;
    }
    sb_puts(&c->b, "(if ");
    cond(c, cnd);
    sb_puts(&c->b, " then ");
    val(c, a, C_ADD);
    sb_puts(&c->b, " else ");
    val(c, b, C_ADD);
    sb_puts(&c->b, ")");
}

static void add(pctx *c, const pp_expr *e)
{
    for (int i = 0; i < e->nkids; i++) {
        const pp_expr *k = e->kids[i];
        if (i && k->kind == PP_E_NEG) {
            sb_puts(&c->b, " - ");
            val(c, k->kids[0], C_MUL);
        } else if (i && k->kind == PP_E_INT && mpz_sgn(k->z) < 0) {
            mpz_t a;
            mpz_init(a);
            mpz_neg(a, k->z);
            sb_puts(&c->b, " - ");
            sb_mpz(&c->b, a);
            mpz_clear(a);
        } else {
            if (i)
                sb_puts(&c->b, " + ");
            val(c, k, C_ADD);
        }
    }
}

static void val(pctx *c, const pp_expr *e, int min_prec)
{
    int p = prec(e), paren = p < min_prec;
    if (paren)
        sb_puts(&c->b, "(");
    if (is_bool(e->kind)) {
        ite(c, e, NULL, NULL);
    } else switch (e->kind) {
    case PP_E_INT: sb_mpz(&c->b, e->z); break;
    case PP_E_ADD: add(c, e); break;
    case PP_E_SUB:
        val(c, e->kids[0], C_ADD);
        sb_puts(&c->b, " - ");
        val(c, e->kids[1], C_MUL);
        break;
    case PP_E_MUL:
        for (int i = 0; i < e->nkids;) {
            int j = i + 1;
            while (j < e->nkids && e->kids[j]->kind != PP_E_INT && pp_expr_equal(e->kids[j], e->kids[i]))
                j++;
            if (i)
                sb_puts(&c->b, "*");
            if (j - i > 1) {            /* x*x*x -> x**3, x^3 */
                char pw[24];
                val(c, e->kids[i], C_ATOM);
                snprintf(pw, sizeof pw, "%s%d", c->cas == PP_CAS_SYMPY ? "**" : "^", j - i);
                sb_puts(&c->b, pw);
            } else
                val(c, e->kids[i], i ? C_ATOM : C_UNARY);
            i = j;
        }
        break;
    case PP_E_NEG: neg_of(c, e->kids[0]); break;
    case PP_E_DIV: trunc_div(c, e->kids[0], e->kids[1]); break;
    case PP_E_MOD: c_mod(c, e->kids[0], e->kids[1]); break;
    case PP_E_FDIV: fdiv(c, "floor", e->kids[0], e->kids[1]); break;
    case PP_E_CDIV: fdiv(c, "ceiling", e->kids[0], e->kids[1]); break;
    case PP_E_MIN: case PP_E_MAX: minmax(c, e); break;
    case PP_E_SHL: case PP_E_SHR: shift(c, e); break;
    case PP_E_BAND: case PP_E_BOR: case PP_E_BXOR: case PP_E_BNOT: bitwise(c, e); break;
    case PP_E_COND: ite(c, e->kids[0], e->kids[1], e->kids[2]); break;
    default: atom(c, e); break;
    }
    if (paren)
        sb_puts(&c->b, ")");
}

static const char *cmp_word(pp_ekind k, pp_cas cas)
{
    switch (k) {
    case PP_E_LT: return " < ";
    case PP_E_LE: return " <= ";
    case PP_E_GT: return " > ";
    case PP_E_GE: return " >= ";
    case PP_E_EQ: return cas == PP_CAS_SYMPY ? "Eq" : "equal";
    default: return cas == PP_CAS_SYMPY ? "Ne" : "notequal";
    }
}

/* the first (cond ...) inside e, pre-order */
static const pp_expr *find_cond(const pp_expr *e)
{
    if (e->kind == PP_E_COND)
        return e;
    for (int i = 0; i < e->nkids; i++) {
        const pp_expr *r = find_cond(e->kids[i]);
        if (r)
            return r;
    }
    return NULL;
}

/* e as a condition (true when non-zero, as in C) */
static void cond(pctx *c, const pp_expr *e)
{
    int sy = c->cas == PP_CAS_SYMPY;
    const pp_expr *ite_in = is_cmp(e->kind) ? find_cond(e) : NULL;
    if (ite_in) {
        /* a comparison of a conditional value is the conditional
         * comparison: (x ? a : b) < y is (x and a < y) or (not x and b < y);
         * SymPy builds a Piecewise inside a condition very slowly */
        pp_expr *e1 = pp__replace(e, ite_in, ite_in->kids[1]);
        pp_expr *e2 = pp__replace(e, ite_in, ite_in->kids[2]);
        pp_expr *nc = pp_expr_op(PP_E_NOT, 1, (pp_expr *const *)&ite_in->kids[0]);
        pp_expr *a1[2] = {ite_in->kids[0], e1}, *a2[2] = {nc, e2};
        pp_expr *k1 = pp_expr_op(PP_E_AND, 2, a1), *k2 = pp_expr_op(PP_E_AND, 2, a2);
        pp_expr *o[2] = {k1, k2};
        pp_expr *or = pp_expr_op(PP_E_OR, 2, o);
        cond(c, or);
        pp_expr_free(or);
        pp_expr_free(k1);
        pp_expr_free(k2);
        pp_expr_free(nc);
        pp_expr_free(e1);
        pp_expr_free(e2);
        return;
    }
    if (e->kind == PP_E_INT) {
        int t = mpz_sgn(e->z) != 0;
        sb_puts(&c->b, sy ? (t ? "True" : "False") : (t ? "true" : "false"));
    } else if (is_cmp(e->kind)) {
        if (e->kind == PP_E_EQ || e->kind == PP_E_NE) {
            sb_puts(&c->b, cmp_word(e->kind, c->cas));
            sb_puts(&c->b, "(");
            val(c, e->kids[0], C_ADD);
            sb_puts(&c->b, ", ");
            val(c, e->kids[1], C_ADD);
            sb_puts(&c->b, ")");
        } else {
            val(c, e->kids[0], C_ADD);
            sb_puts(&c->b, cmp_word(e->kind, c->cas));
            val(c, e->kids[1], C_ADD);
        }
    } else if ((e->kind == PP_E_AND || e->kind == PP_E_OR) && sy) {
        sb_puts(&c->b, e->kind == PP_E_AND ? "And(" : "Or(");
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                sb_puts(&c->b, ", ");
            cond(c, e->kids[i]);
        }
        sb_puts(&c->b, ")");
    } else if (e->kind == PP_E_AND || e->kind == PP_E_OR) {
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                sb_puts(&c->b, e->kind == PP_E_AND ? " and " : " or ");
            sb_puts(&c->b, "(");
            cond(c, e->kids[i]);
            sb_puts(&c->b, ")");
        }
    } else if (e->kind == PP_E_NOT) {
        sb_puts(&c->b, sy ? "Not(" : "not (");
        cond(c, e->kids[0]);
        sb_puts(&c->b, ")");
    } else {
        sb_puts(&c->b, sy ? "Ne(" : "notequal(");
        val(c, e, C_ADD);
        sb_puts(&c->b, ", 0)");
    }
}

char *pp_expr_to_cas(const pp_expr *e, pp_cas cas, int as_cond)
{
    pctx c = {{0}, cas};
    if (e) {
        if (as_cond)
            cond(&c, e);
        else
            val(&c, e, C_ADD);
    }
    if (!c.b.s)
        sb_puts(&c.b, "");
    return c.b.s;
}
