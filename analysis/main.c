/* main.c - the perfpred command: dispatch to the subcommands.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cmds.h"
#include "record.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static const char *usage =
    "usage: perfpred COMMAND [OPTIONS]\n"
    "commands:\n"
    "  calibrate  measure this host's synchronisation costs and write a machine file\n"
    "  show       loops, count rules and parameters of a record\n"
    "  predict    times on the MIRACLE, PRAM and real machines, latencies, efficiencies\n"
    "  scale      algorithmic and combination scalability tables\n"
    "  graph      the thread graph for a given P, as DOT or SVG\n"
    "  timeline   the predicted execution as a trace for Perfetto (Chrome JSON)\n"
    "  equations  the time of the program, each function and loop as an equation in the parameters and P\n"
    "  record     run an instrumented program K times (at two sizes, alternated) and keep the records\n"
    "  validate   run the program at given sizes and compare with the predictions\n"
    "  fit        fit the linear machine model (ns per operation) over runs\n"
    "  sensitivity  dT/dbeta of the predicted time for every machine parameter\n"
    "  run-experiment  time, speedup and efficiency of variants over P and the size, and their crossovers\n"
    "  report     one self-contained HTML page (and Markdown, CSV, SVG) on a program\n"
    "'perfpred COMMAND --help' describes a command.\n"
    "--allow-incomplete (any command) reads records of programs killed by a signal.\n";

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* An instance's action lists (up to hundreds of MB) are freed after
     * each of scale's probes and each of an interval's predictions, and
     * glibc hands such blocks back to the system (those above its mmap
     * threshold, and the heap's top past its trim threshold): the next
     * instance then faults every page in anew, zeroed by the kernel
     * (ge_pthreads' 7x7 `scale --E`: 0.5 s of system time, 0.2 s with
     * the memory kept, for 5-17% more peak memory).  Blocks up to 32 MB
     * come from the heap, which is not trimmed. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    /* --allow-incomplete applies to every command that reads records
     * (analysis/record.h): taken out here, wherever it is */
    int k = 1, rest = 0;
    for (int i = 1; i < argc; i++) {
        /* after `--` the words are a program's (perfpred record) */
        rest |= !strcmp(argv[i], "--");
        if (!rest && !strcmp(argv[i], "--allow-incomplete"))
            pp_record_allow_incomplete = 1;
        else
            argv[k++] = argv[i];
    }
    argc = k;
    argv[argc] = NULL;
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        puts("perfpred 0.1");
        return 0;
    }
    if (!strcmp(cmd, "show"))
        return pp_cmd_show(argc - 1, argv + 1);
    if (!strcmp(cmd, "predict"))
        return pp_cmd_predict(argc - 1, argv + 1);
    if (!strcmp(cmd, "scale"))
        return pp_cmd_scale(argc - 1, argv + 1);
    if (!strcmp(cmd, "graph"))
        return pp_cmd_graph(argc - 1, argv + 1);
    if (!strcmp(cmd, "sensitivity"))
        return pp_cmd_sensitivity(argc - 1, argv + 1);
    if (!strcmp(cmd, "timeline"))
        return pp_cmd_timeline(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return pp_cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "equations"))
        return pp_cmd_equations(argc - 1, argv + 1);
    if (!strcmp(cmd, "fit"))
        return pp_cmd_fit(argc - 1, argv + 1);
    if (!strcmp(cmd, "record"))
        return pp_cmd_record(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return pp_cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "run-experiment"))
        return pp_cmd_experiment(argc - 1, argv + 1);
    if (!strcmp(cmd, "calibrate"))
        return pp_cmd_calibrate(argc - 1, argv + 1);
    fprintf(stderr, "perfpred: unknown command '%s'\n%s", cmd, usage);
    return 2;
}
