/* lex.c - line lexer for perfpred's text formats (see lex.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_where_error(pp_where *w, const char *fmt, ...)
{
    if (w->err)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = strlen(msg) + strlen(w->file ? w->file : "?") + 64;
    w->err = malloc(n);
    if (w->err && w->line > 0)
        snprintf(w->err, n, "%s:%ld: %s", w->file ? w->file : "?", w->line, msg);
    else if (w->err)
        snprintf(w->err, n, "%s: %s", w->file ? w->file : "?", msg);
    return -1;
}

/* Scan a value starting at p; returns a pointer past it or NULL. Strings
 * are unescaped in place into dst (which may alias p). */
static char *scan_value(char *p, char **val, int *quoted, pp_where *w)
{
    if (*p == '"') {
        char *dst = p, *src = p + 1;
        *val = dst;
        *quoted = 1;
        while (*src && *src != '"') {
            if (*src == '\\' && src[1])
                src++;
            *dst++ = *src++;
        }
        if (*src != '"') {
            pp_where_error(w, "unterminated string");
            return NULL;
        }
        *dst = 0;
        return src + 1;
    }
    *val = p;
    *quoted = 0;
    if (*p == '(') {
        int depth = 0, instr = 0;
        for (; *p; p++) {
            if (instr) {
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == '"')
                    instr = 0;
                continue;
            }
            if (*p == '"')
                instr = 1;
            else if (*p == '(')
                depth++;
            else if (*p == ')' && --depth == 0) {
                p++;
                break;
            }
        }
        if (depth != 0) {
            pp_where_error(w, "unbalanced parentheses");
            return NULL;
        }
        return p;
    }
    while (*p && *p != ' ' && *p != '\t')
        p++;
    return p;
}

int pp_lex_line(const char *s, pp_line *out, pp_where *w)
{
    memset(out, 0, sizeof *out);
    out->buf = strdup(s);
    if (!out->buf)
        return pp_where_error(w, "out of memory");
    char *p = out->buf;
    while (*p == ' ' || *p == '\t')
        p++;
    out->keyword = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    if (*p)
        *p++ = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (out->nf == PP_LEX_MAXF)
            return pp_where_error(w, "too many fields (more than %d)", PP_LEX_MAXF);
        pp_field *f = &out->f[out->nf++];
        /* key=value or a bare positional value */
        char *q = p;
        while (*q && *q != '=' && *q != ' ' && *q != '(' && *q != '"')
            q++;
        if (*q == '=' && q > p) {
            *q = 0;
            f->key = p;
            p = q + 1;
        }
        char *end = scan_value(p, &f->val, &f->quoted, w);
        if (!end)
            return -1;
        if (*end && *end != ' ' && *end != '\t')
            return pp_where_error(w, "garbage after value of '%s'", f->key ? f->key : "?");
        if (*end)
            *end++ = 0;
        p = end;
    }
    return 0;
}

void pp_line_free(pp_line *l)
{
    free(l->buf);
    l->buf = NULL;
}

const char *pp_line_get(const pp_line *l, const char *key)
{
    for (int i = 0; i < l->nf; i++)
        if (l->f[i].key && strcmp(l->f[i].key, key) == 0)
            return l->f[i].val;
    return NULL;
}

int pp_parse_long(const char *s, long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int pp_line_int(const pp_line *l, const char *key, long *out, pp_where *w)
{
    const char *v = pp_line_get(l, key);
    if (!v)
        return pp_where_error(w, "'%s' line has no '%s'", l->keyword, key);
    if (strcmp(v, "-") == 0) {
        *out = -1;
        return 0;
    }
    if (pp_parse_long(v, out))
        return pp_where_error(w, "'%s=%s' is not an integer", key, v);
    return 0;
}

int pp_line_opt_int(const pp_line *l, const char *key, long *out, pp_where *w)
{
    if (!pp_line_get(l, key))
        return 0;
    return pp_line_int(l, key, out, w);
}

int pp_line_u64(const pp_line *l, const char *key, uint64_t *out, pp_where *w)
{
    const char *v = pp_line_get(l, key);
    if (!v)
        return pp_where_error(w, "'%s' line has no '%s'", l->keyword, key);
    char *end;
    errno = 0;
    uintmax_t x = strtoumax(v, &end, 0);
    if (errno || *end || *v == '-')
        return pp_where_error(w, "'%s=%s' is not an unsigned integer", key, v);
    *out = (uint64_t)x;
    return 0;
}

int pp_line_expr(const pp_line *l, const char *key, pp_expr **out, pp_where *w)
{
    const char *v = pp_line_get(l, key);
    if (!v)
        return pp_where_error(w, "'%s' line has no '%s'", l->keyword, key);
    char err[256] = "";
    const char *end = NULL;
    pp_expr *e = pp_expr_parse(v, &end, err, sizeof err);
    if (!e)
        return pp_where_error(w, "bad expression in '%s': %s", key, err);
    while (end && (*end == ' ' || *end == '\t'))
        end++;
    if (end && *end) {
        pp_expr_free(e);
        return pp_where_error(w, "trailing text after expression in '%s'", key);
    }
    *out = e;
    return 0;
}

int pp_line_opt_expr(const pp_line *l, const char *key, pp_expr **out, pp_where *w)
{
    if (!pp_line_get(l, key))
        return 0;
    return pp_line_expr(l, key, out, w);
}

int pp_line_str(const pp_line *l, const char *key, char **out, pp_where *w)
{
    const char *v = pp_line_get(l, key);
    if (!v)
        return pp_where_error(w, "'%s' line has no '%s'", l->keyword, key);
    *out = strdup(v);
    return *out ? 0 : pp_where_error(w, "out of memory");
}

int pp_line_opt_str(const pp_line *l, const char *key, char **out)
{
    const char *v = pp_line_get(l, key);
    if (!v)
        return 0;
    free(*out);
    *out = strdup(v);
    return 0;
}
