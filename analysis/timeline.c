/* timeline.c - the predicted timeline (see timeline.h).
 *
 * The traversal's sink (traverse.h) gives every span of every thread; a
 * WORK span is cut into one slice per part of its action (inst-sites.c),
 * in the order the parts were first met, each as long as its share of
 * the computation (the order inside one WORK action is the model's, not
 * necessarily the program's: the instance merges all the computation
 * between two events).  Slices are "X" events with ts and dur in
 * microseconds (ts and ts + dur rounded to 0.1 ns, so that slices meet
 * exactly); a flow is a pair of "s" and "f" events with one id, each
 * at the start of the slice it leaves or reaches (with that slice's
 * category: Chrome's viewer binds a flow to the slice with the same ts
 * and cat, Perfetto to the slice that encloses ts, bp "e").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "timeline.h"
#include "breakdown.h"
#include "cli.h"
#include "longrun.h"
#include "metrics.h"
#include "traverse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    double t0, t1;
    int tid, cat;
    int node;             /* a WORK part's context, or -1 */
    int act;              /* the thread's action, or -1 (the idle end) */
} slice;

typedef struct {
    int kind, from, to;
    double t_from, t_to;
} flow;

typedef struct {
    pp_trav_sink base;
    const pp_instance *in;
    long max;             /* slices + 2 flows kept at most */
    long count;           /* events counted (kept or not) */
    slice *s;
    long ns, caps;
    flow *f;
    long nf, capf;
    int oom;
} tl_sink;

static int push_slice(tl_sink *k, slice x)
{
    k->count++;
    if (k->count > k->max || k->oom)
        return 0;
    if (k->ns == k->caps) {
        long nc = k->caps ? k->caps * 2 : 4096;
        slice *p = realloc(k->s, sizeof *p * (size_t)nc);
        if (!p) {
            k->oom = 1;
            return -1;
        }
        k->s = p;
        k->caps = nc;
    }
    k->s[k->ns++] = x;
    return 0;
}

static void tl_span(pp_trav_sink *base, int t, int act, pp_trcat cat, double t0, double t1)
{
    tl_sink *k = (tl_sink *)base;
    const pp_action *a = &k->in->threads[t].act[act];
    if (cat == PP_TR_WORK && a->kind == PP_A_WORK && a->n > 0) {
        const pp_wpart *p = k->in->wparts[t] + a->key;
        double sum = 0, cum = 0;
        for (int i = 0; i < a->n; i++)
            sum += p[i].ns;
        if (sum > 0) {
            double start = t0;
            for (int i = 0; i < a->n; i++) {
                cum += p[i].ns;
                double end = i + 1 == a->n ? t1 : t0 + (t1 - t0) * (cum / sum);
                if (end > start)
                    push_slice(k, (slice){start, end, t, cat, p[i].node, act});
                if (end > start)
                    start = end;
            }
            return;
        }
    }
    push_slice(k, (slice){t0, t1, t, cat, -1, act});
}

static void tl_flow(pp_trav_sink *base, pp_flkind kind, int from, double t_from, int to, double t_to)
{
    tl_sink *k = (tl_sink *)base;
    k->count += 2;
    if (k->count > k->max || k->oom)
        return;
    if (k->nf == k->capf) {
        long nc = k->capf ? k->capf * 2 : 1024;
        flow *p = realloc(k->f, sizeof *p * (size_t)nc);
        if (!p) {
            k->oom = 1;
            return;
        }
        k->f = p;
        k->capf = nc;
    }
    k->f[k->nf++] = (flow){(int)kind, from, to, t_from, t_to};
}

static int by_thread_time(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* ---- names ---------------------------------------------------------------- */

static const char *base_name(const char *file)
{
    const char *s = file ? strrchr(file, '/') : NULL;
    return s ? s + 1 : file ? file : "?";
}

static const char *action_what(const pp_prog *m, const pp_action *a, int cat)
{
    switch (a->kind) {
    case PP_A_FORK: return "fork";
    case PP_A_TEAM_WAIT:
    case PP_A_TEAM_DONE: return cat == PP_TR_WAIT ? "join" : "team start";
    case PP_A_JOIN_TEAM: return "join";
    case PP_A_CREATE: return "pthread_create";
    case PP_A_START: return "start";
    case PP_A_JOIN_THREAD: return "pthread_join";
    case PP_A_BARRIER: return "barrier";
    case PP_A_LOCK:
    case PP_A_UNLOCK: return "lock";
    case PP_A_WORK: return "work";
    default:
        break;
    }
    if (a->func >= 0 && a->func < m->nfuncs) {
        const pp_devent *ev = pp_desc_event(m->funcs[a->func].d, a->site);
        if (ev)
            return pp_evkind_name(ev->kind);
    }
    return "event";
}

/* "name", cat and args of a slice */
static void slice_json(FILE *f, const pp_prog *m, const pp_instance *in, const slice *x)
{
    char name[256], where[256] = "";
    if (x->node >= 0 && x->node < in->nctx && in->ctx[x->node].func >= 0) {
        const pp_ctxnode *n = &in->ctx[x->node];
        const pp_dfunc *d = m->funcs[n->func].d;
        if (n->loop >= 0) {
            snprintf(name, sizeof name, "%s:L%d", d->name, d->loops[n->loop].id);
            snprintf(where, sizeof where, "%s:%d", base_name(d->file), d->loops[n->loop].line);
        } else {
            snprintf(name, sizeof name, "%s", d->name);
            snprintf(where, sizeof where, "%s:%d", base_name(d->file), d->line);
        }
    } else if (x->cat == PP_TR_IDLE || x->act < 0) {
        snprintf(name, sizeof name, "idle");
    } else {
        const pp_action *a = &in->threads[x->tid].act[x->act];
        const char *what = action_what(m, a, x->cat);
        if (a->func >= 0 && a->func < m->nfuncs && a->site >= 0) {
            const pp_dfunc *d = m->funcs[a->func].d;
            const pp_devent *ev = pp_desc_event(d, a->site);
            snprintf(name, sizeof name, "%s %s:E%d", what, d->name, a->site);
            snprintf(where, sizeof where, "%s:%d", base_name(d->file), ev ? ev->line : d->line);
        } else
            snprintf(name, sizeof name, "%s", what);
    }
    fprintf(f, ",\"name\":");
    pp_json_str(f, name);
    fprintf(f, ",\"cat\":\"%s\"", pp_trcat_name((pp_trcat)x->cat));
    if (where[0]) {
        fprintf(f, ",\"args\":{\"where\":");
        pp_json_str(f, where);
        fputc('}', f);
    }
}

/* The slice of thread t at time `at`: (end = 0) the one that begins
 * there or holds it, else the next; (end = 1) the one that ends there or
 * holds it.  -1 when there is none. */
static long find_slice(const slice *s, const long *first, int t, double at, int end)
{
    long lo = first[t], hi = first[t + 1];
    /* the last slice with t0 < at (end) or t0 <= at (start) */
    long a = lo, b = hi;
    while (a < b) {
        long mid = a + (b - a) / 2;
        if (end ? s[mid].t0 < at : s[mid].t0 <= at)
            a = mid + 1;
        else
            b = mid;
    }
    long i = a - 1;
    if (i >= lo && (end ? s[i].t1 >= at : s[i].t1 > at))
        return i;
    /* none holds it: the next slice (a flow to a thread still idle) */
    return !end && a < hi ? a : -1;
}

/* A time in microseconds as written (4 decimals): a slice's ts and its
 * end are rounded, and its dur is their difference, so that the next
 * slice starts exactly where it ends (viewers nest overlapping slices). */
static double us(double ns)
{
    return round(ns * 10.0) / 1e4;
}

static void ts_us(FILE *f, const char *key, double ns)
{
    fprintf(f, ",\"%s\":%.4f", key, us(ns));
}

/* ---- the run -------------------------------------------------------------- */

typedef struct {
    const pp_machine *mach;
    const char *path, *title;
    long max;
    pp_timeline_info *info;
} tl_job;

static int write_trace(FILE *f, const pp_prog *m, const pp_instance *in, tl_sink *k, const pp_trav *tr,
                       const char *title, long *nflows)
{
    fprintf(f, "{\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":");
    pp_json_str(f, title);
    fprintf(f, "}}");
    for (int t = 0; t < in->nthreads; t++) {
        char nb[200];
        pp_thread_name(m, in, t, nb, sizeof nb);
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":", t);
        pp_json_str(f, nb);
        fprintf(f, "}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
                t, t);
    }
    for (long i = 0; i < k->ns; i++) {
        const slice *x = &k->s[i];
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d", x->tid);
        ts_us(f, "ts", x->t0);
        fprintf(f, ",\"dur\":%.4f", us(x->t1) - us(x->t0));
        slice_json(f, m, in, x);
        fputc('}', f);
    }
    long *first = malloc(sizeof *first * ((size_t)in->nthreads + 2));
    if (!first)
        return -1;
    for (int t = 0, i = 0; t <= in->nthreads; t++) {
        while (i < k->ns && k->s[i].tid < t)
            i++;
        first[t] = i;
    }
    static const char *const fname[] = {"message", "fork", "create", "collective"};
    long id = 0;
    for (long i = 0; i < k->nf; i++) {
        const flow *w = &k->f[i];
        /* a message leaves the send that starts at t_from and reaches the
         * receive that ends at t_to; a fork or create leaves the slice
         * that ends then (the fork's cost) and reaches the first slice of
         * the team member or the new thread */
        int msg = w->kind == PP_FL_MESSAGE || w->kind == PP_FL_COLLECTIVE;
        long a = find_slice(k->s, first, w->from, w->t_from, !msg);
        long b = find_slice(k->s, first, w->to, w->t_to, msg);
        if (a < 0 || b < 0)
            continue;
        id++;
        fprintf(f, ",\n{\"ph\":\"s\",\"pid\":1,\"tid\":%d,\"id\":%ld,\"name\":\"%s\",\"cat\":\"%s\",\"bp\":\"e\"",
                w->from, id, fname[w->kind], pp_trcat_name((pp_trcat)k->s[a].cat));
        ts_us(f, "ts", k->s[a].t0);
        fprintf(f, "},\n{\"ph\":\"f\",\"pid\":1,\"tid\":%d,\"id\":%ld,\"name\":\"%s\",\"cat\":\"%s\",\"bp\":\"e\"",
                w->to, id, fname[w->kind], pp_trcat_name((pp_trcat)k->s[b].cat));
        ts_us(f, "ts", k->s[b].t0);
        fputc('}', f);
    }
    free(first);
    *nflows = id;
    fprintf(f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_us\":%.4f,\"threads\":%d}}\n", us(tr->time),
            in->nthreads);
    return ferror(f) ? -1 : 0;
}

static int run_instance(void *u, const pp_prog *m, const pp_instance *in, char *err, size_t errlen)
{
    tl_job *j = u;
    tl_sink k;
    memset(&k, 0, sizeof k);
    k.base.span = tl_span;
    k.base.flow = tl_flow;
    k.in = in;
    /* metadata: the process, and a name and an order per thread */
    k.count = 1 + 2L * in->nthreads;
    k.max = j->max;
    pp_trav tr;
    if (pp_traverse_sink(m, in, j->mach, &tr, &k.base, err, errlen)) {
        free(k.s);
        free(k.f);
        return -1;
    }
    int rc = 0;
    /* the end of every thread that finished before T: idle */
    for (int t = 0; t < in->nthreads; t++)
        if (tr.finish[t] < tr.time && push_slice(&k, (slice){tr.finish[t], tr.time, t, PP_TR_IDLE, -1, -1}))
            break;
    if (k.oom) {
        snprintf(err, errlen, "out of memory (the timeline's %ld events)", k.count);
        rc = -1;
    } else if (k.count > j->max) {
        snprintf(err, errlen, "the timeline would have %ld events, more than --max-events %ld: choose a smaller P "
                 "or problem size, or raise --max-events (about 120 bytes an event)", k.count, j->max);
        rc = -1;
    }
    FILE *f = NULL;
    char *tmp = NULL;
    if (rc == 0) {
        qsort(k.s, (size_t)k.ns, sizeof *k.s, by_thread_time);
        if (!strcmp(j->path, "-"))
            f = stdout;
        else {
            size_t n = strlen(j->path) + 16;
            tmp = malloc(n);
            int fd = -1;
            if (tmp) {
                snprintf(tmp, n, "%s.tmp.XXXXXX", j->path);
                fd = mkstemp(tmp);
                if (fd >= 0)
                    pp_long_remove_on_stop(tmp);   /* Ctrl-C (longrun.h) */
            }
            if (fd >= 0) {
                (void)fchmod(fd, 0644);
                f = fdopen(fd, "w");
                if (!f)
                    close(fd);
            }
            if (!f) {
                snprintf(err, errlen, "%s: cannot write: %s", j->path, strerror(errno));
                if (tmp && fd >= 0)
                    unlink(tmp);
                pp_long_remove_on_stop(NULL);
                rc = -1;
            }
        }
    }
    long nflows = 0;
    if (rc == 0) {
        int w = write_trace(f, m, in, &k, &tr, j->title, &nflows);
        int saved = errno;
        if (f != stdout) {
            if (fclose(f) != 0 && w == 0) {
                w = -1;
                saved = errno;
            }
            if (w == 0 && rename(tmp, j->path) != 0) {
                w = -1;
                saved = errno;
            }
            if (w)
                unlink(tmp);
            pp_long_remove_on_stop(NULL);
        } else if (fflush(f) != 0)
            w = -1;
        if (w) {
            snprintf(err, errlen, "%s: cannot write: %s", j->path, strerror(saved));
            rc = -1;
        }
    }
    if (rc == 0 && j->info) {
        j->info->time = tr.time;
        j->info->nthreads = in->nthreads;
        j->info->slices = k.ns;
        j->info->flows = nflows;
        j->info->events = 1 + 2L * in->nthreads + k.ns + 2 * nflows;
    }
    free(tmp);
    free(k.s);
    free(k.f);
    pp_trav_free(&tr);
    return rc;
}

int pp_timeline_write(const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P, const pp_machine *cost_mach,
                      const char *path, long max_events, const char *title, pp_timeline_info *info, char *err,
                      size_t errlen)
{
    tl_job j = {mach, path, title, max_events > 0 ? max_events : PP_TIMELINE_MAX_EVENTS, info};
    return pp_with_instance(m, pv, cost_mach, P, PP_INST_ACTIONS | PP_INST_SITES, run_instance, &j, err, errlen);
}
