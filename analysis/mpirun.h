/* mpirun.h - the records of one MPI run, one per rank, loaded together and
 * checked to belong together (docs/record-format.md, "MPI runs").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MPIRUN_H
#define PERFPRED_MPIRUN_H

#include <stddef.h>
#include "record.h"

typedef struct pp_mpirun_s {
    char *path;          /* what the user named: a directory or a file     */
    int nranks;
    pp_record *rank;     /* indexed by rank                                */
} pp_mpirun;

/* Is PATH an MPI run: a directory, or a record with an `mpi` line?
 * 1, 0, or -1 when it cannot be read (no message: the loader gives it). */
int pp_mpirun_is(const char *path);

/* Load the run at PATH: a directory holding the ranks' records (every
 * *.ppr in it), or one rank's record (its siblings in the same directory
 * are the other ranks).  Every rank 0..size-1 must be there exactly once,
 * with the same run id, size and program.  0, or -1 with a message naming
 * the file. */
int pp_mpirun_load(const char *path, pp_mpirun *run, char *err, size_t errlen);
void pp_mpirun_free(pp_mpirun *run);

/* The message of a command that cannot take the MPI run at PATH. */
void pp_mpirun_refusal(const char *path, const char *cmd, char *err, size_t errlen);

#endif
