/* perfpred: loop descriptors and loop counters.
 *
 * For every natural loop (outer before inner, siblings in RPO order):
 * shape, exit-test line, affine induction variable, symbolic count of body
 * iterations per entry, and two counter slots: header executions H and
 * entries E.  When the latch count is known at the preheader the counters
 * are bumped once per entry (H += niter + 1, E += 1 on the preheader edge,
 * no code in the loop); otherwise H += 1 in the header.  pp-hoist.cc may
 * then move the entry increments out of the loops around.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

int
pp_loop_id_of_bb (pp_fn *f, basic_block bb)
{
  std::map<int, int>::iterator it = f->loop_id.find (bb->loop_father->num);
  return it == f->loop_id.end () ? -1 : it->second;
}

/* Header PHI that the exit-test operand OP derives from: OP itself, or
   OP = PHI + CST.  *OFF receives CST (NULL for none).  */
static gphi *
header_phi_of (class loop *loop, tree op, tree *off)
{
  *off = NULL_TREE;
  if (TREE_CODE (op) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (op))
    return NULL;
  gimple *d = SSA_NAME_DEF_STMT (op);
  /* Look through a widening conversion ((long) i < bound).  */
  if (is_gimple_assign (d) && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))
      && TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME
      && INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (d)))
      && TYPE_PRECISION (TREE_TYPE (op))
	 >= TYPE_PRECISION (TREE_TYPE (gimple_assign_rhs1 (d))))
    {
      gimple *p = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (d));
      if (gimple_code (p) == GIMPLE_PHI && gimple_bb (p) == loop->header)
	return as_a<gphi *> (p);
    }
  if (gimple_code (d) == GIMPLE_PHI)
    return gimple_bb (d) == loop->header ? as_a<gphi *> (d) : NULL;
  if (is_gimple_assign (d)
      && (gimple_assign_rhs_code (d) == PLUS_EXPR
	  || gimple_assign_rhs_code (d) == POINTER_PLUS_EXPR)
      && TREE_CODE (gimple_assign_rhs2 (d)) == INTEGER_CST
      && TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME)
    {
      gimple *p = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (d));
      if (gimple_code (p) == GIMPLE_PHI && gimple_bb (p) == loop->header)
	{
	  *off = gimple_assign_rhs2 (d);
	  return as_a<gphi *> (p);
	}
    }
  return NULL;
}

/* Everything the count expression uses must be available at the
   preheader: SSA names defined before the loop, constants, arithmetic.  */
struct avail_data
{
  class loop *loop;
  basic_block pre;
  bool ok;
};

static tree
avail_cb (tree *tp, int *walk_subtrees, void *data)
{
  avail_data *d = (avail_data *) data;
  tree t = *tp;
  if (TREE_CODE (t) == SSA_NAME)
    {
      *walk_subtrees = 0;
      if (SSA_NAME_IS_DEFAULT_DEF (t))
	return NULL_TREE;
      basic_block bb = gimple_bb (SSA_NAME_DEF_STMT (t));
      if (!bb || flow_bb_inside_loop_p (d->loop, bb)
	  || !dominated_by_p (CDI_DOMINATORS, d->pre, bb))
	d->ok = false;
      return NULL_TREE;
    }
  if (CONSTANT_CLASS_P (t) || EXPR_P (t))
    return NULL_TREE;
  d->ok = false;
  return t;
}

static bool
available_at (class loop *loop, edge pre, tree expr)
{
  avail_data d = { loop, pre->src, true };
  walk_tree_without_duplicates (&expr, avail_cb, &d);
  return d.ok;
}

/* Every SSA name in EXPR (which may hold declarations, fields, memory
   references) is defined before the loop, where PRE starts.  */
static tree
ssa_avail_cb (tree *tp, int *walk_subtrees, void *data)
{
  avail_data *d = (avail_data *) data;
  tree t = *tp;
  if (TREE_CODE (t) != SSA_NAME)
    return NULL_TREE;
  *walk_subtrees = 0;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    return NULL_TREE;
  basic_block bb = gimple_bb (SSA_NAME_DEF_STMT (t));
  if (!bb || flow_bb_inside_loop_p (d->loop, bb)
      || !dominated_by_p (CDI_DOMINATORS, d->pre, bb))
    {
      d->ok = false;
      return t;
    }
  return NULL_TREE;
}

bool
pp_available_at (class loop *loop, edge pre, tree expr)
{
  return available_at (loop, pre, expr);
}

static bool
ssa_names_available_at (class loop *loop, edge pre, tree expr)
{
  avail_data d = { loop, pre->src, true };
  walk_tree_without_duplicates (&expr, ssa_avail_cb, &d);
  return d.ok;
}

/* The SSA names in the address of a memory reference (p_5->n, a[i_3]):
   each must be defined outside LOOP, or be itself a load that
   load_invariant accepts (p = pData; p->n with pData a local whose
   address is taken: both loads are in the loop at this point).  */
static bool load_invariant (class loop *loop, gimple *def, int depth);

struct ref_ops_data
{
  class loop *loop;
  int depth;
  bool ok;
};

static tree
ref_ops_cb (tree *tp, int *walk_subtrees, void *data)
{
  ref_ops_data *d = (ref_ops_data *) data;
  tree t = *tp;
  if (TREE_CODE (t) != SSA_NAME)
    return NULL_TREE;
  *walk_subtrees = 0;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    return NULL_TREE;
  gimple *s = SSA_NAME_DEF_STMT (t);
  basic_block bb = gimple_bb (s);
  if (bb && !flow_bb_inside_loop_p (d->loop, bb))
    return NULL_TREE;
  if (!bb || !gimple_assign_single_p (s) || !gimple_vuse (s) || gimple_vdef (s)
      || !load_invariant (d->loop, s, d->depth + 1))
    {
      d->ok = false;
      return t;
    }
  return NULL_TREE;
}

/* Is the load DEF (in LOOP) invariant: no statement of the loop may
   clobber what it reads (pitfall 14: a global bound not yet hoisted), and
   its address is the same at every iteration.  */
bool
pp_load_invariant (class loop *loop, gimple *def)
{
  return load_invariant (loop, def, 0);
}

static bool
load_invariant (class loop *loop, gimple *def, int depth)
{
  tree ref = gimple_assign_rhs1 (def);
  if (depth > 4)
    return false;
  ref_ops_data rd = { loop, depth, true };
  walk_tree_without_duplicates (&ref, ref_ops_cb, &rd);
  if (!rd.ok)
    return false;
  return pp_ref_unclobbered (loop, ref);
}

/* No statement of LOOP may store to what REF reads.  */
bool
pp_ref_unclobbered (class loop *loop, tree ref)
{
  basic_block *body = get_loop_body (loop);
  bool ok = true;
  for (unsigned i = 0; ok && i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (is_gimple_debug (s))
	  continue;
	/* A variable only blocking MPI calls see (a broadcast parameter):
	   no pointer of the program points to it, so only an assignment to
	   it or a call taking its address changes it (pp-mpi.cc); the alias
	   oracle does not know that (nor anything at -O0).  */
	if (pp_mpi_private_var (ref))
	  {
	    if (pp_stmt_writes_var (s, ref))
	      {
		ok = false;
		break;
	      }
	    continue;
	  }
	if ((gimple_vdef (s) || is_gimple_call (s))
	    && stmt_may_clobber_ref_p (s, ref))
	  {
	    ok = false;
	    break;
	  }
      }
  free (body);
  return ok;
}

/* Is the value T, computed in LOOP, the same at every iteration: built
   by arithmetic from constants, values defined before the loop and loads
   that pp_load_invariant accepts (n - 1 with n reloaded in the loop).  */
static bool value_invariant (class loop *loop, tree t, int depth);

bool
pp_value_invariant (class loop *loop, tree t)
{
  return value_invariant (loop, t, 0);
}

static bool
value_invariant (class loop *loop, tree t, int depth)
{
  if (CONSTANT_CLASS_P (t))
    return true;
  if (TREE_CODE (t) != SSA_NAME || depth > 8)
    return false;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    return true;
  gimple *d = SSA_NAME_DEF_STMT (t);
  basic_block db = gimple_bb (d);
  if (!db || !flow_bb_inside_loop_p (loop, db))
    return true;
  if (!is_gimple_assign (d))
    return false;
  if (gimple_assign_single_p (d) && gimple_vuse (d))
    return !gimple_vdef (d) && pp_load_invariant (loop, d);
  switch (get_gimple_rhs_class (gimple_assign_rhs_code (d)))
    {
    case GIMPLE_TERNARY_RHS:
      if (!value_invariant (loop, gimple_assign_rhs3 (d), depth + 1))
	return false;
      /* Fall through.  */
    case GIMPLE_BINARY_RHS:
      if (!value_invariant (loop, gimple_assign_rhs2 (d), depth + 1))
	return false;
      /* Fall through.  */
    case GIMPLE_UNARY_RHS:
      return value_invariant (loop, gimple_assign_rhs1 (d), depth + 1);
    case GIMPLE_SINGLE_RHS:
      return TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME
	     && value_invariant (loop, gimple_assign_rhs1 (d), depth + 1);
    default:
      return false;
    }
}

/* The GOMP_loop_*_start call that begins the dispatch loop LOOP of a
   dynamic or guided worksharing loop (the nearest one dominating its
   header), as " sched=(KIND START END INCR CHUNK)": the analyser's
   schedule model needs the iteration space, which reaches the outlined
   body only as the call's arguments.  KIND is dynamic, guided, runtime
   (CHUNK 0: OMP_SCHEDULE decides), or from GOMP_loop_start also static
   and auto.  "" for the forms it does not model (unsigned long long
   iterations, doacross).  */
static std::string
dispatch_sched (pp_fn *f, class loop *loop)
{
  gimple *best = NULL;
  basic_block best_bb = NULL;
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	tree fn = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
	if (!fn)
	  continue;
	const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
	size_t len = strlen (n);
	if (strncmp (n, "GOMP_loop_", 10) != 0 || len < 16
	    || strcmp (n + len - 6, "_start") != 0
	    || !dominated_by_p (CDI_DOMINATORS, loop->header, bb))
	  continue;
	if (!best_bb || dominated_by_p (CDI_DOMINATORS, bb, best_bb))
	  {
	    best = s;
	    best_bb = bb;
	  }
      }
  if (!best)
    return "";
  const char *n
    = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (gimple_call_fndecl (best)));
  const char *kind = NULL;
  if (strstr (n, "_ull_") || strstr (n, "doacross"))
    return "";
  if (strstr (n, "_dynamic_start"))
    kind = "dynamic";
  else if (strstr (n, "_guided_start"))
    kind = "guided";
  int nargs = (int) gimple_call_num_args (best);
  if (strstr (n, "_runtime_start") && nargs >= 5)
    /* GOMP_loop_[..._]runtime_start (long start, long end, long incr,
       long *istart, long *iend): OMP_SCHEDULE decides (the record has it) */
    return pp_fmt (" sched=(runtime %s %s %s 0)",
		   pp_trace (f, gimple_call_arg (best, 0)).c_str (),
		   pp_trace (f, gimple_call_arg (best, 1)).c_str (),
		   pp_trace (f, gimple_call_arg (best, 2)).c_str ());
  if (strcmp (n, "GOMP_loop_start") == 0 && nargs >= 5)
    {
      /* bool GOMP_loop_start (long start, long end, long incr, long sched,
	 long chunk_size, ...): sched is libgomp's gomp_schedule_type,
	 possibly with the monotonic bit (0x80000000) */
      tree sc = gimple_call_arg (best, 3);
      if (TREE_CODE (sc) != INTEGER_CST)
	return "";
      unsigned long v = TREE_INT_CST_LOW (sc) & 0x7fffffffUL;
      kind = v == 0 ? "runtime" : v == 1 ? "static" : v == 2 ? "dynamic"
	     : v == 3 ? "guided" : v == 4 ? "auto" : NULL;
      if (!kind)
	return "";
      return pp_fmt (" sched=(%s %s %s %s %s)", kind,
		     pp_trace (f, gimple_call_arg (best, 0)).c_str (),
		     pp_trace (f, gimple_call_arg (best, 1)).c_str (),
		     pp_trace (f, gimple_call_arg (best, 2)).c_str (),
		     pp_trace (f, gimple_call_arg (best, 4)).c_str ());
    }
  if (!kind || nargs < 6)
    return "";
  /* GOMP_loop_[nonmonotonic_|ordered_]{dynamic,guided}_start (long start,
     long end, long incr, long chunk_size, long *istart, long *iend) */
  return pp_fmt (" sched=(%s %s %s %s %s)", kind,
		 pp_trace (f, gimple_call_arg (best, 0)).c_str (),
		 pp_trace (f, gimple_call_arg (best, 1)).c_str (),
		 pp_trace (f, gimple_call_arg (best, 2)).c_str (),
		 pp_trace (f, gimple_call_arg (best, 3)).c_str ());
}

/* Flags from the calls in the loop's own blocks.  */
static std::string
loop_flags (pp_fn *f, class loop *loop, std::string &init_text)
{
  basic_block *body = get_loop_body (loop);
  bool cas = false, user_call = false, dispatch = false;
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (!is_gimple_call (s))
	  continue;
	if (gimple_call_internal_p (s))
	  {
	    if (gimple_call_internal_fn (s) == IFN_ATOMIC_COMPARE_EXCHANGE)
	      cas = true;
	    continue;
	  }
	tree fn = gimple_call_fndecl (s);
	if (!fn)
	  {
	    user_call = true;
	    continue;
	  }
	const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
	if (strncmp (n, "__atomic_compare_exchange", 25) == 0
	    || strncmp (n, "__sync_val_compare_and_swap", 27) == 0
	    || strncmp (n, "__sync_bool_compare_and_swap", 28) == 0)
	  cas = true;
	else if (strncmp (n, "GOMP_loop_", 10) == 0
		 && strcmp (n + strlen (n) - 5, "_next") == 0)
	  {
	    if (body[i]->loop_father == loop)
	      dispatch = true;
	  }
	else if (!fndecl_built_in_p (fn))
	  user_call = true;
      }
  free (body);
  std::string fl;
  if (cas && !user_call)
    fl += ",compiler";
  /* The chunk loop of a worksharing loop: in an outlined body, its
     iteration space comes from the static schedule (tid) or from the
     chunk a GOMP_loop_* call returned (.istart/.iend).  */
  if (f->omp_child && !dispatch
      && (init_text.find ("(tid)") != std::string::npos
	  || init_text.find ("(load)") != std::string::npos))
    fl += ",omp_chunk";
  if (dispatch)
    fl += ",omp_dispatch";
  if (fl.empty ())
    return fl;
  return " flags=" + fl.substr (1) + (dispatch ? dispatch_sched (f, loop) : "");
}

/* An induction variable whose step is reloaded in the loop but cannot
   change there (i += size, with size an MPI_Comm_size result in memory):
   scev does not see it (pp-mpi.cc, pp_load_invariant).  */
static bool
load_step_iv (class loop *loop, gphi *p, affine_iv *iv)
{
  tree res = gimple_phi_result (p);
  if (gimple_phi_num_args (p) != 2 || !INTEGRAL_TYPE_P (TREE_TYPE (res))
      || !loop_latch_edge (loop) || !loop_preheader_edge (loop))
    return false;
  tree next = PHI_ARG_DEF_FROM_EDGE (p, loop_latch_edge (loop));
  if (TREE_CODE (next) != SSA_NAME)
    return false;
  gimple *d = SSA_NAME_DEF_STMT (next);
  if (!is_gimple_assign (d) || gimple_assign_rhs_code (d) != PLUS_EXPR)
    return false;
  tree a = gimple_assign_rhs1 (d), b = gimple_assign_rhs2 (d);
  tree step = a == res ? b : b == res ? a : NULL_TREE;
  if (!step || TREE_CODE (step) != SSA_NAME)
    return false;
  gimple *sd = SSA_NAME_DEF_STMT (step);
  for (int convs = 0; convs < 2 && is_gimple_assign (sd)
		      && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (sd))
		      && TREE_CODE (gimple_assign_rhs1 (sd)) == SSA_NAME;
       convs++)
    sd = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (sd));
  basic_block db = gimple_bb (sd);
  if (!db || !flow_bb_inside_loop_p (loop, db))
    return false;    /* defined outside: simple_iv's case */
  if (!gimple_assign_single_p (sd) || !gimple_vuse (sd)
      || !pp_load_invariant (loop, sd))
    return false;
  iv->base = PHI_ARG_DEF_FROM_EDGE (p, loop_preheader_edge (loop));
  iv->step = step;
  iv->no_overflow = true;
  return true;
}

/* Body iterations of a top-tested affine loop from its iv and an
   invariant bound: the continue condition is (iv CMP bound).  A step
   that is not a constant (STEP_TEXT, from load_step_iv) is taken to have
   the sign the comparison needs; the analyser checks the count against
   the run.  */
static std::string
affine_count (const std::string &init, const std::string &bound, tree step,
	      enum tree_code cmp, const std::string &step_text = "")
{
  if (TREE_CODE (step) != INTEGER_CST && !step_text.empty ()
      && !pp_expr_unknown (step_text))
    {
      if (cmp == LT_EXPR)
	return "(max 0 (cdiv " + pp_binop ("-", bound, init) + " " + step_text
	       + "))";
      if (cmp == LE_EXPR)
	return "(max 0 " + pp_binop ("+", "(fdiv " + pp_binop ("-", bound, init)
					      + " " + step_text + ")", "1")
	       + ")";
      return "";
    }
  if (TREE_CODE (step) != INTEGER_CST || !tree_fits_shwi_p (step))
    return "";
  HOST_WIDE_INT s = tree_to_shwi (step);
  std::string d;
  if (s > 0 && (cmp == LT_EXPR || cmp == LE_EXPR))
    d = pp_binop ("-", bound, init);
  else if (s < 0 && (cmp == GT_EXPR || cmp == GE_EXPR))
    {
      d = pp_binop ("-", init, bound);
      s = -s;
    }
  else if (cmp == NE_EXPR && (s == 1 || s == -1))
    return s == 1 ? pp_binop ("-", bound, init) : pp_binop ("-", init, bound);
  else
    return "";
  if (cmp == LT_EXPR || cmp == GT_EXPR)
    {
      if (s != 1)
	d = pp_fmt ("(cdiv %s %ld)", d.c_str (), (long) s);
      return "(max 0 " + d + ")";
    }
  if (s != 1)
    d = pp_fmt ("(fdiv %s %ld)", d.c_str (), (long) s);
  return "(max 0 " + pp_binop ("+", d, "1") + ")";
}

/* Header executions per entry of a top-tested loop "iv CMP bound" with a
   constant step, as a tree valid on the preheader edge: the iterations
   max(0, ceil(n / |step|)) plus the final test, with n = bound - init
   (+1 for <=, >=).  The bound is OTHER when it is available there, else a
   reload of the invariant memory reference LOADREF converted to OTHER's
   type.  NULL when the loop does not have that form.  */
static tree
entry_header_count (class loop *loop, edge pre, affine_iv *iv, enum tree_code cmp, tree loadref,
		    tree other)
{
  if (!other || !tree_fits_shwi_p (iv->step) || !available_at (loop, pre, iv->base))
    return NULL_TREE;
  HOST_WIDE_INT st = tree_to_shwi (iv->step);
  bool up = cmp == LT_EXPR || cmp == LE_EXPR;
  bool down = cmp == GT_EXPR || cmp == GE_EXPR;
  if (st == 0 || (!up && !down) || (up && st < 0) || (down && st > 0))
    return NULL_TREE;
  tree bound;
  /* The reload on the preheader edge can only use names defined before
     the loop: a bound loaded through a pointer that is itself loaded in
     the loop (p->n, p a local whose address is taken) is counted in the
     header instead (an SSA use its definition does not dominate breaks
     the function: sqlite3.c's fts5Bm25Function, tests/plugin/progs/reload.c).  */
  if (loadref && !ssa_names_available_at (loop, pre, loadref))
    return NULL_TREE;
  if (loadref)
    bound = fold_convert (TREE_TYPE (other), unshare_expr (loadref));
  else if (available_at (loop, pre, other))
    bound = other;
  else
    return NULL_TREE;
  tree ll = long_long_integer_type_node;
  tree b = fold_convert (ll, bound), i = fold_convert (ll, unshare_expr (iv->base));
  tree n = up ? fold_build2 (MINUS_EXPR, ll, b, i) : fold_build2 (MINUS_EXPR, ll, i, b);
  if (cmp == LE_EXPR || cmp == GE_EXPR)
    n = fold_build2 (PLUS_EXPR, ll, n, build_int_cst (ll, 1));
  HOST_WIDE_INT as = st < 0 ? -st : st;
  tree it = n;
  if (as != 1)
    it = fold_build2 (TRUNC_DIV_EXPR, ll,
		      fold_build2 (PLUS_EXPR, ll, n, build_int_cst (ll, as - 1)),
		      build_int_cst (ll, as));
  it = fold_build2 (MAX_EXPR, ll, it, build_int_cst (ll, 0));
  return fold_build2 (PLUS_EXPR, ll, it, build_int_cst (ll, 1));
}

static void
describe_loop (pp_fn *f, class loop *loop, int parent)
{
  pp_loop_info li;
  li.loop = loop;
  li.id = (int) f->loops.size ();
  li.parent = parent;
  li.pos = pp_pos (f, loop->header);
  li.slot = -1;
  li.iv = NULL_TREE;
  li.hcount = NULL_TREE;
  li.act_h = li.act_e = -1;
  li.tslot = li.tscratch = -1;
  f->loop_id[loop->num] = li.id;
  f->loops.push_back (li);

  edge exit = single_exit (loop);
  const char *shape = !exit ? "multi" : exit->src == loop->header ? "top"
								  : "bottom";
  /* A one-block loop (do-while, OpenMP chunk loops) whose exit test ends
     the header: after simple-latch creation it is header + empty latch;
     its body runs at every header execution.  */
  if (exit && exit->src == loop->header && loop->num_nodes == 2
      && empty_block_p (loop->latch))
    shape = "bottom";
  /* A loop with several exits (a break or return inside a for): the exit
     test in the header, if there is one, still describes the induction
     variable and the count when no early exit is taken.  */
  edge iv_exit = exit;
  if (!exit)
    {
      auto_vec<edge> exits = get_loop_exit_edges (loop);
      for (unsigned i = 0; i < exits.length (); i++)
	if (exits[i]->src == loop->header)
	  iv_exit = exits[i];
    }
  /* Location: the exit test; else any exit test; else the header.  */
  int line = 0;
  gimple *cond = iv_exit ? last_stmt (iv_exit->src) : NULL;
  if (cond && gimple_code (cond) != GIMPLE_COND)
    cond = NULL;
  line = pp_stmt_line (cond);
  if (!line)
    {
      auto_vec<edge> exits = get_loop_exit_edges (loop);
      for (unsigned i = 0; !line && i < exits.length (); i++)
	line = pp_stmt_line (last_stmt (exits[i]->src));
    }
  basic_block *body = get_loop_body_in_dom_order (loop);
  for (unsigned i = 0; !line && i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]);
	 !line && !gsi_end_p (gsi); gsi_next (&gsi))
      if (!is_gimple_debug (gsi_stmt (gsi)))
	line = pp_stmt_line (gsi_stmt (gsi));
  free (body);

  edge pre = loop_preheader_edge (loop);
  if (!pre || (pre->flags & EDGE_ABNORMAL)
      || bb_has_abnormal_pred (loop->header))
    {
      f->loop_id.erase (loop->num);
      f->loops.pop_back ();
      pp_note (f, UNKNOWN_LOCATION, pp_fmt ("loop line %d", line).c_str (),
	       "no normal preheader edge");
      return;
    }
  int slot = f->nslots;
  f->nslots += 2;
  f->loops.back ().slot = slot;

  /* The primary induction variable: the one the exit test compares.  */
  tree off = NULL_TREE, other = NULL_TREE;
  gphi *ivphi = NULL;
  enum tree_code cmp = ERROR_MARK;
  affine_iv iv;
  if (cond)
    {
      tree ops[2] = { gimple_cond_lhs (cond), gimple_cond_rhs (cond) };
      for (int k = 0; k < 2 && !ivphi; k++)
	{
	  gphi *p = header_phi_of (loop, ops[k], &off);
	  if (p && !virtual_operand_p (gimple_phi_result (p))
	      && ((simple_iv (loop, loop, gimple_phi_result (p), &iv, true)
		   && !integer_zerop (iv.step))
		  || load_step_iv (loop, p, &iv)))
	    {
	      ivphi = p;
	      other = ops[1 - k];
	      cmp = gimple_cond_code (cond);
	      if (k == 1)
		cmp = swap_tree_comparison (cmp);
	      /* Continue condition: the exit is on the true edge?  */
	      if (iv_exit->flags & EDGE_TRUE_VALUE)
		cmp = invert_tree_comparison (cmp, false);
	    }
	}
    }
  if (ivphi)
    f->loops.back ().iv = gimple_phi_result (ivphi);
  else
    /* No iv in the exit test (e.g. the chunk counter of schedule(static,
       C)): the first affine integer header PHI names (iv L).  */
    for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
	 gsi_next (&pi))
      {
	tree r = gimple_phi_result (pi.phi ());
	affine_iv a;
	if (!virtual_operand_p (r) && INTEGRAL_TYPE_P (TREE_TYPE (r))
	    && simple_iv (loop, loop, r, &a, true) && !integer_zerop (a.step))
	  {
	    f->loops.back ().iv = r;
	    break;
	  }
      }

  std::string text = pp_fmt ("loop id=%d parent=", li.id);
  text += parent < 0 ? std::string ("-") : pp_fmt ("%d", parent);
  text += pp_fmt (" pos=%d line=%d slot=%d shape=%s", li.pos, line, slot,
		  shape);

  std::string init_text, bound_text;
  if (ivphi && pp_cmp_name (cmp))
    {
      tree var = SSA_NAME_VAR (gimple_phi_result (ivphi));
      init_text = pp_trace (f, iv.base);
      bound_text = pp_trace (f, other);
      /* iv= init= bound= cmp= describe "the iteration with value iv runs
	 when (iv CMP bound)"; the test may be on iv + off.  */
      HOST_WIDE_INT adj = 0;
      if (off && tree_fits_shwi_p (off))
	adj = tree_to_shwi (off);
      if (strcmp (shape, "bottom") == 0 && tree_fits_shwi_p (iv.step))
	adj -= tree_to_shwi (iv.step);
      if (adj && !(off && !tree_fits_shwi_p (off)))
	bound_text = pp_binop ("-", bound_text, pp_fmt ("%ld", (long) adj));
      text += " iv=" + std::string (pp_is_user_var (var) ? pp_decl_name (var)
							 : "-");
      text += " init=" + init_text + " bound=" + bound_text + " step="
	      + pp_trace (f, iv.step) + " cmp=" + pp_cmp_name (cmp);
    }

  /* The count.  */
  std::string count, why, assume;
  bool counted_at_entry = false;
  if (exit)
    {
      tree_niter_desc desc;
      if (number_of_iterations_exit_assumptions (loop, exit, &desc, NULL)
	  && desc.niter && !chrec_contains_undetermined (desc.niter))
	{
	  tree type = TREE_TYPE (desc.niter);
	  tree latch = desc.niter;
	  if (desc.may_be_zero && !integer_zerop (desc.may_be_zero))
	    latch = fold_build3 (COND_EXPR, type, desc.may_be_zero,
				 build_int_cst (type, 0), latch);
	  std::string lt = pp_trace (f, latch);
	  count = strcmp (shape, "top") == 0 ? lt : pp_binop ("+", lt, "1");
	  if (desc.assumptions && !integer_nonzerop (desc.assumptions))
	    assume = pp_trace (f, desc.assumptions);
	  else if (available_at (loop, pre, latch))
	    {
	      tree h = fold_build2 (PLUS_EXPR, long_long_unsigned_type_node,
				    fold_convert (long_long_unsigned_type_node,
						  unshare_expr (latch)),
				    build_int_cst (long_long_unsigned_type_node,
						   1));
	      f->loops.back ().hcount = h;
	      f->loops.back ().act_h = (int) f->acts.size ();
	      pp_add_edge (f, pre, slot, h);
	      f->loops.back ().act_e = (int) f->acts.size ();
	      pp_add_edge (f, pre, slot + 1, NULL_TREE);
	      counted_at_entry = true;
	    }
	}
      else if (ivphi && strcmp (shape, "top") == 0 && !off
	       && TREE_CODE (other) == SSA_NAME)
	{
	  /* Bound loaded in the loop (not hoisted yet at this point):
	     invariant when nothing in the loop may clobber it.  The exit
	     test may compare with a conversion of the load ((long) N).  */
	  gimple *d = SSA_NAME_DEF_STMT (other);
	  int convs = 0;
	  while (d && is_gimple_assign (d)
		 && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))
		 && TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME
		 && INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (d)))
		 && convs < 2)
	    {
	      d = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (d));
	      convs++;
	    }
	  basic_block db = d ? gimple_bb (d) : NULL;
	  bool inv = !db || !flow_bb_inside_loop_p (loop, db);
	  bool in_loop_expr = false;
	  tree loadref = NULL_TREE;
	  if (!inv && gimple_assign_single_p (d) && gimple_vuse (d))
	    {
	      inv = pp_load_invariant (loop, d);
	      if (inv)
		loadref = gimple_assign_rhs1 (d);
	      /* A field of the thread's argument (j->last): at -O0 any
		 store in the loop may clobber it, but a program that
		 changes its own range while it runs it is rare, and the
		 analyser checks the count against the run.  Counted in
		 the header.  */
	      else if (bound_text.compare (0, 8, "(shared ") == 0
		       && pp_is_thread_start (f->fndecl))
		{
		  inv = true;
		  in_loop_expr = true;
		}
	      else
		why = "bound-in-memory";
	    }
	  /* An expression of such loads (k < n - 1, n reloaded): the
	     count is known, the loop is counted in its header.  */
	  else if (!inv && value_invariant (loop, other, 0))
	    {
	      inv = true;
	      in_loop_expr = true;
	    }
	  if (inv)
	    count = affine_count (init_text, bound_text, iv.step, cmp,
				  TREE_CODE (iv.step) == INTEGER_CST
				    ? std::string ()
				    : pp_trace (f, iv.step));
	  /* Count at entry, as for a known niter: the bound reloaded on the
	     preheader edge (a loop with a global bound would otherwise pay a
	     counter increment per iteration).  */
	  tree h = inv && !in_loop_expr
		   ? entry_header_count (loop, pre, &iv, cmp, loadref,
					 convs <= 1 ? other : NULL_TREE)
		   : NULL_TREE;
	  if (h)
	    {
	      f->loops.back ().hcount = h;
	      f->loops.back ().act_h = (int) f->acts.size ();
	      pp_add_edge (f, pre, slot, h);
	      f->loops.back ().act_e = (int) f->acts.size ();
	      pp_add_edge (f, pre, slot + 1, NULL_TREE);
	      counted_at_entry = true;
	    }
	  if (count.empty () && why.empty ())
	    why = "not-affine";
	}
      else
	why = ivphi ? "not-affine" : "data-dependent";
    }
  else if (iv_exit)
    {
      /* The count if the header's exit is the one taken; the analyser
	 checks it against the run.  Counted per header execution.  */
      tree_niter_desc desc;
      if (number_of_iterations_exit_assumptions (loop, iv_exit, &desc, NULL)
	  && desc.niter && !chrec_contains_undetermined (desc.niter)
	  && (!desc.assumptions || integer_nonzerop (desc.assumptions)))
	{
	  tree type = TREE_TYPE (desc.niter);
	  tree latch = desc.niter;
	  if (desc.may_be_zero && !integer_zerop (desc.may_be_zero))
	    latch = fold_build3 (COND_EXPR, type, desc.may_be_zero,
				 build_int_cst (type, 0), latch);
	  count = pp_trace (f, latch);
	}
      else if (ivphi && !init_text.empty ())
	count = affine_count (init_text, bound_text, iv.step, cmp);
      why = "early-exit";
    }
  else
    why = "multi-exit";

  if (!count.empty () && pp_expr_unknown (count))
    {
      count.clear ();
      why = "not-symbolic";
    }
  if (count.empty ())
    text += " count=?";
  else
    text += " count=" + count;
  if (!why.empty ())
    text += " why=" + why;
  if (!assume.empty ())
    text += " assume=" + assume;
  text += loop_flags (f, loop, init_text);
  text += " ops=" + pp_ops_text (f, loop);
  text += pp_streams_text (f, loop);
  /* Entered only on one edge of a branch of the enclosing loop (if
     (k % size == rank) for (...)).  */
  text += pp_guard_text (f, pre->src);
  f->body += text + "\n";

  if (!counted_at_entry)
    {
      pp_add_head (f, loop->header, slot);
      f->loops.back ().act_e = (int) f->acts.size ();
      pp_add_edge (f, pre, slot + 1, NULL_TREE);
    }
}

static void
walk (pp_fn *f, class loop *loop, int parent)
{
  /* Children in RPO order of their headers.  */
  std::vector<std::pair<int, class loop *> > kids;
  for (class loop *l = loop->inner; l; l = l->next)
    kids.push_back (std::make_pair (pp_pos (f, l->header), l));
  std::sort (kids.begin (), kids.end (),
	     [] (const std::pair<int, class loop *> &a,
		 const std::pair<int, class loop *> &b)
	     { return a.first < b.first; });
  for (size_t i = 0; i < kids.size (); i++)
    {
      class loop *l = kids[i].second;
      describe_loop (f, l, parent);
      std::map<int, int>::iterator it = f->loop_id.find (l->num);
      walk (f, l, it == f->loop_id.end () ? parent : it->second);
    }
}

void
pp_do_loops (pp_fn *f)
{
  walk (f, f->fun->x_current_loops->tree_root, -1);
  pp_hoist_loop_counters (f);
}
