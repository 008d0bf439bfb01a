/* desc-sched.c - the counts of dynamic and guided OpenMP worksharing
 * loops (docs/model.md, "OpenMP schedules").
 *
 * Such a loop is, in the outlined body, a dispatch loop (one iteration per
 * chunk the thread obtained from GOMP_loop_*_start / _next) around a chunk
 * loop (the chunk's iterations).  Which thread gets which chunk is decided
 * at run time, so the plugin can give neither count; it gives the
 * iteration space instead, sched=(KIND START END INCR CHUNK) on the
 * dispatch loop.  From it the model deals the work evenly, as a dynamic
 * schedule does when the iterations cost the same:
 *
 *   NTOT = iterations of the worksharing loop (START to END by INCR)
 *   dynamic, chunk c: NCH = ceil(NTOT / c) chunks; thread tid gets
 *     NCH / nthreads of them (one more when tid < NCH mod nthreads), each
 *     of c iterations (the last chunk may be shorter: the model's total is
 *     then at most c - 1 above the run's)
 *   guided: the chunks shrink with what is left, and every thread ends up
 *     with about NTOT / nthreads iterations: modelled as one chunk of
 *     NTOT / nthreads per thread (the run's number of chunks, a few per
 *     thread, is not)
 *
 * A runtime schedule is the run's OMP_SCHEDULE (the record has it; unset,
 * libgomp's dynamic,1), auto is static (as libgomp runs it), static with
 * a chunk deals its chunks as dynamic, static without one is even shares
 * as guided.
 *
 * When the chunk's body reads the chunk loop's IV (a triangle, j <= i),
 * the model also deals the IV's values (deal_init, deal_step): dynamic
 * chunk r*P + tid of thread tid's r-th dispatch (snaked in full odd
 * rounds), the last chunk cut at NTOT; guided rows tid, tid + P, ...; every
 * iteration once, so what depends on the IV sums to the run's total and
 * is checked against it as any symbolic count.
 *
 * So the counts follow the problem size and the team size.  The two
 * loops are marked PP_LF_OMP_SCHED: their counts at the recorded size are
 * a model of the run's, not the run's, and are not refitted when they
 * differ.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "desc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a malloc'd formatted string, or NULL */
static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* the expression in text (NULL when it does not parse; frees text) */
static pp_expr *parse_free(char *text)
{
    char err[200];
    pp_expr *e = text ? pp_expr_parse(text, NULL, err, sizeof err) : NULL;
    free(text);
    return e;
}

/* Does e read the induction variable of loop id? */
static int reads_iv(const pp_expr *e, int id)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_IV && e->ival == id)
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (reads_iv(e->kids[i], id))
            return 1;
    return 0;
}

/* Is loop id (a loop id, -1: the function's body) inside loop anc? */
static int inside(const pp_dfunc *f, int id, int anc)
{
    for (int depth = 0; id >= 0 && depth < 256; depth++) {
        if (id == anc)
            return 1;
        const pp_dloop *l = pp_desc_loop(f, id);
        id = l ? l->parent : -1;
    }
    return 0;
}

/* Does the body of loop c read c's induction variable (an inner loop's
 * bounds, a condition, a call's argument: a triangle `j <= i`)? */
static int body_reads_iv(const pp_dfunc *f, int c)
{
    for (int i = 0; i < f->nloops; i++) {
        const pp_dloop *l = &f->loops[i];
        if (l->id != c && inside(f, l->parent, c) &&
            (reads_iv(l->count, c) || reads_iv(l->init, c) || reads_iv(l->bound, c) || reads_iv(l->step, c)))
            return 1;
    }
    for (int i = 0; i < f->nbranches; i++)
        if (inside(f, f->branches[i].loop, c) && reads_iv(f->branches[i].cond, c))
            return 1;
    for (int i = 0; i < f->ncalls; i++)
        for (int j = 0; j < f->calls[i].nargs; j++)
            if (inside(f, f->calls[i].loop, c) && reads_iv(f->calls[i].args[j], c))
                return 1;
    for (int i = 0; i < f->nevents; i++) {
        const pp_devent *ev = &f->events[i];
        if (inside(f, ev->loop, c) && (reads_iv(ev->obj, c) || reads_iv(ev->arg, c)))
            return 1;
    }
    return 0;
}

/* OMP_SCHEDULE ("[monotonic:|nonmonotonic:]KIND[,CHUNK]") as the kind and
 * chunk it gives (chunk 0: none given); unset is libgomp's dynamic,1. */
static void runtime_sched(const char *env, char *kind, size_t klen, long *chunk)
{
    snprintf(kind, klen, "dynamic");
    *chunk = 1;
    if (!env || !*env)
        return;
    const char *colon = strchr(env, ':');
    if (colon)
        env = colon + 1;
    size_t n = strcspn(env, ",");
    snprintf(kind, klen, "%.*s", (int)(n < klen ? n : klen - 1), env);
    for (char *k = kind; *k; k++)
        if (*k >= 'A' && *k <= 'Z')
            *k = (char)(*k - 'A' + 'a');
    *chunk = env[n] == ',' ? atol(env + n + 1) : 0;
    if (*chunk < 0)
        *chunk = 0;
}

void pp_desc_sched_apply(pp_dfunc *f, const char *omp_schedule)
{
    for (int j = 0; j < f->nloops; j++) {
        pp_dloop *d = &f->loops[j];
        if (!d->sched || !(d->flags & PP_LF_OMP_DISPATCH))
            continue;
        const pp_expr *e = d->sched;
        char kind[32];
        snprintf(kind, sizeof kind, "%s", e->kids[0]->name);
        char *a[4];
        int ok = 1;
        for (int i = 0; i < 4; i++) {
            a[i] = pp_expr_to_sexpr(e->kids[1 + i]);
            ok &= a[i] != NULL && strchr(a[i], '?') == NULL;
        }
        if (ok && !strcmp(kind, "runtime")) {
            long ch;
            runtime_sched(omp_schedule, kind, sizeof kind, &ch);
            free(a[3]);
            a[3] = fmt("%ld", ch);
            ok = a[3] != NULL;
        }
        /* libgomp runs auto as static */
        if (!strcmp(kind, "auto"))
            snprintf(kind, sizeof kind, "static");
        /* no chunk given: 0 (static's even shares) */
        char *endp = NULL;
        long c0 = a[3] ? strtol(a[3], &endp, 10) : 1;
        int chunk0 = a[3] && endp && *endp == '\0' && endp != a[3] && c0 <= 0;
        /* even shares in one chunk: guided, and static without a chunk;
         * chunks of c dealt out: dynamic, and static with one */
        int even = !strcmp(kind, "guided") || (!strcmp(kind, "static") && chunk0);
        int dealt = !strcmp(kind, "dynamic") || (!strcmp(kind, "static") && !chunk0);
        /* the chunk loop inside it */
        pp_dloop *c = NULL;
        for (int i = 0; i < f->nloops; i++)
            if (f->loops[i].parent == d->id && (f->loops[i].flags & PP_LF_OMP_CHUNK))
                c = &f->loops[i];
        if (ok && (even || dealt) && c && !d->count && !c->count) {
            const char *start = a[0], *end = a[1], *incr = a[2], *ch = a[3];
            /* iterations from START to END by INCR (either sign) */
            char *ntot = fmt("(max 0 (cond (gt %s 0) (div (+ (- %s %s) (- %s 1)) %s) "
                             "(div (+ (- %s %s) (+ %s 1)) %s)))",
                             incr, end, start, incr, incr, end, start, incr, incr);
            char *nch = ntot ? fmt("(div (+ %s (- (max 1 %s) 1)) (max 1 %s))", ntot, ch, ch) : NULL;
            /* the chunk's iterations read its IV (a triangle): the model
             * deals the iteration space itself, each iteration once, so
             * that what depends on the IV sums to the run's total */
            int deal = body_reads_iv(f, c->id);
            if (ntot && nch && even) {
                d->count = parse_free(fmt("(cond (lt (tid) %s) 1 0)", ntot));
                c->count = parse_free(
                    fmt("(+ (div %s (nthreads)) (cond (lt (tid) (mod %s (nthreads))) 1 0))", ntot, ntot));
                /* thread tid's share: iterations tid, tid + P, ... (which
                 * ones a thread really ran is not known; cyclic shares of
                 * a triangle are as even as the schedule makes them) */
                if (deal) {
                    c->deal_init = parse_free(fmt("(+ %s (* (tid) %s))", start, incr));
                    c->deal_step = parse_free(fmt("(* %s (nthreads))", incr));
                }
            } else if (ntot && nch && deal) {
                d->count = parse_free(
                    fmt("(+ (div %s (nthreads)) (cond (lt (tid) (mod %s (nthreads))) 1 0))", nch, nch));
                /* thread tid's r-th chunk: number r*P + tid, or r*P + P-1-tid
                 * in odd rounds that every thread completes (a snake,
                 * so that a triangle's rows even out over pairs of rounds);
                 * the last chunk is cut at NTOT */
                char *k = fmt("(+ (* (iv %d) (nthreads)) (cond (and (ne (mod (iv %d) 2) 0) "
                              "(le (* (+ (iv %d) 1) (nthreads)) %s)) (- (- (nthreads) 1) (tid)) (tid)))",
                              d->id, d->id, d->id, nch);
                if (k) {
                    c->count = parse_free(fmt("(max 0 (min (max 1 %s) (- %s (* %s (max 1 %s)))))", ch, ntot, k, ch));
                    c->deal_init = parse_free(fmt("(+ %s (* (* %s (max 1 %s)) %s))", start, k, ch, incr));
                    c->deal_step = parse_free(fmt("%s", incr));
                    d->deal_init = parse_free(fmt("0"));
                    d->deal_step = parse_free(fmt("1"));
                }
                free(k);
            } else if (ntot && nch) {
                d->count = parse_free(
                    fmt("(+ (div %s (nthreads)) (cond (lt (tid) (mod %s (nthreads))) 1 0))", nch, nch));
                c->count = parse_free(fmt("(min (max 1 %s) %s)", ch, ntot));
            }
            free(ntot);
            free(nch);
            if (deal && (!c->deal_init || !c->deal_step || (!even && (!d->deal_init || !d->deal_step)))) {
                /* no dealing: the chunk's IV stays unknown */
                pp_expr_free(c->deal_init);
                pp_expr_free(c->deal_step);
                pp_expr_free(d->deal_init);
                pp_expr_free(d->deal_step);
                c->deal_init = c->deal_step = d->deal_init = d->deal_step = NULL;
            }
            if (!d->count || !c->count) {
                pp_expr_free(d->count);
                pp_expr_free(c->count);
                d->count = c->count = NULL;
            } else {
                d->flags |= PP_LF_OMP_SCHED;
                c->flags |= PP_LF_OMP_SCHED;
                /* entered when the start call gave the thread a chunk:
                 * its count is 0 for a thread the model gives none, and
                 * the run's share of such threads (a fast loop one
                 * thread took whole) says nothing of other sizes */
                d->guard_branch = -1;
                d->guard_true = 1;
            }
        }
        for (int i = 0; i < 4; i++)
            free(a[i]);
    }
}
