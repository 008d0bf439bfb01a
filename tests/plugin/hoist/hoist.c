/* hoist.c - loop counters moved out of loop nests (plugin/pp-hoist.cc),
 * for tests/e2e/15-hoist.t.  Usage: hoist N M STOP
 *   known: a nest of counted loops: the inner loop's counters are added
 *          once per outer iteration, before the inner loop (its count m
 *          is not a constant: it stays a loop, the outer loop is not
 *          innermost), the outer loop's before it
 *   knownc: the inner loop runs 3 times (GCC unrolls it completely,
 *          and the outer loop becomes innermost): every loop counter is
 *          added before the outer loop, none stays in a loop
 *   early: the inner loop leaves by a break: counted in its header
 *   mayexit: the outer loop calls a function that exits when i == STOP:
 *          the inner loop's counters stay in the outer loop, so a run cut
 *          by that exit still has exact inner counts
 * Markers L:name mark the loops' lines.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static double a[64][64];
int stop_at = -1;

__attribute__((noinline)) void known(int n, int m)
{
    for (int i = 0; i < n; i++)            /* L:kn_outer */
        for (int j = 0; j < m; j++)        /* L:kn_inner */
            a[i & 63][j & 63] += (double)i * j;
}

__attribute__((noinline)) void knownc(int n)
{
    for (int i = 0; i < n; i++)            /* L:kc_outer */
        for (int k = 0; k < 3; k++)        /* L:kc_inner */
            a[i & 63][k] += (double)i * k;
}

__attribute__((noinline)) void early(int n, int m)
{
    for (int i = 0; i < n; i++) {          /* L:ea_outer */
        for (int j = 0; j < m; j++) {      /* L:ea_inner */
            if (j == i)
                break;
            a[i & 63][j & 63] -= 1.0;
        }
    }
}

/* public and not inlined: GCC cannot tell that it returns */
__attribute__((noinline)) void maybe_exit(int i)
{
    if (i == stop_at) {
        printf("exit at %d\n", i);
        fflush(stdout);
        exit(0);
    }
}

/* an innermost loop counted in its header whose call may exit: its
   header count must reach the counter before the exit (no accumulator
   flushed only at the loop's exits: plugin/pp-emit.cc) */
__attribute__((noinline)) void walkexit(int n)
{
    for (int j = 0; j < n; j++) {          /* L:we_loop */
        maybe_exit(j + 100);
        if (a[1][j & 63] < -1e300)
            break;
    }
}

__attribute__((noinline)) void mayexit(int n, int m)
{
    for (int i = 0; i < n; i++) {          /* L:me_outer */
        for (int j = 0; j < m; j++)        /* L:me_inner */
            a[i & 63][j & 63] *= 0.5;
        maybe_exit(i);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int n = atoi(argv[1]), m = atoi(argv[2]);
    stop_at = atoi(argv[3]);
    known(n, m);
    knownc(n);
    early(n, m);
    walkexit(n);
    mayexit(n, m);
    printf("%.1f\n", a[3][4]);
    return 0;
}
