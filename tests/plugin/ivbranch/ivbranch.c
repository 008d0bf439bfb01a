/* ivbranch.c - branches that compare an induction variable with a value
 * from before the loop, counted at loop entry (plugin/pp-ivbranch.cc;
 * tests/e2e/17-ivbranch.t checks the counts, computed by hand in main).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static int J;     /* a global bound, reloaded in the loop at "ssa" */

/* em.c's wrap-around neighbour: j + 1 == J once per entry */
__attribute__((noinline)) long wrap(const double *v)
{
    long s = 0;
    for (long j = 0; j < J; j++) {
        long jp = j + 1 == J ? 0 : j + 1;
        s += (long)v[jp];
    }
    return s;
}

/* i == k: once when 0 <= k < n, else never */
__attribute__((noinline)) int eq_param(int n, int k)
{
    int c = 0;
    for (int i = 0; i < n; i++) {
        if (i == k)
            c += 7;
        else
            c++;
    }
    return c;
}

/* a loop counting down, !=, and a constant */
__attribute__((noinline)) int ne_down(int n, int m)
{
    int c = 0;
    for (int i = n - 1; i >= 0; i--) {
        if (i != m)
            c++;
        if (i == 3)
            c += 100;
    }
    return c;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double v[16];
    for (int i = 0; i < 16; i++)
        v[i] = i;
    J = 10;
    long s = wrap(v) + wrap(v) + wrap(v);     /* true 3, false 27 */
    J = 0;
    s += wrap(v);                              /* no iteration */
    /* i == k: true 1 (k = 5), false 99 + 100 + 100 */
    int c = eq_param(n, 5) + eq_param(n, 200) + eq_param(0, 0) + eq_param(n, -1);
    /* i != m: true 49 + 49, false 1; i == 3: true 2, false 48 + 49 */
    int d = ne_down(n / 2, 10) + ne_down(n / 2 - 1, 60) + ne_down(0, 0);
    printf("%ld %d %d\n", s, c, d);
    return 0;
}
