/* inst-code.c - the instantiation's expression evaluation: each (expression,
 * function) is compiled once into a short stack program, with its symbols
 * resolved to argument and loop slots and what cannot change while it is
 * used (the parameters, P) folded into constants, and run on every
 * evaluation after that.  The rank being unrolled, and the values that
 * differ per rank (their rule at that rank), are folded in too where the
 * ranks are not in classes (c->fold_rank: the programs are made again for
 * each rank), and read when the program runs where they are (the same
 * programs for every rank).  A rank or size in a named
 * communicator, (rank NAME) and (nprocs NAME), is read when the program
 * runs: the variable is bound (MPI_Comm_split, MPI_Comm_dup) and unbound
 * (MPI_Comm_free) as the rank is unrolled.
 *
 * Unrolling a thousand MPI ranks evaluates the same few loop counts, guards
 * and peers millions of times; walking the tree each time (a call, a kind
 * test and a symbol lookup per node) was most of the instantiation.  The
 * program gives what pp_expr_eval_i64 gives with the frame's values: the
 * same short-circuits (cond, and, or evaluate only what they need), the
 * same int64 arithmetic (pp_expr_op2_i64, with its overflow checks), and a
 * failure wherever the tree walk would fail (an unknown symbol, a ?, a
 * constant beyond int64, an operator with the wrong number of operands).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "sym-i64.h"

#include <stdlib.h>
#include <string.h>


/* ---- symbols ------------------------------------------------------------ */

/* An ARG, VAR, GLOBAL or SYM atom's slot in function mf: the argument
 * position or the parameter index; -2 for P; -1: no value there. */
static int resolve_atom(const pp_prog *m, const pp_mfunc *mf, const pp_expr *a)
{
    const pp_dfunc *d = mf->d;
    if (!a->name)
        return -1;
    switch (a->kind) {
    case PP_E_ARG:
        for (int i = 0; i < d->nargs; i++)
            if (strcmp(d->argnames[i], a->name) == 0)
                return i;
        return -1;
    case PP_E_VAR:
        for (int i = 0; i < d->nparams; i++)
            if (strcmp(d->params[i].var, a->name) == 0 && mf->param_of[i] >= 0)
                return mf->param_of[i];
        return -1;
    case PP_E_GLOBAL:
    case PP_E_SYM:
        for (int i = 0; i < m->nparams; i++)
            if ((m->params[i].is_global && strcmp(m->params[i].src, a->name) == 0) ||
                (a->kind == PP_E_SYM && strcmp(m->params[i].name, a->name) == 0))
                return i;
        if (a->kind == PP_E_SYM && strcmp(a->name, "P") == 0)
            return -2;
        return -1;
    default:
        return -1;
    }
}

/* ---- compilation -------------------------------------------------------- */

/* Append an instruction; its index, or -1 when memory runs out. */
static int emit(ictx *c, int op, int a, int64_t v, const char *name)
{
    if (c->ncode == c->capcode) {
        int cap = c->capcode ? c->capcode * 2 : 256;
        pp_icode *nc = realloc(c->code, sizeof *nc * (size_t)cap);
        if (!nc)
            return -1;
        c->code = nc;
        c->capcode = cap;
    }
    c->code[c->ncode] = (pp_icode){.op = op, .a = a, .v = v, .name = name};
    return c->ncode++;
}

/* An atom's instruction in function mf. */
static int emit_atom(ictx *c, const pp_mfunc *mf, const pp_expr *e)
{
    switch (e->kind) {
    case PP_E_ARG: {
        int i = resolve_atom(c->m, mf, e);
        return i < 0 ? emit(c, I_FAIL, 0, 0, NULL) : emit(c, I_ARG, i, 0, NULL);
    }
    case PP_E_VAR:
    case PP_E_GLOBAL:
    case PP_E_SYM: {
        /* the parameters and P do not change during an instantiation */
        int i = resolve_atom(c->m, mf, e);
        if (i == -2)
            return emit(c, I_K, 0, c->P, NULL);
        /* a value that differs between the ranks: the rank's, when the
         * program runs */
        if (i >= 0 && c->m->params[i].per_rank && c->mpi && c->fold_rank) {
            int64_t v;
            if (pp_prog_rank_value(c->m, c->pv, i, c->rank, c->P, c->single_rank, &v))
                return emit(c, I_FAIL, 0, 0, NULL);
            return emit(c, I_K, 0, v, NULL);
        }
        if (i >= 0 && c->m->params[i].per_rank && c->mpi) {
            if (!c->rankv) {
                c->rankv = malloc(sizeof *c->rankv * (size_t)c->m->nparams);
                if (!c->rankv)
                    return -1;
                for (int k = 0; k < c->m->nparams; k++)
                    c->rankv[k].rank = -1;
            }
            return emit(c, I_RANKV, i, 0, NULL);
        }
        long dv;
        /* a derived global: its value at the inputs (model-derived.c) */
        if (i < 0 && e->kind == PP_E_GLOBAL &&
            pp_prog_derived_value(c->m, c->pv, pp_prog_derived_index(c->m, e->name), &dv) == 0)
            return emit(c, I_K, 0, dv, NULL);
        return i < 0 ? emit(c, I_FAIL, 0, 0, NULL) : emit(c, I_K, 0, c->pv->v[i], NULL);
    }
    case PP_E_SHARED:
        return e->name ? emit(c, I_SHARED, 0, 0, e->name) : emit(c, I_FAIL, 0, 0, NULL);
    case PP_E_IV:
        if (e->ival < 0 || e->ival > mf->max_loop_id)
            return emit(c, I_FAIL, 0, 0, NULL);
        return emit(c, I_IV, (int)e->ival, 0, NULL);
    case PP_E_NTHREADS:
        return emit(c, c->in_rule ? I_THRN : I_NTHREADS, 0, 0, NULL);
    case PP_E_TID:
        return emit(c, c->in_rule ? I_THRK : I_TID, 0, 0, NULL);
    case PP_E_RANK:
    case PP_E_NPROCS:
        if (!c->mpi)
            return emit(c, I_FAIL, 0, 0, NULL);
        /* a communicator variable's: its binding changes as the rank runs */
        if (e->name)
            return emit(c, I_COMM, e->kind == PP_E_NPROCS, 0, e->name);
        /* the world's: P, and the rank read when the program runs (the
         * programs are the same for every rank) */
        if (e->kind == PP_E_NPROCS)
            return emit(c, I_K, 0, c->P, NULL);
        return c->fold_rank ? emit(c, I_K, 0, c->rank, NULL) : emit(c, I_RANK, 0, 0, NULL);
    default:        /* addr, call, load, critical: no value */
        return emit(c, I_FAIL, 0, 0, NULL);
    }
}

static inline int run(const ictx *c, const frame *fr, int pc, int64_t *out);

/* The rule of (var NAME) in mf when that value belongs to each thread. */
static const pp_expr *thread_rule(const pp_mfunc *mf, const pp_expr *a)
{
    const pp_dfunc *d = mf->d;
    for (int i = 0; mf->thread_rule && a->name && i < d->nparams; i++)
        if (mf->thread_rule[i] && strcmp(d->params[i].var, a->name) == 0)
            return mf->thread_rule[i];
    return NULL;
}

/* Does instruction op give the same value in every frame? */
static int constant_op(int op)
{
    return op == I_K || op == I_FAIL;
}

/* e's code from start on depends on no frame: replace it by its value (or
 * by a failure where it has none: reached only where the walk would reach
 * it).  0, or -1 when memory runs out. */
static int fold(ictx *c, int start)
{
    if (emit(c, I_END, 0, 0, NULL) < 0)
        return -1;
    int64_t v = 0;
    int ok = run(c, NULL, start, &v) == 0;
    c->ncode = start;
    return emit(c, ok ? I_K : I_FAIL, 0, v, NULL) < 0 ? -1 : 1;
}

/* Is every leaf of e but the integers in one of in1 and in2 (in2 may be
 * NULL)? */
static int leaves_within(const pp_expr *e, const pp_expr *in1, const pp_expr *in2)
{
    if (e->nkids == 0)
        return e->kind == PP_E_INT || pp_expr_contains(in1, e) || (in2 && pp_expr_contains(in2, e));
    for (int i = 0; i < e->nkids; i++)
        if (!leaves_within(e->kids[i], in1, in2))
            return 0;
    return 1;
}

/* Is e, (cond T D 0), max(D, 0)?  With T "X >= Y" (or "Y <= X"), D must
 * be X - Y + c, c 0 or 1: where T holds D >= 0, where it does not D <= 0;
 * with T "X > Y" (or "Y < X"), c -1 or 0.  The plugin's trip counts are
 * so: (cond (le A B) (- B A) 0), (cond (ge (+ n 1) i) (+ (- n i) 1) 0),
 * (cond (gt n 1) (+ n -2) 0).  D - (X - Y) is taken as a polynomial (its
 * divisions, minima and maxima as opaque terms), and D must read what T
 * reads and no more (a value unknown in one of them, none in the other,
 * would make one have no value where the other has).  The value is the
 * same but where D would overflow 64 bits, where this has none.  1 yes,
 * 0 no, -1 out of memory; the answer is kept per tree. */
static int count_as_max(ictx *c, const pp_expr *e)
{
    const pp_expr *t = e->kids[0], *d = e->kids[1];
    long zero = 1;
    if (!(t->kind == PP_E_LE || t->kind == PP_E_LT || t->kind == PP_E_GE || t->kind == PP_E_GT) || t->nkids != 2 ||
        e->kids[2]->kind != PP_E_INT || !pp_expr_is_int(e->kids[2], &zero) || zero != 0)
        return 0;
    int ge = t->kind == PP_E_LE || t->kind == PP_E_GE;
    const pp_expr *x = t->kind == PP_E_GE || t->kind == PP_E_GT ? t->kids[0] : t->kids[1];
    const pp_expr *y = x == t->kids[0] ? t->kids[1] : t->kids[0];
    if (d->kind == PP_E_SUB && d->nkids == 2 && pp_expr_equal(d->kids[0], x) && pp_expr_equal(d->kids[1], y))
        return 1;   /* D = X - Y itself: no algebra */
    for (int i = 0; i < c->nmaxf; i++)
        if (c->maxf[i].e == e)
            return c->maxf[i].yes;
    pp_poly *pd = pp_poly_from_expr(d), *px = pp_poly_from_expr(x), *py = pp_poly_from_expr(y);
    pp_poly *xy = pd && px && py ? pp_poly_sub(px, py) : NULL;
    pp_poly *r = xy ? pp_poly_sub(pd, xy) : NULL;
    pp_expr *rc = r ? pp_poly_to_expr(r) : NULL;
    long k = 2;
    int yes = rc && rc->kind == PP_E_INT && pp_expr_is_int(rc, &k) && (ge ? k == 0 || k == 1 : k == -1 || k == 0) &&
              leaves_within(d, x, y) && leaves_within(x, d, NULL) && leaves_within(y, d, NULL);
    pp_expr_free(rc);
    pp_poly_free(r);
    pp_poly_free(xy);
    pp_poly_free(pd);
    pp_poly_free(px);
    pp_poly_free(py);
    if (c->nmaxf == c->capmaxf) {
        int cap = c->capmaxf ? 2 * c->capmaxf : 16;
        struct maxform *n = realloc(c->maxf, sizeof *n * (size_t)cap);
        if (!n)
            return -1;
        c->maxf = n;
        c->capmaxf = cap;
    }
    c->maxf[c->nmaxf++] = (struct maxform){e, yes};
    return yes;
}

/* (cond T (+ E 1) E), a static schedule's chunk (one more for the first
 * threads): E + T, where T is a comparison or a logical operation (0 or
 * 1; a cond tests any value for non-zero), so that E is evaluated once.
 * E, or NULL where e is not of that form. */
static const pp_expr *chunk_plus_test(const pp_expr *e)
{
    const pp_expr *t = e->kids[0], *a = e->kids[1], *b = e->kids[2];
    long one = 0;
    switch (t->kind) {
    case PP_E_LT: case PP_E_LE: case PP_E_GT: case PP_E_GE: case PP_E_EQ: case PP_E_NE:
    case PP_E_AND: case PP_E_OR: case PP_E_NOT:
        break;
    default:
        return NULL;
    }
    if (a->kind != PP_E_ADD || a->nkids != 2)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (a->kids[1 - i]->kind == PP_E_INT && pp_expr_is_int(a->kids[1 - i], &one) && one == 1 &&
            pp_expr_equal(a->kids[i], b))
            return b;
    return NULL;
}

/* Code that leaves e's value at stack slot sp; *depth: the most slots
 * used.  1 when the code depends on no frame, 0 when it does, -1 when
 * memory runs out. */
static int comp(ictx *c, const pp_mfunc *mf, const pp_expr *e, int sp, int *depth)
{
    if (sp + 1 > *depth)
        *depth = sp + 1;
    if (c->capstack < *depth) {
        int64_t *ns = realloc(c->stack, sizeof *ns * (size_t)*depth);
        if (!ns)
            return -1;
        c->stack = ns;
        c->capstack = *depth;
    }
    int start = c->ncode, at, k;
    if (e->kind == PP_E_INT) {
        long v = 0;
        int fits = pp_expr_is_int(e, &v) && sizeof(long) >= sizeof(int64_t);
        at = emit(c, fits ? I_K : I_FAIL, 0, v, NULL);
    } else if (e->kind == PP_E_UNKNOWN || e->kind == PP_E_LIST || (!pp_expr_is_atom(e) &&
                                                                    !pp_expr_arity_ok(e->kind, e->nkids)))
        at = emit(c, I_FAIL, 0, 0, NULL);
    else if (pp_expr_is_atom(e)) {
        /* a value that belongs to each thread: its rule, in place */
        const pp_expr *rule = e->kind == PP_E_VAR && !c->in_rule ? thread_rule(mf, e) : NULL;
        if (rule) {
            c->in_rule = 1;
            int r = comp(c, mf, rule, sp, depth);
            c->in_rule = 0;
            return r;
        }
        /* the thread that runs a `single': GOMP_single_start is true in
         * one member of the team; the model's is thread 0, as for
         * `master' (which one does it in a run depends on who arrives
         * first, not on the counts) */
        if (e->kind == PP_E_CALL && e->name && strcmp(e->name, "GOMP_single_start") == 0) {
            if (emit(c, I_TID, 0, 0, NULL) < 0 || emit(c, I_BINK + PP_E_EQ - PP_E_ADD, 0, 0, NULL) < 0)
                return -1;
            return 0;
        }
        at = emit_atom(c, mf, e);
    } else
        at = -2;
    if (at != -2)
        return at < 0 ? -1 : constant_op(c->code[at].op);
    int cst = 1;
    switch (e->kind) {
    case PP_E_NEG:
    case PP_E_NOT:
    case PP_E_BNOT:
        if ((cst = comp(c, mf, e->kids[0], sp, depth)) < 0 ||
            emit(c, e->kind == PP_E_NEG ? I_NEG : e->kind == PP_E_NOT ? I_NOT : I_BNOT,
                 0, 0, NULL) < 0)
            return -1;
        break;
    case PP_E_AND:
    case PP_E_OR: {
        /* each operand's test jumps to the end with the result; the jumps
         * are patched when the end is known */
        for (int i = 0; i < e->nkids; i++) {
            if ((k = comp(c, mf, e->kids[i], sp, depth)) < 0 ||
                emit(c, e->kind == PP_E_AND ? I_AND : I_OR, -1, 0, NULL) < 0)
                return -1;
            cst &= k;
        }
        int end = emit(c, I_K, 0, e->kind == PP_E_AND, NULL);
        if (end < 0)
            return -1;
        for (int i = start; i < end; i++)
            if ((c->code[i].op == I_AND || c->code[i].op == I_OR) && c->code[i].a == -1)
                c->code[i].a = end + 1;
        break;
    }
    case PP_E_COND: {
        /* a trip count (cond T D 0) as max(D, 0), T and D's operands
         * evaluated once, not twice; a chunk (cond T (+ E 1) E) as E + T */
        int mx = count_as_max(c, e);
        if (mx < 0)
            return -1;
        if (mx) {
            if ((cst = comp(c, mf, e->kids[1], sp, depth)) < 0 ||
                emit(c, I_BINK + PP_E_MAX - PP_E_ADD, 0, 0, NULL) < 0)
                return -1;
            break;
        }
        const pp_expr *one = chunk_plus_test(e);
        if (one) {
            int k;
            if ((cst = comp(c, mf, one, sp, depth)) < 0 || (k = comp(c, mf, e->kids[0], sp + 1, depth)) < 0 ||
                emit(c, I_BIN + PP_E_ADD - PP_E_ADD, 0, 0, NULL) < 0)
                return -1;
            cst &= k;
            break;
        }
        if ((cst = comp(c, mf, e->kids[0], sp, depth)) < 0)
            return -1;
        int jz = emit(c, I_JZ, 0, 0, NULL);
        if (jz < 0 || (k = comp(c, mf, e->kids[1], sp, depth)) < 0)
            return -1;
        cst &= k;
        int jmp = emit(c, I_JMP, 0, 0, NULL);
        if (jmp < 0)
            return -1;
        c->code[jz].a = c->ncode;
        if ((k = comp(c, mf, e->kids[2], sp, depth)) < 0)
            return -1;
        cst &= k;
        c->code[jmp].a = c->ncode;
        break;
    }
    default:
        /* binary operators, and add, mul, min, max as a left fold */
        if ((cst = comp(c, mf, e->kids[0], sp, depth)) < 0)
            return -1;
        for (int i = 1; i < e->nkids; i++) {
            int kid = c->ncode;
            if ((k = comp(c, mf, e->kids[i], sp + 1, depth)) < 0)
                return -1;
            cst &= k;
            /* a constant operand goes into the instruction (a jump to the
             * constant then runs both, as before) */
            if (c->ncode == kid + 1 && c->code[kid].op == I_K)
                c->code[kid].op = I_BINK + e->kind - PP_E_ADD;
            else if (emit(c, I_BIN + e->kind - PP_E_ADD, 0, 0, NULL) < 0)
                return -1;
        }
        break;
    }
    return cst ? fold(c, start) : 0;
}

/* ---- running ------------------------------------------------------------ */

/* The interpreter, threaded: each instruction jumps to the next one's
 * code through the table `go` (GCC's labels as values), where a switch in
 * a loop checked the range and branched from one place for them all. */
static inline int run(const ictx *c, const frame *fr, int pc, int64_t *out)
{
#define BINL(k) [I_BIN + (k) - PP_E_ADD] = &&bin_##k, [I_BINK + (k) - PP_E_ADD] = &&bink_##k,
    /* (every slot first to `fail`, then the instructions over it) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
    static const void *const go[I_BINK + 32] = {
        [0 ... I_BINK + 31] = &&fail,   /* not emitted */
        [I_END] = &&end, [I_K] = &&k, [I_FAIL] = &&fail, [I_ARG] = &&arg, [I_IV] = &&iv,
        [I_THRK] = &&thr, [I_THRN] = &&thr, [I_NTHREADS] = &&team, [I_TID] = &&team,
        [I_SHARED] = &&shared, [I_COMM] = &&comm, [I_RANK] = &&rank, [I_RANKV] = &&rankv,
        [I_NEG] = &&neg, [I_NOT] = &&not, [I_BNOT] = &&bnot, [I_AND] = &&andor, [I_OR] = &&andor,
        [I_JZ] = &&jz, [I_JMP] = &&jmp,
        BINL(PP_E_ADD) BINL(PP_E_MUL) BINL(PP_E_SUB) BINL(PP_E_DIV) BINL(PP_E_MOD) BINL(PP_E_FDIV)
        BINL(PP_E_CDIV) BINL(PP_E_MIN) BINL(PP_E_MAX) BINL(PP_E_SHL) BINL(PP_E_SHR) BINL(PP_E_BAND)
        BINL(PP_E_BOR) BINL(PP_E_BXOR) BINL(PP_E_LT) BINL(PP_E_LE) BINL(PP_E_GT) BINL(PP_E_GE)
        BINL(PP_E_EQ) BINL(PP_E_NE)
    };
#pragma GCC diagnostic pop
#undef BINL
    const pp_icode *code = c->code;
    int64_t *st = c->stack;
    int sp = 0;         /* st[sp - 1] is the top */
    const pp_icode *in = &code[pc];
#define NEXT()                                                                  \
    do {                                                                        \
        in = &code[++pc];                                                       \
        goto *go[in->op];                                                       \
    } while (0)
    goto *go[in->op];
end:
    *out = st[0];
    return 0;
k:
    st[sp++] = in->v;
    NEXT();
fail:
    return -1;
arg:
    if (!fr->args_known || !fr->args_known[in->a])
        return -1;
    st[sp++] = fr->args[in->a];
    NEXT();
iv:
    if (!fr->iv_known[in->a])
        return -1;
    st[sp++] = fr->iv[in->a];
    NEXT();
thr:
    if (!fr->thr_known)
        return -1;
    st[sp++] = in->op == I_THRK ? fr->thr_k : fr->thr_n;
    NEXT();
team:
    if (!fr->omp)
        return -1;
    st[sp++] = in->op == I_TID ? fr->tid : fr->nthreads;
    NEXT();
shared: {
    const shared_val *sv = fr->shared;
    if (!sv)
        return -1;
    int i = 0;
    if (in->seen_names == sv->name && in->seen_at < sv->n)
        i = in->seen_at;
    else {
        if ((i = pp_inst_shared_index(sv, in->name)) < 0)
            return -1;
        /* the program's instructions are the context's (c->code is not
         * const): remembered for the next evaluation */
        c->code[pc].seen_names = sv->name;
        c->code[pc].seen_at = i;
    }
    if (!sv->known[i])
        return -1;
    st[sp++] = sv->val[i];
    NEXT();
}
comm: {
    int64_t rk, size;
    if (pp_inst_comm_lookup(c, in->name, c->rank, &rk, &size))
        return -1;
    st[sp++] = in->a ? size : rk;
    NEXT();
}
rank:
    st[sp++] = c->rank;
    NEXT();
rankv: {
    /* the rule is evaluated once per rank (the programs are the
     * context's, and so is the cache: c->rankv is not const) */
    struct rank_val *rv = &c->rankv[in->a];
    if (rv->rank != c->rank) {
        rv->rank = c->rank;
        rv->ok = pp_prog_rank_value(c->m, c->pv, in->a, c->rank, c->P, c->single_rank, &rv->v) == 0;
    }
    if (!rv->ok)
        return -1;
    st[sp++] = rv->v;
    NEXT();
}
neg:
    if (st[sp - 1] == INT64_MIN)
        return -1;
    st[sp - 1] = -st[sp - 1];
    NEXT();
not:
    st[sp - 1] = st[sp - 1] == 0;
    NEXT();
bnot:
    st[sp - 1] = ~st[sp - 1];
    NEXT();
andor:
    if ((st[sp - 1] != 0) != (in->op == I_AND)) {
        st[sp - 1] = in->op == I_OR;
        pc = in->a - 1;
    } else
        sp--;
    NEXT();
jz:
    if (st[--sp] == 0)
        pc = in->a - 1;
    NEXT();
jmp:
    pc = in->a - 1;
    NEXT();
#define BIN(k)                                                                  \
    bin_##k:                                                                    \
    sp--;                                                                       \
    if (pp_expr_op2_i64((k), st[sp - 1], st[sp], &st[sp - 1]))                  \
        return -1;                                                              \
    NEXT();                                                                     \
    bink_##k:                                                                   \
    if (pp_expr_op2_i64((k), st[sp - 1], in->v, &st[sp - 1]))                   \
        return -1;                                                              \
    NEXT();
    BIN(PP_E_ADD) BIN(PP_E_MUL) BIN(PP_E_SUB) BIN(PP_E_DIV) BIN(PP_E_MOD) BIN(PP_E_FDIV)
    BIN(PP_E_CDIV) BIN(PP_E_MIN) BIN(PP_E_MAX) BIN(PP_E_SHL) BIN(PP_E_SHR) BIN(PP_E_BAND)
    BIN(PP_E_BOR) BIN(PP_E_BXOR) BIN(PP_E_LT) BIN(PP_E_LE) BIN(PP_E_GT) BIN(PP_E_GE)
    BIN(PP_E_EQ) BIN(PP_E_NE)
#undef BIN
#undef NEXT
}

/* ---- the cache ---------------------------------------------------------- */

static size_t hash(const pp_expr *e, int fi)
{
    uintptr_t x = (uintptr_t)e >> 4;
    x ^= (uintptr_t)fi * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (size_t)x;
}

/* The start of e's program in function fi, compiled when first asked
 * for; -1 when memory runs out. */
/* Compile e for function fi and enter it: its start, or -1.  Out of line
 * (and cold): the evaluations that find their program stay short. */
static int __attribute__((noinline, cold)) compile(ictx *c, const pp_expr *e, int fi)
{
    if (!c->ec || c->ecn * 2 >= c->ecmask + 1) {
        size_t cap = c->ec ? (c->ecmask + 1) * 2 : 256;
        icache_ent *n = calloc(cap, sizeof *n);
        if (!n)
            return -1;
        for (size_t k = 0; c->ec && k <= c->ecmask; k++)
            if (c->ec[k].e) {
                size_t j = hash(c->ec[k].e, c->ec[k].fi) & (cap - 1);
                while (n[j].e)
                    j = (j + 1) & (cap - 1);
                n[j] = c->ec[k];
            }
        free(c->ec);
        c->ec = n;
        c->ecmask = cap - 1;
    }
    int start = c->ncode, depth = 0;
    if (comp(c, &c->m->funcs[fi], e, 0, &depth) < 0 || emit(c, I_END, 0, 0, NULL) < 0)
        return -1;
    for (int i = start; i < c->ncode; i++)
        if (c->code[i].op == I_TID || c->code[i].op == I_THRK || c->code[i].op == I_RANK ||
            c->code[i].op == I_RANKV || c->code[i].op == I_COMM)
            c->code[start].thread_dep = 1;
    size_t i = hash(e, fi) & c->ecmask;
    while (c->ec[i].e)
        i = (i + 1) & c->ecmask;
    c->ec[i] = (icache_ent){e, fi, start};
    c->ecn++;
    return start;
}

static inline int program(ictx *c, const pp_expr *e, int fi)
{
    if (c->ec) {
        size_t i = hash(e, fi) & c->ecmask;
        while (c->ec[i].e) {
            if (c->ec[i].e == e && c->ec[i].fi == fi)
                return c->ec[i].pc;
            i = (i + 1) & c->ecmask;
        }
    }
    return compile(c, e, fi);
}

/* A run of iterations (ictx.itr): c->itr.max lowered to the last
 * iteration up to which the program at pc, the frame's slots affine in
 * the iterations, gives the result it gave at the run's first (rc, v);
 * with slope, a result affine in them counts as one too (a callee's
 * argument), and *slope is its step.  A frame with no slot that varies
 * along the run gives the same result all along. */
static void run_keeps(ictx *c, const frame *fr, int pc, int rc, int64_t v, int64_t *slope)
{
    if (!fr->iv_c1 && !fr->args_c1)
        return;
    if (c->eval_dep && pp_inst_class_live(c)) {
        /* it read the thread's number or a value from it, while a class
         * is being recorded: where its result changes would differ from
         * member to member, and the trace notes results, not runs */
        c->itr.max = 0;
        return;
    }
    /* a range the interpreter cannot tell about is cut to where the
     * results may agree, and run again there, until they do */
    while (c->itr.max > 0) {
        int ok;
        int64_t at0, s = 0, cut = c->itr.max;
        if (pp_inst_run_range(c, fr, pc, 0, c->itr.max, &ok, &at0, slope ? &s : NULL, &cut)) {
            if (ok != (rc == 0) || (ok && at0 != v))
                c->itr.max = 0;   /* (cannot happen: the same program at the run's first) */
            else if (ok && slope)
                *slope = s;
            return;
        }
        c->itr.max = cut < c->itr.max ? cut : c->itr.max / 2;
    }
}

int pp_inst_eval(ictx *c, const frame *fr, const pp_expr *e, int64_t *out)
{
    c->eval_dep = 0;
    c->eval_note = -1;
    if (!e)
        return -1;
    int pc = program(c, e, fr->fi);
    if (pc < 0) {
        c->oom = 1;
        return -1;
    }
    if (c->code[pc].op == I_K && c->code[pc + 1].op == I_END) {
        *out = c->code[pc].v;       /* a constant: most loop bounds */
        return 0;
    }
    int64_t v = 0;
    int rc = run(c, fr, pc, &v);
    if (__builtin_expect(c->team_rec != NULL, 0))
        pp_inst_class_eval(c, fr, pc, rc, v);
    if (__builtin_expect(c->itr.on, 0) && !c->itr.sink)
        run_keeps(c, fr, pc, rc, v, NULL);
    if (rc)
        return -1;
    *out = v;
    return 0;
}

int pp_inst_eval_slope(ictx *c, const frame *fr, const pp_expr *e, int64_t *out, int64_t *slope)
{
    *slope = 0;
    c->itr.sink = 1;   /* (pp_inst_eval would hold it to one value) */
    int rc = pp_inst_eval(c, fr, e, out);
    c->itr.sink = 0;
    if (!e || c->itr.max <= 0)
        return rc;
    int pc = program(c, e, fr->fi);
    if (pc < 0) {
        c->oom = 1;
        return -1;
    }
    run_keeps(c, fr, pc, rc, *out, slope);
    return rc;
}

int pp_inst_run(ictx *c, const frame *fr, int pc, int64_t *out)
{
    return run(c, fr, pc, out);
}

void pp_inst_code_reset(ictx *c)
{
    if (c->ec)
        memset(c->ec, 0, sizeof *c->ec * (c->ecmask + 1));
    c->ecn = 0;
    c->ncode = 0;
}

void pp_inst_code_free(ictx *c)
{
    free(c->maxf);
    free(c->ec);
    free(c->code);
    free(c->stack);
    free(c->rankv);
    c->maxf = NULL;
    c->nmaxf = c->capmaxf = 0;
    c->ec = NULL;
    c->ecmask = c->ecn = 0;
    c->code = NULL;
    c->ncode = c->capcode = 0;
    c->stack = NULL;
    c->capstack = 0;
    c->rankv = NULL;
}
