/* app.c - app_static: uses libvec.a; `app_static N fail` exits with 3.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "vec.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    long *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!a || !b)
        return 1;
    vec_fill(a, n, 3);
    vec_fill(b, n, 5);
    long s = 0;
    for (int r = 0; r < 4; r++)
        s += vec_dot(a, b, n);
    printf("dot %ld (sizeof long %d)\n", s, SIZEOF_LONG);
    free(a);
    free(b);
    if (argc > 2 && !strcmp(argv[2], "fail")) {
        fprintf(stderr, "app_static: failing as asked\n");
        return 3;
    }
    return 0;
}
