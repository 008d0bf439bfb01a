/* experiment.c - the experiment file reader (see experiment.h and
 * docs/experiment-format.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "experiment.h"
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static int parse_int(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno)
        return -1;
    *out = v;
    return 0;
}

static int push(long **v, int *n, long x, char *err, size_t errlen)
{
    if (*n >= PP_EXP_MAXVALUES) {
        snprintf(err, errlen, "more than %d values", PP_EXP_MAXVALUES);
        return -1;
    }
    if (*n > 0 && x <= (*v)[*n - 1]) {
        snprintf(err, errlen, "the values must increase: %ld after %ld", x, (*v)[*n - 1]);
        return -1;
    }
    long *nv = realloc(*v, sizeof *nv * (size_t)(*n + 1));
    if (!nv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *v = nv;
    nv[(*n)++] = x;
    return 0;
}

int pp_exp_parse_list(const char *s, long **v, int *n, char *err, size_t errlen)
{
    *v = NULL;
    *n = 0;
    char *dup = strdup(s);
    if (!dup) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(dup, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        char *t = trim(tok);
        char *dots = strstr(t, "..");
        long a, b, k = 2;
        char op = '*';
        if (!dots) {
            if (parse_int(t, &a)) {
                snprintf(err, errlen, "'%s' is not an integer, A..B, A..B*K or A..B+K", t);
                rc = -1;
            } else
                rc = push(v, n, a, err, errlen);
            continue;
        }
        *dots = 0;
        char *bs = dots + 2, *ks = strpbrk(bs, "*+");
        if (ks) {
            op = *ks;
            *ks++ = 0;
        }
        if (parse_int(trim(t), &a) || parse_int(trim(bs), &b) || (ks && parse_int(trim(ks), &k))) {
            snprintf(err, errlen, "'%s..%s%s%s' is not A..B, A..B*K or A..B+K with integers", t, bs,
                     ks ? (op == '*' ? "*" : "+") : "", ks ? ks : "");
            rc = -1;
        } else if (a > b) {
            snprintf(err, errlen, "%ld..%ld: the range is empty (%ld > %ld)", a, b, a, b);
            rc = -1;
        } else if (op == '*' && (a < 1 || k < 2)) {
            snprintf(err, errlen, "%ld..%ld*%ld: a geometric range needs A >= 1 and K >= 2", a, b, k);
            rc = -1;
        } else if (op == '+' && k < 1) {
            snprintf(err, errlen, "%ld..%ld+%ld: the step must be at least 1", a, b, k);
            rc = -1;
        } else {
            for (long x = a; x <= b && rc == 0;) {
                rc = push(v, n, x, err, errlen);
                long nx;
                if (op == '*' ? __builtin_mul_overflow(x, k, &nx) : __builtin_add_overflow(x, k, &nx))
                    break;
                x = nx;
            }
        }
    }
    free(dup);
    if (rc == 0 && *n == 0) {
        snprintf(err, errlen, "no values");
        rc = -1;
    }
    if (rc) {
        free(*v);
        *v = NULL;
        *n = 0;
    }
    return rc;
}

int pp_exp_step_index(const pp_experiment *x, const char *name)
{
    for (int i = 0; i < x->nstep; i++)
        if (!strcmp(x->step[i].name, name))
            return i;
    return -1;
}

static void free_sets(pp_exp_set *s, int n)
{
    for (int i = 0; i < n; i++) {
        free(s[i].name);
        free(s[i].text);
        pp_iexpr_free(s[i].e);
    }
    free(s);
}

void pp_exp_free(pp_experiment *x)
{
    free(x->path);
    free(x->dir);
    free(x->name);
    free(x->machine);
    free(x->outdir);
    free(x->baseline);
    free_sets(x->set, x->nset);
    for (int i = 0; i < x->nvar; i++) {
        free(x->var[i].name);
        for (int k = 0; k < x->var[i].nrec; k++)
            free(x->var[i].rec[k]);
        free(x->var[i].rec);
        free_sets(x->var[i].set, x->var[i].nset);
    }
    free(x->var);
    for (int i = 0; i < x->nstep; i++) {
        free(x->step[i].name);
        free(x->step[i].v);
    }
    memset(x, 0, sizeof *x);
}

static char *resolve(const pp_experiment *x, const char *p)
{
    if (p[0] == '/' || !strcmp(x->dir, "."))
        return strdup(p);
    size_t n = strlen(x->dir) + strlen(p) + 2;
    char *r = malloc(n);
    if (r)
        snprintf(r, n, "%s/%s", x->dir, p);
    return r;
}

static int is_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static int add_records(pp_experiment *x, pp_exp_variant *v, char *val, pp_where *w)
{
    char *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        char *path = resolve(x, tok);
        if (!path)
            return pp_where_error(w, "out of memory");
        glob_t g;
        int globbing = strpbrk(tok, "*?[") != NULL;
        struct stat st;
        if (!globbing && stat(path, &st) != 0) {
            pp_where_error(w, "records: '%s': %s", path, strerror(errno));
            free(path);
            return -1;
        }
        if (globbing && glob(path, 0, NULL, &g) != 0) {
            pp_where_error(w, "records: '%s' matches no file", path);
            free(path);
            return -1;
        }
        size_t nm = globbing ? g.gl_pathc : 1;
        char **nr = realloc(v->rec, sizeof *nr * (size_t)(v->nrec + (int)nm));
        if (!nr) {
            if (globbing)
                globfree(&g);
            free(path);
            return pp_where_error(w, "out of memory");
        }
        v->rec = nr;
        for (size_t i = 0; i < nm; i++)
            v->rec[v->nrec++] = globbing ? strdup(g.gl_pathv[i]) : strdup(path);
        if (globbing)
            globfree(&g);
        free(path);
        any = 1;
    }
    if (!any)
        return pp_where_error(w, "records: no path given");
    return 0;
}

static int add_set(pp_exp_set **sets, int *n, const char *rest, pp_where *w)
{
    /* rest: "NAME = EXPR" */
    const char *eq = strchr(rest, '=');
    if (!eq)
        return pp_where_error(w, "'set %s': expected 'set NAME = EXPRESSION'", rest);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - rest), rest);
    char *nm = trim(name);
    char *text = trim((char *)eq + 1);
    if (!is_name(nm))
        return pp_where_error(w, "set: '%s' is not a parameter name", nm);
    if (!strcmp(nm, "P"))
        return pp_where_error(w, "set P: P is the processor count: step it ('step P = ...') or leave it as recorded");
    if (!*text)
        return pp_where_error(w, "set %s: no value", nm);
    for (int i = 0; i < *n; i++)
        if (!strcmp((*sets)[i].name, nm))
            return pp_where_error(w, "set %s: already set at line %ld", nm, (*sets)[i].line);
    char err[256];
    pp_iexpr *e = pp_iexpr_parse(text, err, sizeof err);
    if (!e)
        return pp_where_error(w, "set %s: %s", nm, err);
    pp_exp_set *ns = realloc(*sets, sizeof *ns * (size_t)(*n + 1));
    if (!ns) {
        pp_iexpr_free(e);
        return pp_where_error(w, "out of memory");
    }
    *sets = ns;
    ns[*n].name = strdup(nm);
    ns[*n].text = strdup(text);
    ns[*n].e = e;
    ns[*n].line = w->line;
    (*n)++;
    return 0;
}

static int parse_outputs(const char *val, unsigned *out, pp_where *w)
{
    static const struct {
        const char *name;
        unsigned bit;
    } outs[] = {
        {"time", PP_XO_TIME}, {"speedup", PP_XO_SPEEDUP}, {"efficiency", PP_XO_EFFICIENCY},
        {"Ea", PP_XO_EA}, {"E", PP_XO_E}, {"machines", PP_XO_MACHINES}, {"interval", PP_XO_INTERVAL},
        {"all", 127},
    };
    char buf[512];
    snprintf(buf, sizeof buf, "%s", val);
    *out = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
        size_t i = 0;
        while (i < sizeof outs / sizeof outs[0] && strcmp(outs[i].name, tok))
            i++;
        if (i == sizeof outs / sizeof outs[0])
            return pp_where_error(w, "outputs: unknown output '%s' (time, speedup, efficiency, Ea, E, machines, "
                                     "interval, all)", tok);
        *out |= outs[i].bit;
    }
    if (!*out)
        return pp_where_error(w, "outputs: none given");
    return 0;
}

/* One `key = value` line of the header. */
static int global_key(pp_experiment *x, const char *key, char *val, pp_where *w, long *seen)
{
    static const char *keys[] = {"name", "machine", "output", "outputs", "baseline", "draws", "model-error",
                                 "cache-rule", "insitu"};
    int k = 0, nk = (int)(sizeof keys / sizeof keys[0]);
    while (k < nk && strcmp(keys[k], key))
        k++;
    if (k == nk)
        return pp_where_error(w, "unknown key '%s'", key);
    if (seen[k])
        return pp_where_error(w, "%s: given twice (first at line %ld)", key, seen[k]);
    seen[k] = w->line;
    if (!*val)
        return pp_where_error(w, "%s: no value", key);
    char *end;
    switch (k) {
    case 0:
        x->name = strdup(val);
        break;
    case 1:
        x->machine = resolve(x, val);
        x->machine_line = w->line;
        break;
    case 2:
        x->outdir = resolve(x, val);
        break;
    case 3:
        return parse_outputs(val, &x->outputs, w);
    case 4:
        x->baseline = strdup(val);
        x->baseline_line = w->line;
        break;
    case 5: {
        long d;
        if (parse_int(val, &d) || d < 0 || d > 10000)
            return pp_where_error(w, "draws: '%s' is not a count from 0 to 10000", val);
        x->draws = (int)d;
        break;
    }
    case 6:
        x->model_error = strtod(val, &end);
        if (*end || !(x->model_error >= 0 && x->model_error <= 1))
            return pp_where_error(w, "model-error: '%s' is not a relative error per doubling from 0 to 1", val);
        break;
    default:
        if (strcmp(val, "on") && strcmp(val, "off"))
            return pp_where_error(w, "%s: '%s' is not on or off", key, val);
        if (k == 7)
            x->cache_rule = !strcmp(val, "on");
        else
            x->insitu_off = !strcmp(val, "off");
        break;
    }
    return 0;
}

static int add_step(pp_experiment *x, char *rest, pp_where *w)
{
    char *eq = strchr(rest, '=');
    if (!eq)
        return pp_where_error(w, "'step %s': expected 'step NAME = LIST'", rest);
    *eq = 0;
    char *nm = trim(rest), *val = trim(eq + 1);
    if (!is_name(nm))
        return pp_where_error(w, "step: '%s' is not a parameter name", nm);
    int i = pp_exp_step_index(x, nm);
    if (i >= 0)
        return pp_where_error(w, "step %s: already stepped at line %ld", nm, x->step[i].line);
    if (x->nstep == PP_EXP_MAXSTEP)
        return pp_where_error(w, "step %s: at most %d parameters are stepped", nm, PP_EXP_MAXSTEP);
    char err[256];
    pp_exp_step *s = &x->step[x->nstep];
    if (pp_exp_parse_list(val, &s->v, &s->n, err, sizeof err))
        return pp_where_error(w, "step %s: %s", nm, err);
    s->name = strdup(nm);
    s->line = w->line;
    x->nstep++;
    if (!strcmp(nm, "P") && (s->v[0] < 1 || s->v[s->n - 1] > 1000000))
        return pp_where_error(w, "step P: processor counts are 1 to 1000000 (%ld given)",
                              s->v[0] < 1 ? s->v[0] : s->v[s->n - 1]);
    long pts = 1;
    for (int k = 0; k < x->nstep; k++)
        pts *= x->step[k].n;
    if (pts > PP_EXP_MAXPOINTS)
        return pp_where_error(w, "step %s: the cross product has %ld points (at most %d)", nm, pts,
                              PP_EXP_MAXPOINTS);
    return 0;
}

typedef struct {
    const pp_experiment *x;
    const char *bad;
} name_check;

static int known_name(void *ctx, const char *name)
{
    name_check *c = ctx;
    if (!strcmp(name, "P") || pp_exp_step_index(c->x, name) >= 0)
        return 0;
    c->bad = name;
    return 1;
}

static int check_sets(const pp_experiment *x, const pp_exp_set *s, int n, pp_where *w)
{
    for (int i = 0; i < n; i++) {
        name_check c = {x, NULL};
        if (pp_iexpr_names(s[i].e, known_name, &c)) {
            w->line = s[i].line;
            return pp_where_error(w, "set %s: '%s' is neither P nor a stepped parameter (a 'step %s = ...' line)",
                                  s[i].name, c.bad, c.bad);
        }
    }
    return 0;
}

/* The whole file is read; now what needs all of it. */
static int finish(pp_experiment *x, pp_where *w)
{
    if (x->nvar == 0)
        return pp_where_error(w, "no variant (a 'variant NAME' line followed by 'records = FILE...')");
    for (int i = 0; i < x->nvar; i++)
        if (x->var[i].nrec == 0) {
            w->line = x->var[i].line;
            return pp_where_error(w, "variant %s has no records (a 'records = FILE...' line after it)", x->var[i].name);
        }
    if (check_sets(x, x->set, x->nset, w))
        return -1;
    for (int i = 0; i < x->nvar; i++)
        if (check_sets(x, x->var[i].set, x->var[i].nset, w))
            return -1;
    if (x->baseline) {
        int i = 0;
        while (i < x->nvar && strcmp(x->var[i].name, x->baseline))
            i++;
        if (i == x->nvar) {
            w->line = x->baseline_line;
            return pp_where_error(w, "baseline: no variant named '%s'", x->baseline);
        }
    }
    if (!x->name) {
        const char *b = strrchr(x->path, '/');
        b = b ? b + 1 : x->path;
        const char *dot = strrchr(b, '.');
        x->name = dot && dot != b ? strndup(b, (size_t)(dot - b)) : strdup(b);
    }
    return 0;
}

static int parse_line(pp_experiment *x, char *s, pp_where *w, long *seen)
{
    if (!strncmp(s, "variant", 7) && (isspace((unsigned char)s[7]) || !s[7])) {
        char *nm = trim(s + 7);
        if (!*nm || strpbrk(nm, " \t=/"))
            return pp_where_error(w, "'variant %s': expected 'variant NAME' (a name without spaces, '=' or '/')", nm);
        for (int i = 0; i < x->nvar; i++)
            if (!strcmp(x->var[i].name, nm))
                return pp_where_error(w, "variant %s: already defined at line %ld", nm, x->var[i].line);
        pp_exp_variant *nv = realloc(x->var, sizeof *nv * (size_t)(x->nvar + 1));
        if (!nv)
            return pp_where_error(w, "out of memory");
        x->var = nv;
        memset(&nv[x->nvar], 0, sizeof nv[0]);
        nv[x->nvar].name = strdup(nm);
        nv[x->nvar].line = w->line;
        x->nvar++;
        return 0;
    }
    pp_exp_variant *v = x->nvar ? &x->var[x->nvar - 1] : NULL;
    if (!strncmp(s, "set", 3) && isspace((unsigned char)s[3]))
        return v ? add_set(&v->set, &v->nset, trim(s + 3), w) : add_set(&x->set, &x->nset, trim(s + 3), w);
    if (!strncmp(s, "step", 4) && isspace((unsigned char)s[4]))
        return add_step(x, trim(s + 4), w);
    char *eq = strchr(s, '=');
    if (!eq)
        return pp_where_error(w, "expected 'KEY = VALUE', 'variant NAME', 'set NAME = EXPRESSION' or "
                                 "'step NAME = LIST'");
    *eq = 0;
    char *key = trim(s), *val = trim(eq + 1);
    if (!strcmp(key, "with")) {
        /* what-if changes (docs/commands.md, "What-if machines"): the
         * experiment's before the variants, else the variant's */
        char e[1024];
        if (pp_whatif_parse(v ? &v->with : &x->with, val, e, sizeof e))
            return pp_where_error(w, "%s", strncmp(e, "--with: ", 8) ? e : e + 8);
        return 0;
    }
    if (!strcmp(key, "records")) {
        if (!v)
            return pp_where_error(w, "records: outside a variant (write 'variant NAME' before it)");
        if (!v->nrec)
            v->rec_line = w->line;
        return add_records(x, v, val, w);
    }
    return global_key(x, key, val, w, seen);
}

int pp_exp_load(const char *path, pp_experiment *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->outputs = PP_XO_DEFAULT;
    x->draws = -1;   /* PP_DRAWS_AUTO */
    x->model_error = -1;
    x->cache_rule = 1;
    x->path = strdup(path);
    const char *slash = strrchr(path, '/');
    x->dir = slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup(".");
    pp_where w = {path, 0, 0, NULL};
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        f = NULL;
        errno = EISDIR;
    }
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        pp_exp_free(x);
        return -1;
    }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    long seen[16] = {0};
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &cap, f)) >= 0) {
        w.line++;
        if ((size_t)len != strlen(buf)) {
            rc = pp_where_error(&w, "NUL byte in line (not a text file?)");
            break;
        }
        if (len > 0 && buf[len - 1] == '\n')
            buf[--len] = 0;
        if (w.line == 1) {
            if (strcmp(trim(buf), "perfpred-experiment 1"))
                rc = pp_where_error(&w, "not a perfpred experiment file (first line must be 'perfpred-experiment 1')");
            continue;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *s = trim(buf);
        if (*s)
            rc = parse_line(x, s, &w, seen);
    }
    free(buf);
    fclose(f);
    if (rc == 0 && w.line == 0)
        rc = pp_where_error(&w, "empty file (the first line must be 'perfpred-experiment 1')");
    if (rc == 0)
        rc = finish(x, &w);
    if (rc) {
        snprintf(err, errlen, "%s", w.err ? w.err : "out of memory");
        free(w.err);
        pp_exp_free(x);
        return -1;
    }
    return 0;
}
