// appxx.cc - the C++ program of the autotools project of 92-wrapper.t.
//
// Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
#include <iostream>

long ksum(int n);

int main()
{
    long t = 0;
    for (int i = 0; i < 10; i++)
        t += i;
    std::cout << t << " " << ksum(100) << "\n";
    return 0;
}
