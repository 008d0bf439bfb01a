/* perfpred: definitions of globals.  A global that the program sets once
 * from its inputs (nv = 1L << scale; nedge = 16 * nv) is no input of its
 * own: the `gdef' line gives its value as an expression of the inputs, so
 * that the analyser can move it with them (docs/descriptor-format.md,
 * docs/model.md "Derived globals").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* A global whose value the runtime can record (the globals that
   (global NAME) atoms name, pp-trace.cc).  */
static bool
recordable_global (tree g)
{
  if (!g || TREE_CODE (g) != VAR_DECL || !is_global_var (g)
      || !pp_is_user_var (g) || DECL_THREAD_LOCAL_P (g)
      || !INTEGRAL_TYPE_P (TREE_TYPE (g)) || pp_mpi_var_atom (g))
    return false;
  HOST_WIDE_INT sz = int_size_in_bytes (TREE_TYPE (g));
  return sz == 1 || sz == 2 || sz == 4 || sz == 8;
}

/* EXPR names only inputs: (var) (arg) (global) atoms and constants, at
   least one atom.  Thread, rank, induction-variable and shared-data atoms
   have no single value outside the code that computes them.  */
static const char *
why_not_inputs (const std::string &e)
{
  if (pp_expr_unknown (e))
    return "unknown";
  static const char *const bad[] = { "(iv ", "(tid", "(nthreads", "(shared ",
				     "(rank", "(nprocs", "(addr ",
				     "(critical", NULL };
  for (int i = 0; bad[i]; i++)
    if (e.find (bad[i]) != std::string::npos)
      return "not-inputs";
  if (e.find ("(var ") == std::string::npos
      && e.find ("(arg ") == std::string::npos
      && e.find ("(global ") == std::string::npos)
    return "constant";
  return NULL;
}

/* Main, or a function main alone calls, from one site (an init
   function): the locals it reads from outside may become parameters
   there.  Elsewhere a definition uses the parameters the function
   already has and creates none: a __pp_param in a function called at
   every step would cost there, and record a value that changes.  */
static bool
runs_once (pp_fn *f)
{
  const char *n = pp_decl_name (f->fndecl);
  if (n && strcmp (n, "main") == 0)
    return true;
  cgraph_node *node = cgraph_node::get (f->fndecl);
  if (!node || !node->callers || node->callers->next_caller
      || node->address_taken || !node->callers->caller)
    return false;
  cgraph_edge *e = node->callers;
  const char *c = pp_decl_name (e->caller->decl);
  if (!c || strcmp (c, "main") != 0 || !e->call_stmt)
    return false;
  /* the call outside main's loops (when main's loops are known: it was
     compiled first, as main usually is not; else no) */
  function *mf = DECL_STRUCT_FUNCTION (e->caller->decl);
  basic_block bb = gimple_bb (e->call_stmt);
  return mf && loops_for_fn (mf) && bb && bb->loop_father
	 && loop_outer (bb->loop_father) == NULL;
}

void
pp_do_gdefs (pp_fn *f)
{
  bool saved = f->param_ok;
  f->param_ok = runs_once (f);
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator g = gsi_start_bb (bb); !gsi_end_p (g);
	 gsi_next (&g))
      {
	gimple *s = gsi_stmt (g);
	tree lhs = gimple_get_lhs (s);
	if (!lhs || !recordable_global (lhs))
	  continue;
	const char *why = NULL;
	std::string e = "?";
	bool assign = is_gimple_assign (s) && gimple_assign_single_p (s);
	/* seed = time (NULL), n = rand () % 100, wherever: no input
	   (pp-nondet.cc) */
	if (pp_nondet_call (s)
	    || (assign && pp_nondet_value (f, gimple_assign_rhs1 (s))))
	  why = "nondet";
	else if (loop_outer (bb->loop_father) != NULL)
	  why = "in-loop";
	else if (f->omp_child || pp_global_written_by_threads (lhs))
	  /* every thread of the team may store it; or threads do, and
	     what is read at exit is not what a loop bound read (a ticket
	     counter, pp-threadarg.cc) */
	  why = "parallel";
	else if (!assign)
	  why = "unknown";
	else
	  {
	    e = pp_trace (f, gimple_assign_rhs1 (s));
	    why = why_not_inputs (e);
	    if (why)
	      e = "?";
	  }
	f->body += "gdef name=" + pp_qname (pp_decl_name (lhs))
		   + pp_fmt (" line=%d expr=", pp_stmt_line (s))
		   + (e[0] == '(' || e == "?" ? e : "(" + e + ")")
		   + (why ? std::string (" why=") + why : std::string ())
		   + "\n";
	if (!why)
	  {
	    /* the runtime records its value at exit: the check of the
	       definition (docs/model.md)  */
	    bool seen = false;
	    for (size_t i = 0; i < f->globals.size (); i++)
	      seen |= f->globals[i] == lhs;
	    if (!seen)
	      f->globals.push_back (lhs);
	  }
      }
  f->param_ok = saved;
}
