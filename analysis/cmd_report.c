/* cmd_report.c - `perfpred report RECORD... -o DIR`: one page on the
 * program, from the record(s) and a machine file, written into DIR as a
 * self-contained index.html, report.md, a CSV file per table and the
 * plots' SVG files with their gnuplot scripts (docs/report.md, "perfpred
 * report"; report.h describes the pieces).
 *
 * Everything is written into a temporary directory first (beside DIR when
 * DIR does not exist yet, else inside it) and moved into place at the end,
 * index.html last: a failure, a signal or --timeout leaves DIR as it was.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "predict-out.h"
#include "report.h"
#include "scale-out.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *usage =
    "usage: perfpred report RECORD... -o DIR [--machine FILE] [--set NAME=VALUE]... [--P P,...]\n"
    "                       [--scale NAME[,NAME...] [--scale-P P,...] [--max S]] [--Ea X] [--E X]\n"
    "                       [--with NAME=VALUE,...] [--title TEXT] [--graph-P P] [--sens-P P]\n"
    "                       [--draws K] [--timeout SECONDS]\n"
    "  Writes one page on the program into DIR: index.html (self-contained: style,\n"
    "  plots and thread graph inline, nothing fetched), report.md (the same in\n"
    "  Markdown, the figures as the SVG files beside it) and table-ID.csv for every\n"
    "  table.  Sections: summary; the program, problem and machine; T_MIRACLE,\n"
    "  T_PRAM, T_real with its 90% interval, L_a, L, E_a, E per P (MPI: the share\n"
    "  of the time per kind of call); plots of time, speedup and efficiency against\n"
    "  P (gnuplot); where the time goes (its shares plotted against P); with\n"
    "  --scale, the algorithmic (--Ea, default 0.7) and combination (--E, default\n"
    "  0.25) scalability tables and the latencies at fixed efficiency against the\n"
    "  problem size; the sensitivity to every machine parameter; the thread graph;\n"
    "  the model's count rules and fitted costs.\n"
    "  --P: default the recorded P and the powers of two up to 8 times it (at least\n"
    "  16).  --scale-P: the scale tables' P (default --P without 1); --max S: their\n"
    "  searches' largest size (as for scale).  --graph-P: the\n"
    "  thread graph's P (default 4, or the largest P when smaller).  --sens-P: the\n"
    "  sensitivity's P (default the largest).  --draws K: as for predict (0: no\n"
    "  intervals).  --timeout S: give up after S seconds (exit 2, DIR untouched).\n"
    "  --cache-rule on|off, --insitu on|off, --model-error E, --cost-quantile Q|mean:\n"
    "  the model, as for predict.\n";

/* ---- the files of the temporary directory ----------------------------- */

#define MAX_FILES 256
static char tmp_dir[PATH_MAX];
static char files[MAX_FILES][128];
static volatile sig_atomic_t nfiles;

void pp_rep_note_file(const char *name)
{
    for (int i = 0; i < nfiles; i++)
        if (!strcmp(files[i], name))
            return;
    if (nfiles < MAX_FILES && strlen(name) < sizeof files[0]) {
        strcpy(files[nfiles], name);
        nfiles = nfiles + 1;
    }
}

/* Async-signal-safe: unlink and rmdir only. */
static void remove_tmp(void)
{
    char p[PATH_MAX + 160];
    if (!tmp_dir[0])
        return;
    for (int i = 0; i < nfiles; i++) {
        size_t a = strlen(tmp_dir), b = strlen(files[i]);
        if (a + b + 2 > sizeof p)
            continue;
        memcpy(p, tmp_dir, a);
        p[a] = '/';
        memcpy(p + a + 1, files[i], b + 1);
        unlink(p);
    }
    rmdir(tmp_dir);
    tmp_dir[0] = 0;
}

static void on_signal(int sig)
{
    remove_tmp();
    signal(sig, SIG_DFL);
    raise(sig);
}

static char alarm_msg[1024];

static void on_alarm(int sig)
{
    (void)sig;
    remove_tmp();
    if (write(2, alarm_msg, strlen(alarm_msg)) < 0) {
        /* nothing more to do */
    }
    _exit(2);
}

/* The temporary directory for DIR; *fresh: DIR does not exist yet. */
static int make_tmp(const char *dir, int *fresh, char *err, size_t errlen)
{
    struct stat sb;
    char t[PATH_MAX];
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) {
            snprintf(err, errlen, "%s: not a directory", dir);
            return -1;
        }
        *fresh = 0;
        snprintf(t, sizeof t, "%s/.perfpred-report-XXXXXX", dir);
    } else {
        *fresh = 1;
        char *d = strdup(dir);
        if (!d)
            return -1;
        size_t n = strlen(d);
        while (n > 1 && d[n - 1] == '/')
            d[--n] = 0;
        char *slash = strrchr(d, '/');
        if (slash == d)
            snprintf(t, sizeof t, "/.%s.tmp-XXXXXX", d + 1);
        else if (slash) {
            *slash = 0;
            snprintf(t, sizeof t, "%s/.%s.tmp-XXXXXX", d, slash + 1);
        } else
            snprintf(t, sizeof t, ".%s.tmp-XXXXXX", d);
        free(d);
    }
    if (!mkdtemp(t)) {
        snprintf(err, errlen, "%s: cannot create the output directory: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(tmp_dir, sizeof tmp_dir, "%s", t);
    /* mkdtemp makes it 0700: DIR gets the mode mkdir would give it */
    mode_t um = umask(0);
    umask(um);
    if (*fresh)
        chmod(tmp_dir, 0777 & ~um);
    return 0;
}

static int is_report_file(const char *n)
{
    size_t k = strlen(n);
    int svg = k > 4 && !strcmp(n + k - 4, ".svg"), gp = k > 3 && !strcmp(n + k - 3, ".gp");
    int csv = k > 4 && !strcmp(n + k - 4, ".csv");
    return (!strncmp(n, "plot-", 5) && (svg || gp)) || (!strncmp(n, "table-", 6) && csv) ||
           !strcmp(n, "thread-graph.svg");
}

/* Move the files into DIR, index.html last; a report's files of an earlier
 * run that this one did not write are removed. */
static int commit(const char *dir, int fresh, char *err, size_t errlen)
{
    if (fresh) {
        if (rename(tmp_dir, dir) == 0) {
            tmp_dir[0] = 0;
            return 0;
        }
        if (errno != EEXIST && errno != ENOTEMPTY) {
            snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
            return -1;
        }
    }
    char a[PATH_MAX + 160], b[PATH_MAX + 160];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nfiles; i++) {
            int idx = !strcmp(files[i], "index.html");
            if (idx != pass)
                continue;
            snprintf(a, sizeof a, "%.4000s/%.127s", tmp_dir, files[i]);
            snprintf(b, sizeof b, "%.4000s/%.127s", dir, files[i]);
            if (access(a, F_OK) != 0)
                continue;
            if (rename(a, b) != 0) {
                snprintf(err, errlen, "%.1500s: cannot write: %s", b, strerror(errno));
                return -1;
            }
        }
    /* stale files of an earlier report (a plot this run did not draw) */
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (!is_report_file(e->d_name))
            continue;
        int ours = 0;
        for (int i = 0; i < nfiles && !ours; i++)
            ours = !strcmp(files[i], e->d_name);
        if (!ours) {
            snprintf(b, sizeof b, "%.4000s/%.127s", dir, e->d_name);
            unlink(b);
        }
    }
    if (dd)
        closedir(dd);
    rmdir(tmp_dir);
    tmp_dir[0] = 0;
    return 0;
}

/* ---- options only report takes ----------------------------------------- */

typedef struct {
    const char *title;
    int graph_P, sens_P, timeout;
    int nsP, *sP;
} rep_opts;

static int parse_int(const char *opt, const char *v, int lo, int hi, int *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi) {
        snprintf(err, errlen, "%s: '%s' is not a whole number from %d to %d", opt, v, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int parse_list(const char *v, int **out, int *n, char *err, size_t errlen)
{
    free(*out);
    *out = NULL;
    *n = 0;
    for (const char *p = v; *p;) {
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || errno || x < 1 || x > 1000000 || (*end && *end != ',')) {
            snprintf(err, errlen, "--scale-P: '%s' is not a list of processor counts (1..1000000) like 2,4,8", v);
            return -1;
        }
        int *np = realloc(*out, sizeof *np * (size_t)(*n + 1));
        if (!np)
            return -1;
        *out = np;
        (*out)[(*n)++] = (int)x;
        p = *end ? end + 1 : end;
    }
    if (!*n) {
        snprintf(err, errlen, "--scale-P needs at least one processor count");
        return -1;
    }
    return 0;
}

/* Takes report's own options out of argv (into o); the rest stays for
 * pp_cli_parse.  Returns the new argc, or -1 with a message. */
static int own_options(int argc, char **argv, char **rest, rep_opts *o, char *err, size_t errlen)
{
    static const char *names[] = {"title", "graph-P", "sens-P", "scale-P", "timeout"};
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int k = -1;
        const char *val = NULL;
        if (i > 0 && a[0] == '-' && a[1] == '-')
            for (int j = 0; j < 5 && k < 0; j++) {
                size_t l = strlen(names[j]);
                if (!strncmp(a + 2, names[j], l) && (a[2 + l] == 0 || a[2 + l] == '=')) {
                    k = j;
                    val = a[2 + l] == '=' ? a + 3 + l : NULL;
                }
            }
        if (k < 0) {
            rest[n++] = argv[i];
            continue;
        }
        if (!val) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "option '%s' needs a value", a);
                return -1;
            }
            val = argv[++i];
        }
        int rc = 0;
        switch (k) {
        case 0: o->title = val; break;
        case 1: rc = parse_int("--graph-P", val, 1, 4096, &o->graph_P, err, errlen); break;
        case 2: rc = parse_int("--sens-P", val, 1, 1000000, &o->sens_P, err, errlen); break;
        case 3: rc = parse_list(val, &o->sP, &o->nsP, err, errlen); break;
        case 4: rc = parse_int("--timeout", val, 1, 7 * 86400, &o->timeout, err, errlen); break;
        }
        if (rc)
            return -1;
    }
    rest[n] = NULL;
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The recorded P and the powers of two up to 8 times it (at least 16). */
static int default_P(const pp_prog *m, const pp_vals *pv, int *P)
{
    int rec = pp_prog_default_P(m, pv), n = 0, top = 8 * rec > 16 ? 8 * rec : 16, has = 0;
    for (int p = 1; p <= top && n < 62; p *= 2) {
        P[n++] = p;
        has |= p == rec;
    }
    if (!has)
        P[n++] = rec;
    qsort(P, (size_t)n, sizeof *P, cmp_int);
    return n;
}

/* STEM.txt, STEM.csv and STEM.json into tmp_dir, each written by
 * write(u, path, format): 0, or -1 with x->err. */
typedef int (*rep_writer)(void *u, const char *path, pp_format fmt, char *err, size_t errlen);
static int three_files(pp_rep_ctx *x, const char *stem, const char *what, rep_writer write, void *u)
{
    static const char *ext[3] = {"txt", "csv", "json"};
    static const pp_format fmt[3] = {PP_FMT_TEXT, PP_FMT_CSV, PP_FMT_JSON};
    char err[4200];
    for (int k = 0; k < 3; k++) {
        char name[64], path[PATH_MAX + 64];
        snprintf(name, sizeof name, "%s.%s", stem, ext[k]);
        snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
        pp_rep_note_file(name);
        if (write(u, path, fmt[k], err, sizeof err)) {
            snprintf(x->err, sizeof x->err, "%.1000s: %s: %.2900s", x->s->rec.path, what, err);
            x->rc = 2;
            return -1;
        }
    }
    return 0;
}

struct scale_files {
    pp_rep_ctx *x;
    pp_scale_times times[2];
};

static int scale_file(void *u, const char *path, pp_format fmt, char *err, size_t errlen)
{
    struct scale_files *f = u;
    return pp_scale_out_file(path, fmt, f->x->c, f->x->s, f->x->tab, f->times, f->x->ntab, err, errlen);
}

/* The scalability tables as `perfpred scale --draws 0` writes them
 * (scale-out.h): scale.txt, scale.csv and scale.json, with T_real at the
 * sizes found (without its interval: the predictions have theirs). */
static int write_scale(pp_rep_ctx *x)
{
    struct scale_files f = {.x = x};
    char err[4200];
    int rc = 0;
    for (int i = 0; rc == 0 && i < x->ntab; i++)
        rc = pp_scale_times_at(&x->s->prog, &x->s->mach, &x->tab[i], &x->s->vals, 0, &f.times[i], err, sizeof err);
    if (rc) {
        snprintf(x->err, sizeof x->err, "%.1000s: the tables' times: %.2900s", x->s->rec.path, err);
        x->rc = 2;
    } else
        rc = three_files(x, "scale", "the tables' files", scale_file, &f);
    for (int i = 0; i < 2; i++)
        pp_scale_times_free(&f.times[i]);
    return rc;
}

struct predict_files {
    pp_pout o;
    pp_pout_point *pts;
};

static int predict_file(void *u, const char *path, pp_format fmt, char *err, size_t errlen)
{
    struct predict_files *f = u;
    return pp_pout_file(&f->o, path, fmt, f->pts, err, errlen);
}

/* The predictions as `perfpred predict` writes them (predict-out.h):
 * predict.txt, predict.csv and predict.json. */
static int write_predictions(pp_rep_ctx *x)
{
    struct predict_files f;
    pp_pout_init(&f.o, x->c, x->s, x->nP);
    f.pts = calloc((size_t)x->nP + 1, sizeof *f.pts);
    char err[4200] = "out of memory";
    int rc = f.pts ? 0 : -1;
    for (int i = 0; rc == 0 && i < x->nP; i++) {
        pp_pout_point *p = &f.pts[i];
        p->P = x->P[i];
        p->mt = x->pred[i].mt;
        p->iv = x->pred[i].iv;
        p->ilo = x->pred[i].has_iv ? x->pred[i].iv.lo : 1;
        p->ihi = x->pred[i].has_iv ? x->pred[i].iv.hi : 0;
        /* --with: T_real without the change, as predict gives it */
        if (x->s->has_with && pp_session_baseline_real(x->s, x->P[i], &p->tbase, err, sizeof err))
            rc = -1;
    }
    if (rc) {
        snprintf(x->err, sizeof x->err, "%.1000s: the predictions' files: %.2900s", x->s->rec.path, err);
        x->rc = 2;
    } else
        rc = three_files(x, "predict", "the predictions' files", predict_file, &f);
    free(f.pts);
    return rc;
}

static int build(pp_rep_ctx *x)
{
    int (*steps[])(pp_rep_ctx *) = {pp_rep_sec_summary, pp_rep_sec_problem, pp_rep_sec_predictions,
                                    pp_rep_sec_plots, pp_rep_sec_breakdown, pp_rep_sec_scale,
                                    pp_rep_sec_sensitivity, pp_rep_sec_graph, pp_rep_sec_equations,
                                    pp_rep_sec_quality};
    /* docs/machine-format.md, "Busy host": the page's first box (stderr
     * has had it from pp_cli_open) */
    if (x->s->have_machine && pp_machine_marked(&x->s->mach)) {
        char line[2048];
        pp_machine_busy_line(&x->s->mach, x->c->machine, line, sizeof line);
        pp_rep_warn(x->doc, "**The machine file was measured on a busy host.** %s.", line);
    }
    if (pp_rep_predict_all(x) || write_predictions(x) ||
        (x->c->nscale && (pp_rep_scale_compute(x) || write_scale(x))))
        return -1;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i](x))
            return -1;
    return 0;
}

/* The tables' CSV files, report.md, then index.html, into tmp_dir. */
static int write_all(const pp_rep_doc *doc, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    if (pp_rep_write_csv(doc, tmp_dir, err, errlen))
        return -1;
    snprintf(path, sizeof path, "%s/report.md", tmp_dir);
    if (pp_rep_write_md(doc, path, err, errlen))
        return -1;
    snprintf(path, sizeof path, "%s/index.html", tmp_dir);
    return pp_rep_write_html(doc, tmp_dir, path, err, errlen);
}

static int run(pp_cli *c, rep_opts *o)
{
    char err[2048];
    if (pp_rep_gnuplot_check(err, sizeof err)) {
        fprintf(stderr, "perfpred report: %s\n", err);
        pp_cli_free(c);
        return 2;
    }
    pp_session s;
    int st = pp_cli_open("report", c, 1, &s);
    if (st >= 0)
        return st;   /* the cli is freed */
    pp_prog *m = &s.prog;
    int Pdef[64];
    pp_rep_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.s = &s;
    x.draws = c->has_draws ? c->draws : PP_DRAWS_AUTO;
    if (c->nP) {
        /* sorted, each once: the plots draw lines through them in order */
        qsort(c->P, (size_t)c->nP, sizeof *c->P, cmp_int);
        for (int i = 0; i < c->nP; i++)
            if (!x.nP || c->P[i] != c->P[x.nP - 1])
                c->P[x.nP++] = c->P[i];
        x.P = c->P;
    } else {
        x.nP = default_P(m, &s.vals, Pdef);
        x.P = Pdef;
    }
    int pmax = x.P[0];
    for (int i = 0; i < x.nP; i++)
        pmax = x.P[i] > pmax ? x.P[i] : pmax;
    x.graph_P = o->graph_P ? o->graph_P : pmax < 4 ? pmax : 4;
    x.sens_P = o->sens_P ? o->sens_P : pmax;
    int *sP = malloc(sizeof *sP * (size_t)(x.nP + 1));
    x.pred = calloc((size_t)x.nP, sizeof *x.pred);
    if (!sP || !x.pred) {
        free(sP);
        free(x.pred);
        pp_session_close(&s);
        pp_cli_free(c);
        fprintf(stderr, "perfpred report: out of memory\n");
        return 1;
    }
    if (o->nsP) {
        qsort(o->sP, (size_t)o->nsP, sizeof *o->sP, cmp_int);
        for (int i = 0; i < o->nsP; i++)
            if (!x.nsP || o->sP[i] != o->sP[x.nsP - 1])
                o->sP[x.nsP++] = o->sP[i];
        x.sP = o->sP;
    } else {
        for (int i = 0; i < x.nP; i++)
            if (x.P[i] > 1)
                sP[x.nsP++] = x.P[i];
        x.sP = sP;
    }
    int fresh = 0, rc = 0;
    if (c->nscale && !x.nsP) {
        fprintf(stderr, "perfpred report: --scale: no P above 1 to make the tables for (give --scale-P)\n");
        rc = 2;
    } else if (make_tmp(c->out, &fresh, err, sizeof err)) {
        fprintf(stderr, "perfpred report: %s\n", err);
        rc = 2;
    }
    pp_rep_doc doc;
    char title[512];
    const char *prog = s.rec.program ? s.rec.program : "program";
    snprintf(title, sizeof title, "%s", o->title ? o->title : "");
    if (!o->title)
        snprintf(title, sizeof title, "perfpred report: %s", strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog);
    pp_rep_doc_init(&doc, title);
    char sub[1024] = "", args[512] = "";
    for (int i = 0; i < s.rec.argc; i++)
        snprintf(args + strlen(args), sizeof args - strlen(args), "%s%s", i ? " " : "", s.rec.argv[i]);
    snprintf(sub, sizeof sub, "From the record%s `%.300s`%s (`%.300s`), predicted on %s%.300s%s by perfpred 0.1.",
             c->nrec > 1 ? "s" : "", c->rec[0], c->nrec > 1 ? " and others" : "", args, c->machine ? "`" : "",
             c->machine ? c->machine : "the built-in default machine", c->machine ? "`" : "");
    doc.subtitle = strdup(sub);
    x.doc = &doc;
    x.dir = tmp_dir;
    if (rc == 0) {
        if (build(&x)) {
            fprintf(stderr, "perfpred report: %s\n", x.err);
            rc = x.rc ? x.rc : 2;
        } else if (write_all(&doc, err, sizeof err) || commit(c->out, fresh, err, sizeof err)) {
            fprintf(stderr, "perfpred report: %s\n", err);
            rc = 2;
        } else
            pp_rep_progress("wrote %s/index.html", c->out);
    }
    remove_tmp();
    for (int i = 0; i < x.ntab; i++)
        pp_scale_free(&x.tab[i]);
    pp_rep_doc_free(&doc);
    free(sP);
    free(x.pred);
    pp_session_close(&s);
    pp_cli_free(c);
    return rc;
}

int pp_cmd_report(int argc, char **argv)
{
    char err[1024];
    rep_opts o;
    memset(&o, 0, sizeof o);
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return 1;
    int n = own_options(argc, argv, rest, &o, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "perfpred report: %s\n%s", err, usage);
        free(rest);
        free(o.sP);
        return 2;
    }
    pp_cli c;
    int st = pp_cli_start(n, rest, "report",
                          "set,machine,P,scale,Ea,E,with,o,draws,cache-rule,insitu,model-error,cost-quantile,max", usage,
                          &c);
    if (st < 0 && !c.out) {
        fprintf(stderr, "perfpred report: -o DIR is required (the directory to write the page into)\n%s", usage);
        pp_cli_free(&c);
        st = 2;
    }
    if (st >= 0) {
        free(rest);
        free(o.sP);
        return st;
    }
    if (c.nscale && !c.has_Ea && !c.has_E) {
        c.has_Ea = c.has_E = 1;
        c.Ea = 0.7;
        c.E = 0.25;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    if (o.timeout) {
        snprintf(alarm_msg, sizeof alarm_msg, "perfpred report: %.400s: gave up after %d s (--timeout): %.400s "
                 "left as it was\n", c.nrec ? c.rec[0] : "?", o.timeout, c.out);
        signal(SIGALRM, on_alarm);
        alarm((unsigned)o.timeout);
    }
    st = run(&c, &o);
    alarm(0);
    free(rest);
    free(o.sP);
    return st;
}
