/* inst-class.c - team members that run alike (see inst-internal.h,
 * "Classes of team members").
 *
 * An OpenMP team of n threads runs its outlined function once per member,
 * and the members differ only in their thread number: with a static
 * schedule, most of them run the same chunk size and make the same
 * actions.  Unrolling every member evaluates the same counts and prices
 * the same memory streams n times over.
 *
 * A member's unrolling is a function of the team's state (the same for
 * every member: the shared data block, the parameters, P) and of its
 * thread number, which it reads only through the compiled expressions
 * that read (tid) or the thread's index (inst-code.c marks them).  So
 * while one member (a class's first) is unrolled, every evaluation of
 * such an expression is noted with the frame values it read and its
 * result: the class's trace.  Another member whose own thread number
 * gives every noted expression the same result, in the same frame
 * values, would make the same evaluations, the same control flow and so
 * the same actions: it joins the class, and the class's actions are
 * copied to it, with what the first member added to the loop totals, the
 * memory statistics and the work.  The copy is exact, not an estimate: the oracle test
 * (tests/e2e/99-class-walk.t) compares every number with the full
 * unrolling.
 *
 * What a member can do that the trace does not see marks the class
 * unusable (pp_inst_class_bad): events that make threads, teams or other
 * state shared between members (a nested fork, a create, a join,
 * condition variables, semaphores, MPI), a guarded site whose share is
 * dithered across its executions, a work queue dealt by the thread's
 * index, a lock whose object is guessed per thread.  Such members are
 * unrolled one by one, as before.  Classes are off for the drawn graph
 * and `--by` (their per-action bookkeeping) and with PERFPRED_FULL_WALK=1
 * (the oracle).
 *
 * The ranks of an MPI run are classes of the same kind, the rank in place
 * of the thread number (pp_inst_rank_team_new): a rank that joins a class
 * shares its first rank's whole action list.  Their values that only go
 * into slots are noted too and replayed per rank, and a message's peer is
 * compared, and kept in the actions, relative to the rank (docs/model.md,
 * "Ranks in classes"; the oracle is tests/e2e/99-rank-classes.t).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "inst-internal.h"

#include <stdlib.h>
#include <string.h>

#define TRACE_MAX   512    /* evaluations noted per class, beyond: unusable */
#define RANK_TRACE_MAX 32768   /* the same for a class of MPI ranks (a rank
                                  evaluates its guards once per step)     */
#define CLASSES_MAX 8      /* classes kept per team                         */
#define RANK_CLASSES_FROM 512  /* the fewest ranks for classes of ranks    */
#define RANK_TRIES  4      /* rank classes made in a row that no rank joined,
                              after which only ranks 2^k are recorded     */

/* One noted evaluation: the program, the frame values it can read, and
 * its result. */
typedef struct {
    int pc, ok;
    int peer;                       /* ranks: a message's peer, compared as
                                       its offset from the rank where it is
                                       a rank (PP_MPI_REL)                */
    int rank;                       /* the rank it was noted at           */
    int sink;                       /* ranks: a value that went into a slot
                                       (a loop's start, an argument): the
                                       members' may differ; the replay puts
                                       each member's in the slot          */
    int64_t v;
    int na, nl;
    int64_t *args, *iv;             /* na and nl values (one allocation)  */
    int *args_src, *iv_src;         /* the slots' taints (frame.iv_taint)  */
    unsigned char *args_known, *iv_known;
    int thr_known, omp;
    int64_t thr_n, nthreads;
    int64_t tid, thr_k;             /* ranks: the frame's own (a team's
                                       member: the member's number)       */
    const shared_val *shared;
} note;

typedef struct {
    int thread;                     /* its first member's logical thread   */
    int from, to;                   /* the actions it made there           */
    int ntrace;
    note *trace;
    /* what it added to in->totals and in->memstat's n and ns, at the
     * loops it ran (most loops of a program are not the team's) */
    int nadd;
    struct add {
        int f, l;
        long double total;
        double mem_n, mem_ns;
    } *add;
    double work_ns;
    /* its copies may hold no actions (PP_INST_CLASSES): its segment has
     * only computations, team barriers and the team's end, which the
     * walk can weight by the members it stands for */
    int virt;
    int vseg;                       /* its pp_instance.vsegs index + 1    */
    long used;                      /* ranks: when a rank last joined it  */
    long joined;                    /* ranks: the ranks that joined it    */
} pclass;

struct pp_inst_team {
    int on;
    int ranks;                      /* the members are MPI ranks          */
    int fails;                      /* ranks: classes made in a row that no
                                       rank joined                        */
    long clock;                     /* ranks: find's calls (for `used`)   */
    /* ranks: notes replayed for ranks that did not join, and the notes of
     * the ranks that did (what their unrolling would have evaluated): when
     * the first outgrow the second, the classes cost more than they save
     * (ranks that match a class far into its trace and then differ) */
    long wasted, useful;
    /* ranks: the classes were given up for the notes they wasted, not for
     * a trace too long: they are tried again at the next rank 2^k (a run
     * of ranks alike may start past those that all differ: mpi_ge's ranks
     * past its rows), and given up at once if the rank after it does not
     * join the class it makes */
    int off_wasted, probation;
    int nclass;
    pclass cls[CLASSES_MAX];
    /* the member being unrolled as a class's first */
    int recording, bad, thread, from, nthreads0, nteams0;
    int ntrace, captrace;
    note *trace;
    long double *totals0;
    double *mem0;
    double work0;
    size_t nloops;                  /* all functions' loops              */
    /* ranks: a replay's values of the notes, and its frame's slots */
    int64_t *val, *slope;
    int capval;
    int64_t *slot, *slot_c1;
    unsigned char *slot_known;
    int capslot;
};

int pp_inst_class_allowed(const ictx *c)
{
    return !pp_full_walk() && !c->mpi && !(c->flags & (PP_INST_STRUCT | PP_INST_SITES)) && !c->team_rec;
}

static size_t all_loops(const pp_prog *m)
{
    size_t n = 0;
    for (int f = 0; f < m->nfuncs; f++)
        n += (size_t)m->funcs[f].d->nloops;
    return n;
}

static void totals_copy(const ictx *c, long double *dst)
{
    size_t i = 0;
    for (int f = 0; f < c->m->nfuncs; f++) {
        int n = c->m->funcs[f].d->nloops;
        memcpy(dst + i, c->in->totals[f], sizeof *dst * (size_t)n);
        i += (size_t)n;
    }
}

/* the memory statistics' sums (PP_INST_MEMSTAT): their largest working
 * sets and flags are the class's first member's, already taken */
static void memstat_copy(const ictx *c, double *dst)
{
    size_t i = 0;
    for (int f = 0; f < c->m->nfuncs; f++)
        for (int l = 0; l < c->m->funcs[f].d->nloops; l++) {
            dst[i++] = c->in->memstat[f][l].n;
            dst[i++] = c->in->memstat[f][l].ns;
        }
}

pp_inst_team *pp_inst_team_new(ictx *c)
{
    if (!pp_inst_class_allowed(c))
        return NULL;
    pp_inst_team *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;   /* no classes: the members are unrolled one by one */
    tm->on = 1;
    tm->nloops = all_loops(c->m);
    return tm;
}

/* The fewest ranks for classes (PERFPRED_RANK_CLASSES_FROM, for the
 * tests): below, the ranks' programs hold their rank as a constant, which
 * unrolls them faster than a class's replay checks them. */
static int classes_from(void)
{
    static int from = -1;
    int f = __atomic_load_n(&from, __ATOMIC_RELAXED);
    if (f < 0) {
        const char *e = getenv("PERFPRED_RANK_CLASSES_FROM");
        f = e && *e ? atoi(e) : RANK_CLASSES_FROM;
        __atomic_store_n(&from, f, __ATOMIC_RELAXED);
    }
    return f;
}

pp_inst_team *pp_inst_rank_team_new(ictx *c)
{
    if (pp_full_walk() || !c->mpi || c->single_rank || (c->flags & (PP_INST_STRUCT | PP_INST_SITES)) ||
        c->P < classes_from())
        return NULL;
    pp_inst_team *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;   /* every rank unrolled */
    tm->on = 1;
    tm->ranks = 1;
    tm->nloops = all_loops(c->m);
    return tm;
}

int pp_inst_class_retry(pp_inst_team *tm, int64_t rank, int64_t ranks_left)
{
    /* only where the ranks left could hold a run as long as the ranks
     * unrolled so far: log2(P) tries at most */
    if (!tm || tm->on || !tm->off_wasted || (rank & (rank - 1)) != 0 || ranks_left < rank)
        return 0;
    tm->on = 1;
    tm->probation = 2;
    tm->wasted = tm->useful;
    return 1;
}

int pp_inst_class_on(const pp_inst_team *tm)
{
    return tm && tm->on;
}

int pp_inst_class_ranks(const ictx *c)
{
    return c->team_rec && c->team_rec->ranks;
}

static void notes_free(note *n, int k)
{
    for (int i = 0; i < k; i++)
        free(n[i].args);
    free(n);
}

void pp_inst_team_free(pp_inst_team *tm)
{
    if (!tm)
        return;
    for (int i = 0; i < tm->nclass; i++) {
        notes_free(tm->cls[i].trace, tm->cls[i].ntrace);
        free(tm->cls[i].add);
    }
    notes_free(tm->trace, tm->ntrace);
    free(tm->totals0);
    free(tm->mem0);
    free(tm->val);
    free(tm->slope);
    free(tm->slot);
    free(tm->slot_c1);
    free(tm->slot_known);
    free(tm);
}

int pp_inst_class_live(const ictx *c)
{
    return c->team_rec && !c->team_rec->bad;
}

void pp_inst_class_bad(ictx *c)
{
    if (c->team_rec)
        c->team_rec->bad = 1;
}

/* Note an evaluation: its index, or -1 (the class is then unusable). */
static int note_eval(ictx *c, const frame *fr, int pc, int ok, int64_t v, int sink)
{
    pp_inst_team *tm = c->team_rec;
    if (!tm || tm->bad)
        return -1;
    if (tm->ntrace == (tm->ranks ? RANK_TRACE_MAX : TRACE_MAX)) {
        tm->bad = 1;
        /* ranks: the next ones' traces would be as long, and as
         * useless: no more classes in this instance */
        if (tm->ranks)
            tm->on = 0;
        return -1;
    }
    if (tm->ntrace == tm->captrace) {
        int cap = tm->captrace ? tm->captrace * 2 : 16;
        note *nt = realloc(tm->trace, sizeof *nt * (size_t)cap);
        if (!nt) {
            tm->bad = 1;
            return -1;
        }
        tm->trace = nt;
        tm->captrace = cap;
    }
    note *n = &tm->trace[tm->ntrace];
    memset(n, 0, sizeof *n);
    n->pc = pc;
    n->ok = ok;
    n->sink = sink;
    n->peer = c->eval_peer;
    n->rank = c->rank;
    n->v = ok ? v : 0;
    n->na = fr->args ? fr->mf->d->nargs + 1 : 0;
    n->nl = fr->mf->max_loop_id + 2;
    size_t slots = (size_t)(n->na + n->nl);
    size_t bytes = (sizeof(int64_t) + sizeof(int) + 1) * slots;
    char *buf = malloc(bytes ? bytes : 1);
    if (!buf) {
        tm->bad = 1;
        return -1;
    }
    n->args = (int64_t *)buf;
    n->iv = n->args + n->na;
    n->args_src = (int *)(n->iv + n->nl);
    n->iv_src = n->args_src + n->na;
    n->args_known = (unsigned char *)(n->iv_src + n->nl);
    n->iv_known = n->args_known + n->na;
    if (n->na) {
        memcpy(n->args, fr->args, sizeof(int64_t) * (size_t)n->na);
        memcpy(n->args_known, fr->args_known, (size_t)n->na);
        memcpy(n->args_src, fr->args_taint, sizeof(int) * (size_t)n->na);
    }
    memcpy(n->iv, fr->iv, sizeof(int64_t) * (size_t)n->nl);
    memcpy(n->iv_known, fr->iv_known, (size_t)n->nl);
    memcpy(n->iv_src, fr->iv_taint, sizeof(int) * (size_t)n->nl);
    n->thr_known = fr->thr_known;
    n->omp = fr->omp;
    n->thr_n = fr->thr_n;
    n->nthreads = fr->nthreads;
    n->tid = fr->tid;
    n->thr_k = fr->thr_k;
    n->shared = fr->shared;
    return tm->ntrace++;
}

/* Does the program at pc read a frame slot whose value came from the
 * thread's number or the rank (frame.iv_taint, args_taint)?  0 no, 1 only
 * slots that hold a noted value, -1 one that does not. */
static int reads_taint(const ictx *c, const frame *fr, int pc)
{
    int r = 0;
    for (const pp_icode *in = &c->code[pc]; in->op != I_END; in++) {
        int t = in->op == I_IV && fr->iv_taint ? fr->iv_taint[in->a]
                : in->op == I_ARG && fr->args_taint ? fr->args_taint[in->a] : 0;
        if (t < 0)
            return -1;
        if (t > 0)
            r = 1;
    }
    return r;
}

/* While a class's first member unrolls: what the evaluation at pc read.
 * One the unrolling uses (a count, a guard, a key) is noted when it read
 * the thread's number, and stops the class when it read a tainted slot.
 * A value that only goes into a slot (eval_sink) taints it: a team
 * member's trace cannot give another member's value there, a rank's can
 * (the evaluation is noted, and its replay for another rank puts that
 * rank's value in the slot before a noted evaluation reads it). */
void pp_inst_class_eval(ictx *c, const frame *fr, int pc, int rc, int64_t v)
{
    int taint = reads_taint(c, fr, pc);
    c->eval_dep = taint != 0 || c->code[pc].thread_dep;
    c->eval_note = -1;
    if (!c->eval_dep)
        return;
    if (!c->team_rec->ranks) {
        if (c->eval_sink)
            return;
        if (taint)
            pp_inst_class_bad(c);
        else
            note_eval(c, fr, pc, rc == 0, v, 0);
        return;
    }
    if (taint < 0)
        pp_inst_class_bad(c);
    else
        c->eval_note = note_eval(c, fr, pc, rc == 0, v, c->eval_sink);
}

/* The frame a note was made in, at thread number tid (ranks: the
 * frame's own; the rank is c->rank). */
static void note_frame(const note *n, int ranks, int64_t tid, frame *fr)
{
    memset(fr, 0, sizeof *fr);
    fr->args = n->args;
    fr->args_known = n->na ? n->args_known : NULL;
    fr->iv = n->iv;
    fr->iv_known = n->iv_known;
    fr->thr_known = n->thr_known;
    fr->thr_n = n->thr_n;
    fr->thr_k = ranks ? n->thr_k : tid;
    fr->omp = n->omp;
    fr->nthreads = n->nthreads;
    fr->tid = ranks ? n->tid : tid;
    fr->shared = n->shared;
}

/* Is v a rank of the world (not MPI_PROC_NULL or MPI_ANY_SOURCE)? */
static int is_rank(const ictx *c, int64_t v)
{
    return v >= 0 && v < c->P;
}

/* Room in tm for a replay of class k: its notes' values and slopes. */
static int replay_room(pp_inst_team *tm, const pclass *k)
{
    if (tm->capval >= k->ntrace)
        return 0;
    int64_t *v = realloc(tm->val, sizeof *v * (size_t)(k->ntrace + 1));
    if (v)
        tm->val = v;
    int64_t *s = realloc(tm->slope, sizeof *s * (size_t)(k->ntrace + 1));
    if (s)
        tm->slope = s;
    if (!v || !s)
        return -1;
    tm->capval = k->ntrace;
    return 0;
}

/* Note n's frame in a replay of class k (fr): with ranks, a slot whose
 * value came from a noted evaluation holds that evaluation's value in
 * this replay (its slope too over a range); a loop's, plus the steps it
 * had taken.  0, or -1 where that does not fit (no replay then). */
static int replay_frame(pp_inst_team *tm, const pclass *k, const note *n, int64_t tid, int range, frame *fr)
{
    note_frame(n, tm->ranks, tid, fr);
    if (!tm->ranks)
        return 0;
    int any = 0, ns = n->na + n->nl;
    for (int j = 0; j < ns && !any; j++)
        any = n->args_src[j] > 0;    /* args_src and iv_src are one array */
    if (!any)
        return 0;
    if (tm->capslot < ns) {
        int64_t *a = realloc(tm->slot, sizeof *a * (size_t)ns), *b = realloc(tm->slot_c1, sizeof *b * (size_t)ns);
        if (a)
            tm->slot = a;
        if (b)
            tm->slot_c1 = b;
        unsigned char *kn = realloc(tm->slot_known, (size_t)ns);
        if (kn)
            tm->slot_known = kn;
        if (!a || !b || !kn)
            return -1;
        tm->capslot = ns;
    }
    memcpy(tm->slot, n->args, sizeof *tm->slot * (size_t)ns);    /* args then iv: one allocation */
    memset(tm->slot_c1, 0, sizeof *tm->slot_c1 * (size_t)ns);
    memcpy(tm->slot_known, n->args_known, (size_t)ns);
    for (int j = 0; j < ns; j++) {
        int q = n->args_src[j] - 1;
        if (q < 0 || !tm->slot_known[j])
            continue;
        /* an argument is the value; a loop's variable its start's value
         * and the steps taken since */
        __int128 x = (__int128)tm->val[q] + (j >= n->na ? (__int128)n->args[j] - k->trace[q].v : 0);
        if (x < INT64_MIN || x > INT64_MAX)
            return -1;
        tm->slot[j] = (int64_t)x;
        tm->slot_c1[j] = tm->slope[q];
    }
    fr->args = n->na ? tm->slot : NULL;
    fr->args_known = n->na ? tm->slot_known : NULL;
    fr->iv = tm->slot + n->na;
    fr->iv_known = tm->slot_known + n->na;
    if (range) {
        fr->args_c1 = n->na ? tm->slot_c1 : NULL;
        fr->iv_c1 = tm->slot_c1 + n->na;
    }
    return 0;
}

/* Does the member with thread number (ranks: rank) tid give every noted
 * evaluation of class k its result?  (A rank's values that went into
 * slots may differ: they are replayed into the evaluations that read
 * them.) */
static int joins(ictx *c, pp_inst_team *tm, const pclass *k, int64_t tid)
{
    if (tm->ranks && replay_room(tm, k))
        return 0;
    int rank = c->rank, same = 1, i;
    if (tm->ranks)
        c->rank = (int)tid;
    for (i = 0; i < k->ntrace && same; i++) {
        const note *n = &k->trace[i];
        frame fr;
        if (replay_frame(tm, k, n, tid, 0, &fr)) {
            same = 0;
            break;
        }
        int64_t v = 0;
        int ok = pp_inst_run(c, &fr, n->pc, &v) == 0;
        same = ok == n->ok && (!ok || n->sink || v == n->v);
        if (ok && n->ok && n->peer && is_rank(c, n->v))
            same = is_rank(c, v) && v - tid == n->v - n->rank;
        if (tm->ranks) {
            tm->val[i] = v;
            tm->slope[i] = 0;
        }
    }
    if (!same)
        tm->wasted += i;
    c->rank = rank;
    return same;
}

/* Does every member lo..hi give every noted evaluation of class k its
 * result?  When not, *cut (hi on entry) is lowered to a member up to
 * which they may (pp_inst_run_range). */
static int joins_range(ictx *c, pp_inst_team *tm, const pclass *k, int64_t lo, int64_t hi, int64_t *cut)
{
    if (tm->ranks && replay_room(tm, k)) {
        *cut = lo;
        return 0;
    }
    int rank = c->rank, same = 1;
    c->range_rank = tm->ranks;
    for (int i = 0; i < k->ntrace && same; i++) {
        const note *n = &k->trace[i];
        frame fr;
        if (replay_frame(tm, k, n, lo, 1, &fr)) {
            *cut = lo;
            same = 0;
            break;
        }
        int ok;
        int64_t v = 0, slope = 0;
        int rel = n->peer && n->ok && is_rank(c, n->v);
        if (!pp_inst_run_range(c, &fr, n->pc, lo, hi, &ok, &v, n->sink || rel ? &slope : NULL, cut))
            same = 0;
        else if (rel) {
            /* the peer at each rank t of the range is v + t: the class's
             * offset, and a rank of the world at both ends */
            if (!ok || slope != 1 || v != n->v - n->rank || v + lo < 0) {
                *cut = lo;
                same = 0;
            } else if (v + hi >= c->P) {
                int64_t e = c->P - 1 - v;
                if (e < *cut)
                    *cut = e < lo ? lo : e;
                same = 0;
            }
        } else if (ok != n->ok || (ok && !n->sink && v != n->v)) {
            /* the same over the range, so lo's: not the class's (a
             * member the caller did not check) */
            *cut = lo;
            same = 0;
        }
        if (tm->ranks) {
            tm->val[i] = v;
            tm->slope[i] = slope;
        }
    }
    c->range_rank = 0;
    c->rank = rank;
    return same;
}

int64_t pp_inst_class_extent(ictx *c, pp_inst_team *tm, int k, int64_t lo, int64_t hi)
{
    const pclass *cl = &tm->cls[k];
    /* lo..lo is alike (the member lo is the class's): narrow lo..e down
     * to where the notes' comparisons stop agreeing, a few runs per
     * boundary */
    int64_t e = hi;
    while (e > lo) {
        int64_t cut = e;
        if (joins_range(c, tm, cl, lo, e, &cut))
            return e;
        e = cut < e ? cut : lo + (e - lo) / 2;
    }
    return lo;
}

int pp_inst_class_find(ictx *c, pp_inst_team *tm, int64_t tid)
{
    if (!tm || !tm->on)
        return -1;
    if (tm->ranks && tm->wasted > tm->useful + RANK_TRACE_MAX) {
        tm->on = 0;
        tm->off_wasted = 1;
        return -1;
    }
    tm->clock++;
    for (int k = 0; k < tm->nclass; k++)
        if (joins(c, tm, &tm->cls[k], tid)) {
            tm->cls[k].used = tm->clock;
            tm->probation = 0;
            return k;
        }
    /* the retry's rank 2^k itself joins no class; the one after it must */
    if (tm->probation && --tm->probation == 0)
        tm->on = 0;
    return -1;
}

/* What class cl's first member added to the loops' totals, the memory
 * statistics and the work, added for count members more. */
static void add_totals(pp_instance *in, const pclass *cl, int count)
{
    for (int i = 0; i < cl->nadd; i++) {
        const struct add *d = &cl->add[i];
        in->totals[d->f][d->l] += d->total * count;
        if (in->memstat) {
            in->memstat[d->f][d->l].n += d->mem_n * count;
            in->memstat[d->f][d->l].ns += d->mem_ns * count;
        }
    }
    in->work_ns += cl->work_ns * count;
}

/* A class of ranks is a whole rank's actions, which the ranks that join
 * it share (pp_inst_rank_class_share): messages, collectives, waits and
 * computations only, nothing keyed by the rank's own objects. */
static int rank_shareable(const ictx *c, const pclass *cl)
{
    if (!(c->flags & PP_INST_ACTIONS))
        return 1;
    const pp_ithread *th = &c->in->threads[cl->thread];
    if (cl->from != 0 || cl->to != th->nact || th->kind != PP_IT_RANK)
        return 0;
    for (int a = 0; a < th->nact; a++)
        switch (th->act[a].kind) {
        case PP_A_WORK: case PP_A_SEND: case PP_A_SSEND: case PP_A_RECV: case PP_A_ISEND:
        case PP_A_IRECV: case PP_A_WAIT: case PP_A_COLL:
            break;
        default:
            return 0;
        }
    return 1;
}

int pp_inst_rank_class_share(ictx *c, pp_inst_team *tm, int k, int t, int count)
{
    pclass *cl = &tm->cls[k];
    pp_instance *in = c->in;
    add_totals(in, cl, count);
    cl->joined += count;
    tm->fails = 0;
    tm->useful += (long)cl->ntrace * count;
    c->rank_copied += count;
    if (!(c->flags & PP_INST_ACTIONS))
        return 0;
    const pp_ithread *first = &in->threads[cl->thread];
    if (pp_inst_graph_grows(c, (long)count * first->nact))
        return -1;
    for (int i = 0; i < count; i++) {
        pp_ithread *th = &in->threads[t + i];
        th->act = first->act;
        th->nact = first->nact;
        th->capact = 0;
        th->borrowed = 1;
    }
    return 0;
}

int pp_inst_class_copy(ictx *c, pp_inst_team *tm, int k, int t)
{
    const pclass *cl = &tm->cls[k];
    if (pp_inst_reserve(c, t, c->in->threads[t].nact + (cl->to - cl->from)))
        return -1;
    for (int a = cl->from; a < cl->to; a++)
        if (pp_inst_push_action(c, t, c->in->threads[cl->thread].act[a]))
            return -1;
    add_totals(c->in, cl, 1);
    return 0;
}

int pp_inst_class_virtual(const ictx *c, const pp_inst_team *tm, int k)
{
    if (!(c->flags & PP_INST_ACTIONS))
        return 1;   /* nothing is walked: the copies are their totals */
    return (c->flags & PP_INST_CLASSES) && tm->cls[k].virt;
}

/* Can the walk weight class k's segment by its copies?  Its actions
 * after the TEAM_WAIT are computations, the team's barriers (a key per
 * team, met by no other team's members) and the TEAM_DONE: nothing that
 * orders the members among themselves (a lock), or makes state (threads,
 * wake-ups) one member's and not another's. */
static int walkable(const ictx *c, const pclass *cl)
{
    const pp_ithread *th = &c->in->threads[cl->thread];
    if (!(c->flags & PP_INST_CLASSES) || cl->from < 1 || cl->to <= cl->from ||
        th->act[cl->from - 1].kind != PP_A_TEAM_WAIT || th->act[cl->to - 1].kind != PP_A_TEAM_DONE)
        return 0;
    for (int a = cl->from; a < cl->to - 1; a++) {
        const pp_action *x = &th->act[a];
        if (x->kind == PP_A_WORK)
            continue;
        if (x->kind != PP_A_BARRIER || strncmp(c->in->keys[x->key], "team:", 5) != 0)
            return 0;
    }
    return 1;
}

/* A new element of an array of (*n, *cap) elements of size sz: its
 * index, or -1 when memory runs out. */
static int grow(void **v, int *n, int *cap, size_t sz)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        void *nv = realloc(*v, sz * (size_t)nc);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    return (*n)++;
}

int pp_inst_class_copy_run(ictx *c, pp_inst_team *tm, int k, int lo, int count)
{
    pclass *cl = &tm->cls[k];
    pp_instance *in = c->in;
    add_totals(in, cl, count);
    if (!(c->flags & PP_INST_ACTIONS))
        return 0;
    /* each copy's TEAM_WAIT and the class's actions */
    if (pp_inst_graph_grows(c, (long)count * (cl->to - cl->from + 1)))
        return -1;
    if (!cl->vseg) {
        int v = grow((void **)&in->vsegs, &in->nvseg, &in->capvseg, sizeof *in->vsegs);
        if (v < 0)
            return pp_inst_fail(c, "out of memory");
        pp_action *w = &in->threads[cl->thread].act[cl->from - 1];
        in->vsegs[v] = (struct pp_vseg){cl->thread, cl->from - 1, w->key, 0, -1, -1};
        w->vseg = v + 1;
        cl->vseg = v + 1;
    }
    struct pp_vseg *vs = &in->vsegs[cl->vseg - 1];
    int r = grow((void **)&in->vruns, &in->nvrun, &in->capvrun, sizeof *in->vruns);
    if (r < 0)
        return pp_inst_fail(c, "out of memory");
    in->vruns[r] = (struct pp_vrun){lo, lo + count - 1, -1};
    if (vs->last >= 0)
        in->vruns[vs->last].next = r;
    else
        vs->first = r;
    vs->last = r;
    vs->copies += count;
    c->walked += count;
    return 0;
}

/* Ranks: forget class k. */
static void evict_one(pp_inst_team *tm, int k)
{
    notes_free(tm->cls[k].trace, tm->cls[k].ntrace);
    free(tm->cls[k].add);
    tm->cls[k] = tm->cls[--tm->nclass];
}

/* Ranks: forget the class no rank joined for longest, to make room. */
static void evict(pp_inst_team *tm)
{
    int old = 0;
    for (int k = 1; k < tm->nclass; k++)
        if (tm->cls[k].used < tm->cls[old].used)
            old = k;
    evict_one(tm, old);
}

void pp_inst_class_begin(ictx *c, pp_inst_team *tm, int t)
{
    if (!tm || !tm->on)
        return;
    if (tm->ranks) {
        /* ranks that all differ (a pivot row's owner) would each be
         * traced for nothing: after a few classes no rank joined, only
         * ranks 2^k are, where a run of ranks alike (those past the
         * rows, the interior ones) is found at the latest */
        int r = c->in->threads[t].tid;
        if (tm->fails >= RANK_TRIES && (r & (r - 1)) != 0)
            return;
        /* and their traces (a note per step of a long run) are not kept:
         * only those of classes some rank joined */
        for (int k = tm->nclass - 1; tm->fails >= RANK_TRIES && k >= 0; k--)
            if (tm->cls[k].joined == 0)
                evict_one(tm, k);
        if (tm->nclass == CLASSES_MAX)
            evict(tm);
    }
    if (tm->nclass == CLASSES_MAX)
        return;
    if (!tm->totals0 && !(tm->totals0 = malloc(sizeof *tm->totals0 * (tm->nloops + 1))))
        return;
    totals_copy(c, tm->totals0);
    if (c->in->memstat) {
        if (!tm->mem0 && !(tm->mem0 = malloc(sizeof *tm->mem0 * (2 * tm->nloops + 1))))
            return;
        memstat_copy(c, tm->mem0);
    }
    tm->work0 = c->in->work_ns;
    tm->recording = 1;
    tm->bad = 0;
    tm->thread = t;
    tm->from = c->in->threads[t].nact;
    tm->nthreads0 = c->in->nthreads;
    tm->nteams0 = c->in->nteams;
    tm->ntrace = 0;
    c->team_rec = tm;
}

int pp_inst_class_end(ictx *c, pp_inst_team *tm, int ok)
{
    if (!tm || !tm->recording)
        return -1;
    tm->recording = 0;
    c->team_rec = NULL;
    int usable = ok && !tm->bad && c->in->nthreads == tm->nthreads0 && c->in->nteams == tm->nteams0 &&
                 tm->nclass < CLASSES_MAX;
    if (tm->ranks)
        tm->fails++;
    long double *tot = usable ? malloc(sizeof *tot * (tm->nloops + 1)) : NULL;
    double *mem = tot && c->in->memstat ? malloc(sizeof *mem * (2 * tm->nloops + 1)) : NULL;
    struct add *add = tot ? malloc(sizeof *add * (tm->nloops + 1)) : NULL;
    if (!tot || !add || (c->in->memstat && !mem)) {
        free(tot);
        free(mem);
        free(add);
        notes_free(tm->trace, tm->ntrace);
        tm->trace = NULL;
        tm->ntrace = tm->captrace = 0;
        return -1;
    }
    totals_copy(c, tot);
    if (mem)
        memstat_copy(c, mem);
    int nadd = 0;
    size_t i = 0;
    for (int f = 0; f < c->m->nfuncs; f++)
        for (int l = 0; l < c->m->funcs[f].d->nloops; l++, i++) {
            struct add d = {f, l, tot[i] - tm->totals0[i], 0, 0};
            if (mem) {
                d.mem_n = mem[2 * i] - tm->mem0[2 * i];
                d.mem_ns = mem[2 * i + 1] - tm->mem0[2 * i + 1];
            }
            if (d.total != 0 || d.mem_n != 0 || d.mem_ns != 0)
                add[nadd++] = d;
        }
    free(tot);
    free(mem);
    pclass *cl = &tm->cls[tm->nclass++];
    cl->thread = tm->thread;
    cl->from = tm->from;
    cl->to = c->in->threads[tm->thread].nact;
    cl->ntrace = tm->ntrace;
    cl->trace = tm->trace;
    cl->nadd = nadd;
    cl->add = add;
    cl->work_ns = c->in->work_ns - tm->work0;
    cl->vseg = 0;
    cl->virt = !tm->ranks && (c->flags & PP_INST_ACTIONS) && walkable(c, cl);
    cl->used = tm->clock;
    cl->joined = 0;
    tm->trace = NULL;
    tm->ntrace = tm->captrace = 0;
    if (tm->ranks && !rank_shareable(c, cl)) {
        notes_free(cl->trace, cl->ntrace);
        free(cl->add);
        tm->nclass--;
        return -1;
    }
    return tm->nclass - 1;
}
