/* perfpred GCC plugin: shared declarations.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 *
 * The plugin is split into small files with one job each:
 *   perfpred.cc   registration, options, pragma, the pass and its driver
 *   pp-trace.cc   SSA value -> s-expression over symbols
 *   pp-loops.cc   loop descriptors, trip counts and loop counters
 *   pp-events.cc  branches, event sites (wrapper replacement), call sites
 *   pp-shapes.cc  array shapes and static operation counts
 *   pp-params.cc  problem parameters (values recorded with __pp_param)
 *   pp-mpi.cc     MPI: its ABI (Open MPI, MPICH), rank and size variables,
 *                 message fields
 *   pp-emit.cc    decls (counters, descriptors, runtime entry points),
 *                 counter-update code and the text buffer helpers
 */
#ifndef PERFPRED_PP_H
#define PERFPRED_PP_H

#define INCLUDE_STRING
#define INCLUDE_VECTOR
#define INCLUDE_MAP
#define INCLUDE_SET
#define INCLUDE_ALGORITHM
#include "gcc-plugin.h"
#include "bversion.h"

#if BUILDING_GCC_MAJOR != 12
#error "perfpred: this plugin supports GCC 12 only"
#endif

#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "cgraph.h"
#include "context.h"
#include "diagnostic-core.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "stringpool.h"
#include "attribs.h"
#include "varasm.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "gimple-pretty-print.h"
#include "tree-pretty-print.h"
#include "tree-cfg.h"
#include "tree-into-ssa.h"
#include "cfgloop.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-scalar-evolution.h"
#include "tree-chrec.h"
#include "langhooks.h"
#include "memmodel.h"
#include "target.h"
#include "builtins.h"
#include "tree-iterator.h"
#include "ipa-utils.h"
#include "cfganal.h"
#include "tree-dfa.h"
#include "tree-ssa-alias.h"
#include "internal-fn.h"
#include "tree-eh.h"
#include "output.h"
#include "input.h"

/* Options (perfpred.cc).  */
extern bool pp_verbose;
extern bool pp_disabled;

/* One instrumentation action, collected during analysis and applied once
   every slot is known (the counter array is sized by then).  */
enum pp_act_kind
{
  PP_ACT_EDGE,      /* cnt[slot] += val on edge E (val NULL: 1) */
  PP_ACT_HEAD,      /* cnt[slot] += 1 at the start of block BB */
  PP_ACT_STMT,      /* cnt[slot] += 1 before STMT */
  PP_ACT_WRAP,      /* cnt[slot] += 1 before STMT, then replace the call */
  PP_ACT_BRANCH,    /* the GIMPLE_COND STMT: cnt[slot] += taken on its true
		       edge, cnt[slot+1] on its false edge (pp-emit.cc) */
  PP_ACT_PARAM      /* __pp_param (&desc, site, VAL) after the def of VAL */
};

struct pp_act
{
  enum pp_act_kind kind;
  int slot;
  edge e;
  basic_block bb;
  gimple *stmt;
  tree val;
  int wrap;         /* index into the event table (PP_ACT_WRAP) */
  int site;         /* event id, or param id */
  bool branchless;  /* PP_ACT_BRANCH: counted without a branch (pp-emit.cc) */
  bool derived_f;   /* PP_ACT_BRANCH: only the true edge is counted, the
		       false count is derived (fslot=, pp-events.cc) */
  bool no_inc;      /* PP_ACT_WRAP: the site shares a branch's counter */
};

struct pp_param_info
{
  tree ssa;          /* the SSA name recorded, or NULL */
  edge e;            /* or a reload of the variable on this edge */
  gimple *def;       /* statement after which to record (NULL: block start) */
  basic_block bb;
  std::string name;
  std::string var;
  int line;
  bool pragma;
};

struct pp_loop_info
{
  class loop *loop;
  int id;
  int parent;
  int pos;
  int slot;
  tree iv;          /* primary induction variable (header PHI result) */
  tree hcount;      /* counted at entry: header executions per entry, an
		       unsigned long long tree valid on the preheader edge */
  int act_h, act_e; /* indices in acts of its H increment at entry and of
		       its E increment (-1: none) */
  int tslot;        /* timing slots (ticks, timed entries), or -1 */
  int tscratch;     /* its three slots in scr_decl (pp-timing.cc) */
};

/* Per-function state.  */
struct pp_fn
{
  function *fun;
  tree fndecl;
  const char *asm_name;
  int nslots;
  int nscratch;                        /* slots of scr_decl (pp-timing.cc) */
  bool omp_child;
  std::string body;                    /* descriptor lines after `func' */
  std::vector<pp_act> acts;
  std::vector<pp_param_info> params;
  std::vector<pp_loop_info> loops;     /* in id order */
  std::map<int, int> loop_id;          /* loop->num -> id */
  std::map<int, int> bb_pos;           /* bb->index -> RPO position */
  std::map<int, int> branch_id;        /* cond bb->index -> branch id */
  /* cond bb->index -> the branch's true and false counts as sums of
     signed slots (a negative number subtracts that slot)  */
  std::map<int, std::pair<std::vector<int>, std::vector<int> > > bcount;
  std::set<int> call_slots;            /* slots of call sites */
  std::vector<tree> globals;           /* globals named in expressions */
  int nbranches, nevents, ncalls, nshapes;
  bool param_ok;                       /* tracing may create params */
  tree cnt_decl;
  tree scr_decl;                       /* loop timing's scratch (pp-timing.cc) */
  tree desc_decl;
  bool no_check;                       /* registered by its callers */
  bool kept_inline;                    /* pp_keep_inlinable marked it */
};

/* pp-trace.cc */
std::string pp_trace (pp_fn *f, tree t, int depth = 0);
std::string pp_trace_addr (pp_fn *f, tree t, int depth = 0);
std::string pp_cst (tree t);
std::string pp_binop (const char *op, const std::string &a, const std::string &b);
bool pp_split_op (const std::string &s, const char *op, std::vector<std::string> *args);
const char *pp_cmp_name (enum tree_code code);
/* an ordering of A and B (traced: TA, TB) in an unsigned type against
   a constant, as the test it makes of the values, or "" (pp-trace.cc) */
std::string pp_unsigned_cmp (enum tree_code code, tree a, tree b, const std::string &ta, const std::string &tb);
bool pp_is_user_var (tree var);
const char *pp_decl_name (tree decl);
bool pp_expr_unknown (const std::string &s);
bool pp_is_omp_data_i (tree t);

/* pp-loops.cc */
void pp_do_loops (pp_fn *f);
int pp_loop_id_of_bb (pp_fn *f, basic_block bb);

/* EXPR can be computed on PRE, the preheader edge of LOOP.  */
bool pp_available_at (class loop *loop, edge pre, tree expr);

/* pp-ivbranch.cc: branches on an induction variable (== or != a value
   from before the loop) counted at loop entry; before pp_apply.  */
void pp_entry_branches (pp_fn *f);

/* pp-timing.cc: loop timing (on unless -fplugin-arg-perfpred-no-loop-timing) */
extern bool pp_loop_timing;
void pp_do_timing (pp_fn *f);      /* after pp_do_sites: slots, tslot= */
void pp_apply_timing (pp_fn *f);   /* after the counters are committed */
void pp_timing_decls (tree *begin, tree *end);   /* pp-emit.cc */
bool pp_bare_timing_ok (pp_fn *f);                /* pp-emit.cc */

/* pp-hoist.cc: loop counters moved out of the loops around them */
void pp_hoist_loop_counters (pp_fn *f);

/* pp-events.cc */
void pp_do_sites (pp_fn *f);
void pp_number_branches (pp_fn *f);
std::string pp_guard_text (pp_fn *f, basic_block bb);
int pp_event_index (tree fndecl);
/* The call S returns (no longjmp, exit or cancellation in it).  */
bool pp_safe_call (gimple *s);
bool pp_leaves_only_by_exits (class loop *loop);   /* pp-hoist.cc */
const char *pp_event_name (int idx);
void pp_walk_unit (void (*visit) (gimple *));
void pp_collect_thread_starts (void);

/* pp-threadarg.cc: the fields of the object a pthread_create hands to its
   thread: the create site's " data=(...)", the thread's "(shared FIELD)"
   (or "" where not recognised).  */
std::string pp_create_data (pp_fn *f, gimple *stmt);
std::string pp_thread_field (pp_fn *f, tree ref);
bool pp_global_written_by_threads (tree g);

/* pp-params.cc: "(var NAME)" for a new or known problem parameter, or ""
   when VAR cannot be one.  */
std::string pp_make_param (pp_fn *f, tree var, tree ssa, gimple *def,
			   basic_block bb);
std::string pp_make_param_before_loop (pp_fn *f, tree var, gimple *def);

/* pp-nondet.cc: T (an SSA name, or memory a load reads) comes from a
   clock or a random generator: never a problem parameter.  */
bool pp_nondet_value (pp_fn *f, tree t);
bool pp_nondet_call (gimple *s);

/* pp-gdefs.cc: a `gdef' line for each store to a global outside loops
   (docs/descriptor-format.md); after pp_do_sites.  */
void pp_do_gdefs (pp_fn *f);

/* pp-mpi.cc */
/* The MPI ABI of the unit's mpi.h: unknown (no MPI_Comm seen), Open MPI's,
   MPICH's (also Intel MPI's, MVAPICH's) or another one.  */
enum { PP_MPI_ABI_UNKNOWN, PP_MPI_ABI_OMPI, PP_MPI_ABI_MPICH, PP_MPI_ABI_OTHER };
int pp_mpi_abi (void);
void pp_mpi_finish_decl (void *gcc_data, void *user_data);
void pp_collect_mpi_vars (void);
const char *pp_mpi_var_atom (tree var);
bool pp_mpi_is_world (tree comm);
std::string pp_mpi_fields (pp_fn *f, gimple *s, const char *name);
bool pp_mpi_harmless (const char *name);
bool pp_mpi_private_var (tree var);
bool pp_call_takes_addr (gimple *s, tree var);
bool pp_stmt_writes_var (gimple *s, tree var);
/* T is computed the same at every iteration of LOOP (arithmetic on
   values from before it and loads nothing in it may change).  */
bool pp_value_invariant (class loop *loop, tree t);
/* No statement of LOOP may store to what the reference REF reads.  */
bool pp_ref_unclobbered (class loop *loop, tree ref);
bool pp_load_invariant (class loop *loop, gimple *def);
bool pp_is_thread_start (tree fndecl);
int pp_site_line (gimple *stmt, tree child);
void pp_note (pp_fn *f, location_t loc, const char *what, const char *why);

/* pp-shapes.cc */
void pp_do_shapes (pp_fn *f);
std::string pp_ops_text (pp_fn *f, class loop *loop);

/* pp-loops.cc: no statement of LOOP may clobber what the load DEF reads */
bool pp_load_invariant (class loop *loop, gimple *def);

/* pp-streams.cc */
std::string pp_streams_text (pp_fn *f, class loop *loop);

/* pp-emit.cc */
int pp_line (location_t loc);
int pp_stmt_line (gimple *stmt);
int pp_pos (pp_fn *f, basic_block bb);
void pp_add_edge (pp_fn *f, edge e, int slot, tree val);
void pp_add_head (pp_fn *f, basic_block bb, int slot);
void pp_add_stmt (pp_fn *f, gimple *stmt, int slot);
void pp_add_branch (pp_fn *f, gimple *cond, int slot, bool derived_f);
void pp_create_decls (pp_fn *f);
/* a file-scope static the plugin made: no DWARF, used, addressable */
void pp_static_artificial (tree decl);
void pp_apply (pp_fn *f);
/* pp-bare.cc: cnt[slot] += VAL (a GIMPLE operand, or NULL_TREE for 1) as
   a bare asm; after the function's increments are in place, those in a
   row merged into one asm.  */
gasm *pp_bare_asm (tree cnt_decl, int slot, tree val);
void pp_bare_merge (pp_fn *f);
void pp_finish_desc (pp_fn *f, const std::string &text);
tree pp_cnt_elt (tree cnt, int slot);
gcall *pp_register_call (tree desc, tree cnt);

/* pp-register.cc: the registration check, at the end of the GIMPLE
   passes (pp_late_check) or, where those may run without the plugin,
   at instrumentation (pp_insert_check).  */
bool pp_late_registration (void);
void pp_note_counters (pp_fn *f);
void pp_insert_check (function *fun, tree flag,
		      const std::vector<std::pair<tree, tree> > &regs);
unsigned int pp_late_check (function *fun);
void pp_emit_global (tree decl);
void pp_register_roots (const char *plugin_name);

/* pp-inline.cc */
bool pp_keep_inlinable (function *fun);
void pp_mark_processed (tree decl);
bool pp_registered_by_callers (function *fun);
void pp_note_registered_by_callers (pp_fn *f);
std::vector<std::pair<tree, tree> > pp_callee_registrations (pp_fn *f);
tree pp_wrapper_decl (int idx, tree orig_fndecl);
/* pp-keep.cc: the unit references ORIG although its calls now go to a
   wrapper (a static link must still pull it in).  */
void pp_keep_callee (tree orig);
/* pp-keep.cc: the unit's one strong reference to the runtime (or to its
   MPI wrappers for one MPI), a symbol whose name is the message a link
   without it prints; the runtime defines it (runtime/perfpred-rt.h).  */
enum { PP_LINK_RUNTIME, PP_LINK_OMPI, PP_LINK_MPICH, PP_LINK_N };
void pp_keep_runtime (int which);
void pp_keep_register_roots (const char *plugin_name);
std::string pp_fmt (const char *fmt, ...) ATTRIBUTE_PRINTF_1;
std::string pp_qname (const char *s);
/* pp-macros.cc: the unit's `macro name=N value=V` lines (size macros),
   once: for the first function described, "" afterwards.  */
std::string pp_macro_lines (void);

/* perfpred.cc: pragma names.  */
const char *pp_pragma_name (tree fndecl, tree var);

#endif
