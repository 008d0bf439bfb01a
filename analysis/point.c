/* point.c - see point.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "point.h"
#include "cli.h"

#include <string.h>

int pp_point_predict(pp_prog *m, const pp_machine *mach, int P, double t1, int draws, pp_metrics *mt,
                     pp_interval *iv, int *has_iv, char *err, size_t errlen)
{
    *has_iv = 0;
    memset(iv, 0, sizeof *iv);
    if (pp_predict(m, mach, P, mt, err, errlen))
        return -1;
    if (t1 > 0)
        pp_metrics_compute(mt, t1, mt->t_pram, mt->t_real, P);
    if (!pp_interval_wanted(draws))
        return 0;
    if (pp_predict_interval(m, mach, P, mt, draws, iv, err, errlen))
        return -1;
    *has_iv = 1;
    return 0;
}

int pp_problem_shown(const pp_prog *m, int i)
{
    if (m->pkind == PP_P_PARAM && strcmp(m->params[i].name, m->params[m->p_param].name) == 0)
        return 0;
    for (int j = 0; j < i; j++)
        if (strcmp(m->params[j].name, m->params[i].name) == 0)
            return 0;
    return 1;
}

void pp_problem_json(FILE *f, const pp_prog *m)
{
    fputc('{', f);
    for (int i = 0, first = 1; i < m->nparams; i++) {
        if (!pp_problem_shown(m, i))
            continue;
        fputs(first ? "" : ",", f);
        pp_json_str(f, m->params[i].name);
        fprintf(f, ":%ld", m->params[i].value);
        first = 0;
    }
    fputc('}', f);
}

void pp_problem_text(FILE *f, const pp_prog *m)
{
    for (int i = 0; i < m->nparams; i++)
        if (pp_problem_shown(m, i))
            fprintf(f, " %s=%ld", m->params[i].name, m->params[i].value);
}
