/* model-counts.c - see model-counts.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "model-counts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A loop's count expression: the plugin's, or one made from its affine
 * induction variable. */
static pp_expr *count_expr(const pp_dloop *l)
{
    if (l->count)
        return pp_expr_ref(l->count);
    if (!l->init || !l->bound || !l->step || l->cmp == PP_CMP_NONE)
        return NULL;
    /* lt: cdiv(bound - init, step); le: fdiv(bound - init, step) + 1;
     * gt: cdiv(init - bound, -step); ge: fdiv(init - bound, -step) + 1 */
    pp_expr *k[2], *diff, *st, *q, *r;
    int up = l->cmp == PP_CMP_LT || l->cmp == PP_CMP_LE || l->cmp == PP_CMP_NE;
    k[0] = up ? l->bound : l->init;
    k[1] = up ? l->init : l->bound;
    diff = pp_expr_op(PP_E_SUB, 2, k);
    if (up)
        st = pp_expr_ref(l->step);
    else
        st = pp_expr_op(PP_E_NEG, 1, &l->step);
    pp_expr *qa[2] = {diff, st};
    if (l->cmp == PP_CMP_LT || l->cmp == PP_CMP_GT || l->cmp == PP_CMP_NE)
        q = pp_expr_op(PP_E_CDIV, 2, qa);
    else {
        pp_expr *f = pp_expr_op(PP_E_FDIV, 2, qa);
        pp_expr *one = pp_expr_int(1);
        pp_expr *s[2] = {f, one};
        q = pp_expr_op(PP_E_ADD, 2, s);
        pp_expr_free(f);
        pp_expr_free(one);
    }
    pp_expr_free(diff);
    pp_expr_free(st);
    pp_expr *zero = pp_expr_int(0);
    pp_expr *mx[2] = {zero, q};
    r = pp_expr_op(PP_E_MAX, 2, mx);
    pp_expr_free(zero);
    pp_expr_free(q);
    return r;
}

/* A branch's false count: its own slot, or the sum its fslot= gives (0 if
 * that comes out negative: a thread that left a block without returning). */
uint64_t pp_branch_false_total(const pp_prog *m, int f, const pp_dbranch *b)
{
    if (!b->nfslot)
        return pp_prog_slot_total(m, f, b->slot + 1);
    int64_t s = 0;
    for (int i = 0; i < b->nfslot; i++)
        s += b->fslot[i] > 0 ? (int64_t)pp_prog_slot_total(m, f, b->fslot[i])
                             : -(int64_t)pp_prog_slot_total(m, f, -b->fslot[i]);
    return s > 0 ? (uint64_t)s : 0;
}

void pp_counts_observe(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        for (int k = 0; k < d->nloops; k++) {
            pp_mloop *ml = &mf->loops[k];
            const pp_dloop *dl = &d->loops[k];
            uint64_t H = pp_prog_slot_total(m, f, dl->slot);
            uint64_t E = pp_prog_slot_total(m, f, dl->slot + 1);
            ml->obs_entries = E;
            ml->obs_iters = dl->shape == PP_SHAPE_BOTTOM ? H : (H >= E ? H - E : 0);
            ml->trip = E ? (double)ml->obs_iters / (double)E : 0;
            ml->pow_param = -1;
            ml->count = count_expr(dl);
            ml->rule = ml->count && !pp_expr_has_unknown(ml->count) ? PP_RULE_SYMBOLIC : PP_RULE_CONSTANT;
            if (ml->rule == PP_RULE_CONSTANT && ml->count) {
                pp_expr_free(ml->count);
                ml->count = NULL;
            }
        }
        for (int b = 0; b < d->nbranches; b++) {
            uint64_t tr = pp_prog_slot_total(m, f, d->branches[b].slot);
            uint64_t fa = pp_branch_false_total(m, f, &d->branches[b]);
            mf->branch_ratio[b] = tr + fa ? (double)tr / (double)(tr + fa) : -1;
        }
    }
}

/* Observed body iterations of loop k of function f (primary numbering) in
 * record ri. */
static uint64_t observed_in(const pp_prog *m, int ri, int f, int k)
{
    const pp_record *r = m->recs[ri];
    int fr = -1;
    for (int g = 0; g < r->nfuncs; g++)
        if (m->fmap[ri][g] == f)
            fr = g;
    if (fr < 0)
        return 0;
    const pp_dloop *dl = &m->funcs[f].d->loops[k];
    uint64_t H = pp_record_slot_total(r, fr, dl->slot);
    uint64_t E = pp_record_slot_total(r, fr, dl->slot + 1);
    return dl->shape == PP_SHAPE_BOTTOM ? H : (H >= E ? H - E : 0);
}

/* Observed entries of loop k of function f in record ri. */
static uint64_t entries_in(const pp_prog *m, int ri, int f, int k)
{
    const pp_record *r = m->recs[ri];
    for (int g = 0; g < r->nfuncs; g++)
        if (m->fmap[ri][g] == f)
            return pp_record_slot_total(r, g, m->funcs[f].d->loops[k].slot + 1);
    return 0;
}

/* Threads of record ri that entered loop k of function f. */
static int threads_in(const pp_prog *m, int ri, int f, int k)
{
    const pp_record *r = m->recs[ri];
    int fr = -1, n = 0;
    for (int g = 0; g < r->nfuncs; g++)
        if (m->fmap[ri][g] == f)
            fr = g;
    if (fr < 0)
        return 0;
    int slot = m->funcs[f].d->loops[k].slot + 1;
    for (int t = 0; t < r->nthreads; t++)
        if (r->threads[t].counts && r->threads[t].counts[fr] && r->threads[t].counts[fr][slot] > 0)
            n++;
    return n;
}

/* The count a rule is fitted to in record ri: per entry, or for a
 * work-queue loop the team's total per entry of the team (the threads that
 * entered it, each once per team entry). */
static double trip_in(const pp_prog *m, int ri, int f, int k, uint64_t it, uint64_t e)
{
    if (!m->funcs[f].loops[k].claim)
        return (double)it / (double)e;
    int nt = threads_in(m, ri, f, k);
    return (double)it * (nt > 0 ? nt : 1) / (double)e;
}

/* The team size a work-queue loop's total is dealt over in a per-entry
 * view (equations, memory): the current P. */
static double current_P(const pp_prog *m, const pp_vals *pv)
{
    if (m->pkind == PP_P_PARAM && m->p_param >= 0) {
        double P = (double)(pp_vals_get(m, pv, m->p_param) + m->p_offset);
        return P >= 1 ? P : 1;
    }
    return 1;
}

double pp_loop_team_total(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml)
{
    if (ml->pow_param < 0 || ml->pow_param >= m->nparams)
        return ml->trip;
    double x = (double)pp_vals_get(m, pv, ml->pow_param);
    double t = ml->pow_lin ? ml->pow_a * x + ml->pow_b : x > 0 ? ml->pow_a * pow(x, ml->pow_b) : 0;
    return t > 0 ? t * (pv && pv->scaled == ml ? pv->trip_scale : 1) : 0;
}

double pp_loop_trip(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml)
{
    double t = pp_loop_team_total(m, pv, ml);
    return ml->claim ? t / current_P(m, pv) : t;
}

double pp_loop_trip_relse(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml)
{
    if (ml->pow_param < 0 || ml->pow_param >= m->nparams || ml->pow_q <= 2 || ml->pow_sxx <= 0)
        return -1;
    double x = (double)pp_vals_get(m, pv, ml->pow_param);
    if (x <= 0)
        return -1;
    double u = ml->pow_lin ? x : log(x);
    /* the regression's prediction error at u: the residuals' spread
     * (how far the law misses the records) and the error of its mean,
     * which grows with the distance from the records */
    double se = ml->pow_s * sqrt(1.0 + 1.0 / ml->pow_q + (u - ml->pow_mx) * (u - ml->pow_mx) / ml->pow_sxx);
    if (!ml->pow_lin)
        return exp(se) - 1;     /* se of ln trip: relative */
    double t = ml->pow_a * x + ml->pow_b;
    return t > 0 ? se / t : -1;
}

/* Least squares y = a + b x over q points: 0, or -1 when x does not vary. */
static int line_fit(const double *x, const double *y, int q, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int j = 0; j < q; j++) {
        sx += x[j];
        sy += y[j];
        sxx += x[j] * x[j];
        sxy += x[j] * y[j];
    }
    double den = q * sxx - sx * sx;
    if (q < 2 || den <= 0)
        return -1;
    *b = (q * sxy - sx * sy) / den;
    *a = (sy - *b * sx) / q;
    return 0;
}

/* A data-dependent count per entry over the records (Clement & Quinn's
 * fit across problem sizes): a power law a x^b (log-log least squares) or
 * a line a x + b, x the parameter the records differ in (of several, the
 * best fit).  Records at the same x (repeats of one run, perfpred record
 * -r K) are one point, at their mean trip: repeats do not make a law
 * through two sizes a tested one.  With two sizes both go through the
 * points: the power law is taken (it keeps no size of the run in a
 * constant); with three or more, the one with the smaller RMS relative
 * error, which must be within 10 %.  1 when one fits; 0 else. */
static int power_fit(pp_prog *m, int f, int k, pp_mloop *ml, char *note, size_t n)
{
    if (m->nrec < 2)
        return 0;
    double x[64], y[64], lx[64], ly[64];
    int nrepeat[64];
    int best = -1, best_lin = 0, best_q = 0, best_nrec = 0;
    double best_a = 0, best_b = 0, best_err = 0, best_mx = 0, best_sxx = 0, best_s = 0;
    for (int i = 0; i < m->nparams; i++) {
        int q = 0, used = 0;
        for (int ri = 0; ri < m->nrec && ri < 64; ri++) {
            long v;
            uint64_t e = entries_in(m, ri, f, k), it = observed_in(m, ri, f, k);
            if (pp_prog_param_in(m, ri, i, &v) != 0 || v <= 0 || e == 0 || it == 0)
                continue;
            used++;
            int j = 0;
            while (j < q && x[j] != (double)v)
                j++;
            if (j == q) {
                x[q] = (double)v;
                y[q] = 0;
                nrepeat[q++] = 0;
            }
            /* the running mean of the trips at this x */
            nrepeat[j]++;
            y[j] += (trip_in(m, ri, f, k, it, e) - y[j]) / nrepeat[j];
        }
        if (q < 2)
            continue;
        for (int j = 0; j < q; j++) {
            lx[j] = log(x[j]);
            ly[j] = log(y[j]);
        }
        for (int lin = 0; lin < (q > 2 ? 2 : 1); lin++) {
            double a, b, err = 0;
            if (lin ? line_fit(x, y, q, &b, &a) : line_fit(lx, ly, q, &a, &b))
                continue;
            if (!lin)
                a = exp(a);     /* y = a x^b */
            for (int j = 0; j < q; j++) {
                double r = (lin ? a * x[j] + b : a * pow(x[j], b)) / y[j] - 1;
                err += r * r;
            }
            err = sqrt(err / q);
            if (best < 0 || err < best_err) {
                best = i;
                best_lin = lin;
                best_a = a;
                best_b = b;
                best_err = err;
                /* the regression, in the space it was fitted in */
                const double *u = lin ? x : lx, *w = lin ? y : ly;
                double mu = 0, sxx = 0, ssr = 0;
                for (int j = 0; j < q; j++)
                    mu += u[j] / q;
                for (int j = 0; j < q; j++) {
                    double fit = lin ? a * u[j] + b : log(a) + b * u[j];
                    sxx += (u[j] - mu) * (u[j] - mu);
                    ssr += (w[j] - fit) * (w[j] - fit);
                }
                best_q = q;
                best_nrec = used;
                best_mx = mu;
                best_sxx = sxx;
                best_s = q > 2 ? sqrt(ssr / (q - 2)) : 0;
            }
        }
    }
    if (best < 0 || best_err > 0.10)
        return 0;
    ml->pow_param = best;
    ml->pow_lin = best_lin;
    ml->pow_a = best_a;
    ml->pow_b = best_b;
    ml->pow_err = best_err;
    ml->pow_q = best_q;
    ml->pow_mx = best_mx;
    ml->pow_sxx = best_sxx;
    ml->pow_s = best_s;
    const char *name = m->params[best].name;
    char over[80];
    if (best_nrec > best_q)
        snprintf(over, sizeof over, "%d sizes (%d records)", best_q, best_nrec);
    else
        snprintf(over, sizeof over, "%d records", best_q);
    const char *per = ml->claim ? "per team entry" : "per entry";
    if (best_q == 2)
        snprintf(note, n, "fitted over %s: %.4g x %s^%.3g %s (a power law through two points: "
                 "a record at a third size would test it)", over, best_a, name, best_b, per);
    else if (best_lin)
        snprintf(note, n, "fitted over %s: %.4g x %s %c %.4g %s (a line, %.2g%% RMS error)",
                 over, best_a, name, best_b < 0 ? '-' : '+', fabs(best_b), per, 100 * best_err);
    else
        snprintf(note, n, "fitted over %s: %.4g x %s^%.3g %s (a power law, %.2g%% RMS error)",
                 over, best_a, name, best_b, per, 100 * best_err);
    return 1;
}

/* Do the records differ in some parameter (not only repeats of one run,
 * nor only in P)? */
static int several_sizes(const pp_prog *m)
{
    for (int ri = 1; ri < m->nrec; ri++)
        for (int i = 0; i < m->nparams; i++) {
            long v0, v;
            if (pp_prog_param_in(m, 0, i, &v0) == 0 && pp_prog_param_in(m, ri, i, &v) == 0 && v != v0)
                return 1;
        }
    return 0;
}

/* Replace a mismatching symbolic count: an integer multiple of a parameter
 * when the observed trips say so, a power law over several records, else
 * the observed average. */
void pp_counts_refit(pp_prog *m, int f, int k, const char *why)
{
    pp_mloop *ml = &m->funcs[f].loops[k];
    pp_expr_free(ml->count);
    ml->count = NULL;
    free(ml->fit_note);
    ml->fit_note = NULL;
    if (ml->obs_entries && !ml->claim) {
        for (int i = 0; i < m->nparams; i++) {
            long v = m->params[i].recorded;
            /* a count that equals a parameter of value 1 or 2 is more
             * likely a coincidence than a rule */
            if (v <= 2)
                continue;
            for (long k = 1; k <= 8; k++)
                if ((uint64_t)(k * v) * ml->obs_entries == ml->obs_iters) {
                    pp_expr *p = pp_expr_sym(m->params[i].name);
                    pp_expr *kk = pp_expr_int(k);
                    pp_expr *mk[2] = {kk, p};
                    ml->count = k == 1 ? pp_expr_ref(p) : pp_expr_op(PP_E_MUL, 2, mk);
                    pp_expr_free(p);
                    pp_expr_free(kk);
                    ml->rule = PP_RULE_FITTED;
                    char buf[320];
                    snprintf(buf, sizeof buf, "%s; fitted: %ld x %s per entry", why, k, m->params[i].name);
                    ml->fit_note = strdup(buf);
                    return;
                }
        }
    }
    char buf[600], note[300];
    if (power_fit(m, f, k, ml, note, sizeof note)) {
        ml->rule = PP_RULE_FITTED;
        snprintf(buf, sizeof buf, "%s; %s%s", why, ml->claim ? "a work queue (the team's total claimed under a "
                 "shared lock or by an atomic add, dealt over the threads like a dynamic schedule): " : "", note);
        ml->fit_note = strdup(buf);
        return;
    }
    ml->rule = PP_RULE_CONSTANT;
    if (ml->claim) {
        snprintf(buf, sizeof buf, "%s; a work queue (the team's total claimed under a shared lock or by an atomic "
                 "add, dealt over the threads like a dynamic schedule): constant team total %.4g per team entry "
                 "(observed%s)", why, ml->trip,
                 m->nrec < 2 || !several_sizes(m) ? "; KEPT AT EVERY SIZE, which is wrong when the queue grows "
                 "with the size: record at two sizes (perfpred record --sizes A,B)"
                 : "; kept at other sizes: no power law of one parameter fits the records within 10%");
        ml->fit_note = strdup(buf);
        if (ml->trip >= 2)
            pp_prog_warn(m, "%s: the work queue's total is kept at %.4g per team entry at every size (%s): "
                         "predictions at other sizes are wrong if the queue grows with the size; "
                         "record at two sizes (perfpred record --sizes A,B) to fit its growth",
                         m->funcs[f].d->name, ml->trip,
                         m->nrec < 2 || !several_sizes(m) ? "one size recorded" : "no law fits the records");
        return;
    }
    snprintf(buf, sizeof buf, "%s; constant: %.4g per entry (observed average%s)", why, ml->trip,
             ml->trip < 2 ? ""
             : m->nrec < 2 || !several_sizes(m) ? "; kept at other sizes: records at two sizes or more fit its growth"
                           : "; kept at other sizes: no power law of one parameter fits the records within 10%");
    ml->fit_note = strdup(buf);
}

/* Instantiate at the recorded chi and P, compare every loop's total with
 * the run, and replace the rules that do not match. */
int pp_counts_verify(pp_prog *m, char *err, size_t errlen)
{
    pp_vals pv;
    if (pp_vals_init(&pv, m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int round = 0; round < 3; round++) {
        int changed = 0;
        for (int f = 0; f < m->nfuncs; f++)
            for (int k = 0; k < m->funcs[f].d->nloops; k++)
                m->funcs[f].loops[k].matched = 1;
        for (int ri = 0; ri < m->nrec; ri++) {
            /* the parameters and P of record ri */
            pp_vals_of_record(m, &pv, ri);
            int P = pp_prog_P_in(m, ri);
            pp_instance in;
            /* an MPI rank's record: that rank alone */
            int rank = m->pkind == PP_P_MPI ? m->recs[ri]->mpi_rank : -1;
            if (pp_instantiate_rank(m, &pv, P, rank, PP_INST_TOTALS, &in, err, errlen)) {
                if (ri > 0) {
                    char e2[600];
                    snprintf(e2, sizeof e2, "%s: %s", m->recs[ri]->path, err);
                    snprintf(err, errlen, "%s", e2);
                }
                pp_vals_free(&pv);
                return -1;
            }
            for (int f = 0; f < m->nfuncs; f++) {
                pp_mfunc *mf = &m->funcs[f];
                for (int k = 0; k < mf->d->nloops; k++) {
                    pp_mloop *ml = &mf->loops[k];
                    uint64_t obs = observed_in(m, ri, f, k);
                    long double diff = fabsl(in.totals[f][k] - (long double)obs);
                    /* the model at the records: rank 0's, or every rank's */
                    if (ri == 0)
                        ml->model_iters = in.totals[f][k];
                    else if (m->pkind == PP_P_MPI)
                        ml->model_iters += in.totals[f][k];
                    int ok = diff < 0.5L;
                    ml->matched &= ok;
                    int fell = in.fellback[f][k];
                    /* the schedule model of a dynamic or guided loop is
                     * not the run's dealing of chunks (desc-sched.c) */
                    if (!fell && (mf->d->loops[k].flags & PP_LF_OMP_SCHED))
                        ok = 1;
                    if ((!ok || fell) && ml->rule == PP_RULE_SYMBOLIC) {
                        char why[300];
                        if (fell) {
                            char *s = pp_expr_to_infix(ml->count);
                            snprintf(why, sizeof why, "symbolic count %s could not be evaluated (a symbol the "
                                     "model cannot follow)", s ? s : "?");
                            free(s);
                        } else
                            snprintf(why, sizeof why, "symbolic count gave %.0Lf, the run %llu%s%s",
                                     in.totals[f][k], (unsigned long long)obs, ri ? " in " : "",
                                     ri ? m->recs[ri]->path : "");
                        pp_counts_refit(m, f, k, why);
                        changed = 1;
                    }
                }
            }
            pp_instance_free(&in);
        }
        if (!changed)
            break;
    }
    pp_vals_free(&pv);
    return 0;
}

/* Does event ev claim work from shared state: a lock the run shows the
 * threads shared (model-lockobj.c), or an atomic fetch-and-add? */
static int claims(const pp_mfunc *mf, int i)
{
    const pp_devent *ev = &mf->d->events[i];
    if (ev->kind == PP_EV_LOCK)
        return mf->ev_runkey && mf->ev_runkey[i];
    if (ev->kind == PP_EV_ATOMIC && ev->callee)
        return strstr(ev->callee, "fetch_add") || strstr(ev->callee, "add_fetch") ||
               strstr(ev->callee, "fetch_and_add") || strstr(ev->callee, "add_and_fetch");
    return 0;
}

/* Does event ev wait for the other threads (a condition wait, a
 * barrier, a semaphore, a join)?  A lock taken beside such a wait is a
 * hand-made barrier's or a monitor's: the loop around it is a time-step
 * loop every thread runs whole, not a queue (heat_pthreads' barrier of a
 * mutex, a count and a condition variable). */
static int waits(const pp_devent *ev)
{
    return ev->kind == PP_EV_COND_WAIT || ev->kind == PP_EV_BARRIER || ev->kind == PP_EV_SEM_WAIT ||
           ev->kind == PP_EV_JOIN;
}

/* Does function g claim work anywhere in its body? */
static int func_claims(const pp_prog *m, int g)
{
    const pp_mfunc *mg = &m->funcs[g];
    for (int i = 0; i < mg->d->nevents; i++)
        if (claims(mg, i))
            return 1;
    return 0;
}

/* Does loop id of f, or a function it calls, wait for the other threads? */
static int loop_waits(const pp_prog *m, int f, int id)
{
    const pp_mfunc *mf = &m->funcs[f];
    const pp_dfunc *d = mf->d;
    for (int i = 0; i < d->nevents; i++)
        if (d->events[i].loop == id && waits(&d->events[i]))
            return 1;
    for (int c = 0; c < d->ncalls; c++) {
        int g = mf->call_callee[c];
        if (d->calls[c].loop != id || g < 0)
            continue;
        for (int i = 0; i < m->funcs[g].d->nevents; i++)
            if (waits(&m->funcs[g].d->events[i]))
                return 1;
    }
    return 0;
}

void pp_counts_claims(pp_prog *m)
{
    for (int f = 0; f < m->nfuncs; f++) {
        pp_mfunc *mf = &m->funcs[f];
        const pp_dfunc *d = mf->d;
        for (int k = 0; k < d->nloops; k++) {
            pp_mloop *ml = &mf->loops[k];
            int id = d->loops[k].id, found = 0;
            /* only a data-dependent count: a counted loop keeps its rule */
            if (ml->rule != PP_RULE_CONSTANT || !ml->obs_entries)
                continue;
            for (int i = 0; i < d->nevents && !found; i++)
                found = d->events[i].loop == id && claims(mf, i);
            /* the claim in a function the loop calls (take_item(q)) */
            for (int c = 0; c < d->ncalls && !found; c++)
                found = d->calls[c].loop == id && mf->call_callee[c] >= 0 && func_claims(m, mf->call_callee[c]);
            if (!found || loop_waits(m, f, id))
                continue;
            /* a queue the threads share: at least two threads entered it
             * in some record */
            int nt = 0;
            for (int ri = 0; ri < m->nrec && nt < 2; ri++) {
                int n = threads_in(m, ri, f, k);
                if (n > nt)
                    nt = n;
            }
            if (nt < 2)
                continue;
            ml->claim = 1;
            uint64_t e = entries_in(m, 0, f, k);
            ml->trip = trip_in(m, 0, f, k, observed_in(m, 0, f, k), e ? e : 1);
        }
    }
}
