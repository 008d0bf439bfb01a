/* maybe-uninit.c - a function that draws a (false) -Wmaybe-uninitialized
 * at -O2 -Wall.  tests/e2e/10-plugin.t: the instrumented build does not run
 * that warning (its false positives move with the instrumentation: SQLite's
 * fts3IncrmergeLoad draws one at -O2 without the plugin and at -O3 with
 * it) unless asked to keep it (-fplugin-arg-perfpred-keep-maybe-uninitialized). */
int pick(int n, const int *v)
{
    int x;
    for (int i = 0; i < n; i++)
        if (v[i] > 0)
            x = v[i];
    return n > 0 ? x : 0;
}
