/* breakdown.c - where the time goes (see breakdown.h): the model unrolled
 * with its contexts (PP_INST_SITES), walked on the PRAM and on the real
 * machine with a sink that adds every span of every thread to its row:
 * a WORK span shared among its action's parts in proportion (so the
 * real machine's compute slowdown, which is the same for the whole
 * action, is in every part), any other span to the row of the action's
 * context (the loop or function body the event is in) or of its event
 * site, idle time to a row of its own.  The spans of each thread cover
 * [0, its end) once, and [end, T) is idle: the check at the end holds
 * the rows to the traversal's own totals.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "breakdown.h"
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pp_trcat_name(pp_trcat c)
{
    static const char *const n[] = {"computation", "communication", "sync", "wait", "idle"};
    return (unsigned)c < PP_TR_NCAT ? n[c] : "?";
}

const char *pp_by_name(pp_by by)
{
    return by == PP_BY_LOOP ? "loop" : by == PP_BY_FUNCTION ? "function" : "event";
}

static const char *base_name(const char *file)
{
    if (!file)
        return "?";
    const char *s = strrchr(file, '/');
    return s ? s + 1 : file;
}

/* ---- regions ------------------------------------------------------------ */

static int add_spec(pp_region *r, int f, int loop)
{
    if (r->n >= (int)(sizeof r->func / sizeof *r->func))
        return -1;
    r->func[r->n] = f;
    r->loop[r->n++] = loop;
    return 0;
}

int pp_region_parse(const pp_prog *m, const char *spec, pp_region *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", spec);
    const char *colon = strrchr(spec, ':');
    char *end = NULL;
    long line = colon && colon[1] ? strtol(colon + 1, &end, 10) : 0;
    if (colon && end && !*end && line > 0 && colon > spec) {
        /* FILE:LINE: the loops at that line whose parent is not there too */
        size_t fl = (size_t)(colon - spec);
        char file[256];
        snprintf(file, sizeof file, "%.*s", (int)(fl < 255 ? fl : 255), spec);
        int nfile = 0;
        for (int f = 0; f < m->nfuncs; f++) {
            const pp_dfunc *d = m->funcs[f].d;
            if (!d->file || (strcmp(d->file, file) && strcmp(base_name(d->file), base_name(file))))
                continue;
            nfile++;
            for (int k = 0; k < d->nloops; k++) {
                if (d->loops[k].line != line)
                    continue;
                const pp_dloop *p = d->loops[k].parent >= 0 ? pp_desc_loop(d, d->loops[k].parent) : NULL;
                if (p && p->line == line)
                    continue;
                if (add_spec(r, f, k))
                    break;
            }
        }
        for (int f = 0; r->n == 0 && f < m->nfuncs; f++) {
            const pp_dfunc *d = m->funcs[f].d;
            if (d->file && (!strcmp(d->file, file) || !strcmp(base_name(d->file), base_name(file))) &&
                d->line == line)
                add_spec(r, f, -1);
        }
        if (r->n == 0) {
            if (!nfile)
                snprintf(err, errlen, "--region %s: no instrumented function is in a file '%s'", spec, file);
            else
                snprintf(err, errlen, "--region %s: no loop and no function starts at line %ld of %s ('perfpred "
                         "show' lists the loops and their lines)", spec, line, file);
            return -1;
        }
    } else {
        /* a function, or FUNC:Lk */
        for (int f = 0; f < m->nfuncs; f++) {
            const pp_dfunc *d = m->funcs[f].d;
            size_t nl = strlen(d->name);
            if (!strcmp(d->name, spec)) {
                add_spec(r, f, -1);
                break;
            }
            if (!strncmp(spec, d->name, nl) && spec[nl] == ':' && spec[nl + 1] == 'L') {
                char *e;
                long id = strtol(spec + nl + 2, &e, 10);
                for (int k = 0; !*e && k < d->nloops; k++)
                    if (d->loops[k].id == id) {
                        add_spec(r, f, k);
                        break;
                    }
                if (r->n)
                    break;
            }
        }
        if (r->n == 0) {
            snprintf(err, errlen, "--region %s: no function and no loop of that name (a function as 'main', a loop "
                     "as 'main:L2', as 'perfpred show' names them, or FILE:LINE)", spec);
            return -1;
        }
    }
    size_t len = 0;
    for (int i = 0; i < r->n && len < sizeof r->what; i++) {
        const pp_dfunc *d = m->funcs[r->func[i]].d;
        if (r->loop[i] >= 0)
            len += (size_t)snprintf(r->what + len, sizeof r->what - len, "%sloop %s:L%d (%s:%d)", i ? ", " : "",
                                    d->name, d->loops[r->loop[i]].id, base_name(d->file), d->loops[r->loop[i]].line);
        else
            len += (size_t)snprintf(r->what + len, sizeof r->what - len, "%sfunction %s (%s:%d)", i ? ", " : "",
                                    d->name, base_name(d->file), d->line);
    }
    return 0;
}

/* ---- threads -------------------------------------------------------------- */

void pp_thread_name(const pp_prog *m, const pp_instance *in, int t, char *buf, size_t n)
{
    const pp_ithread *th = &in->threads[t];
    switch (th->kind) {
    case PP_IT_MAIN:
        snprintf(buf, n, "main");
        return;
    case PP_IT_RANK:
        snprintf(buf, n, "rank %d", th->tid);
        return;
    case PP_IT_PTHREAD:
        snprintf(buf, n, "pthread %d (%s)", th->tid,
                 th->start_func >= 0 && th->start_func < m->nfuncs ? m->funcs[th->start_func].d->name : "?");
        return;
    case PP_IT_OMP: {
        char parent[160] = "?";
        if (th->parent >= 0 && th->parent < t && n > 20)
            pp_thread_name(m, in, th->parent, parent, sizeof parent < n ? sizeof parent : n);
        snprintf(buf, n, "omp thread %d of %s", th->tid, parent);
        return;
    }
    }
    snprintf(buf, n, "thread %d", t);
}

/* ---- rows ----------------------------------------------------------------- */

typedef struct {
    int *row_of_node;         /* by loop / function: the row of a context */
    unsigned char *in_region; /* per context */
    int **ev_row;             /* by event: [func][event id] */
    int *nev;
    int work_row, idle_row;   /* by event: all computation; idle (-1: none) */
} bd_map;

static int new_row(pp_breakdown *b, int *cap)
{
    if (b->nrows == *cap) {
        int nc = *cap ? *cap * 2 : 32;
        pp_bd_row *r = realloc(b->rows, sizeof *r * (size_t)nc);
        if (!r)
            return -1;
        b->rows = r;
        *cap = nc;
    }
    memset(&b->rows[b->nrows], 0, sizeof b->rows[b->nrows]);
    b->rows[b->nrows].func = -1;
    return b->nrows++;
}

static int in_region(const pp_instance *in, const pp_region *r, int node)
{
    for (int k = node; k > 0; k = in->ctx[k].parent)
        for (int i = 0; i < r->n; i++)
            if (in->ctx[k].func == r->func[i] && in->ctx[k].loop == r->loop[i])
                return 1;
    return 0;
}

static int build_map(pp_breakdown *b, const pp_prog *m, const pp_instance *in, bd_map *mp)
{
    int cap = 0;
    memset(mp, 0, sizeof *mp);
    mp->work_row = mp->idle_row = -1;
    mp->row_of_node = malloc(sizeof *mp->row_of_node * (size_t)(in->nctx + 1));
    mp->in_region = malloc((size_t)in->nctx + 1);
    if (!mp->row_of_node || !mp->in_region)
        return -1;
    for (int k = 0; k < in->nctx; k++)
        mp->in_region[k] = !b->has_region || in_region(in, &b->region, k);
    /* by loop / function: a row per (function, loop) or function reached */
    int *seen = NULL;
    int nseen = 0;
    for (int f = 0; f < m->nfuncs; f++)
        nseen += m->funcs[f].d->nloops + 1;
    seen = malloc(sizeof *seen * (size_t)(nseen + 1));
    int *base = malloc(sizeof *base * (size_t)(m->nfuncs + 1));
    if (!seen || !base) {
        free(seen);
        free(base);
        return -1;
    }
    for (int f = 0, o = 0; f < m->nfuncs; f++) {
        base[f] = o;
        o += m->funcs[f].d->nloops + 1;
    }
    for (int i = 0; i < nseen; i++)
        seen[i] = -1;
    int rc = 0;
    for (int k = 0; k < in->nctx && rc == 0; k++) {
        const pp_ctxnode *n = &in->ctx[k];
        mp->row_of_node[k] = -1;
        if (n->func < 0 || b->by == PP_BY_EVENT || !mp->in_region[k])
            continue;
        int slot = base[n->func] + (b->by == PP_BY_LOOP ? n->loop + 1 : 0);
        if (seen[slot] < 0) {
            int r = new_row(b, &cap);
            if (r < 0) {
                rc = -1;
                break;
            }
            seen[slot] = r;
            const pp_dfunc *d = m->funcs[n->func].d;
            pp_bd_row *row = &b->rows[r];
            row->func = n->func;
            snprintf(row->function, sizeof row->function, "%s", d->name);
            row->file = d->file;
            if (b->by == PP_BY_LOOP && n->loop >= 0) {
                snprintf(row->name, sizeof row->name, "%s:L%d", d->name, d->loops[n->loop].id);
                snprintf(row->kind, sizeof row->kind, "loop");
                row->line = d->loops[n->loop].line;
            } else {
                snprintf(row->name, sizeof row->name, "%s", d->name);
                snprintf(row->kind, sizeof row->kind, b->by == PP_BY_LOOP ? "body" : "function");
                row->line = d->line;
            }
            snprintf(row->where, sizeof row->where, "%s:%d", base_name(d->file), row->line);
        }
        mp->row_of_node[k] = seen[slot];
    }
    free(seen);
    free(base);
    if (rc)
        return -1;
    if (b->by == PP_BY_EVENT) {
        mp->ev_row = calloc((size_t)m->nfuncs + 1, sizeof *mp->ev_row);
        mp->nev = calloc((size_t)m->nfuncs + 1, sizeof *mp->nev);
        if (!mp->ev_row || !mp->nev)
            return -1;
        for (int f = 0; f < m->nfuncs; f++) {
            int mx = -1;
            for (int i = 0; i < m->funcs[f].d->nevents; i++)
                if (m->funcs[f].d->events[i].id > mx)
                    mx = m->funcs[f].d->events[i].id;
            mp->nev[f] = mx + 1;
            mp->ev_row[f] = malloc(sizeof **mp->ev_row * (size_t)(mx + 2));
            if (!mp->ev_row[f])
                return -1;
            for (int i = 0; i <= mx; i++)
                mp->ev_row[f][i] = -1;
        }
        /* the sites the instance holds, in the order first met */
        for (int t = 0; t < in->nthreads; t++)
            for (int i = 0; i < in->threads[t].nact; i++) {
                const pp_action *a = &in->threads[t].act[i];
                if (a->kind == PP_A_WORK || a->func < 0 || a->func >= m->nfuncs || a->site < 0 ||
                    a->site >= mp->nev[a->func] || mp->ev_row[a->func][a->site] >= 0)
                    continue;
                if (b->has_region && !mp->in_region[in->act_ctx[t][i]])
                    continue;
                int r = new_row(b, &cap);
                if (r < 0)
                    return -1;
                mp->ev_row[a->func][a->site] = r;
                const pp_dfunc *d = m->funcs[a->func].d;
                const pp_devent *ev = pp_desc_event(d, a->site);
                pp_bd_row *row = &b->rows[r];
                row->func = a->func;
                snprintf(row->function, sizeof row->function, "%s", d->name);
                row->file = d->file;
                row->line = ev ? ev->line : d->line;
                snprintf(row->name, sizeof row->name, "%s:E%d", d->name, a->site);
                snprintf(row->kind, sizeof row->kind, "%s", ev ? pp_evkind_name(ev->kind) : "event");
                snprintf(row->where, sizeof row->where, "%s:%d", base_name(d->file), row->line);
            }
        if ((mp->work_row = new_row(b, &cap)) < 0)
            return -1;
        snprintf(b->rows[mp->work_row].name, sizeof b->rows[mp->work_row].name, "(computation)");
        snprintf(b->rows[mp->work_row].kind, sizeof b->rows[mp->work_row].kind, "work");
    }
    if (!b->has_region) {
        if ((mp->idle_row = new_row(b, &cap)) < 0)
            return -1;
        snprintf(b->rows[mp->idle_row].name, sizeof b->rows[mp->idle_row].name, "(idle)");
        snprintf(b->rows[mp->idle_row].kind, sizeof b->rows[mp->idle_row].kind, "idle");
    }
    return 0;
}

static void free_map(const pp_prog *m, bd_map *mp)
{
    free(mp->row_of_node);
    free(mp->in_region);
    for (int f = 0; mp->ev_row && f < m->nfuncs; f++)
        free(mp->ev_row[f]);
    free(mp->ev_row);
    free(mp->nev);
}

/* ---- the sink --------------------------------------------------------------- */

typedef struct {
    pp_trav_sink base;
    const pp_instance *in;
    const bd_map *mp;
    pp_breakdown *b;
    double *v, *all;          /* b->v[mach], b->all[mach] */
    double *mpi;              /* per thread: spans of MPI actions */
} bd_sink;

static inline void add(bd_sink *s, int t, int row, pp_trcat cat, double ns)
{
    if (row >= 0)
        s->v[((size_t)t * (size_t)s->b->nrows + (size_t)row) * PP_TR_NCAT + cat] += ns;
}

static void bd_span(pp_trav_sink *base, int t, int act, pp_trcat cat, double t0, double t1)
{
    bd_sink *s = (bd_sink *)base;
    const pp_instance *in = s->in;
    const bd_map *mp = s->mp;
    double d = t1 - t0;
    s->all[(size_t)t * PP_TR_NCAT + cat] += d;
    const pp_action *a = &in->threads[t].act[act];
    if (cat == PP_TR_IDLE) {
        add(s, t, mp->idle_row, cat, d);
        return;
    }
    /* inside an MPI call: its communication and waiting; the segment's
     * fixed cost before it (sync, traverse.c) is not in the call */
    if (a->kind >= PP_A_SEND && a->kind <= PP_A_COLL && cat != PP_TR_SYNC)
        s->mpi[t] += d;
    if (cat == PP_TR_WORK && a->kind == PP_A_WORK && a->n > 0) {
        const pp_wpart *p = in->wparts[t] + a->key;
        double sum = 0;
        for (int i = 0; i < a->n; i++)
            sum += p[i].ns;
        if (sum != 0) {
            for (int i = 0; i < a->n; i++) {
                if (!mp->in_region[p[i].node])
                    continue;
                int row = s->b->by == PP_BY_EVENT ? mp->work_row : mp->row_of_node[p[i].node];
                add(s, t, row, cat, d * (p[i].ns / sum));
            }
            return;
        }
    }
    /* any other span: where its action was made */
    int node = in->act_ctx[t][act];
    if (!mp->in_region[node])
        return;
    int row;
    if (s->b->by != PP_BY_EVENT)
        row = mp->row_of_node[node];
    else if (a->kind == PP_A_WORK)
        row = mp->work_row;
    else
        row = a->func >= 0 && a->site >= 0 && a->site < mp->nev[a->func] ? mp->ev_row[a->func][a->site] : -1;
    add(s, t, row, cat, d);
}

/* ---- the run ---------------------------------------------------------------- */

typedef struct {
    pp_breakdown *b;
    const pp_machine *mach;
    int failed_check;
} bd_job;

static int near(double a, double b, double scale)
{
    return fabs(a - b) <= 1e-9 * scale + 1e-6;
}

/* The spans against the traversal's totals, for thread t. */
static int check(const pp_breakdown *b, int k, const pp_trav *tr, const double *mpi, int t, double tail,
                 char *err, size_t errlen)
{
    const double *al = b->all[k] + (size_t)t * PP_TR_NCAT;
    double T = tr->time, sum = 0;
    for (int c = 0; c < PP_TR_NCAT; c++)
        sum += al[c];
    const char *what = NULL;
    double x = 0, y = 0;
    if (!near(al[PP_TR_WORK], tr->busy[t], T))
        what = "computation", x = al[PP_TR_WORK], y = tr->busy[t];
    else if (!near(al[PP_TR_SYNC] + al[PP_TR_COMM], tr->sync[t], T))
        what = "synchronisation and communication", x = al[PP_TR_SYNC] + al[PP_TR_COMM], y = tr->sync[t];
    else if (!near(al[PP_TR_WAIT] + al[PP_TR_IDLE] - tail, tr->wait[t], T))
        what = "waiting", x = al[PP_TR_WAIT] + al[PP_TR_IDLE] - tail, y = tr->wait[t];
    else if (!near(mpi[t], tr->mpi[t], T))
        what = "time in MPI calls", x = mpi[t], y = tr->mpi[t];
    else if (!near(sum, T, T))
        what = "all the time", x = sum, y = T;
    if (!what)
        return 0;
    snprintf(err, errlen, "internal error: the breakdown of thread %d on the %s does not add up to the traversal's "
             "totals (%s: %.9g ns against %.9g ns)", t, k == PP_BD_REAL ? "real machine" : "PRAM", what, x, y);
    return -1;
}

static int run_instance(void *u, const pp_prog *m, const pp_instance *in, char *err, size_t errlen)
{
    bd_job *j = u;
    pp_breakdown *b = j->b;
    bd_map mp;
    int rc = build_map(b, m, in, &mp);
    b->nthreads = in->nthreads;
    b->approx = in->approx;
    b->ranks = in->nthreads > 0;
    for (int t = 0; t < in->nthreads; t++)
        b->ranks &= in->threads[t].kind == PP_IT_RANK;
    size_t nv = (size_t)in->nthreads * (size_t)(b->nrows ? b->nrows : 1) * PP_TR_NCAT;
    bd_sink sk[PP_BD_NMACH];
    pp_trav tr[PP_BD_NMACH];
    memset(tr, 0, sizeof tr);
    memset(sk, 0, sizeof sk);
    b->thread_name = calloc((size_t)in->nthreads + 1, sizeof *b->thread_name);
    if (rc || !b->thread_name)
        rc = -1;
    for (int t = 0; rc == 0 && t < in->nthreads; t++) {
        char nb[200];
        pp_thread_name(m, in, t, nb, sizeof nb);
        if (!(b->thread_name[t] = strdup(nb)))
            rc = -1;
    }
    for (int k = 0; rc == 0 && k < PP_BD_NMACH; k++) {
        b->v[k] = calloc(nv, sizeof *b->v[k]);
        b->all[k] = calloc((size_t)in->nthreads * PP_TR_NCAT + 1, sizeof *b->all[k]);
        sk[k] = (bd_sink){{bd_span, NULL}, in, &mp, b, b->v[k], b->all[k],
                          calloc((size_t)in->nthreads + 1, sizeof *sk[k].mpi)};
        if (!b->v[k] || !b->all[k] || !sk[k].mpi)
            rc = -1;
    }
    if (rc) {
        snprintf(err, errlen, "out of memory");
        for (int k = 0; k < PP_BD_NMACH; k++)
            free(sk[k].mpi);
        free_map(m, &mp);
        return -1;
    }
    int r[PP_BD_NMACH] = {0, 0};
    char *err2 = malloc(errlen ? errlen : 1);
    if (!err2) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
#pragma omp parallel sections num_threads(2)
        {
#pragma omp section
            r[PP_BD_PRAM] = pp_traverse_sink(m, in, NULL, &tr[PP_BD_PRAM], &sk[PP_BD_PRAM].base, err, errlen);
#pragma omp section
            r[PP_BD_REAL] = pp_traverse_sink(m, in, j->mach, &tr[PP_BD_REAL], &sk[PP_BD_REAL].base, err2, errlen);
        }
        if (r[PP_BD_PRAM])
            rc = -1;
        else if (r[PP_BD_REAL]) {
            memcpy(err, err2, errlen);
            rc = -1;
        }
        free(err2);
    }
    for (int k = 0; rc == 0 && k < PP_BD_NMACH; k++) {
        b->time[k] = tr[k].time;
        for (int t = 0; t < in->nthreads && rc == 0; t++) {
            double tail = tr[k].time - tr[k].finish[t];
            if (tail < 0)
                tail = 0;
            b->all[k][(size_t)t * PP_TR_NCAT + PP_TR_IDLE] += tail;
            if (mp.idle_row >= 0)
                b->v[k][((size_t)t * (size_t)b->nrows + (size_t)mp.idle_row) * PP_TR_NCAT + PP_TR_IDLE] += tail;
            if (check(b, k, &tr[k], sk[k].mpi, t, tail, err, errlen)) {
                rc = -1;
                j->failed_check = 1;
            }
            /* without a region, the rows hold every span */
            for (int c = 0; c < PP_TR_NCAT && rc == 0 && !b->has_region; c++) {
                double s = 0;
                for (int row = 0; row < b->nrows; row++)
                    s += b->v[k][((size_t)t * (size_t)b->nrows + (size_t)row) * PP_TR_NCAT + c];
                if (!near(s, b->all[k][(size_t)t * PP_TR_NCAT + c], tr[k].time)) {
                    snprintf(err, errlen, "internal error: thread %d's %s on the %s is not all in the sites "
                             "(%.9g ns of %.9g ns)", t, pp_trcat_name((pp_trcat)c),
                             k == PP_BD_REAL ? "real machine" : "PRAM", s, b->all[k][(size_t)t * PP_TR_NCAT + c]);
                    rc = -1;
                    j->failed_check = 1;
                }
            }
        }
    }
    for (int k = 0; k < PP_BD_NMACH; k++) {
        if (r[k] == 0)
            pp_trav_free(&tr[k]);
        free(sk[k].mpi);
    }
    free_map(m, &mp);
    return rc;
}

int pp_breakdown_run(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, pp_by by,
                     const pp_region *region, pp_breakdown *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->by = by;
    out->P = P;
    if (region) {
        out->has_region = 1;
        out->region = *region;
    }
    bd_job j = {out, mach, 0};
    int rc = pp_with_instance(m, pv, mach, P, PP_INST_ACTIONS | PP_INST_SITES, run_instance, &j, err, errlen);
    if (rc) {
        pp_breakdown_free(out);
        return j.failed_check ? -2 : -1;
    }
    return 0;
}

void pp_breakdown_free(pp_breakdown *b)
{
    for (int t = 0; b->thread_name && t < b->nthreads; t++)
        free(b->thread_name[t]);
    free(b->thread_name);
    free(b->rows);
    for (int k = 0; k < PP_BD_NMACH; k++) {
        free(b->v[k]);
        free(b->all[k]);
    }
    memset(b, 0, sizeof *b);
}
