/* perfpred-link.h - the link markers (docs/runtime-abi.md, "Link markers
 * and references"): every instrumented unit holds one strong reference to
 * the runtime, to an object with one of these names (the plugin's entry
 * point references are weak), so that a link without the runtime fails
 * with "undefined reference to `perfpred: link with its runtime, ...'"
 * alone.  The runtime's marker is defined next to the table of its entry
 * points (rt-instance.c), which pulls them all in; each MPI wrapper object
 * has its own.  The plugin (plugin/pp-keep.cc) reads the names here.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_LINK_H
#define PERFPRED_LINK_H

#define PP_LINK_MARKER_RUNTIME \
    "perfpred: link with its runtime, -lperfpred-rt (-L the directory of libperfpred-rt.a), " \
    "or build with perfpred-gcc"
#define PP_LINK_MARKER_OMPI \
    "perfpred: link with its static runtime, -lperfpred-rt: the Open MPI wrappers are in " \
    "libperfpred-rt.a only"
#define PP_LINK_MARKER_MPICH \
    "perfpred: link with its static runtime, -lperfpred-rt: the MPICH wrappers are in " \
    "libperfpred-rt.a only"

/* Defines a marker: one byte of .rodata, global and exported, under a name
 * that is a message.  In assembler, not in C: AddressSanitizer would give
 * a C object an ODR indicator, __odr_asan.NAME, which does not assemble
 * with such a name. */
#define PP_DEFINE_LINK_MARKER(NAME)                                          \
    __asm__(".pushsection .rodata.pp_link_marker,\"a\",@progbits\n"         \
            ".globl \"" NAME "\"\n"                                           \
            ".type \"" NAME "\", @object\n"                                   \
            ".size \"" NAME "\", 1\n"                                         \
            "\"" NAME "\":\n"                                                 \
            ".byte 0\n"                                                       \
            ".popsection")

#endif
