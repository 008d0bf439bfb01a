/* perfpred: the memory streams of a loop's own statements (the input of
 * the analyser's memory model, docs/model.md "memory").
 *
 * A stream is a memory reference whose address advances by the same
 * number of bytes every iteration of the loop (scev: a polynomial chrec of
 * the loop with a step invariant in it).  References with the same base
 * object, the same step and the same reuse are one stream: the five
 * neighbours of a stencil point, or a[i] read and written, move through
 * the same cache lines.  The reuse says whether the stream's start is
 * invariant in the enclosing loop: then every iteration of the enclosing
 * loop walks the same bytes again (a row reused, served by a near cache);
 * otherwise the stream only comes back when the whole data set has been
 * walked.  A merged stream's references whose starts differ by more than
 * a constant under ROW_BYTES (u[i-1][j], u[i][j] and u[i+1][j]: a row
 * apart) are its rows: they walk other cache lines, which the stream
 * reads again an entry or two later (memr=, the analyser decides whether
 * they come back from the L1).
 * References whose address does not move (a[k]) are not streams;
 * of those scev cannot follow, an address that comes from a value loaded in
 * the loop is a gather (a[idx[i]]) or, when the load feeds the next
 * iteration's address, a chase (p = p->next: one per chased pointer, the
 * other loads at its address are gathers); the rest are unknown.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"
#include "tree-affine.h"

/* At most this many rows are told apart per stream, and references whose
 * starts differ by a constant under ROW_BYTES, a cache line, are in one
 * row (a[i][j-1] and a[i][j+1], the fields of a small structure).  A
 * line, not a larger bound: a stencil's rows N * 8 bytes apart for a
 * compile-time N must be rows at every N a build may give (N = 100 and
 * N = 150 of one program, 72-macro-sizes.t). */
#define MAX_ROWS 8
#define ROW_BYTES 64

struct pp_stream
{
  tree base;
  HOST_WIDE_INT step;   /* 0 with symbolic: not a constant */
  int symbolic;
  int reuse;
  int written;
  tree start;           /* the address (or offset) at the loop's entry, or NULL */
  int rows;             /* distinct rows merged (0: not yet counted) */
  tree row[MAX_ROWS];
};

/* The object an address starts from: the pointer a chain of
 * POINTER_PLUS_EXPRs (through SSA definitions) starts at, the global a
 * pointer was loaded from, or the declaration of an ADDR_EXPR. */
static tree
base_object (tree t)
{
  for (int guard = 0; t && guard < 64; guard++)
    {
      STRIP_NOPS (t);
      if (TREE_CODE (t) == POINTER_PLUS_EXPR || TREE_CODE (t) == PLUS_EXPR)
	t = TREE_OPERAND (t, 0);
      else if (TREE_CODE (t) == ADDR_EXPR)
	return get_base_address (TREE_OPERAND (t, 0));
      else if (TREE_CODE (t) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (t)
	       && is_gimple_assign (SSA_NAME_DEF_STMT (t)))
	{
	  gimple *d = SSA_NAME_DEF_STMT (t);
	  enum tree_code c = gimple_assign_rhs_code (d);
	  if (c == POINTER_PLUS_EXPR || CONVERT_EXPR_CODE_P (c) || c == SSA_NAME)
	    t = gimple_assign_rhs1 (d);
	  else if (gimple_assign_single_p (d) && DECL_P (gimple_assign_rhs1 (d)))
	    return gimple_assign_rhs1 (d);   /* p = global_p */
	  else
	    return t;
	}
      else
	return t;
    }
  return t;
}

/* A stream's step from the chrec EV of its address in LOOP: 1 with
 * out->step set, 0 when the address does not move, -1 when unknown. */
static int
step_of (class loop *loop, tree ev, pp_stream *out)
{
  if (!ev || ev == chrec_dont_know || chrec_contains_undetermined (ev))
    return -1;
  if (TREE_CODE (ev) != POLYNOMIAL_CHREC || CHREC_VARIABLE (ev) != (unsigned) loop->num)
    return evolution_function_is_invariant_p (ev, loop->num) ? 0 : -1;
  tree step = CHREC_RIGHT (ev);
  if (TREE_CODE (step) != INTEGER_CST || !tree_fits_shwi_p (step))
    {
      /* a step in the program's variables (a column walk, N * 8 bytes):
	 written as '?', the analyser decides what it costs */
      if (evolution_function_is_invariant_p (step, loop->num)
	  && !chrec_contains_undetermined (step))
	{
	  out->step = 0;
	  out->symbolic = 1;
	  return 1;
	}
      return -1;
    }
  out->step = tree_to_shwi (step);
  return out->step != 0;
}

/* T in LOOP as INV + STEP x (the loop's induction variable), INV the same
 * at every iteration, loads included that nothing in the loop may change
 * (a[i * N + j] with N a global reloaded in the loop: scev does not see
 * through the load).  1 with *step set, 0 when T does not move, -1 when it
 * is not of that form.  *fixed is cleared when INV or the variable's start
 * moves with PARENT (the enclosing loop; NULL: not asked). */
static int
affine_off (class loop *loop, class loop *parent, tree t, HOST_WIDE_INT *step, bool *fixed, int depth)
{
  *step = 0;
  if (depth > 12)
    return -1;
  if (CONSTANT_CLASS_P (t))
    return 0;
  if (TREE_CODE (t) != SSA_NAME)
    return -1;
  if (pp_value_invariant (loop, t))
    {
      if (parent && !pp_value_invariant (parent, t))
	*fixed = false;
      return 0;
    }
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (gimple_code (d) == GIMPLE_PHI)
    {
      if (gimple_bb (d) != loop->header || !loop_preheader_edge (loop))
	return -1;
      tree ev = analyze_scalar_evolution (loop, t);
      ev = instantiate_scev (loop_preheader_edge (loop), loop, ev);
      if (!ev || TREE_CODE (ev) != POLYNOMIAL_CHREC || CHREC_VARIABLE (ev) != (unsigned) loop->num
	  || TREE_CODE (CHREC_RIGHT (ev)) != INTEGER_CST || !tree_fits_shwi_p (CHREC_RIGHT (ev)))
	return -1;
      *step = tree_to_shwi (CHREC_RIGHT (ev));
      tree init = PHI_ARG_DEF_FROM_EDGE (d, loop_preheader_edge (loop));
      if (parent && !CONSTANT_CLASS_P (init) && !pp_value_invariant (parent, init))
	*fixed = false;
      return *step != 0;
    }
  if (!is_gimple_assign (d))
    return -1;
  enum tree_code c = gimple_assign_rhs_code (d);
  HOST_WIDE_INT s1, s2;
  if (CONVERT_EXPR_CODE_P (c) || c == SSA_NAME)
    return affine_off (loop, parent, gimple_assign_rhs1 (d), step, fixed, depth + 1);
  if (c == PLUS_EXPR || c == POINTER_PLUS_EXPR || c == MINUS_EXPR)
    {
      int a = affine_off (loop, parent, gimple_assign_rhs1 (d), &s1, fixed, depth + 1);
      int b = a < 0 ? -1 : affine_off (loop, parent, gimple_assign_rhs2 (d), &s2, fixed, depth + 1);
      if (b < 0)
	return -1;
      *step = c == MINUS_EXPR ? s1 - s2 : s1 + s2;
      return *step != 0;
    }
  if (c == MULT_EXPR)
    {
      tree x = gimple_assign_rhs1 (d), y = gimple_assign_rhs2 (d);
      if (TREE_CODE (x) == INTEGER_CST)
	std::swap (x, y);
      if (TREE_CODE (y) != INTEGER_CST || !tree_fits_shwi_p (y))
	return -1;   /* a step in the variables: not followed here */
      if (affine_off (loop, parent, x, &s1, fixed, depth + 1) < 0)
	return -1;
      *step = s1 * tree_to_shwi (y);
      return *step != 0;
    }
  return -1;
}

/* The offset OFF of a stream starts at the same value at every entry of
 * LOOP (j = 0 in for (j = 0; ...)): its scev's start is a constant. */
static bool
off_starts_fixed (class loop *loop, tree off)
{
  tree ev = analyze_scalar_evolution (loop, off);
  ev = instantiate_scev (loop_preheader_edge (loop), loop, ev);
  return ev && TREE_CODE (ev) == POLYNOMIAL_CHREC && CONSTANT_CLASS_P (CHREC_LEFT (ev));
}

/* scev does not see through a pointer loaded inside the loop (p = ga;
 * *(p + off)), which is how a global array pointer, a structure's field
 * (g->data) or an OpenMP region's shared pointer (.omp_data_i->cur) looks
 * before the loads are hoisted, nor through a row pointer loaded from
 * memory (p = a[i]; the rows of a double **).  When nothing in the loop may store to
 * what the load reads, p is invariant and the stream's step is off's.  A
 * row pointer whose address is also invariant in the enclosing loop (c[i]
 * in a loop over k) is a row that loop walks again: reused. */
static int
via_invariant_load (class loop *loop, tree addr, pp_stream *out)
{
  if (TREE_CODE (addr) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (addr))
    return -1;
  gimple *d = SSA_NAME_DEF_STMT (addr);
  if (!is_gimple_assign (d) || gimple_assign_rhs_code (d) != POINTER_PLUS_EXPR)
    return -1;
  tree p = gimple_assign_rhs1 (d), off = gimple_assign_rhs2 (d);
  if (TREE_CODE (p) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (p))
    return -1;
  gimple *pd = SSA_NAME_DEF_STMT (p);
  tree src = gimple_assign_single_p (pd) ? gimple_assign_rhs1 (pd) : NULL_TREE;
  bool row = src && TREE_CODE (src) == MEM_REF
	     && TREE_CODE (TREE_OPERAND (src, 0)) == SSA_NAME
	     && integer_zerop (TREE_OPERAND (src, 1));
  if (!src || !gimple_vuse (pd) || gimple_vdef (pd) || gimple_bb (pd)->loop_father != loop)
    return -1;
  /* a row pointer: its address computed the same every iteration (c + i,
     c itself reloaded) and nothing in the loop storing to the row table;
     any other pointer (a global, a structure's field: g->data, or the
     shared variables of an OpenMP region, .omp_data_i->cur): the load's
     own test, its address the same every iteration and nothing in the
     loop storing there */
  if (row ? !pp_value_invariant (loop, TREE_OPERAND (src, 0)) || !pp_ref_unclobbered (loop, src)
	  : !pp_load_invariant (loop, pd))
    return -1;
  class loop *parent = loop_outer (loop);
  if (parent && loop_depth (parent) == 0)
    parent = NULL;
  tree ev = analyze_scalar_evolution (loop, off);
  ev = instantiate_scev (loop_preheader_edge (loop), loop, ev);
  int r = step_of (loop, ev, out);
  bool fixed = true;
  if (r < 0)
    {
      /* an offset in values loaded in the loop (i * N + j, N global) */
      HOST_WIDE_INT st;
      r = affine_off (loop, parent, off, &st, &fixed, 0);
      if (r > 0)
	{
	  out->step = st;
	  out->symbolic = 0;
	}
    }
  else if (r > 0)
    {
      fixed = off_starts_fixed (loop, off);
      if (TREE_CODE (ev) == POLYNOMIAL_CHREC)
	out->start = CHREC_LEFT (ev);   /* the offset's start: rows tell apart by it */
    }
  if (r <= 0)
    return r;
  /* reused: the stream starts at the same place at every iteration of the
     enclosing loop (its base pointer and its offset's start do not move) */
  tree basev = row ? TREE_OPERAND (src, 0) : p;
  out->reuse = parent && fixed && pp_value_invariant (parent, basev);
  out->base = src;
  return 1;
}

/* Analyse one reference of LOOP's own statements.  Returns 1 for a
 * stream (filled in), 0 for an address that does not move, -1 when scev
 * cannot say. */
static int
analyse_ref (class loop *loop, tree ref, pp_stream *out)
{
  tree addr = NULL_TREE;
  if (DECL_P (ref))
    return 0;   /* a scalar variable: the same address every time */
  if (TREE_CODE (ref) == MEM_REF || TREE_CODE (ref) == TARGET_MEM_REF)
    addr = TREE_OPERAND (ref, 0);
  if (!addr || TREE_CODE (addr) != SSA_NAME)
    {
      /* a declared array (a[i][j]): its address as an expression */
      if (!handled_component_p (ref))
	return -1;
      tree b = get_base_address (ref);
      if (!b || !DECL_P (b))
	return -1;
      addr = build_fold_addr_expr (ref);
    }
  /* instantiated only above this loop: what is defined outside it stays a
     symbol (a row pointer loaded from a global in the enclosing loop) */
  tree ev = analyze_scalar_evolution (loop, addr);
  ev = instantiate_scev (loop_preheader_edge (loop), loop, ev);
  int r = step_of (loop, ev, out);
  if (r < 0)
    return via_invariant_load (loop, addr, out);
  if (r == 0)
    return 0;
  tree start = CHREC_LEFT (ev);
  out->start = start;
  class loop *parent = loop_outer (loop);
  out->reuse = 0;
  if (parent && loop_depth (parent) > 0)
    {
      /* the start as the enclosing loop sees it; unknown counts as moving */
      tree sp = analyze_scalar_evolution (parent, start);
      sp = instantiate_scev (loop_preheader_edge (parent), parent, sp);
      out->reuse = sp && sp != chrec_dont_know && !chrec_contains_undetermined (sp)
		   && evolution_function_is_invariant_p (sp, parent->num);
    }
  out->base = base_object (initial_condition (start));
  return 1;
}

/* What an address scev cannot follow depends on, inside LOOP: 2 when it
 * goes through a header phi of LOOP whose value from the latch comes from
 * a load (a chase: p = p->next, each address waiting for the previous
 * load), 1 when it comes from a value loaded in the loop that is not such
 * a phi (a gather: a[idx[i]], the loads independent of each other), 0
 * otherwise (an offset computed by a division, say).  Values invariant in
 * LOOP do not count (a global reloaded). */
static int
indirection (class loop *loop, tree t, int depth, bool in_phi, tree *phi)
{
  if (depth > 12 || TREE_CODE (t) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (t)
      || pp_value_invariant (loop, t))
    return 0;
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (!gimple_bb (d) || !flow_bb_inside_loop_p (loop, gimple_bb (d)))
    return 0;
  if (gimple_code (d) == GIMPLE_PHI)
    {
      if (gimple_bb (d) != loop->header)
	{
	  /* a join in the body (a[c ? 0 : idx[i]]): any of its values */
	  int best = 0;
	  for (unsigned i = 0; i < gimple_phi_num_args (d); i++)
	    best = MAX (best, indirection (loop, gimple_phi_arg_def (d, i), depth + 1, in_phi, phi));
	  return best;
	}
      if (in_phi || !loop_latch_edge (loop))
	return 0;
      /* the value the next iteration starts from */
      tree next = PHI_ARG_DEF_FROM_EDGE (d, loop_latch_edge (loop));
      if (!indirection (loop, next, depth + 1, true, phi))
	return 0;
      *phi = t;
      return 2;
    }
  if (!is_gimple_assign (d))
    return 0;
  if (gimple_assign_single_p (d) && gimple_vuse (d) && !gimple_vdef (d)
      && !is_gimple_min_invariant (gimple_assign_rhs1 (d))
      && TREE_CODE (gimple_assign_rhs1 (d)) != SSA_NAME)
    {
      /* loaded here: from a place that moves (idx[i], p->next), or the
	 same place every iteration (a global N the loop's stores may
	 alias, reloaded: the address is affine in fact, not a gather) */
      pp_stream tmp = { NULL_TREE, 0, 0, 0, 0, NULL_TREE, 0, {} };
      return analyse_ref (loop, gimple_assign_rhs1 (d), &tmp) == 0 ? 0 : 1;
    }
  int best = 0;
  for (unsigned i = 1; i < gimple_num_ops (d); i++)
    {
      tree op = gimple_op (d, i);
      if (op && TREE_CODE (op) == SSA_NAME)
	{
	  int r = indirection (loop, op, depth + 1, in_phi, phi);
	  if (r > best)
	    best = r;
	}
    }
  return best;
}

/* The address REF is reached through, as indirection () reads it; *PHI
 * gets the chased header phi when it is a chase. */
static int
ref_indirection (class loop *loop, tree ref, tree *phi)
{
  if (TREE_CODE (ref) == MEM_REF || TREE_CODE (ref) == TARGET_MEM_REF)
    {
      int r = indirection (loop, TREE_OPERAND (ref, 0), 0, false, phi);
      if (TREE_CODE (ref) == TARGET_MEM_REF && TMR_INDEX (ref))
	r = MAX (r, indirection (loop, TMR_INDEX (ref), 0, false, phi));
      return r;
    }
  /* an array indexed by a loaded value (a[idx[i]]), or a field of what a
     pointer points to (p->v) */
  int r = 0;
  tree t = ref;
  for (; handled_component_p (t); t = TREE_OPERAND (t, 0))
    if (TREE_CODE (t) == ARRAY_REF)
      r = MAX (r, indirection (loop, TREE_OPERAND (t, 1), 0, false, phi));
  if (TREE_CODE (t) == MEM_REF || TREE_CODE (t) == TARGET_MEM_REF)
    r = MAX (r, ref_indirection (loop, t, phi));
  return r;
}

/* PTR, through pointer arithmetic and conversions, is the value of an
   allocation of a size fixed at compile time (malloc (C), calloc (C1,
   C2), aligned_alloc (A, C)): a table, whose working set does not grow
   with the problem any more than a static array's.  Only where the
   pointer is an SSA name the call defines (not one stored to memory and
   reloaded: a structure's field, a global).  */
static bool
const_alloc (tree ptr)
{
  for (int depth = 0; ptr && TREE_CODE (ptr) == SSA_NAME && depth < 8; depth++)
    {
      gimple *d = SSA_NAME_DEF_STMT (ptr);
      if (is_gimple_assign (d))
	{
	  enum tree_code c = gimple_assign_rhs_code (d);
	  if (c != POINTER_PLUS_EXPR && c != SSA_NAME && !CONVERT_EXPR_CODE_P (c))
	    return false;
	  ptr = gimple_assign_rhs1 (d);
	  continue;
	}
      if (!is_gimple_call (d))
	return false;
      tree fn = gimple_call_fndecl (d);
      if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
	return false;
      switch (DECL_FUNCTION_CODE (fn))
	{
	case BUILT_IN_MALLOC:
	  return gimple_call_num_args (d) == 1
		 && TREE_CODE (gimple_call_arg (d, 0)) == INTEGER_CST;
	case BUILT_IN_CALLOC:
	  return gimple_call_num_args (d) == 2
		 && TREE_CODE (gimple_call_arg (d, 0)) == INTEGER_CST
		 && TREE_CODE (gimple_call_arg (d, 1)) == INTEGER_CST;
	case BUILT_IN_ALIGNED_ALLOC:
	  return gimple_call_num_args (d) == 2
		 && TREE_CODE (gimple_call_arg (d, 1)) == INTEGER_CST;
	default:
	  return false;
	}
    }
  return false;
}

/* REF is in a declared array of a size fixed at compile time (a lookup
 * table: static double t[256]) or in an allocation of such a size
 * (const_alloc): what a gather into it costs does not change with the
 * problem's size. */
static bool
fixed_size_object (tree ref)
{
  tree b = get_base_address (ref);
  if (b && TREE_CODE (b) == MEM_REF)
    return const_alloc (TREE_OPERAND (b, 0));
  if (!b || !VAR_P (b))
    return false;
  tree ty = TREE_TYPE (b);
  return TREE_CODE (ty) == ARRAY_TYPE && TYPE_SIZE_UNIT (ty)
	 && TREE_CODE (TYPE_SIZE_UNIT (ty)) == INTEGER_CST;
}

/* T without its conversions between integer (or pointer) types of one
 * precision, which do not change the bits of an address. */
static tree
strip_same_precision (tree t)
{
  while (t && CONVERT_EXPR_P (t)
	 && (INTEGRAL_TYPE_P (TREE_TYPE (t)) || POINTER_TYPE_P (TREE_TYPE (t)))
	 && (INTEGRAL_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0)))
	     || POINTER_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0))))
	 && TYPE_PRECISION (TREE_TYPE (t)) == TYPE_PRECISION (TREE_TYPE (TREE_OPERAND (t, 0))))
    t = TREE_OPERAND (t, 0);
  return t;
}

/* A and B compute the same address, conversions of one precision aside:
 * (unsigned long) N * (unsigned long) k + (unsigned long) i and
 * (unsigned long) (N * k + i), which the affine combinations keep apart
 * (a product of two variables is one of their elements, whole). */
static bool
same_value (tree a, tree b, int depth)
{
  a = strip_same_precision (a);
  b = strip_same_precision (b);
  if (!a || !b || depth > 16)
    return false;
  if (TREE_CODE (a) == INTEGER_CST && TREE_CODE (b) == INTEGER_CST)
    return wi::to_widest (a) == wi::to_widest (b)
	   || (TYPE_PRECISION (TREE_TYPE (a)) == TYPE_PRECISION (TREE_TYPE (b))
	       && wi::to_wide (a) == wi::to_wide (b));
  if (TREE_CODE (a) != TREE_CODE (b))
    return false;
  if (TREE_CODE (a) == SSA_NAME || DECL_P (a))
    return a == b;
  if (!EXPR_P (a) || TREE_OPERAND_LENGTH (a) != TREE_OPERAND_LENGTH (b))
    return operand_equal_p (a, b, 0);
  int n = TREE_OPERAND_LENGTH (a);
  bool same = true;
  for (int i = 0; same && i < n; i++)
    same = same_value (TREE_OPERAND (a, i), TREE_OPERAND (b, i), depth + 1);
  if (!same && n == 2 && commutative_tree_code (TREE_CODE (a)))
    same = same_value (TREE_OPERAND (a, 0), TREE_OPERAND (b, 1), depth + 1)
	   && same_value (TREE_OPERAND (a, 1), TREE_OPERAND (b, 0), depth + 1);
  return same;
}

/* Whether two references of one stream starting at A and B walk the same
 * row: their starts differ by a constant under ROW_BYTES (SSA names
 * expanded through their affine definitions: up = u + (i - 1) * n and
 * dn = u + (i + 1) * n differ by 2 n, a[i][j - 1] and a[i][j + 1] by 16
 * bytes).  Unknown starts count as the same row. */
static bool
same_row (tree a, tree b, hash_map<tree, name_expansion *> **cache)
{
  if (!a || !b || operand_equal_p (a, b, 0))
    return true;
  if (!INTEGRAL_TYPE_P (TREE_TYPE (a)) && !POINTER_TYPE_P (TREE_TYPE (a)))
    return true;
  if (!INTEGRAL_TYPE_P (TREE_TYPE (b)) && !POINTER_TYPE_P (TREE_TYPE (b)))
    return true;
  aff_tree x, y;
  tree_to_aff_combination_expand (fold_convert (sizetype, a), sizetype, &x, cache);
  tree_to_aff_combination_expand (fold_convert (sizetype, b), sizetype, &y, cache);
  aff_combination_scale (&y, -1);
  aff_combination_add (&x, &y);
  if (x.n != 0 || x.rest || !x.offset.is_constant ())
    return same_value (a, b, 0);
  widest_int d = wi::abs (x.offset.to_constant ());
  return wi::ltu_p (d, ROW_BYTES);
}

/* Count ST's start as a row of stream V when no row of V has it. */
static void
add_row (pp_stream *v, const pp_stream *st, hash_map<tree, name_expansion *> **cache)
{
  for (int r = 0; r < v->rows; r++)
    if (same_row (v->row[r], st->start, cache))
      return;
  if (v->rows < MAX_ROWS)
    v->row[v->rows++] = st->start;
}

std::string
pp_streams_text (pp_fn *f, class loop *loop)
{
  hash_map<tree, name_expansion *> *cache = NULL;
  auto_vec<pp_stream> v;
  int unknown = 0, gathers = 0, chases = 0;
  auto_vec<tree> chased;
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    {
      if (bb->loop_father != loop)
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (!is_gimple_assign (s) || !gimple_assign_single_p (s))
	    continue;
	  bool store = gimple_vdef (s) != NULL_TREE;
	  bool load = gimple_vuse (s) && !store
		      && !is_gimple_min_invariant (gimple_assign_rhs1 (s))
		      && TREE_CODE (gimple_assign_rhs1 (s)) != SSA_NAME;
	  if (!store && !load)
	    continue;
	  tree ref = store ? gimple_assign_lhs (s) : gimple_assign_rhs1 (s);
	  pp_stream st = { NULL_TREE, 0, 0, 0, store, NULL_TREE, 0, {} };
	  int r = analyse_ref (loop, ref, &st);
	  /* a load from a place the loop does not store to, at an address
	     that does not move (.omp_data_i->cur, g->n): the same bytes
	     every iteration, not a reference the streams miss */
	  if (r < 0 && load && pp_load_invariant (loop, s))
	    r = 0;
	  if (r < 0)
	    {
	      /* one chase per chased pointer (p = p->next): the other loads
		 at the same step (p->v, x[j] and y[j] with j = next[j])
		 wait for it too but not for each other: gathers */
	      tree phi = NULL_TREE;
	      int k = ref_indirection (loop, ref, &phi);
	      if (k >= 1 && fixed_size_object (ref))
		continue;   /* a table: its working set does not grow */
	      if (k == 2 && phi && !chased.contains (phi))
		{
		  chased.safe_push (phi);
		  chases++;
		}
	      else if (k >= 1)
		gathers++;
	      else
		unknown++;
	    }
	  if (r <= 0)
	    continue;
	  bool merged = false;
	  for (unsigned i = 0; i < v.length (); i++)
	    if (v[i].step == st.step && v[i].symbolic == st.symbolic
		&& v[i].reuse == st.reuse && v[i].base && st.base
		&& operand_equal_p (v[i].base, st.base, 0))
	      {
		v[i].written |= st.written;
		add_row (&v[i], &st, &cache);
		merged = true;
		break;
	      }
	  if (!merged)
	    {
	      st.rows = 1;
	      st.row[0] = st.start;
	      v.safe_push (st);
	    }
	}
    }
  free_affine_expand_cache (&cache);
  std::string t = " mem=(";
  for (unsigned i = 0; i < v.length (); i++)
    {
      if (i)
	t += " ";
      t += v[i].symbolic ? std::string ("?") : pp_fmt ("%ld", (long) v[i].step);
      t += pp_fmt (" %d %d", v[i].reuse, v[i].written);
    }
  t += ")";
  bool rows = false;
  for (unsigned i = 0; i < v.length (); i++)
    rows |= v[i].rows > 1;
  if (rows)
    {
      t += " memr=(";
      for (unsigned i = 0; i < v.length (); i++)
	t += pp_fmt (i ? " %d" : "%d", v[i].rows);
      t += ")";
    }
  if (unknown)
    t += pp_fmt (" memx=%d", unknown);
  if (gathers)
    t += pp_fmt (" memg=%d", gathers);
  if (chases)
    t += pp_fmt (" memc=%d", chases);
  return t;
}
