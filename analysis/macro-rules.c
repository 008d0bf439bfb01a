/* macro-rules.c - the expression of the size macros a constant of the
 * descriptors follows over several builds (macro-sizes.c): forms tried
 * from the simplest, coefficients from the first builds, checked on the
 * others.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "macro-internal.h"
#include "sym-internal.h"

#include <stdlib.h>
#include <string.h>

#define BIG ((__int128)1 << 62)

typedef enum {
    T_X, T_XX, T_XY, T_XB, T_AX, T_XDIVA, T_AXX, T_XXB, T_AXY, T_XYB, T_XPYB, T_XYPB,
    T_AXB, T_AXXB, T_XXAXB, T_AXXBX, T_NTEMPL
} templ;

static const int unknowns[T_NTEMPL] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2};
/* 1: over pairs i < j; 2: over ordered pairs i != j (X*(Y+b): NA*(NONZER+1)) */
static const int pairwise[T_NTEMPL] = {[T_XY] = 1, [T_AXY] = 1, [T_XYB] = 1, [T_XPYB] = 1, [T_XYPB] = 2};

typedef struct {
    templ t;
    int i, j;             /* macros (indices into vary)                   */
    long long a, b;
} rule;

static int eval_rule(const uctx *c, const rule *r, int k, long long *out)
{
    __int128 X = c->x[r->i][k], Y = c->x[r->j][k], v;
    switch (r->t) {
    case T_X: v = X; break;
    case T_XX: v = X * X; break;
    case T_XY: v = X * Y; break;
    case T_XB: v = X + r->b; break;
    case T_AX: v = r->a * X; break;
    case T_XDIVA: v = X / r->a; break;      /* C division, as `div` */
    case T_AXX: v = r->a * X * X; break;
    case T_XXB: v = X * X + r->b; break;
    case T_AXY: v = r->a * X * Y; break;
    case T_XYB: v = X * Y + r->b; break;
    case T_XPYB: v = X + Y + r->b; break;
    case T_XYPB: v = X * (Y + r->b); break;
    case T_AXB: v = r->a * X + r->b; break;
    case T_AXXB: v = r->a * X * X + r->b; break;
    case T_XXAXB: v = X * X + r->a * X + r->b; break;
    case T_AXXBX: v = r->a * X * X + r->b * X; break;
    default: return -1;
    }
    if (v >= BIG || v <= -BIG)
        return -1;
    *out = (long long)v;
    return 0;
}

/* Solve a*p + b = q through two points (p0,q0), (p1,q1) in integers. */
static int solve2(long long p0, long long q0, long long p1, long long q1, long long *a, long long *b)
{
    __int128 dp = (__int128)p1 - p0, dq = (__int128)q1 - q0;
    if (dp == 0 || dq % dp)
        return -1;
    __int128 A = dq / dp, B = q0 - A * p0;
    if (A >= BIG || A <= -BIG || B >= BIG || B <= -BIG)
        return -1;
    *a = (long long)A;
    *b = (long long)B;
    return 0;
}

/* The coefficients of template t over macros i, j from the builds'
 * values v (k0 the first record, k1 a record whose macro i differs). */
static int fit_rule(const uctx *c, rule *r, const long long *v, int k0, int k1)
{
    long long X0 = c->x[r->i][k0], X1 = k1 >= 0 ? c->x[r->i][k1] : 0, v0 = v[k0], v1 = k1 >= 0 ? v[k1] : 0;
    long long big = 1LL << 30;      /* sizes, not products of sizes */
    if (X0 > big || X0 < -big || X1 > big || X1 < -big)
        return -1;
    r->a = r->b = 0;
    switch (r->t) {
    case T_X: case T_XX: case T_XY:
        return 0;
    case T_XB:
        r->b = v0 - X0;
        return r->b ? 0 : -1;
    case T_AX:
        if (!X0 || v0 % X0)
            return -1;
        r->a = v0 / X0;
        return r->a == 0 || r->a == 1 ? -1 : 0;
    case T_XDIVA:
        if (v0 <= 0 || X0 <= 0)
            return -1;
        r->a = X0 / v0;
        return r->a >= 2 ? 0 : -1;
    case T_AXX:
        if (!X0 || v0 % (X0 * X0))
            return -1;
        r->a = v0 / (X0 * X0);
        return r->a == 0 || r->a == 1 ? -1 : 0;
    case T_XXB:
        r->b = v0 - X0 * X0;
        return r->b ? 0 : -1;
    case T_AXY: {
        long long Y0 = c->x[r->j][k0];
        if (!X0 || !Y0 || Y0 > big || Y0 < -big || v0 % (X0 * Y0))
            return -1;
        r->a = v0 / (X0 * Y0);
        return r->a == 0 || r->a == 1 ? -1 : 0;
    }
    case T_XYB: {
        long long Y0 = c->x[r->j][k0];
        if (Y0 > big || Y0 < -big)
            return -1;
        r->b = v0 - X0 * Y0;
        return r->b ? 0 : -1;
    }
    case T_XPYB:
        r->b = v0 - X0 - c->x[r->j][k0];
        return 0;
    case T_XYPB: {
        long long Y0 = c->x[r->j][k0];
        if (!X0 || Y0 > big || Y0 < -big || v0 % X0)
            return -1;
        r->b = v0 / X0 - Y0;
        return r->b ? 0 : -1;
    }
    case T_AXB:
        if (k1 < 0 || solve2(X0, v0, X1, v1, &r->a, &r->b))
            return -1;
        return r->a ? 0 : -1;
    case T_AXXB:
        if (k1 < 0 || solve2(X0 * X0, v0, X1 * X1, v1, &r->a, &r->b))
            return -1;
        return r->a ? 0 : -1;
    case T_XXAXB:
        if (k1 < 0 || solve2(X0, v0 - X0 * X0, X1, v1 - X1 * X1, &r->a, &r->b))
            return -1;
        return 0;
    case T_AXXBX:
        if (k1 < 0 || !X0 || !X1 || v0 % X0 || v1 % X1 || solve2(X0, v0 / X0, X1, v1 / X1, &r->a, &r->b))
            return -1;
        return r->a ? 0 : -1;
    default:
        return -1;
    }
}

static pp_expr *gatom(const uctx *c, int i)
{
    return pp_expr_atom(PP_E_GLOBAL, c->M->macros[c->vary[i]].name, 0);
}

/* op(a, b), consuming both */
static pp_expr *op2(pp_ekind k, pp_expr *a, pp_expr *b)
{
    pp_expr *kids[2] = {a, b};
    pp_expr *e = a && b ? pp_expr_op(k, 2, kids) : NULL;
    pp_expr_free(a);
    pp_expr_free(b);
    return e;
}

static pp_expr *rule_expr(const uctx *c, const rule *r)
{
    pp_expr *X = gatom(c, r->i);
    switch (r->t) {
    case T_X: return X;
    case T_XX: return op2(PP_E_MUL, X, gatom(c, r->i));
    case T_XY: return op2(PP_E_MUL, X, gatom(c, r->j));
    case T_XB: return op2(PP_E_ADD, X, pp_expr_int(r->b));
    case T_AX: return op2(PP_E_MUL, pp_expr_int(r->a), X);
    case T_XDIVA: return op2(PP_E_DIV, X, pp_expr_int(r->a));
    case T_AXX: return op2(PP_E_MUL, pp_expr_int(r->a), op2(PP_E_MUL, X, gatom(c, r->i)));
    case T_XXB: return op2(PP_E_ADD, op2(PP_E_MUL, X, gatom(c, r->i)), pp_expr_int(r->b));
    case T_AXY: return op2(PP_E_MUL, pp_expr_int(r->a), op2(PP_E_MUL, X, gatom(c, r->j)));
    case T_XYB: return op2(PP_E_ADD, op2(PP_E_MUL, X, gatom(c, r->j)), pp_expr_int(r->b));
    case T_XPYB: {
        pp_expr *s = op2(PP_E_ADD, X, gatom(c, r->j));
        return r->b ? op2(PP_E_ADD, s, pp_expr_int(r->b)) : s;
    }
    case T_XYPB: return op2(PP_E_MUL, X, op2(PP_E_ADD, gatom(c, r->j), pp_expr_int(r->b)));
    case T_AXB: {
        pp_expr *s = r->a == 1 ? X : op2(PP_E_MUL, pp_expr_int(r->a), X);
        return r->b ? op2(PP_E_ADD, s, pp_expr_int(r->b)) : s;
    }
    case T_AXXB: return op2(PP_E_ADD, op2(PP_E_MUL, pp_expr_int(r->a), op2(PP_E_MUL, X, gatom(c, r->i))),
                            pp_expr_int(r->b));
    case T_XXAXB: {
        pp_expr *s = op2(PP_E_MUL, X, gatom(c, r->i));
        if (r->a)
            s = op2(PP_E_ADD, s, op2(PP_E_MUL, pp_expr_int(r->a), gatom(c, r->i)));
        return r->b ? op2(PP_E_ADD, s, pp_expr_int(r->b)) : s;
    }
    case T_AXXBX: {
        pp_expr *s = op2(PP_E_MUL, pp_expr_int(r->a), op2(PP_E_MUL, X, gatom(c, r->i)));
        return r->b ? op2(PP_E_ADD, s, op2(PP_E_MUL, pp_expr_int(r->b), gatom(c, r->i))) : s;
    }
    default:
        pp_expr_free(X);
        return NULL;
    }
}

static void note_rule(uctx *c, const char *text, int checked)
{
    pp_macros *M = c->M;
    for (int i = 0; i < M->nrules; i++)
        if (!strcmp(M->rules[i].rule, text)) {
            M->rules[i].uses++;
            if (checked < M->rules[i].checked)
                M->rules[i].checked = checked;
            return;
        }
    pp_mrule *nr = realloc(M->rules, sizeof *nr * (size_t)(M->nrules + 1));
    char *t = strdup(text);
    if (!nr || !t) {
        free(t);
        if (nr)
            M->rules = nr;
        c->oom = 1;
        return;
    }
    M->rules = nr;
    M->rules[M->nrules++] = (pp_mrule){t, 1, checked};
}

/* The simplest rule reproducing v[k] in every record, as an expression
 * (new reference), or NULL; mul: the factor the values were divided by
 * (1: none), a multiple of a rule being tried last. */
static pp_expr *find_rule_mul(uctx *c, const long long *v, long long mul, int umin, int umax)
{
    for (int t = 0; t < T_NTEMPL; t++)
        for (int i = 0; i < c->nv; i++)
            for (int j = pairwise[t] == 1 ? i + 1 : pairwise[t] ? 0 : i; j < (pairwise[t] ? c->nv : i + 1); j++) {
                if ((pairwise[t] == 2 && j == i) || unknowns[t] < umin || unknowns[t] > umax)
                    continue;
                /* the second point: the first build where macro i differs */
                int k0 = c->rep[0], k1 = -1;
                for (int b = 1; b < c->nb && k1 < 0; b++)
                    if (c->x[i][c->rep[b]] != c->x[i][k0])
                        k1 = c->rep[b];
                if (unknowns[t] == 2 && k1 < 0)
                    continue;
                rule r = {(templ)t, i, j, 0, 0};
                if (fit_rule(c, &r, v, k0, k1))
                    continue;
                int ok = 1;
                for (int k = 0; k < c->n && ok; k++) {
                    long long got;
                    ok = eval_rule(c, &r, k, &got) == 0 && got == v[k];
                }
                if (!ok)
                    continue;
                pp_expr *e = rule_expr(c, &r);
                if (e && mul != 1)
                    e = op2(PP_E_MUL, pp_expr_int(mul), e);
                if (!e) {
                    c->oom = 1;
                    return NULL;
                }
                char *s = pp_expr_to_infix(e);
                note_rule(c, s ? s : "?", c->nb - unknowns[t]);
                free(s);
                for (int k = 0; k < c->nv; k++)
                    if (k == i || (pairwise[t] && k == j))
                        c->M->macros[c->vary[k]].used = 1;
                return e;
            }
    return NULL;
}

/* Rules with fewer coefficients first: a size in bytes, an element size
 * times a rule of one coefficient (4*NA*(NONZER+1)), before a rule of two
 * fitted to two builds (30800*NONZER - 170800) */
pp_expr *pp_macro_find_rule(uctx *c, const long long *v)
{
    /* far beyond sizes (a mask, an unsigned -1): no rule, and no overflow
     * in fitting one */
    for (int k = 0; k < c->n; k++)
        if (v[k] >= (1LL << 61) || v[k] <= -(1LL << 61))
            return NULL;
    static const long long elem[] = {8, 4, 2, 16};
    long long *w = malloc(sizeof *w * (size_t)c->n);
    pp_expr *e = NULL;
    for (int u = 1; u <= 2 && !e && w; u++) {
        e = find_rule_mul(c, v, 1, u == 1 ? 0 : 2, u);
        for (unsigned q = 0; !e && q < sizeof elem / sizeof *elem; q++) {
            int ok = 1;
            for (int k = 0; k < c->n && ok; k++) {
                ok = v[k] % elem[q] == 0;
                w[k] = v[k] / elem[q];
            }
            if (ok)
                e = find_rule_mul(c, w, elem[q], u == 1 ? 0 : 2, u);
        }
    }
    free(w);
    return e;
}
