/* scale-out.c - see scale-out.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "scale-out.h"
#include "point.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pp_scale_times_free(pp_scale_times *st)
{
    free(st->t);
    free(st->lo);
    free(st->hi);
}

int pp_scale_times_at(const pp_prog *m, const pp_machine *mach, const pp_scale_table *t, const pp_vals *base,
                      int draws, pp_scale_times *st, char *err, size_t errlen)
{
    st->t = calloc((size_t)t->nP + 1, sizeof *st->t);
    st->lo = calloc((size_t)t->nP + 1, sizeof *st->lo);
    st->hi = calloc((size_t)t->nP + 1, sizeof *st->hi);
    if (!st->t || !st->lo || !st->hi) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pp_vals at;
    if (pp_vals_copy(&at, m, base)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int j = 0; rc == 0 && j < t->nP; j++) {
        st->t[j] = -1;
        st->lo[j] = 1;
        st->hi[j] = 0;
        if (!t->found[j])
            continue;
        if (!pp_interval_wanted(draws)) {
            st->t[j] = isnan(t->t_real[j]) ? -1 : t->t_real[j];   /* the search's own prediction there */
            continue;
        }
        for (int k = 0; k < t->nscale; k++)
            at.v[t->scale_param[k]] = t->chi[j][k];
        pp_metrics mt;
        pp_interval iv;
        int has_iv;
        pp_cli_progress(NULL, "T_real at the sizes found", j, t->nP);
        rc = pp_point_predict(m, &at, mach, t->P[j], 0, draws, &mt, &iv, &has_iv, err, errlen);
        if (rc == 0) {
            st->t[j] = mt.t_real;
            if (has_iv) {
                st->lo[j] = iv.lo;
                st->hi[j] = iv.hi;
            }
        }
    }
    pp_cli_progress(NULL, "T_real at the sizes found", t->nP, t->nP);
    pp_vals_free(&at);
    return rc;
}

/* A line per P whose search did not reach the efficiency: why, and the
 * efficiency at the largest size it tried. */
static void print_notes(FILE *o, const pp_prog *m, const pp_scale_table *t)
{
    const char *E = t->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E";
    const char *s = m->params[t->scale_param[0]].name;
    for (int j = 0; j < t->nP; j++) {
        if (t->found[j])
            continue;
        char at[96] = "";
        if (t->last[j] > 0 && !isnan(t->last_eff[j]))
            snprintf(at, sizeof at, "%s = %.3g at %s = %ld", E, t->last_eff[j], s, t->last[j]);
        fprintf(o, "P = %d: ", t->P[j]);
        switch (t->why[j]) {
        case PP_SCALE_LIMIT: {
            char lim[64];
            if (t->limit % 1000000 == 0)
                snprintf(lim, sizeof lim, "%ld million actions", t->limit / 1000000);
            else
                snprintf(lim, sizeof lim, "%ld actions", t->limit);
            const char *by = pp_scale_limited_by(t, j);
            if (at[0] && !strcmp(by, "max"))
                fprintf(o, "%s, the largest size searched (--max)", at);
            else if (at[0])
                fprintf(o, "%s, the largest size searched (the next would pass %s)", at,
                        !strcmp(by, "size") ? "10^9" : lim);
            else
                fprintf(o, "not searched: the recorded size passes %s", lim);
            if (!isnan(t->beyond[j]) && t->beyond[j] < 1e15) {
                /* two significant digits: an extrapolation */
                double d = pow(10, floor(log10(t->beyond[j])) - 1);
                fprintf(o, "; the odds law of the last two sizes puts %s = %.2f near %s = %.0f", E, t->target, s,
                        round(t->beyond[j] / d) * d);
            }
            break;
        }
        case PP_SCALE_FLAT:
            fprintf(o, "unreachable: the efficiency stopped growing (%s)", at);
            break;
        case PP_SCALE_FAR:
            fprintf(o, "unreachable: more than 40 doublings of the size away (%s)", at);
            break;
        case PP_SCALE_ONE:
            fprintf(o, "unreachable: %s = 1 holds only where it holds at the start", E);
            break;
        default:
            fprintf(o, "unreachable: the model has no instance at %s = %ld", s, t->last[j]);
            break;
        }
        fprintf(o, "\n");
    }
}

static void print_text(FILE *o, const pp_prog *m, const pp_scale_table *t, const pp_scale_times *st)
{
    fprintf(o, "%s scalability, %s = %.2f%s\n", t->kind == PP_SCALE_ALGORITHMIC ? "Algorithmic" : "Combination",
           t->kind == PP_SCALE_ALGORITHMIC ? "E_a" : "E", t->target,
           t->kind == PP_SCALE_ALGORITHMIC ? " (PRAM against MIRACLE: the algorithm)" : " (the real machine)");
    fprintf(o, "%-8s", "P, P'");
    for (int j = 0; j < t->nP; j++)
        fprintf(o, " %9d", t->P[j]);
    fprintf(o, "\n");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%-8d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i)
                fprintf(o, " %9s", "");
            else if (isnan(t->scale[i][j]))
                fprintf(o, " %9s", "-");
            else
                fprintf(o, " %9.4g", t->scale[i][j]);
        }
        fprintf(o, "\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        fprintf(o, "%-8s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++) {
            char b[32];
            if (t->found[j])
                fprintf(o, " %9ld", t->chi[j][k]);
            else if (t->why[j] == PP_SCALE_LIMIT && t->last[j] > 0 && k == 0 &&
                     snprintf(b, sizeof b, ">%ld", t->last[j]) < 10)
                fprintf(o, " %9s", b);
            else
                fprintf(o, " %9s", t->why[j] == PP_SCALE_LIMIT ? "limit" : "unreach.");
        }
        fprintf(o, "\n");
    }
    /* the time at those sizes, and its 90% interval */
    const char *row[3] = {"T_real", "90% lo", "90% hi"};
    for (int r = 0; r < 3; r++) {
        int any = 0;
        for (int j = 0; j < t->nP; j++)
            any |= st->t[j] >= 0 && (r == 0 || st->lo[j] <= st->hi[j]);
        if (!any)
            continue;
        fprintf(o, "%-8s", row[r]);
        for (int j = 0; j < t->nP; j++) {
            char b[32];
            if (st->t[j] < 0 || (r > 0 && st->lo[j] > st->hi[j]))
                fprintf(o, " %9s", "-");
            else
                fprintf(o, " %9s", pp_fmt_time(r == 0 ? st->t[j] : r == 1 ? st->lo[j] : st->hi[j], b, sizeof b));
        }
        fprintf(o, "\n");
    }
    print_notes(o, m, t);
}

static void print_csv(FILE *o, const pp_prog *m, const pp_scale_table *t, const pp_scale_times *st)
{
    const char *kind = t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination";
    fprintf(o, "%s %.4g", kind, t->target);
    for (int j = 0; j < t->nP; j++)
        fprintf(o, ",%d", t->P[j]);
    fprintf(o, "\n");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%d", t->P[i]);
        for (int j = 0; j < t->nP; j++) {
            if (j < i || isnan(t->scale[i][j]))
                fprintf(o, ",");
            else
                fprintf(o, ",%.6g", t->scale[i][j]);
        }
        fprintf(o, "\n");
    }
    for (int k = 0; k < t->nscale; k++) {
        fprintf(o, "%s", m->params[t->scale_param[k]].name);
        for (int j = 0; j < t->nP; j++)
            if (t->found[j])
                fprintf(o, ",%ld", t->chi[j][k]);
            else
                fprintf(o, ",");
        fprintf(o, "\n");
    }
    /* how each search ended; where it was not reached, the largest size
     * searched and its efficiency */
    fprintf(o, "search");
    for (int j = 0; j < t->nP; j++)
        fprintf(o, ",%s", pp_scale_why_name(t->why[j]));
    fprintf(o, "\nlargest");
    for (int j = 0; j < t->nP; j++)
        if (!t->found[j] && t->last[j] > 0)
            fprintf(o, ",%ld", t->last[j]);
        else
            fprintf(o, ",");
    fprintf(o, "\nlargest_eff");
    for (int j = 0; j < t->nP; j++)
        if (!t->found[j] && !isnan(t->last_eff[j]))
            fprintf(o, ",%.6g", t->last_eff[j]);
        else
            fprintf(o, ",");
    fprintf(o, "\n");
    const char *row[3] = {"T_real_s", "T_real_lo_s", "T_real_hi_s"};
    for (int r = 0; r < 3; r++) {
        fprintf(o, "%s", row[r]);
        for (int j = 0; j < t->nP; j++) {
            if (st->t[j] < 0 || (r > 0 && st->lo[j] > st->hi[j]))
                fprintf(o, ",");
            else
                fprintf(o, ",%.6g", (r == 0 ? st->t[j] : r == 1 ? st->lo[j] : st->hi[j]) / 1e9);
        }
        fprintf(o, "\n");
    }
}

static void print_json(FILE *o, const pp_prog *m, const pp_scale_table *t, const pp_scale_times *st)
{
    fprintf(o, "{\"kind\":\"%s\",\"efficiency\":", t->kind == PP_SCALE_ALGORITHMIC ? "algorithmic" : "combination");
    pp_json_num(o, t->target);
    fprintf(o, ",\"P\":[");
    for (int j = 0; j < t->nP; j++)
        fprintf(o, "%s%d", j ? "," : "", t->P[j]);
    fprintf(o, "],\"problem\":[");
    for (int j = 0; j < t->nP; j++) {
        if (!t->found[j]) {
            fprintf(o, "%snull", j ? "," : "");
            continue;
        }
        fprintf(o, "%s{", j ? "," : "");
        for (int k = 0; k < t->nscale; k++) {
            fprintf(o, "%s", k ? "," : "");
            pp_json_str(o, m->params[t->scale_param[k]].name);
            fprintf(o, ":%ld", t->chi[j][k]);
        }
        fprintf(o, "}");
    }
    fprintf(o, "],\"latency\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        pp_json_num(o, t->found[j] ? t->latency[j] / 1e9 : NAN);
    }
    fprintf(o, "],\"scale\":[");
    for (int i = 0; i < t->nP; i++) {
        fprintf(o, "%s[", i ? "," : "");
        for (int j = 0; j < t->nP; j++) {
            fprintf(o, "%s", j ? "," : "");
            pp_json_num(o, j < i ? NAN : t->scale[i][j]);
        }
        fprintf(o, "]");
    }
    fprintf(o, "],\"T_real\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        pp_json_num(o, st->t[j] >= 0 ? st->t[j] / 1e9 : NAN);
    }
    /* how each P's search ended, and where it stopped when not reached */
    fprintf(o, "],\"search\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s{\"result\":\"%s\"", j ? "," : "", pp_scale_why_name(t->why[j]));
        if (!t->found[j]) {
            fprintf(o, ",\"largest\":");
            if (t->last[j] > 0)
                fprintf(o, "%ld", t->last[j]);
            else
                fprintf(o, "null");
            fprintf(o, ",\"efficiency\":");
            pp_json_num(o, t->last_eff[j]);
            fprintf(o, ",\"estimate\":");
            pp_json_num(o, t->beyond[j]);
            /* what ended a search at its limit: --max, the sizes' own
             * limit (10^9), or the thread graph's actions */
            if (t->why[j] == PP_SCALE_LIMIT)
                fprintf(o, ",\"limited_by\":\"%s\"", pp_scale_limited_by(t, j));
        }
        fprintf(o, "}");
    }
    fprintf(o, "],\"interval\":[");
    for (int j = 0; j < t->nP; j++) {
        fprintf(o, "%s", j ? "," : "");
        if (st->t[j] < 0 || st->lo[j] > st->hi[j]) {
            fprintf(o, "null");
            continue;
        }
        fprintf(o, "[");
        pp_json_num(o, st->lo[j] / 1e9);
        fprintf(o, ",");
        pp_json_num(o, st->hi[j] / 1e9);
        fprintf(o, "]");
    }
    fprintf(o, "]}");
}

void pp_scale_out(FILE *o, pp_format fmt, const pp_cli *c, const pp_session *s, const pp_scale_table *tabs,
                  const pp_scale_times *times, int ntab)
{
    const pp_prog *m = &s->prog;
    if (fmt == PP_FMT_JSON)
        fprintf(o, "{");
    pp_session_mark(s, c, o, fmt);   /* a marked machine file: first */
    if (fmt == PP_FMT_JSON)
        fprintf(o, "\"tables\":[");
    if (s->has_with && fmt == PP_FMT_TEXT) {
        char w[1024];
        pp_whatif_text(&c->with, w, sizeof w);
        fprintf(o, "machine: %s with %s\n\n", c->machine ? c->machine : "built-in defaults", w);
    }
    for (int i = 0; i < ntab; i++) {
        if (fmt == PP_FMT_JSON) {
            fprintf(o, "%s", i ? "," : "");
            print_json(o, m, &tabs[i], &times[i]);
        } else if (fmt == PP_FMT_CSV) {
            if (i)
                fprintf(o, "\n");
            print_csv(o, m, &tabs[i], &times[i]);
        } else {
            if (i)
                fprintf(o, "\n");
            print_text(o, m, &tabs[i], &times[i]);
        }
    }
    if (fmt == PP_FMT_JSON)
        fprintf(o, "]}\n");
}

int pp_scale_out_file(const char *path, pp_format fmt, const pp_cli *c, const pp_session *s,
                      const pp_scale_table *tabs, const pp_scale_times *times, int ntab, char *err, size_t errlen)
{
    FILE *o = fopen(path, "w");
    if (!o) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    pp_scale_out(o, fmt, c, s, tabs, times, ntab);
    if (ferror(o) | (fclose(o) != 0)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(path);
        return -1;
    }
    return 0;
}
