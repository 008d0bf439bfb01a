/* insitu.c - see insitu.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "insitu.h"
#include "metrics.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const pp_prog *m;
    pp_vals pv;          /* the values of the record replayed */
    pp_machine *mach;
    int nrec;
    double rec_ns;
    int failed;
    char *err;
    size_t errlen;
} replay_ctx;

static const pp_record *record_of(const pp_prog *m, int k)
{
    return m->recs ? m->recs[k] : m->rec;
}

/* libgomp starts its thread pool in the first parallel region, once per
 * process: milliseconds on some hosts, against microseconds for a fork
 * after it (what the machine file's forkjoin.omp measures).  The time from
 * the main thread's first fork to its first team start, in ns. */
static double omp_startup(const pp_rthread *th)
{
    for (int e = 0; e < th->nev; e++)
        if (th->ev[e]->kind == PP_EV_FORK) {
            for (int f = e + 1; f < th->nev; f++)
                if (th->ev[f]->kind == PP_EV_TEAM_BEGIN)
                    return th->ev[f]->t0 > th->ev[e]->t0 ? (double)(th->ev[f]->t0 - th->ev[e]->t0) : 0;
            return 0;
        }
    return 0;
}

/* The recorded wall time of run k: its main thread's life, less the
 * one-time start of OpenMP's pool (*startup) which the model leaves out. */
static double wall_of(const pp_record *r, double *startup)
{
    *startup = 0;
    for (int t = 0; t < r->nthreads; t++) {
        const pp_rthread *th = &r->threads[t];
        if (th->id >= 0 && th->kind == PP_T_MAIN && th->end > th->start) {
            *startup = omp_startup(th);
            return (double)(th->end - th->start) - *startup;
        }
    }
    return 0;
}

/* The replayed wall times of every record, summed, with factor k. */
static double replay(double k, void *vp)
{
    replay_ctx *c = vp;
    c->mach->sync_scale = k;
    double sum = 0;
    for (int r = 0; r < c->nrec && !c->failed; r++) {
        for (int i = 0; i < c->m->nparams; i++) {
            long v;
            if (pp_prog_param_in(c->m, r, i, &v) == 0)
                c->pv.v[i] = v;
        }
        double t;
        if (pp_predict_real(c->m, &c->pv, c->mach, pp_prog_P_in(c->m, r), &t, c->err, c->errlen))
            c->failed = 1;
        else
            sum += t;
    }
    return sum - c->rec_ns;
}

int pp_insitu_sync(const pp_prog *m, pp_machine *mach, pp_insitu *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->factor = 1.0;
    int nrec = m->nrec ? m->nrec : 1;
    double rec_ns = 0;
    for (int r = 0; r < nrec; r++) {
        const pp_record *rec = record_of(m, r);
        if (!rec->host || strcmp(rec->host, mach->name) != 0) {
            snprintf(out->why, sizeof out->why, "%s was recorded on '%s', the machine file describes '%s'",
                     rec->path, rec->host ? rec->host : "?", mach->name);
            return 0;
        }
        double st;
        double w = wall_of(rec, &st);
        out->startup_ns += st;
        if (w <= 0) {
            snprintf(out->why, sizeof out->why, "%s has no wall time for its main thread", rec->path);
            return 0;
        }
        rec_ns += w;
    }
    replay_ctx c = {m, {0}, mach, nrec, rec_ns, 0, err, errlen};
    if (pp_vals_init(&c.pv, m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double saved = mach->sync_scale;
    double flo = replay(PP_INSITU_MIN, &c);
    double fhi = c.failed ? 0 : replay(PP_INSITU_MAX, &c);
    if (c.failed)
        goto fail;
    out->rec_ns = rec_ns;
    if (fhi - flo < 1e-6 * rec_ns) {
        snprintf(out->why, sizeof out->why, "the recorded runs have no synchronisation cost to scale");
        mach->sync_scale = saved;
        pp_vals_free(&c.pv);
        return 0;
    }
    double k = 1.0;
    if (flo >= 0) {
        k = PP_INSITU_MIN;      /* the work alone takes longer than the runs */
        out->at_bound = -1;
    } else if (fhi <= 0) {
        k = PP_INSITU_MAX;
        out->at_bound = 1;
    } else {
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
        gsl_function F = {replay, &c};
        if (s && gsl_root_fsolver_set(s, &F, PP_INSITU_MIN, PP_INSITU_MAX) == GSL_SUCCESS) {
            for (int it = 0; it < 60 && !c.failed; it++) {
                gsl_root_fsolver_iterate(s);
                k = gsl_root_fsolver_root(s);
                if (gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s), 0, 1e-3) ==
                    GSL_SUCCESS)
                    break;
            }
        }
        gsl_root_fsolver_free(s);
        gsl_set_error_handler(old);
        if (c.failed)
            goto fail;
    }
    out->fit_ns = replay(k, &c) + rec_ns;
    if (c.failed)
        goto fail;
    out->factor = k;
    out->applied = 1;
    mach->sync_scale = k;
    pp_vals_free(&c.pv);
    return 0;
fail:
    mach->sync_scale = saved;
    pp_vals_free(&c.pv);
    return -1;
}
