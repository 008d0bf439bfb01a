/* domain.h - whether the parameters' values (--set) are a point the
 * program can run at: the arrays whose sizes the record gives in the
 * parameters must have a positive size, messages a size of zero or more,
 * and no size or loop count may overflow 64 bits; a loop whose count the
 * values make zero or negative runs zero times, as in C (docs/model.md,
 * "Loop counts outside the recorded domain").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_DOMAIN_H
#define PERFPRED_DOMAIN_H

#include <stddef.h>

#include "model.h"

/* Check the point's values pv.  Returns -1 with a message
 * (starting "--set NAME=VALUE ...", what it breaks and where) when they
 * are outside the program's domain; else 0, with `empties` (when not NULL
 * and n > 0) the loops the values empty that ran in the record,
 * "main:L1 (prog.c:24), ..." ("" when none).  `how` names where the
 * values came from ("--set"). */
int pp_domain_check(const pp_prog *m, const pp_vals *pv, const char *how, char *err, size_t errlen, char *empties,
                    size_t n);

#endif
