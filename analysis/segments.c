/* segments.c - see segments.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "segments.h"

int pp_segments_walk(const pp_record *r, pp_segment_fn fn, void *ctx)
{
    for (int t = 0; t < r->nthreads; t++) {
        const pp_rthread *th = &r->threads[t];
        if (th->id < 0)
            continue;
        /* CPU time where the record has it: preemption is not work */
        int cpu = th->has_cpu;
        uint64_t prev = cpu ? th->cstart : th->start;
        for (int e = 0; e <= th->nev; e++) {
            const pp_rev *ev = e < th->nev ? th->ev[e] : NULL;
            uint64_t end = ev ? (cpu ? ev->c0 : ev->t0) : (cpu ? th->tail_c : th->tail_t);
            const pp_rdelta *d = ev ? ev->delta : th->tail;
            int nd = ev ? ev->ndelta : th->ntail;
            /* an OpenMP pool thread is idle between team_end and the next
             * team_begin, and after its last team; between team_end and
             * the join the master is in libgomp's join (spinning: CPU
             * time), and before team_begin libgomp starts the team:
             * synchronisation, which the machine file prices, not work */
            const pp_rev *pv = e > 0 ? th->ev[e - 1] : NULL;
            int idle = (ev && ev->kind == PP_EV_TEAM_BEGIN) || (pv && pv->kind == PP_EV_TEAM_END) ||
                       (th->kind == PP_T_OMP && !ev && nd == 0) || (!ev && th->tail_t == 0);
            if (!idle && end >= prev) {
                int rc = fn(ctx, (double)(end - prev), d, nd);
                if (rc)
                    return rc;
            }
            if (ev)
                prev = cpu ? ev->c1 : ev->t1;
        }
    }
    return 0;
}
