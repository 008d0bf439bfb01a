/* equations.c - the symbolic equations of a program model (equations.h):
 * the walk's state (eq-walk.c walks the model as instantiate.c interprets
 * it, with symbols instead of values).  Each cost the instantiation adds
 * (a loop's iterations and entries, a call, the fixed cost of a segment
 * ending at an event) becomes a term here: the cost times its count, the
 * count wrapped in the sums of the enclosing loops over their variables'
 * ranges (eq-tree.c finds the closed forms) and in the conditions the
 * model can evaluate, and added to the program and to every function and
 * loop the walk is inside.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "eq-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *r = realloc(p, n ? n : 1);
    if (!r) {
        fputs("perfpred: out of memory\n", stderr);
        abort();
    }
    return r;
}

/* ---- names -------------------------------------------------------------- */

/* Names a CAS would read as something else (Python keywords, the SymPy
 * names the output imports, Maxima's words and constants, the names the
 * outputs define) get a suffix. */
static const char *const reserved[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
    "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "Symbol", "Sum",
    "Piecewise", "sign", "floor", "ceiling", "Min", "Max", "Mod", "Abs", "Eq", "Ne", "And", "Or", "Not", "log", "T",
    "recorded", "asked", "symbols", "then", "do", "step", "thru", "unless", "sum", "min", "max", "mod",
    "truncate", "charfun", "equal", "notequal", "true", "false", "abs", "inf", "minf", "float", "ev", "nouns",
    "E", "I", "S", "oo", "pi", "tid", "unknown", "load", "rank", NULL};

int pp_eq_name_used(const wctx *w, const char *s)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(reserved[i], s) == 0)
            return 1;
    for (int i = 0; i < w->nnames; i++)
        if (strcmp(w->names[i], s) == 0)
            return 1;
    return 0;
}

/* A fresh identifier from base, in use until pp_eq_names_pop. */
pp_expr *pp_eq_fresh(wctx *w, const char *base)
{
    char b[80], s[96];
    size_t n = 0;
    for (const char *p = base && *base ? base : "i"; *p && n < sizeof b - 1; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (n && c >= '0' && c <= '9');
        b[n++] = ok ? c : '_';
    }
    b[n] = '\0';
    snprintf(s, sizeof s, "%s", b);
    for (int k = 2; pp_eq_name_used(w, s); k++)
        snprintf(s, sizeof s, "%s_%d", b, k);
    w->names = xrealloc(w->names, sizeof *w->names * (size_t)(w->nnames + 1));
    w->names[w->nnames++] = strdup(s);
    return pp_expr_sym(s);
}

void pp_eq_names_pop(wctx *w, int mark)
{
    while (w->nnames > mark)
        free(w->names[--w->nnames]);
}

/* ---- terms, levels, blocks ---------------------------------------------- */

static void block_add(pp_eqblock *b, int sync, double ns, const char *what, pp_cx *count)
{
    pp_eqterm **t = sync ? &b->sync : &b->terms;
    int *n = sync ? &b->nsync : &b->nterms;
    for (int i = 0; i < *n; i++)
        if ((*t)[i].ns == ns && strcmp((*t)[i].what, what) == 0) {
            (*t)[i].count = pp_cx_add((*t)[i].count, count);
            return;
        }
    *t = xrealloc(*t, sizeof **t * (size_t)(*n + 1));
    (*t)[*n] = (pp_eqterm){ns, strdup(what), count};
    (*n)++;
}

void pp_eq_term(wctx *w, int sync, double ns, const char *what, pp_cx *count)
{
    double c = ns * w->mult;
    if (!(c != 0) || w->nb == 0) {
        pp_cx_free(count);
        return;
    }
    for (int i = w->nlv - 1; i >= 0; i--) {
        const eqlevel *l = &w->lv[i];
        if (l->skip)
            continue;
        if (l->cond)
            count = pp_cx_cond(pp_expr_ref(l->cond), count);
        else
            count = pp_cx_sum(count, l->var, l->lo, l->hi, l->n);
    }
    for (int i = 0; i < w->nb; i++) {
        pp_eqblock *b = &w->q->blocks[w->bstack[i]];
        block_add(b, sync, c, what, pp_cx_ref(count));
    }
    pp_cx_free(count);
}

void pp_eq_push_level(wctx *w, eqlevel l)
{
    if (w->nlv == w->caplv) {
        w->caplv = w->caplv ? 2 * w->caplv : 16;
        w->lv = xrealloc(w->lv, sizeof *w->lv * (size_t)w->caplv);
    }
    w->lv[w->nlv++] = l;
}

void pp_eq_pop_level(wctx *w)
{
    eqlevel *l = &w->lv[--w->nlv];
    pp_facts_pop(&w->F, l->fmark);
    pp_expr_free(l->cond);
    pp_expr_free(l->var);
    pp_expr_free(l->lo);
    pp_expr_free(l->hi);
    pp_expr_free(l->n);
}

void pp_eq_push_cond(wctx *w, pp_expr *c)
{
    int mark = w->F.n;
    pp_facts_add_cond(&w->F, c, 1);
    pp_eq_push_level(w, (eqlevel){.cond = c, .fmark = mark, .fi = -1, .loop = -1});
}

void pp_eq_push_block(wctx *w, int b)
{
    w->bstack = xrealloc(w->bstack, sizeof *w->bstack * (size_t)(w->nb + 1));
    w->bstack[w->nb++] = b;
    w->q->blocks[b].reached = 1;
}

void pp_eq_note(pp_equations *q, const char *s)
{
    for (int i = 0; i < q->nnotes; i++)
        if (strcmp(q->notes[i], s) == 0)
            return;
    q->notes = xrealloc(q->notes, sizeof *q->notes * (size_t)(q->nnotes + 1));
    q->notes[q->nnotes++] = strdup(s);
}

static int new_block(pp_equations *q, pp_eqbkind kind, const char *id, const char *where, int f, int k, int depth)
{
    q->blocks = xrealloc(q->blocks, sizeof *q->blocks * (size_t)(q->nblocks + 1));
    pp_eqblock *b = &q->blocks[q->nblocks];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->id = strdup(id);
    b->where = where ? strdup(where) : NULL;
    b->func = f;
    b->loop = k;
    b->depth = depth;
    return q->nblocks++;
}

static void add_sym(pp_equations *q, const char *name, const char *what, int param)
{
    for (int i = 0; i < q->nsyms; i++)
        if (strcmp(q->syms[i].name, name) == 0)
            return;
    q->syms = xrealloc(q->syms, sizeof *q->syms * (size_t)(q->nsyms + 1));
    q->syms[q->nsyms++] = (pp_eqsym){strdup(name), strdup(what), param};
}

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "?";
}

/* The blocks: the program, then per function the function and its loops
 * in the descriptor's order (a loop's parent before it). */
static void make_blocks(wctx *w)
{
    const pp_prog *m = w->m;
    char id[300], where[300];
    new_block(w->q, PP_EQB_PROGRAM, "program", NULL, m->main_func, -1, 0);
    w->fblock = calloc((size_t)m->nfuncs + 1, sizeof *w->fblock);
    w->lblock = calloc((size_t)m->nfuncs + 1, sizeof *w->lblock);
    if (!w->fblock || !w->lblock)
        abort();
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        snprintf(where, sizeof where, "%s:%d", base(d->file), d->line);
        w->fblock[f] = new_block(w->q, PP_EQB_FUNC, d->name, where, f, -1, 0);
        w->lblock[f] = calloc((size_t)d->nloops + 1, sizeof **w->lblock);
        if (!w->lblock[f])
            abort();
        for (int k = 0; k < d->nloops; k++) {
            int depth = 1;
            for (int p = d->loops[k].parent, guard = 0; p >= 0 && guard < 64; guard++) {
                int pi = pp_model_scope_of(&m->funcs[f], p);
                if (pi < 0)
                    break;
                depth++;
                p = d->loops[pi].parent;
            }
            snprintf(id, sizeof id, "%s:L%d", d->name, d->loops[k].id);
            snprintf(where, sizeof where, "%s:%d", base(d->file), d->loops[k].line);
            w->lblock[f][k] = new_block(w->q, PP_EQB_LOOP, id, where, f, k, depth);
        }
    }
}

/* The parameters and P: symbols, and names taken. */
static void make_syms(wctx *w)
{
    const pp_prog *m = w->m;
    char what[300];
    for (int i = 0; i < m->nparams; i++) {
        const pp_param *p = &m->params[i];
        int pf = p->func >= 0 && p->func < m->nfuncs ? p->func : -1;
        w->names = xrealloc(w->names, sizeof *w->names * (size_t)(w->nnames + 1));
        w->names[w->nnames++] = strdup(p->name);
        if (p->per_rank)
            continue;   /* rank 0's value, not a symbol (eq-walk.c) */
        if (p->is_global)
            snprintf(what, sizeof what, "parameter: global %s", p->src);
        else
            snprintf(what, sizeof what, "parameter: %s in %s", p->src, pf >= 0 ? m->funcs[pf].d->name : "?");
        add_sym(w->q, p->name, what, i);
    }
    int p_is_param = pp_prog_param_index(m, "P") >= 0;
    add_sym(w->q, "P", m->pkind == PP_P_MPI ? "processors: MPI ranks"
                       : m->pkind == PP_P_PARAM ? "processors: the threads the program creates"
                       : m->pkind == PP_P_OMP ? "processors: the OpenMP team size" : "processors", -1);
    if (!p_is_param) {
        w->names = xrealloc(w->names, sizeof *w->names * (size_t)(w->nnames + 1));
        w->names[w->nnames++] = strdup("P");
    }
    /* P: the nameless (nprocs) atom, which prints as P and which the CAS
     * printers know to be positive */
    w->P = pp_expr_atom(PP_E_NPROCS, NULL, 0);
}

int pp_equations_build(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P_at, pp_equations *out,
                       char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    wctx w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.pv = pv;
    w.mach = mach;
    w.q = out;
    w.mult = 1;
    w.P_at = P_at > 0 ? P_at : m->p_recorded > 0 ? m->p_recorded : 1;
    pp_facts_init(&w.F);
    w.unknown = pp_expr_parse("?", NULL, err, errlen);
    make_blocks(&w);
    make_syms(&w);
    int rc = m->main_func < 0 ? -1 : pp_eq_walk(&w);
    if (m->main_func < 0)
        snprintf(w.err, sizeof w.err, "the record has no instrumented 'main'");
    if (w.cant_follow)
        pp_eq_note(out, "some loops' counts are the run's average per entry (a symbol the model cannot "
                        "follow, or no symbolic count): constants in the equations");
    for (int f = 0; f < m->nfuncs; f++)
        free(w.lblock[f]);
    free(w.lblock);
    free(w.fblock);
    free(w.bstack);
    while (w.nlv > 0)
        pp_eq_pop_level(&w);
    free(w.lv);
    pp_facts_free(&w.F);
    pp_eq_names_pop(&w, 0);
    free(w.names);
    pp_expr_free(w.P);
    pp_expr_free(w.unknown);
    if (rc) {
        snprintf(err, errlen, "%s", w.err[0] ? w.err : "the equations could not be built");
        pp_equations_free(out);
        return -1;
    }
    return 0;
}

static void free_terms(pp_eqterm *t, int n)
{
    for (int i = 0; i < n; i++) {
        free(t[i].what);
        pp_cx_free(t[i].count);
    }
    free(t);
}

void pp_equations_free(pp_equations *q)
{
    for (int i = 0; i < q->nblocks; i++) {
        free(q->blocks[i].id);
        free(q->blocks[i].where);
        free_terms(q->blocks[i].terms, q->blocks[i].nterms);
        free_terms(q->blocks[i].sync, q->blocks[i].nsync);
    }
    free(q->blocks);
    for (int i = 0; i < q->nsyms; i++) {
        free(q->syms[i].name);
        free(q->syms[i].what);
    }
    free(q->syms);
    for (int i = 0; i < q->nnotes; i++)
        free(q->notes[i]);
    free(q->notes);
    memset(q, 0, sizeof *q);
}
