/* lex.h - the line lexer shared by the descriptor, record and machine
 * readers: "keyword key=value key=value ..." where a value is a bare token,
 * a balanced parenthesised expression or a double-quoted string.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_LEX_H
#define PERFPRED_LEX_H

#include <stddef.h>
#include <stdint.h>
#include "sym.h"

#define PP_LEX_MAXF 64

typedef struct {
    char *key;            /* NULL for positional values (argv "a" "b") */
    char *val;            /* unquoted for strings                      */
    int quoted;
} pp_field;

typedef struct {
    char *buf;            /* owned copy of the line, cut into pieces    */
    char *keyword;
    int nf;
    pp_field f[PP_LEX_MAXF];
} pp_line;

/* Where a reader is, for error messages: "FILE:LINE: ". */
typedef struct {
    const char *file;
    long line;
    long offset;          /* byte offset of the line in the file        */
    char *err;            /* first error message (malloc'd) or NULL     */
} pp_where;

/* Split a line (without its newline).  Returns 0, or -1 with an error
 * recorded in w (unbalanced parentheses, unterminated string, too many
 * fields). */
int pp_lex_line(const char *s, pp_line *out, pp_where *w);
void pp_line_free(pp_line *l);

/* Set w->err (first error wins) to "FILE:LINE: message". Returns -1. */
int pp_where_error(pp_where *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Field access.  The get_* functions record an error in w and return -1
 * when the field is missing or malformed; opt_* return 0 and leave the
 * default when the field is absent. */
const char *pp_line_get(const pp_line *l, const char *key);
int pp_line_int(const pp_line *l, const char *key, long *out, pp_where *w);
int pp_line_opt_int(const pp_line *l, const char *key, long *out, pp_where *w);
int pp_line_u64(const pp_line *l, const char *key, uint64_t *out, pp_where *w);
int pp_line_expr(const pp_line *l, const char *key, pp_expr **out, pp_where *w);
int pp_line_opt_expr(const pp_line *l, const char *key, pp_expr **out, pp_where *w);
int pp_line_str(const pp_line *l, const char *key, char **out, pp_where *w);
int pp_line_opt_str(const pp_line *l, const char *key, char **out);

/* Parse a whole decimal integer (with sign); 0 on success. */
int pp_parse_long(const char *s, long *out);

#endif
