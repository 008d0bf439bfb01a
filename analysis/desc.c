/* desc.c - parse the plugin's per-function descriptor text.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "desc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const evnames[] = {
    [PP_EV_FORK] = "fork", [PP_EV_CREATE] = "create", [PP_EV_JOIN] = "join",
    [PP_EV_BARRIER] = "barrier", [PP_EV_LOCK] = "lock", [PP_EV_UNLOCK] = "unlock",
    [PP_EV_SINGLE] = "single", [PP_EV_LOOP_END] = "loop_end", [PP_EV_ATOMIC] = "atomic",
    [PP_EV_COND_WAIT] = "cond_wait", [PP_EV_COND_SIGNAL] = "cond_signal",
    [PP_EV_COND_BROADCAST] = "cond_broadcast", [PP_EV_SEM_WAIT] = "sem_wait",
    [PP_EV_SEM_POST] = "sem_post",
    [PP_EV_BEGIN] = "begin", [PP_EV_TEAM_BEGIN] = "team_begin",
    [PP_EV_TEAM_END] = "team_end", [PP_EV_JOIN_TEAM] = "join",
    [PP_EV_MPI_INIT] = "mpi_init", [PP_EV_MPI_FINALIZE] = "mpi_finalize", [PP_EV_SEND] = "send",
    [PP_EV_RECV] = "recv", [PP_EV_ISEND] = "isend", [PP_EV_IRECV] = "irecv",
    [PP_EV_SENDRECV] = "sendrecv", [PP_EV_WAIT] = "wait", [PP_EV_WAITALL] = "waitall",
    [PP_EV_BCAST] = "bcast", [PP_EV_REDUCE] = "reduce", [PP_EV_ALLREDUCE] = "allreduce",
    [PP_EV_GATHER] = "gather", [PP_EV_SCATTER] = "scatter", [PP_EV_ALLGATHER] = "allgather",
    [PP_EV_ALLTOALL] = "alltoall", [PP_EV_MPI_BARRIER] = "mpi_barrier",
    [PP_EV_COMM_SPLIT] = "comm_split", [PP_EV_COMM_DUP] = "comm_dup", [PP_EV_COMM_FREE] = "comm_free",
    [PP_EV_MPI_OTHER] = "mpi_other", [PP_EV_OTHER] = "other",
};

int pp_evkind_is_mpi(pp_evkind k)
{
    return k >= PP_EV_MPI_INIT && k <= PP_EV_MPI_OTHER;
}

const char *pp_evkind_name(pp_evkind k)
{
    return (unsigned)k <= PP_EV_OTHER ? evnames[k] : "other";
}

pp_evkind pp_evkind_parse(const char *s)
{
    for (int k = 0; k < PP_EV_OTHER; k++)
        if (evnames[k] && strcmp(evnames[k], s) == 0)
            return (pp_evkind)k;
    return PP_EV_OTHER;
}

/* Grow-by-one append helper for the item arrays. */
#define APPEND(arr, n, item)                                                  \
    do {                                                                      \
        void *np_ = realloc((arr), sizeof *(arr) * (size_t)((n) + 1));        \
        if (!np_)                                                             \
            return pp_where_error(w, "out of memory");                        \
        (arr) = np_;                                                          \
        (arr)[(n)++] = (item);                                                \
    } while (0)

static int get_int(const pp_line *l, const char *k, int *out, pp_where *w)
{
    long v;
    if (pp_line_int(l, k, &v, w))
        return -1;
    if (v < INT_MIN || v > INT_MAX)   /* not cut to an int that passes */
        return pp_where_error(w, "%s=%ld out of range", k, v);
    *out = (int)v;
    return 0;
}

static int opt_int(const pp_line *l, const char *k, int *out, pp_where *w)
{
    long v = *out;
    if (pp_line_opt_int(l, k, &v, w))
        return -1;
    if (v < INT_MIN || v > INT_MAX)
        return pp_where_error(w, "%s=%ld out of range", k, v);
    *out = (int)v;
    return 0;
}

/* An expression field where '?' means unknown (NULL). */
static int opt_known_expr(const pp_line *l, const char *k, pp_expr **out, pp_where *w)
{
    *out = NULL;
    const char *v = pp_line_get(l, k);
    if (!v || strcmp(v, "?") == 0)
        return 0;
    return pp_line_expr(l, k, out, w);
}

static int parse_ops(const pp_line *l, long ops[PP_NOPS], pp_where *w)
{
    memset(ops, 0, sizeof(long) * PP_NOPS);
    pp_expr *e = NULL;
    if (pp_line_opt_expr(l, "ops", &e, w))
        return -1;
    if (!e)
        return 0;
    int rc = 0;
    if (e->kind != PP_E_LIST || e->nkids != PP_NOPS)
        rc = pp_where_error(w, "ops= needs %d integers", PP_NOPS);
    for (int i = 0; rc == 0 && i < PP_NOPS; i++)
        if (!pp_expr_is_int(e->kids[i], &ops[i]) || ops[i] < 0)
            rc = pp_where_error(w, "ops= needs non-negative integers");
    pp_expr_free(e);
    return rc;
}

/* mem=(STEP REUSE WRITTEN ...) memr=(ROWS ...) memx=K memg=K memc=K: the
 * loop's memory streams and their rows, and the references that are none
 * (unknown, gathers, chases). */
static int parse_mem(const pp_line *l, pp_dloop *lp, pp_where *w)
{
    pp_expr *e = NULL;
    if (pp_line_opt_expr(l, "mem", &e, w))
        return -1;
    int rc = 0;
    if (e) {
        lp->has_mem = 1;
        if (e->kind != PP_E_LIST || e->nkids % 3 != 0)
            rc = pp_where_error(w, "mem= needs triples of integers (step reuse written)");
        for (int i = 0; rc == 0 && i + 2 < e->nkids; i += 3) {
            long st = 0, re, wr;
            /* '?': a step in the program's variables (kept as 0) */
            int sym = e->kids[i]->kind == PP_E_UNKNOWN;
            if ((!sym && (!pp_expr_is_int(e->kids[i], &st) || st == 0)) || !pp_expr_is_int(e->kids[i + 1], &re) ||
                !pp_expr_is_int(e->kids[i + 2], &wr) || (re != 0 && re != 1) || (wr != 0 && wr != 1))
                rc = pp_where_error(w, "mem= needs triples: a non-zero step in bytes or ?, reuse 0 or 1, "
                                       "written 0 or 1");
            else if (lp->nstreams < PP_MAX_STREAMS) {
                lp->stream_step[lp->nstreams] = st;
                lp->stream_reuse[lp->nstreams] = (unsigned char)re;
                lp->stream_rows[lp->nstreams] = 1;
                lp->stream_written[lp->nstreams++] = (unsigned char)wr;
            } else
                lp->memx++;   /* more streams than kept: counted as unknown */
        }
        int triples = e->kind == PP_E_LIST ? e->nkids / 3 : 0;
        pp_expr_free(e);
        /* memr=(ROWS ...): one count per triple, 1 to 64 */
        pp_expr *r = NULL;
        if (rc == 0 && pp_line_opt_expr(l, "memr", &r, w))
            rc = -1;
        if (rc == 0 && r) {
            if (r->kind != PP_E_LIST || r->nkids != triples)
                rc = pp_where_error(w, "memr= needs one row count per stream of mem= (%d)", triples);
            for (int i = 0; rc == 0 && i < r->nkids; i++) {
                long v;
                if (!pp_expr_is_int(r->kids[i], &v) || v < 1 || v > 64)
                    rc = pp_where_error(w, "memr= needs row counts from 1 to 64");
                else if (i < lp->nstreams)
                    lp->stream_rows[i] = (unsigned char)v;
            }
        }
        pp_expr_free(r);
    } else if (pp_line_get(l, "memr"))
        rc = pp_where_error(w, "memr= without mem=");
    static const char *const key[3] = {"memx", "memg", "memc"};
    int *dst[3] = {&lp->memx, &lp->memg, &lp->memc};
    for (int k = 0; rc == 0 && k < 3; k++) {
        const char *mx = pp_line_get(l, key[k]);
        if (!mx)
            continue;
        char *end;
        long x = strtol(mx, &end, 10);
        if (end == mx || *end || x < 0 || x > 1000000)
            rc = pp_where_error(w, "%s=%s: not a count", key[k], mx);
        else
            *dst[k] += (int)x;
    }
    return rc;
}

/* A list of plain names "(a b ?)", parsed by hand: names may collide with
 * expression keywords (a parameter called "arg"). */
static int parse_names(const char *v, char ***out, int *n, pp_where *w)
{
    *out = NULL;
    *n = 0;
    if (!v)
        return 0;
    if (*v != '(')
        return pp_where_error(w, "expected a list of names, found '%s'", v);
    const char *p = v + 1;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')')
            return 0;
        if (!*p)
            return pp_where_error(w, "unterminated list of names");
        const char *s = p;
        while (*p && *p != ' ' && *p != ')' && *p != '(')
            p++;
        if (*p == '(')
            return pp_where_error(w, "nested list in a list of names");
        char **nn = realloc(*out, sizeof *nn * (size_t)(*n + 1));
        if (!nn)
            return pp_where_error(w, "out of memory");
        *out = nn;
        (*out)[(*n)++] = strndup(s, (size_t)(p - s));
    }
}

static int parse_guard(const pp_line *l, int *branch, int *istrue, pp_where *w)
{
    *branch = -1;
    *istrue = 1;
    const char *v = pp_line_get(l, "guard");
    if (!v)
        return 0;
    /* "(B T)" or "(B F)" */
    char extra;
    int b;
    char tf;
    if (sscanf(v, "(%d %c%c", &b, &tf, &extra) != 3 || extra != ')' || (tf != 'T' && tf != 'F') || b < 0)
        return pp_where_error(w, "malformed guard '%s'", v);
    *branch = b;
    *istrue = tf == 'T';
    return 0;
}

static void free_loop(pp_dloop *l)
{
    pp_expr_free(l->count); pp_expr_free(l->init); pp_expr_free(l->bound); pp_expr_free(l->step);
    free(l->iv); free(l->why); pp_expr_free(l->sched);
    pp_expr_free(l->deal_init); pp_expr_free(l->deal_step);
}

static int parse_loop_fields(const pp_line *l, pp_dloop *lp, pp_dfunc *f, pp_where *w)
{
    lp->parent = -1;
    lp->tslot = -1;
    if (get_int(l, "id", &lp->id, w) || get_int(l, "parent", &lp->parent, w) ||
        opt_int(l, "tslot", &lp->tslot, w) ||
        get_int(l, "slot", &lp->slot, w) || opt_int(l, "pos", &lp->pos, w) ||
        opt_int(l, "line", &lp->line, w))
        return -1;
    const char *sh = pp_line_get(l, "shape");
    lp->shape = !sh || !strcmp(sh, "top") ? PP_SHAPE_TOP
             : !strcmp(sh, "bottom")    ? PP_SHAPE_BOTTOM
                                        : PP_SHAPE_MULTI;
    if (opt_known_expr(l, "count", &lp->count, w) || opt_known_expr(l, "init", &lp->init, w) ||
        opt_known_expr(l, "bound", &lp->bound, w) || opt_known_expr(l, "step", &lp->step, w))
        return -1;
    const char *iv = pp_line_get(l, "iv");
    if (iv && strcmp(iv, "-") != 0)
        lp->iv = strdup(iv);
    const char *cmp = pp_line_get(l, "cmp");
    lp->cmp = !cmp ? PP_CMP_NONE
           : !strcmp(cmp, "lt") ? PP_CMP_LT : !strcmp(cmp, "le") ? PP_CMP_LE
           : !strcmp(cmp, "gt") ? PP_CMP_GT : !strcmp(cmp, "ge") ? PP_CMP_GE
           : !strcmp(cmp, "ne") ? PP_CMP_NE : PP_CMP_NONE;
    pp_line_opt_str(l, "why", &lp->why);
    if (pp_line_opt_expr(l, "sched", &lp->sched, w))
        return -1;
    if (lp->sched && (lp->sched->kind != PP_E_LIST || lp->sched->nkids != 5 || lp->sched->kids[0]->kind != PP_E_SYM))
        return pp_where_error(w, "loop %d: malformed sched= (KIND START END INCR CHUNK)", lp->id);
    const char *fl = pp_line_get(l, "flags");
    if (fl) {
        if (strstr(fl, "compiler")) lp->flags |= PP_LF_COMPILER;
        if (strstr(fl, "omp_chunk")) lp->flags |= PP_LF_OMP_CHUNK;
        if (strstr(fl, "omp_dispatch")) lp->flags |= PP_LF_OMP_DISPATCH;
    }
    if (parse_ops(l, lp->ops, w) || parse_mem(l, lp, w) || parse_guard(l, &lp->guard_branch, &lp->guard_true, w))
        return -1;
    if (lp->slot < 1 || lp->slot + 1 >= f->nslots)
        return pp_where_error(w, "loop %d: slot %d outside 1..%d", lp->id, lp->slot, f->nslots - 2);
    if (lp->tslot != -1 && (lp->tslot < 1 || lp->tslot + 1 >= f->nslots || lp->tslot == lp->slot ||
                            lp->tslot == lp->slot + 1 || lp->tslot + 1 == lp->slot))
        return pp_where_error(w, "loop %d: tslot %d outside 1..%d or on its counting slots", lp->id, lp->tslot,
                              f->nslots - 2);
    return 0;
}

/* a loop line; on an error nothing of it is kept */
static int parse_loop(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dloop lp;
    memset(&lp, 0, sizeof lp);
    if (parse_loop_fields(l, &lp, f, w)) {
        free_loop(&lp);
        return -1;
    }
    APPEND(f->loops, f->nloops, lp);
    return 0;
}

/* fslot=(S ...): the false count is the sum of these slots, -S
 * subtracting slot S; each in 1..nslots-1.  Absent: slot + 1. */
static int parse_fslot(const pp_line *l, pp_dbranch *b, int nslots, pp_where *w)
{
    const char *v = pp_line_get(l, "fslot");
    b->nfslot = 0;
    if (!v)
        return 0;
    if (*v != '(')
        return pp_where_error(w, "branch %d: fslot= must be a list of slots", b->id);
    const char *p = v + 1;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')' && p[1] == 0 && b->nfslot > 0)
            return 0;
        char *end;
        long s = strtol(p, &end, 10);
        if (end == p || (*end != ' ' && *end != ')') || s == 0 || s <= -nslots || s >= nslots)
            return pp_where_error(w, "branch %d: fslot= holds a bad slot (each in 1..%d, or its negative)", b->id,
                                  nslots - 1);
        if (b->nfslot == PP_MAX_FSLOT)
            return pp_where_error(w, "branch %d: fslot= has more than %d slots", b->id, PP_MAX_FSLOT);
        b->fslot[b->nfslot++] = (int)s;
        p = end;
    }
}

static int parse_branch(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dbranch b;
    memset(&b, 0, sizeof b);
    b.loop = -1;
    if (get_int(l, "id", &b.id, w) || get_int(l, "slot", &b.slot, w) ||
        opt_int(l, "loop", &b.loop, w) || opt_int(l, "pos", &b.pos, w) ||
        opt_int(l, "line", &b.line, w) || opt_known_expr(l, "cond", &b.cond, w) ||
        parse_guard(l, &b.guard_branch, &b.guard_true, w))
        return -1;
    if (parse_fslot(l, &b, f->nslots, w))
        return -1;
    if (b.slot < 1 || b.slot + (b.nfslot ? 0 : 1) >= f->nslots)
        return pp_where_error(w, "branch %d: slot %d outside 1..%d", b.id, b.slot,
                              f->nslots - (b.nfslot ? 1 : 2));
    APPEND(f->branches, f->nbranches, b);
    return 0;
}

/* data=((FIELD EXPR) ...): FIELD is a plain name, parsed by hand. */
static int parse_data(const pp_line *l, pp_devent *ev, pp_where *w)
{
    const char *v = pp_line_get(l, "data");
    if (!v)
        return 0;
    if (*v != '(')
        return pp_where_error(w, "data= must be a list of (FIELD EXPR)");
    const char *p = v + 1;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')')
            return 0;
        if (*p != '(')
            return pp_where_error(w, "data= entry %d is not (FIELD EXPR)", ev->ndata);
        p++;
        const char *s = p;
        while (*p && *p != ' ' && *p != ')' && *p != '(')
            p++;
        if (p == s || *p != ' ')
            return pp_where_error(w, "data= entry %d has no field name", ev->ndata);
        char *name = strndup(s, (size_t)(p - s));
        char err[200] = "";
        const char *end = NULL;
        pp_expr *e = pp_expr_parse(p + 1, &end, err, sizeof err);
        if (!e) {
            pp_where_error(w, "data= field %s: %s", name ? name : "?", err);
            free(name);
            return -1;
        }
        while (end && *end == ' ')
            end++;
        if (!end || *end != ')') {
            free(name);
            pp_expr_free(e);
            return pp_where_error(w, "data= entry %d is not (FIELD EXPR)", ev->ndata);
        }
        p = end + 1;
        char **nn = realloc(ev->data_name, sizeof *nn * (size_t)(ev->ndata + 1));
        if (nn)
            ev->data_name = nn;
        pp_expr **nv = realloc(ev->data_val, sizeof *nv * (size_t)(ev->ndata + 1));
        if (nv)
            ev->data_val = nv;
        if (!nn || !nv) {
            free(name);
            pp_expr_free(e);
            return pp_where_error(w, "out of memory");
        }
        ev->data_name[ev->ndata] = name;
        if (e->kind == PP_E_UNKNOWN) {
            pp_expr_free(e);
            e = NULL;
        }
        ev->data_val[ev->ndata++] = e;
    }
}

static int parse_event(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_devent ev;
    memset(&ev, 0, sizeof ev);
    ev.loop = -1;
    char *kind = NULL;
    if (get_int(l, "id", &ev.id, w) || get_int(l, "slot", &ev.slot, w) ||
        opt_int(l, "loop", &ev.loop, w) || opt_int(l, "pos", &ev.pos, w) ||
        opt_int(l, "line", &ev.line, w) || pp_line_str(l, "kind", &kind, w))
        return -1;
    ev.kind = pp_evkind_parse(kind);
    free(kind);
    long impl = 0;
    if (pp_line_opt_int(l, "implicit", &impl, w) || parse_guard(l, &ev.guard_branch, &ev.guard_true, w) ||
        opt_known_expr(l, "nthreads", &ev.nthreads, w) || opt_known_expr(l, "obj", &ev.obj, w) ||
        opt_known_expr(l, "mutex", &ev.mutex, w) ||
        opt_known_expr(l, "arg", &ev.arg, w) || parse_data(l, &ev, w))
        return -1;
    ev.implicit = impl != 0;
    ev.comm = PP_COMM_NONE;
    int split = ev.kind == PP_EV_COMM_SPLIT;
    if (opt_known_expr(l, "count", &ev.count, w) || opt_known_expr(l, split ? "color" : "peer", &ev.peer, w) ||
        opt_known_expr(l, split ? "key" : "tag", &ev.tag, w) || opt_known_expr(l, "root", &ev.root, w) ||
        opt_known_expr(l, "rcount", &ev.rcount, w) || opt_known_expr(l, "rpeer", &ev.rpeer, w) ||
        opt_known_expr(l, "rtag", &ev.rtag, w))
        return -1;
    pp_line_opt_str(l, "type", &ev.type);
    pp_line_opt_str(l, "rtype", &ev.rtype);
    const char *comm = pp_line_get(l, "comm");
    if (comm && strcmp(comm, "world") == 0)
        ev.comm = PP_COMM_WORLD;
    else if (comm && strcmp(comm, "?") == 0)
        ev.comm = PP_COMM_UNKNOWN;
    else if (comm) {
        ev.comm = PP_COMM_VAR;
        ev.comm_var = strdup(comm);
    }
    const char *nc = pp_line_get(l, "newcomm");
    if (nc && strcmp(nc, "?") != 0)
        ev.newcomm = strdup(nc);
    pp_line_opt_str(l, "callee", &ev.callee);
    const char *child = pp_line_get(l, "child");
    if (child && strcmp(child, "?") != 0)
        ev.child = strdup(child);
    if (ev.slot < 1 || ev.slot >= f->nslots)
        return pp_where_error(w, "event %d: slot %d outside 1..%d", ev.id, ev.slot, f->nslots - 1);
    APPEND(f->events, f->nevents, ev);
    return 0;
}

static int parse_call(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dcall c;
    memset(&c, 0, sizeof c);
    c.loop = -1;
    if (get_int(l, "id", &c.id, w) || get_int(l, "slot", &c.slot, w) ||
        opt_int(l, "loop", &c.loop, w) || opt_int(l, "pos", &c.pos, w) ||
        opt_int(l, "line", &c.line, w) || pp_line_str(l, "callee", &c.callee, w) ||
        parse_guard(l, &c.guard_branch, &c.guard_true, w))
        return -1;
    pp_expr *args = NULL;
    if (pp_line_opt_expr(l, "args", &args, w))
        return -1;
    if (args) {
        if (args->kind != PP_E_LIST) {
            pp_expr_free(args);
            return pp_where_error(w, "args= must be a list");
        }
        c.nargs = args->nkids;
        c.args = calloc((size_t)c.nargs + 1, sizeof *c.args);
        for (int i = 0; i < c.nargs; i++)
            if (args->kids[i]->kind != PP_E_UNKNOWN)
                c.args[i] = pp_expr_ref(args->kids[i]);
        pp_expr_free(args);
    }
    if (c.slot < 1 || c.slot >= f->nslots)
        return pp_where_error(w, "call %d: slot %d outside 1..%d", c.id, c.slot, f->nslots - 1);
    APPEND(f->calls, f->ncalls, c);
    return 0;
}

static int parse_shape(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dshape s;
    memset(&s, 0, sizeof s);
    if (get_int(l, "id", &s.id, w) || opt_int(l, "line", &s.line, w) ||
        opt_known_expr(l, "elem", &s.elem, w) || opt_known_expr(l, "bytes", &s.bytes, w))
        return -1;
    pp_line_opt_str(l, "name", &s.name);
    pp_line_opt_str(l, "kind", &s.kind);
    pp_expr *dims = NULL;
    if (pp_line_opt_expr(l, "dims", &dims, w))
        return -1;
    if (dims && dims->kind == PP_E_LIST) {
        s.ndims = dims->nkids;
        s.dims = calloc((size_t)s.ndims + 1, sizeof *s.dims);
        for (int i = 0; i < s.ndims; i++)
            if (dims->kids[i]->kind != PP_E_UNKNOWN)
                s.dims[i] = pp_expr_ref(dims->kids[i]);
    }
    pp_expr_free(dims);
    APPEND(f->shapes, f->nshapes, s);
    return 0;
}

static int parse_param(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dparam p;
    memset(&p, 0, sizeof p);
    long pr = 0;
    if (get_int(l, "id", &p.id, w) || pp_line_str(l, "name", &p.name, w) ||
        opt_int(l, "line", &p.line, w) || pp_line_opt_int(l, "pragma", &pr, w))
        return -1;
    p.pragma = pr != 0;
    pp_line_opt_str(l, "kind", &p.kind);
    pp_line_opt_str(l, "var", &p.var);
    if (!p.var)
        p.var = strdup(p.name);
    APPEND(f->params, f->nparams, p);
    return 0;
}

static int parse_macro(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dmacro m = {0};
    if (pp_line_str(l, "name", &m.name, w) || pp_line_int(l, "value", &m.value, w)) {
        free(m.name);
        return -1;
    }
    int ok = (m.name[0] == '_' || (m.name[0] >= 'A' && m.name[0] <= 'Z') || (m.name[0] >= 'a' && m.name[0] <= 'z'));
    for (const char *c = m.name; *c; c++)
        ok &= *c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z');
    if (!ok) {
        free(m.name);
        return pp_where_error(w, "macro line: name= is not an identifier");
    }
    APPEND(f->macros, f->nmacros, m);
    return 0;
}

static int parse_gdef(const pp_line *l, pp_dfunc *f, pp_where *w)
{
    pp_dgdef g;
    memset(&g, 0, sizeof g);
    if (pp_line_str(l, "name", &g.name, w) || opt_int(l, "line", &g.line, w) ||
        opt_known_expr(l, "expr", &g.expr, w)) {
        free(g.name);
        return -1;
    }
    pp_line_opt_str(l, "why", &g.why);
    APPEND(f->gdefs, f->ngdefs, g);
    return 0;
}

int pp_desc_parse(char **lines, long n, long *used, pp_dfunc *f, pp_where *w)
{
    memset(f, 0, sizeof *f);
    long i = 0;
    int rc = 0, ended = 0;
    for (; i < n && rc == 0 && !ended; i++) {
        pp_line l;
        if (i > 0)
            w->line++;
        if (pp_lex_line(lines[i], &l, w)) {
            pp_line_free(&l);
            rc = -1;
            break;
        }
        const char *k = l.keyword;
        if (i == 0) {
            if (strcmp(k, "func") != 0)
                rc = pp_where_error(w, "descriptor must start with 'func', found '%s'", k);
            else if (pp_line_str(&l, "name", &f->name, w) || get_int(&l, "nslots", &f->nslots, w) ||
                     opt_int(&l, "line", &f->line, w) || parse_ops(&l, f->ops, w))
                rc = -1;
            else {
                pp_line_opt_str(&l, "file", &f->file);
                if (parse_names(pp_line_get(&l, "args"), &f->argnames, &f->nargs, w))
                    rc = -1;
                pp_line_opt_str(&l, "kind", &f->kind);
                if (!f->kind)
                    f->kind = strdup("normal");
                if (f->nslots < 1 || f->nslots > 10000000)
                    rc = pp_where_error(w, "nslots=%d out of range", f->nslots);
            }
        } else if (!strcmp(k, "loop"))
            rc = parse_loop(&l, f, w);
        else if (!strcmp(k, "branch"))
            rc = parse_branch(&l, f, w);
        else if (!strcmp(k, "event"))
            rc = parse_event(&l, f, w);
        else if (!strcmp(k, "call"))
            rc = parse_call(&l, f, w);
        else if (!strcmp(k, "shape"))
            rc = parse_shape(&l, f, w);
        else if (!strcmp(k, "param"))
            rc = parse_param(&l, f, w);
        else if (!strcmp(k, "macro"))
            rc = parse_macro(&l, f, w);
        else if (!strcmp(k, "gdef"))
            rc = parse_gdef(&l, f, w);
        else if (!strcmp(k, "end"))
            ended = 1;
        /* unknown keywords are ignored (forward compatibility) */
        pp_line_free(&l);
    }
    *used = i;
    if (rc == 0 && !ended)
        rc = pp_where_error(w, "descriptor of '%s' has no 'end' line", f->name ? f->name : "?");
    /* the plugin's slots are its lines' (two for a loop or a branch, two
     * more for a timed loop, one for an event or a call, slot 0 the
     * entries; hand-written descriptors
     * may keep a few more): a larger nslots, which costs nothing to write,
     * would make the reader allocate counters for nothing */
    if (rc == 0 && f->nslots > 64 + 4 * i)
        rc = pp_where_error(w, "descriptor of '%s': nslots=%d is more than its %ld lines can use",
                            f->name ? f->name : "?", f->nslots, i);
    /* every reference to a loop must exist and parents precede children */
    for (int j = 0; rc == 0 && j < f->nloops; j++) {
        if (f->loops[j].parent >= 0 && !pp_desc_loop(f, f->loops[j].parent))
            rc = pp_where_error(w, "loop %d: parent %d does not exist", f->loops[j].id, f->loops[j].parent);
        if (f->loops[j].parent == f->loops[j].id)
            rc = pp_where_error(w, "loop %d is its own parent", f->loops[j].id);
    }
    for (int j = 0; rc == 0 && j < f->nevents; j++)
        if (f->events[j].loop >= 0 && !pp_desc_loop(f, f->events[j].loop))
            rc = pp_where_error(w, "event %d: loop %d does not exist", f->events[j].id, f->events[j].loop);
    for (int j = 0; rc == 0 && j < f->ncalls; j++)
        if (f->calls[j].loop >= 0 && !pp_desc_loop(f, f->calls[j].loop))
            rc = pp_where_error(w, "call %d: loop %d does not exist", f->calls[j].id, f->calls[j].loop);
    /* cycles in the parent relation would make the analyser loop forever */
    for (int j = 0; rc == 0 && j < f->nloops; j++) {
        int p = f->loops[j].parent, steps = 0;
        while (p >= 0 && steps++ <= f->nloops) {
            pp_dloop *pl = pp_desc_loop(f, p);
            p = pl ? pl->parent : -1;
        }
        if (steps > f->nloops)
            rc = pp_where_error(w, "loop %d: parent chain has a cycle", f->loops[j].id);
    }
    return rc;
}

void pp_desc_free(pp_dfunc *f)
{
    for (int i = 0; i < f->nloops; i++) {
        free_loop(&f->loops[i]);
    }
    for (int i = 0; i < f->nbranches; i++)
        pp_expr_free(f->branches[i].cond);
    for (int i = 0; i < f->nevents; i++) {
        pp_devent *e = &f->events[i];
        free(e->callee); free(e->child);
        pp_expr_free(e->nthreads); pp_expr_free(e->obj); pp_expr_free(e->mutex); pp_expr_free(e->arg);
        pp_expr_free(e->count); pp_expr_free(e->peer); pp_expr_free(e->tag); pp_expr_free(e->root);
        pp_expr_free(e->rcount); pp_expr_free(e->rpeer); pp_expr_free(e->rtag);
        free(e->type); free(e->rtype); free(e->comm_var); free(e->newcomm);
        for (int j = 0; j < e->ndata; j++) {
            free(e->data_name[j]);
            pp_expr_free(e->data_val[j]);
        }
        free(e->data_name); free(e->data_val);
    }
    for (int i = 0; i < f->ncalls; i++) {
        for (int j = 0; j < f->calls[i].nargs; j++)
            pp_expr_free(f->calls[i].args[j]);
        free(f->calls[i].args); free(f->calls[i].callee);
    }
    for (int i = 0; i < f->nshapes; i++) {
        pp_dshape *s = &f->shapes[i];
        pp_expr_free(s->elem); pp_expr_free(s->bytes);
        for (int j = 0; j < s->ndims; j++)
            pp_expr_free(s->dims[j]);
        free(s->dims); free(s->name); free(s->kind);
    }
    for (int i = 0; i < f->nargs; i++)
        free(f->argnames[i]);
    free(f->argnames);
    for (int i = 0; i < f->nparams; i++) {
        free(f->params[i].var);
        free(f->params[i].name);
        free(f->params[i].kind);
    }
    for (int i = 0; i < f->ngdefs; i++) {
        free(f->gdefs[i].name);
        free(f->gdefs[i].why);
        pp_expr_free(f->gdefs[i].expr);
    }
    free(f->loops); free(f->branches); free(f->events); free(f->calls);
    free(f->shapes); free(f->params); free(f->gdefs);
    for (int i = 0; i < f->nmacros; i++)
        free(f->macros[i].name);
    free(f->macros);
    free(f->name); free(f->file); free(f->kind);
    memset(f, 0, sizeof *f);
}

#define FIND(arr, n)                   \
    for (int i = 0; i < (n); i++)      \
        if ((arr)[i].id == id)         \
            return &(arr)[i];          \
    return NULL

pp_dloop *pp_desc_loop(const pp_dfunc *f, int id) { FIND(f->loops, f->nloops); }
pp_devent *pp_desc_event(const pp_dfunc *f, int id) { FIND(f->events, f->nevents); }
pp_dcall *pp_desc_call(const pp_dfunc *f, int id) { FIND(f->calls, f->ncalls); }
pp_dbranch *pp_desc_branch(const pp_dfunc *f, int id) { FIND(f->branches, f->nbranches); }
pp_dparam *pp_desc_param(const pp_dfunc *f, int id) { FIND(f->params, f->nparams); }
