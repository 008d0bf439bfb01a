/* domain.c - see domain.h.
 *
 * Each expression is taken in the parameters (resolve.h) and evaluated
 * exactly (GMP) at the point's values and at the recorded ones, with the
 * thread index and the rank 0 and one thread or rank: a loop's count is
 * then its whole trip count, before a parallel loop shares it out.  A
 * check applies only where the recorded values give a value, so that a
 * record whose run itself had an empty loop or an empty array is not
 * refused at its own size.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "domain.h"
#include "resolve.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const pp_prog *m;
    const pp_vals *pv;   /* NULL: the recorded values */
} dctx;

static int lookup(void *vp, const pp_expr *a, mpz_t out)
{
    const dctx *c = vp;
    switch (a->kind) {
    case PP_E_SYM: {
        int i = a->name ? pp_prog_param_index(c->m, a->name) : -1;
        if (i < 0)
            return 1;
        mpz_set_si(out, pp_vals_get(c->m, c->pv, i));
        return 0;
    }
    case PP_E_TID:
    case PP_E_RANK:
        mpz_set_si(out, 0);
        return 0;
    case PP_E_NTHREADS:
    case PP_E_NPROCS:
        mpz_set_si(out, 1);
        return 0;
    default:
        return 1;
    }
}

/* 0: *v holds the value (clamped to the int64 range, *over set when it
 * was beyond); -1: the expression cannot be evaluated there. */
static int eval_at(const pp_prog *m, const pp_vals *pv, const pp_expr *e, int64_t *v, int *over)
{
    dctx c = {m, pv};
    mpz_t z;
    mpz_init(z);
    int rc = pp_expr_eval_z(e, lookup, &c, z);
    *over = 0;
    if (rc == 0) {
        if (mpz_cmp_si(z, INT64_MAX) > 0 || mpz_cmp_si(z, INT64_MIN) < 0) {
            *over = 1;
            *v = mpz_sgn(z) > 0 ? INT64_MAX : INT64_MIN;
        } else
            *v = mpz_get_si(z);
    }
    mpz_clear(z);
    return rc == 0 ? 0 : -1;
}

/* "n=-5 m=3": the parameters e reads that the values moved (all it reads
 * when none moved), at the point's values. */
static void params_of(const pp_prog *m, const pp_vals *pv, const pp_expr *e, char *buf, size_t n, int moved_only)
{
    if (!e)
        return;
    if (e->kind == PP_E_SYM && e->name) {
        int i = pp_prog_param_index(m, e->name);
        if (i < 0 || (moved_only && pv->v[i] == m->params[i].recorded))
            return;
        char one[160];
        snprintf(one, sizeof one, "%s=%ld", m->params[i].name, pv->v[i]);
        /* once each */
        size_t len = strlen(one);
        for (const char *p = strstr(buf, one); p; p = strstr(p + 1, one))
            if ((p == buf || p[-1] == ' ') && (p[len] == 0 || p[len] == ' '))
                return;
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, "%s%s", at ? " " : "", one);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        params_of(m, pv, e->kids[i], buf, n, moved_only);
}

static void who(const pp_prog *m, const pp_vals *pv, const char *how, const pp_expr *e, char *buf, size_t n)
{
    char p[400] = "";
    params_of(m, pv, e, p, sizeof p, 1);
    if (!p[0])
        params_of(m, pv, e, p, sizeof p, 0);
    snprintf(buf, n, "%s %s", how, p[0] ? p : "(the recorded values)");
}

static const char *text(const pp_expr *e, char *buf, size_t n)
{
    char *s = pp_expr_to_infix(e);
    snprintf(buf, n, "%s", s ? s : "?");
    free(s);
    return buf;
}

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "?";
}

static int is_message(pp_evkind k)
{
    switch (k) {
    case PP_EV_SEND: case PP_EV_RECV: case PP_EV_ISEND: case PP_EV_IRECV: case PP_EV_SENDRECV:
    case PP_EV_BCAST: case PP_EV_REDUCE: case PP_EV_ALLREDUCE: case PP_EV_GATHER: case PP_EV_SCATTER:
    case PP_EV_ALLGATHER: case PP_EV_ALLTOALL:
        return 1;
    default:
        return 0;
    }
}

/* One size: an array's bytes or extent (positive = 1), a message's count
 * (positive = 0: zero or more).  Returns -1 with the message. */
static int check_size(const pp_prog *m, const pp_vals *pv, int f, const pp_expr *raw, int positive, const char *how,
                      const char *what, const char *kind, int line, char *err, size_t errlen)
{
    if (!raw)
        return 0;
    pp_expr *e = pp_resolve_roots(m, f, raw);
    if (!e)
        return 0;
    int64_t now, rec;
    int over, rover;
    int rc = 0;
    if (eval_at(m, NULL, e, &rec, &rover) == 0 && !rover && (positive ? rec > 0 : rec >= 0) &&
        eval_at(m, pv, e, &now, &over) == 0 && (over || (positive ? now <= 0 : now < 0))) {
        char w[512], t[256];
        const pp_dfunc *d = m->funcs[f].d;
        who(m, pv, how, e, w, sizeof w);
        if (over)
            snprintf(err, errlen, "%s overflows %s (%s at %s:%d in %s): %s is beyond 64 bits", w, what, kind,
                     base(d->file), line, d->name, text(e, t, sizeof t));
        else
            snprintf(err, errlen, "%s makes %s (%s at %s:%d in %s) %s = %lld: %s", w, what, kind, base(d->file),
                     line, d->name, text(e, t, sizeof t), (long long)now,
                     positive ? "an array's size must be positive (the recorded values give "
                              : "a message's size cannot be negative (the recorded values give ");
        if (!over) {
            size_t at = strlen(err);
            snprintf(err + at, errlen - at, "%lld)", (long long)rec);
        }
        rc = -1;
    }
    pp_expr_free(e);
    return rc;
}

int pp_domain_check(const pp_prog *m, const pp_vals *pv, const char *how, char *err, size_t errlen, char *empties,
                    size_t n)
{
    if (empties && n)
        empties[0] = 0;
    size_t elen = 0;
    int nempty = 0, full = 0;
    for (int f = 0; f < m->nfuncs; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        /* arrays: a positive size, and positive extents */
        for (int k = 0; k < d->nshapes; k++) {
            const pp_dshape *s = &d->shapes[k];
            char what[300];
            const char *kind = s->kind ? s->kind : "declared";
            snprintf(what, sizeof what, "the size in bytes of the array '%s'", s->name ? s->name : "?");
            if (check_size(m, pv, f, s->bytes, 1, how, what, kind, s->line, err, errlen))
                return -1;
            for (int i = 0; i < s->ndims; i++) {
                snprintf(what, sizeof what, "extent %d of the array '%s'", i + 1, s->name ? s->name : "?");
                if (check_size(m, pv, f, s->dims[i], 1, how, what, kind, s->line, err, errlen))
                    return -1;
            }
        }
        /* messages: zero elements or more */
        for (int k = 0; k < d->nevents; k++) {
            const pp_devent *ev = &d->events[k];
            if (!is_message(ev->kind))
                continue;
            char what[300];
            snprintf(what, sizeof what, "the element count of the message");
            const char *kind = ev->callee ? ev->callee : pp_evkind_name(ev->kind);
            if (check_size(m, pv, f, ev->count, 0, how, what, kind, ev->line, err, errlen) ||
                check_size(m, pv, f, ev->rcount, 0, how, what, kind, ev->line, err, errlen))
                return -1;
        }
        /* loops: a count that overflows is refused; one the values make
         * zero or negative empties the loop */
        for (int k = 0; k < d->nloops; k++) {
            const pp_mloop *ml = &m->funcs[f].loops[k];
            if (ml->rule == PP_RULE_CONSTANT || !ml->count)
                continue;
            pp_expr *e = pp_resolve_roots(m, f, ml->count);
            if (!e)
                continue;
            int64_t now, rec;
            int over, rover;
            int okn = eval_at(m, pv, e, &now, &over) == 0;
            if (okn && over) {
                char w[512], t[256];
                who(m, pv, how, e, w, sizeof w);
                snprintf(err, errlen, "%s overflows the count of loop %s:L%d (%s:%d): %s is beyond 64 bits", w,
                         d->name, d->loops[k].id, base(d->file), d->loops[k].line, text(e, t, sizeof t));
                pp_expr_free(e);
                return -1;
            }
            if (okn && now <= 0 && eval_at(m, NULL, e, &rec, &rover) == 0 && !rover && rec > 0 && empties && n &&
                !full) {
                int w = snprintf(empties + elen, n - elen, "%s%s:L%d (%s:%d)", nempty ? ", " : "", d->name,
                                 d->loops[k].id, base(d->file), d->loops[k].line);
                if (w > 0 && elen + (size_t)w < n)
                    elen += (size_t)w;
                else {
                    if (n > 4)
                        strcpy(empties + (elen + 4 < n ? elen : n - 4), "...");
                    full = 1;
                }
                nempty++;
            }
            pp_expr_free(e);
        }
    }
    return 0;
}
