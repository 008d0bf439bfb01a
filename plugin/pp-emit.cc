/* perfpred: decls the plugin creates (TLS counter arrays, descriptor
 * records in section __pp_desc, global descriptors in __pp_gdesc, the
 * runtime entry points and event wrappers), the counter-update code, and
 * the small text helpers.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

#define PP_ABI_VERSION 1
#define PP_MAX_WRAP 64

/* Trees cached for the whole translation unit; rooted for the garbage
   collector by pp_register_roots (a plugin cannot run gengtype).  */
static GTY(()) tree fdesc_type;
static GTY(()) tree gdesc_type;
static GTY(()) tree register_decl;
static GTY(()) tree param_decl;
static GTY(()) tree tbegin_decl;
static GTY(()) tree tend_decl;
static GTY(()) tree wrap_decls[PP_MAX_WRAP];
static GTY(()) tree emitted_globals;   /* TREE_LIST of globals described */

static const struct ggc_root_tab pp_roots[] = {
  { &fdesc_type, 1, sizeof (fdesc_type), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &gdesc_type, 1, sizeof (gdesc_type), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &register_decl, 1, sizeof (register_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &param_decl, 1, sizeof (param_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &tbegin_decl, 1, sizeof (tbegin_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &tend_decl, 1, sizeof (tend_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &wrap_decls[0], PP_MAX_WRAP, sizeof (wrap_decls[0]), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &emitted_globals, 1, sizeof (emitted_globals), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

void
pp_register_roots (const char *plugin_name)
{
  register_callback (plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) pp_roots);
}

std::string
pp_fmt (const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  if (n < (int) sizeof buf)
    return buf;
  std::string s (n + 1, '\0');
  va_start (ap, fmt);
  vsnprintf (&s[0], n + 1, fmt, ap);
  va_end (ap);
  s.resize (n);
  return s;
}

/* A name as a bare token when it is one, else a quoted string.  */
std::string
pp_qname (const char *s)
{
  bool bare = *s != 0;
  for (const char *p = s; *p; p++)
    if (*p <= ' ' || *p == '(' || *p == ')' || *p == '"' || *p == '\\'
	|| *p == '=' || (unsigned char) *p >= 127)
      bare = false;
  if (bare)
    return s;
  std::string r = "\"";
  for (const char *p = s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
	r += '\\';
      r += *p;
    }
  return r + "\"";
}

int
pp_line (location_t loc)
{
  if (loc == UNKNOWN_LOCATION)
    return 0;
  return expand_location (loc).line;
}

int
pp_stmt_line (gimple *stmt)
{
  if (!stmt || !gimple_has_location (stmt))
    return 0;
  return pp_line (gimple_location (stmt));
}

int
pp_pos (pp_fn *f, basic_block bb)
{
  std::map<int, int>::iterator it = f->bb_pos.find (bb->index);
  return it == f->bb_pos.end () ? -1 : it->second;
}

void
pp_add_edge (pp_fn *f, edge e, int slot, tree val)
{
  pp_act a = {};
  a.kind = PP_ACT_EDGE;
  a.e = e;
  a.slot = slot;
  a.val = val;
  f->acts.push_back (a);
}

void
pp_add_head (pp_fn *f, basic_block bb, int slot)
{
  pp_act a = {};
  a.kind = PP_ACT_HEAD;
  a.bb = bb;
  a.slot = slot;
  f->acts.push_back (a);
}

void
pp_add_stmt (pp_fn *f, gimple *stmt, int slot)
{
  pp_act a = {};
  a.kind = PP_ACT_STMT;
  a.stmt = stmt;
  a.slot = slot;
  f->acts.push_back (a);
}

void
pp_add_branch (pp_fn *f, gimple *cond, int slot, bool derived_f)
{
  pp_act a = {};
  a.derived_f = derived_f;
  a.kind = PP_ACT_BRANCH;
  a.stmt = cond;
  a.bb = gimple_bb (cond);
  a.slot = slot;
  f->acts.push_back (a);
}

/* ---------------------------------------------------------------- types */

static tree
const_char_ptr (void)
{
  return build_pointer_type (build_qualified_type (char_type_node,
						   TYPE_QUAL_CONST));
}

/* FIELDS in declaration order; finish_builtin_struct wants them reversed.  */
static tree
make_struct (const char *name, const char **names, tree *types, int n)
{
  tree type = make_node (RECORD_TYPE);
  tree chain = NULL_TREE;
  for (int i = 0; i < n; i++)
    {
      tree fld = build_decl (BUILTINS_LOCATION, FIELD_DECL,
			     get_identifier (names[i]), types[i]);
      DECL_CHAIN (fld) = chain;
      chain = fld;
    }
  finish_builtin_struct (type, name, chain, NULL_TREE);
  return type;
}

static void
build_types (void)
{
  if (fdesc_type)
    return;
  {
    const char *n[] = { "version", "nslots", "text", "name", "file" };
    tree t[] = { unsigned_type_node, unsigned_type_node, const_char_ptr (),
		 const_char_ptr (), const_char_ptr () };
    fdesc_type = make_struct ("pp_fdesc", n, t, 5);
  }
  {
    const char *n[] = { "version", "size", "is_signed", "pad", "name", "addr" };
    tree t[] = { unsigned_type_node, unsigned_type_node, unsigned_type_node,
		 unsigned_type_node, const_char_ptr (), const_ptr_type_node };
    gdesc_type = make_struct ("pp_gdesc", n, t, 6);
  }
}

/* A runtime entry point or wrapper: external, public, weak, and with its
   assembler name set by hand (LTO streams assembler names; decls created
   this late do not get one otherwise).  Weak: the one strong reference to
   the runtime is its link marker (pp-keep.cc), so that a link without the
   runtime fails with one message that names it rather than with an
   undefined reference per entry point; the marker's object pulls in the
   rest.  */
static tree
make_fn (const char *name, tree type, bool leaf)
{
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  if (leaf)
    DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("leaf"), NULL_TREE,
					DECL_ATTRIBUTES (decl));
  DECL_ASSEMBLER_NAME (decl);
  declare_weak (decl);
  return decl;
}

static void
build_runtime_decls (void)
{
  build_types ();
  if (register_decl)
    return;
  tree cnt_ptr = build_pointer_type (long_long_unsigned_type_node);
  register_decl = make_fn ("__pp_register",
			   build_function_type_list (void_type_node,
						     const_ptr_type_node,
						     cnt_ptr, NULL_TREE),
			   true);
  param_decl = make_fn ("__pp_param",
			build_function_type_list (void_type_node,
						  const_ptr_type_node,
						  unsigned_type_node,
						  long_long_integer_type_node,
						  NULL_TREE),
			true);
  tbegin_decl = make_fn ("__pp_tbegin",
			 build_function_type_list (void_type_node, cnt_ptr,
						   NULL_TREE),
			 true);
  tend_decl = make_fn ("__pp_tend",
		       build_function_type_list (void_type_node, cnt_ptr,
						 cnt_ptr, NULL_TREE),
		       true);
  /* Cold: the calls run on one entry in k, and GCC's branch prediction
     (which runs after this pass and replaces any probability set here)
     then keeps them out of the loops' hot path and does not duplicate
     code to thread around them.  */
  DECL_ATTRIBUTES (tbegin_decl) = tree_cons (get_identifier ("cold"), NULL_TREE,
					     DECL_ATTRIBUTES (tbegin_decl));
  DECL_ATTRIBUTES (tend_decl) = tree_cons (get_identifier ("cold"), NULL_TREE,
					   DECL_ATTRIBUTES (tend_decl));
}

/* __pp_tbegin and __pp_tend (pp-timing.cc).  */
void
pp_timing_decls (tree *begin, tree *end)
{
  build_runtime_decls ();
  *begin = tbegin_decl;
  *end = tend_decl;
}

/* __pp_w_NAME (const struct pp_fdesc *, uint32_t site, ORIGINAL ARGS...),
   built from the original callee's prototype; MPICH's MPI calls have
   their own wrappers, __pp_w_mpich_NAME (the caller checks that the MPI is
   one of the two).  NULL when the original is unprototyped or variadic.  */
tree
pp_wrapper_decl (int idx, tree orig)
{
  if (idx < 0 || idx >= PP_MAX_WRAP)
    return NULL_TREE;
  if (wrap_decls[idx])
    return wrap_decls[idx];
  tree type = TREE_TYPE (orig);
  if (!prototype_p (type) || stdarg_p (type))
    return NULL_TREE;
  tree args = tree_cons (NULL_TREE, const_ptr_type_node,
			 tree_cons (NULL_TREE, unsigned_type_node,
				    TYPE_ARG_TYPES (type)));
  tree ntype = build_function_type (TREE_TYPE (type), args);
  bool mpich = strncmp (pp_event_name (idx), "MPI_", 4) == 0
	       && pp_mpi_abi () == PP_MPI_ABI_MPICH;
  std::string name = std::string (mpich ? "__pp_w_mpich_" : "__pp_w_")
		     + pp_event_name (idx);
  tree decl = make_fn (name.c_str (), ntype, false);
  TREE_NOTHROW (decl) = TREE_NOTHROW (orig);
  if (strncmp (pp_event_name (idx), "MPI_", 4) == 0)
    pp_keep_runtime (mpich ? PP_LINK_MPICH : PP_LINK_OMPI);
  wrap_decls[idx] = decl;
  return decl;
}

/* ---------------------------------------------------------------- decls */

void
pp_static_artificial (tree decl)
{
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_EXTERNAL (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;     /* no DWARF: -g must not change anything */
  TREE_USED (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  DECL_CONTEXT (decl) = NULL_TREE;
}

static unsigned pp_decl_counter;

void
pp_create_decls (pp_fn *f)
{
  build_runtime_decls ();
  pp_keep_runtime (PP_LINK_RUNTIME);
  char *name;
  unsigned n = pp_decl_counter++;

  tree atype = build_array_type_nelts (long_long_unsigned_type_node,
				       f->nslots);
  ASM_FORMAT_PRIVATE_NAME (name, "__pp_cnt", n);
  f->cnt_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			    get_identifier (name), atype);
  pp_static_artificial (f->cnt_decl);
  set_decl_tls_model (f->cnt_decl, decl_default_tls_model (f->cnt_decl));
  DECL_PRESERVE_P (f->cnt_decl) = 1;    /* named in asm texts (bare form) */
  DECL_ASSEMBLER_NAME (f->cnt_decl);
  varpool_node::finalize_decl (f->cnt_decl);

  /* loop timing's scratch slots: an array of its own, so that the
     counter arrays stay adjacent (the runtime compares runs of adjacent
     blocks in one memcmp, rt-scan.c) */
  f->scr_decl = NULL_TREE;
  if (f->nscratch)
    {
      tree stype = build_array_type_nelts (long_long_unsigned_type_node,
					   f->nscratch);
      ASM_FORMAT_PRIVATE_NAME (name, "__pp_scr", n);
      f->scr_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
				get_identifier (name), stype);
      pp_static_artificial (f->scr_decl);
      set_decl_tls_model (f->scr_decl, decl_default_tls_model (f->scr_decl));
      /* a section of their own: in .tbss they would lie between the
	 counter arrays */
      set_decl_section_name (f->scr_decl, ".tbss.perfpred_scr");
      DECL_PRESERVE_P (f->scr_decl) = 1;   /* named in asm texts */
      DECL_ASSEMBLER_NAME (f->scr_decl);
      varpool_node::finalize_decl (f->scr_decl);
    }

  ASM_FORMAT_PRIVATE_NAME (name, "__pp_desc", n);
  f->desc_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			     get_identifier (name), fdesc_type);
  pp_static_artificial (f->desc_decl);
  DECL_PRESERVE_P (f->desc_decl) = 1;
  set_decl_section_name (f->desc_decl, "__pp_desc");
  /* Pin the alignment: x86-64 raises statics of 32 bytes or more to 32,
     which would put padding between the records of the section.  */
  SET_DECL_ALIGN (f->desc_decl, TYPE_ALIGN (fdesc_type));
  DECL_USER_ALIGN (f->desc_decl) = 1;
  DECL_ASSEMBLER_NAME (f->desc_decl);
}

static tree
str_lit (const char *s)
{
  return fold_convert (const_char_ptr (),
		       build_string_literal (strlen (s) + 1, s));
}

void
pp_finish_desc (pp_fn *f, const std::string &text)
{
  vec<constructor_elt, va_gc> *v = NULL;
  tree fld = TYPE_FIELDS (fdesc_type);
  CONSTRUCTOR_APPEND_ELT (v, fld, build_int_cst (unsigned_type_node,
						 PP_ABI_VERSION));
  fld = DECL_CHAIN (fld);
  CONSTRUCTOR_APPEND_ELT (v, fld, build_int_cst (unsigned_type_node,
						 f->nslots));
  fld = DECL_CHAIN (fld);
  CONSTRUCTOR_APPEND_ELT (v, fld, str_lit (text.c_str ()));
  fld = DECL_CHAIN (fld);
  CONSTRUCTOR_APPEND_ELT (v, fld, str_lit (f->asm_name));
  fld = DECL_CHAIN (fld);
  CONSTRUCTOR_APPEND_ELT (v, fld, str_lit (main_input_filename
					   ? main_input_filename : "?"));
  DECL_INITIAL (f->desc_decl) = build_constructor (fdesc_type, v);
  TREE_CONSTANT (DECL_INITIAL (f->desc_decl)) = 1;
  TREE_STATIC (DECL_INITIAL (f->desc_decl)) = 1;
  varpool_node::finalize_decl (f->desc_decl);
}

/* One struct pp_gdesc per global named in an expression (once per
   translation unit).  */
void
pp_emit_global (tree g)
{
  build_types ();
  /* &G of a thread-local G is no link-time constant (pp-trace.cc does not
     name one) */
  if (DECL_THREAD_LOCAL_P (g))
    return;
  for (tree l = emitted_globals; l; l = TREE_CHAIN (l))
    if (TREE_VALUE (l) == g)
      return;
  emitted_globals = tree_cons (NULL_TREE, g, emitted_globals);
  char *name;
  ASM_FORMAT_PRIVATE_NAME (name, "__pp_gdesc", pp_decl_counter++);
  tree d = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
		       gdesc_type);
  pp_static_artificial (d);
  DECL_PRESERVE_P (d) = 1;
  set_decl_section_name (d, "__pp_gdesc");
  SET_DECL_ALIGN (d, TYPE_ALIGN (gdesc_type));
  DECL_USER_ALIGN (d) = 1;
  TREE_ADDRESSABLE (g) = 1;
  vec<constructor_elt, va_gc> *v = NULL;
  tree fld = TYPE_FIELDS (gdesc_type);
  unsigned vals[4] = { PP_ABI_VERSION,
		       (unsigned) int_size_in_bytes (TREE_TYPE (g)),
		       TYPE_UNSIGNED (TREE_TYPE (g)) ? 0u : 1u, 0 };
  for (int i = 0; i < 4; i++, fld = DECL_CHAIN (fld))
    CONSTRUCTOR_APPEND_ELT (v, fld, build_int_cst (unsigned_type_node,
						   vals[i]));
  CONSTRUCTOR_APPEND_ELT (v, fld, str_lit (pp_decl_name (g)));
  fld = DECL_CHAIN (fld);
  CONSTRUCTOR_APPEND_ELT (v, fld, fold_convert (const_ptr_type_node,
						build_fold_addr_expr (g)));
  DECL_INITIAL (d) = build_constructor (gdesc_type, v);
  TREE_CONSTANT (DECL_INITIAL (d)) = 1;
  TREE_STATIC (DECL_INITIAL (d)) = 1;
  DECL_ASSEMBLER_NAME (d);
  varpool_node::finalize_decl (d);
}

/* ---------------------------------------------------------------- code */

static tree
cnt_ref (pp_fn *f, int slot)
{
  return pp_cnt_elt (f->cnt_decl, slot);
}

/* Two shapes for an increment.  The plain one, t = cnt[k]; t = t + v;
   cnt[k] = t, is what the optimisers can work on: in a loop, LIM's store
   motion keeps the counter in a register and stores it once at the exit
   (the run-time overhead depends on that in hot loops).  The same work is
   most of what the counters cost the compiler (PRE, LIM with its flags
   for conditional stores, jump threading, unrolling: docs/bench.md,
   session 9), and it buys nothing where the counter cannot be kept in a
   register anyway.  There, on x86-64, the increment is one volatile asm,
   addq $v, cnt[k], a statement the optimisers leave alone, and the one
   instruction GCC would have emitted for it.

   Where store motion cannot happen: in a region (the block's innermost
   loop, sub-loops included, or the whole function for a block outside
   loops) that holds a call the store of a counter cannot move across: a
   call that may store (a vdef), not a leaf (a leaf function cannot reach
   this unit's statics), to a function without a body here (an inliner
   cannot remove it), or an event call (replaced by a runtime wrapper).
   The counters' address escapes to the runtime, so such a call may read
   and write them, in whatever loop the region ends up in: when the
   function is inlined into a caller's loop, the whole region goes with
   it, the call too.  An asm is opaque to LIM, so one in a region where
   store motion could happen would keep every counter of the loop (and of
   its enclosing loops) in memory: hence the rule.  Not for -m32 (a
   64-bit add is two instructions there) nor on other targets.  Both
   shapes add the same value at the same place: the counts are the same.  */
static bool
call_blocks_store_motion (gimple *s)
{
  if (!is_gimple_call (s) || !gimple_vdef (s) || gimple_call_internal_p (s))
    return false;
  tree fn = gimple_call_fndecl (s);
  if (!fn)
    return false;       /* indirect: may become direct, and be inlined */
  if (pp_event_index (fn) >= 0)
    return true;
  if (fndecl_built_in_p (fn) || (gimple_call_flags (s) & ECF_LEAF))
    return false;
  cgraph_node *n = cgraph_node::get (fn);
  return !n || !n->definition;
}

/* Decided on the body as it is, before anything is inserted (the region
   of each loop, and of the function, keyed by loop number; 0 is the
   function).  */
static std::map<int, bool> asm_region;

static void
compute_asm_regions (pp_fn *f)
{
  asm_region.clear ();
#ifdef TARGET_64BIT
  if (!TARGET_64BIT)
    return;
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    {
      bool blocks = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi)
	   && !blocks; gsi_next (&gsi))
	blocks = call_blocks_store_motion (gsi_stmt (gsi));
      if (!blocks)
	continue;
      /* the block's loop and every loop around it, and the function */
      for (class loop *l = bb->loop_father; l; l = loop_outer (l))
	asm_region[l->num] = true;
    }
#endif
}

static bool
use_asm (basic_block bb)
{
  if (!bb || !bb->loop_father)
    return false;
  std::map<int, bool>::iterator it = asm_region.find (bb->loop_father->num);
  return it != asm_region.end () && it->second;
}

/* An asm operand: CONSTRAINT and its value.  */
static tree
asm_op (const char *constraint, tree op)
{
  return build_tree_list (build_tree_list (NULL_TREE,
					   build_string (strlen (constraint) + 1,
							 constraint)),
			  op);
}

/* VAL as an unsigned long long operand, its computation added to SEQ.  */
static tree
inc_value (tree val, gimple_seq *seq)
{
  return force_gimple_operand (fold_convert (long_long_unsigned_type_node,
					     unshare_expr (val)),
			       seq, true, NULL_TREE);
}

/* cnt[slot] += VAL as one volatile asm (see above).  The operand is both
   an output and an input ("=m" and "m" of the same counter): the asm reads
   and writes it.  Both assembler dialects (-masm=intel).  */
static gimple_seq
asm_inc_seq (pp_fn *f, int slot, tree val)
{
  gimple_seq seq = NULL;
  vec<tree, va_gc> *outs = NULL, *ins = NULL;
  vec_safe_push (outs, asm_op ("=m", cnt_ref (f, slot)));
  vec_safe_push (ins, asm_op ("m", cnt_ref (f, slot)));
  const char *tmpl = "{addq\t$1, %0|add\t%0, 1}";
  if (val)
    {
      vec_safe_push (ins, asm_op ("er", inc_value (val, &seq)));
      tmpl = "{addq\t%2, %0|add\t%0, %2}";
    }
  gasm *g = gimple_build_asm_vec (tmpl, ins, outs, NULL, NULL);
  gimple_asm_set_volatile (g, true);
  gimple_seq_add_stmt (&seq, g);
  return seq;
}

/* The bare form (built in pp-bare.cc): an asm that names the counter in
   its text,
     leaq __pp_cnt.N@tpoff, %r11;  addq $v, %fs:8*slot(%r11)
   with no memory operand, so no virtual operand either: to the optimisers
   it is a statement that touches nothing they track.  The asm with a
   memory operand above is a store to them, and LIM treats any statement
   storing memory it cannot analyse as a store to everything: one in a
   loop stops the store motion of every other counter of that loop.  The
   bare one does not, and costs the compiler a fraction of what the other
   forms cost (docs/bench.md, session 12: with every increment bare the
   samples compile at 1.12 times the plain build, against 1.29 with the
   forms above).  The optimisers cannot see that it writes cnt[slot], so
   a slot's increments are all bare or none (bare_slot): a plain increment
   of the same slot could keep a stale copy in a register across it.
   Used (bare_where_ok):
   - where the memory-operand asm was (a region with a call that blocks
     store motion: the counter is in memory there anyway);
   - in a loop that has sub-loops (the preheader increments of the loops
     inside it, the outer body's branch and site counts): one memory add
     per execution of a block that runs an inner loop, and the inner
     loops' plain counters still leave the whole nest;
   - in an innermost loop, for the increments that do not run on every
     iteration (branch edges, sites under a branch): LIM keeps those in a
     register only with a flag per counter and only in loops that store
     nothing, and otherwise leaves a read-modify-write of memory on every
     taken edge, which is what the bare form is.
   - outside loops: once per call.  A function without loops or calls
     inlined into a caller's loop brings its branch counts there as
     conditional increments, which LIM could not have kept in registers
     either when that loop stores anything (measured: md.c's inlined
     wrap_diff and wrap_pos, the same run time).
   Not for what runs on every iteration of an innermost loop without such
   a call (a header count, a site, branchless branch counts): those stay
   in registers, in an accumulator (below) or by LIM's store motion where
   an accumulator does not apply, and the loop may be vectorised: the
   run-time overhead of hot loops depends on it.
   Needs x86-64, the counters in the local-exec TLS model (an executable,
   PIE included; -fPIC keeps the other forms) with %fs direct references,
   and no LTO (a static's name in an asm text does not survive LTO's
   partitioning and renaming).  The counter array is kept
   (DECL_PRESERVE_P): the asm text is not a reference the compiler sees.  */
static std::map<int, bool> bare_slot;

static bool
bare_unit_ok (pp_fn *f)
{
#ifdef TARGET_64BIT
  static int r11 = -2;
  if (r11 == -2)
    r11 = decode_reg_name ("r11");
  return TARGET_64BIT && TARGET_LP64 && TARGET_TLS_DIRECT_SEG_REFS
	 /* the base register (bare_inc_seq): not -ffixed-r11, not a
	    global register variable */
	 && r11 >= 0 && !fixed_regs[r11] && !global_regs[r11]
	 && DECL_THREAD_LOCAL_P (f->cnt_decl)
	 && DECL_TLS_MODEL (f->cnt_decl) == TLS_MODEL_LOCAL_EXEC
	 && !flag_generate_lto && !flag_generate_offload && !in_lto_p;
#else
  (void) f;
  return false;
#endif
}

/* For pp-timing.cc's asm form: the unit allows bare asms, and F's
   scratch array is local-exec TLS like its counters.  */
bool
pp_bare_timing_ok (pp_fn *f)
{
  return f->scr_decl && bare_unit_ok (f)
	 && DECL_TLS_MODEL (f->scr_decl) == TLS_MODEL_LOCAL_EXEC;
}

/* May an increment in block WHERE be bare?  CONDITIONAL: it does not run
   on every iteration of WHERE's loop (a branch edge, a site in a block
   that does not dominate the latch).  */
static bool
bare_where_ok (basic_block where, bool conditional)
{
  if (!where || !where->loop_father)
    return false;
  if (use_asm (where))
    return true;
  class loop *l = where->loop_father;
  return !loop_outer (l) || l->inner || conditional;
}

static bool
runs_every_iteration (basic_block bb)
{
  class loop *l = bb->loop_father;
  return l && loop_outer (l) && dominated_by_p (CDI_DOMINATORS, l->latch, bb);
}

/* Every increment of a slot must agree: an increment the plain or the
   memory-operand form needs makes the whole slot take those.  */
static void
note_slot (int slot, bool bare)
{
  std::map<int, bool>::iterator it = bare_slot.find (slot);
  if (it == bare_slot.end ())
    bare_slot[slot] = bare;
  else
    it->second = it->second && bare;
}

/* Accumulators: what runs on every iteration of an innermost loop
   without a blocking call (a header count, a site in a block that
   dominates the latch, branchless branch counts) is counted in an SSA
   value of the loop, a = PHI <0 (preheader), a' (latch)>, a' = a + v in
   the counted block B, and added to the counter once on each exit edge
   (bare form): a' when B runs before that exit in the iteration (B
   dominates the exit's block), a when it does not (the exit's block
   dominates B).  That is what LIM's store motion made of the plain
   increment (a register, stored at the exits), built here directly:
   GCC then has no counter load and store to move, no flags, and no value
   carried through the enclosing loops (md.c's cell-list walk: its plain
   header count cost 0.14 of the plain build's instructions).  Only where
   the flush can be bare, for a slot incremented once in the function, in
   a loop whose exits are all plain edges and whose exit blocks are each
   before or after B, and that nothing else leaves (every call in it
   returns: pp_safe_call); not in a function with setjmp or an irreducible
   region.  The count reaches the counter when the loop is left: a signal
   inside the loop loses that entry's part, as with LIM's register.  */
struct pp_acc
{
  class loop *loop;
  basic_block bb;     /* the counted block B */
  tree phi;           /* a, the header PHI's result */
  tree after;         /* a' (set when the increment is emitted) */
};
static std::map<int, pp_acc> acc_slot;
static bool acc_fn_ok;
static std::map<int, bool> acc_loop_cache;   /* loop number -> acc_loop_ok */

/* What acc_ok asks of the loop itself, whatever the counted block.  */
static bool
acc_loop_ok (class loop *l)
{
  std::map<int, bool>::iterator it = acc_loop_cache.find (l->num);
  if (it != acc_loop_cache.end ())
    return it->second;
  bool ok = loop_outer (l) && !l->inner && loop_preheader_edge (l)
	    /* a call that may not return (exit, longjmp in a callee) would
	       leave the loop without passing an exit edge: the count of
	       that entry would be lost, where a plain increment (LIM cannot
	       move it across such a call) is exact */
	    && pp_leaves_only_by_exits (l);
  edge e;
  edge_iterator ei;
  if (ok)
    FOR_EACH_EDGE (e, ei, l->header->preds)
      if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
	ok = false;
  acc_loop_cache[l->num] = ok;
  return ok;
}

static bool
acc_ok (basic_block bb)
{
  if (!acc_fn_ok || !bb || !bb->loop_father)
    return false;
  class loop *l = bb->loop_father;
  if (!acc_loop_ok (l) || use_asm (bb)
      || !dominated_by_p (CDI_DOMINATORS, l->latch, bb))
    return false;
  auto_vec<edge> exits = get_loop_exit_edges (l);
  if (exits.is_empty ())
    return false;
  for (unsigned i = 0; i < exits.length (); i++)
    {
      edge x = exits[i];
      if (x->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_IRREDUCIBLE_LOOP))
	return false;
      if (!dominated_by_p (CDI_DOMINATORS, x->src, bb)
	  && !dominated_by_p (CDI_DOMINATORS, bb, x->src))
	return false;
    }
  return true;
}

static gimple_seq bare_inc_seq (pp_fn *f, int slot, tree val);

/* a' = a + VAL (1 when NULL), for the accumulator of SLOT; creates the
   header PHI.  */
static gimple_seq
acc_inc_seq (pp_acc &a, tree val)
{
  tree ull = long_long_unsigned_type_node;
  gimple_seq seq = NULL;
  tree add = val ? inc_value (val, &seq) : build_int_cst (ull, 1);
  a.phi = make_temp_ssa_name (ull, NULL, "PP");
  create_phi_node (a.phi, a.loop->header);
  a.after = make_temp_ssa_name (ull, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (a.after, PLUS_EXPR, a.phi,
						  add));
  return seq;
}

/* The PHI's arguments and the flushes on the exit edges (before the edge
   insertions are committed).  */
static void
acc_finish (pp_fn *f)
{
  tree ull = long_long_unsigned_type_node;
  for (std::map<int, pp_acc>::iterator it = acc_slot.begin ();
       it != acc_slot.end (); ++it)
    {
      pp_acc &a = it->second;
      if (!a.after)
	continue;
      gphi *phi = as_a <gphi *> (SSA_NAME_DEF_STMT (a.phi));
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, a.loop->header->preds)
	add_phi_arg (phi, flow_bb_inside_loop_p (a.loop, e->src)
		     ? a.after : build_zero_cst (ull), e, UNKNOWN_LOCATION);
      auto_vec<edge> exits = get_loop_exit_edges (a.loop);
      for (unsigned i = 0; i < exits.length (); i++)
	{
	  edge x = exits[i];
	  tree v = dominated_by_p (CDI_DOMINATORS, x->src, a.bb) ? a.after
								 : a.phi;
	  gsi_insert_seq_on_edge (x, bare_inc_seq (f, it->first, v));
	}
    }
}

/* A slot counted once, in block BB, on every iteration of an innermost
   loop: an accumulator (when allowed) instead of a plain increment.  */
static void
note_acc (std::map<int, int> &incs, int slot, basic_block bb, bool unit)
{
  incs[slot]++;
  if (unit && acc_ok (bb))
    {
      pp_acc a = { bb->loop_father, bb, NULL_TREE, NULL_TREE };
      acc_slot[slot] = a;
    }
}

static void
compute_bare_slots (pp_fn *f)
{
  bare_slot.clear ();
  acc_slot.clear ();
  acc_loop_cache.clear ();
  bool unit = bare_unit_ok (f);
  acc_fn_ok = unit && !f->fun->calls_setjmp && !mark_irreducible_loops ();
  std::map<int, int> incs;
  for (size_t i = 0; i < f->acts.size (); i++)
    {
      pp_act &a = f->acts[i];
      basic_block bb;
      switch (a.kind)
	{
	case PP_ACT_EDGE:
	  bb = a.e->src;
	  incs[a.slot]++;
	  note_slot (a.slot, unit && bare_where_ok (bb, !runs_every_iteration (bb)
						    || !single_succ_p (bb)));
	  break;
	case PP_ACT_HEAD:
	  note_slot (a.slot, unit && bare_where_ok (a.bb, false));
	  note_acc (incs, a.slot, a.bb, unit);
	  break;
	case PP_ACT_BRANCH:
	  note_slot (a.slot, unit && !a.branchless && bare_where_ok (a.bb, true));
	  if (!a.derived_f)
	    note_slot (a.slot + 1, unit && !a.branchless
		       && bare_where_ok (a.bb, true));
	  if (a.branchless)
	    {
	      note_acc (incs, a.slot, a.bb, unit);
	      if (!a.derived_f)
		note_acc (incs, a.slot + 1, a.bb, unit);
	    }
	  else
	    {
	      incs[a.slot]++;
	      if (!a.derived_f)
		incs[a.slot + 1]++;
	    }
	  break;
	case PP_ACT_STMT:
	case PP_ACT_WRAP:
	  if (!a.no_inc)
	    {
	      bb = gimple_bb (a.stmt);
	      note_slot (a.slot, unit && bare_where_ok (bb, !runs_every_iteration (bb)));
	      note_acc (incs, a.slot, bb, unit);
	    }
	  break;
	default:
	  break;
	}
    }
  for (std::map<int, pp_acc>::iterator it = acc_slot.begin ();
       it != acc_slot.end ();)
    if (incs[it->first] != 1)
      it = acc_slot.erase (it);
    else
      ++it;
}

/* The bare increment (pp-bare.cc), its value computed first.  */
static gimple_seq
bare_inc_seq (pp_fn *f, int slot, tree val)
{
  gimple_seq seq = NULL;
  gimple_seq_add_stmt (&seq, pp_bare_asm (f->cnt_decl, slot,
					  val ? inc_value (val, &seq)
					      : NULL_TREE));
  return seq;
}

/* cnt[slot] += VAL (1 when VAL is NULL), as a sequence, for block WHERE.  */
static gimple_seq
inc_seq (pp_fn *f, int slot, tree val, basic_block where)
{
  std::map<int, pp_acc>::iterator ac = acc_slot.find (slot);
  if (ac != acc_slot.end ())
    return acc_inc_seq (ac->second, val);
  std::map<int, bool>::iterator bs = bare_slot.find (slot);
  if (bs != bare_slot.end () && bs->second)
    return bare_inc_seq (f, slot, val);
  if (use_asm (where))
    return asm_inc_seq (f, slot, val);
  gimple_seq seq = NULL;
  tree type = long_long_unsigned_type_node;
  tree add = val ? inc_value (val, &seq) : build_int_cst (type, 1);
  tree t1 = make_temp_ssa_name (type, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (t1, cnt_ref (f, slot)));
  tree t2 = make_temp_ssa_name (type, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (t2, PLUS_EXPR, t1, add));
  gimple_seq_add_stmt (&seq, gimple_build_assign (cnt_ref (f, slot), t2));
  return seq;
}

static tree
desc_addr (pp_fn *f)
{
  return build_fold_addr_expr (f->desc_decl);
}

static void
apply_param (pp_fn *f, pp_act &a)
{
  gimple_seq seq = NULL;
  tree v = force_gimple_operand (fold_convert (long_long_integer_type_node,
					       a.val),
				 &seq, true, NULL_TREE);
  gcall *call = gimple_build_call (param_decl, 3, desc_addr (f),
				   build_int_cst (unsigned_type_node, a.site),
				   v);
  gimple_seq_add_stmt (&seq, call);
  if (a.e)
    gsi_insert_seq_on_edge (a.e, seq);
  else if (a.stmt)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (a.stmt);
      gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
    }
  else
    {
      gimple_stmt_iterator gsi = gsi_after_labels (a.bb);
      gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
    }
}

static void
apply_wrap (pp_fn *f, pp_act &a)
{
  gcall *old = as_a<gcall *> (a.stmt);
  tree orig = gimple_call_fndecl (old);
  tree w = pp_wrapper_decl (a.wrap, orig);
  if (!w)
    return;
  auto_vec<tree> args;
  args.safe_push (desc_addr (f));
  args.safe_push (build_int_cst (unsigned_type_node, a.site));
  for (unsigned i = 0; i < gimple_call_num_args (old); i++)
    args.safe_push (gimple_call_arg (old, i));
  gcall *nc = gimple_build_call_vec (w, args);
  tree lhs = gimple_call_lhs (old);
  if (lhs)
    {
      gimple_call_set_lhs (nc, lhs);
      if (TREE_CODE (lhs) == SSA_NAME)
	SSA_NAME_DEF_STMT (lhs) = nc;
    }
  gimple_set_location (nc, gimple_location (old));
  gimple_set_block (nc, gimple_block (old));
  gimple_call_set_nothrow (nc, gimple_call_nothrow_p (old));
  gimple_set_vuse (nc, gimple_vuse (old));
  gimple_set_vdef (nc, gimple_vdef (old));
  if (gimple_vdef (old) && TREE_CODE (gimple_vdef (old)) == SSA_NAME)
    SSA_NAME_DEF_STMT (gimple_vdef (old)) = nc;
  gimple_stmt_iterator gsi = gsi_for_stmt (old);
  gsi_replace (&gsi, nc, false);
  pp_keep_callee (orig);
}

/* A branch's two counters.  On its edges (one increment on the way
   taken), or without a branch of their own, before the condition:
     c = (unsigned long long) (lhs CODE rhs);
     cnt[slot] += c;  cnt[slot + 1] += c ^ 1;
   An increment on an edge is a conditional store; LIM's store motion
   gives up on a conditional store when the loop also stores through a
   pointer (the counters' address escapes to the runtime, so any pointer
   may alias them, and the order of the stores must be kept): the counter
   then stays a read-modify-write of memory on every iteration, a chain
   through memory (em.c's phase 2: 1.5x the processor time of the plain
   run).  Updated on every iteration, the counters are moved out of the
   loop like the loop counters, and the branch keeps no store of its own
   (cmov, if-conversion).  That only pays when every counter of the loop
   becomes unconditional: the loop is innermost, stores to memory (without
   stores, conditional store motion works: md.c's cell-list walk keeps its
   edges), calls nothing that may store, and each of its branches and
   counted statements is in a block that every iteration runs (dominates
   the latch); otherwise one conditional counter left keeps the others in
   memory too, at twice the cost (apsp.c's relax loop).  Not when a
   comparison may trap and throw (-fnon-call-exceptions: a new statement
   must not add an exception edge), and for scalar comparisons only.  */
static bool
branchless_cond_ok (pp_fn *f, gimple *last)
{
  tree otype = TREE_TYPE (gimple_cond_lhs (last));
  if (!INTEGRAL_TYPE_P (otype) && !POINTER_TYPE_P (otype)
      && !SCALAR_FLOAT_TYPE_P (otype))
    return false;
  return !(f->fun->can_throw_non_call_exceptions
	   && operation_could_trap_p (gimple_cond_code (last),
				      FLOAT_TYPE_P (otype), false, NULL_TREE));
}

static bool
branchless_loop_ok (pp_fn *f, class loop *loop)
{
  if (!loop_outer (loop) || loop->inner)
    return false;
  for (size_t i = 0; i < f->acts.size (); i++)
    {
      pp_act &a = f->acts[i];
      if (a.kind == PP_ACT_PARAM)
	{
	  /* a __pp_param call in the loop: no store motion there */
	  basic_block pb = a.e ? a.e->src : a.stmt ? gimple_bb (a.stmt) : a.bb;
	  if (pb && flow_bb_inside_loop_p (loop, pb))
	    return false;
	  continue;
	}
      if (a.kind != PP_ACT_BRANCH && a.kind != PP_ACT_STMT
	  && a.kind != PP_ACT_WRAP)
	continue;
      basic_block bb = gimple_bb (a.stmt);
      if (bb->loop_father != loop)
	continue;
      if (!dominated_by_p (CDI_DOMINATORS, loop->latch, bb)
	  || (a.kind == PP_ACT_BRANCH && !branchless_cond_ok (f, a.stmt)))
	return false;
    }
  bool stores = false;
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes && body; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (is_gimple_call (s) && gimple_vdef (s))
	  {
	    free (body);
	    return false;
	  }
	if (gimple_vdef (s))
	  stores = true;
      }
  free (body);
  return stores;
}

static void
apply_branch (pp_fn *f, pp_act &a)
{
  gimple *last = a.stmt;
  edge te, fe;
  extract_true_false_edges_from_block (a.bb, &te, &fe);
  if (!a.branchless)
    {
      gsi_insert_seq_on_edge (te, inc_seq (f, a.slot, NULL_TREE, a.bb));
      if (!a.derived_f)
	gsi_insert_seq_on_edge (fe, inc_seq (f, a.slot + 1, NULL_TREE, a.bb));
      return;
    }
  tree type = long_long_unsigned_type_node;
  gimple_seq seq = NULL;
  tree b = make_temp_ssa_name (boolean_type_node, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (b, gimple_cond_code (last),
						  gimple_cond_lhs (last),
						  gimple_cond_rhs (last)));
  tree c = make_temp_ssa_name (type, NULL, "PP");
  gimple_seq_add_stmt (&seq, gimple_build_assign (c, NOP_EXPR, b));
  gimple_seq_add_seq (&seq, inc_seq (f, a.slot, c, NULL));
  if (!a.derived_f)
    {
      tree nc = make_temp_ssa_name (type, NULL, "PP");
      gimple_seq_add_stmt (&seq, gimple_build_assign (nc, BIT_XOR_EXPR, c,
						      build_int_cst (type, 1)));
      gimple_seq_add_seq (&seq, inc_seq (f, a.slot + 1, nc, NULL));
    }
  gimple_stmt_iterator gsi = gsi_for_stmt (last);
  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
}

/* cnt[slot] of the counter array CNT.  */
tree
pp_cnt_elt (tree cnt, int slot)
{
  return build4 (ARRAY_REF, long_long_unsigned_type_node, cnt,
		 build_int_cst (integer_type_node, slot), NULL_TREE, NULL_TREE);
}

/* __pp_register (&DESC, &CNT[0]).  */
gcall *
pp_register_call (tree desc, tree cnt)
{
  return gimple_build_call (register_decl, 2, build_fold_addr_expr (desc),
			    build_fold_addr_expr (pp_cnt_elt (cnt, 0)));
}

/* The registration check (pp-register.cc): noted for the late pass, or,
   when there is none, at the function's entry now, registering the
   function and the callees registered by their callers (pp-inline.cc);
   nothing in such a callee.  */
static void
insert_registration (pp_fn *f)
{
  pp_note_counters (f);
  if (f->no_check || pp_late_registration ())
    return;
  std::vector<std::pair<tree, tree> > regs (1, std::make_pair (f->desc_decl,
							       f->cnt_decl));
  std::vector<std::pair<tree, tree> > more = pp_callee_registrations (f);
  regs.insert (regs.end (), more.begin (), more.end ());
  pp_insert_check (f->fun, f->cnt_decl, regs);
}

void
pp_apply (pp_fn *f)
{
  /* Parameters first (they insert after statements that later actions
     may replace), then counters, then the call replacements.  */
  /* Decided on the body as it is, before anything is inserted.  */
  std::map<int, bool> loop_ok;
  pp_entry_branches (f);
  compute_asm_regions (f);
  for (size_t i = 0; i < f->acts.size (); i++)
    if (f->acts[i].kind == PP_ACT_BRANCH)
      {
	class loop *loop = gimple_bb (f->acts[i].stmt)->loop_father;
	if (!loop_ok.count (loop->num))
	  loop_ok[loop->num] = branchless_loop_ok (f, loop);
	f->acts[i].branchless = loop_ok[loop->num];
      }
  compute_bare_slots (f);
  for (size_t i = 0; i < f->acts.size (); i++)
    if (f->acts[i].kind == PP_ACT_PARAM)
      apply_param (f, f->acts[i]);
  for (size_t i = 0; i < f->acts.size (); i++)
    {
      pp_act &a = f->acts[i];
      switch (a.kind)
	{
	case PP_ACT_EDGE:
	  gsi_insert_seq_on_edge (a.e, inc_seq (f, a.slot, a.val, a.e->src));
	  break;
	case PP_ACT_HEAD:
	  {
	    gimple_stmt_iterator gsi = gsi_after_labels (a.bb);
	    gsi_insert_seq_before (&gsi, inc_seq (f, a.slot, NULL_TREE, a.bb),
				   GSI_SAME_STMT);
	  }
	  break;
	case PP_ACT_BRANCH:
	  apply_branch (f, a);
	  break;
	case PP_ACT_STMT:
	case PP_ACT_WRAP:
	  if (a.no_inc)
	    break;
	  {
	    gimple_stmt_iterator gsi = gsi_for_stmt (a.stmt);
	    gsi_insert_seq_before (&gsi, inc_seq (f, a.slot, NULL_TREE,
						  gimple_bb (a.stmt)),
				   GSI_SAME_STMT);
	  }
	  break;
	default:
	  break;
	}
    }
  for (size_t i = 0; i < f->acts.size (); i++)
    if (f->acts[i].kind == PP_ACT_WRAP)
      apply_wrap (f, f->acts[i]);
  acc_finish (f);
  gsi_commit_edge_inserts ();
  pp_bare_merge (f);
  pp_apply_timing (f);
  insert_registration (f);
  for (size_t i = 0; i < f->globals.size (); i++)
    pp_emit_global (f->globals[i]);
}
