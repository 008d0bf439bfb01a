/* main2.c - app_shared: its own loop, then libpar.so's threads.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#include "par.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long t = 0;
    for (int i = 0; i < n; i++)
        t += i & 3;
    printf("local %ld parallel %ld\n", t, par_sum(n, 2));
    return 0;
}
