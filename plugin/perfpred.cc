/* perfpred: GCC 12 plugin that describes and instruments parallel C
 * programs for scalability prediction.
 *
 * Copyright (C) 2026 perfpred developers.
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the
 * Free Software Foundation, either version 3 of the License, or (at your
 * option) any later version.
 *
 * Usage:
 *   gcc -fplugin=build/perfpred.so [-fplugin-arg-perfpred-verbose]
 *       [-fplugin-arg-perfpred-disable] prog.c -lperfpred-rt
 *
 * For every function (except system-header and extern-inline bodies and
 * the runtime's own functions) one GIMPLE pass, placed right after "ssa",
 * builds a descriptor text (docs/descriptor-format.md: loops with symbolic
 * counts, branches, events, calls, shapes, parameters), stores it in a
 * record in section __pp_desc, and inserts counters into a per-function
 * thread-local array (docs/runtime-abi.md).  Before/after, for
 *   for (i = 0; i < n; i++) s += a[i];
 *
 *   <bb 2>: i_1 = 0; goto <bb 4>;               (preheader edge 2->4)
 *   <bb 3>: s += a[i]; i_2 = i_1 + 1;
 *   <bb 4>: i = PHI <0(2), i_2(3)>; if (i < n_5(D)) goto 3; else goto 5;
 * becomes
 *   <bb E>: PP_1 = __pp_cnt.0[0]; if (PP_1 == 0) __pp_register (&__pp_desc.0,
 *           &__pp_cnt.0[0]);
 *   <bb 2>: ... PP_2 = MAX_EXPR <n_5(D), 0> + 1; __pp_cnt.0[1] += PP_2;
 *           __pp_cnt.0[2] += 1;                  (on the preheader edge)
 * and the loop itself is unchanged.  See docs/plugin.md.
 *
 * Debugging: -fdump-tree-all writes *.NNNt.perfpred (the plugin pass is
 * registered after option parsing, so -fdump-tree-perfpred is unknown).
 */
#include "pp.h"
#include "plugin-version.h"
#include "c-family/c-pragma.h"

#if GCCPLUGIN_VERSION_MAJOR != 12
#error "perfpred: this plugin supports GCC 12 only"
#endif

/* The plugin is compiled with -fvisibility=hidden and linked with
   plugin/perfpred.map: these two are the only symbols cc1 looks up.  */
__attribute__ ((visibility ("default"))) int plugin_is_GPL_compatible;

bool pp_verbose;
bool pp_disabled;

static struct plugin_info pp_info = {
  "0.1",
  "perfpred: describe loops, branches, shapes and synchronisation of a "
  "parallel C program and count them at run time.\n"
  "  -fplugin-arg-perfpred-verbose   print each descriptor and every "
  "construct left uninstrumented to stderr\n"
  "  -fplugin-arg-perfpred-disable   load, accept the pragmas, instrument "
  "nothing\n"
};

/* ------------------------------------------------------------- pragma */

/* c_register_pragma and pragma_lex exist in the C and C++ front ends but
   not in lto1; weak references keep the plugin loadable there.  */
extern void c_register_pragma (const char *, const char *,
			       pragma_handler_1arg) __attribute__ ((weak));
extern enum cpp_ttype pragma_lex (tree *, location_t *) __attribute__ ((weak));

struct pp_pragma
{
  std::string name;
  std::string var;
  tree fndecl;          /* function the pragma appeared in, or NULL */
};
static std::vector<pp_pragma> pragmas;

/* #pragma perfpred param NAME = var  */
static void
handle_pragma_param (cpp_reader *)
{
  tree x;
  location_t loc = input_location;
  pp_pragma p;
  enum cpp_ttype t = pragma_lex (&x, &loc);
  if (t != CPP_NAME)
    goto bad;
  p.name = IDENTIFIER_POINTER (x);
  if (pragma_lex (&x, &loc) != CPP_EQ)
    goto bad;
  if (pragma_lex (&x, &loc) != CPP_NAME)
    goto bad;
  p.var = IDENTIFIER_POINTER (x);
  if (pragma_lex (&x, &loc) != CPP_EOF)
    goto bad;
  p.fndecl = current_function_decl;
  pragmas.push_back (p);
  return;
bad:
  warning_at (loc, OPT_Wpragmas,
	      "perfpred: malformed %<#pragma perfpred param NAME = variable%>;"
	      " ignored");
  while (t != CPP_EOF)
    t = pragma_lex (&x, &loc);
}

static void
register_pragmas (void *, void *)
{
  if (c_register_pragma && pragma_lex)
    c_register_pragma ("perfpred", "param", handle_pragma_param);
}

const char *
pp_pragma_name (tree fndecl, tree var)
{
  const char *v = pp_decl_name (var);
  if (!v)
    return NULL;
  const char *found = NULL;
  for (size_t i = 0; i < pragmas.size (); i++)
    if (pragmas[i].var == v
	&& (pragmas[i].fndecl == fndecl || pragmas[i].fndecl == NULL_TREE))
      {
	found = pragmas[i].name.c_str ();
	if (pragmas[i].fndecl == fndecl)
	  return found;
      }
  return found;
}

/* --------------------------------------------------------------- pass */

/* Functions not to instrument, and why.  */
static const char *
skip_reason (function *fun)
{
  tree decl = fun->decl;
  if (!fun->cfg || !gimple_in_ssa_p (fun))
    return "no CFG/SSA";
  /* glibc's extern inline (gnu_inline) wrappers have bodies (pitfall 25).  */
  if (DECL_EXTERNAL (decl))
    return "extern inline body";
  if (in_system_header_at (DECL_SOURCE_LOCATION (decl)))
    return "system header";
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return "no_instrument_function";
  /* no prologue: only asm may run in it, a check's call would clobber the
     argument registers its asm reads and call with the stack unaligned */
  if (lookup_attribute ("naked", DECL_ATTRIBUTES (decl)))
    return "naked";
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  if (strncmp (n, "__pp_", 5) == 0 || strncmp (n, "pp_rt_", 6) == 0)
    return "runtime function";
  return NULL;
}

static unsigned int
pp_execute (function *fun)
{
  pp_mark_processed (fun->decl);
  const char *why = skip_reason (fun);
  const char *fname = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  if (why)
    {
      if (pp_verbose)
	fprintf (stderr, "perfpred: %s: not instrumented: %s\n", fname, why);
      return 0;
    }
  pp_collect_thread_starts ();
  pp_collect_mpi_vars ();

  /* At "ssa" the loop tree has neither preheaders nor recorded exits
     (single_exit would return NULL), and scev is not initialised.  */
  bool own_loops = false, own_scev = false;
  if (!loops_state_satisfies_p (fun, LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS))
    {
      loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
      own_loops = true;
    }
  if (!scev_initialized_p ())
    {
      scev_initialize ();
      own_scev = true;
    }
  calculate_dominance_info (CDI_DOMINATORS);

  pp_fn f;
  f.fun = fun;
  f.fndecl = fun->decl;
  f.asm_name = fname;
  f.nslots = 1;
  f.nscratch = 0;
  f.omp_child = strstr (fname, "._omp_fn.") != NULL;
  f.nbranches = f.nevents = f.ncalls = f.nshapes = 0;
  f.cnt_decl = f.desc_decl = f.scr_decl = NULL_TREE;
  f.no_check = f.kept_inline = false;
  {
    int n = n_basic_blocks_for_fn (fun);
    int *rpo = XNEWVEC (int, n);
    int k = pre_and_rev_post_order_compute_fn (fun, NULL, rpo, false);
    for (int i = 0; i < k; i++)
      f.bb_pos[rpo[i]] = i;
    free (rpo);
  }

  /* Analysis: descriptor text, slots, and the list of actions.  */
  std::string fops = pp_ops_text (&f, fun->x_current_loops->tree_root);
  f.param_ok = true;
  pp_number_branches (&f);
  pp_do_loops (&f);
  pp_do_shapes (&f);
  pp_do_sites (&f);
  pp_do_gdefs (&f);
  pp_do_timing (&f);

  const char *kind = f.omp_child ? "omp_child"
		     : pp_is_thread_start (fun->decl) ? "thread_start"
						      : "normal";
  /* The parameter names in order: call sites' positional args= and a
     create site's arg= bind to them.  */
  std::string args = "(";
  for (tree p = DECL_ARGUMENTS (fun->decl); p; p = DECL_CHAIN (p))
    {
      const char *pn = DECL_NAME (p) ? IDENTIFIER_POINTER (DECL_NAME (p)) : "?";
      bool plain = *pn != 0;
      for (const char *c = pn; *c; c++)
	if (!(ISALNUM (*c) || *c == '_'))
	  plain = false;
      args += std::string (args.size () > 1 ? " " : "") + (plain ? pn : "?");
    }
  args += ")";
  std::string text
    = "func name=" + pp_qname (fname) + " file="
      + pp_qname (main_input_filename ? main_input_filename : "?")
      + pp_fmt (" line=%d kind=%s nslots=%d args=",
		pp_line (DECL_SOURCE_LOCATION (fun->decl)), kind, f.nslots)
      + args + " ops=" + fops + "\n";
  /* the unit's size macros, in its first function's descriptor */
  text += pp_macro_lines ();
  for (size_t i = 0; i < f.params.size (); i++)
    text += pp_fmt ("param id=%d name=", (int) i)
	    + pp_qname (f.params[i].name.c_str ())
	    + " var=" + pp_qname (f.params[i].var.c_str ())
	    + pp_fmt (" kind=var line=%d", f.params[i].line)
	    + (f.params[i].pragma ? " pragma=1" : "") + "\n";
  text += f.body + "end\n";

  /* Instrumentation.  */
  f.kept_inline = pp_keep_inlinable (fun);
  if (f.kept_inline)
    f.no_check = pp_registered_by_callers (fun);
  pp_create_decls (&f);
  pp_apply (&f);
  if (f.no_check)
    pp_note_registered_by_callers (&f);
  pp_finish_desc (&f, text);
  if (pp_verbose)
    fputs (text.c_str (), stderr);

  if (own_scev)
    scev_finalize ();
  if (own_loops)
    loop_optimizer_finalize ();
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  cgraph_edge::rebuild_edges ();
  return TODO_update_ssa;
}

namespace {

const pass_data pass_data_perfpred = {
  GIMPLE_PASS,            /* type */
  "perfpred",             /* name */
  OPTGROUP_NONE,          /* optinfo_flags */
  TV_NONE,                /* tv_id */
  PROP_cfg | PROP_ssa,    /* properties_required */
  0,                      /* properties_provided */
  0,                      /* properties_destroyed */
  0,                      /* todo_flags_start */
  0,                      /* todo_flags_finish */
};

class pass_perfpred : public gimple_opt_pass
{
public:
  pass_perfpred (gcc::context *ctxt)
    : gimple_opt_pass (pass_data_perfpred, ctxt)
  {}

  bool gate (function *) final override { return !pp_disabled; }
  unsigned int execute (function *fun) final override
  {
    return pp_execute (fun);
  }
};

const pass_data pass_data_perfpred_reg = {
  GIMPLE_PASS,            /* type */
  "perfpred_reg",         /* name */
  OPTGROUP_NONE,          /* optinfo_flags */
  TV_NONE,                /* tv_id */
  PROP_cfg | PROP_ssa,    /* properties_required */
  0,                      /* properties_provided */
  0,                      /* properties_destroyed */
  0,                      /* todo_flags_start */
  0,                      /* todo_flags_finish */
};

/* The registration checks (pp-register.cc).  */
class pass_perfpred_reg : public gimple_opt_pass
{
public:
  pass_perfpred_reg (gcc::context *ctxt)
    : gimple_opt_pass (pass_data_perfpred_reg, ctxt)
  {}

  bool gate (function *) final override
  {
    return !pp_disabled && pp_late_registration ();
  }
  unsigned int execute (function *fun) final override
  {
    return pp_late_check (fun);
  }
};

} // anon namespace

__attribute__ ((visibility ("default"))) int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *ver)
{
  if (!plugin_default_version_check (ver, &gcc_version))
    {
      error ("perfpred: built for GCC %s, loaded into GCC %s",
	     gcc_version.basever, ver->basever);
      return 1;
    }
  bool keep_maybe_uninit = false;
  for (int i = 0; i < info->argc; i++)
    {
      const char *k = info->argv[i].key;
      if (strcmp (k, "verbose") == 0)
	pp_verbose = true;
      else if (strcmp (k, "disable") == 0)
	pp_disabled = true;
      else if (strcmp (k, "keep-maybe-uninitialized") == 0)
	keep_maybe_uninit = true;
      else if (strcmp (k, "no-loop-timing") == 0)
	pp_loop_timing = false;
      else
	{
	  error ("perfpred: unknown option %<-fplugin-arg-%s-%s%>",
		 info->base_name, k);
	  return 1;
	}
      if (info->argv[i].value)
	{
	  error ("perfpred: option %<-fplugin-arg-%s-%s%> takes no value",
		 info->base_name, k);
	  return 1;
	}
    }
  /* -Wmaybe-uninitialized follows inlining and jump threading, which the
     counters change: its false positives move between the plain and the
     instrumented build (SQLite's fts3IncrmergeLoad warns at -O2 without the
     plugin and at -O3 with it), and under -Werror a moved one would break
     the build.  The instrumented build does not run it (docs/plugin.md);
     the plain build is the one to read it from.  */
  if (!pp_disabled && !keep_maybe_uninit)
    warn_maybe_uninitialized = 0;
  register_callback (info->base_name, PLUGIN_INFO, NULL, &pp_info);
  register_callback (info->base_name, PLUGIN_PRAGMAS, register_pragmas, NULL);
  /* mpi.h's typedef MPI_Comm: which MPI's wrappers to call (pp-mpi.cc).  */
  register_callback (info->base_name, PLUGIN_FINISH_DECL, pp_mpi_finish_decl,
		     NULL);
  pp_register_roots (info->base_name);
  pp_keep_register_roots (info->base_name);

  /* After "ssa" (instance 1): the first point with SSA form (scev and
     niter need it), after ompexp (outlined OpenMP bodies and GOMP calls are
     explicit), before early inlining and any loop transformation (loops in
     source shape), at every -O level, and in cc1 before LTO streaming.  */
  struct register_pass_info pass;
  pass.pass = new pass_perfpred (g);
  pass.reference_pass_name = "ssa";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);

  /* Before "isel": the last GIMPLE pass that runs at every -O level,
     after inlining, cloning and splitting have placed the counters for
     good (pp-register.cc).  */
  struct register_pass_info reg;
  reg.pass = new pass_perfpred_reg (g);
  reg.reference_pass_name = "isel";
  reg.ref_pass_instance_number = 1;
  reg.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &reg);
  return 0;
}
