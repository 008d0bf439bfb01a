/* test_record_mpi.c - the record's mpi line: the MPI implementation's
 * MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_PROC_NULL and library are read; a
 * record without them (written before the runtime knew MPICH) gets Open
 * MPI's; impossible values are an error naming the file and line.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

static char path[64];

/* A record of rank 1 of 4 whose mpi line ends with MPI_TAIL. */
static const char *write_record(const char *mpi_tail)
{
    snprintf(path, sizeof path, "/tmp/pp-test-record-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "perfpred-record 1\n"
               "program path=\"/x/prog\" pid=7 host=\"h\" clock=monotonic_ns abi=1 runtime=\"perfpred-rt 0.1\"\n"
               "mpi rank=1 size=4 run=00000000000000ab pid0=5%s\n"
               "thread id=0 kind=main parent=- start=0 end=100\n"
               "tail thread=0 t=100 delta=()\n"
               "end events=0 threads=1\n",
            mpi_tail);
    fclose(f);
    return path;
}

static void test_mpich_constants(void **state)
{
    (void)state;
    pp_record r;
    char err[512];
    const char *p = write_record(" any_source=-2 any_tag=-1 proc_null=-1 lib=\"MPICH Version: 4.0.2\"");
    assert_int_equal(pp_record_load(p, &r, err, sizeof err), 0);
    assert_int_equal(r.mpi_rank, 1);
    assert_int_equal(r.mpi_size, 4);
    assert_int_equal(r.mpi_any_source, -2);
    assert_int_equal(r.mpi_any_tag, -1);
    assert_int_equal(r.mpi_proc_null, -1);
    assert_non_null(r.mpi_lib);
    assert_string_equal(r.mpi_lib, "MPICH Version: 4.0.2");
    pp_record_free(&r);
    unlink(p);
}

static void test_old_record_is_open_mpi(void **state)
{
    (void)state;
    pp_record r;
    char err[512];
    const char *p = write_record("");
    assert_int_equal(pp_record_load(p, &r, err, sizeof err), 0);
    assert_int_equal(r.mpi_rank, 1);
    assert_int_equal(r.mpi_any_source, -1);
    assert_int_equal(r.mpi_any_tag, -1);
    assert_int_equal(r.mpi_proc_null, -2);
    assert_null(r.mpi_lib);
    pp_record_free(&r);
    unlink(p);
}

/* each key on its own: the others keep Open MPI's values */
static void test_partial_keys(void **state)
{
    (void)state;
    pp_record r;
    char err[512];
    const char *p = write_record(" proc_null=-3 lib=\"Other MPI 1.0\"");
    assert_int_equal(pp_record_load(p, &r, err, sizeof err), 0);
    assert_int_equal(r.mpi_any_source, -1);
    assert_int_equal(r.mpi_any_tag, -1);
    assert_int_equal(r.mpi_proc_null, -3);
    assert_string_equal(r.mpi_lib, "Other MPI 1.0");
    pp_record_free(&r);
    unlink(p);
}

static void expect_error(const char *tail, const char *needle)
{
    pp_record r;
    char err[512], where[128];
    const char *p = write_record(tail);
    assert_int_equal(pp_record_load(p, &r, err, sizeof err), -1);
    snprintf(where, sizeof where, "%s:3:", p);
    if (!strstr(err, where) || !strstr(err, needle))
        fail_msg("error '%s' should name %s and say '%s'", err, where, needle);
    unlink(p);
}

static void test_impossible_constants(void **state)
{
    (void)state;
    expect_error(" any_source=3", "any_source=3");          /* a real rank */
    expect_error(" any_source=-2 proc_null=-2", "distinct"); /* the same value */
    expect_error(" any_tag=0", "any_tag=0");                 /* a real tag */
    expect_error(" proc_null=minus", "'proc_null=minus' is not an integer");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mpich_constants),
        cmocka_unit_test(test_old_record_is_open_mpi),
        cmocka_unit_test(test_partial_keys),
        cmocka_unit_test(test_impossible_constants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
