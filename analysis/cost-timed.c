/* cost-timed.c - the cost fit's rows from loop timing (see cost-internal.h).
 *
 * The runtime times a loop's entries where it runs (runtime/rt-timing.c):
 * in a segment, T ticks over n timed entries of its E entries.  The
 * loop's time in the segment is then T x tick_ns x E / n, less the cost
 * of timing the loops inside it (their timed entries during the timed
 * ones, each the record's cost_ns).  It is linear in the same unknowns as
 * the segment's time: the iterations and entries of the loop and of the
 * loops nested in it, each times its cost.  The timing's own part of each
 * timed entry (window_ns, what an empty entry measures) is not taken out:
 * in a loop it overlaps with the loop's own work, and taking it out made
 * the bench no better (docs/model.md).  Such rows pin every
 * measured loop's cost to its own time, where the segments alone could
 * not separate loops that always run together, and keep a segment's
 * fixed costs (a printf, the exit) out of the loops.
 *
 * Rows are summed per (record, loop, iterations per entry within a
 * factor of sqrt 2): a loop whose entries run few and many iterations
 * gets two rows, which separate its cost per entry from its cost per
 * iteration.  Of the rows of repeated runs (records of the same point,
 * m->rec_group, whose counts for the row agree within 1%), the least is
 * kept: the host's noise only adds time.
 *
 * A loop that calls an instrumented function is not measured this way:
 * the callee's loops run there, and the segment's counts cannot say
 * which of their iterations ran inside it.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cost-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int ri, f, k, b;
    segment s;            /* columns and the measured time (dur)   */
    double timed;         /* timed entries, for the row's weight   */
    double raw, window;   /* ns the timed entries measured, and the
                             timing's own window over them          */
    int dropped;          /* a repeat's row that took longer       */
} trow;

struct pp_timed {
    const pp_prog *m;
    const layout *lay;
    slotmap **maps;
    int nf;
    /* per function and loop: measurable (timed, no instrumented call in
     * it or in its sub-loops), and this segment's counts */
    char **ok;
    char **top;           /* no measured loop around it            */
    char **mark;          /* listed in touched                     */
    double **h, **e, **tk, **nt;
    int **touched;        /* loops of f with counts in this segment */
    int *ntouched;
    trow *rows;
    long nrows, cap;
    int *hash;            /* open addressing, -1 empty             */
    long hcap;
    int nrec;
    double *meas, *work;  /* per record: measured top loops, all   */
};

/* the index of loop id in d->loops, or -1 (ids are the descriptor's:
 * the reader takes them in any order) */
static int loop_index(const pp_dfunc *d, int id)
{
    const pp_dloop *l = id >= 0 ? pp_desc_loop(d, id) : NULL;
    return l ? (int)(l - d->loops) : -1;
}

static int parent_index(const pp_dfunc *d, int k)
{
    return loop_index(d, d->loops[k].parent);
}

/* loop index k is l or lies inside it (the reader refuses cycles) */
static int is_inside(const pp_dfunc *d, int k, int l)
{
    for (int p = k; p >= 0; p = parent_index(d, p))
        if (p == l)
            return 1;
    return 0;
}

pp_timed *pp_timed_new(const pp_prog *m, const layout *lay, slotmap **maps)
{
    pp_timed *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->m = m;
    t->lay = lay;
    t->maps = maps;
    t->nf = m->nfuncs;
    t->nrec = m->nrec ? m->nrec : 1;
    t->ok = calloc((size_t)t->nf + 1, sizeof *t->ok);
    t->top = calloc((size_t)t->nf + 1, sizeof *t->top);
    t->mark = calloc((size_t)t->nf + 1, sizeof *t->mark);
    t->h = calloc((size_t)t->nf + 1, sizeof *t->h);
    t->e = calloc((size_t)t->nf + 1, sizeof *t->e);
    t->tk = calloc((size_t)t->nf + 1, sizeof *t->tk);
    t->nt = calloc((size_t)t->nf + 1, sizeof *t->nt);
    t->touched = calloc((size_t)t->nf + 1, sizeof *t->touched);
    t->ntouched = calloc((size_t)t->nf + 1, sizeof *t->ntouched);
    t->meas = calloc((size_t)t->nrec, sizeof *t->meas);
    t->work = calloc((size_t)t->nrec, sizeof *t->work);
    if (!t->ok || !t->top || !t->mark || !t->h || !t->e || !t->tk || !t->nt || !t->touched || !t->ntouched || !t->meas ||
        !t->work) {
        pp_timed_free(t);
        return NULL;
    }
    for (int f = 0; f < t->nf; f++) {
        const pp_dfunc *d = m->funcs[f].d;
        size_t n = (size_t)d->nloops + 1;
        t->ok[f] = calloc(n, 1);
        t->top[f] = calloc(n, 1);
        t->mark[f] = calloc(n, 1);
        t->h[f] = calloc(n, sizeof(double));
        t->e[f] = calloc(n, sizeof(double));
        t->tk[f] = calloc(n, sizeof(double));
        t->nt[f] = calloc(n, sizeof(double));
        t->touched[f] = calloc(n, sizeof(int));
        if (!t->ok[f] || !t->top[f] || !t->mark[f] || !t->h[f] || !t->e[f] || !t->tk[f] || !t->nt[f] || !t->touched[f]) {
            pp_timed_free(t);
            return NULL;
        }
        for (int k = 0; k < d->nloops; k++)
            t->ok[f][k] = d->loops[k].tslot > 0;
        for (int c = 0; c < d->ncalls; c++) {
            if (m->funcs[f].call_callee[c] < 0)
                continue;
            for (int p = loop_index(d, d->calls[c].loop); p >= 0; p = parent_index(d, p))
                t->ok[f][p] = 0;
        }
        for (int k = 0; k < d->nloops; k++) {
            t->top[f][k] = 1;
            for (int p = parent_index(d, k); p >= 0; p = parent_index(d, p))
                if (t->ok[f][p])
                    t->top[f][k] = 0;
        }
    }
    return t;
}

void pp_timed_free(pp_timed *t)
{
    if (!t)
        return;
    for (int f = 0; f < t->nf; f++) {
        if (t->ok) free(t->ok[f]);
        if (t->top) free(t->top[f]);
        if (t->mark) free(t->mark[f]);
        if (t->h) free(t->h[f]);
        if (t->e) free(t->e[f]);
        if (t->tk) free(t->tk[f]);
        if (t->nt) free(t->nt[f]);
        if (t->touched) free(t->touched[f]);
    }
    free(t->ok); free(t->top); free(t->mark); free(t->h); free(t->e); free(t->tk); free(t->nt); free(t->touched);
    free(t->ntouched);
    for (long i = 0; i < t->nrows; i++) {
        free(t->rows[i].s.col);
        free(t->rows[i].s.val);
    }
    free(t->rows);
    free(t->hash);
    free(t->meas);
    free(t->work);
    free(t);
}

double pp_timed_overhead(const pp_timed *t, const pp_record *r, const pp_rdelta *d, int nd, const int *fmap)
{
    if (!r->has_timing)
        return 0;
    double n = 0;
    for (int i = 0; i < nd; i++) {
        int f = fmap ? fmap[d[i].func] : d[i].func;
        if (f < 0 || f >= t->nf || d[i].slot < 0 || d[i].slot >= t->m->funcs[f].d->nslots)
            continue;
        if (t->maps[f][d[i].slot].kind == 4)
            n += (double)d[i].delta;
    }
    return n * r->timing_cost_ns;
}

static unsigned long key_hash(int ri, int f, int k, int b)
{
    unsigned long h = (unsigned long)ri * 2654435761u;
    h = (h ^ (unsigned long)f) * 2246822519u;
    h = (h ^ (unsigned long)k) * 3266489917u;
    return (h ^ (unsigned long)(b + 1000)) * 668265263u;
}

static int rehash(pp_timed *t, long cap)
{
    int *nh = malloc(sizeof *nh * (size_t)cap);
    if (!nh)
        return -1;
    for (long i = 0; i < cap; i++)
        nh[i] = -1;
    for (long i = 0; i < t->nrows; i++) {
        const trow *r = &t->rows[i];
        unsigned long p = key_hash(r->ri, r->f, r->k, r->b) & (unsigned long)(cap - 1);
        while (nh[p] >= 0)
            p = (p + 1) & (unsigned long)(cap - 1);
        nh[p] = (int)i;
    }
    free(t->hash);
    t->hash = nh;
    t->hcap = cap;
    return 0;
}

static trow *row_for(pp_timed *t, int ri, int f, int k, int b)
{
    if (2 * (t->nrows + 1) > t->hcap && rehash(t, t->hcap ? 2 * t->hcap : 64))
        return NULL;
    unsigned long p = key_hash(ri, f, k, b) & (unsigned long)(t->hcap - 1);
    while (t->hash[p] >= 0) {
        trow *r = &t->rows[t->hash[p]];
        if (r->ri == ri && r->f == f && r->k == k && r->b == b)
            return r;
        p = (p + 1) & (unsigned long)(t->hcap - 1);
    }
    if (t->nrows == t->cap) {
        long cap = t->cap ? 2 * t->cap : 64;
        trow *n = realloc(t->rows, sizeof *n * (size_t)cap);
        if (!n)
            return NULL;
        t->rows = n;
        t->cap = cap;
    }
    trow *r = &t->rows[t->nrows];
    memset(r, 0, sizeof *r);
    r->ri = ri;
    r->f = f;
    r->k = k;
    r->b = b;
    t->hash[p] = (int)t->nrows++;
    return r;
}

int pp_timed_segment(pp_timed *t, int ri, const pp_record *r, const pp_rdelta *d, int nd, const int *fmap,
                     double slow, double dur)
{
    if (ri >= 0 && ri < t->nrec)
        t->work[ri] += dur;
    if (!r->has_timing)
        return 0;
    /* this segment's counts, per loop */
    for (int i = 0; i < nd; i++) {
        int f = fmap ? fmap[d[i].func] : d[i].func;
        if (f < 0 || f >= t->nf || d[i].slot < 0 || d[i].slot >= t->m->funcs[f].d->nslots)
            continue;
        const slotmap *sm = &t->maps[f][d[i].slot];
        if (sm->kind < 0 || sm->kind == 2)
            continue;
        int k = sm->idx;
        if (!t->mark[f][k]) {
            t->mark[f][k] = 1;
            t->touched[f][t->ntouched[f]++] = k;
        }
        double v = (double)d[i].delta;
        if (sm->kind == 0) t->h[f][k] += v;
        else if (sm->kind == 1) t->e[f][k] += v;
        else if (sm->kind == 3) t->tk[f][k] += v;
        else if (sm->kind == 4) t->nt[f][k] += v;
    }
    int rc = 0;
    for (int i = 0; i < nd && rc == 0; i++) {
        int f = fmap ? fmap[d[i].func] : d[i].func;
        if (f < 0 || f >= t->nf || !t->ntouched[f])
            continue;
        const pp_dfunc *df = t->m->funcs[f].d;
        for (int a = 0; a < t->ntouched[f] && rc == 0; a++) {
            int l = t->touched[f][a];
            double E = t->e[f][l], n = t->nt[f][l];
            if (!t->ok[f][l] || n <= 0 || E < n)
                continue;
            double iters = df->loops[l].shape == PP_SHAPE_BOTTOM ? t->h[f][l] : t->h[f][l] - E;
            int b = (int)floor(2.0 * log2(1.0 + fmax(iters, 0) / E));
            trow *row = row_for(t, ri, f, l, b);
            if (!row) {
                rc = -1;
                break;
            }
            /* the inner loops' timing during the timed entries */
            double inner = 0;
            for (int c = 0; c < t->ntouched[f]; c++) {
                int k = t->touched[f][c];
                if (k == l || !is_inside(df, k, l))
                    continue;
                inner += t->nt[f][k];
                double it = df->loops[k].shape == PP_SHAPE_BOTTOM ? t->h[f][k] : t->h[f][k] - t->e[f][k];
                if ((it != 0 && pp_cost_add_entry(&row->s, t->lay->loop_col_base[f] + k, it)) ||
                    (t->e[f][k] != 0 && pp_cost_add_entry(&row->s, t->lay->entry_col_base[f] + k, t->e[f][k])))
                    rc = -1;
            }
            if ((iters != 0 && pp_cost_add_entry(&row->s, t->lay->loop_col_base[f] + l, iters)) ||
                pp_cost_add_entry(&row->s, t->lay->entry_col_base[f] + l, E))
                rc = -1;
            double ns = t->tk[f][l] * r->tick_ns - r->timing_cost_ns * inner * (n / E);
            double est = fmax(ns, 0) * (E / n) / slow;
            row->s.dur += est;
            row->timed += n;
            row->raw += fmax(ns, 0);
            row->window += n * r->timing_window_ns;
            if (t->top[f][l] && ri >= 0 && ri < t->nrec)
                t->meas[ri] += est;
        }
        /* once per function: clear its counts */
        for (int a = 0; a < t->ntouched[f]; a++) {
            int k = t->touched[f][a];
            t->h[f][k] = t->e[f][k] = t->tk[f][k] = t->nt[f][k] = 0;
            t->mark[f][k] = 0;
        }
        t->ntouched[f] = 0;
    }
    return rc;
}

/* the two rows' counts agree within 1% (runs of the same point) */
static int same_counts(const segment *a, const segment *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int j = 0; j < b->n; j++)
            if (b->col[j] == a->col[i]) {
                found = fabs(a->val[i] - b->val[j]) <= 0.01 * fmax(fabs(a->val[i]), fabs(b->val[j]));
                break;
            }
        if (!found)
            return 0;
    }
    return 1;
}

/* records ra and rb are runs of the same point (the same parameters, P
 * and rank: model-params.c): not two ranks of one run, whose times are
 * all the program's */
static int repeats(const pp_prog *m, int ra, int rb)
{
    if (!m->rec_group || ra < 0 || rb < 0 || ra >= m->nrec || rb >= m->nrec)
        return 0;
    return m->rec_group[ra] == m->rec_group[rb];
}

int pp_timed_too_short(double raw, double window)
{
    return window > 0 && raw < PP_TIMED_MIN_WINDOWS * window;
}

/* A loop whose timed entries measured, over all its rows, less than
 * PP_TIMED_MIN_WINDOWS times the timing's own window (the timing is most
 * of what they measured), inside a loop with rows of its own that is
 * not: its rows are dropped (marked 3), and the rows of the loop around
 * it, which hold its entries, timed and not, decide its cost.  One pass
 * over the rows sums each loop's timed ns and window; the loops around a
 * loop are its parents. */
static int drop_too_short(pp_timed *t)
{
    long *base = malloc(sizeof *base * ((size_t)t->nf + 1));
    if (!base)
        return -1;
    base[0] = 0;
    for (int f = 0; f < t->nf; f++)
        base[f + 1] = base[f] + t->m->funcs[f].d->nloops;
    size_t nl = (size_t)base[t->nf] + 1;
    double *raw = calloc(nl, sizeof *raw), *window = calloc(nl, sizeof *window);
    char *has = calloc(nl, 1), *shrt = calloc(nl, 1), *drop = calloc(nl, 1);
    int rc = -1;
    if (!raw || !window || !has || !shrt || !drop)
        goto out;
    for (long j = 0; j < t->nrows; j++) {
        const trow *b = &t->rows[j];
        long i = base[b->f] + b->k;
        raw[i] += b->raw;
        window[i] += b->window;
        has[i] |= b->s.n > 0;
    }
    for (size_t i = 0; i < nl; i++)
        shrt[i] = (char)pp_timed_too_short(raw[i], window[i]);
    for (int f = 0; f < t->nf; f++) {
        const pp_dfunc *df = t->m->funcs[f].d;
        for (int k = 0; k < df->nloops; k++) {
            if (!shrt[base[f] + k])
                continue;
            for (int p = parent_index(df, k); p >= 0 && !drop[base[f] + k]; p = parent_index(df, p))
                drop[base[f] + k] = has[base[f] + p] && !shrt[base[f] + p];
        }
    }
    for (long j = 0; j < t->nrows; j++)
        if (drop[base[t->rows[j].f] + t->rows[j].k])
            t->rows[j].dropped = 3;
    rc = 0;
out:
    free(base); free(raw); free(window); free(has); free(shrt); free(drop);
    return rc;
}

int pp_timed_rows(pp_timed *t, segment **seg, long *nseg, long *capseg, double w)
{
    if (drop_too_short(t))
        return -1;
    for (long i = 0; i < t->nrows; i++)
        for (long j = i + 1; j < t->nrows; j++) {
            trow *a = &t->rows[i], *b = &t->rows[j];
            if (a->dropped || b->dropped || a->ri == b->ri || a->f != b->f || a->k != b->k || a->b != b->b ||
                !repeats(t->m, a->ri, b->ri) || !same_counts(&a->s, &b->s))
                continue;
            if (a->s.dur <= b->s.dur)
                b->dropped = 1;
            else
                a->dropped = 1;
        }
    for (long i = 0; i < t->nrows; i++) {
        trow *r = &t->rows[i];
        if (r->dropped || r->s.n == 0)
            continue;
        if (*nseg == *capseg) {
            long cap = *capseg ? *capseg * 2 : 256;
            segment *n = realloc(*seg, sizeof *n * (size_t)cap);
            if (!n)
                return -1;
            *seg = n;
            *capseg = cap;
        }
        segment *s = &(*seg)[(*nseg)++];
        *s = r->s;
        for (int j = 0; j < s->n; j++)
            s->val[j] *= w;
        s->dur *= w;
        r->s.col = NULL;   /* the row owns them now */
        r->s.val = NULL;
        r->s.n = 0;
        r->dropped = 2;    /* used */
    }
    return 0;
}

void pp_timed_finish(const pp_timed *t, pp_prog *m)
{
    for (long i = 0; i < t->nrows; i++)
        if (t->rows[i].dropped == 2)
            m->funcs[t->rows[i].f].loops[t->rows[i].k].cost_measured = 1;
    double meas = 0, work = 0;
    for (int ri = 0; ri < t->nrec; ri++) {
        meas += t->meas[ri];
        work += t->work[ri];
    }
    m->timed_share = work > 0 && meas > 0 ? meas / work : -1;
    if (m->timed_share > 1.1)
        pp_prog_warn(m, "the measured loops took %.0f%% of the time of the segments they ran in: the threads "
                        "were descheduled while they ran, or the segments' processor times missed part of "
                        "the work; the loops' costs follow their own timing",
                     100 * m->timed_share);
}
