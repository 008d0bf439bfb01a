/* equations.h - the symbolic execution-time equations of a program model
 * (Clement & Quinn section 3.1; the SAD formula of de Ronde et al.,
 * sum over blocks of the nested loop counts times the branch
 * probabilities times the block's time): for the whole program, every
 * function and every loop, the time as a sum of terms
 *
 *     (fitted cost of one iteration / entry / call / segment, ns) x count
 *
 * with the count an exact expression in the problem parameters and P:
 * sums over the iteration space, in closed form where sym-sum.c finds one,
 * for the thread that executes the block (team member 0 of an OpenMP
 * team, the first thread a pthread_create site starts, MPI rank 0), and
 * with a machine the synchronisation events' costs as functions of P
 * (docs/commands.md, "perfpred equations"; docs/symbolic.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_EQUATIONS_H
#define PERFPRED_EQUATIONS_H

#include "machine.h"
#include "model.h"
#include "sym.h"

/* ---- count trees (eq-tree.c) ------------------------------------------ */

typedef enum {
    PP_CX_EXPR,   /* e: an expression of the engine                        */
    PP_CX_SUM,    /* sum of k[0] over the symbol e = lo .. hi (hi = lo - 1:
                     empty; the trees never hold a lower hi)               */
    PP_CX_ADD,    /* k[0] + ... + k[n-1]                                   */
    PP_CX_MUL,    /* k[0] * ... * k[n-1]                                   */
    PP_CX_COND,   /* k[0] where the condition e holds (non-zero), else 0  */
    PP_CX_LOG2,   /* log2(e)                                               */
    PP_CX_CLOG2   /* ceil(log2(e)): the rounds of a tree over e ranks      */
} pp_cxkind;

typedef struct pp_cx pp_cx;
struct pp_cx {
    pp_cxkind kind;
    int refs;
    pp_expr *e, *lo, *hi;
    int n;
    pp_cx **k;
};

pp_cx *pp_cx_expr(pp_expr *e);                 /* takes the reference    */
pp_cx *pp_cx_int(long v);
pp_cx *pp_cx_log2(pp_expr *x);                 /* takes the reference    */
pp_cx *pp_cx_clog2(pp_expr *x);                /* ceil(log2 x); takes it */
pp_cx *pp_cx_ref(pp_cx *c);
void pp_cx_free(pp_cx *c);
/* a + b and a * b (references taken); expressions are combined and
 * simplified */
pp_cx *pp_cx_add(pp_cx *a, pp_cx *b);
pp_cx *pp_cx_mul(pp_cx *a, pp_cx *b);
/* c where cond holds, else 0 (references taken) */
pp_cx *pp_cx_cond(pp_expr *cond, pp_cx *c);
/* the sum of c over var = lo .. lo + n - 1 (hi = lo + n - 1, n >= 0):
 * a product with n when c does not hold var, a closed form when c is a
 * polynomial in var (sym-sum.c), else a sum (references of c taken) */
pp_cx *pp_cx_sum(pp_cx *c, const pp_expr *var, const pp_expr *lo, const pp_expr *hi, const pp_expr *n);
int pp_cx_is_one(const pp_cx *c);

typedef enum { PP_EQ_TEXT, PP_EQ_SYMPY, PP_EQ_MAXIMA } pp_eqfmt;
char *pp_cx_print(const pp_cx *c, pp_eqfmt f);                  /* malloc'd */
/* a double as the shortest decimal that reads back as the same double */
void pp_eq_num(char *buf, size_t n, double v);

/* Symbols' values: params by name, P, the summation variables bound
 * during the evaluation.  Returns NaN when a symbol has no value (a named
 * communicator's size); *approx is set when a sum of more than 2^20 terms
 * was sampled (512 evenly spaced terms, as the instantiation does). */
typedef struct {
    const pp_prog *m;
    const pp_vals *pv;   /* the parameters' values (NULL: the recorded) */
    int P;
    int nb, capb;
    struct { const char *name; int64_t v; } *b;
    int approx;
} pp_cx_env;
long double pp_cx_eval(const pp_cx *c, pp_cx_env *env);
/* Bind name to v (innermost last): the binding's slot, or -1 when out of
 * memory. */
int pp_cx_env_push(pp_cx_env *env, const char *name, int64_t v);

/* ---- the equations (equations.c) -------------------------------------- */

typedef struct {
    double ns;           /* the cost of one (the fitted cost, times the
                            observed ratio of a site whose branch the
                            model cannot evaluate)                        */
    char *what;          /* "iterations of main:L3", "calls of f at x.c:12" */
    pp_cx *count;
} pp_eqterm;

typedef enum { PP_EQB_PROGRAM, PP_EQB_FUNC, PP_EQB_LOOP } pp_eqbkind;

typedef struct {
    pp_eqbkind kind;
    char *id;            /* "program", "main", "main:L3"                  */
    char *where;         /* "ge_omp.c:88" (NULL for the program)          */
    int func, loop;      /* function index, loop index (-1)               */
    int depth;           /* loop nesting inside its function              */
    int reached;         /* the model runs it on the thread followed       */
    int nterms;          /* computation                                    */
    pp_eqterm *terms;
    int nsync;           /* the machine's synchronisation costs (only with */
    pp_eqterm *sync;     /* a machine)                                     */
} pp_eqblock;

typedef struct {
    char *name;          /* as it appears in the expressions               */
    char *what;          /* "parameter N (N in main)", "processors", ...   */
    int param;           /* parameter index or -1                          */
} pp_eqsym;

typedef struct {
    int nblocks;
    pp_eqblock *blocks;  /* blocks[0] is the program                       */
    int nsyms;
    pp_eqsym *syms;      /* the free symbols: the parameters and P         */
    int nnotes;
    char **notes;        /* what the equations leave out                   */
} pp_equations;

/* Build the equations of the model (at no particular parameter values).
 * mach: the synchronisation costs of the real machine and, for an MPI
 * program, its network (NULL: none).  P_at (0: the recorded P) with the
 * values pv (NULL: the recorded) is the point where the
 * network terms' thresholds (eager or rendezvous, the collectives' AUTO
 * algorithms) are decided (eq-net.c), and where a count the equations
 * cannot follow takes its value.  Returns 0 or -1 with a message. */
int pp_equations_build(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P_at, pp_equations *out,
                       char *err, size_t errlen);
void pp_equations_free(pp_equations *q);

/* A block's computation (sync = 0) or synchronisation (1) time in ns at
 * the values pv (P applied) and P. */
long double pp_eqblock_eval(const pp_eqblock *b, int sync, const pp_prog *m, const pp_vals *pv, int P, int *approx);
/* A block's expression: the terms joined (cost*count + ...); "0" when none. */
char *pp_eqblock_print(const pp_eqblock *b, int sync, pp_eqfmt f);

#endif
