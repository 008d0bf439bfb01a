/* machine.h - the machine model: costs of synchronisation events and the
 * slowdown of threads that run at once, as fitted by `perfpred calibrate`
 * (docs/machine-format.md), read from and written to machine files, and
 * evaluated for any number of processors P by the traversal.
 *
 * Every cost is a model y(P) = a + b*x with x = 1 (const), P (linear) or
 * log2 P (log2), with the standard errors of a and b from the least-squares
 * fit.  Costs are in nanoseconds; the two scaling models are dimensionless
 * factors (>= 1).  All coefficients are >= 0, so every model is monotone
 * non-decreasing in P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MACHINE_H
#define PERFPRED_MACHINE_H

#include <stddef.h>
#include <stdio.h>
#include "net.h"

#define PP_MACHINE_MAGIC      "perfpred-machine"
#define PP_MACHINE_VERSION    1
#define PP_MACHINE_NAME_MAX   64
#define PP_MACHINE_MAX_POINTS 64     /* raw points kept per cost           */

/* The shape of a cost model. */
typedef enum {
    PP_MODEL_CONST = 0,   /* y = a                                        */
    PP_MODEL_LINEAR,      /* y = a + b*P                                  */
    PP_MODEL_LOG2         /* y = a + b*log2(P)                            */
} pp_model_kind;

/* The costs a machine describes; the index into pp_machine.cost[]. */
typedef enum {
    PP_COST_CREATE = 0,   /* thread.create: pthread_create() until the
                             child runs (const, ns)                       */
    PP_COST_JOIN,         /* thread.join: from the end of a thread to the
                             return of the pthread_join() waiting for it
                             (const, ns)                                  */
    PP_COST_FORKJOIN_OMP, /* forkjoin.omp: empty parallel region of P
                             threads, fork + join (ns, f(P))              */
    PP_COST_BARRIER_OMP,  /* barrier.omp: #pragma omp barrier, all P
                             threads arriving together (ns, f(P))         */
    PP_COST_BARRIER_PTHREAD, /* barrier.pthread: pthread_barrier_wait
                             (ns, f(P))                                   */
    PP_COST_LOCK,         /* mutex.lock: uncontended lock + unlock
                             (const, ns)                                  */
    PP_COST_HANDOFF,      /* mutex.handoff: time for a mutex to pass from
                             one thread to a waiting one (const, ns)      */
    PP_COST_SCALE_COMPUTE,/* scale.compute: slowdown of a compute-bound
                             thread when P run at once (factor, f(P))     */
    PP_COST_SCALE_MEMORY, /* scale.memory: slowdown of a memory-streaming
                             thread when P run at once (factor, f(P))     */
    PP_COST_CREATE_CALL,  /* thread.create_call: the parent's time in
                             pthread_create() (const, ns)                 */
    PP_COST_N
} pp_cost_id;

/* Where a machine description came from. */
typedef enum {
    PP_MACHINE_HAND = 0,  /* written by hand (no `source` key)            */
    PP_MACHINE_MEASURED,  /* written by perfpred calibrate                */
    PP_MACHINE_DEFAULT    /* pp_machine_default(): built-in guesses       */
} pp_machine_source;

/* Synchronisation flavours for pp_machine_barrier_ns(). */
enum { PP_SYNC_OMP = 0, PP_SYNC_PTHREAD = 1 };

typedef struct pp_model {
    pp_model_kind kind;
    double a, b;          /* coefficients (ns, or a factor for scale.*)   */
    double a_se, b_se;    /* standard errors; 0 = unknown                 */
    double r2;            /* coefficient of determination; -1 = unknown   */
    int n;                /* samples the fit used; 0 = not fitted         */
    int oversub_fit;      /* 1: oversubscribed points were used (there
                             was nothing else)                            */
} pp_model;

/* One measured point: the median over repetitions at P threads. */
typedef struct pp_point {
    int p;
    double v;             /* ns, or the factor for scale.*                */
    int oversub;          /* P > cores: reported, not used for the fit    */
} pp_point;

typedef struct pp_series {
    int n;
    pp_point pt[PP_MACHINE_MAX_POINTS];
} pp_series;

/* The linear machine model of Clement & Quinn, t = sum chi_i beta_i: the
 * cost of one operation of each class, fitted by `perfpred fit` over runs
 * (docs/machine-format.md).  Optional: has_beta says whether a file had
 * them. */
enum {
    PP_BETA_INT, PP_BETA_FP, PP_BETA_LOAD, PP_BETA_STORE, PP_BETA_BRANCH, PP_BETA_CALL,
    PP_BETA_ITER,       /* one loop iteration (the increment and the test)   */
    PP_BETA_ENTRY,      /* entering a loop                                   */
    PP_BETA_SEGMENT,    /* a segment between two events                      */
    PP_NBETA
};
const char *pp_beta_name(int i);   /* "int", "fp", ... "segment" */

/* calibrate --mpi's raw point series (docs/machine-format.md). */
enum { PP_MPI_PT_PINGPONG, PP_MPI_PT_BARRIER, PP_MPI_PT_ALLREDUCE, PP_MPI_PT_N };
const char *pp_mpi_point_name(int i);   /* "pingpong", "barrier", "allreduce" */

/* y against a working set in bytes, sorted by it. */
typedef struct pp_curve {
    int n;
    long ws[PP_MACHINE_MAX_POINTS];
    double v[PP_MACHINE_MAX_POINTS];
} pp_curve;

typedef struct pp_machine {
    char name[PP_MACHINE_NAME_MAX];   /* host name or a user's label       */
    pp_machine_source source;
    int cores;            /* processors the measurements ran on           */
    int max_threads;      /* largest team measured (0 = unknown)          */
    int quick;            /* 1: measured with --quick (fewer samples)     */
    long cache_l1d_bytes, cache_l2_bytes, cache_l3_bytes; /* 0 = unknown  */
    int cache_l3_shared_by; /* processing units sharing one L3 (hwloc's
                               topology; 0 = unknown: all `cores`)        */
    double mem_bw1_bytes_per_ns;    /* streaming bandwidth, 1 thread      */
    double mem_bw_all_bytes_per_ns; /* aggregate, `cores` threads         */
    long mem_footprint_bytes;       /* per-thread working set of the
                                       streaming kernel (0 = unknown)     */
    double bw_l1_bytes_per_ns;      /* streaming bandwidth of one thread   */
    double bw_l2_bytes_per_ns;      /* with its working set inside L1, L2, */
    double bw_l3_bytes_per_ns;      /* L3 (0 = unknown)                    */
    /* Measured against the working set, doubling from the L1 to the
     * memory kernel's (docs/machine-format.md, "Cache bandwidths"):
     * one thread's streaming bandwidth (point.mem.stream, bytes per ns;
     * with two points or more it replaces the three levels above, whose
     * nominal sizes may not be what a guest gets), the time of a load
     * whose address the previous load gave (point.mem.chase, ns) and of
     * independent loads at random addresses (point.mem.gather, ns). */
    pp_curve stream, chase, gather;
    double noise_cov;     /* run-to-run variation of the host: the
                             coefficient of variation of repeated timings
                             of one streaming kernel (0 = unknown)        */
    /* A host busy while calibrate measured (docs/machine-format.md, "Busy
     * host"; optional keys busy, busy.load, busy.COST): busy = 1 when the
     * 1-minute load average was above half the processors; busy_load that
     * load average (0 = not recorded); per cost, the share of its samples
     * that were disturbed (slower than 3x their point's median: a thread
     * lost its processor; left out of the fit) and the slowest of them
     * over that median (0, 0 = none recorded). */
    int busy;
    double busy_load;
    double busy_share[PP_COST_N], busy_factor[PP_COST_N];
    /* Rounds (docs/machine-format.md, "Rounds, spread and a busy host";
     * optional keys): every cost is measured in busy_rounds interleaved
     * rounds and keeps the quietest; spread[C] is the median round over
     * it, the largest over C's team sizes (C.spread; 0 = not recorded); a
     * cost whose spread is above 2 is marked.  busy_steal: the share of
     * the processors a fixed spin on each of them lost, the median over
     * the rounds (busy.steal; 0 = none or not recorded); above 0.25 the
     * host is marked. */
    int busy_rounds;
    double busy_steal;
    double spread[PP_COST_N];
    double compute_kernel_ns; /* one thread's ns per iteration of the
                                 compute kernel alone (compute.kernel_ns,
                                 0 = unknown): calibrate --check's
                                 reference for this processor's speed   */
    pp_model cost[PP_COST_N];
    pp_series points[PP_COST_N];
    double sync_scale;    /* every synchronisation cost is multiplied by
                             it (0 taken as 1): set by the in-situ
                             calibration (insitu.h), never in the file    */
    double mem_time_scale; /* the memory hierarchy's time per byte against
                             the file's (0 taken as 1): the memory model's
                             stream, gather and chase times are multiplied
                             by it; set by --with memory= or mem.bandwidth=
                             (whatif.h), never in the file                */
    int has_beta;
    double beta[PP_NBETA], beta_se[PP_NBETA];   /* ns per operation */
    int beta_runs;                              /* records fitted   */
    /* The MPI network (net.h): pp_net_default() unless the file had mpi.*
     * keys or `calibrate --mpi` measured it (has_net = 1). */
    pp_net net;
    int has_net;
    /* calibrate --mpi's raw points (point.mpi.*): p is the message size in
     * bytes (pingpong, v = half round trip) or the ranks K (barrier,
     * allreduce of 8 bytes, v = ns per call); oversub: K > cores. */
    pp_series mpi_points[PP_MPI_PT_N];
} pp_machine;

/* ---- queries (the traversal's interface) ------------------------------ */

/* Fork + join of an OpenMP parallel region with a team of P threads. */
double pp_machine_fork_join_ns(const pp_machine *m, int P);
/* One barrier episode with P threads arriving together; kind is
 * PP_SYNC_OMP or PP_SYNC_PTHREAD. */
double pp_machine_barrier_ns(const pp_machine *m, int P, int kind);
/* Uncontended mutex acquire + release. */
double pp_machine_lock_ns(const pp_machine *m);
/* From the release by one thread to the acquisition by a waiting one. */
double pp_machine_handoff_ns(const pp_machine *m);
/* From pthread_create() in the parent until the child runs. */
double pp_machine_create_ns(const pp_machine *m);
/* The parent's own time in pthread_create(): it continues after this. */
double pp_machine_create_call_ns(const pp_machine *m);
/* From the end of a thread to the return of the pthread_join() that was
 * waiting for it. */
double pp_machine_join_ns(const pp_machine *m);
/* Slowdown (>= 1, non-decreasing in P) of a compute-bound thread when P
 * threads run at once, each on its own processor; 1 for P <= 1. */
double pp_machine_compute_scale(const pp_machine *m, int P);
/* The same for a memory-streaming thread (shared memory bandwidth). */
double pp_machine_memory_scale(const pp_machine *m, int P);
/* Blend for a segment spending mem_fraction (0..1) of its one-thread time
 * streaming memory: (1-f)*compute_scale + f*memory_scale. */
double pp_machine_scale(const pp_machine *m, int P, double mem_fraction);

/* y(x) of a model at P (P < 1 is taken as 1). */
double pp_model_eval(const pp_model *mod, int P);

/* ---- construction, files ---------------------------------------------- */

/* Bytes per ns one thread streams with a working set of `bytes`: the
 * measured points (half of each cache level; mem.footprint_bytes for main
 * memory) interpolated in log(bytes), flat outside them; 0 when the file
 * has no bandwidths.  The memory model's input (memory.h). */
double pp_machine_stream_bw(const pp_machine *mach, double bytes);
/* Adds a point to a curve (kept sorted by working set; the same working
 * set again replaces its value).  -1 when the curve is full. */
int pp_curve_add(pp_curve *c, long ws, double v);
/* The curve at `bytes`: log-linear in the working set between its points,
 * flat outside them; 0 when it has no point. */
double pp_curve_at(const pp_curve *c, double bytes);
/* The working set beyond which a thread's stream is served by the memory
 * (whose bandwidth the cores share) rather than a cache: from the measured
 * curve, past its last point more than 25% faster than the memory kernel's;
 * else the largest cache's nominal size; 0 when nothing is known. */
double pp_machine_memory_edge(const pp_machine *mach);
/* Where that edge comes from, in one sentence into buf (calibrate's
 * summary, the machine file's comment, predict): the measured curve's
 * size and the host's nominal L3 beside it, or the nominal size; "" when
 * nothing is known. */
void pp_machine_edge_note(const pp_machine *mach, char *buf, size_t n);
/* One thread's streaming bandwidth beyond the last cache level, bytes per
 * ns (the bandwidth curve's last point, else mem.bw1): 0 when unknown. */
double pp_machine_memory_bw(const pp_machine *mach);
/* mem_time_scale, 1 when unset (0) */
double pp_machine_mem_time_scale(const pp_machine *mach);

/* Conservative built-in costs (docs/machine-format.md, "Defaults"), marked
 * source = PP_MACHINE_DEFAULT.  For use only when no machine file is given. */
void pp_machine_default(pp_machine *m);

/* Read a machine file.  On error returns non-zero and writes one message
 * naming the file (and line) into err; m is then unspecified.  Unknown keys
 * are ignored with a warning on stderr. */
int pp_machine_load(const char *path, pp_machine *m, char *err, size_t errlen);

/* Write a machine file atomically (temporary file + rename). */
int pp_machine_save(const char *path, const pp_machine *m,
                    char *err, size_t errlen);

/* ---- a machine file measured on a busy host (machine-busy.c) ---------- */

/* 1 when the file must not be trusted without a word: busy = 1, a
 * busy.steal above 0.25, or a cost whose spread is above 2. */
int pp_machine_marked(const pp_machine *m);
/* 1 when cost c's spread is above 2. */
int pp_machine_cost_marked(const pp_machine *m, int c);
/* The note every output that uses a marked file starts with (one line, no
 * newline): "warning: PATH ... (calibrate again on an idle host)"; ""
 * when the file is not marked. */
void pp_machine_mark_note(const pp_machine *m, const char *path, char *buf, size_t len);
/* That note at the top of an output: text "warning: ...\n", CSV
 * "# warning: ...\n" (PP_MARK_CSV), or for JSON the member
 * "machine_warning":"...", (with its comma: call right after the '{').
 * Nothing when the file is not marked. */
enum { PP_MARK_TEXT, PP_MARK_CSV, PP_MARK_JSON };
void pp_machine_mark_print(FILE *f, int how, const pp_machine *m, const char *path);

/* The largest busy_factor of the costs (0 when none is recorded). */
double pp_machine_busy_factor(const pp_machine *m);
/* How far off the costs may be: 3 (the fit keeps samples within 3x of
 * their median) when fewer than half of every cost's samples were
 * disturbed; 0 (unknown) otherwise or when no cost records it. */
double pp_machine_busy_bound(const pp_machine *m);
/* "load average 2.35 on 2 processors" (or "load average not recorded"). */
void pp_machine_busy_load_text(const pp_machine *m, char *buf, size_t len);
/* The disturbed costs, "barrier.omp: 12% of its samples, up to 4.1x; ..."
 * ("" when none); returns how many. */
int pp_machine_busy_costs_text(const pp_machine *m, char *buf, size_t len);
/* One line (no newline): "PATH was calibrated on a busy host (...): ...";
 * "" when m->busy is 0.  path may be NULL ("the machine file"). */
void pp_machine_busy_line(const pp_machine *m, const char *path, char *buf, size_t len);
/* The same on f as "perfpred CMD: warning: LINE\n", when m->busy. */
void pp_machine_busy_warn(FILE *f, const char *cmd, const char *path, const pp_machine *m);
/* The JSON object of `predict --format json`'s "machine_busy" field:
 * {"load", "cores", "disturbed": [{"cost", "share", "factor"}],
 * "off_by_up_to", "max_factor", "warning"}: null for what is not known. */
void pp_machine_busy_json(FILE *f, const pp_machine *m, const char *path);

/* Add a raw point to a series (ignored when the series is full). */
void pp_machine_add_point(pp_machine *m, pp_cost_id id, int p, double v,
                          int oversub);
/* The same for calibrate --mpi's series (PP_MPI_PT_*). */
void pp_machine_add_mpi_point(pp_machine *m, int series, int p, double v, int oversub);

/* Names: "const"/"linear"/"log2"; the key prefix of a cost, e.g.
 * "barrier.omp"; "hand"/"measured"/"default".  Return NULL when out of
 * range. */
const char *pp_model_kind_name(pp_model_kind k);
const char *pp_cost_key(pp_cost_id id);
const char *pp_machine_source_name(pp_machine_source s);
/* 1 when the cost is a dimensionless factor (scale.*), 0 when in ns. */
int pp_cost_is_factor(pp_cost_id id);
/* 1 when the cost depends on P (may be linear or log2), 0 when it must be
 * const. */
int pp_cost_depends_on_p(pp_cost_id id);

#endif /* PERFPRED_MACHINE_H */
