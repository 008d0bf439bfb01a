/* eq-tree.c - count trees of the equations (equations.h): construction with
 * closed forms where the symbolic engine finds them, exact evaluation, and
 * printing as text, SymPy or Maxima input.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "equations.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUM_ENUM_MAX (1L << 20)
#define SUM_SAMPLES  512

static pp_cx *node(pp_cxkind k)
{
    pp_cx *c = calloc(1, sizeof *c);
    if (!c) {
        fputs("perfpred: out of memory\n", stderr);
        abort();
    }
    c->kind = k;
    c->refs = 1;
    return c;
}

pp_cx *pp_cx_expr(pp_expr *e)
{
    pp_cx *c = node(PP_CX_EXPR);
    c->e = e;
    return c;
}

pp_cx *pp_cx_int(long v)
{
    return pp_cx_expr(pp_expr_int(v));
}

pp_cx *pp_cx_log2(pp_expr *x)
{
    pp_cx *c = node(PP_CX_LOG2);
    c->e = x;
    return c;
}

pp_cx *pp_cx_clog2(pp_expr *x)
{
    pp_cx *c = node(PP_CX_CLOG2);
    c->e = x;
    return c;
}

pp_cx *pp_cx_ref(pp_cx *c)
{
    if (c)
        c->refs++;
    return c;
}

void pp_cx_free(pp_cx *c)
{
    if (!c || --c->refs > 0)
        return;
    pp_expr_free(c->e);
    pp_expr_free(c->lo);
    pp_expr_free(c->hi);
    for (int i = 0; i < c->n; i++)
        pp_cx_free(c->k[i]);
    free(c->k);
    free(c);
}

static void push_kid(pp_cx *c, pp_cx *k)
{
    pp_cx **nk = realloc(c->k, sizeof *nk * (size_t)(c->n + 1));
    if (!nk) {
        fputs("perfpred: out of memory\n", stderr);
        abort();
    }
    c->k = nk;
    c->k[c->n++] = k;
}

static int is_int(const pp_cx *c, long v)
{
    long x;
    return c->kind == PP_CX_EXPR && pp_expr_is_int(c->e, &x) && x == v;
}

int pp_cx_is_one(const pp_cx *c)
{
    return is_int(c, 1);
}

static pp_cx *combine(pp_ekind op, pp_cx *a, pp_cx *b)
{
    pp_expr *k[2] = {a->e, b->e};
    pp_expr *s = pp_expr_op(op, 2, k);
    pp_expr *r = pp_expr_simplify(s);
    pp_expr_free(s);
    pp_cx_free(a);
    pp_cx_free(b);
    return pp_cx_expr(r);
}

static pp_cx *nary(pp_cxkind kind, pp_cx *a, pp_cx *b)
{
    pp_cx *c = node(kind);
    pp_cx *in[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        if (in[i]->kind == kind) {
            for (int j = 0; j < in[i]->n; j++)
                push_kid(c, pp_cx_ref(in[i]->k[j]));
            pp_cx_free(in[i]);
        } else
            push_kid(c, in[i]);
    }
    return c;
}

pp_cx *pp_cx_add(pp_cx *a, pp_cx *b)
{
    if (is_int(a, 0)) {
        pp_cx_free(a);
        return b;
    }
    if (is_int(b, 0)) {
        pp_cx_free(b);
        return a;
    }
    if (a->kind == PP_CX_EXPR && b->kind == PP_CX_EXPR)
        return combine(PP_E_ADD, a, b);
    return nary(PP_CX_ADD, a, b);
}

pp_cx *pp_cx_mul(pp_cx *a, pp_cx *b)
{
    if (is_int(a, 1) || is_int(b, 0)) {
        pp_cx_free(a);
        return b;
    }
    if (is_int(b, 1) || is_int(a, 0)) {
        pp_cx_free(b);
        return a;
    }
    if (a->kind == PP_CX_EXPR && b->kind == PP_CX_EXPR)
        return combine(PP_E_MUL, a, b);
    return nary(PP_CX_MUL, a, b);
}

pp_cx *pp_cx_cond(pp_expr *cond, pp_cx *c)
{
    long v;
    if (pp_expr_is_int(cond, &v)) {
        pp_expr_free(cond);
        if (v)
            return c;
        pp_cx_free(c);
        return pp_cx_int(0);
    }
    if (is_int(c, 0)) {
        pp_expr_free(cond);
        return c;
    }
    if (c->kind == PP_CX_EXPR) {
        pp_expr *zero = pp_expr_int(0);
        pp_expr *k[3] = {cond, c->e, zero};
        pp_expr *s = pp_expr_op(PP_E_COND, 3, k);
        pp_expr *r = pp_expr_simplify(s);
        pp_expr_free(s);
        pp_expr_free(zero);
        pp_expr_free(cond);
        pp_cx_free(c);
        return pp_cx_expr(r);
    }
    pp_cx *r = node(PP_CX_COND);
    r->e = cond;
    push_kid(r, c);
    return r;
}

static int expr_has(const pp_expr *e, const pp_expr *var)
{
    return e && pp_expr_contains(e, var);
}

static int cx_has(const pp_cx *c, const pp_expr *var)
{
    if (expr_has(c->e, var) || expr_has(c->lo, var) || expr_has(c->hi, var))
        return 1;
    for (int i = 0; i < c->n; i++)
        if (cx_has(c->k[i], var))
            return 1;
    return 0;
}

pp_cx *pp_cx_sum(pp_cx *c, const pp_expr *var, const pp_expr *lo, const pp_expr *hi, const pp_expr *n)
{
    if (!var || !cx_has(c, var))
        return pp_cx_mul(pp_cx_expr(pp_expr_ref((pp_expr *)n)), c);
    if (c->kind == PP_CX_EXPR) {
        pp_expr *s = pp_expr_sum(c->e, var, lo, hi);
        if (s) {
            pp_cx_free(c);
            return pp_cx_expr(s);
        }
    }
    if (c->kind == PP_CX_ADD || c->kind == PP_CX_MUL) {
        /* a sum of sums (closed forms for the parts that have one); a
         * product with the factors that do not hold var taken out */
        pp_cxkind kind = c->kind;
        pp_cx *in = NULL, *out = NULL;
        for (int i = 0; i < c->n; i++) {
            pp_cx *k = pp_cx_ref(c->k[i]);
            if (kind == PP_CX_ADD) {
                k = pp_cx_sum(k, var, lo, hi, n);
                in = in ? pp_cx_add(in, k) : k;
            } else if (cx_has(k, var))
                in = in ? pp_cx_mul(in, k) : k;
            else
                out = out ? pp_cx_mul(out, k) : k;
        }
        pp_cx_free(c);
        if (kind == PP_CX_ADD || !in)
            return in ? in : out ? out : pp_cx_int(0);
        if (out)
            return pp_cx_mul(out, pp_cx_sum(in, var, lo, hi, n));
        c = in;
    }
    pp_cx *r = node(PP_CX_SUM);
    r->e = pp_expr_ref((pp_expr *)var);
    r->lo = pp_expr_ref((pp_expr *)lo);
    r->hi = pp_expr_ref((pp_expr *)hi);
    push_kid(r, c);
    return r;
}

/* ---- evaluation -------------------------------------------------------- */

static int lookup(void *ctx, const pp_expr *a, int64_t *out)
{
    const pp_cx_env *env = ctx;
    if ((a->kind == PP_E_NPROCS || a->kind == PP_E_NTHREADS) && !a->name) {
        *out = env->P;
        return 0;
    }
    if (a->kind != PP_E_SYM || !a->name)
        return -1;
    for (int i = env->nb - 1; i >= 0; i--)
        if (strcmp(env->b[i].name, a->name) == 0) {
            *out = env->b[i].v;
            return 0;
        }
    for (int i = 0; i < env->m->nparams; i++)
        if (strcmp(env->m->params[i].name, a->name) == 0) {
            *out = pp_vals_get(env->m, env->pv, i);
            return 0;
        }
    if (strcmp(a->name, "P") == 0) {
        *out = env->P;
        return 0;
    }
    return -1;
}

static int lookup_z(void *ctx, const pp_expr *a, mpz_t out)
{
    int64_t v;
    if (lookup(ctx, a, &v))
        return -1;
    mpz_set_si(out, (long)v);
    return 0;
}

static long double eval_expr(const pp_expr *e, pp_cx_env *env)
{
    int64_t v;
    int rc = pp_expr_eval_i64(e, lookup, env, &v);
    if (rc == 0)
        return (long double)v;
    if (rc != PP_EVAL_OVERFLOW)
        return NAN;
    mpz_t z;
    mpz_init(z);
    long double r = pp_expr_eval_z(e, lookup_z, env, z) == 0 ? (long double)mpz_get_d(z) : NAN;
    mpz_clear(z);
    return r;
}

int pp_cx_env_push(pp_cx_env *env, const char *name, int64_t v)
{
    if (env->nb == env->capb) {
        int cap = env->capb ? 2 * env->capb : 8;
        void *nb = realloc(env->b, sizeof *env->b * (size_t)cap);
        if (!nb)
            return -1;
        env->b = nb;
        env->capb = cap;
    }
    env->b[env->nb].name = name;
    env->b[env->nb].v = v;
    return env->nb++;
}

static long double eval_sum(const pp_cx *c, pp_cx_env *env)
{
    long double lo = eval_expr(c->lo, env), hi = eval_expr(c->hi, env);
    if (isnan(lo) || isnan(hi))
        return NAN;
    if (hi < lo)
        return 0;
    int slot = pp_cx_env_push(env, c->e->name, 0);
    if (slot < 0)
        return NAN;
    long double cnt = hi - lo + 1, s = 0;
    if (cnt <= SUM_ENUM_MAX) {
        for (long double v = lo; v <= hi; v++) {
            env->b[slot].v = (int64_t)v;
            s += pp_cx_eval(c->k[0], env);
        }
    } else {
        /* as the instantiation: evenly spaced terms, each standing for
         * an equal share */
        env->approx = 1;
        long double w = cnt / SUM_SAMPLES;
        for (int i = 0; i < SUM_SAMPLES; i++) {
            env->b[slot].v = (int64_t)(lo + floorl(((long double)i + 0.5L) * w));
            s += w * pp_cx_eval(c->k[0], env);
        }
    }
    env->nb--;
    return s;
}

long double pp_cx_eval(const pp_cx *c, pp_cx_env *env)
{
    long double r;
    switch (c->kind) {
    case PP_CX_EXPR:
        return eval_expr(c->e, env);
    case PP_CX_SUM:
        return eval_sum(c, env);
    case PP_CX_ADD:
    case PP_CX_MUL:
        r = c->kind == PP_CX_ADD ? 0 : 1;
        for (int i = 0; i < c->n; i++) {
            long double x = pp_cx_eval(c->k[i], env);
            r = c->kind == PP_CX_ADD ? r + x : r * x;
        }
        return r;
    case PP_CX_COND:
        r = eval_expr(c->e, env);
        return isnan(r) ? NAN : r != 0 ? pp_cx_eval(c->k[0], env) : 0;
    case PP_CX_LOG2:
        r = eval_expr(c->e, env);
        return r > 0 ? log2l(r) : NAN;
    case PP_CX_CLOG2:
        /* whole rounds: the bits of r - 1, exact (no rounding of log2l) */
        r = eval_expr(c->e, env);
        if (!(r >= 1))
            return NAN;
        {
            long double n = 0;
            for (long double v = 1; v < r; v *= 2)
                n++;
            return n;
        }
    }
    return NAN;
}

/* ---- printing ---------------------------------------------------------- */

typedef struct { char *s; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? 2 * b->cap : 128;
        char *ns = realloc(b->s, b->cap);
        if (!ns) {
            fputs("perfpred: out of memory\n", stderr);
            abort();
        }
        b->s = ns;
    }
    memcpy(b->s + b->n, s, n + 1);
    b->n += n;
}

static void put_expr(sbuf *b, const pp_expr *e, pp_eqfmt f, int as_cond)
{
    char *s = f == PP_EQ_TEXT ? pp_expr_to_infix(e)
                              : pp_expr_to_cas(e, f == PP_EQ_SYMPY ? PP_CAS_SYMPY : PP_CAS_MAXIMA, as_cond);
    put(b, s);
    free(s);
}

/* does the tree print as a sum or difference at its top? */
static int loose(const pp_cx *c)
{
    if (c->kind == PP_CX_ADD)
        return 1;
    if (c->kind != PP_CX_EXPR)
        return 0;
    switch (c->e->kind) {
    case PP_E_ADD: case PP_E_SUB: case PP_E_NEG: case PP_E_COND: case PP_E_DIV: case PP_E_MOD:
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE: case PP_E_EQ: case PP_E_NE:
    case PP_E_AND: case PP_E_OR: case PP_E_SHL: case PP_E_SHR:
    case PP_E_BAND: case PP_E_BOR: case PP_E_BXOR:
        return 1;
    case PP_E_INT:
        return mpz_sgn(c->e->z) < 0;
    default:
        return 0;
    }
}

static void pr(sbuf *b, const pp_cx *c, pp_eqfmt f)
{
    switch (c->kind) {
    case PP_CX_EXPR:
        put_expr(b, c->e, f, 0);
        return;
    case PP_CX_SUM:
        if (f == PP_EQ_TEXT) {
            put(b, "sum(");
            put_expr(b, c->e, f, 0);
            put(b, " = ");
            put_expr(b, c->lo, f, 0);
            put(b, " .. ");
            put_expr(b, c->hi, f, 0);
            put(b, ", ");
            pr(b, c->k[0], f);
            put(b, ")");
        } else {
            put(b, f == PP_EQ_SYMPY ? "Sum(" : "sum(");
            pr(b, c->k[0], f);
            put(b, f == PP_EQ_SYMPY ? ", (" : ", ");
            put_expr(b, c->e, f, 0);
            put(b, ", ");
            put_expr(b, c->lo, f, 0);
            put(b, ", ");
            put_expr(b, c->hi, f, 0);
            put(b, f == PP_EQ_SYMPY ? "))" : ")");
        }
        return;
    case PP_CX_ADD:
    case PP_CX_MUL:
        for (int i = 0; i < c->n; i++) {
            if (i)
                put(b, c->kind == PP_CX_ADD ? " + " : "*");
            int par = c->kind == PP_CX_MUL && loose(c->k[i]);
            if (par)
                put(b, "(");
            pr(b, c->k[i], f);
            if (par)
                put(b, ")");
        }
        return;
    case PP_CX_COND:
        if (f == PP_EQ_SYMPY) {
            put(b, "Piecewise((");
            pr(b, c->k[0], f);
            put(b, ", ");
            put_expr(b, c->e, f, 1);
            put(b, "), (0, True))");
        } else if (f == PP_EQ_MAXIMA) {
            put(b, "(if ");
            put_expr(b, c->e, f, 1);
            put(b, " then ");
            pr(b, c->k[0], f);
            put(b, " else 0)");
        } else {
            put(b, "(");
            put_expr(b, c->e, f, 1);
            put(b, " ? ");
            pr(b, c->k[0], f);
            put(b, " : 0)");
        }
        return;
    case PP_CX_LOG2:
        put(b, f == PP_EQ_SYMPY ? "log(" : f == PP_EQ_MAXIMA ? "(log(" : "log2(");
        put_expr(b, c->e, f, 0);
        put(b, f == PP_EQ_SYMPY ? ", 2)" : f == PP_EQ_MAXIMA ? ")/log(2))" : ")");
        return;
    case PP_CX_CLOG2:
        /* Maxima's ceiling of log(x)/log(2) is taken in floating point,
         * which can land just above a whole number: the tiny offset keeps
         * powers of two exact (no count of ranks comes near 2^30) */
        put(b, f == PP_EQ_SYMPY ? "ceiling(log(" : f == PP_EQ_MAXIMA ? "ceiling(log(" : "ceil(log2(");
        put_expr(b, c->e, f, 0);
        put(b, f == PP_EQ_SYMPY ? ", 2))" : f == PP_EQ_MAXIMA ? ")/log(2) - 1/10^9)" : "))");
        return;
    }
}

char *pp_cx_print(const pp_cx *c, pp_eqfmt f)
{
    sbuf b = {0};
    pr(&b, c, f);
    if (!b.s)
        put(&b, "");
    return b.s;
}

void pp_eq_num(char *buf, size_t n, double v)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* one term: "c*count" (the parentheses the count needs) */
static void term(sbuf *b, const pp_eqterm *t, pp_eqfmt f)
{
    char num[40];
    if (f == PP_EQ_TEXT)
        snprintf(num, sizeof num, "%.4g", t->ns);
    else
        pp_eq_num(num, sizeof num, t->ns);
    put(b, num);
    if (pp_cx_is_one(t->count))
        return;
    put(b, "*");
    int par = loose(t->count);
    if (par)
        put(b, "(");
    pr(b, t->count, f);
    if (par)
        put(b, ")");
}

char *pp_eqblock_print(const pp_eqblock *blk, int sync, pp_eqfmt f)
{
    sbuf b = {0};
    int n = sync ? blk->nsync : blk->nterms;
    const pp_eqterm *t = sync ? blk->sync : blk->terms;
    for (int i = 0; i < n; i++) {
        if (i)
            put(&b, " + ");
        term(&b, &t[i], f);
    }
    if (!b.s)
        put(&b, "0");
    return b.s;
}

long double pp_eqblock_eval(const pp_eqblock *blk, int sync, const pp_prog *m, const pp_vals *pv, int P, int *approx)
{
    pp_cx_env env = {m, pv, P, 0, 0, NULL, 0};
    int n = sync ? blk->nsync : blk->nterms;
    const pp_eqterm *t = sync ? blk->sync : blk->terms;
    long double s = 0;
    for (int i = 0; i < n; i++)
        s += (long double)t[i].ns * pp_cx_eval(t[i].count, &env);
    free(env.b);
    if (approx)
        *approx |= env.approx;
    return s;
}
