/* sym-parse.c - the s-expression parser (docs/descriptor-format.md,
 * "Expressions"), with error messages that give the character offset.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "sym-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;      /* start of input (offsets are relative to it) */
    const char *p;      /* current position                            */
    char *err;
    size_t errlen;
} parser;

static void fail(parser *ps, const char *at, const char *fmt, ...)
{
    if (!ps->err || ps->errlen == 0)
        return;
    int n = snprintf(ps->err, ps->errlen, "offset %zu: ", (size_t)(at - ps->s));
    if (n < 0 || (size_t)n >= ps->errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_delim(int c)
{
    return c == '\0' || is_space(c) || c == '(' || c == ')' || c == '"';
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$';
}

static int is_ident(int c) { return is_ident_start(c) || is_digit(c); }

static void skip_ws(parser *ps)
{
    while (is_space((unsigned char)*ps->p))
        ps->p++;
}

/* length of the bare token at ps->p (0 if it starts with a delimiter) */
static size_t token_len(const parser *ps)
{
    size_t n = 0;
    while (!is_delim((unsigned char)ps->p[n]))
        n++;
    return n;
}

static int is_integer_token(const char *t, size_t n)
{
    size_t i = (n > 0 && t[0] == '-') ? 1 : 0;
    if (i == n)
        return 0;
    for (; i < n; i++)
        if (!is_digit((unsigned char)t[i]))
            return 0;
    return 1;
}

static int is_ident_token(const char *t, size_t n)
{
    if (n == 0 || !is_ident_start((unsigned char)t[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!is_ident((unsigned char)t[i]))
            return 0;
    return 1;
}

/* "..." with \" and \\ escapes; ps->p at the opening quote. */
static char *parse_quoted(parser *ps)
{
    const char *start = ps->p++;
    size_t cap = 16, len = 0;
    char *buf = pp__xmalloc(cap);
    for (;;) {
        int c = (unsigned char)*ps->p;
        if (c == '\0') {
            fail(ps, start, "unterminated string");
            free(buf);
            return NULL;
        }
        ps->p++;
        if (c == '"')
            break;
        if (c == '\\') {
            int d = (unsigned char)*ps->p;
            if (d != '"' && d != '\\') {
                fail(ps, ps->p - 1, "bad escape in string (only \\\" and \\\\)");
                free(buf);
                return NULL;
            }
            ps->p++;
            c = d;
        }
        if (len + 2 > cap)
            buf = pp__xrealloc(buf, cap *= 2);
        buf[len++] = (char)c;
    }
    buf[len] = '\0';
    return buf;
}

/* A name after an atom keyword: a bare token or a quoted string. */
static char *parse_name(parser *ps, const char *what)
{
    skip_ws(ps);
    if (*ps->p == '"')
        return parse_quoted(ps);
    size_t n = token_len(ps);
    if (n == 0) {
        fail(ps, ps->p, "expected the name of %s", what);
        return NULL;
    }
    char *name = pp__xmalloc(n + 1);
    memcpy(name, ps->p, n);
    name[n] = '\0';
    ps->p += n;
    return name;
}

static int expect_close(parser *ps, const char *what)
{
    skip_ws(ps);
    if (*ps->p != ')') {
        fail(ps, ps->p, *ps->p ? "expected ')' to close %s" : "unexpected end of input in %s", what);
        return -1;
    }
    ps->p++;
    return 0;
}

static pp_expr *parse_expr(parser *ps, int depth);

/* Elements up to ')' into a growing array; returns count or -1. */
static int parse_elems(parser *ps, int depth, pp_expr ***out, const char *open, const char *what)
{
    int n = 0, cap = 0;
    pp_expr **v = NULL;
    for (;;) {
        skip_ws(ps);
        if (*ps->p == ')') {
            ps->p++;
            *out = v;
            return n;
        }
        if (*ps->p == '\0') {
            fail(ps, ps->p, "unexpected end of input: '(' at offset %zu of %s not closed",
                 (size_t)(open - ps->s), what);
            break;
        }
        pp_expr *k = parse_expr(ps, depth + 1);
        if (!k)
            break;
        if (n == cap)
            v = pp__xrealloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 4));
        v[n++] = k;
    }
    for (int i = 0; i < n; i++)
        pp_expr_free(v[i]);
    free(v);
    return -1;
}

static pp_expr *parse_atom(parser *ps, pp_ekind k, const char *kw)
{
    pp_expr *e = NULL;
    char *name = NULL;
    switch (k) {
    case PP_E_ARG: case PP_E_VAR: case PP_E_GLOBAL: case PP_E_SHARED: case PP_E_CALL:
        if (!(name = parse_name(ps, kw)))
            return NULL;
        e = pp_expr_atom(k, name, 0);
        break;
    case PP_E_CRITICAL:
    case PP_E_RANK:
    case PP_E_NPROCS:
        skip_ws(ps);
        if (*ps->p != ')' && !(name = parse_name(ps, kw)))
            return NULL;
        e = pp_expr_atom(k, name, 0);
        break;
    case PP_E_IV: {
        skip_ws(ps);
        size_t n = token_len(ps);
        char buf[32];
        if (!is_integer_token(ps->p, n) || n >= sizeof buf) {
            fail(ps, ps->p, "expected a loop id after 'iv'");
            return NULL;
        }
        memcpy(buf, ps->p, n);
        buf[n] = '\0';
        errno = 0;
        long id = strtol(buf, NULL, 10);
        if (errno) {
            fail(ps, ps->p, "loop id out of range");
            return NULL;
        }
        ps->p += n;
        e = pp_expr_atom(k, NULL, id);
        break;
    }
    case PP_E_ADDR: {
        if (!(name = parse_name(ps, kw)))
            return NULL;
        skip_ws(ps);
        pp_expr *idx = NULL;
        if (*ps->p != ')' && !(idx = parse_expr(ps, 1))) {
            free(name);
            return NULL;
        }
        e = pp_expr_addr(name, idx);
        pp_expr_free(idx);
        break;
    }
    default:        /* nthreads, tid, load */
        e = pp_expr_atom(k, NULL, 0);
        break;
    }
    free(name);
    if (expect_close(ps, kw)) {
        pp_expr_free(e);
        return NULL;
    }
    return e;
}

static pp_expr *parse_paren(parser *ps, int depth)
{
    const char *open = ps->p++;
    skip_ws(ps);
    size_t n = token_len(ps);
    pp_ekind k;
    if (n > 0 && pp__keyword_kind(ps->p, n, &k)) {
        const char *kwp = ps->p;
        const char *kw = pp__keyword(k);
        ps->p += n;
        if (!pp__is_op(k))
            return parse_atom(ps, k, kw);
        pp_expr **kids = NULL;
        int nk = parse_elems(ps, depth, &kids, open, kw);
        if (nk < 0)
            return NULL;
        if (k == PP_E_SUB && nk == 1)
            k = PP_E_NEG;               /* (- a) is accepted as (neg a) */
        if (!pp__arity_ok(k, nk)) {
            fail(ps, kwp, "wrong number of operands (%d) for '%s'", nk, kw);
            for (int i = 0; i < nk; i++)
                pp_expr_free(kids[i]);
            free(kids);
            return NULL;
        }
        pp_expr *e = pp__take_op(k, nk, kids);
        free(kids);
        return e;
    }
    /* not a keyword: a list of expressions, e.g. ((iv 0) (arg n)) */
    pp_expr **kids = NULL;
    int nk = parse_elems(ps, depth, &kids, open, "a list");
    if (nk < 0)
        return NULL;
    pp_expr *e = pp__take_op(PP_E_LIST, nk, kids);
    free(kids);
    return e;
}

static pp_expr *parse_expr(parser *ps, int depth)
{
    skip_ws(ps);
    if (depth > PP_EXPR_MAX_DEPTH) {
        fail(ps, ps->p, "expression nested deeper than %d", PP_EXPR_MAX_DEPTH);
        return NULL;
    }
    const char *t = ps->p;
    switch (*t) {
    case '\0':
        fail(ps, t, "unexpected end of input, expected an expression");
        return NULL;
    case ')':
        fail(ps, t, "unexpected ')'");
        return NULL;
    case '(':
        return parse_paren(ps, depth);
    case '"': {
        char *name = parse_quoted(ps);
        if (!name)
            return NULL;
        pp_expr *e = pp_expr_sym(name);
        free(name);
        return e;
    }
    default:
        break;
    }
    size_t n = token_len(ps);
    if (n == 1 && *t == '?') {
        ps->p++;
        return pp_expr_atom(PP_E_UNKNOWN, NULL, 0);
    }
    if (is_integer_token(t, n)) {
        char *buf = pp__xmalloc(n + 1);
        memcpy(buf, t, n);
        buf[n] = '\0';
        pp_expr *e = pp_expr_int(0);
        mpz_set_str(e->z, buf, 10);
        free(buf);
        ps->p += n;
        return e;
    }
    if (is_ident_token(t, n)) {
        char *buf = pp__xmalloc(n + 1);
        memcpy(buf, t, n);
        buf[n] = '\0';
        pp_expr *e = pp_expr_sym(buf);
        free(buf);
        ps->p += n;
        return e;
    }
    if (n > 0 && pp__keyword_kind(t, n, &(pp_ekind){0}))
        fail(ps, t, "operator '%.*s' outside operator position", (int)n, t);
    else
        fail(ps, t, "bad token '%.*s'", (int)(n > 40 ? 40 : n), t);
    return NULL;
}

pp_expr *pp_expr_parse(const char *s, const char **end, char *err, size_t errlen)
{
    parser ps = {s, s, err, errlen};
    if (err && errlen)
        err[0] = '\0';
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "offset 0: no input");
        return NULL;
    }
    pp_expr *e = parse_expr(&ps, 0);
    if (e && end)
        *end = ps.p;
    return e;
}
