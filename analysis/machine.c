/* machine.c - the machine model: its names, evaluation and defaults (the
 * machine file's reader and writer are in machine-file.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "machine-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- names ------------------------------------------------------------ */

const char *const pp_model_names[3] = { "const", "linear", "log2" };

const pp_cost_info pp_costs[PP_COST_N] = {
    [PP_COST_CREATE]          = { "thread.create",   0, 0 },
    [PP_COST_JOIN]            = { "thread.join",     0, 0 },
    [PP_COST_FORKJOIN_OMP]    = { "forkjoin.omp",    0, 1 },
    [PP_COST_BARRIER_OMP]     = { "barrier.omp",     0, 1 },
    [PP_COST_BARRIER_PTHREAD] = { "barrier.pthread", 0, 1 },
    [PP_COST_LOCK]            = { "mutex.lock",      0, 0 },
    [PP_COST_HANDOFF]         = { "mutex.handoff",   0, 0 },
    [PP_COST_SCALE_COMPUTE]   = { "scale.compute",   1, 1 },
    [PP_COST_SCALE_MEMORY]    = { "scale.memory",    1, 1 },
    [PP_COST_CREATE_CALL]     = { "thread.create_call", 0, 0 },
};

const char *const pp_source_names[3] = { "hand", "measured", "default" };

const char *pp_model_kind_name(pp_model_kind k)
{
    return (unsigned)k < 3 ? pp_model_names[k] : NULL;
}

const char *pp_cost_key(pp_cost_id id)
{
    return (unsigned)id < PP_COST_N ? pp_costs[id].key : NULL;
}

const char *pp_machine_source_name(pp_machine_source s)
{
    return (unsigned)s < 3 ? pp_source_names[s] : NULL;
}

int pp_cost_is_factor(pp_cost_id id)
{
    return (unsigned)id < PP_COST_N && pp_costs[id].factor;
}

int pp_cost_depends_on_p(pp_cost_id id)
{
    return (unsigned)id < PP_COST_N && pp_costs[id].depends_on_p;
}

/* ---- evaluation ------------------------------------------------------- */

double pp_model_eval(const pp_model *mod, int P)
{
    double x = P < 1 ? 1.0 : (double)P;
    switch (mod->kind) {
    case PP_MODEL_LINEAR: return mod->a + mod->b * x;
    case PP_MODEL_LOG2:   return mod->a + mod->b * log2(x);
    case PP_MODEL_CONST:
    default:              return mod->a;
    }
}

/* A synchronisation cost: never negative, times the in-situ factor. */
static double sync_ns(const pp_machine *m, double v)
{
    double k = m->sync_scale > 0.0 ? m->sync_scale : 1.0;
    return v > 0.0 ? k * v : 0.0;
}

double pp_machine_fork_join_ns(const pp_machine *m, int P)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_FORKJOIN_OMP], P));
}

double pp_machine_barrier_ns(const pp_machine *m, int P, int kind)
{
    pp_cost_id id = kind == PP_SYNC_PTHREAD ? PP_COST_BARRIER_PTHREAD
                                            : PP_COST_BARRIER_OMP;
    return sync_ns(m, pp_model_eval(&m->cost[id], P));
}

double pp_machine_lock_ns(const pp_machine *m)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_LOCK], 1));
}

double pp_machine_handoff_ns(const pp_machine *m)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_HANDOFF], 2));
}

double pp_machine_create_ns(const pp_machine *m)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_CREATE], 1));
}

double pp_machine_create_call_ns(const pp_machine *m)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_CREATE_CALL], 1));
}

double pp_machine_join_ns(const pp_machine *m)
{
    return sync_ns(m, pp_model_eval(&m->cost[PP_COST_JOIN], 1));
}

/* A slowdown factor: 1 for one thread, never below 1, and non-decreasing
 * in P even for a model written by hand with odd coefficients. */
static double scale_of(const pp_model *mod, int P)
{
    if (P <= 1)
        return 1.0;
    double s = pp_model_eval(mod, P);
    double s1 = pp_model_eval(mod, 1);
    if (s < s1)
        s = s1;
    return s < 1.0 ? 1.0 : s;
}

double pp_machine_compute_scale(const pp_machine *m, int P)
{
    return scale_of(&m->cost[PP_COST_SCALE_COMPUTE], P);
}

double pp_machine_memory_scale(const pp_machine *m, int P)
{
    return scale_of(&m->cost[PP_COST_SCALE_MEMORY], P);
}

double pp_machine_scale(const pp_machine *m, int P, double mem_fraction)
{
    double f = mem_fraction < 0.0 ? 0.0 : mem_fraction > 1.0 ? 1.0
                                                            : mem_fraction;
    return (1.0 - f) * pp_machine_compute_scale(m, P)
         + f * pp_machine_memory_scale(m, P);
}

void pp_machine_add_point(pp_machine *m, pp_cost_id id, int p, double v,
                          int oversub)
{
    if ((unsigned)id >= PP_COST_N)
        return;
    pp_series *s = &m->points[id];
    if (s->n >= PP_MACHINE_MAX_POINTS)
        return;
    s->pt[s->n].p = p;
    s->pt[s->n].v = v;
    s->pt[s->n].oversub = oversub;
    s->n++;
}

static const char *const mpi_point_names[PP_MPI_PT_N] = {"pingpong", "barrier", "allreduce"};

const char *pp_mpi_point_name(int i)
{
    return i >= 0 && i < PP_MPI_PT_N ? mpi_point_names[i] : NULL;
}

void pp_machine_add_mpi_point(pp_machine *m, int series, int p, double v, int oversub)
{
    if (series < 0 || series >= PP_MPI_PT_N)
        return;
    pp_series *s = &m->mpi_points[series];
    if (s->n >= PP_MACHINE_MAX_POINTS)
        return;
    s->pt[s->n].p = p;
    s->pt[s->n].v = v;
    s->pt[s->n].oversub = oversub;
    s->n++;
}

/* ---- defaults --------------------------------------------------------- */

static void set_model(pp_model *mod, pp_model_kind k, double a, double b)
{
    memset(mod, 0, sizeof *mod);
    mod->kind = k;
    mod->a = a;
    mod->b = b;
    mod->r2 = -1.0;
}

/* Conservative guesses for a current x86-64 Linux workstation; on the high
 * side, so that a prediction without a machine file errs towards slower.
 * docs/machine-format.md lists them. */
void pp_machine_default(pp_machine *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", "default");
    m->source = PP_MACHINE_DEFAULT;
    m->cores = 1;
    set_model(&m->cost[PP_COST_CREATE], PP_MODEL_CONST, 20000.0, 0.0);
    set_model(&m->cost[PP_COST_JOIN], PP_MODEL_CONST, 10000.0, 0.0);
    set_model(&m->cost[PP_COST_CREATE_CALL], PP_MODEL_CONST, 10000.0, 0.0);
    set_model(&m->cost[PP_COST_FORKJOIN_OMP], PP_MODEL_LINEAR, 2000.0, 500.0);
    set_model(&m->cost[PP_COST_BARRIER_OMP], PP_MODEL_LOG2, 500.0, 500.0);
    set_model(&m->cost[PP_COST_BARRIER_PTHREAD], PP_MODEL_LINEAR, 1000.0,
              1000.0);
    set_model(&m->cost[PP_COST_LOCK], PP_MODEL_CONST, 50.0, 0.0);
    set_model(&m->cost[PP_COST_HANDOFF], PP_MODEL_CONST, 2000.0, 0.0);
    set_model(&m->cost[PP_COST_SCALE_COMPUTE], PP_MODEL_LINEAR, 0.99, 0.01);
    set_model(&m->cost[PP_COST_SCALE_MEMORY], PP_MODEL_LINEAR, 0.75, 0.25);
    pp_net_default(&m->net);
    m->has_net = 0;
}

int pp_curve_add(pp_curve *c, long ws, double v)
{
    int i = 0;
    while (i < c->n && c->ws[i] < ws)
        i++;
    if (i < c->n && c->ws[i] == ws) {
        c->v[i] = v;
        return 0;
    }
    if (c->n >= PP_MACHINE_MAX_POINTS)
        return -1;
    for (int j = c->n; j > i; j--) {
        c->ws[j] = c->ws[j - 1];
        c->v[j] = c->v[j - 1];
    }
    c->ws[i] = ws;
    c->v[i] = v;
    c->n++;
    return 0;
}

double pp_machine_memory_edge(const pp_machine *mach)
{
    const pp_curve *c = &mach->stream;
    if (c->n >= 2) {
        double mem = c->v[c->n - 1];
        for (int i = c->n - 2; i >= 0; i--)
            if (c->v[i] > 1.25 * mem)
                return (double)c->ws[i];
        return (double)c->ws[0];
    }
    long l = mach->cache_l3_bytes > 0 ? mach->cache_l3_bytes
           : mach->cache_l2_bytes > 0 ? mach->cache_l2_bytes : mach->cache_l1d_bytes;
    return l > 0 ? (double)l : 0;
}

static const char *edge_bytes(double b, char *buf, size_t n)
{
    if (b >= 1024.0 * 1024)
        snprintf(buf, n, "%.1f MiB", b / (1024.0 * 1024));
    else
        snprintf(buf, n, "%.1f KiB", b / 1024);
    return buf;
}

/* A VM's nominal L3 may be far from what its guest gets (the development
 * VM: 320 MiB by CPUID, 32 MiB by the kernel, and its bandwidth drops to
 * the memory's between 16 and 32 MiB): the measured curve wins. */
void pp_machine_edge_note(const pp_machine *mach, char *buf, size_t n)
{
    char a[32], b[32];
    double edge = pp_machine_memory_edge(mach);
    buf[0] = '\0';
    if (edge <= 0)
        return;
    const pp_curve *c = &mach->stream;
    if (c->n >= 2 && c->v[0] <= 1.25 * c->v[c->n - 1]) {
        /* (pp_machine_memory_edge gives its first point then) */
        snprintf(buf, n, "the measured bandwidth curve is flat: every working set from %s on is served at "
                 "the memory's bandwidth (a busy host or a slow build may flatten it; calibrate again)",
                 edge_bytes(edge, a, sizeof a));
    } else if (c->n >= 2) {
        int len = snprintf(buf, n, "last cache level %s, where the measured bandwidth curve reaches the memory's",
                           edge_bytes(edge, a, sizeof a));
        if (mach->cache_l3_bytes > 0 && len > 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, " (the host reports a %s L3%s)",
                     edge_bytes((double)mach->cache_l3_bytes, b, sizeof b),
                     (double)mach->cache_l3_bytes > 2 * edge || 2 * (double)mach->cache_l3_bytes < edge
                         ? ": the measured size is used" : "");
    } else
        snprintf(buf, n, "last cache level %s, the host's nominal size (no measured bandwidth curve)",
                 edge_bytes(edge, a, sizeof a));
}

double pp_machine_memory_bw(const pp_machine *mach)
{
    if (mach->stream.n >= 1)
        return mach->stream.v[mach->stream.n - 1];
    return mach->mem_bw1_bytes_per_ns > 0 ? mach->mem_bw1_bytes_per_ns : 0;
}

/* y at x from points sorted by x: log-linear in x, flat outside. */
static double interp_log(const double *x, const double *y, int n, double at)
{
    if (at <= x[0])
        return y[0];
    for (int i = 1; i < n; i++)
        if (at <= x[i]) {
            double f = log(at / x[i - 1]) / log(x[i] / x[i - 1]);
            return y[i - 1] + f * (y[i] - y[i - 1]);
        }
    return y[n - 1];
}

double pp_curve_at(const pp_curve *c, double bytes)
{
    if (c->n == 0)
        return 0;
    double x[PP_MACHINE_MAX_POINTS];
    for (int i = 0; i < c->n; i++)
        x[i] = (double)c->ws[i];
    return interp_log(x, c->v, c->n, bytes > 0 ? bytes : x[0]);
}

double pp_machine_mem_time_scale(const pp_machine *mach)
{
    return mach->mem_time_scale > 0 ? mach->mem_time_scale : 1.0;
}

/* The bandwidth curve as the model reads it: each point at least the
 * bandwidth of any larger working set (its upper envelope from the right).
 * A larger working set cannot stream faster than a smaller one, and a
 * host's other work only ever lowers a measurement: on the development VM
 * one calibration measured 29 B/ns at 128-512 KB between 69 B/ns at 64 KB
 * and 73 B/ns at 1 MB, which made jacobi's recorded grid (256 KB) look as
 * slow as its 64 MB target and dropped the memory time it adds. */
static double stream_envelope_at(const pp_curve *c, double bytes)
{
    pp_curve e = *c;
    for (int i = e.n - 2; i >= 0; i--)
        if (e.v[i] < e.v[i + 1])
            e.v[i] = e.v[i + 1];
    return pp_curve_at(&e, bytes);
}

double pp_machine_stream_bw(const pp_machine *mach, double bytes)
{
    if (bytes <= 0)
        return 0;
    if (mach->stream.n >= 2)
        return stream_envelope_at(&mach->stream, bytes);
    /* the measured points, by working set */
    double x[4], y[4];
    int n = 0;
    const long size[3] = {mach->cache_l1d_bytes, mach->cache_l2_bytes, mach->cache_l3_bytes};
    const double bw[3] = {mach->bw_l1_bytes_per_ns, mach->bw_l2_bytes_per_ns, mach->bw_l3_bytes_per_ns};
    for (int l = 0; l < 3; l++)
        if (size[l] > 0 && bw[l] > 0) {
            x[n] = (double)size[l] / 2;
            y[n++] = bw[l];
        }
    if (mach->mem_footprint_bytes > 0 && mach->mem_bw1_bytes_per_ns > 0) {
        x[n] = (double)mach->mem_footprint_bytes;
        y[n++] = mach->mem_bw1_bytes_per_ns;
    }
    if (n == 0)
        return 0;
    /* sort by working set (at most four points) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && x[j] < x[j - 1]; j--) {
            double t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
            t = y[j]; y[j] = y[j - 1]; y[j - 1] = t;
        }
    return interp_log(x, y, n, bytes);
}
