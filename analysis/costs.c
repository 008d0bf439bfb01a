/* costs.c - a point's costs (costs.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "costs.h"

#include <stdlib.h>
#include <string.h>

void pp_costs_plain(pp_costs *c, const pp_prog *m, const double *from)
{
    memset(c, 0, sizeof *c);
    if (!from)
        from = m->fit;
    if (!from) {
        /* no fit (a model made by hand): every cost 0 */
        c->own = calloc((size_t)m->nslot + 1, sizeof *c->own);
        from = c->own;
    }
    c->v = c->base = from;
}

void pp_costs_free(pp_costs *c)
{
    free(c->own);
    c->own = NULL;
    if (c->own_rec) {
        pp_mem_rec_clear(c->own_rec);
        free(c->own_rec);
        c->own_rec = NULL;
    }
}

double *pp_costs_copy(const pp_prog *m)
{
    double *v = malloc(sizeof *v * ((size_t)m->nslot + 1));
    if (v && m->nslot > 0) {
        if (m->fit)
            memcpy(v, m->fit, sizeof *v * (size_t)m->nslot);
        else
            memset(v, 0, sizeof *v * (size_t)m->nslot);
    }
    return v;
}

void pp_costs_scale_compute(const pp_prog *m, double *v, double k)
{
    for (int i = 0; i < m->ncost; i++)
        if (m->cost_slot && m->cost_slot[i] >= 0)
            v[m->cost_slot[i]] *= k;
}
