/* report-equations.c - the report's section on the symbolic equations:
 * the execution time of the program and of every function and loop as an
 * expression in the parameters and P (Clement & Quinn, section 3.1), as
 * `perfpred equations` prints them readably (equations.h).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "equations.h"


/* "12.5*(N*N) + 3.1*N": the block's terms as `perfpred equations` writes
 * them (malloc'd). */
static char *block_text(const pp_eqblock *b, int sync)
{
    return pp_eqblock_print(b, sync, PP_EQ_TEXT);
}

int pp_rep_sec_equations(pp_rep_ctx *x)
{
    pp_rep_doc *d = x->doc;
    const pp_prog *m = &x->s->prog;
    pp_equations q;
    char err[1024];
    pp_rep_h2(d, "equations", "Symbolic equations");
    pp_rep_progress("symbolic equations");
    int P = x->P[x->nP - 1];
    if (pp_equations_build(m, &x->s->vals, &x->s->mach, P, &q, err, sizeof err)) {
        pp_rep_para(d, "The equations could not be built: %s", err);
        return 0;
    }
    pp_rep_para(d, "The execution time of the program, of every function and of every loop, in ns, as an equation "
                   "in the problem parameters and P (Clement & Quinn, section 3.1; `perfpred equations`, which "
                   "also writes them as SymPy and Maxima input): the sum of each fitted cost (one iteration, entry, "
                   "call or segment) times its count, on the thread the model follows (main, team member 0 of each "
                   "OpenMP team, the first thread of each pthread_create site%s). T_sync is the machine's "
                   "synchronisation costs as functions of P and, for an MPI program, the network costs of its "
                   "calls (LogGP; the notes name each collective's algorithm). `sum(k = a .. b, x)` is the sum of x for k from a to "
                   "b; `/` is C's division; `c ? x : y` is x where c holds, else y.",
                m->mpi ? ", MPI rank 0" : "");
    for (int i = 0; i < q.nsyms; i++)
        pp_rep_item(d, "`%s`: %s", q.syms[i].name, q.syms[i].what);
    for (int i = 0; i < q.nnotes; i++)
        pp_rep_para(d, "Note: %s", q.notes[i]);
    if (q.nblocks > 0) {
        char *t = block_text(&q.blocks[0], 0), *ts = block_text(&q.blocks[0], 1);
        size_t n = (t ? strlen(t) : 0) + (ts ? strlen(ts) : 0) + 64;
        char *pre = malloc(n);
        if (pre) {
            snprintf(pre, n, "T      = %s\nT_sync = %s\n", t ? t : "?", ts ? ts : "?");
            pp_rep_pre(d, pre);
        }
        free(pre);
        free(t);
        free(ts);
    }
    char h[64];
    snprintf(h, sizeof h, "T at P = %d", P);
    pp_rep_table *tb = pp_rep_table_new(d, "equations", "The equation of every block, and its value at this "
                                                        "report's size", 6);
    pp_rep_col(tb, 0, "block", 'l');
    pp_rep_col(tb, 1, "where", 'l');
    pp_rep_col(tb, 2, "T (computation, ns)", 'l');
    pp_rep_col(tb, 3, "T_sync (ns)", 'l');
    pp_rep_col(tb, 4, h, 'r');
    pp_rep_col(tb, 5, "share of the program", 'r');
    pp_vals at;
    if (pp_vals_copy(&at, m, &x->s->vals)) {
        pp_equations_free(&q);
        return -1;
    }
    pp_vals_apply_P(m, &at, P);
    int approx = 0;
    long double all = 0;
    for (int i = 0; i < q.nblocks; i++) {
        const pp_eqblock *b = &q.blocks[i];
        pp_rep_row(tb);
        pp_rep_cell_set(tb, 0, NULL, "%s", b->id);
        pp_rep_cell_set(tb, 1, NULL, "%s", b->where ? b->where : "");
        if (!b->reached) {
            pp_rep_cell_set(tb, 2, "", "not run on the thread the model follows");
            pp_rep_cell_set(tb, 3, "", "%s", "");
            pp_rep_cell_set(tb, 4, "", "-");
            pp_rep_cell_set(tb, 5, "", "-");
            continue;
        }
        char *e = block_text(b, 0), *es = block_text(b, 1);
        pp_rep_cell_set(tb, 2, e ? e : "", "`%s`", e ? e : "?");
        pp_rep_cell_set(tb, 3, es ? es : "", "`%s`", es ? es : "?");
        free(e);
        free(es);
        long double v = pp_eqblock_eval(b, 0, m, &at, P, &approx) + pp_eqblock_eval(b, 1, m, &at, P, &approx);
        if (i == 0)
            all = v;
        pp_rep_cell_time(tb, 4, (double)v);
        pp_rep_cell_num(tb, 5, "%.1f%%", all > 0 && isfinite((double)v) ? (double)(100 * v / all) : NAN);
    }
    pp_vals_free(&at);
    if (approx)
        pp_rep_para(d, "Some sums of more than 2^20 terms were evaluated from 512 of them.");
    pp_equations_free(&q);
    return 0;
}
