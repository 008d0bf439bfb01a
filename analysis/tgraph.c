/* tgraph.c - an instance's thread graph as a Graphviz graph (cgraph), and
 * its output as DOT (agwrite) or SVG (gvLayout "dot" + gvRender).
 *
 * Threads are clusters holding a chain of nodes (start, events, loops,
 * end); WORK actions are not drawn, their time sums onto the chain edge
 * that crosses them (attribute `ns`).  A loop holding events is walked
 * once (PP_INST_STRUCT) and drawn as an arc from its LOOP_CLOSE node back
 * to its LOOP_OPEN node labelled with its count.  Communication edges join
 * the threads: CREATE -> the child's start, the child's end -> JOIN_THREAD,
 * FORK -> each member's TEAM_WAIT, each TEAM_DONE -> JOIN_TEAM, BARRIER
 * actions through one oval per synchronisation point, LOCK/UNLOCK to one
 * box per lock object.
 *
 * The synchronisation point of a barrier action is (object, ordinal): the
 * n-th barrier on an object in one thread's walk meets the n-th barrier on
 * that object in every other thread's walk, as the arrivals at a barrier
 * do at run time.  Threads that wait at different source sites (GE's main
 * and workers) thus share one oval, which lists the sites.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "tgraph.h"
#include "net.h"
#include "resolve.h"

#include <graphviz/gvc.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cgraph's API takes char * for strings it only reads. */
static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

static void setf(void *obj, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void setf(void *obj, const char *name, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    set(obj, name, buf);
}

static Agnode_t *node(Agraph_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static Agnode_t *node(Agraph_t *g, const char *fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    return agnode(g, name, 1);
}

/* ---- labels -------------------------------------------------------------- */

static const pp_dfunc *func_desc(const pp_prog *m, int func)
{
    if (!m || func < 0 || func >= m->nfuncs || !m->funcs)
        return NULL;
    return m->funcs[func].d;
}

static const char *base_name(const char *path)
{
    if (!path)
        return "?";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "file.c:52" for an event site, "" when unknown. */
static const char *event_where(const pp_prog *m, int func, int site, char *buf, size_t n)
{
    const pp_dfunc *d = func_desc(m, func);
    const pp_devent *ev = d ? pp_desc_event(d, site) : NULL;
    if (!ev)
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%s:%d", base_name(d->file), ev->line);
    return buf;
}

static const char *loop_where(const pp_prog *m, int func, int site, char *buf, size_t n)
{
    const pp_dfunc *d = func_desc(m, func);
    const pp_dloop *l = d ? pp_desc_loop(d, site) : NULL;
    if (!l)
        snprintf(buf, n, "L%d", site);
    else
        snprintf(buf, n, "%s:%d", base_name(d->file), l->line);
    return buf;
}

/* "N - 1 (= 31)", or "31" when the count text is the number itself. */
static const char *count_text(const pp_prog *m, const pp_action *a, char *buf, size_t n)
{
    const pp_dfunc *d = func_desc(m, a->func);
    char *t = NULL;
    if (d && a->key >= 0 && a->key < d->nloops && m->funcs[a->func].loops)
        t = pp_loop_count_text(m, a->func, (int)a->key);
    char num[32];
    snprintf(num, sizeof num, "%d", a->n);
    if (t && strcmp(t, num) != 0)
        snprintf(buf, n, "%s (= %d)", t, a->n);
    else
        snprintf(buf, n, "%d", a->n);
    free(t);
    return buf;
}

static const char *thread_label(const pp_prog *m, const pp_instance *in, int t, char *buf, size_t n)
{
    const pp_ithread *th = &in->threads[t];
    const pp_dfunc *d = func_desc(m, th->start_func);
    char fn[160] = "";
    if (d && d->name)
        snprintf(fn, sizeof fn, "\n%s()", d->name);
    switch (th->kind) {
    case PP_IT_MAIN:
        snprintf(buf, n, "main");
        break;
    case PP_IT_PTHREAD:
        snprintf(buf, n, "thread %d (pthread, order %d)%s", t, th->tid, fn);
        break;
    case PP_IT_OMP:
        snprintf(buf, n, "omp %d (tid %d)", t, th->tid);
        break;
    case PP_IT_RANK:
        snprintf(buf, n, "rank %d", th->tid);
        break;
    }
    return buf;
}

static const char *thread_kind(pp_itkind k)
{
    return k == PP_IT_MAIN ? "main" : k == PP_IT_PTHREAD ? "pthread" : k == PP_IT_RANK ? "rank" : "omp";
}

/* ---- building ------------------------------------------------------------ */

typedef struct {
    long key;
    int ord;
    Agnode_t *n;
    int members, last_thread;
    char raw[1024];         /* source sites of its barrier actions       */
} oval;

typedef struct {
    const pp_prog *m;
    const pp_instance *in;
    Agraph_t *g;
    Agnode_t ***an;         /* [thread][action]: its node, NULL for WORK   */
    Agnode_t **start, **end;
    oval *ov;
    int nov;
    Agnode_t **lockbox;     /* [key] */
    int nlocks;
    char *err;
    size_t errlen;
} tg;

static int fail(tg *c, const char *msg)
{
    snprintf(c->err, c->errlen, "%s", msg);
    return -1;
}

static void declare_defaults(Agraph_t *g)
{
    agattr(g, AGRAPH, "fontname", "Helvetica");
    agattr(g, AGRAPH, "fontsize", "11");
    agattr(g, AGNODE, "shape", "box");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "9");
    agattr(g, AGNODE, "height", "0.3");
    agattr(g, AGEDGE, "fontname", "Helvetica");
    agattr(g, AGEDGE, "fontsize", "9");
}

static void style_event(Agnode_t *n, pp_akind k)
{
    const char *color = "lightgray";
    switch (k) {
    case PP_A_BARRIER: color = "lightpink"; break;
    case PP_A_LOCK: case PP_A_UNLOCK: color = "khaki"; break;
    case PP_A_COND_WAIT: case PP_A_COND_WAKE: case PP_A_SEM_WAIT: case PP_A_SEM_POST: color = "wheat"; break;
    case PP_A_FORK: case PP_A_JOIN_TEAM: case PP_A_TEAM_WAIT: case PP_A_TEAM_DONE: color = "lightblue"; break;
    case PP_A_CREATE: case PP_A_JOIN_THREAD: case PP_A_START: color = "palegreen"; break;
    case PP_A_SEND: case PP_A_SSEND: case PP_A_ISEND: case PP_A_RECV: case PP_A_IRECV: case PP_A_WAIT:
        color = "lightsalmon"; break;
    case PP_A_COLL: color = "plum"; break;
    default: break;
    }
    set(n, "style", "rounded,filled");
    set(n, "fillcolor", color);
}

/* The node of one action (not WORK). */
static Agnode_t *action_node(tg *c, Agraph_t *sub, int t, int i)
{
    const pp_action *a = &c->in->threads[t].act[i];
    char where[320], lab[1024], cnt[600];
    event_where(c->m, a->func, a->site, where, sizeof where);
    const char *nl = where[0] ? "\n" : "";
    Agnode_t *n = node(sub, "t%d_a%d", t, i);
    if (!n)
        return NULL;
    switch (a->kind) {
    case PP_A_FORK:
        snprintf(lab, sizeof lab, "fork team %d (%d threads)%s%s", a->key, a->n, nl, where);
        break;
    case PP_A_TEAM_WAIT:
        snprintf(lab, sizeof lab, "team %d: start%s%s", a->key, nl, where);
        break;
    case PP_A_TEAM_DONE:
        snprintf(lab, sizeof lab, "team %d: done", a->key);
        break;
    case PP_A_JOIN_TEAM:
        snprintf(lab, sizeof lab, "join team %d%s%s", a->key, nl, where);
        break;
    case PP_A_CREATE:
        snprintf(lab, sizeof lab, "create thread %d%s%s", a->key, nl, where);
        break;
    case PP_A_START: {
        const pp_dfunc *d = func_desc(c->m, c->in->threads[t].start_func);
        snprintf(lab, sizeof lab, "start%s%s%s", d && d->name ? " " : "", d && d->name ? d->name : "",
                 d && d->name ? "()" : "");
        break;
    }
    case PP_A_JOIN_THREAD:
        snprintf(lab, sizeof lab, "join thread %d%s%s", a->key, nl, where);
        break;
    case PP_A_BARRIER:
        snprintf(lab, sizeof lab, "barrier%s%s", nl, where);
        break;
    case PP_A_LOCK:
    case PP_A_UNLOCK:
        snprintf(lab, sizeof lab, "%s%s%s", a->kind == PP_A_LOCK ? "lock" : "unlock", nl, where);
        break;
    case PP_A_COND_WAIT:
    case PP_A_COND_WAKE:
    case PP_A_SEM_WAIT:
    case PP_A_SEM_POST:
        snprintf(lab, sizeof lab, "%s%s%s",
                 a->kind == PP_A_COND_WAIT ? "cond_wait"
                 : a->kind == PP_A_COND_WAKE ? (a->n ? "cond_signal" : "cond_broadcast")
                 : a->kind == PP_A_SEM_WAIT ? "sem_wait" : "sem_post", nl, where);
        break;
    case PP_A_LOOP_OPEN:
        loop_where(c->m, a->func, a->site, where, sizeof where);
        snprintf(lab, sizeof lab, "loop %s\n%s iterations", where, count_text(c->m, a, cnt, sizeof cnt));
        setf(n, "count", "%d", a->n);
        set(n, "style", "rounded");
        break;
    case PP_A_LOOP_CLOSE:
        loop_where(c->m, a->func, a->site, where, sizeof where);
        snprintf(lab, sizeof lab, "end loop %s", where);
        set(n, "shape", "plain");
        break;
    case PP_A_LOOP_WORK: {
        char tb[32];
        loop_where(c->m, a->func, a->site, where, sizeof where);
        snprintf(lab, sizeof lab, "loop %s\n%s iterations\n%s", where, count_text(c->m, a, cnt, sizeof cnt),
                 pp_fmt_time(a->ns, tb, sizeof tb));
        setf(n, "count", "%d", a->n);
        setf(n, "ns", "%.6g", a->ns);
        set(n, "style", "dashed");
        break;
    }
    case PP_A_SEND: case PP_A_SSEND: case PP_A_ISEND:
        snprintf(lab, sizeof lab, "%s to rank %d, tag %d\n%.0f bytes%s%s",
                 a->kind == PP_A_SEND ? "send" : a->kind == PP_A_SSEND ? "ssend" : "isend", a->key, a->n, a->ns,
                 nl, where);
        break;
    case PP_A_RECV: case PP_A_IRECV:
        if (a->key == PP_MPI_ANY)
            snprintf(lab, sizeof lab, "%s from any rank%s%s", a->kind == PP_A_RECV ? "recv" : "irecv", nl, where);
        else
            snprintf(lab, sizeof lab, "%s from rank %d, tag %d%s%s", a->kind == PP_A_RECV ? "recv" : "irecv",
                     a->key, a->n, nl, where);
        break;
    case PP_A_WAIT:
        snprintf(lab, sizeof lab, "wait (%s)%s%s", a->n < 0 ? "all" : a->n == 1 ? "1 request" : "requests", nl,
                 where);
        break;
    case PP_A_COLL:
        if (pp_coll_rooted((pp_coll)a->key))
            snprintf(lab, sizeof lab, "%s root %d\n%.0f bytes%s%s", pp_coll_name((pp_coll)a->key), a->n, a->ns,
                     nl, where);
        else
            snprintf(lab, sizeof lab, "%s\n%.0f bytes%s%s", pp_coll_name((pp_coll)a->key), a->ns, nl, where);
        break;
    case PP_A_WORK:
    case PP_A_PARK:    /* only in a walk's instance (PP_INST_CLASSES) */
        return NULL;
    }
    if (a->kind != PP_A_LOOP_OPEN && a->kind != PP_A_LOOP_CLOSE && a->kind != PP_A_LOOP_WORK)
        style_event(n, a->kind);
    set(n, "label", lab);
    return n;
}

static Agedge_t *edge(tg *c, Agnode_t *t, Agnode_t *h)
{
    return agedge(c->g, t, h, NULL, 1);
}

static void chain_edge(tg *c, Agnode_t *t, Agnode_t *h, double ns)
{
    Agedge_t *e = edge(c, t, h);
    if (!e)
        return;
    set(e, "weight", "100");
    set(e, "penwidth", "2");
    if (ns > 0) {
        char tb[32];
        setf(e, "ns", "%.6g", ns);
        set(e, "tooltip", pp_fmt_time(ns, tb, sizeof tb));
    }
}

/* One thread: its cluster and the chain of its actions, loop arcs. */
static int build_thread(tg *c, int t)
{
    const pp_ithread *th = &c->in->threads[t];
    char name[64], lab[512];
    snprintf(name, sizeof name, "cluster_t%d", t);
    Agraph_t *sub = agsubg(c->g, name, 1);
    if (!sub)
        return fail(c, "cannot create a cluster");
    set(sub, "label", thread_label(c->m, c->in, t, lab, sizeof lab));
    set(sub, "kind", thread_kind(th->kind));
    setf(sub, "thread", "%d", t);
    set(sub, "style", "rounded");
    c->an[t] = calloc((size_t)th->nact + 1, sizeof **c->an);
    int *stack = malloc(sizeof *stack * ((size_t)th->nact + 1));
    if (!c->an[t] || !stack) {
        free(stack);
        return fail(c, "out of memory");
    }
    int depth = 0, first = 0;
    Agnode_t *prev;
    if (th->nact > 0 && th->act[0].kind == PP_A_START) {
        prev = c->start[t] = c->an[t][0] = action_node(c, sub, t, 0);
        first = 1;
    } else {
        prev = c->start[t] = node(sub, "t%d_start", t);
        if (prev) {
            set(prev, "label", th->kind == PP_IT_MAIN || th->kind == PP_IT_RANK ? "start main()" : "pool thread");
            set(prev, "style", "rounded,filled");
            set(prev, "fillcolor", "gray90");
        }
    }
    if (!prev) {
        free(stack);
        return fail(c, "cannot create a node");
    }
    double ns = 0;
    for (int i = first; i < th->nact; i++) {
        const pp_action *a = &th->act[i];
        if (a->kind == PP_A_WORK) {
            ns += a->ns;
            continue;
        }
        Agnode_t *n = c->an[t][i] = action_node(c, sub, t, i);
        if (!n) {
            free(stack);
            return fail(c, "cannot create a node");
        }
        chain_edge(c, prev, n, ns);
        ns = 0;
        prev = n;
        if (a->kind == PP_A_LOOP_OPEN)
            stack[depth++] = i;
        else if (a->kind == PP_A_LOOP_CLOSE && depth > 0) {
            const pp_action *o = &th->act[stack[--depth]];
            char cnt[600];
            Agedge_t *e = edge(c, n, c->an[t][stack[depth]]);
            if (e) {
                set(e, "label", count_text(c->m, o, cnt, sizeof cnt));
                setf(e, "count", "%d", o->n);
                set(e, "constraint", "false");
                set(e, "color", "blue");
                set(e, "fontcolor", "blue");
                set(e, "style", "dashed");
                set(e, "tailport", "e");
                set(e, "headport", "e");
            }
        }
    }
    free(stack);
    Agnode_t *end = c->end[t] = node(sub, "t%d_end", t);
    if (!end)
        return fail(c, "cannot create a node");
    set(end, "label", "end");
    set(end, "style", "rounded,filled");
    set(end, "fillcolor", "gray90");
    chain_edge(c, prev, end, ns);
    return 0;
}

static void comm_style(Agedge_t *e, const char *color, const char *kind)
{
    if (!e)
        return;
    set(e, "color", color);
    set(e, "style", "dashed");
    set(e, "comm", kind);
}

/* The oval of barrier (key, ord), created on first use. */
static oval *barrier_oval(tg *c, long key, int ord)
{
    for (int i = 0; i < c->nov; i++)
        if (c->ov[i].key == key && c->ov[i].ord == ord)
            return &c->ov[i];
    oval *o = realloc(c->ov, sizeof *o * (size_t)(c->nov + 1));
    if (!o)
        return NULL;
    c->ov = o;
    o = &c->ov[c->nov];
    memset(o, 0, sizeof *o);
    o->key = key;
    o->ord = ord;
    o->last_thread = -1;
    o->n = node(c->g, "barrier_k%ld_%d", key, ord);
    if (!o->n)
        return NULL;
    c->nov++;
    return o;
}

/* Remember "file.c:52" once (raw is "|a.c:12|a.c:40|b.c:7|"). */
static void add_site(oval *o, const char *where)
{
    char probe[340];
    snprintf(probe, sizeof probe, "|%s|", where);
    if (!where[0] || strstr(o->raw, probe))
        return;
    size_t len = strlen(o->raw);
    snprintf(o->raw + len, sizeof o->raw - len, "%s%s|", len ? "" : "|", where);
}

/* "a.c:12, 40, b.c:7" from the raw list. */
static void format_sites(const char *raw, char *out, size_t n)
{
    char file[256] = "";
    size_t len = 0;
    out[0] = 0;
    for (const char *p = raw; *p == '|' && p[1];) {
        const char *q = strchr(p + 1, '|');
        if (!q)
            break;
        int wl = (int)(q - p - 1);
        const char *site = p + 1, *colon = memchr(site, ':', (size_t)wl);
        int fl = colon ? (int)(colon - site) : wl;
        int same = colon && (int)strlen(file) == fl && strncmp(file, site, (size_t)fl) == 0;
        if (len < n)
            len += (size_t)snprintf(out + len, n - len, "%s%.*s", len ? ", " : "", same ? wl - fl - 1 : wl,
                                    same ? colon + 1 : site);
        if (!same)
            snprintf(file, sizeof file, "%.*s", fl, site);
        p = q;
    }
}

static int barriers(tg *c)
{
    const pp_instance *in = c->in;
    int *ord = calloc((size_t)in->nkeys + 1, sizeof *ord);
    if (!ord)
        return fail(c, "out of memory");
    for (int t = 0; t < in->nthreads; t++) {
        memset(ord, 0, sizeof *ord * ((size_t)in->nkeys + 1));
        for (int i = 0; i < in->threads[t].nact; i++) {
            const pp_action *a = &in->threads[t].act[i];
            if (a->kind != PP_A_BARRIER || a->key < 0 || a->key >= in->nkeys)
                continue;
            oval *o = barrier_oval(c, a->key, ord[a->key]++);
            if (!o) {
                free(ord);
                return fail(c, "out of memory");
            }
            if (o->last_thread != t) {
                o->members++;
                o->last_thread = t;
            }
            char where[320];
            add_site(o, event_where(c->m, a->func, a->site, where, sizeof where));
            Agedge_t *e = edge(c, c->an[t][i], o->n);
            comm_style(e, "red", "barrier");
            if (e)
                set(e, "arrowhead", "none");
        }
    }
    free(ord);
    for (int i = 0; i < c->nov; i++) {
        oval *o = &c->ov[i];
        int parties = in->key_parties ? in->key_parties[o->key] : o->members;
        char rel[32] = "";
        if (parties == in->P + 1)
            snprintf(rel, sizeof rel, " (P+1)");
        else if (parties == in->P)
            snprintf(rel, sizeof rel, " (P)");
        char sites[512];
        format_sites(o->raw, sites, sizeof sites);
        setf(o->n, "label", "barrier '%s'\n%d parties%s%s%s", in->keys[o->key], parties, rel,
             sites[0] ? "\n" : "", sites);
        set(o->n, "shape", "ellipse");
        set(o->n, "style", "filled");
        set(o->n, "fillcolor", "mistyrose");
        set(o->n, "object", in->keys[o->key]);
        setf(o->n, "parties", "%d", parties);
        setf(o->n, "members", "%d", o->members);
        set(o->n, "sites", sites);
    }
    return 0;
}

static int locks(tg *c)
{
    const pp_instance *in = c->in;
    c->lockbox = calloc((size_t)in->nkeys + 1, sizeof *c->lockbox);
    if (!c->lockbox)
        return fail(c, "out of memory");
    for (int t = 0; t < in->nthreads; t++)
        for (int i = 0; i < in->threads[t].nact; i++) {
            const pp_action *a = &in->threads[t].act[i];
            if ((a->kind != PP_A_LOCK && a->kind != PP_A_UNLOCK) || a->key < 0 || a->key >= in->nkeys)
                continue;
            Agnode_t *b = c->lockbox[a->key];
            if (!b) {
                b = c->lockbox[a->key] = node(c->g, "lock_k%d", a->key);
                if (!b)
                    return fail(c, "cannot create a node");
                c->nlocks++;
                setf(b, "label", "lock '%s'", in->keys[a->key]);
                set(b, "shape", "box");
                set(b, "style", "filled");
                set(b, "fillcolor", "lightyellow");
                set(b, "object", in->keys[a->key]);
            }
            Agedge_t *e = a->kind == PP_A_LOCK ? edge(c, b, c->an[t][i]) : edge(c, c->an[t][i], b);
            comm_style(e, "darkgoldenrod", a->kind == PP_A_LOCK ? "lock" : "unlock");
            if (e) {
                set(e, "style", "dotted");
                set(e, "constraint", "false");
            }
        }
    return 0;
}

/* create/start, end/join, fork/team start, team done/join. */
static void threads_and_teams(tg *c)
{
    const pp_instance *in = c->in;
    for (int t = 0; t < in->nthreads; t++)
        for (int i = 0; i < in->threads[t].nact; i++) {
            const pp_action *a = &in->threads[t].act[i];
            Agnode_t *n = c->an[t][i];
            if (a->kind == PP_A_CREATE && a->key >= 0 && a->key < in->nthreads)
                comm_style(edge(c, n, c->start[a->key]), "darkgreen", "create");
            else if (a->kind == PP_A_JOIN_THREAD && a->key >= 0 && a->key < in->nthreads)
                comm_style(edge(c, c->end[a->key], n), "darkgreen", "join");
            else if (a->kind == PP_A_FORK || a->kind == PP_A_JOIN_TEAM) {
                int fork = a->kind == PP_A_FORK;
                for (int u = 0; u < in->nthreads; u++)
                    for (int j = 0; j < in->threads[u].nact; j++) {
                        const pp_action *b = &in->threads[u].act[j];
                        if (b->key != a->key || b->kind != (fork ? PP_A_TEAM_WAIT : PP_A_TEAM_DONE))
                            continue;
                        if (fork)
                            comm_style(edge(c, n, c->an[u][j]), "blue", "fork");
                        else
                            comm_style(edge(c, c->an[u][j], n), "blue", "join");
                    }
            }
        }
}

/* MPI: each receive joined to the send it matches (the first one not yet
 * matched from that source with that tag, as MPI orders them), and the
 * k-th collective of every rank to one oval. */
static int mpi_edges(tg *c)
{
    const pp_instance *in = c->in;
    int n = in->nthreads;
    int *used = NULL, nused = 0;
    int nc = in->ncomms > 0 ? in->ncomms : 1;
    /* [thread][communicator]: collectives so far */
    long *ncoll = calloc((size_t)n * (size_t)nc + 1, sizeof *ncoll);
    if (!ncoll)
        return fail(c, "out of memory");
    for (int t = 0; t < n; t++)
        for (int i = 0; i < in->threads[t].nact; i++) {
            const pp_action *a = &in->threads[t].act[i];
            if (a->kind == PP_A_COLL) {
                int cm = a->comm >= 0 && a->comm < nc ? a->comm : 0;
                long k = ncoll[(size_t)t * (size_t)nc + (size_t)cm]++;
                Agnode_t *o = cm ? node(c->g, "coll_c%d_%ld", cm, k) : node(c->g, "coll_%ld", k);
                if (!o) {
                    free(ncoll);
                    return fail(c, "cannot create a node");
                }
                if (cm)
                    setf(o, "label", "%s #%ld\n(communicator #%d)", pp_coll_name((pp_coll)a->key), k + 1, cm);
                else
                    setf(o, "label", "%s #%ld", pp_coll_name((pp_coll)a->key), k + 1);
                set(o, "shape", "ellipse");
                set(o, "style", "filled");
                set(o, "fillcolor", "thistle");
                Agedge_t *e = edge(c, c->an[t][i], o);
                comm_style(e, "purple", pp_coll_name((pp_coll)a->key));
                if (e)
                    set(e, "arrowhead", "none");
                continue;
            }
            if (a->kind != PP_A_RECV && a->kind != PP_A_IRECV)
                continue;
            int r = in->threads[t].kind == PP_IT_RANK ? in->threads[t].tid : -1;
            for (int u = 0; u < n && r >= 0; u++) {
                if (in->threads[u].kind != PP_IT_RANK || (a->key != PP_MPI_ANY && in->threads[u].tid != a->key))
                    continue;
                int found = 0;
                for (int j = 0; j < in->threads[u].nact && !found; j++) {
                    const pp_action *b = &in->threads[u].act[j];
                    if ((b->kind != PP_A_SEND && b->kind != PP_A_SSEND && b->kind != PP_A_ISEND) || b->key != r ||
                        b->comm != a->comm || !(a->n == PP_MPI_ANY || b->n == PP_MPI_ANY || a->n == b->n))
                        continue;
                    int id = u * 1000003 + j, dup = 0;
                    for (int q = 0; q < nused && !dup; q++)
                        dup = used[q] == id;
                    if (dup)
                        continue;
                    int *nu = realloc(used, sizeof *nu * (size_t)(nused + 1));
                    if (!nu) {
                        free(used);
                        free(ncoll);
                        return fail(c, "out of memory");
                    }
                    used = nu;
                    used[nused++] = id;
                    Agedge_t *e = edge(c, c->an[u][j], c->an[t][i]);
                    comm_style(e, "orangered", "message");
                    if (e)
                        setf(e, "label", "%.0f B", b->ns);
                    found = 1;
                }
                if (found)
                    break;
            }
        }
    free(used);
    free(ncoll);
    return 0;
}

static void tg_free(tg *c)
{
    if (c->an)
        for (int t = 0; t < c->in->nthreads; t++)
            free(c->an[t]);
    free(c->an);
    free(c->start);
    free(c->end);
    free(c->ov);
    free(c->lockbox);
}

Agraph_t *pp_tgraph_build(const pp_prog *m, const pp_instance *in, char *err, size_t errlen)
{
    tg c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.in = in;
    c.err = err;
    c.errlen = errlen;
    c.g = agopen((char *)"thread_graph", Agdirected, NULL);
    if (!c.g) {
        fail(&c, "cannot create a graph");
        return NULL;
    }
    declare_defaults(c.g);
    int nt = in->nthreads;
    c.an = calloc((size_t)nt + 1, sizeof *c.an);
    c.start = calloc((size_t)nt + 1, sizeof *c.start);
    c.end = calloc((size_t)nt + 1, sizeof *c.end);
    int rc = (!c.an || !c.start || !c.end) ? fail(&c, "out of memory") : 0;
    for (int t = 0; t < nt && rc == 0; t++)
        rc = build_thread(&c, t);
    if (rc == 0)
        threads_and_teams(&c);
    if (rc == 0)
        rc = barriers(&c);
    if (rc == 0)
        rc = locks(&c);
    if (rc == 0)
        rc = mpi_edges(&c);
    if (rc == 0) {
        setf(c.g, "threads", "%d", nt);
        setf(c.g, "barrier_sites", "%d", c.nov);
        setf(c.g, "locks", "%d", c.nlocks);
        setf(c.g, "P", "%d", in->P);
        setf(c.g, "label", "thread graph, P = %d", in->P);
        set(c.g, "labelloc", "t");
    }
    tg_free(&c);
    if (rc) {
        agclose(c.g);
        return NULL;
    }
    return c.g;
}

void pp_tgraph_free(Agraph_t *g)
{
    if (g)
        agclose(g);
}

/* ---- output -------------------------------------------------------------- */

int pp_tgraph_write(Agraph_t *g, pp_format fmt, const char *path, char *err, size_t errlen)
{
    int to_stdout = !path || !strcmp(path, "-");
    const char *shown = to_stdout ? "standard output" : path;
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (fmt == PP_FMT_SVG) {
        GVC_t *gvc = gvContext();
        if (!gvc || gvLayout(gvc, g, "dot") != 0) {
            snprintf(err, errlen, "%s: Graphviz could not lay out the graph", shown);
            rc = -1;
        } else {
            if (gvRender(gvc, g, "svg", f) != 0) {
                snprintf(err, errlen, "%s: Graphviz could not render SVG", shown);
                rc = -1;
            }
            gvFreeLayout(gvc, g);
        }
        if (gvc)
            gvFreeContext(gvc);
    } else if (agwrite(g, f) == EOF) {
        snprintf(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
        rc = -1;
    }
    int bad = ferror(f);
    if (to_stdout)
        bad |= fflush(f) != 0;
    else
        bad |= fclose(f) != 0;
    if (bad && rc == 0) {
        snprintf(err, errlen, "%s: cannot write: %s", shown, errno ? strerror(errno) : "I/O error");
        rc = -1;
    }
    return rc;
}
