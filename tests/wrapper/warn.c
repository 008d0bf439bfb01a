/* warn.c - a source with a warning under -Wall: the wrapper must not add
 * to it nor take from it.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
int warn(int n)
{
    int unused;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
