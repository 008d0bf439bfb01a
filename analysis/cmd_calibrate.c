/* cmd_calibrate.c - `perfpred calibrate -o FILE [--quick] [--max-threads N]
 * [--mpi]`: measure this host, write the machine file, print a summary
 * table.  --mpi measures the MPI network (calibrate_mpi.c) and, when FILE
 * exists, keeps its other keys.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calibrate.h"
#include "machine.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: perfpred calibrate -o FILE [--quick] [--max-threads N] [--mpi]\n"
"       perfpred calibrate --check FILE [--quick] [--tolerance X]\n"
"\n"
"Measure the costs of synchronisation events on this host with dedicated\n"
"micro-benchmarks (thread create/join, OpenMP fork/join, OpenMP and pthread\n"
"barriers, mutex lock and hand-off, compute and memory slowdown with k\n"
"threads at once), fit cost models against the number of threads P, and\n"
"write them to FILE (docs/machine-format.md).\n"
"\n"
"  -o, --output FILE    machine file to write (required)\n"
"      --quick          fewer, shorter samples (about 1-3 s; for tests)\n"
"      --max-threads N  largest team measured (default 4 x processors,\n"
"                       at most 64); sizes above the processor count are\n"
"                       kept as oversubscribed points, not fitted\n"
"      --mpi            measure the MPI network (LogGP latency, overhead,\n"
"                       gaps, eager limit; barrier and allreduce for 2..\n"
"                       max(4, processors) ranks) with perfpred-mpibench\n"
"                       under mpirun, and write the mpi.* keys.  When FILE\n"
"                       exists its other keys are kept (the threads are not\n"
"                       measured again); otherwise the threads are measured\n"
"                       first\n"
"      --check FILE     measure a few costs again (a compute kernel, an\n"
"                       OpenMP fork/join and barrier, one thread's memory\n"
"                       bandwidth at one working set; 5-10 s, 2-3 s with\n"
"                       --quick) and say, per cost, FILE's value, today's\n"
"                       and whether they agree.  Exit 0 when FILE still\n"
"                       describes this host, 1 when it does not, 2 when\n"
"                       FILE cannot be read\n"
"      --tolerance X    --check: the factor two values may differ by and\n"
"                       still agree (default 2; above 1)\n"
"\n"
"Each cost is measured in interleaved rounds and the quietest round kept;\n"
"a cost whose rounds disagree by more than 2x, or a host whose processors\n"
"were busy with other work, is marked in FILE, and every output that uses\n"
"FILE says so in its first line (docs/machine-format.md).\n"
"  -h, --help           this text\n");
}

static int parse_count(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1 || v > 4096)
        return -1;
    *out = (int)v;
    return 0;
}

int pp_cmd_calibrate(int argc, char **argv)
{
    const char *outpath = NULL, *check = NULL;
    double tol = 2.0;
    int mpi = 0;
    pp_calib_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            o.quick = 1;
        } else if (!strcmp(a, "--mpi")) {
            mpi = 1;
        } else if (!strcmp(a, "--check") || !strncmp(a, "--check=", 8)) {
            check = a[7] == '=' ? a + 8 : (++i < argc ? argv[i] : NULL);
            if (!check || !*check) {
                fprintf(stderr, "perfpred calibrate: --check needs a machine file\n");
                return 2;
            }
        } else if (!strcmp(a, "--tolerance") || !strncmp(a, "--tolerance=", 12)) {
            const char *v = a[11] == '=' ? a + 12 : (++i < argc ? argv[i] : NULL);
            char *end = NULL;
            tol = v ? strtod(v, &end) : 0;
            if (!v || end == v || *end || !(tol > 1) || tol > 1e6) {
                fprintf(stderr, "perfpred calibrate: --tolerance needs a factor above 1 (e.g. 2)\n");
                return 2;
            }
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc) {
                fprintf(stderr, "perfpred calibrate: %s needs a file name\n",
                        a);
                return 2;
            }
            outpath = argv[i];
        } else if (!strncmp(a, "--output=", 9)) {
            outpath = a + 9;
        } else if (!strcmp(a, "--max-threads") ||
                   !strncmp(a, "--max-threads=", 14)) {
            const char *v = a[13] == '=' ? a + 14 : (++i < argc ? argv[i]
                                                                : NULL);
            if (!v || parse_count(v, &o.max_threads)) {
                fprintf(stderr, "perfpred calibrate: --max-threads needs a "
                        "number from 1 to 4096\n");
                return 2;
            }
        } else {
            fprintf(stderr, "perfpred calibrate: unknown argument '%s'\n"
                    "try 'perfpred calibrate --help'\n", a);
            return 2;
        }
    }
    if (check) {
        if (outpath || mpi || o.max_threads) {
            fprintf(stderr, "perfpred calibrate: --check FILE takes only --quick and --tolerance\n");
            return 2;
        }
        return pp_calibrate_check(check, o.quick, tol, stdout);
    }
    if (!outpath || !*outpath) {
        fprintf(stderr, "perfpred calibrate: no output file (-o FILE)\n"
                "try 'perfpred calibrate --help'\n");
        return 2;
    }
    /* a directory we cannot write to is bad input: say so before spending
     * seconds measuring */
    {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", outpath);
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == dir)
            dir[1] = 0;
        else
            *slash = 0;
        struct stat st;
        if (stat(outpath, &st) == 0 && S_ISDIR(st.st_mode)) {
            fprintf(stderr, "perfpred calibrate: %s is a directory: -o takes a file name\n", outpath);
            return 2;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            fprintf(stderr, "perfpred calibrate: %s: cannot write there (%s)\n", outpath, strerror(errno));
            return 2;
        }
    }
    /* --mpi: the programs it runs, and the file whose other keys it keeps */
    char mpirun[4096], bench[4096];
    struct stat ost;
    int keep = mpi && stat(outpath, &ost) == 0;
    if (mpi) {
        if (pp_cal_find_mpirun(mpirun, sizeof mpirun)) {
            fprintf(stderr, "perfpred calibrate: --mpi: mpirun is not in PATH (install Open MPI: Debian "
                    "package openmpi-bin)\n");
            return 1;
        }
        if (pp_cal_find_mpibench(bench, sizeof bench)) {
            fprintf(stderr, "perfpred calibrate: --mpi: %s: no such program (perfpred-mpibench is built "
                    "with mpicc by 'make' and installed next to perfpred; PERFPRED_MPIBENCH names "
                    "another)\n", bench);
            return 1;
        }
    }
    if (isatty(STDERR_FILENO))
        o.progress = stderr;
    double load[1];
    int cores = pp_cal_online_cores();
    int busy = getloadavg(load, 1) == 1 && load[0] > 0.5 * cores;
    if (busy)
        fprintf(stderr, "perfpred calibrate: warning: the host is busy (load "
                "average %.2f on %d processor%s): the measurements will "
                "include waiting for a processor\n", load[0], cores,
                cores == 1 ? "" : "s");

    pp_machine *m = malloc(sizeof *m);
    if (!m) {
        fprintf(stderr, "perfpred calibrate: out of memory\n");
        return 1;
    }
    char err[1024];
    if (keep) {
        if (pp_machine_load(outpath, m, err, sizeof err)) {
            fprintf(stderr, "perfpred calibrate: %s\n(--mpi keeps the other keys of an existing "
                    "machine file: remove it or name another)\n", err);
            free(m);
            return 2;
        }
        char host[PP_MACHINE_NAME_MAX] = "";
        if (gethostname(host, sizeof host - 1) == 0 && host[0] && strcmp(host, m->name) != 0)
            fprintf(stderr, "perfpred calibrate: warning: %s describes '%s', not this host ('%s'): "
                    "its MPI network is replaced by this host's\n", outpath, m->name, host);
    } else if (pp_calibrate(m, &o, err, sizeof err)) {
        fprintf(stderr, "perfpred calibrate: %s\n", err);
        free(m);
        return 1;
    }
    /* a busy host is recorded in the file (docs/machine-format.md, "Busy
     * host"): busy before measuring, or a quarter of some cost's samples
     * disturbed while measuring */
    if (!keep) {
        int late = 0, spread = 0;
        for (int c = 0; c < PP_COST_N; c++) {
            late |= m->busy_share[c] >= 0.25;
            spread |= pp_machine_cost_marked(m, c);
        }
        int steal = m->busy_steal > 0.25;
        if (late && !busy) {
            char costs[1024];
            pp_machine_busy_costs_text(m, costs, sizeof costs);
            fprintf(stderr, "perfpred calibrate: warning: the host was busy while measuring: disturbed samples "
                    "(a thread lost its processor; left out of the fit): %s\n", costs);
        }
        if (steal && !busy)
            fprintf(stderr, "perfpred calibrate: warning: the host was busy while measuring: a spin on every "
                    "processor lost %.0f%% of its time to other work (the file is marked)\n",
                    100 * m->busy_steal);
        if (spread) {
            char list[512] = "";
            for (int c = 0; c < PP_COST_N; c++)
                if (pp_machine_cost_marked(m, c)) {
                    size_t u = strlen(list);
                    snprintf(list + u, sizeof list - u, m->spread[c] < 10 ? "%s%s %.1fx" : "%s%s %.0fx",
                             u ? ", " : "", pp_cost_key((pp_cost_id)c), m->spread[c]);
                }
            fprintf(stderr, "perfpred calibrate: warning: the host was busy while measuring: the rounds of %s "
                    "disagree by more than 2x (the quietest is kept; the file is marked)\n", list);
        }
        m->busy = busy || late || steal || spread;
        m->busy_load = busy ? round(load[0] * 100) / 100 : 0;
    } else if (busy) {
        m->busy = 1;
        if (load[0] > m->busy_load)
            m->busy_load = round(load[0] * 100) / 100;
    }
    pp_mpi_cal info;
    if (mpi && pp_calibrate_mpi(m, &o, mpirun, bench, &info, err, sizeof err)) {
        fprintf(stderr, "perfpred calibrate: --mpi: %s\n", err);
        free(m);
        return 1;
    }
    if (pp_machine_save(outpath, m, err, sizeof err)) {
        fprintf(stderr, "perfpred calibrate: %s\n", err);
        free(m);
        return 1;
    }
    if (!keep)
        pp_calibrate_summary(stdout, m);
    if (mpi)
        pp_calibrate_mpi_summary(stdout, m, &info);
    if (keep)
        printf("kept the other keys of %s (measured only its MPI network)\n", outpath);
    printf("wrote %s\n", outpath);
    free(m);
    return 0;
}
