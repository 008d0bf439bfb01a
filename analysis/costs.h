/* costs.h - the costs a point is evaluated with.
 *
 * The model's fitted costs are a vector of slots (pp_prog.fit, filled by
 * the cost fit, cost.c): PP_SLOT_SEG the fixed cost of a segment, then
 * each loop's time per iteration and per entry (pp_mloop.slot,
 * entry_slot) and each call's fixed cost (pp_mfunc.call_slot + k).  The
 * model never changes them while it evaluates: a point takes its own
 * copy, which the intervals and the sensitivity move (one slot, or all
 * for a processor speed) and the memory model re-prices for the machine
 * and the size (pp_mem_costs, memory.h).  The instantiation reads them
 * from here, the traversal the segment's cost from the instance.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PP_COSTS_H
#define PP_COSTS_H

#include "model.h"

#define PP_SLOT_SEG 0

typedef struct pp_costs {
    const double *v;     /* [nslot]: the costs at the point (ns)            */
    const double *base;  /* [nslot]: the same before the memory model       */
    const double *mem;   /* [nslot] or NULL (the memory model off): per
                            loop slot, the part of its time its streams
                            take beyond the last cache level, which the
                            threads streaming at once share               */
    /* the memory model on: the machine and the arrays' bytes the
     * instantiation prices a thread's streams with (memory.h,
     * pp_mem_thread_ns), and the model's prices at the recorded size on
     * that machine (model.h, pp_mem_rec: which loops are priced per
     * thread, and the recorded threads' times); NULL otherwise */
    const pp_machine *mem_mach;
    double mem_foot;
    const pp_mem_rec *mem_rec;
    double *own;         /* what pp_costs_free frees (NULL: nothing)        */
    pp_mem_rec *own_rec;
} pp_costs;

/* The costs `from` ([m->nslot]; NULL: the fitted ones) as they are, the
 * memory model off. */
void pp_costs_plain(pp_costs *c, const pp_prog *m, const double *from);
void pp_costs_free(pp_costs *c);

/* A copy of the fitted costs for a caller to move (NULL when memory runs
 * out); free() it. */
double *pp_costs_copy(const pp_prog *m);

/* Multiply the costs the fit varies (m->cost_slot) by k in v: a
 * processor k times slower (the what-if `speed`, the sensitivity). */
void pp_costs_scale_compute(const pp_prog *m, double *v, double k);

/* The fitted costs' value in a slot (0 when there is no fit). */
static inline double pp_prog_cost(const pp_prog *m, int slot)
{
    return m->fit && slot >= 0 && slot < m->nslot ? m->fit[slot] : 0;
}

/* Instantiate at P (rank < 0: every rank; pp_instantiate) with the costs
 * c (NULL: the fitted ones, the memory model off). */
int pp_instantiate_costed(const pp_prog *m, const pp_vals *pv, const pp_costs *c, int P, int rank, int flags,
                          pp_instance *out, char *err, size_t errlen);

#endif
