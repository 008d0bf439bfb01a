/* vec.c - a loop with a constant count calling a small static function:
 * GCC 12 vectorises it at -O2 (very cheap cost model) once the function is
 * inlined.  With the plugin the inlined body must not bring a call into the
 * loop (the registration check: tests/e2e/14-inline.t).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
static double half(double x)
{
    return x * 0.5 + 1.0;
}

double a[1024], b[1024];

void f(void)
{
    for (int i = 0; i < 1024; i++)
        a[i] = half(b[i]);
}
