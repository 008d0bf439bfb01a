// hello.cc - perfpred-g++ compiles C++.
//
// Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
#include <iostream>
#include <vector>

int main(int argc, char **)
{
    std::vector<long> v(100 * argc);
    long s = 0;
    for (std::size_t i = 0; i < v.size(); i++)
        s += (long)i % 9;
    std::cout << "sum " << s << "\n";
    return 0;
}
