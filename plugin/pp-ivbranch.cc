/* perfpred: branches on an induction variable, counted at loop entry.
 *
 * A branch that compares an induction variable of step 1 or -1 with a
 * value computed before the loop, for equality (a boundary case in a
 * stencil: jp = j + 1 == J ? 0 : j + 1, if (i == k)), is true at most
 * once per entry of the loop, and when is known before the loop starts.
 * In a loop counted at entry (pp-loops.cc: its header count h is known on
 * the preheader edge), with the exit test in the header and the branch in
 * a block that every iteration runs once (it dominates the latch, not in
 * an inner loop), the block runs h - 1 times per entry, with the variable
 * at base, base + s, ..., base + (h - 2) s, and the branch is true
 *   c = (unsigned long long) (s * (b - base)) < h - 1
 * times (the variable does not wrap: scev's no_overflow; the difference
 * in unsigned arithmetic is large when b is on the wrong side).  So its
 * counters are added on the preheader edge, T += c and F += h - 1 - c
 * (swapped for !=), instead of on every iteration: em.c's field update
 * carried an accumulator of five instructions in a loop of 22.  The
 * counts are the same; like the loop's own counters, they are added at
 * entry (docs/plugin.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

namespace {

/* LOOP's entry in f->loops (its index is its id), or NULL.  */
const pp_loop_info *
loop_info (pp_fn *f, class loop *loop)
{
  std::map<int, int>::iterator it = f->loop_id.find (loop->num);
  if (it == f->loop_id.end () || it->second >= (int) f->loops.size ())
    return NULL;
  return &f->loops[it->second];
}

/* T, the same at every iteration of LOOP, as an expression that can be
   computed on PRE: constants, SSA names from before the loop, and, in
   the loop, conversions, + - * of those and loads of variables (not
   through pointers: they cannot trap, on the preheader edge either) that
   nothing in the loop may store to (a global bound such as em.c's J is
   reloaded at every iteration at this point).  NULL_TREE otherwise.  */
tree
pre_value (class loop *loop, edge pre, tree t, int depth)
{
  if (depth > 4)
    return NULL_TREE;
  if (TREE_CODE (t) == INTEGER_CST)
    return t;
  if (TREE_CODE (t) != SSA_NAME || !INTEGRAL_TYPE_P (TREE_TYPE (t)))
    return NULL_TREE;
  if (pp_available_at (loop, pre, t))
    return t;
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (!d || !is_gimple_assign (d) || gimple_bb (d)->loop_father != loop)
    return NULL_TREE;
  enum tree_code code = gimple_assign_rhs_code (d);
  tree type = TREE_TYPE (t);
  if (gimple_assign_single_p (d) && gimple_vuse (d))
    {
      tree r = gimple_assign_rhs1 (d);
      if (TREE_CODE (r) == VAR_DECL && !TREE_THIS_VOLATILE (r)
	  && INTEGRAL_TYPE_P (TREE_TYPE (r)) && pp_load_invariant (loop, d))
	return unshare_expr (r);
      return NULL_TREE;
    }
  if (CONVERT_EXPR_CODE_P (code))
    {
      tree x = pre_value (loop, pre, gimple_assign_rhs1 (d), depth + 1);
      return x ? fold_convert (type, x) : NULL_TREE;
    }
  if (code == PLUS_EXPR || code == MINUS_EXPR || code == MULT_EXPR)
    {
      tree x = pre_value (loop, pre, gimple_assign_rhs1 (d), depth + 1);
      tree y = x ? pre_value (loop, pre, gimple_assign_rhs2 (d), depth + 1)
		 : NULL_TREE;
      return y ? fold_build2 (code, type, x, y) : NULL_TREE;
    }
  return NULL_TREE;
}

/* The true count per entry of the branch A (a GIMPLE_COND), or NULL_TREE;
   *ITERS: the block's executions per entry.  */
tree
entry_true_count (pp_fn *f, pp_act &a, edge *pre, tree *iters)
{
  gimple *cond = a.stmt;
  enum tree_code code = gimple_cond_code (cond);
  if (code != EQ_EXPR && code != NE_EXPR)
    return NULL_TREE;
  tree lhs = gimple_cond_lhs (cond), rhs = gimple_cond_rhs (cond);
  if (!INTEGRAL_TYPE_P (TREE_TYPE (lhs)))
    return NULL_TREE;
  basic_block bb = a.bb;
  class loop *loop = bb->loop_father;
  if (!loop || !loop_outer (loop) || bb == loop->header
      || !dominated_by_p (CDI_DOMINATORS, loop->latch, bb))
    return NULL_TREE;
  edge exit = single_exit (loop);
  if (!exit || exit->src != loop->header)
    return NULL_TREE;
  const pp_loop_info *li = loop_info (f, loop);
  if (!li || !li->hcount)
    return NULL_TREE;
  *pre = loop_preheader_edge (loop);

  /* the variable on one side, the value from before the loop on the
     other */
  affine_iv iv;
  tree other = NULL_TREE;
  for (int k = 0; k < 2 && !other; k++)
    {
      tree x = k ? rhs : lhs, y = k ? lhs : rhs;
      if (simple_iv (loop, loop, x, &iv, false) && !integer_zerop (iv.step))
	other = pre_value (loop, *pre, y, 0);
    }
  if (!other || !iv.no_overflow
      || !(integer_onep (iv.step) || integer_minus_onep (iv.step))
      || !pp_available_at (loop, *pre, iv.base))
    return NULL_TREE;

  tree ull = long_long_unsigned_type_node;
  tree base = fold_convert (ull, unshare_expr (iv.base));
  tree b = fold_convert (ull, other);
  tree d = integer_onep (iv.step) ? fold_build2 (MINUS_EXPR, ull, b, base)
				  : fold_build2 (MINUS_EXPR, ull, base, b);
  *iters = fold_build2 (MINUS_EXPR, ull, unshare_expr (li->hcount),
			build_int_cst (ull, 1));
  tree c = fold_convert (ull, fold_build2 (LT_EXPR, boolean_type_node, d,
					   unshare_expr (*iters)));
  return c;
}

} // namespace

void
pp_entry_branches (pp_fn *f)
{
  size_t n = f->acts.size ();     /* pp_add_edge appends */
  for (size_t i = 0; i < n; i++)
    {
      if (f->acts[i].kind != PP_ACT_BRANCH)
	continue;
      edge pre;
      tree iters;
      tree c = entry_true_count (f, f->acts[i], &pre, &iters);
      if (!c)
	continue;
      tree nc = fold_build2 (MINUS_EXPR, long_long_unsigned_type_node,
			     unshare_expr (iters), unshare_expr (c));
      bool eq = gimple_cond_code (f->acts[i].stmt) == EQ_EXPR;
      int slot = f->acts[i].slot;
      bool derived = f->acts[i].derived_f;
      /* the branch's action becomes T's increment on the preheader edge */
      pp_act t = {};
      t.kind = PP_ACT_EDGE;
      t.e = pre;
      t.slot = slot;
      t.val = eq ? c : nc;
      f->acts[i] = t;
      if (!derived)
	pp_add_edge (f, pre, slot + 1, eq ? unshare_expr (nc) : unshare_expr (c));
      if (pp_verbose)
	fprintf (stderr, "perfpred: %s: branch slot %d counted at loop "
		 "entry\n", f->asm_name, slot);
    }
}
