/* pw.h - the compiler wrapper perfpred-gcc: what its three parts share.
 *
 * pw-args.c reads the command line the way gcc does (response files, the
 * options that take a separate argument, -x, the file suffixes) and says
 * what the command does; pw-locate.c finds the plugin and the runtime
 * relative to the wrapper; perfpred-gcc.c puts the command together and
 * runs the real compiler (docs/wrapper.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_PW_H
#define PERFPRED_PW_H

#include <stddef.h>

/* What a command does, as far as perfpred is concerned. */
enum pw_mode {
    PW_PASS,            /* nothing of ours: preprocess, queries, no input */
    PW_COMPILE,         /* -c or -S: the plugin only */
    PW_LINK             /* a link (maybe compiling sources first) */
};

enum pw_link {
    PW_LINK_EXE,        /* an executable: the static runtime, exported */
    PW_LINK_STATIC,     /* -static / -static-pie: the static runtime */
    PW_LINK_SHARED,     /* -shared: libperfpred-rt.so.1 when needed */
    PW_LINK_NONE        /* -r: a relocatable object, not a link */
};

struct pw_cmd {
    enum pw_mode mode;
    enum pw_link link;
    int sources;        /* inputs in C or C++ (the plugin's languages) */
    int inputs;         /* input files of any kind */
    int has_plugin;     /* the user already gives -fplugin=...perfpred... */
    int has_runtime;    /* the user already links libperfpred-rt */
    int x_open;         /* the last -x is not "none": files we append
                         * need a "-x none" before them */
    const char *why;    /* the reason for the mode, for --perfpred-verbose */
};

/* Classify argv[0..argc) (the user's arguments, without the program name
 * and without our own --perfpred-* options).  Response files (@FILE) are
 * read for the classification only; the command keeps them. */
void pw_classify(int argc, char *const argv[], struct pw_cmd *cmd);

/* Where the wrapper's companions are (malloc'd paths). */
struct pw_paths {
    char *plugin;       /* perfpred.so */
    char *rtdir;        /* directory of libperfpred-rt.a and .so.1 */
    char *self;         /* the wrapper itself (/proc/self/exe) */
};

/* Fill *p from PERFPRED_PLUGIN / PERFPRED_RTLIB_DIR or the wrapper's own
 * place: next to it (the build tree) or PREFIX/lib (installed).  Returns 0,
 * or -1 with a message in err. */
int pw_locate(struct pw_paths *p, char *err, size_t errlen);

#endif
