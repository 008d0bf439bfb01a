/* calibrate_latency.c - the time of one load at a random address in a
 * working set: a chase (each address the previous load's value, p =
 * p->next: the latency) and a gather (independent loads at addresses
 * read from an index array, a[idx[i]]: what the processor overlaps).
 * The memory model prices the plugin's memc= and memg= references with
 * them (docs/model.md, "memory").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "calibrate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64                 /* bytes: one load per cache line          */
#define WORDS (LINE / 8)

static volatile uint64_t sink;

/* xorshift64*: a fixed seed, so that every calibration walks the same
 * permutation */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

int pp_cal_lat_setup(pp_cal_lat *k, size_t max_bytes, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    k->cap = max_bytes / LINE;
    if (k->cap < 16)
        k->cap = 16;
    k->buf = aligned_alloc(LINE, k->cap * LINE);
    k->idx = malloc(k->cap * sizeof *k->idx);
    if (!k->buf || !k->idx) {
        pp_cal_lat_free(k);
        snprintf(err, errlen, "out of memory for %zu bytes of latency kernel", max_bytes);
        return -1;
    }
    return 0;
}

void pp_cal_lat_free(pp_cal_lat *k)
{
    free(k->buf);
    free(k->idx);
    k->buf = NULL;
    k->idx = NULL;
}

int pp_cal_lat_prepare(pp_cal_lat *k, size_t bytes)
{
    size_t n = bytes / LINE;
    if (n < 16 || n > k->cap)
        return -1;
    k->lines = n;
    /* Sattolo's shuffle: one cycle through all n lines, so that a chase
     * visits every line before it comes back */
    for (size_t i = 0; i < n; i++)
        k->idx[i] = (uint32_t)i;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(next_rand(&s) % i);
        uint32_t t = k->idx[i];
        k->idx[i] = k->idx[j];
        k->idx[j] = t;
    }
    /* line idx[i] points to line idx[i + 1]; the gather reads the lines in
     * the same random order through idx */
    for (size_t i = 0; i < n; i++)
        k->buf[(size_t)k->idx[i] * WORDS] = (uint64_t)k->idx[(i + 1) % n] * WORDS;
    k->pos = (size_t)k->idx[0] * WORDS;
    k->gpos = 0;
    return 0;
}

double pp_cal_lat_bytes(const pp_cal_lat *k)
{
    return (double)k->lines * LINE;
}

/* out[0]: ns per load.  One iteration is one load. */
int pp_cal_lat_run(void *ctx, long iters, double *out, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    pp_cal_lat *k = ctx;
    double t0 = pp_cal_now_ns();
    uint64_t acc = 0;
    if (k->gather) {
        size_t i = k->gpos;
        for (long r = 0; r < iters; r++) {
            acc += k->buf[(size_t)k->idx[i] * WORDS + 1];
            if (++i == k->lines)
                i = 0;
        }
        k->gpos = i;
    } else {
        uint64_t p = k->pos;
        for (long r = 0; r < iters; r++)
            p = k->buf[p];
        k->pos = (size_t)p;
        acc = p;
    }
    sink = acc;
    out[0] = (pp_cal_now_ns() - t0) / (double)(iters > 0 ? iters : 1);
    return 0;
}
