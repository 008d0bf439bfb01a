/* rt-out.c - atomic creation of the record file, and string quoting.
 *
 * The record goes to "PATH.tmp.PID" in the same directory (so that rename
 * is atomic: same file system), is flushed and fsync'ed, then renamed onto
 * PATH.  Any failure removes the temporary file; a reader never sees a
 * partial record.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt-internal.h"

char pp_out_tmp_sig[4096];
volatile sig_atomic_t pp_out_tmp_set;

struct pp_out {
    FILE *f;
    char *path;
    char *tmp;
};

struct pp_out *pp_out_open(const char *path)
{
    struct pp_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    size_t n = strlen(path) + 32;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp)
        goto fail;
    snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
    if (pp_sig_child && strlen(o->tmp) < sizeof pp_out_tmp_sig)
        strcpy(pp_out_tmp_sig, o->tmp);   /* before the file exists */
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        goto fail;
    if (pp_sig_child && pp_out_tmp_sig[0])
        pp_out_tmp_set = 1;
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        goto fail;
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 16);
    return o;
fail:;
    int e = errno;
    free(o->path);
    free(o->tmp);
    free(o);
    errno = e;
    return NULL;
}

FILE *pp_out_file(struct pp_out *o)
{
    return o->f;
}

int pp_out_close(struct pp_out *o)
{
    int rc = 0, e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) {
        rc = -1;
        e = errno ? errno : EIO;
    } else if (fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS) {
        /* EINVAL: a special file (e.g. /dev/null) cannot be synced */
        rc = -1;
        e = errno;
    }
    if (fclose(o->f) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0 && rename(o->tmp, o->path) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
        unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    free(o);
    errno = e;
    return rc;
}

void pp_out_quoted(FILE *f, const char *s)
{
    putc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            putc('\\', f);
            putc(*p, f);
        } else if (*p < 0x20 || *p == 0x7f) {
            /* keeps one item per line; see docs/record-format.md */
            fprintf(f, "\\x%02x", *p);
        } else {
            putc(*p, f);
        }
    }
    putc('"', f);
}
