/* sym-internal.h - private helpers shared by the files of the symbolic
 * engine (analysis/sym-*.c).  Not part of the API: use sym.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SYM_INTERNAL_H
#define PERFPRED_SYM_INTERNAL_H

#include "sym.h"

/* Deepest nesting the parser accepts (the tree walkers recurse). */
#define PP_EXPR_MAX_DEPTH 1000
/* Largest |k| of (shl a k) evaluated exactly; beyond: PP_EVAL_OVERFLOW. */
#define PP_SHIFT_MAX 1000000L
/* Largest grid the integer-valuedness test walks. */
#define PP_IV_GRID_MAX 20000UL

/* allocation: abort with a message when memory runs out */
void *pp__xmalloc(size_t n);
void *pp__xrealloc(void *p, size_t n);
char *pp__xstrdup(const char *s);

int pp__is_op(pp_ekind k);                 /* operator (not LIST)        */
int pp__arity_ok(pp_ekind k, int n);
const char *pp__keyword(pp_ekind k);       /* "div", "arg", ...; NULL for
                                              INT, UNKNOWN, SYM, LIST     */
int pp__keyword_kind(const char *s, size_t n, pp_ekind *k);

/* build an operator node, taking over (consuming) the references given */
pp_expr *pp__take_op(pp_ekind k, int n, pp_expr **kids);
pp_expr *pp__take2(pp_ekind k, pp_expr *a, pp_expr *b);

int pp__contains(const pp_expr *e, const pp_expr *sub);
/* replace every sub-expression equal to what by with (new reference) */
pp_expr *pp__replace(const pp_expr *e, const pp_expr *what, const pp_expr *with);

/* ---- polynomials ---- */
typedef struct { pp_expr *v; unsigned long e; } pp_pfac;   /* v^e        */
typedef struct { mpq_t c; int nf; pp_pfac *f; } pp_pterm;  /* c * Π f    */
struct pp_poly { int n, cap; pp_pterm *t; };   /* terms in normal order  */

pp_poly *pp__poly_new(void);
pp_poly *pp__poly_const_q(const mpq_t c);
pp_poly *pp__poly_const_z(const mpz_t c);
pp_poly *pp__poly_const_si(long c);
pp_poly *pp__poly_var(const pp_expr *v);
void     pp__poly_push(pp_poly *p, const mpq_t c, int nf, const pp_pfac *f);
void     pp__poly_normalize(pp_poly *p);
pp_poly *pp__poly_scale(const pp_poly *p, const mpq_t c);
pp_poly *pp__poly_pow(const pp_poly *p, unsigned long e);
int      pp__poly_is_const(const pp_poly *p, mpq_t out);   /* out may be NULL */
int      pp__poly_equal(const pp_poly *a, const pp_poly *b);
/* consuming variants: free their poly arguments */
pp_poly *pp__poly_add_take(pp_poly *a, pp_poly *b);
pp_poly *pp__poly_mul_take(pp_poly *a, pp_poly *b);

#endif
