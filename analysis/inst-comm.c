/* inst-comm.c - MPI communicators in the instantiation: MPI_Comm_split and
 * MPI_Comm_dup make communicators from MPI_COMM_WORLD or from one made
 * before, MPI_Comm_free forgets one, and a rank's communicator variables
 * (the names the plugin gives them, docs/descriptor-format.md) say which
 * communicator each call uses.
 *
 * A split's groups are computed once, by the first rank that reaches it:
 * the color and key expressions are evaluated for every member of the
 * parent with (rank) bound to that member (an SPMD program computes them
 * from its rank, its size and values every rank has alike), members of a
 * color ordered by key and then by their rank in the parent, as MPI does.
 * Each later rank finds them by (parent, how many communicators the rank
 * made from that parent before), checks that its own color, evaluated in
 * its own frame, is the one it was given, and binds its variable.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI_UNDEFINED, the color that gives MPI_COMM_NULL: -32766 in both Open
 * MPI and MPICH. */
#define PP_MPI_UNDEFINED (-32766)

int pp_comm_rank_of(const pp_comm *c, int w)
{
    if (!c->world)
        return w >= 0 && w < c->size ? w : -1;
    int lo = 0, hi = c->size - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (c->by_world[mid] == w)
            return c->pos_of[mid];
        if (c->by_world[mid] < w)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* ---- the instance's communicators --------------------------------------- */

int pp_inst_comm_init(ictx *c)
{
    pp_instance *in = c->in;
    if (in->ncomms)
        return 0;
    in->comms = calloc(8, sizeof *in->comms);
    if (!in->comms)
        return pp_inst_fail(c, "out of memory");
    c->capcomms = 8;
    in->ncomms = 1;
    in->comms[0].size = c->P;
    in->comms[0].parent = -1;
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* A new communicator of n members (world ranks, in rank order). */
static int add_comm(ictx *c, int parent, int seq, int color, int dup, const int *members, int n)
{
    pp_instance *in = c->in;
    if (in->ncomms == c->capcomms) {
        int cap = c->capcomms * 2;
        pp_comm *nc = realloc(in->comms, sizeof *nc * (size_t)cap);
        if (!nc)
            return pp_inst_fail(c, "out of memory");
        in->comms = nc;
        c->capcomms = cap;
    }
    pp_comm *k = &in->comms[in->ncomms];
    memset(k, 0, sizeof *k);
    k->size = n;
    k->parent = parent;
    k->seq = seq;
    k->color = color;
    k->dup = dup;
    k->world = malloc(sizeof *k->world * (size_t)(n ? n : 1));
    k->by_world = malloc(sizeof *k->by_world * (size_t)(n ? n : 1));
    k->pos_of = malloc(sizeof *k->pos_of * (size_t)(n ? n : 1));
    int *pairs = malloc(sizeof *pairs * 2 * (size_t)(n ? n : 1));
    if (!k->world || !k->by_world || !k->pos_of || !pairs) {
        free(k->world), free(k->by_world), free(k->pos_of), free(pairs);
        return pp_inst_fail(c, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        k->world[i] = members[i];
        pairs[2 * i] = members[i];
        pairs[2 * i + 1] = i;
    }
    qsort(pairs, (size_t)n, 2 * sizeof *pairs, cmp_pair);
    for (int i = 0; i < n; i++) {
        k->by_world[i] = pairs[2 * i];
        k->pos_of[i] = pairs[2 * i + 1];
    }
    free(pairs);
    return in->ncomms++;
}

void pp_inst_comms_free(pp_instance *in)
{
    for (int i = 0; i < in->ncomms; i++) {
        free(in->comms[i].world);
        free(in->comms[i].by_world);
        free(in->comms[i].pos_of);
    }
    free(in->comms);
    in->comms = NULL;
    in->ncomms = 0;
}

/* The first communicator made as the seq-th from parent, or -1.  Those of
 * one split are consecutive.  (A linear search from the end: programs
 * make few communicators, and the recent ones are the ones asked for.) */
static int find_made(const pp_instance *in, int parent, int seq)
{
    int first = -1;
    for (int i = in->ncomms - 1; i >= 1; i--) {
        if (in->comms[i].parent == parent && in->comms[i].seq == seq)
            first = i;
        else if (first >= 0)
            break;
    }
    return first;
}

/* ---- a rank's communicator variables ------------------------------------ */

void pp_inst_comm_rank_start(ictx *c)
{
    for (int i = 0; i < c->ncvars; i++)
        free(c->cvars[i].name);
    c->ncvars = 0;
    if (c->cseq)
        memset(c->cseq, 0, sizeof *c->cseq * (size_t)c->capcseq);
}

void pp_inst_comm_ctx_free(ictx *c)
{
    pp_inst_comm_rank_start(c);
    free(c->cvars);
    free(c->cseq);
}

static int cvar_find(const ictx *c, const char *name)
{
    for (int i = 0; i < c->ncvars; i++)
        if (strcmp(c->cvars[i].name, name) == 0)
            return i;
    return -1;
}

static int cvar_set(ictx *c, const char *name, int comm)
{
    int i = cvar_find(c, name);
    if (i < 0) {
        if (c->ncvars == c->capcvars) {
            int cap = c->capcvars ? 2 * c->capcvars : 8;
            void *nv = realloc(c->cvars, sizeof *c->cvars * (size_t)cap);
            if (!nv)
                return pp_inst_fail(c, "out of memory");
            c->cvars = nv;
            c->capcvars = cap;
        }
        i = c->ncvars;
        c->cvars[i].name = strdup(name);
        if (!c->cvars[i].name)
            return pp_inst_fail(c, "out of memory");
        c->ncvars++;
    }
    c->cvars[i].comm = comm;
    return 0;
}

int pp_inst_comm_lookup(const ictx *c, const char *name, int w, int64_t *rank, int64_t *size)
{
    if (!name) {
        *rank = w;
        *size = c->P;
        return 0;
    }
    int i = cvar_find(c, name);
    if (i < 0 || c->cvars[i].comm < 0)
        return -1;
    const pp_comm *k = &c->in->comms[c->cvars[i].comm];
    *rank = pp_comm_rank_of(k, w);
    *size = k->size;
    return *rank < 0 ? -1 : 0;
}

int pp_inst_comm_of(ictx *c, const frame *fr, const pp_devent *ev, int *comm)
{
    char wb[300];
    if (pp_inst_comm_init(c))
        return -1;
    if (ev->comm == PP_COMM_WORLD) {
        *comm = 0;
        return 0;
    }
    if (ev->comm != PP_COMM_VAR)
        return pp_inst_fail(c, "%s: a communicator the plugin could not follow (not MPI_COMM_WORLD nor a "
                            "variable only MPI_Comm_split or MPI_Comm_dup sets): the model cannot match "
                            "its messages", pp_inst_where(fr, ev, wb, sizeof wb));
    int i = cvar_find(c, ev->comm_var);
    if (i < 0)
        return pp_inst_fail(c, "%s: rank %d uses communicator %s before MPI_Comm_split or MPI_Comm_dup set "
                            "it", pp_inst_where(fr, ev, wb, sizeof wb), c->rank, ev->comm_var);
    if (c->cvars[i].comm < 0)
        return pp_inst_fail(c, "%s: rank %d uses communicator %s, which is MPI_COMM_NULL here (freed, or "
                            "its color was MPI_UNDEFINED)", pp_inst_where(fr, ev, wb, sizeof wb), c->rank, ev->comm_var);
    *comm = c->cvars[i].comm;
    return 0;
}

/* The count of communicators this rank made from parent so far, +1. */
static int next_seq(ictx *c, int parent)
{
    if (parent >= c->capcseq) {
        int cap = c->capcseq ? c->capcseq : 8;
        while (cap <= parent)
            cap *= 2;
        int *ns = realloc(c->cseq, sizeof *ns * (size_t)cap);
        if (!ns)
            return pp_inst_fail(c, "out of memory");
        memset(ns + c->capcseq, 0, sizeof *ns * (size_t)(cap - c->capcseq));
        c->cseq = ns;
        c->capcseq = cap;
    }
    return c->cseq[parent]++;
}

typedef struct {
    int64_t color, key;
    int prank, world;
} member;

static int cmp_member(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->prank > y->prank) - (x->prank < y->prank);
}

/* Evaluate color and key for every member of parent (rank bound to each)
 * and make one communicator per color. */
static int make_split(ictx *c, const frame *fr, const pp_devent *ev, int parent, int seq)
{
    char wb[300];
    const pp_comm *p = &c->in->comms[parent];
    int n = p->size;
    member *m = malloc(sizeof *m * (size_t)(n ? n : 1));
    int *ranks = malloc(sizeof *ranks * (size_t)(n ? n : 1));
    if (!m || !ranks) {
        free(m), free(ranks);
        return pp_inst_fail(c, "out of memory");
    }
    int me = c->rank, rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        m[i].prank = i;
        m[i].world = p->world ? p->world[i] : i;
        pp_inst_set_rank(c, m[i].world);     /* (rank) is that member's */
        if (!ev->peer || pp_inst_eval(c, fr, ev->peer, &m[i].color) || !ev->tag ||
            pp_inst_eval(c, fr, ev->tag, &m[i].key)) {
            char *cs = ev->peer ? pp_expr_to_infix(ev->peer) : NULL;
            char *ks = ev->tag ? pp_expr_to_infix(ev->tag) : NULL;
            rc = pp_inst_fail(c, "%s: the color (%s) or key (%s) is not an expression the model can evaluate "
                              "for rank %d of %d", pp_inst_where(fr, ev, wb, sizeof wb), cs ? cs : "?", ks ? ks : "?",
                              m[i].world, c->P);
            free(cs), free(ks);
        } else if (m[i].color < 0 && m[i].color != PP_MPI_UNDEFINED)
            rc = pp_inst_fail(c, "%s: rank %d's color is %lld: negative and not MPI_UNDEFINED (the program "
                              "would fail)", pp_inst_where(fr, ev, wb, sizeof wb), m[i].world, (long long)m[i].color);
    }
    pp_inst_set_rank(c, me);
    if (rc == 0) {
        qsort(m, (size_t)n, sizeof *m, cmp_member);
        for (int i = 0; rc == 0 && i < n;) {
            int j = i;
            while (j < n && m[j].color == m[i].color)
                j++;
            if (m[i].color != PP_MPI_UNDEFINED) {
                for (int k = i; k < j; k++)
                    ranks[k - i] = m[k].world;
                if (add_comm(c, parent, seq, (int)m[i].color, 0, ranks, j - i) < 0)
                    rc = -1;
            }
            i = j;
        }
        /* every member has MPI_UNDEFINED: keep a mark of the split, empty */
        if (rc == 0 && find_made(c->in, parent, seq) < 0 && add_comm(c, parent, seq, PP_MPI_UNDEFINED, 0, ranks, 0) < 0)
            rc = -1;
    }
    free(m);
    free(ranks);
    return rc;
}

int pp_inst_comm_event(ictx *c, const frame *fr, const pp_devent *ev, int *parent)
{
    char wb[300];
    if (ev->kind == PP_EV_COMM_FREE) {
        /* the variable becomes MPI_COMM_NULL */
        *parent = 0;
        return ev->newcomm ? cvar_set(c, ev->newcomm, -1) : 0;
    }
    if (pp_inst_comm_of(c, fr, ev, parent))
        return -1;
    int seq = next_seq(c, *parent);
    if (seq < 0)
        return -1;
    int first = find_made(c->in, *parent, seq);
    if (first < 0) {
        if (ev->kind == PP_EV_COMM_DUP) {
            const pp_comm *p = &c->in->comms[*parent];
            int *ranks = malloc(sizeof *ranks * (size_t)p->size);
            if (!ranks)
                return pp_inst_fail(c, "out of memory");
            for (int i = 0; i < p->size; i++)
                ranks[i] = p->world ? p->world[i] : i;
            first = add_comm(c, *parent, seq, 0, 1, ranks, p->size);
            free(ranks);
        } else {
            first = c->in->ncomms;
            if (make_split(c, fr, ev, *parent, seq))
                return -1;
        }
        if (first < 0)
            return -1;
    }
    const pp_comm *k0 = &c->in->comms[first];
    if ((ev->kind == PP_EV_COMM_DUP) != (k0->dup != 0))
        return pp_inst_fail(c, "%s: rank %d calls %s as communicator #%d made from its parent, another rank "
                            "called %s (the ranks disagree: MPI would hang or fail)", pp_inst_where(fr, ev, wb, sizeof wb),
                            c->rank, ev->kind == PP_EV_COMM_DUP ? "MPI_Comm_dup" : "MPI_Comm_split", seq + 1,
                            k0->dup ? "MPI_Comm_dup" : "MPI_Comm_split");
    int mine = -1;
    for (int i = first; i < c->in->ncomms && c->in->comms[i].parent == *parent && c->in->comms[i].seq == seq; i++)
        if (pp_comm_rank_of(&c->in->comms[i], c->rank) >= 0)
            mine = i;
    if (ev->kind == PP_EV_COMM_SPLIT) {
        /* the rank's own color, in its own frame, must be the one it got */
        int64_t color;
        if (ev->peer && pp_inst_eval(c, fr, ev->peer, &color) == 0 &&
            color != (mine >= 0 ? c->in->comms[mine].color : PP_MPI_UNDEFINED))
            return pp_inst_fail(c, "%s: rank %d's color is %lld here but %d when the split was evaluated for "
                                "every rank: it depends on more than the rank, which the model cannot follow",
                                pp_inst_where(fr, ev, wb, sizeof wb), c->rank, (long long)color,
                                mine >= 0 ? c->in->comms[mine].color : PP_MPI_UNDEFINED);
    }
    if (!ev->newcomm)
        return 0;     /* the new communicator goes where the plugin lost it */
    return cvar_set(c, ev->newcomm, mine);
}
