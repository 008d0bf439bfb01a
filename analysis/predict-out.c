/* predict-out.c - see predict-out.h.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "predict-out.h"
#include "memory-out.h"
#include "net.h"
#include "point.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int pp_mpi_kinds(const pp_prog *m, int *kinds)
{
    int n = 0;
    if (!m->mpi)
        return 0;
    for (int k = PP_EV_SEND; k <= PP_EV_COMM_DUP; k++) {
        int has = 0;
        for (int f = 0; f < m->nfuncs && !has; f++)
            for (int e = 0; e < m->funcs[f].d->nevents && !has; e++)
                has = (int)m->funcs[f].d->events[e].kind == k;
        if (has)
            kinds[n++] = k;
    }
    return n;
}

double pp_rank_share(const pp_metrics *mt, double ns)
{
    return mt->t_real > 0 && mt->nthreads > 0 ? ns / (mt->t_real * mt->P) : 0;
}

static void mpi_text(FILE *o, const pp_prog *m, const pp_machine *mach, const pp_metrics *mt)
{
    int kinds[PP_EV_OTHER + 1];
    int nk = pp_mpi_kinds(m, kinds);
    const pp_net *n = &mach->net;
    fprintf(o, "  network: L = %.3g us, o = %.3g us, g = %.3g us, G = %.3g ns/byte, eager up to %.0f bytes (%s)\n",
            n->L / 1e3, n->o / 1e3, n->g / 1e3, n->G, n->eager_bytes,
            mach->has_net ? (n->source == 1 ? "measured" : "machine file") : "built-in defaults");
    fprintf(o, "  MPI: %.1f%% of the ranks' time in MPI calls", 100 * pp_rank_share(mt, mt->mpi));
    for (int i = 0; i < nk; i++)
        if (mt->mpi_kind[kinds[i]] > 0)
            fprintf(o, "%s %s %.1f%%", i ? "," : ":", pp_evkind_name(kinds[i]),
                    100 * pp_rank_share(mt, mt->mpi_kind[kinds[i]]));
    fprintf(o, "\n");
    if (mt->unmatched)
        fprintf(o, "  warning: %s\n", mt->note);
    if (mt->t1_summed)
        fprintf(o, "  note: the program cannot run on one rank with these parameters: T1 (and T_MIR = T1/P) is the "
                   "computation of the %d ranks, summed\n", mt->P);
    int per_node = n->ranks_per_node > 0 && n->ranks_per_node < mt->P ? n->ranks_per_node : mt->P;
    if (mach->cores > 0 && per_node > mach->cores)
        fprintf(o, "  note: %d ranks share one node of %d processors (mpi.ranks_per_node = %d): their computation "
                   "is slowed by the machine's compute scaling at %d; describe a cluster in the machine file "
                   "(docs/examples/cluster.machine)\n", per_node, mach->cores, n->ranks_per_node, per_node);
}



void pp_pout_head(FILE *o, pp_format fmt, const pp_pout *x)
{
    const pp_prog *m = &x->s->prog;
    if (fmt != PP_FMT_JSON)   /* a marked machine file: the first line */
        pp_session_mark(x->s, x->c, o, fmt);
    if (fmt == PP_FMT_CSV && x->c->by)
        pp_breakdown_csv_header(o);
    else if (fmt == PP_FMT_CSV) {
        fprintf(o, "P,t_miracle_s,t_pram_s,t_real_s,La_s,L_s,Ea,E,t_real_lo_s,t_real_hi_s");
        if (m->mpi)
            fprintf(o, ",mpi_share");
        for (int k = 0; k < x->nk; k++)
            fprintf(o, ",%s_share", pp_evkind_name(x->kinds[k]));
        if (x->s->has_with)
            fprintf(o, ",t_real_base_s");
        fprintf(o, "\n");
    }
    if (fmt == PP_FMT_JSON && x->nP > 1)
        fprintf(o, "[");
}

static void put_json(FILE *o, const pp_pout *x, int i, pp_pout_point *p)
{
    pp_session *s = x->s;
    const pp_prog *m = &s->prog;
    const pp_metrics *mt = &p->mt;
    fprintf(o, "%s{", i ? "," : "");
    pp_session_mark(s, x->c, o, PP_FMT_JSON);
    fprintf(o, "\"problem\":");
    pp_problem_json(o, m, &s->vals);
    fprintf(o, ",\"P\":%d,\"time\":{\"miracle\":", p->P);
    pp_json_num(o, mt->t_mir / 1e9);
    fprintf(o, ",\"pram\":");
    pp_json_num(o, mt->t_pram / 1e9);
    fprintf(o, ",\"real\":");
    pp_json_num(o, mt->t_real / 1e9);
    fprintf(o, "},\"La\":");
    pp_json_num(o, mt->La / 1e9);
    fprintf(o, ",\"L\":");
    pp_json_num(o, mt->L / 1e9);
    fprintf(o, ",\"Ea\":");
    pp_json_num(o, mt->Ea);
    fprintf(o, ",\"E\":");
    pp_json_num(o, mt->E);
    fprintf(o, ",\"T1\":");
    pp_json_num(o, mt->t1 / 1e9);
    fprintf(o, ",\"sync_scale\":");
    pp_json_num(o, s->insitu.applied ? s->insitu.factor : 1.0);
    fprintf(o, ",\"threads\":%d,\"thread_time\":{\"computation\":", mt->nthreads);
    pp_json_num(o, mt->busy / 1e9);
    fprintf(o, ",\"waiting\":");
    pp_json_num(o, mt->wait / 1e9);
    fprintf(o, ",\"synchronisation\":");
    pp_json_num(o, mt->sync / 1e9);
    fprintf(o, "},\"approx\":%s,", mt->approx ? "true" : "false");
    if (s->have_machine && pp_machine_marked(&s->mach)) {
        fprintf(o, "\"machine_busy\":");
        pp_machine_busy_json(o, &s->mach, x->c->machine);
        fprintf(o, ",");
    }
    if (s->has_with) {
        fprintf(o, "\"with\":");
        pp_json_str(o, x->withtxt);
        fprintf(o, ",\"baseline_real\":");
        pp_json_num(o, p->tbase / 1e9);
        fprintf(o, ",");
    }
    if (m->mpi) {
        fprintf(o, "\"mpi\":{\"share\":");
        pp_json_num(o, pp_rank_share(mt, mt->mpi));
        fprintf(o, ",\"by_call\":{");
        for (int k = 0; k < x->nk; k++) {
            fprintf(o, "%s\"%s\":", k ? "," : "", pp_evkind_name(x->kinds[k]));
            pp_json_num(o, pp_rank_share(mt, mt->mpi_kind[x->kinds[k]]));
        }
        fprintf(o, "},\"unmatched_messages\":%ld,\"t1_summed\":%s},", mt->unmatched, mt->t1_summed ? "true" : "false");
    }
    if (s->have_machine) {
        pp_mem_json(o, m, &s->vals, &s->mach, p->P);
        fprintf(o, ",");
    }
    fprintf(o, "\"interval\":");
    if (p->ilo <= p->ihi)
        pp_json_interval(o, p->ilo / 1e9, p->ihi / 1e9, p->iv.fit, p->iv.host, p->iv.model, p->iv.counts);
    else
        fprintf(o, "null");
    if (x->c->by) {
        fprintf(o, ",\"breakdown\":");
        pp_breakdown_json(o, &p->bd, 3, x->c->threads);
    }
    fprintf(o, "}");
}

static void put_csv(FILE *o, const pp_pout *x, pp_pout_point *p)
{
    const pp_metrics *mt = &p->mt;
    if (x->c->by) {
        pp_breakdown_csv(o, &p->bd, 3, x->c->threads);
        return;
    }
    fprintf(o, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6f,%.6f,", p->P, mt->t_mir / 1e9, mt->t_pram / 1e9, mt->t_real / 1e9,
            mt->La / 1e9, mt->L / 1e9, mt->Ea, mt->E);
    if (p->ilo <= p->ihi)
        fprintf(o, "%.9g,%.9g", p->ilo / 1e9, p->ihi / 1e9);
    else
        fprintf(o, ",");
    if (x->s->prog.mpi)
        fprintf(o, ",%.6f", pp_rank_share(mt, mt->mpi));
    for (int k = 0; k < x->nk; k++)
        fprintf(o, ",%.6f", pp_rank_share(mt, mt->mpi_kind[x->kinds[k]]));
    if (x->s->has_with)
        fprintf(o, ",%.9g", p->tbase / 1e9);
    fprintf(o, "\n");
}

static void put_text(FILE *o, const pp_pout *x, int i, pp_pout_point *p)
{
    pp_session *s = x->s;
    const pp_prog *m = &s->prog;
    const pp_metrics *mt = &p->mt;
    const pp_interval *iv = &p->iv;
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    fprintf(o, "problem:");
    pp_problem_text(o, m, &s->vals);
    fprintf(o, "   P=%d   machine: %s%s%s%s\n", p->P, x->c->machine ? x->c->machine : "built-in defaults",
            s->mach.source == PP_MACHINE_DEFAULT ? " (not measured)" : "", s->has_with ? " with " : "", x->withtxt);
    pp_session_insitu_text(s, o);
    fprintf(o, "  T_MIRACLE  %12s   (T1 = %s)\n", pp_fmt_time(mt->t_mir, b1, sizeof b1),
            pp_fmt_time(mt->t1, b5, sizeof b5));
    fprintf(o, "  T_PRAM     %12s\n", pp_fmt_time(mt->t_pram, b2, sizeof b2));
    fprintf(o, "  T_real     %12s", pp_fmt_time(mt->t_real, b3, sizeof b3));
    if (p->ilo <= p->ihi) {
        fprintf(o, "   90%% interval [%s, %s] (costs +-%.1f%%, host +-%.1f%%, model +-%.1f%%",
                pp_fmt_time(p->ilo, b1, sizeof b1), pp_fmt_time(p->ihi, b2, sizeof b2), 200 * iv->fit,
                200 * iv->host, 200 * iv->model);
        if (iv->counts > 0)
            fprintf(o, ", counts +-%.1f%%", 200 * iv->counts);
        fprintf(o, ")");
    }
    fprintf(o, "\n");
    if (s->has_with)
        fprintf(o, "  what-if: T_real %s with %s, %s without (%+.1f%%)\n", pp_fmt_time(mt->t_real, b1, sizeof b1),
                x->withtxt, pp_fmt_time(p->tbase, b2, sizeof b2),
                p->tbase > 0 ? 100 * (mt->t_real - p->tbase) / p->tbase : 0.0);
    fprintf(o, "  L_a = %s   L = %s\n", pp_fmt_time(mt->La, b1, sizeof b1), pp_fmt_time(mt->L, b4, sizeof b4));
    fprintf(o, "  E_a = %.4f   E = %.4f\n", mt->Ea, mt->E);
    double tot = mt->busy + mt->wait + mt->sync;
    /* hybrid MPI + OpenMP: the ranks' teams are threads too */
    char who[64];
    if (m->mpi && mt->nthreads != p->P)
        snprintf(who, sizeof who, "%d threads of the %d ranks", mt->nthreads, p->P);
    else
        snprintf(who, sizeof who, "%d %s", mt->nthreads, m->mpi ? "ranks" : "threads");
    if (tot > 0)
        fprintf(o, "  real machine, all %s: computation %.1f%%, waiting %.1f%%, synchronisation cost %.1f%%\n", who,
                100 * mt->busy / tot, 100 * mt->wait / tot, 100 * mt->sync / tot);
    if (m->mpi)
        mpi_text(o, m, &s->mach, mt);
    if (s->have_machine)
        pp_mem_text(o, m, &s->vals, &s->mach, p->P);
    if (mt->approx)
        fprintf(o, "  (some loop sums were sampled, not enumerated)\n");
    if (x->c->by)
        pp_breakdown_text(o, &p->bd, 3, x->c->threads);
    if (i + 1 < x->nP)
        fprintf(o, "\n");
}

void pp_pout_write(FILE *o, pp_format fmt, const pp_pout *x, int i, pp_pout_point *p)
{
    if (fmt == PP_FMT_JSON)
        put_json(o, x, i, p);
    else if (fmt == PP_FMT_CSV)
        put_csv(o, x, p);
    else
        put_text(o, x, i, p);
}

void pp_pout_tail(FILE *o, pp_format fmt, const pp_pout *x)
{
    if (fmt == PP_FMT_JSON)
        fprintf(o, "%s\n", x->nP > 1 ? "]" : "");
}

void pp_pout_init(pp_pout *x, const pp_cli *c, pp_session *s, int nP)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->s = s;
    x->nP = nP;
    x->nk = pp_mpi_kinds(&s->prog, x->kinds);
    if (s->has_with)
        pp_whatif_text(&c->with, x->withtxt, sizeof x->withtxt);
}

int pp_pout_file(const pp_pout *x, const char *path, pp_format fmt, pp_pout_point *pts, char *err, size_t errlen)
{
    FILE *o = fopen(path, "w");
    if (!o) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    pp_pout_head(o, fmt, x);
    for (int i = 0; i < x->nP; i++)
        pp_pout_write(o, fmt, x, i, &pts[i]);
    pp_pout_tail(o, fmt, x);
    if (ferror(o) | (fclose(o) != 0)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(path);
        return -1;
    }
    return 0;
}
