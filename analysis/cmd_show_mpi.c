/* cmd_show_mpi.c - `perfpred show RUN` for an MPI run (a directory of
 * the ranks' records, or one of them): the ranks, each MPI call site with
 * its calls, bytes and peer or root over all ranks, and the point-to-point
 * messages matched between ranks as MPI matches them (mpi-match.c), with
 * those that did not match.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "mpi-match.h"
#include "mpirun.h"
#include "show_mpi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int func, site;
    const pp_devent *d;
    long calls, ranks;
    int64_t bmin, bmax;
    int pmin, pmax;          /* peer (or root) range seen                  */
    int has_peer;
    int last_rank;           /* the rank that last called it              */
} site_sum;

typedef struct {
    long events, colls;
    uint64_t t_mpi, t_all;
} rank_sum;

static int is_coll(pp_evkind k)
{
    return k >= PP_EV_BCAST && k <= PP_EV_MPI_BARRIER;
}

/* site index of (func, site), added when new; -1 out of memory */
static int site_of(site_sum **v, int *n, const pp_record *r, int func, int site)
{
    for (int i = 0; i < *n; i++)
        if ((*v)[i].func == func && (*v)[i].site == site)
            return i;
    site_sum *nv = realloc(*v, sizeof *nv * (size_t)(*n + 1));
    if (!nv)
        return -1;
    *v = nv;
    site_sum s = {func, site, pp_desc_event(&r->funcs[func], site), 0, 0, INT64_MAX, -1, INT32_MAX, -1, 0, -1};
    nv[*n] = s;
    return (*n)++;
}

static int by_site(const void *a, const void *b)
{
    const site_sum *x = a, *y = b;
    return x->func != y->func ? (x->func > y->func) - (x->func < y->func) : (x->site > y->site) - (x->site < y->site);
}

/* FILE:LINE of a call site (the file's base name) */
static const char *site_where(const pp_record *r0, int func, int site, char *buf, size_t len)
{
    const pp_devent *d = func >= 0 && func < r0->nfuncs ? pp_desc_event(&r0->funcs[func], site) : NULL;
    const char *file = func >= 0 && func < r0->nfuncs && r0->funcs[func].file ? r0->funcs[func].file : "?";
    const char *base = strrchr(file, '/');
    snprintf(buf, len, "%s:%d", base ? base + 1 : file, d ? d->line : 0);
    return buf;
}

/* the source or tag of an unmatched receive: "any" for a wildcard */
static const char *any_str(int v, char *buf, size_t len)
{
    if (v == -1)
        return "any";
    snprintf(buf, len, "%d", v);
    return buf;
}

/* The matching in text: the totals, then what did not match, one line per
 * call site and channel (the largest first, at most 10), then what the
 * count leaves out and the guesses it made. */
static void text_matching(const pp_mmatch *mm, const pp_record *r0)
{
    printf("point-to-point messages (matched by source and tag in the order MPI matches them): %ld matched, "
           "%ld unmatched\n",
           mm->matched, mm->sends_unmatched + mm->recvs_unmatched);
    int shown = mm->nmiss < 10 ? mm->nmiss : 10;
    for (int i = 0; i < shown; i++) {
        const pp_mmiss *x = &mm->miss[i];
        char w[96], a[16], b[16];
        site_where(r0, x->func, x->site, w, sizeof w);
        if (x->is_recv)
            printf("  %ld receive%s of rank %d from rank %s, tag %s, at %s: no message matches\n", x->count,
                   x->count == 1 ? "" : "s", x->dst, any_str(x->src, a, sizeof a),
                   any_str(x->tag, b, sizeof b), w);
        else
            printf("  %ld message%s from rank %d to rank %d, tag %d, sent at %s: never received\n", x->count,
                   x->count == 1 ? "" : "s", x->src, x->dst, x->tag, w);
    }
    if (mm->nmiss > shown)
        printf("  ... and %d more call sites and channels\n", mm->nmiss - shown);
    if (mm->wildcard) {
        printf("  %ld receive%s posted with MPI_ANY_SOURCE or MPI_ANY_TAG: matched to the message sent first",
               mm->wildcard, mm->wildcard == 1 ? "" : "s");
        if (mm->guessed)
            printf("; %ld of them between two ranks' messages of one epoch, by the records' clocks (a guess)",
                   mm->guessed);
        printf("\n");
    }
    if (mm->size_differs)
        printf("  %ld matched message%s of another size than the receive recorded\n", mm->size_differs,
               mm->size_differs == 1 ? "" : "s");
    if (mm->other_comm)
        printf("  %ld call%s on a communicator other than MPI_COMM_WORLD: not matched\n", mm->other_comm,
               mm->other_comm == 1 ? "" : "s");
    if (mm->failed)
        printf("  %ld call%s that returned an error: not matched\n", mm->failed, mm->failed == 1 ? "" : "s");
}

static void json_matching(const pp_mmatch *mm, const pp_record *r0)
{
    printf("{\"matched\":%ld,\"unmatched\":%ld,\"unmatched_sends\":%ld,\"unmatched_receives\":%ld,"
           "\"wildcard_receives\":%ld,\"wildcard_guessed\":%ld,\"size_differs\":%ld,\"other_comm\":%ld,"
           "\"failed\":%ld,\"proc_null\":%ld,\"unmatched_sites\":[",
           mm->matched, mm->sends_unmatched + mm->recvs_unmatched, mm->sends_unmatched, mm->recvs_unmatched,
           mm->wildcard, mm->guessed, mm->size_differs, mm->other_comm, mm->failed, mm->proc_null);
    for (int i = 0; i < mm->nmiss; i++) {
        const pp_mmiss *x = &mm->miss[i];
        char w[96];
        printf("%s{\"kind\":\"%s\",\"rank\":%d,\"src\":%d,\"dst\":%d,\"tag\":%d,\"count\":%ld,\"where\":",
               i ? "," : "", x->is_recv ? "receive" : "send", x->rank, x->src, x->dst, x->tag, x->count);
        pp_json_str(stdout, site_where(r0, x->func, x->site, w, sizeof w));
        printf("}");
    }
    printf("]}");
}

int pp_show_mpi(const pp_cli *c)
{
    pp_mpirun run;
    char err[2048];
    if (pp_mpirun_load(c->rec[0], &run, err, sizeof err)) {
        fprintf(stderr, "perfpred show: %s\n", err);
        return 2;
    }
    if (c->nrec > 1)
        fprintf(stderr, "perfpred show: an MPI run is shown alone; the other records given are ignored\n");
    site_sum *sites = NULL;
    int nsites = 0, oom = 0;
    rank_sum *rs = calloc((size_t)run.nranks, sizeof *rs);
    if (!rs)
        oom = 1;
    for (int k = 0; !oom && k < run.nranks; k++) {
        const pp_record *r = &run.rank[k];
        for (long i = 0; i < r->nevents; i++) {
            const pp_rev *e = &r->events[i];
            rs[k].events++;
            if (!pp_evkind_is_mpi(e->kind) || e->func < 0)
                continue;
            if (e->kind != PP_EV_MPI_INIT && e->kind != PP_EV_MPI_FINALIZE)
                rs[k].t_mpi += e->t1 - e->t0;
            int si = site_of(&sites, &nsites, r, e->func, e->site);
            if (si < 0) {
                oom = 1;
                break;
            }
            site_sum *s = &sites[si];
            s->calls++;
            if (s->last_rank != k) {
                s->last_rank = k;
                s->ranks++;
            }
            if (e->bytes >= 0) {
                s->bmin = e->bytes < s->bmin ? e->bytes : s->bmin;
                s->bmax = e->bytes > s->bmax ? e->bytes : s->bmax;
            }
            int who = e->has_msg ? e->peer : e->root;
            if (e->has_msg || e->root >= 0) {
                s->has_peer = 1;
                s->pmin = who < s->pmin ? who : s->pmin;
                s->pmax = who > s->pmax ? who : s->pmax;
            }
            if (is_coll(e->kind))
                rs[k].colls++;
        }
        for (int t = 0; t < r->nthreads; t++)
            if (r->threads[t].kind == PP_T_MAIN)
                rs[k].t_all = r->threads[t].end - r->threads[t].start;
    }
    pp_mmatch mm;
    if (oom || pp_mpi_match(&run, &mm)) {
        fprintf(stderr, "perfpred show: out of memory\n");
        free(rs); free(sites);
        pp_mpirun_free(&run);
        return 1;
    }
    qsort(sites, (size_t)nsites, sizeof *sites, by_site);
    /* MPI calls not modelled: counted, not logged (their executions are
     * the counter of their slot, summed over every rank and thread) */
    long other = 0;
    for (int f = 0; f < run.rank[0].nfuncs; f++)
        for (int i = 0; i < run.rank[0].funcs[f].nevents; i++)
            other += run.rank[0].funcs[f].events[i].kind == PP_EV_MPI_OTHER;
    const pp_record *r0 = &run.rank[0];
    if (c->format == PP_FMT_JSON) {
        printf("{\"run\":");
        pp_json_str(stdout, run.path);
        printf(",\"id\":\"%016" PRIx64 "\",\"ranks\":%d,\"program\":", r0->mpi_run, run.nranks);
        pp_json_str(stdout, r0->program ? r0->program : "?");
        printf(",\"library\":");
        if (r0->mpi_lib)
            pp_json_str(stdout, r0->mpi_lib);
        else
            printf("null");
        printf(",\"any_source\":%d,\"proc_null\":%d,\"any_tag\":%d", r0->mpi_any_source, r0->mpi_proc_null,
               r0->mpi_any_tag);
        printf(",\"per_rank\":[");
        for (int k = 0; k < run.nranks; k++)
            printf("%s{\"rank\":%d,\"events\":%ld,\"sends\":%ld,\"bytes_sent\":%" PRId64 ",\"receives\":%ld,"
                   "\"bytes_received\":%" PRId64 ",\"collectives\":%ld,\"mpi_ns\":%" PRIu64 ",\"run_ns\":%" PRIu64
                   "}",
                   k ? "," : "", k, rs[k].events, mm.sends[k], mm.bsent[k], mm.recvs[k], mm.brecv[k], rs[k].colls,
                   rs[k].t_mpi, rs[k].t_all);
        printf("],\"sites\":[");
        for (int i = 0; i < nsites; i++) {
            const site_sum *s = &sites[i];
            printf("%s{\"function\":", i ? "," : "");
            pp_json_str(stdout, r0->funcs[s->func].name);
            printf(",\"site\":%d,\"kind\":\"%s\",\"line\":%d,\"calls\":%ld,\"ranks\":%ld", s->site,
                   s->d ? pp_evkind_name(s->d->kind) : "?", s->d ? s->d->line : 0, s->calls, s->ranks);
            if (s->bmax >= 0)
                printf(",\"bytes_min\":%" PRId64 ",\"bytes_max\":%" PRId64, s->bmin, s->bmax);
            if (s->d && s->d->callee) {
                printf(",\"callee\":");
                pp_json_str(stdout, s->d->callee);
            }
            printf("}");
        }
        printf("],\"messages\":");
        json_matching(&mm, r0);
        printf(",\"unmodelled_sites\":%ld}\n", other);
    } else if (c->format == PP_FMT_CSV) {
        printf("function,site,kind,file,line,calls,ranks,bytes_min,bytes_max\n");
        for (int i = 0; i < nsites; i++) {
            const site_sum *s = &sites[i];
            printf("%s,%d,%s,%s,%d,%ld,%ld,", r0->funcs[s->func].name, s->site,
                   s->d ? pp_evkind_name(s->d->kind) : "?", r0->funcs[s->func].file, s->d ? s->d->line : 0,
                   s->calls, s->ranks);
            if (s->bmax >= 0)
                printf("%" PRId64 ",%" PRId64 "\n", s->bmin, s->bmax);
            else
                printf(",\n");
        }
    } else {
        printf("MPI run %s: %d ranks of %s (", run.path, run.nranks, r0->program ? r0->program : "?");
        for (int i = 0; i < r0->argc; i++)
            printf("%s%s", i ? " " : "", r0->argv[i]);
        printf("), run id %016" PRIx64 "\n", r0->mpi_run);
        printf("MPI library: %s; MPI_ANY_SOURCE %d, MPI_PROC_NULL %d, MPI_ANY_TAG %d%s\n",
               r0->mpi_lib ? r0->mpi_lib : "not recorded", r0->mpi_any_source, r0->mpi_proc_null,
               r0->mpi_any_tag, r0->mpi_lib ? "" : " (Open MPI's, the default)");
        printf("ranks:\n  %-5s %8s %7s %12s %8s %12s %11s %12s %12s\n", "rank", "events", "sends", "bytes sent",
               "receives", "bytes recvd", "collectives", "time in MPI", "run time");
        for (int k = 0; k < run.nranks; k++) {
            char a[32], b[32];
            printf("  %-5d %8ld %7ld %12" PRId64 " %8ld %12" PRId64 " %11ld %12s %12s\n", k, rs[k].events,
                   mm.sends[k], mm.bsent[k], mm.recvs[k], mm.brecv[k], rs[k].colls,
                   pp_fmt_time((double)rs[k].t_mpi, a, sizeof a), pp_fmt_time((double)rs[k].t_all, b, sizeof b));
        }
        printf("MPI call sites:\n  %-22s %-12s %-22s %8s %6s %18s  %s\n", "id", "kind", "where", "calls", "ranks",
               "bytes per call", "peer or root");
        for (int i = 0; i < nsites; i++) {
            const site_sum *s = &sites[i];
            char id[64], where[96], bytes[48], who[48];
            snprintf(id, sizeof id, "%s:E%d", r0->funcs[s->func].name, s->site);
            const char *file = r0->funcs[s->func].file ? r0->funcs[s->func].file : "?";
            const char *base = strrchr(file, '/');
            snprintf(where, sizeof where, "%s:%d", base ? base + 1 : file, s->d ? s->d->line : 0);
            if (s->bmax < 0)
                snprintf(bytes, sizeof bytes, "-");
            else if (s->bmin == s->bmax)
                snprintf(bytes, sizeof bytes, "%" PRId64, s->bmin);
            else
                snprintf(bytes, sizeof bytes, "%" PRId64 "..%" PRId64, s->bmin, s->bmax);
            if (!s->has_peer)
                snprintf(who, sizeof who, "-");
            else if (s->pmin == s->pmax)
                snprintf(who, sizeof who, "%d", s->pmin);
            else
                snprintf(who, sizeof who, "%d..%d", s->pmin, s->pmax);
            printf("  %-22s %-12s %-22s %8ld %3ld/%-2d %18s  %s\n", id, s->d ? pp_evkind_name(s->d->kind) : "?",
                   where, s->calls, s->ranks, run.nranks, bytes, who);
        }
        text_matching(&mm, r0);
        if (other) {
            printf("MPI calls perfpred does not model (kind mpi_other):\n");
            for (int f = 0; f < r0->nfuncs; f++)
                for (int i = 0; i < r0->funcs[f].nevents; i++) {
                    const pp_devent *d = &r0->funcs[f].events[i];
                    if (d->kind != PP_EV_MPI_OTHER)
                        continue;
                    unsigned long long calls = 0;
                    for (int k = 0; k < run.nranks; k++)
                        for (int t = 0; t < run.rank[k].nthreads; t++) {
                            const pp_rthread *th = &run.rank[k].threads[t];
                            if (f < run.rank[k].nfuncs && th->counts && th->counts[f] && d->slot > 0 &&
                                d->slot < run.rank[k].funcs[f].nslots)
                                calls += th->counts[f][d->slot];
                        }
                    printf("  %s at %s:%d, %llu call%s\n", d->callee ? d->callee : "?", r0->funcs[f].file, d->line,
                           calls, calls == 1 ? "" : "s");
                }
        }
        printf("predict, scale, validate and graph take this run: 'perfpred predict %s --P 4,64,1024'\n",
               run.path);
    }
    free(rs);
    free(sites);
    pp_mpi_match_free(&mm);
    pp_mpirun_free(&run);
    return 0;
}
