/* rt-fmt.h - a line buffer with integer formatting for the record writer's
 * many lines (ev, delta, count): fprintf parsed its format for every
 * number, about 23,000 instructions per event line, half of the run of a
 * program with thousands of synchronisations.  Same text as the printf
 * conversions it replaces (%u, %d, PRIu64, PRId64, PRIx64).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RT_FMT_H
#define PERFPRED_RT_FMT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct pp_lbuf {
    FILE *f;
    size_t n;
    char b[4096];
};

static inline void pp_lb_flush(struct pp_lbuf *l)
{
    if (l->n)
        fwrite(l->b, 1, l->n, l->f);
    l->n = 0;
}

static inline void pp_lb_room(struct pp_lbuf *l, size_t k)
{
    if (l->n + k > sizeof l->b)
        pp_lb_flush(l);
}

static inline void pp_lb_ch(struct pp_lbuf *l, char c)
{
    pp_lb_room(l, 1);
    l->b[l->n++] = c;
}

static inline void pp_lb_str(struct pp_lbuf *l, const char *s)
{
    size_t k = strlen(s);
    if (k > sizeof l->b / 2) {
        pp_lb_flush(l);
        fwrite(s, 1, k, l->f);
        return;
    }
    pp_lb_room(l, k);
    memcpy(l->b + l->n, s, k);
    l->n += k;
}

static inline void pp_lb_u64(struct pp_lbuf *l, uint64_t v)
{
    char t[20];
    int k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    pp_lb_room(l, (size_t)k);
    while (k)
        l->b[l->n++] = t[--k];
}

static inline void pp_lb_i64(struct pp_lbuf *l, int64_t v)
{
    if (v < 0) {
        pp_lb_ch(l, '-');
        pp_lb_u64(l, (uint64_t)0 - (uint64_t)v);
    } else
        pp_lb_u64(l, (uint64_t)v);
}

static inline void pp_lb_hex(struct pp_lbuf *l, uint64_t v)
{
    char t[16];
    int k = 0;
    do {
        t[k++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    pp_lb_room(l, (size_t)k);
    while (k)
        l->b[l->n++] = t[--k];
}

#endif
