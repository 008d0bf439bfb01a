/* cmd_fit.c - `perfpred fit RECORD... -o FILE [--machine BASE]`: fit the
 * linear machine model (Clement & Quinn, section 3.3) over runs and write
 * it into a machine file.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "cli.h"
#include "mpirun.h"
#include "cmds.h"
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: perfpred fit RECORD... -o FILE [--machine BASE]\n"
    "  Fits t = sum chi_i beta_i (Clement & Quinn, section 3.3) over the work\n"
    "  segments of the records (runs of any programs on this machine): beta is\n"
    "  the time of one integer, floating point, load, store, branch and call\n"
    "  operation, of a loop iteration, a loop entry and a segment, with its\n"
    "  standard error.  Writes BASE (default: built-in costs) with the fitted beta\n"
    "  to FILE; perfpred then splits the costs a run cannot separate by them.\n";

int pp_cmd_fit(int argc, char **argv)
{
    pp_cli c;
    int st = pp_cli_start(argc, argv, "fit", "machine,o", usage, &c);
    if (st >= 0)
        return st;
    char err[1024];
    int rc = 0;
    if (!c.nrec || !c.out) {
        fprintf(stderr, "perfpred fit: needs records and -o FILE\n%s", usage);
        pp_cli_free(&c);
        return 2;
    }
    pp_record *recs = calloc((size_t)c.nrec, sizeof *recs);
    pp_record **ptr = calloc((size_t)c.nrec, sizeof *ptr);
    int loaded = 0;
    if (!recs || !ptr)
        rc = 1;
    for (int i = 0; rc == 0 && i < c.nrec; i++) {
        if (pp_mpirun_is(c.rec[i]) == 1) {
            pp_mpirun_refusal(c.rec[i], "perfpred fit", err, sizeof err);
            fprintf(stderr, "perfpred fit: %s\n", err);
            rc = 2;
            break;
        }
        if (pp_record_load(c.rec[i], &recs[i], err, sizeof err)) {
            fprintf(stderr, "perfpred fit: %s\n", err);
            rc = 2;
            break;
        }
        ptr[i] = &recs[i];
        loaded++;
    }
    pp_machine mach;
    if (rc == 0) {
        if (c.machine) {
            if (pp_machine_load(c.machine, &mach, err, sizeof err)) {
                fprintf(stderr, "perfpred fit: %s\n", err);
                rc = 2;
            }
        } else
            pp_machine_default(&mach);
    }
    pp_betafit bf;
    if (rc == 0 && pp_fit_beta(ptr, loaded, &bf, err, sizeof err)) {
        fprintf(stderr, "perfpred fit: %s\n", err);
        rc = 1;
    }
    if (rc == 0) {
        memcpy(mach.beta, bf.beta, sizeof mach.beta);
        for (int i = 0; i < PP_NBETA; i++)
            mach.beta_se[i] = isfinite(bf.se[i]) ? bf.se[i] : 0;
        mach.has_beta = 1;
        mach.beta_runs = loaded;
        if (pp_machine_save(c.out, &mach, err, sizeof err)) {
            fprintf(stderr, "perfpred fit: %s\n", err);
            rc = 2;
        } else {
            printf("linear machine model from %d runs, %ld segments, R^2 = %.4f\n", loaded, bf.nseg, bf.r2);
            printf("  %-8s %12s %12s\n", "class", "beta (ns)", "std error");
            for (int i = 0; i < PP_NBETA; i++) {
                if (isfinite(bf.se[i]))
                    printf("  %-8s %12.4g %12.3g\n", pp_beta_name(i), bf.beta[i], bf.se[i]);
                else
                    printf("  %-8s %12.4g %12s\n", pp_beta_name(i), bf.beta[i], "(prior)");
            }
            printf("wrote %s\n", c.out);
        }
    }
    for (int i = 0; i < loaded; i++)
        pp_record_free(&recs[i]);
    free(recs);
    free(ptr);
    pp_cli_free(&c);
    return rc;
}
