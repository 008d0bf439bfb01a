/* trav-mpi-report.c - what the MPI traversal says at its end: the messages
 * never received (a note), and when ranks are blocked and nothing can
 * move, the hang: each blocked rank, what it waits for and where, a cycle
 * of blocking sends, and the ranks that finished without a collective the
 * others wait in.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-mpi-internal.h"

#include <stdio.h>
#include <string.h>

/* ---- the end ----------------------------------------------------------- */

void pp_trav_mpi_finish(tctx *c)
{
    mpi_st *s = c->mpi;
    long n = 0;
    char first[300] = "";
    for (int r = 0; r < s->P; r++)
        for (int i = 0; i < s->rk[r].nsends; i++) {
            const msg_t *m = &s->rk[r].sends[i];
            if (n++ == 0) {
                char w[256];
                snprintf(first, sizeof first, "rank %d to rank %d, tag %d, at %s", m->src, r, m->tag,
                         pp_trav_site(c, m->a, w, sizeof w));
            }
        }
    c->out->unmatched = n;
    if (n)
        snprintf(c->out->note, sizeof c->out->note,
                 "%ld message%s sent and never received (the first: %s): MPI_Finalize with messages "
                 "pending is erroneous", n, n == 1 ? " was" : "s were", first);
}

static size_t add(char *err, size_t errlen, size_t len, const char *fmt, const char *a, const char *b)
{
    if (len >= errlen)
        return len;
    int k = snprintf(err + len, errlen - len, fmt, a, b);
    return k > 0 ? len + (size_t)k : len;
}

/* What blocked rank thread t waits for, in words. */
static void blocked_text(tctx *c, int t, char *buf, size_t n)
{
    mpi_st *s = c->mpi;
    int r = s->rank_of[t];
    const pp_action *a = &c->in->threads[t].act[c->th[t].pc];
    char w[256], peer[64], tag[32];
    pp_trav_site(c, a, w, sizeof w);
    if (a->kind < PP_A_SEND || a->kind > PP_A_COLL) {
        snprintf(buf, n, "rank %d (thread %d) waits at %s", r, t, w);
        return;
    }
    snprintf(tag, sizeof tag, a->n == PP_MPI_ANY ? "any tag" : "tag %d", a->n);
    int peer_rank = pp_action_peer(a, r);
    switch (a->kind) {
    case PP_A_SEND:
    case PP_A_SSEND:
        snprintf(buf, n, "rank %d waits in %s to rank %d (%s, %.0f bytes: %s) at %s", r,
                 a->kind == PP_A_SSEND ? "MPI_Ssend" : "MPI_Send", peer_rank, tag, a->ns,
                 a->kind == PP_A_SSEND ? "synchronous" : "above the eager limit, it needs the receive", w);
        return;
    case PP_A_RECV:
        if (peer_rank == PP_MPI_ANY)
            snprintf(peer, sizeof peer, "any rank");
        else
            snprintf(peer, sizeof peer, "rank %d", peer_rank);
        {
            /* a message from that rank that is there but does not match */
            const rank_st *k = &s->rk[r];
            const msg_t *near = NULL;
            for (int i = 0; i < k->nsends && !near; i++)
                if (peer_rank == PP_MPI_ANY || k->sends[i].src == peer_rank)
                    near = &k->sends[i];
            char nb[400] = "";
            if (near) {
                char w2[256];
                snprintf(nb, sizeof nb, "; rank %d's message to it has tag %d (sent at %s)", near->src, near->tag,
                         pp_trav_site(c, near->a, w2, sizeof w2));
            }
            snprintf(buf, n, "rank %d waits in MPI_Recv for a message from %s with %s at %s (no rank sends one "
                     "that matches%s)", r, peer, tag, w, nb);
        }
        return;
    case PP_A_WAIT: {
        const rank_st *k = &s->rk[r];
        const req_t *q = NULL;
        for (int i = k->reqhead; i < k->nreq; i++)
            if (!k->req[i].complete) {
                q = &k->req[i];
                break;
            }
        char w2[256] = "?";
        if (q && q->a)
            pp_trav_site(c, q->a, w2, sizeof w2);
        int qpeer = q && q->a ? pp_action_peer(q->a, r) : 0;
        if (qpeer == PP_MPI_ANY)
            snprintf(peer, sizeof peer, "any rank");
        else
            snprintf(peer, sizeof peer, "rank %d", qpeer);
        if (q && q->a && q->a->kind == PP_A_IRECV)
            snprintf(buf, n, "rank %d waits at %s for its receive from %s with tag %d posted at %s (no rank "
                     "sends one that matches)", r, w, peer, q->a->n, w2);
        else if (q && q->a)
            snprintf(buf, n, "rank %d waits at %s for its send to rank %d posted at %s (above the eager "
                     "limit: it needs the receive)", r, w, qpeer, w2);
        else
            snprintf(buf, n, "rank %d waits at %s", r, w);
        return;
    }
    case PP_A_COLL: {
        char cb[160];
        int k = a->comm >= 0 && a->comm < s->ncomms ? a->comm : 0;
        snprintf(buf, n, "rank %d waits in %s (collective #%ld of %s, %d of %d ranks arrived) at %s", r,
                 pp_coll_name((pp_coll)a->key), s->coll[k].seq + 1, comm_text(s, k, cb, sizeof cb),
                 s->coll[k].arrived, s->comms[k].size, w);
        return;
    }
    default:
        snprintf(buf, n, "rank %d waits at %s", r, w);
    }
}

void pp_trav_mpi_hang(tctx *c, char *err, size_t errlen)
{
    mpi_st *s = c->mpi;
    size_t len = (size_t)snprintf(err, errlen, "the MPI program " PP_ERR_HANG ": ");
    int shown = 0, nblocked = 0;
    for (int t = 0; t < c->in->nthreads; t++)
        nblocked += c->th[t].state == TS_BLOCKED;
    /* a cycle of blocking sends: follow "waits to send to" from a blocked
     * sender until a rank repeats */
    for (int t = 0; t < c->in->nthreads && len < errlen; t++) {
        if (c->th[t].state != TS_BLOCKED || t >= s->P)
            continue;
        const pp_action *a = &c->in->threads[t].act[c->th[t].pc];
        if (a->kind != PP_A_SEND && a->kind != PP_A_SSEND)
            continue;
        int seen[64], ns = 0, x = t, cyc = -1;
        while (ns < 64 && x >= 0 && x < s->P && c->th[x].state == TS_BLOCKED) {
            const pp_action *ax = &c->in->threads[x].act[c->th[x].pc];
            if (ax->kind != PP_A_SEND && ax->kind != PP_A_SSEND)
                break;
            for (int i = 0; i < ns; i++)
                if (seen[i] == x)
                    cyc = i;
            if (cyc >= 0)
                break;
            seen[ns++] = x;
            x = pp_action_peer(ax, s->rank_of[x]);
        }
        if (cyc >= 0) {
            len = add(err, errlen, len, "%s%s", "a cycle of blocking sends, ranks ", "");
            for (int i = cyc; i < ns && len < errlen; i++) {
                char num[16];
                snprintf(num, sizeof num, "%d", s->rank_of[seen[i]]);
                len = add(err, errlen, len, "%s -> ", num, "");
            }
            char num[16];
            snprintf(num, sizeof num, "%d", s->rank_of[seen[cyc]]);
            len = add(err, errlen, len, "%s; ", num, "");
            break;
        }
    }
    for (int t = 0; t < c->in->nthreads && len < errlen; t++) {
        if (c->th[t].state != TS_BLOCKED)
            continue;
        if (shown == 6) {
            char more[32];
            snprintf(more, sizeof more, "%d", nblocked - shown);
            len = add(err, errlen, len, "; and %s more blocked%s", more, "");
            break;
        }
        char b[700];
        blocked_text(c, t, b, sizeof b);
        len = add(err, errlen, len, "%s%s", shown ? "; " : "", b);
        shown++;
    }
    /* a collective some ranks never reach: say where the others are */
    for (int k = 0; k < s->ncomms && len < errlen; k++) {
        if (!s->coll[k].active)
            continue;
        int done = 0;
        char list[200] = "";
        size_t ll = 0;
        for (int i = 0; i < s->comms[k].size; i++) {
            int r = member(s, k, i);
            if (!s->c_act[r] && c->th[r].state == TS_DONE) {
                if (done < 8 && ll < sizeof list)
                    ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%d", done ? ", " : "", r);
                done++;
            }
        }
        char where[40] = "";
        if (k > 0)
            snprintf(where, sizeof where, " of communicator #%d", k);
        if (done && ll + strlen(where) + 8 < sizeof list)
            snprintf(list + ll, sizeof list - ll, "%s%s", done > 8 ? ", ..." : "", where);
        if (done)
            len = add(err, errlen, len, "; %s %s finished without reaching that collective",
                      done == 1 ? "rank" : "ranks", list);
    }
}
