/* replay.c - see replay.h.
 *
 * The run being modelled completed.  A model that hangs at the run's own
 * size and P, or whose loops do not run there as often as they did, would
 * make every prediction a statement about another program; the commands
 * check this first and say where the model and the run part, rather than
 * predict from it.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "replay.h"
#include "memory.h"
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first loop whose model total at the recorded size and P differs
 * from the run's, as "FUNC:Lk (FILE:LINE): the run N, the model M"; 0
 * when none.  Compared: the primary record of a model built from one run
 * of threads (an MPI run's model totals are per rank, and a model of
 * several records is checked against each in show's match column).  Not
 * divergences: loops of a dynamic or guided schedule, which the model
 * deals itself (docs/model.md, "OpenMP schedules"), the waiting loop of a
 * hand-built barrier, which is the barrier's wait (model-cond.c), and a
 * count fitted over several records, which passes near them rather than
 * through them. */
static int count_divergence(const pp_prog *m, char *out, size_t n)
{
    if (m->pkind == PP_P_MPI || m->nrec != 1)
        return 0;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_mfunc *mf = &m->funcs[f];
        for (int k = 0; k < mf->d->nloops; k++) {
            const pp_mloop *ml = &mf->loops[k];
            const pp_dloop *dl = &mf->d->loops[k];
            if (ml->matched || (dl->flags & PP_LF_OMP_SCHED) || ml->pow_param >= 0 ||
                (mf->cb_of_loop && mf->cb_of_loop[k] >= 0))
                continue;
            /* within 1 %: the rounding of a ratio spread over the
             * iterations (a loop under a branch the model cannot
             * evaluate), not a model of another program */
            if (fabsl(ml->model_iters - (long double)ml->obs_iters) <= 0.01L * (long double)ml->obs_iters)
                continue;
            const char *file = mf->d->file ? mf->d->file : "?";
            snprintf(out, n, "%s:L%d (%s:%d): the run %llu iterations, the model %.0Lf", mf->d->name, dl->id,
                     strrchr(file, '/') ? strrchr(file, '/') + 1 : file, dl->line,
                     (unsigned long long)ml->obs_iters, ml->model_iters);
            return 1;
        }
    }
    return 0;
}

int pp_replay_check(pp_prog *m, const pp_machine *mach, char *err, size_t errlen)
{
    if (m->rec->incomplete_sig)
        return 0;       /* the run did not complete: a hang may be right */
    pp_machine def;
    if (!mach) {
        pp_machine_default(&def);
        mach = &def;
    }
    /* the default machine is this check's alone: prepared for it, and
     * forgotten after */
    pp_vals rec;
    if (pp_mem_prepare(m, mach) || pp_vals_init(&rec, m)) {
        if (mach == &def)
            pp_mem_forget(m, &def);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char why[2048] = "";
    double t = 0;
    int rc = pp_predict_real(m, &rec, mach, m->p_recorded, &t, why, sizeof why);
    pp_vals_free(&rec);
    if (mach == &def)
        pp_mem_forget(m, &def);
    if (rc && strstr(why, PP_ERR_HANG)) {
        snprintf(err, errlen, "%s: the model does not reproduce the run: the run completed at its recorded size "
                              "and P = %d, the model of it does not (%s)", m->rec->path ? m->rec->path : "?",
                 m->p_recorded, why);
        return -1;
    }
    char div[600];
    if (count_divergence(m, div, sizeof div)) {
        snprintf(err, errlen, "%s: the model does not reproduce the run: a loop's count at the recorded size and "
                              "P = %d differs from the run's (first: %s)", m->rec->path ? m->rec->path : "?",
                 m->p_recorded, div);
        return -1;
    }
    return 0;
}
