/* perfpred: trace an SSA value (or a GENERIC expression over SSA names, as
 * niter analysis returns) back to an s-expression over symbols:
 * (arg N) (var N) (global N) (shared N) (iv L) (nthreads) (tid) (call N)
 * (load) and the operators of docs/descriptor-format.md.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* Recursion and size limits: PHIs in OpenMP code otherwise expand into
   very large expressions.  */
#define PP_MAX_DEPTH 14
#define PP_MAX_LEN 1500

const char *
pp_decl_name (tree decl)
{
  if (!decl || !DECL_P (decl) || !DECL_NAME (decl))
    return NULL;
  return IDENTIFIER_POINTER (DECL_NAME (decl));
}

/* A user variable: named, not compiler-generated.  */
bool
pp_is_user_var (tree var)
{
  if (!var || !(TREE_CODE (var) == VAR_DECL || TREE_CODE (var) == PARM_DECL))
    return false;
  if (DECL_ARTIFICIAL (var) || !DECL_NAME (var))
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_NAME (var));
  return n[0] != '.' && strncmp (n, "__pp", 4) != 0;
}

bool
pp_is_omp_data_i (tree t)
{
  if (!t || TREE_CODE (t) != SSA_NAME || !SSA_NAME_IS_DEFAULT_DEF (t))
    return false;
  tree v = SSA_NAME_VAR (t);
  const char *n = pp_decl_name (v);
  return v && TREE_CODE (v) == PARM_DECL && n && strcmp (n, ".omp_data_i") == 0;
}

bool
pp_expr_unknown (const std::string &s)
{
  return s.find ('?') != std::string::npos
	 || s.find ("(call") != std::string::npos
	 || s.find ("(load") != std::string::npos;
}

/* Integer constants.  Unsigned constants with the sign bit set are
   printed as negative numbers: niter analysis works in unsigned types and
   writes "x - 1" as "x + 4294967295"; conversions are dropped in the text,
   so the mathematical value must be the signed one.  */
std::string
pp_cst (tree t)
{
  if (TREE_CODE (t) != INTEGER_CST)
    return "?";
  /* a _Bool's true is 1 (its one bit read as signed would be -1) */
  if (TREE_CODE (TREE_TYPE (t)) == BOOLEAN_TYPE)
    return integer_zerop (t) ? "0" : "1";
  char buf[WIDE_INT_PRINT_BUFFER_SIZE];
  wide_int w = wi::to_wide (t);
  if (TYPE_UNSIGNED (TREE_TYPE (t)) && !wi::neg_p (w, SIGNED))
    print_dec (w, buf, UNSIGNED);
  else
    print_dec (w, buf, SIGNED);
  return buf;
}

const char *
pp_cmp_name (enum tree_code code)
{
  switch (code)
    {
    case LT_EXPR: return "lt";
    case LE_EXPR: return "le";
    case GT_EXPR: return "gt";
    case GE_EXPR: return "ge";
    case EQ_EXPR: return "eq";
    case NE_EXPR: return "ne";
    default: return NULL;
    }
}

static const char *
op_name (enum tree_code code)
{
  switch (code)
    {
    case PLUS_EXPR: case POINTER_PLUS_EXPR: return "+";
    case MINUS_EXPR: case POINTER_DIFF_EXPR: return "-";
    case MULT_EXPR: return "*";
    case TRUNC_DIV_EXPR: case EXACT_DIV_EXPR: return "div";
    case TRUNC_MOD_EXPR: return "mod";
    case FLOOR_DIV_EXPR: return "fdiv";
    case CEIL_DIV_EXPR: return "cdiv";
    case MIN_EXPR: return "min";
    case MAX_EXPR: return "max";
    case LSHIFT_EXPR: return "shl";
    case RSHIFT_EXPR: return "shr";
    case TRUTH_AND_EXPR: case TRUTH_ANDIF_EXPR: return "and";
    case TRUTH_OR_EXPR: case TRUTH_ORIF_EXPR: return "or";
    default: return pp_cmp_name (code);
    }
}

static std::string
cap (const std::string &s)
{
  return s.size () > PP_MAX_LEN ? std::string ("?") : s;
}

static bool
as_int (const std::string &s, long long *v)
{
  if (s.empty ())
    return false;
  char *end;
  errno = 0;
  *v = strtoll (s.c_str (), &end, 10);
  return *end == 0 && errno == 0 && (ISDIGIT (s[0]) || s[0] == '-');
}

/* "(+ X C)" -> X and C.  */
static bool
split_plus_const (const std::string &s, std::string *x, long long *c)
{
  if (s.compare (0, 3, "(+ ") != 0 || s[s.size () - 1] != ')')
    return false;
  size_t sp = s.rfind (' ');
  if (sp == std::string::npos || sp < 3)
    return false;
  if (!as_int (s.substr (sp + 1, s.size () - sp - 2), c))
    return false;
  *x = s.substr (3, sp - 3);
  /* X must be one balanced operand.  */
  int depth = 0;
  for (size_t i = 0; i < x->size (); i++)
    {
      char ch = (*x)[i];
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      if (depth == 0 && ch == ' ')
	return false;
    }
  return depth == 0;
}

/* Operands of "(OP A B ...)" when S has that operator.  */
bool
pp_split_op (const std::string &s, const char *op, std::vector<std::string> *args)
{
  size_t ol = strlen (op);
  if (s.size () < ol + 3 || s[0] != '(' || s.compare (1, ol, op) != 0
      || s[ol + 1] != ' ' || s[s.size () - 1] != ')')
    return false;
  args->clear ();
  int depth = 0;
  size_t start = ol + 2;
  for (size_t i = start; i < s.size () - 1; i++)
    {
      char ch = s[i];
      if (ch == '(')
	depth++;
      else if (ch == ')')
	depth--;
      else if (ch == ' ' && depth == 0)
	{
	  args->push_back (s.substr (start, i - start));
	  start = i + 1;
	}
    }
  args->push_back (s.substr (start, s.size () - 1 - start));
  return depth == 0;
}

/* Binary operator with light constant folding, so that counts read
   (arg n) rather than (+ (+ (arg n) -1) 1).  */
static std::string
binop (const char *op, const std::string &a, const std::string &b)
{
  long long x, y;
  bool ia = as_int (a, &x), ib = as_int (b, &y);
  bool plus = strcmp (op, "+") == 0, minus = strcmp (op, "-") == 0;
  if (ia && ib && llabs (x) < (1LL << 40) && llabs (y) < (1LL << 40))
    {
      if (plus)
	return pp_fmt ("%lld", x + y);
      if (minus)
	return pp_fmt ("%lld", x - y);
      if (strcmp (op, "*") == 0)
	return pp_fmt ("%lld", x * y);
    }
  if (plus && ia && !ib)
    return binop (op, b, a);
  /* (- (+ A B) A) -> B, (- (+ A B) B) -> A: the chunk of a static
     schedule is end - start = (start + q) - start.  */
  std::vector<std::string> xs;
  if (minus && pp_split_op (a, "+", &xs) && xs.size () == 2)
    {
      if (xs[0] == b)
	return xs[1];
      if (xs[1] == b)
	return xs[0];
    }
  if (minus && a == b)
    return "0";
  if ((plus || minus) && ib)
    {
      long long c = plus ? y : -y;
      std::string inner;
      long long c1;
      std::string base = a;
      if (split_plus_const (a, &inner, &c1))
	{
	  base = inner;
	  c += c1;
	}
      if (c == 0)
	return base;
      return cap (pp_fmt ("(+ %s %lld)", base.c_str (), c));
    }
  if (strcmp (op, "*") == 0 && (b == "1" || a == "1"))
    return b == "1" ? a : b;
  if (strcmp (op, "*") == 0 && (b == "0" || a == "0"))
    return "0";
  return cap (std::string ("(") + op + " " + a + " " + b + ")");
}

std::string
pp_binop (const char *op, const std::string &a, const std::string &b)
{
  return binop (op, a, b);
}

static std::string trace_ssa (pp_fn *f, tree name, int depth);

/* A memory load: shared OpenMP field, global, or a local user variable in
   memory (address taken: e.g. read by scanf).  DEF is the load.  */
static std::string
trace_load (pp_fn *f, tree ref, gimple *def, int depth)
{
  if (TREE_CODE (ref) == COMPONENT_REF)
    {
      tree base = TREE_OPERAND (ref, 0);
      tree field = TREE_OPERAND (ref, 1);
      if (TREE_CODE (base) == MEM_REF
	  && pp_is_omp_data_i (TREE_OPERAND (base, 0))
	  && pp_decl_name (field))
	return std::string ("(shared ") + pp_decl_name (field) + ")";
    }
  /* *.omp_data_i->n: a variable shared by reference.  */
  if (TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1))
      && TREE_CODE (TREE_OPERAND (ref, 0)) == SSA_NAME)
    {
      tree p = TREE_OPERAND (ref, 0);
      gimple *pd = SSA_NAME_DEF_STMT (p);
      if (is_gimple_assign (pd) && gimple_assign_single_p (pd)
	  && TREE_CODE (gimple_assign_rhs1 (pd)) == COMPONENT_REF)
	{
	  std::string s = trace_load (f, gimple_assign_rhs1 (pd), pd, depth + 1);
	  if (s.compare (0, 7, "(shared") == 0)
	    return s;
	}
    }
  /* j->first in a thread function, j its argument */
  std::string field = pp_thread_field (f, ref);
  if (!field.empty ())
    return field;
  if (TREE_CODE (ref) == VAR_DECL && INTEGRAL_TYPE_P (TREE_TYPE (ref)))
    {
      if (const char *atom = pp_mpi_var_atom (ref))
	return atom;
      /* A thread-local global (__thread, omp threadprivate) has a value
	 per thread: no global of the program, and its address is no
	 constant the runtime could read it at.  */
      if (is_global_var (ref) && pp_decl_name (ref) && !DECL_ARTIFICIAL (ref)
	  && !DECL_THREAD_LOCAL_P (ref) && !pp_global_written_by_threads (ref))
	{
	  HOST_WIDE_INT sz = int_size_in_bytes (TREE_TYPE (ref));
	  if (sz == 1 || sz == 2 || sz == 4 || sz == 8)
	    {
	      bool seen = false;
	      for (size_t i = 0; i < f->globals.size (); i++)
		seen |= f->globals[i] == ref;
	      if (!seen)
		f->globals.push_back (ref);
	      return std::string ("(global ") + pp_decl_name (ref) + ")";
	    }
	}
      else if (def)
	{
	  std::string s = pp_make_param (f, ref, gimple_assign_lhs (def), def,
				      gimple_bb (def));
	  if (s.empty ())
	    s = pp_make_param_before_loop (f, ref, def);
	  if (!s.empty ())
	    return s;
	}
    }
  return "(load)";
}

/* A comparison CODE of A and B (traced: TA, TB) in an unsigned type,
   as an expression, or "" where it reads as written.  The text drops
   conversions and reads every value as its mathematical (signed) one,
   so an ordering in an unsigned type against a constant K in [0, 2^62)
   is written for what it tests of that value: GCC folds a range test
   (x >= 35 && x <= 41) into (unsigned) (x - 35) <= 6, true for
   0 <= x - 35 <= 6 only, where (le (+ x -35) 6) would hold for every x
   below 42.  A value that is never negative (a size_t) gives the same
   truth both ways.  */
std::string
pp_unsigned_cmp (enum tree_code code, tree a, tree b, const std::string &ta, const std::string &tb)
{
  tree type = TREE_TYPE (a);
  long long k;
  bool order = code == LT_EXPR || code == LE_EXPR || code == GT_EXPR || code == GE_EXPR;
  if (!order || !INTEGRAL_TYPE_P (type) || !TYPE_UNSIGNED (type) || TREE_CODE (type) == BOOLEAN_TYPE
      || TREE_CODE (b) != INTEGER_CST || !as_int (tb, &k) || k < 0 || k >= (1LL << 62) || as_int (ta, &k))
    return "";
  std::string c = std::string ("(") + pp_cmp_name (code) + " " + ta + " " + tb + ")";
  /* x < K and x <= K also need 0 <= x; x > K and x >= K hold for a
     negative x too (it is a huge unsigned one) */
  if (code == LT_EXPR || code == LE_EXPR)
    return cap ("(and (ge " + ta + " 0) " + c + ")");
  return cap ("(or (lt " + ta + " 0) " + c + ")");
}

/* The condition of GIMPLE_COND STMT as an expression.  */
static std::string
trace_cond (pp_fn *f, gimple *stmt, int depth)
{
  const char *c = pp_cmp_name (gimple_cond_code (stmt));
  if (!c)
    return "?";
  /* the right operand traced first, as the arguments of a call were
     (tracing names the parameters, in the order it meets them) */
  std::string b = pp_trace (f, gimple_cond_rhs (stmt), depth + 1);
  std::string a = pp_trace (f, gimple_cond_lhs (stmt), depth + 1);
  std::string u = pp_unsigned_cmp (gimple_cond_code (stmt), gimple_cond_lhs (stmt), gimple_cond_rhs (stmt), a, b);
  return u.empty () ? binop (c, a, b) : u;
}

/* A PHI at the join of an if-then(-else) diamond: (cond C A B).  This is
   how the OpenMP static schedule distributes the remainder
   (if (tid < tt) { tt = 0; q++; }).  */
static std::string
trace_join_phi (pp_fn *f, gphi *phi, int depth)
{
  basic_block bb = gimple_bb (phi);
  if (gimple_phi_num_args (phi) != 2 || !dom_info_available_p (CDI_DOMINATORS))
    return "?";
  basic_block dom = get_immediate_dominator (CDI_DOMINATORS, bb);
  gimple *last = dom ? last_stmt (dom) : NULL;
  if (!last || gimple_code (last) != GIMPLE_COND)
    return "?";
  edge te, fe;
  extract_true_false_edges_from_block (dom, &te, &fe);
  std::string arm[2];
  bool have[2] = { false, false };
  for (unsigned i = 0; i < 2; i++)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      bool on_t = e == te
		  || (te->dest != bb && single_pred_p (te->dest)
		      && dominated_by_p (CDI_DOMINATORS, e->src, te->dest));
      bool on_f = e == fe
		  || (fe->dest != bb && single_pred_p (fe->dest)
		      && dominated_by_p (CDI_DOMINATORS, e->src, fe->dest));
      if (on_t == on_f)
	return "?";
      int k = on_t ? 0 : 1;
      if (have[k])
	return "?";
      have[k] = true;
      arm[k] = pp_trace (f, gimple_phi_arg_def (phi, i), depth + 1);
    }
  return cap ("(cond " + trace_cond (f, last, depth) + " " + arm[0] + " "
	      + arm[1] + ")");
}

static std::string
trace_call (pp_fn *f, gimple *stmt)
{
  tree fn = gimple_call_fndecl (stmt);
  if (!fn)
    return "(call ?)";
  if (fndecl_built_in_p (fn, BUILT_IN_OMP_GET_NUM_THREADS))
    return "(nthreads)";
  if (fndecl_built_in_p (fn, BUILT_IN_OMP_GET_THREAD_NUM))
    return "(tid)";
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  if (strcmp (n, "omp_get_num_threads") == 0)
    return "(nthreads)";
  if (strcmp (n, "omp_get_thread_num") == 0)
    return "(tid)";
  return std::string ("(call ") + n + ")";
}

/* X & (2^K - 1), the low K bits (rank % 2 == 0 becomes
   ((unsigned) rank & 1) == 0): X minus X rounded down to a multiple of
   2^K, whatever the sign of X; "" for another mask.  */
static std::string
low_bits (pp_fn *f, tree x, tree mask, int depth)
{
  if (TREE_CODE (mask) != INTEGER_CST || !INTEGRAL_TYPE_P (TREE_TYPE (x))
      || TREE_CODE (TREE_TYPE (x)) == BOOLEAN_TYPE
      || !tree_fits_uhwi_p (mask))
    return "";
  unsigned HOST_WIDE_INT m = tree_to_uhwi (mask);
  int k = exact_log2 (m + 1);
  if (k < 1 || k > 62)
    return "";
  std::string a = pp_trace (f, x, depth + 1);
  return cap ("(- " + a + " (shl (shr " + a + pp_fmt (" %d) %d))", k, k));
}

/* The operator of a bitwise &, |, ^ on operand R1's type: the logical
   and / or on booleans, the bitwise one on other integers (their values
   are the analyser's integers, whose band/bor/bxor act on the two's
   complement form: the C result for every operand the type holds); NULL
   for another code or type (a vector).  */
static const char *
bit_op (enum tree_code code, tree r1)
{
  if (code != BIT_AND_EXPR && code != BIT_IOR_EXPR && code != BIT_XOR_EXPR)
    return NULL;
  tree type = TREE_TYPE (r1);
  if (TREE_CODE (type) == BOOLEAN_TYPE && code != BIT_XOR_EXPR)
    return code == BIT_AND_EXPR ? "and" : "or";
  if (!INTEGRAL_TYPE_P (type))
    return NULL;
  return code == BIT_AND_EXPR ? "band" : code == BIT_IOR_EXPR ? "bor" : "bxor";
}

/* ~X: (bnot X) on a signed type.  On an unsigned one ~X is 2^prec - 1 - X,
   which is X ^ (2^prec - 1) for every X the type holds: written so,
   since the analyser's (bnot X) is -X - 1.  */
static std::string
bit_not (pp_fn *f, tree lhs, tree x, int depth)
{
  tree type = TREE_TYPE (lhs);
  if (!INTEGRAL_TYPE_P (type) || TREE_CODE (type) == BOOLEAN_TYPE)
    return "?";
  std::string a = pp_trace (f, x, depth + 1);
  if (!TYPE_UNSIGNED (type))
    return cap ("(bnot " + a + ")");
  unsigned prec = TYPE_PRECISION (type);
  if (prec < 1 || prec > 63)
    return "?";
  return cap ("(bxor " + a + pp_fmt (" %lld)", (long long) ((1ULL << prec) - 1)));
}

static std::string
trace_assign (pp_fn *f, gimple *stmt, int depth)
{
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree r1 = gimple_assign_rhs1 (stmt);
  switch (get_gimple_rhs_class (code))
    {
    case GIMPLE_SINGLE_RHS:
      if (TREE_CODE (r1) == SSA_NAME || TREE_CODE (r1) == INTEGER_CST)
	return pp_trace (f, r1, depth + 1);
      if (gimple_vuse (stmt) && !gimple_vdef (stmt))
	return trace_load (f, r1, stmt, depth);
      return pp_trace (f, r1, depth + 1);
    case GIMPLE_UNARY_RHS:
      if (CONVERT_EXPR_CODE_P (code) || code == PAREN_EXPR)
	{
	  if (!INTEGRAL_TYPE_P (TREE_TYPE (r1))
	      && !POINTER_TYPE_P (TREE_TYPE (r1)))
	    return "?";
	  return pp_trace (f, r1, depth + 1);
	}
      if (code == NEGATE_EXPR)
	return cap ("(neg " + pp_trace (f, r1, depth + 1) + ")");
      if (code == ABS_EXPR)
	{
	  std::string a = pp_trace (f, r1, depth + 1);
	  return cap ("(max " + a + " (neg " + a + "))");
	}
      if (code == BIT_NOT_EXPR)
	return bit_not (f, gimple_assign_lhs (stmt), r1, depth);
      return "?";
    case GIMPLE_BINARY_RHS:
      {
	if (code == BIT_AND_EXPR)
	  {
	    std::string m = low_bits (f, r1, gimple_assign_rhs2 (stmt), depth);
	    if (!m.empty ())
	      return m;
	  }
	const char *op = bit_op (code, r1);
	if (!op)
	  op = op_name (code);
	if (!op)
	  return "?";
	std::string b = pp_trace (f, gimple_assign_rhs2 (stmt), depth + 1);
	std::string a = pp_trace (f, r1, depth + 1);   /* (as trace_cond) */
	std::string u = pp_unsigned_cmp (code, r1, gimple_assign_rhs2 (stmt), a, b);
	return u.empty () ? binop (op, a, b) : u;
      }
    case GIMPLE_TERNARY_RHS:
      if (code == COND_EXPR)
	return cap ("(cond " + pp_trace (f, r1, depth + 1) + " "
		    + pp_trace (f, gimple_assign_rhs2 (stmt), depth + 1) + " "
		    + pp_trace (f, gimple_assign_rhs3 (stmt), depth + 1) + ")");
      return "?";
    default:
      return "?";
    }
}

/* Is NAME the primary induction variable (header PHI) of a described
   loop?  Returns the loop id or -1.  */
static int
iv_loop (pp_fn *f, tree name)
{
  gimple *def = SSA_NAME_DEF_STMT (name);
  basic_block bb = gimple_bb (def);
  if (!bb || bb->loop_father->header != bb)
    return -1;
  std::map<int, int>::iterator it = f->loop_id.find (bb->loop_father->num);
  if (it == f->loop_id.end ())
    return -1;
  /* The loop's described iv: affine by scev, or stepped by an invariant
     reload (the cyclic i += size, pp-loops.cc).  */
  if (f->loops[it->second].iv != name)
    return -1;
  return it->second;
}

static std::string
trace_ssa (pp_fn *f, tree name, int depth)
{
  tree var = SSA_NAME_VAR (name);
  if (SSA_NAME_IS_DEFAULT_DEF (name))
    {
      if (var && TREE_CODE (var) == PARM_DECL && pp_decl_name (var)
	  && !pp_is_omp_data_i (name))
	return std::string ("(arg ") + pp_decl_name (var) + ")";
      return "?";
    }
  gimple *def = SSA_NAME_DEF_STMT (name);
  basic_block bb = gimple_bb (def);
  std::string s;
  gimple *after = def;
  if (gimple_code (def) == GIMPLE_PHI)
    {
      int l = iv_loop (f, name);
      if (l >= 0)
	return pp_fmt ("(iv %d)", l);
      if (bb && bb->loop_father->header == bb)
	return "?";
      s = trace_join_phi (f, as_a<gphi *> (def), depth);
      after = NULL;
    }
  else if (is_gimple_assign (def))
    s = trace_assign (f, def, depth);
  else if (is_gimple_call (def))
    s = trace_call (f, def);
  else
    s = "?";
  /* A local user variable whose value comes from outside (argv via atoi,
     input, a call the plugin cannot see through), or one that a
     `#pragma perfpred param' names, becomes a problem parameter.  */
  if (var && pp_is_user_var (var) && TREE_CODE (var) == VAR_DECL
      && (pp_expr_unknown (s) || pp_pragma_name (f->fndecl, var)))
    {
      std::string p = pp_make_param (f, var, name, after, bb);
      if (!p.empty ())
	return p;
    }
  /* A compiler temporary copied into a user variable (int N = c ? x : y
     goes through iftmp): name it after that variable.  */
  if (pp_expr_unknown (s) && !(var && pp_is_user_var (var)))
    {
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, name)
	{
	  gimple *u = USE_STMT (use);
	  if (!is_gimple_assign (u) || gimple_assign_rhs1 (u) != name
	      || !(gimple_assign_single_p (u) || gimple_assign_cast_p (u)))
	    continue;
	  tree l = gimple_assign_lhs (u);
	  if (TREE_CODE (l) != SSA_NAME || !SSA_NAME_VAR (l)
	      || !pp_is_user_var (SSA_NAME_VAR (l)))
	    continue;
	  std::string p = pp_make_param (f, SSA_NAME_VAR (l), l, u, gimple_bb (u));
	  if (!p.empty ())
	    return p;
	}
    }
  return s;
}

std::string
pp_trace (pp_fn *f, tree t, int depth)
{
  if (!t)
    return "?";
  if (depth > PP_MAX_DEPTH)
    return "?";
  switch (TREE_CODE (t))
    {
    case INTEGER_CST:
      return pp_cst (t);
    case SSA_NAME:
      return trace_ssa (f, t, depth);
    case NOP_EXPR: case CONVERT_EXPR: case NON_LVALUE_EXPR: case SAVE_EXPR:
      if (!INTEGRAL_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0)))
	  && !POINTER_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0))))
	return "?";
      return pp_trace (f, TREE_OPERAND (t, 0), depth + 1);
    case NEGATE_EXPR:
      return cap ("(neg " + pp_trace (f, TREE_OPERAND (t, 0), depth + 1) + ")");
    case TRUTH_NOT_EXPR:
      return cap ("(not " + pp_trace (f, TREE_OPERAND (t, 0), depth + 1) + ")");
    case BIT_NOT_EXPR:
      return bit_not (f, t, TREE_OPERAND (t, 0), depth);
    case COND_EXPR:
      return cap ("(cond " + pp_trace (f, TREE_OPERAND (t, 0), depth + 1) + " "
		  + pp_trace (f, TREE_OPERAND (t, 1), depth + 1) + " "
		  + pp_trace (f, TREE_OPERAND (t, 2), depth + 1) + ")");
    case VAR_DECL:
    case COMPONENT_REF:
      return trace_load (f, t, NULL, depth);
    default:
      break;
    }
  if (TREE_CODE (t) == BIT_AND_EXPR)
    {
      std::string m = low_bits (f, TREE_OPERAND (t, 0), TREE_OPERAND (t, 1),
				depth);
      if (!m.empty ())
	return m;
    }
  if (BINARY_CLASS_P (t) || COMPARISON_CLASS_P (t)
      || TREE_CODE (t) == TRUTH_ANDIF_EXPR || TREE_CODE (t) == TRUTH_ORIF_EXPR
      || TREE_CODE (t) == TRUTH_AND_EXPR || TREE_CODE (t) == TRUTH_OR_EXPR)
    {
      const char *op = bit_op (TREE_CODE (t), TREE_OPERAND (t, 0));
      if (!op)
	op = op_name (TREE_CODE (t));
      if (!op)
	return "?";
      return binop (op, pp_trace (f, TREE_OPERAND (t, 0), depth + 1),
		    pp_trace (f, TREE_OPERAND (t, 1), depth + 1));
    }
  return "?";
}

/* Address of an object (obj= of barriers, locks, joins): (addr NAME),
   (addr NAME INDEX...), or (critical NAME).  A pthread_t value loaded from
   an array element names that element.  */
std::string
pp_trace_addr (pp_fn *f, tree t, int depth)
{
  if (!t || depth > PP_MAX_DEPTH)
    return "?";
  if (TREE_CODE (t) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (t))
    {
      gimple *def = SSA_NAME_DEF_STMT (t);
      if (is_gimple_assign (def))
	{
	  enum tree_code c = gimple_assign_rhs_code (def);
	  if (c == ADDR_EXPR || gimple_assign_single_p (def)
	      || CONVERT_EXPR_CODE_P (c))
	    return pp_trace_addr (f, gimple_assign_rhs1 (def), depth + 1);
	  if (c == POINTER_PLUS_EXPR)
	    {
	      std::string b = pp_trace_addr (f, gimple_assign_rhs1 (def),
					     depth + 1);
	      if (b.compare (0, 5, "(addr") == 0 && b != "(addr ?)")
		return b.substr (0, b.size () - 1) + " (off "
		       + pp_trace (f, gimple_assign_rhs2 (def), depth + 1)
		       + "))";
	      return "?";
	    }
	}
      if (SSA_NAME_VAR (t) && TREE_CODE (SSA_NAME_VAR (t)) == PARM_DECL)
	return pp_trace (f, t, depth);
      return "?";
    }
  if (TREE_CODE (t) == SSA_NAME)
    return pp_trace (f, t, depth);
  if (TREE_CODE (t) == ADDR_EXPR)
    t = TREE_OPERAND (t, 0);
  std::string idx;
  while (TREE_CODE (t) == ARRAY_REF || TREE_CODE (t) == COMPONENT_REF)
    {
      if (TREE_CODE (t) == COMPONENT_REF
	  && TREE_CODE (TREE_OPERAND (t, 0)) == MEM_REF
	  && pp_is_omp_data_i (TREE_OPERAND (TREE_OPERAND (t, 0), 0))
	  && pp_decl_name (TREE_OPERAND (t, 1)))
	return cap (std::string ("(addr ")
		    + pp_decl_name (TREE_OPERAND (t, 1)) + idx + ")");
      if (TREE_CODE (t) == ARRAY_REF)
	idx = " " + pp_trace (f, TREE_OPERAND (t, 1), depth + 1) + idx;
      t = TREE_OPERAND (t, 0);
    }
  if (TREE_CODE (t) == VAR_DECL && pp_decl_name (t))
    {
      const char *n = pp_decl_name (t);
      if (strncmp (n, ".gomp_critical_user_", 20) == 0)
	return std::string ("(critical ") + (n + 20) + ")";
      return cap (std::string ("(addr ") + n + idx + ")");
    }
  if (TREE_CODE (t) == MEM_REF)
    return pp_trace_addr (f, TREE_OPERAND (t, 0), depth + 1);
  return "?";
}
