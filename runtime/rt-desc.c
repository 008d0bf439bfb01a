/* rt-desc.c - the descriptor sections and the function index of the record.
 *
 * The linker defines __start_SEC / __stop_SEC for the sections __pp_desc
 * and __pp_gdesc; they are weak here so that a program without any
 * instrumented function links too.  The plugin aligns the descriptors to
 * exactly 8 bytes so the section is a dense array; we still walk it in
 * 8-byte steps over zero words, so that padding inserted by an object file
 * compiled differently cannot shift the walk.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdlib.h>

#include "rt-internal.h"

extern const char __start___pp_desc[] __attribute__((weak));
extern const char __stop___pp_desc[] __attribute__((weak));
extern const char __start___pp_gdesc[] __attribute__((weak));
extern const char __stop___pp_gdesc[] __attribute__((weak));

static size_t hslot(const struct pp_ftab *ft, const struct pp_fdesc *d)
{
    uintptr_t h = (uintptr_t)d;
    h ^= h >> 17;
    h *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (ft->hcap - 1);
}

static int rehash(struct pp_ftab *ft, size_t cap)
{
    const struct pp_fdesc **k = calloc(cap, sizeof *k);
    uint32_t *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    free(ft->hkey);
    free(ft->hval);
    ft->hkey = k;
    ft->hval = v;
    ft->hcap = cap;
    for (size_t i = 0; i < ft->n; i++) {
        size_t s = hslot(ft, ft->v[i]);
        while (k[s])
            s = (s + 1) & (cap - 1);
        k[s] = ft->v[i];
        v[s] = (uint32_t)i;
    }
    return 0;
}

long pp_ftab_find(const struct pp_ftab *ft, const struct pp_fdesc *d)
{
    if (!d || !ft->hcap)
        return -1;
    for (size_t s = hslot(ft, d); ft->hkey[s]; s = (s + 1) & (ft->hcap - 1))
        if (ft->hkey[s] == d)
            return ft->hval[s];
    return -1;
}

long pp_ftab_add(struct pp_ftab *ft, const struct pp_fdesc *d)
{
    long i = pp_ftab_find(ft, d);
    if (i >= 0 || !d)
        return i;
    if (ft->n == ft->cap) {
        size_t cap = ft->cap ? 2 * ft->cap : 64;
        const struct pp_fdesc **nv = realloc(ft->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        ft->v = nv;
        ft->cap = cap;
    }
    ft->v[ft->n++] = d;
    if (2 * ft->n > ft->hcap) {     /* load <= 1/2 */
        if (rehash(ft, ft->hcap ? 2 * ft->hcap : 128) != 0) {
            ft->n--;
            return -1;
        }
        return (long)ft->n - 1;
    }
    size_t s = hslot(ft, d);
    while (ft->hkey[s])
        s = (s + 1) & (ft->hcap - 1);
    ft->hkey[s] = d;
    ft->hval[s] = (uint32_t)(ft->n - 1);
    return (long)ft->n - 1;
}

int pp_ftab_init(struct pp_ftab *ft)
{
    *ft = (struct pp_ftab){ 0 };
    const char *p = __start___pp_desc, *end = __stop___pp_desc;
    if (!p || !end)
        return 0;
    while (p + sizeof(struct pp_fdesc) <= end) {
        const struct pp_fdesc *d = (const struct pp_fdesc *)(const void *)p;
        if (d->version == 0) {              /* alignment padding */
            p += 8;
            continue;
        }
        if (d->version != PP_ABI_VERSION)
            pp_warn("descriptor of ABI version %u in __pp_desc ignored (runtime: %d)",
                    d->version, PP_ABI_VERSION);
        else if (pp_ftab_add(ft, d) < 0)
            return -1;
        p += sizeof *d;
    }
    return 0;
}

void pp_ftab_free(struct pp_ftab *ft)
{
    free(ft->v);
    free(ft->hkey);
    free(ft->hval);
    *ft = (struct pp_ftab){ 0 };
}

const struct pp_gdesc **pp_gdescs(size_t *n)
{
    *n = 0;
    const char *p = __start___pp_gdesc, *end = __stop___pp_gdesc;
    if (!p || !end || end <= p)
        return NULL;
    size_t max = (size_t)(end - p) / 8, k = 0;
    const struct pp_gdesc **v = malloc(max * sizeof *v);
    if (!v)
        return NULL;
    while (p + sizeof(struct pp_gdesc) <= end) {
        const struct pp_gdesc *g = (const struct pp_gdesc *)(const void *)p;
        if (g->version == 0) {
            p += 8;
            continue;
        }
        p += sizeof *g;
        if (g->version != PP_ABI_VERSION || !g->addr || !g->name)
            continue;
        size_t j = 0;
        while (j < k && v[j]->addr != g->addr)     /* one per address */
            j++;
        if (j == k)
            v[k++] = g;
    }
    *n = k;
    return v;
}
