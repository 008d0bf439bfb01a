/* macro-sizes.h - compile-time sizes: records of one program built with
 * different values of its size macros (-DN=100, -DN=150) made one model
 * (docs/model.md, "Compile-time sizes").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_MACRO_SIZES_H
#define PERFPRED_MACRO_SIZES_H

#include <stdio.h>
#include "record.h"

typedef struct {
    char *name;
    long *value;          /* per record given                             */
    int varies;           /* values differ between the records            */
    int conflict;         /* two values in one record (units built with
                             other -D): not used                          */
    int used;             /* some constant became an expression of it: a
                             problem parameter (a `gparam` added)         */
    char *array;          /* a static array it sizes (NULL: none found)   */
} pp_msize;

typedef struct {
    char *rule;           /* the expression, infix ("N - 1")              */
    int uses;             /* constants it replaced                        */
    int checked;          /* builds beyond those its coefficients came
                             from that it reproduced (the least over its
                             uses; 0: fitted, not verified)               */
} pp_mrule;

typedef struct {
    int nrec, nbuilds;    /* records; distinct macro values among them    */
    int nmacros;
    pp_msize *macros;
    int nrules;
    pp_mrule *rules;
    int nunmatched;       /* constants that differ and follow no rule     */
    char **unmatched;     /* where, the first few                         */
    char *alias;          /* "NX and NY": macros whose values are equal in
                             every build (a constant's choice is arbitrary) */
} pp_macros;

/* Read the size macros of recs[0..n) and, where their values differ,
 * rewrite every record's descriptors: a constant that differs between the
 * records becomes the simplest expression of the macros that reproduces
 * it in every record ((global NAME) atoms), and each record gets a
 * `gparam NAME` with its build's value, so the macro is a problem
 * parameter.  A constant that follows no rule keeps the first record's
 * value (the count check then catches it).  Returns -1 only when out of
 * memory. */
int pp_macros_unify(pp_record **recs, int n, pp_macros *out, char *err, size_t errlen);
void pp_macros_free(pp_macros *m);

/* The macro NAME of the records, or NULL. */
const pp_msize *pp_macros_find(const pp_macros *m, const char *name);

/* What `show` says about them: nothing when there are none, or when
 * there is one build and the program has problem parameters of its own
 * (has_params: its macros are then limits, MAXP, MAXN, not sizes). */
void pp_macros_text(const pp_macros *m, int has_params, FILE *f);

/* The hint for a single build: "build it again with another value (e.g.
 * -DN=200) and give both records to predict other sizes", in buf. */
const char *pp_macros_hint(const pp_macros *m, char *buf, size_t n);

#endif
