/* perfpred: values read from clocks and random generators.  Such a value
 * differs from run to run and is no input a user could set, so it never
 * becomes a problem parameter (docs/plugin.md, "Problem parameters"): a
 * loop bounded by one stays data-dependent.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

#define PP_NONDET_DEPTH 24

/* Calls whose result (or whose output through a pointer) is a clock
   reading or a pseudo-random number.  */
static bool
nondet_fn (tree fn)
{
  static const char *const names[] = {
    "time", "clock", "clock_gettime", "gettimeofday", "times", "getrusage",
    "ftime", "timespec_get", "omp_get_wtime", "MPI_Wtime", "PMPI_Wtime",
    "rand", "random", "rand_r", "random_r", "drand48", "erand48", "lrand48",
    "nrand48", "mrand48", "jrand48", "drand48_r", "erand48_r", "lrand48_r",
    "nrand48_r", "mrand48_r", "jrand48_r", "arc4random",
    "arc4random_uniform", "getrandom", "getpid", "__builtin_ia32_rdtsc",
    NULL
  };
  const char *n = fn && DECL_NAME (fn) ? IDENTIFIER_POINTER (DECL_NAME (fn))
				       : NULL;
  if (!n)
    return false;
  for (int i = 0; names[i]; i++)
    if (strcmp (n, names[i]) == 0)
      return true;
  return false;
}

/* The variable that REF is part of (tv in tv.tv_usec, ts in ts[0]).  */
static tree
ref_base_var (tree ref)
{
  while (handled_component_p (ref))
    ref = TREE_OPERAND (ref, 0);
  if (TREE_CODE (ref) == MEM_REF
      && TREE_CODE (TREE_OPERAND (ref, 0)) == ADDR_EXPR)
    ref = TREE_OPERAND (TREE_OPERAND (ref, 0), 0);
  return VAR_P (ref) ? ref : NULL_TREE;
}

/* Does a clock or random call in F take the address of VAR (gettimeofday
   (&tv, 0), clock_gettime (CLOCK_MONOTONIC, &ts), drand48_r (&buf, &x))?  */
static bool
filled_by_nondet (function *fun, tree var)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator g = gsi_start_bb (bb); !gsi_end_p (g);
	 gsi_next (&g))
      {
	gimple *s = gsi_stmt (g);
	if (!is_gimple_call (s) || !nondet_fn (gimple_call_fndecl (s)))
	  continue;
	for (unsigned i = 0; i < gimple_call_num_args (s); i++)
	  {
	    tree a = gimple_call_arg (s, i);
	    if (TREE_CODE (a) == ADDR_EXPR
		&& ref_base_var (TREE_OPERAND (a, 0)) == var)
	      return true;
	  }
      }
  return false;
}

static bool nondet (function *fun, tree t, int depth, hash_set<tree> *seen);

/* A local VAR kept in memory (-O0, or its address taken): does a store
   to it in F store a clock or random value?  */
static bool
stored_nondet (function *fun, tree var, int depth, hash_set<tree> *seen)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator g = gsi_start_bb (bb); !gsi_end_p (g);
	 gsi_next (&g))
      {
	gimple *s = gsi_stmt (g);
	if (is_gimple_assign (s) && gimple_assign_lhs (s) == var
	    && nondet (fun, gimple_assign_rhs1 (s), depth + 1, seen))
	  return true;
	if (is_gimple_call (s) && gimple_call_lhs (s) == var
	    && nondet_fn (gimple_call_fndecl (s)))
	  return true;
      }
  return false;
}

static bool
nondet (function *fun, tree t, int depth, hash_set<tree> *seen)
{
  if (!t || depth > PP_NONDET_DEPTH)
    return false;
  if (TREE_CODE (t) != SSA_NAME)
    {
      /* a load: from a struct a clock call filled, or from a local that
	 was given such a value */
      tree v = ref_base_var (t);
      if (!v || is_global_var (v))
	return false;
      if (seen->add (v))
	return false;
      return filled_by_nondet (fun, v) || stored_nondet (fun, v, depth, seen);
    }
  if (SSA_NAME_IS_DEFAULT_DEF (t) || seen->add (t))
    return false;
  gimple *def = SSA_NAME_DEF_STMT (t);
  if (is_gimple_call (def))
    return nondet_fn (gimple_call_fndecl (def));
  if (gphi *phi = dyn_cast<gphi *> (def))
    {
      for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
	if (nondet (fun, gimple_phi_arg_def (phi, i), depth + 1, seen))
	  return true;
      return false;
    }
  if (!is_gimple_assign (def))
    return false;
  for (unsigned i = 1; i < gimple_num_ops (def); i++)
    {
      tree op = gimple_op (def, i);
      if (!op || CONSTANT_CLASS_P (op))
	continue;
      /* a conversion or an operation wrapped in the operand (niter's
	 GENERIC trees do not reach here; GIMPLE operands are flat) */
      while (CONVERT_EXPR_P (op) || TREE_CODE (op) == NON_LVALUE_EXPR)
	op = TREE_OPERAND (op, 0);
      if (TREE_CODE (op) == SSA_NAME || VAR_P (op) || REFERENCE_CLASS_P (op))
	if (nondet (fun, op, depth + 1, seen))
	  return true;
    }
  return false;
}

/* Does the value T (an SSA name, or the memory a load reads) come from a
   clock or a random generator, through arithmetic, copies and loads of
   locals?  A value mixed from such a source and an input counts too: it
   is no input either.  */
bool
pp_nondet_value (pp_fn *f, tree t)
{
  hash_set<tree> seen;
  return nondet (f->fun, t, 0, &seen);
}

/* Is S a call to a clock or a random generator?  */
bool
pp_nondet_call (gimple *s)
{
  return is_gimple_call (s) && nondet_fn (gimple_call_fndecl (s));
}
