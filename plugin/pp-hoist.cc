/* perfpred: loop counters moved out of the loops around them.
 *
 * A loop L counted at entry adds H += h and E += 1 on its preheader edge
 * (pp-loops.cc); a loop counted in its header adds E += 1 there.  That edge
 * lies in the body of the enclosing loop P, so P's body holds counter code
 * (which, in the plain form, GCC's optimisers then work on: store motion,
 * PRE, complete unrolling copies it; docs/plugin.md, "Compile time") and
 * runs it on every iteration of P.  When P is itself counted at entry
 * (P's header runs hP times per entry, hP known at P's preheader) and L's
 * preheader edge runs a fixed number of times m per iteration of P, the
 * increment "C += v" on L's preheader edge becomes "C += m' * v" on P's
 * preheader edge, where m' is hP (the edge's block runs in every
 * iteration before P's exit test) or hP - 1 (after it, in every iteration
 * that goes on), provided v is the same at every iteration of P and can be
 * computed before P.  Repeated outwards while that holds, but only out of
 * a loop P whose inner loops all have small constant counts (GCC unrolls
 * them completely and P becomes innermost: counters left in its body would
 * keep it from being vectorised).  Elsewhere the increments stay where
 * they are, bare (pp-emit.cc): one memory add per entry of the inner loop,
 * which costs the compiler less than the hoisted m * v computed before P
 * (docs/bench.md, session 13).
 *
 * The totals are the same as long as every iteration of P that starts
 * also reaches the edge and nothing in P leaves it but its exit: no call
 * in P that may not return (pp_safe_call: a longjmp, exit or thread
 * cancellation would leave counts for iterations that never ran), no EH
 * or abnormal edge, no setjmp in the function.  A record cut by a signal
 * while P runs already holds the counts of P's whole execution.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* Can T be evaluated on the preheader edge of LOOP (whose source is PRE)
   with the value it has at every iteration of LOOP: constants, SSA names
   defined before the loop, arithmetic, divisions by positive constants
   only (the hoisted expression also runs when LOOP runs no iteration),
   and loads that cannot trap and that nothing in LOOP may clobber (a
   global bound reloaded at the inner loop's preheader); no call, nothing
   with side effects.  IN_REF: T is part of a memory reference already
   accepted (its decls are not loads of their own).  */
static bool
hoistable (tree t, class loop *loop, basic_block pre, bool in_ref, int depth)
{
  if (!t || CONSTANT_CLASS_P (t))
    return true;
  if (depth > 40 || TREE_CODE (t) == CALL_EXPR || TREE_SIDE_EFFECTS (t))
    return false;
  if (TREE_CODE (t) == SSA_NAME)
    {
      if (SSA_NAME_IS_DEFAULT_DEF (t))
	return true;
      basic_block bb = gimple_bb (SSA_NAME_DEF_STMT (t));
      return bb && !flow_bb_inside_loop_p (loop, bb)
	     && dominated_by_p (CDI_DOMINATORS, pre, bb);
    }
  if (in_ref && DECL_P (t))
    return true;
  if (!in_ref && (REFERENCE_CLASS_P (t) || VAR_P (t)
		  || TREE_CODE (t) == PARM_DECL))
    {
      if (TREE_THIS_VOLATILE (t) || tree_could_trap_p (t)
	  || !pp_ref_unclobbered (loop, t))
	return false;
      in_ref = true;
    }
  else if (TREE_CODE (t) == ADDR_EXPR)
    in_ref = true;
  else if (!EXPR_P (t))
    return false;
  switch (TREE_CODE (t))
    {
    case TRUNC_DIV_EXPR: case CEIL_DIV_EXPR: case FLOOR_DIV_EXPR:
    case ROUND_DIV_EXPR: case EXACT_DIV_EXPR: case TRUNC_MOD_EXPR:
    case CEIL_MOD_EXPR: case FLOOR_MOD_EXPR: case ROUND_MOD_EXPR:
      /* (a positive constant: x / -1 traps for the smallest x) */
      if (TREE_CODE (TREE_OPERAND (t, 1)) != INTEGER_CST
	  || tree_int_cst_sgn (TREE_OPERAND (t, 1)) <= 0)
	return false;
      break;
    default:
      break;
    }
  for (int i = 0; i < TREE_OPERAND_LENGTH (t); i++)
    if (!hoistable (TREE_OPERAND (t, i), loop, pre, in_ref, depth + 1))
      return false;
  return true;
}

/* Nothing in LOOP leaves it but its exits: every call returns, no EH or
   abnormal edge.  */
bool
pp_leaves_only_by_exits (class loop *loop)
{
  basic_block *body = get_loop_body (loop);
  bool ok = true;
  for (unsigned i = 0; ok && i < loop->num_nodes; i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, body[i]->succs)
	if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
	  ok = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]);
	   ok && !gsi_end_p (gsi); gsi_next (&gsi))
	if (is_gimple_call (gsi_stmt (gsi)) && !pp_safe_call (gsi_stmt (gsi)))
	  ok = false;
    }
  free (body);
  return ok;
}

/* Do all the loops inside P run a constant number of times per entry, at
   most 16 (GCC's limit for complete peeling), so that P may become an
   innermost loop once they are unrolled?  */
static bool
inner_loops_unroll (pp_fn *f, class loop *p)
{
  for (class loop *l = p->inner; l; l = l->next)
    {
      std::map<int, int>::iterator li = f->loop_id.find (l->num);
      if (li == f->loop_id.end ())
	return false;
      tree h = f->loops[li->second].hcount;
      if (!h || TREE_CODE (h) != INTEGER_CST || compare_tree_int (h, 16) > 0
	  || !inner_loops_unroll (f, l))
	return false;
    }
  return true;
}

/* Move the increment A outwards as far as it goes, out of loops that
   may become innermost (inner_loops_unroll).  SAFE caches
   pp_leaves_only_by_exits per loop number.  */
static void
hoist_act (pp_fn *f, pp_act &a, std::map<int, bool> &safe)
{
  tree ull = long_long_unsigned_type_node;
  edge e = a.e;
  tree val = a.val ? fold_convert (ull, unshare_expr (a.val))
		   : build_int_cst (ull, 1);
  bool moved = false;
  for (;;)
    {
      basic_block b = e->src;
      class loop *p = b->loop_father;
      if (!loop_outer (p) || !single_succ_p (b) || !p->latch)
	break;
      std::map<int, int>::iterator li = f->loop_id.find (p->num);
      if (li == f->loop_id.end ())
	break;
      pp_loop_info &pi = f->loops[li->second];
      if (!inner_loops_unroll (f, p))
	break;
      edge x = single_exit (p);
      if (!pi.hcount || !x || !dominated_by_p (CDI_DOMINATORS, p->latch, x->src))
	break;
      /* How often B runs per entry of P.  */
      tree mult;
      if (dominated_by_p (CDI_DOMINATORS, x->src, b))
	mult = unshare_expr (pi.hcount);   /* before the exit test */
      else if (dominated_by_p (CDI_DOMINATORS, b, x->src)
	       && dominated_by_p (CDI_DOMINATORS, p->latch, b))
	mult = fold_build2 (MINUS_EXPR, ull, unshare_expr (pi.hcount),
			    build_int_cst (ull, 1));
      else
	break;
      edge pre = loop_preheader_edge (p);
      if (!hoistable (val, p, pre->src, false, 0))
	break;
      std::map<int, bool>::iterator si = safe.find (p->num);
      if (si == safe.end ())
	si = safe.insert (std::make_pair (p->num, pp_leaves_only_by_exits (p))).first;
      if (!si->second)
	break;
      /* Unsigned long long arithmetic: the product is the exact sum (a
	 count that does not fit the counter wraps either way).  */
      val = fold_build2 (MULT_EXPR, ull, mult, val);
      e = pre;
      moved = true;
    }
  if (moved)
    {
      a.e = e;
      a.val = val;
    }
}

void
pp_hoist_loop_counters (pp_fn *f)
{
  /* An irreducible region in a loop's body (gotos) may run a block more
     than once per iteration without a sub-loop around it.  */
  if (f->fun->calls_setjmp || mark_irreducible_loops ())
    return;
  std::map<int, bool> safe;
  for (size_t i = 0; i < f->loops.size (); i++)
    {
      pp_loop_info &li = f->loops[i];
      if (li.act_h >= 0)
	hoist_act (f, f->acts[li.act_h], safe);
      if (li.act_e >= 0)
	hoist_act (f, f->acts[li.act_e], safe);
    }
}
