/* cmd_validate.c - `perfpred validate RECORD --point N=512,P=2 ...`: run
 * the program at each point, compare the measured time with the real
 * machine's prediction, and print the error table of Clement & Quinn and
 * the time reduction of Zhang & Xu (Table 11).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"
#include "cli.h"
#include "domain.h"
#include "plot.h"
#include "cmds.h"
#include "exe-id.h"
#include "metrics.h"
#include "mpirun.h"
#include "validate.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *usage =
    "usage: perfpred validate RECORD --point NAME=V[,NAME=V...][,P=N] [--point ...]\n"
    "                         [--run 'COMMAND'] [--repeat K] [--machine FILE]\n"
    "                         [--format text|csv|json] [--plot FILE.svg]\n"
    "  Runs the program at every point (problem size and P), K times (default 3),\n"
    "  the points alternated (each point once, then each again, ...); the actual\n"
    "  time is the minimum of the K (the host's noise only adds time; the JSON\n"
    "  also has the median, the spread and every run).  Predicts the same points\n"
    "  from RECORD on the real machine, and prints predicted against actual time\n"
    "  with the error\n"
    "  (predicted - actual) / actual, then the mean and median absolute error,\n"
    "  sigma = sqrt(SSE/(n-3)) and C.O.V. (Clement & Quinn), and the time to\n"
    "  measure every point against the time to predict them (Zhang & Xu, Table 11).\n"
    "  COMMAND is run by /bin/sh with {NAME} and {P} replaced by the point's values;\n"
    "  by default it is made from the recorded command line, each argument equal to\n"
    "  a parameter's recorded value becoming {NAME} (and OMP_NUM_THREADS={P} for\n"
    "  OpenMP programs, mpirun -np {P} for MPI programs: mpirun.mpich when the run\n"
    "  was MPICH's and it is in PATH); its program must still be the binary that\n"
    "  made RECORD (the record's build id; not checked with --run).  The\n"
    "  instrumented program runs with PERFPRED_DISABLE=1; an MPI program records\n"
    "  into a temporary directory instead, and its time is the longest rank's from\n"
    "  MPI_Init's return to MPI_Finalize (mpirun's start-up is not the program's).\n"
    "  Each prediction has a 90% interval (as predict's: the fitted costs from their\n"
    "  slopes, or --draws K draws, 0: none; the host's noise; --model-error E per doubling of\n"
    "  the work).\n"
    "  --cost-quantile Q: the costs sit at the Q-quantile of the segments' slowdown\n"
    "  against their least-squares fit (default 'mean': the fit as it is).\n"
    "  --insitu on|off, --cache-rule on|off: as for predict.\n"
    "  --plot FILE.svg: predicted against measured time, with the intervals and\n"
    "  the line of perfect prediction (gnuplot; FILE.gp and FILE.dat beside it).\n";

typedef struct {
    long *val;            /* per model parameter                          */
    int P;
    char label[256];
} vpoint_in;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The launcher of the run's MPI: Debian installs MPICH's as mpirun.mpich
 * beside Open MPI's mpirun (the default one); elsewhere it is mpirun. */
static const char *mpi_launcher(const pp_record *r)
{
    char path[4096];
    if (r->mpi_lib && strncmp(r->mpi_lib, "MPICH", 5) == 0 && pp_find_in_path("mpirun.mpich", path, sizeof path) == 0)
        return "mpirun.mpich";
    return "mpirun";
}

/* The default command from the recorded command line. */
static char *default_command(const pp_prog *m, const pp_record *r, char *err, size_t errlen)
{
    if (!r->program || r->argc < 1) {
        snprintf(err, errlen, "the record has no command line: give --run");
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *cmd = malloc(cap);
    if (!cmd)
        return NULL;
    cmd[0] = 0;
    int has_p = 0;
    if (m->pkind == PP_P_OMP) {
        len += (size_t)snprintf(cmd + len, cap - len, "OMP_NUM_THREADS={P} ");
        has_p = 1;
    }
    if (m->pkind == PP_P_MPI) {
        len += (size_t)snprintf(cmd + len, cap - len, "%s -np {P} ", mpi_launcher(r));
        has_p = 1;
    }
    len += (size_t)snprintf(cmd + len, cap - len, "'%s'", r->program);
    for (int i = 1; i < r->argc && len < cap - 200; i++) {
        const char *a = r->argv[i];
        const char *name = NULL;
        int matches = 0;
        char *end;
        long v = strtol(a, &end, 10);
        if (*a && !*end)
            for (int k = 0; k < m->nparams; k++)
                if (m->params[k].recorded == v) {
                    /* parameters that share a name are one */
                    if (!name || strcmp(name, m->params[k].name) != 0)
                        matches++;
                    name = m->params[k].name;
                }
        if (matches > 1) {
            snprintf(err, errlen, "argument %d ('%s') equals the recorded value of several parameters: "
                                  "give --run with {NAME} placeholders", i, a);
            free(cmd);
            return NULL;
        }
        if (name && m->pkind == PP_P_PARAM && strcmp(name, m->params[m->p_param].name) == 0) {
            len += (size_t)snprintf(cmd + len, cap - len, " {P}");
            has_p = 1;
        } else if (name)
            len += (size_t)snprintf(cmd + len, cap - len, " {%s}", name);
        else if (m->pkind == PP_P_OMP && *a && !*end && v == m->p_recorded && !has_p)
            len += (size_t)snprintf(cmd + len, cap - len, " {P}");
        else
            len += (size_t)snprintf(cmd + len, cap - len, " '%s'", a);
    }
    (void)has_p;
    return cmd;
}

/* Replace {NAME} and {P} in the template. */
static char *expand(const char *tpl, const pp_prog *m, const vpoint_in *p, char *err, size_t errlen)
{
    size_t cap = strlen(tpl) + 1024, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *s = tpl; *s;) {
        if (*s == '{') {
            const char *e = strchr(s, '}');
            if (!e) {
                snprintf(err, errlen, "--run: unbalanced '{' in the command");
                free(out);
                return NULL;
            }
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(e - s - 1), s + 1);
            long v;
            int k = pp_prog_param_index(m, name);
            if (!strcmp(name, "P"))
                v = p->P;
            else if (k >= 0)
                v = p->val[k];
            else {
                snprintf(err, errlen, "--run: {%s} is neither P nor a parameter of the record", name);
                free(out);
                return NULL;
            }
            if (len + 32 >= cap) {
                free(out);
                return NULL;
            }
            len += (size_t)snprintf(out + len, cap - len, "%ld", v);
            s = e + 1;
        } else {
            if (len + 2 >= cap) {
                free(out);
                return NULL;
            }
            out[len++] = *s++;
            out[len] = 0;
        }
    }
    out[len] = 0;
    return out;
}

/* Run a shell command with output discarded; its wall time, or -1. */
static double run_once(const char *cmd, char *err, size_t errlen, int disable)
{
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(127);
        if (disable)
            setenv("PERFPRED_DISABLE", "1", 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            return -1;
        }
    double t = now_s() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, errlen, "'%s' failed (%s %d)", cmd, WIFEXITED(st) ? "exit status" : "signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return -1;
    }
    return t;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* An MPI program's own time: the command run recording into a temporary
 * directory, and the longest span of a rank from the return of MPI_Init
 * to the call of MPI_Finalize (mpirun's start-up, MPI_Init and
 * MPI_Finalize, which the model does not predict, left out).  The records
 * then count loop iterations, at a cost of a few per cent.  -1 with a
 * message; -2 when the command wrote no records (not the instrumented
 * program): then its wall time is in *wall. */
static double run_once_mpi(const char *cmd, double *wall, char *err, size_t errlen)
{
    char dir[] = "/tmp/perfpred-validate-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a temporary directory: %s", strerror(errno));
        return -1;
    }
    char rec[sizeof dir + 16];
    snprintf(rec, sizeof rec, "%s/run", dir);
    char *saved = getenv("PERFPRED_RECORD") ? strdup(getenv("PERFPRED_RECORD")) : NULL;
    setenv("PERFPRED_RECORD", rec, 1);
    unsetenv("PERFPRED_DISABLE");
    *wall = run_once(cmd, err, errlen, 0);
    if (saved) {
        setenv("PERFPRED_RECORD", saved, 1);
        free(saved);
    } else
        unsetenv("PERFPRED_RECORD");
    double t = *wall < 0 ? -1 : -2;
    pp_mpirun run;
    char e2[1024];
    if (*wall >= 0 && access(rec, F_OK) == 0) {
        if (pp_mpirun_load(rec, &run, e2, sizeof e2) == 0) {
            double span = 0;
            for (int k = 0; k < run.nranks; k++) {
                const pp_record *r = &run.rank[k];
                uint64_t a = 0, b = 0;
                for (long i = 0; i < r->nevents; i++) {
                    if (r->events[i].kind == PP_EV_MPI_INIT && !a)
                        a = r->events[i].t1;
                    if (r->events[i].kind == PP_EV_MPI_FINALIZE)
                        b = r->events[i].t0;
                }
                if (a && b > a && (double)(b - a) / 1e9 > span)
                    span = (double)(b - a) / 1e9;
            }
            pp_mpirun_free(&run);
            t = span > 0 ? span : -2;
        } else {
            snprintf(err, errlen, "%s", e2);
            t = -1;
        }
    }
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int parse_point(const pp_prog *m, const pp_vals *pv, const char *spec, vpoint_in *p, char *err,
                       size_t errlen)
{
    p->val = malloc(sizeof *p->val * (size_t)(m->nparams + 1));
    if (!p->val)
        return -1;
    for (int k = 0; k < m->nparams; k++)
        p->val[k] = pv->v[k];
    p->P = pp_prog_default_P(m, pv);
    char *dup = strdup(spec);
    int rc = 0;
    for (char *tok = strtok(dup, ","); tok && rc == 0; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        char *end;
        long v = eq ? strtol(eq + 1, &end, 10) : 0;
        if (!eq || eq == tok || !eq[1] || *end) {
            snprintf(err, errlen, "--point: '%s' is not NAME=INTEGER", tok);
            rc = -1;
            break;
        }
        *eq = 0;
        if (!strcmp(tok, "P")) {
            if (v < 1 || v > 1000000) {
                snprintf(err, errlen, "--point: P=%ld is not a processor count", v);
                rc = -1;
            }
            p->P = (int)v;
            continue;
        }
        int found = 0;
        for (int k = 0; k < m->nparams; k++)
            if (!strcmp(m->params[k].name, tok)) {
                p->val[k] = v;
                found = 1;
            }
        char hint[400];
        if (!found && pp_prog_derived_hint(m, tok, hint, sizeof hint) == 0) {
            snprintf(err, errlen, "--point: %s", hint);
            rc = -1;
        } else if (!found) {
            snprintf(err, errlen, "--point: no parameter named '%s'", tok);
            rc = -1;
        }
    }
    free(dup);
    snprintf(p->label, sizeof p->label, "%s", spec);
    return rc;
}

/* --plot: predicted against actual time on log axes, the intervals as
 * error bars, y = x and +-25% (Zhang & Xu, Figures 7-9, as one scatter).
 * FILE.dat and FILE.gp are written beside FILE.svg. */
static int write_plot(const char *svg, const vpoint_in *in, const pp_vpoint *out, int n, char *err, size_t errlen)
{
    char dir[900], base[500], path[900 + 500 + 8];
    pp_plot_names(svg, dir, sizeof dir, base, sizeof base);
    snprintf(path, sizeof path, "%s/%s.dat", dir, base);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    double lo = INFINITY, hi = 0;
    fprintf(f, "# actual_s predicted_s lo_s hi_s point\n");
    for (int i = 0; i < n; i++) {
        double l = out[i].lo <= out[i].hi ? out[i].lo : out[i].predicted;
        double h = out[i].lo <= out[i].hi ? out[i].hi : out[i].predicted;
        fprintf(f, "%.9g %.9g %.9g %.9g \"%s\"\n", out[i].actual, out[i].predicted, l, h, in[i].label);
        double v[3] = {out[i].actual, l, h};
        for (int k = 0; k < 3; k++)
            if (v[k] > 0) {
                lo = v[k] < lo ? v[k] : lo;
                hi = v[k] > hi ? v[k] : hi;
            }
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (!(hi > 0) || !isfinite(lo)) {
        lo = 1e-6;
        hi = 1;
    }
    snprintf(path, sizeof path, "%s/%s.gp", dir, base);
    f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    char name[520];
    fprintf(f, "set terminal svg size 720,600 dynamic background rgb 'white'\nset output ");
    snprintf(name, sizeof name, "%s.svg", base);
    pp_gp_str(f, name);
    fprintf(f, "\nset title 'Predicted against measured time (90%% intervals)'\n"
               "set logscale xy\nset xlabel 'measured (s)'\nset ylabel 'predicted (s)'\n"
               "set key top left\nset grid\nset xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\n",
            lo / 1.5, hi * 1.5, lo / 1.5, hi * 1.5);
    snprintf(name, sizeof name, "%s.dat", base);
    fprintf(f, "plot x title 'predicted = measured' lt rgb '#444444', 1.25*x title '+-25%%' dt 2 lt rgb '#999999', "
               "0.8*x notitle dt 2 lt rgb '#999999', \\\n  ");
    pp_gp_str(f, name);
    fprintf(f, " using 1:2:3:4 with yerrorbars title 'points' pt 7 lt rgb '#1f77b4', \\\n  ");
    pp_gp_str(f, name);
    fprintf(f, " using 1:2:5 with labels offset 1,0.6 left font ',9' notitle\n");
    if (fclose(f) != 0) {
        snprintf(err, errlen, "--plot: %s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return pp_plot_render(svg, dir, base, err, errlen);
}

int pp_cmd_validate(int argc, char **argv)
{
    pp_cli c;
    int st = pp_cli_start(argc, argv, "validate", "set,machine,format,point,run,repeat,draws,cache-rule,insitu,model-error,cost-quantile,plot", usage, &c);
    if (st >= 0)
        return st;
    char perr[1200];
    if (c.plot && pp_plot_dir_ok(c.plot, perr, sizeof perr)) {
        /* before the runs: a plot that cannot be written fails now */
        fprintf(stderr, "perfpred validate: %s\n", perr);
        pp_cli_free(&c);
        return 2;
    }
    if (!c.npoints) {
        fprintf(stderr, "perfpred validate: give at least one --point (e.g. --point N=512,P=2)\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    if ((st = pp_cli_open("validate", &c, 1, &s)) >= 0)
        return st;
    pp_prog *m = &s.prog;
    char err[2048];
    int rc = 0, n = c.npoints, repeat = c.repeat ? c.repeat : 3;
    vpoint_in *in = calloc((size_t)n, sizeof *in);
    pp_vpoint *out = calloc((size_t)n, sizeof *out);
    /* the recorded command runs the program at the recorded path: it must
     * still be the binary that made the record (--run: the user's choice) */
    if (!c.run && s.rec.program) {
        int id = pp_exe_check(&s.rec, s.rec.program, err, sizeof err);
        if (id < 0) {
            fprintf(stderr, "perfpred validate: %s\n", err);
            free(in);
            free(out);
            pp_session_close(&s);
            pp_cli_free(&c);
            return 2;
        }
        if (id > 0)
            fprintf(stderr, "perfpred validate: warning: %s\n", err);
    }
    char *tpl = c.run ? strdup(c.run) : default_command(m, &s.rec, err, sizeof err);
    if (!in || !out || !tpl) {
        fprintf(stderr, "perfpred validate: %s: %s\n", s.rec.path, tpl ? "out of memory" : err);
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (parse_point(m, &s.vals, c.points[i], &in[i], err, sizeof err)) {
            fprintf(stderr, "perfpred validate: %s\n", err);
            rc = 2;
        }
    /* a size macro (macro-sizes.h) at another value needs another build:
     * the recorded binary cannot run it, only the user's --run can */
    for (int i = 0; rc == 0 && !c.run && i < n; i++)
        for (int k = 0; rc == 0 && k < m->nparams; k++) {
            const pp_msize *ms = m->params[k].is_global ? pp_macros_find(&s.macros, m->params[k].src) : NULL;
            if (ms && ms->used && in[i].val[k] != m->params[k].recorded) {
                fprintf(stderr, "perfpred validate: --point %s: %s is a compile-time size (a macro): the "
                                "recorded binary runs only %s=%ld; build the program at each point beforehand and "
                                "give --run 'COMMAND' that runs the build for {%s} (e.g. --run './prog-{%s}', "
                                "prog-400 built with -D%s=400: the command's whole time is measured)\n",
                        in[i].label, ms->name, ms->name, m->params[k].recorded, ms->name, ms->name, ms->name);
                rc = 2;
            }
        }
    /* the predictions first: cheap, and a model error stops before any run */
    double t_pred = 0;
    pp_vals at = {0};
    if (rc == 0 && pp_vals_copy(&at, m, &s.vals)) {
        fprintf(stderr, "perfpred validate: out of memory\n");
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        for (int k = 0; k < m->nparams; k++)
            at.v[k] = in[i].val[k];
        /* a point outside the program's domain (domain.h), before it runs */
        if (pp_domain_check(m, &at, "--point", err, sizeof err, NULL, 0)) {
            fprintf(stderr, "perfpred validate: %s: %s\n", s.rec.path, err);
            rc = 2;
            break;
        }
        pp_metrics mt;
        double t0 = now_s();
        if (pp_predict(m, &at, &s.mach, in[i].P, &mt, err, sizeof err)) {
            fprintf(stderr, "perfpred validate: %s: %s: %s\n", s.rec.path, in[i].label, err);
            rc = 2;
            break;
        }
        /* the time reduction compares the prediction itself, as Table 11
         * does, not the draws of its interval */
        t_pred += now_s() - t0;
        double ilo = 1, ihi = 0;
        int draws = c.has_draws ? c.draws : PP_DRAWS_AUTO;
        pp_interval iv;
        if (pp_interval_wanted(draws) &&
            pp_predict_interval(m, &at, &s.mach, in[i].P, &mt, draws, &iv, err, sizeof err)) {
            fprintf(stderr, "perfpred validate: %s: %s: %s\n", s.rec.path, in[i].label, err);
            rc = 2;
            break;
        }
        if (pp_interval_wanted(draws)) {
            ilo = iv.lo;
            ihi = iv.hi;
            out[i].parts[0] = iv.fit;
            out[i].parts[1] = iv.host;
            out[i].parts[2] = iv.model;
            out[i].parts[3] = iv.counts;
        }
        out[i].predicted = mt.t_real / 1e9;
        out[i].lo = ilo / 1e9;      /* lo > hi: no interval */
        out[i].hi = ihi / 1e9;
    }
    pp_vals_free(&at);
    /* then the runs: round r runs every point once, before round r + 1
     * runs any again, so that a drift of the host (a job starting beside
     * it) reaches every point alike; each point's time is the minimum of
     * its K runs, since the host's noise only ever adds time */
    double t_exp = 0;
    int warned = 0;
    char **cmds = calloc((size_t)n, sizeof *cmds);
    double *t = calloc((size_t)n * (size_t)repeat, sizeof *t);   /* [point][run] */
    if (rc == 0 && (!cmds || !t)) {
        fprintf(stderr, "perfpred validate: out of memory\n");
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (!(cmds[i] = expand(tpl, m, &in[i], err, sizeof err))) {
            fprintf(stderr, "perfpred validate: %s\n", err);
            rc = 2;
        }
    for (int r = 0; rc == 0 && r < repeat; r++)
        for (int i = 0; rc == 0 && i < n; i++) {
            double *ti = &t[(size_t)i * (size_t)repeat + (size_t)r];
            pp_cli_progress(NULL, in[i].label, r, repeat);
            if (m->pkind == PP_P_MPI) {
                double wall;
                *ti = run_once_mpi(cmds[i], &wall, err, sizeof err);
                if (*ti == -2) {
                    if (!warned)
                        fprintf(stderr, "perfpred validate: %s: the command wrote no MPI records: its wall "
                                        "time, mpirun's start-up included, is the actual time\n", in[i].label);
                    warned = 1;
                    *ti = wall;
                }
            } else
                *ti = run_once(cmds[i], err, sizeof err, 1);
            if (*ti < 0) {
                fprintf(stderr, "perfpred validate: %s (run %d of %d): %s\n", in[i].label, r + 1, repeat, err);
                rc = 2;
            } else if (r == 0)
                t_exp += *ti;      /* one run per point: the experiment */
        }
    double *runs = rc == 0 ? malloc(sizeof *runs * (size_t)n * (size_t)repeat) : NULL;
    double *med = calloc((size_t)n + 1, sizeof *med), *spread = calloc((size_t)n + 1, sizeof *spread);
    if (rc == 0 && (!runs || !med || !spread)) {
        fprintf(stderr, "perfpred validate: out of memory\n");
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        double *ti = &t[(size_t)i * (size_t)repeat];
        /* the runs in their order for the JSON; sorted for the statistics */
        memcpy(&runs[(size_t)i * (size_t)repeat], ti, sizeof *ti * (size_t)repeat);
        qsort(ti, (size_t)repeat, sizeof *ti, cmp_double);
        out[i].actual = ti[0];
        med[i] = repeat % 2 ? ti[repeat / 2] : 0.5 * (ti[repeat / 2 - 1] + ti[repeat / 2]);
        spread[i] = ti[0] > 0 ? (ti[repeat - 1] - ti[0]) / ti[0] : 0;
    }
    for (int i = 0; cmds && i < n; i++)
        free(cmds[i]);
    free(cmds);
    free(t);
    pp_cli_progress(NULL, NULL, 0, 0);
    if (rc == 0) {
        pp_vsummary sm;
        pp_validate_summarise(out, n, t_exp, t_pred, &sm);
        if (c.format != PP_FMT_JSON)   /* a marked machine file: the first line */
            pp_session_mark(&s, &c, stdout, c.format);
        if (c.format == PP_FMT_JSON) {
            printf("{");
            pp_session_mark(&s, &c, stdout, c.format);
            printf("\"command\":");
            pp_json_str(stdout, tpl);
            printf(",\"repeat\":%d,\"actual_is\":\"min\",\"points\":[", repeat);
            for (int i = 0; i < n; i++) {
                printf("%s{\"point\":", i ? "," : "");
                pp_json_str(stdout, in[i].label);
                printf(",\"P\":%d,\"predicted\":", in[i].P);
                pp_json_num(stdout, out[i].predicted);
                printf(",\"actual\":");
                pp_json_num(stdout, out[i].actual);
                printf(",\"actual_median\":");
                pp_json_num(stdout, med[i]);
                printf(",\"actual_spread\":");
                pp_json_num(stdout, spread[i]);
                printf(",\"runs\":[");
                for (int r = 0; r < repeat; r++) {
                    printf("%s", r ? "," : "");
                    pp_json_num(stdout, runs[(size_t)i * (size_t)repeat + (size_t)r]);
                }
                printf("]");
                printf(",\"error\":");
                pp_json_num(stdout, out[i].error);
                if (out[i].lo <= out[i].hi) {
                    printf(",\"interval\":");
                    pp_json_interval(stdout, out[i].lo, out[i].hi, out[i].parts[0], out[i].parts[1],
                                     out[i].parts[2], out[i].parts[3]);
                    printf(",\"inside\":%s}", out[i].inside ? "true" : "false");
                } else
                    printf(",\"interval\":null,\"inside\":null}");
            }
            printf("],\"summary\":{\"n\":%d,\"mean_abs_error\":", sm.n);
            pp_json_num(stdout, sm.mean_abs_error);
            printf(",\"median_abs_error\":");
            pp_json_num(stdout, sm.median_abs_error);
            printf(",\"max_abs_error\":");
            pp_json_num(stdout, sm.max_abs_error);
            printf(",\"sigma\":");
            pp_json_num(stdout, sm.sigma);
            printf(",\"mean_actual\":");
            pp_json_num(stdout, sm.mean_actual);
            printf(",\"cov\":");
            pp_json_num(stdout, sm.cov);
            printf(",\"with_interval\":%d,\"inside\":%d,\"experiment_s\":", sm.with_interval, sm.inside);
            pp_json_num(stdout, sm.experiment_s);
            printf(",\"prediction_s\":");
            pp_json_num(stdout, sm.prediction_s);
            printf(",\"reduction\":");
            pp_json_num(stdout, sm.reduction);
            printf("}}\n");
        } else if (c.format == PP_FMT_CSV) {
            printf("point,P,predicted_s,actual_s,error,lo_s,hi_s,inside\n");
            for (int i = 0; i < n; i++) {
                printf("\"%s\",%d,%.9g,%.9g,%.6f,", in[i].label, in[i].P, out[i].predicted, out[i].actual,
                       out[i].error);
                if (out[i].lo <= out[i].hi)
                    printf("%.9g,%.9g,%d\n", out[i].lo, out[i].hi, out[i].inside);
                else
                    printf(",,\n");
            }
        } else {
            char b1[32], b2[32];
            printf("validate %s: %s, actual: minimum of %d alternated runs, machine %s\n", s.rec.path, tpl, repeat,
                   c.machine ? c.machine : "built-in defaults");
            printf("  %-28s %6s %12s %12s %9s  %s\n", "point", "P", "predicted", "actual", "error", "interval");
            for (int i = 0; i < n; i++) {
                printf("  %-28s %6d %12s %12s %+8.1f%%  ", in[i].label, in[i].P,
                       pp_fmt_time(out[i].predicted * 1e9, b1, sizeof b1),
                       pp_fmt_time(out[i].actual * 1e9, b2, sizeof b2), 100 * out[i].error);
                if (out[i].lo <= out[i].hi) {
                    char b3[32], b4[32];
                    printf("[%s, %s] %s\n", pp_fmt_time(out[i].lo * 1e9, b3, sizeof b3),
                           pp_fmt_time(out[i].hi * 1e9, b4, sizeof b4), out[i].inside ? "inside" : "outside");
                } else
                    printf("-\n");
            }
            printf("%d points: mean |error| %.1f%%, median %.1f%%, max %.1f%%; sigma %s, mean actual %s, "
                   "C.O.V. %.3f\n", sm.n, 100 * sm.mean_abs_error, 100 * sm.median_abs_error,
                   100 * sm.max_abs_error, pp_fmt_time(sm.sigma * 1e9, b1, sizeof b1),
                   pp_fmt_time(sm.mean_actual * 1e9, b2, sizeof b2), sm.cov);
            if (sm.with_interval)
                printf("intervals (90%%: fitted costs, host noise, model error): the actual time is inside %d of %d\n",
                       sm.inside, sm.with_interval);
            else
                printf("intervals: none (--draws 0)\n");
            printf("time: measuring every point once %s, predicting them %s: %.0fx less\n",
                   pp_fmt_time(sm.experiment_s * 1e9, b1, sizeof b1),
                   pp_fmt_time(sm.prediction_s * 1e9, b2, sizeof b2), sm.reduction);
        }
    }
    if (rc == 0 && c.plot && write_plot(c.plot, in, out, n, err, sizeof err)) {
        fprintf(stderr, "perfpred validate: %s\n", err);
        rc = 2;
    }
    for (int i = 0; in && i < n; i++)
        free(in[i].val);
    free(in);
    free(out);
    free(runs);
    free(med);
    free(spread);
    free(tpl);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
