/* whatif.c - see whatif.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "whatif.h"
#include "costs.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS PP_UNIT_NS
#define NSB PP_UNIT_NS_PER_BYTE

static const pp_par_info pars[] = {
    {"speed", PP_PAR_SPEED, 0, PP_UNIT_FACTOR, 1,
     "the processor's speed against the recorded one: every computation cost divided by it"},
    {"thread.create", PP_PAR_COST, PP_COST_CREATE, NS, 1, "pthread_create() until the child runs"},
    {"thread.create_call", PP_PAR_COST, PP_COST_CREATE_CALL, NS, 1, "the parent's time in pthread_create()"},
    {"thread.join", PP_PAR_COST, PP_COST_JOIN, NS, 1, "the end of a thread to its pthread_join()'s return"},
    {"forkjoin.omp", PP_PAR_COST, PP_COST_FORKJOIN_OMP, NS, 1, "fork and join of an OpenMP team of P"},
    {"barrier.omp", PP_PAR_COST, PP_COST_BARRIER_OMP, NS, 1, "an OpenMP barrier of P threads"},
    {"barrier.pthread", PP_PAR_COST, PP_COST_BARRIER_PTHREAD, NS, 1, "a pthread barrier of P threads"},
    {"mutex.lock", PP_PAR_COST, PP_COST_LOCK, NS, 1, "an uncontended lock and unlock"},
    {"mutex.handoff", PP_PAR_COST, PP_COST_HANDOFF, NS, 1, "a mutex passing to a waiting thread"},
    {"scale.compute", PP_PAR_COST, PP_COST_SCALE_COMPUTE, PP_UNIT_FACTOR, 1,
     "slowdown of computation when P threads run at once"},
    {"scale.memory", PP_PAR_COST, PP_COST_SCALE_MEMORY, PP_UNIT_FACTOR, 1,
     "slowdown of memory streaming when P threads run at once"},
    {"mpi.latency", PP_PAR_NET_L, 0, NS, 1, "LogGP L: a message's time on the wire"},
    {"mpi.overhead", PP_PAR_NET_O, 0, NS, 1, "LogGP o: the processor's time per message at each end"},
    {"mpi.gap", PP_PAR_NET_GAP, 0, NS, 1, "LogGP g: least time between two messages of one rank"},
    {"mpi.gap_per_byte", PP_PAR_NET_G, 0, NSB, 1, "LogGP G: time per byte of a message (1/bandwidth)"},
    {"mpi.bandwidth", PP_PAR_NET_BW, 0, PP_UNIT_BANDWIDTH, 0, "1/G, the network's bandwidth per rank"},
    {"mpi.reduce_per_byte", PP_PAR_NET_GAMMA, 0, NSB, 1, "time per byte to combine two buffers in a reduction"},
    {"mpi.eager", PP_PAR_NET_EAGER, 0, PP_UNIT_BYTES, 0, "largest message sent eagerly (larger: rendezvous)"},
    {"mpi.ranks_per_node", PP_PAR_NET_RPN, 0, PP_UNIT_COUNT, 0, "ranks sharing one node's processors (0: all)"},
    {"mpi.alg.bcast", PP_PAR_NET_ALG, PP_COLL_BCAST, PP_UNIT_ALG, 0, "MPI_Bcast's algorithm"},
    {"mpi.alg.reduce", PP_PAR_NET_ALG, PP_COLL_REDUCE, PP_UNIT_ALG, 0, "MPI_Reduce's algorithm"},
    {"mpi.alg.allreduce", PP_PAR_NET_ALG, PP_COLL_ALLREDUCE, PP_UNIT_ALG, 0, "MPI_Allreduce's algorithm"},
    {"mpi.alg.gather", PP_PAR_NET_ALG, PP_COLL_GATHER, PP_UNIT_ALG, 0, "MPI_Gather's algorithm"},
    {"mpi.alg.scatter", PP_PAR_NET_ALG, PP_COLL_SCATTER, PP_UNIT_ALG, 0, "MPI_Scatter's algorithm"},
    {"mpi.alg.allgather", PP_PAR_NET_ALG, PP_COLL_ALLGATHER, PP_UNIT_ALG, 0, "MPI_Allgather's algorithm"},
    {"mpi.alg.alltoall", PP_PAR_NET_ALG, PP_COLL_ALLTOALL, PP_UNIT_ALG, 0, "MPI_Alltoall's algorithm"},
    {"mpi.alg.barrier", PP_PAR_NET_ALG, PP_COLL_BARRIER, PP_UNIT_ALG, 0, "MPI_Barrier's algorithm"},
    {"memory", PP_PAR_MEM, 0, PP_UNIT_FACTOR, 1,
     "the memory hierarchy's time per byte against the machine file's: the stream, gather and chase time the "
     "memory model adds beyond the recorded working set times it"},
    {"mem.bandwidth", PP_PAR_MEM_BW, 0, PP_UNIT_BANDWIDTH, 0,
     "the memory's streaming bandwidth for one thread (beyond the last cache level; every level moves with it)"},
};
#define NPARS ((int)(sizeof pars / sizeof pars[0]))

/* Short names, and the machine file's keys, for the canonical ones. */
static const struct { const char *alias, *name; } aliases[] = {
    {"cpu", "speed"},
    {"create", "thread.create"}, {"create_call", "thread.create_call"}, {"join", "thread.join"},
    {"forkjoin", "forkjoin.omp"}, {"barrier", "barrier.omp"}, {"barrier", "barrier.pthread"},
    {"lock", "mutex.lock"}, {"handoff", "mutex.handoff"},
    {"latency", "mpi.latency"}, {"L", "mpi.latency"}, {"mpi.latency_ns", "mpi.latency"},
    {"overhead", "mpi.overhead"}, {"o", "mpi.overhead"}, {"mpi.overhead_ns", "mpi.overhead"},
    {"gap", "mpi.gap"}, {"g", "mpi.gap"}, {"mpi.gap_ns", "mpi.gap"},
    {"G", "mpi.gap_per_byte"}, {"gap_per_byte", "mpi.gap_per_byte"}, {"mpi.gap_per_byte_ns", "mpi.gap_per_byte"},
    {"bandwidth", "mpi.bandwidth"},
    {"gamma", "mpi.reduce_per_byte"}, {"reduce_per_byte", "mpi.reduce_per_byte"},
    {"mpi.reduce_ns_per_byte", "mpi.reduce_per_byte"},
    {"eager", "mpi.eager"}, {"mpi.eager_bytes", "mpi.eager"},
    {"ranks_per_node", "mpi.ranks_per_node"},
    {"mem", "memory"}, {"membw", "mem.bandwidth"}, {"memory_bandwidth", "mem.bandwidth"},
};

int pp_par_count(void)
{
    return NPARS;
}

const pp_par_info *pp_par_get(int i)
{
    return i >= 0 && i < NPARS ? &pars[i] : NULL;
}

static const pp_par_info *by_name(const char *name)
{
    for (int i = 0; i < NPARS; i++)
        if (strcmp(pars[i].name, name) == 0)
            return &pars[i];
    return NULL;
}

int pp_par_lookup(const char *name, const pp_par_info **out, int max)
{
    const pp_par_info *p = by_name(name);
    if (p) {
        if (max > 0)
            out[0] = p;
        return 1;
    }
    /* alg.bcast for mpi.alg.bcast */
    if (strncmp(name, "alg.", 4) == 0) {
        char full[64];
        snprintf(full, sizeof full, "mpi.%s", name);
        p = by_name(full);
        if (p && max > 0)
            out[0] = p;
        return p != NULL;
    }
    int n = 0;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].alias, name) == 0 && n < max)
            out[n++] = by_name(aliases[i].name);
    return n;
}

const char *pp_unit_name(pp_unit u)
{
    switch (u) {
    case PP_UNIT_NS: return "ns";
    case PP_UNIT_NS_PER_BYTE: return "ns/B";
    case PP_UNIT_BANDWIDTH: return "B/s";
    case PP_UNIT_BYTES: return "B";
    default: return "";
    }
}

/* The number's multiplier for a unit suffix, or 0 when the suffix is not
 * one of u's.  A bare number is in the file's unit, except a bandwidth. */
static double suffix_mult(pp_unit u, const char *s)
{
    static const struct { const char *sfx; double mult; } time_u[] = {
        {"", 1}, {"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    static const struct { const char *sfx; double mult; } nsb_u[] = {
        {"", 1}, {"ns/B", 1}, {"ns/byte", 1}, {"ps/B", 1e-3}, {"ps/byte", 1e-3}};
    static const struct { const char *sfx; double mult; } bw_u[] = {
        {"B/s", 1}, {"KB/s", 1e3}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12},
        {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"TiB/s", 1099511627776.0},
        {"bit/s", 0.125}, {"kbit/s", 125}, {"Kbit/s", 125}, {"Mbit/s", 1.25e5}, {"Gbit/s", 1.25e8},
        {"Tbit/s", 1.25e11}, {"Mb/s", 1.25e5}, {"Gb/s", 1.25e8}, {"Tb/s", 1.25e11}};
    static const struct { const char *sfx; double mult; } bytes_u[] = {
        {"", 1}, {"B", 1}, {"KB", 1e3}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
#define FIND(tab)                                                        \
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)             \
        if (strcmp(tab[i].sfx, s) == 0)                                  \
            return tab[i].mult;                                          \
    return 0
    switch (u) {
    case PP_UNIT_NS: FIND(time_u);
    case PP_UNIT_NS_PER_BYTE: FIND(nsb_u);
    case PP_UNIT_BANDWIDTH: FIND(bw_u);
    case PP_UNIT_BYTES: FIND(bytes_u);
    case PP_UNIT_FACTOR:
    case PP_UNIT_COUNT: return *s ? 0 : 1;
    default: return 0;
    }
#undef FIND
}

int pp_unit_parse(pp_unit u, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v))
        return -1;
    while (*end == ' ')
        end++;
    double mult = suffix_mult(u, end);
    if (mult == 0)
        return -1;
    if (u == PP_UNIT_COUNT && v != floor(v))
        return -1;
    *out = v * mult;
    return 0;
}

static const char *unit_help(pp_unit u)
{
    switch (u) {
    case PP_UNIT_NS: return "a time like 2us, 150ns, 1.5ms";
    case PP_UNIT_NS_PER_BYTE: return "a time per byte like 0.08ns/B";
    case PP_UNIT_BANDWIDTH: return "a bandwidth like 20GB/s or 100Gbit/s";
    case PP_UNIT_BYTES: return "a size like 12KiB";
    case PP_UNIT_FACTOR: return "a number";
    case PP_UNIT_COUNT: return "a whole number";
    default: return "an algorithm";
    }
}

static void list_names(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < NPARS && used + 1 < n; i++) {
        if (pars[i].kind == PP_PAR_NET_ALG && pars[i].id != PP_COLL_BCAST)
            continue;
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
                         pars[i].kind == PP_PAR_NET_ALG ? "mpi.alg.C" : pars[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* One item NAME=VALUE. */
static int parse_item(pp_whatif *w, const char *item, char *err, size_t errlen)
{
    const char *eq = strchr(item, '=');
    if (!eq || eq == item || !eq[1]) {
        snprintf(err, errlen, "--with: '%s' is not NAME=VALUE", item);
        return -1;
    }
    char name[64];
    if ((size_t)(eq - item) >= sizeof name) {
        snprintf(err, errlen, "--with: '%s': the name is too long", item);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - item), item);
    const char *val = eq + 1;
    /* NAME.a / NAME.b of a cost curve */
    int part = 0;
    const pp_par_info *found[4];
    int nf = pp_par_lookup(name, found, 4);
    size_t len = strlen(name);
    if (nf == 0 && len > 2 && name[len - 2] == '.' && (name[len - 1] == 'a' || name[len - 1] == 'b')) {
        part = name[len - 1] == 'a' ? 1 : 2;
        name[len - 2] = 0;
        nf = pp_par_lookup(name, found, 4);
        for (int i = 0; i < nf; i++)
            if (found[i]->kind != PP_PAR_COST) {
                snprintf(err, errlen, "--with: '%s': %s is not a cost curve (only those have .a and .b)", item,
                         found[i]->name);
                return -1;
            }
    }
    if (nf == 0) {
        char names[1200];
        list_names(names, sizeof names);
        snprintf(err, errlen, "--with: '%s': unknown parameter '%s' (one of: %s)", item, name, names);
        return -1;
    }
    for (int i = 0; i < nf; i++) {
        if (w->n >= PP_WHATIF_MAX) {
            snprintf(err, errlen, "--with: more than %d changes", PP_WHATIF_MAX);
            return -1;
        }
        pp_override o;
        memset(&o, 0, sizeof o);
        o.par = found[i];
        o.part = part;
        snprintf(o.text, sizeof o.text, "%s", item);
        pp_unit u = o.par->unit;
        if (u == PP_UNIT_ALG) {
            pp_alg a;
            if (pp_alg_parse(val, &a) || !pp_net_alg_valid((pp_coll)o.par->id, a)) {
                snprintf(err, errlen, "--with: '%s': '%s' is not an algorithm %s has", item, val,
                         pp_coll_name((pp_coll)o.par->id));
                return -1;
            }
            o.alg = (int)a;
        } else if (val[0] == 'x' || val[0] == '*') {
            /* xF: the parameter as it is, times F */
            char *end;
            errno = 0;
            double f = strtod(val + 1, &end);
            if (end == val + 1 || *end || errno || !(f >= 0) || !isfinite(f) ||
                (f == 0 && (u == PP_UNIT_BANDWIDTH || o.par->kind == PP_PAR_SPEED || o.par->kind == PP_PAR_MEM))) {
                snprintf(err, errlen, "--with: '%s': '%s' is not a factor like x2 or x0.5%s", item, val,
                         u == PP_UNIT_BANDWIDTH || o.par->kind == PP_PAR_SPEED || o.par->kind == PP_PAR_MEM ? " (above 0)" : "");
                return -1;
            }
            o.relative = o.par->kind != PP_PAR_SPEED;
            o.value = f;
        } else {
            if (pp_unit_parse(u, val, &o.value) || o.value < 0 ||
                (o.value == 0 && (u == PP_UNIT_BANDWIDTH || o.par->kind == PP_PAR_SPEED || o.par->kind == PP_PAR_MEM))) {
                snprintf(err, errlen, "--with: '%s': '%s' is not %s%s", item, val, unit_help(u),
                         u == PP_UNIT_BANDWIDTH || o.par->kind == PP_PAR_SPEED || o.par->kind == PP_PAR_MEM ? " above 0" : " (0 or more)");
                return -1;
            }
            if (u == PP_UNIT_COUNT && o.value > 1e6) {
                snprintf(err, errlen, "--with: '%s': at most 1000000", item);
                return -1;
            }
        }
        w->ov[w->n++] = o;
    }
    return 0;
}

int pp_whatif_parse(pp_whatif *w, const char *spec, char *err, size_t errlen)
{
    char *dup = strdup(spec);
    if (!dup) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(dup, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (!*tok)
            continue;
        any = 1;
        rc = parse_item(w, tok, err, errlen);
    }
    if (rc == 0 && !any) {
        snprintf(err, errlen, "--with: '%s' names no parameter (NAME=VALUE[,NAME=VALUE...])", spec);
        rc = -1;
    }
    free(dup);
    return rc;
}

static double sync_factor(const pp_machine *m, pp_cost_id id)
{
    if (pp_cost_is_factor(id))
        return 1.0;
    return m->sync_scale > 0 ? m->sync_scale : 1.0;
}

static void set_num(double *field, const pp_override *o)
{
    *field = o->relative ? *field * o->value : o->value;
}

int pp_whatif_apply_machine(const pp_whatif *w, pp_machine *mach, char *err, size_t errlen)
{
    for (int i = 0; i < w->n; i++) {
        const pp_override *o = &w->ov[i];
        pp_net *n = &mach->net;
        switch (o->par->kind) {
        case PP_PAR_COST: {
            pp_model *mod = &mach->cost[o->par->id];
            double k = sync_factor(mach, (pp_cost_id)o->par->id);
            if (o->relative) {
                if (o->part != 2)
                    mod->a *= o->value;
                if (o->part != 1)
                    mod->b *= o->value;
            } else if (o->part == 0) {
                /* the same value at every P */
                mod->kind = PP_MODEL_CONST;
                mod->a = o->value / k;
                mod->b = 0;
            } else if (o->part == 1)
                mod->a = o->value / k;
            else {
                if (mod->kind == PP_MODEL_CONST && o->value != 0) {
                    snprintf(err, errlen, "--with: '%s': %s is constant in this machine file (no .b); give "
                             "the cost as NAME=VALUE", o->text, o->par->name);
                    return -1;
                }
                mod->b = o->value / k;
            }
            break;
        }
        case PP_PAR_NET_L: set_num(&n->L, o); break;
        case PP_PAR_NET_O: set_num(&n->o, o); break;
        case PP_PAR_NET_GAP: set_num(&n->g, o); break;
        case PP_PAR_NET_G: set_num(&n->G, o); break;
        case PP_PAR_NET_GAMMA: set_num(&n->gamma, o); break;
        case PP_PAR_NET_EAGER: set_num(&n->eager_bytes, o); break;
        case PP_PAR_NET_BW:
            /* G in ns per byte is 1e9 / (bytes per second); xF: F times the bandwidth */
            n->G = o->relative ? n->G / o->value : 1e9 / o->value;
            break;
        case PP_PAR_NET_RPN: {
            double v = o->relative ? floor(n->ranks_per_node * o->value + 0.5) : o->value;
            if (v < 0 || v > 1e6) {
                snprintf(err, errlen, "--with: '%s': mpi.ranks_per_node out of range (0 to 1000000)", o->text);
                return -1;
            }
            n->ranks_per_node = (int)v;
            break;
        }
        case PP_PAR_NET_ALG: n->alg[o->par->id] = (pp_alg)o->alg; break;
        case PP_PAR_SPEED: break;   /* the program's costs: pp_prog_scale_compute */
        case PP_PAR_MEM: {
            double mu = pp_machine_mem_time_scale(mach);
            mach->mem_time_scale = o->relative ? mu * o->value : o->value;
            break;
        }
        case PP_PAR_MEM_BW: {
            /* xF: F times the bandwidth, the time per byte over F; a value:
             * against the file's memory bandwidth */
            double mu = pp_machine_mem_time_scale(mach);
            double base = pp_machine_memory_bw(mach) * 1e9;   /* B/s */
            if (!o->relative && !(base > 0)) {
                snprintf(err, errlen, "--with: '%s': the machine file has no memory bandwidth to change (run "
                         "'perfpred calibrate')", o->text);
                return -1;
            }
            mach->mem_time_scale = o->relative ? mu / o->value : base / o->value;
            break;
        }
        }
    }
    return 0;
}

double pp_whatif_speed(const pp_whatif *w)
{
    double s = 1.0;
    for (int i = 0; i < w->n; i++)
        if (w->ov[i].par->kind == PP_PAR_SPEED)
            s = w->ov[i].value;   /* the last one given */
    return s;
}

void pp_prog_scale_compute(pp_prog *m, double k)
{
    int n = m->ncost;
    if (m->fit)
        pp_costs_scale_compute(m, m->fit, k);
    if (m->cost_cov)
        for (int i = 0; i < n * n; i++)
            m->cost_cov[i] *= k * k;
    /* recorded memory streams are the host's: the cache rule's extra
     * time is the memory's, not the processor's, and stays */
}

void pp_whatif_text(const pp_whatif *w, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < w->n && used + 1 < n; i++) {
        /* an alias that expands to two (barrier) was written once */
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= strcmp(w->ov[j].text, w->ov[i].text) == 0;
        if (dup)
            continue;
        int k = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", w->ov[i].text);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

double pp_par_value(const pp_par_info *p, const pp_machine *m, int P)
{
    const pp_net *n = &m->net;
    switch (p->kind) {
    case PP_PAR_COST:
        switch ((pp_cost_id)p->id) {
        case PP_COST_CREATE: return pp_machine_create_ns(m);
        case PP_COST_CREATE_CALL: return pp_machine_create_call_ns(m);
        case PP_COST_JOIN: return pp_machine_join_ns(m);
        case PP_COST_FORKJOIN_OMP: return pp_machine_fork_join_ns(m, P);
        case PP_COST_BARRIER_OMP: return pp_machine_barrier_ns(m, P, PP_SYNC_OMP);
        case PP_COST_BARRIER_PTHREAD: return pp_machine_barrier_ns(m, P, PP_SYNC_PTHREAD);
        case PP_COST_LOCK: return pp_machine_lock_ns(m);
        case PP_COST_HANDOFF: return pp_machine_handoff_ns(m);
        case PP_COST_SCALE_COMPUTE: return pp_machine_compute_scale(m, P);
        case PP_COST_SCALE_MEMORY: return pp_machine_memory_scale(m, P);
        default: return NAN;
        }
    case PP_PAR_NET_L: return n->L;
    case PP_PAR_NET_O: return n->o;
    case PP_PAR_NET_GAP: return n->g;
    case PP_PAR_NET_G: return n->G;
    case PP_PAR_NET_BW: return n->G > 0 ? 1e9 / n->G : INFINITY;
    case PP_PAR_NET_GAMMA: return n->gamma;
    case PP_PAR_NET_EAGER: return n->eager_bytes;
    case PP_PAR_NET_RPN: return n->ranks_per_node;
    case PP_PAR_SPEED: return 1.0;
    case PP_PAR_MEM: return pp_machine_mem_time_scale(m);
    case PP_PAR_MEM_BW:
        return pp_machine_memory_bw(m) * 1e9 / (pp_machine_mem_time_scale(m));
    default: return NAN;
    }
}
