/* fuzz-common.h - what the fuzz harnesses share: the input bytes written
 * to a file in a private directory (the readers take a path; an MPI rank's
 * record looks for its sibling ranks in its directory, so the directory
 * holds nothing else), and an error-message check.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_FUZZ_COMMON_H
#define PERFPRED_FUZZ_COMMON_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[256];

/* The directory and what is in it go at exit (not after a crash). */
static void fuzz_cleanup(void)
{
    DIR *d = opendir(fuzz_dir);
    if (!d)
        return;
    struct dirent *e;
    char p[600];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    rmdir(fuzz_dir);
}

/* The file NAME in a directory of this process's own, holding DATA. */
static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[512];
    char *dir = fuzz_dir;
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof fuzz_dir, "%s/perfpred-fuzz.XXXXXX", base);
        if (!mkdtemp(dir)) {
            perror("perfpred fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_cleanup);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
        perror("perfpred fuzz: writing the input");
        abort();
    }
    return path;
}

/* A reader's error: one line, naming the file.  Anything else is a bug
 * (docs/fuzzing.md): abort so that the fuzzer keeps the input. */
static void fuzz_check_error(const char *err, const char *path)
{
    if (!err[0] || strchr(err, '\n') || !strstr(err, path)) {
        fprintf(stderr, "perfpred fuzz: bad error message for %s: '%s'\n", path, err);
        abort();
    }
}

#endif
