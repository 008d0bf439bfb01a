/* breakdown.h - where the time goes (predict --by): Parashar et al.'s
 * three levels of output, the whole program, a region (a function or a
 * loop with what it calls and contains) and each site (loop, function or
 * event), each split into computation, communication, synchronisation
 * cost, waiting and idle time per thread, on the PRAM and on the real
 * machine (the categories: traverse.h, pp_trcat; how computation is
 * attributed: inst-sites.c and docs/model.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_BREAKDOWN_H
#define PERFPRED_BREAKDOWN_H

#include "machine.h"
#include "model.h"
#include "traverse.h"

#include <stdio.h>

typedef enum { PP_BY_LOOP, PP_BY_FUNCTION, PP_BY_EVENT } pp_by;

/* A region: the contexts of these functions' bodies (loop -1) or loops,
 * and every context under them. */
typedef struct {
    int n;
    int func[16], loop[16];
    char name[200];       /* as given */
    char what[300];       /* "loop main:L2 (ge_omp.c:84)", ... */
} pp_region;

/* Find the region NAME (a function, FUNC:Lk as show names a loop) or
 * FILE:LINE (the outermost loops at that line, or else the functions
 * that start there).  0, or -1 with a message. */
int pp_region_parse(const pp_prog *m, const char *spec, pp_region *r, char *err, size_t errlen);

/* A row: a site, or the idle time, or the work (by event). */
typedef struct {
    char name[160];       /* main:L3, main, main:E5, (idle), (computation) */
    char kind[24];        /* loop, body, function, bcast, barrier, idle, work */
    int func;             /* -1: none */
    char function[120];   /* its name, or "" */
    char where[200];      /* ge_omp.c:88, or "" */
    const char *file;     /* the function's file as recorded, or NULL */
    int line;
} pp_bd_row;

enum { PP_BD_PRAM, PP_BD_REAL, PP_BD_NMACH };

typedef struct {
    pp_by by;
    int has_region;
    pp_region region;
    int P, nthreads, nrows;
    pp_bd_row *rows;
    char **thread_name;   /* "main", "omp thread 2 (pool of thread 0)", "rank 3" */
    double time[PP_BD_NMACH];       /* T_PRAM, T_real (ns) */
    /* [mach][(thread * nrows + row) * PP_TR_NCAT + cat] (ns); rows
     * outside the region stay 0 */
    double *v[PP_BD_NMACH];
    /* the whole program, per thread and category: [mach][thread * NCAT + cat] */
    double *all[PP_BD_NMACH];
    int approx;
    int ranks;            /* every thread is an MPI rank */
} pp_breakdown;

/* Unroll the model at the values pv for P (as predict does),
 * walk it on the PRAM and on mach with the breakdown's sinks, and check
 * that the spans add up to each traversal's totals per thread.  region
 * may be NULL.  0, or -1 with a message. */
int pp_breakdown_run(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_by by,
                     const pp_region *region, pp_breakdown *out, char *err, size_t errlen);
void pp_breakdown_free(pp_breakdown *b);

/* Name a thread of an instance: "main", "rank 3", "omp thread 2 (pool
 * of thread 0)", "pthread 1 (worker)". */
void pp_thread_name(const pp_prog *m, const pp_instance *in, int t, char *buf, size_t n);

/* Outputs (breakdown-out.c).  threads: every thread, not only min, mean
 * and max over them.  `machines`: bit 1 << PP_BD_PRAM, 1 << PP_BD_REAL. */
void pp_breakdown_text(FILE *f, const pp_breakdown *b, int machines, int threads);
void pp_breakdown_csv_header(FILE *f);
void pp_breakdown_csv(FILE *f, const pp_breakdown *b, int machines, int threads);
void pp_breakdown_json(FILE *f, const pp_breakdown *b, int machines, int threads);

const char *pp_trcat_name(pp_trcat c);
const char *pp_by_name(pp_by by);

#endif
