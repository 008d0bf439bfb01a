/* test_wrapper_args.c - perfpred-gcc's reading of a gcc command line
 * (wrapper/pw-args.c): which commands compile, link (and what kind of
 * link) or pass through, which inputs are C or C++, the options whose
 * argument is the next word, -x, response files, and what the user
 * already gives.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pw.h"

struct want {
    const char *line;           /* the arguments, blank-separated */
    enum pw_mode mode;
    enum pw_link link;
    int sources, inputs, x_open, has_plugin, has_runtime;
};

static void check(const struct want *w)
{
    char buf[512], *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", w->line);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    struct pw_cmd c;
    pw_classify(argc, argv, &c);
    if (c.mode != w->mode || c.link != w->link || c.sources != w->sources ||
        c.inputs != w->inputs || c.x_open != w->x_open || c.has_plugin != w->has_plugin ||
        c.has_runtime != w->has_runtime)
        fail_msg("'%s': mode %d link %d sources %d inputs %d x_open %d plugin %d runtime %d (%s)",
                 w->line, c.mode, c.link, c.sources, c.inputs, c.x_open, c.has_plugin,
                 c.has_runtime, c.why);
}

static void test_modes(void **state)
{
    (void)state;
    static const struct want t[] = {
        {"--version", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"--version x.c", PW_PASS, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-dumpmachine", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"-print-prog-name=ld", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"-print-search-dirs", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"-v", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"-lm -L/usr/lib", PW_PASS, PW_LINK_EXE, 0, 0, 0, 0, 0},
        {"-E x.c", PW_PASS, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-M x.c", PW_PASS, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-MM -MF x.d x.c", PW_PASS, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-fsyntax-only x.c", PW_PASS, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-c x.c", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-MD -MF x.d -c x.c -o x.o", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-S x.cc", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-c x.s", PW_COMPILE, PW_LINK_EXE, 0, 1, 0, 0, 0},
        {"-c x.S y.f90 z.h", PW_COMPILE, PW_LINK_EXE, 0, 3, 0, 0, 0},
        {"-c -x assembler x.c", PW_COMPILE, PW_LINK_EXE, 0, 1, 1, 0, 0},
        {"-c -xc x.weird", PW_COMPILE, PW_LINK_EXE, 1, 1, 1, 0, 0},
        {"-x c - -x none y.o", PW_LINK, PW_LINK_EXE, 1, 2, 0, 0, 0},
        {"x.o y.a -lm -o prog", PW_LINK, PW_LINK_EXE, 0, 2, 0, 0, 0},
        {"x.c -o prog", PW_LINK, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-shared -fPIC x.o -o libx.so.1", PW_LINK, PW_LINK_SHARED, 0, 1, 0, 0, 0},
        {"-shared -nostdlib crti.o x.o -lc", PW_LINK, PW_LINK_SHARED, 0, 2, 0, 0, 0},
        {"-static x.o", PW_LINK, PW_LINK_STATIC, 0, 1, 0, 0, 0},
        {"-static-pie x.o", PW_LINK, PW_LINK_STATIC, 0, 1, 0, 0, 0},
        {"-r x.o y.o -o xy.o", PW_LINK, PW_LINK_NONE, 0, 2, 0, 0, 0},
        {"-Wl,-r x.o -o xy.o", PW_LINK, PW_LINK_NONE, 0, 1, 0, 0, 0},
        {"-Xlinker -r x.o -o xy.o", PW_LINK, PW_LINK_NONE, 0, 1, 0, 0, 0},
        /* the argument of -o, -I, -include, -MF, -Xlinker is not an input */
        {"-c -o x.c.o -I inc -include conf.h -MT x.c x.cpp", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"-Xlinker foo.c x.o", PW_LINK, PW_LINK_EXE, 0, 1, 0, 0, 0},
        {"-c x.c -fplugin=/opt/lib/perfpred/perfpred.so", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 1, 0},
        {"-c x.c -fplugin=perfpred", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 1, 0},
        {"-c x.c -fplugin=other.so", PW_COMPILE, PW_LINK_EXE, 1, 1, 0, 0, 0},
        {"x.o -Lbuild -lperfpred-rt", PW_LINK, PW_LINK_EXE, 0, 1, 0, 0, 1},
        {"x.o -l:libperfpred-rt.so.1", PW_LINK, PW_LINK_EXE, 0, 1, 0, 0, 1},
        {"x.o -l perfpred-rt", PW_LINK, PW_LINK_EXE, 0, 1, 0, 0, 1},
        {"x.o build/libperfpred-rt.a", PW_LINK, PW_LINK_EXE, 0, 2, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        check(&t[i]);
}

static void test_response_file(void **state)
{
    (void)state;
    const char *path = "/tmp/perfpred-test-wrapper.rsp";
    const char *inner = "/tmp/perfpred-test-wrapper-inner.rsp";
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fputs("'my file.c' \"-o\" out\\ put.o\n", f);
    fclose(f);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "-O2\n-c @%s\n", inner);
    fclose(f);
    char a0[] = "@/tmp/perfpred-test-wrapper.rsp";
    char *argv[] = {a0, NULL};
    struct pw_cmd c;
    pw_classify(1, argv, &c);
    /* one input, C (my file.c); "out put.o" is -o's argument */
    assert_int_equal(c.mode, PW_COMPILE);
    assert_int_equal(c.sources, 1);
    assert_int_equal(c.inputs, 1);
    /* an unreadable @FILE is a file name, as for gcc */
    char a1[] = "@/nonexistent/perfpred.rsp";
    char *argv2[] = {a1, NULL};
    pw_classify(1, argv2, &c);
    assert_int_equal(c.mode, PW_LINK);
    assert_int_equal(c.inputs, 1);
    remove(path);
    remove(inner);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_response_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
