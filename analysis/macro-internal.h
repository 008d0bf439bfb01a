/* macro-internal.h - what the parts of the compile-time sizes share
 * (macro-sizes.c walks the builds' descriptors side by side,
 * macro-rules.c finds the expression of the macros a constant follows).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MACRO_INTERNAL_H
#define PERFPRED_MACRO_INTERNAL_H

#include "macro-sizes.h"

typedef struct {
    pp_record **recs;
    int n;
    pp_macros *M;
    int nv;               /* macros that vary (and have one value each)   */
    int *vary;            /* their indices in M->macros                   */
    long long **x;        /* x[i][k]: varying macro i in record k         */
    int *rep;             /* one record per distinct build                */
    int nb;
    char where[200];
    int oom;
} uctx;

/* The simplest expression of the varying macros that gives v[k] in
 * record k (c->rep's builds), or NULL when none does (macro-rules.c). */
pp_expr *pp_macro_find_rule(uctx *c, const long long *v);

#endif
