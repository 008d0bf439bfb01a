/* trav-mpi-internal.h - the state of the MPI traversal (trav-mpi.c), which
 * its hang and end report (trav-mpi-report.c) reads.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_TRAV_MPI_INTERNAL_H
#define PERFPRED_TRAV_MPI_INTERNAL_H

#include "trav-internal.h"
#include "net.h"

#include <stdio.h>

typedef struct {
    int src, tag, comm;
    double bytes, t_post, t_arrive;  /* t_arrive: eager data at the destination */
    int eager, thread, req;          /* req: the sender's request, -1 blocking */
    const pp_action *a;
} msg_t;

typedef struct {
    int src, tag, comm;              /* src, tag: PP_MPI_ANY allowed */
    double t_post;
    int thread, req;
    const pp_action *a;
} rcv_t;

typedef struct {
    int complete;
    double done;
    const pp_action *a;              /* the call that posted it */
} req_t;

/* A rank's queues start in the rank's own record (a Sendrecv's two
 * requests, one message early, one receive posted): at 10^4 ranks and
 * more, an allocation of its own per queue and rank was a cache miss at
 * nearly every MPI call; a queue that outgrows them moves to the heap. */
#define RANK_REQ_INLINE 2

typedef struct {
    msg_t *sends;                    /* sent to this rank, not yet received */
    int nsends, capsends;
    rcv_t *recvs;                    /* posted here, not yet matched */
    int nrecvs, caprecvs;
    req_t *req;                      /* requests in posting order */
    int nreq, capreq, reqhead;
    int wait_n;                      /* blocked in WAIT: requests wanted */
    int wait_thread;
    req_t req_in[RANK_REQ_INLINE];   /* the queues' first entries */
    msg_t send_in[1];
    rcv_t recv_in[1];
} rank_st;

/* The collective in progress on one communicator (only one can be: a rank
 * leaves one only when every member has arrived). */
typedef struct {
    int active, kind, root, arrived;
    long seq;                        /* collectives completed on it */
    double bytes;
} coll_st;

typedef struct mpi_st {
    pp_net net;
    int P;
    rank_st *rk;
    int *rank_of;                    /* thread -> rank */
    int ncomms;
    const pp_comm *comms;            /* the instance's communicators */
    pp_comm world1;                  /* the table of an instance without one */
    coll_st *coll;                   /* per communicator */
    /* per world rank: the collective it is in (c_act NULL: none) */
    double *c_arr;
    int *c_thread;
    const pp_action **c_act;
    double *g_arr, *g_rel;           /* one communicator's, in its rank order */
    /* per function, per event id: the event's kind (what pp_desc_event
     * finds), for the accounting of every call by kind */
    pp_evkind **kind_of;
    int *nkind;
} mpi_st;

/* "MPI_COMM_WORLD", or "communicator #K (a split of #J, color C, N ranks)". */
static inline const char *comm_text(const mpi_st *s, int k, char *buf, size_t n)
{
    if (k <= 0 || k >= s->ncomms) {
        snprintf(buf, n, "MPI_COMM_WORLD");
        return buf;
    }
    const pp_comm *m = &s->comms[k];
    char par[40];
    if (m->parent > 0)
        snprintf(par, sizeof par, "communicator #%d", m->parent);
    else
        snprintf(par, sizeof par, "MPI_COMM_WORLD");
    if (m->dup)
        snprintf(buf, n, "communicator #%d (a dup of %s, %d ranks)", k, par, m->size);
    else
        snprintf(buf, n, "communicator #%d (a split of %s, color %d, %d ranks)", k, par, m->color, m->size);
    return buf;
}

/* The world rank of rank i of communicator k. */
static inline int member(const mpi_st *s, int k, int i)
{
    return s->comms[k].world ? s->comms[k].world[i] : i;
}

#endif
