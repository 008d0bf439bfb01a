/* record.c - read a record and check its invariants (record-format.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_THREADS 1000000
#define MAX_RECORD_BYTES ((size_t)4 << 30)

/* Read the whole file and cut it into lines (in place). */
/* The value of a recorded environment variable, or NULL. */
static const char *env_value(const pp_record *r, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < r->nenv; i++)
        if (!strncmp(r->env[i], name, n) && r->env[i][n] == '=')
            return r->env[i] + n + 1;
    return NULL;
}

static char *slurp_lines(const char *path, char ***lines, long *nlines, pp_where *w)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        pp_where_error(w, "cannot open record: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_RECORD_BYTES) {
        fclose(fp);
        pp_where_error(w, "not a regular file of at most 4 GiB");
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    char *buf = malloc(size + 1);
    if (!buf || fread(buf, 1, size, fp) != size) {
        fclose(fp);
        free(buf);
        pp_where_error(w, "cannot read record");
        return NULL;
    }
    fclose(fp);
    buf[size] = 0;
    const char *nul = memchr(buf, 0, size);
    if (size >= 4 && memcmp(buf, "\177ELF", 4) == 0) {
        /* the commonest slip: the program given for its record */
        w->line = 1;
        pp_where_error(w, "an executable, not a record: run it to write one "
                          "(PERFPRED_RECORD=FILE.ppr %s ARGS..., docs/runtime.md)", w->file);
        free(buf);
        return NULL;
    }
    if (nul) {
        w->line = 1;
        for (const char *q = buf; q < nul; q++)
            w->line += *q == '\n';
        pp_where_error(w, "binary data (a NUL byte at offset %zu) in a text record", (size_t)(nul - buf));
        free(buf);
        return NULL;
    }
    long n = 0, cap = 1024;
    char **ls = malloc(sizeof *ls * (size_t)cap);
    for (char *p = buf; ls && *p;) {
        if (n == cap) {
            cap *= 2;
            char **nl = realloc(ls, sizeof *ls * (size_t)cap);
            if (!nl) {
                free(ls);
                ls = NULL;
                break;
            }
            ls = nl;
        }
        ls[n++] = p;
        char *nlc = strchr(p, '\n');
        if (!nlc)
            break;
        *nlc = 0;
        if (nlc > p && nlc[-1] == '\r')
            nlc[-1] = 0;
        p = nlc + 1;
    }
    if (!ls) {
        free(buf);
        pp_where_error(w, "out of memory");
        return NULL;
    }
    *lines = ls;
    *nlines = n;
    return buf;
}

/* "(F S D) (F S D) ..." inside delta=(...) */
static int parse_deltas(const char *v, pp_rdelta **out, int *nout, pp_where *w)
{
    *out = NULL;
    *nout = 0;
    if (!v)
        return 0;
    const char *p = v;
    if (*p != '(')
        return pp_where_error(w, "delta= must be a list");
    p++;
    int cap = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')')
            break;
        int f, s, used = 0;
        long long d;
        if (sscanf(p, "(%d %d %lld)%n", &f, &s, &d, &used) != 3 || used == 0)
            return pp_where_error(w, "malformed delta entry near '%.20s'", p);
        p += used;
        if (*nout == cap) {
            cap = cap ? cap * 2 : 4;
            pp_rdelta *nd = realloc(*out, sizeof **out * (size_t)cap);
            if (!nd)
                return pp_where_error(w, "out of memory");
            *out = nd;
        }
        (*out)[(*nout)++] = (pp_rdelta){f, s, d};
    }
    return 0;
}

static int check_delta_refs(const pp_record *r, const pp_rdelta *d, int n, pp_where *w)
{
    for (int i = 0; i < n; i++) {
        if (d[i].func < 0 || d[i].func >= r->nfuncs)
            return pp_where_error(w, "delta names function %d, record has %d", d[i].func, r->nfuncs);
        if (d[i].slot < 0 || d[i].slot >= r->funcs[d[i].func].nslots)
            return pp_where_error(w, "delta names slot %d of function %d (nslots %d)", d[i].slot,
                                  d[i].func, r->funcs[d[i].func].nslots);
        if (d[i].delta < 0)
            return pp_where_error(w, "negative counter delta %lld", (long long)d[i].delta);
    }
    return 0;
}

/* Thread ids are 0.., one `thread` line each: an id beyond the record's
 * line count (nlines) cannot be, and would only make the table large. */
static pp_rthread *thread_slot(pp_record *r, long id, long nlines, pp_where *w)
{
    if (id < 0 || id >= MAX_THREADS || id >= nlines) {
        pp_where_error(w, "thread id %ld out of range", id);
        return NULL;
    }
    if (id >= r->nthreads) {
        pp_rthread *nt = realloc(r->threads, sizeof *nt * (size_t)(id + 1));
        if (!nt) {
            pp_where_error(w, "out of memory");
            return NULL;
        }
        memset(nt + r->nthreads, 0, sizeof *nt * (size_t)(id + 1 - r->nthreads));
        for (long i = r->nthreads; i <= id; i++)
            nt[i].id = -1;
        r->threads = nt;
        r->nthreads = (int)id + 1;
    }
    return &r->threads[id];
}

static int parse_thread(pp_record *r, const pp_line *l, long nlines, pp_where *w)
{
    long id, parent = -1, order = 0, arg = 0, nthr = 0;
    if (pp_line_int(l, "id", &id, w))
        return -1;
    pp_rthread *t = thread_slot(r, id, nlines, w);
    if (!t)
        return -1;
    if (t->id >= 0)
        return pp_where_error(w, "thread %ld described twice", id);
    t->id = (int)id;
    const char *k = pp_line_get(l, "kind");
    t->kind = !k ? PP_T_OTHER : !strcmp(k, "main") ? PP_T_MAIN : !strcmp(k, "pthread") ? PP_T_PTHREAD
            : !strcmp(k, "omp") ? PP_T_OMP : PP_T_OTHER;
    long tid = 0;
    if (pp_line_opt_int(l, "parent", &parent, w) || pp_line_opt_int(l, "order", &order, w) ||
        pp_line_opt_int(l, "tid", &tid, w) ||
        pp_line_opt_int(l, "arg", &arg, w) || pp_line_opt_int(l, "nthreads", &nthr, w) ||
        pp_line_u64(l, "start", &t->start, w) || pp_line_u64(l, "end", &t->end, w))
        return -1;
    if (pp_line_get(l, "cstart")) {
        if (pp_line_u64(l, "cstart", &t->cstart, w))
            return -1;
        t->has_cpu = 1;
    }
    t->parent = (int)parent;
    t->order = (int)order;
    t->tid = (int)tid;
    t->arg = arg;
    t->nthreads = (int)nthr;
    t->site_func = t->site_id = -1;
    const char *site = pp_line_get(l, "site");
    if (site && sscanf(site, "(%d %d)", &t->site_func, &t->site_id) != 2)
        return pp_where_error(w, "malformed site '%s'", site);
    return 0;
}

static int parse_count(pp_record *r, const pp_line *l, pp_where *w)
{
    long th, fn;
    if (pp_line_int(l, "thread", &th, w) || pp_line_int(l, "func", &fn, w))
        return -1;
    if (th < 0 || th >= r->nthreads || r->threads[th].id < 0)
        return pp_where_error(w, "count line for unknown thread %ld", th);
    if (fn < 0 || fn >= r->nfuncs)
        return pp_where_error(w, "count line for unknown function %ld", fn);
    pp_rthread *t = &r->threads[th];
    if (!t->counts) {
        t->counts = calloc((size_t)r->nfuncs, sizeof *t->counts);
        if (!t->counts)
            return pp_where_error(w, "out of memory");
    }
    if (t->counts[fn])
        return pp_where_error(w, "two count lines for thread %ld function %ld", th, fn);
    int ns = r->funcs[fn].nslots;
    uint64_t *c = calloc((size_t)ns, sizeof *c);
    if (!c)
        return pp_where_error(w, "out of memory");
    t->counts[fn] = c;
    const char *v = pp_line_get(l, "slots");
    if (!v || *v != '(')
        return pp_where_error(w, "count line has no slots=(...)");
    const char *p = v + 1;
    for (int i = 0; i < ns; i++) {
        char *end;
        while (*p == ' ')
            p++;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 10);
        if (end == p || errno || *p == '-')
            return pp_where_error(w, "count line: slot %d of %d missing or not a number", i, ns);
        c[i] = x;
        p = end;
    }
    while (*p == ' ')
        p++;
    if (*p != ')')
        return pp_where_error(w, "count line: more than nslots=%d values", ns);
    return 0;
}

/* "K" of comm=cK: a communicator's number, 1..2^31-1: 0, or -1. */
static int comm_number(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > INT32_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_ev(pp_record *r, const pp_line *l, pp_rev *e, pp_where *w)
{
    long th, n, fn = -1, site = -1, child = -1, team = -1, tid = -1, nthr = 0, result = 0;
    memset(e, 0, sizeof *e);
    if (pp_line_int(l, "thread", &th, w) || pp_line_int(l, "n", &n, w) ||
        pp_line_opt_int(l, "func", &fn, w) || pp_line_opt_int(l, "site", &site, w) ||
        pp_line_u64(l, "t0", &e->t0, w) || pp_line_u64(l, "t1", &e->t1, w) ||
        pp_line_opt_int(l, "child", &child, w) || pp_line_opt_int(l, "team", &team, w) ||
        pp_line_opt_int(l, "tid", &tid, w) || pp_line_opt_int(l, "nthreads", &nthr, w) ||
        pp_line_opt_int(l, "result", &result, w))
        return -1;
    if (pp_line_get(l, "c0") || pp_line_get(l, "c1")) {
        if (pp_line_u64(l, "c0", &e->c0, w) || pp_line_u64(l, "c1", &e->c1, w))
            return -1;
        if (e->c1 < e->c0)
            return pp_where_error(w, "event's CPU time goes backwards (c1 < c0)");
        e->has_cpu = 1;
    }
    const char *k = pp_line_get(l, "kind");
    if (!k)
        return pp_where_error(w, "ev line has no kind");
    e->kind = pp_evkind_parse(k);
    {
        long peer = -1, tag = -1, root = -1, rpeer = -1, rtag = -1, count = -1;
        int64_t bytes = -1, rbytes = -1;
        uint64_t u;
        if (pp_line_opt_int(l, "peer", &peer, w) || pp_line_opt_int(l, "tag", &tag, w) ||
            pp_line_opt_int(l, "root", &root, w) || pp_line_opt_int(l, "rpeer", &rpeer, w) ||
            pp_line_opt_int(l, "rtag", &rtag, w) || pp_line_opt_int(l, "count", &count, w))
            return -1;
        if (pp_line_get(l, "bytes")) {
            if (pp_line_u64(l, "bytes", &u, w))
                return -1;
            bytes = (int64_t)(u > INT64_MAX ? INT64_MAX : u);
        }
        if (pp_line_get(l, "rbytes")) {
            if (pp_line_u64(l, "rbytes", &u, w))
                return -1;
            rbytes = (int64_t)(u > INT64_MAX ? INT64_MAX : u);
        }
        if (e->kind == PP_EV_COMM_SPLIT && peer >= INT32_MIN && peer < -32)
            peer = -1;          /* the color MPI_UNDEFINED */
        if (peer < -32 || peer > INT32_MAX || root < -1 || root > INT32_MAX || rpeer < -32 ||
            rpeer > INT32_MAX || tag < -32 || tag > INT32_MAX || rtag < -32 || rtag > INT32_MAX ||
            count < -1 || count > INT32_MAX)
            return pp_where_error(w, "an MPI field (peer, tag, root, count) is out of range");
        e->has_msg = pp_line_get(l, "peer") != NULL;
        e->peer = (int)peer;
        e->tag = (int)tag;
        e->root = (int)root;
        e->rpeer = (int)rpeer;
        e->rtag = (int)rtag;
        e->count = (int)count;
        e->bytes = bytes;
        e->rbytes = rbytes;
        const char *comm = pp_line_get(l, "comm");
        e->comm = !comm ? -1 : strcmp(comm, "world") == 0 ? 1 : 0;
        e->comm_id = comm && strcmp(comm, "world") == 0 ? 0 : -1;
        if (comm && comm[0] == 'c' && comm_number(comm + 1, &e->comm_id))
            return pp_where_error(w, "comm=%s: expected world, other or cK", comm);
        e->newcomm = -1;
        e->new_rank = e->new_size = -1;
        const char *nc = pp_line_get(l, "newcomm");
        if (nc && strcmp(nc, "null") == 0)
            e->newcomm = 0;
        else if (nc) {
            long nr = -1, ns = -1;
            if (nc[0] != 'c' || comm_number(nc + 1, &e->newcomm))
                return pp_where_error(w, "newcomm=%s: expected null or cK", nc);
            if (pp_line_opt_int(l, "rank", &nr, w) || pp_line_opt_int(l, "size", &ns, w))
                return -1;
            if (ns < 1 || ns > INT32_MAX || nr < 0 || nr >= ns)
                return pp_where_error(w, "newcomm=%s: rank %ld of size %ld", nc, nr, ns);
            e->new_rank = (int)nr;
            e->new_size = (int)ns;
        }
    }
    const char *obj = pp_line_get(l, "obj");
    if (obj) {
        char *end;
        errno = 0;
        e->obj = strtoull(obj, &end, 0);
        if (errno || *end)
            return pp_where_error(w, "obj=%s is not an address", obj);
    }
    if (th < 0 || th >= r->nthreads || r->threads[th].id < 0)
        return pp_where_error(w, "event of unknown thread %ld", th);
    if (fn >= r->nfuncs)
        return pp_where_error(w, "event names function %ld, record has %d", fn, r->nfuncs);
    if (fn >= 0 && !pp_desc_event(&r->funcs[fn], (int)site))
        return pp_where_error(w, "event names site %ld, not in function %s", site, r->funcs[fn].name);
    if (e->t1 < e->t0)
        return pp_where_error(w, "event ends (t1) before it starts (t0)");
    e->thread = (int)th;
    e->n = (int)n;
    e->func = (int)fn;
    e->site = (int)site;
    e->child = (int)child;
    e->team = (int)team;
    e->tid = (int)tid;
    e->nthreads = (int)nthr;
    e->result = result;
    if (parse_deltas(pp_line_get(l, "delta"), &e->delta, &e->ndelta, w))
        return -1;
    return check_delta_refs(r, e->delta, e->ndelta, w);
}

/* Group events per thread and check sequence numbers, times and that the
 * deltas add up to the counts. */
static int check_threads(pp_record *r, pp_where *w)
{
    for (long i = 0; i < r->nevents; i++)
        r->threads[r->events[i].thread].nev++;
    for (int t = 0; t < r->nthreads; t++) {
        pp_rthread *th = &r->threads[t];
        if (th->id < 0) {
            w->line = 0;
            return pp_where_error(w, "thread %d is referenced but not described", t);
        }
        if (th->nev) {
            th->ev = calloc((size_t)th->nev, sizeof *th->ev);
            if (!th->ev)
                return pp_where_error(w, "out of memory");
        }
        th->nev = 0;
    }
    for (long i = 0; i < r->nevents; i++) {
        pp_rev *e = &r->events[i];
        pp_rthread *th = &r->threads[e->thread];
        if (e->n != th->nev) {
            w->line = 0;
            return pp_where_error(w, "thread %d: event number %d out of order (expected %d)", e->thread,
                                  e->n, th->nev);
        }
        if (th->nev && e->t0 < th->ev[th->nev - 1]->t0) {
            w->line = 0;
            return pp_where_error(w, "thread %d: event %d starts before event %d", e->thread, e->n, e->n - 1);
        }
        th->ev[th->nev++] = e;
    }
    /* CPU times are used only when a thread has them everywhere */
    for (int t = 0; t < r->nthreads; t++) {
        pp_rthread *th = &r->threads[t];
        if (!th->has_cpu)
            continue;
        if (!th->tail_c)
            th->has_cpu = 0;
        for (int e = 0; e < th->nev; e++)
            th->has_cpu &= th->ev[e]->has_cpu;
    }
    /* per thread: add the deltas up once, then compare with the counts */
    uint64_t **sum = calloc((size_t)r->nfuncs + 1, sizeof *sum);
    if (!sum)
        return pp_where_error(w, "out of memory");
    int rc = 0;
    for (int f = 0; f < r->nfuncs && rc == 0; f++)
        if (!(sum[f] = calloc((size_t)r->funcs[f].nslots, sizeof **sum)))
            rc = pp_where_error(w, "out of memory");
    for (int t = 0; t < r->nthreads && rc == 0; t++) {
        pp_rthread *th = &r->threads[t];
        for (int f = 0; f < r->nfuncs; f++)
            memset(sum[f], 0, sizeof **sum * (size_t)r->funcs[f].nslots);
        for (int e = 0; e < th->nev; e++)
            for (int d = 0; d < th->ev[e]->ndelta; d++)
                sum[th->ev[e]->delta[d].func][th->ev[e]->delta[d].slot] += (uint64_t)th->ev[e]->delta[d].delta;
        for (int d = 0; d < th->ntail; d++)
            sum[th->tail[d].func][th->tail[d].slot] += (uint64_t)th->tail[d].delta;
        for (int f = 0; f < r->nfuncs && rc == 0; f++)
            for (int s = 1; s < r->funcs[f].nslots && rc == 0; s++) {
                uint64_t c = th->counts && th->counts[f] ? th->counts[f][s] : 0;
                if (sum[f][s] != c) {
                    w->line = 0;
                    rc = pp_where_error(w, "thread %d, function %s, slot %d: deltas add up to %llu but the count is %llu",
                                        t, r->funcs[f].name, s, (unsigned long long)sum[f][s], (unsigned long long)c);
                }
            }
    }
    for (int f = 0; f < r->nfuncs; f++)
        free(sum[f]);
    free(sum);
    if (rc)
        return rc;
    return 0;
}

/* The `mpi` line.  Records written before the runtime knew MPICH have no
 * any_source, any_tag, proc_null, lib: they are Open MPI's. */
static int parse_mpi(pp_record *r, const pp_line *l, pp_where *w)
{
    long rank, size, any_src = -1, any_tag = -1, proc_null = -2;
    const char *run = pp_line_get(l, "run");
    char *end = NULL;
    if (pp_line_int(l, "rank", &rank, w) || pp_line_int(l, "size", &size, w) ||
        pp_line_u64(l, "pid0", &r->mpi_pid0, w) || pp_line_opt_int(l, "any_source", &any_src, w) ||
        pp_line_opt_int(l, "any_tag", &any_tag, w) || pp_line_opt_int(l, "proc_null", &proc_null, w))
        return -1;
    if (size < 1 || size > 1 << 24 || rank < 0 || rank >= size)
        return pp_where_error(w, "mpi line: rank %ld of %ld ranks is impossible", rank, size);
    if (!run || (errno = 0, r->mpi_run = strtoull(run, &end, 16), errno || !*run || *end))
        return pp_where_error(w, "mpi line: run= is not a hexadecimal id");
    /* MPI: the special ranks are negative and distinct, MPI_ANY_TAG negative */
    if (any_src >= 0 || proc_null >= 0 || any_tag >= 0 || any_src == proc_null || any_src < INT_MIN ||
        proc_null < INT_MIN || any_tag < INT_MIN)
        return pp_where_error(w, "mpi line: any_source=%ld proc_null=%ld any_tag=%ld: MPI_ANY_SOURCE and "
                                 "MPI_PROC_NULL are negative and distinct, MPI_ANY_TAG is negative", any_src,
                              proc_null, any_tag);
    r->mpi_rank = (int)rank;
    r->mpi_size = (int)size;
    r->mpi_any_source = (int)any_src;
    r->mpi_any_tag = (int)any_tag;
    r->mpi_proc_null = (int)proc_null;
    pp_line_opt_str(l, "lib", &r->mpi_lib);
    return 0;
}

/* `exe build_id=HEX` or `exe size=N hash=HEX` (rt-exe.c); one line.  A
 * line with neither (a later runtime's kind of identity) gives none. */
/* `timing tick_ns=X cost_ns=Y [window_ns=Z]` (docs/record-format.md) */
static int parse_timing(pp_record *r, const pp_line *l, pp_where *w)
{
    const char *t = pp_line_get(l, "tick_ns"), *c = pp_line_get(l, "cost_ns");
    char *e1 = NULL, *e2 = NULL;
    double tn = t ? strtod(t, &e1) : 0, cn = c ? strtod(c, &e2) : 0;
    if (!t || !c || *e1 || *e2 || !(tn > 0 && tn < 1e6) || !(cn >= 0 && cn < 1e9))
        return pp_where_error(w, "timing line: tick_ns and cost_ns must be numbers (tick_ns > 0, cost_ns >= 0)");
    const char *wn = pp_line_get(l, "window_ns");
    char *e3 = NULL;
    double win = wn ? strtod(wn, &e3) : 0;
    if (wn && (*e3 || !(win >= 0 && win <= cn + 1e-9)))
        return pp_where_error(w, "timing line: window_ns must be a number from 0 to cost_ns");
    r->has_timing = 1;
    r->tick_ns = tn;
    r->timing_cost_ns = cn;
    r->timing_window_ns = win;
    return 0;
}

static int parse_exe(pp_record *r, const pp_line *l, pp_where *w)
{
    if (r->exe_build_id || r->exe_hashed)
        return pp_where_error(w, "two exe lines");
    const char *id = pp_line_get(l, "build_id"), *hash = pp_line_get(l, "hash");
    if (id) {
        size_t n = strlen(id);
        if (n < 2 || n > 128 || n % 2 || strspn(id, "0123456789abcdef") != n)
            return pp_where_error(w, "exe line: build_id= is not a build id (an even number of lowercase "
                                     "hexadecimal digits, at most 128)");
        r->exe_build_id = strdup(id);
        if (!r->exe_build_id)
            return pp_where_error(w, "out of memory");
        return 0;
    }
    if (hash) {
        char *end = NULL;
        if (pp_line_u64(l, "size", &r->exe_size, w))
            return -1;
        errno = 0;
        r->exe_hash = strtoull(hash, &end, 16);
        if (errno || strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16 || *end)
            return pp_where_error(w, "exe line: hash= is not 16 hexadecimal digits");
        r->exe_hashed = 1;
        return 0;
    }
    return 0;       /* another kind of identity (a later runtime's): none */
}

static int parse_body(pp_record *r, char **lines, long n, pp_where *w)
{
    /* a record cut short (the program killed before its exit, a full disk)
     * fails on its last, partial line: say so first */
    long last = n - 1;
    while (last > 0 && !lines[last][0])
        last--;
    if (n > 1 && strncmp(lines[last], "end", 3) != 0 && strncmp(lines[0], "perfpred-record ", 16) == 0) {
        w->line = last + 1;
        return pp_where_error(w, "record is truncated (it does not end with an 'end' line: was the program "
                                 "killed before it exited?)");
    }
    if (n == 0) {
        w->line = 0;
        return pp_where_error(w, "empty file: not a perfpred record");
    }
    if (strncmp(lines[0], "perfpred-record ", 16) != 0) {
        w->line = 1;
        return pp_where_error(w, "not a perfpred record (first line must be 'perfpred-record 1')");
    }
    if (strcmp(lines[0] + 16, "1") != 0) {
        w->line = 1;
        return pp_where_error(w, "record version '%s' is not supported (this perfpred reads version 1)",
                              lines[0] + 16);
    }
    long evcap = 0;
    int ended = 0;
    long want_events = -1, want_threads = -1;
    for (long i = 1; i < n && !ended; i++) {
        w->line = i + 1;
        if (!lines[i][0] || lines[i][0] == '#')
            continue;
        pp_line l;
        if (pp_lex_line(lines[i], &l, w)) {
            pp_line_free(&l);
            return -1;
        }
        int rc = 0;
        const char *k = l.keyword;
        if (!strcmp(k, "program")) {
            pp_line_opt_str(&l, "path", &r->program);
            pp_line_opt_str(&l, "host", &r->host);
            /* the runtime's ABI (docs/runtime-abi.md): another one's
             * records may count or time things differently */
            long abi = 1;
            if (pp_line_opt_int(&l, "abi", &abi, w))
                rc = -1;
            else if (abi != 1)
                rc = pp_where_error(w, "written by a runtime of ABI %ld (this perfpred reads records of ABI 1: "
                                       "record the program again with this perfpred's runtime)", abi);
        } else if (!strcmp(k, "exe")) {
            rc = parse_exe(r, &l, w);
        } else if (!strcmp(k, "timing")) {
            rc = parse_timing(r, &l, w);
        } else if (!strcmp(k, "mpi")) {
            rc = parse_mpi(r, &l, w);
        } else if (!strcmp(k, "incomplete")) {
            long sig;
            if (pp_line_int(&l, "signal", &sig, w))
                rc = -1;
            else if (sig <= 0 || sig > 64)
                rc = pp_where_error(w, "incomplete line: signal=%ld is not a signal number", sig);
            else {
                r->incomplete_sig = (int)sig;
                pp_line_opt_str(&l, "name", &r->incomplete_name);
            }
        } else if (!strcmp(k, "argv") && r->argv) {
            rc = pp_where_error(w, "two argv lines");
        } else if (!strcmp(k, "argv")) {
            r->argv = calloc((size_t)l.nf + 1, sizeof *r->argv);
            for (int j = 0; r->argv && j < l.nf; j++)
                r->argv[r->argc++] = strdup(l.f[j].val);
        } else if (!strcmp(k, "env")) {
            for (int j = 0; j < l.nf; j++) {
                if (!l.f[j].key)
                    continue;
                char **ne = realloc(r->env, sizeof *ne * (size_t)(r->nenv + 1));
                if (!ne)
                    break;
                r->env = ne;
                size_t len = strlen(l.f[j].key) + strlen(l.f[j].val) + 2;
                r->env[r->nenv] = malloc(len);
                if (r->env[r->nenv])
                    snprintf(r->env[r->nenv++], len, "%s=%s", l.f[j].key, l.f[j].val);
            }
        } else if (!strcmp(k, "func") && pp_line_get(&l, "idx")) {
            long idx;
            if (pp_line_int(&l, "idx", &idx, w))
                rc = -1;
            else if (idx != r->nfuncs)
                rc = pp_where_error(w, "func idx=%ld out of order (expected %d)", idx, r->nfuncs);
            else {
                pp_dfunc *nf = realloc(r->funcs, sizeof *nf * (size_t)(r->nfuncs + 1));
                if (!nf)
                    rc = pp_where_error(w, "out of memory");
                else {
                    r->funcs = nf;
                    long used = 0;
                    w->line = i + 2;
                    rc = pp_desc_parse(lines + i + 1, n - i - 1, &used, &r->funcs[r->nfuncs], w);
                    /* the env lines come first: a runtime schedule's is known */
                    if (rc == 0)
                        pp_desc_sched_apply(&r->funcs[r->nfuncs], env_value(r, "OMP_SCHEDULE"));
                    r->nfuncs++;
                    i += used;
                }
            }
        } else if (!strcmp(k, "gparam")) {
            pp_rgparam g = {0};
            if (pp_line_str(&l, "name", &g.name, w) || pp_line_int(&l, "value", &g.value, w))
                rc = -1;
            else {
                pp_rgparam *ng = realloc(r->gparams, sizeof *ng * (size_t)(r->ngparams + 1));
                if (!ng)
                    rc = pp_where_error(w, "out of memory");
                else {
                    r->gparams = ng;
                    r->gparams[r->ngparams++] = g;
                    g.name = NULL;
                }
            }
            free(g.name);
        } else if (!strcmp(k, "param")) {
            pp_rparam p = {0};
            long fn, id;
            if (pp_line_int(&l, "func", &fn, w) || pp_line_int(&l, "id", &id, w) ||
                pp_line_int(&l, "value", &p.value, w))
                rc = -1;
            else if (fn < 0 || fn >= r->nfuncs || !pp_desc_param(&r->funcs[fn], (int)id))
                rc = pp_where_error(w, "param names function %ld parameter %ld, which is not described", fn, id);
            else {
                p.func = (int)fn;
                p.id = (int)id;
                p.count = 1;
                p.first = p.last = p.min = p.max = p.value;
                if (pp_line_opt_int(&l, "count", &p.count, w) || pp_line_opt_int(&l, "first", &p.first, w) ||
                    pp_line_opt_int(&l, "last", &p.last, w) || pp_line_opt_int(&l, "min", &p.min, w) ||
                    pp_line_opt_int(&l, "max", &p.max, w))
                    rc = -1;
                pp_rparam *np = realloc(r->params, sizeof *np * (size_t)(r->nparams + 1));
                if (!np)
                    rc = pp_where_error(w, "out of memory");
                else {
                    r->params = np;
                    r->params[r->nparams++] = p;
                }
            }
        } else if (!strcmp(k, "tparam")) {
            pp_rtparam p = {.line = (int)w->line};
            long fn, id, th;
            if (pp_line_int(&l, "func", &fn, w) || pp_line_int(&l, "id", &id, w) ||
                pp_line_int(&l, "thread", &th, w) || pp_line_int(&l, "value", &p.value, w))
                rc = -1;
            else if (fn < 0 || fn >= r->nfuncs || !pp_desc_param(&r->funcs[fn], (int)id))
                rc = pp_where_error(w, "tparam names function %ld parameter %ld, which is not described", fn, id);
            else if (th < 0 || th > INT_MAX)
                rc = pp_where_error(w, "tparam thread=%ld is not a thread id", th);
            else {
                p.func = (int)fn;
                p.id = (int)id;
                p.thread = (int)th;
                p.count = 1;
                p.min = p.max = p.value;
                if (pp_line_opt_int(&l, "count", &p.count, w) || pp_line_opt_int(&l, "min", &p.min, w) ||
                    pp_line_opt_int(&l, "max", &p.max, w))
                    rc = -1;
                pp_rtparam *np = realloc(r->tparams, sizeof *np * (size_t)(r->ntparams + 1));
                if (!np)
                    rc = pp_where_error(w, "out of memory");
                else {
                    r->tparams = np;
                    r->tparams[r->ntparams++] = p;
                }
            }
        } else if (!strcmp(k, "thread")) {
            rc = parse_thread(r, &l, n, w);
        } else if (!strcmp(k, "count")) {
            rc = parse_count(r, &l, w);
        } else if (!strcmp(k, "ev")) {
            if (r->nevents == evcap) {
                evcap = evcap ? evcap * 2 : 256;
                pp_rev *ne = realloc(r->events, sizeof *ne * (size_t)evcap);
                if (!ne)
                    rc = pp_where_error(w, "out of memory");
                else
                    r->events = ne;
            }
            if (rc == 0) {
                rc = parse_ev(r, &l, &r->events[r->nevents], w);
                if (rc == 0)
                    r->nevents++;
                else
                    free(r->events[r->nevents].delta);
            }
        } else if (!strcmp(k, "tail")) {
            long th;
            if (pp_line_int(&l, "thread", &th, w))
                rc = -1;
            else if (th < 0 || th >= r->nthreads || r->threads[th].id < 0)
                rc = pp_where_error(w, "tail of unknown thread %ld", th);
            else if (r->threads[th].tail || r->threads[th].tail_t)
                rc = pp_where_error(w, "two tail lines for thread %ld", th);
            else if ((pp_line_get(&l, "c") && pp_line_u64(&l, "c", &r->threads[th].tail_c, w)) ||
                     pp_line_u64(&l, "t", &r->threads[th].tail_t, w) ||
                     parse_deltas(pp_line_get(&l, "delta"), &r->threads[th].tail, &r->threads[th].ntail, w) ||
                     check_delta_refs(r, r->threads[th].tail, r->threads[th].ntail, w))
                rc = -1;
        } else if (!strcmp(k, "end")) {
            ended = 1;
            if (pp_line_opt_int(&l, "events", &want_events, w) || pp_line_opt_int(&l, "threads", &want_threads, w))
                rc = -1;
        }
        pp_line_free(&l);
        if (rc)
            return -1;
    }
    if (!ended) {
        w->line = n;
        return pp_where_error(w, "record is truncated (no 'end' line)");
    }
    if (want_events >= 0 && want_events != r->nevents)
        return pp_where_error(w, "end line says %ld events, record has %ld", want_events, r->nevents);
    for (int i = 0; i < r->ntparams; i++)
        if (r->tparams[i].thread >= r->nthreads || r->threads[r->tparams[i].thread].id < 0) {
            w->line = r->tparams[i].line;
            return pp_where_error(w, "tparam names thread %d, which the record does not have", r->tparams[i].thread);
        }
    int described = 0;
    for (int t = 0; t < r->nthreads; t++)
        described += r->threads[t].id >= 0;
    if (want_threads >= 0 && want_threads != described)
        return pp_where_error(w, "end line says %ld threads, record has %d", want_threads, described);
    if (r->nthreads == 0)
        return pp_where_error(w, "record describes no thread");
    return check_threads(r, w);
}

int pp_record_allow_incomplete;

int pp_record_load(const char *path, pp_record *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->mpi_rank = -1;
    r->mpi_any_source = -1;    /* Open MPI's: records without them */
    r->mpi_any_tag = -1;
    r->mpi_proc_null = -2;
    pp_where w = {.file = path, .line = 0};
    char **lines = NULL;
    long n = 0;
    char *buf = slurp_lines(path, &lines, &n, &w);
    int rc = -1;
    if (buf) {
        r->path = strdup(path);
        rc = parse_body(r, lines, n, &w);
    }
    free(lines);
    free(buf);
    if (rc == 0 && r->incomplete_sig) {
        /* a program killed mid-run: its counts stop where it died, so a
         * model fitted on them describes another program */
        const char *nm = r->incomplete_name ? r->incomplete_name : "?";
        if (!pp_record_allow_incomplete) {
            snprintf(err, errlen, "%s: incomplete record: the program was killed by signal %d (%s) "
                     "before it finished; predictions from it would be wrong (--allow-incomplete "
                     "uses it anyway)", path, r->incomplete_sig, nm);
            pp_record_free(r);
            free(w.err);
            return -1;
        }
        /* once per file, although some commands read a record twice */
        static char *warned;
        if (!warned || strcmp(warned, path) != 0) {
            fprintf(stderr, "perfpred: warning: %s: incomplete record (the program was killed by "
                    "signal %d, %s); used as --allow-incomplete asks\n", path, r->incomplete_sig, nm);
            free(warned);
            warned = strdup(path);
        }
    }
    if (rc) {
        snprintf(err, errlen, "%s", w.err ? w.err : "unknown error");
        pp_record_free(r);
    }
    free(w.err);
    return rc;
}

int pp_record_same_mpi(const pp_record *a, const pp_record *b)
{
    return a->mpi_any_source == b->mpi_any_source && a->mpi_proc_null == b->mpi_proc_null &&
           a->mpi_any_tag == b->mpi_any_tag;
}

void pp_record_free(pp_record *r)
{
    for (int i = 0; i < r->nfuncs; i++)
        pp_desc_free(&r->funcs[i]);
    for (int i = 0; i < r->nthreads; i++) {
        pp_rthread *t = &r->threads[i];
        if (t->counts)
            for (int f = 0; f < r->nfuncs; f++)
                free(t->counts[f]);
        free(t->counts);
        free(t->ev);
        free(t->tail);
    }
    for (long i = 0; i < r->nevents; i++)
        free(r->events[i].delta);
    for (int i = 0; i < r->argc; i++)
        free(r->argv[i]);
    for (int i = 0; i < r->nenv; i++)
        free(r->env[i]);
    for (int i = 0; i < r->ngparams; i++)
        free(r->gparams[i].name);
    free(r->argv); free(r->env); free(r->gparams); free(r->params); free(r->tparams);
    free(r->funcs); free(r->threads); free(r->events);
    free(r->path); free(r->program); free(r->host); free(r->mpi_lib); free(r->exe_build_id); free(r->incomplete_name);
    memset(r, 0, sizeof *r);
}

int pp_record_func_index(const pp_record *r, const char *name)
{
    for (int i = 0; i < r->nfuncs; i++)
        if (r->funcs[i].name && strcmp(r->funcs[i].name, name) == 0)
            return i;
    return -1;
}

uint64_t pp_record_slot_thread(const pp_record *r, int thread, int func, int slot)
{
    const pp_rthread *t = &r->threads[thread];
    if (t->id < 0 || !t->counts || !t->counts[func] || slot < 0 || slot >= r->funcs[func].nslots)
        return 0;
    return t->counts[func][slot];
}

uint64_t pp_record_slot_total(const pp_record *r, int func, int slot)
{
    uint64_t s = 0;
    for (int t = 0; t < r->nthreads; t++)
        s += pp_record_slot_thread(r, t, func, slot);
    return s;
}
