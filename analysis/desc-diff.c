/* desc-diff.c - do two descriptors of one function describe the same code?
 *
 * Several records given to one command must come from one program
 * (model.c, map_records).  Two runs of one binary carry the same
 * descriptor text, and so do two builds of one source with the same
 * options; a source edited between two records changes it, sometimes only
 * in an expression on the same line (`i < n` become `i < 2*n`), which the
 * model would otherwise take for a count that follows no rule.
 *
 * Compared: everything the model is built from (structure, places, the
 * loops' init/bound/step/count, conditions, event and call arguments,
 * shapes, parameters, static operation counts and memory streams).  Not
 * compared: the file's path (it moves with the build directory), the lines
 * of shapes and parameters, a loop's `why`, and what the reader itself
 * derives from the run's environment: the counts, flags and guard that
 * pp_desc_sched_apply gives the loops of a runtime schedule from the
 * record's OMP_SCHEDULE.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC "was compiled from another source: "
#define OPT "was compiled from another source or with other options: "

static int sdiff(const char *a, const char *b)
{
    if (!a || !b)
        return a != b;
    return strcmp(a, b) != 0;
}

static int ediff(const pp_expr *a, const pp_expr *b)
{
    return pp_expr_compare(a, b) != 0;
}

/* An expression for the message: infix, shortened; "none" when absent. */
static void show(char *out, size_t n, const pp_expr *e)
{
    if (!e) {
        snprintf(out, n, "none");
        return;
    }
    char *s = pp_expr_to_infix(e);
    if (!s)
        s = pp_expr_to_sexpr(e);
    if (!s) {
        snprintf(out, n, "?");
        return;
    }
    if (strlen(s) > 60)
        snprintf(out, n, "%.57s...", s);
    else
        snprintf(out, n, "%s", s);
    free(s);
}

/* "WHERE has FIELD B, not A" (B from the other record, A from the first). */
static const char *say_expr(char *buf, size_t n, const char *where, const char *field, const pp_expr *b,
                            const pp_expr *a)
{
    char sa[72], sb[72];
    show(sa, sizeof sa, a);
    show(sb, sizeof sb, b);
    snprintf(buf, n, SRC "%s has %s %s, not %s", where, field, sb, sa);
    return buf;
}

static const char *say(char *buf, size_t n, const char *how, const char *where, const char *what)
{
    snprintf(buf, n, "%s%s %s", how, where, what);
    return buf;
}

static int ops_differ(const long *a, const long *b)
{
    for (int k = 0; k < PP_NOPS; k++)
        if (a[k] != b[k])
            return 1;
    return 0;
}

static const char *cmp_name(pp_cmp c)
{
    static const char *const names[] = { "none", "<", "<=", ">", ">=", "!=" };
    return (unsigned)c < sizeof names / sizeof *names ? names[c] : "?";
}

static const char *loop_differs(const pp_dloop *a, const pp_dloop *b, char *buf, size_t n)
{
    char where[64];
    snprintf(where, sizeof where, "its loop L%d (line %d)", b->id, b->line);
    if (ediff(a->init, b->init))
        return say_expr(buf, n, where, "init", b->init, a->init);
    if (ediff(a->bound, b->bound))
        return say_expr(buf, n, where, "bound", b->bound, a->bound);
    if (ediff(a->step, b->step))
        return say_expr(buf, n, where, "step", b->step, a->step);
    if (a->cmp != b->cmp) {
        char w[48];
        snprintf(w, sizeof w, "has the test %s, not %s", cmp_name(b->cmp), cmp_name(a->cmp));
        return say(buf, n, SRC, where, w);
    }
    if (sdiff(a->iv, b->iv)) {
        char w[160];
        snprintf(w, sizeof w, "has the induction variable %.60s, not %.60s", b->iv ? b->iv : "none",
                 a->iv ? a->iv : "none");
        return say(buf, n, SRC, where, w);
    }
    /* the loops of a runtime schedule get their counts, flags and guard
     * from the record's OMP_SCHEDULE (desc-sched.c): the descriptor's own
     * are in sched= */
    int sched = ((a->flags | b->flags) & PP_LF_OMP_SCHED) != 0;
    if (!sched && ediff(a->count, b->count))
        return say_expr(buf, n, where, "count", b->count, a->count);
    if (ediff(a->sched, b->sched))
        return say_expr(buf, n, where, "schedule", b->sched, a->sched);
    if (a->shape != b->shape || a->pos != b->pos ||
        ((a->flags ^ b->flags) & ~PP_LF_OMP_SCHED) != 0)
        return say(buf, n, SRC, where, "has another form or place");
    if (!sched && (a->guard_branch != b->guard_branch || a->guard_true != b->guard_true))
        return say(buf, n, SRC, where, "is under another condition");
    if (ops_differ(a->ops, b->ops))
        return say(buf, n, OPT, where, "has other operation counts");
    int mem = a->nstreams != b->nstreams || a->memx != b->memx || a->memg != b->memg || a->memc != b->memc ||
              a->has_mem != b->has_mem;
    for (int s = 0; !mem && s < a->nstreams && s < PP_MAX_STREAMS; s++)
        mem = a->stream_step[s] != b->stream_step[s] || a->stream_reuse[s] != b->stream_reuse[s] ||
              a->stream_written[s] != b->stream_written[s] || a->stream_rows[s] != b->stream_rows[s];
    if (mem)
        return say(buf, n, OPT, where, "accesses memory otherwise");
    return NULL;
}

static const char *branch_differs(const pp_dbranch *a, const pp_dbranch *b, char *buf, size_t n)
{
    char where[64];
    snprintf(where, sizeof where, "its branch B%d (line %d)", b->id, b->line);
    if (a->line != b->line || a->slot != b->slot || a->loop != b->loop || a->pos != b->pos) {
        char w[48];
        snprintf(w, sizeof w, "is not on line %d", a->line);
        return say(buf, n, SRC, where, a->line != b->line ? w : "is in another place");
    }
    if (ediff(a->cond, b->cond))
        return say_expr(buf, n, where, "condition", b->cond, a->cond);
    int fs = a->nfslot != b->nfslot;
    for (int k = 0; !fs && k < a->nfslot && k < PP_MAX_FSLOT; k++)
        fs = a->fslot[k] != b->fslot[k];
    if (fs || a->guard_branch != b->guard_branch || a->guard_true != b->guard_true)
        return say(buf, n, SRC, where, "is under another condition or counted otherwise");
    return NULL;
}

static const char *event_differs(const pp_devent *a, const pp_devent *b, char *buf, size_t n)
{
    char where[80];
    snprintf(where, sizeof where, "its event %d (%s, line %d)", b->id, pp_evkind_name(b->kind), b->line);
    if (a->kind != b->kind || a->line != b->line) {
        snprintf(buf, n, SRC "its event %d is %s on line %d, not %s on line %d", b->id, pp_evkind_name(b->kind),
                 b->line, pp_evkind_name(a->kind), a->line);
        return buf;
    }
    if (a->slot != b->slot || a->loop != b->loop || a->pos != b->pos)
        return say(buf, n, SRC, where, "is in another place");
    if (a->guard_branch != b->guard_branch || a->guard_true != b->guard_true)
        return say(buf, n, SRC, where, "is under another condition");
    static const char *const names[] = { "nthreads", "obj", "arg", "count", "peer", "tag", "root",
                                         "rcount", "rpeer", "rtag" };
    const pp_expr *ea[] = { a->nthreads, a->obj, a->arg, a->count, a->peer, a->tag, a->root,
                            a->rcount, a->rpeer, a->rtag };
    const pp_expr *eb[] = { b->nthreads, b->obj, b->arg, b->count, b->peer, b->tag, b->root,
                            b->rcount, b->rpeer, b->rtag };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (ediff(ea[k], eb[k]))
            return say_expr(buf, n, where, names[k], eb[k], ea[k]);
    if (sdiff(a->callee, b->callee) || sdiff(a->child, b->child))
        return say(buf, n, SRC, where, "calls another function");
    if (a->implicit != b->implicit || a->comm != b->comm || sdiff(a->type, b->type) || sdiff(a->rtype, b->rtype))
        return say(buf, n, SRC, where, "has other arguments");
    if (a->ndata != b->ndata)
        return say(buf, n, SRC, where, "shares other data with its threads");
    for (int k = 0; k < a->ndata; k++) {
        if (sdiff(a->data_name[k], b->data_name[k]))
            return say(buf, n, SRC, where, "shares other data with its threads");
        if (ediff(a->data_val[k], b->data_val[k])) {
            char field[80];
            snprintf(field, sizeof field, "shared %.60s", a->data_name[k] ? a->data_name[k] : "?");
            return say_expr(buf, n, where, field, b->data_val[k], a->data_val[k]);
        }
    }
    return NULL;
}

static const char *call_differs(const pp_dcall *a, const pp_dcall *b, char *buf, size_t n)
{
    char where[64];
    snprintf(where, sizeof where, "its call %d (line %d)", b->id, b->line);
    if (a->line != b->line || a->slot != b->slot || a->loop != b->loop || a->pos != b->pos) {
        char w[48];
        snprintf(w, sizeof w, "is not on line %d", a->line);
        return say(buf, n, SRC, where, a->line != b->line ? w : "is in another place");
    }
    if (sdiff(a->callee, b->callee)) {
        char w[160];
        snprintf(w, sizeof w, "calls %.60s, not %.60s", b->callee ? b->callee : "?", a->callee ? a->callee : "?");
        return say(buf, n, SRC, where, w);
    }
    if (a->guard_branch != b->guard_branch || a->guard_true != b->guard_true)
        return say(buf, n, SRC, where, "is under another condition");
    if (a->nargs != b->nargs)
        return say(buf, n, SRC, where, "has another number of arguments");
    for (int k = 0; k < a->nargs; k++)
        if (ediff(a->args[k], b->args[k])) {
            char field[32];
            snprintf(field, sizeof field, "argument %d", k + 1);
            return say_expr(buf, n, where, field, b->args[k], a->args[k]);
        }
    return NULL;
}

static const char *shape_differs(const pp_dshape *a, const pp_dshape *b, char *buf, size_t n)
{
    char where[96];
    snprintf(where, sizeof where, "its array %.40s (line %d)", b->name ? b->name : "?", b->line);
    if (sdiff(a->name, b->name) || sdiff(a->kind, b->kind) || a->ndims != b->ndims)
        return say(buf, n, SRC, where, "is another array");
    if (ediff(a->elem, b->elem))
        return say_expr(buf, n, where, "element size", b->elem, a->elem);
    if (ediff(a->bytes, b->bytes))
        return say_expr(buf, n, where, "size", b->bytes, a->bytes);
    for (int k = 0; k < a->ndims; k++)
        if (ediff(a->dims[k], b->dims[k])) {
            char field[32];
            snprintf(field, sizeof field, "extent %d", k + 1);
            return say_expr(buf, n, where, field, b->dims[k], a->dims[k]);
        }
    return NULL;
}

const char *pp_desc_differs(const pp_dfunc *a, const pp_dfunc *b, char *buf, size_t n)
{
    if (!a)
        return "is not in it";
    if (a->nslots != b->nslots || a->nloops != b->nloops || a->nbranches != b->nbranches ||
        a->nevents != b->nevents || a->ncalls != b->ncalls)
        return "was compiled differently: other loops, branches, events or calls";
    if (a->line != b->line) {
        snprintf(buf, n, SRC "it starts on line %d, not %d", b->line, a->line);
        return buf;
    }
    /* the places first: a line added above moves everything below it */
    for (int i = 0; i < a->nloops; i++)
        if (a->loops[i].line != b->loops[i].line || a->loops[i].parent != b->loops[i].parent ||
            a->loops[i].slot != b->loops[i].slot) {
            snprintf(buf, n, SRC "its loop L%d is on line %d, not %d", i, b->loops[i].line, a->loops[i].line);
            return buf;
        }
    for (int i = 0; i < a->nevents; i++)
        if (a->events[i].kind != b->events[i].kind || a->events[i].line != b->events[i].line)
            return event_differs(&a->events[i], &b->events[i], buf, n);
    const char *d;
    for (int i = 0; i < a->nloops; i++)
        if ((d = loop_differs(&a->loops[i], &b->loops[i], buf, n)))
            return d;
    for (int i = 0; i < a->nbranches; i++)
        if ((d = branch_differs(&a->branches[i], &b->branches[i], buf, n)))
            return d;
    for (int i = 0; i < a->nevents; i++)
        if ((d = event_differs(&a->events[i], &b->events[i], buf, n)))
            return d;
    for (int i = 0; i < a->ncalls; i++)
        if ((d = call_differs(&a->calls[i], &b->calls[i], buf, n)))
            return d;
    if (a->nshapes != b->nshapes)
        return SRC "it has other arrays";
    for (int i = 0; i < a->nshapes; i++)
        if ((d = shape_differs(&a->shapes[i], &b->shapes[i], buf, n)))
            return d;
    if (a->nparams != b->nparams)
        return SRC "it has other problem parameters";
    for (int i = 0; i < a->nparams; i++)
        if (sdiff(a->params[i].name, b->params[i].name) || sdiff(a->params[i].var, b->params[i].var) ||
            sdiff(a->params[i].kind, b->params[i].kind) || a->params[i].pragma != b->params[i].pragma) {
            snprintf(buf, n, SRC "its parameter %d is %.60s, not %.60s", i,
                     b->params[i].name ? b->params[i].name : "?", a->params[i].name ? a->params[i].name : "?");
            return buf;
        }
    if (sdiff(a->kind, b->kind) || a->nargs != b->nargs)
        return SRC "it is another kind of function";
    for (int i = 0; i < a->nargs; i++)
        if (sdiff(a->argnames[i], b->argnames[i]))
            return SRC "its parameters have other names";
    if (ops_differ(a->ops, b->ops))
        return OPT "it has other operation counts outside its loops";
    return NULL;
}
