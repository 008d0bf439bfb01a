/* memory-out.h - the memory model's account at the predicted size, as
 * text and JSON (predict; docs/commands.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MEMORY_OUT_H
#define PERFPRED_MEMORY_OUT_H

#include <stdio.h>

#include "machine.h"
#include "model.h"

/* Lines "  memory: ..." at the values pv and P (the threads'
 * working sets are at P); nothing when the model does not apply.  -1 when
 * memory runs out. */
int pp_mem_text(FILE *f, const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P);

/* "memory":{...} (or "memory":null when the model does not apply). */
int pp_mem_json(FILE *f, const pp_prog *m, const pp_vals *pv, const pp_machine *mach, int P);

#endif
