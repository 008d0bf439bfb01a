/* trav-mpi.c - the MPI part of the traversal: point-to-point messages
 * matched by source, tag and communicator in
 * the order MPI matches them, eager and rendezvous sends, requests
 * completed by Wait/Waitall in posting order, collectives whose per-rank
 * release times come from the network's algorithm (net.h) given each
 * rank's arrival (the report of a hang: trav-mpi-report.c).
 *
 * Times: a send posted at t by rank s of m bytes (LogGP, net.h)
 *   eager (m <= eager limit): s is busy send_ns(m) = o + (m-1)G, the data
 *     is at the destination wire_ns later (L); a receive posted at tr
 *     completes at max(tr, arrival) + recv_ns (o);
 *   rendezvous: the data moves once both sides are there:
 *     tx = max(t + o + L, tr), the sender is done at tx + L + (m-1)G, the
 *     receiver L + o after that.
 * With the PRAM (every cost 0, every send buffered) only the order
 * remains: a receive ends when the message was sent, a collective when
 * the ranks it depends on arrived.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-mpi-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* room for one more in a rank's queue arr (n used of cap), which starts
 * in the rank's record at inl */
#define GROW(arr, n, cap, inl)                                                   \
    ((n) < (cap) ? 0 : grow_((void **)&(arr), &(cap), sizeof *(arr), (inl)))

static int grow_(void **arr, int *cap, size_t size, const void *inl)
{
    int nc = *cap * 2;
    void *p;
    if (*arr == inl) {
        if ((p = malloc(size * (size_t)nc)) != NULL)
            memcpy(p, inl, size * (size_t)*cap);
    } else
        p = realloc(*arr, size * (size_t)nc);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* every rank's queues in its record */
static void queues_inline(rank_st *k)
{
    k->req = k->req_in;
    k->capreq = RANK_REQ_INLINE;
    k->sends = k->send_in;
    k->capsends = 1;
    k->recvs = k->recv_in;
    k->caprecvs = 1;
}

int pp_trav_mpi_init(tctx *c)
{
    mpi_st *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    c->mpi = s;
    if (c->mach)
        s->net = c->mach->net;
    else {
        /* the PRAM: no cost, and buffering is free (every send eager), so
         * only a program that hangs whatever the buffering hangs there */
        pp_net_pram(&s->net);
        s->net.eager_bytes = HUGE_VAL;
    }
    int n = c->in->nthreads;
    s->P = c->in->P;
    s->rk = calloc((size_t)s->P + 1, sizeof *s->rk);
    s->rank_of = calloc((size_t)n + 1, sizeof *s->rank_of);
    s->c_arr = calloc((size_t)s->P + 1, sizeof *s->c_arr);
    s->g_arr = calloc((size_t)s->P + 1, sizeof *s->g_arr);
    s->g_rel = calloc((size_t)s->P + 1, sizeof *s->g_rel);
    s->c_thread = calloc((size_t)s->P + 1, sizeof *s->c_thread);
    s->c_act = calloc((size_t)s->P + 1, sizeof *s->c_act);
    /* an instance without a communicator table (built by hand in a
     * test) has the world only */
    s->world1.size = s->P;
    s->ncomms = c->in->ncomms ? c->in->ncomms : 1;
    s->comms = c->in->ncomms ? c->in->comms : &s->world1;
    s->coll = calloc((size_t)s->ncomms, sizeof *s->coll);
    if (!s->rk || !s->rank_of || !s->c_arr || !s->g_arr || !s->g_rel || !s->c_thread || !s->c_act || !s->coll)
        return -1;
    for (int r = 0; r < s->P; r++)
        queues_inline(&s->rk[r]);
    int nf = c->m->nfuncs;
    s->kind_of = calloc((size_t)nf + 1, sizeof *s->kind_of);
    s->nkind = calloc((size_t)nf + 1, sizeof *s->nkind);
    if (!s->kind_of || !s->nkind)
        return -1;
    for (int f = 0; f < nf; f++) {
        const pp_dfunc *d = c->m->funcs[f].d;
        int mx = -1;
        for (int i = 0; i < d->nevents; i++)
            if (d->events[i].id > mx)
                mx = d->events[i].id;
        s->nkind[f] = mx + 1;
        s->kind_of[f] = malloc(sizeof **s->kind_of * (size_t)(mx + 2));
        if (!s->kind_of[f])
            return -1;
        for (int id = 0; id <= mx; id++)
            s->kind_of[f][id] = PP_EV_OTHER;
        for (int i = d->nevents - 1; i >= 0; i--)      /* the first of an id wins */
            if (d->events[i].id >= 0)
                s->kind_of[f][d->events[i].id] = d->events[i].kind;
    }
    /* rank threads come first (thread r is rank r); a thread a rank
     * started belongs to its creator's rank */
    for (int t = 0; t < n; t++) {
        const pp_ithread *th = &c->in->threads[t];
        if (th->kind == PP_IT_RANK)
            s->rank_of[t] = th->tid;
        else
            s->rank_of[t] = th->parent >= 0 && th->parent < t ? s->rank_of[th->parent] : 0;
    }
    return 0;
}

void pp_trav_mpi_free(tctx *c)
{
    mpi_st *s = c->mpi;
    if (!s)
        return;
    for (int r = 0; s->rk && r < s->P; r++) {
        rank_st *k = &s->rk[r];
        if (k->sends != k->send_in)
            free(k->sends);
        if (k->recvs != k->recv_in)
            free(k->recvs);
        if (k->req != k->req_in)
            free(k->req);
    }
    free(s->rk);
    free(s->rank_of);
    free(s->c_arr);
    free(s->g_arr);
    free(s->g_rel);
    free(s->coll);
    free(s->c_thread);
    free(s->c_act);
    for (int f = 0; s->kind_of && f < c->m->nfuncs; f++)
        free(s->kind_of[f]);
    free(s->kind_of);
    free(s->nkind);
    free(s);
    c->mpi = NULL;
}

/* ---- accounting ------------------------------------------------------ */

static pp_evkind site_kind(const tctx *c, const pp_action *a)
{
    const mpi_st *s = c->mpi;
    if (a->func < 0 || a->func >= c->m->nfuncs || a->site < 0 || a->site >= s->nkind[a->func])
        return PP_EV_OTHER;
    return s->kind_of[a->func][a->site];
}

/* Thread t leaves its current MPI action a at `leave`, having entered it
 * at `enter`; `own` of that is the network's cost to t (overheads, the
 * algorithm), the rest waiting. */
static void call_figures(tctx *c, int t, const pp_action *a, double enter, double *leave, double *own)
{
    if (*leave < enter)
        *leave = enter;
    if (*own > *leave - enter)
        *own = *leave - enter;
    if (*own < 0)
        *own = 0;
    c->out->mpi[t] += *leave - enter;
    c->out->mpi_kind[site_kind(c, a)] += *leave - enter;
}

static void leave_call(tctx *c, int t, const pp_action *a, double enter, double leave, double own)
{
    call_figures(c, t, a, enter, &leave, &own);
    if (c->th[t].state == TS_BLOCKED)
        pp_trav_resume(c, t, leave, own, PP_TR_COMM, PP_TR_WAIT);
    else {
        c->out->sync[t] += own;
        c->out->wait[t] += leave - enter - own;
        pp_trav_span(c, t, PP_TR_WAIT, enter, leave - own);
        pp_trav_span(c, t, PP_TR_COMM, leave - own, leave);
        c->th[t].clock = leave;
        c->th[t].pc++;
        pp_trav_ready(c, t);
    }
}

/* ---- requests -------------------------------------------------------- */

static int new_req(mpi_st *s, int r, const pp_action *a, int complete, double done)
{
    rank_st *k = &s->rk[r];
    if (k->reqhead == k->nreq && k->wait_n == 0)
        k->reqhead = k->nreq = 0;          /* all completed: start over */
    if (GROW(k->req, k->nreq, k->capreq, k->req_in))
        return -1;
    k->req[k->nreq] = (req_t){complete, done, a};
    return k->nreq++;
}

/* The n oldest requests of rank r (n < 0 or more than there are: all):
 * how many that is, and whether all are complete (then *done: the last). */
static int wanted(const rank_st *k, int n, double *done, int *count)
{
    int have = k->nreq - k->reqhead;
    if (n < 0 || n > have)
        n = have;
    *count = n;
    double d = 0;
    for (int i = 0; i < n; i++) {
        const req_t *q = &k->req[k->reqhead + i];
        if (!q->complete)
            return 0;
        if (q->done > d)
            d = q->done;
    }
    *done = d;
    return 1;
}

static void req_complete(tctx *c, int r, int idx, double done)
{
    mpi_st *s = c->mpi;
    rank_st *k = &s->rk[r];
    k->req[idx].complete = 1;
    k->req[idx].done = done;
    if (k->wait_n == 0)
        return;
    double d;
    int cnt;
    if (!wanted(k, k->wait_n, &d, &cnt))
        return;
    int t = k->wait_thread;
    k->reqhead += cnt;
    k->wait_n = 0;
    const pp_action *a = &c->th[t].act[c->th[t].pc];
    leave_call(c, t, a, c->th[t].blocked_at, d > c->th[t].blocked_at ? d : c->th[t].blocked_at, 0);
}

/* ---- matching ---------------------------------------------------------- */

static int tags_match(int want, int have)
{
    return want == PP_MPI_ANY || have == PP_MPI_ANY || want == have;
}

static double nbytes_G(const pp_net *n, double bytes)
{
    return bytes > 1 ? (bytes - 1) * n->G : 0;
}

/* A send and a receive meet: complete both sides. */
static void deliver(tctx *c, int dst, const msg_t *m, const rcv_t *rv)
{
    mpi_st *s = c->mpi;
    const pp_net *n = &s->net;
    double send_done, recv_done;
    if (m->eager) {
        double at = m->t_arrive > rv->t_post ? m->t_arrive : rv->t_post;
        recv_done = at + pp_net_recv_ns(n, m->bytes);
        send_done = -1;          /* the sender was done when it posted */
    } else {
        double tx = m->t_post + n->o + n->L;
        if (rv->t_post > tx)
            tx = rv->t_post;
        send_done = tx + n->L + nbytes_G(n, m->bytes);
        recv_done = send_done + n->L + n->o;
    }
    pp_trav_flow(c, PP_FL_MESSAGE, m->thread, m->t_post, rv->thread, recv_done);
    /* the receiver */
    if (rv->req < 0)
        leave_call(c, rv->thread, rv->a, rv->t_post, recv_done, pp_net_recv_ns(n, m->bytes));
    else
        req_complete(c, dst, rv->req, recv_done);
    /* a rendezvous sender */
    if (!m->eager) {
        int sr = s->rank_of[m->thread];
        if (m->req < 0)
            leave_call(c, m->thread, m->a, m->t_post, send_done, n->o + nbytes_G(n, m->bytes));
        else
            req_complete(c, sr, m->req, send_done);
    }
}

/* A send of thread t (rank src) reaches rank dst. */
static int post_send(tctx *c, int dst, msg_t m)
{
    mpi_st *s = c->mpi;
    rank_st *k = &s->rk[dst];
    for (int i = 0; i < k->nrecvs; i++) {
        rcv_t *rv = &k->recvs[i];
        if (rv->comm == m.comm && (rv->src == PP_MPI_ANY || rv->src == m.src) && tags_match(rv->tag, m.tag)) {
            rcv_t got = *rv;
            memmove(rv, rv + 1, sizeof *rv * (size_t)(k->nrecvs - i - 1));
            k->nrecvs--;
            deliver(c, dst, &m, &got);
            return 0;
        }
    }
    if (GROW(k->sends, k->nsends, k->capsends, k->send_in))
        return -1;
    k->sends[k->nsends++] = m;
    return 0;
}

static int post_recv(tctx *c, int dst, rcv_t rv)
{
    mpi_st *s = c->mpi;
    rank_st *k = &s->rk[dst];
    for (int i = 0; i < k->nsends; i++) {
        msg_t *m = &k->sends[i];
        if (rv.comm == m->comm && (rv.src == PP_MPI_ANY || rv.src == m->src) && tags_match(rv.tag, m->tag)) {
            msg_t got = *m;
            memmove(m, m + 1, sizeof *m * (size_t)(k->nsends - i - 1));
            k->nsends--;
            deliver(c, dst, &got, &rv);
            return 0;
        }
    }
    if (GROW(k->recvs, k->nrecvs, k->caprecvs, k->recv_in))
        return -1;
    k->recvs[k->nrecvs++] = rv;
    return 0;
}

/* ---- collectives ------------------------------------------------------ */

static int coll_fail(tctx *c, int t, const pp_action *a, const char *why)
{
    mpi_st *s = c->mpi;
    const coll_st *cs = &s->coll[a->comm];
    char w1[256] = "?", w2[256], cb[160];
    int t0 = t;
    for (int i = 0; i < s->comms[a->comm].size; i++) {
        int w = member(s, a->comm, i);
        if (s->c_act[w] && s->c_act[w]->comm == a->comm) {
            t0 = s->c_thread[w];
            pp_trav_site(c, s->c_act[w], w1, sizeof w1);
            break;
        }
    }
    snprintf(c->err, c->errlen,
             "the MPI ranks disagree on collective #%ld of %s (%s): rank %d calls %s with root %d "
             "at %s, rank %d calls %s with root %d at %s (the program is erroneous: MPI would hang or fail)",
             cs->seq + 1, comm_text(s, a->comm, cb, sizeof cb), why, s->rank_of[t0], pp_coll_name(cs->kind),
             cs->root, w1, s->rank_of[t], pp_coll_name((pp_coll)a->key), a->n, pp_trav_site(c, a, w2, sizeof w2));
    return -1;
}

static int coll_arrive(tctx *c, int t, const pp_action *a)
{
    mpi_st *s = c->mpi;
    int r = s->rank_of[t];
    double now = c->th[t].clock;
    int rooted = pp_coll_rooted((pp_coll)a->key);
    if (a->comm < 0 || a->comm >= s->ncomms) {
        snprintf(c->err, c->errlen, "a collective on communicator %d of %d", a->comm, s->ncomms);
        return -1;
    }
    const pp_comm *m = &s->comms[a->comm];
    coll_st *cs = &s->coll[a->comm];
    if (s->c_act[r]) {
        char w[256];
        snprintf(c->err, c->errlen, "rank %d enters a collective at %s while it is in another (two threads of "
                 "a rank in collectives at once: the model follows one)", r, pp_trav_site(c, a, w, sizeof w));
        return -1;
    }
    if (!cs->active) {
        cs->active = 1;
        cs->kind = (int)a->key;
        cs->root = rooted ? a->n : 0;
        cs->arrived = 0;
        cs->bytes = 0;
    } else if (a->key != cs->kind)
        return coll_fail(c, t, a, "different collectives");
    else if (rooted && a->n != cs->root)
        return coll_fail(c, t, a, "different roots");
    s->c_arr[r] = now;
    s->c_thread[r] = t;
    s->c_act[r] = a;
    if (a->ns > cs->bytes)
        cs->bytes = a->ns;
    cs->arrived++;
    pp_trav_block(c, t);
    if (c->fold) {
        /* the ranks t walked its phase for arrive with it (trav-fold.c) */
        const ilist *more = pp_trav_fold_arrive_list(c, t);
        if (!more) {
            snprintf(c->err, c->errlen, "out of memory");
            return -1;
        }
        for (int i = 0; i < more->n; i++) {
            if (i + 8 < more->n) {
                /* scattered ranks: their lines asked for ahead */
                int at = more->v[i + 8], ar = s->rank_of[at];
                __builtin_prefetch(&s->c_act[ar], 1);
                __builtin_prefetch(&s->c_arr[ar], 1);
                __builtin_prefetch(&s->c_thread[ar], 1);
                __builtin_prefetch(&c->th[at]);
            }
            int mt = more->v[i], mr = s->rank_of[mt];
            if (s->c_act[mr]) {
                char w[256];
                snprintf(c->err, c->errlen, "rank %d enters a collective at %s while it is in another (two "
                         "threads of a rank in collectives at once: the model follows one)", mr,
                         pp_trav_site(c, a, w, sizeof w));
                return -1;
            }
            s->c_arr[mr] = now;
            s->c_thread[mr] = mt;
            s->c_act[mr] = &c->th[mt].act[c->th[mt].pc];
            cs->arrived++;
        }
    }
    if (cs->arrived < m->size)
        return 0;
    /* everyone is there: the algorithm gives each rank's release */
    for (int i = 0; i < m->size; i++)
        s->g_arr[i] = s->c_arr[member(s, a->comm, i)];
    if (pp_net_collective(&s->net, (pp_coll)cs->kind, m->size, cs->root, cs->bytes, s->g_arr, s->g_rel)) {
        snprintf(c->err, c->errlen, "the network model cannot evaluate %s on %d ranks (root %d)",
                 pp_coll_name(cs->kind), m->size, cs->root);
        return -1;
    }
    double last = 0;
    for (int i = 0; i < m->size; i++)
        if (s->g_arr[i] > last)
            last = s->g_arr[i];
    cs->active = 0;
    cs->seq++;
    /* every member is released: when they are many, the queue's tree is
     * rebuilt once from its leaves (nleaf - 1 nodes) instead of a path per
     * member (log2 nleaf each); both give the same tree */
    if (c->sink && rooted) {
        /* the data's way: from the root to each member, or back */
        int ri = cs->root, rt = s->c_thread[member(s, a->comm, ri)];
        int back = cs->kind == PP_COLL_REDUCE || cs->kind == PP_COLL_GATHER;
        for (int i = 0; i < m->size; i++) {
            if (i == ri)
                continue;
            int wt = s->c_thread[member(s, a->comm, i)];
            const double *rel = s->g_rel, *arr = s->g_arr;
            if (back)
                pp_trav_flow(c, PP_FL_COLLECTIVE, wt, arr[i], rt, rel[ri] > arr[ri] ? rel[ri] : arr[ri]);
            else
                pp_trav_flow(c, PP_FL_COLLECTIVE, rt, arr[ri], wt, rel[i] > arr[i] ? rel[i] : arr[i]);
        }
    }
    int batch = (long)m->size * __builtin_ctz((unsigned)c->nleaf) >= c->nleaf;
    if (batch)
        pp_trav_queue_batch(c, 1);
    if (c->fold && pp_trav_fold_begin(c, m->size)) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < m->size; i++) {
        int w = member(s, a->comm, i);
        /* waiting: until the last rank came (at most the whole time) */
        double rel = s->g_rel[i] > s->g_arr[i] ? s->g_rel[i] : s->g_arr[i];
        double waited = last - s->g_arr[i];
        if (waited > rel - s->g_arr[i])
            waited = rel - s->g_arr[i];
        const pp_action *ai = s->c_act[w];
        s->c_act[w] = NULL;
        if (c->fold) {
            /* every member is blocked here: leave_call's figures, then
             * the release, the ranks alike grouped (trav-fold.c) */
            double own = rel - s->g_arr[i] - waited;
            call_figures(c, s->c_thread[w], ai, s->g_arr[i], &rel, &own);
            pp_trav_fold_add(c, i, s->c_thread[w], rel, own);
        } else
            leave_call(c, s->c_thread[w], ai, s->g_arr[i], rel, rel - s->g_arr[i] - waited);
    }
    if (c->fold && pp_trav_fold_resume(c, m->size)) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    if (batch)
        pp_trav_queue_batch(c, 0);
    return 0;
}

/* ---- one action ------------------------------------------------------- */

int pp_trav_mpi_step(tctx *c, int t, const pp_action *a)
{
    mpi_st *s = c->mpi;
    if (!s) {
        snprintf(c->err, c->errlen, "an MPI action outside an MPI run");
        return -1;
    }
    const pp_net *n = &s->net;
    int r = s->rank_of[t];
    double now = c->th[t].clock;
    switch (a->kind) {
    case PP_A_SEND:
    case PP_A_SSEND:
    case PP_A_ISEND: {
        int dst = pp_action_peer(a, r);
        if (dst == -2) {         /* MPI_PROC_NULL */
            if (a->kind == PP_A_ISEND && new_req(s, r, a, 1, now) < 0)
                return -1;
            leave_call(c, t, a, now, now, 0);
            return 0;
        }
        if (dst < 0 || dst >= s->P) {
            char w[256];
            snprintf(c->err, c->errlen, "rank %d sends to rank %d at %s: there are %d ranks", r, dst,
                     pp_trav_site(c, a, w, sizeof w), s->P);
            return -1;
        }
        msg_t m = {.src = r, .tag = a->n, .comm = a->comm, .bytes = a->ns, .t_post = now, .thread = t, .req = -1,
                   .a = a};
        m.eager = a->kind != PP_A_SSEND && pp_net_is_eager(n, a->ns);
        double busy = m.eager ? pp_net_send_ns(n, a->ns) : n->o;
        m.t_arrive = now + pp_net_send_ns(n, a->ns) + pp_net_wire_ns(n, a->ns);
        if (a->kind == PP_A_ISEND) {
            m.req = new_req(s, r, a, m.eager, now + pp_net_send_ns(n, a->ns));
            if (m.req < 0)
                return -1;
            leave_call(c, t, a, now, now + n->o, n->o);
        } else if (m.eager)
            leave_call(c, t, a, now, now + busy, busy);
        else
            pp_trav_block(c, t);    /* until the receive is there */
        return post_send(c, dst, m);
    }
    case PP_A_RECV:
    case PP_A_IRECV: {
        int src = pp_action_peer(a, r);
        if (src == -2) {
            if (a->kind == PP_A_IRECV && new_req(s, r, a, 1, now) < 0)
                return -1;
            leave_call(c, t, a, now, now, 0);
            return 0;
        }
        rcv_t rv = {.src = src, .tag = a->n, .comm = a->comm, .t_post = now, .thread = t, .req = -1, .a = a};
        if (a->kind == PP_A_IRECV) {
            rv.req = new_req(s, r, a, 0, 0);
            if (rv.req < 0)
                return -1;
            leave_call(c, t, a, now, now, 0);
        } else
            pp_trav_block(c, t);
        return post_recv(c, r, rv);
    }
    case PP_A_WAIT: {
        rank_st *k = &s->rk[r];
        double d;
        int cnt;
        if (wanted(k, a->n, &d, &cnt)) {
            k->reqhead += cnt;
            leave_call(c, t, a, now, d > now ? d : now, 0);
            return 0;
        }
        k->wait_n = cnt;
        k->wait_thread = t;
        pp_trav_block(c, t);
        return 0;
    }
    case PP_A_COLL:
        return coll_arrive(c, t, a);
    default:
        return 0;
    }
}
