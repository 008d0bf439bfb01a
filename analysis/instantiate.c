/* instantiate.c - unroll the program model for a given (chi, P): the thread
 * graph as per-thread action lists (work, fork/join, create/join, barrier,
 * lock), and the iteration count of every loop.  This file interprets
 * scopes, loops and calls; inst-events.c makes what each event of the
 * thread graph makes; instance.c sets the unrolling up and runs main.
 *
 * The model is interpreted like a program: main's body runs on thread 0;
 * a loop whose subtree holds no thread-graph event is costed in closed
 * form (count x own cost + its children, multiplied when the children do
 * not read its induction variable, enumerated otherwise); a loop that holds
 * events is unrolled iteration by iteration.  A fork starts a team on the
 * forking thread's pool (one persistent logical thread per thread number,
 * as libgomp does), a create starts a new logical thread.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "longrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH    64
#define ENUM_LIMIT   (1L << 20)   /* beyond: sample the iterations          */
#define NSAMPLES     512


/* ---- loop counts --------------------------------------------------------- */

/* Iterations of loop k in this frame; *exact is cleared when the count
 * came from the observed average. */
static long double loop_count(ictx *c, const frame *fr, int k, int *exact)
{
    const pp_mloop *ml = &fr->mf->loops[k];
    if (ml->rule != PP_RULE_CONSTANT && ml->count) {
        int64_t v;
        if (pp_inst_eval(c, fr, ml->count, &v) == 0)
            return v > 0 ? (long double)v : 0;
        if (c->in->fellback)
            c->in->fellback[fr->fi][k] = 1;
    }
    *exact = 0;
    if (ml->claim && fr->thr_known && fr->thr_n > 0) {
        /* a work queue: the team's total dealt over its threads like a
         * dynamic schedule of equal items (desc-sched.c) */
        pp_inst_class_bad(c);   /* dealt by the thread's index, outside the trace */
        long double T = roundl((long double)pp_loop_team_total(c->m, c->pv, ml));
        long double n = (long double)fr->thr_n, q = floorl(T / n);
        return q + ((long double)fr->thr_k < T - q * n ? 1 : 0);
    }
    return pp_loop_trip(c->m, c->pv, ml);
}

/* Loop k's induction variable in a frame: its start and step. */
typedef struct {
    int known;
    int64_t init, step;
    int src;        /* its start read the thread's number or the rank: the
                       frame's taint (inst-class.c) */
} iv_rule;

/* The taint of a slot the last evaluation went into (frame.iv_taint). */
static int taint_of(const ictx *c)
{
    return !c->eval_dep ? 0 : c->eval_note >= 0 ? c->eval_note + 1 : -1;
}

static iv_rule iv_rule_of(ictx *c, const frame *fr, int k)
{
    const pp_dloop *dl = &fr->mf->d->loops[k];
    iv_rule r = {0, 0, 0, 0};
    const pp_expr *init = dl->deal_init ? dl->deal_init : dl->init;
    const pp_expr *step = dl->deal_init ? dl->deal_step : dl->step;
    c->eval_sink = 1;
    r.known = pp_inst_eval(c, fr, init, &r.init) == 0;
    r.src = taint_of(c);
    if (r.known) {
        r.known = pp_inst_eval(c, fr, step, &r.step) == 0;
        if (c->eval_dep)
            r.src = -1;     /* a step of the thread's: not followed */
    }
    c->eval_sink = 0;
    return r;
}

/* Value of the induction variable of loop k at iteration j. */
static void set_iv_by(frame *fr, int k, const iv_rule *r, long double j)
{
    int id = fr->mf->d->loops[k].id;
    if (id < 0 || id > fr->mf->max_loop_id)
        return;
    if (r->known) {
        fr->iv[id] = r->init + (int64_t)j * r->step;
        fr->iv_known[id] = 1;
    } else
        fr->iv_known[id] = 0;
    fr->iv_taint[id] = r->src;
}

static void set_iv(ictx *c, frame *fr, int k, long double j)
{
    int id = fr->mf->d->loops[k].id;
    if (id < 0 || id > fr->mf->max_loop_id)
        return;
    iv_rule r = iv_rule_of(c, fr, k);
    set_iv_by(fr, k, &r, j);
}

/* Does e read an induction variable, or a rank or size in a communicator
 * variable (which an MPI_Comm_split or _free in the loop's body may
 * rebind)? */
static int has_iv(const pp_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == PP_E_IV || ((e->kind == PP_E_RANK || e->kind == PP_E_NPROCS) && e->name))
        return 1;
    for (int i = 0; i < e->nkids; i++)
        if (has_iv(e->kids[i]))
            return 1;
    return 0;
}

/* The rule of loop k for its iterations: evaluated once when its start and
 * step read neither (nothing else they read changes in the loop's body), at
 * every iteration otherwise (*fixed = 0). */
static iv_rule iv_rule_fixed(ictx *c, const frame *fr, int k, int *fixed)
{
    const pp_dloop *dl = &fr->mf->d->loops[k];
    int id = dl->id;
    const pp_expr *init = dl->deal_init ? dl->deal_init : dl->init;
    const pp_expr *step = dl->deal_init ? dl->deal_step : dl->step;
    /* a dealt chunk's start reads tid and the dispatch loop's IV */
    *fixed = id >= 0 && id <= fr->mf->max_loop_id && !has_iv(init) && !has_iv(step);
    iv_rule r = {0, 0, 0, 0};
    if (*fixed)
        r = iv_rule_of(c, fr, k);
    return r;
}

static int reads_iv(const pp_mloop *ml, int id)
{
    for (int i = 0; i < ml->nivs; i++)
        if (ml->ivs[i] == id)
            return 1;
    return 0;
}

/* ---- guards and dithering ---------------------------------------------- */

/* Does a guarded / partially executed site run now?  Returns the fraction
 * of executions to account (1 or 0 when emitting; a ratio otherwise). */
static double site_runs(ictx *c, const frame *fr, int guard_branch, int guard_true, double ratio,
                        double *dither, int emit)
{
    /* the chain of branches the site is under, innermost first: one that
     * evaluates to the other side rules the site out */
    const pp_mfunc *mf = fr->mf;
    int g = guard_branch, want = guard_true, depth = 0, inner_known = -1, outer_known = 0;
    while (g >= 0 && g <= mf->max_branch_id && mf->branch_index_by_id[g] >= 0 && depth++ < 64) {
        const pp_dbranch *b = &mf->d->branches[mf->branch_index_by_id[g]];
        int64_t v;
        int known = pp_inst_eval(c, fr, b->cond, &v) == 0;
        if (inner_known < 0)
            inner_known = known;
        else
            outer_known |= known;
        if (known && (v != 0) != want)
            return 0.0;
        g = b->guard_branch;
        want = b->guard_true;
    }
    /* the innermost condition holds (outer ones that cannot be evaluated
     * are taken to hold too: the site's own test decides) */
    if (inner_known == 1)
        return 1.0;
    if (inner_known == 0 && outer_known) {
        /* the innermost cannot be evaluated but an outer one held (an MPI
         * rank's `rank == 0`): the site runs as often as its innermost
         * branch went its way, not as its share of every opportunity */
        double br = mf->branch_ratio[mf->branch_index_by_id[guard_branch]];
        if (br >= 0)
            ratio = guard_true ? br : 1 - br;
    }
    if (ratio < 0 || ratio >= 0.999)
        return 1.0;
    if (!emit || ratio == 0)
        return ratio;   /* a site that never ran (an MPI_Abort) never runs */
    /* deterministic dithering: run on the opportunities where the running
     * sum of the ratio crosses an integer */
    pp_inst_class_bad(c);   /* the dithering's state is the team's, not a member's */
    double before = *dither * ratio;
    *dither += 1;
    return floor(*dither * ratio + 1e-9) > floor(before + 1e-9) ? 1.0 : 0.0;
}

/* ---- the interpreter ----------------------------------------------------- */

static int exec_scope(ictx *c, int t, frame *fr, int scope, long double mult, int emit, pp_work *acc);

static void add_work(ictx *c, int t, int emit, pp_work *acc, double ns, double mem)
{
    pp_work *w = emit ? &c->pending[t] : acc;
    w->ns += ns;
    w->mem += mem;
}

/* A cost entering the work here (a loop's own iterations and entries, a
 * call's fixed cost): with PP_INST_SITES also the part of context node,
 * mult x ns being what it adds to the WORK action (inst-sites.c). */
static inline int add_own(ictx *c, int sites, int t, int emit, pp_work *acc, double ns, double mem,
                          long double mult, int node)
{
    add_work(c, t, emit, acc, ns, mem);
    if (__builtin_expect(sites, 0))
        return pp_inst_part(c, t, node, (double)(mult * ns));
    return 0;
}

/* add f times the work w */
static void add_work_x(ictx *c, int t, int emit, pp_work *acc, pp_work w, double f)
{
    add_work(c, t, emit, acc, f * w.ns, f * w.mem);
}

int pp_inst_exec_func(ictx *c, int t, frame *fr, long double mult, int emit, pp_work *acc)
{
    if (++c->depth > MAX_DEPTH) {
        c->depth--;
        return pp_inst_fail(c, "calls nest deeper than %d (in %s): the model cannot unroll recursion",
                    MAX_DEPTH, fr->mf->d->name);
    }
    int saved = c->node;
    if ((c->flags & PP_INST_SITES) && (c->node = pp_inst_ctx_child(c, saved, fr->fi, -1)) < 0) {
        c->node = saved;
        c->depth--;
        return pp_inst_fail(c, "out of memory");
    }
    int rc = exec_scope(c, t, fr, -1, mult, emit, acc);
    c->node = saved;
    c->depth--;
    return rc;
}

/* Does loop k (or a loop in it) create or join pthreads?  The drawn
 * graph unrolls such loops: each iteration makes a thread. */
static int makes_threads(const pp_mfunc *mf, int k)
{
    for (int i = 0; i < mf->nitems[1 + k]; i++) {
        const pp_item *it = &mf->items[1 + k][i];
        if (it->type == PP_I_EVENT &&
            (mf->d->events[it->idx].kind == PP_EV_CREATE || mf->d->events[it->idx].kind == PP_EV_JOIN))
            return 1;
        if (it->type == PP_I_LOOP && makes_threads(mf, it->idx))
            return 1;
    }
    return 0;
}

static inline __attribute__((always_inline)) int exec_loop_in(ictx *c, int t, frame *fr, int k,
                                                               long double mult, int emit, pp_work *acc);

/* Iterations j0..cnt - 1 of loop k, too many to enumerate: NSAMPLES of
 * them evenly spread, each standing for an equal share (midpoint rule);
 * the result says approx. */
static int sample_iters(ictx *c, int t, frame *fr, int k, long long j0, long long cnt, long double mult,
                        pp_work *sub)
{
    c->in->approx = 1;
    long double w = (long double)(cnt - j0) / NSAMPLES;
    for (int s = 0; s < NSAMPLES; s++) {
        long double j = (long double)j0 + floorl(((long double)s + 0.5L) * w);
        pp_work one = {0};
        set_iv(c, fr, k, j);
        if (exec_scope(c, t, fr, k, mult * w, 0, &one))
            return -1;
        sub->ns += (double)(w * one.ns);
        sub->mem += (double)(w * one.mem);
    }
    return 0;
}

/* ---- runs of iterations ------------------------------------------------- */

#define RUNS_GIVE_UP 8   /* runs of one iteration in a row, after which the
                            rest of the loop is enumerated plainly         */

/* Runs of iterations are measured one loop at a time, and not in the
 * full walk (the oracle's).  In a class's first member, an evaluation
 * that reads the thread's number or a value from it ends the run
 * (inst-code.c, run_keeps): the trace notes the results at the
 * iterations the member makes, not where they change, and another
 * member could join the class with other runs; what reads neither
 * changes where it changes for every member. */
static int runs_allowed(const ictx *c)
{
    return !c->itr.on && !pp_full_walk();
}

/* The iterations from..cnt - 1 of loop k in runs of iterations `period`
 * apart: for each residue, the body made at a run's first iteration and
 * run over the iterations period, 2 period, ... after it (the IV's step
 * times period along the run), which every remainder by a divisor of
 * the period gives the same result; where the runs stay one iteration
 * long all the same, the rest is enumerated (sampled past the
 * enumeration's limit, as exec_runs does).  The body holds no events
 * (exec_runs), so the order of its iterations does not matter: only
 * their work, which is summed.  Into *sub. */
/* One run of loop k's iterations from the one its IV is set to, at most
 * `left` of them (c1: the slots' steps along it): the body made at the
 * first, the run's length into *len, its work times that into *sub;
 * what the body adds besides its work made once more for the run's
 * other iterations.  The remainders' stride the run noted is left in
 * c->itr.period. */
static int one_run(ictx *c, int t, frame *fr, int k, long long left, long double mult, int64_t *c1, pp_work *sub,
                   long long *len)
{
    pp_work one = {0};
    c->itr.on = 1;
    c->itr.max = left - 1;
    c->itr.period = 0;
    fr->iv_c1 = c1;
    int rc = exec_scope(c, t, fr, k, mult, 0, &one);
    fr->iv_c1 = NULL;
    c->itr.on = 0;
    *len = c->itr.max + 1;
    sub->ns += (double)*len * one.ns;
    sub->mem += (double)*len * one.mem;
    if (rc == 0 && *len > 1 && (c->flags & (PP_INST_TOTALS | PP_INST_MEMSTAT | PP_INST_SITES))) {
        pp_work again = {0};
        rc = exec_scope(c, t, fr, k, mult * (long double)(*len - 1), 0, &again);
    }
    return rc;
}

/* the idx-th of the iterations left in the strided order: residue res
 * from its m-th on, then the residues after it */
static long long strided_at(long long from, long long cnt, int64_t period, int64_t res, long long m,
                            long long idx)
{
    for (int64_t r2 = res; r2 < period; r2++) {
        long long n2 = (cnt - from - r2 + period - 1) / period - (r2 == res ? m : 0);
        if (idx < n2)
            return from + r2 + ((r2 == res ? m : 0) + idx) * period;
        idx -= n2;
    }
    return cnt - 1;
}

static int exec_strided(ictx *c, int t, frame *fr, int k, const iv_rule *r, long long from, long long cnt,
                        int64_t period, long double mult, int64_t *c1, pp_work *sub)
{
    int id = fr->mf->d->loops[k].id;
    c1[id] = r->step * period;
    int ones = 0, rc = 0;
    for (int64_t res = 0; res < period && rc == 0; res++) {
        long long n = (cnt - from - res + period - 1) / period;   /* the residue's iterations */
        for (long long m = 0; m < n && rc == 0;) {
            long long j = from + res + m * period;
            if (ones == RUNS_GIVE_UP) {
                /* as plain runs past the enumeration's limit: sampled */
                long long left = 0;
                for (int64_t r2 = res; r2 < period; r2++)
                    left += (cnt - from - r2 + period - 1) / period - (r2 == res ? m : 0);
                if (left > ENUM_LIMIT) {
                    c->in->approx = 1;
                    long double w = (long double)left / NSAMPLES;
                    for (int s = 0; s < NSAMPLES && rc == 0; s++) {
                        pp_work one = {0};
                        set_iv(c, fr, k,
                               (long double)strided_at(from, cnt, period, res, m,
                                                       (long long)floorl(((long double)s + 0.5L) * w)));
                        rc = exec_scope(c, t, fr, k, mult * w, 0, &one);
                        sub->ns += (double)(w * one.ns);
                        sub->mem += (double)(w * one.mem);
                    }
                    c1[id] = r->step;
                    return rc;
                }
                ones++;   /* enumerated from here on */
            }
            set_iv_by(fr, k, r, (long double)j);
            if (ones > RUNS_GIVE_UP) {
                rc = exec_scope(c, t, fr, k, mult, 0, sub);
                m++;
                continue;
            }
            long long len;
            rc = one_run(c, t, fr, k, n - m, mult, c1, sub, &len);
            ones = len == 1 ? ones + 1 : 0;
            m += len;
        }
    }
    c1[id] = r->step;
    return rc;
}

/* An enumerated loop (its body reads its IV), in runs: the body made at
 * a run's first iteration, every evaluation in it (its frame's, and its
 * callees', their arguments affine along the run: call_frame) run over
 * the iterations after it too (inst-range.c), the run ending where one
 * of them may give another result.  Every iteration of a run makes the
 * same evaluations with the same results, so the same work: the body's
 * once, times the run's length.  What the body adds besides its work
 * (the loop totals, the memory statistics, where the time goes) is
 * mult-weighted: it is made again for the run's other iterations, as one
 * body with mult times their number.  A helper's tests of the position
 * (i == 0 || j == n - 1) make a few runs per row, not one per cell, and
 * a loop of more than ENUM_LIMIT iterations is summed exactly where its
 * runs are long.  Where they stay one iteration long (a count that reads
 * the IV) the rest of the loop is enumerated plainly after RUNS_GIVE_UP
 * of them (or sampled, past ENUM_LIMIT). */
static int exec_runs(ictx *c, int t, frame *fr, int k, const iv_rule *r, long long cnt, long double mult,
                     int emit, pp_work *acc)
{
    int id = fr->mf->d->loops[k].id;
    int nl = fr->mf->max_loop_id + 2;
    int64_t c1_buf[16], *c1 = nl <= 16 ? c1_buf : calloc((size_t)nl, sizeof *c1);
    if (!c1)
        return pp_inst_fail(c, "out of memory");
    memset(c1, 0, sizeof *c1 * (size_t)nl);
    c1[id] = r->step;
    pp_work sub = {0};
    int ones = 0, rc = 0;
    int64_t period = 0;   /* the remainders' stride the last runs noted */
    for (long long j = 0; j < cnt && rc == 0;) {
        if (ones >= RUNS_GIVE_UP && period > 1 && cnt - j >= 4 * period) {
            /* the runs stay one iteration long because of a remainder
             * (a cell's kind from (i + j) % 3): runs of the iterations
             * `period` apart, one residue at a time */
            rc = exec_strided(c, t, fr, k, r, j, cnt, period, mult, c1, &sub);
            break;
        }
        if (ones >= RUNS_GIVE_UP && cnt - j > ENUM_LIMIT) {
            rc = sample_iters(c, t, fr, k, j, cnt, mult, &sub);
            break;
        }
        set_iv_by(fr, k, r, (long double)j);
        if (ones >= RUNS_GIVE_UP) {
            rc = exec_scope(c, t, fr, k, mult, 0, &sub);
            j++;
            continue;
        }
        long long len;
        rc = one_run(c, t, fr, k, cnt - j, mult, c1, &sub, &len);
        if (len == 1)
            period = ones == 0 ? c->itr.period : period == c->itr.period ? period : -1;
        ones = len == 1 ? ones + 1 : 0;
        j += len;
    }
    if (c1 != c1_buf)
        free(c1);
    if (rc)
        return -1;
    add_work_x(c, t, emit, acc, sub, 1);
    return 0;
}

/* Loop k (with PP_INST_SITES in its context: its own costs are its) */
static int exec_loop(ictx *c, int t, frame *fr, int k, long double mult, int emit, pp_work *acc)
{
    if (!(c->flags & PP_INST_SITES))
        return exec_loop_in(c, t, fr, k, mult, emit, acc);
    int saved = c->node;
    if ((c->node = pp_inst_ctx_child(c, saved, fr->fi, k)) < 0) {
        c->node = saved;
        return pp_inst_fail(c, "out of memory");
    }
    int rc = exec_loop_in(c, t, fr, k, mult, emit, acc);
    c->node = saved;
    return rc;
}

static inline __attribute__((always_inline)) int exec_loop_in(ictx *c, int t, frame *fr, int k,
                                                               long double mult, int emit, pp_work *acc)
{
    const int sites = c->flags & PP_INST_SITES;
    const pp_mloop *ml = &fr->mf->loops[k];
    const pp_dloop *dl = &fr->mf->d->loops[k];
    if (emit && !ml->sync && (c->flags & PP_INST_STRUCT)) {
        /* the drawn graph: an event-free loop is one node with its cost */
        pp_work sub = {0};
        int ex = 1;
        long double cnt = loop_count(c, fr, k, &ex);
        if (pp_inst_flush(c, t) || exec_loop(c, t, fr, k, mult, 0, &sub))
            return -1;
        c->in->work_ns += sub.ns;
        return pp_inst_push_action(c, t, (pp_action){.kind = PP_A_LOOP_WORK, .key = k, .n = (int)llroundl(cnt),
                                              .ns = sub.ns, .mem = pp_inst_mem_share(sub), .func = fr->fi,
                                              .site = dl->id});
    }
    int exact = 1;
    long double n = loop_count(c, fr, k, &exact);
    /* !exact: a fitted average, counts need not be integers */
    if ((c->flags & PP_INST_TOTALS) && c->in->totals)
        c->in->totals[fr->fi][k] += mult * n;
    int has_items = fr->mf->nitems[1 + k] > 0;
    /* entering the loop costs its set-up and its last, failing test */
    if (add_own(c, sites, t, emit, acc, c->costs->v[ml->entry_slot], 0, mult, c->node))
        return -1;
    if (n <= 0)
        return 0;
    /* time per iteration: a loop whose working set is its thread's own is
     * priced with this frame's values (inst-mem.c) */
    double cost = c->costs->v[ml->slot], mem = c->costs->mem ? c->costs->mem[ml->slot] : 0;
    if (__builtin_expect(c->costs->mem_rec != NULL, 0) &&
        c->costs->mem_rec->loop[c->costs->mem_rec->first[fr->fi] + k].thr == 1)
        pp_inst_mem_cost(c, fr, k, n, mult, &cost, &mem);
    if (emit && ml->sync && (c->flags & PP_INST_STRUCT) && !makes_threads(fr->mf, k)) {
        /* the drawn graph: the body once, between markers */
        if (pp_inst_sync_action(c, t, PP_A_LOOP_OPEN, k, (int)llroundl(n), fr->fi, dl->id))
            return -1;
        set_iv(c, fr, k, 0);
        add_work(c, t, 1, acc, cost, mem);
        if (exec_scope(c, t, fr, k, mult, 1, acc))
            return -1;
        return pp_inst_sync_action(c, t, PP_A_LOOP_CLOSE, k, (int)llroundl(n), fr->fi, dl->id);
    }
    if (emit && ml->sync) {
        /* unroll: the loop holds events of the thread graph */
        long long cnt = (long long)llroundl(n);
        int fixed;
        iv_rule r = iv_rule_fixed(c, fr, k, &fixed);
        for (long long j = 0; j < cnt; j++) {
            if (fixed)
                set_iv_by(fr, k, &r, (long double)j);
            else
                set_iv(c, fr, k, (long double)j);
            if (add_own(c, sites, t, 1, acc, cost, mem, mult, c->node) ||
                exec_scope(c, t, fr, k, mult, 1, acc))
                return -1;
        }
        return 0;
    }
    if (add_own(c, sites, t, emit, acc, (double)n * cost, (double)n * mem, mult, c->node))
        return -1;
    if (!has_items)
        return 0;
    if (!reads_iv(ml, dl->id)) {
        /* the body does not depend on this loop's IV: cost it once */
        pp_work sub = {0};
        set_iv(c, fr, k, 0);
        if (exec_scope(c, t, fr, k, mult * n, 0, &sub))
            return -1;
        add_work_x(c, t, emit, acc, sub, (double)n);
        return 0;
    }
    long long cnt = (long long)llroundl(n);
    if (cnt <= ENUM_LIMIT) {
        pp_work sub = {0};
        int fixed;
        iv_rule r = iv_rule_fixed(c, fr, k, &fixed);
        if (cnt > 1 && fixed && r.known && runs_allowed(c))
            return exec_runs(c, t, fr, k, &r, cnt, mult, emit, acc);
        for (long long j = 0; j < cnt; j++) {
            if (fixed)
                set_iv_by(fr, k, &r, (long double)j);
            else
                set_iv(c, fr, k, (long double)j);
            if (exec_scope(c, t, fr, k, mult, 0, &sub))
                return -1;
        }
        add_work_x(c, t, emit, acc, sub, 1);
        return 0;
    }
    int fixed;
    iv_rule r = iv_rule_fixed(c, fr, k, &fixed);
    if (fixed && r.known && runs_allowed(c))
        return exec_runs(c, t, fr, k, &r, cnt, mult, emit, acc);
    pp_work sub = {0};
    if (sample_iters(c, t, fr, k, 0, cnt, mult, &sub))
        return -1;
    add_work_x(c, t, emit, acc, sub, 1);
    return 0;
}

/* Bind a callee frame's arguments from a call site. */
static int call_frame(ictx *c, const frame *fr, const pp_dcall *dc, int cfi, frame *cf)
{
    if (pp_inst_frame_init(cf, c->m, cfi))
        return pp_inst_fail(c, "out of memory");
    /* in a run of iterations, an argument that varies along it: the
     * callee's slot follows it (affine, the run cut to where it is) */
    int slopes = c->itr.on && c->itr.max > 0 && (fr->iv_c1 || fr->args_c1);
    int64_t *c1 = NULL;
    if (slopes) {
        int na = cf->mf->d->nargs + 1;
        c1 = na <= 8 ? cf->args_c1_buf : (cf->args_c1_heap = calloc((size_t)na, sizeof *c1));
        if (!c1)
            return pp_inst_fail(c, "out of memory");
        memset(c1, 0, sizeof *c1 * (size_t)na);
    }
    int varies = 0;
    for (int i = 0; i < dc->nargs && i < cf->mf->d->nargs; i++) {
        int64_t v, s = 0;
        const pp_expr *a = dc->args[i];
        c->eval_sink = 1;
        int ok = a && (slopes ? pp_inst_eval_slope(c, fr, a, &v, &s) : pp_inst_eval(c, fr, a, &v)) == 0;
        c->eval_sink = 0;
        if (ok && s) {
            c1[i] = s;
            varies = 1;
        }
        cf->args_taint[i] = a ? taint_of(c) : 0;
        if (ok) {
            cf->args[i] = v;
            cf->args_known[i] = 1;
        } else if (a && a->kind == PP_E_ADDR && a->name && cf->mf->sync) {
            /* an object's address: the callee's obj=(arg NAME) is it
             * (only a callee with thread-graph events has objects: a
             * call per element of an array must not make a key each) */
            long k = pp_inst_obj_key(c, fr, a);
            if (k < 0)
                return -1;
            cf->arg_obj[i] = k + 1;
        } else if (a && a->kind == PP_E_ARG && a->name) {
            const pp_dfunc *d = fr->mf->d;
            for (int j = 0; j < d->nargs; j++)
                if (strcmp(d->argnames[j], a->name) == 0)
                    cf->arg_obj[i] = fr->arg_obj[j];
        }
    }
    if (varies)
        cf->args_c1 = c1;
    cf->omp = fr->omp;
    cf->nthreads = fr->nthreads;
    cf->tid = fr->tid;
    cf->team = fr->team;
    cf->thr_known = fr->thr_known;
    cf->thr_k = fr->thr_k;
    cf->thr_n = fr->thr_n;
    return 0;
}

static int exec_call(ictx *c, int t, frame *fr, int idx, long double mult, int emit, pp_work *acc)
{
    const pp_mfunc *mf = fr->mf;
    const pp_dcall *dc = &mf->d->calls[idx];
    double r = site_runs(c, fr, dc->guard_branch, dc->guard_true, mf->site_ratio[mf->d->nevents + idx],
                         &c->dither[fr->fi][mf->d->nevents + idx], emit && mf->call_callee[idx] >= 0 &&
                         c->m->funcs[mf->call_callee[idx]].sync);
    if (r <= 0)
        return 0;
    int cfi = mf->call_callee[idx];
    /* a call's fixed cost is its callee's straight-line code (or, for a
     * function without a descriptor, the caller's) */
    int node = c->node;
    if ((c->flags & PP_INST_SITES) && cfi >= 0 && (node = pp_inst_ctx_child(c, c->node, cfi, -1)) < 0)
        return pp_inst_fail(c, "out of memory");
    if (add_own(c, c->flags & PP_INST_SITES, t, emit, acc, r * c->costs->v[mf->call_slot + idx], 0, mult, node))
        return -1;
    if (cfi < 0)
        return 0;
    frame cf;
    c->cur_t = t;
    if (call_frame(c, fr, dc, cfi, &cf))
        return -1;
    int rc;
    if (emit && c->m->funcs[cfi].sync)
        rc = pp_inst_exec_func(c, t, &cf, mult, 1, acc);
    else {
        pp_work sub = {0};
        rc = pp_inst_exec_func(c, t, &cf, mult * r, 0, &sub);
        add_work_x(c, t, emit, acc, sub, r);
    }
    pp_inst_frame_free(&cf);
    return rc;
}

static int exec_event(ictx *c, int t, frame *fr, int idx, long double mult, int emit, pp_work *acc)
{
    (void)mult;
    (void)acc;
    const pp_mfunc *mf = fr->mf;
    const pp_devent *ev = &mf->d->events[idx];
    double r = site_runs(c, fr, ev->guard_branch, ev->guard_true, mf->site_ratio[idx],
                         &c->dither[fr->fi][idx], emit);
    if (r <= 0 || !emit)
        return 0;
    return pp_inst_graph_event(c, t, fr, ev, idx);
}

static int exec_scope(ictx *c, int t, frame *fr, int scope, long double mult, int emit, pp_work *acc)
{
    const pp_mfunc *mf = fr->mf;
    int s = scope + 1;
    uint64_t cb_done = 0;       /* hand-built barriers passed in this pass */
    for (int i = 0; i < mf->nitems[s]; i++) {
        const pp_item *it = &mf->items[s][i];
        int rc = 0;
        int cb = !emit || !mf->ncb ? -1
                 : it->type == PP_I_EVENT ? mf->cb_of_event[it->idx]
                 : it->type == PP_I_LOOP ? mf->cb_of_loop[it->idx] : -1;
        if (cb >= 0 && cb < 64) {
            /* its broadcast side and its waiting side are one barrier,
             * whoever arrives last broadcasting (model-cond.c): made at
             * the first of the two, the other skipped */
            if (!(cb_done >> cb & 1) && pp_inst_condbar(c, t, fr, cb))
                return -1;
            cb_done |= (uint64_t)1 << cb;
            continue;
        }
        switch (it->type) {
        case PP_I_LOOP: {
            const pp_dloop *dl = &mf->d->loops[it->idx];
            double r = site_runs(c, fr, dl->guard_branch, dl->guard_true, mf->loop_ratio[it->idx],
                                 &c->dither[fr->fi][mf->d->nevents + mf->d->ncalls + it->idx],
                                 emit && mf->loops[it->idx].sync);
            if (r >= 1)
                rc = exec_loop(c, t, fr, it->idx, mult, emit, acc);
            else if (r > 0) {
                /* a loop entered on a fraction of the opportunities: its
                 * cost and counts in proportion */
                pp_work sub = {0};
                rc = exec_loop(c, t, fr, it->idx, mult * r, 0, &sub);
                add_work_x(c, t, emit, acc, sub, r);
            }
            break;
        }
        case PP_I_EVENT:
            rc = exec_event(c, t, fr, it->idx, mult, emit, acc);
            break;
        case PP_I_CALL:
            rc = exec_call(c, t, fr, it->idx, mult, emit, acc);
            break;
        }
        if (rc)
            return -1;
    }
    return 0;
}
