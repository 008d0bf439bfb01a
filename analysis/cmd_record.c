/* cmd_record.c - `perfpred record [-r K] [--sizes A,B] [-o DIR] -- PROGRAM
 * ARGS...`: the recording protocol.  Runs the instrumented program K times
 * (at each size, the sizes alternated so that a drift of the host hits
 * them all), each run with PERFPRED_RECORD set to its own path, checks
 * that every run wrote a record and that the analyser takes them all
 * together, and prints them and the command that analyses them.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"
#include "cli.h"
#include "cmds.h"
#include "mpirun.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PP_REC_TOKEN "{}"
#define PP_REC_MAXSIZES 8

static const char *usage =
    "usage: perfpred record [-r K] [--sizes A,B] [-o DIR] -- PROGRAM ARGS...\n"
    "  Runs PROGRAM ARGS (a program built with perfpred-gcc or the plugin) K times\n"
    "  (-r K, also --repeat K; default 3), each run recording to its own file, and\n"
    "  prints the records and the command that analyses them together.\n"
    "  --sizes A,B: run it at each size (integers; two or more), K times each,\n"
    "  alternated (A, B, A, B, ...): the token {} in ARGS is replaced by the size\n"
    "  ('./prog {}', '--n={}'); {} without --sizes, or --sizes without {}, is an error.\n"
    "  -o DIR: write the records there (default: beside the program; the current\n"
    "  directory for a program found in PATH), named PROG.rN.ppr, or PROG.sA.rN.ppr\n"
    "  with --sizes.  MPI programs: write 'mpirun -np 2 ./prog ...' as PROGRAM ARGS;\n"
    "  each run then records into a directory (PROG.rN, PROG.sA.rN) of rank-K.ppr.\n"
    "  A run that fails (a non-zero exit, a signal, no record written) stops the\n"
    "  command with exit status 2; the records written before it are kept.\n";

typedef struct {
    int repeat;
    int nsizes;
    long sizes[PP_REC_MAXSIZES];
    const char *outdir;
    int argc;             /* PROGRAM ARGS                                   */
    char **argv;
} rec_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* -r K, --sizes A,B, -o DIR, then PROGRAM ARGS (after `--`, or from the
 * first argument that is no option).  0, 1 for --help, -1 with err. */
static int parse(int argc, char **argv, rec_opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->repeat = 3;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (a[0] != '-')
            break;
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        char name[32];
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        if (strcmp(name, "-r") && strcmp(name, "--repeat") && strcmp(name, "--sizes") && strcmp(name, "-o")) {
            snprintf(err, errlen, "unknown option '%s' (see --help; the program's own options go after "
                                  "'--')", a);
            return -1;
        }
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else {
            snprintf(err, errlen, "option '%s' needs a value", a);
            return -1;
        }
        if (!strcmp(name, "-o")) {
            o->outdir = val;
            continue;
        }
        char *end;
        if (strcmp(name, "--sizes")) {
            long k = strtol(val, &end, 10);
            if (!*val || *end || k < 1 || k > 100) {
                snprintf(err, errlen, "%s: '%s' is not a count from 1 to 100", name, val);
                return -1;
            }
            o->repeat = (int)k;
            continue;
        }
        o->nsizes = 0;
        for (const char *s = val;;) {
            long v = strtol(s, &end, 10);
            if (end == s || (*end && *end != ',') || v < 1) {
                snprintf(err, errlen, "--sizes: '%s' is not a list of positive integers (e.g. --sizes 1000,2000)",
                         val);
                return -1;
            }
            for (int k = 0; k < o->nsizes; k++)
                if (o->sizes[k] == v) {
                    snprintf(err, errlen, "--sizes: %ld is given twice", v);
                    return -1;
                }
            if (o->nsizes == PP_REC_MAXSIZES) {
                snprintf(err, errlen, "--sizes: at most %d sizes", PP_REC_MAXSIZES);
                return -1;
            }
            o->sizes[o->nsizes++] = v;
            if (!*end)
                break;
            s = end + 1;
        }
        if (o->nsizes < 2) {
            snprintf(err, errlen, "--sizes: give two sizes or more (e.g. --sizes 1000,2000): one size is "
                                  "-r K without --sizes");
            return -1;
        }
    }
    if (i >= argc) {
        snprintf(err, errlen, "no program given (perfpred record -- ./prog ARGS)");
        return -1;
    }
    o->argc = argc - i;
    o->argv = argv + i;
    return 0;
}

/* Words that start another program (a launcher, or a wrapper of the
 * environment); an MPI launcher makes every run an MPI run. */
static int launcher(const char *a, int *mpi)
{
    const char *b = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
    static const char *mpis[] = {"mpirun", "mpiexec", "orterun", "srun"};
    static const char *others[] = {"env", "time", "nice", "taskset", "numactl", "chrt", "stdbuf", "nohup"};
    for (size_t k = 0; k < sizeof mpis / sizeof *mpis; k++) {
        size_t n = strlen(mpis[k]);
        /* mpirun.mpich, mpiexec.hydra, mpirun.openmpi */
        if (!strncmp(b, mpis[k], n) && (!b[n] || b[n] == '.')) {
            *mpi = 1;
            return 1;
        }
    }
    for (size_t k = 0; k < sizeof others / sizeof *others; k++)
        if (!strcmp(b, others[k]))
            return 1;
    return 0;
}

static int executable_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* Which argument is the program: the first, unless it is a launcher
 * (mpirun -np 2 ./prog, env OMP_NUM_THREADS=2 ./prog): then the first
 * later argument that names an executable file (a path, or a name in
 * PATH that is not another launcher), past options and VAR=VALUE.  -1
 * when none does.  *mpi: an MPI launcher came first. */
static int find_program(int argc, char **argv, int *mpi)
{
    *mpi = 0;
    if (!launcher(argv[0], mpi))
        return 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char path[PATH_MAX];
        if (a[0] == '-' || strchr(a, '=') || strstr(a, PP_REC_TOKEN))
            continue;
        if (launcher(a, mpi))
            continue;
        if (strchr(a, '/') ? executable_file(a) : pp_find_in_path(a, path, sizeof path) == 0)
            return i;
    }
    return -1;
}

/* ARGS with the size in place of every {}. */
static char **expand_args(const rec_opts *o, long size)
{
    char **v = calloc((size_t)o->argc + 1, sizeof *v);
    if (!v)
        return NULL;
    for (int i = 0; i < o->argc; i++) {
        const char *a = o->argv[i];
        size_t cap = strlen(a) + 1, len = 0;
        for (const char *s = a; (s = strstr(s, PP_REC_TOKEN)); s += 2)
            cap += 24;
        char *out = malloc(cap);
        if (!out) {
            for (int k = 0; k < i; k++)
                free(v[k]);
            free(v);
            return NULL;
        }
        for (const char *s = a; *s;) {
            if (!strncmp(s, PP_REC_TOKEN, 2)) {
                len += (size_t)snprintf(out + len, cap - len, "%ld", size);
                s += 2;
            } else
                out[len++] = *s++;
        }
        out[len] = 0;
        v[i] = out;
    }
    return v;
}

static void free_args(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* Print a word for /bin/sh: as it is when it holds nothing the shell
 * reads, else in single quotes. */
static void sh_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-=,:@%") == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", f);
        else
            fputc(*w, f);
    fputc('\'', f);
}

/* A run's record path is ours: a stale record there (an earlier
 * `perfpred record`) must not pass for this run's.  An MPI run's
 * directory loses only its ranks' records. */
static int clear_old(const char *path, int mpi, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode)) {
        if (mpi || unlink(path) != 0) {
            snprintf(err, errlen, "%s is in the way of this run's record%s%s", path, mpi ? "" : ": ",
                     mpi ? " (a file, where the MPI run's directory goes)" : strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!mpi) {
        snprintf(err, errlen, "%s is a directory, where this run's record goes", path);
        return -1;
    }
    DIR *d = opendir(path);
    if (!d) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (!strncmp(e->d_name, "rank-", 5) && n > 9 && !strcmp(e->d_name + n - 4, ".ppr")) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", path, e->d_name);
            unlink(p);
        }
    }
    closedir(d);
    return 0;
}

/* Run argv with PERFPRED_RECORD=path: its exit status (>= 0), 128 +
 * the signal that killed it, or -1 with err. */
static int run_one(char **argv, const char *path, char *err, size_t errlen)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* the program's output is the user's: it goes where ours goes,
         * but not into the list of records on stdout */
        if (dup2(2, 1) < 0)
            _exit(127);
        setenv("PERFPRED_RECORD", path, 1);
        unsetenv("PERFPRED_DISABLE");
        execvp(argv[0], argv);
        fprintf(stderr, "perfpred record: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            return -1;
        }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Did the run leave a record at path that the analyser reads: a file
 * (one process), or a directory of every rank's (an MPI run, also one
 * started by a script)?  0, or -1 with err. */
static int check_record(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "wrote no record at %s (is the program built with perfpred-gcc or the "
                              "plugin, and does it end by returning from main or calling exit?)", path);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        pp_mpirun run;
        if (pp_mpirun_load(path, &run, err, errlen))
            return -1;
        pp_mpirun_free(&run);
        return 0;
    }
    pp_record r;
    if (pp_record_load(path, &r, err, errlen))
        return -1;
    pp_record_free(&r);
    return 0;
}

/* The parameters whose value is the size in every record (records[k] at
 * size size_of[k]): their names, ", "-separated, in buf ("" when none). */
static void size_params(const pp_prog *m, const long *size_of, char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = 0; i < m->nparams; i++) {
        int all = 1;
        for (int k = 0; all && k < m->nrec; k++) {
            long v;
            all = pp_prog_param_in(m, k, i, &v) == 0 && v == size_of[k];
        }
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= !strcmp(m->params[j].name, m->params[i].name) && strstr(buf, m->params[i].name);
        if (all && !dup)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", m->params[i].name);
    }
}

int pp_cmd_record(int argc, char **argv)
{
    rec_opts o;
    char err[8192];
    int st = parse(argc, argv, &o, err, sizeof err);
    if (st == 1) {
        fputs(usage, stdout);
        return 0;
    }
    if (st < 0) {
        fprintf(stderr, "perfpred record: %s\n%s", err, usage);
        return 2;
    }
    int has_token = 0;
    for (int i = 0; i < o.argc; i++)
        has_token |= strstr(o.argv[i], PP_REC_TOKEN) != NULL;
    if (o.nsizes && !has_token) {
        fprintf(stderr, "perfpred record: --sizes is given but no argument holds the size's place, " PP_REC_TOKEN
                        " (e.g. perfpred record --sizes 1000,2000 -- ./prog " PP_REC_TOKEN ")\n");
        return 2;
    }
    if (!o.nsizes && has_token) {
        fprintf(stderr, "perfpred record: an argument holds " PP_REC_TOKEN ", the size's place, but no --sizes "
                        "is given (e.g. --sizes 1000,2000)\n");
        return 2;
    }
    int mpi = 0;
    int pi = find_program(o.argc, o.argv, &mpi);
    if (pi < 0 && !o.outdir) {
        fprintf(stderr, "perfpred record: cannot tell which argument of '%s ...' is the program: give -o DIR\n",
                o.argv[0]);
        return 2;
    }
    /* the records' names: the program's, beside it or in -o DIR */
    const char *prog = pi >= 0 ? o.argv[pi] : "run";
    char base[256];
    /* a build per size (./prog-{}): its name without the size's place */
    const char *b = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
    size_t bl = 0;
    for (; *b && bl + 1 < sizeof base; b++) {
        if (!strncmp(b, PP_REC_TOKEN, 2))
            b++;
        else
            base[bl++] = *b;
    }
    while (bl > 1 && strchr("-_.", base[bl - 1]))
        bl--;
    base[bl] = 0;
    char dir[2048];
    if (o.outdir)
        snprintf(dir, sizeof dir, "%s", o.outdir);
    else if (strrchr(prog, '/'))
        snprintf(dir, sizeof dir, "%.*s", strrchr(prog, '/') == prog ? 1 : (int)(strrchr(prog, '/') - prog), prog);
    else
        snprintf(dir, sizeof dir, ".");
    struct stat dst;
    if (stat(dir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
        if (o.outdir && mkdir(dir, 0777) != 0) {
            fprintf(stderr, "perfpred record: -o %s: cannot make the directory: %s\n", dir, strerror(errno));
            return 2;
        } else if (!o.outdir) {
            fprintf(stderr, "perfpred record: %s: not a directory\n", dir);
            return 2;
        }
    }
    int nsz = o.nsizes ? o.nsizes : 1;
    int nruns = o.repeat * nsz;
    char **paths = calloc((size_t)nruns, sizeof *paths);
    long *size_of = calloc((size_t)nruns, sizeof *size_of);
    if (!paths || !size_of) {
        free(paths);
        free(size_of);
        fprintf(stderr, "perfpred record: out of memory\n");
        return 1;
    }
    int rc = 0, done = 0;
    /* repeat r of every size before repeat r + 1 of any: the sizes
     * alternate, so that a drift of the host (another job starting, the
     * clock slowing down) reaches every size alike */
    for (int r = 0; rc == 0 && r < o.repeat; r++)
        for (int s = 0; rc == 0 && s < nsz; s++) {
            int k = r * nsz + s;
            char path[sizeof dir + 256 + 64], sz[40] = "";
            if (o.nsizes)
                snprintf(sz, sizeof sz, ".s%ld", o.sizes[s]);
            snprintf(path, sizeof path, "%s/%s%s.r%d%s", dir, base, sz, r + 1, mpi ? "" : ".ppr");
            paths[k] = strdup(path);
            size_of[k] = o.nsizes ? o.sizes[s] : 0;
            char **args = o.nsizes ? expand_args(&o, o.sizes[s]) : o.argv;
            if (!paths[k] || !args) {
                fprintf(stderr, "perfpred record: out of memory\n");
                rc = 1;
                break;
            }
            char what[160];
            if (o.nsizes)
                snprintf(what, sizeof what, "run %d of %d (size %ld, repeat %d)", k + 1, nruns, o.sizes[s], r + 1);
            else
                snprintf(what, sizeof what, "run %d of %d", k + 1, nruns);
            fprintf(stderr, "perfpred record: %s:", what);
            for (int i = 0; i < o.argc; i++) {
                fputc(' ', stderr);
                sh_word(stderr, args[i]);
            }
            fprintf(stderr, " -> %s\n", path);
            double t0 = now_s();
            int ex = clear_old(path, mpi, err, sizeof err) ? -1 : run_one(args, path, err, sizeof err);
            double t = now_s() - t0;
            if (ex < 0) {
                fprintf(stderr, "perfpred record: %s: %s\n", what, err);
                rc = 2;
            } else if (ex > 0) {
                if (ex > 128)
                    fprintf(stderr, "perfpred record: %s failed: killed by signal %d", what, ex - 128);
                else
                    fprintf(stderr, "perfpred record: %s failed: exit status %d", what, ex);
                fprintf(stderr, "%s\n", done ? "; the records before it are kept" : "");
                rc = 2;
            } else if (check_record(path, err, sizeof err)) {
                fprintf(stderr, "perfpred record: %s: %s\n", what, err);
                rc = 2;
            } else {
                fprintf(stderr, "perfpred record: %s: %.3f s\n", what, t);
                done++;
            }
            if (o.nsizes)
                free_args(args);
        }
    /* the analyser must take them all together: what predict will do */
    pp_cli c;
    memset(&c, 0, sizeof c);
    c.nrec = done;
    c.rec = paths;
    c.cache_rule = 1;
    c.cost_quantile = -1;
    c.model_error = -1;
    pp_session s;
    char names[400] = "";
    if (rc == 0 && pp_session_open(&s, &c, 0, err, sizeof err)) {
        fprintf(stderr, "perfpred record: the %d records do not make one model: %s\n", done, err);
        rc = 2;
    } else if (rc == 0) {
        const pp_prog *m = &s.prog;
        /* the model's records are an MPI run's ranks, run after run */
        long *rsize = calloc((size_t)m->nrec + 1, sizeof *rsize);
        char *seen = calloc((size_t)m->ngroups + 1, 1);
        int npoints = 0;
        for (int k = 0, run = 0, left = s.nruns ? s.runs[0].nranks : 1; rsize && k < m->nrec; k++) {
            rsize[k] = size_of[run];
            if (--left == 0 && ++run < done)
                left = s.nruns ? s.runs[run].nranks : 1;
        }
        for (int k = 0; seen && k < m->nrec; k++)
            if (!m->mpi || m->recs[k]->mpi_rank == 0) {
                npoints += !seen[m->rec_group[k]];
                seen[m->rec_group[k]] = 1;
            }
        if (o.nsizes && rsize)
            size_params(m, rsize, names, sizeof names);
        free(rsize);
        free(seen);
        printf("%d %s of %s", done, mpi ? (done == 1 ? "MPI run" : "MPI runs") : done == 1 ? "record" : "records",
               prog);
        if (o.nsizes)
            printf(", %d at each of %d sizes, alternated", o.repeat, nsz);
        printf(" (%d point%s: runs at the same size and P are repeats of one)\n", npoints,
               npoints == 1 ? "" : "s");
        for (int k = 0; k < done; k++)
            printf("  %s\n", paths[k]);
        if (o.nsizes && !names[0])
            fprintf(stderr, "perfpred record: warning: no parameter of the program takes the values of "
                            "--sizes: is " PP_REC_TOKEN " where the size goes? (perfpred show lists the "
                            "parameters)\n");
        long big = 0;
        for (int k = 0; k < nsz; k++)
            big = o.sizes[k] > big ? o.sizes[k] : big;
        printf("next: perfpred predict");
        for (int k = 0; k < done; k++) {
            putchar(' ');
            sh_word(stdout, paths[k]);
        }
        if (names[0]) {
            /* the first name, at 8x the largest size: an example */
            char first[128];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(names, ","), names);
            printf(" --set %s=%ld", first, 8 * big);
        } else
            printf(" --set NAME=VALUE");
        printf(" --P 1,2,4\n");
        if (!names[0]) {
            printf("  (NAME: ");
            for (int i = 0; i < m->nparams; i++)
                printf("%s%s", i ? ", " : "", m->params[i].name);
            printf("%s; perfpred show on them says what each is)\n", m->nparams ? "" : "the program has no parameter");
        }
        pp_session_close(&s);
    }
    for (int k = 0; k < nruns; k++)
        free(paths[k]);
    free(paths);
    free(size_of);
    return rc;
}
