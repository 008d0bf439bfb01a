/* inst-mpi.c - the actions of a rank's MPI calls: the message's peer, tag
 * and bytes, and a collective's root and bytes, evaluated in the rank's
 * frame from the descriptor's expressions in the parameters, (rank) and
 * (nprocs), so that a communication pattern is instantiated for any number
 * of ranks, not only the recorded one.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"
#include "net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double pp_mpi_type_bytes(const char *type)
{
    static const struct { const char *name; int bytes; } types[] = {
        {"ompi_mpi_char", 1}, {"ompi_mpi_signed_char", 1}, {"ompi_mpi_unsigned_char", 1},
        {"ompi_mpi_byte", 1}, {"ompi_mpi_packed", 1}, {"ompi_mpi_c_bool", 1},
        {"ompi_mpi_short", 2}, {"ompi_mpi_unsigned_short", 2},
        {"ompi_mpi_int", 4}, {"ompi_mpi_unsigned", 4}, {"ompi_mpi_float", 4},
        {"ompi_mpi_int32_t", 4}, {"ompi_mpi_uint32_t", 4},
        {"ompi_mpi_long", 8}, {"ompi_mpi_unsigned_long", 8}, {"ompi_mpi_long_long_int", 8},
        {"ompi_mpi_unsigned_long_long", 8}, {"ompi_mpi_double", 8}, {"ompi_mpi_int64_t", 8},
        {"ompi_mpi_uint64_t", 8}, {"ompi_mpi_2int", 8}, {"ompi_mpi_float_int", 8},
        {"ompi_mpi_long_double", 16}, {"ompi_mpi_double_int", 16}, {"ompi_mpi_long_int", 16},
        {"ompi_mpi_2double_precision", 16}, {"ompi_mpi_c_double_complex", 16},
    };
    if (!type || !*type || strcmp(type, "?") == 0)
        return -1;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(types[i].name, type) == 0)
            return types[i].bytes;
    /* MPICH: a builtin datatype handle is 0x4c000000 | size << 8 | index */
    if (strncmp(type, "0x", 2) == 0) {
        unsigned long h = strtoul(type, NULL, 16);
        if ((h & 0xfc000000ul) == 0x4c000000ul && ((h >> 8) & 0xff) > 0)
            return (double)((h >> 8) & 0xff);
    }
    return -1;
}

const char *pp_inst_where(const frame *fr, const pp_devent *ev, char *buf, size_t n)
{
    snprintf(buf, n, "%s at %s:%d", ev->callee ? ev->callee : pp_evkind_name(ev->kind),
             fr->mf->d->file ? fr->mf->d->file : "?", ev->line);
    return buf;
}

/* bytes of one call: count x element size, or the recorded mean. */
static double msg_bytes(ictx *c, const frame *fr, const pp_devent *ev, int idx, int recv_side)
{
    const pp_expr *cnt = recv_side ? ev->rcount : ev->count;
    double elem = recv_side ? fr->mf->ev_relem[idx] : fr->mf->ev_elem[idx];
    int64_t n;
    if (cnt && elem >= 0 && pp_inst_eval(c, fr, cnt, &n) == 0)
        return n > 0 ? (double)n * elem : 0;
    double obs = fr->mf->ev_bytes_obs[idx];
    return obs > 0 ? obs : 0;
}

/* A peer: its rank in the world (the peer's rank in communicator comm,
 * translated), PP_MPI_ANY (receives), or -2 for MPI_PROC_NULL.  The
 * program's MPI_PROC_NULL and MPI_ANY_SOURCE are its mpi.h's (Open MPI:
 * -2, -1; MPICH: -1, -2), which the records say (pp_prog). */
static int peer_rank(ictx *c, const frame *fr, const pp_devent *ev, int comm, const pp_expr *e, int recv,
                     long *out, const char *what)
{
    const pp_comm *k = &c->in->comms[comm];
    char wb[300];
    int64_t v;
    c->eval_peer = 1;
    int failed = !e || pp_inst_eval(c, fr, e, &v);
    c->eval_peer = 0;
    /* noted by a class of ranks: the same offset from the rank at each of
     * its ranks (a neighbour), kept so in the action they share */
    int rel = !failed && c->eval_note >= 0 && comm == 0;
    if (failed) {
        char *s = e ? pp_expr_to_infix(e) : NULL;
        pp_inst_fail(c, "%s: the %s rank (%s) is not an expression the model can evaluate for rank %d of %d",
                     pp_inst_where(fr, ev, wb, sizeof wb), what, s ? s : "?", c->rank, c->P);
        free(s);
        return -1;
    }
    if (v == c->m->mpi_proc_null) {
        *out = -2;
        return 0;
    }
    if (recv && v == c->m->mpi_any_source) {
        *out = PP_MPI_ANY;
        return 0;
    }
    if (v < 0 || v >= k->size)
        return pp_inst_fail(c, "%s: rank %d names %s rank %lld, but there are %d ranks%s (an invalid rank: "
                            "the program would fail)", pp_inst_where(fr, ev, wb, sizeof wb), c->rank, what,
                            (long long)v, k->size, comm ? " in its communicator" : "");
    *out = k->world ? k->world[v] : (long)v;
    if (rel)
        *out = PP_MPI_REL + (*out - c->rank);
    return 0;
}

/* tags only match messages: an unknown tag matches any */
static int tag_of(ictx *c, const frame *fr, const pp_expr *e, int recv)
{
    int64_t v;
    if (!e || pp_inst_eval(c, fr, e, &v))
        return PP_MPI_ANY;
    return recv && v == c->m->mpi_any_tag ? PP_MPI_ANY : (int)v;
}

static int msg_action(ictx *c, int t, const frame *fr, pp_akind k, long peer, int tag, double bytes,
                      const pp_devent *ev, int comm)
{
    if (pp_inst_sync_action(c, t, k, peer, tag, fr->fi, ev->id))
        return -1;
    pp_action *a = &c->in->threads[t].act[c->in->threads[t].nact - 1];
    a->ns = bytes;
    a->comm = comm;
    return 0;
}

/* A collective action of kind k on communicator comm. */
static int coll_action(ictx *c, int t, const frame *fr, int k, int root, double bytes, const pp_devent *ev,
                       int comm)
{
    if (pp_inst_sync_action(c, t, PP_A_COLL, k, root, fr->fi, ev->id))
        return -1;
    pp_action *a = &c->in->threads[t].act[c->in->threads[t].nact - 1];
    a->ns = bytes;
    a->comm = comm;
    return 0;
}

int pp_mpi_coll_of(pp_evkind k)
{
    switch (k) {
    case PP_EV_BCAST: return PP_COLL_BCAST;
    case PP_EV_REDUCE: return PP_COLL_REDUCE;
    case PP_EV_ALLREDUCE: return PP_COLL_ALLREDUCE;
    case PP_EV_GATHER: return PP_COLL_GATHER;
    case PP_EV_SCATTER: return PP_COLL_SCATTER;
    case PP_EV_ALLGATHER: return PP_COLL_ALLGATHER;
    case PP_EV_ALLTOALL: return PP_COLL_ALLTOALL;
    case PP_EV_MPI_BARRIER: return PP_COLL_BARRIER;
    default: return -1;
    }
}

int pp_inst_mpi_event(ictx *c, int t, frame *fr, const pp_devent *ev, int idx)
{
    char wb[300];
    int comm = 0;
    if (ev->kind == PP_EV_COMM_SPLIT || ev->kind == PP_EV_COMM_DUP || ev->kind == PP_EV_COMM_FREE) {
        /* also for counts: (rank NAME) may bound loops */
        if (pp_inst_comm_event(c, fr, ev, &comm))
            return -1;
        if (!(c->flags & PP_INST_ACTIONS) || ev->kind == PP_EV_COMM_FREE)
            return 0;
        /* collective on the parent: a split exchanges every member's color
         * and key (an allgather of two ints), a dup agrees on a context
         * id (an allreduce of one) */
        return ev->kind == PP_EV_COMM_SPLIT ? coll_action(c, t, fr, PP_COLL_ALLGATHER, 0, 8, ev, comm)
                                            : coll_action(c, t, fr, PP_COLL_ALLREDUCE, 0, 4, ev, comm);
    }
    if (!(c->flags & PP_INST_ACTIONS))
        return 0;          /* counts only: messages do not change them */
    switch (ev->kind) {
    case PP_EV_MPI_INIT:
    case PP_EV_MPI_FINALIZE:
    case PP_EV_MPI_OTHER:
        return 0;
    default:
        break;
    }
    if (ev->comm != PP_COMM_NONE && pp_inst_comm_of(c, fr, ev, &comm))
        return -1;
    if (comm != 0)
        pp_inst_class_bad(c);   /* the rank's own communicator: not a class's */
    switch (ev->kind) {
    case PP_EV_SEND:
    case PP_EV_ISEND:
    case PP_EV_RECV:
    case PP_EV_IRECV: {
        int recv = ev->kind == PP_EV_RECV || ev->kind == PP_EV_IRECV;
        long peer;
        if (peer_rank(c, fr, ev, comm, ev->peer, recv, &peer, recv ? "source" : "destination"))
            return -1;
        int tag = tag_of(c, fr, ev->tag, recv);
        pp_akind k = ev->kind == PP_EV_SEND   ? PP_A_SEND
                     : ev->kind == PP_EV_ISEND ? PP_A_ISEND
                     : ev->kind == PP_EV_RECV  ? PP_A_RECV
                                               : PP_A_IRECV;
        if (k == PP_A_SEND && ev->callee && strcmp(ev->callee, "MPI_Ssend") == 0)
            k = PP_A_SSEND;
        if (peer == -2) {
            /* MPI_PROC_NULL: completes at once; a request still counts */
            if (k == PP_A_ISEND || k == PP_A_IRECV)
                return msg_action(c, t, fr, k, -2, tag, 0, ev, comm);
            return 0;
        }
        return msg_action(c, t, fr, k, peer, tag, msg_bytes(c, fr, ev, idx, 0), ev, comm);
    }
    case PP_EV_SENDRECV: {
        long dst, src;
        if (peer_rank(c, fr, ev, comm, ev->peer, 0, &dst, "destination") ||
            peer_rank(c, fr, ev, comm, ev->rpeer, 1, &src, "source"))
            return -1;
        int stag = tag_of(c, fr, ev->tag, 0), rtag = tag_of(c, fr, ev->rtag, 1);
        if (msg_action(c, t, fr, PP_A_ISEND, dst, stag, dst == -2 ? 0 : msg_bytes(c, fr, ev, idx, 0), ev, comm) ||
            msg_action(c, t, fr, PP_A_IRECV, src, rtag, src == -2 ? 0 : msg_bytes(c, fr, ev, idx, 1), ev, comm))
            return -1;
        return pp_inst_sync_action(c, t, PP_A_WAIT, 0, 2, fr->fi, ev->id);
    }
    case PP_EV_WAIT:
        return pp_inst_sync_action(c, t, PP_A_WAIT, 0, 1, fr->fi, ev->id);
    case PP_EV_WAITALL: {
        int64_t n;
        if (!ev->count || pp_inst_eval(c, fr, ev->count, &n) || n < 0 || n > (1 << 30))
            n = -1;     /* all the outstanding requests */
        return pp_inst_sync_action(c, t, PP_A_WAIT, 0, (int)n, fr->fi, ev->id);
    }
    default: {
        int k = pp_mpi_coll_of(ev->kind);
        if (k < 0)
            return 0;
        int64_t root = 0;
        if (pp_coll_rooted(k)) {
            if (!ev->root || pp_inst_eval(c, fr, ev->root, &root)) {
                char *s = ev->root ? pp_expr_to_infix(ev->root) : NULL;
                pp_inst_fail(c, "%s: the root (%s) is not an expression the model can evaluate for rank %d of %d",
                             pp_inst_where(fr, ev, wb, sizeof wb), s ? s : "?", c->rank, c->P);
                free(s);
                return -1;
            }
            int size = c->in->comms[comm].size;
            if (root < 0 || root >= size)
                return pp_inst_fail(c, "%s: root %lld, but there are %d ranks%s (an invalid rank: the program "
                                    "would fail)", pp_inst_where(fr, ev, wb, sizeof wb), (long long)root, size,
                                    comm ? " in its communicator" : "");
        }
        double bytes = k == PP_COLL_BARRIER ? 0 : msg_bytes(c, fr, ev, idx, k == PP_COLL_SCATTER);
        return coll_action(c, t, fr, k, (int)root, bytes, ev, comm);
    }
    }
}
