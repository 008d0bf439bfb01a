/* calibrate.c - orchestration of `perfpred calibrate`: which team sizes to
 * measure, the samples of every benchmark, their medians (the raw points)
 * and the fits of the cost models.
 *
 * Every cost is measured in rounds (calibrate_rounds.c): round r runs every
 * benchmark at every team size, then round r + 1; per cost and team size
 * the quietest round is kept and the spread of the rounds recorded.
 *
 * Team sizes up to the processor count are used for the fits; a couple of
 * oversubscribed sizes (2x and 4x the processors) are measured and kept as
 * raw points flagged `oversub`, and enter a fit only when there is nothing
 * else (a single processor).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TEAMS 24

int pp_cal_online_cores(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
    long v = sysconf(_SC_NPROCESSORS_ONLN);
    return v > 0 ? (int)v : 1;
}

/* All samples of one cost: (P, value, oversubscribed). */
typedef struct acc {
    int n, cap;
    int *P;
    double *y;
    int *over;
} acc;

/* One point of a cost (a team size) over the rounds: each round's
 * samples and their median; the first round's iteration count. */
#define MAX_SLOTS (MAX_TEAMS + 2)
typedef struct slot {
    int P, over;
    long iters;                        /* of the benchmark (ids[0]'s slot) */
    int nround;
    double med[PP_CAL_MAX_ROUNDS];
    double *s;                         /* rounds * reps samples             */
} slot;

typedef struct cal {
    pp_machine *m;
    const pp_calib_opts *o;
    pp_cal_cfg cfg;
    int rounds, round;           /* rounds to measure; the current one    */
    acc a[PP_COST_N];
    slot sl[PP_COST_N][MAX_SLOTS];
    int nsl[PP_COST_N];
    double *buf;                 /* reps * 4 samples                      */
    int nsamp[PP_COST_N];        /* samples at P <= cores, and those that  */
    int ndist[PP_COST_N];        /* were disturbed (> 3x their median)    */
    double worst[PP_COST_N];     /* the slowest of them over its median   */
    char *err;
    size_t errlen;
} cal;

static slot *get_slot(cal *c, pp_cost_id id, int P, int over)
{
    for (int i = 0; i < c->nsl[id]; i++)
        if (c->sl[id][i].P == P)
            return &c->sl[id][i];
    if (c->nsl[id] >= MAX_SLOTS)
        return NULL;
    slot *s = &c->sl[id][c->nsl[id]];
    memset(s, 0, sizeof *s);
    s->s = calloc((size_t)c->rounds * (size_t)c->cfg.reps, sizeof *s->s);
    if (!s->s)
        return NULL;
    s->P = P;
    s->over = over;
    c->nsl[id]++;
    return s;
}

static int acc_push(acc *a, int P, double y, int over)
{
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 64;
        int *np = realloc(a->P, (size_t)cap * sizeof *np);
        if (!np) return -1;
        a->P = np;
        double *ny = realloc(a->y, (size_t)cap * sizeof *ny);
        if (!ny) return -1;
        a->y = ny;
        int *no = realloc(a->over, (size_t)cap * sizeof *no);
        if (!no) return -1;
        a->over = no;
        a->cap = cap;
    }
    a->P[a->n] = P;
    a->y[a->n] = y;
    a->over[a->n] = over;
    a->n++;
    return 0;
}

static void acc_free(acc *a)
{
    free(a->P);
    free(a->y);
    free(a->over);
    memset(a, 0, sizeof *a);
}

/* The curves' progress: the working set, not a team size. */
static void progress_ws(const cal *c, const char *what, size_t ws)
{
    if (c->o->progress) {
        fprintf(c->o->progress, "calibrate: %-16s %zu KiB\n", what, ws >> 10);
        fflush(c->o->progress);
    }
}

static void progress(const cal *c, const char *what, int P, int over)
{
    if (c->o->progress) {
        fprintf(c->o->progress, "calibrate: %-16s P=%-3d%s\n", what, P,
                over ? " (oversubscribed)" : "");
        fflush(c->o->progress);
    }
}

/* Each thread's working set for the memory kernel: it must stream from
 * the memory, not from a cache, even when it runs alone with the whole
 * last level to itself: twice the largest cache (a shared L3 of 260 MB on
 * the development VM, where the former 64 MB measured the L3's bandwidth
 * and called it the memory's), at least 64 MB.  Capped at a quarter of the
 * available memory over all threads, and at 4 GB.  --quick keeps 32 MB (or
 * 4 x L2): a fast smoke test, not a measurement of the memory. */
static size_t mem_kernel_bytes(const pp_machine *m, int kmax, int quick)
{
    size_t foot = quick ? ((size_t)32 << 20) : ((size_t)64 << 20);
    if (m->cache_l2_bytes > 0 && foot < 4 * (size_t)m->cache_l2_bytes)
        foot = 4 * (size_t)m->cache_l2_bytes;
    if (!quick && m->cache_l3_bytes > 0 && foot < 2 * (size_t)m->cache_l3_bytes)
        foot = 2 * (size_t)m->cache_l3_bytes;
    size_t cap = (size_t)4 << 30;
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0 && (size_t)pages / 4 * (size_t)psz < cap)
        cap = (size_t)pages / 4 * (size_t)psz;
    if (cap < ((size_t)32 << 20))
        cap = (size_t)32 << 20;
    if (foot * (size_t)kmax > cap)
        foot = cap / (size_t)kmax;
    return foot;
}

/* Run one benchmark at P threads, one round: each of its nvals values
 * feeds cost ids[v]'s slot at P (the round's samples and their median).
 * finish() keeps the quietest round. */
static int measure(cal *c, pp_cal_fn fn, void *ctx, int nvals,
                   const pp_cost_id *ids, int P, int over)
{
    progress(c, pp_cost_key(ids[0]), P, over);
    int reps = c->cfg.reps;
    slot *s0 = get_slot(c, ids[0], P, over);
    if (!s0) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    if (pp_cal_sample_iters(fn, ctx, nvals, &c->cfg, &s0->iters, c->buf, c->err, c->errlen))
        return -1;
    for (int v = 0; v < nvals; v++) {
        double *s = c->buf + (size_t)v * reps;
        slot *sv = get_slot(c, ids[v], P, over);
        if (!sv || sv->nround != c->round) {
            snprintf(c->err, c->errlen, "%s: internal error: round %d measured twice", pp_cost_key(ids[v]),
                     c->round);
            return -1;
        }
        memcpy(sv->s + (size_t)c->round * reps, s, (size_t)reps * sizeof *s);
        double tmp[reps];
        memcpy(tmp, s, sizeof tmp);
        double med = pp_cal_median(tmp, reps);
        sv->med[sv->nround++] = med;
        /* a sample more than 3x its round's median lost a processor:
         * counted (machine file, busy.COST) where the team fits the
         * processors */
        for (int r = 0; r < reps && !over && med > 0; r++) {
            c->nsamp[ids[v]]++;
            if (s[r] > 3.0 * med) {
                c->ndist[ids[v]]++;
                if (s[r] / med > c->worst[ids[v]])
                    c->worst[ids[v]] = s[r] / med;
            }
        }
    }
    return 0;
}

/* After the rounds: per cost and team size, the quietest round's median
 * becomes the raw point, its samples within a factor of three of it
 * (pre-emptions removed) feed the fit, and the cost's spread is the
 * largest over its team sizes that fit the processors. */
static int finish(cal *c)
{
    int reps = c->cfg.reps;
    for (int id = 0; id < PP_COST_N; id++)
        for (int i = 0; i < c->nsl[id]; i++) {
            slot *sl = &c->sl[id][i];
            pp_cal_rounds rs;
            if (pp_cal_rounds_summary(sl->med, sl->nround, &rs))
                continue;
            pp_machine_add_point(c->m, (pp_cost_id)id, sl->P, rs.kept, sl->over);
            if (!sl->over && rs.spread > c->m->spread[id])
                c->m->spread[id] = rs.spread;
            const double *s = sl->s + (size_t)rs.kept_round * reps;
            for (int r = 0; r < reps; r++)
                if (s[r] >= rs.kept / 3.0 && s[r] <= 3.0 * rs.kept
                    && acc_push(&c->a[id], sl->P, s[r], sl->over)) {
                    snprintf(c->err, c->errlen, "out of memory");
                    return -1;
                }
            if (id == PP_COST_SCALE_MEMORY && sl->P == 1 && sl->nround * reps > 2) {
                /* the host's run-to-run variation: every sample of every
                 * round counts, the slow ones too (they happen to programs
                 * as well) */
                int n = sl->nround * reps;
                double sum = 0, sum2 = 0;
                for (int r = 0; r < n; r++)
                    sum += sl->s[r];
                double mean = sum / n;
                for (int r = 0; r < n; r++)
                    sum2 += (sl->s[r] - mean) * (sl->s[r] - mean);
                c->m->noise_cov = mean > 0 ? sqrt(sum2 / (n - 1)) / mean : 0;
            }
            if (id == PP_COST_SCALE_COMPUTE && sl->P == 1)
                c->m->compute_kernel_ns = rs.kept;   /* calibrate --check's reference */
        }
    return 0;
}

/* Team sizes: fit sizes 1, 2, 3, 4, 6, 8, 12, ... up to the processors (and
 * the processor count itself), then oversubscribed 2x and 4x. */
static int team_sizes(int cores, int maxt, int *P, int *over)
{
    static const int ladder[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                                  96, 128, 192, 256 };
    int n = 0, top = cores < maxt ? cores : maxt;
    for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++)
        if (ladder[i] <= top && n < MAX_TEAMS - 3) {
            P[n] = ladder[i];
            over[n++] = 0;
        }
    if (P[n - 1] != top) {
        P[n] = top;
        over[n++] = 0;
    }
    for (int f = 2; f <= 4; f += 2)
        if (f * cores <= maxt && f * cores > top) {
            P[n] = f * cores;
            over[n++] = 1;
        }
    return n;
}

static int fit_cost(cal *c, pp_cost_id id, pp_model_kind prefer)
{
    acc *a = &c->a[id];
    int n = 0, distinct = 0, first = -1;
    int *P = malloc((size_t)(a->n ? a->n : 1) * sizeof *P);
    double *y = malloc((size_t)(a->n ? a->n : 1) * sizeof *y);
    if (!P || !y) {
        free(P);
        free(y);
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < a->n; i++)
        if (!a->over[i]) {
            if (first < 0) first = a->P[i];
            else if (a->P[i] != first) distinct = 1;
            P[n] = a->P[i];
            y[n++] = a->y[i];
        }
    int use_over = (n == 0 || (pp_cost_depends_on_p(id) && !distinct))
                   && n < a->n;
    if (use_over) {
        n = 0;
        for (int i = 0; i < a->n; i++) {
            P[n] = a->P[i];
            y[n++] = a->y[i];
        }
    }
    int rc = n > 0 ? pp_cal_fit_best(P, y, n, pp_cost_depends_on_p(id),
                                     prefer, &c->m->cost[id])
                   : -1;
    if (rc == 0)
        c->m->cost[id].oversub_fit = use_over;
    else
        snprintf(c->err, c->errlen, "%s: no samples to fit", pp_cost_key(id));
    free(P);
    free(y);
    return rc;
}

/* The slowdown factors: divide the ns of k threads by the median of one. */
static void normalise_scale(cal *c, pp_cost_id id)
{
    pp_series *s = &c->m->points[id];
    double base = 0.0;
    for (int i = 0; i < s->n; i++)
        if (s->pt[i].p == 1)
            base = s->pt[i].v;
    if (base <= 0.0)
        return;
    for (int i = 0; i < s->n; i++)
        s->pt[i].v /= base;
    for (int i = 0; i < c->a[id].n; i++)
        c->a[id].y[i] /= base;
}

/* One round: every benchmark at every team size.  OpenMP last in a round:
 * libgomp keeps its pool of threads afterwards, asleep after a short spin,
 * which the next round's warm-up calls outlast. */
static int one_round(cal *c, const int *P, const int *over, int nt, int cores, pp_cal_kernel *kc)
{
    static const pp_cost_id cj[3] = { PP_COST_CREATE, PP_COST_JOIN,
                                      PP_COST_CREATE_CALL };
    static const pp_cost_id lk[1] = { PP_COST_LOCK };
    static const pp_cost_id ho[1] = { PP_COST_HANDOFF };
    static const pp_cost_id bp[1] = { PP_COST_BARRIER_PTHREAD };
    static const pp_cost_id bo[1] = { PP_COST_BARRIER_OMP };
    static const pp_cost_id fj[1] = { PP_COST_FORKJOIN_OMP };
    static const pp_cost_id sc[1] = { PP_COST_SCALE_COMPUTE };
    static const pp_cost_id sm[1] = { PP_COST_SCALE_MEMORY };

    if (measure(c, pp_cal_create_join, NULL, 3, cj, 1, 0)
        || measure(c, pp_cal_mutex_lock, NULL, 1, lk, 1, 0)
        || measure(c, pp_cal_mutex_handoff, NULL, 1, ho, 2, cores < 2))
        return -1;
    for (int i = 0; i < nt; i++) {
        int p = P[i];
        if (measure(c, pp_cal_barrier_pthread, &p, 1, bp, p, over[i]))
            return -1;
    }
    /* Compute and memory slowdown, k = 1 .. processors (never
     * oversubscribed: time sharing is the traversal's business). */
    for (int i = 0; i < nt; i++) {
        if (over[i])
            continue;
        kc->k = P[i];
        kc->memory = 0;
        if (measure(c, pp_cal_kernel_run, kc, 1, sc, P[i], 0))
            return -1;
        kc->memory = 1;
        if (measure(c, pp_cal_kernel_run, kc, 1, sm, P[i], 0))
            return -1;
    }
    for (int i = 0; i < nt; i++) {
        int p = P[i];
        if (measure(c, pp_cal_forkjoin_omp, &p, 1, fj, p, over[i])
            || measure(c, pp_cal_barrier_omp, &p, 1, bo, p, over[i]))
            return -1;
    }
    return 0;
}

static int run_all(cal *c, const int *P, const int *over, int nt, int cores)
{
    int kmax = 1;
    for (int i = 0; i < nt; i++)
        if (!over[i] && P[i] > kmax)
            kmax = P[i];
    pp_cal_kernel kc;
    size_t foot = mem_kernel_bytes(c->m, kmax, c->o->quick);
    if (pp_cal_kernel_setup(&kc, kmax, foot, c->err, c->errlen))
        return -1;
    c->m->mem_footprint_bytes = (long)pp_cal_kernel_bytes(&kc);
    double bytes = pp_cal_kernel_bytes(&kc);

    /* The rounds, interleaved, each after the steal probe: a fixed spin on
     * every processor, whose wall time against its CPU time says whether
     * other work held the processors (docs/machine-format.md). */
    long piters = pp_cal_probe_iters(c->o->quick ? 10e6 : 20e6);
    double pwall[PP_CAL_MAX_ROUNDS], pcpu[PP_CAL_MAX_ROUNDS];
    int rc = 0;
    for (c->round = 0; rc == 0 && c->round < c->rounds; c->round++) {
        if (c->o->progress) {
            fprintf(c->o->progress, "calibrate: round %d of %d\n", c->round + 1, c->rounds);
            fflush(c->o->progress);
        }
        rc = pp_cal_probe(cores, piters, &pwall[c->round], &pcpu[c->round], c->err, c->errlen);
        if (rc == 0)
            rc = one_round(c, P, over, nt, cores, &kc);
    }
    pp_cal_kernel_free(&kc, kmax);
    if (rc || finish(c))
        return -1;
    c->m->busy_rounds = c->rounds;
    c->m->busy_steal = round(pp_cal_steal(pwall, pcpu, c->rounds) * 1e4) / 1e4;

    const pp_series *ms = &c->m->points[PP_COST_SCALE_MEMORY];
    for (int i = 0; i < ms->n; i++) {
        if (ms->pt[i].v <= 0.0)
            continue;
        if (ms->pt[i].p == 1)
            c->m->mem_bw1_bytes_per_ns = bytes / ms->pt[i].v;
        if (ms->pt[i].p == kmax)
            c->m->mem_bw_all_bytes_per_ns = kmax * bytes / ms->pt[i].v;
    }
    normalise_scale(c, PP_COST_SCALE_COMPUTE);
    normalise_scale(c, PP_COST_SCALE_MEMORY);

    /* The memory model's bandwidth curve: one thread streaming working
     * sets doubling from 16 KB (x4 with --quick) up to the memory kernel's,
     * whose point is the one above.  Measured rather than placed at the
     * nominal cache sizes: a guest may get far less of a shared L3 than the
     * processor reports (the development VM: 260 MB reported, the memory's
     * bandwidth from about 128 MB).  One allocation, walked by prefixes.
     * The curves are measured once, after the rounds (they are not costs:
     * the memory model reads them, docs/machine-format.md). */
    if (c->m->mem_bw1_bytes_per_ns > 0)
        pp_curve_add(&c->m->stream, (long)bytes, c->m->mem_bw1_bytes_per_ns);
    size_t top = (size_t)16 << 10;
    while (top * 4 <= (size_t)bytes)
        top *= 2;
    pp_cal_kernel kl;
    if (pp_cal_kernel_setup(&kl, 1, top, c->err, c->errlen))
        return -1;
    size_t full = kl.elems;
    int step = c->o->quick ? 4 : 2;
    pp_cal_cfg ccfg = c->cfg;
    ccfg.reps = c->o->quick ? 5 : 15;
    for (size_t ws = (size_t)16 << 10; ws <= top; ws *= (size_t)step) {
        kl.elems = ws / (3 * sizeof(double));
        kl.elems -= kl.elems % 8;
        if (kl.elems < 8 || kl.elems > full)
            break;
        kl.k = 1;
        kl.memory = 1;
        progress_ws(c, "stream bandwidth", ws);
        if (pp_cal_sample(pp_cal_kernel_run, &kl, 1, &ccfg, c->buf, c->err, c->errlen) == 0) {
            double med = pp_cal_median(c->buf, ccfg.reps);
            if (med > 0)
                pp_curve_add(&c->m->stream, (long)pp_cal_kernel_bytes(&kl), pp_cal_kernel_bytes(&kl) / med);
        }
    }
    kl.elems = full;
    pp_cal_kernel_free(&kl, 1);
    /* The load curves: a chase and a gather over the same working sets,
     * fewer samples (each sample of the largest walks the memory). */
    pp_cal_lat lat;
    if (pp_cal_lat_setup(&lat, top, c->err, c->errlen))
        return -1;
    pp_cal_cfg lcfg = ccfg;
    lcfg.reps = lcfg.reps > 5 ? 5 : lcfg.reps;
    lcfg.max_iters = 1L << 26;
    for (size_t ws = (size_t)16 << 10; ws <= top; ws *= (size_t)step) {
        if (pp_cal_lat_prepare(&lat, ws))
            break;
        progress_ws(c, "load latency", ws);
        for (int g = 0; g < 2; g++) {
            lat.gather = g;
            if (pp_cal_sample(pp_cal_lat_run, &lat, 1, &lcfg, c->buf, c->err, c->errlen) == 0) {
                double med = pp_cal_median(c->buf, lcfg.reps);
                if (med > 0)
                    pp_curve_add(g ? &c->m->gather : &c->m->chase, (long)pp_cal_lat_bytes(&lat), med);
            }
        }
    }
    pp_cal_lat_free(&lat);
    /* the three levels' bandwidths (half of each cache) from the curve, for
     * readers of the file that predate it */
    const long lsz[3] = {c->m->cache_l1d_bytes, c->m->cache_l2_bytes, c->m->cache_l3_bytes};
    double *lbw[3] = {&c->m->bw_l1_bytes_per_ns, &c->m->bw_l2_bytes_per_ns, &c->m->bw_l3_bytes_per_ns};
    for (int l = 0; l < 3; l++)
        if (lsz[l] > 0 && c->m->stream.n >= 2)
            *lbw[l] = pp_machine_stream_bw(c->m, (double)lsz[l] / 2);
    return 0;
}

int pp_calibrate(pp_machine *m, const pp_calib_opts *o, char *err,
                 size_t errlen)
{
    memset(m, 0, sizeof *m);
    int cores = o->cores > 0 ? o->cores : pp_cal_online_cores();
    int maxt = o->max_threads > 0 ? o->max_threads
                                  : (4 * cores < 64 ? 4 * cores
                                                    : (cores > 64 ? cores
                                                                  : 64));
    int limit = omp_get_thread_limit();     /* OMP_THREAD_LIMIT            */
    if (limit > 0 && maxt > limit)
        maxt = limit;
    if (gethostname(m->name, sizeof m->name - 1) != 0 || !m->name[0])
        snprintf(m->name, sizeof m->name, "%s", "unnamed");
    for (char *s = m->name; *s; s++)        /* '#' starts a comment      */
        if (*s == '#' || *s == '\n')
            *s = '_';
    m->source = PP_MACHINE_MEASURED;
    m->cores = cores;
    m->quick = o->quick ? 1 : 0;
    /* the cache sizes, and how many processing units share an L3: the
     * memory model divides the shared level among the threads of one */
    pp_cal_topology topo;
    pp_cal_topology_get(&topo);
    m->cache_l1d_bytes = topo.l1d;
    m->cache_l2_bytes = topo.l2;
    m->cache_l3_bytes = topo.l3;
    m->cache_l3_shared_by = topo.l3_shared_by;

    int P[MAX_TEAMS], over[MAX_TEAMS];
    int nt = team_sizes(cores, maxt, P, over);
    for (int i = 0; i < nt; i++)
        if (P[i] > m->max_threads)
            m->max_threads = P[i];

    cal c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.o = o;
    c.err = err;
    c.errlen = errlen;
    /* rounds x samples a round: 3 x 2 with --quick, 5 x 3 (15 samples a
     * point, as before the rounds) otherwise */
    c.cfg.target_ns = o->quick ? 4e6 : 30e6;
    c.rounds = o->quick ? 3 : 5;
    c.cfg.reps = o->quick ? 2 : 3;
    c.cfg.max_iters = 50000000L;   /* the int casts of calibrate_thread.c */
    c.buf = malloc((size_t)(o->quick ? 5 : 15) * 4 * sizeof *c.buf);
    int rc = c.buf ? run_all(&c, P, over, nt, cores) : -1;
    if (!c.buf)
        snprintf(err, errlen, "out of memory");
    static const pp_model_kind prefer[PP_COST_N] = {
        [PP_COST_FORKJOIN_OMP] = PP_MODEL_LINEAR,
        [PP_COST_BARRIER_OMP] = PP_MODEL_LOG2,
        [PP_COST_BARRIER_PTHREAD] = PP_MODEL_LINEAR,
        [PP_COST_SCALE_COMPUTE] = PP_MODEL_LINEAR,
        [PP_COST_SCALE_MEMORY] = PP_MODEL_LINEAR,
    };
    for (int id = 0; rc == 0 && id < PP_COST_N; id++)
        rc = fit_cost(&c, (pp_cost_id)id, prefer[id]);
    for (int id = 0; id < PP_COST_N; id++)
        if (c.ndist[id] > 0 && c.nsamp[id] > 0) {
            m->busy_share[id] = (double)c.ndist[id] / c.nsamp[id];
            m->busy_factor[id] = c.worst[id] < 1e9 ? c.worst[id] : 1e9;
        }
    for (int id = 0; id < PP_COST_N; id++) {
        acc_free(&c.a[id]);
        for (int i = 0; i < c.nsl[id]; i++)
            free(c.sl[id][i].s);
    }
    free(c.buf);
    return rc;
}

/* ---- summary ---------------------------------------------------------- */

void pp_calibrate_summary(FILE *out, const pp_machine *m)
{
    int cores = m->cores > 0 ? m->cores : 1;
    fprintf(out, "machine %s (%s%s), %d processor%s\n", m->name,
            pp_machine_source_name(m->source), m->quick ? ", quick" : "",
            cores, cores == 1 ? "" : "s");
    fprintf(out, "%-18s %-6s %12s %10s %12s %10s %12s %12s %12s %8s\n", "cost",
            "model", "a", "se(a)", "b", "se(b)", "P=1", "P=cores", "P=64", "spread");
    for (int id = 0; id < PP_COST_N; id++) {
        const pp_model *mo = &m->cost[id];
        double v1, vc, v64;
        if (id == PP_COST_SCALE_COMPUTE) {
            v1 = pp_machine_compute_scale(m, 1);
            vc = pp_machine_compute_scale(m, cores);
            v64 = pp_machine_compute_scale(m, 64);
        } else if (id == PP_COST_SCALE_MEMORY) {
            v1 = pp_machine_memory_scale(m, 1);
            vc = pp_machine_memory_scale(m, cores);
            v64 = pp_machine_memory_scale(m, 64);
        } else {
            v1 = pp_model_eval(mo, 1);
            vc = pp_model_eval(mo, cores);
            v64 = pp_model_eval(mo, 64);
        }
        const char *fmt = pp_cost_is_factor((pp_cost_id)id)
            ? "%-18s %-6s %12.4f %10.4f %12.4f %10.4f %12.3f %12.3f %12.3f %8s%s\n"
            : "%-18s %-6s %12.1f %10.1f %12.1f %10.1f %12.1f %12.1f %12.1f %8s%s\n";
        char sp[32] = "-";   /* the rounds' spread; '!' marks the cost */
        if (m->spread[id] > 0)
            snprintf(sp, sizeof sp, m->spread[id] < 10 ? "%.2f%s" : "%.0f%s", m->spread[id],
                     pp_machine_cost_marked(m, id) ? "!" : "");
        fprintf(out, fmt, pp_cost_key((pp_cost_id)id),
                pp_model_kind_name(mo->kind), mo->a, mo->a_se, mo->b,
                mo->b_se, v1, vc, v64, sp,
                mo->oversub_fit ? "  (fit used oversubscribed points)" : "");
    }
    fprintf(out, "costs in ns; scale.* are slowdown factors; values beyond "
            "P=%d are extrapolated\n", cores);
    if (m->busy_rounds > 0)
        fprintf(out, "each cost: the quietest of %d rounds; spread: the median round over it (! above 2: "
                "marked); the processors lost %.0f%% to other work (busy.steal)\n", m->busy_rounds,
                100 * m->busy_steal);
    if (m->mem_bw1_bytes_per_ns > 0.0)
        fprintf(out, "memory bandwidth: %.2f GB/s (1 thread), %.2f GB/s "
                "(%d threads)\n", m->mem_bw1_bytes_per_ns,
                m->mem_bw_all_bytes_per_ns, cores);
    if (m->cache_l1d_bytes > 0 || m->cache_l2_bytes > 0 || m->cache_l3_bytes > 0)
        fprintf(out, "caches: L1d %ld KiB, L2 %ld KiB, L3 %ld KiB\n", m->cache_l1d_bytes / 1024,
                m->cache_l2_bytes / 1024, m->cache_l3_bytes / 1024);
    char note[256];
    pp_machine_edge_note(m, note, sizeof note);
    if (note[0])
        fprintf(out, "memory model: %s\n", note);
}
