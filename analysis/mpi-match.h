/* mpi-match.h - the point-to-point messages of a recorded MPI run matched
 * between the ranks as MPI matches them (mpi-match.c), for `show`.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MPI_MATCH_H
#define PERFPRED_MPI_MATCH_H

#include <stdint.h>
#include "mpirun.h"

/* Messages left unmatched, grouped by their call site and channel: a send
 * (is_recv 0) from src to dst that no receive took, or a receive of dst
 * (is_recv 1) that no send matched (src, tag -1: posted with
 * MPI_ANY_SOURCE, MPI_ANY_TAG). */
typedef struct {
    int is_recv, src, dst, tag;
    int func, site;      /* of the rank's record: its call site          */
    int rank;            /* the rank whose call it is                    */
    long count;
} pp_mmiss;

typedef struct {
    long matched;
    long sends_unmatched, recvs_unmatched;
    long wildcard;       /* receives posted with MPI_ANY_SOURCE or
                            MPI_ANY_TAG, matched to the earliest message */
    long guessed;        /* of those, how many chose between two ranks'
                            messages of one epoch by the clocks (.c)     */
    long size_differs;   /* matched, but not the size that was sent       */
    long other_comm;     /* calls on another communicator: not matched    */
    long failed;         /* calls that returned an error: not matched     */
    long proc_null;      /* halves to or from MPI_PROC_NULL: no message   */
    /* per rank: messages sent and received, and their bytes (a receive's
     * are the matched send's; an unmatched one's as recorded) */
    long *sends, *recvs;
    int64_t *bsent, *brecv;
    int nmiss;
    pp_mmiss *miss;      /* largest count first                           */
} pp_mmatch;

/* Match every send of the run (MPI_Send, MPI_Ssend, MPI_Isend, the send
 * half of MPI_Sendrecv) with a receive (MPI_Recv, MPI_Irecv, the received
 * half of MPI_Sendrecv) on MPI_COMM_WORLD: by source and tag, each rank's
 * receives in the order it posted them, each sender's messages in the
 * order it sent them (MPI's non-overtaking rule).  0, or -1 when out of
 * memory. */
int pp_mpi_match(const pp_mpirun *run, pp_mmatch *out);
void pp_mpi_match_free(pp_mmatch *m);

#endif
