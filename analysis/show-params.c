/* show-params.c - see show-params.h.  Parameters that share a name (a
 * local copied into a global of the same name, the same variable name in
 * two functions) are one quantity for --set, which moves them together:
 * they are listed once.  A derived global (model-derived.c) is listed
 * under the first input its definition reads, with that definition.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "show-params.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first parameter with p's name (the one listed). */
static int first_of_name(const pp_prog *m, int i)
{
    for (int j = 0; j < i; j++)
        if (strcmp(m->params[j].name, m->params[i].name) == 0)
            return j;
    return i;
}

/* Does e read parameter i (by its name)? */
static int reads(const pp_expr *e, const char *name)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_SYM)
        return e->name && strcmp(e->name, name) == 0;
    for (int k = 0; k < e->nkids; k++)
        if (reads(e->kids[k], name))
            return 1;
    return 0;
}

/* The input derived global d is listed under: that of the first derived
 * global its definition reads (nedge = edgefactor * nv goes with nv, under
 * scale), else the first input it reads. */
static int anchor_at(const pp_prog *m, int d, int depth)
{
    for (int k = 0; depth < 8 && k < m->nderived; k++)
        if (k != d && reads(m->derived[d].def, m->derived[k].name))
            return anchor_at(m, k, depth + 1);
    for (int i = 0; i < m->nparams; i++)
        if (first_of_name(m, i) == i && reads(m->derived[d].expr, m->params[i].name))
            return i;
    return -1;
}

static int anchor_of(const pp_prog *m, int d)
{
    return anchor_at(m, d, 0);
}

static void where_of(const pp_prog *m, const pp_param *p, char *buf, size_t n)
{
    if (p->is_global)
        snprintf(buf, n, "global %s", p->src);
    else
        snprintf(buf, n, "%s in %s", p->src, m->funcs[p->func].d->name);
}

static void derived_line(const pp_prog *m, const pp_vals *pv, int d)
{
    const pp_derived *dv = &m->derived[d];
    /* a global that copies the local of its name: the input listed */
    if (dv->def->kind == PP_E_SYM && strcmp(dv->def->name, dv->name) == 0)
        return;
    char *s = pp_expr_to_infix(dv->def);
    long v;
    int have = pp_prog_derived_value(m, pv, d, &v) == 0;
    printf("    %-10s = %ld", dv->name, dv->recorded);
    if (have && v != dv->recorded)
        printf("  -> %ld", v);
    else if (!have)
        printf("  -> ?");
    printf("   derived: %s   (global %s, line %d of %s)\n", s ? s : "?", dv->name, dv->line,
           m->funcs[dv->func].d->name);
    free(s);
}

/* The derived globals in the order of their definitions (function, then
 * line): SCALE, then nv = 1 << SCALE, then nedge = edgefactor * nv. */
static int *in_order(const pp_prog *m)
{
    int *o = malloc(sizeof *o * (size_t)(m->nderived + 1));
    for (int i = 0; o && i < m->nderived; i++) {
        int j = i;
        const pp_derived *a = &m->derived[i];
        while (j > 0) {
            const pp_derived *b = &m->derived[o[j - 1]];
            if (b->func < a->func || (b->func == a->func && b->line <= a->line))
                break;
            o[j] = o[j - 1];
            j--;
        }
        o[j] = i;
    }
    return o;
}

/* A value that differs between the ranks of an MPI run (model-rankvals.c):
 * its rule, or its values when none fits. */
static void per_rank_line(const pp_prog *m, const pp_param *p)
{
    char *r = p->rank_rule ? pp_expr_to_infix(p->rank_rule) : NULL;
    printf("  %-12s per rank: %s", p->name, r ? r : "");
    if (!r) {
        printf("no rule; recorded");
        for (int k = 0; k < p->rank_n && k < 16; k++)
            printf("%s%ld", k ? ", " : " ", p->rank_val[k]);
        printf("%s (only at P = %d)", p->rank_n > 16 ? ", ..." : "", p->rank_n);
    }
    free(r);
    char w[300];
    where_of(m, p, w, sizeof w);
    printf("   (%s, differs between the ranks)\n", w);
}

void pp_show_params_text(const pp_prog *m, const pp_vals *pv)
{
    int *order = in_order(m);
    if (!order)
        return;
    for (int i = 0; i < m->nparams; i++) {
        if (first_of_name(m, i) != i)
            continue;
        const pp_param *p = &m->params[i];
        if (p->per_rank) {
            per_rank_line(m, p);
            continue;
        }
        char w[300];
        where_of(m, p, w, sizeof w);
        printf("  %-12s = %ld", p->name, p->recorded);
        if (pv->v[i] != p->recorded)
            printf("  -> %ld", pv->v[i]);
        printf("   (%s", w);
        for (int j = i + 1; j < m->nparams; j++)
            if (strcmp(m->params[j].name, p->name) == 0) {
                where_of(m, &m->params[j], w, sizeof w);
                printf("; also %s", w);
                if (m->params[j].recorded != p->recorded)
                    printf(" = %ld", m->params[j].recorded);
            }
        if (m->pkind == PP_P_PARAM && first_of_name(m, m->p_param) == i)
            printf("; the thread count P");
        printf(")\n");
        for (int j = i; j < m->nparams; j++)
            if (m->params[j].note && strcmp(m->params[j].name, p->name) == 0)
                printf("    %-10s   not derived: %s\n", "", m->params[j].note);
        for (int k = 0; k < m->nderived; k++)
            if (anchor_of(m, order[k]) == i)
                derived_line(m, pv, order[k]);
    }
    for (int k = 0; k < m->nderived; k++)
        if (anchor_of(m, order[k]) < 0)
            derived_line(m, pv, order[k]);
    free(order);
}

static void values(const pp_prog *m, const pp_vals *pv)
{
    int first = 1;
    for (int i = 0; i < m->nparams; i++) {
        if (first_of_name(m, i) != i || m->params[i].per_rank)
            continue;
        printf("%s", first ? "" : ",");
        first = 0;
        pp_json_str(stdout, m->params[i].name);
        printf(":%ld", pp_vals_get(m, pv, i));
    }
}

void pp_show_params_json(const pp_prog *m, const pp_vals *pv)
{
    printf("\"params\":{");
    values(m, NULL);
    printf("},\"set\":{");
    values(m, pv);
    printf("},\"derived\":{");
    for (int d = 0; d < m->nderived; d++) {
        const pp_derived *dv = &m->derived[d];
        long v;
        char *sx = pp_expr_to_sexpr(dv->def);
        char *in = pp_expr_to_infix(dv->def);
        printf("%s", d ? "," : "");
        pp_json_str(stdout, dv->name);
        printf(":{\"value\":%ld,\"set\":", dv->recorded);
        if (pp_prog_derived_value(m, pv, d, &v) == 0)
            printf("%ld", v);
        else
            printf("null");
        printf(",\"derived\":");
        pp_json_str(stdout, sx ? sx : "?");
        printf(",\"infix\":");
        pp_json_str(stdout, in ? in : "?");
        printf(",\"line\":%d,\"func\":", dv->line);
        pp_json_str(stdout, m->funcs[dv->func].d->name);
        printf("}");
        free(sx);
        free(in);
    }
    /* a value that differs between the ranks is no parameter: listed
     * here, with its rule or its values */
    printf("},\"per_rank\":{");
    for (int i = 0, n = 0; i < m->nparams; i++) {
        const pp_param *p = &m->params[i];
        if (!p->per_rank || first_of_name(m, i) != i)
            continue;
        printf("%s", n++ ? "," : "");
        pp_json_str(stdout, p->name);
        printf(":{\"rule\":");
        char *r = p->rank_rule ? pp_expr_to_infix(p->rank_rule) : NULL;
        if (r)
            pp_json_str(stdout, r);
        else
            printf("null");
        free(r);
        printf(",\"values\":[");
        for (int k = 0; k < p->rank_n; k++)
            printf("%s%ld", k ? "," : "", p->rank_val[k]);
        printf("]}");
    }
    printf("},\"notes\":{");
    int first = 1;
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].note) {
            printf("%s", first ? "" : ",");
            first = 0;
            pp_json_str(stdout, m->params[i].name);
            printf(":");
            pp_json_str(stdout, m->params[i].note);
        }
    printf("}");
}
