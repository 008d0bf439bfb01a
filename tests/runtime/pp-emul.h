/* pp-emul.h - what the perfpred plugin emits, written by hand.
 *
 * The runtime tests do not depend on the plugin: each test function gets a
 * descriptor in section __pp_desc (aligned exactly 8, like the plugin's), a
 * thread-local counter array, the registration check at entry, counter
 * increments where the plugin would put them, and calls to the wrappers
 * with the event site ids of its descriptor text.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PP_EMUL_H
#define PP_EMUL_H

#include "perfpred-rt.h"

/* static const struct pp_fdesc VAR describing function NAME */
#define PP_FDESC(VAR, NSLOTS, NAME, TEXT)                                       \
    static const struct pp_fdesc VAR                                            \
        __attribute__((section("__pp_desc"), aligned(8), used)) = {             \
            PP_ABI_VERSION, (NSLOTS), (TEXT), (NAME), __FILE__ }

/* static const struct pp_gdesc VAR describing the global GLOBAL */
#define PP_GDESC(VAR, GLOBAL, SIGNED)                                           \
    static const struct pp_gdesc VAR                                            \
        __attribute__((section("__pp_gdesc"), aligned(8), used)) = {            \
            PP_ABI_VERSION, sizeof(GLOBAL), (SIGNED), 0, #GLOBAL, &(GLOBAL) }

/* the check the plugin inserts at function entry */
#define PP_ENTER(DESC, CNT)                                                     \
    do {                                                                        \
        if (__builtin_expect((CNT)[0] == 0, 0))                                 \
            __pp_register(&(DESC), (CNT));                                      \
    } while (0)

#endif
