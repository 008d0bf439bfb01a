/* perfpred: values a program hands to a thread through the object its
 * pthread_create argument points to.
 *
 * Real pthreads code does not pass the thread index: it fills a struct
 * per thread and passes its address,
 *
 *     jobs[k].first = n * k / nthreads;  jobs[k].last = ...;
 *     pthread_create (&t[k], NULL, rows, &jobs[k]);
 *
 *     void *rows (void *p) { struct job *j = p;
 *                            for (i = j->first; i < j->last; i++) ... }
 *
 * Both ends are described here.  The create site gets
 * data=((first EXPR) (last EXPR) ...), the values of the last stores into
 * the object's named integer fields that run before the call in the same
 * iteration; the thread function reads such a field as (shared FIELD),
 * the form an OpenMP child reads its data block with, and the analyser
 * binds it from the create site that started the thread.  What is not
 * recognised stays a (load); a wrong binding (the object changed after
 * the call) shows as a symbolic count that the run does not confirm.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

#define SAME_DEPTH 8

/* X without the conversions around it (pointer casts, widening).  */
static tree
strip_copies (tree x)
{
  for (int hops = 0; hops < SAME_DEPTH && x && TREE_CODE (x) == SSA_NAME
		     && !SSA_NAME_IS_DEFAULT_DEF (x); hops++)
    {
      gimple *d = SSA_NAME_DEF_STMT (x);
      if (!is_gimple_assign (d))
	break;
      enum tree_code c = gimple_assign_rhs_code (d);
      if (!CONVERT_EXPR_CODE_P (c) && c != SSA_NAME)
	break;
      tree r = gimple_assign_rhs1 (d);
      if (TREE_CODE (r) != SSA_NAME)
	break;
      x = r;
    }
  return x;
}

/* Do A and B compute the same value (at -O0 each `jobs[k]' recomputes
   jobs + k * 40 from the same SSA names)?  Loads count only when they
   read the same declared variable.  */
static bool
same_value (tree a, tree b, int depth)
{
  if (a == b)
    return true;
  if (!a || !b || depth > SAME_DEPTH)
    return false;
  if (TREE_CODE (a) == INTEGER_CST && TREE_CODE (b) == INTEGER_CST)
    return tree_int_cst_equal (a, b);
  if (TREE_CODE (a) == SSA_NAME)
    a = strip_copies (a);
  if (TREE_CODE (b) == SSA_NAME)
    b = strip_copies (b);
  if (a == b)
    return true;
  if (TREE_CODE (a) != SSA_NAME || TREE_CODE (b) != SSA_NAME
      || SSA_NAME_IS_DEFAULT_DEF (a) || SSA_NAME_IS_DEFAULT_DEF (b))
    return TREE_CODE (a) == ADDR_EXPR && TREE_CODE (b) == ADDR_EXPR
	   && operand_equal_p (a, b, 0);
  gimple *da = SSA_NAME_DEF_STMT (a), *db = SSA_NAME_DEF_STMT (b);
  if (!is_gimple_assign (da) || !is_gimple_assign (db)
      || gimple_assign_rhs_code (da) != gimple_assign_rhs_code (db)
      || gimple_num_ops (da) != gimple_num_ops (db))
    return false;
  if (gimple_assign_single_p (da))
    {
      tree ra = gimple_assign_rhs1 (da), rb = gimple_assign_rhs1 (db);
      if (TREE_CODE (ra) == VAR_DECL)
	return ra == rb;
      if (TREE_CODE (ra) == ADDR_EXPR)
	return TREE_CODE (rb) == ADDR_EXPR && operand_equal_p (ra, rb, 0);
      return false;
    }
  for (unsigned i = 1; i < gimple_num_ops (da); i++)
    if (!same_value (gimple_op (da, i), gimple_op (db, i), depth + 1))
      return false;
  return true;
}

/* Is the object REF (the operand of a field access) the one pointer ARG
   points to?  ARG: the create's argument, an SSA pointer or &OBJ.  */
static bool
is_the_object (tree ref, tree arg)
{
  if (TREE_CODE (ref) == MEM_REF)
    return integer_zerop (TREE_OPERAND (ref, 1))
	   && same_value (TREE_OPERAND (ref, 0), arg, 0);
  /* jobs[k].first = ... with the argument &jobs[k] */
  tree a = arg;
  if (TREE_CODE (a) == SSA_NAME)
    {
      a = strip_copies (a);
      gimple *d = TREE_CODE (a) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (a)
		  ? SSA_NAME_DEF_STMT (a) : NULL;
      if (!d || !is_gimple_assign (d) || gimple_assign_rhs_code (d) != ADDR_EXPR)
	return false;
      a = gimple_assign_rhs1 (d);
    }
  if (TREE_CODE (a) != ADDR_EXPR)
    return false;
  tree obj = TREE_OPERAND (a, 0);
  if (TREE_CODE (obj) != TREE_CODE (ref))
    return false;
  if (TREE_CODE (ref) == ARRAY_REF)
    return operand_equal_p (TREE_OPERAND (ref, 0), TREE_OPERAND (obj, 0), 0)
	   && same_value (TREE_OPERAND (ref, 1), TREE_OPERAND (obj, 1), 0);
  return operand_equal_p (ref, obj, 0);
}

/* An integer field with a name at the top level of a struct.  */
static bool
named_int_field (tree lhs)
{
  return TREE_CODE (lhs) == COMPONENT_REF
	 && TREE_CODE (TREE_OPERAND (lhs, 1)) == FIELD_DECL
	 && pp_decl_name (TREE_OPERAND (lhs, 1))
	 && INTEGRAL_TYPE_P (TREE_TYPE (lhs))
	 && TREE_CODE (TREE_TYPE (lhs)) != BOOLEAN_TYPE
	 && !DECL_BIT_FIELD (TREE_OPERAND (lhs, 1));
}

/* " data=((FIELD EXPR) ...)" for pthread_create call STMT, or "".  The
   stores taken are those in blocks of the call's own loop that dominate
   the call (so they ran in the same iteration, before it); of several to
   one field, the last.  */
std::string
pp_create_data (pp_fn *f, gimple *stmt)
{
  if (gimple_call_num_args (stmt) < 4 || !dom_info_available_p (CDI_DOMINATORS))
    return "";
  tree arg = gimple_call_arg (stmt, 3);
  if (TREE_CODE (arg) != SSA_NAME && TREE_CODE (arg) != ADDR_EXPR)
    return "";
  basic_block cbb = gimple_bb (stmt);
  std::vector<tree> fields;
  std::vector<gimple *> stores;
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    {
      if (bb->loop_father != cbb->loop_father
	  || !dominated_by_p (CDI_DOMINATORS, cbb, bb))
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *g = gsi_stmt (gsi);
	  if (g == stmt)
	    break;
	  if (!gimple_assign_single_p (g) || !gimple_vdef (g))
	    continue;
	  tree lhs = gimple_assign_lhs (g);
	  if (!named_int_field (lhs) || !is_the_object (TREE_OPERAND (lhs, 0), arg))
	    continue;
	  tree fd = TREE_OPERAND (lhs, 1);
	  size_t i = 0;
	  while (i < fields.size () && fields[i] != fd)
	    i++;
	  if (i == fields.size ())
	    {
	      fields.push_back (fd);
	      stores.push_back (g);
	    }
	  /* the later of two: in a block the other's dominates, or after
	     it in the same block */
	  else if (gimple_bb (stores[i]) != bb
		   ? dominated_by_p (CDI_DOMINATORS, bb, gimple_bb (stores[i]))
		   : true)
	    stores[i] = g;
	}
    }
  if (fields.empty ())
    return "";
  std::string s;
  for (size_t i = 0; i < fields.size (); i++)
    s += (i ? " (" : "(") + std::string (pp_decl_name (fields[i])) + " "
	 + pp_trace (f, gimple_assign_rhs1 (stores[i])) + ")";
  return " data=(" + s + ")";
}

/* Does any statement of F store into field FD (through any object)?  */
static bool
field_stored (pp_fn *f, tree fd)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *g = gsi_stmt (gsi);
	if (!gimple_vdef (g) || !is_gimple_assign (g))
	  continue;
	tree lhs = gimple_assign_lhs (g);
	while (handled_component_p (lhs))
	  {
	    if (TREE_CODE (lhs) == COMPONENT_REF && TREE_OPERAND (lhs, 1) == fd)
	      return true;
	    lhs = TREE_OPERAND (lhs, 0);
	  }
      }
  return false;
}

/* "(shared FIELD)" when REF reads an integer field of the object the
   thread function F's argument points to and F never stores into that
   field; "" otherwise.  */
std::string
pp_thread_field (pp_fn *f, tree ref)
{
  if (!named_int_field (ref) || TREE_CODE (TREE_OPERAND (ref, 0)) != MEM_REF
      || !integer_zerop (TREE_OPERAND (TREE_OPERAND (ref, 0), 1))
      || !pp_is_thread_start (f->fndecl))
    return "";
  tree p = strip_copies (TREE_OPERAND (TREE_OPERAND (ref, 0), 0));
  tree parm = DECL_ARGUMENTS (f->fndecl);
  if (TREE_CODE (p) != SSA_NAME || !SSA_NAME_IS_DEFAULT_DEF (p) || !parm
      || SSA_NAME_VAR (p) != parm)
    return "";
  if (field_stored (f, TREE_OPERAND (ref, 1)))
    return "";
  return std::string ("(shared ") + pp_decl_name (TREE_OPERAND (ref, 1)) + ")";
}

/* ------------------------------------------- globals the threads write */

static std::vector<tree> thread_written;
static bool thread_written_done;

static void
note_written (tree t)
{
  while (t && (handled_component_p (t) || TREE_CODE (t) == ADDR_EXPR))
    t = TREE_OPERAND (t, 0);
  if (t && TREE_CODE (t) == VAR_DECL && is_global_var (t))
    thread_written.push_back (t);
}

/* Does code that runs in threads (a pthread start routine, an OpenMP
   child) store into global G, or update it with an atomic builtin?  Its
   value then changes while the program runs (a ticket counter, a shared
   index), and what the runtime reads at exit is not what a loop bound
   read: such a global is no (global NAME) (pp-trace.cc).  */
bool
pp_global_written_by_threads (tree g)
{
  if (!thread_written_done)
    {
      thread_written_done = true;
      pp_collect_thread_starts ();
      cgraph_node *node;
      FOR_EACH_DEFINED_FUNCTION (node)
	{
	  function *fn = DECL_STRUCT_FUNCTION (node->decl);
	  const char *name = IDENTIFIER_POINTER (DECL_NAME (node->decl));
	  if (!fn || !fn->cfg
	      || !(pp_is_thread_start (node->decl) || strstr (name, "._omp_fn.")))
	    continue;
	  basic_block bb;
	  FOR_EACH_BB_FN (bb, fn)
	    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
		 gsi_next (&gsi))
	      {
		gimple *s = gsi_stmt (gsi);
		if (is_gimple_assign (s) && gimple_vdef (s))
		  note_written (gimple_assign_lhs (s));
		else if (is_gimple_call (s) && gimple_call_num_args (s) > 0
			 && (gimple_call_builtin_p (s, BUILT_IN_NORMAL)
			     || gimple_call_internal_p (s)))
		  note_written (gimple_call_arg (s, 0));
	      }
	}
    }
  for (size_t i = 0; i < thread_written.size (); i++)
    if (thread_written[i] == g)
      return true;
  return false;
}
