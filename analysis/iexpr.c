/* iexpr.c - the integer expressions of an experiment file's `set` lines
 * (see experiment.h): parsed once, evaluated at every point.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "experiment.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { IE_NUM, IE_NAME, IE_NEG, IE_ADD, IE_SUB, IE_MUL, IE_DIV, IE_MOD, IE_CALL } ie_kind;
typedef enum { F_MIN, F_MAX, F_ISQRT, F_LOG2, F_SQDIV } ie_func;

struct pp_iexpr {
    ie_kind kind;
    long num;
    char *name;          /* IE_NAME                                         */
    ie_func func;        /* IE_CALL                                         */
    int nkids;
    pp_iexpr **kids;
};

static const struct {
    const char *name;
    ie_func f;
    int minargs, maxargs;
} funcs[] = {
    {"min", F_MIN, 1, 64}, {"max", F_MAX, 1, 64}, {"isqrt", F_ISQRT, 1, 1},
    {"log2", F_LOG2, 1, 1}, {"sqdiv", F_SQDIV, 1, 1},
};

typedef struct {
    const char *s, *p;
    char *err;
    size_t errlen;
    int failed;
    int depth;           /* of nested primaries: '(' and unary '-'         */
} parser;

/* The parser, pp_iexpr_free and the evaluation recurse on the tree: the
 * nesting and the length (each operator needs a character or two, and a
 * chain a+b+...+z is a tree as deep as it is long) are bounded so that a
 * hostile file cannot overflow the stack. */
#define IE_MAX_DEPTH 200
#define IE_MAX_LEN 4096

static void fail(parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->err, ps->errlen, "%s at column %d of '%.60s%s'", what, (int)(ps->p - ps->s) + 1, ps->s,
                 strlen(ps->s) > 60 ? "..." : "");
    ps->failed = 1;
}

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static pp_iexpr *node(ie_kind k, int nkids, pp_iexpr **kids)
{
    pp_iexpr *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->kind = k;
    if (nkids) {
        e->kids = malloc(sizeof *e->kids * (size_t)nkids);
        if (!e->kids) {
            free(e);
            return NULL;
        }
        memcpy(e->kids, kids, sizeof *kids * (size_t)nkids);
        e->nkids = nkids;
    }
    return e;
}

void pp_iexpr_free(pp_iexpr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nkids; i++)
        pp_iexpr_free(e->kids[i]);
    free(e->kids);
    free(e->name);
    free(e);
}

static pp_iexpr *sum(parser *ps);

static pp_iexpr *primary1(parser *ps);

static pp_iexpr *primary(parser *ps)
{
    if (ps->depth >= IE_MAX_DEPTH) {
        fail(ps, "expression nested too deep");
        return NULL;
    }
    ps->depth++;
    pp_iexpr *e = primary1(ps);
    ps->depth--;
    return e;
}

static pp_iexpr *primary1(parser *ps)
{
    skip(ps);
    if (*ps->p == '(') {
        ps->p++;
        pp_iexpr *e = sum(ps);
        if (!e)
            return NULL;
        skip(ps);
        if (*ps->p != ')') {
            fail(ps, "')' expected");
            pp_iexpr_free(e);
            return NULL;
        }
        ps->p++;
        return e;
    }
    if (*ps->p == '-') {
        ps->p++;
        pp_iexpr *k = primary(ps);
        if (!k)
            return NULL;
        pp_iexpr *e = node(IE_NEG, 1, &k);
        if (!e)
            pp_iexpr_free(k);
        return e;
    }
    if (isdigit((unsigned char)*ps->p)) {
        char *end;
        errno = 0;
        long v = strtol(ps->p, &end, 10);
        if (errno) {
            fail(ps, "number too large");
            return NULL;
        }
        ps->p = end;
        pp_iexpr *e = node(IE_NUM, 0, NULL);
        if (e)
            e->num = v;
        return e;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *b = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        size_t len = (size_t)(ps->p - b);
        skip(ps);
        if (*ps->p != '(') {
            pp_iexpr *e = node(IE_NAME, 0, NULL);
            if (e && !(e->name = strndup(b, len))) {
                free(e);
                e = NULL;
            }
            return e;
        }
        int fi = -1;
        for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
            if (strlen(funcs[i].name) == len && !strncmp(funcs[i].name, b, len))
                fi = (int)i;
        if (fi < 0) {
            ps->p = b;
            fail(ps, "unknown function (min, max, isqrt, log2, sqdiv)");
            return NULL;
        }
        ps->p++;
        pp_iexpr *args[64];
        int n = 0;
        for (;;) {
            if (n == 64) {
                fail(ps, "too many arguments");
                break;
            }
            if (!(args[n] = sum(ps)))
                break;
            n++;
            skip(ps);
            if (*ps->p == ',') {
                ps->p++;
                continue;
            }
            if (*ps->p == ')')
                ps->p++;
            else
                fail(ps, "',' or ')' expected");
            break;
        }
        if (!ps->failed && (n < funcs[fi].minargs || n > funcs[fi].maxargs))
            fail(ps, funcs[fi].maxargs == 1 ? "the function takes one argument" : "wrong number of arguments");
        pp_iexpr *e = ps->failed ? NULL : node(IE_CALL, n, args);
        if (!e) {
            for (int i = 0; i < n; i++)
                pp_iexpr_free(args[i]);
            return NULL;
        }
        e->func = funcs[fi].f;
        return e;
    }
    fail(ps, *ps->p ? "number, name or '(' expected" : "unexpected end");
    return NULL;
}

static pp_iexpr *binary(parser *ps, int level)
{
    pp_iexpr *l = level ? primary(ps) : binary(ps, 1);
    while (l) {
        skip(ps);
        char c = *ps->p;
        ie_kind k;
        if (level == 0 && (c == '+' || c == '-'))
            k = c == '+' ? IE_ADD : IE_SUB;
        else if (level == 1 && (c == '*' || c == '/' || c == '%'))
            k = c == '*' ? IE_MUL : c == '/' ? IE_DIV : IE_MOD;
        else
            break;
        ps->p++;
        pp_iexpr *r = level ? primary(ps) : binary(ps, 1);
        pp_iexpr *kids[2] = {l, r};
        pp_iexpr *e = r ? node(k, 2, kids) : NULL;
        if (!e) {
            pp_iexpr_free(l);
            pp_iexpr_free(r);
            return NULL;
        }
        l = e;
    }
    return l;
}

static pp_iexpr *sum(parser *ps)
{
    return binary(ps, 0);
}

pp_iexpr *pp_iexpr_parse(const char *s, char *err, size_t errlen)
{
    parser ps = {s, s, err, errlen, 0, 0};
    if (strlen(s) > IE_MAX_LEN) {
        snprintf(err, errlen, "expression longer than %d characters", IE_MAX_LEN);
        return NULL;
    }
    pp_iexpr *e = sum(&ps);
    skip(&ps);
    if (e && *ps.p) {
        fail(&ps, "operator or end expected");
        pp_iexpr_free(e);
        return NULL;
    }
    if (!e && !ps.failed)
        snprintf(err, errlen, "out of memory");
    return e;
}

int pp_iexpr_names(const pp_iexpr *e, int (*fn)(void *ctx, const char *name), void *ctx)
{
    if (e->kind == IE_NAME)
        return fn(ctx, e->name);
    for (int i = 0; i < e->nkids; i++) {
        int r = pp_iexpr_names(e->kids[i], fn, ctx);
        if (r)
            return r;
    }
    return 0;
}

/* floor(sqrt(x)), x >= 0 */
static long isqrt_l(long x)
{
    long r = (long)sqrt((double)x);
    while (r > 0 && r > x / r)
        r--;
    while (r + 1 <= x / (r + 1))
        r++;
    return r;
}

int pp_iexpr_eval(const pp_iexpr *e, const char *const *names, const long *vals, int n, long *out, char *err,
                  size_t errlen)
{
    long k[64];
    for (int i = 0; i < e->nkids; i++)
        if (pp_iexpr_eval(e->kids[i], names, vals, n, &k[i], err, errlen))
            return -1;
    long r = 0;
    switch (e->kind) {
    case IE_NUM:
        r = e->num;
        break;
    case IE_NAME: {
        int i = 0;
        while (i < n && strcmp(names[i], e->name))
            i++;
        if (i == n) {
            snprintf(err, errlen, "'%s' has no value here", e->name);
            return -1;
        }
        r = vals[i];
        break;
    }
    case IE_NEG:
        if (k[0] == LONG_MIN)
            goto overflow;
        r = -k[0];
        break;
    case IE_ADD:
        if (__builtin_add_overflow(k[0], k[1], &r))
            goto overflow;
        break;
    case IE_SUB:
        if (__builtin_sub_overflow(k[0], k[1], &r))
            goto overflow;
        break;
    case IE_MUL:
        if (__builtin_mul_overflow(k[0], k[1], &r))
            goto overflow;
        break;
    case IE_DIV:
    case IE_MOD:
        if (k[1] == 0) {
            snprintf(err, errlen, "division by zero");
            return -1;
        }
        if (k[0] == LONG_MIN && k[1] == -1)
            goto overflow;
        r = k[0] / k[1];
        if ((k[0] % k[1] != 0) && ((k[0] < 0) != (k[1] < 0)))
            r--;   /* round down */
        if (e->kind == IE_MOD)
            r = k[0] - r * k[1];
        break;
    case IE_CALL:
        r = k[0];
        for (int i = 1; i < e->nkids; i++)
            r = e->func == F_MIN ? (k[i] < r ? k[i] : r) : (k[i] > r ? k[i] : r);
        if (e->func == F_ISQRT || e->func == F_LOG2 || e->func == F_SQDIV) {
            static const char *fname[] = {"min", "max", "isqrt", "log2", "sqdiv"};
            if (k[0] < (e->func == F_ISQRT ? 0 : 1)) {
                snprintf(err, errlen, "%s(%ld): the argument must be %s", fname[e->func], k[0],
                         e->func == F_ISQRT ? "0 or more" : "1 or more");
                return -1;
            }
            if (e->func == F_SQDIV && k[0] > 1000000000000L) {
                snprintf(err, errlen, "sqdiv(%ld): the argument must be at most 10^12", k[0]);
                return -1;
            }
            if (e->func == F_ISQRT)
                r = isqrt_l(k[0]);
            else if (e->func == F_LOG2)
                for (r = 0; (k[0] >> (r + 1)) > 0; r++)
                    ;
            else
                for (r = isqrt_l(k[0]); k[0] % r; r--)
                    ;
        }
        break;
    }
    *out = r;
    return 0;
overflow:
    snprintf(err, errlen, "integer overflow");
    return -1;
}
