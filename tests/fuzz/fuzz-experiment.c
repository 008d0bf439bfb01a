/* fuzz-experiment.c - libFuzzer harness of the experiment-file reader
 * (analysis/experiment.c, docs/experiment-format.md).  The records an
 * experiment names are not read here: only the file.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "fuzz-common.h"
#include "experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* files next to it that the seeds name (an experiment's records must
     * exist; they are not read) */
    static int once;
    if (!once++) {
        fuzz_file("a.ppr", (const uint8_t *)"", 0);
        fuzz_file("b.ppr", (const uint8_t *)"", 0);
        fuzz_file("m.machine", (const uint8_t *)"", 0);
    }
    const char *path = fuzz_file("run.experiment", data, size);
    pp_experiment x;
    char err[2048] = "";
    memset(&x, 0, sizeof x);
    if (pp_exp_load(path, &x, err, sizeof err)) {
        fuzz_check_error(err, path);   /* x is freed */
        return 0;
    }
    pp_exp_free(&x);
    return 0;
}
