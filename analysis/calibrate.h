/* calibrate.h - `perfpred calibrate`: micro-benchmarks that measure the
 * costs of a pp_machine on this host, each in a dedicated environment
 * (Zhang & Xu 3.1: barriers with all threads arriving together, locks
 * without contention), and the least-squares fits of the cost models.
 *
 *   calibrate.c          orchestration: which P, samples, fits, the summary
 *   calibrate_sample.c   the sampler: warm-up, iteration count, repetitions
 *   calibrate_fit.c      medians, least squares (GSL), model choice
 *   calibrate_sync.c     OpenMP fork/join, OpenMP and pthread barriers
 *   calibrate_thread.c   pthread create/join, mutex lock and hand-off
 *   calibrate_compute.c  compute and memory-streaming slowdown, caches
 *   calibrate_mpi.c      the MPI network (--mpi): perfpred-mpibench under
 *                        mpirun, the LogGP fit
 *   calibrate_rounds.c   rounds: the value kept, the spread; the steal probe
 *   calibrate_check.c    --check FILE: a few costs measured again
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_CALIBRATE_H
#define PERFPRED_CALIBRATE_H

#include <stdint.h>
#include <stdio.h>
#include "machine.h"

typedef struct pp_calib_opts {
    int quick;          /* fewer, shorter samples (whole run < 3 s)        */
    int max_threads;    /* largest team; 0 = 4 * cores (at most 64)        */
    int cores;          /* 0 = the processors this process may run on      */
    FILE *progress;     /* progress lines go here; NULL = none             */
} pp_calib_opts;

/* Measure this host and fill m (source = measured).  Returns 0, or non-zero
 * with a message in err. */
int pp_calibrate(pp_machine *m, const pp_calib_opts *o, char *err,
                 size_t errlen);

/* `perfpred calibrate -o FILE [--quick] [--max-threads N] [--help]`;
 * argv[0] is "calibrate".  Returns the exit status (0, 1 failure, 2 usage). */
int pp_cmd_calibrate(int argc, char **argv);

/* `calibrate --check FILE` (calibrate_check.c): measure a few costs again
 * and print, per cost, the file's value, today's and whether they are
 * within a factor tol (> 1) of each other.  Returns 0 when every cost
 * checked is and the processor counts agree, 1 when not (or a benchmark
 * failed), 2 when the file cannot be read (the error, naming the file
 * and line, on stderr). */
int pp_calibrate_check(const char *path, int quick, double tol, FILE *out);

/* Print the summary table of a machine (models, values at a few P). */
void pp_calibrate_summary(FILE *out, const pp_machine *m);

/* ---- calibrate --mpi (calibrate_mpi.c) ----------------------------------- */

/* What calibrate --mpi saw besides the machine's network, for the summary. */
typedef struct pp_mpi_cal {
    char library[128];    /* MPI_Get_library_version, first line           */
    int kmax;             /* largest number of ranks run                    */
    double osend, orecv;  /* the sender's time in an 8-byte MPI_Send; the
                             receiver's in MPI_Recv of an arrived message   */
    double G_se;          /* standard error of G                            */
    int G_points;         /* ping-pong sizes G was fitted to (0: one)       */
    int eager_how;        /* 0 measured, 1 at least (no size waited), 2 not
                             measured (Open MPI's shared-memory default)    */
    int latency_clamped;  /* T(0) - 2o was negative                         */
} pp_mpi_cal;

/* mpirun in PATH, and perfpred-mpibench ($PERFPRED_MPIBENCH, else next to
 * this executable): 0 and the path in out, or -1 (out then holds where
 * the benchmark was looked for). */
int pp_cal_find_mpirun(char *out, size_t len);
int pp_cal_find_mpibench(char *out, size_t len);
/* The executable NAME in PATH: 0 and its path in out, or -1. */
int pp_find_in_path(const char *name, char *out, size_t len);

/* Run the benchmark under mpirun for K = 2 .. max(4, cores) ranks, fill
 * m->net (source measured, has_net = 1) and m->mpi_points; the rest of m
 * is left alone.  0, or -1 with a message in err. */
int pp_calibrate_mpi(pp_machine *m, const pp_calib_opts *o, const char *mpirun, const char *bench,
                     pp_mpi_cal *info, char *err, size_t errlen);
void pp_calibrate_mpi_summary(FILE *out, const pp_machine *m, const pp_mpi_cal *info);

/* Processors this process may run on (sched_getaffinity), at least 1. */
int pp_cal_online_cores(void);

/* ---- internals shared by calibrate*.c ---------------------------------- */

double pp_cal_now_ns(void);      /* CLOCK_MONOTONIC                        */

/* A benchmark: run `iters` iterations of the event and write nvals values
 * (ns per iteration, or another per-iteration measure) into out.  Returns
 * 0, or non-zero on failure with a message in err. */
typedef int (*pp_cal_fn)(void *ctx, long iters, double *out, char *err,
                         size_t errlen);

typedef struct pp_cal_cfg {
    double target_ns;   /* wall time one sample should take                */
    int reps;           /* samples                                         */
    long max_iters;     /* cap on iterations per sample                    */
} pp_cal_cfg;

/* Warm up, choose the iteration count so one sample takes about
 * cfg->target_ns, then take cfg->reps samples: samples[v * reps + r] is
 * value v of sample r.  Returns 0 or non-zero with err set. */
int pp_cal_sample(pp_cal_fn fn, void *ctx, int nvals, const pp_cal_cfg *cfg,
                  double *samples, char *err, size_t errlen);

/* The same, with the iteration count in *iters_io: 0 on the first round
 * (chosen as above and stored there); > 0 on later rounds, which make one
 * warm call and then take their samples at that count. */
int pp_cal_sample_iters(pp_cal_fn fn, void *ctx, int nvals, const pp_cal_cfg *cfg, long *iters_io,
                        double *samples, char *err, size_t errlen);

/* ---- rounds (calibrate_rounds.c) ----------------------------------------
 * Every cost is measured in several rounds, interleaved: round r measures
 * every benchmark at every team size before round r + 1 starts, so a burst
 * of load on the host hits one round of a cost, not all of them.  A round's
 * value is the median of its samples; the value kept is the minimum over
 * the rounds (interference only ever adds time: the quietest round is the
 * one closest to the cost itself), and the spread is the median of the
 * rounds over that minimum (1: every round agreed). */
#define PP_CAL_MAX_ROUNDS 8
#define PP_CAL_SPREAD_MARK 2.0   /* a cost whose spread is above this is marked */
#define PP_CAL_STEAL_MARK 0.25   /* a host whose probe lost more is marked     */

typedef struct pp_cal_rounds {
    double kept;        /* the minimum of the rounds' values               */
    double median;      /* their median                                    */
    double spread;      /* median / kept; 0 when kept <= 0 (unknown)       */
    int kept_round;     /* the round that gave kept                        */
} pp_cal_rounds;

/* Summarise n >= 1 rounds' values (vals is not changed).  -1 when n < 1. */
int pp_cal_rounds_summary(const double *vals, int n, pp_cal_rounds *out);

/* The steal probe: every processor spins a fixed amount of work once a
 * round; wall[r] and cpu[r] are the mean wall time and the mean CPU time
 * (CLOCK_THREAD_CPUTIME_ID) of the threads in round r.  The work's own
 * time is the smallest cpu[r]; a round lost 1 - that / wall[r] of its
 * processors (to other processes, or to the hypervisor, whose steal counts
 * as CPU time inside the guest).  Returns the median of that share over
 * the rounds, clamped to [0, 1]; 0 when n < 1. */
double pp_cal_steal(const double *wall, const double *cpu, int n);

/* Run the probe: `threads` threads spin `iters` iterations each; the mean
 * wall and CPU ns of a thread into *wall, *cpu.  0, or -1 with err set. */
int pp_cal_probe(int threads, long iters, double *wall, double *cpu, char *err, size_t errlen);
/* Iterations of the probe's spin that take about target_ns on one thread. */
long pp_cal_probe_iters(double target_ns);

/* Per-iteration durations for benchmarks whose iterations last long
 * enough to time one by one: the sample is their median (minus the cost of
 * reading the clock), so that a pre-empted iteration does not count. */
typedef struct pp_cal_laps {
    double *d;
    long n, cap;
    double last;
} pp_cal_laps;

int pp_cal_laps_init(pp_cal_laps *l, long iters, char *err, size_t errlen);
void pp_cal_lap(pp_cal_laps *l);       /* one iteration ended just now  */
double pp_cal_laps_median(pp_cal_laps *l);
void pp_cal_laps_free(pp_cal_laps *l);

/* Median of n values (n > 0); v is reordered. */
double pp_cal_median(double *v, int n);
/* The q-quantile (0..1, interpolated); sorts v. */
double pp_cal_quantile(double *v, int n, double q);

/* Least squares of y against x(P) for a model kind, with coefficients kept
 * >= 0 (a negative slope falls back to const, a negative intercept to a fit
 * through the origin).  Fills kind, a, b, a_se, b_se, r2, n. */
int pp_cal_fit(const int *P, const double *y, int n, pp_model_kind kind,
               pp_model *out);

/* Fit const when P takes a single value (or !depends_on_p); otherwise fit
 * linear and log2 and keep the one with the smaller residual sum of
 * squares, `prefer` when they are within 5% of each other. */
int pp_cal_fit_best(const int *P, const double *y, int n, int depends_on_p,
                    pp_model_kind prefer, pp_model *out);

/* Benchmarks: ctx-free entry points used by calibrate.c. */
int pp_cal_forkjoin_omp(void *ctx, long iters, double *out, char *err,
                        size_t errlen);          /* ctx: int *P          */
int pp_cal_barrier_omp(void *ctx, long iters, double *out, char *err,
                       size_t errlen);           /* ctx: int *P          */
int pp_cal_barrier_pthread(void *ctx, long iters, double *out, char *err,
                           size_t errlen);       /* ctx: int *P          */
int pp_cal_create_join(void *ctx, long iters, double *out, char *err,
                       size_t errlen);  /* out: create, join, create_call */
int pp_cal_mutex_lock(void *ctx, long iters, double *out, char *err,
                      size_t errlen);
int pp_cal_mutex_handoff(void *ctx, long iters, double *out, char *err,
                         size_t errlen);

/* Compute / memory kernels: k threads run the kernel at once; out[0] is
 * the mean per-thread ns per iteration. */
typedef struct pp_cal_kernel {
    int k;              /* threads running at once                         */
    int memory;         /* 0: FLOP kernel; 1: streaming triad              */
    size_t elems;       /* doubles per array (memory kernel)               */
    double **arrays;    /* 3 arrays per thread, 3 * kmax pointers          */
} pp_cal_kernel;

int pp_cal_kernel_setup(pp_cal_kernel *kc, int kmax, size_t bytes_per_thread,
                        char *err, size_t errlen);
void pp_cal_kernel_free(pp_cal_kernel *kc, int kmax);
int pp_cal_kernel_run(void *ctx, long iters, double *out, char *err,
                      size_t errlen);
/* Bytes one iteration of the streaming kernel moves per thread. */
double pp_cal_kernel_bytes(const pp_cal_kernel *kc);
void pp_cal_cache_sizes(long *l1d, long *l2, long *l3);
/* The host's caches and cores as hwloc reports them (sysconf's cache
 * sizes where hwloc finds none: from_hwloc 0); 0 = unknown. */
typedef struct {
    long l1d, l2, l3;
    int l3_shared_by;   /* processing units sharing one L3 */
    int cores, pus;
    int from_hwloc;
} pp_cal_topology;
void pp_cal_topology_get(pp_cal_topology *out);

/* Loads at random addresses in a working set (calibrate_latency.c): a
 * chase (each address from the previous load) or, with gather set,
 * independent loads through an index array.  Setup allocates the largest
 * working set; prepare shuffles the lines of one; run: out[0] is ns per
 * load. */
typedef struct pp_cal_lat {
    uint64_t *buf;      /* cap lines of 64 bytes                           */
    uint32_t *idx;      /* the random order of the lines                   */
    size_t cap, lines;  /* lines allocated, lines in the working set       */
    size_t pos;         /* where the chase is (a word of buf)              */
    size_t gpos;        /* where the gather is (an entry of idx)           */
    int gather;         /* 0: chase; 1: gather                             */
} pp_cal_lat;

int pp_cal_lat_setup(pp_cal_lat *k, size_t max_bytes, char *err, size_t errlen);
void pp_cal_lat_free(pp_cal_lat *k);
int pp_cal_lat_prepare(pp_cal_lat *k, size_t bytes);
double pp_cal_lat_bytes(const pp_cal_lat *k);
int pp_cal_lat_run(void *ctx, long iters, double *out, char *err, size_t errlen);

#endif /* PERFPRED_CALIBRATE_H */
