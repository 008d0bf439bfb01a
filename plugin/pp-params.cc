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
  /* New parameters only for what loop counts, shapes and call arguments
     depend on.  */
  if (!f->param_ok)
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
  if (!f->param_ok)
    return "";
  pp_param_info p = {};
  p.e = pre;
  p.bb = pre->src;
  return add_param (f, var, p, def, var);
}
