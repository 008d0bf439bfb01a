/* traverse.c - discrete-event traversal of a thread graph (see
 * traverse.h): Parashar's interpretation algorithm with one global clock.
 * The runnable thread with the smallest clock always moves next, one
 * action at a time, so synchronisation is resolved in time order (the
 * first thread to reach a held lock is the first to get it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "trav-internal.h"
#include "longrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thread t computes a->ns on one processor: slowed down on the real
 * machine by the threads running at once.  There (threads and MPI ranks
 * alike) the computation stays open while it runs, and its rate follows
 * the threads running (trav-work.c): a rate taken once at the start would
 * jump when another thread blocks just before or after it, and T_real
 * would not be continuous in the costs (sensitivity's differences
 * straddled such jumps).  On the PRAM it takes a->ns.  -1: out of
 * memory. */
static int do_work(tctx *c, int t, const pp_action *a)
{
    if (c->work && a->ns > 0) {
        if (pp_trav_work_open(c, t, a->ns, a->mem))
            return -1;
        c->th[t].pc++;
        return 0;
    }
    double s = c->mach ? pp_trav_work_scale(c, c->active, a->mem) : 1.0;
    double ns = a->ns * s;
    if (ns < 0)
        ns = 0;
    pp_trav_span(c, t, PP_TR_WORK, c->th[t].clock, c->th[t].clock + ns);
    c->th[t].clock += ns;
    c->out->busy[t] += ns;
    c->th[t].pc++;
    return 0;
}

/* Does an action end a segment?  Every action pp_inst_sync_action made
 * does (the events, and the loop marks of a drawn graph): all but the
 * computations and a created thread's start. */
static inline int ends_segment(pp_akind k)
{
    return k != PP_A_WORK && k != PP_A_LOOP_WORK && k != PP_A_START && k != PP_A_PARK;
}

/* The real machine: thread t, at an event, spends the fitted fixed cost
 * of the segment the event ends (the runtime's work at the event and what
 * the synchronisation costs the thread beyond the machine file's figure)
 * before the event itself.  It is synchronisation, not computation: no
 * slowdown, and the PRAM (c->seg_ns = 0) never charges it. */
static void pay_segment(tctx *c, int t)
{
    double now = c->th[t].clock;
    pp_trav_span(c, t, PP_TR_SYNC, now, now + c->seg_ns);
    c->th[t].clock = now + c->seg_ns;
    c->out->sync[t] += c->seg_ns;
    c->th[t].seg_paid = 1;
}

/* The real machine: t, made ready with no computation open, pays its
 * next event's fixed cost now (pay_segment) instead of in a step of its
 * own when its clock comes up.  That step would change nothing another
 * thread sees (t's clock, its synchronisation, no shared state; t is
 * running through the segment's cost either way, and a runnable thread's
 * clock moves only when it moves), so the event comes at the same time,
 * in the same order, for one walk of the queue fewer: a rank released by
 * a collective reaches its next one in one step, not two.  A sink is
 * told the same spans, each thread's in its order.  A computation is
 * open only where do_work has just opened it (every step begins by
 * closing the moving thread's; a thread made ready by another was
 * blocked): its caller passes pay = 0.  Not for a class's TEAM_WAIT:
 * its walker takes its members' weight at the pay (trav-class.c). */
static inline void pay_ahead(tctx *c, int t, const trav_thread *th)
{
    if (th->pc >= th->nact)
        return;
    pp_akind k = th->act[th->pc].kind;
    if (!ends_segment(k) || th->seg_paid || (c->cls && k == PP_A_TEAM_WAIT))
        return;
    pay_segment(c, t);
}

/* pp_trav_ready; pay: whether t may pay ahead (0 where do_work has just
 * opened its computation) */
static inline __attribute__((always_inline)) void ready(tctx *c, int t, int pay)
{
    const trav_thread *th = &c->th[t];
    if (pay && c->seg_ns > 0)
        pay_ahead(c, t, th);
    if (!c->mach) {
        /* the PRAM: computation does not depend on the other threads (no
         * slowdown) and they do not see it, so doing it now rather than
         * when t's clock comes up changes no time and saves a step of
         * the traversal per computation */
        while (th->pc < th->nact && (th->act[th->pc].kind == PP_A_WORK || th->act[th->pc].kind == PP_A_LOOP_WORK))
            (void)do_work(c, t, &th->act[th->pc]);   /* the PRAM: opens nothing */
    }
    /* its next action is read when it moves: start loading the line after
     * it now (a thousand ranks' action lists do not stay in the cache, and
     * the hardware follows too few streams for them) */
    if (th->act && th->pc + 2 < th->nact)
        __builtin_prefetch(&th->act[th->pc + 2]);
    pp_trav_queue_push(c, t);
}

void pp_trav_ready(tctx *c, int t)
{
    ready(c, t, 1);
}

void pp_trav_block(tctx *c, int t)
{
    c->th[t].state = TS_BLOCKED;
    c->th[t].blocked_at = c->th[t].clock;
    pp_trav_work_set_active(c, -pp_trav_weight(c, t));
}

/* Thread t has nothing to do in [from, to): a pool thread waits for the
 * rest of its last team until that team's join (waiting), then for its
 * next fork (idle); a thread not yet created is idle. */
static void idle_span(tctx *c, int t, double from, double to)
{
    if (!c->sink)
        return;
    double split = from;
    if (c->last_team[t] >= 0 && c->teams[c->last_team[t]].ended)
        split = c->teams[c->last_team[t]].end;
    if (split > to)
        split = to;
    pp_trav_span(c, t, PP_TR_WAIT, from, split);
    pp_trav_span(c, t, PP_TR_IDLE, split > from ? split : from, to);
}

/* Pool thread t, whose last team has ended at e, is done: it waited for
 * that team's join until e (finish moves there; times do not change). */
static void done_with_team(tctx *c, int t, double e)
{
    double f = c->out->finish[t];
    if (e <= f)
        return;
    if (c->sink)
        c->sink->span(c->sink, t, c->in->threads[t].nact - 1, PP_TR_WAIT, f, e);
    c->out->wait[t] += e - f;
    c->out->finish[t] = e;
}

/* The team's join: every member arrived by `at`. */
static void team_end(tctx *c, int key, double at)
{
    team_st *tm = &c->teams[key];
    tm->ended = 1;
    tm->end = at;
    for (int i = 0; i < tm->members.n; i++) {
        int w = tm->members.v[i];
        if (c->th[w].state == TS_DONE && c->last_team[w] == key)
            done_with_team(c, w, at);
    }
    tm->members.n = 0;
}

/* The sink's part of pp_trav_resume (out of the way of the walk without
 * one). */
static __attribute__((noinline, cold)) void resume_spans(tctx *c, int t, double from, double to, double own,
                                                        pp_trcat cat_own, pp_trcat cat_wait)
{
    if (cat_wait == PP_TR_IDLE)
        idle_span(c, t, from, to - own);
    else
        pp_trav_span(c, t, cat_wait, from, to - own);
    pp_trav_span(c, t, cat_own, to - own, to);
}

void pp_trav_resume(tctx *c, int t, double at, double own, pp_trcat cat_own, pp_trcat cat_wait)
{
    if (at > c->th[t].clock)
        c->th[t].clock = at;
    double from = c->th[t].blocked_at, to = c->th[t].clock;
    /* own >= 0 from every caller */
    if (own > to - from)
        own = to - from;
    c->out->sync[t] += own;
    c->out->wait[t] += (to - own) - from;
    if (__builtin_expect(c->sink != NULL, 0))
        resume_spans(c, t, from, to, own, cat_own, cat_wait);
    c->th[t].state = TS_RUN;
    c->th[t].pc++;
    /* t runs again from `at`; counted from now (the walk's time) */
    pp_trav_work_set_active(c, pp_trav_weight(c, t));
    pp_trav_ready(c, t);
}

/* The real machine: a thread that went to sleep waiting resumes a wake-up
 * latency after its release (the kernel has to schedule it again).  glibc's
 * barrier and join sleep at once; libgomp spins for a while first (about
 * GOMP_SPINCOUNT iterations, taken here as 300 us), so an OpenMP waiter
 * pays it only after a longer wait.  The latency is the calibrated hand-off
 * of a mutex to a blocked waiter, which is exactly a wake-up. */
#define OMP_SPIN_NS 300000.0
/* A wait shorter than a billionth of the clock is a tie: two threads that
 * do the same work arrive together, whether their times were summed
 * iteration by iteration or as a run's multiple (docs/model.md, section
 * 4), which differ in the last bits; neither sleeps. */
#define TIE_REL 1e-9
double pp_trav_wakeup_ns(const tctx *c, int kind, double waited, double at)
{
    if (!c->mach || waited <= TIE_REL * fabs(at))
        return 0;
    if (kind == PP_SYNC_OMP && waited < OMP_SPIN_NS)
        return 0;
    return pp_machine_handoff_ns(c->mach);
}

static double cost(const tctx *c, double ns, int t)
{
    if (!c->mach)
        return 0;
    c->out->sync[t] += ns;
    return ns;
}

const char *pp_trav_site(const tctx *c, const pp_action *a, char *buf, size_t n)
{
    if (a->func < 0 || a->func >= c->m->nfuncs) {
        snprintf(buf, n, "?");
        return buf;
    }
    const pp_dfunc *d = c->m->funcs[a->func].d;
    const pp_devent *ev = pp_desc_event(d, a->site);
    snprintf(buf, n, "%s:%d (%s)", d->file ? d->file : "?", ev ? ev->line : d->line, d->name);
    return buf;
}

static const char *akind_name(pp_akind k)
{
    static const char *const names[] = {"work", "fork", "team start", "team end", "join of the team",
                                        "create", "start", "pthread_join", "barrier", "lock", "unlock",
                                        "send", "synchronous send", "receive", "isend", "irecv", "wait",
                                        "collective", "loop", "loop end", "loop", "cond_wait", "cond wake",
                                        "sem_wait", "sem_post", "park"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static void report_hang(tctx *c, char *err, size_t errlen)
{
    if (c->mpi) {
        pp_trav_mpi_hang(c, err, errlen);
        return;
    }
    size_t len = (size_t)snprintf(err, errlen, "the thread graph " PP_ERR_HANG ": ");
    int shown = 0;
    for (int t = 0; t < c->in->nthreads && len < errlen; t++) {
        if (c->th[t].state != TS_BLOCKED)
            continue;
        if (shown == 6) {
            len += (size_t)snprintf(err + len, errlen - len, "; ...");
            break;
        }
        const pp_action *a = &c->in->threads[t].act[c->th[t].pc];
        char where[200];
        const char *obj = (a->kind == PP_A_BARRIER || a->kind == PP_A_LOCK) && a->key >= 0 &&
                                  a->key < c->in->nkeys ? c->in->keys[a->key] : NULL;
        len += (size_t)snprintf(err + len, errlen - len, "%sthread %d waits in %s%s%s%s at %s",
                                shown ? "; " : "", t, akind_name(a->kind), obj ? " on '" : "",
                                obj ? obj : "", obj ? "'" : "", pp_trav_site(c, a, where, sizeof where));
        if (a->kind == PP_A_BARRIER && len < errlen)
            len += (size_t)snprintf(err + len, errlen - len, " (%d of %d parties arrived)",
                                    c->objs[a->key].arrived, a->n);
        shown++;
    }
}

/* Process one action of thread t. Returns 0, or -1 on an internal error. */
static int step(tctx *c, int t)
{
    const trav_thread *th = &c->th[t];
    if (c->work)
        pp_trav_work_done(c, t);
    if (__builtin_expect(c->fold != NULL, 0) && pp_trav_fold_due(c, t)) {
        /* the phase t walked for others ends here: each goes on alone
         * (trav-fold.c), t too, in the queue's order */
        pp_trav_fold_end(c, t);
        pp_trav_ready(c, t);
        return 0;
    }
    if (th->pc >= th->nact) {
        c->th[t].state = TS_DONE;
        pp_trav_work_set_active(c, -pp_trav_weight(c, t));
        c->done_time[t] = c->th[t].clock;
        c->out->finish[t] = c->th[t].clock;
        if (c->last_team[t] >= 0 && c->teams[c->last_team[t]].ended)
            done_with_team(c, t, c->teams[c->last_team[t]].end);
        for (int i = 0; i < c->joiners[t].n; i++) {
            int j = c->joiners[t].v[i];
            double wk = pp_trav_wakeup_ns(c, PP_SYNC_PTHREAD, c->th[t].clock - c->th[j].blocked_at, c->th[t].clock);
            double own = c->mach ? pp_machine_join_ns(c->mach) + wk : 0;
            pp_trav_resume(c, j, c->th[t].clock + own, own, PP_TR_SYNC, PP_TR_WAIT);
        }
        return 0;
    }
    const pp_action *a = &th->act[th->pc];
    if (__builtin_expect(c->cls != NULL, 0) && a->kind == PP_A_TEAM_WAIT && !c->th[t].seg_paid)
        pp_trav_class_enter(c, t, a);
    if (c->seg_ns > 0 && ends_segment(a->kind)) {
        if (!c->th[t].seg_paid) {
            /* its own step, so that the event is taken at its time, in
             * order with the other threads' */
            pay_segment(c, t);
            pp_trav_ready(c, t);
            return 0;
        }
        c->th[t].seg_paid = 0;
    }
    double now = c->th[t].clock;
    if (a->kind >= PP_A_SEND && a->kind <= PP_A_COLL)
        return pp_trav_mpi_step(c, t, a);
    switch (a->kind) {
    case PP_A_PARK:
        /* the fixed cost of its next segment, which is another thread's
         * to walk (trav-class.c): the time, counted there */
        c->th[t].clock = now + c->seg_ns;
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    case PP_A_LOOP_OPEN:
    case PP_A_LOOP_CLOSE:
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    case PP_A_LOOP_WORK:
    case PP_A_WORK:
        if (do_work(c, t, a)) {
            snprintf(c->err, c->errlen, "out of memory");
            return -1;
        }
        ready(c, t, !c->work || a->ns <= 0);   /* no computation opened */
        return 0;
    case PP_A_FORK: {
        team_st *tm = &c->teams[a->key];
        double half = cost(c, c->mach ? pp_machine_fork_join_ns(c->mach, a->n) / 2 : 0, t);
        pp_trav_span(c, t, PP_TR_SYNC, now, now + half);
        tm->forked = 1;
        tm->forker = t;
        tm->fork_time = now + half;
        c->th[t].clock = now + half;
        for (int i = 0; i < tm->waiters.n; i++) {
            int w = tm->waiters.v[i];
            pp_trav_flow(c, PP_FL_FORK, t, tm->fork_time, w, tm->fork_time > c->th[w].clock ? tm->fork_time : c->th[w].clock);
            /* waiting for a fork is having no work */
            pp_trav_resume(c, w, tm->fork_time, 0, PP_TR_SYNC, PP_TR_IDLE);
        }
        tm->waiters.n = 0;
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    }
    case PP_A_TEAM_WAIT: {
        team_st *tm = &c->teams[a->key];
        if (tm->forked) {
            double at = tm->fork_time > now ? tm->fork_time : now;
            idle_span(c, t, now, at);
            c->out->wait[t] += at - now;
            pp_trav_flow(c, PP_FL_FORK, tm->forker, tm->fork_time, t, at);
            if (tm->fork_time > now)
                c->th[t].clock = tm->fork_time;
            if (c->cls) {
                int w = pp_trav_class_weight(c, t);
                pp_trav_work_set_active(c, w - c->weight[t]);
                c->weight[t] = w;
            }
            c->th[t].pc++;
            pp_trav_ready(c, t);
        } else {
            pp_trav_block(c, t);
            if (c->cls)
                c->weight[t] = pp_trav_class_weight(c, t);
            return ilist_push(&tm->waiters, t);
        }
        return 0;
    }
    case PP_A_TEAM_DONE: {
        team_st *tm = &c->teams[a->key];
        tm->done_count += pp_trav_weight(c, t);
        if (c->cls)
            pp_trav_class_leave(c, t);
        if (now > tm->done_max)
            tm->done_max = now;
        c->last_team[t] = a->key;
        /* a member whose last team this is ends with it (team_end) */
        if (c->th[t].pc + 1 == th->nact && ilist_push(&tm->members, t))
            return -1;
        c->th[t].pc++;
        pp_trav_ready(c, t);
        if (tm->master >= 0 && tm->done_count >= c->in->team_size[a->key] - 1) {
            int ms = tm->master;
            tm->master = -1;
            double half = c->mach ? pp_machine_fork_join_ns(c->mach, c->in->team_size[a->key]) / 2 : 0;
            double at = tm->done_max > c->th[ms].blocked_at ? tm->done_max : c->th[ms].blocked_at;
            team_end(c, a->key, at);
            pp_trav_resume(c, ms, at + half, half, PP_TR_SYNC, PP_TR_WAIT);
        }
        return 0;
    }
    case PP_A_JOIN_TEAM: {
        team_st *tm = &c->teams[a->key];
        if (tm->done_count >= c->in->team_size[a->key] - 1) {
            double half = cost(c, c->mach ? pp_machine_fork_join_ns(c->mach, a->n) / 2 : 0, t);
            double at = tm->done_max > now ? tm->done_max : now;
            team_end(c, a->key, at);
            c->out->wait[t] += at - now;
            pp_trav_span(c, t, PP_TR_WAIT, now, at);
            pp_trav_span(c, t, PP_TR_SYNC, at, at + half);
            c->th[t].clock = at + half;
            c->th[t].pc++;
            pp_trav_ready(c, t);
        } else {
            tm->master = t;
            pp_trav_block(c, t);
        }
        return 0;
    }
    case PP_A_CREATE: {
        int ch = (int)a->key;
        double cc = cost(c, c->mach ? pp_machine_create_ns(c->mach) : 0, t);
        pp_trav_span(c, t, PP_TR_SYNC, now, now + cc);
        c->created[ch] = 1;
        c->create_time[ch] = now + cc;
        c->th[t].clock = now + cc;
        if (c->th[ch].state == TS_BLOCKED) {
            double at = c->create_time[ch] > c->th[ch].clock ? c->create_time[ch] : c->th[ch].clock;
            pp_trav_flow(c, PP_FL_CREATE, t, c->create_time[ch], ch, at);
            pp_trav_resume(c, ch, c->create_time[ch], 0, PP_TR_SYNC, PP_TR_IDLE);
        }
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    }
    case PP_A_START:
        if (c->created[t]) {
            double at = c->create_time[t] > now ? c->create_time[t] : now;
            pp_trav_span(c, t, PP_TR_IDLE, now, at);
            c->out->wait[t] += at - now;
            pp_trav_flow(c, PP_FL_CREATE, (int)a->key, c->create_time[t], t, at);
            if (c->create_time[t] > now)
                c->th[t].clock = c->create_time[t];
            c->th[t].pc++;
            pp_trav_ready(c, t);
        } else
            pp_trav_block(c, t);
        return 0;
    case PP_A_JOIN_THREAD: {
        int ch = (int)a->key;
        if (c->th[ch].state == TS_DONE) {
            double at = c->done_time[ch] > now ? c->done_time[ch] : now;
            c->out->wait[t] += at - now;
            double jc = cost(c, c->mach ? pp_machine_join_ns(c->mach) : 0, t);
            pp_trav_span(c, t, PP_TR_WAIT, now, at);
            pp_trav_span(c, t, PP_TR_SYNC, at, at + jc);
            c->th[t].clock = at + jc;
            c->th[t].pc++;
            pp_trav_ready(c, t);
            return 0;
        }
        pp_trav_block(c, t);
        return ilist_push(&c->joiners[ch], t);
    }
    case PP_A_BARRIER: {
        obj_st *o = &c->objs[a->key];
        o->arrived += pp_trav_weight(c, t);
        if (now > o->tmax)
            o->tmax = now;
        pp_trav_block(c, t);
        if (ilist_push(&o->waiters, t))
            return -1;
        if (c->fold && pp_trav_fold_arrive(c, t, &o->waiters))
            return -1;
        if (o->arrived >= a->n) {
            int kind = c->omp_key[a->key] ? PP_SYNC_OMP : PP_SYNC_PTHREAD;
            double bc = c->mach ? pp_machine_barrier_ns(c->mach, a->n, kind) : 0;
            double release = o->tmax + bc;
            if (c->fold) {
                if (pp_trav_fold_release(c, &o->waiters, o->tmax, kind, release, c->mach ? bc : 0))
                    return -1;
            } else
                for (int i = 0; i < o->waiters.n; i++) {
                    int w = o->waiters.v[i];
                    double wk = pp_trav_wakeup_ns(c, kind, o->tmax - c->th[w].blocked_at, o->tmax);
                    /* the barrier cost and the wake-up are not waiting */
                    pp_trav_resume(c, w, release + wk, c->mach ? bc + wk : 0, PP_TR_SYNC, PP_TR_WAIT);
                }
            o->waiters.n = 0;
            o->arrived = 0;
            o->tmax = 0;
        }
        return 0;
    }
    case PP_A_LOCK: {
        obj_st *o = &c->objs[a->key];
        /* the owner again: a program that ran through did not hang here
         * (two objects the model took for one): it goes on, and its
         * unlocks release the lock when they match the locks */
        if (o->owner == t)
            o->depth++;
        if (o->owner < 0 || o->owner == t) {
            o->owner = t;
            double lc = cost(c, c->mach ? pp_machine_lock_ns(c->mach) : 0, t);
            pp_trav_span(c, t, PP_TR_SYNC, now, now + lc);
            c->th[t].clock = now + lc;
            c->th[t].pc++;
            pp_trav_ready(c, t);
            return 0;
        }
        pp_trav_block(c, t);
        return ilist_push(&o->queue, t);
    }
    case PP_A_UNLOCK: {
        obj_st *o = &c->objs[a->key];
        if (o->owner == t && o->depth > 0) {
            o->depth--;
            c->th[t].pc++;
            pp_trav_ready(c, t);
            return 0;
        }
        o->owner = -1;
        if (o->qhead < o->queue.n) {
            int nx = o->queue.v[o->qhead++];
            o->owner = nx;
            double hc = c->mach ? pp_machine_handoff_ns(c->mach) + pp_machine_lock_ns(c->mach) : 0;
            pp_trav_resume(c, nx, now + hc, hc, PP_TR_SYNC, PP_TR_WAIT);
        }
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    }
    case PP_A_COND_WAIT: {
        /* the oldest waiter is the next a signal wakes (queue, qhead) */
        pp_trav_block(c, t);
        return ilist_push(&c->objs[a->key].queue, t);
    }
    case PP_A_COND_WAKE: {
        obj_st *o = &c->objs[a->key];
        double wk = c->mach ? pp_machine_handoff_ns(c->mach) : 0;
        for (int woken = 0; o->qhead < o->queue.n && (a->n == 0 || woken < a->n); woken++)
            pp_trav_resume(c, o->queue.v[o->qhead++], now + wk, wk, PP_TR_SYNC, PP_TR_WAIT);
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    }
    case PP_A_SEM_WAIT: {
        obj_st *o = &c->objs[a->key];   /* arrived: the semaphore's count */
        if (o->arrived > 0) {
            o->arrived--;
            c->th[t].pc++;
            pp_trav_ready(c, t);
            return 0;
        }
        pp_trav_block(c, t);
        return ilist_push(&o->queue, t);
    }
    case PP_A_SEM_POST: {
        obj_st *o = &c->objs[a->key];
        if (o->qhead < o->queue.n) {
            double wk = c->mach ? pp_machine_handoff_ns(c->mach) : 0;
            pp_trav_resume(c, o->queue.v[o->qhead++], now + wk, wk, PP_TR_SYNC, PP_TR_WAIT);
        } else
            o->arrived++;
        c->th[t].pc++;
        pp_trav_ready(c, t);
        return 0;
    }
    default:
        break;
    }
    return 0;
}

/* The walk stopped with threads waiting on a cond var or a semaphore.
 * Their counts come from the run, but where a data-dependent wait loop
 * runs is the model's (dithered), not the run's: a wait the model put
 * after the last signal, or one post too few, would hang a program that
 * ran through.  They are released at the walk's time (a spurious wake-up,
 * which POSIX allows); the number released is counted.  Returns how many
 * threads it released. */
static int release_stuck(tctx *c)
{
    int released = 0;
    double at = 0;
    for (int t = 0; t < c->in->nthreads; t++)
        if (c->th[t].clock > at)
            at = c->th[t].clock;
    for (int k = 0; k < c->in->nkeys; k++) {
        obj_st *o = &c->objs[k];
        while (o->qhead < o->queue.n) {
            int t = o->queue.v[o->qhead];
            const pp_action *a = &c->in->threads[t].act[c->th[t].pc];
            if (c->th[t].state != TS_BLOCKED || (a->kind != PP_A_COND_WAIT && a->kind != PP_A_SEM_WAIT))
                break;
            o->qhead++;
            pp_trav_resume(c, t, at, 0, PP_TR_SYNC, PP_TR_WAIT);
            released++;
        }
    }
    c->out->spurious += released;
    return released;
}

int pp_traverse(const pp_prog *m, const pp_instance *in, const pp_machine *mach, pp_trav *out, char *err,
                size_t errlen)
{
    return pp_traverse_sink(m, in, mach, out, NULL, err, errlen);
}

int pp_traverse_sink(const pp_prog *m, const pp_instance *in, const pp_machine *mach, pp_trav *out,
                     pp_trav_sink *sink, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (sink && in->nvseg > 0) {
        /* the spans are every thread's own (PP_INST_CLASSES is not) */
        snprintf(err, errlen, "internal error: a traversal with spans of an instance in classes");
        return -1;
    }
    int n = in->nthreads;
    tctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.in = in;
    c.mach = mach;
    c.out = out;
    c.sink = sink;
    out->nthreads = n;
    out->busy = calloc((size_t)n + 1, sizeof(double));
    out->wait = calloc((size_t)n + 1, sizeof(double));
    out->sync = calloc((size_t)n + 1, sizeof(double));
    out->finish = calloc((size_t)n + 1, sizeof(double));
    out->mpi = calloc((size_t)n + 1, sizeof(double));
    c.err = err;
    c.errlen = errlen;
    c.th = calloc((size_t)n + 1, sizeof *c.th);
    c.create_time = calloc((size_t)n + 1, sizeof(double));
    c.done_time = calloc((size_t)n + 1, sizeof(double));
    c.created = calloc((size_t)n + 1, sizeof(int));
    c.last_team = malloc(sizeof(int) * ((size_t)n + 1));
    for (int t = 0; c.last_team && t < n; t++)
        c.last_team[t] = -1;
    c.joiners = calloc((size_t)n + 1, sizeof(ilist));
    c.teams = calloc((size_t)in->nteams + 1, sizeof(team_st));
    c.objs = calloc((size_t)in->nkeys + 1, sizeof(obj_st));
    c.omp_key = calloc((size_t)in->nkeys + 1, 1);
    c.scale_of = calloc((size_t)n + 2, sizeof *c.scale_of);
    c.mscale_of = calloc((size_t)n + 2, sizeof *c.mscale_of);
    c.seg_ns = mach && in->seg_ns > 0 ? in->seg_ns : 0;
    for (int i = 0; c.omp_key && i < in->nkeys; i++)
        c.omp_key[i] = strncmp(in->keys[i], "team:", 5) == 0;
    int rc = 0;
    if (errlen)
        err[0] = '\0';
    if (!out->busy || !out->wait || !out->sync || !out->finish || !c.th ||
        !c.create_time || !c.done_time || !c.created || !c.last_team || !c.joiners ||
        !c.teams || !c.objs || !c.omp_key || !c.scale_of || !c.mscale_of ||
        (mach && pp_trav_work_init(&c, n)) || !out->mpi || pp_trav_queue_init(&c) || pp_trav_class_init(&c) ||
        pp_trav_fold_init(&c, !pp_full_walk()) ||
        (m->pkind == PP_P_MPI && pp_trav_mpi_init(&c))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < in->nteams; i++)
        c.teams[i].master = -1;
    for (int i = 0; rc == 0 && i < in->nkeys; i++)
        c.objs[i].owner = -1;
    if (rc == 0) {
        /* thread 0 runs; the others wait for their fork or create */
        for (int t = 0; t < n; t++) {
            if (in->threads[t].nact >= 1 << 29) {
                snprintf(err, errlen, "thread %d has %d actions: the walk takes fewer than 2^29 a thread", t,
                         in->threads[t].nact);
                rc = -1;
                break;
            }
            c.th[t].act = in->threads[t].act;
            c.th[t].nact = (unsigned)in->threads[t].nact;
            c.th[t].state = TS_RUN;
            c.active++;
            pp_trav_ready(&c, t);
        }
        /* the progress (longrun.h): the actions walked, counted when
         * it is due (a few times a second) */
        long nact = 0, steps = 0;
        for (int t = 0; t < n; t++)
            nact += in->threads[t].nact;
        do {
            for (int t; rc == 0 && (t = pp_trav_first(&c)) >= 0;) {
                c.cur = t;
                c.now = c.th[t].clock;
                rc = step(&c, t);
                pp_trav_settle(&c, t);
                if (__builtin_expect((++steps & (PP_LONG_EVERY - 1)) == 0, 0) && pp_long_due()) {
                    long done = 0;
                    for (int u = 0; u < n; u++)
                        done += c.th[u].pc;
                    pp_long_tick(PP_LONG_WALK, done, nact);
                }
            }
        } while (rc == 0 && !c.mpi && release_stuck(&c) > 0);
        if (rc) {
            if (!err[0])
                snprintf(err, errlen, "out of memory");
        } else {
            for (int t = 0; t < n; t++)
                if (c.th[t].state != TS_DONE) {
                    report_hang(&c, err, errlen);
                    rc = -1;
                    break;
                }
        }
    }
    if (rc == 0 && c.mpi)
        pp_trav_mpi_finish(&c);
    if (rc == 0 && c.cls)
        pp_trav_class_finish(&c);
    if (rc == 0 && out->spurious > 0 && !out->note[0])
        snprintf(out->note, sizeof out->note,
                 "%ld wait%s on a condition variable or semaphore had no wake-up left in the model and %s "
                 "released when the walk would have hung (where a data-dependent wait runs is the model's guess)",
                 out->spurious, out->spurious == 1 ? "" : "s", out->spurious == 1 ? "was" : "were");
    if (rc == 0) {
        for (int t = 0; t < n; t++) {
            out->total_mpi += out->mpi[t];
            if (out->finish[t] > out->time)
                out->time = out->finish[t];
            if (out->wait[t] < 0)
                out->wait[t] = 0;
            out->total_busy += out->busy[t];
            out->total_wait += out->wait[t];
            out->total_sync += out->sync[t];
        }
    }
    free(c.th); free(c.create_time); free(c.done_time);
    free(c.created); free(c.last_team);
    pp_trav_queue_free(&c);
    for (int t = 0; c.joiners && t < n; t++)
        free(c.joiners[t].v);
    free(c.joiners);
    for (int i = 0; c.teams && i < in->nteams; i++) {
        free(c.teams[i].waiters.v);
        free(c.teams[i].members.v);
    }
    free(c.teams);
    for (int i = 0; c.objs && i < in->nkeys; i++) {
        free(c.objs[i].waiters.v);
        free(c.objs[i].queue.v);
    }
    free(c.objs);
    free(c.omp_key);
    free(c.scale_of);
    free(c.mscale_of);
    pp_trav_work_free(&c);
    pp_trav_mpi_free(&c);
    pp_trav_class_free(&c);
    pp_trav_fold_free(&c);
    if (rc)
        pp_trav_free(out);
    return rc;
}

void pp_trav_free(pp_trav *t)
{
    free(t->busy);
    free(t->wait);
    free(t->sync);
    free(t->finish);
    free(t->mpi);
    memset(t, 0, sizeof *t);
}
