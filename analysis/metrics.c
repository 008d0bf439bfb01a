/* metrics.c - see metrics.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "metrics.h"
#include "costs.h"
#include "longrun.h"
#include "memory.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The walks of one point: the instance at P with the costs, the PRAM's
 * time into *pram and the real machine's into *real (either may be NULL;
 * its traversal into *keep when not NULL).  The model and the point's
 * values are only read, so that several run at once. */
static int run(const pp_prog *m, const pp_vals *pv, const pp_costs *costs, const pp_machine *mach, int P,
               double *pram, double *real, pp_trav *keep, int *approx, int *nthreads, long *graph, double *work,
               char *err, size_t errlen)
{
    pp_instance in;
    if (pp_instantiate_costed(m, pv, costs, P, -1, PP_INST_ACTIONS | PP_INST_CLASSES, &in, err, errlen))
        return -1;
    pp_trav tp, tr;
    int rc = 0, rr = 0;
    /* the real traversal's message: as long as the caller's */
    char *err2 = errlen ? malloc(errlen) : NULL;
    if (errlen && !err2) {
        pp_instance_free(&in);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* the two traversals only read the instance: on two processors at
     * once.  The PRAM's failure (a hang) is the one reported, as when it
     * went first. */
#pragma omp parallel sections num_threads(2) if (pram && real)
    {
#pragma omp section
        if (pram)
            rc = pp_traverse(m, &in, NULL, &tp, err, errlen);
#pragma omp section
        if (real)
            rr = pp_traverse(m, &in, mach, &tr, err2, errlen);
    }
    if (pram && rc == 0) {
        *pram = tp.time;
        pp_trav_free(&tp);
    }
    if (real && rr == 0) {
        if (rc == 0) {
            *real = tr.time;
            if (keep)
                *keep = tr;
            else
                pp_trav_free(&tr);
        } else
            pp_trav_free(&tr);
    }
    if (rc == 0 && rr) {
        if (errlen)
            memcpy(err, err2, errlen);
        rc = rr;
    }
    free(err2);
    if (approx)
        *approx |= in.approx;
    if (nthreads)
        *nthreads = in.nthreads;
    if (graph)
        *graph = in.graph;
    if (work)
        *work = in.work_ns;
    pp_instance_free(&in);
    return rc;
}

/* The runs of one prediction at the point pv with the costs `from`
 * (NULL: the fitted ones) at its size (the memory model, memory.h): T1
 * when t1 is not NULL, then the walks at P: the PRAM (PP_WALK_PRAM in
 * walks) into out->t_pram, the real machine (PP_WALK_REAL) into
 * out->t_real and its traversal into tr when not NULL; a time not walked
 * is NAN. */
static int predict_runs(const pp_prog *m, const pp_vals *pv, const double *from, const pp_machine *mach, int P,
                        double *t1, int walks, pp_metrics *out, pp_trav *tr, char *err, size_t errlen)
{
    if (P < 1) {
        snprintf(err, errlen, "P must be at least 1");
        return -1;
    }
    pp_costs costs = {0};
    if (pp_mem_costs(m, pv, mach, from, &costs)) {
        pp_costs_free(&costs);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    if (t1)
        rc = run(m, pv, &costs, mach, 1, t1, NULL, NULL, &out->approx, NULL, NULL, NULL, err, errlen);
    /* An MPI program whose parameters fit P ranks only (a Q x Q grid at
     * P = Q^2) has no run on one rank: T1 is then the computation of the
     * P ranks, summed (the work, as Cilkview's T1); so is a program
     * whose threads' values the model knows only in the recorded run
     * (model-thread-values.c) */
    out->t1_summed = rc != 0 && (m->pkind == PP_P_MPI || m->thread_refusal) && P > 1;
    if (out->t1_summed)
        rc = 0;
    double work = 0;
    out->t_pram = out->t_real = NAN;
    if (rc == 0)
        rc = run(m, pv, &costs, mach, P, walks & PP_WALK_PRAM ? &out->t_pram : NULL,
                 walks & PP_WALK_REAL ? &out->t_real : NULL, tr, &out->approx, &out->nthreads, &out->graph, &work,
                 err, errlen);
    if (rc == 0 && out->t1_summed)
        *t1 = work;
    pp_costs_free(&costs);
    return rc;
}

int pp_with_instance(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int flags, pp_instance_fn fn,
                     void *u, char *err, size_t errlen)
{
    if (P < 1) {
        snprintf(err, errlen, "P must be at least 1");
        return -1;
    }
    pp_costs costs = {0};
    if (pp_mem_costs(m, pv, mach, NULL, &costs)) {
        pp_costs_free(&costs);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_instance in;
    int rc = pp_instantiate_costed(m, pv, &costs, P, -1, flags, &in, err, errlen);
    if (rc == 0) {
        rc = fn(u, m, &in, err, errlen);
        pp_instance_free(&in);
    }
    pp_costs_free(&costs);
    return rc;
}

int pp_predict_real(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, double *t_real, char *err,
                    size_t errlen)
{
    return pp_predict_real_with(m, pv, NULL, mach, P, t_real, err, errlen);
}

int pp_predict_real_with(const pp_prog *m, const pp_vals *pv, const double *costs, const pp_machine *mach, int P,
                         double *t_real, char *err, size_t errlen)
{
    pp_metrics mt;
    memset(&mt, 0, sizeof mt);
    int rc = predict_runs(m, pv, costs, mach, P, NULL, PP_WALK_REAL, &mt, NULL, err, errlen);
    *t_real = mt.t_real;
    return rc;
}

int pp_predict(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_metrics *out, char *err,
               size_t errlen)
{
    return pp_predict_walks(m, pv, mach, P, PP_WALK_PRAM | PP_WALK_REAL, out, err, errlen);
}

int pp_predict_walks(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int walks, pp_metrics *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->P = P;
    pp_trav tr;
    memset(&tr, 0, sizeof tr);
    if (predict_runs(m, pv, NULL, mach, P, &out->t1, walks, out, &tr, err, errlen))
        return -1;
    out->busy = tr.total_busy;
    out->wait = tr.total_wait;
    out->sync = tr.total_sync;
    out->mpi = tr.total_mpi;
    memcpy(out->mpi_kind, tr.mpi_kind, sizeof out->mpi_kind);
    out->unmatched = tr.unmatched;
    snprintf(out->note, sizeof out->note, "%s", tr.note);
    pp_trav_free(&tr);
    pp_metrics_compute(out, out->t1, out->t_pram, out->t_real, P);
    return 0;
}

void pp_metrics_compute(pp_metrics *mt, double t1, double t_pram, double t_real, int P)
{
    mt->P = P;
    mt->t1 = t1;
    mt->t_pram = t_pram;
    mt->t_real = t_real;
    mt->t_mir = t1 / P;                       /* eq. 6 */
    mt->La = t_pram - mt->t_mir;              /* eq. 2 */
    mt->L = t_real - mt->t_mir;               /* eq. 3 */
    mt->Ea = t_pram > 0 ? mt->t_mir / t_pram : 1;  /* eq. 4 */
    mt->E = t_real > 0 ? mt->t_mir / t_real : 1;   /* eq. 5 */
}

/* A normal deviate from a small deterministic generator (xorshift64* and
 * Box-Muller): the intervals must not change from run to run. */
static double gauss(uint64_t *st)
{
    double u[2];
    for (int i = 0; i < 2; i++) {
        *st ^= *st >> 12;
        *st ^= *st << 25;
        *st ^= *st >> 27;
        uint64_t x = *st * 2685821657736338717ull;
        u[i] = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* The sequential time at the recorded size. */
static int t1_recorded(const pp_prog *m, const pp_machine *mach, double *t1, char *err, size_t errlen)
{
    pp_vals rec;
    if (pp_vals_init(&rec, m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_metrics mt;
    memset(&mt, 0, sizeof mt);
    int rc = predict_runs(m, &rec, NULL, mach, 1, t1, PP_WALK_REAL, &mt, NULL, err, errlen);
    if (rc && m->pkind == PP_P_MPI && m->nrec > 1) {
        /* no run on one rank: the work of the recorded ranks (as for the
         * prediction, pp_metrics.t1_summed) */
        memset(&mt, 0, sizeof mt);
        rc = predict_runs(m, &rec, NULL, mach, m->nrec, t1, PP_WALK_REAL, &mt, NULL, err, errlen);
    } else if (rc && m->thread_refusal && m->p_recorded > 1) {
        /* thread values known only in the recorded run: its work */
        memset(&mt, 0, sizeof mt);
        rc = predict_runs(m, &rec, NULL, mach, m->p_recorded, t1, PP_WALK_REAL, &mt, NULL, err, errlen);
    }
    pp_vals_free(&rec);
    if (rc)
        *t1 = 0;
    return rc;
}

static int fit_sd(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int draws, double center,
                  double *sd_out, char *err, size_t errlen);

/* The costs with a variance (their indices into idx when not NULL): what
 * the interval varies, by the delta method or by draws. */
static int varied_costs(const pp_prog *m, int *idx)
{
    int n = m->ncost, q = 0;
    for (int i = 0; i < n; i++)
        if (m->cost_slot[i] >= 0 && m->cost_cov[(size_t)i * (size_t)n + (size_t)i] > 0) {
            if (idx)
                idx[q] = i;
            q++;
        }
    return q;
}

int pp_interval_walks(const pp_prog *m, int draws)
{
    if (!pp_interval_wanted(draws))
        return 0;
    int delta = draws == PP_DRAWS_AUTO;
    if (delta)
        draws = PP_DRAWS_DEFAULT;
    if (m->ncost == 0 || !m->cost_cov || draws < 2)
        return 0;
    /* as fit_sd chooses: a walk per varied cost, or per draw */
    int q = varied_costs(m, NULL);
    return delta && q + 1 < draws ? q : draws;
}

/* The part of the data-dependent counts fitted over records (model-
 * counts.c): each such loop's trip raised by its relative standard error
 * at this size, T_real's relative change, in quadrature (the loops'
 * errors taken as independent).  A fit through two records has no
 * residual to give an error and adds nothing (show says a third record
 * would test it). */
static int counts_sd(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, double center, double *out,
                     char *err, size_t errlen)
{
    double var = 0;
    *out = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (int k = 0; k < m->funcs[f].d->nloops; k++) {
            const pp_mloop *ml = &m->funcs[f].loops[k];
            double rel = pp_loop_trip_relse(m, pv, ml);
            if (rel <= 0 || center <= 0)
                continue;
            pp_vals moved;
            if (pp_vals_copy(&moved, m, pv)) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            moved.scaled = ml;
            moved.trip_scale = 1 + rel;
            double t;
            int rc = pp_predict_real(m, &moved, mach, P, &t, err, errlen);
            pp_vals_free(&moved);
            if (rc)
                return -1;
            double g = (t - center) / center;
            var += g * g;
        }
    *out = sqrt(var);
    return 0;
}

int pp_predict_interval(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, const pp_metrics *mt,
                        int draws, pp_interval *out, char *err, size_t errlen)
{
    double center = mt->t_real;
    memset(out, 0, sizeof *out);
    out->lo = out->hi = center;
    double sd = 0;
    if (pp_interval_wanted(draws) && fit_sd(m, pv, mach, P, draws, center, &sd, err, errlen))
        return -1;
    out->fit = center > 0 ? sd / center : 0;
    out->host = mach ? mach->noise_cov : 0;
    if (m->model_error > 0) {
        double t1r;
        if (t1_recorded(m, mach, &t1r, err, errlen))
            return -1;
        double doublings = t1r > 0 && mt->t1 > t1r ? log2(mt->t1 / t1r) : 0;
        out->model = m->model_error * doublings;
    }
    if (counts_sd(m, pv, mach, P, center, &out->counts, err, errlen))
        return -1;
    double rel = sqrt(out->fit * out->fit + out->host * out->host + out->model * out->model +
                      out->counts * out->counts);
    out->lo = center * exp(-2 * rel);
    out->hi = center * exp(2 * rel);
    return 0;
}

int pp_par_threads(int n, double bytes_each)
{
    int k = 1;
#ifdef _OPENMP
    k = omp_get_max_threads();
#endif
    if (k > n)
        k = n;
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (k > 1 && pages > 0 && psz > 0 && bytes_each > 0) {
        double half = (double)pages * (double)psz / 2;
        if (half / bytes_each < k)
            k = (int)(half / bytes_each);
    }
    return k < 1 ? 1 : k;
}

/* How many of n evaluations to run at once: as many as the memory the
 * process has needed so far (its peak, at least one evaluation's) fits
 * into half of the free memory. */
static int eval_threads(int n)
{
    struct rusage ru;
    double one = getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0 ? (double)ru.ru_maxrss * 1024 : 0;
    return pp_par_threads(n, one);
}

/* Fill v (the fitted costs on entry) with evaluation i's costs. */
typedef void (*costs_fn)(void *u, int i, double *v);

/* T_real at the point pv and P for n sets of costs (fill) into
 * t[0..n-1]: each set priced by the memory model at pv (as predict_runs
 * does), then the walks, which only read the model and pv, several at
 * once (eval_threads).  The first failure's message is the one
 * reported. */
static int reals_at(const pp_prog *m, const pp_vals *pv, costs_fn fill, void *u, int n, const pp_machine *mach, int P,
                    double *t, char *err, size_t errlen)
{
    pp_costs *costs = calloc((size_t)n + 1, sizeof *costs);
    double **vs = calloc((size_t)n + 1, sizeof *vs);   /* what costs[i] was made from */
    int rc = costs && vs ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++) {
        if (!(vs[i] = pp_costs_copy(m)))
            rc = -1;
        else {
            fill(u, i, vs[i]);
            rc = pp_mem_costs(m, pv, mach, vs[i], &costs[i]);
        }
    }
    int first = n, nt = rc == 0 ? eval_threads(n) : 1;
    if (rc)
        snprintf(err, errlen, "out of memory");
    pp_long_parallel(nt);
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (int i = 0; i < (rc == 0 ? n : 0); i++) {
        char e[1024];
        if (run(m, pv, &costs[i], mach, P, NULL, &t[i], NULL, NULL, NULL, NULL, NULL, e, sizeof e)) {
#pragma omp critical(pp_reals_at_error)
            if (i < first) {
                first = i;
                snprintf(err, errlen, "%s", e);
            }
        }
    }
    pp_long_parallel(1);
    for (int i = 0; costs && vs && i < n; i++) {
        pp_costs_free(&costs[i]);
        free(vs[i]);
    }
    free(costs);
    free(vs);
    return rc || first < n ? -1 : 0;
}

/* The delta method's evaluation i: cost idx[i] one standard error up. */
struct secant {
    const pp_prog *m;
    const int *idx;
};

static double secant_step(const pp_prog *m, int c)
{
    return sqrt(m->cost_cov[(size_t)c * (size_t)m->ncost + (size_t)c]);
}

static void secant_costs(void *u, int i, double *v)
{
    const struct secant *s = u;
    v[s->m->cost_slot[s->idx[i]]] += secant_step(s->m, s->idx[i]);
}

/* A draw's evaluation i: the varied costs drawn for it. */
struct draw {
    const pp_prog *m;
    const int *idx;
    int q;
    const double *vals;   /* [i * q + j]: cost idx[j] in draw i */
};

static void draw_costs(void *u, int i, double *v)
{
    const struct draw *d = u;
    for (int j = 0; j < d->q; j++)
        v[d->m->cost_slot[d->idx[j]]] = d->vals[(size_t)i * (size_t)d->q + (size_t)j];
}

/* The delta method: T_real's standard deviation from its slopes in the q
 * costs (idx), each a secant over one standard error, and
 * their covariance: sd^2 = g' Cov g.  q + 1 predictions instead of the
 * draws'; T_real is a sum of costs along the critical path, linear
 * between the points where another thread becomes the slowest, so the
 * secants are what the draws would see for errors of a few percent. */
static int delta_sd(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, const int *idx, int q,
                    double center, double *sd_out, char *err, size_t errlen)
{
    int n = m->ncost;
    double *g = malloc(sizeof *g * (size_t)(q + 1));
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* T_real alone: T1 and the PRAM do not enter */
    struct secant sc = {m, idx};
    int rc = reals_at(m, pv, secant_costs, &sc, q, mach, P, g, err, errlen);
    for (int i = 0; rc == 0 && i < q; i++)
        g[i] = (g[i] - center) / secant_step(m, idx[i]);
    double var = 0;
    for (int i = 0; rc == 0 && i < q; i++)
        for (int j = 0; j < q; j++)
            var += g[i] * g[j] * m->cost_cov[(size_t)idx[i] * (size_t)n + (size_t)idx[j]];
    *sd_out = var > 0 ? sqrt(var) : 0;
    free(g);
    return rc;
}

/* The standard deviation of T_real over the fitted costs: Monte Carlo
 * with `draws` draws, or, for PP_DRAWS_AUTO, the delta method when it
 * needs fewer predictions than PP_DRAWS_DEFAULT draws (those otherwise). */
static int fit_sd(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, int draws, double center,
                  double *sd_out, char *err, size_t errlen)
{
    *sd_out = 0;
    int n = m->ncost;
    int delta = draws == PP_DRAWS_AUTO;
    if (delta)
        draws = PP_DRAWS_DEFAULT;
    if (n == 0 || !m->cost_cov || draws < 2)
        return 0;
    /* every cost with a variance: the covariance (cost.c, lsq-cov.c) gives
     * a combination the run determined the data's variance and one it
     * could not separate the prior's, so that a cost the prior split is
     * not taken as exactly known.  A Cholesky factor of it for the draws. */
    int *idx = malloc(sizeof *idx * (size_t)n);
    int q = idx ? varied_costs(m, idx) : 0;
    if (idx && delta && q + 1 < draws) {
        int rc = delta_sd(m, pv, mach, P, idx, q, center, sd_out, err, errlen);
        free(idx);
        return rc;
    }
    /* independent costs (a fit the run could not inform: thousands of
     * costs of a real code base, say) need no factor: their standard
     * deviations; a Cholesky factor of thousands of them took minutes */
    int diag = 1;
    for (int i = 0; idx && diag && i < q; i++)
        for (int j = 0; diag && j < q; j++)
            diag = i == j || m->cost_cov[(size_t)idx[i] * (size_t)n + (size_t)idx[j]] == 0;
    gsl_matrix *L = q && !diag ? gsl_matrix_alloc((size_t)q, (size_t)q) : NULL;
    /* every draw's costs (cv, q per draw), drawn in order, then the draws
     * evaluated (t), several at once */
    double *z = malloc(sizeof *z * (size_t)(q + 1));
    double *cv = malloc(sizeof *cv * ((size_t)draws * (size_t)q + 1)), *t = malloc(sizeof *t * (size_t)draws);
    int rc = 0;
    if (!idx || !cv || !t || (q && ((!diag && !L) || !z))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc == 0 && q && !diag) {
        /* a covariance from a near-singular fit may not factor: add a
         * little to its diagonal until it does */
        double tr = 0;
        for (int i = 0; i < q; i++)
            tr += m->cost_cov[(size_t)idx[i] * (size_t)n + (size_t)idx[i]];
        int ok = 0;
        for (double jit = 0; !ok && jit <= 1e-3 * tr + 1e-9; jit = jit ? jit * 100 : 1e-12 * tr + 1e-15) {
            for (int i = 0; i < q; i++)
                for (int j = 0; j < q; j++)
                    gsl_matrix_set(L, (size_t)i, (size_t)j,
                                   m->cost_cov[(size_t)idx[i] * (size_t)n + (size_t)idx[j]] + (i == j ? jit : 0));
            gsl_error_handler_t *old = gsl_set_error_handler_off();
            ok = gsl_linalg_cholesky_decomp1(L) == 0;
            gsl_set_error_handler(old);
        }
        if (!ok) {
            /* the diagonal alone: independent costs */
            gsl_matrix_free(L);
            L = NULL;
            diag = 1;
        }
    }
    if (rc == 0 && q) {
        /* each draw: the costs plus L z (L lower triangular), or, for
         * independent costs, plus their standard deviations times z */
        uint64_t st = 0x9E3779B97F4A7C15ull;
        struct draw dr = {m, idx, q, cv};
        for (int d = 0; d < draws; d++) {
            for (int i = 0; i < q; i++)
                z[i] = gauss(&st);
            for (int i = 0; i < q; i++) {
                double v = m->fit[m->cost_slot[idx[i]]];
                if (diag)
                    v += sqrt(m->cost_cov[(size_t)idx[i] * (size_t)n + (size_t)idx[i]]) * z[i];
                else
                    for (int j = 0; j <= i; j++)
                        v += gsl_matrix_get(L, (size_t)i, (size_t)j) * z[j];
                cv[(size_t)d * (size_t)q + (size_t)i] = v > 0 ? v : 0;
            }
        }
        rc = reals_at(m, pv, draw_costs, &dr, draws, mach, P, t, err, errlen);
        if (rc == 0) {
            double sum = 0, sum2 = 0;
            for (int d = 0; d < draws; d++) {
                sum += t[d];
                sum2 += t[d] * t[d];
            }
            double mean = sum / draws;
            double var = (sum2 - draws * mean * mean) / (draws - 1);
            *sd_out = var > 0 ? sqrt(var) : 0;
        }
    }
    free(t);
    if (L)
        gsl_matrix_free(L);
    free(z);
    free(cv);
    free(idx);
    return rc;
}
