/* inst-eval.c - the evaluation environment of the instantiation: frames
 * (a function's arguments and induction variables, the OpenMP context)
 * and the failure message.  The expressions themselves are evaluated by
 * inst-code.c.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_inst_fail(ictx *c, const char *fmt, ...)
{
    if (!c->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, sizeof c->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- frames ------------------------------------------------------------- */

int pp_inst_frame_init(frame *fr, const pp_prog *m, int fi)
{
    fr->fi = fi;
    fr->mf = &m->funcs[fi];
    fr->team = -1;
    fr->shared = NULL;
    fr->omp = 0;
    fr->nthreads = fr->tid = 0;
    fr->thr_known = 0;
    fr->thr_k = fr->thr_n = 0;
    fr->memc = NULL;
    fr->args_c1 = fr->iv_c1 = NULL;
    fr->args_c1_heap = NULL;
    int na = fr->mf->d->nargs + 1, nl = fr->mf->max_loop_id + 2;
    if (na <= 8) {
        fr->args = fr->args_buf;
        fr->args_known = fr->args_known_buf;
        fr->args_taint = fr->args_taint_buf;
        fr->arg_obj = fr->arg_obj_buf;
        memset(fr->args_known_buf, 0, sizeof fr->args_known_buf);
        memset(fr->args_taint_buf, 0, sizeof fr->args_taint_buf);
        memset(fr->arg_obj_buf, 0, sizeof fr->arg_obj_buf);
    } else {
        fr->args = calloc((size_t)na, sizeof *fr->args);
        fr->args_known = calloc((size_t)na, 1);
        fr->args_taint = calloc((size_t)na, sizeof *fr->args_taint);
        fr->arg_obj = calloc((size_t)na, sizeof *fr->arg_obj);
    }
    if (nl <= 16) {
        fr->iv = fr->iv_buf;
        fr->iv_known = fr->iv_known_buf;
        fr->iv_taint = fr->iv_taint_buf;
        memset(fr->iv_known_buf, 0, sizeof fr->iv_known_buf);
        memset(fr->iv_taint_buf, 0, sizeof fr->iv_taint_buf);
    } else {
        fr->iv = calloc((size_t)nl, sizeof *fr->iv);
        fr->iv_known = calloc((size_t)nl, 1);
        fr->iv_taint = calloc((size_t)nl, sizeof *fr->iv_taint);
    }
    return fr->args && fr->args_known && fr->args_taint && fr->arg_obj && fr->iv && fr->iv_known && fr->iv_taint
               ? 0
               : -1;
}

void pp_inst_frame_free(frame *fr)
{
    free(fr->memc);
    fr->memc = NULL;
    free(fr->args_c1_heap);
    fr->args_c1_heap = NULL;
    if (fr->args != fr->args_buf)
        free(fr->args);
    if (fr->args_known != fr->args_known_buf)
        free(fr->args_known);
    if (fr->args_taint != fr->args_taint_buf)
        free(fr->args_taint);
    if (fr->iv_taint != fr->iv_taint_buf)
        free(fr->iv_taint);
    if (fr->arg_obj != fr->arg_obj_buf)
        free(fr->arg_obj);
    if (fr->iv != fr->iv_buf)
        free(fr->iv);
    if (fr->iv_known != fr->iv_known_buf)
        free(fr->iv_known);
}
