/* calibrate_check.c - `perfpred calibrate --check FILE`: measure a few
 * quick costs again (one thread's compute kernel, an OpenMP fork/join and
 * barrier, one thread's streaming bandwidth at one working set) and say,
 * per cost, the file's value, today's, and whether the file still
 * describes this host (docs/commands.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CK_COMPUTE, CK_FORKJOIN, CK_BARRIER, CK_STREAM, CK_N };

typedef struct check {
    const char *name;     /* as printed                                    */
    char what[96];        /* its point: "P=2", "1 thread, 8192 KiB"         */
    int on;               /* 0: the file does not record it                 */
    double file, today;   /* ns (per iteration, per episode) or bytes/ns    */
    int bw;               /* 1: a bandwidth (higher is faster)              */
    double med[PP_CAL_MAX_ROUNDS];
    long iters;
} check;

/* The file's value of cost id at P: its raw point there, else its model. */
static double file_at(const pp_machine *m, pp_cost_id id, int P)
{
    const pp_series *s = &m->points[id];
    for (int i = 0; i < s->n; i++)
        if (s->pt[i].p == P)
            return s->pt[i].v;
    return pp_model_eval(&m->cost[id], P);
}

/* The working set of the bandwidth check: the file's stream point with the
 * largest working set up to `cap` bytes; 0 when it has none. */
static long stream_ws(const pp_machine *m, long cap)
{
    long best = 0;
    for (int i = 0; i < m->stream.n; i++)
        if (m->stream.ws[i] <= cap && m->stream.ws[i] > best)
            best = m->stream.ws[i];
    return best;
}

static int sample(pp_cal_fn fn, void *ctx, const pp_cal_cfg *cfg, check *k, int round, double *buf, char *err,
                  size_t errlen)
{
    if (pp_cal_sample_iters(fn, ctx, 1, cfg, &k->iters, buf, err, errlen))
        return -1;
    k->med[round] = pp_cal_median(buf, cfg->reps);
    return 0;
}

int pp_calibrate_check(const char *path, int quick, double tol, FILE *out)
{
    pp_machine *m = malloc(sizeof *m);
    if (!m) {
        fprintf(stderr, "perfpred calibrate: out of memory\n");
        return 1;
    }
    char err[1024];
    if (pp_machine_load(path, m, err, sizeof err)) {
        fprintf(stderr, "perfpred calibrate: --check: %s\n", err);
        free(m);
        return 2;
    }
    int here = pp_cal_online_cores();
    char host[PP_MACHINE_NAME_MAX] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        snprintf(host, sizeof host, "unnamed");
    int P = m->cores < here ? m->cores : here;
    if (P < 1)
        P = 1;

    check k[CK_N];
    memset(k, 0, sizeof k);
    k[CK_COMPUTE].name = "compute kernel";
    snprintf(k[CK_COMPUTE].what, sizeof k[CK_COMPUTE].what, "1 thread, ns/iteration");
    k[CK_COMPUTE].on = m->compute_kernel_ns > 0;
    k[CK_COMPUTE].file = m->compute_kernel_ns;
    k[CK_FORKJOIN].name = "forkjoin.omp";
    snprintf(k[CK_FORKJOIN].what, sizeof k[CK_FORKJOIN].what, "P=%d, ns", P);
    k[CK_FORKJOIN].on = 1;
    k[CK_FORKJOIN].file = file_at(m, PP_COST_FORKJOIN_OMP, P);
    k[CK_BARRIER].name = "barrier.omp";
    snprintf(k[CK_BARRIER].what, sizeof k[CK_BARRIER].what, "P=%d, ns", P);
    k[CK_BARRIER].on = 1;
    k[CK_BARRIER].file = file_at(m, PP_COST_BARRIER_OMP, P);
    /* a working set that streams in well under a second: at most 64 MiB
     * (16 with --quick) */
    long ws = stream_ws(m, quick ? 16L << 20 : 64L << 20);
    k[CK_STREAM].name = "stream bandwidth";
    k[CK_STREAM].bw = 1;
    k[CK_STREAM].on = ws > 0;
    snprintf(k[CK_STREAM].what, sizeof k[CK_STREAM].what, "1 thread, %ld KiB, bytes/ns", ws >> 10);

    pp_cal_kernel kc, kl;
    memset(&kl, 0, sizeof kl);
    int rc = 0;
    if (pp_cal_kernel_setup(&kc, 1, 64 << 10, err, sizeof err))
        rc = -1;
    if (rc == 0 && k[CK_STREAM].on && pp_cal_kernel_setup(&kl, 1, (size_t)ws, err, sizeof err)) {
        pp_cal_kernel_free(&kc, 1);
        rc = -1;
    }
    if (rc) {
        fprintf(stderr, "perfpred calibrate: --check: %s\n", err);
        free(m);
        return 1;
    }
    if (k[CK_STREAM].on) {
        k[CK_STREAM].file = pp_curve_at(&m->stream, pp_cal_kernel_bytes(&kl));
        k[CK_STREAM].on = k[CK_STREAM].file > 0;
    }
    kc.k = 1;
    kc.memory = 0;
    kl.k = 1;
    kl.memory = 1;

    /* the same rounds as calibrate: interleaved, the quietest kept */
    /* about 5 s (0.5 s with --quick): 5 x 4 benchmarks x 5 samples of 50 ms */
    pp_cal_cfg cfg = {quick ? 4e6 : 50e6, quick ? 3 : 5, 50000000L};
    int rounds = quick ? 3 : 5;
    double buf[8] = {0}, pwall[PP_CAL_MAX_ROUNDS], pcpu[PP_CAL_MAX_ROUNDS];
    long piters = pp_cal_probe_iters(10e6);
    for (int r = 0; rc == 0 && r < rounds; r++) {
        rc = pp_cal_probe(here, piters, &pwall[r], &pcpu[r], err, sizeof err);
        if (rc == 0 && k[CK_COMPUTE].on)
            rc = sample(pp_cal_kernel_run, &kc, &cfg, &k[CK_COMPUTE], r, buf, err, sizeof err);
        if (rc == 0)
            rc = sample(pp_cal_forkjoin_omp, &P, &cfg, &k[CK_FORKJOIN], r, buf, err, sizeof err);
        if (rc == 0)
            rc = sample(pp_cal_barrier_omp, &P, &cfg, &k[CK_BARRIER], r, buf, err, sizeof err);
        if (rc == 0 && k[CK_STREAM].on)
            rc = sample(pp_cal_kernel_run, &kl, &cfg, &k[CK_STREAM], r, buf, err, sizeof err);
    }
    double bytes = k[CK_STREAM].on ? pp_cal_kernel_bytes(&kl) : 0;
    pp_cal_kernel_free(&kc, 1);
    if (k[CK_STREAM].on)
        pp_cal_kernel_free(&kl, 1);
    if (rc) {
        fprintf(stderr, "perfpred calibrate: --check: %s\n", err);
        free(m);
        return 1;
    }

    fprintf(out, "check %s (machine %s, %d processor%s) on this host (%s, %d processor%s): %d rounds, the "
            "quietest kept\n", path, m->name, m->cores, m->cores == 1 ? "" : "s", host, here, here == 1 ? "" : "s",
            rounds);
    fprintf(out, "%-18s %-28s %12s %12s %8s\n", "cost", "at", "file", "today", "ratio");
    int bad = 0, checked = 0;
    char worst[256] = "";
    double worst_r = 0;
    for (int i = 0; i < CK_N; i++) {
        if (!k[i].on) {
            fprintf(out, "%-18s %-28s %12s %12s %8s  not checked (the file does not record it)\n", k[i].name,
                    k[i].what, "-", "-", "-");
            continue;
        }
        pp_cal_rounds rs;
        pp_cal_rounds_summary(k[i].med, rounds, &rs);
        k[i].today = k[i].bw ? (rs.kept > 0 ? bytes / rs.kept : 0) : rs.kept;
        /* the ratio of the times: above 1, this host is slower today */
        double ratio = k[i].bw ? (k[i].today > 0 ? k[i].file / k[i].today : INFINITY)
                               : (k[i].file > 0 ? k[i].today / k[i].file : INFINITY);
        double off = ratio >= 1 ? ratio : 1 / ratio;
        int ok = off <= tol;
        checked++;
        if (!ok) {
            bad++;
            if (off > worst_r) {
                worst_r = off;
                snprintf(worst, sizeof worst, "%s (%s) is %.1fx %s", k[i].name, k[i].what, off,
                         ratio > 1 ? "slower" : "faster");
            }
        }
        fprintf(out, "%-18s %-28s %12.4g %12.4g %7.2fx  %s\n", k[i].name, k[i].what, k[i].file, k[i].today, ratio,
                ok ? "ok" : "DIFFERS");
    }
    double steal = pp_cal_steal(pwall, pcpu, rounds);
    if (steal > PP_CAL_STEAL_MARK)
        fprintf(out, "note: the host is busy now (a spin on every processor lost %.0f%% of its time): today's "
                "times may be too high\n", 100 * steal);
    if (pp_machine_marked(m))
        fprintf(out, "note: %s is marked: it was calibrated on a busy host (busy = 1, a busy.steal above 0.25 "
                "or a spread above 2)\n", path);
    int cores_differ = m->cores != here;
    if (cores_differ)
        fprintf(out, "note: %s was measured on %d processor%s, this host has %d\n", path, m->cores,
                m->cores == 1 ? "" : "s", here);
    if (bad || cores_differ) {
        fprintf(out, "%s does not describe this host: %s%s%s\n", path, bad ? worst : "",
                bad && cores_differ ? "; " : "", cores_differ ? "its processor count differs" : "");
        if (bad > 1)
            fprintf(out, "(%d of %d costs checked differ by more than %gx)\n", bad, checked, tol);
    } else
        fprintf(out, "%s describes this host: every cost checked is within %gx of today's\n", path, tol);
    free(m);
    return bad || cores_differ ? 1 : 0;
}
