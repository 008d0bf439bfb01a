/* model-ivs.c - which loops' iterations differ: the induction variables
 * a loop's subtree reads (its counts, starts and steps, its sites'
 * guards, its events, the arguments it passes to callees that read them),
 * and the arguments each function reads (docs/model.md, section 4): a
 * loop whose body reads no variable of its own is multiplied, not
 * enumerated.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdlib.h>
#include <string.h>

static void collect_ivs(const pp_expr *e, pp_mloop *ml)
{
    if (!e)
        return;
    if (e->kind == PP_E_IV) {
        for (int i = 0; i < ml->nivs; i++)
            if (ml->ivs[i] == e->ival)
                return;
        int *n = realloc(ml->ivs, sizeof *n * (size_t)(ml->nivs + 1));
        if (!n)
            return;
        ml->ivs = n;
        ml->ivs[ml->nivs++] = (int)e->ival;
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        collect_ivs(e->kids[i], ml);
}

static int has_iv(const pp_mloop *ml, int id)
{
    for (int i = 0; i < ml->nivs; i++)
        if (ml->ivs[i] == id)
            return 1;
    return 0;
}

static void add_iv(pp_mloop *ml, int id)
{
    if (has_iv(ml, id))
        return;
    int *n = realloc(ml->ivs, sizeof *n * (size_t)(ml->nivs + 1));
    if (!n)
        return;
    ml->ivs = n;
    ml->ivs[ml->nivs++] = id;
}

/* Does evaluating e always fail: an unknown value ('?', a load the
 * plugin could not follow) that every evaluation reaches (not behind a
 * short-circuit: a conditional's arms, the second operand of && and ||)? */
static int always_unknown(const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_UNKNOWN)
        return 1;
    if (e->kind == PP_E_COND || e->kind == PP_E_AND || e->kind == PP_E_OR)
        return e->nkids > 0 && always_unknown(e->kids[0]);
    for (int i = 0; i < e->nkids; i++)
        if (always_unknown(e->kids[i]))
            return 1;
    return 0;
}

/* The IVs a guard's condition reads, where it can be evaluated: one that
 * never can (j != i, j a list's link) leaves its site to its observed
 * ratio whatever the IVs (instantiate.c, site_runs), and a loop whose
 * body it guards need not be walked iteration by iteration for it (md's
 * pair loop). */
static void guard_ivs(const pp_mfunc *mf, int branch, pp_mloop *into)
{
    if (branch >= 0 && branch <= mf->max_branch_id && mf->branch_index_by_id[branch] >= 0) {
        const pp_expr *cond = mf->d->branches[mf->branch_index_by_id[branch]].cond;
        if (!always_unknown(cond))
            collect_ivs(cond, into);
    }
}

int pp_full_walk(void)
{
    /* read once; instantiations may run at once (metrics.c, reals_at) */
    static int full_walk = -1;
    int full = __atomic_load_n(&full_walk, __ATOMIC_RELAXED);
    if (full < 0) {
        const char *e = getenv("PERFPRED_FULL_WALK");
        full = e && *e && strcmp(e, "0") != 0;
        __atomic_store_n(&full_walk, full, __ATOMIC_RELAXED);
    }
    return full;
}

/* Does e read the argument named name, or one that the instantiation
 * cannot name (then it may be any)? */
static int reads_arg(const pp_expr *e, const char *name)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_ARG && (!e->name || strcmp(e->name, name) == 0))
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (reads_arg(e->kids[i], name))
            return 1;
    return 0;
}

/* Mark the arguments of mf that e reads; *changed when one is new. */
static void mark_args(pp_mfunc *mf, const pp_expr *e, int *changed)
{
    for (int i = 0; e && i < mf->d->nargs; i++)
        if (!mf->arg_read[i] && reads_arg(e, mf->d->argnames[i])) {
            mf->arg_read[i] = 1;
            *changed = 1;
        }
}

/* ... and those the chain of branches a site is under reads (site_runs
 * in instantiate.c evaluates every one of them) */
static void mark_chain(pp_mfunc *mf, int branch, int *changed)
{
    for (int depth = 0; branch >= 0 && branch <= mf->max_branch_id && mf->branch_index_by_id[branch] >= 0 &&
                        depth < 64; depth++) {
        const pp_dbranch *b = &mf->d->branches[mf->branch_index_by_id[branch]];
        mark_args(mf, b->cond, changed);
        branch = b->guard_branch;
    }
}

/* Which arguments of each function the instantiation of a call can read:
 * those its loops' counts, starts and steps, its sites' guards, and the
 * arguments of its callees that they read are made of; every one where
 * it holds events (their objects and messages).  A fixpoint over the
 * calls.  A leaf helper called per element (init(i, j, n) in a loop
 * nest) reads none, so the loop that calls it is costed once, not
 * iteration by iteration: the same sum, as every iteration costs the
 * same. */
int pp_model_args_read(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        if (!(mf->arg_read = calloc((size_t)mf->d->nargs + 1, 1)))
            return -1;
        if (mf->d->nevents > 0 || pp_full_walk())
            memset(mf->arg_read, 1, (size_t)mf->d->nargs);
    }
    /* each round marks one argument more at least, or ends */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int f = 0; f < m->nfuncs; f++) {
            pp_mfunc *mf = &m->funcs[f];
            const pp_dfunc *d = mf->d;
            for (int k = 0; k < d->nloops; k++) {
                const pp_dloop *dl = &d->loops[k];
                mark_args(mf, mf->loops[k].count, &changed);
                mark_args(mf, dl->init, &changed);
                mark_args(mf, dl->bound, &changed);
                mark_args(mf, dl->step, &changed);
                mark_args(mf, dl->deal_init, &changed);
                mark_args(mf, dl->deal_step, &changed);
                mark_chain(mf, dl->guard_branch, &changed);
            }
            for (int i = 0; i < d->ncalls; i++) {
                const pp_dcall *dc = &d->calls[i];
                int cfi = mf->call_callee[i];
                mark_chain(mf, dc->guard_branch, &changed);
                for (int j = 0; cfi >= 0 && j < dc->nargs && j < m->funcs[cfi].d->nargs; j++)
                    if (m->funcs[cfi].arg_read[j])
                        mark_args(mf, dc->args[j], &changed);
            }
        }
    }
    return 0;
}

/* The IVs whose values matter inside loop k's body (not to its own
 * bounds): the instantiation multiplies a body by the loop's count when
 * the loop's own IV is not among them.  Computed inner loops first, so a
 * child's set is known: a child's init and step matter only when its own
 * body reads its IV. */
void pp_model_loop_ivs(const pp_prog *m, pp_mfunc *mf, int k, pp_mloop *into)
{
    const pp_dfunc *d = mf->d;
    int s = k + 1;
    for (int i = 0; i < mf->nitems[s]; i++) {
        const pp_item *it = &mf->items[s][i];
        if (it->type == PP_I_LOOP) {
            const pp_dloop *dl = &d->loops[it->idx];
            const pp_mloop *cl = &mf->loops[it->idx];
            collect_ivs(cl->count, into);
            guard_ivs(mf, dl->guard_branch, into);
            for (int j = 0; j < cl->nivs; j++)
                if (cl->ivs[j] != dl->id)
                    add_iv(into, cl->ivs[j]);
            if (has_iv(cl, dl->id)) {
                collect_ivs(dl->init, into);
                collect_ivs(dl->step, into);
                collect_ivs(dl->deal_init, into);
                collect_ivs(dl->deal_step, into);
            }
        } else if (it->type == PP_I_EVENT) {
            const pp_devent *ev = &d->events[it->idx];
            collect_ivs(ev->obj, into);
            collect_ivs(ev->arg, into);
            collect_ivs(ev->nthreads, into);
            for (int j = 0; j < ev->ndata; j++)
                collect_ivs(ev->data_val[j], into);
            guard_ivs(mf, ev->guard_branch, into);
        } else {
            /* a callee's arguments that its instantiation reads */
            const pp_dcall *dc = &d->calls[it->idx];
            const pp_mfunc *cf = mf->call_callee[it->idx] >= 0 ? &m->funcs[mf->call_callee[it->idx]] : NULL;
            for (int j = 0; cf && j < dc->nargs && j < cf->d->nargs; j++)
                if (cf->arg_read[j])
                    collect_ivs(dc->args[j], into);
            guard_ivs(mf, dc->guard_branch, into);
        }
    }
}

