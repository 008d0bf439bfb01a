/* mpi-match.c - see mpi-match.h.
 *
 * MPI matches a receive with a message by communicator, source and tag;
 * a rank's receives are matched in the order it posted them, and two
 * messages of one sender that both match a receive are taken in the order
 * they were sent (non-overtaking).  So, without wildcards, the k-th
 * receive of rank r from s with tag t takes the k-th message s sent to r
 * with tag t, whether the calls were blocking (Send, Recv), non-blocking
 * (Isend, Irecv: the record has the call that posted them, which fixes
 * their order; the Wait that completes them does not) or the two halves
 * of a Sendrecv.  A receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG
 * (only an Irecv records its wildcards: a Recv records the status) takes,
 * of the messages it matches, the one of its sender's earliest, and
 * between senders the one sent first.  Each rank's clock starts with its
 * runtime, so the ranks' times are compared by epochs: the k-th epoch of
 * every rank begins when it leaves its k-th synchronising collective on
 * MPI_COMM_WORLD (a barrier, allreduce, allgather or alltoall, which
 * nobody leaves before everybody entered; epoch 0 at the return of
 * MPI_Init).  A message sent in an earlier epoch was sent first; within
 * one epoch, the time since its start decides, which is a guess when the
 * ranks left the collective at different times, and show says how many
 * receives it matched that way.
 *
 * The peers are the library's values: each record says its MPI's
 * MPI_ANY_SOURCE, MPI_ANY_TAG and MPI_PROC_NULL (Open MPI: -1, -1, -2;
 * MPICH: -2, -1, -1).  A wildcard is kept as ANY_SOURCE, ANY_TAG below
 * (-1, the value pp_mmiss gives it) whatever the MPI's.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "mpi-match.h"

#include <stdlib.h>
#include <string.h>

#define ANY_SOURCE (-1)     /* wildcards as the lists keep them */
#define ANY_TAG    (-1)

typedef struct {
    int src, dst, tag;
    int64_t bytes;
    long epoch;          /* the sender's synchronising collectives before */
    uint64_t dt;         /* the time since the sender left the last       */
    long seq;            /* the sender's order                            */
    int func, site, used;
} msend;

typedef struct {
    int dst, src, tag;   /* src, tag: ANY_* for wildcards                 */
    int64_t bytes;
    int capacity;        /* bytes is the posted buffer, not what arrived  */
    int func, site;
} mrecv;

typedef struct {
    int src, tag;
    long begin, end, next;   /* sends[begin..end), next: the first unmatched */
} group;

typedef struct {
    msend *s;
    long ns, caps;
    mrecv *r;
    long nr, capr;
    pp_mmiss *miss;
    long nmiss, capm;
} lists;

static int grow(void **p, long *cap, long n, size_t size)
{
    if (n < *cap)
        return 0;
    long nc = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, size * (size_t)nc);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int add_send(lists *l, int src, const pp_rev *e, int dst, int tag, int64_t bytes, long seq, long epoch,
                    uint64_t since)
{
    if (grow((void **)&l->s, &l->caps, l->ns, sizeof *l->s))
        return -1;
    /* another thread of the rank may have left the collective after this
     * one entered the send */
    uint64_t dt = e->t0 > since ? e->t0 - since : 0;
    l->s[l->ns++] = (msend){src, dst, tag, bytes, epoch, dt, seq, e->func, e->site, 0};
    return 0;
}

static int add_recv(lists *l, int dst, const pp_rev *e, int src, int tag, int64_t bytes, int capacity)
{
    if (grow((void **)&l->r, &l->capr, l->nr, sizeof *l->r))
        return -1;
    l->r[l->nr++] = (mrecv){dst, src, tag, bytes, capacity, e->func, e->site};
    return 0;
}

static int add_miss(lists *l, int is_recv, int rank, int src, int dst, int tag, int func, int site)
{
    if (grow((void **)&l->miss, &l->capm, l->nmiss, sizeof *l->miss))
        return -1;
    l->miss[l->nmiss++] = (pp_mmiss){is_recv, src, dst, tag, func, site, rank, 1};
    return 0;
}

/* a rank's events in the order it made them (its threads interleaved by
 * time) */
static int by_time(const void *a, const void *b, void *rec)
{
    const pp_record *r = rec;
    const pp_rev *x = &r->events[*(const long *)a], *y = &r->events[*(const long *)b];
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return (x->n > y->n) - (x->n < y->n);
}

static int by_channel(const void *a, const void *b)
{
    const msend *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int miss_key(const pp_mmiss *x, const pp_mmiss *y)
{
    const int a[] = {x->is_recv, x->rank, x->src, x->dst, x->tag, x->func, x->site};
    const int b[] = {y->is_recv, y->rank, y->src, y->dst, y->tag, y->func, y->site};
    for (int i = 0; i < 7; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int by_miss(const void *a, const void *b)
{
    return miss_key(a, b);
}

static int by_count(const void *a, const void *b)
{
    const pp_mmiss *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return miss_key(x, y);
}

static int is_p2p(pp_evkind k)
{
    return k == PP_EV_SEND || k == PP_EV_ISEND || k == PP_EV_RECV || k == PP_EV_IRECV || k == PP_EV_SENDRECV;
}

/* collectives that no rank leaves before every rank entered */
static int is_sync(pp_evkind k)
{
    return k == PP_EV_MPI_BARRIER || k == PP_EV_ALLREDUCE || k == PP_EV_ALLGATHER || k == PP_EV_ALLTOALL;
}

/* The sends and receives of rank k, in its order. */
static int collect(const pp_mpirun *run, int k, lists *l, pp_mmatch *out)
{
    const pp_record *r = &run->rank[k];
    const int any_source = r->mpi_any_source, any_tag = r->mpi_any_tag, proc_null = r->mpi_proc_null;
    long n = 0;
    long *ix = malloc(sizeof *ix * (size_t)(r->nevents + 1));
    if (!ix)
        return -1;
    for (long i = 0; i < r->nevents; i++)
        if ((is_p2p(r->events[i].kind) && r->events[i].has_msg) || is_sync(r->events[i].kind) ||
            r->events[i].kind == PP_EV_MPI_INIT)
            ix[n++] = i;
    qsort_r(ix, (size_t)n, sizeof *ix, by_time, (void *)r);
    int rc = 0;
    long seq = 0, epoch = 0;
    uint64_t since = 0;      /* the start of the epoch */
    for (long i = 0; rc == 0 && i < n; i++) {
        const pp_rev *e = &r->events[ix[i]];
        if (e->kind == PP_EV_MPI_INIT || (is_sync(e->kind) && (e->comm == 1 || e->comm == -1))) {
            epoch += e->kind != PP_EV_MPI_INIT;
            since = e->t1;
            continue;
        }
        if (!is_p2p(e->kind))
            continue;     /* a collective on another communicator */
        if (e->comm != 1 && e->comm != -1) {
            out->other_comm++;
            continue;
        }
        if (e->result != 0) {
            out->failed++;
            continue;
        }
        int sends = e->kind == PP_EV_SEND || e->kind == PP_EV_ISEND || e->kind == PP_EV_SENDRECV;
        if (sends) {
            if (e->peer == proc_null)
                out->proc_null++;
            else if (e->peer >= 0 && e->peer < run->nranks && e->tag >= 0)
                rc = add_send(l, k, e, e->peer, e->tag, e->bytes, seq++, epoch, since);
            else      /* no such rank or tag: a message nobody can receive */
                rc = add_miss(l, 0, k, k, e->peer, e->tag, e->func, e->site);
        }
        if (rc || e->kind == PP_EV_SEND || e->kind == PP_EV_ISEND)
            continue;
        int half = e->kind == PP_EV_SENDRECV;
        int src = half ? e->rpeer : e->peer, tag = half ? e->rtag : e->tag;
        /* a receive's source and tag are the status's, except an Irecv's,
         * posted before anything arrived: there ANY_* are wildcards */
        int wild = e->kind == PP_EV_IRECV;
        if (src == proc_null) {
            out->proc_null++;
            continue;
        }
        if (wild && src == any_source)
            src = ANY_SOURCE;
        if (wild && tag == any_tag)
            tag = ANY_TAG;
        if (((src >= 0 && src < run->nranks) || (wild && src == ANY_SOURCE)) &&
            (tag >= 0 || (wild && tag == ANY_TAG)))
            rc = add_recv(l, k, e, src, tag, half ? e->rbytes : e->bytes, wild);
        else      /* no such rank or tag: no message can match it */
            rc = add_miss(l, 1, k, src, k, tag, e->func, e->site);
    }
    free(ix);
    return rc;
}

/* Of rank r's groups (sorted by source, tag), the one that receive v takes
 * its message from, or NULL: for a wildcard, the matching group whose
 * next message was sent first. */
static group *take(group *g, long ng, const msend *s, const mrecv *v, int *guess)
{
    *guess = 0;
    if (v->src != ANY_SOURCE && v->tag != ANY_TAG) {
        long lo = 0, hi = ng;
        while (lo < hi) {
            long mid = (lo + hi) / 2;
            if (g[mid].src < v->src || (g[mid].src == v->src && g[mid].tag < v->tag))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < ng && g[lo].src == v->src && g[lo].tag == v->tag && g[lo].next < g[lo].end ? &g[lo] : NULL;
    }
    group *best = NULL;
    for (long i = 0; i < ng; i++) {
        if (g[i].next >= g[i].end || (v->src != ANY_SOURCE && g[i].src != v->src) ||
            (v->tag != ANY_TAG && g[i].tag != v->tag))
            continue;
        const msend *a = &s[g[i].next];
        if (!best)
            best = &g[i];
        else {
            const msend *b = &s[best->next];
            /* one sender: its order; two: the clocks, then the rank */
            int earlier = a->src == b->src      ? a->seq < b->seq
                          : a->epoch != b->epoch ? a->epoch < b->epoch
                          : a->dt != b->dt       ? a->dt < b->dt
                                                 : a->src < b->src;
            /* the candidate the clocks chose between is still a guess
             * when it loses to a later one */
            int by_clock = a->src != b->src && a->epoch == b->epoch;
            if (earlier)
                best = &g[i];
            *guess |= by_clock;
        }
    }
    return best;
}

int pp_mpi_match(const pp_mpirun *run, pp_mmatch *out)
{
    memset(out, 0, sizeof *out);
    int P = run->nranks;
    lists l = {0};
    group *g = NULL;
    out->sends = calloc((size_t)P + 1, sizeof *out->sends);
    out->recvs = calloc((size_t)P + 1, sizeof *out->recvs);
    out->bsent = calloc((size_t)P + 1, sizeof *out->bsent);
    out->brecv = calloc((size_t)P + 1, sizeof *out->brecv);
    if (!out->sends || !out->recvs || !out->bsent || !out->brecv)
        goto oom;
    for (int k = 0; k < P; k++)
        if (collect(run, k, &l, out))
            goto oom;
    for (long i = 0; i < l.ns; i++) {
        out->sends[l.s[i].src]++;
        out->bsent[l.s[i].src] += l.s[i].bytes > 0 ? l.s[i].bytes : 0;
    }
    if (l.ns)    /* (qsort of NULL is undefined, even of nothing) */
        qsort(l.s, (size_t)l.ns, sizeof *l.s, by_channel);
    g = malloc(sizeof *g * (size_t)(l.ns + 1));
    if (!g)
        goto oom;
    /* the receives are in rank order, each rank's in its posting order */
    long si = 0, ri = 0;
    for (int r = 0; r < P; r++) {
        long ng = 0;
        for (; si < l.ns && l.s[si].dst == r; si++) {
            if (ng == 0 || g[ng - 1].src != l.s[si].src || g[ng - 1].tag != l.s[si].tag)
                g[ng++] = (group){l.s[si].src, l.s[si].tag, si, si, si};
            g[ng - 1].end = si + 1;
        }
        for (; ri < l.nr && l.r[ri].dst == r; ri++) {
            const mrecv *v = &l.r[ri];
            int guess;
            group *h = take(g, ng, l.s, v, &guess);
            out->recvs[r]++;
            if (!h) {
                out->brecv[r] += v->capacity || v->bytes < 0 ? 0 : v->bytes;
                if (add_miss(&l, 1, r, v->src, r, v->tag, v->func, v->site))
                    goto oom;
                continue;
            }
            msend *m = &l.s[h->next++];
            m->used = 1;
            out->matched++;
            out->wildcard += v->src == ANY_SOURCE || v->tag == ANY_TAG;
            out->guessed += guess;
            out->brecv[r] += m->bytes > 0 ? m->bytes : 0;
            /* an Irecv records the buffer it posted: a message may be
             * shorter, not longer; the others record what arrived */
            if (m->bytes >= 0 && v->bytes >= 0 && (v->capacity ? m->bytes > v->bytes : m->bytes != v->bytes))
                out->size_differs++;
        }
    }
    for (long i = 0; i < l.ns; i++)
        if (!l.s[i].used && add_miss(&l, 0, l.s[i].src, l.s[i].src, l.s[i].dst, l.s[i].tag, l.s[i].func,
                                     l.s[i].site))
            goto oom;
    /* the unmatched, one line per call site and channel */
    if (l.nmiss)
        qsort(l.miss, (size_t)l.nmiss, sizeof *l.miss, by_miss);
    long nm = 0;
    for (long i = 0; i < l.nmiss; i++) {
        if (l.miss[i].is_recv)
            out->recvs_unmatched++;
        else
            out->sends_unmatched++;
        if (nm > 0 && miss_key(&l.miss[nm - 1], &l.miss[i]) == 0)
            l.miss[nm - 1].count++;
        else
            l.miss[nm++] = l.miss[i];
    }
    if (nm)
        qsort(l.miss, (size_t)nm, sizeof *l.miss, by_count);
    out->miss = l.miss;
    out->nmiss = (int)nm;
    l.miss = NULL;
    free(l.s);
    free(l.r);
    free(g);
    return 0;
oom:
    free(l.s);
    free(l.r);
    free(l.miss);
    free(g);
    pp_mpi_match_free(out);
    return -1;
}

void pp_mpi_match_free(pp_mmatch *m)
{
    free(m->sends);
    free(m->recvs);
    free(m->bsent);
    free(m->brecv);
    free(m->miss);
    memset(m, 0, sizeof *m);
}
