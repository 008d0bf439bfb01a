/* read-record.c - load records with the analyser's reader (a cross-check
 * of runtime and analyser against docs/record-format.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdio.h>

#include "record.h"

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        pp_record r;
        char err[512];
        if (pp_record_load(argv[i], &r, err, sizeof err) != 0) {
            printf("FAIL %s\n", err);
            rc = 1;
        } else {
            printf("ok %s funcs=%d threads=%d events=%ld\n", argv[i], r.nfuncs, r.nthreads,
                   r.nevents);
            pp_record_free(&r);
        }
    }
    return rc;
}
