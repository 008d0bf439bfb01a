/* fit.c - see fit.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "fit.h"
#include "lsq.h"
#include "segments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Typical costs (ns) on a current processor: the prior that decides the
 * classes the runs cannot separate. */
static const double beta_prior[PP_NBETA] = {0.3, 1.0, 0.5, 0.5, 0.5, 3.0, 0.5, 5.0, 500.0};

typedef struct {
    const pp_record *r;
    int **loop_of_slot;   /* [func][slot]: loop index, or -1              */
    double *rows;         /* nseg x PP_NBETA                             */
    double *dur;
    long n, cap;
} fctx;

static const int op_class[PP_NOPS] = {PP_BETA_INT, PP_BETA_FP, PP_BETA_LOAD, PP_BETA_STORE, PP_BETA_BRANCH,
                                      PP_BETA_CALL};

static int add_seg(void *vp, double ns, double wall, double conc, const pp_rdelta *d, int nd)
{
    (void)conc;  /* the linear model is fitted on the times as recorded */
    (void)wall;
    fctx *c = vp;
    if (c->n == c->cap) {
        long cap = c->cap ? c->cap * 2 : 1024;
        double *nr = realloc(c->rows, sizeof *nr * (size_t)cap * PP_NBETA);
        if (nr)
            c->rows = nr;
        double *ndu = realloc(c->dur, sizeof *ndu * (size_t)cap);
        if (ndu)
            c->dur = ndu;
        if (!nr || !ndu)
            return -1;
        c->cap = cap;
    }
    double *chi = c->rows + (size_t)c->n * PP_NBETA;
    memset(chi, 0, sizeof *chi * PP_NBETA);
    chi[PP_BETA_SEGMENT] = 1;
    for (int i = 0; i < nd; i++) {
        int k = c->loop_of_slot[d[i].func][d[i].slot];
        if (k < 0)
            continue;
        const pp_dloop *l = &c->r->funcs[d[i].func].loops[k];
        double v = (double)d[i].delta;
        if (d[i].slot == l->slot) {             /* header executions */
            for (int o = 0; o < PP_NOPS; o++)
                chi[op_class[o]] += v * (double)l->ops[o];
            chi[PP_BETA_ITER] += v;
        } else {                                /* entries */
            chi[PP_BETA_ENTRY] += v;
            if (l->shape != PP_SHAPE_BOTTOM) {  /* the final test is not an iteration */
                for (int o = 0; o < PP_NOPS; o++)
                    chi[op_class[o]] -= v * (double)l->ops[o];
                chi[PP_BETA_ITER] -= v;
            }
        }
    }
    c->dur[c->n++] = ns;
    return 0;
}

int pp_fit_beta(pp_record *const *recs, int nrec, pp_betafit *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    fctx c = {0};
    int rc = 0;
    for (int k = 0; rc == 0 && k < nrec; k++) {
        const pp_record *r = recs[k];
        c.r = r;
        c.loop_of_slot = calloc((size_t)r->nfuncs + 1, sizeof *c.loop_of_slot);
        if (!c.loop_of_slot) {
            rc = -1;
            break;
        }
        for (int f = 0; rc == 0 && f < r->nfuncs; f++) {
            const pp_dfunc *d = &r->funcs[f];
            c.loop_of_slot[f] = malloc(sizeof(int) * (size_t)(d->nslots + 1));
            if (!c.loop_of_slot[f]) {
                rc = -1;
                break;
            }
            for (int s = 0; s <= d->nslots; s++)
                c.loop_of_slot[f][s] = -1;
            for (int l = 0; l < d->nloops; l++)
                if (d->loops[l].slot + 1 < d->nslots) {
                    c.loop_of_slot[f][d->loops[l].slot] = l;
                    c.loop_of_slot[f][d->loops[l].slot + 1] = l;
                }
        }
        if (rc == 0 && pp_segments_walk(r, add_seg, &c))
            rc = -1;
        for (int f = 0; f < r->nfuncs; f++)
            free(c.loop_of_slot[f]);
        free(c.loop_of_slot);
        c.loop_of_slot = NULL;
    }
    if (rc == 0) {
        /* the per-segment cost has its own prior; the operation classes
         * share one scale where the runs cannot tell them apart */
        int own[PP_NBETA] = {0};
        own[PP_BETA_SEGMENT] = 1;
        rc = pp_lsq_solve(c.rows, c.dur, (int)c.n, PP_NBETA, beta_prior, own, 1e-3, out->beta, out->se, &out->r2);
        out->nseg = c.n;
        for (int i = 0; i < PP_NBETA; i++)
            if (out->beta[i] < 0)
                out->beta[i] = 0;
    }
    if (rc)
        snprintf(err, errlen, "out of memory");
    free(c.rows);
    free(c.dur);
    return rc;
}
