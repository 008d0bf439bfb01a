/* instance.c - make and free an instance (model.h, pp_instantiate): the
 * unrolling's context set up for a point's values, costs and P, main
 * run on the main thread (or on every rank, a class of ranks at a time),
 * the classes' segments finished, the barriers' parties counted, and the
 * context freed.  instantiate.c interprets what main runs.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "longrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run main on thread t0 (the main thread, or rank c->rank's). */
static int run_main(ictx *c, int t0)
{
    const pp_prog *m = c->m;
    frame fr;
    if (t0 < 0 || pp_inst_frame_init(&fr, m, m->main_func))
        return pp_inst_fail(c, "out of memory");
    /* main's argc is the recorded command line's */
    const pp_dfunc *md = m->funcs[m->main_func].d;
    if (md->nargs > 0 && m->rec && m->rec->argc > 0) {
        fr.args[0] = m->rec->argc;
        fr.args_known[0] = 1;
    }
    int rc = pp_inst_exec_func(c, t0, &fr, 1, 1, NULL);
    pp_inst_frame_free(&fr);
    return rc;
}

int pp_instantiate(const pp_prog *m, const pp_vals *pv, int P, int flags, pp_instance *out, char *err,
                   size_t errlen)
{
    return pp_instantiate_costed(m, pv, NULL, P, -1, flags, out, err, errlen);
}

int pp_instantiate_rank(const pp_prog *m, const pp_vals *pv, int P, int rank, int flags, pp_instance *out,
                        char *err, size_t errlen)
{
    return pp_instantiate_costed(m, pv, NULL, P, rank, flags, out, err, errlen);
}

int pp_instantiate_costed(const pp_prog *m, const pp_vals *pv, const pp_costs *costs, int P, int rank, int flags,
                          pp_instance *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->P = P;
    /* the values with P applied: the caller's are not changed */
    pp_vals at;
    if (pp_vals_copy(&at, m, pv)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_vals_apply_P(m, &at, P);
    pp_costs fitted = {0};
    if (!costs) {
        pp_costs_plain(&fitted, m, NULL);
        if (!fitted.v) {
            pp_vals_free(&at);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        costs = &fitted;
    } else
        fitted.own = NULL;
    out->seg_ns = costs->v[PP_SLOT_SEG];
    if (flags & PP_INST_ACTIONS)
        pp_long_walk_begin(P);
    ictx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.pv = &at;
    c.costs = costs;
    c.in = out;
    /* the segments that stand for several members are the walk's; the
     * drawn graph and --by read every thread's own actions */
    if (!(flags & PP_INST_ACTIONS) || (flags & (PP_INST_STRUCT | PP_INST_SITES)))
        flags &= ~PP_INST_CLASSES;
    c.flags = flags;
    c.P = P;
    c.mpi = m->pkind == PP_P_MPI;
    int rc = 0;
    out->totals = calloc((size_t)m->nfuncs + 1, sizeof *out->totals);
    out->fellback = calloc((size_t)m->nfuncs + 1, sizeof *out->fellback);
    c.dither = calloc((size_t)m->nfuncs + 1, sizeof *c.dither);
    c.keycache = calloc((size_t)m->nfuncs + 1, sizeof *c.keycache);
    for (int f = 0; c.keycache && f < m->nfuncs; f++)
        c.keycache[f] = calloc((size_t)m->funcs[f].d->nevents + 1, sizeof **c.keycache);
    c.count_stable = calloc((size_t)m->nfuncs + 1, sizeof *c.count_stable);
    for (int f = 0; c.count_stable && f < m->nfuncs; f++)
        c.count_stable[f] = calloc((size_t)m->funcs[f].d->nloops + 1, 1);
    if (!out->totals || !out->fellback || !c.dither)
        rc = pp_inst_fail(&c, "out of memory");
    if (rc == 0 && (flags & PP_INST_MEMSTAT) &&
        !(out->memstat = calloc((size_t)m->nfuncs + 1, sizeof *out->memstat)))
        rc = pp_inst_fail(&c, "out of memory");
    for (int f = 0; rc == 0 && out->memstat && f < m->nfuncs; f++)
        if (!(out->memstat[f] = calloc((size_t)m->funcs[f].d->nloops + 1, sizeof **out->memstat)))
            rc = pp_inst_fail(&c, "out of memory");
    for (int f = 0; rc == 0 && f < m->nfuncs; f++) {
        out->totals[f] = calloc((size_t)m->funcs[f].d->nloops + 1, sizeof **out->totals);
        out->fellback[f] = calloc((size_t)m->funcs[f].d->nloops + 1, 1);
        c.dither[f] = calloc((size_t)(m->funcs[f].d->nevents + m->funcs[f].d->ncalls + m->funcs[f].d->nloops) + 1,
                             sizeof **c.dither);
        if (!out->totals[f] || !out->fellback[f] || !c.dither[f])
            rc = pp_inst_fail(&c, "out of memory");
    }
    if (rc == 0 && m->thread_refusal) {
        int moved = P != m->p_recorded;
        for (int i = 0; i < m->nparams; i++)
            moved |= at.v[i] != m->params[i].recorded;
        if (moved)
            rc = pp_inst_fail(&c, "%s", m->thread_refusal);
    }
    if (rc == 0 && m->main_func < 0)
        rc = pp_inst_fail(&c, "the record has no instrumented 'main': compile the file with main() with the plugin");
    if (rc == 0 && c.mpi && (P < 1 || rank >= P))
        rc = pp_inst_fail(&c, "rank %d of %d ranks", rank, P);
    c.single_rank = rank >= 0;
    char why[1400];
    if (rc == 0 && c.mpi && !c.single_rank && pp_prog_rank_refusal(m, P, why, sizeof why))
        rc = pp_inst_fail(&c, "%s", why);
    if (rc == 0 && c.mpi) {
        /* one thread per rank, made first so that thread r is rank r
         * (threads the ranks start come after them) */
        int lo = rank >= 0 ? rank : 0, hi = rank >= 0 ? rank + 1 : P;
        for (int r = lo; rc == 0 && r < hi; r++)
            if (pp_inst_new_thread(&c, PP_IT_RANK, -1, r, m->main_func) < 0)
                rc = -1;
        if (rc == 0)
            rc = pp_inst_comm_init(&c);
        /* ranks in classes (inst-class.c): a run of ranks that gives a
         * class's trace its results shares its actions */
        pp_inst_team *rt = pp_inst_rank_team_new(&c);
        c.fold_rank = rt == NULL;
        for (int r = lo; rc == 0 && r < hi; r++) {
            /* the classes given up: the programs hold the rank from here
             * on (pp_inst_set_rank forgets those that read it: the rank
             * changes; no class's trace is read any more) */
            if (rt && !pp_inst_class_on(rt))
                c.fold_rank = 1;
            if (pp_inst_class_retry(rt, r, hi - r)) {
                c.fold_rank = 0;
                pp_inst_code_reset(&c);   /* the programs held rank r - 1 */
            }
            pp_inst_set_rank(&c, r);
            c.rank_members++;
            int k = pp_inst_class_find(&c, rt, r);
            if (k >= 0) {
                int last = (int)pp_inst_class_extent(&c, rt, k, r, hi - 1);
                c.rank_members += last - r;
                rc = pp_inst_rank_class_share(&c, rt, k, r - lo, last - r + 1);
                r = last;
                continue;
            }
            pp_inst_comm_rank_start(&c);
            /* ranks mostly have as many actions as the one before: room
             * for them at once, not by doubling and copying */
            if (r > lo)
                rc = pp_inst_reserve(&c, r - lo, out->threads[r - lo - 1].nact + 8);
            pp_inst_class_begin(&c, rt, r - lo);
            if (rc == 0)
                rc = run_main(&c, r - lo);
            if (rc == 0)
                rc = pp_inst_flush(&c, r - lo);
            pp_inst_class_end(&c, rt, rc == 0);
        }
        pp_inst_team_free(rt);
        if (rc == 0 && getenv("PERFPRED_CLASS_STATS"))
            fprintf(stderr, "perfpred: P=%d: %ld of %ld ranks share their class's actions\n", P, c.rank_copied,
                    c.rank_members);
    } else if (rc == 0)
        rc = run_main(&c, pp_inst_new_thread(&c, PP_IT_MAIN, -1, 0, m->main_func));
    if (rc == 0) {
        for (int t = 0; rc == 0 && t < out->nthreads; t++)
            rc = pp_inst_flush(&c, t);
    }
    int again = 0;     /* the walk cannot weight the segments: without them */
    if (rc == 0 && (flags & PP_INST_CLASSES) && (rc = pp_inst_vseg_finish(&c)) > 0) {
        again = 1;
        rc = -1;
    }
    if (rc == 0)
        pp_inst_count_parties(&c);
    /* for the class walk's tests (docs/model.md, "Team members in classes") */
    if (rc == 0 && c.members > 0 && getenv("PERFPRED_CLASS_STATS"))
        fprintf(stderr, "perfpred: P=%d: %ld of %ld team members copied from their class, %ld walked in its segment\n",
                P, c.copied, c.members, c.walked);
    free(c.pthreads_of);
    for (int f = 0; c.dither && f < m->nfuncs; f++)
        free(c.dither[f]);
    free(c.dither);
    for (int f = 0; c.keycache && f < m->nfuncs; f++)
        free(c.keycache[f]);
    free(c.keycache);
    for (int f = 0; c.count_stable && f < m->nfuncs; f++)
        free(c.count_stable[f]);
    free(c.count_stable);
    free(c.keyidx);
    free(c.pending);
    free(c.unjoined);
    free(c.next_unjoined);
    free(c.pool_owner);
    free(c.pool_tid);
    free(c.pool_thread);
    free(c.pool_run);
    free(c.poolh);
    pp_inst_code_free(&c);
    pp_inst_comm_ctx_free(&c);
    pp_inst_sites_ctx_free(&c);
    if (rc == 0 && c.oom)
        rc = pp_inst_fail(&c, "out of memory");
    if (rc) {
        snprintf(err, errlen, "%s", c.err[0] ? c.err : "instantiation failed");
        pp_instance_free(out);
        if (again)
            rc = pp_instantiate_costed(m, pv, costs, P, rank, flags & ~PP_INST_CLASSES, out, err, errlen);
        pp_costs_free(&fitted);
        pp_vals_free(&at);
        return rc ? -1 : 0;
    }
    pp_costs_free(&fitted);
    pp_vals_free(&at);
    out->graph = c.ngraph;
    if (flags & PP_INST_ACTIONS)
        pp_long_unrolled(P, out->nthreads, c.nactions);
    return 0;
}

void pp_instance_free(pp_instance *in)
{
    for (int t = 0; t < in->nthreads; t++)
        if (!in->threads[t].borrowed)
            free(in->threads[t].act);
    free(in->threads);
    for (int k = 0; k < in->nkeys; k++)
        free(in->keys[k]);
    free(in->keys);
    free(in->key_parties);
    free(in->team_size);
    free(in->vsegs);
    free(in->vruns);
    free(in->vlast);
    pp_inst_comms_free(in);
    pp_inst_sites_free(in);
    /* totals has a NULL after the last function */
    for (int f = 0; in->totals && in->totals[f]; f++)
        free(in->totals[f]);
    for (int f = 0; in->fellback && in->fellback[f]; f++)
        free(in->fellback[f]);
    free(in->fellback);
    free(in->totals);
    for (int f = 0; in->memstat && in->memstat[f]; f++)
        free(in->memstat[f]);
    free(in->memstat);
    memset(in, 0, sizeof *in);
}
