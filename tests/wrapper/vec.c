/* vec.c - libvec.a: two loops.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "vec.h"

void vec_fill(long *a, int n, long seed)
{
    for (int i = 0; i < n; i++)
        a[i] = (seed * (i + 1)) % 97;
}

long vec_dot(const long *a, const long *b, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}
