/* cli.c - option parsing and session start-up for the analyser's commands.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "replay.h"
#include "domain.h"
#include "costs.h"
#include "longrun.h"
#include "memory.h"
#include "metrics.h"
#include "mpirun.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int allowed_opt(const char *allowed, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = allowed; p && *p;) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = q ? q + 1 : NULL;
    }
    return 0;
}

static int parse_plist(const char *s, pp_cli *c, char *err, size_t errlen)
{
    free(c->P);
    c->P = NULL;
    c->nP = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < 1 || v > 1000000) {
            snprintf(err, errlen, "--P: '%s' is not a list of processor counts (1..1000000) like 2,4,8", s);
            return -1;
        }
        int *np = realloc(c->P, sizeof *np * (size_t)(c->nP + 1));
        if (!np)
            return -1;
        c->P = np;
        c->P[c->nP++] = (int)v;
        if (*end == ',')
            end++;
        else if (*end) {
            snprintf(err, errlen, "--P: '%s' is not a list of processor counts like 2,4,8", s);
            return -1;
        }
        p = end;
    }
    if (!c->nP) {
        snprintf(err, errlen, "--P needs at least one processor count");
        return -1;
    }
    return 0;
}

static int parse_eff(const char *opt, const char *v, double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x > 0 && x <= 1)) {
        snprintf(err, errlen, "%s: '%s' is not an efficiency in (0, 1]", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

int pp_cli_parse(int argc, char **argv, const char *allowed, pp_cli *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->model_error = -1;
    c->cost_quantile = -1;
    c->cache_rule = 1;   /* the memory model (memory.h); --cache-rule off */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            c->help = 1;
            continue;
        }
        if (a[0] != '-' || !a[1]) {
            char **nr = realloc(c->rec, sizeof *nr * (size_t)(c->nrec + 1));
            if (!nr)
                return -1;
            c->rec = nr;
            c->rec[c->nrec++] = argv[i];
            continue;
        }
        /* --opt VALUE or --opt=VALUE */
        const char *name = a + (a[1] == '-' ? 2 : 1);
        const char *val = NULL;
        char nbuf[64];
        const char *eq = strchr(name, '=');
        if (eq) {
            snprintf(nbuf, sizeof nbuf, "%.*s", (int)(eq - name), name);
            name = nbuf;
            val = eq + 1;
        }
        const char *key = !strcmp(name, "o") ? "o" : name;
        if (!allowed_opt(allowed, key)) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", a);
            return -1;
        }
        if (!strcmp(key, "threads")) {      /* a flag: no value */
            if (val) {
                snprintf(err, errlen, "--threads takes no value");
                return -1;
            }
            c->threads = 1;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "option '%s' needs a value", a);
                return -1;
            }
            val = argv[++i];
        }
        if (!strcmp(key, "set")) {
            const char *e = strchr(val, '=');
            char *end;
            long v = 0;
            if (e) {
                errno = 0;
                v = strtol(e + 1, &end, 10);
            }
            if (e && e != val && e[1] && errno == ERANGE) {
                snprintf(err, errlen, "--set %s: the value is out of range (%ld to %ld)", val, LONG_MIN, LONG_MAX);
                return -1;
            }
            if (e && e != val && e[1] && (errno || *end)) {
                snprintf(err, errlen, "--set %s: '%s' is not an integer (parameters are C integers: sizes, "
                         "counts)", val, e + 1);
                return -1;
            }
            if (!e || e == val || errno || *end || e[1] == 0) {
                snprintf(err, errlen, "--set: '%s' is not NAME=INTEGER", val);
                return -1;
            }
            char **nn = realloc(c->set_name, sizeof *nn * (size_t)(c->nset + 1));
            long *nv = realloc(c->set_val, sizeof *nv * (size_t)(c->nset + 1));
            if (nn)
                c->set_name = nn;
            if (nv)
                c->set_val = nv;
            if (!nn || !nv)
                return -1;
            c->set_name[c->nset] = strndup(val, (size_t)(e - val));
            c->set_val[c->nset++] = v;
        } else if (!strcmp(key, "machine"))
            c->machine = val;
        else if (!strcmp(key, "P")) {
            if (parse_plist(val, c, err, errlen))
                return -1;
        } else if (!strcmp(key, "format")) {
            c->format_given = 1;
            if (!strcmp(val, "text")) c->format = PP_FMT_TEXT;
            else if (!strcmp(val, "csv")) c->format = PP_FMT_CSV;
            else if (!strcmp(val, "json")) c->format = PP_FMT_JSON;
            else if (!strcmp(val, "dot")) c->format = PP_FMT_DOT;
            else if (!strcmp(val, "svg")) c->format = PP_FMT_SVG;
            else if (!strcmp(val, "sympy") && allowed_opt(allowed, "casfmt")) c->format = PP_FMT_SYMPY;
            else if (!strcmp(val, "maxima") && allowed_opt(allowed, "casfmt")) c->format = PP_FMT_MAXIMA;
            else {
                snprintf(err, errlen, "--format: '%s' is not one of %s%s", val,
                         allowed_opt(allowed, "casfmt") ? "text, sympy, maxima, json" : "text, csv, json",
                         allowed_opt(allowed, "graphfmt") ? ", dot, svg" : "");
                return -1;
            }
        } else if (!strcmp(key, "o"))
            c->out = val;
        else if (!strcmp(key, "block"))
            c->block = val;
        else if (!strcmp(key, "scale")) {
            char *dup = strdup(val);
            for (char *tok = strtok(dup, ","); tok; tok = strtok(NULL, ",")) {
                char **ns = realloc(c->scale, sizeof *ns * (size_t)(c->nscale + 1));
                if (!ns)
                    break;
                c->scale = ns;
                c->scale[c->nscale++] = strdup(tok);
            }
            free(dup);
        } else if (!strcmp(key, "point")) {
            char **np = realloc(c->points, sizeof *np * (size_t)(c->npoints + 1));
            if (!np)
                return -1;
            c->points = np;
            c->points[c->npoints++] = strdup(val);
        } else if (!strcmp(key, "run")) {
            c->run = val;
        } else if (!strcmp(key, "repeat")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 1 || v > 100) {
                snprintf(err, errlen, "--repeat: '%s' is not a count from 1 to 100", val);
                return -1;
            }
            c->repeat = (int)v;
        } else if (!strcmp(key, "cache-rule")) {
            if (strcmp(val, "on") && strcmp(val, "off")) {
                snprintf(err, errlen, "--cache-rule: '%s' is not on or off", val);
                return -1;
            }
            c->cache_rule = !strcmp(val, "on");
        } else if (!strcmp(key, "model-error")) {
            char *end;
            double v = strtod(val, &end);
            if (*end || end == val || !(v >= 0 && v <= 1)) {
                snprintf(err, errlen, "--model-error: '%s' is not a relative error per doubling from 0 to 1", val);
                return -1;
            }
            c->model_error = v;
        } else if (!strcmp(key, "cost-quantile")) {
            char *end;
            double v = strtod(val, &end);
            if (!strcmp(val, "mean"))
                v = 0;
            else if (*end || end == val || !(v > 0 && v < 1)) {
                snprintf(err, errlen, "--cost-quantile: '%s' is not a quantile between 0 and 1 or 'mean'", val);
                return -1;
            }
            c->cost_quantile = v;
        } else if (!strcmp(key, "view")) {
            if (strcmp(val, "mpi") && strcmp(val, "model")) {
                snprintf(err, errlen, "--view: '%s' is not mpi or model", val);
                return -1;
            }
            c->view_model = !strcmp(val, "model");
        } else if (!strcmp(key, "insitu")) {
            if (strcmp(val, "on") && strcmp(val, "off")) {
                snprintf(err, errlen, "--insitu: '%s' is not on or off", val);
                return -1;
            }
            c->insitu_off = !strcmp(val, "off");
        } else if (!strcmp(key, "csv")) {
            c->also_csv = val;
        } else if (!strcmp(key, "json")) {
            c->also_json = val;
        } else if (!strcmp(key, "draws")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 0 || v > 10000) {
                snprintf(err, errlen, "--draws: '%s' is not a count from 0 to 10000", val);
                return -1;
            }
            c->draws = (int)v;
            c->has_draws = 1;
        } else if (!strcmp(key, "with")) {
            if (pp_whatif_parse(&c->with, val, err, errlen))
                return -1;
        } else if (!strcmp(key, "by")) {
            if (!strcmp(val, "loop")) c->by = 1;
            else if (!strcmp(val, "function")) c->by = 2;
            else if (!strcmp(val, "event")) c->by = 3;
            else {
                snprintf(err, errlen, "--by: '%s' is not loop, function or event", val);
                return -1;
            }
        } else if (!strcmp(key, "region")) {
            c->region = val;
        } else if (!strcmp(key, "on")) {
            if (strcmp(val, "real") && strcmp(val, "pram")) {
                snprintf(err, errlen, "--on: '%s' is not real or pram", val);
                return -1;
            }
            c->on = !strcmp(val, "real") ? 1 : 2;
        } else if (!strcmp(key, "max-events")) {
            char *end;
            errno = 0;
            long v = strtol(val, &end, 10);
            if (*end || end == val || errno || v < 1) {
                snprintf(err, errlen, "--max-events: '%s' is not a positive count", val);
                return -1;
            }
            c->max_events = v;
        } else if (!strcmp(key, "max")) {
            char *end;
            errno = 0;
            long v = strtol(val, &end, 10);
            if (*end || end == val || errno || v < 1 || v > 1000000000L) {
                snprintf(err, errlen, "--max: '%s' is not a size from 1 to 10^9", val);
                return -1;
            }
            c->max_size = v;
        } else if (!strcmp(key, "plot")) {
            size_t n = strlen(val);
            if (n < 5 || strcmp(val + n - 4, ".svg")) {
                snprintf(err, errlen, "--plot: '%s' is not a file name ending in .svg", val);
                return -1;
            }
            c->plot = val;
        } else if (!strcmp(key, "param")) {
            free(c->params);
            c->params = strdup(val);
        } else if (!strcmp(key, "along")) {
            free(c->along);
            c->along = strdup(val);
        } else if (!strcmp(key, "Ea")) {
            if (parse_eff("--Ea", val, &c->Ea, err, errlen))
                return -1;
            c->has_Ea = 1;
        } else if (!strcmp(key, "E")) {
            if (parse_eff("--E", val, &c->E, err, errlen))
                return -1;
            c->has_E = 1;
        }
    }
    if (c->format_given && (c->format == PP_FMT_DOT || c->format == PP_FMT_SVG) && !allowed_opt(allowed, "graphfmt")) {
        snprintf(err, errlen, "--format: dot and svg are for 'graph' only");
        return -1;
    }
    return 0;
}

void pp_cli_free(pp_cli *c)
{
    for (int i = 0; i < c->nset; i++)
        free(c->set_name[i]);
    for (int i = 0; i < c->nscale; i++)
        free(c->scale[i]);
    for (int i = 0; i < c->npoints; i++)
        free(c->points[i]);
    free(c->points);
    free(c->set_name);
    free(c->set_val);
    free(c->scale);
    free(c->rec);
    free(c->P);
    free(c->params);
    free(c->along);
    memset(c, 0, sizeof *c);
}

int pp_session_open(pp_session *s, const pp_cli *c, int need_machine, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (c->nrec == 0) {
        snprintf(err, errlen, "no record given (a file written by a program built with the plugin, "
                              "e.g. PERFPRED_RECORD=run.ppr ./prog)");
        return -1;
    }
    int nmpi = 0;
    for (int i = 0; i < c->nrec; i++)
        nmpi += pp_mpirun_is(c->rec[i]) == 1;
    if (nmpi > 0 && nmpi < c->nrec) {
        for (int i = 0; i < c->nrec; i++)
            if (pp_mpirun_is(c->rec[i]) != 1) {
                snprintf(err, errlen, "%s: not an MPI run, given with MPI runs (%s): give runs of one "
                         "program", c->rec[i], c->rec[0]);
                break;
            }
        return -1;
    }
    pp_record **all = NULL;
    int nall = 0;
    if (nmpi > 0) {
        /* MPI runs: every rank's record is one record of the model */
        s->runs = calloc((size_t)c->nrec, sizeof *s->runs);
        if (!s->runs) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (int i = 0; i < c->nrec; i++) {
            if (pp_mpirun_load(c->rec[i], &s->runs[i], err, errlen)) {
                pp_session_close(s);
                return -1;
            }
            s->nruns++;
            nall += s->runs[i].nranks;
        }
        all = calloc((size_t)nall, sizeof *all);
        if (!all) {
            snprintf(err, errlen, "out of memory");
            pp_session_close(s);
            return -1;
        }
        /* run 0's rank 0 is the primary record: parameters default to it */
        s->rec = s->runs[0].rank[0];
        memset(&s->runs[0].rank[0], 0, sizeof s->runs[0].rank[0]);
        s->runs[0].rank[0].mpi_rank = -1;
        nall = 0;
        all[nall++] = &s->rec;
        for (int i = 0; i < s->nruns; i++)
            for (int k = i == 0 ? 1 : 0; k < s->runs[i].nranks; k++)
                all[nall++] = &s->runs[i].rank[k];
    } else {
        if (pp_record_load(c->rec[0], &s->rec, err, errlen))
            return -1;
        /* more records: the same program run at other sizes; costs are
         * fitted on all of them and counts checked against each */
        all = calloc((size_t)c->nrec, sizeof *all);
        s->extra = calloc((size_t)c->nrec, sizeof *s->extra);
        if (!all || !s->extra) {
            free(all);
            snprintf(err, errlen, "out of memory");
            pp_session_close(s);
            return -1;
        }
        all[nall++] = &s->rec;
        for (int i = 1; i < c->nrec; i++) {
            if (pp_record_load(c->rec[i], &s->extra[i - 1], err, errlen)) {
                free(all);
                pp_session_close(s);
                return -1;
            }
            s->nextra++;
            all[nall++] = &s->extra[i - 1];
        }
    }
    /* builds at other values of their size macros: the constants that
     * differ become expressions of the macros, problem parameters */
    if (pp_macros_unify(all, nall, &s->macros, err, errlen)) {
        free(all);
        pp_session_close(s);
        return -1;
    }
    /* the machine first: its linear model, when it has one, is the prior
     * of the cost fit */
    if (need_machine) {
        if (c->machine) {
            if (pp_machine_load(c->machine, &s->mach, err, errlen)) {
                free(all);
                pp_session_close(s);
                return -1;
            }
        } else {
            pp_machine_default(&s->mach);
            if (!c->quiet_default)
                fprintf(stderr, "perfpred: no --machine given: the real machine uses built-in default costs "
                                "(run 'perfpred calibrate -o host.machine' for this host's)\n");
        }
        s->have_machine = 1;
    }
    int rc = pp_prog_build_with(&s->prog, all, nall, s->have_machine ? &s->mach : NULL, err, errlen);
    free(all);
    if (rc && s->macros.nbuilds > 1 && strstr(err, "not a record of the same program")) {
        /* builds at other macro values that GCC compiled differently */
        char names[120] = "";
        for (int i = 0; i < s->macros.nmacros && strlen(names) < 80; i++)
            if (s->macros.macros[i].varies)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "",
                         s->macros.macros[i].name);
        size_t len = strlen(err);
        if (names[0])
            snprintf(err + len, errlen > len ? errlen - len : 0,
                     "; builds at other values of their size macros (%s) must differ only in the constants "
                     "the macros give", names);
    }
    if (rc == 0 && pp_vals_init(&s->vals, &s->prog)) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc) {
        pp_session_close(s);
        return -1;
    }
    /* what the builds could not settle (macro-sizes.h), said once */
    {
        int unchecked = 0;
        const char *example = NULL;
        for (int i = 0; i < s->macros.nrules; i++)
            if (s->macros.rules[i].checked <= 0) {
                unchecked += s->macros.rules[i].uses;
                if (!example)
                    example = s->macros.rules[i].rule;
            }
        if (unchecked)
            pp_prog_warn(&s->prog, "%d constant%s of the builds follow%s a form of the size macros fitted to "
                         "them and checked on no other build (%s): give a third build to check it",
                         unchecked, unchecked == 1 ? "" : "s", unchecked == 1 ? "s" : "", example);
        if (s->macros.nunmatched)
            pp_prog_warn(&s->prog, "%d constant%s that differ%s between the builds follow%s no form of the size "
                         "macros: kept at the first record's value (show lists them)", s->macros.nunmatched,
                         s->macros.nunmatched == 1 ? "" : "s", s->macros.nunmatched == 1 ? "s" : "",
                         s->macros.nunmatched == 1 ? "s" : "");
    }
    /* the fit takes the memory traffic the recorded threads shared out of
     * the costs only with the memory model on (cost.c) */
    int refit = s->prog.cache_rule != c->cache_rule;
    s->prog.cache_rule = c->cache_rule;
    if (c->cost_quantile >= 0 && c->cost_quantile != s->prog.cost_quantile) {
        s->prog.cost_quantile = c->cost_quantile;
        refit = 1;
    }
    if (refit) {
        if (pp_prog_refit_costs(&s->prog, s->have_machine ? &s->mach : NULL, err, errlen)) {
            pp_session_close(s);
            return -1;
        }
    }
    if (c->model_error >= 0)
        s->prog.model_error = c->model_error;
    /* the memory model's prices at the recorded size on this machine (the
     * commands pass it, loaded or not), as the run measured it: before a
     * what-if changes it (memory.h) */
    if (pp_mem_prepare(&s->prog, &s->mach)) {
        snprintf(err, errlen, "out of memory");
        pp_session_close(s);
        return -1;
    }
    /* the model must reproduce the run before anything is predicted */
    if (pp_replay_check(&s->prog, s->have_machine ? &s->mach : NULL, err, errlen)) {
        if (!c->replay_warns) {
            pp_session_close(s);
            return -1;
        }
        pp_prog_warn(&s->prog, "%s", err);
        err[0] = 0;
    }
    /* before --set: the replay moves the parameters to each record's */
    /* the ranks' synchronisation is MPI's: its costs are the network's */
    if (s->have_machine && s->prog.mpi)
        snprintf(s->insitu.why, sizeof s->insitu.why, "an MPI run");
    else if (s->have_machine && !c->insitu_off && pp_insitu_sync(&s->prog, &s->mach, &s->insitu, err, errlen)) {
        pp_session_close(s);
        return -1;
    }
    if (s->have_machine && c->insitu_off)
        snprintf(s->insitu.why, sizeof s->insitu.why, "--insitu off");
    /* --with after the in-situ factor: the values are what the program sees */
    s->speed = 1.0;
    if (c->with.n > 0 && s->have_machine) {
        s->has_with = 1;
        s->base = s->mach;
        if (pp_mem_prepare(&s->prog, &s->base)) {
            snprintf(err, errlen, "out of memory");
            pp_session_close(s);
            return -1;
        }
        if (pp_whatif_apply_machine(&c->with, &s->mach, err, errlen)) {
            pp_session_close(s);
            return -1;
        }
        s->speed = pp_whatif_speed(&c->with);
        if (s->speed != 1.0) {
            s->base_cost = pp_costs_copy(&s->prog);
            if (!s->base_cost) {
                snprintf(err, errlen, "out of memory");
                pp_session_close(s);
                return -1;
            }
            pp_prog_scale_compute(&s->prog, 1.0 / s->speed);
        }
    }
    for (int i = 0; i < c->nset; i++) {
        /* a size macro of a single build: no parameter, and no other size
         * without another build */
        const pp_msize *ms = pp_macros_find(&s->macros, c->set_name[i]);
        char hint[200];
        if (ms && !ms->used && pp_macros_hint(&s->macros, hint, sizeof hint)) {
            snprintf(err, errlen, "--set %s: %s is a macro of the program (%ld in this build), fixed at "
                     "compile time%s%s%s: %s", c->set_name[i], c->set_name[i], ms->value[0],
                     ms->array ? " (it sizes the static array " : "", ms->array ? ms->array : "",
                     ms->array ? ")" : "", hint);
            pp_session_close(s);
            return -1;
        }
        if (pp_vals_set(&s->prog, &s->vals, c->set_name[i], c->set_val[i], err, errlen)) {
            pp_session_close(s);
            return -1;
        }
    }
    /* values outside the program's domain: refused; loops they empty:
     * said (domain.h) */
    if (c->nset > 0) {
        char how[512] = "--set", empties[1024];
        if (pp_domain_check(&s->prog, &s->vals, how, err, errlen, empties, sizeof empties)) {
            pp_session_close(s);
            return -1;
        }
        if (empties[0]) {
            for (int i = 0, len = 5; i < c->nset && len < (int)sizeof how - 40; i++)
                len += snprintf(how + len, sizeof how - (size_t)len, " %s=%ld", c->set_name[i], c->set_val[i]);
            pp_prog_warn(&s->prog, "%s empties %s %s: %s zero times (the count is zero or "
                         "negative there: C runs a loop whose bound is not reached zero times)", how,
                         strstr(empties, "), ") ? "loops" : "loop", empties,
                         strstr(empties, "), ") ? "they run" : "it runs");
        }
    }
    /* --set of the thread-count parameter is a P: it must be one */
    if (s->prog.pkind == PP_P_PARAM) {
        long p = s->vals.v[s->prog.p_param] + s->prog.p_offset;
        if (p < 1 || p > 1000000) {
            snprintf(err, errlen, "--set %s=%ld gives %ld threads: the thread count must be 1 to 1000000",
                     s->prog.params[s->prog.p_param].name, s->vals.v[s->prog.p_param], p);
            pp_session_close(s);
            return -1;
        }
    }
    return 0;
}

int pp_session_baseline_real(pp_session *s, int P, double *t_real, char *err, size_t errlen)
{
    return pp_predict_real_with(&s->prog, &s->vals, s->base_cost, s->has_with ? &s->base : &s->mach, P, t_real,
                                err, errlen);
}

void pp_session_close(pp_session *s)
{
    free(s->base_cost);
    s->base_cost = NULL;
    pp_macros_free(&s->macros);
    pp_vals_free(&s->vals);
    pp_prog_free(&s->prog);
    pp_record_free(&s->rec);
    for (int i = 0; i < s->nextra; i++)
        pp_record_free(&s->extra[i]);
    free(s->extra);
    for (int i = 0; i < s->nruns; i++)
        pp_mpirun_free(&s->runs[i]);
    free(s->runs);
    s->runs = NULL;
    s->nruns = 0;
    s->extra = NULL;
    s->nextra = 0;
}

void pp_session_warn(const pp_session *s)
{
    for (int i = 0; i < s->prog.nwarn; i++)
        fprintf(stderr, "perfpred: warning: %s\n", s->prog.warn[i]);
}

void pp_cli_progress(void *ctx, const char *what, int done, int total)
{
    (void)ctx;
    if (!isatty(2))
        return;
    if (!what)
        fprintf(stderr, "\r%60s\r", "");
    else
        fprintf(stderr, "\r%s: %d/%d ", what, done, total);
    fflush(stderr);
}

void pp_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void pp_json_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

void pp_json_interval(FILE *f, double lo, double hi, double costs, double host, double model, double counts)
{
    fputc('[', f);
    pp_json_num(f, lo);
    fputc(',', f);
    pp_json_num(f, hi);
    fputs("],\"interval_parts\":{\"costs\":", f);
    pp_json_num(f, costs);
    fputs(",\"host\":", f);
    pp_json_num(f, host);
    fputs(",\"model\":", f);
    pp_json_num(f, model);
    fputs(",\"counts\":", f);
    pp_json_num(f, counts);
    fputc('}', f);
}

const char *pp_fmt_time(double ns, char *buf, size_t n)
{
    double a = fabs(ns);
    if (a >= 1e9)
        snprintf(buf, n, "%.4g s", ns / 1e9);
    else if (a >= 1e6)
        snprintf(buf, n, "%.4g ms", ns / 1e6);
    else if (a >= 1e3)
        snprintf(buf, n, "%.4g us", ns / 1e3);
    else
        snprintf(buf, n, "%.4g ns", ns);
    return buf;
}

int pp_cli_start(int argc, char **argv, const char *cmd, const char *allowed, const char *usage, pp_cli *c)
{
    char err[1024];
    pp_long_command(cmd);
    if (pp_cli_parse(argc, argv, allowed, c, err, sizeof err)) {
        fprintf(stderr, "perfpred %s: %s\n%s", cmd, err, usage);
        pp_cli_free(c);
        return 2;
    }
    if (c->help) {
        fputs(usage, stdout);
        pp_cli_free(c);
        return 0;
    }
    return -1;
}

int pp_cli_open(const char *cmd, pp_cli *c, int need_machine, pp_session *s)
{
    char err[2048];
    if (pp_session_open(s, c, need_machine, err, sizeof err)) {
        fprintf(stderr, "perfpred %s: %s\n", cmd, err);
        pp_cli_free(c);
        return 2;
    }
    pp_session_warn(s);
    /* a machine file marked busy (docs/machine-format.md): once on stderr
     * here; pp_session_mark puts it at the top of the output */
    if (s->have_machine && c->machine)
        pp_machine_busy_warn(stderr, cmd, c->machine, &s->mach);
    return -1;
}

void pp_session_mark(const pp_session *s, const pp_cli *c, FILE *f, pp_format fmt)
{
    if (!s->have_machine || !c->machine)
        return;
    pp_machine_mark_print(f, fmt == PP_FMT_JSON ? PP_MARK_JSON : fmt == PP_FMT_CSV ? PP_MARK_CSV : PP_MARK_TEXT,
                          &s->mach, c->machine);
}

void pp_session_insitu_text(const pp_session *s, FILE *f)
{
    const pp_insitu *q = &s->insitu;
    if (!s->have_machine)
        return;
    char a[32], b[32], c[32];
    if (q->applied) {
        fprintf(f, "  synchronisation costs x%.3g the machine file's%s: the model then replays the recorded "
                   "run%s in %s (recorded %s",
                q->factor, q->at_bound < 0 ? " (the lower bound)" : q->at_bound > 0 ? " (the upper bound)" : "",
                s->nextra ? "s" : "", pp_fmt_time(q->fit_ns, a, sizeof a), pp_fmt_time(q->rec_ns, b, sizeof b));
        if (q->startup_ns > 0)
            fprintf(f, " after %s of OpenMP start-up", pp_fmt_time(q->startup_ns, c, sizeof c));
        fprintf(f, ")\n");
    } else if (q->why[0])
        fprintf(f, "  synchronisation costs as in the machine file (%s)\n", q->why);
}
