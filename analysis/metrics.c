/* metrics.c - see metrics.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "metrics.h"

#include <stdio.h>
#include <string.h>

static int run(pp_prog *m, const pp_machine *mach, int P, double *pram, double *real, pp_trav *keep,
               int *approx, int *nthreads, char *err, size_t errlen)
{
    pp_prog_apply_P(m, P);
    pp_instance in;
    if (pp_instantiate(m, P, PP_INST_ACTIONS, &in, err, errlen))
        return -1;
    pp_trav tp;
    int rc = pp_traverse(m, &in, NULL, &tp, err, errlen);
    if (rc == 0) {
        *pram = tp.time;
        pp_trav_free(&tp);
        if (real) {
            pp_trav tr;
            rc = pp_traverse(m, &in, mach, &tr, err, errlen);
            if (rc == 0) {
                *real = tr.time;
                if (keep)
                    *keep = tr;
                else
                    pp_trav_free(&tr);
            }
        }
    }
    *approx |= in.approx;
    if (nthreads)
        *nthreads = in.nthreads;
    pp_instance_free(&in);
    return rc;
}

int pp_predict(pp_prog *m, const pp_machine *mach, int P, pp_metrics *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (P < 1) {
        snprintf(err, errlen, "P must be at least 1");
        return -1;
    }
    out->P = P;
    /* remember a parameter P overrides, to restore it afterwards */
    long saved = m->pkind == PP_P_PARAM ? m->params[m->p_param].value : 0;
    int rc = run(m, mach, 1, &out->t1, NULL, NULL, &out->approx, NULL, err, errlen);
    pp_trav tr;
    memset(&tr, 0, sizeof tr);
    if (rc == 0)
        rc = run(m, mach, P, &out->t_pram, &out->t_real, &tr, &out->approx, &out->nthreads, err, errlen);
    if (m->pkind == PP_P_PARAM)
        m->params[m->p_param].value = saved;
    if (rc)
        return -1;
    out->busy = tr.total_busy;
    out->wait = tr.total_wait;
    out->sync = tr.total_sync;
    pp_trav_free(&tr);
    pp_metrics_compute(out, out->t1, out->t_pram, out->t_real, P);
    return 0;
}

void pp_metrics_compute(pp_metrics *mt, double t1, double t_pram, double t_real, int P)
{
    mt->P = P;
    mt->t1 = t1;
    mt->t_pram = t_pram;
    mt->t_real = t_real;
    mt->t_mir = t1 / P;                       /* eq. 6 */
    mt->La = t_pram - mt->t_mir;              /* eq. 2 */
    mt->L = t_real - mt->t_mir;               /* eq. 3 */
    mt->Ea = t_pram > 0 ? mt->t_mir / t_pram : 1;  /* eq. 4 */
    mt->E = t_real > 0 ? mt->t_mir / t_real : 1;   /* eq. 5 */
}
