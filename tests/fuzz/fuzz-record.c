/* fuzz-record.c - libFuzzer harness of the record reader
 * (analysis/record.c, docs/record-format.md) and of what the analyser does
 * next with a record it accepted: the session every table command opens
 * (the model built, its counts and costs fitted, the built-in machine) and
 * `perfpred show`'s totals at the recorded P.  A record with an `mpi` line
 * is read as a run of its own (its directory holds only it).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "fuzz-common.h"
#include "cli.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("rank-0.ppr", data, size);
    char err[2048] = "";
    pp_record r;
    memset(&r, 0, sizeof r);
    if (pp_record_load(path, &r, err, sizeof err)) {
        fuzz_check_error(err, path);
        return 0;
    }
    pp_record_free(&r);

    /* as `perfpred show RECORD` */
    pp_cli c;
    char *argv[] = {"show", (char *)path, NULL};
    if (pp_cli_parse(2, argv, "set,P,format,machine", &c, err, sizeof err)) {
        fprintf(stderr, "perfpred fuzz: %s\n", err);
        abort();
    }
    c.quiet_default = 1;
    pp_session s;
    if (pp_session_open(&s, &c, 1, err, sizeof err)) {
        pp_cli_free(&c);
        fuzz_check_error(err, path);
        return 0;
    }
    const pp_prog *m = &s.prog;
    int P = pp_prog_default_P(m, &s.vals);
    pp_instance in;
    memset(&in, 0, sizeof in);
    if (pp_instantiate(m, &s.vals, P, PP_INST_TOTALS, &in, err, sizeof err) == 0)
        pp_instance_free(&in);
    pp_session_close(&s);
    pp_cli_free(&c);
    return 0;
}
