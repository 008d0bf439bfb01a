/* rt-write.c - the record writer (docs/record-format.md), run once at exit.
 *
 * Order of work: close every thread still open (the caller first, then the
 * others: OpenMP pool threads are parked in libgomp, main is us), give the
 * threads their record ids, collect the functions, then print.  Nothing
 * here may take the program down: any failure ends in one message on
 * stderr and the program's exit status is left alone.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt-fmt.h"
#include "rt-internal.h"

extern char *program_invocation_short_name;

/* ------------------------------------------------------------ threads */

/* A thread may be in the middle of closing itself (its key destructor runs
 * concurrently with exit): give it a moment to finish. */
static void wait_closed(struct pp_thread *t)
{
    for (int i = 0; i < 1000 && !atomic_load_explicit(&t->closed, memory_order_acquire); i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

static int thread_cmp(const void *a, const void *b)
{
    const struct pp_thread *x = *(struct pp_thread *const *)a, *y = *(struct pp_thread *const *)b;
    int mx = x->kind == PP_TK_MAIN, my = y->kind == PP_TK_MAIN;
    if (mx != my)
        return my - mx;
    if (x->key1 != y->key1)
        return x->key1 < y->key1 ? -1 : 1;
    if (x->key2 != y->key2)
        return x->key2 < y->key2 ? -1 : 1;
    return 0;
}

static void writer_close(struct pp_thread *t, uint64_t now);

/* Closed, live (not failed) threads sorted into record order, rid set.
 * Threads that did not close themselves (the caller, main blocked in a
 * join while another thread calls exit, parked OpenMP pool threads, every
 * thread in the writer forked by a fatal signal) are closed here. */
static struct pp_thread **collect_threads(uint64_t now, size_t *n)
{
    size_t all_n;
    struct pp_thread **all = pp_threads_all(&all_n);
    if (!all)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < all_n; i++) {
        struct pp_thread *t = all[i];
        if (t->failed)
            continue;
        if (pp_sig_child) {
            /* no other thread runs here: nobody will finish a close */
            if (!atomic_load_explicit(&t->closed, memory_order_acquire))
                writer_close(t, now);
        } else if (!atomic_exchange_explicit(&t->closing, 1, memory_order_acq_rel)) {
            writer_close(t, now);
        } else {
            wait_closed(t);     /* closing itself (key destructor) */
        }
        all[k++] = t;
    }
    qsort(all, k, sizeof *all, thread_cmp);
    for (size_t i = 0; i < k; i++)
        all[i]->rid = (uint32_t)i;
    *n = k;
    return all;
}

/* ------------------------------------------------------------ events */

struct ev_iter {
    const struct pp_thread *t;
    struct pp_chunk *c;
    size_t off, used;
};

/* The committed bytes of chunk c: for a thread the writer froze, nothing
 * past what was committed when it was frozen. */
static size_t ev_used(const struct ev_iter *it)
{
    if (!it->c)
        return 0;
    if (it->t->w_frozen && it->c == it->t->w_chunk)
        return it->t->w_used;
    return atomic_load_explicit(&it->c->used, memory_order_acquire);
}

static void ev_iter_init(struct ev_iter *it, const struct pp_thread *t)
{
    it->t = t;
    it->c = atomic_load_explicit(&((struct pp_thread *)t)->chunks, memory_order_acquire);
    if (t->w_frozen && !t->w_chunk)
        it->c = NULL;
    it->off = 0;
    it->used = ev_used(it);
}

static const struct pp_ev *ev_next(struct ev_iter *it)
{
    while (it->c && it->off >= it->used) {
        if (it->t->w_frozen && it->c == it->t->w_chunk)
            it->c = NULL;
        else
            it->c = atomic_load_explicit(&it->c->next, memory_order_acquire);
        it->off = 0;
        it->used = ev_used(it);
    }
    if (!it->c)
        return NULL;
    const struct pp_ev *e = (const struct pp_ev *)(const void *)(it->c->data + it->off);
    it->off += sizeof *e + e->ndelta * sizeof(struct pp_delta);
    return e;
}

/* The thread's blocks in index order, with the record index of each. */
static struct pp_block **thread_blocks(const struct pp_thread *t, size_t *n)
{
    size_t k = 0;
    for (struct pp_block *b = atomic_load_explicit(&((struct pp_thread *)t)->blocks,
                                                   memory_order_acquire);
         b; b = atomic_load_explicit(&b->next, memory_order_acquire))
        k++;
    struct pp_block **v = malloc((k ? k : 1) * sizeof *v);
    if (!v) {
        *n = 0;
        return NULL;
    }
    k = 0;
    for (struct pp_block *b = atomic_load_explicit(&((struct pp_thread *)t)->blocks,
                                                   memory_order_acquire);
         b; b = atomic_load_explicit(&b->next, memory_order_acquire))
        v[k++] = b;
    *n = k;
    return v;
}

/* Close a thread that did not close itself and may have stopped anywhere:
 * inside an event (a join, a barrier: its shadows advanced for an event
 * that will never be committed), in the writer forked by a fatal signal
 * also inside pp_ev_begin or inside its own close (tail half made), or
 * with an event published open by a chunk change (t1 not set).  The shadows
 * are rebuilt from the committed events, so that the tail then takes every
 * increment the counters hold and counts = the deltas' sums + tail; open
 * events end at `now`.  Deltas that do not name a block or slot of the
 * thread (a half-written event) are skipped, not followed.  A thread still
 * running at exit (docs/runtime.md, "Thread safety") races with this: its
 * last segment may be read half-updated, never followed into freed memory.
 * The caller holds t->closing. */
static void writer_close(struct pp_thread *t, uint64_t now)
{
    /* freeze: the events committed up to now, the start as it is now */
    t->w_start = t->start;
    struct pp_chunk *c = atomic_load_explicit(&t->chunks, memory_order_acquire), *nx;
    while (c && (nx = atomic_load_explicit(&c->next, memory_order_acquire)))
        c = nx;
    t->w_chunk = c;
    t->w_used = c ? atomic_load_explicit(&c->used, memory_order_acquire) : 0;
    t->w_frozen = 1;
    if (!pp_sig_child)
        now = pp_now();     /* after every event frozen in */
    size_t nb;
    struct pp_block **b = thread_blocks(t, &nb);
    for (size_t j = 0; j < nb; j++)
        memset(b[j]->shadow, 0, b[j]->nslots * sizeof *b[j]->shadow);
    uint64_t cend = t->sig_cpu > t->cstart ? t->sig_cpu : t->cstart;
    struct ev_iter it;
    ev_iter_init(&it, t);
    for (const struct pp_ev *ce; (ce = ev_next(&it));) {
        struct pp_ev *e = (struct pp_ev *)ce;
        const struct pp_delta *d = (const struct pp_delta *)(e + 1);
        for (uint32_t i = 0; i < e->ndelta; i++)
            if (d[i].block < nb && b[d[i].block]->idx == d[i].block && d[i].slot < b[d[i].block]->nslots)
                b[d[i].block]->shadow[d[i].slot] += d[i].inc;
        if (e->t1 < e->t0)
            e->t1 = now;
        if (e->c1 > cend)
            cend = e->c1;
    }
    free(b);
    size_t cap = t->total_slots;
    t->tail = cap ? malloc(cap * sizeof *t->tail) : NULL;
    t->ntail = t->tail ? pp_snapshot(t, t->tail, cap) : 0;
    t->end = now;
    if (!pp_sig_child) {
        /* the thread's own clock (it is alive, or it is us) */
        uint64_t c = pp_cpu_now(t);
        if (c > cend)
            cend = c;
    }
    t->cend = cend;
    if (t->has_cpuclock) {
        /* the open events' c1, like their t1 */
        ev_iter_init(&it, t);
        for (const struct pp_ev *ce; (ce = ev_next(&it));)
            if (ce->c1 < ce->c0)
                ((struct pp_ev *)ce)->c1 = cend;
    }
    atomic_store_explicit(&t->closing, 1, memory_order_relaxed);
    atomic_store_explicit(&t->closed, 1, memory_order_release);
}

/* ------------------------------------------------------------ functions */

static int collect_funcs(struct pp_ftab *ft, struct pp_thread **th, size_t nth,
                         const struct pp_pent *par, size_t npar)
{
    if (pp_ftab_init(ft) != 0)
        return -1;
    for (size_t i = 0; i < nth; i++) {
        pp_ftab_add(ft, th[i]->site_d);
        size_t nb;
        struct pp_block **b = thread_blocks(th[i], &nb);
        for (size_t j = 0; j < nb; j++)
            pp_ftab_add(ft, b[j]->d);
        free(b);
        struct ev_iter it;
        ev_iter_init(&it, th[i]);
        for (const struct pp_ev *e; (e = ev_next(&it));)
            pp_ftab_add(ft, e->d);
    }
    for (size_t i = 0; i < npar; i++)
        pp_ftab_add(ft, par[i].d);
    return 0;
}

/* True when no instrumented code ran: no loop counted, no event, no
 * parameter.  Such a process (a configure test, a helper the build runs)
 * writes no record: it would hold nothing to analyse, and records left in
 * every directory a build runs programs in are litter (docs/runtime.md). */
static int recorded_nothing(struct pp_thread **th, size_t nth, size_t npar)
{
    if (npar)
        return 0;
    for (size_t i = 0; i < nth; i++) {
        if (atomic_load_explicit(&th[i]->blocks, memory_order_acquire))
            return 0;
        struct ev_iter it;
        ev_iter_init(&it, th[i]);
        if (ev_next(&it))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ printing */

static void print_func(FILE *f, long idx, const struct pp_fdesc *d)
{
    fprintf(f, "func idx=%ld\n", idx);
    if (d->text && *d->text) {
        size_t n = strlen(d->text);
        fwrite(d->text, 1, n, f);
        if (d->text[n - 1] != '\n')
            putc('\n', f);
        return;
    }
    /* no text: a minimal descriptor, so the record stays readable */
    fprintf(f, "func name=");
    pp_out_quoted(f, d->name ? d->name : "?");
    fprintf(f, " file=");
    pp_out_quoted(f, d->file ? d->file : "?");
    fprintf(f, " line=0 kind=normal nslots=%u\nend\n", d->nslots);
}

static int64_t read_global(const struct pp_gdesc *g)
{
    switch (g->size) {
    case 1: return g->is_signed ? *(const int8_t *)g->addr : *(const uint8_t *)g->addr;
    case 2: return g->is_signed ? *(const int16_t *)g->addr : *(const uint16_t *)g->addr;
    case 4: return g->is_signed ? (int64_t) * (const int32_t *)g->addr
                                : (int64_t) * (const uint32_t *)g->addr;
    default: return *(const int64_t *)g->addr;
    }
}

static int bare_token(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s <= ' ' || *s == '"' || *s == '(' || *s == ')' || *s == '=' || *s == '\\' ||
            *s == 0x7f)
            return 0;
    return 1;
}

static void print_program(FILE *f)
{
    char exe[4096], host[256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    if (gethostname(host, sizeof host) != 0)
        host[0] = 0;
    host[sizeof host - 1] = 0;
    fprintf(f, "program path=");
    pp_out_quoted(f, exe);
    fprintf(f, " pid=%ld host=", (long)(pp_record_pid ? pp_record_pid : getpid()));
    pp_out_quoted(f, host);
    fprintf(f, " clock=monotonic_ns abi=%d runtime=\"%s\"\n", PP_ABI_VERSION, PP_RUNTIME_NAME);
    if (pp_mpi_rank >= 0) {
        fprintf(f, "mpi rank=%d size=%d run=%016" PRIx64 " pid0=%" PRIu64 " any_source=%d any_tag=%d proc_null=%d",
                pp_mpi_rank, pp_mpi_size, pp_mpi_run, pp_mpi_pid0, pp_mpi_any_source, pp_mpi_any_tag,
                pp_mpi_proc_null);
        if (pp_mpi_lib[0]) {
            fprintf(f, " lib=");
            pp_out_quoted(f, pp_mpi_lib);
        }
        fputc('\n', f);
    }
    if (pp_incomplete_sig)
        fprintf(f, "incomplete signal=%d name=SIG%s\n", pp_incomplete_sig,
                pp_signal_name(pp_incomplete_sig));
    pp_exe_print(f);
    pp_timing_write(f);

    /* argv as the kernel has it (the program may have changed its argv[]) */
    fprintf(f, "argv");
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        static char buf[1 << 16];
        size_t len = 0;
        ssize_t r;
        while (len < sizeof buf - 1 && (r = read(fd, buf + len, sizeof buf - 1 - len)) > 0)
            len += (size_t)r;
        close(fd);
        buf[len] = 0;
        for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
            putc(' ', f);
            pp_out_quoted(f, buf + i);
        }
    }
    putc('\n', f);
    static const char *const envs[] = { "OMP_NUM_THREADS", "OMP_SCHEDULE", "OMP_PROC_BIND",
                                        "OMP_DYNAMIC" };
    for (size_t i = 0; i < sizeof envs / sizeof *envs; i++) {
        const char *v = getenv(envs[i]);
        if (v) {
            fprintf(f, "env %s=", envs[i]);
            pp_out_quoted(f, v);
            putc('\n', f);
        }
    }
}

/* A parameter that threads set to different values belongs to them, not
 * to the problem: one tparam line per thread that set it, so that the
 * analyser can find each thread's value as a function of its index. */
static void print_thread_params(FILE *f, const struct pp_pent *m, struct pp_thread *const *th, size_t nth,
                                const struct pp_ftab *ft)
{
    int threads = 0, differ = 0;
    int64_t v0 = 0;
    for (size_t i = 0; i < nth; i++)
        for (struct pp_pent *e = atomic_load_explicit(&th[i]->params, memory_order_acquire); e;
             e = atomic_load_explicit(&e->next, memory_order_acquire))
            if (e->d == m->d && e->id == m->id && e->count > 0) {
                if (threads++ == 0)
                    v0 = e->first;
                differ |= e->min != v0 || e->max != v0;
            }
    if (threads < 2 || !differ)
        return;
    for (size_t i = 0; i < nth; i++)
        for (struct pp_pent *e = atomic_load_explicit(&th[i]->params, memory_order_acquire); e;
             e = atomic_load_explicit(&e->next, memory_order_acquire))
            if (e->d == m->d && e->id == m->id && e->count > 0)
                fprintf(f, "tparam func=%ld id=%u thread=%u value=%" PRId64 " count=%" PRIu64
                           " min=%" PRId64 " max=%" PRId64 "\n",
                        pp_ftab_find(ft, m->d), m->id, th[i]->rid, e->last, e->count, e->min, e->max);
}

static void print_thread(FILE *f, const struct pp_thread *t, const struct pp_ftab *ft)
{
    static const char *const kinds[] = { "main", "pthread", "omp", "other" };
    fprintf(f, "thread id=%u kind=%s parent=", t->rid, kinds[t->kind]);
    if (t->parent)
        fprintf(f, "%u", t->parent->rid);
    else
        putc('-', f);
    long sf = pp_ftab_find(ft, t->site_d);
    if (sf >= 0 && (t->kind == PP_TK_PTHREAD || t->kind == PP_TK_OMP))
        fprintf(f, " site=(%ld %u)", sf, t->site);
    if (t->kind == PP_TK_PTHREAD)
        fprintf(f, " order=%" PRIu64 " arg=%" PRId64, t->order, t->arg);
    if (t->kind == PP_TK_OMP)
        fprintf(f, " team=%" PRIu64 " tid=%d nthreads=%d", t->team, t->tid, t->nthreads);
    fprintf(f, " start=%" PRIu64 " end=%" PRIu64, t->w_frozen ? t->w_start : t->start, t->end);
    if (t->has_cpuclock)
        fprintf(f, " cstart=%" PRIu64, t->cstart);
    if (t->dropped)
        fprintf(f, " dropped=%" PRIu64, t->dropped);
    putc('\n', f);
}

/* The deltas d[0..n), but those of the blocks `left` marks (NULL: none):
 * their count line is left out. */
static void print_deltas(struct pp_lbuf *l, const struct pp_delta *d, uint32_t n, const long *bfunc,
                         size_t nb, const unsigned char *left)
{
    pp_lb_str(l, "delta=(");
    int first = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (left && d[i].block < nb && left[d[i].block])
            continue;
        long fn = d[i].block < nb ? bfunc[d[i].block] : -1;
        pp_lb_str(l, first ? "(" : " (");
        first = 0;
        pp_lb_i64(l, fn);
        pp_lb_ch(l, ' ');
        pp_lb_u64(l, d[i].slot);
        pp_lb_ch(l, ' ');
        pp_lb_u64(l, d[i].inc);
        pp_lb_ch(l, ')');
    }
    pp_lb_ch(l, ')');
}

static void add_deltas(uint64_t **sums, struct pp_block **b, size_t nb, const struct pp_delta *d,
                       uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (d[i].block < nb && sums[d[i].block] && d[i].slot < b[d[i].block]->nslots)
            sums[d[i].block][d[i].slot] += d[i].inc;
}

/* count, ev and tail lines of one thread; returns its number of events */
static uint64_t print_thread_data(FILE *f, const struct pp_thread *t, const struct pp_ftab *ft)
{
    /* the lines below are most of a record: formatted by hand (rt-fmt.h) */
    struct pp_lbuf lb;
    struct pp_lbuf *l = &lb;
    l->f = f;
    l->n = 0;
    size_t nb;
    struct pp_block **b = thread_blocks(t, &nb);
    long *bfunc = malloc((nb ? nb : 1) * sizeof *bfunc);
    if (!bfunc)
        nb = 0;
    /* A thread the writer closed may still run and snapshot its counters:
     * its counts are the sums of the deltas frozen into the record, and a
     * function it registered since (no delta) is left out.  So is one whose
     * registration (slot 0 set to 1) the tail's snapshot read before the
     * increments that followed it: its deltas too, or they would name a
     * function with no count line. */
    uint64_t **sums = t->w_frozen && nb ? calloc(nb, sizeof *sums) : NULL;
    unsigned char *left = sums ? calloc(nb, 1) : NULL;
    if (sums) {
        for (size_t j = 0; j < nb; j++)
            sums[j] = calloc(b[j]->nslots ? b[j]->nslots : 1, sizeof **sums);
        struct ev_iter it;
        ev_iter_init(&it, t);
        for (const struct pp_ev *e; (e = ev_next(&it));)
            add_deltas(sums, b, nb, (const struct pp_delta *)(e + 1), e->ndelta);
        add_deltas(sums, b, nb, t->tail, t->ntail);
    }
    for (size_t j = 0; j < nb; j++) {
        bfunc[j] = pp_ftab_find(ft, b[j]->d);
        const uint64_t *v = b[j]->shadow;
        if (sums) {
            if (!sums[j] || sums[j][0] == 0) {
                if (left)
                    left[j] = 1;
                continue;
            }
            v = sums[j];
        }
        pp_lb_str(l, "count thread=");
        pp_lb_u64(l, t->rid);
        pp_lb_str(l, " func=");
        pp_lb_i64(l, bfunc[j]);
        pp_lb_str(l, " slots=(");
        for (uint32_t s = 0; s < b[j]->nslots; s++) {
            if (s)
                pp_lb_ch(l, ' ');
            pp_lb_u64(l, v[s]);
        }
        pp_lb_str(l, ")\n");
    }
    if (sums)
        for (size_t j = 0; j < nb; j++)
            free(sums[j]);
    free(sums);
    uint64_t n = 0;
    struct ev_iter it;
    ev_iter_init(&it, t);
    for (const struct pp_ev *e; (e = ev_next(&it)); n++) {
        long fn = pp_ftab_find(ft, e->d);
        pp_lb_str(l, "ev thread=");
        pp_lb_u64(l, t->rid);
        pp_lb_str(l, " n=");
        pp_lb_u64(l, n);
        if (fn >= 0) {
            pp_lb_str(l, " func=");
            pp_lb_i64(l, fn);
            pp_lb_str(l, " site=");
            pp_lb_u64(l, e->site);
        } else
            pp_lb_str(l, " func=- site=-");
        pp_lb_str(l, " kind=");
        pp_lb_str(l, pp_evkind_names[e->kind]);
        pp_lb_str(l, " t0=");
        pp_lb_u64(l, e->t0);
        pp_lb_str(l, " t1=");
        pp_lb_u64(l, e->t1);
        if (t->has_cpuclock) {
            pp_lb_str(l, " c0=");
            pp_lb_u64(l, e->c0);
            pp_lb_str(l, " c1=");
            pp_lb_u64(l, e->c1);
        }
        if (e->has & PP_HAS_OBJ) {
            pp_lb_str(l, " obj=0x");
            pp_lb_hex(l, e->obj);
        }
        /* a thread created after the writer listed the threads (by one
         * still running at exit) is not in the record */
        if ((e->has & PP_HAS_CHILD) && e->child->rid != UINT32_MAX) {
            pp_lb_str(l, " child=");
            pp_lb_u64(l, e->child->rid);
        }
        if (e->has & PP_HAS_TEAM) {
            pp_lb_str(l, " team=");
            pp_lb_u64(l, e->team);
        }
        if (e->has & PP_HAS_TID) {
            pp_lb_str(l, " tid=");
            pp_lb_i64(l, e->tid);
        }
        if (e->has & PP_HAS_NTHREADS) {
            pp_lb_str(l, " nthreads=");
            pp_lb_i64(l, e->nthreads);
        }
        if (e->has & PP_HAS_RESULT) {
            pp_lb_str(l, " result=");
            pp_lb_i64(l, e->result);
        }
        if (e->has & PP_HAS_PEER) {
            pp_lb_str(l, " peer=");
            pp_lb_i64(l, e->peer);
            pp_lb_str(l, " tag=");
            pp_lb_i64(l, e->tag);
        }
        if (e->has & PP_HAS_ROOT) {
            pp_lb_str(l, " root=");
            pp_lb_i64(l, e->root);
        }
        if (e->has & PP_HAS_NEWCOMM) {
            if (e->root >= 1) {
                pp_lb_str(l, " newcomm=c");
                pp_lb_i64(l, e->root);
                pp_lb_str(l, " rank=");
                pp_lb_i64(l, e->rpeer);
                pp_lb_str(l, " size=");
                pp_lb_i64(l, e->rtag);
            } else
                pp_lb_str(l, " newcomm=null");
        }
        if (e->has & PP_HAS_BYTES) {
            pp_lb_str(l, " bytes=");
            pp_lb_u64(l, e->bytes);
        }
        if (e->has & PP_HAS_RMSG) {
            pp_lb_str(l, " rpeer=");
            pp_lb_i64(l, e->rpeer);
            pp_lb_str(l, " rtag=");
            pp_lb_i64(l, e->rtag);
            pp_lb_str(l, " rbytes=");
            pp_lb_u64(l, e->rbytes);
        }
        if (e->has & PP_HAS_COUNT) {
            pp_lb_str(l, " count=");
            pp_lb_u64(l, e->count);
        }
        if ((e->has & PP_HAS_COMM) && e->comm == 0)
            pp_lb_str(l, " comm=world");
        else if ((e->has & PP_HAS_COMM) && e->comm > 0) {
            pp_lb_str(l, " comm=c");
            pp_lb_i64(l, e->comm);
        } else if (e->has & PP_HAS_COMM)
            pp_lb_str(l, " comm=other");
        pp_lb_ch(l, ' ');
        print_deltas(l, (const struct pp_delta *)(e + 1), e->ndelta, bfunc, nb, left);
        pp_lb_ch(l, '\n');
    }
    pp_lb_str(l, "tail thread=");
    pp_lb_u64(l, t->rid);
    pp_lb_str(l, " t=");
    pp_lb_u64(l, t->end);
    pp_lb_ch(l, ' ');
    if (t->has_cpuclock) {
        pp_lb_str(l, "c=");
        pp_lb_u64(l, t->cend);
        pp_lb_ch(l, ' ');
    }
    print_deltas(l, t->tail, t->ntail, bfunc, nb, left);
    pp_lb_ch(l, '\n');
    pp_lb_flush(l);
    free(left);
    free(bfunc);
    free(b);
    return n;
}

static void print_record(FILE *f, struct pp_thread **th, size_t nth, const struct pp_ftab *ft,
                         const struct pp_pent *par, size_t npar)
{
    fprintf(f, "perfpred-record 1\n");
    print_program(f);
    for (size_t i = 0; i < ft->n; i++)
        print_func(f, (long)i, ft->v[i]);

    size_t ng;
    const struct pp_gdesc **g = pp_gdescs(&ng);
    for (size_t i = 0; i < ng; i++) {
        fprintf(f, "gparam name=");
        if (bare_token(g[i]->name))
            fputs(g[i]->name, f);
        else
            pp_out_quoted(f, g[i]->name);
        fprintf(f, " value=%" PRId64 " size=%u signed=%u\n", read_global(g[i]), g[i]->size,
                g[i]->is_signed ? 1 : 0);
    }
    free(g);

    for (size_t i = 0; i < npar; i++)
        fprintf(f, "param func=%ld id=%u value=%" PRId64 " count=%" PRIu64 " first=%" PRId64
                   " last=%" PRId64 " min=%" PRId64 " max=%" PRId64 "\n",
                pp_ftab_find(ft, par[i].d), par[i].id, par[i].last, par[i].count, par[i].first,
                par[i].last, par[i].min, par[i].max);

    for (size_t i = 0; i < npar; i++)
        print_thread_params(f, &par[i], th, nth, ft);

    for (size_t i = 0; i < nth; i++)
        print_thread(f, th[i], ft);
    uint64_t nev = 0;
    for (size_t i = 0; i < nth; i++)
        nev += print_thread_data(f, th[i], ft);
    fprintf(f, "end events=%" PRIu64 " threads=%zu\n", nev, nth);
}

/* ------------------------------------------------------------ entry */

int pp_mpi_rank = -1, pp_mpi_size = 0;
uint64_t pp_mpi_run, pp_mpi_pid0;
int pp_mpi_any_source = -1, pp_mpi_any_tag = -1, pp_mpi_proc_null = -2;
char pp_mpi_lib[96];

/* The record of rank R of an MPI run (docs/runtime.md): "%r" in PATH
 * becomes R; otherwise PATH is a directory (made if missing) that holds
 * rank-R.ppr, one per rank.  0, or -1 with errno set. */
static int mpi_path(const char *path, char *out, size_t n)
{
    const char *pr = strstr(path, "%r");
    int k;
    if (pr)
        k = snprintf(out, n, "%.*s%d%s", (int)(pr - path), path, pp_mpi_rank, pr + 2);
    else {
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        struct stat st;
        if (stat(path, &st) != 0)
            return -1;
        if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        k = snprintf(out, n, "%s/rank-%d.ppr", path, pp_mpi_rank);
    }
    if (k < 0 || (size_t)k >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

void pp_write_record(void)
{
    uint64_t now = pp_now();
    size_t nth = 0, npar = 0;
    struct pp_thread **th = collect_threads(now, &nth);
    struct pp_pent *par = th ? pp_params_merge(th, nth, &npar) : NULL;
    struct pp_ftab ft;
    if (!th || collect_funcs(&ft, th, nth, par, npar) != 0) {
        pp_warn("out of memory at exit; no record written");
        free(th);
        free(par);
        return;
    }

    /* Notices (not errors) go to a terminal only: a test suite that compares
     * a program's stderr must see the same with the runtime linked in. */
    int tty = isatty(2);
    if (recorded_nothing(th, nth, npar)) {
        if (tty)
            pp_warn("no instrumented code ran; no record written");
        pp_ftab_free(&ft);
        free(par);
        free(th);
        return;
    }

    const char *path = getenv("PERFPRED_RECORD");
    char defpath[4096];
    int defaulted = !path || !*path;
    if (defaulted) {
        snprintf(defpath, sizeof defpath, "%s.%ld.ppr",
                 program_invocation_short_name && *program_invocation_short_name
                     ? program_invocation_short_name : "program",
                 pp_mpi_rank >= 0 ? (long)pp_mpi_pid0
                                  : (long)(pp_record_pid ? pp_record_pid : getpid()));
        path = defpath;
    }
    char rankpath[4096];
    if (pp_mpi_rank >= 0) {
        if (mpi_path(path, rankpath, sizeof rankpath) != 0) {
            pp_warn("cannot write record of rank %d under '%s': %s (recording lost; the "
                    "program's result is unaffected)", pp_mpi_rank, path, strerror(errno));
            pp_ftab_free(&ft);
            free(par);
            free(th);
            return;
        }
        path = rankpath;
    }
    /* Past a file-size limit write(2) must fail with EFBIG rather than
     * SIGXFSZ killing the program (and changing its exit status). */
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    int sig_saved = sigaction(SIGXFSZ, &ign, &old) == 0;
    struct pp_out *o = pp_out_open(path);
    if (!o) {
        pp_warn("cannot write record '%s': %s (recording lost; the program's result is unaffected)",
                path, strerror(errno));
    } else {
        pp_sig_test_stall();
        print_record(pp_out_file(o), th, nth, &ft, par, npar);
        if (pp_out_close(o) != 0)
            pp_warn("cannot write record '%s': %s (recording lost; the program's result is "
                    "unaffected)", path, strerror(errno));
        else if (defaulted && tty && pp_incomplete_sig)
            pp_warn("incomplete record (SIG%s) written to %s", pp_signal_name(pp_incomplete_sig), path);
        else if (defaulted && tty)
            pp_warn("record written to %s", path);
    }
    if (sig_saved)
        sigaction(SIGXFSZ, &old, NULL);
    pp_ftab_free(&ft);
    free(par);
    free(th);
}
