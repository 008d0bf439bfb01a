/* exe-id.h - is the executable at a path still the one that made a record?
 * (the record's `exe` line, docs/record-format.md; runtime/rt-exe.c)
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_EXE_ID_H
#define PERFPRED_EXE_ID_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* The GNU build id of the ELF file at PATH, read from its PT_NOTE segments
 * as the runtime reads it from the running program, as lowercase hex in
 * out (at least 129 bytes; "" when it has none).  Returns 0, or -1 with
 * errno set when the file cannot be read, -2 when it is not an ELF file
 * of this machine's byte order. */
int pp_exe_build_id(const char *path, char *out, size_t outlen);

/* Size and FNV-1a 64-bit hash of the file's bytes (the runtime's fallback
 * when the executable has no build id).  0, or -1 with errno set. */
int pp_exe_hash(const char *path, uint64_t *size, uint64_t *hash);

/* Check that PATH is the executable record R was made by, by the identity
 * R has.  Returns 0 when it is, 1 when R has no identity (a record of an
 * older runtime: err says it cannot be checked), -1 when it is not or
 * cannot be read (err says which and what differs). */
int pp_exe_check(const pp_record *r, const char *path, char *err, size_t errlen);

#endif
