/* machine-write.c - the machine file's writer (docs/machine-format.md);
 * the reader is machine-file.c.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "machine-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writer ----------------------------------------------------------- */

static void write_model(FILE *f, pp_cost_id id, const pp_model *mod)
{
    const char *k = pp_costs[id].key;
    const char *u = pp_costs[id].factor ? "" : "_ns";
    const char *kn = pp_model_kind_name(mod->kind);
    fprintf(f, "%s.model = %s\n", k, kn ? kn : "const");
    fprintf(f, "%s.a%s = %.10g\n", k, u, mod->a);
    if (mod->kind != PP_MODEL_CONST)
        fprintf(f, "%s.b%s = %.10g\n", k, u, mod->b);
    fprintf(f, "%s.a_se%s = %.10g\n", k, u, mod->a_se);
    if (mod->kind != PP_MODEL_CONST)
        fprintf(f, "%s.b_se%s = %.10g\n", k, u, mod->b_se);
    if (mod->r2 >= 0.0)
        fprintf(f, "%s.r2 = %.6f\n", k, mod->r2);
    fprintf(f, "%s.n = %d\n", k, mod->n);
    if (mod->oversub_fit)
        fprintf(f, "%s.oversub_fit = 1\n", k);
}

/* C.spread, with a comment when it marks the cost */
static void write_spread(FILE *f, const pp_machine *m, pp_cost_id id)
{
    if (!(m->spread[id] > 0))
        return;
    fprintf(f, "%s.spread = %.4g%s\n", pp_costs[id].key, m->spread[id],
            pp_machine_cost_marked(m, id) ? "   # marked: its rounds disagree by more than 2x" : "");
}

static const char *const cost_comment[PP_COST_N] = {
    [PP_COST_CREATE] = "pthread_create() until the child runs",
    [PP_COST_JOIN] = "end of a thread until pthread_join() returns",
    [PP_COST_FORKJOIN_OMP] = "empty OpenMP parallel region, P threads",
    [PP_COST_BARRIER_OMP] = "#pragma omp barrier, P threads arriving together",
    [PP_COST_BARRIER_PTHREAD] = "pthread_barrier_wait, P threads arriving together",
    [PP_COST_LOCK] = "uncontended pthread mutex lock + unlock",
    [PP_COST_HANDOFF] = "mutex passing from one thread to a waiting one",
    [PP_COST_SCALE_COMPUTE] = "slowdown of a compute-bound thread, P at once",
    [PP_COST_SCALE_MEMORY] = "slowdown of a memory-streaming thread, P at once",
    [PP_COST_CREATE_CALL] = "the parent's time in pthread_create()",
};

#define MPI_EAGER_MAX 9007199254740992.0   /* 2^53: "never rendezvous" */

static const char *net_source_name(int s)
{
    return s == 1 ? "measured" : s == 2 ? "default" : "hand";
}

static void write_net(FILE *f, const pp_net *n)
{
    fprintf(f, "\n# MPI network: LogGP and the collective algorithms (docs/machine-format.md,\n"
               "# \"MPI network (LogGP)\")\n");
    fprintf(f, "mpi.source = %s\n", net_source_name(n->source));
    fprintf(f, "mpi.latency_ns = %.10g\n", n->L);
    fprintf(f, "mpi.overhead_ns = %.10g\n", n->o);
    fprintf(f, "mpi.gap_ns = %.10g\n", n->g);
    fprintf(f, "mpi.gap_per_byte_ns = %.10g\n", n->G);
    fprintf(f, "mpi.reduce_ns_per_byte = %.10g\n", n->gamma);
    fprintf(f, "mpi.eager_bytes = %.0f\n", n->eager_bytes < MPI_EAGER_MAX ? floor(n->eager_bytes) : MPI_EAGER_MAX);
    fprintf(f, "mpi.ranks_per_node = %d\n", n->ranks_per_node);
    for (int k = 0; k < PP_COLL_N; k++) {
        const char *a = pp_net_alg_valid((pp_coll)k, n->alg[k]) ? pp_alg_name(n->alg[k]) : "auto";
        fprintf(f, "mpi.alg.%s = %s\n", pp_coll_name((pp_coll)k), a);
    }
}

static int write_all(FILE *f, const pp_machine *m)
{
    fprintf(f, "%s %d\n", PP_MACHINE_MAGIC, PP_MACHINE_VERSION);
    fprintf(f, "# perfpred machine file; see docs/machine-format.md\n");
    fprintf(f, "name = %s\n", m->name[0] ? m->name : "unnamed");
    fprintf(f, "source = %s\n", pp_machine_source_name(m->source)
                                    ? pp_machine_source_name(m->source)
                                    : "hand");
    fprintf(f, "cores = %d\n", m->cores);
    fprintf(f, "max_threads = %d\n", m->max_threads);
    fprintf(f, "quick = %d\n", m->quick ? 1 : 0);
    fprintf(f, "cache.l1d_bytes = %ld\n", m->cache_l1d_bytes);
    fprintf(f, "cache.l2_bytes = %ld\n", m->cache_l2_bytes);
    fprintf(f, "cache.l3_bytes = %ld\n", m->cache_l3_bytes);
    if (m->cache_l3_shared_by > 0)
        fprintf(f, "cache.l3_shared_by = %d\n", m->cache_l3_shared_by);
    char note[256];
    pp_machine_edge_note(m, note, sizeof note);
    if (note[0])   /* the sizes above are the host's word; the model's edge is this */
        fprintf(f, "# memory model: %s\n", note);
    fprintf(f, "mem.bw1_bytes_per_ns = %.6g\n", m->mem_bw1_bytes_per_ns);
    fprintf(f, "mem.bw_all_bytes_per_ns = %.6g\n", m->mem_bw_all_bytes_per_ns);
    fprintf(f, "mem.footprint_bytes = %ld\n", m->mem_footprint_bytes);
    fprintf(f, "mem.bw_l1_bytes_per_ns = %.6g\n", m->bw_l1_bytes_per_ns);
    fprintf(f, "mem.bw_l2_bytes_per_ns = %.6g\n", m->bw_l2_bytes_per_ns);
    fprintf(f, "mem.bw_l3_bytes_per_ns = %.6g\n", m->bw_l3_bytes_per_ns);
    fprintf(f, "noise.cov = %.6g\n", m->noise_cov);
    if (m->compute_kernel_ns > 0)
        fprintf(f, "compute.kernel_ns = %.6g\n", m->compute_kernel_ns);
    if (m->busy_rounds > 0) {
        fprintf(f, "\n# rounds (docs/machine-format.md, \"Rounds, spread and a busy host\"): each cost\n"
                   "# is the quietest of busy.rounds interleaved rounds; busy.steal is the share of\n"
                   "# the processors a fixed spin lost, the median over the rounds\n");
        fprintf(f, "busy.rounds = %d\n", m->busy_rounds);
        fprintf(f, "busy.steal = %.4f%s\n", m->busy_steal,
                m->busy_steal > 0.25 ? "   # marked: other work held the processors" : "");
    }
    if (m->busy || m->busy_load > 0) {
        fprintf(f, "\n# a busy host (docs/machine-format.md, \"Busy host\"): the load average, and per cost\n"
                   "# the share of its samples disturbed and the slowest over its median\n");
        fprintf(f, "busy = %d\n", m->busy ? 1 : 0);
        if (m->busy_load > 0)
            fprintf(f, m->busy_load >= 1e-300 ? "busy.load = %.6g\n" : "busy.load = %.17g\n", m->busy_load);
    }
    for (int i = 0; i < PP_COST_N; i++)
        if (m->busy_share[i] > 0)
            /* %.6g unless that could round a tiny value below the normal range */
            fprintf(f, m->busy_share[i] >= 1e-300 ? "busy.%s = %.6g %.6g\n" : "busy.%s = %.17g %.6g\n",
                    pp_costs[i].key, m->busy_share[i], m->busy_factor[i]);
    for (int i = 0; i < PP_COST_N; i++) {
        fprintf(f, "\n# %s: %s\n", pp_costs[i].key, cost_comment[i]);
        write_model(f, (pp_cost_id)i, &m->cost[i]);
        write_spread(f, m, (pp_cost_id)i);
    }
    if (m->has_beta) {
        fprintf(f, "\n# linear machine model (perfpred fit): ns per operation, from %d runs\n", m->beta_runs);
        for (int i = 0; i < PP_NBETA; i++)
            fprintf(f, "beta.%s_ns = %.6g\nbeta.%s_se_ns = %.6g\n", pp_beta_name(i), m->beta[i], pp_beta_name(i),
                    m->beta_se[i]);
        fprintf(f, "beta.runs = %d\n", m->beta_runs);
    }
    if (m->has_net)
        write_net(f, &m->net);
    fprintf(f, "\n# raw points: P value%s [oversub]: the quietest round's median\n",
            " (ns, or the factor for scale.*)");
    for (int i = 0; i < PP_COST_N; i++) {
        const pp_series *s = &m->points[i];
        for (int j = 0; j < s->n && j < PP_MACHINE_MAX_POINTS; j++)
            fprintf(f, "point.%s = %d %.10g%s\n", pp_costs[i].key, s->pt[j].p,
                    s->pt[j].v, s->pt[j].oversub ? " oversub" : "");
    }
    static const char *const ckey[3] = {"stream", "chase", "gather"};
    static const char *const cwhat[3] = {"bytes-per-ns (one thread streaming)",
                                         "ns (a load whose address the previous one gave)",
                                         "ns (independent loads at random addresses)"};
    const pp_curve *cv[3] = {&m->stream, &m->chase, &m->gather};
    for (int k = 0; k < 3; k++) {
        if (cv[k]->n > 0)
            fprintf(f, "# point.mem.%s = working-set-bytes %s\n", ckey[k], cwhat[k]);
        for (int j = 0; j < cv[k]->n && j < PP_MACHINE_MAX_POINTS; j++)
            fprintf(f, "point.mem.%s = %ld %.6g\n", ckey[k], cv[k]->ws[j], cv[k]->v[j]);
    }
    for (int i = 0; i < PP_MPI_PT_N; i++) {
        const pp_series *s = &m->mpi_points[i];
        if (s->n > 0)
            fprintf(f, "# point.mpi.%s = %s\n", pp_mpi_point_name(i),
                    i == PP_MPI_PT_PINGPONG ? "BYTES half-round-trip-ns" : "RANKS ns-per-call [oversub]");
        for (int j = 0; j < s->n && j < PP_MACHINE_MAX_POINTS; j++)
            fprintf(f, "point.mpi.%s = %d %.10g%s\n", pp_mpi_point_name(i), s->pt[j].p, s->pt[j].v,
                    s->pt[j].oversub ? " oversub" : "");
    }
    return ferror(f) ? -1 : 0;
}

int pp_machine_save(const char *path, const pp_machine *m,
                    char *err, size_t errlen)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        pp_machine_seterr(err, errlen, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        pp_machine_seterr(err, errlen, "%s: cannot create temporary file: %s", path,
               strerror(errno));
        free(tmp);
        return -1;
    }
    (void)fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        pp_machine_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    int rc = write_all(f, m);
    if (fflush(f) != 0)
        rc = -1;
    if (rc == 0 && fsync(fileno(f)) != 0)
        rc = -1;
    int saved = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        pp_machine_seterr(err, errlen, "%s: cannot write: %s", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}
