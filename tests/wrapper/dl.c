/* dl.c - app_dl N [LIB]: dlopen()s LIB (./libplug.so) and calls plug_run,
 * then dlclose()s it (the record is written after that).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    void *h = dlopen(argc > 2 ? argv[2] : "./libplug.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "app_dl: %s\n", dlerror());
        return 1;
    }
    long (*run)(int) = (long (*)(int))dlsym(h, "plug_run");
    printf("main %ld plug %ld\n", s, run ? run(2 * n) : -1);
    dlclose(h);
    return 0;
}
