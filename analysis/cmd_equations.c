/* cmd_equations.c - `perfpred equations RECORD...`: the symbolic
 * execution-time equation of the program and of every function and loop
 * (equations.h), readable, as SymPy or Maxima input, or as JSON, with
 * their values at the recorded size and at --set/--P.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "cmds.h"
#include "equations.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred equations RECORD... [--set NAME=VALUE]... [--P N] [--machine FILE]\n"
    "                          [--format text|sympy|maxima|json] [--block NAME|FILE:LINE]\n"
    "  The execution time of the program, of every function and of every loop as an\n"
    "  equation in the problem parameters and P (Clement & Quinn 3.1, the SAD formula of\n"
    "  PET): sum of (fitted cost of one iteration, entry or call, ns) x (its count:\n"
    "  sums over the iteration space, closed forms where the symbolic engine finds\n"
    "  them), on the thread the model follows (main, team member 0 of each OpenMP\n"
    "  team, the first thread each pthread_create site starts, MPI rank 0).  With\n"
    "  --machine, also the synchronisation costs as functions of P (a + b*log2(P)),\n"
    "  the fitted fixed cost of the segment each event ends, and an MPI program's\n"
    "  network costs (LogGP; the collectives' algorithms, as the machine picks them\n"
    "  at --P).\n"
    "  Each block's value at the recorded size and at --set/--P, and its share of the\n"
    "  program.  sympy and maxima print input for those systems (exact: C division,\n"
    "  floor, ceiling, min, max, conditions), to differentiate or plot elsewhere.\n"
    "  --block: one function or loop (main, main:L3, or file.c:LINE; 'program').\n";

typedef struct {
    pp_session *s;
    pp_cli *c;
    pp_equations q;
    int P_rec, P_ask, asked;
    long double *v[2][2];    /* [recorded|asked][comp|sync][block]       */
    long double **tv[2];     /* [recorded|asked][block][term]: counts    */
    int approx;
    char *sel;               /* blocks chosen by --block (1)              */
} eqout;

/* the recorded command line */
static const char *cmdline(const pp_record *r)
{
    static char buf[512];
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->argc && r->argv && k < sizeof buf; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? " " : "", r->argv[i] ? r->argv[i] : "");
    return buf;
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Is block b the one --block names: its id, or FILE:LINE of its place? */
static int named(const pp_eqblock *b, const char *want)
{
    if (strcmp(b->id, want) == 0)
        return 1;
    const char *wc = strrchr(want, ':'), *bc = b->where ? strrchr(b->where, ':') : NULL;
    if (!wc || !bc || strcmp(wc, bc) != 0 || b->kind == PP_EQB_PROGRAM)
        return 0;
    char wf[512], bf[512];
    snprintf(wf, sizeof wf, "%.*s", (int)(wc - want), want);
    snprintf(bf, sizeof bf, "%.*s", (int)(bc - b->where), b->where);
    return strcmp(base(wf), bf) == 0;
}

static int select_blocks(eqout *o)
{
    o->sel = calloc((size_t)o->q.nblocks + 1, 1);
    if (!o->sel)
        return -1;
    int n = 0;
    for (int i = 0; i < o->q.nblocks; i++) {
        o->sel[i] = !o->c->block || named(&o->q.blocks[i], o->c->block);
        n += o->sel[i];
    }
    if (n)
        return 0;
    fprintf(stderr, "perfpred equations: --block %s: no function or loop is named so or is at that line (the blocks: ",
            o->c->block);
    for (int i = 0; i < o->q.nblocks && i < 12; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", o->q.blocks[i].id);
    fprintf(stderr, "%s; or FILE:LINE of a loop)\n", o->q.nblocks > 12 ? ", ..." : "");
    return -1;
}

/* every block's values at the recorded and the asked point */
static int evaluate(eqout *o)
{
    const pp_prog *m = &o->s->prog;
    for (int pt = 0; pt < 2; pt++) {
        /* the recorded values, or the asked ones; P applied */
        pp_vals at;
        if (pt == 0 ? pp_vals_init(&at, m) : pp_vals_copy(&at, m, &o->s->vals))
            return -1;
        pp_vals_apply_P(m, &at, pt ? o->P_ask : o->P_rec);
        for (int y = 0; y < 2; y++) {
            o->v[pt][y] = calloc((size_t)o->q.nblocks + 1, sizeof *o->v[pt][y]);
            if (!o->v[pt][y]) {
                pp_vals_free(&at);
                return -1;
            }
            for (int i = 0; i < o->q.nblocks; i++)
                o->v[pt][y][i] =
                    pp_eqblock_eval(&o->q.blocks[i], y, m, &at, pt ? o->P_ask : o->P_rec, &o->approx);
        }
        o->tv[pt] = calloc((size_t)o->q.nblocks + 1, sizeof *o->tv[pt]);
        pp_cx_env env = {m, &at, pt ? o->P_ask : o->P_rec, 0, 0, NULL, 0};
        int rc = o->tv[pt] ? 0 : -1;
        for (int i = 0; rc == 0 && i < o->q.nblocks; i++) {
            o->tv[pt][i] = calloc((size_t)o->q.blocks[i].nterms + 1, sizeof **o->tv[pt]);
            if (!o->tv[pt][i])
                rc = -1;
            for (int t = 0; rc == 0 && t < o->q.blocks[i].nterms && o->sel[i]; t++)
                o->tv[pt][i][t] = pp_cx_eval(o->q.blocks[i].terms[t].count, &env);
        }
        free(env.b);
        pp_vals_free(&at);
        if (rc)
            return -1;
    }
    return 0;
}

static void point(const eqout *o, int pt, char *buf, size_t n)
{
    const pp_prog *m = &o->s->prog;
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->nparams && k < n; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= !strcmp(m->params[j].name, m->params[i].name);
        if (dup || (m->pkind == PP_P_PARAM && i == m->p_param) || m->params[i].per_rank)
            continue;   /* (a value that differs between the ranks is no input) */
        long v = pt && o->c->nset ? o->s->vals.v[i] : m->params[i].recorded;
        k += (size_t)snprintf(buf + k, n - k, "%s=%ld, ", m->params[i].name, v);
    }
    if (k < n)
        snprintf(buf + k, n - k, "P=%d", pt ? o->P_ask : o->P_rec);
}

/* ---- text --------------------------------------------------------------- */

static void text_value(const eqout *o, int pt, int y, int i)
{
    char t[32], at[400];
    long double v = o->v[pt][y][i], all = o->v[pt][y][0];
    point(o, pt, at, sizeof at);
    if (isnan((double)v))
        printf("cannot be evaluated");
    else
        printf("%s", pp_fmt_time((double)v, t, sizeof t));
    printf(" at %s", at);
    if (i > 0 && all > 0 && !isnan((double)v))
        printf(" (%.1f%% of the program's)", (double)(100 * v / all));
    printf("\n");
}

static void text(eqout *o)
{
    const pp_prog *m = &o->s->prog;
    printf("equations of %s (%s): execution time in ns on the thread the model follows\n", o->s->rec.path,
           cmdline(&o->s->rec));
    printf("  (main, team member 0 of each OpenMP team, the first thread of each pthread_create site%s)\n",
           m->mpi ? ", MPI rank 0" : "");
    printf("symbols:\n");
    for (int i = 0; i < o->q.nsyms; i++) {
        const pp_eqsym *y = &o->q.syms[i];
        printf("  %-12s %s", y->name, y->what);
        if (y->param >= 0)
            printf(", recorded %ld", m->params[y->param].recorded);
        else
            printf(", recorded %d", o->P_rec);
        printf("\n");
    }
    printf("  sum(k = a .. b, x) is the sum of x for k from a to b; / is C's division, floor() and ceil() are\n"
           "  explicit; c ? x : y is x where c holds, else y\n");
    if (o->s->have_machine)
        printf("machine: %s (%s)\n", o->c->machine, o->s->mach.name);
    for (int i = 0; i < o->q.nnotes; i++)
        printf("note: %s\n", o->q.notes[i]);
    for (int i = 0; i < o->q.nblocks; i++) {
        const pp_eqblock *b = &o->q.blocks[i];
        if (!o->sel[i])
            continue;
        int ind = b->kind == PP_EQB_LOOP ? 2 * b->depth : 0;
        printf("\n%*s%s%s%s  (%s)\n", ind, "", b->id, b->where ? "  " : "", b->where ? b->where : "",
               b->kind == PP_EQB_PROGRAM ? "the whole program" : b->kind == PP_EQB_FUNC ? "function" : "loop");
        if (!b->reached) {
            printf("%*s  not run on the thread the model follows\n", ind, "");
            continue;
        }
        for (int y = 0; y < 2; y++) {
            if (y && !o->s->have_machine)
                break;
            int n = y ? b->nsync : b->nterms;
            const pp_eqterm *t = y ? b->sync : b->terms;
            if (!n)
                printf("%*s  %s = 0\n", ind, "", y ? "T_sync" : "T");
            for (int k = 0; k < n; k++) {
                /* one term a line: cost x count, and what it counts */
                char *e = pp_cx_print(t[k].count, PP_EQ_TEXT);
                int one = pp_cx_is_one(t[k].count);
                printf("%*s  %s %.4g%s%s%s%s   [%s]\n", ind, "", k ? (y ? "     +" : "  +") : (y ? "T_sync =" : "T ="),
                       t[k].ns, one ? "" : "*", one || !strchr(e, ' ') ? "" : "(", one ? "" : e,
                       one || !strchr(e, ' ') ? "" : ")", t[k].what);
                free(e);
            }
            for (int pt = 0; pt < 1 + o->asked; pt++) {
                printf("%*s    = ", ind, "");
                text_value(o, pt, y, i);
            }
        }
    }
    if (o->approx)
        printf("\n(some sums of more than 2^20 terms were evaluated from 512 of them)\n");
}

/* ---- SymPy and Maxima ----------------------------------------------------- */

static int has_name(char **v, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return 1;
    return 0;
}

static void names_expr(const pp_expr *e, char ***v, int *n)
{
    if (!e)
        return;
    if (e->kind == PP_E_SYM && e->name && !has_name(*v, *n, e->name)) {
        char **nv = realloc(*v, sizeof *nv * (size_t)(*n + 1));
        if (!nv)
            return;
        *v = nv;
        (*v)[(*n)++] = e->name;
    }
    for (int i = 0; i < e->nkids; i++)
        names_expr(e->kids[i], v, n);
}

static void names_cx(const pp_cx *c, char ***v, int *n)
{
    names_expr(c->e, v, n);
    names_expr(c->lo, v, n);
    names_expr(c->hi, v, n);
    for (int i = 0; i < c->n; i++)
        names_cx(c->k[i], v, n);
}

/* the symbols the printed blocks use that are not parameters or P */
static int other_names(const eqout *o, char ***v)
{
    int n = 0;
    *v = NULL;
    for (int i = 0; i < o->q.nblocks; i++)
        for (int y = 0; y < 2 && o->sel[i]; y++)
            for (int t = 0; t < (y ? o->q.blocks[i].nsync : o->q.blocks[i].nterms); t++)
                names_cx((y ? o->q.blocks[i].sync : o->q.blocks[i].terms)[t].count, v, &n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int sym = 0;
        for (int j = 0; j < o->q.nsyms; j++)
            sym |= !strcmp(o->q.syms[j].name, (*v)[i]);
        if (!sym)
            (*v)[k++] = (*v)[i];
    }
    return k;
}

static void cas_point(const eqout *o, int pt, int maxima)
{
    const pp_prog *m = &o->s->prog;
    printf(maxima ? "%s : [" : "%s = {", pt ? "asked" : "recorded");
    for (int i = 0; i < o->q.nsyms; i++) {
        const pp_eqsym *y = &o->q.syms[i];
        long v = y->param < 0 ? (pt ? o->P_ask : o->P_rec)
                 : pt && o->c->nset ? o->s->vals.v[y->param] : m->params[y->param].recorded;
        if (y->param >= 0 && m->pkind == PP_P_PARAM && y->param == m->p_param)
            v = (pt ? o->P_ask : o->P_rec) - m->p_offset;
        printf(maxima ? "%s%s = %ld" : "%s%s: %ld", i ? ", " : "", y->name, v);
    }
    printf(maxima ? "]$\n" : "}\n");
}

static void cas_id(const char *id, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *p = id; *p && k < n - 1; p++)
        buf[k++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p : '_';
    buf[k] = '\0';
}

static void cas(eqout *o, int maxima)
{
    pp_eqfmt f = maxima ? PP_EQ_MAXIMA : PP_EQ_SYMPY;
    const char *c0 = maxima ? "/* " : "# ", *c1 = maxima ? " */" : "";
    printf("%sperfpred equations of %s (%s)%s\n", c0, o->s->rec.path, cmdline(&o->s->rec), c1);
    printf("%sexecution time in ns on the thread the model follows: T%s the computation%s%s\n", c0,
           maxima ? "_<block>" : "[block]",
           o->s->have_machine ? (maxima ? ", Tsync_<block> the synchronisation" : ", T_sync[block] the synchronisation") : "",
           c1);
    for (int i = 0; i < o->q.nnotes; i++)
        printf("%snote: %s%s\n", c0, o->q.notes[i], c1);
    char **v;
    int nv = other_names(o, &v);
    if (!maxima) {
        printf("from sympy import Symbol, Sum, Piecewise, sign, floor, ceiling, Min, Max, Mod, Abs, Eq, Ne, And, Or, Not, log\n");
        for (int i = 0; i < o->q.nsyms; i++)
            printf("%s = Symbol('%s', integer=True%s)  # %s\n", o->q.syms[i].name, o->q.syms[i].name,
                   o->q.syms[i].param < 0 ? ", positive=True" : "", o->q.syms[i].what);
        for (int i = 0; i < nv; i++)
            printf("%s = Symbol('%s', integer=True)\n", v[i], v[i]);
        printf("T = {}\nT_sync = {}\n");
    } else
        printf("/* %s: summation variables */\n", nv ? "the other names" : "no other names");
    free(v);
    cas_point(o, 0, maxima);
    cas_point(o, 1, maxima);
    for (int i = 0; i < o->q.nblocks; i++) {
        if (!o->sel[i])
            continue;
        const pp_eqblock *b = &o->q.blocks[i];
        for (int y = 0; y < 2; y++) {
            if (y && !o->s->have_machine)
                break;
            char *e = pp_eqblock_print(b, y, f);
            if (maxima) {
                char id[300];
                cas_id(b->id, id, sizeof id);
                printf("%s_%s : %s$\n", y ? "Tsync" : "T", id, e);
            } else
                printf("%s['%s'] = %s\n", y ? "T_sync" : "T", b->id, e);
            free(e);
        }
    }
}

/* ---- JSON --------------------------------------------------------------- */

static void json_expr_set(const pp_eqblock *b, int y)
{
    static const char *const key[3] = {"expr", "sympy", "maxima"};
    for (int f = 0; f < 3; f++) {
        char *e = pp_eqblock_print(b, y, (pp_eqfmt)f);
        printf("%s\"%s\":", f ? "," : "", key[f]);
        pp_json_str(stdout, e);
        free(e);
    }
}

static void json(eqout *o)
{
    const pp_prog *m = &o->s->prog;
    printf("{\"record\":");
    pp_json_str(stdout, o->s->rec.path);
    printf(",\"P\":{\"recorded\":%d,\"asked\":%d},\"params\":{", o->P_rec, o->P_ask);
    for (int i = 0, first = 1; i < o->q.nsyms; i++) {
        const pp_eqsym *y = &o->q.syms[i];
        if (y->param < 0)
            continue;
        printf("%s", first ? "" : ",");
        pp_json_str(stdout, y->name);
        printf(":{\"recorded\":%ld,\"asked\":%ld}", m->params[y->param].recorded,
               o->c->nset ? o->s->vals.v[y->param] : m->params[y->param].recorded);
        first = 0;
    }
    printf("},\"symbols\":[");
    for (int i = 0; i < o->q.nsyms; i++) {
        printf("%s{\"name\":", i ? "," : "");
        pp_json_str(stdout, o->q.syms[i].name);
        printf(",\"what\":");
        pp_json_str(stdout, o->q.syms[i].what);
        printf("}");
    }
    printf("],\"notes\":[");
    for (int i = 0; i < o->q.nnotes; i++) {
        printf("%s", i ? "," : "");
        pp_json_str(stdout, o->q.notes[i]);
    }
    printf("],\"approx\":%s,\"blocks\":[", o->approx ? "true" : "false");
    static const char *const kinds[3] = {"program", "function", "loop"};
    for (int i = 0, first = 1; i < o->q.nblocks; i++) {
        if (!o->sel[i])
            continue;
        const pp_eqblock *b = &o->q.blocks[i];
        printf("%s{\"id\":", first ? "" : ",");
        first = 0;
        pp_json_str(stdout, b->id);
        printf(",\"kind\":\"%s\",\"where\":", kinds[b->kind]);
        if (b->where)
            pp_json_str(stdout, b->where);
        else
            printf("null");
        printf(",\"depth\":%d,\"reached\":%s,", b->depth, b->reached ? "true" : "false");
        json_expr_set(b, 0);
        printf(",\"terms\":[");
        for (int t = 0; t < b->nterms; t++) {
            printf("%s{\"ns\":", t ? "," : "");
            pp_json_num(stdout, b->terms[t].ns);
            printf(",\"what\":");
            pp_json_str(stdout, b->terms[t].what);
            char *e = pp_cx_print(b->terms[t].count, PP_EQ_TEXT);
            printf(",\"count\":");
            pp_json_str(stdout, e);
            free(e);
            for (int pt = 0; pt < 2; pt++) {
                printf(",\"count_%s\":", pt ? "asked" : "recorded");
                pp_json_num(stdout, (double)o->tv[pt][i][t]);
            }
            printf("}");
        }
        printf("]");
        for (int pt = 0; pt < 2; pt++) {
            printf(",\"%s_ns\":", pt ? "asked" : "recorded");
            pp_json_num(stdout, (double)o->v[pt][0][i]);
            printf(",\"share_%s\":", pt ? "asked" : "recorded");
            pp_json_num(stdout, (double)(o->v[pt][0][i] / o->v[pt][0][0]));
        }
        if (o->s->have_machine) {
            printf(",\"sync\":{");
            json_expr_set(b, 1);
            printf(",\"recorded_ns\":");
            pp_json_num(stdout, (double)o->v[0][1][i]);
            printf(",\"asked_ns\":");
            pp_json_num(stdout, (double)o->v[1][1][i]);
            printf("}");
        }
        printf("}");
    }
    printf("]}\n");
}

int pp_cmd_equations(int argc, char **argv)
{
    pp_cli c;
    char err[2048];
    int st = pp_cli_start(argc, argv, "equations", "set,machine,P,format,casfmt,block,insitu,cost-quantile", usage, &c);
    if (st >= 0)
        return st;
    if (c.format != PP_FMT_TEXT && c.format != PP_FMT_JSON && c.format != PP_FMT_SYMPY && c.format != PP_FMT_MAXIMA) {
        fprintf(stderr, "perfpred equations: --format: the equations are written as text, sympy, maxima or json\n");
        pp_cli_free(&c);
        return 2;
    }
    if (c.nP > 1) {
        fprintf(stderr, "perfpred equations: --P takes one processor count\n");
        pp_cli_free(&c);
        return 2;
    }
    pp_session s;
    if ((st = pp_cli_open("equations", &c, c.machine != NULL, &s)) >= 0)
        return st;
    eqout o;
    memset(&o, 0, sizeof o);
    o.s = &s;
    o.c = &c;
    o.P_rec = s.prog.p_recorded > 0 ? s.prog.p_recorded : 1;
    o.P_ask = c.nP ? c.P[0] : pp_prog_default_P(&s.prog, &s.vals);
    o.asked = c.nP || c.nset;
    int rc = 0;
    if (pp_equations_build(&s.prog, &s.vals, s.have_machine ? &s.mach : NULL, o.P_ask, &o.q, err, sizeof err)) {
        fprintf(stderr, "perfpred equations: %s: %s\n", s.rec.path, err);
        rc = 2;
    } else if (select_blocks(&o))
        rc = 2;
    else if (evaluate(&o)) {
        fprintf(stderr, "perfpred equations: out of memory\n");
        rc = 1;
    } else if (c.format == PP_FMT_JSON)
        json(&o);
    else if (c.format == PP_FMT_SYMPY || c.format == PP_FMT_MAXIMA)
        cas(&o, c.format == PP_FMT_MAXIMA);
    else
        text(&o);
    for (int pt = 0; pt < 2; pt++) {
        for (int y = 0; y < 2; y++)
            free(o.v[pt][y]);
        for (int i = 0; o.tv[pt] && i < o.q.nblocks; i++)
            free(o.tv[pt][i]);
        free(o.tv[pt]);
    }
    free(o.sel);
    pp_equations_free(&o.q);
    pp_session_close(&s);
    pp_cli_free(&c);
    return rc;
}
