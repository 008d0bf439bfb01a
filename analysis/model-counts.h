/* model-counts.h - the count rules of the loops (C&Q rules 1-3): what the
 * run observed, the symbolic rule checked against every record, and the
 * fitted or constant rule that replaces one that does not match.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MODEL_COUNTS_H
#define PERFPRED_MODEL_COUNTS_H

#include "model.h"

/* The false count of branch b of function f over every record: its slot,
 * or the sum of slots its fslot= gives. */
uint64_t pp_branch_false_total(const pp_prog *m, int f, const pp_dbranch *b);
/* Observed counts, branch ratios and the first rule of every loop. */
void pp_counts_observe(pp_prog *m);
/* Mark the work-queue loops (a data-dependent loop that claims its
 * iterations under a lock the run shows shared, or by an atomic
 * fetch-and-add, directly or in a function it calls): their rule counts
 * the team's total, dealt over the threads. */
void pp_counts_claims(pp_prog *m);
/* Replace the rule of loop k of function f: an integer multiple of a
 * parameter when the observed trips say so; with records at several
 * sizes, a power law of the parameter they differ in; else the observed
 * average.  why says why. */
void pp_counts_refit(pp_prog *m, int f, int k, const char *why);

/* Instantiate at every record's parameters and P, compare each loop's
 * total with the record's, and refit the rules that do not match. */
int pp_counts_verify(pp_prog *m, char *err, size_t errlen);

#endif
