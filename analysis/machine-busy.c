/* machine-busy.c - what a machine file measured on a busy host means for
 * the numbers (docs/machine-format.md, "Busy host"): the one-line warning
 * that `perfpred predict` prints on stderr and `perfpred report` puts on
 * its pages, and the note every output using such a file starts with
 * (pp_machine_mark_print).  A file is marked by busy = 1, by a busy.steal
 * above 0.25 or by a cost whose spread is above 2 (calibrate_rounds.c).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "machine.h"
#include "cli.h"      /* pp_json_str, pp_json_num */

#include <stdio.h>
#include <string.h>

double pp_machine_busy_factor(const pp_machine *m)
{
    double f = 0;
    for (int c = 0; c < PP_COST_N; c++)
        if (m->busy_share[c] > 0 && m->busy_factor[c] > f)
            f = m->busy_factor[c];
    return f;
}

/* The samples kept in the fit are within 3x of their point's median
 * (calibrate.c, measure): while fewer than half of a cost's samples were
 * disturbed, the median is an undisturbed one and the cost is at most 3x
 * too high. */
double pp_machine_busy_bound(const pp_machine *m)
{
    int any = 0;
    for (int c = 0; c < PP_COST_N; c++) {
        if (m->busy_share[c] >= 0.5)
            return 0;
        any |= m->busy_share[c] > 0;
    }
    return any ? 3 : 0;
}

void pp_machine_busy_load_text(const pp_machine *m, char *buf, size_t len)
{
    if (m->busy_load > 0)
        snprintf(buf, len, "load average %.2f on %d processor%s", m->busy_load, m->cores,
                 m->cores == 1 ? "" : "s");
    else
        snprintf(buf, len, "load average not recorded");
}

int pp_machine_busy_costs_text(const pp_machine *m, char *buf, size_t len)
{
    int n = 0;
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int c = 0; c < PP_COST_N; c++) {
        if (!(m->busy_share[c] > 0))
            continue;
        char one[160];
        if (m->busy_factor[c] > 0)
            snprintf(one, sizeof one, "%s%s: %.0f%% of its samples, up to %.1fx", n ? "; " : "",
                     pp_cost_key((pp_cost_id)c), 100 * m->busy_share[c], m->busy_factor[c]);
        else
            snprintf(one, sizeof one, "%s%s: %.0f%% of its samples", n ? "; " : "", pp_cost_key((pp_cost_id)c),
                     100 * m->busy_share[c]);
        if (used + strlen(one) + 1 < len) {
            memcpy(buf + used, one, strlen(one) + 1);
            used += strlen(one);
        }
        n++;
    }
    return n;
}

int pp_machine_cost_marked(const pp_machine *m, int c)
{
    return c >= 0 && c < PP_COST_N && m->spread[c] > 2.0;
}

int pp_machine_marked(const pp_machine *m)
{
    if (m->busy || m->busy_steal > 0.25)
        return 1;
    for (int c = 0; c < PP_COST_N; c++)
        if (pp_machine_cost_marked(m, c))
            return 1;
    return 0;
}

/* "forkjoin.omp 3.1x, barrier.omp 2.4x" ("" when none); returns how many */
static int spread_text(const pp_machine *m, char *buf, size_t len)
{
    int n = 0;
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int c = 0; c < PP_COST_N; c++) {
        if (!pp_machine_cost_marked(m, c))
            continue;
        char one[96];
        snprintf(one, sizeof one, m->spread[c] < 10 ? "%s%s %.1fx" : "%s%s %.0fx", n ? ", " : "",
                 pp_cost_key((pp_cost_id)c), m->spread[c]);
        if (used + strlen(one) + 1 < len) {
            memcpy(buf + used, one, strlen(one) + 1);
            used += strlen(one);
        }
        n++;
    }
    return n;
}

void pp_machine_busy_line(const pp_machine *m, const char *path, char *buf, size_t len)
{
    if (len)
        buf[0] = 0;
    if (!pp_machine_marked(m))
        return;
    char load[96], costs[1024], by[1400], spreads[512], why[900];
    pp_machine_busy_load_text(m, load, sizeof load);
    int n = pp_machine_busy_costs_text(m, costs, sizeof costs);
    int ns = spread_text(m, spreads, sizeof spreads);
    int steal = m->busy_steal > 0.25;
    /* what the rounds saw, after the load average */
    snprintf(why, sizeof why, "%s", load);
    if (steal) {
        size_t u = strlen(why);
        snprintf(why + u, sizeof why - u, "; a spin on every processor lost %.0f%% of its time",
                 100 * m->busy_steal);
    }
    if (ns) {
        size_t u = strlen(why);
        snprintf(why + u, sizeof why - u, "; rounds that disagree by more than 2x: %s", spreads);
    }
    double bound = pp_machine_busy_bound(m);
    if (steal || ns)
        /* every round may have waited: no bound */
        snprintf(by, sizeof by, "too high (by how much is not known%s%s)", n ? "; disturbed samples: " : "",
                 n ? costs : "");
    else if (!n)
        snprintf(by, sizeof by, "too high, by how much the file does not record");
    else if (bound > 0)
        snprintf(by, sizeof by, "off by up to %.0fx (the samples kept in the fit are within %.0fx of their "
                 "median; the disturbed ones, left out, were up to %.0fx slower: %s)", bound, bound,
                 pp_machine_busy_factor(m), costs);
    else
        snprintf(by, sizeof by, "off by more than 3x (over half of some cost's samples were disturbed, up to "
                 "%.0fx slower: %s)", pp_machine_busy_factor(m), costs);
    snprintf(buf, len,
             "%s was calibrated on a busy host (%s): its synchronisation costs may include waiting for a "
             "processor, so times on the real machine (T_real, L, E) may be %s where those costs count "
             "(T_MIRACLE and T_PRAM do not use them); calibrate again on an idle host",
             path ? path : "the machine file", why, by);
}

void pp_machine_mark_note(const pp_machine *m, const char *path, char *buf, size_t len)
{
    if (len)
        buf[0] = 0;
    if (!pp_machine_marked(m))
        return;
    char line[2048];
    pp_machine_busy_line(m, path, line, sizeof line);
    snprintf(buf, len, "warning: %s", line);
}

void pp_machine_mark_print(FILE *f, int how, const pp_machine *m, const char *path)
{
    if (!pp_machine_marked(m))
        return;
    char note[2100];
    pp_machine_mark_note(m, path, note, sizeof note);
    if (how == PP_MARK_JSON) {
        fprintf(f, "\"machine_warning\":");
        pp_json_str(f, note);
        fprintf(f, ",");
    } else
        fprintf(f, "%s%s\n", how == PP_MARK_CSV ? "# " : "", note);
}

void pp_machine_busy_warn(FILE *f, const char *cmd, const char *path, const pp_machine *m)
{
    if (!pp_machine_marked(m))
        return;
    char line[2048];
    pp_machine_busy_line(m, path, line, sizeof line);
    fprintf(f, "perfpred %s: warning: %s\n", cmd, line);
}

void pp_machine_busy_json(FILE *f, const pp_machine *m, const char *path)
{
    char line[2048];
    pp_machine_busy_line(m, path, line, sizeof line);
    fprintf(f, "{\"load\":");
    if (m->busy_load > 0)
        pp_json_num(f, m->busy_load);
    else
        fprintf(f, "null");
    fprintf(f, ",\"cores\":%d,\"disturbed\":[", m->cores);
    int n = 0;
    for (int c = 0; c < PP_COST_N; c++)
        if (m->busy_share[c] > 0) {
            fprintf(f, "%s{\"cost\":", n++ ? "," : "");
            pp_json_str(f, pp_cost_key((pp_cost_id)c));
            fprintf(f, ",\"share\":");
            pp_json_num(f, m->busy_share[c]);
            fprintf(f, ",\"factor\":");
            if (m->busy_factor[c] > 0)
                pp_json_num(f, m->busy_factor[c]);
            else
                fprintf(f, "null");
            fprintf(f, "}");
        }
    fprintf(f, "],\"steal\":");
    if (m->busy_rounds > 0)
        pp_json_num(f, m->busy_steal);
    else
        fprintf(f, "null");
    fprintf(f, ",\"rounds_disagree\":[");
    n = 0;
    int ns = 0;
    for (int c = 0; c < PP_COST_N; c++)
        if (pp_machine_cost_marked(m, c)) {
            fprintf(f, "%s{\"cost\":", n++ ? "," : "");
            pp_json_str(f, pp_cost_key((pp_cost_id)c));
            fprintf(f, ",\"spread\":");
            pp_json_num(f, m->spread[c]);
            fprintf(f, "}");
            ns++;
        }
    fprintf(f, "],\"off_by_up_to\":");
    if (pp_machine_busy_bound(m) > 0 && !ns && !(m->busy_steal > 0.25))
        pp_json_num(f, pp_machine_busy_bound(m));
    else
        fprintf(f, "null");
    fprintf(f, ",\"max_factor\":");
    if (pp_machine_busy_factor(m) > 0)
        pp_json_num(f, pp_machine_busy_factor(m));
    else
        fprintf(f, "null");
    fprintf(f, ",\"warning\":");
    pp_json_str(f, line);
    fprintf(f, "}");
}
