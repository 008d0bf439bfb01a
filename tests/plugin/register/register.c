/* register.c - where the registration checks go (tests/e2e/16-register.t).
 * Counters reach the runtime through a check at the entry of each function
 * that uses them after inlining, cloning and splitting
 * (plugin/pp-register.cc).  Each function here has counts computed by
 * hand; a function whose counters were used but not registered would
 * have none in the record.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* small, static: inlined into its callers (registered by them) */
static int clamp(int x, int hi)
{
    if (x > hi)
        return hi;
    return x;
}

/* static, called through no pointer, too big to inline everywhere:
   its own check, or its callers' */
static __attribute__((noinline)) long scale(const int *v, int n, int k)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)v[i] * k;
    return s;
}

/* not instrumented itself, but clamp is inlined into it: its body uses
   clamp's counters, so it registers them */
__attribute__((no_instrument_function)) int quiet(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += clamp(i, 10);
    return s;
}

struct job { const int *v; int n; long out; };

static void *work(void *arg)
{
    struct job *j = arg;
    long s = 0;
    for (int i = 0; i < j->n; i++)
        s += clamp(j->v[i], 50);
    j->out = s + scale(j->v, j->n, 3);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n < 1 || n > 100000)
        return 2;
    int *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = i;
    pthread_t th[2];
    struct job jobs[2] = { { v, n, 0 }, { v, n / 2, 0 } };
    for (int t = 0; t < 2; t++)
        if (pthread_create(&th[t], NULL, work, &jobs[t]) != 0)
            return 1;
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    printf("%ld %ld %d %ld\n", jobs[0].out, jobs[1].out, quiet(n),
           scale(v, n, 1));
    free(v);
    return 0;
}
