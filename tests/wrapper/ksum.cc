// ksum.cc - a C++ library for the autotools project of 92-wrapper.t:
// libtool links C++ shared libraries with -nostdlib and names the
// libraries itself.
//
// Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
#include <vector>

long ksum(int n)
{
    std::vector<long> v(n);
    long s = 0;
    for (int i = 0; i < n; i++) {
        v[i] = i % 5;
        s += v[i];
    }
    return s;
}
