/* model-rankvals.c - values that differ between the ranks of an MPI run.
 *
 * Each rank writes its own record, with its own value of every problem
 * parameter.  A value the ranks agree on is a coordinate of chi; one they
 * do not (a partner rank read through a function the plugin cannot see
 * into, a table lookup by rank) is not: taking rank 0's for every rank
 * would send every rank's message to rank 0's partner.  For such a value
 * this file looks for a rule in (rank), (nprocs) and the other parameters
 * among a small set of candidates that reproduces the value of every
 * record (every rank of every run given); the instantiation then gives
 * each rank the rule's value at any P.  Without a rule (or with two that
 * fit and disagree elsewhere) each rank keeps its recorded value, which
 * is only known at the recorded P (docs/model.md, "Values that differ per
 * rank").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the P up to which two fitting rules are compared for agreement */
#define AGREE_MAX_P 64

typedef struct {
    const pp_prog *m;
    int rec;            /* record whose parameters the names take, or -1:
                           the point's values (pv; NULL: the recorded)  */
    const pp_vals *pv;
    int64_t rank, P;
} lctx;

static int lookup(void *vp, const pp_expr *a, int64_t *out)
{
    const lctx *c = vp;
    if (a->kind == PP_E_RANK && !a->name) {
        *out = c->rank;
        return 0;
    }
    if (a->kind == PP_E_NPROCS && !a->name) {
        *out = c->P;
        return 0;
    }
    if (a->kind != PP_E_SYM || !a->name)
        return -1;
    int i = pp_prog_param_index(c->m, a->name);
    if (i < 0 || c->m->params[i].per_rank)
        return -1;
    long v = pp_vals_get(c->m, c->pv, i);
    if (c->rec >= 0 && pp_prog_param_in(c->m, c->rec, i, &v))
        return -1;
    *out = v;
    return 0;
}

static int eval_at(const pp_prog *m, const pp_vals *pv, const pp_expr *e, int rec, int64_t rank, int64_t P,
                   int64_t *out)
{
    lctx c = {m, rec, pv, rank, P};
    return pp_expr_eval_i64(e, lookup, &c, out) == 0 ? 0 : -1;
}

/* The candidate rules for parameter i, in order of preference (NULL-
 * terminated, each malloc'd). */
static pp_expr **candidates(const pp_prog *m, int i, int *n)
{
    int cap = 128 + 4 * m->nparams, k = 0;
    pp_expr **v = calloc((size_t)cap + 1, sizeof *v);
    char buf[512];
    if (!v)
        return NULL;
#define ADD(...)                                                               \
    do {                                                                       \
        snprintf(buf, sizeof buf, __VA_ARGS__);                                \
        pp_expr *e_ = pp_expr_parse(buf, NULL, NULL, 0);                       \
        if (e_ && k < cap)                                                     \
            v[k++] = e_;                                                       \
        else                                                                   \
            pp_expr_free(e_);                                                  \
    } while (0)
    ADD("(rank)");
    for (int c = 1; c <= 4; c++) {
        ADD("(+ (rank) %d)", c);
        ADD("(+ (rank) %d)", -c);
    }
    for (int c = 1; c <= 7; c++)
        ADD("(bxor (rank) %d)", c);
    for (int c = 1; c <= 4; c++) {
        ADD("(mod (+ (rank) %d) (nprocs))", c);           /* (rank + c) % size */
        ADD("(mod (+ (rank) (nprocs) %d) (nprocs))", -c); /* (rank - c + size) % size */
    }
    ADD("(- (+ (nprocs) -1) (rank))");
    ADD("(- (nprocs) (rank))");
    for (int c = 2; c <= 8; c++) {
        ADD("(mod (rank) %d)", c);
        ADD("(div (rank) %d)", c);
        ADD("(* %d (rank))", c);
    }
    for (int j = 0; j < m->nparams; j++) {
        const char *q = m->params[j].name;
        /* a name that is not a plain token would need quoting: skip it */
        if (j == i || m->params[j].per_rank || strpbrk(q, " ()\"\\"))
            continue;
        ADD("(* (rank) %s)", q);
        ADD("(* (+ (rank) 1) %s)", q);
        ADD("(* (rank) (div %s (nprocs)))", q);
        ADD("(* (+ (rank) 1) (div %s (nprocs)))", q);
    }
#undef ADD
    *n = k;
    return v;
}

/* Does rule e give record k's value of parameter i, in every record? */
static int fits(const pp_prog *m, int i, const pp_expr *e)
{
    for (int k = 0; k < m->nrec; k++) {
        long want;
        int64_t got;
        if (pp_prog_param_in(m, k, i, &want))
            continue;                   /* the record does not set it */
        if (eval_at(m, NULL, e, k, m->recs[k]->mpi_rank, m->recs[k]->mpi_size, &got) || got != want)
            return 0;
    }
    return 1;
}

/* Do rules a and b agree at every rank of every P up to AGREE_MAX_P (the
 * other parameters at their recorded values)? */
static int agree(const pp_prog *m, const pp_expr *a, const pp_expr *b)
{
    for (int64_t P = 1; P <= AGREE_MAX_P; P++)
        for (int64_t r = 0; r < P; r++) {
            int64_t x, y;
            int ea = eval_at(m, NULL, a, -1, r, P, &x), eb = eval_at(m, NULL, b, -1, r, P, &y);
            if (ea != eb || (ea == 0 && x != y))
                return 0;
        }
    return 1;
}

/* "1, 0, 3, 2" (the first values, then "...") */
static void values_text(const pp_param *p, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int r = 0; r < p->rank_n && len + 24 < n; r++) {
        if (r == 8) {
            snprintf(buf + len, n - len, ", ...");
            break;
        }
        len += (size_t)snprintf(buf + len, n - len, "%s%ld", r ? ", " : "", p->rank_val[r]);
    }
}

static void fit_rule(pp_prog *m, int i)
{
    pp_param *p = &m->params[i];
    int n = 0;
    pp_expr **cand = candidates(m, i, &n);
    pp_expr *best = NULL, *other = NULL;
    for (int c = 0; cand && c < n; c++) {
        if (!fits(m, i, cand[c]))
            continue;
        if (!best)
            best = cand[c];
        else if (!agree(m, best, cand[c])) {
            other = cand[c];
            break;
        }
    }
    char vals[200], where[300];
    values_text(p, vals, sizeof vals);
    if (p->is_global)
        snprintf(where, sizeof where, "global %s", p->src);
    else
        snprintf(where, sizeof where, "%s in %s", p->src, m->funcs[p->func].d->name);
    char *bs = best ? pp_expr_to_infix(best) : NULL, *os = other ? pp_expr_to_infix(other) : NULL;
    if (best && !other) {
        p->rank_rule = pp_expr_ref(best);
        pp_prog_warn(m, "%s (%s) differs between the ranks (%s at P = %d): not a problem parameter; "
                        "the rule %s gives every rank's recorded value and is used at any P",
                     p->name, where, vals, p->rank_n, bs ? bs : "?");
    } else {
        char why[700];
        if (best)
            snprintf(why, sizeof why, "both %s and %s give every rank's recorded value, and they differ at "
                     "other P (a run with more ranks decides)", bs ? bs : "?", os ? os : "?");
        else
            snprintf(why, sizeof why, "no rule in rank and P (rank + k, rank ^ k, (rank + k) %% P, "
                     "P - 1 - rank, rank %% k, rank / k, k*rank, rank*X) gives every rank's recorded value");
        char msg[1100];
        snprintf(msg, sizeof msg, "%s (%s) differs between the ranks (%s at P = %d) and %s", p->name, where,
                 vals, p->rank_n, why);
        p->rank_why = strdup(msg);
        pp_prog_warn(m, "%s: predictions only at the recorded P = %d, each rank with its own value", msg,
                     p->rank_n);
    }
    free(bs);
    free(os);
    for (int c = 0; cand && c < n; c++)
        pp_expr_free(cand[c]);
    free(cand);
}

int pp_model_rank_values(pp_prog *m)
{
    if (!m->mpi)
        return 0;
    const pp_record *r0 = m->recs[0];
    for (int i = 0; i < m->nparams; i++) {
        pp_param *p = &m->params[i];
        /* different values in two ranks of one run */
        for (int k = 1; k < m->nrec && !p->per_rank; k++) {
            long a, b;
            if (pp_prog_param_in(m, k, i, &b))
                continue;
            for (int j = 0; j < k && !p->per_rank; j++)
                if (m->recs[j]->mpi_run == m->recs[k]->mpi_run && pp_prog_param_in(m, j, i, &a) == 0 &&
                    a != b)
                    p->per_rank = 1;
        }
        if (!p->per_rank)
            continue;
        /* the primary run's values by rank */
        p->rank_n = r0->mpi_size > 0 ? r0->mpi_size : 1;
        p->rank_val = calloc((size_t)p->rank_n, sizeof *p->rank_val);
        if (!p->rank_val)
            return -1;
        for (int r = 0; r < p->rank_n; r++)
            p->rank_val[r] = p->recorded;
        for (int k = 0; k < m->nrec; k++) {
            long v;
            int rk = m->recs[k]->mpi_rank;
            if (m->recs[k]->mpi_run == r0->mpi_run && rk >= 0 && rk < p->rank_n &&
                pp_prog_param_in(m, k, i, &v) == 0)
                p->rank_val[rk] = v;
        }
    }
    /* the rules after every per-rank value is known: one may not be
     * another's operand */
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].per_rank)
            fit_rule(m, i);
    return 0;
}

int pp_prog_rank_value(const pp_prog *m, const pp_vals *pv, int param, int rank, int P, int single, int64_t *out)
{
    const pp_param *p = &m->params[param];
    if (p->rank_rule)
        return eval_at(m, pv, p->rank_rule, -1, rank, P, out);
    if (single) {
        *out = pp_vals_get(m, pv, param);
        return 0;
    }
    if (rank < 0 || rank >= p->rank_n || P != p->rank_n)
        return -1;
    *out = p->rank_val[rank];
    return 0;
}

const char *pp_prog_rank_refusal(const pp_prog *m, int P, char *buf, size_t n)
{
    for (int i = 0; i < m->nparams; i++) {
        const pp_param *p = &m->params[i];
        if (p->per_rank && !p->rank_rule && P != p->rank_n) {
            snprintf(buf, n, "%s: its value is known only at the recorded P = %d, not at P = %d",
                     p->rank_why ? p->rank_why : p->name, p->rank_n, P);
            return buf;
        }
    }
    return NULL;
}
