/* breakdown-out.c - predict --by's tables (breakdown.h): text, CSV and
 * JSON, per site, for the region and for the whole program, summarised
 * over the threads (min, mean, max, sum) or for every thread.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "breakdown.h"
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NV = PP_TR_NCAT + 1, TOTAL = PP_TR_NCAT };
/* rows beyond the sites: the region (the sum of its sites) and the
 * program (with a region: every span; without: the sum of the sites) */
enum { ROW_REGION = -1, ROW_PROGRAM = -2 };

/* Thread t's time in `cat` at row (a site, ROW_REGION, ROW_PROGRAM) on
 * machine k; cat TOTAL: all of them. */
static double val(const pp_breakdown *b, int k, int row, int t, int cat)
{
    if (cat == TOTAL) {
        double s = 0;
        for (int c = 0; c < PP_TR_NCAT; c++)
            s += val(b, k, row, t, c);
        return s;
    }
    if (row >= 0)
        return b->v[k][((size_t)t * (size_t)b->nrows + (size_t)row) * PP_TR_NCAT + cat];
    if (row == ROW_PROGRAM && b->has_region)
        return b->all[k][(size_t)t * PP_TR_NCAT + cat];
    double s = 0;
    for (int r = 0; r < b->nrows; r++)
        s += b->v[k][((size_t)t * (size_t)b->nrows + (size_t)r) * PP_TR_NCAT + cat];
    return s;
}

typedef struct {
    double min[NV], mean[NV], max[NV], sum[NV];
} stat;

static void stats(const pp_breakdown *b, int k, int row, stat *s)
{
    for (int c = 0; c < NV; c++) {
        s->min[c] = HUGE_VAL;
        s->max[c] = -HUGE_VAL;
        s->sum[c] = 0;
        for (int t = 0; t < b->nthreads; t++) {
            double x = val(b, k, row, t, c);
            s->sum[c] += x;
            if (x < s->min[c])
                s->min[c] = x;
            if (x > s->max[c])
                s->max[c] = x;
        }
        if (b->nthreads == 0)
            s->min[c] = s->max[c] = 0;
        s->mean[c] = b->nthreads ? s->sum[c] / b->nthreads : 0;
    }
}

/* The share of all the threads' time (nthreads x T). */
static double share(const pp_breakdown *b, int k, double ns)
{
    double all = b->time[k] * b->nthreads;
    return all > 0 ? ns / all : 0;
}

static const char *mach_name(int k)
{
    return k == PP_BD_REAL ? "real" : "pram";
}

/* The sites, the largest first on the real machine, (idle) last. */
static int *order(const pp_breakdown *b)
{
    int *o = malloc(sizeof *o * (size_t)(b->nrows + 1));
    double *tot = malloc(sizeof *tot * (size_t)(b->nrows + 1));
    if (!o || !tot) {
        free(o);
        free(tot);
        return NULL;
    }
    for (int r = 0; r < b->nrows; r++) {
        o[r] = r;
        tot[r] = 0;
        for (int t = 0; t < b->nthreads; t++)
            tot[r] += val(b, PP_BD_REAL, r, t, TOTAL);
        if (!strcmp(b->rows[r].kind, "idle"))
            tot[r] = -1;
    }
    /* insertion sort: stable, and the rows are few */
    for (int i = 1; i < b->nrows; i++) {
        int x = o[i], j = i;
        while (j > 0 && tot[o[j - 1]] < tot[x]) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = x;
    }
    free(tot);
    return o;
}

/* ---- text ----------------------------------------------------------------- */

static void cell(FILE *f, double ns)
{
    char buf[32];
    if (ns == 0)
        fprintf(f, " %11s", "-");
    else
        fprintf(f, " %11s", pp_fmt_time(ns, buf, sizeof buf));
}

static void text_line(FILE *f, const pp_breakdown *b, int k, int row, const char *name, const char *kind,
                      const char *where, int threads)
{
    stat s;
    stats(b, k, row, &s);
    char lo[32], hi[32];
    fprintf(f, "  %-24s %-13s %-18s", name, kind, where);
    for (int c = 0; c < PP_TR_NCAT; c++)
        cell(f, s.mean[c]);
    fprintf(f, " %6.1f%%  %s..%s\n", 100 * share(b, k, s.sum[TOTAL]), pp_fmt_time(s.min[TOTAL], lo, sizeof lo),
            pp_fmt_time(s.max[TOTAL], hi, sizeof hi));
    for (int t = 0; threads && t < b->nthreads; t++) {
        char th[64];
        snprintf(th, sizeof th, "thread %d", t);
        fprintf(f, "    %-22s %-32.32s", th, b->thread_name[t]);
        for (int c = 0; c < PP_TR_NCAT; c++)
            cell(f, val(b, k, row, t, c));
        fprintf(f, " %6.1f%%\n", b->time[k] > 0 ? 100 * val(b, k, row, t, TOTAL) / b->time[k] : 0);
    }
}

void pp_breakdown_text(FILE *f, const pp_breakdown *b, int machines, int threads)
{
    int *o = order(b);
    if (!o)
        return;
    for (int k = PP_BD_NMACH - 1; k >= 0; k--) {
        if (!(machines & (1 << k)))
            continue;
        char tb[32];
        fprintf(f, "  by %s on the %s: T = %s, %d %s; mean per thread, share of the %d x T thread-time, total "
                "min..max over them%s\n",
                pp_by_name(b->by), k == PP_BD_REAL ? "real machine" : "PRAM", pp_fmt_time(b->time[k], tb, sizeof tb),
                b->nthreads, b->ranks ? (b->nthreads == 1 ? "rank" : "ranks") : b->nthreads == 1 ? "thread" : "threads",
                b->nthreads, b->approx ? " (approx)" : "");
        if (b->has_region)
            fprintf(f, "  region %s: %s\n", b->region.name, b->region.what);
        fprintf(f, "  %-24s %-13s %-18s %11s %11s %11s %11s %11s %7s  %s\n", "site", "kind", "where", "computation",
                "communic.", "sync cost", "wait", "idle", "share", "total");
        for (int i = 0; i < b->nrows; i++) {
            const pp_bd_row *r = &b->rows[o[i]];
            text_line(f, b, k, o[i], r->name, r->kind, r->where, threads);
        }
        if (b->has_region)
            text_line(f, b, k, ROW_REGION, "(region)", "", b->region.name, threads);
        text_line(f, b, k, ROW_PROGRAM, "(program)", "", "", threads);
        if (k > 0 && (machines & 1))
            fprintf(f, "\n");
    }
    free(o);
}

/* ---- CSV -------------------------------------------------------------------- */

void pp_breakdown_csv_header(FILE *f)
{
    fprintf(f, "P,machine,by,region,site,kind,function,where,thread,computation_s,communication_s,sync_s,wait_s,"
               "idle_s,total_s,share\n");
}

/* a field, quoted when it holds a comma or a quote */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_row(FILE *f, const pp_breakdown *b, int k, int row, const char *name, const char *kind,
                    const char *func, const char *where, int threads)
{
    stat s;
    stats(b, k, row, &s);
    const double *by[4] = {s.min, s.mean, s.max, s.sum};
    static const char *const sn[4] = {"min", "mean", "max", "sum"};
    for (int i = 0; i < 4 + (threads ? b->nthreads : 0); i++) {
        fprintf(f, "%d,%s,%s,", b->P, mach_name(k), pp_by_name(b->by));
        csv_str(f, b->has_region ? b->region.name : "");
        fputc(',', f);
        csv_str(f, name);
        fputc(',', f);
        csv_str(f, kind);
        fputc(',', f);
        csv_str(f, func);
        fputc(',', f);
        csv_str(f, where);
        if (i < 4) {
            fprintf(f, ",%s", sn[i]);
            for (int c = 0; c < NV; c++)
                fprintf(f, ",%.9g", by[i][c] / 1e9);
            fprintf(f, ",%.6f\n", share(b, k, s.sum[TOTAL]));
        } else {
            int t = i - 4;
            fprintf(f, ",%d", t);
            for (int c = 0; c < NV; c++)
                fprintf(f, ",%.9g", val(b, k, row, t, c) / 1e9);
            fprintf(f, ",%.6f\n", b->time[k] > 0 ? val(b, k, row, t, TOTAL) / b->time[k] : 0);
        }
    }
}

void pp_breakdown_csv(FILE *f, const pp_breakdown *b, int machines, int threads)
{
    int *o = order(b);
    if (!o)
        return;
    for (int k = PP_BD_NMACH - 1; k >= 0; k--) {
        if (!(machines & (1 << k)))
            continue;
        for (int i = 0; i < b->nrows; i++) {
            const pp_bd_row *r = &b->rows[o[i]];
            csv_row(f, b, k, o[i], r->name, r->kind, r->function, r->where, threads);
        }
        if (b->has_region)
            csv_row(f, b, k, ROW_REGION, "(region)", "region", "", b->region.name, threads);
        csv_row(f, b, k, ROW_PROGRAM, "(program)", "program", "", "", threads);
    }
    free(o);
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_cats(FILE *f, const double *x)
{
    fputc('{', f);
    for (int c = 0; c < NV; c++) {
        fprintf(f, "%s\"%s\":", c ? "," : "", c == TOTAL ? "total" : pp_trcat_name((pp_trcat)c));
        pp_json_num(f, x[c] / 1e9);
    }
    fputc('}', f);
}

static void json_row(FILE *f, const pp_breakdown *b, int k, int row, int threads)
{
    stat s;
    stats(b, k, row, &s);
    fprintf(f, "\"share\":");
    pp_json_num(f, share(b, k, s.sum[TOTAL]));
    fprintf(f, ",\"min\":");
    json_cats(f, s.min);
    fprintf(f, ",\"mean\":");
    json_cats(f, s.mean);
    fprintf(f, ",\"max\":");
    json_cats(f, s.max);
    fprintf(f, ",\"sum\":");
    json_cats(f, s.sum);
    if (threads) {
        fprintf(f, ",\"per_thread\":{");
        for (int c = 0; c < NV; c++) {
            fprintf(f, "%s\"%s\":[", c ? "," : "", c == TOTAL ? "total" : pp_trcat_name((pp_trcat)c));
            for (int t = 0; t < b->nthreads; t++) {
                if (t)
                    fputc(',', f);
                pp_json_num(f, val(b, k, row, t, c) / 1e9);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
}

void pp_breakdown_json(FILE *f, const pp_breakdown *b, int machines, int threads)
{
    int *o = order(b);
    if (!o)
        return;
    fprintf(f, "{\"by\":\"%s\",\"region\":", pp_by_name(b->by));
    if (b->has_region) {
        fprintf(f, "{\"name\":");
        pp_json_str(f, b->region.name);
        fprintf(f, ",\"what\":");
        pp_json_str(f, b->region.what);
        fputc('}', f);
    } else
        fprintf(f, "null");
    fprintf(f, ",\"threads\":%d,\"thread_names\":[", b->nthreads);
    for (int t = 0; t < b->nthreads; t++) {
        if (t)
            fputc(',', f);
        pp_json_str(f, b->thread_name[t]);
    }
    fprintf(f, "],\"machines\":{");
    int first = 1;
    for (int k = PP_BD_NMACH - 1; k >= 0; k--) {
        if (!(machines & (1 << k)))
            continue;
        fprintf(f, "%s\"%s\":{\"time\":", first ? "" : ",", mach_name(k));
        first = 0;
        pp_json_num(f, b->time[k] / 1e9);
        fprintf(f, ",\"sites\":[");
        for (int i = 0; i < b->nrows; i++) {
            const pp_bd_row *r = &b->rows[o[i]];
            fprintf(f, "%s{\"site\":", i ? "," : "");
            pp_json_str(f, r->name);
            fprintf(f, ",\"kind\":");
            pp_json_str(f, r->kind);
            fprintf(f, ",\"function\":");
            pp_json_str(f, r->function);
            fprintf(f, ",\"file\":");
            if (r->file)
                pp_json_str(f, r->file);
            else
                fprintf(f, "null");
            fprintf(f, ",\"line\":%d,", r->line);
            json_row(f, b, k, o[i], threads);
            fputc('}', f);
        }
        fprintf(f, "]");
        if (b->has_region) {
            fprintf(f, ",\"region\":{");
            json_row(f, b, k, ROW_REGION, threads);
            fputc('}', f);
        }
        fprintf(f, ",\"program\":{");
        json_row(f, b, k, ROW_PROGRAM, threads);
        fprintf(f, "}}");
    }
    fprintf(f, "}}");
    free(o);
}
