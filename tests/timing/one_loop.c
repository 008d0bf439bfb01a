/* one_loop.c - one loop in main, nothing else: tests/e2e/44-loop-timing.t
 * edits its record's timing slots to check the measured cost by hand.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)i * 0.5;
    printf("%g\n", s);
    return 0;
}
