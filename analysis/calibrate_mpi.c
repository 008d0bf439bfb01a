/* calibrate_mpi.c - `perfpred calibrate --mpi`: measure this host's MPI
 * network.  The analyser is not linked with MPI: it runs perfpred-mpibench
 * (analysis/mpibench/pp-mpibench.c, installed next to perfpred) under
 * `mpirun -np K` for K = 2 .. max(4, processors) ranks, reads what rank 0
 * prints, and fits the LogGP parameters of the machine's pp_net
 * (docs/machine-format.md, "How calibrate --mpi measures").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- finding the programs -------------------------------------------------- */

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int pp_cal_find_mpirun(char *out, size_t len)
{
    return pp_find_in_path("mpirun", out, len);
}

int pp_find_in_path(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return -1;
    const char *p = path;
    while (*p) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char cand[PATH_MAX];
        if (n == 0)
            snprintf(cand, sizeof cand, "./%s", name);
        else if (n + strlen(name) + 2 < sizeof cand)
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, name);
        else
            cand[0] = 0;
        if (cand[0] && executable(cand)) {
            snprintf(out, len, "%s", cand);
            return 0;
        }
        p += n;
        if (*p == ':')
            p++;
    }
    return -1;
}

int pp_cal_find_mpibench(char *out, size_t len)
{
    const char *env = getenv("PERFPRED_MPIBENCH");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return executable(env) ? 0 : -1;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(out, len, "perfpred-mpibench");
        return -1;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(out, len, "%s/perfpred-mpibench", self);
    return executable(out) ? 0 : -1;
}

/* ---- running the benchmark ------------------------------------------------- */

typedef struct bench_out {
    char library[128];
    int ranks;
    int nping;
    int ping_bytes[32];
    double ping_ns[32];
    double osend, orecv, gap, reduce;
    long eager;            /* -1: not reported */
    int eager_atleast;     /* eager_min: no size up to it waited */
    double barrier, allreduce;
    int have_barrier, have_allreduce;
} bench_out;

static void parse_line(bench_out *b, const char *l)
{
    int k, bytes;
    long e;
    double v;
    if (sscanf(l, "library %127[^\n]", b->library) == 1)
        return;
    if (sscanf(l, "ranks %d", &k) == 1)
        b->ranks = k;
    else if (sscanf(l, "pingpong %d %lf", &bytes, &v) == 2) {
        if (b->nping < 32) {
            b->ping_bytes[b->nping] = bytes;
            b->ping_ns[b->nping++] = v;
        }
    } else if (sscanf(l, "osend %lf", &v) == 1)
        b->osend = v;
    else if (sscanf(l, "orecv %lf", &v) == 1)
        b->orecv = v;
    else if (sscanf(l, "gap %lf", &v) == 1)
        b->gap = v;
    else if (sscanf(l, "reduce_local %lf", &v) == 1)
        b->reduce = v;
    else if (sscanf(l, "eager_min %ld", &e) == 1) {
        b->eager = e;
        b->eager_atleast = 1;
    } else if (sscanf(l, "eager %ld", &e) == 1)
        b->eager = e;
    else if (sscanf(l, "barrier %d %lf", &k, &v) == 2) {
        b->barrier = v;
        b->have_barrier = 1;
    } else if (sscanf(l, "allreduce %d %lf", &k, &v) == 2) {
        b->allreduce = v;
        b->have_allreduce = 1;
    }
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The environment of mpirun: ours, plus Open MPI's permission to run as
 * root when we are root (only in the child's environment). */
static char **child_env(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc(sizeof *env * (n + 3));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "OMPI_ALLOW_RUN_AS_ROOT", 22) != 0 || geteuid() != 0)
            env[k++] = environ[i];
    if (geteuid() == 0) {
        env[k++] = "OMPI_ALLOW_RUN_AS_ROOT=1";
        env[k++] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    }
    env[k] = NULL;
    return env;
}

/* Run `mpirun -np K [--oversubscribe] BENCH [--quick] [--p2p]`, collect
 * its output (stdout and stderr), parse rank 0's lines into b.  0, or -1
 * with err set (the command, its exit status and its last line). */
static int run_bench(const char *mpirun, const char *bench, int K, int cores, int quick, int p2p,
                     double timeout_s, bench_out *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->eager = -1;
    char np[16];
    snprintf(np, sizeof np, "%d", K);
    const char *argv[10];
    int a = 0;
    argv[a++] = mpirun;
    argv[a++] = "-np";
    argv[a++] = np;
    if (K > cores)
        argv[a++] = "--oversubscribe";
    argv[a++] = bench;
    if (quick)
        argv[a++] = "--quick";
    if (p2p)
        argv[a++] = "--p2p";
    argv[a] = NULL;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mpirun -np %d%s perfpred-mpibench%s%s", K, K > cores ? " --oversubscribe" : "",
             quick ? " --quick" : "", p2p ? " --p2p" : "");

    char **env = child_env();
    int fd[2];
    if (!env || pipe(fd) != 0) {
        snprintf(err, errlen, "%s: %s", cmd, env ? strerror(errno) : "out of memory");
        free(env);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "%s: fork: %s", cmd, strerror(errno));
        close(fd[0]);
        close(fd[1]);
        free(env);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execve(mpirun, (char *const *)argv, env);
        _exit(127);
    }
    setpgid(pid, pid);
    close(fd[1]);
    free(env);

    char out[65536];
    size_t used = 0;
    int timed_out = 0;
    double deadline = mono_s() + timeout_s;
    for (;;) {
        double left = deadline - mono_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[4096];
        ssize_t n = read(fd[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t take = (size_t)n < sizeof out - 1 - used ? (size_t)n : sizeof out - 1 - used;
        memcpy(out + used, chunk, take);
        used += take;
    }
    close(fd[0]);
    out[used] = 0;
    if (timed_out) {
        kill(-pid, SIGTERM);
        for (int i = 0; i < 20 && waitpid(pid, NULL, WNOHANG) == 0; i++)
            usleep(100000);
        kill(-pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;

    /* the last non-empty line, for messages */
    char last[300] = "";
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
        parse_line(b, l);
        if (*l)
            snprintf(last, sizeof last, "%s", l);
    }
    if (timed_out) {
        snprintf(err, errlen, "%s: no result after %.0f s (stopped it)", cmd, timeout_s);
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !last[0])
            snprintf(err, errlen, "%s: cannot run %s", cmd, mpirun);
        else if (WIFEXITED(status))
            snprintf(err, errlen, "%s: exit status %d%s%s", cmd, WEXITSTATUS(status), last[0] ? ": " : "",
                     last);
        else
            snprintf(err, errlen, "%s: killed by signal %d", cmd, WTERMSIG(status));
        return -1;
    }
    if (!b->have_barrier || !b->have_allreduce || b->ranks != K
        || (p2p && (b->nping < 2 || b->osend <= 0 || b->gap <= 0))) {
        snprintf(err, errlen, "%s: incomplete output%s%s", cmd, last[0] ? "; last line: " : "", last);
        return -1;
    }
    return 0;
}

/* ---- the fit ----------------------------------------------------------------- */

/* Rank counts: 2 .. 8, then 12, 16, 24, ... up to max(4, cores), and that
 * count itself. */
static int rank_counts(int cores, int *K)
{
    static const int ladder[] = {2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    int top = cores > 4 ? cores : 4, n = 0;
    for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++)
        if (ladder[i] <= top)
            K[n++] = ladder[i];
    if (K[n - 1] != top && n < 24)
        K[n++] = top;
    return n;
}

int pp_calibrate_mpi(pp_machine *m, const pp_calib_opts *o, const char *mpirun, const char *bench,
                     pp_mpi_cal *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    int cores = o->cores > 0 ? o->cores : pp_cal_online_cores();
    int K[24];
    int nk = rank_counts(cores, K);
    double timeout = o->quick ? 60 : 180;
    bench_out b2;
    memset(&b2, 0, sizeof b2);
    for (int i = 0; i < PP_MPI_PT_N; i++)
        m->mpi_points[i].n = 0;
    for (int i = 0; i < nk; i++) {
        bench_out b;
        if (o->progress) {
            fprintf(o->progress, "calibrate: mpi             K=%-3d%s\n", K[i],
                    K[i] > cores ? " (oversubscribed)" : "");
            fflush(o->progress);
        }
        if (run_bench(mpirun, bench, K[i], cores, o->quick, i == 0, timeout, &b, err, errlen))
            return -1;
        if (i == 0)
            b2 = b;
        pp_machine_add_mpi_point(m, PP_MPI_PT_BARRIER, K[i], b.barrier, K[i] > cores);
        pp_machine_add_mpi_point(m, PP_MPI_PT_ALLREDUCE, K[i], b.allreduce, K[i] > cores);
    }
    snprintf(info->library, sizeof info->library, "%s", b2.library);
    info->kmax = K[nk - 1];

    pp_net *n = &m->net;
    pp_net_default(n);
    n->source = 1;
    n->ranks_per_node = 0;
    double t0 = -1;
    int P[32];
    double y[32];
    for (int i = 0; i < b2.nping; i++) {
        pp_machine_add_mpi_point(m, PP_MPI_PT_PINGPONG, b2.ping_bytes[i], b2.ping_ns[i], 0);
        if (b2.ping_bytes[i] == 0)
            t0 = b2.ping_ns[i];
    }
    if (t0 < 0)
        t0 = b2.ping_ns[0];
    /* the eager limit */
    if (b2.eager >= 0) {
        n->eager_bytes = (double)b2.eager;
        info->eager_how = b2.eager_atleast ? 1 : 0;
    } else {
        n->eager_bytes = 4096;   /* Open MPI's shared-memory (vader) btl_vader_eager_limit */
        info->eager_how = 2;
    }
    /* o: the sender's time in a small send; L = T(0) - 2o */
    info->osend = b2.osend;
    info->orecv = b2.orecv;
    n->o = b2.osend;
    n->L = t0 - 2 * n->o;
    if (n->L < 0) {
        info->latency_clamped = 1;
        n->L = 0;
    }
    n->g = b2.gap;
    n->gamma = b2.reduce > 0 ? b2.reduce : 0;
    /* G: the slope of the half round trip over the rendezvous sizes (at
     * least 64 KiB and twice the eager limit) */
    int np = 0;
    double from = fmax(65536, 2 * n->eager_bytes);
    for (int i = 0; i < b2.nping; i++)
        if (b2.ping_bytes[i] >= from) {
            P[np] = b2.ping_bytes[i];
            y[np++] = b2.ping_ns[i];
        }
    if (np < 2) {       /* an eager limit near 1 MiB: the largest sizes */
        np = 0;
        for (int i = 0; i < b2.nping; i++)
            if (b2.ping_bytes[i] >= 4096) {
                P[np] = b2.ping_bytes[i];
                y[np++] = b2.ping_ns[i];
            }
    }
    pp_model fit;
    if (np >= 2 && pp_cal_fit(P, y, np, PP_MODEL_LINEAR, &fit) == 0 && fit.kind == PP_MODEL_LINEAR && fit.b > 0) {
        n->G = fit.b;
        info->G_se = fit.b_se;
        info->G_points = np;
    } else {
        int last = b2.nping - 1;
        double slope = b2.ping_bytes[last] > 0 ? (b2.ping_ns[last] - t0) / b2.ping_bytes[last] : 0;
        n->G = slope > 0 ? slope : 1e-3;
        info->G_points = 0;
    }
    m->has_net = 1;
    return 0;
}

/* ---- the summary ------------------------------------------------------------- */

static double model_coll(const pp_net *n, pp_coll k, int P, double bytes, pp_alg *alg)
{
    double *arr = calloc((size_t)P, sizeof *arr), *rel = calloc((size_t)P, sizeof *rel), t = -1;
    *alg = pp_net_alg(n, k, P, bytes);
    if (arr && rel && pp_net_collective(n, k, P, 0, bytes, arr, rel) == 0) {
        t = 0;
        for (int r = 0; r < P; r++)
            t = fmax(t, rel[r]);
    }
    free(arr);
    free(rel);
    return t;
}

void pp_calibrate_mpi_summary(FILE *out, const pp_machine *m, const pp_mpi_cal *info)
{
    const pp_net *n = &m->net;
    fprintf(out, "MPI network of %s (%s, ranks on this host, K = 2..%d)\n", m->name,
            info->library[0] ? info->library : "MPI", info->kmax);
    fprintf(out, "  latency L             %10.1f ns%s\n", n->L,
            info->latency_clamped ? "   (T(0) - 2o was negative: 0)" : "");
    fprintf(out, "  overhead o            %10.1f ns    (the sender's time in an 8-byte MPI_Send; "
            "MPI_Recv of an arrived message: %.1f ns)\n", n->o, info->orecv);
    fprintf(out, "  gap g                 %10.1f ns    (per message, bursts of 8-byte MPI_Isend)\n", n->g);
    fprintf(out, "  gap per byte G        %10.4f ns/B  (%.2f GB/s%s)\n", n->G, n->G > 0 ? 1 / n->G : 0,
            info->G_points ? "" : "; from the largest message only");
    fprintf(out, "  reduce gamma          %10.4f ns/B  (MPI_Reduce_local, MPI_SUM of doubles)\n", n->gamma);
    fprintf(out, "  eager limit           %10.0f bytes %s\n", n->eager_bytes,
            info->eager_how == 0 ? "(measured: the largest MPI_Send that did not wait for a late receiver)"
            : info->eager_how == 1 ? "(at least: no size measured waited)"
            : "(not measured: Open MPI's shared-memory default)");
    fprintf(out, "%-12s %10s %12s %12s\n", "ping-pong", "bytes", "measured", "model");
    const pp_series *s = &m->mpi_points[PP_MPI_PT_PINGPONG];
    for (int i = 0; i < s->n; i++) {
        double sd, rd;
        pp_net_p2p(n, s->pt[i].p, 0, 0, &sd, &rd);
        fprintf(out, "%-12s %10d %12.1f %12.1f\n", "", s->pt[i].p, s->pt[i].v, rd);
    }
    fprintf(out, "%-12s %10s %12s %12s  %s\n", "collective", "ranks", "measured", "model", "algorithm");
    for (int c = 0; c < 2; c++) {
        const pp_series *cs = &m->mpi_points[c == 0 ? PP_MPI_PT_BARRIER : PP_MPI_PT_ALLREDUCE];
        pp_coll k = c == 0 ? PP_COLL_BARRIER : PP_COLL_ALLREDUCE;
        for (int i = 0; i < cs->n; i++) {
            pp_alg a;
            double t = model_coll(n, k, cs->pt[i].p, c == 0 ? 0 : 8, &a);
            fprintf(out, "%-12s %10d %12.1f %12.1f  %s%s\n", c == 0 ? "barrier" : "allreduce 8B", cs->pt[i].p,
                    cs->pt[i].v, t, pp_alg_name(a), cs->pt[i].oversub ? "  (oversubscribed)" : "");
        }
    }
    fprintf(out, "times in ns; ping-pong is half a round trip; collectives per call\n");
}
