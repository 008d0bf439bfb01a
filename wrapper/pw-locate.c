/* pw-locate.c - where perfpred-gcc finds the plugin and the runtime.
 *
 * Relative to the wrapper's own file (/proc/self/exe, so that a symlink
 * such as /usr/bin/perfpred-gcc -> /opt/perfpred/bin/perfpred-gcc still
 * finds /opt/perfpred/lib): in the build tree everything is in one
 * directory (build/perfpred-gcc, build/perfpred.so, build/libperfpred-rt.*);
 * installed, the wrapper is PREFIX/bin/perfpred-gcc, the plugin
 * PREFIX/lib/perfpred/perfpred.so and the runtime PREFIX/lib (the
 * Makefile's install target).  PERFPRED_PLUGIN and PERFPRED_RTLIB_DIR
 * override either.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pw.h"

static char *join(const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, rel);
    return s;
}

int pw_locate(struct pw_paths *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(err, errlen, "cannot find its own file (/proc/self/exe); set PERFPRED_PLUGIN "
                              "and PERFPRED_RTLIB_DIR");
        return -1;
    }
    self[n] = 0;
    p->self = strdup(self);
    char *slash = strrchr(self, '/');
    *slash = 0;
    const char *dir = self[0] ? self : "/";

    /* the build tree: the plugin next to the wrapper */
    char *here = join(dir, "perfpred.so");
    int build_tree = here && access(here, F_OK) == 0;

    const char *env = getenv("PERFPRED_PLUGIN");
    if (env && *env)
        p->plugin = strdup(env);
    else if (build_tree)
        p->plugin = strdup(here);
    else
        p->plugin = join(dir, "../lib/perfpred/perfpred.so");

    env = getenv("PERFPRED_RTLIB_DIR");
    if (env && *env)
        p->rtdir = strdup(env);
    else if (build_tree)
        p->rtdir = strdup(dir);
    else
        p->rtdir = join(dir, "../lib");
    free(here);

    /* tidy "bin/../lib" into "lib" so that the paths users see (and the
     * rpath of shared libraries) are plain */
    char buf[PATH_MAX];
    /* only the plugin's directory: gcc names the plugin after its file name
     * (-fplugin-arg-perfpred-...), which must stay perfpred.so */
    char *ps = p->plugin ? strrchr(p->plugin, '/') : NULL;
    if (ps && ps != p->plugin) {
        *ps = 0;
        char *tidy = realpath(p->plugin, buf) ? join(buf, ps + 1) : NULL;
        *ps = '/';
        if (tidy) {
            free(p->plugin);
            p->plugin = tidy;
        }
    }
    if (p->rtdir && realpath(p->rtdir, buf)) {
        free(p->rtdir);
        p->rtdir = strdup(buf);
    }
    if (!p->plugin || !p->rtdir || !p->self) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}
