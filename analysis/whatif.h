/* whatif.h - the machine parameters a user can change on the command line
 * (--with barrier=2us,bandwidth=20GB/s) and that `perfpred sensitivity`
 * differentiates the predicted time by (Clement & Quinn, Figure 7).
 *
 * A parameter is one of the machine file's synchronisation costs (a curve
 * in P: thread.create ... scale.memory), one of the MPI network's LogGP
 * figures (mpi.latency ... mpi.ranks_per_node, mpi.alg.C), `speed`, the
 * processor's speed relative to the recorded one (every computation cost
 * of the program divided by it: T1, the PRAM and the real machine all
 * change), or `memory` (`mem.bandwidth`), the memory hierarchy's time per
 * byte: the time the memory model adds beyond the recorded working set
 * (memory.h) multiplied by it.  docs/commands.md ("What-if machines") lists them with units.
 *
 * Values name what the program sees: with an in-situ factor on the
 * synchronisation costs (insitu.h), barrier=2us makes the program's
 * barriers cost 2 us, not the micro-benchmark's.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_WHATIF_H
#define PERFPRED_WHATIF_H

#include <stddef.h>

#include "machine.h"
#include "model.h"

/* What a parameter's number is. */
typedef enum {
    PP_UNIT_NS,          /* a time: 2us, 150ns, 1.5ms (bare number: ns)      */
    PP_UNIT_NS_PER_BYTE, /* a time per byte: 0.08ns/B (bare number: ns/B)    */
    PP_UNIT_BANDWIDTH,   /* bytes per second: 20GB/s, 100Gbit/s (unit needed)*/
    PP_UNIT_BYTES,       /* a size: 12KiB, 64KB (bare number: bytes)         */
    PP_UNIT_FACTOR,      /* a dimensionless number                           */
    PP_UNIT_COUNT,       /* a whole number                                   */
    PP_UNIT_ALG          /* an algorithm's name (mpi.alg.C)                  */
} pp_unit;

/* Where a parameter lives. */
typedef enum {
    PP_PAR_COST,         /* mach->cost[id]: a curve a + b f(P)               */
    PP_PAR_NET_L, PP_PAR_NET_O, PP_PAR_NET_GAP, PP_PAR_NET_G, PP_PAR_NET_BW,
    PP_PAR_NET_GAMMA, PP_PAR_NET_EAGER, PP_PAR_NET_RPN, PP_PAR_NET_ALG,
    PP_PAR_SPEED,        /* the program's computation costs / speed          */
    PP_PAR_MEM,          /* mach->mem_time_scale: the memory model's times   */
    PP_PAR_MEM_BW        /* the same as the memory's bandwidth (B/s)         */
} pp_par_kind;

typedef struct {
    const char *name;    /* canonical: "barrier.omp", "mpi.latency", "speed" */
    pp_par_kind kind;
    int id;              /* PP_PAR_COST: the pp_cost_id; NET_ALG: pp_coll    */
    pp_unit unit;
    int differentiable;  /* sensitivity takes dT/d of it                    */
    const char *what;    /* one line for --help and the docs                */
} pp_par_info;

/* The parameters, in the order sensitivity lists them. */
int pp_par_count(void);
const pp_par_info *pp_par_get(int i);
/* By name or alias (barrier expands to two: returns how many, up to max);
 * 0 when unknown. */
int pp_par_lookup(const char *name, const pp_par_info **out, int max);

/* One override: NAME=VALUE, NAME=xF (the parameter times F), or for a cost
 * curve NAME.a=VALUE / NAME.b=VALUE (one coefficient). */
typedef struct {
    const pp_par_info *par;
    int part;            /* 0: the whole cost, 1: .a, 2: .b                 */
    int relative;        /* 1: value is a factor on the current one         */
    double value;        /* in the file's unit: ns, ns/byte, bytes, ...     */
    int alg;             /* PP_UNIT_ALG: the pp_alg                         */
    char text[96];       /* as the user wrote it (NAME=VALUE)               */
} pp_override;

#define PP_WHATIF_MAX 48

typedef struct {
    int n;
    pp_override ov[PP_WHATIF_MAX];
} pp_whatif;

/* Parse "NAME=VALUE[,NAME=VALUE...]" and add to w.  Returns 0, or -1 with
 * a message naming the item and what is wrong. */
int pp_whatif_parse(pp_whatif *w, const char *spec, char *err, size_t errlen);

/* Apply the overrides to the machine (the network and the synchronisation
 * costs; values taken as the program sees them, through mach->sync_scale).
 * Returns 0, or -1 with a message (an algorithm a collective does not
 * have, a value out of range). */
int pp_whatif_apply_machine(const pp_whatif *w, pp_machine *mach, char *err, size_t errlen);

/* The processor speed the overrides ask for (1: none). */
double pp_whatif_speed(const pp_whatif *w);

/* Multiply every computation cost of the program (the fitted costs, their
 * covariance) by k; the prediction of a processor 1/k as fast.  Part of
 * making the model a session evaluates (cli.c), before any point. */
void pp_prog_scale_compute(pp_prog *m, double k);

/* "barrier=2us, bandwidth=20GB/s" */
void pp_whatif_text(const pp_whatif *w, char *buf, size_t n);

/* Parse one value in a unit ("2us", "20GB/s", "12KiB", "0.5"); returns 0 or
 * -1.  For tests and the experiment file. */
int pp_unit_parse(pp_unit u, const char *s, double *out);
/* The unit's name as sensitivity prints it: "ns", "ns/B", "B/s", "B", "". */
const char *pp_unit_name(pp_unit u);

/* A parameter's value as the program sees it at P (a cost curve at P times
 * the in-situ factor; the network's figure; speed 1).  NAN for ALG. */
double pp_par_value(const pp_par_info *p, const pp_machine *mach, int P);

#endif
