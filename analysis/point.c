/* point.c - see point.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "point.h"
#include "cli.h"
#include "longrun.h"

#include <stdio.h>
#include <string.h>

int pp_point_predict(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, double t1, int draws,
                     pp_metrics *mt, pp_interval *iv, int *has_iv, char *err, size_t errlen)
{
    *has_iv = 0;
    memset(iv, 0, sizeof *iv);
    /* a long point: progress, an estimate, Ctrl-C (longrun.h) */
    char what[64];
    snprintf(what, sizeof what, "P=%d", P);
    pp_long_point_begin(P, 1 + pp_interval_walks(m, draws), what);
    int rc = pp_predict(m, pv, mach, P, mt, err, errlen);
    if (rc == 0 && t1 > 0)
        pp_metrics_compute(mt, t1, mt->t_pram, mt->t_real, P);
    if (rc == 0 && pp_interval_wanted(draws)) {
        rc = pp_predict_interval(m, pv, mach, P, mt, draws, iv, err, errlen);
        *has_iv = rc == 0;
    }
    pp_long_point_end();
    return rc;
}

int pp_problem_shown(const pp_prog *m, int i)
{
    if (m->params[i].per_rank)      /* each rank's own: not a coordinate */
        return 0;
    if (m->pkind == PP_P_PARAM && strcmp(m->params[i].name, m->params[m->p_param].name) == 0)
        return 0;
    for (int j = 0; j < i; j++)
        if (strcmp(m->params[j].name, m->params[i].name) == 0)
            return 0;
    return 1;
}

void pp_problem_json(FILE *f, const pp_prog *m, const pp_vals *pv)
{
    fputc('{', f);
    for (int i = 0, first = 1; i < m->nparams; i++) {
        if (!pp_problem_shown(m, i))
            continue;
        fputs(first ? "" : ",", f);
        pp_json_str(f, m->params[i].name);
        fprintf(f, ":%ld", pv->v[i]);
        first = 0;
    }
    fputc('}', f);
}

void pp_problem_text(FILE *f, const pp_prog *m, const pp_vals *pv)
{
    for (int i = 0; i < m->nparams; i++)
        if (pp_problem_shown(m, i))
            fprintf(f, " %s=%ld", m->params[i].name, pv->v[i]);
}
