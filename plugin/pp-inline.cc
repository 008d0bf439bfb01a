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
static bool
inline_candidate (tree decl, int *sizep)
{
  if (TREE_PUBLIC (decl) || DECL_EXTERNAL (decl)
      || DECL_DECLARED_INLINE_P (decl)
      || !opt_for_fn (decl, flag_inline_small_functions)
      || DECL_UNINLINABLE (decl)
      || lookup_attribute ("noinline", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("noipa", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("cold", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("optimize", DECL_ATTRIBUTES (decl)))
    return false;
  if (!gimple_has_body_p (decl))
    return false;
  *sizep = estimate_num_insns_fn (decl, &eni_size_weights);
  return *sizep <= opt_for_fn (decl, param_max_inline_insns_auto);
}

bool
pp_keep_inlinable (function *fun)
{
  tree decl = fun->decl;
  int size;
  if (!inline_candidate (decl, &size))
    return false;
  if (pp_verbose)
    fprintf (stderr, "perfpred: %s: kept inlinable (size %d before "
	     "instrumentation)\n",
	     IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl)), size);
  DECL_DECLARED_INLINE_P (decl) = 1;
  DECL_NO_INLINE_WARNING_P (decl) = 1;
  return true;
}

/* ------------------------------------------------ registration by callers

   The registration check `if (cnt[0] == 0) __pp_register (...)' of an
   inlined function lands in its caller's loop, and its call, cold as it
   is, keeps the counters of the whole loop in memory (no store motion
   across a call).  A kept-inlinable function whose every call is a direct
   call from instrumented functions that keep their own check does not need
   a check of its own: each of those callers registers it in its check.
   Any code of the function runs after some caller's entry in the same
   thread, so the function is registered before its counters move, as
   before; __pp_register ignores a second registration in a thread.  */

static std::set<tree> processed;      /* functions the pass has run on */
static std::map<tree, std::pair<tree, tree> > by_callers;  /* decl -> desc, cnt */

void
pp_mark_processed (tree decl)
{
  processed.insert (decl);
}

/* May the function of DECL be instrumented with a check of its own?  (The
   pass has not run on it yet: only the reasons known from the decl.)  */
static bool
keeps_check (tree decl)
{
  int size;
  if (DECL_EXTERNAL (decl) || !gimple_has_body_p (decl)
      || in_system_header_at (DECL_SOURCE_LOCATION (decl))
      || lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  if (strncmp (n, "__pp_", 5) == 0 || strncmp (n, "pp_rt_", 6) == 0)
    return false;
  /* a caller that may itself lose its check would not register us */
  return !inline_candidate (decl, &size);
}

bool
pp_registered_by_callers (function *fun)
{
  cgraph_node *node = cgraph_node::get (fun->decl);
  if (!node || node->address_taken || node->has_aliases_p ()
      || !node->callers || node->indirect_calls)
    return false;
  ipa_ref *ref;
  if (node->iterate_referring (0, ref))
    return false;
  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
    if (e->caller == node || e->caller->decl == fun->decl
	|| processed.count (e->caller->decl) || !keeps_check (e->caller->decl))
      return false;
  return true;
}

void
pp_note_registered_by_callers (pp_fn *f)
{
  by_callers[f->fndecl] = std::make_pair (f->desc_decl, f->cnt_decl);
  if (pp_verbose)
    fprintf (stderr, "perfpred: %s: registered by its callers\n", f->asm_name);
}

/* The functions F's check registers besides F (desc, cnt pairs).  */
std::vector<std::pair<tree, tree> >
pp_callee_registrations (pp_fn *f)
{
  std::vector<std::pair<tree, tree> > v;
  cgraph_node *node = cgraph_node::get (f->fndecl);
  if (!node)
    return v;
  std::set<tree> seen;
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    {
      tree d = e->callee->decl;
      auto it = by_callers.find (d);
      if (it != by_callers.end () && seen.insert (d).second)
	v.push_back (it->second);
    }
  return v;
}
