/* model.h - the program model built from a record: problem parameters,
 * the processor-count binding, count rules per loop (symbolic, fitted,
 * constant) checked against the run, costs per loop iteration, and the
 * structure (scopes and their items in execution order) that instantiate.c
 * unrolls into a thread graph for any (chi, P).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MODEL_H
#define PERFPRED_MODEL_H

#include <stdint.h>
#include "machine.h"
#include "record.h"

typedef enum { PP_RULE_SYMBOLIC, PP_RULE_FITTED, PP_RULE_CONSTANT } pp_rule;
const char *pp_rule_name(pp_rule r);

/* A problem parameter: one coordinate of chi. */
typedef struct {
    char *name;          /* what --set uses (unique in the model)           */
    int is_global;
    int func, id;        /* (var X): function index and param id            */
    char *src;           /* source variable (var) or global name            */
    long recorded;       /* value in the run (a point's own: pp_vals)       */
    int varying;         /* set more than once with different values        */
    /* MPI: the value differs between the ranks of a run (each rank's
     * record has its own): no problem parameter.  rank_rule, in (rank),
     * (nprocs) and the other parameters' names, reproduces every record's
     * value (NULL: no candidate does; then the value is known only at the
     * recorded P: rank_val[r] is rank r's in the primary run, and
     * rank_why says why).  docs/model.md, "Values that differ per rank". */
    int per_rank;
    pp_expr *rank_rule;
    long *rank_val;
    int rank_n;
    char *rank_why;
    char *note;          /* a global with a definition that is not used:
                            why it stays an input (model-derived.c), or NULL */
} pp_param;

/* A derived global: set once from the inputs (a `gdef' line), its value
 * checked against the record; no coordinate of chi, it moves with the
 * inputs it is computed from (docs/model.md, "Derived globals"). */
typedef struct {
    char *name;          /* the global's name ((global NAME) atoms)         */
    int func, line;      /* where the definition is                         */
    pp_expr *def;        /* the definition, in the parameters' names        */
    pp_expr *expr;       /* the same in the inputs only (derived globals in
                            it replaced by their own expressions)          */
    long recorded;       /* the value the record read at exit               */
} pp_derived;

/* How the processor count P enters the program. */
typedef enum {
    PP_P_NONE,           /* no parallelism the model can vary               */
    PP_P_OMP,            /* P = default OpenMP team size                    */
    PP_P_PARAM,          /* P = value of a parameter + offset (pthreads)    */
    PP_P_MPI             /* P = the number of MPI ranks: the records are the
                            ranks of MPI runs, (rank) and (nprocs) bound
                            per rank (docs/model.md, "MPI programs")        */
} pp_pkind;

typedef enum { PP_I_LOOP, PP_I_EVENT, PP_I_CALL } pp_itype;
typedef struct {
    pp_itype type;
    int idx;             /* index into d->loops / d->events / d->calls      */
    int pos;
} pp_item;

typedef struct {
    pp_rule rule;
    pp_expr *count;      /* per entry, local symbols (SYMBOLIC, FITTED)     */
    double trip;         /* CONSTANT: iterations per entry                  */
    char *fit_note;      /* how a fitted rule was found                     */
    uint64_t obs_iters, obs_entries;   /* in the run, all threads           */
    long double model_iters;           /* the model at the recorded chi, P  */
    int matched;         /* model_iters == obs_iters, in every record        */
    int slot;            /* its time per body iteration (own statements
                            only) in the costs, pp_prog.fit (costs.h)       */
    double cost_se;
    int entry_slot;      /* its fixed time per entry, in the costs          */
    double entry_se;
    int entry_fitted;
    int cost_fitted;     /* 1: the run determined it; 0: prior from ops     */
    int cost_measured;   /* 1: its own timing (loop timing) entered the fit */
    int sync;            /* the loop's subtree holds thread-graph events    */
    int nivs;            /* ids of enclosing-loop IVs its subtree reads     */
    int *ivs;
    /* a count per entry the plugin could not follow, fitted over records
     * at several sizes as pow_a * params[pow_param]^pow_b, or with pow_lin
     * as pow_a * params[pow_param] + pow_b (pow_param -1: none;
     * pp_loop_trip); pow_err: the fit's RMS relative error (0 with two
     * records, which any such law fits) */
    int pow_param, pow_lin;
    double pow_a, pow_b, pow_err;
    /* the fit's regression, for its standard error at other sizes: the
     * points, their mean and spread in x (ln x for a power law), the
     * residuals' standard deviation (in ln trip for a power law; 0 with
     * two points, where it cannot be measured); pow_scale multiplies the
     * trip (1; the interval's finite difference changes it) */
    int pow_q;
    /* a work-queue loop (model-counts.c, pp_counts_claims): its iterations
     * are claimed from shared state under a lock the run shows shared or
     * by an atomic fetch-and-add, so the team's total follows the size
     * and the threads share it; trip and the fit are of that total per
     * entry of the team, dealt over the team's threads like a dynamic
     * schedule */
    int claim;
    double pow_mx, pow_sxx, pow_s;
} pp_mloop;

/* A point's parameter values (NULL where a function takes one: the
 * recorded point): the model holds the recorded ones
 * (pp_param.recorded) and is never changed to evaluate a point; a point
 * carries its own values, which the counts, the memory model, the
 * equations and the instantiation read (model-params.c).  Where P is a
 * parameter (PP_P_PARAM) its value is part of them (pp_vals_apply_P).
 * The interval's counts term moves one loop's fitted trip count: scaled
 * (NULL: none) by trip_scale.  max_graph caps the instance's thread
 * graph, counting the actions of the members a class's segment stands
 * for (PP_INST_CLASSES) as if each held its own (0: none; scale's
 * searches give up on a size beyond it). */
typedef struct pp_vals {
    long *v;                 /* [nparams]                                   */
    const pp_mloop *scaled;
    double trip_scale;
    long max_graph;
} pp_vals;

/* What the memory model prices at the recorded size on one machine
 * (memory.c): computed when the model is prepared for the machine
 * (pp_mem_prepare), part of building it, and only read afterwards.  Per
 * loop, in function order (first[f] + k): ns, its streams' time per
 * iteration; thr = 1 when a stream's working set needs a trip count the
 * parameters do not give but a thread's values do (a block partition's
 * lo..hi): the instantiation then prices the loop per thread, from its
 * cost before the memory model (pp_costs.base) and thr_ns (the recorded
 * run's threads' streams' ns per iteration, their iteration-weighted
 * mean; thr_ws the largest of their working sets, thr_beyond whether one
 * went past the memory edge); thr = 2 when no thread's values gave them
 * either (the rule of the whole data). */
typedef struct {
    double ns;
    int thr;
    double thr_ns, thr_ws;
    int thr_beyond;
} pp_mem_recloop;

typedef struct pp_mem_rec {
    const pp_machine *mach;
    int *first;              /* [nfuncs]                                   */
    pp_mem_recloop *loop;
} pp_mem_rec;

/* Free what r holds (not r). */
void pp_mem_rec_clear(pp_mem_rec *r);

typedef struct {
    const pp_dfunc *d;
    int sync;            /* the body (or a callee) holds thread-graph events */
    int nscopes;         /* 1 + nloops: scope 0 = body, 1 + k = loop k      */
    int *nitems;
    pp_item **items;
    pp_mloop *loops;     /* parallel to d->loops                            */
    int *call_callee;    /* per call: function index or -1                  */
    unsigned char *arg_read; /* per argument: the instantiation of a call may
                            read its value (a count, a guard, an event, a
                            callee's argument that is read; model.c
                            args_read): a loop need not be walked
                            iteration by iteration for an argument that is
                            not                                            */
    int call_slot;       /* call k's fixed cost: the costs' slot call_slot+k */
    int *ev_child;       /* per event: child function index or -1           */
    int *loop_index;     /* loop id -> index into d->loops (-1)             */
    int max_loop_id;
    int *param_of;       /* per d->params: model parameter index            */
    pp_expr **thread_rule;/* per d->params: a value that belongs to each
                            thread, in (tid) (its index k) and (nthreads)
                            (the thread count) and the parameters; NULL
                            for a problem parameter (model-thread-values.c) */
    double *branch_ratio;/* per branch: observed true ratio (-1: never run) */
    double *site_ratio;  /* per event / call: executions per iteration of
                            its enclosing scope, observed (-1 unknown)      */
    double *loop_ratio;  /* per loop: entries per iteration of its enclosing
                            scope, observed (-1 unknown)                    */
    int *call_index_by_id, *event_index_by_id, *branch_index_by_id;
    int max_call_id, max_event_id, max_branch_id;
    /* MPI events: bytes per element of the datatype (type= / rtype=; -1
     * unknown), and the mean bytes per call over the recorded ranks, used
     * when the count or the datatype cannot be evaluated (-1: never ran) */
    double *ev_elem, *ev_relem, *ev_bytes_obs;
    /* hand-built barriers on a condition variable (model-cond.c): per
     * event and per loop, the index of the barrier whose broadcast or
     * waiting side it is (-1: none); per barrier, its cond_wait event */
    int *cb_of_event, *cb_of_loop;
    int ncb;
    int *cb_wait;
    /* per event: the key of the object the run shows its threads
     * shared, for a lock, unlock or condition variable's event the plugin
     * could not name (NULL: none; model-lockobj.c) */
    char **ev_runkey;
    /* per event: for a cond_wait whose mutex the plugin could not name,
     * the lock event of the same function on the same expression that
     * has a run key (its index; -1: none; model-lockobj.c) */
    int *ev_mutex_lock;
} pp_mfunc;

/* A value the recorded threads set differently (model-thread-values.c). */
typedef struct {
    char *name;          /* the parameter the plugin had made of it         */
    char *where;         /* "first in rows (ranges.c:12)"                   */
    pp_expr *rule;       /* in (tid), (nthreads) and the parameters; NULL:
                            no rule fits, the recorded values only        */
    int nthreads;        /* threads that set it in the run                  */
    long P;              /* their count at its site                         */
    long lo, hi;         /* the recorded values' range                      */
} pp_thread_value;

typedef struct pp_prog {
    pp_record *rec;      /* the primary record (the first given)            */
    int nrec;            /* all records, rec first: runs of one program at  */
    pp_record **recs;    /* several sizes, fitted and checked together      */
    int **fmap;          /* [record][its function] -> function of rec       */
    /* Repeats of one point (perfpred record -r K): records with the same
     * value of every parameter and the same P (for MPI runs also the same
     * rank) share a group id; ids are 0..ngroups-1 in the order of each
     * group's first record (rec_group[0] = 0).  Filled when the model is
     * built (pp_model_rec_groups, model-params.c). */
    int *rec_group;
    int ngroups;
    int nfuncs;
    pp_mfunc *funcs;
    int main_func;
    int nparams;
    pp_param *params;
    int nderived;
    pp_derived *derived;
    pp_pkind pkind;
    int p_param;         /* PP_P_PARAM: parameter index                     */
    long p_offset;       /* team size = params[p_param].value + p_offset    */
    int p_recorded;      /* the P of the run                                */
    int mpi;             /* the records are MPI ranks (recs[k]->mpi_rank)   */
    int omp_team_rec;    /* MPI: the OpenMP team size the ranks recorded    */
    int mpi_any_source;  /* MPI: the implementation's MPI_ANY_SOURCE,       */
    int mpi_any_tag;     /* MPI_ANY_TAG and MPI_PROC_NULL (the records')    */
    int mpi_proc_null;
    /* The fitted costs (ns), one slot each (costs.h): PP_SLOT_SEG the
     * fixed cost per segment (the fit's intercept), then each loop's
     * (pp_mloop.slot, entry_slot) and each call's (pp_mfunc.call_slot).
     * A point is evaluated with a copy of them (pp_costs), never by
     * changing these. */
    int nslot;
    double *fit;
    double timed_share;  /* the measured loops' time over the segments'
                            (cost-timed.c); -1: no loop timing            */
    double seg_se;
    int ncost;           /* the fitted costs, for confidence intervals:     */
    int *cost_slot;      /* each one's slot in fit (-1: none)               */
    double *cost_cov;    /* ncost x ncost covariance (ns^2)                 */
    int cost_rank_deficient;  /* the run could not separate some costs      */
    double cost_r2;
    long max_actions;    /* cap on an instance's actions (0: the default) */
    int nshape;          /* the arrays' sizes in the parameters, and their  */
    pp_expr **shape_bytes;   /* total at the recorded size: the cache rule */
    double footprint_rec;
    int cache_rule;      /* the memory model at other sizes (memory.h);
                            on unless --cache-rule off                   */
    int has_beta_prior;  /* the prior of the cost fit from a machine file's */
    double beta_prior[PP_NBETA];  /* linear model (perfpred fit)           */
    const pp_machine *fit_mach;   /* the machine of the build (may be NULL):
                                     its compute slowdown takes the
                                     recorded concurrency out of the costs */
    double rec_conc;     /* work-weighted mean concurrency of the records   */
    double rec_deflate;  /* the mean slowdown taken out (1: none)           */
    int nmemo;           /* the memory model's prices at the recorded size,
                            one per machine the model was prepared for  */
    struct pp_mem_rec *memo;  /* (memory.h, pp_mem_prepare)               */
    double model_error;  /* the intervals' relative model error per
                            doubling of the work (metrics.h)            */
    double cost_quantile;/* --cost-quantile: the quantile of the segments'
                            slowdown that sets the costs' level (cost.h);
                            0: the least-squares costs as they are     */
    double cost_level;   /* the factor that level put on the least-
                            squares costs (1: none)                    */
    int nwarn;
    char **warn;         /* things the user should know                     */
    int ntvals;          /* values that belong to threads                   */
    pp_thread_value *tvals;
    char *thread_refusal;/* why no P but the recorded one can be evaluated
                            (a thread value no rule fits), or NULL         */
} pp_prog;

/* Parameter i's value at pv (NULL: the recorded point, what the model's
 * construction evaluates at). */
static inline long pp_vals_get(const pp_prog *m, const pp_vals *pv, int i)
{
    return pv ? pv->v[i] : m->params[i].recorded;
}

/* Fit the costs again (after m->cost_quantile changed), with the
 * machine whose slowdowns are taken out (NULL: none).  0 or -1. */
int pp_prog_refit_costs(pp_prog *m, const pp_machine *mach, char *err, size_t errlen);

/* Build the model from a loaded record (which must outlive the model):
 * structure, parameters, P binding, count verification and rule choice,
 * cost fit.  Returns 0, or -1 with a message. */
int pp_prog_build(pp_prog *m, pp_record *r, char *err, size_t errlen);
/* The same from several records of one program (recs[0] is the primary:
 * parameters default to its values; costs are fitted on all of them and
 * every count rule is checked against each). */
int pp_prog_build_multi(pp_prog *m, pp_record **recs, int nrec, char *err, size_t errlen);
/* The same, with the cost fit's prior from mach's linear model when it has
 * one, and the recorded threads' slowdown of each other taken out of the
 * costs by mach's scale.compute (mach may be NULL: neither; mach must
 * outlive the build only). */
int pp_prog_build_with(pp_prog *m, pp_record **recs, int nrec, const pp_machine *mach, char *err, size_t errlen);
/* A counter slot's total: in the primary record, or summed over the
 * ranks for an MPI run. */
uint64_t pp_prog_slot_total(const pp_prog *m, int f, int slot);
/* Bytes of one element of an MPI datatype named as in a descriptor
 * (Open MPI's ompi_mpi_double, MPICH's handle 0x4c00080b); -1 unknown. */
double pp_mpi_type_bytes(const char *type);
/* The collective (a pp_coll of net.h) an MPI event kind is; -1 for the
 * others. */
int pp_mpi_coll_of(pp_evkind k);
/* A parameter's value in record k (its recorded value for k = 0). */
int pp_prog_param_in(const pp_prog *m, int k, int param, long *value);
/* Iterations per entry of a loop with no count expression, at the
 * point's values: its power law over several records, or
 * the recorded average (model-counts.c). */
/* A work-queue loop's team total at the point's values. */
double pp_loop_team_total(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml);
double pp_loop_trip(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml);
/* The relative standard error of that fitted trip at the current
 * parameters (the regression's prediction error at x); -1 when the fit
 * went through two points (no residual to measure it by) or there is no
 * fit. */
double pp_loop_trip_relse(const pp_prog *m, const pp_vals *pv, const pp_mloop *ml);
/* The P of record k. */
int pp_prog_P_in(const pp_prog *m, int k);
/* A per-rank parameter's value at rank `rank` of P ranks at the point
 * pv: its rule, or without one its recorded value at that rank (single:
 * the instance is one rank's, whose value pv already holds).  0 or -1. */
int pp_prog_rank_value(const pp_prog *m, const pp_vals *pv, int param, int rank, int P, int single,
                       int64_t *out);
/* Why the ranks cannot be instantiated at P (a per-rank value without a
 * rule, at another P than the recorded one): a message in buf, or NULL. */
const char *pp_prog_rank_refusal(const pp_prog *m, int P, char *buf, size_t n);
void pp_prog_free(pp_prog *m);
/* PERFPRED_FULL_WALK=1 (the oracle tests'): every team member and rank
 * unrolled on its own (inst-class.c), every loop that calls a function
 * with the loop's IV walked iteration by iteration, whether the callee
 * reads that argument or not (model.c) */
int pp_full_walk(void);

/* The recorded values (0, or -1 when memory runs out); a copy of src
 * (NULL: the recorded values); free. */
int pp_vals_init(pp_vals *pv, const pp_prog *m);
int pp_vals_copy(pp_vals *dst, const pp_prog *m, const pp_vals *src);
void pp_vals_free(pp_vals *pv);
/* All values back to the recorded ones. */
void pp_vals_reset(const pp_prog *m, pp_vals *pv);
/* Set a parameter by name (--set NAME=V); parameters that share a name
 * move together.  "P" is not a parameter. */
int pp_vals_set(const pp_prog *m, pp_vals *pv, const char *name, long value, char *err, size_t errlen);
/* Set the parameter that fixes the thread count (pthreads) for P. */
void pp_vals_apply_P(const pp_prog *m, pp_vals *pv, int P);
/* The values of record k (its parameters and its P). */
void pp_vals_of_record(const pp_prog *m, pp_vals *pv, int k);
int pp_prog_param_index(const pp_prog *m, const char *name);
/* The derived global NAME (index into m->derived), or -1. */
int pp_prog_derived_index(const pp_prog *m, const char *name);
/* A derived global's value at the point's values (-1: it cannot be
 * evaluated there). */
int pp_prog_derived_value(const pp_prog *m, const pp_vals *pv, int d, long *out);
/* When NAME is a derived global: the message that says so and names the
 * inputs to set instead ("'nv' is computed by the program (nv = 1 <<
 * SCALE, line 17 of init_sizes): set scale instead"), 0; else -1. */
int pp_prog_derived_hint(const pp_prog *m, const char *name, char *buf, size_t n);
/* An expression in the parameters at the point's values; -1 when it
 * holds anything else (an enclosing loop's variable). */
int pp_prog_eval(const pp_prog *m, const pp_vals *pv, const pp_expr *e, int64_t *out);
void pp_prog_warn(pp_prog *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- instances ---------------------------------------------------------- */

typedef enum {
    PP_A_WORK,           /* ns of computation                              */
    PP_A_FORK,           /* key = team, n = team size                      */
    PP_A_TEAM_WAIT,      /* worker: wait for the fork of team key          */
    PP_A_TEAM_DONE,      /* worker: done with team key                     */
    PP_A_JOIN_TEAM,      /* master: wait for all members of team key       */
    PP_A_CREATE,         /* key = child thread                             */
    PP_A_START,          /* first action of a created thread               */
    PP_A_JOIN_THREAD,    /* key = child thread                             */
    PP_A_BARRIER,        /* key = barrier object, n = parties              */
    PP_A_LOCK, PP_A_UNLOCK,  /* key = lock object                          */
    /* MPI (rank threads): ns = bytes; key = peer rank in MPI_COMM_WORLD
     * (PP_MPI_ANY: any source), n = tag (PP_MPI_ANY: any tag); comm = the
     * communicator (pp_instance.comms) the message is matched in */
    PP_A_SEND,           /* blocking send (eager or rendezvous by size)    */
    PP_A_SSEND,          /* synchronous send: completes when matched       */
    PP_A_RECV,           /* blocking receive                               */
    PP_A_ISEND, PP_A_IRECV,  /* post a request (completed by WAIT)         */
    PP_A_WAIT,           /* wait for the n oldest requests (n < 0: all)    */
    PP_A_COLL,           /* collective on communicator comm: key = pp_coll
                            (net.h), n = root (its rank in comm), ns =
                            bytes                                          */
    /* only with PP_INST_STRUCT (the drawn thread graph): */
    PP_A_LOOP_OPEN,      /* a loop holding events: key = loop index in
                            func's descriptor, n = its count at this entry */
    PP_A_LOOP_CLOSE,     /* end of that loop's body (walked once)          */
    PP_A_LOOP_WORK,      /* a loop without events: key = loop index,
                            n = count, ns = its cost                       */
    /* condition variables and semaphores outside a hand-built barrier
     * (docs/model.md, "Condition variables"): key = the object */
    PP_A_COND_WAIT,      /* wait for a wake on key after arriving          */
    PP_A_COND_WAKE,      /* n = 1: wake the oldest waiter (signal); n = 0:
                            all of them (broadcast)                        */
    PP_A_SEM_WAIT,       /* take one from the count, or wait for a post    */
    PP_A_SEM_POST,       /* give one: to the oldest waiter, or the count   */
    /* PP_INST_CLASSES: a thread whose later teams are all other members'
     * segments (pp_instance.vsegs) pays the fixed cost of the segment
     * before its next team, as it would, and leaves the walk */
    PP_A_PARK
} pp_akind;

typedef struct {
    pp_akind kind;
    int n;
    int key;
    union {
        int comm;        /* MPI: index in pp_instance.comms (0: the world)  */
        float mem;       /* WORK: the share of ns spent streaming memory
                            beyond the last cache level (0..1), slowed down
                            by the machine's scale.memory rather than
                            scale.compute when threads run at once         */
        int vseg;        /* TEAM_WAIT (PP_INST_CLASSES): index + 1 in
                            pp_instance.vsegs when the segment it starts
                            is also the one of other members; 0: not   */
    };
    double ns;
    int func, site;      /* the event site (-1 for WORK); for LOOP_*: the
                            function and the loop id                       */
} pp_action;

/* An MPI communicator of an instance: comms[0] is MPI_COMM_WORLD; the
 * others were made by MPI_Comm_split or MPI_Comm_dup from `parent`, as the
 * seq-th communicator made from it (the same on every member). */
typedef struct {
    int size;
    int *world;          /* world[i]: the world rank of its rank i (NULL
                            for comms[0], the identity)                    */
    int *by_world;       /* world ranks sorted, and their ranks in it: */
    int *pos_of;         /* pp_comm_rank_of's binary search               */
    int parent, seq, color;
    int dup;             /* made by MPI_Comm_dup                            */
} pp_comm;

/* The rank of world rank w in the communicator, or -1 if not a member. */
int pp_comm_rank_of(const pp_comm *c, int w);

#define PP_MPI_ANY (-1)      /* MPI_ANY_SOURCE / MPI_ANY_TAG in actions      */
/* A message's peer relative to its rank: key = PP_MPI_REL + (peer - rank)
 * (the actions a class of ranks shares, analysis/inst-class.c: a
 * neighbour's rank - 1 is the same for every rank of the class). */
#define PP_MPI_REL (-(1 << 30))

/* The world rank an MPI message action of rank `rank` names: its key, or
 * the rank plus the key's offset where it is relative (PP_MPI_REL). */
static inline int pp_action_peer(const pp_action *a, int rank)
{
    return a->key < PP_MPI_REL / 2 ? rank + (a->key - PP_MPI_REL) : a->key;
}

typedef enum { PP_IT_MAIN, PP_IT_PTHREAD, PP_IT_OMP, PP_IT_RANK } pp_itkind;

typedef struct {
    pp_itkind kind;
    int parent;          /* creating / forking thread                      */
    int tid;             /* omp: thread number; pthread: creation order;
                            rank: the MPI rank                             */
    int start_func;
    int nact, capact;
    pp_action *act;
    int borrowed;        /* act is another rank's, the same actions (a
                            class of ranks: analysis/inst-class.c); not
                            this thread's to free or grow                */
} pp_ithread;

#define PP_INST_ACTIONS 1    /* build the per-thread action lists          */
#define PP_INST_TOTALS  2    /* count iterations of every loop             */
#define PP_INST_STRUCT  4    /* with ACTIONS: walk loops that hold events
                                once, between LOOP_OPEN and LOOP_CLOSE, and
                                give top-level event-free loops their own
                                LOOP_WORK action: the thread graph to draw  */
#define PP_INST_SITES   8    /* with ACTIONS: where the time goes (predict
                                --by, timeline): the contexts, each action's
                                context and each WORK action's parts; the
                                actions and their times are the same      */
#define PP_INST_MEMSTAT 16   /* collect the per-thread memory pricing of
                                the loops with mem_thr into memstat
                                (memory.c); costs are left as they are    */
#define PP_INST_CLASSES 32   /* with ACTIONS: members of an OpenMP team
                                that make the same actions as their
                                class's first member (inst-class.c) hold
                                none for that team; the first member's
                                segment stands for them (pp_instance.vsegs)
                                and the traversal walks it once, weighted
                                by the members it stands for.  Off with
                                STRUCT and SITES, which draw each thread's
                                actions */

/* A context (PP_INST_SITES): a function's body or a loop's, reached by a
 * chain of calls, forks, creates and loops, which it extends by one.
 * ctx[0] is the program (func -1), the root. */
typedef struct {
    int parent;          /* -1: the root                                   */
    int func;            /* function index                                 */
    int loop;            /* index in the function's loops; -1: its body    */
    int child, next;     /* first child, next sibling (-1: none)           */
} pp_ctxnode;

/* A part of a WORK action: ns of its computation came from context node
 * (a loop's own statements and entries, a function's straight-line code:
 * its calls' fixed cost, the segments' fixed cost of its events). */
typedef struct {
    int node;
    double ns;
} pp_wpart;

typedef struct {
    int P;
    int nthreads;
    pp_ithread *threads;
    int nkeys;           /* interned object keys                           */
    char **keys;
    int *key_parties;    /* barrier parties per key                        */
    long double **totals;/* [func][loop index]: body iterations            */
    unsigned char **fellback; /* [func][loop index]: the count rule could not
                            be evaluated somewhere and the observed average
                            was used instead                               */
    /* PP_INST_MEMSTAT (NULL otherwise): [func][loop index], over the
     * entries priced per thread, weighted by their iterations */
    struct pp_memstat {
        double n;        /* iterations                                     */
        double ns;       /* sum of n x the streams' ns per iteration        */
        double ws;       /* the largest working set of a thread            */
        int threads;     /* the most threads sharing the last level         */
        int beyond;      /* a thread's stream went past the memory edge     */
        int whole;       /* a stream was priced at the program's arrays     */
    } **memstat;
    double work_ns;      /* sum of all WORK                                */
    long graph;          /* the thread graph's actions, a class's members'
                            counted (what pp_vals.max_graph limits)         */
    double seg_ns;       /* the fixed cost of a segment it was priced with */
    int approx;          /* some sums were sampled, not enumerated         */
    int nteams;
    int *team_size;
    /* PP_INST_CLASSES: the segments (from a TEAM_WAIT to its TEAM_DONE)
     * that stand for other members too.  vsegs[i]: thread `thread`'s
     * segment of team `team`, copied by `copies` other threads, those of
     * the runs vruns[first], vruns[first].next, ... (-1 ends): threads
     * lo..hi (consecutive thread ids).  vlast[t]: the last team thread
     * t is such a copy in (-1: none); NULL when there are none.  A
     * thread whose last team is one it copies ends in a PARK. */
    int nvseg, capvseg;
    struct pp_vseg {
        int thread, at;  /* the thread and its TEAM_WAIT's index        */
        int team, copies, first, last;
    } *vsegs;
    int nvrun, capvrun;
    struct pp_vrun {
        int lo, hi, next;
    } *vruns;
    int *vlast;
    int ncomms;          /* MPI: the communicators (comms[0]: the world)   */
    pp_comm *comms;
    /* PP_INST_SITES (NULL otherwise): the contexts; per thread, each
     * action's context (the one it was made in), and the parts of its
     * WORK actions: a WORK action has key = its first part, n = their
     * number, ns = their sum (up to rounding) */
    int nctx, capctx;
    pp_ctxnode *ctx;
    int **act_ctx;
    pp_wpart **wparts;
    long *nwparts;
} pp_instance;

/* Unroll the model at the point's values pv for P processors (P applied
 * to pv where P is a parameter),
 * with the fitted costs (pp_instantiate_costed, costs.h, with others).
 * Returns 0 or -1 with a message (recursion too deep, a hang-prone
 * structure, too many actions: that message holds PP_ERR_GRAPH_LIMIT,
 * which `scale` looks for, as it looks for PP_ERR_HANG in a walk's). */
#define PP_ERR_GRAPH_LIMIT "the thread graph has more than"
#define PP_ERR_HANG "hangs (deadlock)"
int pp_instantiate(const pp_prog *m, const pp_vals *pv, int P, int flags, pp_instance *out, char *err,
                   size_t errlen);
/* MPI: only rank `rank` of P (its loop totals, its thread); rank < 0: all
 * ranks, as pp_instantiate. */
int pp_instantiate_rank(const pp_prog *m, const pp_vals *pv, int P, int rank, int flags, pp_instance *out,
                        char *err, size_t errlen);
void pp_instance_free(pp_instance *in);

/* The team size / thread count the model gives at P, and the P that the
 * run had. */
long pp_prog_team_size(const pp_prog *m, int P);
/* Bytes of the program's arrays (its shapes whose size the parameters
 * give) at the point's values. */
double pp_prog_footprint(const pp_prog *m, const pp_vals *pv);
/* The P to use when the user gives no --P: the recorded one, or the one a
 * --set of the thread-count parameter asked for. */
int pp_prog_default_P(const pp_prog *m, const pp_vals *pv);

#endif
