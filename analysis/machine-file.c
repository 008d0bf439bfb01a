/* machine-file.c - the machine file's reader (docs/machine-format.md);
 * the writer is machine-write.c.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "machine-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- errors ----------------------------------------------------------- */

void pp_machine_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}


static const char *const beta_names[PP_NBETA] = {"int", "fp", "load", "store", "branch", "call",
                                                  "iter", "entry", "segment"};

const char *pp_beta_name(int i)
{
    return i >= 0 && i < PP_NBETA ? beta_names[i] : NULL;
}

/* ---- the MPI network (mpi.*) ---------------------------------------------- */

enum {
    MK_LATENCY, MK_OVERHEAD, MK_GAP, MK_GAP_BYTE, MK_REDUCE, MK_EAGER, MK_RPN, MK_SOURCE,
    MK_ALG,                       /* MK_ALG + k: mpi.alg.<collective>           */
    MK_N = MK_ALG + PP_COLL_N
};
static const char *const mpi_keys[MK_ALG] = {
    "mpi.latency_ns", "mpi.overhead_ns", "mpi.gap_ns", "mpi.gap_per_byte_ns",
    "mpi.reduce_ns_per_byte", "mpi.eager_bytes", "mpi.ranks_per_node", "mpi.source",
};

/* ---- reader ----------------------------------------------------------- */

enum { F_MODEL, F_A, F_B, F_A_SE, F_B_SE, F_R2, F_N, F_OVERSUB, F_SPREAD, F_NFIELDS };

/* Field suffixes, for ns costs and for factors. */
static const char *const field_ns[F_NFIELDS] = {
    "model", "a_ns", "b_ns", "a_se_ns", "b_se_ns", "r2", "n", "oversub_fit", "spread"
};
static const char *const field_x[F_NFIELDS] = {
    "model", "a", "b", "a_se", "b_se", "r2", "n", "oversub_fit", "spread"
};

enum {
    G_NAME, G_SOURCE, G_CORES, G_MAXT, G_QUICK, G_L1D, G_L2, G_L3,
    G_BW1, G_BWALL, G_FOOT, G_BWL1, G_BWL2, G_BWL3, G_NOISE, G_BUSY, G_BUSYLOAD,
    G_STEAL, G_ROUNDS, G_KERNEL, G_L3SH, G_NGLOBAL
};
static const char *const global_keys[G_NGLOBAL] = {
    "name", "source", "cores", "max_threads", "quick", "cache.l1d_bytes",
    "cache.l2_bytes", "cache.l3_bytes", "mem.bw1_bytes_per_ns",
    "mem.bw_all_bytes_per_ns", "mem.footprint_bytes", "mem.bw_l1_bytes_per_ns",
    "mem.bw_l2_bytes_per_ns", "mem.bw_l3_bytes_per_ns", "noise.cov", "busy", "busy.load",
    "busy.steal", "busy.rounds", "compute.kernel_ns", "cache.l3_shared_by"
};

typedef struct reader {
    const char *path;
    char *err;
    size_t errlen;
    int line;
    int seen_global[G_NGLOBAL];                 /* line, 0 = not seen     */
    int seen_field[PP_COST_N][F_NFIELDS];       /* line, 0 = not seen     */
    int seen_beta[PP_NBETA], seen_beta_se[PP_NBETA], seen_beta_runs;
    int seen_mpi[MK_N];                         /* line, 0 = not seen     */
    int seen_busy[PP_COST_N];                   /* busy.COST lines        */
    int first_mpi;                              /* first mpi.* line       */
} reader;

static int rerr(reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int rerr(reader *r, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pp_machine_seterr(r->err, r->errlen, "%s:%d: %s", r->path, line, msg);
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'
                     || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* A finite number >= 0. */
static int parse_num(reader *r, const char *key, const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(d))
        return rerr(r, r->line, "%s: not a number: '%s'", key, v);
    if (d < 0.0)
        return rerr(r, r->line, "%s: negative value '%s' (must be >= 0)",
                    key, v);
    *out = d;
    return 0;
}

/* An integer in [lo, hi]. */
static int parse_int(reader *r, const char *key, const char *v, long lo,
                     long hi, long *out)
{
    char *end;
    errno = 0;
    long d = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE)
        return rerr(r, r->line, "%s: not an integer: '%s'", key, v);
    if (d < 0 && lo >= 0)
        return rerr(r, r->line, "%s: negative value '%s' (must be >= %ld)",
                    key, v, lo);
    if (d < lo || d > hi)
        return rerr(r, r->line, "%s: %ld out of range [%ld, %ld]", key, d,
                    lo, hi);
    *out = d;
    return 0;
}

static int global_key(reader *r, pp_machine *m, int g, const char *key,
                      const char *v)
{
    long l = 0;
    double d = 0;
    switch (g) {
    case G_NAME:
        if (strlen(v) >= sizeof m->name)
            return rerr(r, r->line, "name: longer than %d characters",
                        PP_MACHINE_NAME_MAX - 1);
        snprintf(m->name, sizeof m->name, "%s", v);
        return 0;
    case G_SOURCE:
        for (int i = 0; i < 3; i++)
            if (strcmp(v, pp_source_names[i]) == 0) {
                m->source = (pp_machine_source)i;
                return 0;
            }
        return rerr(r, r->line,
                    "source: unknown value '%s' (expected hand, measured "
                    "or default)", v);
    case G_CORES:
        if (parse_int(r, key, v, 1, 1L << 20, &l))
            return -1;
        m->cores = (int)l;
        return 0;
    case G_MAXT:
        if (parse_int(r, key, v, 0, 1L << 20, &l))
            return -1;
        m->max_threads = (int)l;
        return 0;
    case G_L3SH:
        if (parse_int(r, key, v, 0, 1L << 20, &l))
            return -1;
        m->cache_l3_shared_by = (int)l;
        return 0;
    case G_QUICK:
        if (parse_int(r, key, v, 0, 1, &l))
            return -1;
        m->quick = (int)l;
        return 0;
    case G_L1D: case G_L2: case G_L3: case G_FOOT:
        if (parse_int(r, key, v, 0, 1L << 50, &l))
            return -1;
        if (g == G_L1D) m->cache_l1d_bytes = l;
        else if (g == G_L2) m->cache_l2_bytes = l;
        else if (g == G_L3) m->cache_l3_bytes = l;
        else m->mem_footprint_bytes = l;
        return 0;
    case G_BW1: case G_BWALL: case G_BWL1: case G_BWL2: case G_BWL3:
        if (parse_num(r, key, v, &d))
            return -1;
        if (g == G_BW1) m->mem_bw1_bytes_per_ns = d;
        else if (g == G_BWALL) m->mem_bw_all_bytes_per_ns = d;
        else if (g == G_BWL1) m->bw_l1_bytes_per_ns = d;
        else if (g == G_BWL2) m->bw_l2_bytes_per_ns = d;
        else m->bw_l3_bytes_per_ns = d;
        return 0;
    case G_NOISE:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d > 10)
            return rerr(r, r->line, "%s: '%s' is not a coefficient of variation (0 to 10)", key, v);
        m->noise_cov = d;
        return 0;
    case G_BUSY:
        if (parse_int(r, key, v, 0, 1, &l))
            return -1;
        m->busy = (int)l;
        return 0;
    case G_BUSYLOAD:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d > 1e9)
            return rerr(r, r->line, "%s: '%s' is not a load average (0 to 1e9)", key, v);
        m->busy_load = d;
        return 0;
    case G_STEAL:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d > 1)
            return rerr(r, r->line, "%s: '%s' is not a share of the processors (0 to 1)", key, v);
        m->busy_steal = d;
        return 0;
    case G_ROUNDS:
        if (parse_int(r, key, v, 1, 64, &l))
            return -1;
        m->busy_rounds = (int)l;
        return 0;
    case G_KERNEL:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d > 1e9)
            return rerr(r, r->line, "%s: '%s' is not a time per iteration (0 to 1e9 ns)", key, v);
        m->compute_kernel_ns = d;
        return 0;
    }
    return 0;
}

static int cost_field(reader *r, pp_machine *m, int c, int f,
                      const char *key, const char *v)
{
    pp_model *mod = &m->cost[c];
    double d;
    long l;
    switch (f) {
    case F_MODEL:
        for (int k = 0; k < 3; k++)
            if (strcmp(v, pp_model_names[k]) == 0) {
                if (k != PP_MODEL_CONST && !pp_costs[c].depends_on_p)
                    return rerr(r, r->line,
                                "%s: model '%s' not allowed for %s (it does "
                                "not depend on P; use const)", key, v,
                                pp_costs[c].key);
                mod->kind = (pp_model_kind)k;
                return 0;
            }
        return rerr(r, r->line,
                    "%s: unknown model '%s' (expected const, linear or log2)",
                    key, v);
    case F_N:
        if (parse_int(r, key, v, 0, 1L << 30, &l))
            return -1;
        mod->n = (int)l;
        return 0;
    case F_OVERSUB:
        if (parse_int(r, key, v, 0, 1, &l))
            return -1;
        mod->oversub_fit = (int)l;
        return 0;
    case F_SPREAD:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d != 0 && (d < 1 || d > 1e9))
            return rerr(r, r->line, "%s: '%s' is not a spread (the median round over the kept one: 0 = unknown, "
                        "else 1 to 1e9)", key, v);
        m->spread[c] = d;
        return 0;
    case F_R2:
        if (parse_num(r, key, v, &d))
            return -1;
        if (d > 1.0)
            return rerr(r, r->line, "%s: %s is above 1", key, v);
        mod->r2 = d;
        return 0;
    default:
        if (parse_num(r, key, v, &d))
            return -1;
        if (f == F_A) mod->a = d;
        else if (f == F_B) mod->b = d;
        else if (f == F_A_SE) mod->a_se = d;
        else mod->b_se = d;
        return 0;
    }
}

/* point.KEY = P V [oversub] */
static int point_line(reader *r, pp_machine *m, int c, const char *key,
                      char *v)
{
    char *save = NULL;
    char *tp = strtok_r(v, " \t", &save);
    char *tv = strtok_r(NULL, " \t", &save);
    char *tf = strtok_r(NULL, " \t", &save);
    char *extra = strtok_r(NULL, " \t", &save);
    if (!tp || !tv || extra || (tf && strcmp(tf, "oversub") != 0))
        return rerr(r, r->line,
                    "%s: expected 'P VALUE' or 'P VALUE oversub'", key);
    long p;
    double d;
    if (parse_int(r, key, tp, 1, 1L << 20, &p) || parse_num(r, key, tv, &d))
        return -1;
    pp_series *s = &m->points[c];
    for (int i = 0; i < s->n; i++)
        if (s->pt[i].p == p)
            return rerr(r, r->line, "%s: duplicate point for P = %ld", key,
                        p);
    if (s->n >= PP_MACHINE_MAX_POINTS)
        return rerr(r, r->line, "%s: more than %d points", key,
                    PP_MACHINE_MAX_POINTS);
    pp_machine_add_point(m, (pp_cost_id)c, (int)p, d, tf != NULL);
    return 0;
}

/* point.mem.stream = BYTES BYTES_PER_NS, point.mem.chase|gather = BYTES NS:
 * one point of a curve against the working set */
static int curve_point(reader *r, pp_curve *c, const char *key, char *v, int bw)
{
    char *save = NULL;
    char *tw = strtok_r(v, " \t", &save);
    char *tb = strtok_r(NULL, " \t", &save);
    char *extra = strtok_r(NULL, " \t", &save);
    if (!tw || !tb || extra)
        return rerr(r, r->line, "%s: expected %s", key,
                    bw ? "'BYTES BYTES_PER_NS' (a working set and one thread's bandwidth)"
                       : "'BYTES NS' (a working set and the time of one load)");
    long ws;
    double y;
    if (parse_int(r, key, tw, 1, 1L << 50, &ws) || parse_num(r, key, tb, &y))
        return -1;
    if (y <= 0)
        return rerr(r, r->line, "%s: the %s must be > 0", key, bw ? "bandwidth" : "time");
    for (int i = 0; i < c->n; i++)
        if (c->ws[i] == ws)
            return rerr(r, r->line, "%s: duplicate point for %ld bytes", key, ws);
    if (pp_curve_add(c, ws, y))
        return rerr(r, r->line, "%s: more than %d points", key, PP_MACHINE_MAX_POINTS);
    return 0;
}

static int check_dup(reader *r, int *seen, const char *key)
{
    if (*seen)
        return rerr(r, r->line, "duplicate key '%s' (first on line %d)", key,
                    *seen);
    *seen = r->line;
    return 0;
}

/* busy.COST = SHARE FACTOR: 1 when key is one (handled, or an error in
 * rc), 0 when not. */
static int busy_cost(reader *r, pp_machine *m, const char *key, char *v, int *rc)
{
    int c = -1;
    for (int i = 0; i < PP_COST_N; i++)
        if (strcmp(key + 5, pp_costs[i].key) == 0)
            c = i;
    if (c < 0)
        return 0;
    *rc = -1;
    if (check_dup(r, &r->seen_busy[c], key))
        return 1;
    char *save = NULL;
    char *ts = strtok_r(v, " \t", &save);
    char *tf = strtok_r(NULL, " \t", &save);
    char *extra = strtok_r(NULL, " \t", &save);
    if (!ts || !tf || extra) {
        rerr(r, r->line, "%s: expected 'SHARE FACTOR' (the share of the samples disturbed, 0 to 1, and the "
             "slowest over its median, 0 or >= 1)", key);
        return 1;
    }
    double share, factor;
    if (parse_num(r, key, ts, &share) || parse_num(r, key, tf, &factor))
        return 1;
    if (share > 1) {
        rerr(r, r->line, "%s: share '%s' is above 1", key, ts);
        return 1;
    }
    if (factor != 0 && (factor < 1 || factor > 1e9)) {
        rerr(r, r->line, "%s: factor '%s' must be 0 (unknown) or from 1 to 1e9", key, tf);
        return 1;
    }
    m->busy_share[c] = share;
    m->busy_factor[c] = factor;
    *rc = 0;
    return 1;
}

/* The algorithms collective k has, "a, b, c or auto", for messages. */
static void alg_list(pp_coll k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int a = 1; a < PP_ALG_N && used < len; a++)
        if (pp_net_alg_valid(k, (pp_alg)a))
            used += (size_t)snprintf(buf + used, len - used, "%s, ", pp_alg_name((pp_alg)a));
    if (used >= 2 && used < len)
        snprintf(buf + used - 2, len - (used - 2), " or auto");
}

/* mpi.* keys: 1 when key is one (handled or an error in rc), 0 when not. */
static int mpi_key(reader *r, pp_machine *m, const char *key, const char *v, int *rc)
{
    int id = -1;
    for (int i = 0; i < MK_ALG; i++)
        if (strcmp(key, mpi_keys[i]) == 0)
            id = i;
    if (id < 0 && strncmp(key, "mpi.alg.", 8) == 0)
        for (int k = 0; k < PP_COLL_N; k++)
            if (strcmp(key + 8, pp_coll_name((pp_coll)k)) == 0)
                id = MK_ALG + k;
    if (id < 0)
        return 0;
    *rc = -1;
    if (check_dup(r, &r->seen_mpi[id], key))
        return 1;
    if (!r->first_mpi)
        r->first_mpi = r->line;
    m->has_net = 1;
    pp_net *n = &m->net;
    double d;
    long l;
    if (id >= MK_ALG) {
        pp_coll k = (pp_coll)(id - MK_ALG);
        pp_alg a;
        char list[200];
        alg_list(k, list, sizeof list);
        if (pp_alg_parse(v, &a)) {
            rerr(r, r->line, "%s: unknown algorithm '%s' (expected %s)", key, v, list);
            return 1;
        }
        if (!pp_net_alg_valid(k, a)) {
            rerr(r, r->line, "%s: %s has no algorithm '%s' (expected %s)", key,
                        pp_coll_name(k), v, list);
            return 1;
        }
        n->alg[k] = a;
        *rc = 0;
        return 1;
    }
    switch (id) {
    case MK_SOURCE:
        if (strcmp(v, "measured") == 0) n->source = 1;
        else if (strcmp(v, "hand") == 0) n->source = 0;
        else if (strcmp(v, "default") == 0) n->source = 2;
        else {
            rerr(r, r->line, "%s: unknown value '%s' (expected measured, hand or default)", key, v);
            return 1;
        }
        break;
    case MK_EAGER:
        if (parse_int(r, key, v, 0, 1L << 53, &l))
            return 1;
        n->eager_bytes = (double)l;
        break;
    case MK_RPN:
        if (parse_int(r, key, v, 0, 1L << 20, &l))
            return 1;
        n->ranks_per_node = (int)l;
        break;
    default:
        if (parse_num(r, key, v, &d))
            return 1;
        if (id == MK_LATENCY) n->L = d;
        else if (id == MK_OVERHEAD) n->o = d;
        else if (id == MK_GAP) n->g = d;
        else if (id == MK_GAP_BYTE) n->G = d;
        else n->gamma = d;
    }
    *rc = 0;
    return 1;
}

/* point.mpi.pingpong = BYTES NS, point.mpi.barrier|allreduce = K NS [oversub] */
static int mpi_point(reader *r, pp_machine *m, const char *key, char *v, int *rc)
{
    int id = -1;
    for (int i = 0; i < PP_MPI_PT_N; i++)
        if (strcmp(key + 10, pp_mpi_point_name(i)) == 0)
            id = i;
    if (id < 0)
        return 0;
    *rc = -1;
    char *save = NULL;
    char *tp = strtok_r(v, " \t", &save);
    char *tv = strtok_r(NULL, " \t", &save);
    char *tf = strtok_r(NULL, " \t", &save);
    char *extra = strtok_r(NULL, " \t", &save);
    int ping = id == PP_MPI_PT_PINGPONG;
    if (!tp || !tv || extra || (tf && (ping || strcmp(tf, "oversub") != 0))) {
        rerr(r, r->line, "%s: expected %s", key,
                ping ? "'BYTES NS'" : "'RANKS NS' or 'RANKS NS oversub'");
        return 1;
    }
    long p;
    double d;
    if (parse_int(r, key, tp, ping ? 0 : 1, ping ? 0x7fffffffL : 1L << 20, &p) || parse_num(r, key, tv, &d))
        return 1;
    pp_series *s = &m->mpi_points[id];
    for (int i = 0; i < s->n; i++)
        if (s->pt[i].p == p) {
            rerr(r, r->line, "%s: duplicate point for %s %ld", key, ping ? "bytes =" : "K =", p);
            return 1;
        }
    if (s->n >= PP_MACHINE_MAX_POINTS) {
        rerr(r, r->line, "%s: more than %d points", key, PP_MACHINE_MAX_POINTS);
        return 1;
    }
    pp_machine_add_mpi_point(m, id, (int)p, d, tf != NULL);
    *rc = 0;
    return 1;
}

static int handle(reader *r, pp_machine *m, const char *key, char *v)
{
    int rc = 0;
    if (mpi_key(r, m, key, v, &rc))
        return rc;
    if (strncmp(key, "point.mpi.", 10) == 0 && mpi_point(r, m, key, v, &rc))
        return rc;
    if (strncmp(key, "busy.", 5) == 0 && busy_cost(r, m, key, v, &rc))
        return rc;
    if (strcmp(key, "point.mem.stream") == 0)
        return curve_point(r, &m->stream, key, v, 1);
    if (strcmp(key, "point.mem.chase") == 0)
        return curve_point(r, &m->chase, key, v, 0);
    if (strcmp(key, "point.mem.gather") == 0)
        return curve_point(r, &m->gather, key, v, 0);
    /* beta.CLASS_ns, beta.CLASS_se_ns, beta.runs (perfpred fit) */
    if (strncmp(key, "beta.", 5) == 0) {
        const char *k = key + 5;
        if (strcmp(k, "runs") == 0) {
            long l;
            if (check_dup(r, &r->seen_beta_runs, key) || parse_int(r, key, v, 0, 1L << 30, &l))
                return -1;
            m->beta_runs = (int)l;
            return 0;
        }
        for (int i = 0; i < PP_NBETA; i++) {
            size_t n = strlen(beta_names[i]);
            if (strncmp(k, beta_names[i], n) != 0)
                continue;
            int se = strcmp(k + n, "_se_ns") == 0;
            if (!se && strcmp(k + n, "_ns") != 0)
                continue;
            double d;
            if (check_dup(r, se ? &r->seen_beta_se[i] : &r->seen_beta[i], key) || parse_num(r, key, v, &d))
                return -1;
            if (se)
                m->beta_se[i] = d;
            else {
                m->beta[i] = d;
                m->has_beta = 1;
            }
            return 0;
        }
    }
    for (int g = 0; g < G_NGLOBAL; g++)
        if (strcmp(key, global_keys[g]) == 0) {
            if (check_dup(r, &r->seen_global[g], key))
                return -1;
            return global_key(r, m, g, key, v);
        }
    int is_point = strncmp(key, "point.", 6) == 0;
    const char *k = is_point ? key + 6 : key;
    for (int c = 0; c < PP_COST_N; c++) {
        size_t n = strlen(pp_costs[c].key);
        if (strncmp(k, pp_costs[c].key, n) != 0)
            continue;
        if (is_point && k[n] == '\0')
            return point_line(r, m, c, key, v);
        if (is_point || k[n] != '.')
            continue;
        const char *const *fields = pp_costs[c].factor ? field_x : field_ns;
        for (int f = 0; f < F_NFIELDS; f++)
            if (strcmp(k + n + 1, fields[f]) == 0) {
                if (check_dup(r, &r->seen_field[c][f], key))
                    return -1;
                return cost_field(r, m, c, f, key, v);
            }
    }
    fprintf(stderr, "perfpred: warning: %s:%d: unknown key '%s' ignored\n",
            r->path, r->line, key);
    return 0;
}

/* After the last line: every cost needs its model and coefficients. */
static int check_required(reader *r, pp_machine *m)
{
    int eof = r->line;
    if (!r->seen_global[G_CORES])
        return rerr(r, eof, "missing required key 'cores'");
    for (int c = 0; c < PP_COST_N; c++) {
        const char *const *fields = pp_costs[c].factor ? field_x : field_ns;
        int ml = r->seen_field[c][F_MODEL];
        if (!ml)
            return rerr(r, eof, "missing required key '%s.model'",
                        pp_costs[c].key);
        if (!r->seen_field[c][F_A])
            return rerr(r, ml, "missing required key '%s.%s' (for this "
                        "model)", pp_costs[c].key, fields[F_A]);
        if (m->cost[c].kind != PP_MODEL_CONST && !r->seen_field[c][F_B])
            return rerr(r, ml, "missing required key '%s.%s' (model %s "
                        "needs it)", pp_costs[c].key, fields[F_B],
                        pp_model_names[m->cost[c].kind]);
        if (m->cost[c].kind == PP_MODEL_CONST) {
            m->cost[c].b = 0.0;
            m->cost[c].b_se = 0.0;
        }
        if (!r->seen_field[c][F_R2])
            m->cost[c].r2 = -1.0;
    }
    if (m->has_net) {
        if (!r->seen_mpi[MK_SOURCE])
            m->net.source = 0;
        for (int i = MK_LATENCY; i <= MK_GAP_BYTE; i++)
            if (!r->seen_mpi[i])
                return rerr(r, r->first_mpi, "missing required key '%s' (an MPI network needs "
                            "mpi.latency_ns, mpi.overhead_ns, mpi.gap_ns and mpi.gap_per_byte_ns)",
                            mpi_keys[i]);
    }
    if (!r->seen_global[G_NAME])
        snprintf(m->name, sizeof m->name, "%s", "unnamed");
    return 0;
}

int pp_machine_load(const char *path, pp_machine *m, char *err, size_t errlen)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.err = err;
    r.errlen = errlen;
    memset(m, 0, sizeof *m);
    m->source = PP_MACHINE_HAND;
    pp_net_default(&m->net);

    FILE *f = fopen(path, "r");
    if (!f) {
        pp_machine_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        pp_machine_seterr(err, errlen, "%s: is a directory, not a machine file", path);
        fclose(f);
        return -1;
    }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        r.line++;
        if ((size_t)len != strlen(buf)) {
            rc = rerr(&r, r.line, "NUL byte in line (not a text file?)");
            break;
        }
        if (r.line == 1) {
            char *s = trim(buf);
            size_t ml = strlen(PP_MACHINE_MAGIC);
            if (strncmp(s, PP_MACHINE_MAGIC, ml) != 0
                || (s[ml] != ' ' && s[ml] != '\t')) {
                rc = rerr(&r, 1, "not a perfpred machine file (first line "
                          "must be '%s %d')", PP_MACHINE_MAGIC,
                          PP_MACHINE_VERSION);
                break;
            }
            char *vs = trim(s + ml), *end;
            errno = 0;
            long ver = strtol(vs, &end, 10);
            if (end == vs || *end != '\0' || errno) {
                rc = rerr(&r, 1, "bad version '%s'", vs);
                break;
            }
            if (ver != PP_MACHINE_VERSION) {
                rc = rerr(&r, 1, "unsupported version %ld (this perfpred "
                          "reads version %d)", ver, PP_MACHINE_VERSION);
                break;
            }
            continue;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(buf);
        if (*s == '\0')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            rc = rerr(&r, r.line, "expected 'key = value', got '%.60s'", s);
            break;
        }
        *eq = '\0';
        char *key = trim(s), *val = trim(eq + 1);
        if (*key == '\0') {
            rc = rerr(&r, r.line, "empty key");
            break;
        }
        if (*val == '\0') {
            rc = rerr(&r, r.line, "%s: empty value", key);
            break;
        }
        if (handle(&r, m, key, val)) {
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = rerr(&r, r.line, "read error: %s", strerror(errno));
    if (rc == 0 && r.line == 0)
        rc = rerr(&r, 1, "empty file (first line must be '%s %d')",
                  PP_MACHINE_MAGIC, PP_MACHINE_VERSION);
    free(buf);
    fclose(f);
    if (rc == 0)
        rc = check_required(&r, m);
    return rc;
}

