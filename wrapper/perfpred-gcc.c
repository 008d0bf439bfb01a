/* perfpred-gcc.c - the compiler wrapper: `CC=perfpred-gcc ./configure &&
 * make` builds a whole code base with the perfpred plugin and runtime.
 *
 * It runs the real compiler (gcc, or $PERFPRED_CC; g++ or $PERFPRED_CXX
 * when called as perfpred-g++) with the user's arguments unchanged, adding
 *   - -fplugin=perfpred.so in front when C or C++ sources are compiled,
 *   - the runtime at the end of a link: an executable links the static
 *     libperfpred-rt.a and exports its entry points (--dynamic-list; so
 *     that instrumented
 *     shared libraries in the same process use the executable's runtime,
 *     one record per process); a shared library links libperfpred-rt.so.1
 *     when it needs it (--as-needed, with an rpath), so that it also works
 *     under an executable that has no runtime.
 * Preprocessing, queries (--version, -print-*, ...) and commands without
 * input pass through untouched, so configure sees plain gcc.  The design,
 * and why, is in docs/wrapper.md.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pw.h"

struct argv_b {
    char **v;
    int n, cap;
};

static const char *prog = "perfpred-gcc";
/* the command and the paths live until exec (file scope: nothing to free) */
static struct argv_b cmdline;
static struct pw_paths paths;
static char **user;

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void add(struct argv_b *b, const char *s)
{
    if (b->n + 2 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = realloc(b->v, (size_t)b->cap * sizeof *b->v);
        if (!b->v)
            die("out of memory");
    }
    b->v[b->n] = strdup(s);
    if (!b->v[b->n])
        die("out of memory");
    b->v[++b->n] = NULL;
}

static void addf(struct argv_b *b, const char *a, const char *c)
{
    size_t n = strlen(a) + strlen(c) + 1;
    char *s = malloc(n);
    if (!s)
        die("out of memory");
    snprintf(s, n, "%s%s", a, c);
    add(b, s);
    free(s);
}

/* The real compiler: $PERFPRED_CC split at blanks ("ccache gcc" works). */
static const char *compiler_var(int cxx)
{
    return cxx ? "PERFPRED_CXX" : "PERFPRED_CC";
}

static const char *compiler(int cxx)
{
    const char *cc = getenv(compiler_var(cxx));
    return cc && *cc ? cc : cxx ? "g++" : "gcc";
}

static void add_compiler(struct argv_b *b, int cxx)
{
    char *copy = strdup(compiler(cxx));
    if (!copy)
        die("out of memory");
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        add(b, w);
    free(copy);
    if (!b->n)
        die("%s is blank", compiler_var(cxx));
}

/* The command as a shell would read it (for --perfpred-verbose). */
static void print_cmd(FILE *f, char *const *v)
{
    fprintf(f, "%s:", prog);
    for (; *v; v++) {
        const char *s = *v;
        int plain = *s != 0;
        for (const char *p = s; *p; p++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+/.,:@%", *p))
                plain = 0;
        if (plain) {
            fprintf(f, " %s", s);
            continue;
        }
        fputs(" '", f);
        for (const char *p = s; *p; p++)
            if (*p == '\'')
                fputs("'\\''", f);
            else
                fputc(*p, f);
        fputc('\'', f);
    }
    fputc('\n', f);
}

static void usage(void)
{
    printf("usage: %s [--perfpred-verbose] [--perfpred-dry-run] GCC-ARGUMENTS...\n"
           "gcc (g++ as perfpred-g++) with the perfpred plugin when compiling C or C++ and\n"
           "the perfpred runtime when linking; everything else passes through\n"
           "(docs/wrapper.md, perfpred-gcc(1)).\n"
           "  --perfpred-verbose   print the command run on stderr (also PERFPRED_VERBOSE=1)\n"
           "  --perfpred-dry-run   print it and run nothing\n"
           "  --perfpred-help      this text\n"
           "environment: PERFPRED_CC (gcc), PERFPRED_CXX (g++, for perfpred-g++),\n"
           "  PERFPRED_WRAP_DISABLE=1 (add nothing), PERFPRED_PLUGIN=FILE, PERFPRED_RTLIB_DIR=DIR\n",
           prog);
}

static void need_file(const char *path, const char *what, const char *hint)
{
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "%s: %s is missing: %s: %s (%s)\n", prog, what, path, strerror(errno),
                hint);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (*base)
        prog = base;
    int cxx = strstr(base, "g++") || strstr(base, "c++");

    /* our own options, which the compiler must not see */
    int verbose = env_on("PERFPRED_VERBOSE"), dry = 0;
    user = malloc((size_t)(argc + 1) * sizeof *user);
    int nuser = 0;
    if (!user)
        die("out of memory");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--perfpred-verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--perfpred-dry-run"))
            dry = verbose = 1;
        else if (!strcmp(argv[i], "--perfpred-help")) {
            usage();
            return 0;
        }
        else
            user[nuser++] = argv[i];
    }
    user[nuser] = NULL;

    /* PERFPRED_CC=mpicc with OMPI_CC=perfpred-gcc would run us forever */
    if (getenv("PERFPRED_GCC_ACTIVE"))
        die("the compiler it runs (%s) runs %s again; set %s to the real compiler", compiler(cxx),
            prog, compiler_var(cxx));

    struct argv_b *b = &cmdline;
    add_compiler(b, cxx);

    struct pw_cmd cmd;
    pw_classify(nuser, user, &cmd);
    if (env_on("PERFPRED_WRAP_DISABLE")) {
        cmd.mode = PW_PASS;
        cmd.why = "PERFPRED_WRAP_DISABLE is set";
    }
    int want_plugin = cmd.mode != PW_PASS && cmd.sources && !cmd.has_plugin;
    int want_rt = cmd.mode == PW_LINK && cmd.link != PW_LINK_NONE && !cmd.has_runtime;

    if (want_plugin || want_rt) {
        char err[512];
        if (pw_locate(&paths, err, sizeof err) != 0)
            die("%s", err);
    }
    if (want_plugin) {
        need_file(paths.plugin, "the perfpred plugin",
                  "build perfpred with make, install it with make install, or set PERFPRED_PLUGIN");
        addf(b, "-fplugin=", paths.plugin);
    }
    for (int i = 0; i < nuser; i++)
        add(b, user[i]);
    if (want_rt) {
        const char *file = cmd.link == PW_LINK_SHARED ? "libperfpred-rt.so.1" : "libperfpred-rt.a";
        size_t n = strlen(paths.rtdir) + strlen(file) + 2;
        char *lib = malloc(n + 16);     /* also for libperfpred-rt.dynlist */
        if (!lib)
            die("out of memory");
        snprintf(lib, n, "%s/%s", paths.rtdir, file);
        need_file(lib, "the perfpred runtime",
                  "build perfpred with make, install it with make install, or set PERFPRED_RTLIB_DIR");
        if (cmd.x_open) {               /* our files are not in the user's -x language */
            add(b, "-x");
            add(b, "none");
        }
        if (cmd.link == PW_LINK_SHARED) {
            /* DT_NEEDED only when the library has instrumented code; a
             * plain -Bdynamic in case the user's line ends in -Bstatic */
            add(b, "-Wl,--push-state,--as-needed,-Bdynamic");
            add(b, lib);
            add(b, "-Wl,--pop-state");
            addf(b, "-Wl,-rpath,", paths.rtdir);
        } else {
            add(b, lib);
            /* instrumented shared libraries bind to this runtime: its entry
             * points go to the dynamic symbol table */
            if (cmd.link == PW_LINK_EXE) {
                snprintf(lib, n + 16, "%s/libperfpred-rt.dynlist", paths.rtdir);
                need_file(lib, "the perfpred runtime's dynamic list",
                          "build perfpred with make, install it with make install, or set "
                          "PERFPRED_RTLIB_DIR");
                addf(b, "-Wl,--dynamic-list=", lib);
            }
        }
        add(b, "-pthread");
        free(lib);
    }

    if (verbose) {
        fprintf(stderr, "%s: %s\n", prog, cmd.why);
        print_cmd(stderr, b->v);
    }
    if (dry)
        return 0;
    setenv("PERFPRED_GCC_ACTIVE", "1", 1);
    execvp(b->v[0], b->v);
    fprintf(stderr, "%s: cannot run the compiler '%s': %s\n", prog, b->v[0], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
