/* inst-internal.h - what the parts of the instantiation share: the
 * interpreter (instantiate.c), its frames (inst-eval.c), the compiled
 * evaluation of expressions (inst-code.c), the action lists
 * (inst-actions.c) and the MPI events (inst-mpi.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_INST_INTERNAL_H
#define PERFPRED_INST_INTERNAL_H

#include "costs.h"
#include "model.h"

#include <string.h>

typedef struct shared_val {
    int n;
    char **name;
    int64_t *val;
    unsigned char *known;
} shared_val;

typedef struct frame {
    int fi;
    const pp_mfunc *mf;
    int64_t *args;
    unsigned char *args_known;
    int64_t *iv;                /* by loop id */
    unsigned char *iv_known;
    const shared_val *shared;
    int omp;                    /* inside an OpenMP team */
    int64_t nthreads, tid;
    int team;                   /* team id, -1 outside */
    /* the thread's index among the threads its pthread_create site made
     * (or its OpenMP thread number) and their count: what a thread
     * value's rule reads */
    int thr_known;
    int64_t thr_k, thr_n;
    /* per argument: the object key + 1 of the object whose address the
     * caller passed ((addr NAME ...), or its own (arg NAME) passed on);
     * 0 unknown.  obj=(arg NAME) resolves through it (inst-events.c). */
    long *arg_obj;
    /* per loop, its streams priced with this frame's values (inst-mem.c;
     * allocated at the first loop priced per thread, NULL before) */
    struct inst_memc *memc;
    /* inline storage for the common small frames: a call per iteration
     * of an enumerated loop must not cost four allocations */
    int64_t args_buf[8], iv_buf[16];
    unsigned char args_known_buf[8], iv_known_buf[16];
    /* per argument and loop: its value came from the thread's number or
     * the rank (inst-class.c; kept only while a class's first member
     * unrolls): 0 no; k > 0 it is noted evaluation k - 1's value (a
     * loop's: plus its iterations' steps), which a later member's replay
     * puts in its place (ranks); -1 from an evaluation not noted */
    int *args_taint, *iv_taint;
    int args_taint_buf[8], iv_taint_buf[16];
    /* pp_inst_run_range (a class's replay over a range of ranks): a
     * slot's value is args[i] + args_c1[i] x the rank (NULL: constant);
     * in a run of iterations (ictx.itr), args[i] + args_c1[i] x the
     * iterations past the run's first */
    const int64_t *args_c1, *iv_c1;
    int64_t args_c1_buf[8], *args_c1_heap;   /* a callee's args_c1 in a run */
    long arg_obj_buf[8];
} frame;

/* The instructions of a compiled expression (inst-code.c compiles and
 * runs them; inst-range.c runs them over a range of thread numbers). */
enum {
    I_END,        /* the value is on the stack                      */
    I_K,          /* push v                                         */
    I_FAIL,       /* the expression has no value                    */
    I_ARG,        /* push argument a (if known)                     */
    I_IV,         /* push loop a's induction variable (if known)    */
    I_NTHREADS,   /* push the team size (inside a team)             */
    I_TID,        /* push the thread number (inside a team)         */
    I_SHARED,     /* push the shared value named name (if known)    */
    I_COMM,       /* push the rank (a = 0) or size (a = 1) in the
                     communicator variable name (if bound)          */
    I_THRK,       /* push the thread's index k (thread value rules)  */
    I_THRN,       /* push its thread count                          */
    I_RANK,       /* push the rank being unrolled (c->rank)         */
    I_RANKV,      /* push parameter a's value at that rank (a value
                     that differs per rank: model-rankvals.c)       */
    I_NEG,
    I_NOT,
    I_BNOT,
    I_AND,        /* pop x; x == 0: push 0, jump to a               */
    I_OR,         /* pop x; x != 0: push 1, jump to a               */
    I_JZ,         /* pop x; x == 0: jump to a                       */
    I_JMP,        /* jump to a                                      */
    /* binary operators, one code per kind k from PP_E_ADD to PP_E_NE (so
     * that the arithmetic, inline, is specialised to it): */
    I_BIN = 32,   /* + k - PP_E_ADD: pop b, a; push a k b           */
    I_BINK = 64   /* + k - PP_E_ADD: pop a; push a k v              */
};
_Static_assert(PP_E_NE - PP_E_ADD < 32, "the binary operators' codes overlap");

/* The index of the data block's value named name, or -1. */
static inline int pp_inst_shared_index(const shared_val *sv, const char *name)
{
    for (int i = 0; i < sv->n; i++)
        if (strcmp(sv->name[i], name) == 0)
            return i;
    return -1;
}

/* One instruction of a compiled expression (inst-code.c). */
typedef struct {
    int op, a;
    int64_t v;
    const char *name;
    /* I_SHARED: the data block's name list it last found name in, and
     * where (a fork's block is the same list at every fork of the site:
     * the name is compared once, not at every evaluation) */
    char *const *seen_names;
    int seen_at;
    /* on a program's first instruction: the program reads the thread's
     * number or index ((tid), a thread value's k): inst-class.c notes
     * its evaluations */
    unsigned char thread_dep;
} pp_icode;

/* (expression, function) -> the start of its program in ictx.code */
typedef struct {
    const pp_expr *e;
    int fi;
    int pc;
} icache_ent;

/* Work: computation time, and the part of it spent streaming memory the
 * threads share (pp_costs.mem). */
typedef struct {
    double ns;
    double mem;
} pp_work;

/* The share of w's time spent on shared memory traffic (pp_action.mem). */
static inline float pp_inst_mem_share(pp_work w)
{
    if (!(w.ns > 0) || !(w.mem > 0))
        return 0.0f;
    return w.mem >= w.ns ? 1.0f : (float)(w.mem / w.ns);
}

typedef struct {
    const pp_prog *m;
    const pp_vals *pv;       /* the point's values, P applied (model.h)   */
    const pp_costs *costs;   /* the point's (costs.h)                     */
    pp_instance *in;
    int flags;
    /* compiled expressions (inst-code.c) */
    icache_ent *ec;
    size_t ecmask;        /* capacity - 1 (a power of two)                */
    size_t ecn;
    pp_icode *code;
    int ncode, capcode;
    int64_t *stack;       /* the programs' stack                          */
    int capstack;
    /* trip counts compiled as max(D, 0) (inst-code.c, count_as_max): the
     * trees decided, kept across the programs' resets (ranks unrolled one
     * by one compile every expression again) */
    struct maxform { const pp_expr *e; int yes; } *maxf;
    int nmaxf, capmaxf;
    int oom;              /* an evaluation ran out of memory              */
    int P;
    int depth;
    long nactions;
    long ngraph;          /* the actions with those of the members that
                             hold none (pp_inst_graph_grows)            */
    pp_work *pending;           /* per thread: work not yet flushed */
    int cappending;
    /* pool: logical thread of (forking thread, tid) */
    int npool, cappool;
    int pool_hint;       /* where the next member of a team likely is */
    int *pool_owner, *pool_tid, *pool_thread;
    int *pool_run;       /* the first entry of the run this one ends: the
                            same owner, consecutive tids and thread ids   */
    int *poolh;          /* hash index of (owner, tid): entry + 1, 0 empty */
    size_t poolhcap;
    /* created-but-not-joined threads, per creating thread (FIFO) */
    int *unjoined;              /* linked through next_unjoined */
    int *next_unjoined;
    int nunj_cap;
    double **dither;            /* [func][event/call slot]: opportunities */
    long **keycache;            /* [func][event]: its object key + 1 when it
                                   does not depend on the frame (0: unknown) */
    struct pp_inst_team *team_rec; /* the team whose class's first member is
                                   being unrolled (inst-class.c), or NULL  */
    int eval_sink;              /* while team_rec: the evaluations' values
                                   only go into a frame's slot (a loop's
                                   start and step, a callee's argument)    */
    int eval_dep;               /* while team_rec: the last evaluation read
                                   the thread's number or a slot from it   */
    int eval_note;              /* ... and the note it made (ranks), or -1 */
    int eval_peer;              /* the evaluation is a message's peer: a
                                   class of ranks notes it relative to the
                                   rank (inst-class.c)                      */
    long npthreads;             /* pthreads created so far               */
    int *keyidx;                /* in->keys' hash index (inst-actions.c)  */
    size_t keycap;
    size_t keyarr;              /* in->keys' and key_parties' capacity  */
    long members, copied;       /* team members after the first, and those
                                   copied from their class (inst-class.c) */
    long rank_members, rank_copied;  /* ranks, and those that share their
                                   class's actions (inst-class.c)           */
    long walked;                /* copies with no actions of their own, walked
                                   in their class's segment (inst-vseg.c) */
    unsigned char **count_stable; /* [func][loop]: its count is the same all
                                   through a frame (inst-mem.c): 0 not yet
                                   known, 1 yes, 2 no                       */
    long nbarriers;             /* barrier actions made                     */
    int cur_t;                  /* the thread whose event is being made     */
    int mpi;                    /* the threads are MPI ranks                */
    int rank;                   /* the rank being unrolled                  */
    int single_rank;            /* only that rank (a record's check)        */
    struct rank_val {           /* per parameter that differs per rank: its
                                   value at rank `rank` (I_RANKV), or none */
        int rank, ok;
        int64_t v;
    } *rankv;
    /* a run of iterations being measured (instantiate.c, iteration
     * runs): on, the iterations past the run's first that it may still
     * cover (every evaluation made in the body at its first iteration
     * narrows it to where its result stays the same, inst-code.c), and
     * the evaluation in progress is a callee's argument (its value may
     * vary along the run: the callee frame's args_c1 follow it); period:
     * where a remainder by a constant cut the run, the stride of
     * iterations over which it would stay the same (the least common
     * multiple of those met; 0 none, -1 too large) */
    struct {
        int on, sink;
        int64_t max, period;
    } itr;
    int fold_rank;              /* the programs hold the rank as a constant
                                   (no classes of ranks: faster where an
                                   expression of the rank is evaluated
                                   millions of times)                       */
    int range_rank;             /* pp_inst_run_range varies the rank (rank
                                   classes, inst-class.c), not (tid)        */
    int capcomms;               /* of in->comms (inst-comm.c)               */
    struct { char *name; int comm; } *cvars;  /* the rank's communicator
                                   variables: index in in->comms, -1 null   */
    int ncvars, capcvars;
    int *cseq, capcseq;         /* per parent comm: communicators the rank
                                   made from it so far                      */
    /* PP_INST_SITES (inst-sites.c): the current context, and per thread
     * the parts of its pending work */
    int node;
    int capsites;               /* of pend and the instance's tables      */
    struct pp_partlist *pend;
    long *capwparts;
    int *pthreads_of;           /* per function: the pthreads started in it */
    int in_rule;                /* compiling a thread value's rule: (tid)
                                   and (nthreads) are the thread's k and
                                   count (model-thread-values.c)          */
    char err[512];
} ictx;

/* inst-mem.c: loop k's cost and shared memory time per iteration in
 * this frame, for a loop whose working set is per thread (pp_mloop
 * mem_thr; unchanged where the frame's values do not give it); with
 * PP_INST_MEMSTAT, its n x mult iterations are collected instead. */
void pp_inst_mem_cost(ictx *c, frame *fr, int k, long double n, long double mult, double *cost, double *mem);

int pp_inst_fail(ictx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* inst-actions.c: a new logical thread (its id, or -1); append an action
 * to thread t (or make room); flush t's pending work as a WORK action; end a segment
 * (its fixed cost) and append the event action; an object key's index. */
int pp_inst_new_thread(ictx *c, pp_itkind kind, int parent, int tid, int start_func);
/* Classes of team members (inst-class.c): members of an OpenMP team
 * whose thread number gives the same result to every expression their
 * unrolling evaluates make the same actions, unrolled once and copied.
 * exec_fork: team = pp_inst_team_new (NULL: every member unrolled); per
 * member k = pp_inst_class_find; k >= 0: pp_inst_class_copy; else
 * pp_inst_class_begin, the unrolling, pp_inst_class_end. */
typedef struct pp_inst_team pp_inst_team;
int pp_inst_class_allowed(const ictx *c);
pp_inst_team *pp_inst_team_new(ictx *c);
void pp_inst_team_free(pp_inst_team *tm);
int pp_inst_class_find(ictx *c, pp_inst_team *tm, int64_t tid);
int pp_inst_class_copy(ictx *c, pp_inst_team *tm, int k, int t);
/* Can the members that copy class k hold no actions (PP_INST_CLASSES,
 * or no actions at all)?  Then pp_inst_class_copy_run copies count of
 * them at once, threads lo..lo + count - 1: their totals, and with
 * actions the run of threads the class's segment stands for (-1: out of
 * memory). */
int pp_inst_class_virtual(const ictx *c, const pp_inst_team *tm, int k);
int pp_inst_class_copy_run(ictx *c, pp_inst_team *tm, int k, int lo, int count);
void pp_inst_class_begin(ictx *c, pp_inst_team *tm, int t);
/* the class the member made, or -1 */
int pp_inst_class_end(ictx *c, pp_inst_team *tm, int ok);
/* Classes of MPI ranks: the same scheme over the ranks, whose rank reads
 * (I_RANK) are the trace's; a rank that joins class k shares its first
 * rank's actions (pp_ithread.borrowed).  NULL where every rank is
 * unrolled (PERFPRED_FULL_WALK=1, the drawn graph, --by).  Ranks t..t +
 * count - 1 join class k: 0, or -1 past the cap on actions. */
pp_inst_team *pp_inst_rank_team_new(ictx *c);
int pp_inst_rank_class_share(ictx *c, pp_inst_team *tm, int k, int t, int count);
/* a class of ranks is being recorded */
int pp_inst_class_ranks(const ictx *c);
/* the classes are still used (not given up) */
int pp_inst_class_on(const pp_inst_team *tm);
/* Ranks given up for the notes they wasted: 1 when they are tried again
 * at rank (a 2^k with at least as many ranks left), with the programs
 * reading the rank again. */
int pp_inst_class_retry(pp_inst_team *tm, int64_t rank, int64_t ranks_left);
/* by pp_inst_eval while a class's first member unrolls: what the
 * evaluation of the program at pc in frame fr (rc: run's, v its value)
 * read (notes it, taints a slot, or ends the class) */
void pp_inst_class_eval(ictx *c, const frame *fr, int pc, int rc, int64_t v);
/* a class's first member (or rank) is being unrolled, and its trace can
 * still make a class */
int pp_inst_class_live(const ictx *c);
/* the member being unrolled did what its trace cannot follow */
void pp_inst_class_bad(ictx *c);
/* runs the compiled program at pc in frame fr (inst-code.c) */
int pp_inst_run(ictx *c, const frame *fr, int pc, int64_t *out);
/* the same over the thread numbers lo..hi (tid and the thread's index
 * taking each of them, or the rank with c->range_rank; the rest of fr as
 * it is, a slot affine in them where fr's args_c1 and iv_c1 say): 1 when
 * every thread gets the same result (*ok: it has a value, *out), 0 when
 * they may not, with *cut (hi on entry) lowered to a thread up to which,
 * from lo, they may (where a comparison of the varying value changes;
 * half-way when that cannot be told).  With slope, a result affine in
 * the thread is one too: *out + *slope x the thread. */
int pp_inst_run_range(ictx *c, const frame *fr, int pc, int64_t lo, int64_t hi, int *ok, int64_t *out,
                      int64_t *slope, int64_t *cut);
/* In a run of iterations (c->itr.on): e's value in fr (as pp_inst_eval)
 * and its slope along the run, c->itr.max lowered to where it is one
 * affine form (0 or -1 as pp_inst_eval) */
int pp_inst_eval_slope(ictx *c, const frame *fr, const pp_expr *e, int64_t *out, int64_t *slope);
/* the last thread number of lo..hi up to which every member gives class
 * k's trace its results (the member lo does) */
int64_t pp_inst_class_extent(ictx *c, pp_inst_team *tm, int k, int64_t lo, int64_t hi);

/* inst-vseg.c (PP_INST_CLASSES), after the unrolling: the threads' last
 * teams as copies (in->vlast) and their PARKs; 0, 1 when the walk cannot
 * weight the segments (make the instance again without the flag), -1
 * out of memory.  And the members a segment stands for among its team
 * barrier's parties (by pp_inst_count_parties). */
int pp_inst_vseg_finish(ictx *c);
void pp_inst_vseg_parties(ictx *c);

int pp_inst_push_action(ictx *c, int t, pp_action a);
/* The thread graph has n actions more (pv->max_graph): 0, or -1 with a
 * message when it is past the cap. */
int pp_inst_graph_grows(ictx *c, long n);
/* room for n actions of thread t */
int pp_inst_reserve(ictx *c, int t, int n);
int pp_inst_flush(ictx *c, int t);
int pp_inst_sync_action(ictx *c, int t, pp_akind k, long key, int n, int fi, int site);
long pp_inst_intern(ictx *c, const char *key);

/* inst-sites.c (PP_INST_SITES): the child of context `parent` for
 * function fi's body (loop -1) or its loop (index), made when new (-1:
 * out of memory); ns of thread t's pending work came from context node
 * (0 or -1); a new thread's tables, and room for cap actions' contexts
 * (in->act_ctx[t], which pp_inst_push_action fills); the pending parts of
 * t into WORK action a (its key and n); free what ictx holds. */
int pp_inst_ctx_child(ictx *c, int parent, int fi, int loop);
int pp_inst_part(ictx *c, int t, int node, double ns);
int pp_inst_sites_thread(ictx *c, int t);
int pp_inst_sites_act(ictx *c, int t, int cap);
int pp_inst_sites_take(ictx *c, int t, pp_action *a);
void pp_inst_sites_drop(ictx *c, int t);
void pp_inst_sites_ctx_free(ictx *c);
void pp_inst_sites_free(pp_instance *in);

/* instantiate.c: run function fr (its body on thread t; emit: make its
 * actions, else add its work to *acc, scaled by mult) */
int pp_inst_exec_func(ictx *c, int t, frame *fr, long double mult, int emit, pp_work *acc);
/* inst-events.c: what event ev (index idx of fr's function) of thread t
 * makes in the thread graph (0, or -1); after the instantiation, every
 * barrier action's parties. */
int pp_inst_graph_event(ictx *c, int t, frame *fr, const pp_devent *ev, int idx);
/* The key of the object whose address expression o is, in frame fr (an
 * argument's object, (addr NAME [INDEX]), else a key guessed from the
 * expression and the thread: the same for lock and unlock); -1: out of
 * memory.  Hand-built barrier k of fr's function (model-cond.c): release
 * its mutex, a barrier on its condition variable, take the mutex again. */
long pp_inst_obj_key(ictx *c, const frame *fr, const pp_expr *o);
int pp_inst_condbar(ictx *c, int t, frame *fr, int k);
void pp_inst_count_parties(ictx *c);

/* inst-comm.c: communicators.  init: comms[0], the world; rank_start:
 * forget the previous rank's variables; comm_event: MPI_Comm_split, _dup,
 * _free (*parent: the communicator it is collective on); comm_of: the
 * communicator an MPI call uses; lookup: (rank NAME), (nprocs NAME) for
 * world rank w (NAME NULL: the world). */
int pp_inst_comm_init(ictx *c);
void pp_inst_comm_rank_start(ictx *c);
void pp_inst_comm_ctx_free(ictx *c);
void pp_inst_comms_free(pp_instance *in);
int pp_inst_comm_event(ictx *c, const frame *fr, const pp_devent *ev, int *parent);
int pp_inst_comm_of(ictx *c, const frame *fr, const pp_devent *ev, int *comm);
int pp_inst_comm_lookup(const ictx *c, const char *name, int w, int64_t *rank, int64_t *size);

/* inst-mpi.c: the action of an MPI event of rank thread t (0, or -1);
 * "MPI_Send at f.c:12", an event's call and place for messages. */
const char *pp_inst_where(const frame *fr, const pp_devent *ev, char *buf, size_t n);
int pp_inst_mpi_event(ictx *c, int t, frame *fr, const pp_devent *ev, int idx);

/* inst-code.c: value of e in the frame fr; 0, or -1 when it cannot be
 * evaluated (or memory ran out: c->oom is then set).  The programs fold
 * the parameters and P in, and the rank being unrolled with fold_rank
 * (pp_inst_code_reset forgets them when the rank changes); without it
 * they read the rank (c->rank) when they run, the same programs for
 * every rank (the classes of ranks need that).  pp_inst_code_free frees
 * them. */
int pp_inst_eval(ictx *c, const frame *fr, const pp_expr *e, int64_t *out);
void pp_inst_code_reset(ictx *c);
void pp_inst_code_free(ictx *c);
/* Unroll as rank r (or evaluate for it). */
static inline void pp_inst_set_rank(ictx *c, int r)
{
    if (c->rank != r) {
        c->rank = r;
        if (c->fold_rank)
            pp_inst_code_reset(c);
    }
}
/* inst-eval.c: frames */
int pp_inst_frame_init(frame *fr, const pp_prog *m, int fi);
void pp_inst_frame_free(frame *fr);

#endif
