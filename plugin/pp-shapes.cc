/* perfpred: array shapes (static arrays, VLAs, malloc/calloc) and static
 * operation counts per loop body (the chi vector of Clement & Quinn).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* ----------------------------------------------------------------- ops */

std::string
pp_ops_text (pp_fn *f, class loop *loop)
{
  long n_int = 0, n_fp = 0, n_ld = 0, n_st = 0, n_br = 0, n_call = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    {
      if (bb->loop_father != loop)
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  switch (gimple_code (s))
	    {
	    case GIMPLE_COND:
	    case GIMPLE_SWITCH:
	      n_br++;
	      break;
	    case GIMPLE_CALL:
	      n_call++;
	      break;
	    case GIMPLE_ASSIGN:
	      {
		tree lhs = gimple_assign_lhs (s);
		bool store = gimple_vdef (s) != NULL_TREE;
		bool load = gimple_vuse (s) && gimple_assign_single_p (s)
			    && !is_gimple_min_invariant (gimple_assign_rhs1 (s))
			    && TREE_CODE (gimple_assign_rhs1 (s)) != SSA_NAME;
		if (store)
		  n_st++;
		if (load)
		  n_ld++;
		if (store || load)
		  break;
		enum tree_code c = gimple_assign_rhs_code (s);
		if (c == SSA_NAME || CONVERT_EXPR_CODE_P (c)
		    || TREE_CODE_CLASS (c) == tcc_constant)
		  break;
		if (FLOAT_TYPE_P (TREE_TYPE (lhs))
		    || FLOAT_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (s))))
		  n_fp++;
		else
		  n_int++;
	      }
	      break;
	    default:
	      break;
	    }
	}
    }
  return pp_fmt ("(%ld %ld %ld %ld %ld %ld)", n_int, n_fp, n_ld, n_st, n_br,
		 n_call);
}

/* -------------------------------------------------------------- shapes */

static std::string
size_text (tree t)
{
  if (t && TREE_CODE (t) == INTEGER_CST)
    return pp_cst (t);
  return "?";
}

/* Extent of one array dimension: max - min + 1.  A VLA bound is a
   gimplified temporary; find its SSA definition.  */
static std::string
dim_text (pp_fn *f, tree domain)
{
  if (!domain)
    return "?";
  tree lo = TYPE_MIN_VALUE (domain), hi = TYPE_MAX_VALUE (domain);
  if (!hi)
    return "?";
  if (TREE_CODE (hi) == INTEGER_CST && lo && TREE_CODE (lo) == INTEGER_CST)
    return pp_fmt ("%ld", (long) (tree_to_shwi (hi) - tree_to_shwi (lo) + 1));
  if (TREE_CODE (hi) == VAR_DECL && lo && integer_zerop (lo))
    {
      unsigned i;
      tree name;
      FOR_EACH_SSA_NAME (i, name, f->fun)
	if (SSA_NAME_VAR (name) == hi && !SSA_NAME_IS_DEFAULT_DEF (name))
	  {
	    std::string s = pp_trace (f, name);
	    return s == "?" ? s : pp_binop ("+", s, "1");
	  }
    }
  return "?";
}

static std::string
dims_text (pp_fn *f, tree type, tree *elem)
{
  std::string d;
  while (TREE_CODE (type) == ARRAY_TYPE)
    {
      d += (d.empty () ? "" : " ") + dim_text (f, TYPE_DOMAIN (type));
      type = TREE_TYPE (type);
    }
  *elem = type;
  return "(" + d + ")";
}

static void
shape_line (pp_fn *f, int line, const char *name, const char *kind,
	    const std::string &elem, const std::string &dims,
	    const std::string &bytes)
{
  f->body += pp_fmt ("shape id=%d line=%d name=", f->nshapes++, line)
	     + pp_qname (name) + " kind=" + kind + " elem=" + elem
	     + (dims.empty () ? "" : " dims=" + dims) + " bytes=" + bytes
	     + "\n";
}

static void
static_shape (pp_fn *f, tree var)
{
  tree elem;
  std::string dims = dims_text (f, TREE_TYPE (var), &elem);
  shape_line (f, pp_line (DECL_SOURCE_LOCATION (var)), pp_decl_name (var),
	      "static", size_text (TYPE_SIZE_UNIT (elem)), dims,
	      size_text (DECL_SIZE_UNIT (var)));
}

/* The VLA whose DECL_VALUE_EXPR is *PTR.  */
static tree
find_vla (tree block, tree ptr)
{
  for (; block; block = BLOCK_CHAIN (block))
    {
      for (tree v = BLOCK_VARS (block); v; v = DECL_CHAIN (v))
	if (VAR_P (v) && DECL_HAS_VALUE_EXPR_P (v))
	  {
	    tree ve = DECL_VALUE_EXPR (v);
	    if ((TREE_CODE (ve) == INDIRECT_REF || TREE_CODE (ve) == MEM_REF)
		&& TREE_OPERAND (ve, 0) == ptr)
	      return v;
	  }
      tree r = find_vla (BLOCK_SUBBLOCKS (block), ptr);
      if (r)
	return r;
    }
  return NULL_TREE;
}

/* Name and element type of what an allocation's result LHS is stored in.  */
static const char *
alloc_target (tree lhs, tree *ptype)
{
  *ptype = NULL_TREE;
  if (!lhs || TREE_CODE (lhs) != SSA_NAME)
    return "?";
  tree var = SSA_NAME_VAR (lhs);
  if (var && pp_is_user_var (var))
    {
      *ptype = TREE_TYPE (var);
      return pp_decl_name (var);
    }
  use_operand_p use;
  gimple *u;
  if (single_imm_use (lhs, &use, &u))
    {
      if (gimple_assign_single_p (u) || gimple_assign_cast_p (u))
	{
	  tree l = gimple_assign_lhs (u);
	  *ptype = TREE_TYPE (l);
	  if (TREE_CODE (l) == SSA_NAME && SSA_NAME_VAR (l)
	      && pp_is_user_var (SSA_NAME_VAR (l)))
	    return pp_decl_name (SSA_NAME_VAR (l));
	  if (DECL_P (l) && pp_decl_name (l))
	    return pp_decl_name (l);
	  if (TREE_CODE (l) == COMPONENT_REF && pp_decl_name (TREE_OPERAND (l, 1)))
	    return pp_decl_name (TREE_OPERAND (l, 1));
	}
    }
  return "?";
}

static std::string
elem_of_ptr (tree ptype)
{
  if (ptype && POINTER_TYPE_P (ptype) && COMPLETE_TYPE_P (TREE_TYPE (ptype)))
    return size_text (TYPE_SIZE_UNIT (TREE_TYPE (ptype)));
  return "?";
}

static tree
global_array_cb (tree *tp, int *walk_subtrees, void *data)
{
  std::vector<tree> *v = (std::vector<tree> *) ((walk_stmt_info *) data)->info;
  tree t = *tp;
  if (TYPE_P (t))
    *walk_subtrees = 0;
  else if (VAR_P (t) && is_global_var (t) && !DECL_ARTIFICIAL (t)
	   && TREE_CODE (TREE_TYPE (t)) == ARRAY_TYPE && pp_decl_name (t)
	   && std::find (v->begin (), v->end (), t) == v->end ())
    v->push_back (t);
  return NULL_TREE;
}

void
pp_do_shapes (pp_fn *f)
{
  /* Static arrays: locals, and the globals this function uses.  */
  unsigned ix;
  tree var;
  std::vector<tree> globals;
  FOR_EACH_LOCAL_DECL (f->fun, ix, var)
    if (VAR_P (var) && pp_is_user_var (var)
	&& TREE_CODE (TREE_TYPE (var)) == ARRAY_TYPE
	&& std::find (globals.begin (), globals.end (), var) == globals.end ())
      globals.push_back (var);
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (is_gimple_debug (s))
	  continue;
	walk_stmt_info wi;
	memset (&wi, 0, sizeof wi);
	wi.info = &globals;
	walk_gimple_op (s, global_array_cb, &wi);
      }
  std::vector<tree> done;
  for (size_t i = 0; i < globals.size (); i++)
    if (DECL_SIZE_UNIT (globals[i])
	&& TREE_CODE (DECL_SIZE_UNIT (globals[i])) == INTEGER_CST)
      static_shape (f, globals[i]);

  /* VLAs and heap allocations, in statement order.  */
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (!is_gimple_call (s))
	  continue;
	tree fn = gimple_call_fndecl (s);
	if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
	  continue;
	int line = pp_stmt_line (s);
	tree lhs = gimple_call_lhs (s);
	tree ptype;
	switch (DECL_FUNCTION_CODE (fn))
	  {
	  case BUILT_IN_ALLOCA_WITH_ALIGN:
	    {
	      tree ptr = lhs && TREE_CODE (lhs) == SSA_NAME
			 ? SSA_NAME_VAR (lhs) : lhs;
	      tree vla = ptr ? find_vla (DECL_INITIAL (f->fndecl), ptr)
			     : NULL_TREE;
	      std::string bytes = pp_trace (f, gimple_call_arg (s, 0));
	      if (vla)
		{
		  tree elem;
		  std::string dims = dims_text (f, TREE_TYPE (vla), &elem);
		  shape_line (f, line, pp_decl_name (vla) ? pp_decl_name (vla)
							  : "?",
			      "vla", size_text (TYPE_SIZE_UNIT (elem)), dims,
			      bytes);
		}
	      else
		shape_line (f, line, "?", "vla", "?", "", bytes);
	    }
	    break;
	  case BUILT_IN_MALLOC:
	    {
	      const char *n = alloc_target (lhs, &ptype);
	      shape_line (f, line, n, "malloc", elem_of_ptr (ptype), "",
			  pp_trace (f, gimple_call_arg (s, 0)));
	    }
	    break;
	  case BUILT_IN_CALLOC:
	    {
	      const char *n = alloc_target (lhs, &ptype);
	      shape_line (f, line, n, "malloc", elem_of_ptr (ptype), "",
			  "(* " + pp_trace (f, gimple_call_arg (s, 0)) + " "
			  + pp_trace (f, gimple_call_arg (s, 1)) + ")");
	    }
	    break;
	  default:
	    break;
	  }
      }
}
