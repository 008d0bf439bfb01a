/* show_mpi.h - `perfpred show` of an MPI run (cmd_show_mpi.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_SHOW_MPI_H
#define PERFPRED_SHOW_MPI_H

#include "cli.h"

/* Summarise the MPI run c->rec[0] (mpirun.h) in c->format; the exit
 * status. */
int pp_show_mpi(const pp_cli *c);

#endif
