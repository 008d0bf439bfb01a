/* sym.h - the symbolic engine: expressions over program symbols, exact
 * evaluation with GMP, and multivariate polynomials with rational
 * coefficients (normal form, substitution, summation over a range).
 *
 * Expressions are the s-expressions of docs/descriptor-format.md.  They are
 * immutable trees; every function returning a new pp_expr* gives the caller
 * a reference to free with pp_expr_free().  Trees may be shared internally
 * (reference counted), so never modify one.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SYM_H
#define PERFPRED_SYM_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

typedef enum {
    PP_E_INT,        /* integer constant (mpz)                          */
    PP_E_UNKNOWN,    /* '?'                                             */
    PP_E_SYM,        /* a named symbol: bare identifier, e.g. N, P, j   */
    PP_E_ARG,        /* (arg NAME)                                      */
    PP_E_VAR,        /* (var NAME)                                      */
    PP_E_GLOBAL,     /* (global NAME)                                   */
    PP_E_SHARED,     /* (shared NAME)                                   */
    PP_E_IV,         /* (iv L)       ival = loop id                     */
    PP_E_NTHREADS,   /* (nthreads)                                      */
    PP_E_TID,        /* (tid)                                           */
    PP_E_ADDR,       /* (addr NAME [INDEX])  kids[0] = index if any     */
    PP_E_CALL,       /* (call NAME)                                     */
    PP_E_LOAD,       /* (load)                                          */
    PP_E_CRITICAL,   /* (critical [NAME])                               */
    PP_E_RANK,       /* (rank [COMM]) the MPI rank in MPI_COMM_WORLD,
                        or in the communicator variable COMM           */
    PP_E_NPROCS,     /* (nprocs [COMM]) the number of ranks of either   */
    /* operators; kids[] hold the operands */
    PP_E_ADD, PP_E_MUL, PP_E_SUB, PP_E_NEG,
    PP_E_DIV, PP_E_MOD, PP_E_FDIV, PP_E_CDIV,
    PP_E_MIN, PP_E_MAX, PP_E_SHL, PP_E_SHR,
    PP_E_BAND, PP_E_BOR, PP_E_BXOR,   /* bitwise &, |, ^ (two's complement) */
    PP_E_LT, PP_E_LE, PP_E_GT, PP_E_GE, PP_E_EQ, PP_E_NE,
    PP_E_AND, PP_E_OR, PP_E_NOT,
    PP_E_BNOT,       /* bitwise ~a = -a - 1                              */
    PP_E_COND,
    PP_E_LIST        /* a parenthesised list of expressions, e.g. args= */
} pp_ekind;

typedef struct pp_expr pp_expr;
struct pp_expr {
    pp_ekind kind;
    int refs;            /* internal reference count                    */
    long ival;           /* PP_E_IV: loop id                            */
    char *name;          /* symbols: the name (NULL for nameless atoms) */
    mpz_t z;             /* PP_E_INT                                    */
    int nkids;
    pp_expr **kids;
};

/* ---- construction, parsing, printing ---------------------------------- */

pp_expr *pp_expr_int(long v);
pp_expr *pp_expr_int_z(const mpz_t v);
pp_expr *pp_expr_sym(const char *name);            /* PP_E_SYM          */
pp_expr *pp_expr_atom(pp_ekind kind, const char *name, long ival);
pp_expr *pp_expr_op(pp_ekind kind, int nkids, pp_expr *const *kids);
                                 /* takes a new reference to each kid;
                                    NULL if kind is not an operator or
                                    PP_E_LIST, or the arity is wrong (+ * min
                                    max and or: >= 1; neg not bnot: 1; cond: 3;
                                    list: >= 0; the others: 2)              */
pp_expr *pp_expr_ref(pp_expr *e);                  /* +1 reference       */
void     pp_expr_free(pp_expr *e);                 /* -1 reference       */

/* Parse one expression starting at s.  On success returns it and sets *end
 * past it (if end != NULL).  On failure returns NULL and writes a message
 * (with the character offset) to err. */
pp_expr *pp_expr_parse(const char *s, const char **end, char *err, size_t errlen);

char *pp_expr_to_sexpr(const pp_expr *e);   /* malloc'd, re-parseable      */
char *pp_expr_to_infix(const pp_expr *e);   /* malloc'd, for people:
                                               "N*(N - 1)/2", "floor(N/P)",
                                               "min(a, b)"; atoms print as
                                               their name (arg n -> n,
                                               iv 2 -> i2 or its name,
                                               nthreads -> P, tid -> tid,
                                               rank -> rank, nprocs -> P) */
/* Input for a computer algebra system, with the same meaning as the
 * engine's (C division and remainder, floor, ceiling, min, max,
 * conditions as 0/1): SymPy (Piecewise, floor, ceiling, Min, Max, Mod,
 * Abs, Eq, Ne, And, Or, Not) or Maxima (truncate, floor, ceiling, min,
 * max, charfun, if-then-else).  as_cond: print e as a condition (true
 * when non-zero).  Atoms print as identifiers (docs/symbolic.md). */
typedef enum { PP_CAS_SYMPY, PP_CAS_MAXIMA } pp_cas;
char *pp_expr_to_cas(const pp_expr *e, pp_cas cas, int as_cond);   /* malloc'd */
int  pp_expr_equal(const pp_expr *a, const pp_expr *b);   /* structural     */
int  pp_expr_is_int(const pp_expr *e, long *v);           /* constant fits  */
int  pp_expr_has_unknown(const pp_expr *e); /* contains ?, call, load       */
int  pp_expr_contains(const pp_expr *e, const pp_expr *sub); /* sub or e itself,
                                                   structurally            */
int  pp_expr_is_atom(const pp_expr *e);     /* a symbol kind (not INT/op)   */
int  pp_expr_arity_ok(pp_ekind k, int n);  /* n kids are what operator k
                                               takes (as pp_expr_op checks) */

/* Added: a total order consistent with pp_expr_equal (<0, 0, >0); the
 * order of atoms and terms in the normal form. */
int  pp_expr_compare(const pp_expr *a, const pp_expr *b);
/* Added: (addr NAME [INDEX]); index may be NULL (new reference taken). */
pp_expr *pp_expr_addr(const char *name, pp_expr *index);

/* ---- evaluation --------------------------------------------------------- */

/* Value of an atom.  Return 0 and set out, or return nonzero if unknown. */
typedef int (*pp_lookup_fn)(void *ctx, const pp_expr *atom, mpz_t out);

/* Exact evaluation with C semantics (div/mod truncate toward zero, fdiv and
 * cdiv floor and ceiling, comparisons give 0/1, band bor bxor bnot on the
 * infinite two's complement form of the integers, as GMP's mpz_and).  Returns 0 on success,
 * PP_EVAL_UNKNOWN if an atom is unknown or the expression contains ?, and
 * PP_EVAL_DIVZERO on a division by zero. */
#define PP_EVAL_UNKNOWN 1
#define PP_EVAL_DIVZERO 2
#define PP_EVAL_OVERFLOW 3
int pp_expr_eval_z(const pp_expr *e, pp_lookup_fn lookup, void *ctx, mpz_t out);

/* Fast path with int64 and overflow detection: same results as eval_z when
 * it returns 0; returns PP_EVAL_OVERFLOW when an intermediate does not fit. */
typedef int (*pp_lookup_i64_fn)(void *ctx, const pp_expr *atom, int64_t *out);
int pp_expr_eval_i64(const pp_expr *e, pp_lookup_i64_fn lookup, void *ctx, int64_t *out);

/* ---- substitution and simplification ---------------------------------- */

/* Replace atoms: fn returns a new reference to the replacement, or NULL to
 * keep the atom.  Returns a new expression. */
typedef pp_expr *(*pp_subst_fn)(void *ctx, const pp_expr *atom);
pp_expr *pp_expr_subst(const pp_expr *e, pp_subst_fn fn, void *ctx);

/* Algebraic normal form: polynomial parts collected and ordered, constants
 * folded, min/max/div of constants evaluated.  Equal polynomials give
 * pp_expr_equal results. */
pp_expr *pp_expr_simplify(const pp_expr *e);

/* ---- polynomials -------------------------------------------------------- */

/* A multivariate polynomial with mpq coefficients.  Its variables are
 * atoms: symbols, or non-polynomial sub-expressions (div, min, max, ...)
 * treated as opaque and compared structurally after simplification. */
typedef struct pp_poly pp_poly;

pp_poly *pp_poly_from_expr(const pp_expr *e);   /* never fails; opaque parts */
pp_expr *pp_poly_to_expr(const pp_poly *p);     /* exact; rational coefficients
                                                   become (div (...) d) only
                                                   when the result is integer
                                                   valued for all integers,
                                                   otherwise a '/' in infix */
pp_poly *pp_poly_copy(const pp_poly *p);
void     pp_poly_free(pp_poly *p);
pp_poly *pp_poly_add(const pp_poly *a, const pp_poly *b);
pp_poly *pp_poly_sub(const pp_poly *a, const pp_poly *b);
pp_poly *pp_poly_mul(const pp_poly *a, const pp_poly *b);
pp_poly *pp_poly_scale(const pp_poly *p, const mpq_t c);   /* Added: c*p */
int      pp_poly_is_zero(const pp_poly *p);
int      pp_poly_degree_in(const pp_poly *p, const pp_expr *var);
/* Replace variable var by the polynomial q. */
pp_poly *pp_poly_subst(const pp_poly *p, const pp_expr *var, const pp_poly *q);
/* Sum of p over var = lo .. hi inclusive (Faulhaber), exact.  lo and hi may
 * be polynomials in the other variables.  Returns NULL if var occurs inside
 * an opaque atom of p (not a polynomial in var). */
pp_poly *pp_poly_sum(const pp_poly *p, const pp_expr *var,
                     const pp_poly *lo, const pp_poly *hi);
/* Exact value; returns 0 on success (see pp_expr_eval_z). */
int pp_poly_eval_q(const pp_poly *p, pp_lookup_fn lookup, void *ctx, mpq_t out);
/* Added: 1 if p takes integer values at every integer point (so that
 * pp_poly_to_expr is exact), 0 if not or too large to decide. */
int pp_poly_is_integer_valued(const pp_poly *p);

/* ---- simplification under facts (sym-range.c) -------------------------- */

/* Facts: polynomials f known to be >= 0 (inside a loop body: its variable
 * between its first and last value; on one side of a branch). */
typedef struct { int n, cap; pp_poly **f; } pp_facts;
void pp_facts_init(pp_facts *F);
void pp_facts_free(pp_facts *F);
void pp_facts_pop(pp_facts *F, int mark);          /* back to F->n == mark */
void pp_facts_add_ge0(pp_facts *F, const pp_expr *x);            /* x >= 0 */
/* the linear facts of condition c (truth 1) or of its negation (truth 0):
 * comparisons, and/or/not; a value as a condition: x == 0 when false */
void pp_facts_add_cond(pp_facts *F, const pp_expr *c, int truth);
/* 1 when x >= 0 follows from F (x minus a non-negative multiple of one
 * fact or of two is a non-negative constant), else 0 */
int pp_facts_nonneg(const pp_facts *F, const pp_expr *x);
/* condition c under F: 1 true, 0 false, -1 not decided */
int pp_facts_decide(const pp_facts *F, const pp_expr *c);
/* e simplified, with conditions F decides resolved (cond, comparisons,
 * and/or/not), and min/max operands that another always beats dropped;
 * F (may be NULL) is used as scratch and left as it was. */
pp_expr *pp_expr_simplify_under(const pp_expr *e, pp_facts *F);

/* Convenience: the sum over var = lo..hi of expression e, simplified, or NULL
 * when e is not polynomial in var. */
pp_expr *pp_expr_sum(const pp_expr *e, const pp_expr *var,
                     const pp_expr *lo, const pp_expr *hi);

#endif
