/* memory-out.c - predict's account of the memory model at the predicted
 * size (memory.h, pp_mem_report): where the last cache level ends and
 * where that comes from, and for every loop with streams its bytes per
 * iteration, its working set here and at the recorded size, and the time
 * the model adds.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "memory-out.h"
#include "cli.h"
#include "memory.h"

#include <stdlib.h>

static const char *fmt_bytes(double b, char *buf, size_t n)
{
    if (b >= 1024.0 * 1024 * 1024)
        snprintf(buf, n, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        snprintf(buf, n, "%.1f MiB", b / (1024.0 * 1024));
    else if (b >= 1024)
        snprintf(buf, n, "%.1f KiB", b / 1024);
    else
        snprintf(buf, n, "%.0f B", b);
    return buf;
}

/* Where the edge comes from, in words (calibrate's measured curve, or the
 * nominal size the host reports). */
static const char *edge_from(const pp_machine *mach)
{
    return mach->stream.n >= 2 ? "measured" : "nominal";
}

int pp_mem_text(FILE *f, const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P)
{
    pp_mem_loop *r;
    int n = pp_mem_report(m, pv, mach, P, &r);
    if (n <= 0)
        return n;
    char b1[32], b3[32];
    char note[256];
    pp_machine_edge_note(mach, note, sizeof note);
    fprintf(f, "  memory: %s\n", note[0] ? note : "last cache level unknown");
    for (int i = 0; i < n; i++) {
        const pp_mem_loop *e = &r[i];
        /* the loops whose working sets are per thread are listed even
         * with nothing added: which rule priced them is the news */
        if (e->extra_ns <= 0 && !e->beyond && !e->per_thread)
            continue;
        const pp_dloop *dl = &m->funcs[e->f].d->loops[e->k];
        char who[96] = "";
        if (e->per_thread == 1)
            snprintf(who, sizeof who, " a thread, %d thread%s at once", e->threads, e->threads == 1 ? "" : "s");
        fprintf(f, "    %s:L%d (line %d): %.0f B/iteration, working set %s%s (recorded %s)%s, +%.3g ns/iteration\n",
                m->funcs[e->f].d->name, dl->id, dl->line, e->bytes, fmt_bytes(e->ws, b1, sizeof b1), who,
                fmt_bytes(e->ws_rec, b3, sizeof b3),
                e->beyond ? (e->beyond_rec ? ", in memory at both sizes" : ", leaves the caches") : "",
                e->extra_ns);
        if (e->per_thread == 2)
            fprintf(f, "      (a trip count its working set needs is in neither the parameters nor a thread's "
                       "values: priced at the program's arrays)\n");
    }
    free(r);
    return 0;
}

int pp_mem_json(FILE *f, const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P)
{
    pp_mem_loop *r;
    int n = pp_mem_report(m, pv, mach, P, &r);
    if (n < 0)
        return n;
    fprintf(f, "\"memory\":");
    if (n == 0) {
        fprintf(f, "null");
        return 0;
    }
    fprintf(f, "{\"edge_bytes\":");
    pp_json_num(f, pp_machine_memory_edge(mach));
    fprintf(f, ",\"edge_from\":\"%s\",\"l3_bytes\":%ld,\"loops\":[", edge_from(mach), mach->cache_l3_bytes);
    for (int i = 0; i < n; i++) {
        const pp_mem_loop *e = &r[i];
        const pp_dloop *dl = &m->funcs[e->f].d->loops[e->k];
        fprintf(f, "%s{\"loop\":\"%s:L%d\",\"line\":%d,\"bytes_per_iter\":", i ? "," : "",
                m->funcs[e->f].d->name, dl->id, dl->line);
        pp_json_num(f, e->bytes);
        fprintf(f, ",\"working_set\":");
        pp_json_num(f, e->ws);
        fprintf(f, ",\"working_set_recorded\":");
        pp_json_num(f, e->ws_rec);
        fprintf(f, ",\"beyond\":%s,\"beyond_recorded\":%s,\"extra_ns_per_iter\":", e->beyond ? "true" : "false",
                e->beyond_rec ? "true" : "false");
        pp_json_num(f, e->extra_ns);
        fprintf(f, ",\"per_thread\":%s,\"threads\":%d}",
                e->per_thread == 1 ? "true" : e->per_thread == 2 ? "\"unknown\"" : "false",
                e->per_thread == 1 ? e->threads : 1);
    }
    fprintf(f, "]}");
    free(r);
    return 0;
}
