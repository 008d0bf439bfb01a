/* perfpred: keep small static functions inlinable.  The pass runs before
 * the inliners (after "ssa"), so the counters and the registration check it
 * adds count in the inliner's size estimate: a small static function that
 * the plain build inlines (md.c's wrap_diff, 6 insns) grows past
 * --param max-inline-insns-auto and stays a call in the instrumented
 * build, in the hottest loop, where it also blocks constant propagation,
 * store motion of the counters and vectorisation.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"
#include "tree-inline.h"

/* Called before the function is instrumented.  When FUN is small enough
   to be an inline candidate of its own (its size estimate, measured the
   way the inliner measures statements, is within the function's
   max-inline-insns-auto), mark it as declared inline: the inliner then
   judges the instrumented body against max-inline-insns-single instead,
   which the added counters fit.  Inlining never changes what a program
   computes; the restrictions keep it that way:
     - static functions only: a public function may be interposed (-fPIC),
       and GCC assumes a declared-inline function is not;
     - not when inlining of small functions is off for it (-O0, -O1,
       -fno-inline-small-functions), nor noinline/noipa/cold functions;
   and DECL_NO_INLINE_WARNING_P keeps -Winline quiet: the user did not
   write `inline'.  Returns true when the function was marked.  */
bool
pp_keep_inlinable (function *fun)
{
  tree decl = fun->decl;
  if (TREE_PUBLIC (decl) || DECL_EXTERNAL (decl)
      || DECL_DECLARED_INLINE_P (decl)
      || !opt_for_fn (decl, flag_inline_small_functions)
      || DECL_UNINLINABLE (decl)
      || lookup_attribute ("noinline", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("noipa", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("cold", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("optimize", DECL_ATTRIBUTES (decl)))
    return false;
  int size = estimate_num_insns_fn (decl, &eni_size_weights);
  if (size > opt_for_fn (decl, param_max_inline_insns_auto))
    return false;
  if (pp_verbose)
    fprintf (stderr, "perfpred: %s: kept inlinable (size %d before "
	     "instrumentation)\n",
	     IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl)), size);
  DECL_DECLARED_INLINE_P (decl) = 1;
  DECL_NO_INLINE_WARNING_P (decl) = 1;
  return true;
}
