/* machine-busy.c - what a machine file measured on a busy host means for
 * the numbers (docs/machine-format.md, "Busy host"): the one-line warning
 * that `perfpred predict` prints on stderr and `perfpred report` puts on
 * its pages.
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

void pp_machine_busy_line(const pp_machine *m, const char *path, char *buf, size_t len)
{
    if (len)
        buf[0] = 0;
    if (!m->busy)
        return;
    char load[96], costs[1024], by[1200];
    pp_machine_busy_load_text(m, load, sizeof load);
    int n = pp_machine_busy_costs_text(m, costs, sizeof costs);
    double bound = pp_machine_busy_bound(m);
    if (!n)
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
             path ? path : "the machine file", load, by);
}

void pp_machine_busy_warn(FILE *f, const char *cmd, const char *path, const pp_machine *m)
{
    if (!m->busy)
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
    fprintf(f, "],\"off_by_up_to\":");
    if (pp_machine_busy_bound(m) > 0)
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
