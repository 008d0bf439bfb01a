/* model-params.c - the problem parameters (chi) found in a record, their
 * values in every record, --set, and the binding of the processor count P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"
#include "resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find_param(const pp_prog *m, int is_global, int func, const char *src)
{
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].is_global == is_global && (is_global || m->params[i].func == func) &&
            strcmp(m->params[i].src, src) == 0)
            return i;
    return -1;
}

static int add_param(pp_prog *m, const char *name, int is_global, int func, int id, const char *src,
                     const pp_rparam *rp, long value)
{
    pp_param *np = realloc(m->params, sizeof *np * (size_t)(m->nparams + 1));
    if (!np)
        return -1;
    m->params = np;
    pp_param *p = &m->params[m->nparams++];
    memset(p, 0, sizeof *p);
    p->name = strdup(name);
    p->is_global = is_global;
    p->func = func;
    p->id = id;
    p->src = strdup(src);
    p->recorded = value;
    p->varying = rp && rp->min != rp->max;
    return 0;
}

int pp_model_build_params(pp_prog *m)
{
    pp_record *r = m->rec;
    for (int i = 0; i < r->nparams; i++) {
        pp_rparam *rp = &r->params[i];
        const pp_dfunc *d = &r->funcs[rp->func];
        const pp_dparam *dp = pp_desc_param(d, rp->id);
        if (!dp || pp_model_thread_varying(r, rp))
            continue;   /* a thread's value: model-thread-values.c */
        if (add_param(m, dp->name, 0, rp->func, rp->id, dp->var, rp, rp->value))
            return -1;
        if (rp->min != rp->max)
            pp_prog_warn(m, "parameter %s was set %ld times with values from %ld to %ld; the model uses the last, %ld",
                         dp->name, rp->count, rp->min, rp->max, rp->value);
        pp_mfunc *mf = &m->funcs[rp->func];
        for (int j = 0; j < d->nparams; j++)
            if (d->params[j].id == rp->id)
                mf->param_of[j] = m->nparams - 1;
    }
    for (int i = 0; i < r->ngparams; i++)
        if (find_param(m, 1, -1, r->gparams[i].name) < 0 && !pp_model_global_nondet(m, r->gparams[i].name) &&
            add_param(m, r->gparams[i].name, 1, -1, -1, r->gparams[i].name, NULL, r->gparams[i].value))
            return -1;
    return pp_model_thread_values(m);
}

/* How P enters: the loop around pthread_create, or OpenMP's team size. */
void pp_model_bind_P(pp_prog *m)
{
    m->pkind = PP_P_NONE;
    m->p_param = -1;
    int creates = 0, forks = 0;
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        for (int e = 0; e < mf->d->nevents; e++) {
            const pp_devent *ev = &mf->d->events[e];
            if (ev->kind == PP_EV_FORK)
                forks++;
            if (ev->kind != PP_EV_CREATE || m->pkind == PP_P_PARAM)
                continue;
            creates++;
            int li = pp_model_scope_of(mf, ev->loop);
            if (li < 0) {
                pp_prog_warn(m, "pthread_create at %s:%d is not in a loop: the number of threads is fixed",
                             mf->d->file ? mf->d->file : "?", ev->line);
                continue;
            }
            pp_expr *cnt = mf->loops[li].count;
            pp_expr *res = cnt ? pp_resolve_roots(m, f, cnt) : NULL;
            long off = 0;
            int pi = res ? pp_resolve_param_plus(m, res, &off) : -1;
            if (pi >= 0) {
                m->pkind = PP_P_PARAM;
                m->p_param = pi;
                m->p_offset = off;
            } else {
                char *s = res ? pp_expr_to_infix(res) : NULL;
                pp_prog_warn(m, "the loop around pthread_create at line %d runs %s times, not a single "
                                "parameter: P cannot be varied", ev->line, s ? s : "an unknown number of");
                free(s);
            }
            pp_expr_free(res);
        }
    }
    if (m->mpi)
        m->pkind = PP_P_MPI;     /* ranks, whatever threads each starts */
    if (m->pkind == PP_P_NONE && forks)
        m->pkind = PP_P_OMP;
    m->p_recorded = pp_prog_P_in(m, 0);
    if (m->pkind == PP_P_NONE && !creates && !forks)
        pp_prog_warn(m, "the program has no parallel region or thread creation the plugin saw: "
                        "every P gives the same time");
}

int pp_prog_param_in(const pp_prog *m, int k, int param, long *value)
{
    const pp_param *p = &m->params[param];
    if (k == 0 || k >= m->nrec) {
        *value = p->recorded;
        return k == 0 ? 0 : -1;
    }
    const pp_record *r = m->recs[k];
    if (p->is_global) {
        for (int i = 0; i < r->ngparams; i++)
            if (strcmp(r->gparams[i].name, p->src) == 0) {
                *value = r->gparams[i].value;
                return 0;
            }
        return -1;
    }
    for (int i = 0; i < r->nparams; i++)
        if (r->params[i].id == p->id && m->fmap[k][r->params[i].func] == p->func) {
            *value = r->params[i].value;
            return 0;
        }
    return -1;
}

int pp_prog_P_in(const pp_prog *m, int k)
{
    const pp_record *r = m->recs ? m->recs[k] : m->rec;
    if (m->pkind == PP_P_MPI)
        return r->mpi_size;
    if (m->pkind == PP_P_PARAM) {
        long v;
        if (pp_prog_param_in(m, k, m->p_param, &v))
            v = m->params[m->p_param].recorded;
        return (int)(v + m->p_offset);
    }
    if (m->pkind == PP_P_OMP) {
        int mx = 0;
        for (long i = 0; i < r->nevents; i++)
            if (r->events[i].kind == PP_EV_FORK && r->events[i].nthreads > mx)
                mx = r->events[i].nthreads;
        for (int t = 0; t < r->nthreads; t++)
            if (r->threads[t].nthreads > mx)
                mx = r->threads[t].nthreads;
        return mx > 0 ? mx : 1;
    }
    return 1;
}

/* Do records a and b run the same point: every parameter at the same
 * value (or missing from both), the same P and, for MPI runs, the same
 * rank? */
static int same_point(const pp_prog *m, int a, int b)
{
    if (pp_prog_P_in(m, a) != pp_prog_P_in(m, b))
        return 0;
    if (m->pkind == PP_P_MPI && m->recs[a]->mpi_rank != m->recs[b]->mpi_rank)
        return 0;
    for (int i = 0; i < m->nparams; i++) {
        long va = 0, vb = 0;
        int ha = pp_prog_param_in(m, a, i, &va) == 0, hb = pp_prog_param_in(m, b, i, &vb) == 0;
        if (ha != hb || (ha && va != vb))
            return 0;
    }
    return 1;
}

int pp_model_rec_groups(pp_prog *m)
{
    int n = m->nrec > 0 ? m->nrec : 1;
    int *g = realloc(m->rec_group, sizeof *g * (size_t)n);
    if (!g)
        return -1;
    m->rec_group = g;
    m->ngroups = 0;
    /* quadratic in the records: a few tens at most (K repeats at two
     * sizes, or the ranks of a few MPI runs) */
    for (int k = 0; k < n; k++) {
        g[k] = -1;
        for (int j = 0; j < k && g[k] < 0; j++)
            if (m->nrec > 0 && same_point(m, j, k))
                g[k] = g[j];
        if (g[k] < 0)
            g[k] = m->ngroups++;
    }
    return 0;
}

long pp_prog_team_size(const pp_prog *m, int P)
{
    /* P counts ranks in an MPI run: a team inside a rank keeps its size */
    return m->pkind == PP_P_MPI ? m->omp_team_rec : P;
}

int pp_prog_param_index(const pp_prog *m, const char *name)
{
    for (int i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return i;
    return -1;
}

int pp_vals_set(const pp_prog *m, pp_vals *pv, const char *name, long value, char *err, size_t errlen)
{
    int n = 0;
    /* parameters that share a name (a local copied into a global) move
     * together */
    for (int i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0) {
            if (m->params[i].per_rank) {
                char *r = m->params[i].rank_rule ? pp_expr_to_infix(m->params[i].rank_rule) : NULL;
                snprintf(err, errlen, "'%s' differs between the ranks: no problem parameter (%s)", name,
                         r ? r : "each rank's recorded value");
                free(r);
                return -1;
            }
            pv->v[i] = value;
            n++;
        }
    if (n == 0 && pp_prog_derived_index(m, name) >= 0) {
        /* refused rather than set: the record confirmed that the program
         * computes it from its inputs, so it moves with them */
        pp_prog_derived_hint(m, name, err, errlen);
        return -1;
    }
    if (n == 0) {
        int len = 0;
        char list[400] = "";
        for (int i = 0; i < m->nparams && len < (int)sizeof list - 40; i++)
            len += snprintf(list + len, sizeof list - (size_t)len, "%s%s", i ? ", " : "", m->params[i].name);
        snprintf(err, errlen, "no parameter named '%s' (the record's parameters: %s)", name,
                 m->nparams ? list : "none");
        return -1;
    }
    return 0;
}

int pp_vals_init(pp_vals *pv, const pp_prog *m)
{
    pv->v = malloc(sizeof *pv->v * (size_t)(m->nparams + 1));
    if (!pv->v)
        return -1;
    pp_vals_reset(m, pv);
    return 0;
}

int pp_vals_copy(pp_vals *dst, const pp_prog *m, const pp_vals *src)
{
    if (pp_vals_init(dst, m))
        return -1;
    if (!src)
        return 0;    /* the recorded point */
    memcpy(dst->v, src->v, sizeof *dst->v * (size_t)m->nparams);
    dst->scaled = src->scaled;
    dst->trip_scale = src->trip_scale;
    dst->max_graph = src->max_graph;
    return 0;
}

void pp_vals_free(pp_vals *pv)
{
    free(pv->v);
    pv->v = NULL;
}

void pp_vals_reset(const pp_prog *m, pp_vals *pv)
{
    for (int i = 0; i < m->nparams; i++)
        pv->v[i] = m->params[i].recorded;
    pv->scaled = NULL;
    pv->trip_scale = 1;
    pv->max_graph = 0;
}

void pp_vals_apply_P(const pp_prog *m, pp_vals *pv, int P)
{
    if (m->pkind == PP_P_PARAM)
        pv->v[m->p_param] = P - m->p_offset;
}

void pp_vals_of_record(const pp_prog *m, pp_vals *pv, int k)
{
    for (int i = 0; i < m->nparams; i++) {
        long v;
        pv->v[i] = pp_prog_param_in(m, k, i, &v) == 0 ? v : m->params[i].recorded;
    }
    pp_vals_apply_P(m, pv, pp_prog_P_in(m, k));
}

int pp_prog_default_P(const pp_prog *m, const pp_vals *pv)
{
    if (m->pkind == PP_P_PARAM) {
        long v = pv->v[m->p_param] + m->p_offset;
        if (v >= 1 && v <= 1000000)
            return (int)v;
    }
    return m->p_recorded;
}
