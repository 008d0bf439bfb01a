/* macro-sizes.c - compile-time sizes: several builds of one program at
 * different values of its size macros made one model.
 *
 * A PolyBench- or NPB-style program takes its sizes from macros
 * (`-DN=100`, a header of `#define`s): its descriptors hold constants
 * (`count=100`, `(div 100 (nthreads))`, `dims=(100 100)`) and no problem
 * parameter.  The plugin lists the unit's size macros (`macro name=N
 * value=100` lines).  Given records of builds with other values, the
 * descriptors are the same but for integer constants; each constant that
 * differs between the records becomes the simplest expression of the
 * macros whose values differ that reproduces it in every record (tried in
 * order: N, N*N, N*M, N+b, a*N, N/a, a*N*N, N*N+b, a*N*M, N*M+b, N+M+b,
 * a*N+b, a*N*N+b, N*N+a*N+b, a*N*N+b*N), and the macro becomes a problem
 * parameter: a `(global N)` atom with a `gparam` per record, as a global
 * variable would be.  Coefficients come from the first build (two from
 * the first two that differ); the other builds check the rule.  With two
 * builds a two-coefficient rule is only fitted (it reproduces both by
 * construction): show says so and the commands warn.  A constant that
 * follows no rule keeps the first record's value, is listed, and the
 * model's count check (every symbolic count against every record's
 * counters) catches the loops it breaks (docs/model.md, "Compile-time
 * sizes").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "macro-internal.h"
#include "sym-internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_UNMATCHED 8

/* ----------------------------------------------------- the parallel walk */

static int same_node(const pp_expr *a, const pp_expr *b)
{
    if (a->kind != b->kind || a->nkids != b->nkids || a->ival != b->ival)
        return 0;
    if (!a->name || !b->name)
        return a->name == b->name;
    return strcmp(a->name, b->name) == 0;
}

/* out[k]: record k's expression e[k] with the constants that differ
 * between the records replaced (new references). */
static void unify(uctx *c, pp_expr *const *e, pp_expr **out)
{
    int n = c->n, same = 1, ints = 1;
    for (int k = 0; k < n; k++)
        out[k] = e[k] ? pp_expr_ref(e[k]) : NULL;
    for (int k = 0; k < n; k++)
        if (!e[k])
            return;
    for (int k = 1; k < n; k++)
        same &= same_node(e[0], e[k]);
    for (int k = 0; k < n; k++)
        ints &= e[k]->kind == PP_E_INT;
    if (ints) {
        long long *v = malloc(sizeof *v * (size_t)n);
        long tmp;
        int differ = 0, fits = v != NULL;
        for (int k = 0; fits && k < n; k++) {
            fits = pp_expr_is_int(e[k], &tmp);
            if (fits)
                v[k] = tmp;
            differ |= fits && v[k] != v[0];
        }
        if (fits && differ) {
            pp_expr *r = c->nv ? pp_macro_find_rule(c, v) : NULL;
            if (!r) {
                /* no rule: the first record's constant everywhere, listed */
                r = pp_expr_ref(e[0]);
                if (c->M->nunmatched < MAX_UNMATCHED) {
                    char buf[300];
                    snprintf(buf, sizeof buf, "%s: %lld, %lld%s", c->where, v[0], v[1], n > 2 ? ", ..." : "");
                    char *s = strdup(buf);
                    char **nu = realloc(c->M->unmatched, sizeof *nu * (size_t)(c->M->nunmatched + 1));
                    if (nu)
                        c->M->unmatched = nu;
                    if (s && nu)
                        c->M->unmatched[c->M->nunmatched] = s;
                    else {
                        free(s);
                        c->oom = 1;
                    }
                }
                if (!c->oom)
                    c->M->nunmatched++;
            }
            for (int k = 0; k < n; k++) {
                pp_expr_free(out[k]);
                out[k] = pp_expr_ref(r);
            }
            pp_expr_free(r);
        }
        free(v);
        return;
    }
    if (!same || e[0]->nkids == 0 || e[0]->kind == PP_E_INT)
        return;
    int nk = e[0]->nkids;
    pp_expr **col = malloc(sizeof *col * (size_t)n);
    pp_expr **res = calloc((size_t)n * (size_t)nk, sizeof *res);  /* res[j*n+k] */
    if (!col || !res) {
        free(col);
        free(res);
        c->oom = 1;
        return;
    }
    int changed = 0;
    for (int j = 0; j < nk; j++) {
        for (int k = 0; k < n; k++)
            col[k] = e[k]->kids[j];
        unify(c, col, res + (size_t)j * (size_t)n);
        for (int k = 0; k < n; k++)
            changed |= res[(size_t)j * (size_t)n + (size_t)k] != e[k]->kids[j];
    }
    if (changed) {
        pp_expr **kids = malloc(sizeof *kids * (size_t)nk);
        for (int k = 0; kids && k < n; k++) {
            for (int j = 0; j < nk; j++)
                kids[j] = res[(size_t)j * (size_t)n + (size_t)k];
            pp_expr *ne = e[k]->kind == PP_E_ADDR ? pp_expr_addr(e[k]->name, kids[0])
                                                  : pp_expr_op(e[k]->kind, nk, kids);
            if (ne) {
                pp_expr_free(out[k]);
                out[k] = ne;
            }
        }
        if (!kids)
            c->oom = 1;
        free(kids);
    }
    for (size_t q = 0; q < (size_t)n * (size_t)nk; q++)
        pp_expr_free(res[q]);
    free(res);
    free(col);
}

/* One field of every record's descriptor: slot[k] points into record k. */
static void unify_field(uctx *c, pp_expr ***slot)
{
    int n = c->n;
    pp_expr **e = calloc((size_t)n, sizeof *e), **out = calloc((size_t)n, sizeof *out);
    if (!e || !out) {
        free(e);
        free(out);
        c->oom = 1;
        return;
    }
    for (int k = 0; k < n; k++)
        e[k] = *slot[k];
    unify(c, e, out);
    for (int k = 0; k < n; k++) {
        pp_expr_free(*slot[k]);
        *slot[k] = out[k];
    }
    free(e);
    free(out);
}

#define FIELD(arr, idx, member, what)                                                   \
    do {                                                                                \
        for (int k_ = 0; k_ < n; k_++)                                                  \
            slot[k_] = &f[k_]->arr[idx].member;                                         \
        snprintf(c->where, sizeof c->where, "function %s %s", f[0]->name, what);        \
        unify_field(c, slot);                                                           \
    } while (0)

static void unify_func(uctx *c, pp_dfunc **f)
{
    int n = c->n;
    for (int k = 1; k < n; k++)
        if (f[k]->nloops != f[0]->nloops || f[k]->nbranches != f[0]->nbranches ||
            f[k]->nevents != f[0]->nevents || f[k]->ncalls != f[0]->ncalls || f[k]->nshapes != f[0]->nshapes)
            return;     /* another structure: pp_desc_differs says so */
    pp_expr ***slot = malloc(sizeof *slot * (size_t)n);
    if (!slot) {
        c->oom = 1;
        return;
    }
    char what[120];
    for (int i = 0; i < f[0]->nloops; i++) {
        pp_dloop *l = &f[0]->loops[i];
        snprintf(what, sizeof what, "loop %d (line %d)", l->id, l->line);
        char w2[160];
        snprintf(w2, sizeof w2, "%s count", what);
        FIELD(loops, i, count, w2);
        snprintf(w2, sizeof w2, "%s init", what);
        FIELD(loops, i, init, w2);
        snprintf(w2, sizeof w2, "%s bound", what);
        FIELD(loops, i, bound, w2);
        snprintf(w2, sizeof w2, "%s step", what);
        FIELD(loops, i, step, w2);
        snprintf(w2, sizeof w2, "%s sched", what);
        FIELD(loops, i, sched, w2);
        /* a stride in the sizes (a column walk of N * 8 bytes) is a step
         * in the program's variables: '?' (0) in every record */
        for (int s = 0; s < l->nstreams; s++) {
            int differ = 0;
            for (int k = 1; k < n; k++)
                differ |= f[k]->loops[i].nstreams != l->nstreams || f[k]->loops[i].stream_step[s] != l->stream_step[s];
            for (int k = 0; differ && k < n; k++)
                if (s < f[k]->loops[i].nstreams)
                    f[k]->loops[i].stream_step[s] = 0;
        }
    }
    for (int i = 0; i < f[0]->nbranches; i++) {
        snprintf(what, sizeof what, "branch %d (line %d) condition", f[0]->branches[i].id, f[0]->branches[i].line);
        FIELD(branches, i, cond, what);
    }
    for (int i = 0; i < f[0]->nevents; i++) {
        pp_devent *ev = &f[0]->events[i];
        snprintf(what, sizeof what, "event %d (line %d)", ev->id, ev->line);
        FIELD(events, i, nthreads, what);
        FIELD(events, i, obj, what);
        FIELD(events, i, arg, what);
        FIELD(events, i, count, what);
        FIELD(events, i, peer, what);
        FIELD(events, i, tag, what);
        FIELD(events, i, root, what);
        FIELD(events, i, rcount, what);
        FIELD(events, i, rpeer, what);
        FIELD(events, i, rtag, what);
        int same = 1;
        for (int k = 1; k < n; k++)
            same &= f[k]->events[i].ndata == ev->ndata;
        for (int j = 0; same && j < ev->ndata; j++)
            FIELD(events, i, data_val[j], what);
    }
    for (int i = 0; i < f[0]->ncalls; i++) {
        pp_dcall *cl = &f[0]->calls[i];
        snprintf(what, sizeof what, "call %d (line %d) to %s", cl->id, cl->line, cl->callee ? cl->callee : "?");
        int same = 1;
        for (int k = 1; k < n; k++)
            same &= f[k]->calls[i].nargs == cl->nargs;
        for (int j = 0; same && j < cl->nargs; j++)
            FIELD(calls, i, args[j], what);
    }
    for (int i = 0; i < f[0]->nshapes; i++) {
        pp_dshape *s = &f[0]->shapes[i];
        snprintf(what, sizeof what, "array %s (line %d)", s->name ? s->name : "?", s->line);
        FIELD(shapes, i, elem, what);
        FIELD(shapes, i, bytes, what);
        int same = 1;
        for (int k = 1; k < n; k++)
            same &= f[k]->shapes[i].ndims == s->ndims;
        for (int j = 0; same && j < s->ndims; j++)
            FIELD(shapes, i, dims[j], what);
    }
    free(slot);
}

/* ------------------------------------------------------------ the macros */

static int add_macro(pp_macros *M, const char *name, int n)
{
    pp_msize *nm = realloc(M->macros, sizeof *nm * (size_t)(M->nmacros + 1));
    if (!nm)
        return -1;
    M->macros = nm;
    pp_msize *m = &M->macros[M->nmacros];
    memset(m, 0, sizeof *m);
    m->name = strdup(name);
    m->value = calloc((size_t)n, sizeof *m->value);
    if (!m->name || !m->value) {
        free(m->name);
        free(m->value);
        return -1;
    }
    M->nmacros++;
    return 0;
}

/* Every record's macros: the union of its functions' lines.  A macro a
 * record lacks, or has twice with two values, is a conflict. */
static int collect(pp_record **recs, int n, pp_macros *M)
{
    for (int k = 0; k < n; k++)
        for (int g = 0; g < recs[k]->nfuncs; g++)
            for (int q = 0; q < recs[k]->funcs[g].nmacros; q++) {
                const pp_dmacro *dm = &recs[k]->funcs[g].macros[q];
                if (!pp_macros_find(M, dm->name) && add_macro(M, dm->name, n))
                    return -1;
            }
    for (int i = 0; i < M->nmacros; i++) {
        pp_msize *m = &M->macros[i];
        for (int k = 0; k < n; k++) {
            int seen = 0;
            for (int g = 0; g < recs[k]->nfuncs; g++)
                for (int q = 0; q < recs[k]->funcs[g].nmacros; q++) {
                    const pp_dmacro *dm = &recs[k]->funcs[g].macros[q];
                    if (strcmp(dm->name, m->name))
                        continue;
                    if (seen && dm->value != m->value[k])
                        m->conflict = 1;
                    m->value[k] = dm->value;
                    seen = 1;
                }
            if (!seen)
                m->conflict = 1;
            if (k > 0 && m->value[k] != m->value[0])
                m->varies = 1;
        }
        if (m->conflict)
            m->varies = 0;
    }
    return 0;
}

/* The static array an expression sizes: dims holding (global NAME), or,
 * with one build, the macro's value. */
static int sizes(const pp_expr *e, const pp_msize *m)
{
    long v;
    if (!e)
        return 0;
    if (e->kind == PP_E_GLOBAL && e->name && !strcmp(e->name, m->name))
        return 1;
    if (e->kind == PP_E_INT)
        return !m->varies && pp_expr_is_int(e, &v) && v == m->value[0];
    for (int j = 0; j < e->nkids; j++)
        if (sizes(e->kids[j], m))
            return 1;
    return 0;
}

static void find_arrays(const pp_record *r, pp_macros *M)
{
    for (int i = 0; i < M->nmacros; i++) {
        pp_msize *m = &M->macros[i];
        if (m->conflict || (m->varies && !m->used))
            continue;
        for (int g = 0; g < r->nfuncs && !m->array; g++)
            for (int s = 0; s < r->funcs[g].nshapes && !m->array; s++) {
                const pp_dshape *sh = &r->funcs[g].shapes[s];
                if (!sh->kind || strcmp(sh->kind, "static") || !sh->name)
                    continue;
                for (int d = 0; d < sh->ndims && !m->array; d++)
                    if (sizes(sh->dims[d], m))
                        m->array = strdup(sh->name);
            }
    }
}

static int add_gparam(pp_record *r, const char *name, long value)
{
    for (int i = 0; i < r->ngparams; i++)
        if (!strcmp(r->gparams[i].name, name))
            return 0;   /* a global of that name: a macro cannot be one in
                           the same unit; another unit's wins */
    pp_rgparam *ng = realloc(r->gparams, sizeof *ng * (size_t)(r->ngparams + 1));
    if (!ng)
        return -1;
    r->gparams = ng;
    r->gparams[r->ngparams].name = strdup(name);
    r->gparams[r->ngparams].value = value;
    if (!r->gparams[r->ngparams].name)
        return -1;
    r->ngparams++;
    return 0;
}

int pp_macros_unify(pp_record **recs, int n, pp_macros *M, char *err, size_t errlen)
{
    memset(M, 0, sizeof *M);
    M->nrec = n;
    uctx c = {0};
    c.recs = recs;
    c.n = n;
    c.M = M;
    if (collect(recs, n, M))
        goto oom;
    /* the distinct builds, by the values of their macros */
    c.rep = calloc((size_t)n + 1, sizeof *c.rep);
    c.vary = calloc((size_t)M->nmacros + 1, sizeof *c.vary);
    c.x = calloc((size_t)M->nmacros + 1, sizeof *c.x);
    if (!c.rep || !c.vary || !c.x)
        goto oom;
    for (int k = 0; k < n; k++) {
        int seen = 0;
        for (int b = 0; b < c.nb && !seen; b++) {
            int eq = 1;
            for (int i = 0; i < M->nmacros; i++)
                eq &= M->macros[i].conflict || M->macros[i].value[k] == M->macros[i].value[c.rep[b]];
            seen = eq;
        }
        if (!seen)
            c.rep[c.nb++] = k;
    }
    M->nbuilds = c.nb;
    for (int i = 0; i < M->nmacros; i++)
        if (M->macros[i].varies) {
            c.x[c.nv] = malloc(sizeof **c.x * (size_t)n);
            if (!c.x[c.nv])
                goto oom;
            for (int k = 0; k < n; k++)
                c.x[c.nv][k] = M->macros[i].value[k];
            c.vary[c.nv++] = i;
        }
    /* macros that vary together: which one a constant follows is a guess */
    for (int i = 0; i < c.nv && !M->alias; i++)
        for (int j = i + 1; j < c.nv && !M->alias; j++) {
            int eq = 1;
            for (int k = 0; k < n; k++)
                eq &= c.x[i][k] == c.x[j][k];
            if (eq) {
                char buf[200];
                snprintf(buf, sizeof buf, "%s and %s", M->macros[c.vary[i]].name, M->macros[c.vary[j]].name);
                M->alias = strdup(buf);
            }
        }
    if (n > 1 && c.nv > 0) {
        pp_dfunc **f = malloc(sizeof *f * (size_t)n);
        if (!f)
            goto oom;
        for (int g = 0; g < recs[0]->nfuncs && !c.oom; g++) {
            int all = 1;
            f[0] = &recs[0]->funcs[g];
            for (int k = 1; k < n && all; k++) {
                int h = pp_record_func_index(recs[k], f[0]->name);
                all = h >= 0;
                if (all)
                    f[k] = &recs[k]->funcs[h];
            }
            if (all)
                unify_func(&c, f);
        }
        free(f);
        if (c.oom)
            goto oom;
        for (int i = 0; i < M->nmacros; i++)
            for (int k = 0; M->macros[i].used && k < n; k++)
                if (add_gparam(recs[k], M->macros[i].name, M->macros[i].value[k]))
                    goto oom;
    }
    find_arrays(recs[0], M);
    for (int i = 0; i < c.nv; i++)
        free(c.x[i]);
    free(c.x);
    free(c.vary);
    free(c.rep);
    return 0;
oom:
    for (int i = 0; c.x && i < c.nv; i++)
        free(c.x[i]);
    free(c.x);
    free(c.vary);
    free(c.rep);
    pp_macros_free(M);
    snprintf(err, errlen, "out of memory");
    return -1;
}

void pp_macros_free(pp_macros *M)
{
    for (int i = 0; i < M->nmacros; i++) {
        free(M->macros[i].name);
        free(M->macros[i].value);
        free(M->macros[i].array);
    }
    free(M->macros);
    for (int i = 0; i < M->nrules; i++)
        free(M->rules[i].rule);
    free(M->rules);
    for (int i = 0; i < M->nunmatched && i < MAX_UNMATCHED; i++)
        free(M->unmatched[i]);
    free(M->unmatched);
    free(M->alias);
    memset(M, 0, sizeof *M);
}

const pp_msize *pp_macros_find(const pp_macros *M, const char *name)
{
    for (int i = 0; i < M->nmacros; i++)
        if (!strcmp(M->macros[i].name, name))
            return &M->macros[i];
    return NULL;
}

const char *pp_macros_hint(const pp_macros *M, char *buf, size_t n)
{
    const pp_msize *m = NULL;
    for (int i = 0; i < M->nmacros && !m; i++)
        if (!M->macros[i].conflict && M->macros[i].array)
            m = &M->macros[i];
    for (int i = 0; i < M->nmacros && !m; i++)
        if (!M->macros[i].conflict)
            m = &M->macros[i];
    if (!m)
        return NULL;
    long other = m->value[0] > 0 && m->value[0] < (1L << 40) ? 2 * m->value[0] : 200;
    snprintf(buf, n, "build it again with another value (e.g. -D%s=%ld) and give both records to predict other sizes",
             m->name, other);
    return buf;
}

void pp_macros_text(const pp_macros *M, int has_params, FILE *f)
{
    /* one build of a program sized at run time: its macros are limits
     * (MAXP, MAXN), not sizes */
    if (!M->nmacros || (M->nbuilds <= 1 && has_params))
        return;
    int used = 0;
    for (int i = 0; i < M->nmacros; i++)
        used += M->macros[i].used;
    fprintf(f, "\ncompile-time sizes (macros)%s:\n",
            used ? "" : M->nbuilds > 1 ? ": the builds differ in no macro a constant follows" : "");
    int others = 0;
    for (int i = 0; i < M->nmacros; i++) {
        const pp_msize *m = &M->macros[i];
        /* the ones that matter: sizes; the rest (flags, limits) counted */
        if (!m->varies && !m->used && !m->array) {
            others++;
            continue;
        }
        fprintf(f, "  %s =", m->name);
        for (int k = 0; k < M->nrec && k < 6; k++)
            fprintf(f, "%s%ld", k ? ", " : " ", m->value[k]);
        if (M->nrec > 6)
            fprintf(f, ", ...");
        if (m->conflict)
            fprintf(f, "  (not used: two values in one program, or missing from a record)");
        else if (m->used)
            fprintf(f, "  problem parameter (--set %s=...)", m->name);
        else if (m->varies)
            fprintf(f, "  (differs, but no constant follows it)");
        if (m->array)
            fprintf(f, "; sizes static array %s: this binary runs no other size", m->array);
        fputc('\n', f);
    }
    if (others)
        fprintf(f, "  %d other macro%s (no static array's size%s)\n", others, others == 1 ? "" : "s",
                M->nbuilds > 1 ? ", the same in every build" : "");
    for (int i = 0; i < M->nrules; i++)
        fprintf(f, M->rules[i].checked > 0 ? "  rule %s: %d constant%s, %s %d build(s) beyond those fitted\n"
                                           : "  rule %s: %d constant%s, %s\n", M->rules[i].rule, M->rules[i].uses,
                M->rules[i].uses == 1 ? "" : "s",
                M->rules[i].checked > 0 ? "checked on" : "fitted to the builds, not checked (a third build would check it)",
                M->rules[i].checked > 0 ? M->rules[i].checked : 0);
    if (M->alias)
        fprintf(f, "  %s have equal values in every build: a constant is taken to follow the first; "
                   "build with different values to tell them apart\n", M->alias);
    for (int i = 0; i < M->nunmatched && i < MAX_UNMATCHED; i++)
        fprintf(f, "  no rule: %s (kept constant)\n", M->unmatched[i]);
    if (M->nunmatched > MAX_UNMATCHED)
        fprintf(f, "  no rule: %d more constants (kept constant)\n", M->nunmatched - MAX_UNMATCHED);
    char hint[200];
    if (M->nbuilds <= 1 && pp_macros_hint(M, hint, sizeof hint))
        fprintf(f, "  one build: %s\n", hint);
}
