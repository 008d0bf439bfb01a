/* pw-args.c - what a gcc command line does: preprocess, query, compile or
 * link, and what kind of link.
 *
 * gcc's own rules, as far as they matter here: options that take their
 * argument as the next word (-o FILE, -I DIR, -x LANG, -MF FILE, ...), the
 * language of an input from -x or from its suffix, response files (@FILE,
 * read with gcc's quoting: '...', "...", backslash), and the options that
 * stop gcc before it compiles (-E, -M, -MM, -fsyntax-only) or that make it
 * print something and exit (--version, -dumpversion, -print-*, --help).
 * Everything we do not understand is somebody else's option and is left
 * alone: the wrapper only ever adds arguments.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pw.h"

/* Options whose argument is the next word when not joined (gcc's option
 * table, the ones a build system passes in practice). */
static const char *const sep_arg[] = {
    "-o", "-x", "-I", "-L", "-l", "-D", "-U", "-A", "-B", "-T", "-u", "-e",
    "-J", "-MF", "-MT", "-MQ", "-include", "-imacros", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isystem",
    "-isysroot", "-iquote", "-imultilib", "-imultiarch", "-Xlinker",
    "-Xassembler", "-Xpreprocessor", "-aux-info", "--param", "-dumpbase",
    "-dumpbase-ext", "-dumpdir", "-wrapper", "-z", "--sysroot", "-G",
    "--output", "--include", "--language", NULL,
};

/* Options that make gcc print something and stop. */
static int is_query(const char *a)
{
    static const char *const exact[] = {
        "--version", "-dumpversion", "-dumpfullversion", "-dumpmachine",
        "-dumpspecs", "--target-help", "-print-search-dirs",
        "-print-libgcc-file-name", "-print-multi-directory",
        "-print-multi-lib", "-print-multi-os-directory",
        "-print-multiarch", "-print-sysroot",
        "-print-sysroot-headers-suffix", NULL,
    };
    for (int i = 0; exact[i]; i++)
        if (!strcmp(a, exact[i]))
            return 1;
    return !strncmp(a, "--help", 6) || !strncmp(a, "-print-file-name=", 17) ||
           !strncmp(a, "-print-prog-name=", 17) || !strncmp(a, "--print-", 8);
}

enum lang { L_AUTO, L_SOURCE, L_OTHER_COMPILED, L_LINKER };

/* The language gcc gives a file: by -x, else by suffix (gcc's table). */
static enum lang lang_of(const char *file, const char *xlang)
{
    if (xlang) {
        static const char *const src[] = {"c", "c++", "cpp-output", "c++-cpp-output", NULL};
        for (int i = 0; src[i]; i++)
            if (!strcmp(xlang, src[i]))
                return L_SOURCE;
        return L_OTHER_COMPILED;    /* assembler, headers, fortran, ... */
    }
    const char *dot = strrchr(file, '.');
    const char *slash = strrchr(file, '/');
    if (!dot || (slash && dot < slash))
        return L_LINKER;
    static const char *const src[] = {"c", "i", "cc", "cp", "cxx", "cpp", "CPP",
                                      "c++", "C", "ii", NULL};
    static const char *const other[] = {
        "s", "S", "sx", "h", "hh", "H", "hp", "hxx", "hpp", "HPP", "h++", "tcc",
        "m", "mi", "mm", "M", "mii", "f", "for", "ftn", "F", "FOR", "FTN", "fpp",
        "FPP", "f90", "f95", "f03", "f08", "F90", "F95", "F03", "F08", "go",
        "d", "di", "dd", "ads", "adb", "rs", "m2", "mod", NULL,
    };
    for (int i = 0; src[i]; i++)
        if (!strcmp(dot + 1, src[i]))
            return L_SOURCE;
    for (int i = 0; other[i]; i++)
        if (!strcmp(dot + 1, other[i]))
            return L_OTHER_COMPILED;
    return L_LINKER;                /* .o, .a, .so, .so.1, a linker script */
}

static int base_is(const char *path, const char *prefix)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return !strncmp(b, prefix, strlen(prefix));
}

/* ------------------------------------------------------------ @FILE */

struct words {
    char **v;
    int n, cap;
};

static void push(struct words *w, char *s)
{
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 64;
        char **v = realloc(w->v, (size_t)cap * sizeof *v);
        if (!v) {
            free(s);            /* out of memory: classify what we have */
            return;
        }
        w->v = v;
        w->cap = cap;
    }
    w->v[w->n++] = s;
}

/* Split a response file's text into words as libiberty's buildargv does. */
static void split_words(const char *t, struct words *out)
{
    size_t len = strlen(t);
    char *buf = malloc(len + 1);
    if (!buf)
        return;
    const char *p = t;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (!*p)
            break;
        size_t k = 0;
        char q = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) {
                buf[k++] = *++p;
            } else if (q) {
                if (*p == q)
                    q = 0;
                else
                    buf[k++] = *p;
            } else if (*p == '\'' || *p == '"') {
                q = *p;
            } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' ||
                       *p == '\v') {
                break;
            } else {
                buf[k++] = *p;
            }
        }
        buf[k] = 0;
        char *s = strdup(buf);
        if (s)
            push(out, s);
    }
    free(buf);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        size_t r = fread(s + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            } else {
                s = t;
            }
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

/* argv with every readable @FILE replaced by its words (gcc keeps an
 * unreadable @FILE as a file name, so do we). */
static void expand(int argc, char *const argv[], struct words *out, int depth)
{
    for (int i = 0; i < argc; i++) {
        char *text = (argv[i][0] == '@' && depth < 10) ? slurp(argv[i] + 1) : NULL;
        if (!text) {
            char *s = strdup(argv[i]);
            if (s)
                push(out, s);
            continue;
        }
        struct words w = {0};
        split_words(text, &w);
        free(text);
        expand(w.n, w.v, out, depth + 1);
        for (int k = 0; k < w.n; k++)
            free(w.v[k]);
        free(w.v);
    }
}

/* ------------------------------------------------------------ classify */

void pw_classify(int argc, char *const argv[], struct pw_cmd *cmd)
{
    struct words w = {0};
    expand(argc, argv, &w, 0);

    int c = 0, S = 0, E = 0, M = 0, syntax = 0, query = 0;
    int shared = 0, reloc = 0, stat = 0;
    const char *xlang = NULL;
    memset(cmd, 0, sizeof *cmd);

    for (int i = 0; i < w.n; i++) {
        const char *a = w.v[i];
        if (a[0] != '-' || !a[1]) {         /* a file, or "-" (stdin) */
            cmd->inputs++;
            enum lang l = lang_of(a, xlang);
            if (l == L_SOURCE)
                cmd->sources++;
            if (l == L_LINKER && (base_is(a, "libperfpred-rt.")))
                cmd->has_runtime = 1;
            continue;
        }
        if (!strncmp(a, "-x", 2)) {
            const char *l = a[2] ? a + 2 : (i + 1 < w.n ? w.v[++i] : "none");
            xlang = strcmp(l, "none") ? l : NULL;
            continue;
        }
        int skip = 0;
        for (int k = 0; sep_arg[k]; k++)
            if (!strcmp(a, sep_arg[k]))
                skip = 1;
        if (skip) {
            const char *arg = i + 1 < w.n ? w.v[i + 1] : "";
            if (!strcmp(a, "-l") && (!strncmp(arg, "perfpred-rt", 11) ||
                                     !strncmp(arg, ":libperfpred-rt.", 16)))
                cmd->has_runtime = 1;
            if (!strcmp(a, "-Xlinker") && !strcmp(arg, "-r"))
                reloc = 1;
            i++;
            continue;
        }
        if (!strcmp(a, "-c"))
            c = 1;
        else if (!strcmp(a, "-S"))
            S = 1;
        else if (!strcmp(a, "-E"))
            E = 1;
        else if (!strcmp(a, "-M") || !strcmp(a, "-MM"))
            M = 1;
        else if (!strcmp(a, "-fsyntax-only"))
            syntax = 1;
        else if (is_query(a))
            query = 1;
        else if (!strcmp(a, "-shared"))
            shared = 1;
        else if (!strcmp(a, "-r") || !strcmp(a, "-Wl,-r") || !strcmp(a, "-Wl,--relocatable"))
            reloc = 1;
        else if (!strcmp(a, "-static") || !strcmp(a, "-static-pie"))
            stat = 1;
        else if (!strncmp(a, "-fplugin=", 9) &&
                 (base_is(a + 9, "perfpred.so") || !strcmp(a + 9, "perfpred")))
            cmd->has_plugin = 1;
        else if (!strncmp(a, "-lperfpred-rt", 13) || !strncmp(a, "-l:libperfpred-rt.", 18))
            cmd->has_runtime = 1;
    }
    cmd->x_open = xlang != NULL;

    if (query) {
        cmd->mode = PW_PASS;
        cmd->why = "an information query";
    } else if (E || M) {
        cmd->mode = PW_PASS;
        cmd->why = "preprocessing only";
    } else if (syntax) {
        cmd->mode = PW_PASS;
        cmd->why = "-fsyntax-only";
    } else if (!cmd->inputs) {
        cmd->mode = PW_PASS;
        cmd->why = "no input file";
    } else if (c || S) {
        cmd->mode = PW_COMPILE;
        cmd->why = cmd->sources ? "compiling" : "compiling no C or C++ source";
    } else {
        cmd->mode = PW_LINK;
        cmd->why = "linking";
    }
    /* -nostdlib and the like still get the runtime: libtool links C++
     * shared libraries with -nostdlib and the C++ libraries named; an
     * archive member or an --as-needed library is used only by
     * instrumented code anyway */
    if (reloc)
        cmd->link = PW_LINK_NONE;
    else if (shared)
        cmd->link = PW_LINK_SHARED;
    else if (stat)
        cmd->link = PW_LINK_STATIC;
    else
        cmd->link = PW_LINK_EXE;

    for (int i = 0; i < w.n; i++)
        free(w.v[i]);
    free(w.v);
}
