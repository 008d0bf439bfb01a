/* perfpred: the functions a wrapper replaced stay referenced.
 *
 * A replaced call (GOMP_barrier -> __pp_w_GOMP_barrier) no longer names
 * the original function, and the runtime calls the original through a
 * weak reference (a program without OpenMP or MPI must link without
 * them).  In a shared link that is enough: libgomp.so is loaded whole.
 * In a static link it is not: the linker takes from libgomp.a only the
 * members some strong reference asks for, so GOMP_barrier and
 * GOMP_single_start were left out, the runtime's weak references resolved
 * to null, and an instrumented OpenMP program linked -static skipped every
 * barrier and ran every `single` on all threads (a BFS reached 13 of 65536
 * vertices).
 *
 * So each unit that had a call replaced keeps, once per function, a
 * reference to it: a static, read-only, artificial pointer initialised
 * with its address (a variable, not an asm directive: the LTO symbol
 * table sees it).  The instrumented object then asks the linker for
 * exactly the functions the plain one asked for.  Wrappers of parallel
 * regions also keep omp_get_thread_num and omp_get_num_threads, which
 * their trampoline calls (in libgomp.a they sit in parallel.o, which
 * GOMP_parallel_loop_* do not need).
 *
 * The runtime itself is referenced once per unit, through a link marker:
 * an object of the runtime whose name is the message a link without it
 * prints ("undefined reference to `perfpred: link with its runtime,
 * -lperfpred-rt ...'"); the entry points are weak references
 * (pp-emit.cc's make_fn), and the marker's object, rt-instance.o, pulls
 * in every one of them.  The MPI wrappers, in their own objects of the
 * static runtime only, have a marker each.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"
#include "../runtime/perfpred-link.h"

static GTY(()) tree kept;        /* TREE_LIST of the functions referenced */
static GTY(()) tree markers[PP_LINK_N];   /* the link markers referenced */

static const struct ggc_root_tab keep_roots[] = {
  { &kept, 1, sizeof (kept), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &markers[0], PP_LINK_N, sizeof (markers[0]), gt_ggc_mx_tree_node,
    gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

void
pp_keep_register_roots (const char *plugin_name)
{
  register_callback (plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) keep_roots);
}

/* static const void *const __pp_ref.N = &FN;  */
static void
ref_var (tree fn)
{
  static unsigned n;
  char *name;
  ASM_FORMAT_PRIVATE_NAME (name, "__pp_ref", n++);
  tree d = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
		       const_ptr_type_node);
  pp_static_artificial (d);
  TREE_READONLY (d) = 1;
  DECL_PRESERVE_P (d) = 1;       /* kept although nothing reads it */
  TREE_ADDRESSABLE (fn) = 1;
  DECL_INITIAL (d) = fold_convert (const_ptr_type_node,
				   build_fold_addr_expr (fn));
  DECL_ASSEMBLER_NAME (d);
  varpool_node::finalize_decl (d);
}

static void
keep_decl (tree fn)
{
  tree id = DECL_ASSEMBLER_NAME (fn);
  for (tree l = kept; l; l = TREE_CHAIN (l))
    if (DECL_ASSEMBLER_NAME (TREE_VALUE (l)) == id)
      return;
  kept = tree_cons (NULL_TREE, fn, kept);
  ref_var (fn);
}

/* The markers' names (a link without the runtime prints "undefined
   reference to `NAME'"; GNU as takes any text in a quoted symbol name).  */
static const char *const marker_name[PP_LINK_N] = {
  PP_LINK_MARKER_RUNTIME, PP_LINK_MARKER_OMPI, PP_LINK_MARKER_MPICH,
};

void
pp_keep_runtime (int which)
{
  if (markers[which])
    return;
  std::string asm_name = std::string ("*\"") + marker_name[which] + "\"";
  tree m = build_decl (BUILTINS_LOCATION, VAR_DECL,
		       get_identifier (marker_name[which]), char_type_node);
  TREE_PUBLIC (m) = 1;
  DECL_EXTERNAL (m) = 1;
  DECL_ARTIFICIAL (m) = 1;
  TREE_READONLY (m) = 1;
  SET_DECL_ASSEMBLER_NAME (m, get_identifier (asm_name.c_str ()));
  markers[which] = m;
  ref_var (m);
}

/* A runtime-side function known by name only (int NAME (void)).  */
static tree
extern_int_fn (const char *name)
{
  tree decl = build_fn_decl (name, build_function_type_list (integer_type_node,
							     NULL_TREE));
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_ASSEMBLER_NAME (decl);
  return decl;
}

void
pp_keep_callee (tree orig)
{
  if (!orig || TREE_CODE (orig) != FUNCTION_DECL || !TREE_PUBLIC (orig))
    return;
  keep_decl (orig);
  if (strncmp (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (orig)),
	       "GOMP_parallel", 13) == 0)
    {
      /* the builtins GCC declares with -fopenmp, or decls of our own */
      tree tn = builtin_decl_explicit (BUILT_IN_OMP_GET_THREAD_NUM);
      tree nt = builtin_decl_explicit (BUILT_IN_OMP_GET_NUM_THREADS);
      keep_decl (tn ? tn : extern_int_fn ("omp_get_thread_num"));
      keep_decl (nt ? nt : extern_int_fn ("omp_get_num_threads"));
    }
}
