/* model.c - build the program model from a record (see model.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model.h"
#include "cost.h"
#include "model-counts.h"
#include "model-internal.h"
#include "resolve.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pp_rule_name(pp_rule r)
{
    switch (r) {
    case PP_RULE_SYMBOLIC: return "symbolic";
    case PP_RULE_FITTED: return "fitted";
    default: return "constant";
    }
}

void pp_prog_warn(pp_prog *m, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **nw = realloc(m->warn, sizeof *nw * (size_t)(m->nwarn + 1));
    if (!nw)
        return;
    m->warn = nw;
    m->warn[m->nwarn++] = strdup(buf);
}

static int is_sync_kind(pp_evkind k)
{
    /* MPI calls that communicate order the ranks; init, finalize and the
     * calls perfpred does not model do not */
    return k == PP_EV_FORK || k == PP_EV_CREATE || k == PP_EV_JOIN || k == PP_EV_BARRIER ||
           k == PP_EV_LOCK || k == PP_EV_UNLOCK || (k >= PP_EV_COND_WAIT && k <= PP_EV_SEM_POST) ||
           (k >= PP_EV_SEND && k <= PP_EV_COMM_DUP);
}

/* Can a lock's object be told at every call?  (addr NAME ...) and
 * critical can; (arg NAME) can where every call site passes an object's
 * address (or its own argument on); else the instantiation guesses
 * (inst-events.c, pp_inst_obj_key): one lock per call of the function,
 * the same for the lock and the unlock of one expression. */
static int obj_known(const pp_prog *m, int fi, const pp_expr *o, int depth)
{
    if (!o)
        return 0;
    if (o->kind == PP_E_ADDR || o->kind == PP_E_CRITICAL)
        return 1;
    if (o->kind != PP_E_ARG || !o->name || depth > 8)
        return 0;
    const pp_dfunc *d = m->funcs[fi].d;
    int pos = -1;
    for (int i = 0; i < d->nargs && pos < 0; i++)
        if (strcmp(d->argnames[i], o->name) == 0)
            pos = i;
    int calls = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int c = 0; c < m->funcs[f].d->ncalls; c++) {
            if (m->funcs[f].call_callee[c] != fi)
                continue;
            const pp_dcall *dc = &m->funcs[f].d->calls[c];
            if (pos < 0 || pos >= dc->nargs || !obj_known(m, f, dc->args[pos], depth + 1))
                return 0;
            calls++;
        }
    return calls > 0;
}

static void lock_notes(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        for (int i = 0; i < d->nevents; i++) {
            const pp_devent *ev = &d->events[i];
            int lockish = ev->kind == PP_EV_LOCK || ev->kind == PP_EV_UNLOCK || ev->kind == PP_EV_COND_WAIT;
            if (!lockish || (ev->callee && strncmp(ev->callee, "GOMP_", 5) == 0))
                continue;
            if (obj_known(m, f, ev->obj, 0))
                continue;
            if (m->funcs[f].ev_runkey && m->funcs[f].ev_runkey[i]) {
                /* the run named it: every thread used one address (model-lockobj.c); a
                 * cond_wait's mutex is then the lock's of the same expression */
                continue;
            }
            char *txt = ev->obj ? pp_expr_to_sexpr(ev->obj) : NULL;
            pp_prog_warn(m, "%s: the object of the %s at line %d is not known (obj=%s): its identity is "
                         "guessed, one per thread (the same for a lock and an unlock of that expression in %s; "
                         "no exclusion between threads is modelled)", d->name, pp_evkind_name(ev->kind),
                         ev->line, txt ? txt : "?", d->name);
            free(txt);
        }
    }
}

static int item_cmp(const void *a, const void *b)
{
    const pp_item *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    /* same block: loops are entered after the statements before them; keep
     * the plugin's order (type, then index) for a stable result */
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int *index_by_id(int n, const void *base, size_t size, size_t idoff, int *maxid)
{
    int mx = -1;
    for (int i = 0; i < n; i++) {
        int id = *(const int *)((const char *)base + (size_t)i * size + idoff);
        if (id > mx)
            mx = id;
    }
    *maxid = mx;
    int *ix = malloc(sizeof *ix * (size_t)(mx + 2));
    if (!ix)
        return NULL;
    for (int i = 0; i <= mx + 1; i++)
        ix[i] = -1;
    for (int i = 0; i < n; i++) {
        int id = *(const int *)((const char *)base + (size_t)i * size + idoff);
        if (id >= 0)
            ix[id] = i;
    }
    return ix;
}

static int add_item(pp_mfunc *mf, int scope, pp_item it)
{
    int s = scope + 1;
    pp_item *ni = realloc(mf->items[s], sizeof *ni * (size_t)(mf->nitems[s] + 1));
    if (!ni)
        return -1;
    mf->items[s] = ni;
    ni[mf->nitems[s]++] = it;
    return 0;
}

/* scope of an item whose enclosing loop id is lid: -1 (body) or loop index */
int pp_model_scope_of(const pp_mfunc *mf, int lid)
{
    if (lid < 0 || lid > mf->max_loop_id)
        return -1;
    return mf->loop_index[lid];
}

static int build_structure(pp_prog *m, int fi)
{
    pp_mfunc *mf = &m->funcs[fi];
    const pp_dfunc *d = mf->d;
    mf->loop_index = index_by_id(d->nloops, d->loops, sizeof *d->loops, offsetof(pp_dloop, id), &mf->max_loop_id);
    mf->call_index_by_id = index_by_id(d->ncalls, d->calls, sizeof *d->calls, offsetof(pp_dcall, id), &mf->max_call_id);
    mf->event_index_by_id = index_by_id(d->nevents, d->events, sizeof *d->events, offsetof(pp_devent, id), &mf->max_event_id);
    mf->branch_index_by_id = index_by_id(d->nbranches, d->branches, sizeof *d->branches, offsetof(pp_dbranch, id), &mf->max_branch_id);
    mf->nscopes = 1 + d->nloops;
    mf->nitems = calloc((size_t)mf->nscopes, sizeof *mf->nitems);
    mf->items = calloc((size_t)mf->nscopes, sizeof *mf->items);
    mf->loops = calloc((size_t)d->nloops + 1, sizeof *mf->loops);
    mf->call_callee = calloc((size_t)d->ncalls + 1, sizeof *mf->call_callee);
    mf->ev_child = calloc((size_t)d->nevents + 1, sizeof *mf->ev_child);
    mf->param_of = calloc((size_t)d->nparams + 1, sizeof *mf->param_of);
    mf->branch_ratio = calloc((size_t)d->nbranches + 1, sizeof *mf->branch_ratio);
    mf->site_ratio = calloc((size_t)(d->nevents + d->ncalls) + 1, sizeof *mf->site_ratio);
    mf->loop_ratio = calloc((size_t)d->nloops + 1, sizeof *mf->loop_ratio);
    if (!mf->loop_index || !mf->call_index_by_id || !mf->event_index_by_id || !mf->branch_index_by_id ||
        !mf->nitems || !mf->items || !mf->loops || !mf->call_callee || !mf->ev_child ||
        !mf->param_of || !mf->branch_ratio || !mf->site_ratio || !mf->loop_ratio)
        return -1;
    for (int i = 0; i < d->nloops; i++)
        if (add_item(mf, pp_model_scope_of(mf, d->loops[i].parent), (pp_item){PP_I_LOOP, i, d->loops[i].pos}))
            return -1;
    for (int i = 0; i < d->nevents; i++) {
        if (add_item(mf, pp_model_scope_of(mf, d->events[i].loop), (pp_item){PP_I_EVENT, i, d->events[i].pos}))
            return -1;
        mf->ev_child[i] = d->events[i].child ? pp_record_func_index(m->rec, d->events[i].child) : -1;
    }
    for (int i = 0; i < d->ncalls; i++) {
        if (add_item(mf, pp_model_scope_of(mf, d->calls[i].loop), (pp_item){PP_I_CALL, i, d->calls[i].pos}))
            return -1;
        mf->call_callee[i] = pp_record_func_index(m->rec, d->calls[i].callee);
    }
    for (int s = 0; s < mf->nscopes; s++)
        if (mf->nitems[s] > 1)
            qsort(mf->items[s], (size_t)mf->nitems[s], sizeof *mf->items[s], item_cmp);
    for (int i = 0; i < d->nparams; i++)
        mf->param_of[i] = -1;
    return 0;
}


/* sync flags: fixpoint over loops and functions (calls make it global) */
static void compute_sync(pp_prog *m)
{
    int changed = 1, rounds = 0;
    while (changed && rounds++ < m->nfuncs + 8) {
        changed = 0;
        for (int f = 0; f < m->nfuncs; f++) {
            pp_mfunc *mf = &m->funcs[f];
            const pp_dfunc *d = mf->d;
            /* innermost first: loops are listed outer before inner */
            for (int k = d->nloops - 1; k >= -1; k--) {
                int s = k + 1, sync = 0;
                for (int i = 0; i < mf->nitems[s] && !sync; i++) {
                    const pp_item *it = &mf->items[s][i];
                    if (it->type == PP_I_LOOP)
                        sync = mf->loops[it->idx].sync;
                    else if (it->type == PP_I_EVENT)
                        sync = is_sync_kind(d->events[it->idx].kind);
                    else
                        sync = mf->call_callee[it->idx] >= 0 && m->funcs[mf->call_callee[it->idx]].sync;
                }
                int *flag = k < 0 ? &mf->sync : &mf->loops[k].sync;
                if (sync && !*flag) {
                    *flag = 1;
                    changed = 1;
                }
            }
        }
    }
}





/* Invocations of function f in the run: calls to it, threads started in
 * it, team members that ran it, and 1 for main. */
static double invocations(const pp_prog *m, int f)
{
    /* an MPI run's ranks each ran main */
    double n = f == m->main_func ? (m->mpi ? m->nrec : 1) : 0;
    for (int g = 0; g < m->nfuncs; g++) {
        const pp_mfunc *mg = &m->funcs[g];
        for (int c = 0; c < mg->d->ncalls; c++)
            if (mg->call_callee[c] == f)
                n += (double)pp_prog_slot_total(m, g, mg->d->calls[c].slot);
        for (int e = 0; e < mg->d->nevents; e++)
            if (mg->ev_child[e] == f) {
                const pp_devent *ev = &mg->d->events[e];
                if (ev->kind == PP_EV_CREATE)
                    n += (double)pp_prog_slot_total(m, g, ev->slot);
            }
    }
    /* OpenMP team members: each fork execution ran f once per member */
    for (int g = 0; g < m->nfuncs; g++) {
        const pp_mfunc *mg = &m->funcs[g];
        for (int e = 0; e < mg->d->nevents; e++)
            if (mg->ev_child[e] == f && mg->d->events[e].kind == PP_EV_FORK) {
                /* each fork execution ran f once per team member */
                for (long i = 0; i < m->rec->nevents; i++) {
                    const pp_rev *re = &m->rec->events[i];
                    if (re->kind == PP_EV_FORK && re->func == g && re->site == mg->d->events[e].id)
                        n += re->nthreads > 0 ? re->nthreads : 1;
                }
            }
    }
    return n;
}

static void site_ratios(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        double inv = -1;
        for (int i = 0; i < d->nevents + d->ncalls; i++) {
            int isev = i < d->nevents;
            int lid = isev ? d->events[i].loop : d->calls[i - d->nevents].loop;
            int slot = isev ? d->events[i].slot : d->calls[i - d->nevents].slot;
            double ex = (double)pp_prog_slot_total(m, f, slot);
            double opp;
            int li = pp_model_scope_of(mf, lid);
            if (li >= 0)
                opp = (double)mf->loops[li].obs_iters;
            else {
                if (inv < 0)
                    inv = invocations(m, f);
                opp = inv;
            }
            mf->site_ratio[i] = opp > 0 ? ex / opp : -1;
            if (mf->site_ratio[i] > 1)
                mf->site_ratio[i] = 1;  /* a site runs at most once per opportunity in our model */
        }
        for (int k = 0; k < d->nloops; k++) {
            int li = pp_model_scope_of(mf, d->loops[k].parent);
            double opp;
            if (li >= 0)
                opp = (double)mf->loops[li].obs_iters;
            else {
                if (inv < 0)
                    inv = invocations(m, f);
                opp = inv;
            }
            double r = opp > 0 ? (double)mf->loops[k].obs_entries / opp : -1;
            /* a scheduled dispatch loop is entered by every thread its
             * count gives chunks (desc-sched.c), not by the run's share */
            if (d->loops[k].flags & PP_LF_OMP_SCHED)
                r = -1;
            mf->loop_ratio[k] = r > 1 ? 1 : r;
        }
    }
}





/* Shapes: sizes in the parameters only (a size that depends on an argument
 * or a loop index cannot be summed at another problem size). */
static int only_params(const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_SYM || e->kind == PP_E_INT)
        return 1;
    if (pp_expr_is_atom(e) || e->kind == PP_E_UNKNOWN)
        return 0;
    for (int i = 0; i < e->nkids; i++)
        if (!only_params(e->kids[i]))
            return 0;
    return 1;
}

static void build_shapes(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        for (int k = 0; k < d->nshapes; k++) {
            pp_expr *r = d->shapes[k].bytes ? pp_resolve_roots(m, f, d->shapes[k].bytes) : NULL;
            if (!r || !only_params(r)) {
                pp_expr_free(r);
                continue;
            }
            pp_expr **n = realloc(m->shape_bytes, sizeof *n * (size_t)(m->nshape + 1));
            if (!n) {
                pp_expr_free(r);
                return;
            }
            m->shape_bytes = n;
            m->shape_bytes[m->nshape++] = r;
        }
    }
}

struct at_point {
    const pp_prog *m;
    const pp_vals *pv;
};

static int param_value(void *vp, const pp_expr *a, int64_t *out)
{
    const struct at_point *c = vp;
    if (a->kind != PP_E_SYM || !a->name)
        return -1;
    int i = pp_prog_param_index(c->m, a->name);
    if (i < 0)
        return -1;
    *out = pp_vals_get(c->m, c->pv, i);
    return 0;
}

int pp_prog_eval(const pp_prog *m, const pp_vals *pv, const pp_expr *e, int64_t *out)
{
    struct at_point c = {m, pv};
    return e ? pp_expr_eval_i64(e, param_value, &c, out) : -1;
}

double pp_prog_footprint(const pp_prog *m, const pp_vals *pv)
{
    struct at_point c = {m, pv};
    double sum = 0;
    for (int i = 0; i < m->nshape; i++) {
        int64_t v;
        if (pp_expr_eval_i64(m->shape_bytes[i], param_value, &c, &v) == 0 && v > 0)
            sum += (double)v;
    }
    return sum;
}





/* The function of record A that is function G of record B: the one with
 * the same name and, among the functions of that name, the same rank.
 * Static functions of different files may share a name (SQLite's
 * randomFunc in sqlite3.c and in speedtest1.c, tests/realworld); both
 * records list them in the same order (the __pp_desc section's). */
static int same_func(const pp_record *a, const pp_record *b, int g)
{
    if (a == b)
        return g;
    int rank = 0;
    for (int i = 0; i < g; i++)
        if (strcmp(b->funcs[i].name, b->funcs[g].name) == 0)
            rank++;
    for (int i = 0; i < a->nfuncs; i++)
        if (strcmp(a->funcs[i].name, b->funcs[g].name) == 0 && rank-- == 0)
            return i;
    return -1;
}

/* The records given together must come from one program: the same
 * functions with the same descriptors. */
static int map_records(pp_prog *m, pp_record **recs, int nrec, char *err, size_t errlen)
{
    m->nrec = nrec;
    m->recs = calloc((size_t)nrec, sizeof *m->recs);
    m->fmap = calloc((size_t)nrec, sizeof *m->fmap);
    if (!m->recs || !m->fmap)
        goto oom;
    for (int k = 0; k < nrec; k++) {
        pp_record *r = recs[k];
        m->recs[k] = r;
        m->fmap[k] = malloc(sizeof(int) * (size_t)(r->nfuncs + 1));
        if (!m->fmap[k])
            goto oom;
        for (int g = 0; g < r->nfuncs; g++) {
            int f = same_func(recs[0], r, g);
            const pp_dfunc *a = f >= 0 ? &recs[0]->funcs[f] : NULL, *b = &r->funcs[g];
            char why[320];
            const char *d = pp_desc_differs(a, b, why, sizeof why);
            /* builds for two MPI implementations differ in their constants
             * and datatypes: pp_model_mpi_init says so, better */
            if (d && a && recs[0]->mpi_rank >= 0 && r->mpi_rank >= 0 && !pp_record_same_mpi(recs[0], r))
                d = NULL;
            if (d) {
                snprintf(err, errlen, "%s: not a record of the same program as %s (function %s %s)", r->path,
                         recs[0]->path, b->name, d);
                return -1;
            }
            m->fmap[k][g] = f;
        }
        if (r->nfuncs != recs[0]->nfuncs) {
            snprintf(err, errlen, "%s: not a record of the same program as %s (%d functions against %d)",
                     r->path, recs[0]->path, r->nfuncs, recs[0]->nfuncs);
            return -1;
        }
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int pp_prog_build(pp_prog *m, pp_record *r, char *err, size_t errlen)
{
    return pp_prog_build_multi(m, &r, 1, err, errlen);
}

int pp_prog_build_multi(pp_prog *m, pp_record **recs, int nrec, char *err, size_t errlen)
{
    return pp_prog_build_with(m, recs, nrec, NULL, err, errlen);
}

int pp_prog_refit_costs(pp_prog *m, const pp_machine *mach, char *err, size_t errlen)
{
    m->fit_mach = mach;
    int rc = pp_cost_fit(m, err, errlen);
    m->fit_mach = NULL;
    return rc;
}

int pp_prog_build_with(pp_prog *m, pp_record **recs, int nrec, const pp_machine *mach, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->model_error = 0.03;   /* PP_MODEL_ERROR_DEFAULT (metrics.h) */
    m->cache_rule = 1;       /* the memory model, on unless a command says */
    m->cost_quantile = PP_COST_QUANTILE_DEFAULT;
    if (mach && mach->has_beta) {
        m->has_beta_prior = 1;
        memcpy(m->beta_prior, mach->beta, sizeof m->beta_prior);
    }
    pp_record *r = recs[0];
    m->rec = r;
    if (map_records(m, recs, nrec, err, errlen))
        return -1;
    m->nfuncs = r->nfuncs;
    m->funcs = calloc((size_t)r->nfuncs + 1, sizeof *m->funcs);
    if (!m->funcs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->main_func = pp_record_func_index(r, "main");
    for (int f = 0; f < m->nfuncs; f++) {
        m->funcs[f].d = &r->funcs[f];
        if (build_structure(m, f)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    if (pp_model_mpi_init(m, err, errlen))
        return -1;
    if (pp_model_build_params(m) || pp_model_derive_globals(m) || pp_model_rank_values(m) || pp_model_mpi_sites(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_counts_observe(m);
    compute_sync(m);
    if (pp_model_condbars(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pp_model_run_locks(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    lock_notes(m);
    pp_counts_claims(m);
    /* inner loops first (a loop is listed before the loops it holds) */
    if (pp_model_args_read(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = m->funcs[f].d->nloops - 1; k >= 0; k--)
            pp_model_loop_ivs(m, &m->funcs[f], k, &m->funcs[f].loops[k]);
    site_ratios(m);
    /* loops the plugin could not count: try an integer multiple of a
     * parameter before settling for a constant (Clement & Quinn, rule 2) */
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            pp_mloop *ml = &m->funcs[f].loops[k];
            if (ml->rule == PP_RULE_CONSTANT && ml->trip >= 2) {
                const char *why = m->funcs[f].d->loops[k].why;
                char buf[120];
                snprintf(buf, sizeof buf, "no symbolic count (%s)", why ? why : "unknown");
                pp_counts_refit(m, f, k, buf);
            }
        }
    pp_model_bind_P(m);
    if (pp_model_rec_groups(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    build_shapes(m);
    m->footprint_rec = pp_prog_footprint(m, NULL);
    if (m->main_func < 0) {
        snprintf(err, errlen, "%s: the record has no instrumented function 'main' "
                              "(compile the file that defines main with -fplugin=perfpred.so)", r->path);
        return -1;
    }
    m->fit_mach = mach;
    int frc = pp_cost_fit(m, err, errlen);
    m->fit_mach = NULL;
    if (frc)
        return -1;
    if (pp_counts_verify(m, err, errlen))
        return -1;
    /* verification may have replaced the count of the loop around
     * pthread_create by a fitted one: bind P again */
    pp_pkind before = m->pkind;
    int nw = m->nwarn;
    pp_model_bind_P(m);
    if (m->pkind != before) {
        /* another P binding: the records' P, and so their groups, too */
        if (pp_model_rec_groups(m)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (pp_counts_verify(m, err, errlen))
            return -1;
    } else {
        while (m->nwarn > nw)     /* the same warnings again */
            free(m->warn[--m->nwarn]);
    }
    return 0;
}

void pp_prog_free(pp_prog *m)
{
    for (int i = 0; i < m->nmemo; i++)
        pp_mem_rec_clear(&m->memo[i]);
    free(m->memo);
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        for (int s = 0; s < mf->nscopes; s++)
            free(mf->items[s]);
        for (int k = 0; mf->loops && k < mf->d->nloops; k++) {
            pp_expr_free(mf->loops[k].count);
            free(mf->loops[k].ivs);
            free(mf->loops[k].fit_note);
        }
        free(mf->items); free(mf->nitems); free(mf->loops); free(mf->call_callee); free(mf->arg_read);
        free(mf->ev_child); free(mf->loop_index); free(mf->param_of);
        free(mf->branch_ratio); free(mf->site_ratio); free(mf->loop_ratio); free(mf->call_index_by_id);
        free(mf->event_index_by_id); free(mf->branch_index_by_id);
        free(mf->ev_elem); free(mf->ev_relem); free(mf->ev_bytes_obs);
        free(mf->cb_of_event); free(mf->cb_of_loop); free(mf->cb_wait);
        for (int i = 0; mf->ev_runkey && i < mf->d->nevents; i++)
            free(mf->ev_runkey[i]);
        free(mf->ev_runkey);
        free(mf->ev_mutex_lock);
    }
    pp_model_thread_values_free(m);
    free(m->funcs);
    for (int i = 0; i < m->nparams; i++) {
        free(m->params[i].name);
        free(m->params[i].src);
        pp_expr_free(m->params[i].rank_rule);
        free(m->params[i].rank_val);
        free(m->params[i].rank_why);
        free(m->params[i].note);
    }
    free(m->params);
    for (int i = 0; i < m->nderived; i++) {
        free(m->derived[i].name);
        pp_expr_free(m->derived[i].def);
        pp_expr_free(m->derived[i].expr);
    }
    free(m->derived);
    for (int i = 0; i < m->nwarn; i++)
        free(m->warn[i]);
    free(m->warn);
    free(m->fit);
    free(m->cost_slot);
    free(m->cost_cov);
    for (int i = 0; i < m->nshape; i++)
        pp_expr_free(m->shape_bytes[i]);
    free(m->shape_bytes);
    for (int k = 0; m->fmap && k < m->nrec; k++)
        free(m->fmap[k]);
    free(m->fmap);
    free(m->recs);
    free(m->rec_group);
    memset(m, 0, sizeof *m);
}

void pp_mem_rec_clear(pp_mem_rec *r)
{
    free(r->first);
    free(r->loop);
    r->first = NULL;
    r->loop = NULL;
}
