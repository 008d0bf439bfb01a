/* mpirun.c - load the ranks' records of one MPI run (see mpirun.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "mpirun.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The mpi line of the record at PATH, read from its first lines (it
 * follows the program line): 1 with *run and *size set, 0 when the record
 * has none, -1 when PATH cannot be read.  Only a filter: the full reader
 * checks the line. */
static int header_mpi(const char *path, uint64_t *run, int *size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    if (strncmp(buf, "perfpred-record ", 16) != 0)
        return 0;
    for (char *p = strchr(buf, '\n'); p; p = strchr(p + 1, '\n')) {
        if (strncmp(p + 1, "func ", 5) == 0)
            break;
        int rank;
        unsigned long long id;
        if (sscanf(p + 1, "mpi rank=%d size=%d run=%llx", &rank, size, &id) == 3) {
            *run = id;
            return 1;
        }
    }
    return 0;
}

int pp_mpirun_is(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode))
        return 1;
    uint64_t run;
    int size;
    return header_mpi(path, &run, &size);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.ppr files of DIR, sorted: malloc'd array of malloc'd paths. */
static char **list_records(const char *dir, int *n, char *err, size_t errlen)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open directory: %s", dir, strerror(errno));
        return NULL;
    }
    char **v = NULL;
    int cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".ppr"))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nv = realloc(v, sizeof *nv * (size_t)cap);
            if (!nv)
                break;
            v = nv;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        v[*n] = malloc(len);
        if (!v[*n])
            break;
        snprintf(v[*n], len, "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
    if (*n == 0) {
        free(v);
        snprintf(err, errlen, "%s: no record (*.ppr) in the directory", dir);
        return NULL;
    }
    qsort(v, (size_t)*n, sizeof *v, by_name);
    return v;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int pp_mpirun_load(const char *path, pp_mpirun *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int is_dir = S_ISDIR(st.st_mode);
    /* the run id to keep: a named file's; a directory's first record's */
    uint64_t want = 0;
    int have_want = 0;
    char *dir = NULL;
    if (!is_dir) {
        int size;
        if (header_mpi(path, &want, &size) != 1) {
            snprintf(err, errlen, "%s: not the record of an MPI rank (no mpi line)", path);
            return -1;
        }
        have_want = 1;
        const char *slash = strrchr(path, '/');
        dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
        if (dir && !*dir) {
            free(dir);
            dir = strdup("/");
        }
    } else
        dir = strdup(path);
    int nf = 0;
    char **files = dir ? list_records(dir, &nf, err, errlen) : NULL;
    if (!files) {
        if (!dir)
            snprintf(err, errlen, "out of memory");
        free(dir);
        return -1;
    }
    run->path = strdup(path);
    const char *first = NULL;    /* the file that set the run id */
    for (int i = 0; i < nf; i++) {
        /* beside a named rank, records of other runs are skipped unread */
        uint64_t hrun;
        int hsize;
        if (!is_dir && (header_mpi(files[i], &hrun, &hsize) != 1 || hrun != want))
            continue;
        pp_record r;
        if (pp_record_load(files[i], &r, err, errlen))
            goto fail;
        if (r.mpi_rank < 0) {
            pp_record_free(&r);
            snprintf(err, errlen, "%s: not the record of an MPI rank (no mpi line), in the run directory %s",
                     files[i], dir);
            goto fail;
        }
        if (!have_want) {
            want = r.mpi_run;
            have_want = 1;
        }
        if (r.mpi_run != want) {
            snprintf(err, errlen,
                     "%s: belongs to another run (id %016" PRIx64 ", %d ranks) than %s (id %016" PRIx64
                     "); remove the stale records",
                     files[i], r.mpi_run, r.mpi_size, first ? first : files[0], want);
            pp_record_free(&r);
            goto fail;
        }
        if (!first)
            first = files[i];
        if (!run->rank) {
            run->nranks = r.mpi_size;
            run->rank = calloc((size_t)r.mpi_size, sizeof *run->rank);
            if (!run->rank) {
                pp_record_free(&r);
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            for (int k = 0; k < run->nranks; k++)
                run->rank[k].mpi_rank = -1;
        }
        if (r.mpi_size != run->nranks) {
            snprintf(err, errlen, "%s: says %d ranks, %s says %d (same run id)", files[i], r.mpi_size, first,
                     run->nranks);
            pp_record_free(&r);
            goto fail;
        }
        if (run->rank[r.mpi_rank].mpi_rank >= 0) {
            snprintf(err, errlen, "%s: rank %d is also recorded in %s", files[i], r.mpi_rank,
                     run->rank[r.mpi_rank].path);
            pp_record_free(&r);
            goto fail;
        }
        const pp_record *r0 = NULL;
        for (int k = 0; k < run->nranks && !r0; k++)
            if (run->rank[k].mpi_rank >= 0)
                r0 = &run->rank[k];
        if (r0 && (!r.program || !r0->program || strcmp(r.program, r0->program) != 0)) {
            snprintf(err, errlen, "%s: program %s, but %s ran %s", files[i], r.program ? r.program : "?",
                     r0->path, r0->program ? r0->program : "?");
            pp_record_free(&r);
            goto fail;
        }
        run->rank[r.mpi_rank] = r;
    }
    for (int k = 0; k < run->nranks; k++)
        if (run->rank[k].mpi_rank < 0) {
            snprintf(err, errlen, "%s: the record of rank %d of %d is missing (the run's records are %s/*.ppr)",
                     path, k, run->nranks, dir);
            goto fail;
        }
    free_list(files, nf);
    free(dir);
    return 0;
fail:
    free_list(files, nf);
    free(dir);
    pp_mpirun_free(run);
    return -1;
}

void pp_mpirun_refusal(const char *path, const char *cmd, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s: an MPI run (one record per rank): '%s' takes records of one process; predict, scale, "
             "validate, graph and show take MPI runs", path, cmd);
}

void pp_mpirun_free(pp_mpirun *run)
{
    for (int k = 0; run->rank && k < run->nranks; k++)
        if (run->rank[k].mpi_rank >= 0)
            pp_record_free(&run->rank[k]);
    free(run->rank);
    free(run->path);
    memset(run, 0, sizeof *run);
}
