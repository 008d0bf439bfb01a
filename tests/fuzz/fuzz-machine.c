/* fuzz-machine.c - libFuzzer harness of the machine-file reader
 * (analysis/machine-file.c, docs/machine-format.md): the input is a
 * machine file; accepted, it is written back and read again.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "fuzz-common.h"
#include "machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("host.machine", data, size);
    pp_machine m;
    char err[2048] = "";
    memset(&m, 0, sizeof m);
    if (pp_machine_load(path, &m, err, sizeof err)) {
        fuzz_check_error(err, path);
        return 0;
    }
    /* what the commands ask of it, at a few processor counts */
    static const int Ps[] = {1, 2, 3, 64, 1 << 20};
    volatile double sink = pp_machine_lock_ns(&m) + pp_machine_handoff_ns(&m) + pp_machine_create_ns(&m) +
                           pp_machine_create_call_ns(&m) + pp_machine_join_ns(&m);
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++)
        sink += pp_machine_fork_join_ns(&m, Ps[i]) + pp_machine_barrier_ns(&m, Ps[i], PP_SYNC_OMP) +
                pp_machine_barrier_ns(&m, Ps[i], PP_SYNC_PTHREAD) + pp_machine_scale(&m, Ps[i], 0.5) +
                pp_machine_stream_bw(&m, 1e3 * Ps[i]);
    (void)sink;
    /* what it accepted, it must write so that it reads it back */
    char out[600];
    snprintf(out, sizeof out, "%s.out", path);
    if (pp_machine_save(out, &m, err, sizeof err)) {
        fprintf(stderr, "perfpred fuzz: cannot write back an accepted machine: %s\n", err);
        abort();
    }
    pp_machine m2;
    memset(&m2, 0, sizeof m2);
    if (pp_machine_load(out, &m2, err, sizeof err)) {
        fprintf(stderr, "perfpred fuzz: an accepted machine, written back, is refused: %s\n", err);
        abort();
    }
    return 0;
}
