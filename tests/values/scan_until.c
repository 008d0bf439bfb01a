/* scan_until.c - a search whose length the plugin cannot know: each query
 * walks a sorted table until it passes its key, and the keys sit around
 * the middle of the table, so a walk is about n/2 steps: a count per
 * entry that grows with n although no loop bound says so.  With SKEW 1
 * the keys sit 2 sqrt(n) further on: n/2 + sqrt(n) steps, which neither a
 * line nor a power law fits exactly.
 *
 * usage: scan_until N QUERIES [SKEW]
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int queries = argc > 2 ? atoi(argv[2]) : 50;
    int skew = argc > 3 ? atoi(argv[3]) : 0;
    if (n < 4 || queries < 1) {
        fprintf(stderr, "usage: scan_until N QUERIES [SKEW]\n");
        return 2;
    }
    long *table = malloc(sizeof *table * (n + 1));
    if (!table)
        return 1;
    for (long i = 0; i < n; i++)
        table[i] = 2 * i;
    table[n] = 4 * n;           /* the sentinel */
    long found = 0;
    for (int q = 0; q < queries; q++) {
        long key = n + 2 * (q % 3);     /* near the middle */
        if (skew)
            key += 2 * (long)sqrt((double)n);
        long i = 0;
        while (table[i] < key)
            i++;
        found += i;
    }
    printf("%ld\n", found);
    free(table);
    return 0;
}
