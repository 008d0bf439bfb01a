/* plot.c - see plot.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "plot.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *pp_gnuplot_prog(void)
{
    const char *g = getenv("PERFPRED_GNUPLOT");
    return g && *g ? g : "gnuplot";
}

void pp_plot_names(const char *svg, char *dir, size_t dn, char *base, size_t bn)
{
    const char *sl = strrchr(svg, '/');
    const char *file = sl ? sl + 1 : svg;
    snprintf(dir, dn, "%.*s", sl ? (int)(sl - svg) : 1, sl ? (sl == svg ? "/" : svg) : ".");
    size_t n = strlen(file);
    snprintf(base, bn, "%.*s", (int)(n >= 4 ? n - 4 : n), file);
}

int pp_plot_render(const char *svg, const char *dir, const char *base, char *err, size_t errlen)
{
    char gp[600];
    snprintf(gp, sizeof gp, "%s.gp", base);
    int st = pp_gnuplot(dir, gp);
    struct stat sb;
    if (st == 127) {
        snprintf(err, errlen, "--plot: gnuplot is not installed (apt-get install gnuplot-nox); %.900s/%s is written",
                 dir, gp);
        return -1;
    }
    if (st != 0 || stat(svg, &sb) != 0 || sb.st_size == 0) {
        snprintf(err, errlen, "--plot: gnuplot %.900s/%s failed (exit %d): see gnuplot.log beside it", dir, gp, st);
        return -1;
    }
    return 0;
}

int pp_plot_dir_ok(const char *svg, char *err, size_t errlen)
{
    char d[900], b[8];
    pp_plot_names(svg, d, sizeof d, b, sizeof b);
    if (access(d, W_OK) == 0)
        return 0;
    snprintf(err, errlen, "--plot %s: the directory %s is not writable: %s", svg, d, strerror(errno));
    return -1;
}

void pp_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

int pp_gnuplot(const char *dir, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execlp(pp_gnuplot_prog(), pp_gnuplot_prog(), script, (char *)NULL);
        _exit(127);
    }
    /* a script that makes gnuplot wait (pause, a terminal it cannot open)
     * must not hang the command: polled, killed after the limit */
    int st = 0;
    struct timespec nap = {0, 20 * 1000 * 1000};
    for (long i = 0; i < PP_GNUPLOT_SECONDS * 50L; i++) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (r < 0 && errno != EINTR)
            return -1;
        nanosleep(&nap, NULL);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return 124;
}
