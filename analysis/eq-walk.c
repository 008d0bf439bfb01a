/* eq-walk.c - the walk of the equations: the model interpreted as
 * instantiate.c interprets it, on one thread, with the symbols of the
 * equations for the values (eq-internal.h).  A loop's count is its count
 * rule with the frame's symbols substituted and simplified under what the
 * enclosing loops and conditions guarantee (sym-range.c); its variable
 * runs over a range the enclosing terms are summed over.  What the model
 * cannot evaluate (a symbol it cannot follow) is the run's average, as in
 * the instantiation.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "eq-internal.h"
#include "costs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

/* ---- frames and substitution -------------------------------------------- */

static int frame_init(eqframe *fr, const pp_prog *m, int fi)
{
    memset(fr, 0, sizeof *fr);
    fr->fi = fi;
    fr->mf = &m->funcs[fi];
    fr->args = calloc((size_t)fr->mf->d->nargs + 1, sizeof *fr->args);
    fr->iv = calloc((size_t)fr->mf->max_loop_id + 2, sizeof *fr->iv);
    return fr->args && fr->iv ? 0 : -1;
}

static void frame_free(eqframe *fr)
{
    for (int i = 0; fr->args && i < fr->mf->d->nargs; i++)
        pp_expr_free(fr->args[i]);
    free(fr->args);
    for (int i = 0; fr->shared && fr->fork && i < fr->fork->ndata; i++)
        pp_expr_free(fr->shared[i]);
    free(fr->shared);
    for (int i = 0; fr->iv && i <= fr->mf->max_loop_id; i++)
        pp_expr_free(fr->iv[i]);
    free(fr->iv);
    pp_expr_free(fr->nthreads);
    pp_expr_free(fr->tid);
}

typedef struct {
    wctx *w;
    const eqframe *fr;
} sctx;

static pp_expr *known(const sctx *s, pp_expr *e)
{
    return pp_expr_ref(e ? e : s->w->unknown);
}

static pp_expr *named(const char *prefix, const char *name)
{
    char b[200];
    snprintf(b, sizeof b, "%s%s", prefix, name);
    for (char *p = b; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return pp_expr_sym(b);
}

static pp_expr *sub_atom(void *vp, const pp_expr *a);

/* An atom of a thread value's rule (model-thread-values.c): (tid) and
 * (nthreads) are the followed thread's index and its count (an OpenMP
 * member's; the first thread of a pthread_create site and P), the rest
 * as anywhere. */
static pp_expr *sub_rule_atom(void *vp, const pp_expr *a)
{
    const sctx *s = vp;
    if (a->kind == PP_E_TID)
        return s->fr->omp ? known(s, s->fr->tid) : pp_expr_int(0);
    if (a->kind == PP_E_NTHREADS)
        return s->fr->omp ? known(s, s->fr->nthreads) : pp_expr_ref(s->w->P);
    return sub_atom(vp, a);
}

/* A parameter for the equations: its symbol, or, for a value that differs
 * between the ranks (model-rankvals.c), rank 0's: its rule at rank 0 (the
 * rank the equations follow; sub_atom gives (rank) 0 and (nprocs) P), or
 * rank 0's recorded value where no rule fits. */
static pp_expr *param_sym(const sctx *s, int i)
{
    const pp_param *p = &s->w->m->params[i];
    if (!p->per_rank)
        return pp_expr_sym(p->name);
    if (p->rank_rule)
        return pp_expr_subst(p->rank_rule, sub_atom, (void *)s);
    return p->rank_n > 0 ? pp_expr_int(p->rank_val[0]) : pp_expr_ref(s->w->unknown);
}

static pp_expr *sub_atom(void *vp, const pp_expr *a)
{
    const sctx *s = vp;
    const eqframe *fr = s->fr;
    const pp_prog *m = s->w->m;
    const pp_dfunc *d = fr->mf->d;
    switch (a->kind) {
    case PP_E_ARG:
        for (int i = 0; a->name && i < d->nargs; i++)
            if (strcmp(d->argnames[i], a->name) == 0)
                return known(s, fr->args[i]);
        break;
    case PP_E_VAR:
        for (int i = 0; a->name && i < d->nparams; i++)
            if (strcmp(d->params[i].var, a->name) == 0 && fr->mf->param_of[i] >= 0)
                return param_sym(s, fr->mf->param_of[i]);
        /* a value that belongs to each thread: its rule */
        for (int i = 0; a->name && fr->mf->thread_rule && i < d->nparams; i++)
            if (strcmp(d->params[i].var, a->name) == 0 && fr->mf->thread_rule[i])
                return pp_expr_subst(fr->mf->thread_rule[i], sub_rule_atom, vp);
        break;
    case PP_E_GLOBAL:
        for (int i = 0; a->name && i < m->nparams; i++)
            if (m->params[i].is_global && strcmp(m->params[i].src, a->name) == 0)
                return param_sym(s, i);
        if (a->name && pp_prog_derived_index(m, a->name) >= 0)
            return pp_expr_ref(m->derived[pp_prog_derived_index(m, a->name)].expr);
        break;
    case PP_E_SYM:
        if (a->name && pp_prog_param_index(m, a->name) >= 0)
            return m->params[pp_prog_param_index(m, a->name)].per_rank
                       ? param_sym(s, pp_prog_param_index(m, a->name)) : NULL;
        if (a->name && strcmp(a->name, "P") == 0)
            return pp_expr_ref(s->w->P);
        break;
    case PP_E_SHARED:
        for (int i = 0; fr->fork && a->name && i < fr->fork->ndata; i++)
            if (strcmp(fr->fork->data_name[i], a->name) == 0)
                return known(s, fr->shared[i]);
        break;
    case PP_E_IV:
        if (a->ival >= 0 && a->ival <= fr->mf->max_loop_id)
            return known(s, fr->iv[a->ival]);
        break;
    case PP_E_NTHREADS:
        return known(s, fr->omp ? fr->nthreads : NULL);
    case PP_E_TID:
        return known(s, fr->omp ? fr->tid : NULL);
    case PP_E_RANK:
    case PP_E_NPROCS:
        if (m->pkind != PP_P_MPI)
            break;
        if (a->name) {
            s->w->mpi_named = 1;
            return named(a->kind == PP_E_RANK ? "rank_" : "nprocs_", a->name);
        }
        return a->kind == PP_E_RANK ? pp_expr_int(0) : pp_expr_ref(s->w->P);
    default:
        break;
    }
    return pp_expr_ref(s->w->unknown);
}

/* e in the equations' symbols, simplified under the facts; NULL when it
 * holds something the model cannot follow */
static pp_expr *subst(wctx *w, const eqframe *fr, const pp_expr *e)
{
    if (!e)
        return NULL;
    sctx s = {w, fr};
    pp_expr *r = pp_expr_subst(e, sub_atom, &s);
    if (pp_expr_has_unknown(r)) {
        pp_expr_free(r);
        return NULL;
    }
    pp_expr *t = pp_expr_simplify_under(r, &w->F);
    pp_expr_free(r);
    return t;
}

/* (k a b) simplified; takes a and b */
pp_expr *pp_eq_op2(pp_ekind k, pp_expr *a, pp_expr *b)
{
    pp_expr *kids[2] = {a, b};
    pp_expr *e = pp_expr_op(k, 2, kids);
    pp_expr *r = pp_expr_simplify(e);
    pp_expr_free(e);
    pp_expr_free(a);
    pp_expr_free(b);
    return r;
}

/* A condition the terms below hold under: 1 pushed, 0 it holds (nothing
 * pushed), -1 it cannot hold.  Takes c. */
static int cond_level(wctx *w, pp_expr *c)
{
    int d = pp_facts_decide(&w->F, c);
    if (d >= 0) {
        pp_expr_free(c);
        return d ? 0 : -1;
    }
    pp_eq_push_cond(w, c);
    return 1;
}

/* ---- sites -------------------------------------------------------------- */

static int walk_scope(wctx *w, eqframe *fr, int scope);

/* instantiate.c's site_runs: the branches around a site the model can
 * evaluate become conditions; otherwise the observed ratio multiplies.
 * 0, or -1 when the site cannot run. */
static int guard(wctx *w, const eqframe *fr, int gb, int gt, double ratio)
{
    const pp_mfunc *mf = fr->mf;
    int g = gb, want = gt, depth = 0, inner_known = -1, outer_known = 0;
    while (g >= 0 && g <= mf->max_branch_id && mf->branch_index_by_id[g] >= 0 && depth++ < 64) {
        const pp_dbranch *b = &mf->d->branches[mf->branch_index_by_id[g]];
        pp_expr *c = subst(w, fr, b->cond);
        if (inner_known < 0)
            inner_known = c != NULL;
        else
            outer_known |= c != NULL;
        if (c && !want) {
            pp_expr *n = pp_expr_op(PP_E_NOT, 1, &c);
            pp_expr_free(c);
            c = pp_expr_simplify_under(n, &w->F);
            pp_expr_free(n);
        }
        if (c && cond_level(w, c) < 0)
            return -1;
        g = b->guard_branch;
        want = b->guard_true;
    }
    if (inner_known == 1)
        return 0;
    if (inner_known == 0 && outer_known) {
        double br = mf->branch_ratio[mf->branch_index_by_id[gb]];
        if (br >= 0)
            ratio = gt ? br : 1 - br;
    }
    if (!(ratio < 0 || ratio >= 0.999))
        w->mult *= ratio;
    return 0;
}

/* n's positive part: conditions under which the loop runs pushed as
 * levels, and the count there (never negative under them) returned;
 * NULL when it cannot run. */
static pp_expr *positive_part(wctx *w, const pp_expr *n)
{
    if (pp_facts_nonneg(&w->F, n))
        return pp_expr_ref((pp_expr *)n);
    long z;
    if (n->kind == PP_E_MAX && n->nkids == 2 && (pp_expr_is_int(n->kids[0], &z) || pp_expr_is_int(n->kids[1], &z)) &&
        z == 0) {
        const pp_expr *x = pp_expr_is_int(n->kids[0], &z) && z == 0 ? n->kids[1] : n->kids[0];
        if (cond_level(w, pp_eq_op2(PP_E_GT, pp_expr_ref((pp_expr *)x), pp_expr_int(0))) < 0)
            return NULL;
        return pp_expr_ref((pp_expr *)x);
    }
    if (n->kind == PP_E_COND && (pp_expr_is_int(n->kids[2], &z) || pp_expr_is_int(n->kids[1], &z)) && z == 0) {
        int then = pp_expr_is_int(n->kids[2], &z) && z == 0;
        pp_expr *c = pp_expr_ref(n->kids[0]);
        if (!then) {
            pp_expr *nc = pp_expr_op(PP_E_NOT, 1, &c);
            pp_expr_free(c);
            c = pp_expr_simplify_under(nc, &w->F);
            pp_expr_free(nc);
        }
        if (cond_level(w, c) < 0)
            return NULL;
        return positive_part(w, n->kids[then ? 1 : 2]);
    }
    if (cond_level(w, pp_eq_op2(PP_E_GT, pp_expr_ref((pp_expr *)n), pp_expr_int(0))) < 0)
        return NULL;
    return pp_expr_ref((pp_expr *)n);
}

static int walk_loop(wctx *w, eqframe *fr, int k)
{
    const pp_mloop *ml = &fr->mf->loops[k];
    const pp_dloop *dl = &fr->mf->d->loops[k];
    const char *id = w->q->blocks[w->lblock[fr->fi][k]].id;
    char what[320];
    int rc = 0, nlv = w->nlv, nnames = w->nnames;
    double mult = w->mult;
    pp_eq_push_block(w, w->lblock[fr->fi][k]);
    snprintf(what, sizeof what, "entries of %s", id);
    pp_eq_term(w, 0, pp_prog_cost(w->m, ml->entry_slot), what, pp_cx_int(1));
    snprintf(what, sizeof what, "iterations of %s", id);
    pp_expr *n = ml->rule != PP_RULE_CONSTANT && ml->count ? subst(w, fr, ml->count) : NULL;
    int lid = dl->id >= 0 && dl->id <= fr->mf->max_loop_id ? dl->id : -1;
    if (!n) {
        /* the run's average per entry (instantiate.c does the same) */
        w->cant_follow = 1;
        w->mult *= pp_loop_trip(w->m, w->pv, ml);
        pp_eq_term(w, 0, pp_prog_cost(w->m, ml->slot), what, pp_cx_int(1));
        rc = walk_scope(w, fr, k);
        goto out;
    }
    pp_expr *A = positive_part(w, n);
    pp_expr_free(n);
    if (!A)
        goto out;
    pp_eq_term(w, 0, pp_prog_cost(w->m, ml->slot), what, pp_cx_expr(pp_expr_ref(A)));
    /* the variable: the IV itself for a unit step, else the iteration
     * number it (init + it*step) */
    pp_expr *init = subst(w, fr, dl->init), *step = subst(w, fr, dl->step);
    pp_expr *var = NULL, *lo = NULL, *hi = NULL, *iv = NULL;
    long s = 0;
    if (init && step && lid >= 0) {
        char b[80];
        if (pp_expr_is_int(step, &s) && (s == 1 || s == -1)) {
            var = pp_eq_fresh(w, dl->iv ? dl->iv : "i");
            pp_expr *last = pp_eq_op2(PP_E_ADD, pp_eq_op2(s > 0 ? PP_E_ADD : PP_E_SUB, pp_expr_ref(init), pp_expr_ref(A)),
                                pp_expr_int(s > 0 ? -1 : 1));
            lo = s > 0 ? pp_expr_ref(init) : last;
            hi = s > 0 ? last : pp_expr_ref(init);
            iv = pp_expr_ref(var);
        } else {
            snprintf(b, sizeof b, "%s_it", dl->iv ? dl->iv : "i");
            var = pp_eq_fresh(w, b);
            lo = pp_expr_int(0);
            hi = pp_eq_op2(PP_E_ADD, pp_expr_ref(A), pp_expr_int(-1));
            iv = pp_eq_op2(PP_E_ADD, pp_expr_ref(init), pp_eq_op2(PP_E_MUL, pp_expr_ref(var), pp_expr_ref(step)));
        }
    }
    pp_expr_free(init);
    pp_expr_free(step);
    int fmark = w->F.n;
    if (var) {
        pp_expr *a = pp_eq_op2(PP_E_SUB, pp_expr_ref(var), pp_expr_ref(lo));
        pp_expr *b = pp_eq_op2(PP_E_SUB, pp_expr_ref(hi), pp_expr_ref(var));
        pp_facts_add_ge0(&w->F, a);
        pp_facts_add_ge0(&w->F, b);
        pp_expr_free(a);
        pp_expr_free(b);
    }
    pp_eq_push_level(w, (eqlevel){.var = var, .lo = lo, .hi = hi, .n = A, .fmark = fmark, .fi = fr->fi, .loop = k});
    if (lid >= 0) {
        pp_expr_free(fr->iv[lid]);
        fr->iv[lid] = iv;
    } else
        pp_expr_free(iv);
    rc = walk_scope(w, fr, k);
    if (lid >= 0) {
        pp_expr_free(fr->iv[lid]);
        fr->iv[lid] = NULL;
    }
out:
    while (w->nlv > nlv)
        pp_eq_pop_level(w);
    pp_eq_names_pop(w, nnames);
    w->mult = mult;
    w->nb--;
    return rc;
}

static int walk_func(wctx *w, eqframe *fr)
{
    if (++w->depth > MAX_DEPTH) {
        snprintf(w->err, sizeof w->err, "calls nest deeper than %d (in %s): the model cannot unroll recursion",
                 MAX_DEPTH, fr->mf->d->name);
        return -1;
    }
    pp_eq_push_block(w, w->fblock[fr->fi]);
    int rc = walk_scope(w, fr, -1);
    w->nb--;
    w->depth--;
    return rc;
}

static int walk_call(wctx *w, eqframe *fr, int idx)
{
    const pp_mfunc *mf = fr->mf;
    const pp_dcall *dc = &mf->d->calls[idx];
    char what[400];
    snprintf(what, sizeof what, "calls of %s at line %d of %s", dc->callee ? dc->callee : "?", dc->line, mf->d->name);
    pp_eq_term(w, 0, pp_prog_cost(w->m, mf->call_slot + idx), what, pp_cx_int(1));
    int cfi = mf->call_callee[idx];
    if (cfi < 0)
        return 0;
    eqframe cf;
    if (frame_init(&cf, w->m, cfi))
        return -1;
    for (int i = 0; i < dc->nargs && i < cf.mf->d->nargs; i++)
        cf.args[i] = subst(w, fr, dc->args[i]);
    cf.omp = fr->omp;
    cf.nthreads = fr->nthreads ? pp_expr_ref(fr->nthreads) : NULL;
    cf.tid = fr->tid ? pp_expr_ref(fr->tid) : NULL;
    int rc = walk_func(w, &cf);
    frame_free(&cf);
    return rc;
}

/* ---- events ------------------------------------------------------------- */

/* The machine's cost `id` for x threads: a + b*x (linear) or a + b*log2(x)
 * (log2), times the in-situ factor. */
static void machine_cost(wctx *w, pp_cost_id id, const pp_expr *x)
{
    if (!w->mach)
        return;
    const pp_model *md = &w->mach->cost[id];
    double k = w->mach->sync_scale > 0 ? w->mach->sync_scale : 1;
    char what[160];
    snprintf(what, sizeof what, "%s (a)", pp_cost_key(id));
    pp_eq_term(w, 1, k * md->a, what, pp_cx_int(1));
    if (md->kind == PP_MODEL_CONST || !x)
        return;
    snprintf(what, sizeof what, "%s (b)", pp_cost_key(id));
    pp_eq_term(w, 1, k * md->b, what,
               md->kind == PP_MODEL_LINEAR ? pp_cx_expr(pp_expr_ref((pp_expr *)x)) : pp_cx_log2(pp_expr_ref((pp_expr *)x)));
}

/* Each event the instantiation makes an action of ends a segment: its
 * fixed cost (pp_inst_sync_action) is the real machine's synchronisation,
 * charged before the event (traverse.c), never computation: T (T1, the
 * PRAM's path) holds the work only. */
static void segments(wctx *w, long n)
{
    if (w->mach && n > 0)
        pp_eq_term(w, 1, pp_prog_cost(w->m, PP_SLOT_SEG), "segment ends (events)", pp_cx_int(n));
}

/* The child frame cf sees the values of ev's data= (a fork's data block,
 * the fields of a create's argument struct) as the parent fr gives them. */
static void bind_data(wctx *w, eqframe *fr, const pp_devent *ev, eqframe *cf)
{
    cf->fork = ev;
    cf->shared = calloc((size_t)ev->ndata + 1, sizeof *cf->shared);
    for (int i = 0; cf->shared && i < ev->ndata; i++)
        cf->shared[i] = subst(w, fr, ev->data_val[i]);
}

static int walk_fork(wctx *w, eqframe *fr, const pp_devent *ev, int idx)
{
    const pp_prog *m = w->m;
    pp_expr *team = m->pkind == PP_P_MPI ? pp_expr_int(m->omp_team_rec) : pp_expr_ref(w->P);
    pp_expr *nt = subst(w, fr, ev->nthreads);
    long v;
    if (nt && pp_expr_is_int(nt, &v)) {
        if (v > 0) {
            pp_expr_free(team);
            team = pp_expr_ref(nt);
        }
    } else if (nt) {
        pp_expr *k[3] = {pp_eq_op2(PP_E_GT, pp_expr_ref(nt), pp_expr_int(0)), nt, team};
        pp_expr *c = pp_expr_op(PP_E_COND, 3, k);
        pp_expr_free(k[0]);
        pp_expr_free(team);
        team = pp_expr_simplify(c);
        pp_expr_free(c);
    }
    pp_expr_free(nt);
    machine_cost(w, PP_COST_FORKJOIN_OMP, team);
    segments(w, 2);   /* the fork and the join */
    int cfi = fr->mf->ev_child[idx], rc = 0;
    if (cfi >= 0) {
        eqframe cf;
        if (frame_init(&cf, m, cfi))
            rc = -1;
        bind_data(w, fr, ev, &cf);
        cf.omp = 1;
        cf.nthreads = pp_expr_ref(team);
        cf.tid = pp_expr_int(0);
        if (rc == 0 && cf.shared)
            rc = walk_func(w, &cf);
        frame_free(&cf);
    }
    pp_expr_free(team);
    return rc;
}

/* The thread a create site starts: the walk follows the one its first
 * execution in the enclosing loop starts (the loop counts once for it). */
static int walk_create(wctx *w, eqframe *fr, const pp_devent *ev, int idx)
{
    machine_cost(w, PP_COST_CREATE, NULL);
    segments(w, 1);
    int cfi = fr->mf->ev_child[idx];
    if (cfi < 0)
        return 0;
    int li = pp_model_scope_of(fr->mf, ev->loop), lv = -1;
    for (int i = w->nlv - 1; i >= 0 && lv < 0 && li >= 0; i--)
        if (!w->lv[i].cond && w->lv[i].fi == fr->fi && w->lv[i].loop == li)
            lv = i;
    int lid = li >= 0 ? fr->mf->d->loops[li].id : -1;
    pp_expr *saved = NULL;
    if (lv >= 0) {
        w->lv[lv].skip = 1;
        if (lid >= 0 && lid <= fr->mf->max_loop_id && fr->iv[lid]) {
            /* the variable's first value */
            saved = fr->iv[lid];
            fr->iv[lid] = subst(w, fr, fr->mf->d->loops[li].init);
        }
    }
    eqframe cf;
    int rc = frame_init(&cf, w->m, cfi);
    if (rc == 0 && cf.mf->d->nargs > 0)
        cf.args[0] = subst(w, fr, ev->arg);
    /* the fields of the thread's argument, as the parent stored them */
    if (rc == 0 && ev->ndata > 0)
        bind_data(w, fr, ev, &cf);
    if (rc == 0)
        rc = walk_func(w, &cf);
    frame_free(&cf);
    if (lv >= 0) {
        w->lv[lv].skip = 0;
        if (saved) {
            pp_expr_free(fr->iv[lid]);
            fr->iv[lid] = saved;
        }
    }
    return rc;
}

/* MPI calls: the segments their actions end (inst-mpi.c) */
static long mpi_segments(pp_evkind k)
{
    switch (k) {
    case PP_EV_MPI_INIT: case PP_EV_MPI_FINALIZE: case PP_EV_MPI_OTHER: case PP_EV_COMM_FREE:
        return 0;
    case PP_EV_SENDRECV:
        return 3;
    default:
        return 1;
    }
}

static int walk_event(wctx *w, eqframe *fr, int idx)
{
    const pp_devent *ev = &fr->mf->d->events[idx];
    switch (ev->kind) {
    case PP_EV_FORK:
        return walk_fork(w, fr, ev, idx);
    case PP_EV_CREATE:
        return walk_create(w, fr, ev, idx);
    case PP_EV_JOIN:
        machine_cost(w, PP_COST_JOIN, NULL);
        segments(w, 1);
        return 0;
    case PP_EV_BARRIER: {
        int omp = fr->omp && (!ev->obj || (ev->callee && strncmp(ev->callee, "GOMP_", 5) == 0));
        machine_cost(w, omp ? PP_COST_BARRIER_OMP : PP_COST_BARRIER_PTHREAD, omp ? fr->nthreads : w->P);
        segments(w, 1);
        return 0;
    }
    case PP_EV_LOCK:
        machine_cost(w, PP_COST_LOCK, NULL);
        segments(w, 1);
        return 0;
    case PP_EV_UNLOCK:
        segments(w, 1);
        return 0;
    default:
        if (w->m->pkind == PP_P_MPI && pp_evkind_is_mpi(ev->kind)) {
            if (w->mach && mpi_segments(ev->kind))
                pp_eq_mpi_net(w, ev, fr->mf->d->name, subst(w, fr, ev->count));
            segments(w, mpi_segments(ev->kind));
        }
        return 0;
    }
}

static int walk_scope(wctx *w, eqframe *fr, int scope)
{
    const pp_mfunc *mf = fr->mf;
    int s = scope + 1, rc = 0;
    for (int i = 0; i < mf->nitems[s] && rc == 0; i++) {
        const pp_item *it = &mf->items[s][i];
        int nlv = w->nlv;
        double mult = w->mult;
        if (it->type == PP_I_LOOP) {
            const pp_dloop *dl = &mf->d->loops[it->idx];
            if (guard(w, fr, dl->guard_branch, dl->guard_true, mf->loop_ratio[it->idx]) == 0)
                rc = walk_loop(w, fr, it->idx);
        } else if (it->type == PP_I_EVENT) {
            const pp_devent *ev = &mf->d->events[it->idx];
            if (guard(w, fr, ev->guard_branch, ev->guard_true, mf->site_ratio[it->idx]) == 0)
                rc = walk_event(w, fr, it->idx);
        } else {
            const pp_dcall *dc = &mf->d->calls[it->idx];
            if (guard(w, fr, dc->guard_branch, dc->guard_true, mf->site_ratio[mf->d->nevents + it->idx]) == 0)
                rc = walk_call(w, fr, it->idx);
        }
        while (w->nlv > nlv)
            pp_eq_pop_level(w);
        w->mult = mult;
    }
    return rc;
}

int pp_eq_walk(wctx *w)
{
    const pp_prog *m = w->m;
    eqframe fr;
    if (frame_init(&fr, m, m->main_func))
        return -1;
    if (fr.mf->d->nargs > 0 && m->rec && m->rec->argc > 0)
        fr.args[0] = pp_expr_int(m->rec->argc);
    pp_eq_push_block(w, 0);
    int rc = walk_func(w, &fr);
    w->nb--;
    frame_free(&fr);
    if (w->mpi_named)
        pp_eq_note(w->q, "rank_NAME and nprocs_NAME are MPI rank 0's rank in communicator NAME and its size: "
                         "the equations cannot evaluate them");
    return rc;
}
