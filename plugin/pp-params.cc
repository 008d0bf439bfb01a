/* perfpred: problem parameters, the values the runtime records with
 * __pp_param (docs/runtime-abi.md, "Problem parameters").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* Append parameter P (its name from VAR, or from the pragma that renames
   VAR) and the action recording VAL after DEF, at the start of BB, or on
   edge E; returns "(var NAME)".  */
static std::string
add_param (pp_fn *f, tree var, pp_param_info p, gimple *loc, tree val)
{
  const char *pn = pp_pragma_name (f->fndecl, var);
  p.var = pp_decl_name (var);
  p.pragma = pn != NULL;
  p.name = pn ? pn : p.var;
  p.line = loc ? pp_stmt_line (loc) : 0;
  if (p.line <= 0)
    p.line = pp_line (DECL_SOURCE_LOCATION (var));
  f->params.push_back (p);
  pp_act a = {};
  a.kind = PP_ACT_PARAM;
  a.site = (int) f->params.size () - 1;
  a.stmt = p.def;
  a.bb = p.e ? NULL : p.bb;
  a.e = p.e;
  a.val = val;
  f->acts.push_back (a);
  return "(var " + p.name + ")";
}

/* Is a statement that may change VAR reachable from the point where
   parameter P is recorded?  */
static bool
writer_reachable (pp_fn *f, const pp_param_info &p, tree var)
{
  auto_bitmap seen;
  auto_vec<basic_block> work;
  basic_block start = p.e ? p.e->dest : p.bb;
  /* The rest of the recording block (after the load, or all of it).  */
  gimple_stmt_iterator gsi = gsi_start_bb (start);
  if (!p.e && p.def)
    {
      gsi = gsi_for_stmt (p.def);
      gsi_next (&gsi);
    }
  for (; !gsi_end_p (gsi); gsi_next (&gsi))
    if (pp_stmt_writes_var (gsi_stmt (gsi), var))
      return true;
  work.safe_push (start);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  basic_block d = e->dest;
	  if (d == EXIT_BLOCK_PTR_FOR_FN (f->fun)
	      || !bitmap_set_bit (seen, d->index))
	    continue;
	  for (gsi = gsi_start_bb (d); !gsi_end_p (gsi); gsi_next (&gsi))
	    if (pp_stmt_writes_var (gsi_stmt (gsi), var))
	      return true;
	  work.safe_push (d);
	}
    }
  return false;
}

/* A parameter already recorded for VAR that the load in BB (after DEF)
   must see: VAR's address only blocking MPI calls see (a broadcast
   parameter), the recording point dominates the load, and nothing that
   may change VAR is reachable from it.  One parameter per broadcast
   variable, not one per load.  */
static std::string
known_param (pp_fn *f, tree var, gimple *def, basic_block bb)
{
  if (!pp_mpi_private_var (var) || !dom_info_available_p (CDI_DOMINATORS))
    return "";
  const char *vn = pp_decl_name (var);
  for (size_t i = 0; i < f->params.size (); i++)
    {
      const pp_param_info &p = f->params[i];
      if (p.var != vn)
	continue;
      bool before;
      if (p.e)
	/* a preheader edge: the only way into its loop */
	before = dominated_by_p (CDI_DOMINATORS, bb, p.e->dest)
		 && single_pred_p (p.e->src) && single_succ_p (p.e->src);
      else if (p.bb == bb)
	{
	  before = false;
	  if (p.def && def)
	    for (gimple_stmt_iterator g = gsi_for_stmt (p.def); !gsi_end_p (g);
		 gsi_next (&g))
	      if (gsi_stmt (g) == def)
		before = true;
	}
      else
	before = dominated_by_p (CDI_DOMINATORS, bb, p.bb);
      if (before && !writer_reachable (f, p, var))
	return "(var " + p.name + ")";
    }
  return "";
}

/* Make the user variable VAR, defined by the SSA name SSA (or loaded by
   DEF), a problem parameter; returns "(var NAME)" or "" when it cannot.  */
std::string
pp_make_param (pp_fn *f, tree var, tree ssa, gimple *def, basic_block bb)
{
  if (!var || !bb || !pp_is_user_var (var) || TREE_CODE (var) != VAR_DECL
      || is_global_var (var))
    return "";
  tree type = ssa ? TREE_TYPE (ssa) : TREE_TYPE (var);
  if (!INTEGRAL_TYPE_P (type))
    return "";
  /* Only outside loops: a __pp_param call in a loop body costs at every
     iteration (notes 5.5).  */
  if (loop_outer (bb->loop_father) != NULL)
    return "";
  if (def && stmt_ends_bb_p (def))
    return "";
  for (size_t i = 0; i < f->params.size (); i++)
    if (f->params[i].ssa == ssa && f->params[i].def == def)
      return "(var " + f->params[i].name + ")";
  std::string known = known_param (f, var, def, bb);
  if (!known.empty ())
    return known;
  /* New parameters only for what loop counts, shapes and call arguments
     depend on.  */
  if (!f->param_ok)
    return "";
  /* A clock reading or a random number is no input (pp-nondet.cc); a
     pragma naming the variable still makes it one.  */
  if (!pp_pragma_name (f->fndecl, var)
      && pp_nondet_value (f, ssa && TREE_CODE (ssa) == SSA_NAME ? ssa : var))
    return "";
  pp_param_info p = {};
  p.ssa = ssa;
  p.def = def;
  p.bb = bb;
  return add_param (f, var, p, def, ssa);
}

/* A local variable VAR loaded by DEF inside a loop, when no statement of
   the outermost loop around DEF can change it (a broadcast parameter
   reloaded because the loop has calls, pp-mpi.cc): a problem parameter
   recorded by a reload on that loop's preheader edge.  */
std::string
pp_make_param_before_loop (pp_fn *f, tree var, gimple *def)
{
  basic_block bb = gimple_bb (def);
  if (!bb || !pp_is_user_var (var) || TREE_CODE (var) != VAR_DECL
      || is_global_var (var) || !INTEGRAL_TYPE_P (TREE_TYPE (var)))
    return "";
  class loop *l = bb->loop_father;
  if (!loop_outer (l))
    return "";
  while (loop_outer (loop_outer (l)))
    l = loop_outer (l);
  edge pre = loop_preheader_edge (l);
  if (!pre || (pre->flags & EDGE_ABNORMAL) || !pp_load_invariant (l, def))
    return "";
  for (size_t i = 0; i < f->params.size (); i++)
    if (f->params[i].e == pre && f->params[i].var == pp_decl_name (var))
      return "(var " + f->params[i].name + ")";
  std::string known = known_param (f, var, def, bb);
  if (!known.empty ())
    return known;
  if (!f->param_ok)
    return "";
  if (!pp_pragma_name (f->fndecl, var) && pp_nondet_value (f, var))
    return "";
  pp_param_info p = {};
  p.e = pre;
  p.bb = pre->src;
  return add_param (f, var, p, def, var);
}
