/* model-mpi.c - what the program model adds for MPI runs: the records are
 * the ranks (of one or more runs), observations are summed over them, and
 * each MPI call site gets its datatype's size and its recorded bytes per
 * call (the fallback when the count cannot be evaluated).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_model_mpi_init(pp_prog *m, char *err, size_t errlen)
{
    int nmpi = 0;
    for (int k = 0; k < m->nrec; k++)
        nmpi += m->recs[k]->mpi_rank >= 0;
    if (nmpi == 0)
        return 0;
    if (nmpi != m->nrec) {
        for (int k = 0; k < m->nrec; k++)
            if (m->recs[k]->mpi_rank < 0) {
                snprintf(err, errlen, "%s: not a rank of an MPI run, given with MPI ranks (%s): give the "
                         "ranks of MPI runs only", m->recs[k]->path, m->recs[0]->path);
                return -1;
            }
    }
    m->mpi = 1;
    /* the descriptors' MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG are the
     * values of the program's mpi.h: the same in every record */
    const pp_record *r0 = m->recs[0];
    for (int k = 1; k < m->nrec; k++) {
        const pp_record *r = m->recs[k];
        if (!pp_record_same_mpi(r, r0)) {
            snprintf(err, errlen, "%s: recorded with another MPI (%s: MPI_ANY_SOURCE %d, MPI_PROC_NULL %d, "
                     "MPI_ANY_TAG %d) than %s (%s: %d, %d, %d): give runs of one MPI implementation",
                     r->path, r->mpi_lib ? r->mpi_lib : "library not recorded", r->mpi_any_source,
                     r->mpi_proc_null, r->mpi_any_tag, r0->path, r0->mpi_lib ? r0->mpi_lib : "library not recorded",
                     r0->mpi_any_source, r0->mpi_proc_null, r0->mpi_any_tag);
            return -1;
        }
    }
    m->mpi_any_source = r0->mpi_any_source;
    m->mpi_any_tag = r0->mpi_any_tag;
    m->mpi_proc_null = r0->mpi_proc_null;
    /* the OpenMP team inside a rank stays what the ranks ran with */
    int mx = 0;
    for (int k = 0; k < m->nrec; k++) {
        const pp_record *r = m->recs[k];
        for (long i = 0; i < r->nevents; i++)
            if (r->events[i].kind == PP_EV_FORK && r->events[i].nthreads > mx)
                mx = r->events[i].nthreads;
    }
    m->omp_team_rec = mx > 0 ? mx : 1;
    return 0;
}

/* The function of record k that is function f of the primary, or -1. */
static int func_in(const pp_prog *m, int k, int f)
{
    if (k == 0)
        return f;
    const pp_record *r = m->recs[k];
    for (int g = 0; g < r->nfuncs; g++)
        if (m->fmap[k][g] == f)
            return g;
    return -1;
}

uint64_t pp_prog_slot_total(const pp_prog *m, int f, int slot)
{
    if (!m->mpi)
        return pp_record_slot_total(m->rec, f, slot);
    uint64_t s = 0;
    for (int k = 0; k < m->nrec; k++) {
        int g = func_in(m, k, f);
        if (g >= 0)
            s += pp_record_slot_total(m->recs[k], g, slot);
    }
    return s;
}

int pp_model_mpi_sites(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        mf->ev_elem = malloc(sizeof *mf->ev_elem * (size_t)(d->nevents + 1));
        mf->ev_relem = malloc(sizeof *mf->ev_relem * (size_t)(d->nevents + 1));
        mf->ev_bytes_obs = malloc(sizeof *mf->ev_bytes_obs * (size_t)(d->nevents + 1));
        if (!mf->ev_elem || !mf->ev_relem || !mf->ev_bytes_obs)
            return -1;
        for (int i = 0; i < d->nevents; i++) {
            const pp_devent *ev = &d->events[i];
            mf->ev_elem[i] = pp_mpi_type_bytes(ev->type);
            mf->ev_relem[i] = pp_mpi_type_bytes(ev->rtype);
            mf->ev_bytes_obs[i] = -1;
            if (!pp_evkind_is_mpi(ev->kind))
                continue;
            /* the recorded bytes per call of this site, over every rank */
            double sum = 0;
            long n = 0;
            for (int k = 0; k < (m->nrec ? m->nrec : 1); k++) {
                const pp_record *r = m->nrec ? m->recs[k] : m->rec;
                int g = m->nrec ? func_in(m, k, f) : f;
                for (long e = 0; g >= 0 && e < r->nevents; e++) {
                    const pp_rev *re = &r->events[e];
                    if (re->func != g || re->site != ev->id)
                        continue;
                    int64_t b = ev->kind == PP_EV_SCATTER && re->rbytes >= 0 ? re->rbytes : re->bytes;
                    if (b >= 0) {
                        sum += (double)b;
                        n++;
                    }
                }
            }
            if (n > 0)
                mf->ev_bytes_obs[i] = sum / (double)n;
        }
    }
    return 0;
}
