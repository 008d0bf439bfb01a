/* plug.c - libplug.so, loaded by app_dl with dlopen.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
long plug_run(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (i * 7) % 13;
    return s;
}
