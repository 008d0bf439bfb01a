/* rt-wrap-mpi.c - event wrappers of the MPI calls (docs/runtime-abi.md).
 *
 * Each wrapper forwards to the real call with the same arguments and
 * returns its result unchanged; around it, it logs one event: t0 and the
 * counter snapshot before the call, t1 after it, and the message: peer and
 * tag (ranks of the communicator; for a receive, the source and tag the
 * status reports), bytes (count x type size; for a receive, what arrived),
 * root, communicator (world, the K-th one the rank made, or other).
 *
 * The MPI_Init wrapper learns the rank and the number of ranks of
 * MPI_COMM_WORLD and gives every rank the same run id (rank 0's, by one
 * broadcast the program does not see), so that the record of each rank
 * says which run it belongs to, and notes the implementation's special
 * ranks and tag (MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG differ between
 * Open MPI and MPICH) and its library version.  It is in the static runtime
 * only: it needs the MPI library, which only MPI programs link.
 *
 * The file is compiled once per MPI ABI the build machine has: against
 * Open MPI's mpi.h the wrappers are __pp_w_MPI_NAME, against MPICH's (its
 * handles are integers, its MPI_Status another struct)
 * __pp_w_mpich_MPI_NAME.  The plugin calls the ones of the mpi.h the
 * program was compiled with (docs/runtime-abi.md), so one archive serves
 * both and a program cannot get the other ABI's wrappers.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../rt-internal.h"

#if defined(MPICH_VERSION)
#define PP_W(name) __pp_w_mpich_##name
#define PP_LINK_MARKER PP_LINK_MARKER_MPICH
#elif defined(OPEN_MPI)
#define PP_W(name) __pp_w_##name
#define PP_LINK_MARKER PP_LINK_MARKER_OMPI
#else
#error "rt-wrap-mpi.c: mpi.h is neither Open MPI's nor MPICH's (no OPEN_MPI, no MPICH_VERSION)"
#endif

/* what an instrumented MPI unit references strongly (perfpred-rt.h) */
PP_DEFINE_LINK_MARKER(PP_LINK_MARKER);

static struct pp_thread *me(void)
{
    return pp_active() ? pp_get_self() : NULL;
}

/* The communicators MPI_Comm_split and MPI_Comm_dup made, numbered from 1
 * in the order this rank made them (docs/record-format.md: comm=cK); a
 * freed one keeps its number but no handle.  Several threads of a rank may
 * call MPI: the table has a lock. */
#define MAX_COMMS 4096
static MPI_Comm comms[MAX_COMMS + 1];
static int ncomms;
static pthread_mutex_t comms_lock = PTHREAD_MUTEX_INITIALIZER;

/* 0 for MPI_COMM_WORLD, K for the K-th communicator made, -1 otherwise. */
static int comm_id(MPI_Comm c)
{
    if (c == MPI_COMM_WORLD)
        return 0;
    if (c == MPI_COMM_NULL)
        return -1;
    int id = -1;
    pthread_mutex_lock(&comms_lock);
    for (int k = ncomms; k >= 1 && id < 0; k--)
        if (comms[k] == c)
            id = k;
    pthread_mutex_unlock(&comms_lock);
    return id;
}

static int comm_add(MPI_Comm c)
{
    int id = -1;
    pthread_mutex_lock(&comms_lock);
    if (ncomms < MAX_COMMS) {
        comms[++ncomms] = c;
        id = ncomms;
    }
    pthread_mutex_unlock(&comms_lock);
    return id;
}

static void comm_forget(int id)
{
    pthread_mutex_lock(&comms_lock);
    if (id >= 1 && id <= ncomms)
        comms[id] = MPI_COMM_NULL;
    pthread_mutex_unlock(&comms_lock);
}

static uint64_t type_bytes(MPI_Datatype t, int count)
{
    int sz = 0;
    if (count <= 0 || MPI_Type_size(t, &sz) != MPI_SUCCESS || sz < 0)
        return 0;
    return (uint64_t)count * (uint64_t)sz;
}

/* The first line of MPI_Get_library_version, whitespace collapsed, cut
 * at its first comma: "MPICH Version: 4.0.2", "Open MPI v4.1.4". */
static void learn_library(void)
{
    static char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    pp_mpi_lib[0] = 0;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS)
        return;
    size_t n = 0;
    for (const char *p = v; *p && *p != '\n' && *p != ',' && n < sizeof pp_mpi_lib - 1; p++) {
        int space = *p == ' ' || *p == '\t' || *p == '\r';
        if (space && (n == 0 || pp_mpi_lib[n - 1] == ' '))
            continue;
        pp_mpi_lib[n++] = space ? ' ' : *p;
    }
    while (n > 0 && pp_mpi_lib[n - 1] == ' ')
        n--;
    pp_mpi_lib[n] = 0;
}

static void learn_world(void)
{
    int r = -1, n = 0;
    if (MPI_Comm_rank(MPI_COMM_WORLD, &r) != MPI_SUCCESS || MPI_Comm_size(MPI_COMM_WORLD, &n) != MPI_SUCCESS)
        return;
    uint64_t id[2] = { 0, 0 };
    if (r == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        id[0] = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 40);
        id[1] = (uint64_t)getpid();
    }
    if (MPI_Bcast(id, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return;
    pp_mpi_run = id[0];
    pp_mpi_pid0 = id[1];
    pp_mpi_any_source = MPI_ANY_SOURCE;
    pp_mpi_any_tag = MPI_ANY_TAG;
    pp_mpi_proc_null = MPI_PROC_NULL;
    learn_library();
    pp_mpi_size = n;
    pp_mpi_rank = r;
}

static struct pp_ev *begin(struct pp_thread *t, const struct pp_fdesc *d, uint32_t site, int kind)
{
    return t ? pp_ev_begin(t, d, site, kind) : NULL;
}

static void msg(struct pp_ev *e, int peer, int tag, uint64_t bytes, MPI_Comm c)
{
    e->peer = peer;
    e->tag = tag;
    e->bytes = bytes;
    e->comm = comm_id(c);
    e->has |= PP_HAS_PEER | PP_HAS_BYTES | PP_HAS_COMM;
}

static void coll(struct pp_ev *e, uint64_t bytes, int root, MPI_Comm c)
{
    e->bytes = bytes;
    e->comm = comm_id(c);
    e->has |= PP_HAS_BYTES | PP_HAS_COMM;
    if (root >= 0) {
        e->root = root;
        e->has |= PP_HAS_ROOT;
    }
}

static void done(struct pp_thread *t, struct pp_ev *e, int rc)
{
    if (!e)
        return;
    if (rc != MPI_SUCCESS) {
        e->result = rc;
        e->has |= PP_HAS_RESULT;
    }
    pp_ev_commit(t, e);
}

/* ---------------------------------------------------------------- life */

PP_EXPORT int PP_W(MPI_Init)(const struct pp_fdesc *d, uint32_t site, int *argc, char ***argv)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_MPI_INIT);
    int rc = MPI_Init(argc, argv);
    if (rc == MPI_SUCCESS && t)
        learn_world();
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Init_thread)(const struct pp_fdesc *d, uint32_t site, int *argc, char ***argv,
                                    int required, int *provided)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_MPI_INIT);
    int rc = MPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS && t)
        learn_world();
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Finalize)(const struct pp_fdesc *d, uint32_t site)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_MPI_FINALIZE);
    int rc = MPI_Finalize();
    done(t, e, rc);
    return rc;
}

/* ------------------------------------------------------ point to point */

PP_EXPORT int PP_W(MPI_Send)(const struct pp_fdesc *d, uint32_t site, const void *buf, int count,
                             MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_SEND);
    int rc = MPI_Send(buf, count, type, dest, tag, comm);
    if (e)
        msg(e, dest, tag, type_bytes(type, count), comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Ssend)(const struct pp_fdesc *d, uint32_t site, const void *buf, int count,
                              MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_SEND);
    int rc = MPI_Ssend(buf, count, type, dest, tag, comm);
    if (e)
        msg(e, dest, tag, type_bytes(type, count), comm);
    done(t, e, rc);
    return rc;
}

/* A receive reports where the message came from and how big it was: the
 * caller's status when it gave one, else ours. */
static void recv_msg(struct pp_ev *e, const MPI_Status *st, MPI_Datatype type, int src, int tag,
                     int count, MPI_Comm comm)
{
    int n = 0;
    if (st && MPI_Get_count(st, type, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
        msg(e, st->MPI_SOURCE, st->MPI_TAG, type_bytes(type, n), comm);
    else
        msg(e, src, tag, type_bytes(type, count), comm);
}

PP_EXPORT int PP_W(MPI_Recv)(const struct pp_fdesc *d, uint32_t site, void *buf, int count,
                             MPI_Datatype type, int source, int tag, MPI_Comm comm,
                             MPI_Status *status)
{
    struct pp_thread *t = me();
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    struct pp_ev *e = begin(t, d, site, PP_EV_RECV);
    int rc = MPI_Recv(buf, count, type, source, tag, comm, e ? st : status);
    if (e)
        recv_msg(e, rc == MPI_SUCCESS ? st : NULL, type, source, tag, count, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Isend)(const struct pp_fdesc *d, uint32_t site, const void *buf, int count,
                              MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_ISEND);
    int rc = MPI_Isend(buf, count, type, dest, tag, comm, req);
    if (e)
        msg(e, dest, tag, type_bytes(type, count), comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Irecv)(const struct pp_fdesc *d, uint32_t site, void *buf, int count,
                              MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_IRECV);
    int rc = MPI_Irecv(buf, count, type, source, tag, comm, req);
    if (e)
        msg(e, source, tag, type_bytes(type, count), comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Sendrecv)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, int scount,
                                 MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                 MPI_Status *status)
{
    struct pp_thread *t = me();
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    struct pp_ev *e = begin(t, d, site, PP_EV_SENDRECV);
    int rc = MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                          e ? st : status);
    if (e) {
        msg(e, dest, stag, type_bytes(stype, scount), comm);
        int n = 0;
        int ok = rc == MPI_SUCCESS && MPI_Get_count(st, rtype, &n) == MPI_SUCCESS && n != MPI_UNDEFINED;
        e->rpeer = ok ? st->MPI_SOURCE : source;
        e->rtag = ok ? st->MPI_TAG : rtag;
        e->rbytes = type_bytes(rtype, ok ? n : rcount);
        e->has |= PP_HAS_RMSG;
    }
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Wait)(const struct pp_fdesc *d, uint32_t site, MPI_Request *req,
                             MPI_Status *status)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_WAIT);
    int rc = MPI_Wait(req, status);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Waitall)(const struct pp_fdesc *d, uint32_t site, int count, MPI_Request reqs[],
                                MPI_Status statuses[])
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_WAITALL);
    int rc = MPI_Waitall(count, reqs, statuses);
    if (e) {
        e->count = count > 0 ? (uint32_t)count : 0;
        e->has |= PP_HAS_COUNT;
    }
    done(t, e, rc);
    return rc;
}

/* --------------------------------------------------------- collectives */

PP_EXPORT int PP_W(MPI_Bcast)(const struct pp_fdesc *d, uint32_t site, void *buf, int count,
                              MPI_Datatype type, int root, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_BCAST);
    int rc = MPI_Bcast(buf, count, type, root, comm);
    if (e)
        coll(e, type_bytes(type, count), root, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Reduce)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, void *rbuf,
                               int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_REDUCE);
    int rc = MPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    if (e)
        coll(e, type_bytes(type, count), root, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Allreduce)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, void *rbuf,
                                  int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_ALLREDUCE);
    int rc = MPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    if (e)
        coll(e, type_bytes(type, count), -1, comm);
    done(t, e, rc);
    return rc;
}

/* Gather, scatter, allgather, alltoall: bytes is the block one rank sends
 * (scatter: receives), per peer. */
PP_EXPORT int PP_W(MPI_Gather)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                               MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_GATHER);
    int rc = MPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    if (e)
        coll(e, type_bytes(stype, scount), root, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Scatter)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_SCATTER);
    int rc = MPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    if (e)
        coll(e, type_bytes(rtype, rcount), root, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Allgather)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                  MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_ALLGATHER);
    int rc = MPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    if (e)
        coll(e, type_bytes(stype, scount), -1, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Alltoall)(const struct pp_fdesc *d, uint32_t site, const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                 MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_ALLTOALL);
    int rc = MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    if (e)
        coll(e, type_bytes(stype, scount), -1, comm);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Barrier)(const struct pp_fdesc *d, uint32_t site, MPI_Comm comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_MPI_BARRIER);
    int rc = MPI_Barrier(comm);
    if (e) {
        e->comm = comm_id(comm);
        e->has |= PP_HAS_COMM;
    }
    done(t, e, rc);
    return rc;
}

/* -------------------------------------------------------- communicators */

/* comm_split, comm_dup: comm = the parent; for a split peer = color and
 * tag = key; newcomm = the new one's number (-1: MPI_COMM_NULL, the rank's
 * color was MPI_UNDEFINED), with this rank's rank and size in it. */
static void made(struct pp_ev *e, MPI_Comm parent, MPI_Comm nc)
{
    e->comm = comm_id(parent);
    e->has |= PP_HAS_COMM | PP_HAS_NEWCOMM;
    e->root = -1;
    e->rpeer = -1;
    e->rtag = 0;
    if (nc != MPI_COMM_NULL) {
        e->root = comm_add(nc);
        MPI_Comm_rank(nc, &e->rpeer);
        MPI_Comm_size(nc, &e->rtag);
    }
}

PP_EXPORT int PP_W(MPI_Comm_split)(const struct pp_fdesc *d, uint32_t site, MPI_Comm comm, int color,
                                   int key, MPI_Comm *newcomm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_COMM_SPLIT);
    int rc = MPI_Comm_split(comm, color, key, newcomm);
    if (e) {
        e->peer = color;
        e->tag = key;
        e->has |= PP_HAS_PEER;
        made(e, comm, rc == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL);
    }
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Comm_dup)(const struct pp_fdesc *d, uint32_t site, MPI_Comm comm, MPI_Comm *newcomm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_COMM_DUP);
    int rc = MPI_Comm_dup(comm, newcomm);
    if (e)
        made(e, comm, rc == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL);
    done(t, e, rc);
    return rc;
}

PP_EXPORT int PP_W(MPI_Comm_free)(const struct pp_fdesc *d, uint32_t site, MPI_Comm *comm)
{
    struct pp_thread *t = me();
    struct pp_ev *e = begin(t, d, site, PP_EV_COMM_FREE);
    int id = comm ? comm_id(*comm) : -1;
    int rc = MPI_Comm_free(comm);
    if (rc == MPI_SUCCESS)
        comm_forget(id);
    if (e) {
        e->comm = id;
        e->has |= PP_HAS_COMM;
    }
    done(t, e, rc);
    return rc;
}
