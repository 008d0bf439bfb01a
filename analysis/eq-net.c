/* eq-net.c - the network terms of an MPI program's equations: each MPI
 * call on rank 0's path priced with the machine's LogGP network and the
 * algorithm its collective takes, as terms of T_sync
 *
 *     (ns of a LogGP figure) x (a count in P and the call's bytes m)
 *
 * from the closed forms of docs/machine-format.md ("Collectives":
 * completion time when all ranks arrive together; with A = 2o + L - G
 * and H the rendezvous handshake 2(o + L) above the eager limit, one
 * message of m bytes takes x(m) = A + H + G m from the start of its send
 * to the end of its receive, and n = ceil(log2 P)).  Where a cost depends
 * on m or P by a threshold (eager or rendezvous, AUTO's choice of the
 * algorithm, the max() of the linear algorithms), it is decided at the
 * point the equations are evaluated at (--set, --P), with loop variables
 * at their first values, and a note says so: the equation is exact where
 * the call keeps that algorithm and regime.  Waiting for late ranks is not
 * in it (the traversal of `predict` has it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "eq-internal.h"
#include "net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of e at the evaluation point: the values w->pv (NULL: the
 * recorded ones), P = w->P_at, the enclosing loops' variables at their
 * first values (outermost first).  NaN when it cannot be evaluated. */
static double value_here(wctx *w, const pp_expr *e)
{
    if (!e)
        return NAN;
    pp_cx_env env = {w->m, w->pv, w->P_at, 0, 0, NULL, 0};
    for (int i = 0; i < w->nlv; i++) {
        const eqlevel *l = &w->lv[i];
        if (l->cond || !l->var || l->var->kind != PP_E_SYM || !l->lo)
            continue;
        pp_cx *lo = pp_cx_expr(pp_expr_ref(l->lo));
        long double v = pp_cx_eval(lo, &env);
        pp_cx_free(lo);
        if (!isnan(v) && pp_cx_env_push(&env, l->var->name, (int64_t)v) < 0)
            break;
    }
    pp_cx *c = pp_cx_expr(pp_expr_ref((pp_expr *)e));
    long double v = pp_cx_eval(c, &env);
    pp_cx_free(c);
    free(env.b);
    return (double)v;
}

/* One call's terms: the site's name, the call's bytes (an expression, and
 * its value here), P's expression, and the network. */
typedef struct {
    wctx *w;
    const pp_net *net;
    char site[160];
    pp_expr *m;       /* bytes (NULL: 0) */
    double mv;        /* bytes here */
    pp_expr *P;
    pp_expr *Pcond;   /* P > 1: every collective costs 0 on one rank */
} call;

static pp_cx *cnt_m(const call *c)
{
    return c->m ? pp_cx_expr(pp_expr_ref(c->m)) : pp_cx_int(0);
}

static pp_cx *cnt_n(const call *c)
{
    return pp_cx_clog2(pp_expr_ref(c->P));
}

/* P - k */
static pp_cx *cnt_pk(const call *c, long k)
{
    return pp_cx_expr(pp_eq_op2(PP_E_SUB, pp_expr_ref(c->P), pp_expr_int(k)));
}

static void term(const call *c, double ns, const char *part, pp_cx *count)
{
    char what[320];
    snprintf(what, sizeof what, "%s: %s", c->site, part);
    pp_eq_term(c->w, 1, ns, what, c->Pcond ? pp_cx_cond(pp_expr_ref(c->Pcond), count) : count);
}

/* H: the rendezvous handshake 2(o + L) above the eager limit */
static double handshake(const pp_net *n, double m)
{
    return pp_net_is_eager(n, m) ? 0 : 2 * (n->o + n->L);
}

/* k x(m): (A + H) k + G k m */
static void x_terms(const call *c, const char *what, pp_cx *k)
{
    const pp_net *n = c->net;
    char part[160];
    snprintf(part, sizeof part, "%s, per message (2o + L - G%s)", what, handshake(n, c->mv) > 0 ? " + 2(o + L)" : "");
    term(c, 2 * n->o + n->L - n->G + handshake(n, c->mv), part, pp_cx_ref(k));
    snprintf(part, sizeof part, "%s, per byte (G)", what);
    term(c, n->G, part, pp_cx_mul(k, cnt_m(c)));
}

/* k e(m), e(m) = max(g, s(m)) + H: the interval between a rank's sends */
static void e_terms(const call *c, const char *what, pp_cx *k)
{
    const pp_net *n = c->net;
    double s = pp_net_send_ns(n, c->mv);
    char part[160];
    if (n->g >= s) {
        snprintf(part, sizeof part, "%s, gap between sends (g%s)", what, handshake(n, c->mv) > 0 ? " + 2(o + L)" : "");
        term(c, n->g + handshake(n, c->mv), part, k);
        return;
    }
    snprintf(part, sizeof part, "%s, per send (o - G%s)", what, handshake(n, c->mv) > 0 ? " + 2(o + L)" : "");
    term(c, n->o - n->G + handshake(n, c->mv), part, pp_cx_ref(k));
    snprintf(part, sizeof part, "%s, per byte sent (G)", what);
    term(c, n->G, part, pp_cx_mul(k, cnt_m(c)));
}

/* k (gamma m): combining in a reduction */
static void gamma_terms(const call *c, const char *what, pp_cx *k)
{
    char part[160];
    snprintf(part, sizeof part, "%s, combining (gamma per byte)", what);
    term(c, c->net->gamma, part, pp_cx_mul(k, cnt_m(c)));
}

/* The linear reduce (reduce = 1) or gather (0), with gm = gamma m for the
 * reduce and 0 for the gather: eager c(m) + gm + (P-2) max(o + gm, r(m)),
 * r(m) = max(g, (m-1)G); rendezvous x(m) + gm + (P-2)(x(m) - L - o + gm) */
static void linear_reduce(const call *c, int reduce)
{
    const pp_net *n = c->net;
    double gm = reduce ? n->gamma * c->mv : 0;
    x_terms(c, "first message", pp_cx_int(1));
    if (reduce)
        gamma_terms(c, "first message", pp_cx_int(1));
    if (!pp_net_is_eager(n, c->mv)) {
        x_terms(c, "each further message", cnt_pk(c, 2));
        term(c, -(n->L + n->o), "each further message, overlapped (-L - o)", cnt_pk(c, 2));
        if (reduce)
            gamma_terms(c, "each further message", cnt_pk(c, 2));
        return;
    }
    double r = fmax(n->g, c->mv > 1 ? (c->mv - 1) * n->G : 0);
    if (n->o + gm >= r) {
        term(c, n->o, "each further message, the root's overhead (o)", cnt_pk(c, 2));
        if (reduce)
            gamma_terms(c, "each further message", cnt_pk(c, 2));
    } else if (n->g >= (c->mv - 1) * n->G) {
        term(c, n->g, "each further message, the receiving gap (g)", cnt_pk(c, 2));
    } else {
        term(c, -n->G, "each further message, the receiving link (-G)", cnt_pk(c, 2));
        term(c, n->G, "each further message, the receiving link per byte (G)", pp_cx_mul(cnt_pk(c, 2), cnt_m(c)));
    }
}

/* The binomial gather or scatter and the recursive-doubling or Bruck
 * allgather: the sum over rounds k < n of x(2^k m) = n A + G m (P - 1),
 * plus the handshake of the rounds whose messages pass the eager limit
 * (all of them above it; from the round where 2^k m does, below it) */
static void doubling_blocks(const call *c)
{
    const pp_net *n = c->net;
    term(c, 2 * n->o + n->L - n->G, "per round (2o + L - G)", cnt_n(c));
    term(c, n->G, "per byte of the P - 1 blocks (G)", pp_cx_mul(cnt_pk(c, 1), cnt_m(c)));
    double H = 2 * (n->o + n->L);
    long eager_rounds = 0;   /* rounds k with 2^k m within the eager limit */
    for (double b = c->mv; b <= n->eager_bytes && eager_rounds < 64; b *= 2)
        eager_rounds++;
    if (pp_net_ceil_log2(c->w->P_at) > eager_rounds) {
        term(c, H, "per round, rendezvous (2(o + L))", cnt_n(c));
        if (eager_rounds > 0)
            term(c, -H, "the eager rounds' handshakes taken back (-2(o + L))", pp_cx_int(eager_rounds));
    }
}

/* The root sending to every other rank in turn (linear bcast, scatter):
 * (P-2) e(m) + x(m) */
static void root_sends(const call *c)
{
    e_terms(c, "P - 2 sends", cnt_pk(c, 2));
    x_terms(c, "the last message", pp_cx_int(1));
}

/* n rounds of a message and its combining (binomial reduce, recursive
 * doubling allreduce): n (x(m) + gamma m) */
static void combining_rounds(const call *c, const char *what)
{
    x_terms(c, what, cnt_n(c));
    gamma_terms(c, what, cnt_n(c));
}

static const char *coll_terms(call *c, pp_coll k, pp_alg a)
{
    const pp_net *n = c->net;
    switch (k) {
    case PP_COLL_BCAST:
        if (a == PP_ALG_BINOMIAL) {
            x_terms(c, "n rounds", cnt_n(c));
            return NULL;
        }
        if (a == PP_ALG_LINEAR) {
            root_sends(c);
            return NULL;
        }
        break;
    case PP_COLL_REDUCE:
        if (a == PP_ALG_BINOMIAL) {
            combining_rounds(c, "n rounds");
            return NULL;
        }
        if (a == PP_ALG_LINEAR) {
            linear_reduce(c, 1);
            return NULL;
        }
        break;
    case PP_COLL_ALLREDUCE:
        if (a == PP_ALG_RECURSIVE_DOUBLING) {
            combining_rounds(c, "n exchanges");
            if (pp_net_is_pow2(c->w->P_at))
                return NULL;
            x_terms(c, "P not a power of two: the extra step", pp_cx_int(1));
            return "with the extra step of P not a power of two";
        }
        if (a == PP_ALG_RING) {
            /* 2(P-1) x(b) + (P-1) gamma b, b = m/P: b's bytes as
             * (P-1) m / P (C's division) */
            pp_expr *pb = pp_eq_op2(PP_E_DIV, pp_eq_op2(PP_E_MUL, pp_eq_op2(PP_E_SUB, pp_expr_ref(c->P), pp_expr_int(1)),
                                            c->m ? pp_expr_ref(c->m) : pp_expr_int(0)),
                              pp_expr_ref(c->P));
            double b = c->mv / c->w->P_at;
            term(c, 2 * (2 * n->o + n->L - n->G + handshake(n, b)),
                 b > n->eager_bytes ? "2(P - 1) ring steps (2(2o + L - G + 2(o + L)))" : "2(P - 1) ring steps (2(2o + L - G))",
                 cnt_pk(c, 1));
            term(c, 2 * n->G + n->gamma, "the ring's blocks of m/P bytes (2G + gamma)", pp_cx_expr(pb));
            return NULL;
        }
        break;
    case PP_COLL_GATHER:
    case PP_COLL_SCATTER:
        if (a == PP_ALG_BINOMIAL) {
            doubling_blocks(c);
            return NULL;
        }
        if (a == PP_ALG_LINEAR) {
            if (k == PP_COLL_GATHER)
                linear_reduce(c, 0);
            else
                root_sends(c);
            return NULL;
        }
        break;
    case PP_COLL_ALLGATHER:
        if (a == PP_ALG_RING) {
            x_terms(c, "P - 1 ring steps", cnt_pk(c, 1));
            return NULL;
        }
        if (a == PP_ALG_RECURSIVE_DOUBLING || a == PP_ALG_BRUCK) {
            doubling_blocks(c);
            return NULL;
        }
        break;
    case PP_COLL_ALLTOALL:
        if (a == PP_ALG_PAIRWISE) {
            x_terms(c, "P - 1 exchanges", cnt_pk(c, 1));
            return NULL;
        }
        if (a == PP_ALG_LINEAR) {
            /* (P-2) e(m) + h(m) + s(m) + max((P-1) o, L + o) */
            e_terms(c, "P - 2 sends", cnt_pk(c, 2));
            term(c, pp_net_send_ns(n, c->mv) + handshake(n, c->mv), "the last send (s(m) + h(m))", pp_cx_int(1));
            if ((c->w->P_at - 1) * n->o >= n->L + n->o)
                term(c, n->o, "the receives (o each)", cnt_pk(c, 1));
            else
                term(c, n->L + n->o, "the last receive (L + o)", pp_cx_int(1));
            return NULL;
        }
        break;
    case PP_COLL_BARRIER:
        if (a == PP_ALG_DISSEMINATION || a == PP_ALG_RECURSIVE_DOUBLING) {
            term(c, n->L + 2 * n->o, "n rounds (L + 2o)", cnt_n(c));
            if (a == PP_ALG_DISSEMINATION || pp_net_is_pow2(c->w->P_at))
                return NULL;
            term(c, n->L + 2 * n->o, "P not a power of two: the extra round (L + 2o)", pp_cx_int(1));
            return "with the extra round of P not a power of two";
        }
        if (a == PP_ALG_LINEAR) {
            term(c, 2 * (n->L + 2 * n->o), "to rank 0 and back (2(L + 2o))", pp_cx_int(1));
            term(c, 2 * fmax(n->o, n->g), "rank 0's P - 2 further messages each way (2 max(o, g))", cnt_pk(c, 2));
            return NULL;
        }
        break;
    default:
        break;
    }
    return "";   /* not expressed */
}

/* "MPI_Bcast" for the kind */
static const char *call_name(pp_evkind k)
{
    switch (k) {
    case PP_EV_SEND: return "MPI_Send";
    case PP_EV_RECV: return "MPI_Recv";
    case PP_EV_ISEND: return "MPI_Isend";
    case PP_EV_IRECV: return "MPI_Irecv";
    case PP_EV_SENDRECV: return "MPI_Sendrecv";
    case PP_EV_BCAST: return "MPI_Bcast";
    case PP_EV_REDUCE: return "MPI_Reduce";
    case PP_EV_ALLREDUCE: return "MPI_Allreduce";
    case PP_EV_GATHER: return "MPI_Gather";
    case PP_EV_SCATTER: return "MPI_Scatter";
    case PP_EV_ALLGATHER: return "MPI_Allgather";
    case PP_EV_ALLTOALL: return "MPI_Alltoall";
    case PP_EV_MPI_BARRIER: return "MPI_Barrier";
    default: return NULL;
    }
}

/* count x the datatype's bytes (NULL when either is unknown); takes count */
static pp_expr *bytes_of(pp_expr *count, const char *type)
{
    double tb = pp_mpi_type_bytes(type);
    if (!count || !(tb > 0) || tb != floor(tb)) {
        pp_expr_free(count);
        return NULL;
    }
    return pp_eq_op2(PP_E_MUL, count, pp_expr_int((long)tb));
}

void pp_eq_mpi_net(wctx *w, const pp_devent *ev, const char *func, pp_expr *count)
{
    const char *name = call_name(ev->kind);
    if (!w->mach || !name) {
        pp_expr_free(count);
        return;
    }
    char note[512];
    if (ev->comm != PP_COMM_WORLD) {
        snprintf(note, sizeof note, "%s at line %d of %s is on a communicator other than MPI_COMM_WORLD: its network "
                 "cost is not in the equations (predict prices it)", name, ev->line, func);
        pp_eq_note(w->q, note);
        pp_expr_free(count);
        return;
    }
    snprintf(note, sizeof note, "T_sync holds the MPI calls' network costs on rank 0's path (LogGP; the "
             "collectives' times when all ranks arrive together, docs/machine-format.md: exact for P a power of "
             "two and g <= L + 2o), with the eager or rendezvous regime and the algorithms decided at P = %d and "
             "the parameters' values; waiting for late ranks is not in them (predict's walk has it)", w->P_at);
    pp_eq_note(w->q, note);
    call c = {w, &w->mach->net, "", NULL, 0, w->P, NULL};
    snprintf(c.site, sizeof c.site, "%s at line %d of %s", name, ev->line, func);
    /* the call's own count and type (a send's, a receive's buffer; an
     * exchange's sending half) */
    c.m = bytes_of(count, ev->type);
    c.mv = c.m ? value_here(w, c.m) : 0;
    int unknown_m = ev->kind != PP_EV_MPI_BARRIER && (!c.m || isnan(c.mv));
    if (isnan(c.mv))
        c.mv = 0;
    int coll = pp_mpi_coll_of(ev->kind);
    if (coll < 0) {
        /* point to point: a send is its sender's time s(m) (+ the
         * handshake above the eager limit); a receive or an exchange takes
         * the message's whole time x(m), its sender taken to start when it
         * is posted */
        if (ev->kind == PP_EV_SEND || ev->kind == PP_EV_ISEND) {
            const pp_net *n = c.net;
            term(&c, n->o - n->G + handshake(n, c.mv),
                 handshake(n, c.mv) > 0 ? "the sender's time, per message (o - G + 2(o + L))" : "the sender's time, per message (o - G)",
                 pp_cx_int(1));
            term(&c, n->G, "the sender's time, per byte (G)", cnt_m(&c));
        } else
            x_terms(&c, "the message", pp_cx_int(1));
    } else {
        c.Pcond = pp_eq_op2(PP_E_GT, pp_expr_ref(w->P), pp_expr_int(1));
        pp_coll k = (pp_coll)coll;
        pp_alg a = pp_net_alg(c.net, k, w->P_at, c.mv);
        const char *why = coll_terms(&c, k, a);
        if (why && !*why)
            snprintf(note, sizeof note, "%s uses the %s algorithm at P = %d: its network cost is not in the "
                     "equations (predict prices it)", c.site, pp_alg_name(a), w->P_at);
        else
            snprintf(note, sizeof note, "%s: the %s algorithm%s (the machine's choice at P = %d and %.0f bytes)%s%s",
                     c.site, pp_alg_name(a), c.net->alg[k] == PP_ALG_AUTO ? ", by the AUTO rules" : "", w->P_at,
                     c.mv, why ? "; " : "", why ? why : "");
        pp_eq_note(w->q, note);
    }
    if (unknown_m) {
        snprintf(note, sizeof note, "%s: its bytes are unknown here, taken as 0 in choosing its regime", c.site);
        pp_eq_note(w->q, note);
    }
    pp_expr_free(c.m);
    pp_expr_free(c.Pcond);
}
