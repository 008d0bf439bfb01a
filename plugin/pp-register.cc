/* perfpred: the registration check, and where it goes.
 *
 * A function's counters reach the runtime through
 *   if (__builtin_expect (cnt[0] == 0, 0))
 *     __pp_register (&desc, &cnt[0]);    one call per counter array
 * at the entry of the code that uses them, run once per thread
 * (docs/runtime-abi.md).
 *
 * Early: the instrumentation pass (after "ssa") puts it at the entry of
 * the function it instruments, registering the function and the callees
 * registered by their callers (pp-inline.cc).  Inlining and cloning then
 * carry it along with the counters.  But every later pass works on it: a
 * diamond at the entry of every function, which jump threading, value
 * numbering, the register allocator and the rest walk, and which an
 * inlined copy brings into its caller's body, where its call keeps the
 * counters of the loop around it in memory.  It cost a tenth of the
 * plugin's compile-time overhead (docs/bench.md, session 14).
 *
 * Late (the default): the instrumentation pass only notes each function's
 * counter array and descriptor, and a second pass just before "isel", the
 * last GIMPLE pass at every -O level, puts one check at the entry of each
 * function that uses counters by then: the function's own (when it was
 * instrumented and keeps a check), those of the functions inlined into it,
 * and those of the callees it calls that are registered by their callers.
 * It finds them in the body itself: counter arrays named as operands, and
 * in the texts of bare asms (pp-bare.cc).  The entry dominates every use,
 * so each array is registered before its counters move, as before; the
 * runtime ignores a second registration in a thread.
 *
 * Late insertion needs the second pass to run on the code that is
 * compiled: not with -flto or offloading (the late passes run in lto1,
 * where the plugin may not be loaded), which keep the early check.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

namespace {

/* counter array -> descriptor, for every instrumented function */
std::map<tree, tree> desc_of;
/* counter array by assembler name (bare asms name it in their text) */
std::map<std::string, tree> cnt_named;
/* instrumented function -> its counter array, and whether it keeps a
   check (false: registered by its callers) */
std::map<tree, std::pair<tree, bool> > fn_cnt;

/* The counter array the tree T is, when it is one.  */
tree
counter_decl (tree t)
{
  if (TREE_CODE (t) == VAR_DECL && desc_of.count (t))
    return t;
  return NULL_TREE;
}

struct uses
{
  std::vector<tree> cnt;   /* in order of first use */
  std::set<tree> seen;
  void add (tree c)
  {
    if (c && seen.insert (c).second)
      cnt.push_back (c);
  }
};

tree
find_counter (tree *tp, int *walk_subtrees, void *data)
{
  walk_stmt_info *wi = (walk_stmt_info *) data;
  uses *u = (uses *) wi->info;
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else
    u->add (counter_decl (*tp));
  return NULL_TREE;
}

/* The counter arrays the asm text S names.  */
void
asm_counters (const char *s, uses *u)
{
  static const char pfx[] = "__pp_cnt.";
  for (const char *p = strstr (s, pfx); p; p = strstr (p + 1, pfx))
    {
      const char *e = p;
      while (ISALNUM (*e) || *e == '_' || *e == '.' || *e == '$')
	e++;
      std::map<std::string, tree>::iterator it
	= cnt_named.find (std::string (p, e - p));
      if (it != cnt_named.end ())
	u->add (it->second);
    }
}

/* Every counter array FUN's body uses, and those of the callees it calls
   that are registered by their callers.  */
void
body_counters (function *fun, uses *u)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (is_gimple_debug (s))
	  continue;
	if (gasm *a = dyn_cast <gasm *> (s))
	  asm_counters (gimple_asm_string (a), u);
	else if (is_gimple_call (s) && gimple_call_fndecl (s))
	  {
	    std::map<tree, std::pair<tree, bool> >::iterator it
	      = fn_cnt.find (gimple_call_fndecl (s));
	    if (it != fn_cnt.end () && !it->second.second)
	      u->add (it->second.first);
	  }
	walk_stmt_info wi;
	memset (&wi, 0, sizeof wi);
	wi.info = u;
	walk_gimple_op (s, find_counter, &wi);
      }
}

} // namespace

bool
pp_late_registration (void)
{
  return !flag_generate_lto && !flag_generate_offload && !in_lto_p;
}

void
pp_note_counters (pp_fn *f)
{
  desc_of[f->cnt_decl] = f->desc_decl;
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (f->cnt_decl));
  cnt_named[targetm.strip_name_encoding (n)] = f->cnt_decl;
  fn_cnt[f->fndecl] = std::make_pair (f->cnt_decl, !f->no_check);
}

void
pp_insert_check (function *fun, tree flag,
		 const std::vector<std::pair<tree, tree> > &regs)
{
  edge e = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  basic_block cond_bb = split_edge (e);
  basic_block call_bb = split_edge (single_succ_edge (cond_bb));
  basic_block join = single_succ (call_bb);

  gimple_seq seq = NULL;
  tree t = make_temp_ssa_name (long_long_unsigned_type_node, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (t, pp_cnt_elt (flag, 0)));
  gimple_seq_add_stmt (&seq, gimple_build_cond (EQ_EXPR, t,
						build_int_cst (TREE_TYPE (t), 0),
						NULL_TREE, NULL_TREE));
  gimple_stmt_iterator gsi = gsi_last_bb (cond_bb);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);

  gsi = gsi_last_bb (call_bb);
  for (size_t i = 0; i < regs.size (); i++)
    gsi_insert_after (&gsi, pp_register_call (regs[i].first, regs[i].second),
		      GSI_NEW_STMT);

  edge te = single_succ_edge (cond_bb);
  te->flags &= ~EDGE_FALLTHRU;
  te->flags |= EDGE_TRUE_VALUE;
  te->probability = profile_probability::very_unlikely ();
  edge fe = make_edge (cond_bb, join, EDGE_FALSE_VALUE);
  fe->probability = te->probability.invert ();
  /* The late pass runs after the profile is estimated: the call's block
     gets its count here, so that block reordering moves it out of line
     (the entry then falls through to the body).  */
  call_bb->count = cond_bb->count.apply_probability (te->probability);
  if (dom_info_available_p (CDI_DOMINATORS))
    set_immediate_dominator (CDI_DOMINATORS, join, cond_bb);
}

unsigned int
pp_late_check (function *fun)
{
  /* a naked function has no prologue: no call may go in it (perfpred.cc
     does not instrument one; nothing is inlined into it either) */
  if (lookup_attribute ("naked", DECL_ATTRIBUTES (fun->decl)))
    return 0;
  uses u;
  std::map<tree, std::pair<tree, bool> >::iterator own
    = fn_cnt.find (fun->decl);
  if (own != fn_cnt.end ())
    {
      if (!own->second.second)
	return 0;                /* registered by its callers */
      u.add (own->second.first);
    }
  body_counters (fun, &u);
  if (u.cnt.empty ())
    return 0;
  std::vector<std::pair<tree, tree> > regs;
  for (size_t i = 0; i < u.cnt.size (); i++)
    regs.push_back (std::make_pair (desc_of[u.cnt[i]], u.cnt[i]));
  if (pp_verbose)
    fprintf (stderr, "perfpred: %s: registration check for %d counter "
	     "array(s)\n", IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl)),
	     (int) regs.size ());
  pp_insert_check (fun, u.cnt[0], regs);
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  cgraph_edge::rebuild_edges ();
  return TODO_update_ssa_only_virtuals;
}
