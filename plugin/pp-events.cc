/* perfpred: branch descriptors, event sites (synchronisation calls, which
 * are replaced by the runtime's __pp_w_NAME wrappers, and inline atomics)
 * and call sites.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

enum { IMPL_NO, IMPL_YES, IMPL_IF_NO_LOC };

struct pp_event_def
{
  const char *name;      /* assembler name of the replaced function */
  const char *kind;
  int implicit;
};

/* docs/runtime-abi.md, "Event wrappers".  */
static const pp_event_def events[] = {
  { "pthread_create", "create", IMPL_NO },
  { "pthread_join", "join", IMPL_NO },
  { "pthread_barrier_wait", "barrier", IMPL_NO },
  { "pthread_mutex_lock", "lock", IMPL_NO },
  { "pthread_mutex_trylock", "lock", IMPL_NO },
  { "pthread_mutex_unlock", "unlock", IMPL_NO },
  { "pthread_cond_wait", "cond_wait", IMPL_NO },
  { "pthread_cond_timedwait", "cond_wait", IMPL_NO },
  { "pthread_cond_signal", "cond_signal", IMPL_NO },
  { "pthread_cond_broadcast", "cond_broadcast", IMPL_NO },
  { "sem_wait", "sem_wait", IMPL_NO },
  { "sem_post", "sem_post", IMPL_NO },
  { "GOMP_parallel", "fork", IMPL_NO },
  { "GOMP_parallel_loop_static", "fork", IMPL_NO },
  { "GOMP_parallel_loop_dynamic", "fork", IMPL_NO },
  { "GOMP_parallel_loop_guided", "fork", IMPL_NO },
  { "GOMP_parallel_loop_runtime", "fork", IMPL_NO },
  { "GOMP_parallel_loop_nonmonotonic_dynamic", "fork", IMPL_NO },
  { "GOMP_parallel_loop_nonmonotonic_guided", "fork", IMPL_NO },
  { "GOMP_parallel_loop_maybe_nonmonotonic_runtime", "fork", IMPL_NO },
  { "GOMP_barrier", "barrier", IMPL_IF_NO_LOC },
  { "GOMP_loop_end", "barrier", IMPL_YES },
  { "GOMP_loop_end_nowait", "loop_end", IMPL_NO },
  { "GOMP_critical_start", "lock", IMPL_NO },
  { "GOMP_critical_name_start", "lock", IMPL_NO },
  { "GOMP_critical_end", "unlock", IMPL_NO },
  { "GOMP_critical_name_end", "unlock", IMPL_NO },
  { "GOMP_atomic_start", "lock", IMPL_NO },
  { "GOMP_atomic_end", "unlock", IMPL_NO },
  { "GOMP_single_start", "single", IMPL_NO },
  { "GOMP_sections_end", "barrier", IMPL_YES },
  /* Also wrapped by the runtime (runtime-abi.md, after the table).  */
  { "GOMP_parallel_loop_nonmonotonic_runtime", "fork", IMPL_NO },
  { "GOMP_parallel_sections", "fork", IMPL_NO },
  { "GOMP_sections_end_nowait", "loop_end", IMPL_NO },
  /* MPI (docs/descriptor-format.md, "MPI events").  */
  { "MPI_Init", "mpi_init", IMPL_NO },
  { "MPI_Init_thread", "mpi_init", IMPL_NO },
  { "MPI_Finalize", "mpi_finalize", IMPL_NO },
  { "MPI_Send", "send", IMPL_NO },
  { "MPI_Ssend", "send", IMPL_NO },
  { "MPI_Recv", "recv", IMPL_NO },
  { "MPI_Isend", "isend", IMPL_NO },
  { "MPI_Irecv", "irecv", IMPL_NO },
  { "MPI_Sendrecv", "sendrecv", IMPL_NO },
  { "MPI_Wait", "wait", IMPL_NO },
  { "MPI_Waitall", "waitall", IMPL_NO },
  { "MPI_Bcast", "bcast", IMPL_NO },
  { "MPI_Reduce", "reduce", IMPL_NO },
  { "MPI_Allreduce", "allreduce", IMPL_NO },
  { "MPI_Gather", "gather", IMPL_NO },
  { "MPI_Scatter", "scatter", IMPL_NO },
  { "MPI_Allgather", "allgather", IMPL_NO },
  { "MPI_Alltoall", "alltoall", IMPL_NO },
  { "MPI_Barrier", "mpi_barrier", IMPL_NO },
  { "MPI_Comm_split", "comm_split", IMPL_NO },
  { "MPI_Comm_dup", "comm_dup", IMPL_NO },
  { "MPI_Comm_free", "comm_free", IMPL_NO },
};
#define N_EVENTS (int) (sizeof events / sizeof events[0])

const char *
pp_event_name (int idx)
{
  return events[idx].name;
}

/* Match by assembler name: the DECL_NAME of the GOMP builtins is
   __builtin_GOMP_..., their assembler name is the library symbol.  */
int
pp_event_index (tree fn)
{
  if (!fn)
    return -1;
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  for (int i = 0; i < N_EVENTS; i++)
    if (strcmp (n, events[i].name) == 0)
      return i;
  return -1;
}

void
pp_note (pp_fn *f, location_t loc, const char *what, const char *why)
{
  if (!pp_verbose)
    return;
  int line = pp_line (loc);
  if (line)
    fprintf (stderr, "perfpred: %s: uninstrumented %s (line %d): %s\n",
	     f->asm_name, what, line, why);
  else
    fprintf (stderr, "perfpred: %s: uninstrumented %s: %s\n", f->asm_name,
	     what, why);
}

/* ------------------------------------------------------- thread starts */

static std::vector<tree> thread_starts;
static bool thread_starts_done;

/* VISIT every statement of every function body of the unit.  Every body
   is lowered (CFG) before the first one reaches this pass, so a walk at
   the first function sees the whole unit.  */
void
pp_walk_unit (void (*visit) (gimple *))
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg)
	continue;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  visit (gsi_stmt (gsi));
    }
}

/* A function whose address a pthread_create of the unit takes.  */
static void
note_thread_start (gimple *s)
{
  if (!is_gimple_call (s) || gimple_call_num_args (s) < 3)
    return;
  tree fd = gimple_call_fndecl (s);
  if (!fd || !DECL_NAME (fd)
      || strcmp (IDENTIFIER_POINTER (DECL_NAME (fd)), "pthread_create") != 0)
    return;
  tree a = gimple_call_arg (s, 2);
  if (TREE_CODE (a) == ADDR_EXPR
      && TREE_CODE (TREE_OPERAND (a, 0)) == FUNCTION_DECL)
    thread_starts.push_back (TREE_OPERAND (a, 0));
}

void
pp_collect_thread_starts (void)
{
  if (thread_starts_done)
    return;
  thread_starts_done = true;
  pp_walk_unit (note_thread_start);
}

bool
pp_is_thread_start (tree fndecl)
{
  for (size_t i = 0; i < thread_starts.size (); i++)
    if (thread_starts[i] == fndecl)
      return true;
  return false;
}

/* ------------------------------------------------------------- helpers */

static std::string
loop_text (pp_fn *f, basic_block bb)
{
  int l = pp_loop_id_of_bb (f, bb);
  return l < 0 ? std::string ("-") : pp_fmt ("%d", l);
}

/* Innermost branch of the same loop on one edge of which BB only runs:
   " guard=(B T|F)", or "".  */
std::string
pp_guard_text (pp_fn *f, basic_block bb)
{
  class loop *l = bb->loop_father;
  basic_block cur = bb;
  for (int n = 0; n < 64; n++)
    {
      basic_block d = get_immediate_dominator (CDI_DOMINATORS, cur);
      if (!d || d == ENTRY_BLOCK_PTR_FOR_FN (f->fun) || d->loop_father != l)
	break;
      std::map<int, int>::iterator it = f->branch_id.find (d->index);
      if (it != f->branch_id.end ())
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, d->succs)
	    if (single_pred_p (e->dest)
		&& dominated_by_p (CDI_DOMINATORS, bb, e->dest))
	      return pp_fmt (" guard=(%d %c)", it->second,
			     (e->flags & EDGE_TRUE_VALUE) ? 'T' : 'F');
	}
      cur = d;
    }
  return "";
}

/* Line of STMT; compiler-generated GOMP calls have none: borrow the
   nearest preceding statement's (that is the pragma line).  */
int
pp_site_line (gimple *stmt, tree fallback)
{
  int line = pp_stmt_line (stmt);
  if (line)
    return line;
  basic_block bb = gimple_bb (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  for (int hops = 0; hops < 8; hops++)
    {
      for (; !gsi_end_p (gsi); gsi_prev (&gsi))
	if (!is_gimple_debug (gsi_stmt (gsi))
	    && (line = pp_stmt_line (gsi_stmt (gsi))))
	  return line;
      if (!single_pred_p (bb) || single_pred (bb)->index < NUM_FIXED_BLOCKS)
	break;
      bb = single_pred (bb);
      gsi = gsi_last_bb (bb);
    }
  if (fallback)
    return pp_line (DECL_SOURCE_LOCATION (fallback));
  return 0;
}

static tree
fn_of_addr (tree a)
{
  if (a && TREE_CODE (a) == ADDR_EXPR
      && TREE_CODE (TREE_OPERAND (a, 0)) == FUNCTION_DECL)
    return TREE_OPERAND (a, 0);
  return NULL_TREE;
}

/* Values the parent stores into the OpenMP data block DATA (&.omp_data_o)
   before the fork call STMT, in the same block.  */
static std::string
fork_data (pp_fn *f, gimple *stmt, tree data)
{
  if (!data || TREE_CODE (data) != ADDR_EXPR)
    return "";
  tree obj = TREE_OPERAND (data, 0);
  std::string s;
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  for (gsi_prev (&gsi); !gsi_end_p (gsi); gsi_prev (&gsi))
    {
      gimple *g = gsi_stmt (gsi);
      if (is_gimple_debug (g) || !gimple_assign_single_p (g))
	continue;
      tree lhs = gimple_assign_lhs (g);
      if (TREE_CODE (lhs) != COMPONENT_REF || TREE_OPERAND (lhs, 0) != obj)
	continue;
      tree rhs = gimple_assign_rhs1 (g);
      std::string v = INTEGRAL_TYPE_P (TREE_TYPE (rhs)) ? pp_trace (f, rhs)
		      : TREE_CODE (rhs) == ADDR_EXPR ? pp_trace_addr (f, rhs)
		      : std::string ("?");
      s = "(" + std::string (pp_decl_name (TREE_OPERAND (lhs, 1))
			     ? pp_decl_name (TREE_OPERAND (lhs, 1)) : "?")
	  + " " + v + ")" + (s.empty () ? "" : " ") + s;
    }
  return " data=(" + s + ")";
}

static bool
is_atomic_builtin (tree fn)
{
  if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_NAME (fn));
  if (strncmp (n, "__atomic_", 9) != 0 && strncmp (n, "__sync_", 7) != 0)
    return false;
  return !strstr (n, "fence") && !strstr (n, "lock_free")
	 && strcmp (n, "__sync_synchronize") != 0;
}

/* ------------------------------------------------------------ branches */

/* Is the condition ending BB a branch the plugin describes: not a loop
   exit (the loop's counters cover it), no abnormal edge.  */
static bool
described_branch (basic_block bb)
{
  gimple *last = last_stmt (bb);
  if (!last || gimple_code (last) != GIMPLE_COND)
    return false;
  edge e;
  edge_iterator ei;
  if (loop_outer (bb->loop_father))
    FOR_EACH_EDGE (e, ei, bb->succs)
      if (loop_exit_edge_p (bb->loop_father, e))
	return false;
  edge te, fe;
  extract_true_false_edges_from_block (bb, &te, &fe);
  return !((te->flags | fe->flags) & EDGE_ABNORMAL);
}

/* Branch ids in RPO order, before anything is described: the guards of
   loops (described first) refer to them.  */
void
pp_number_branches (pp_fn *f)
{
  int n = n_basic_blocks_for_fn (f->fun);
  int *rpo = XNEWVEC (int, n);
  int k = pre_and_rev_post_order_compute_fn (f->fun, NULL, rpo, false);
  for (int i = 0; i < k; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (f->fun, rpo[i]);
      if (described_branch (bb))
	f->branch_id[bb->index] = f->nbranches++;
    }
  free (rpo);
}

/* Derived false counts.  A branch's true and false counts add up to the
   executions of its condition; when those are already known as a sum of
   counters, only the true edge is counted and the descriptor gives the
   false count as that sum minus the true counter (fslot=, docs/descriptor-
   format.md): one increment less, the one that costs the compiler most
   (docs/bench.md, session 9).  The executions of the condition's block B
   are known
     - when B is reached only over one edge of a branch A (through blocks
       with a single predecessor and a single successor): A's count on
       that edge (if (a && b), else if);
     - when B is in loop L (not in a sub-loop, not its header), dominates
       L's latch and the latch post-dominates B: B runs once per iteration,
       the latch executions H - E.
   Exact only if nothing between the known count and B (resp. in L) can
   leave without returning (a longjmp, an exit or a cancellation in a
   callee): so no call there but those safe_call accepts.  */
static bool safe_block (basic_block bb, int depth);

/* A call that returns: to an internal function, a built-in, a const or
   pure function (neither noreturn nor returns-twice); or one to a function of this unit
   whose body (a few levels deep) holds only such calls (md.c's
   wrap_diff), or the runtime's __pp_register and __pp_param (already in
   the bodies of functions instrumented before).  */
static bool
safe_call (gimple *s, int depth)
{
  if (gimple_call_internal_p (s))
    return true;
  int flags = gimple_call_flags (s);
  if (flags & (ECF_NORETURN | ECF_RETURNS_TWICE))
    return false;
  tree fn = gimple_call_fndecl (s);
  if ((fn && fndecl_built_in_p (fn, BUILT_IN_NORMAL))
      || (flags & (ECF_CONST | ECF_PURE)))
    return true;
  if (!fn)
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  if (!strcmp (n, "__pp_register") || !strcmp (n, "__pp_param"))
    return true;
  function *cf = DECL_STRUCT_FUNCTION (fn);
  if (depth >= 3 || !cf || !cf->cfg || !gimple_has_body_p (fn)
      || DECL_EXTERNAL (fn) || TREE_PUBLIC (fn))
    return false;     /* a public function may be interposed */
  /* Once per callee and unit (a large function calls the same helpers
     from many blocks); a result cut short by the depth stays false.  */
  static std::map<tree, bool> known;
  std::map<tree, bool>::iterator it = known.find (fn);
  if (it != known.end ())
    return it->second;
  known[fn] = false;  /* recursion */
  bool ok = true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cf)
    if (!safe_block (bb, depth + 1))
      {
	ok = false;
	break;
      }
  known[fn] = ok;
  return ok;
}

bool
pp_safe_call (gimple *s)
{
  return safe_call (s, 0);
}

/* Per block of the function being described (bb->index; cleared by
   pp_do_sites): every branch of a loop asks about the whole loop.  */
static std::map<int, bool> safe_cache;

static bool
safe_block (basic_block bb, int depth = 0)
{
  if (depth == 0)
    {
      std::map<int, bool>::iterator it = safe_cache.find (bb->index);
      if (it != safe_cache.end ())
	return it->second;
    }
  bool ok = true;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi) && ok;
       gsi_next (&gsi))
    if (is_gimple_call (gsi_stmt (gsi)) && !safe_call (gsi_stmt (gsi), depth))
      ok = false;
  if (depth == 0)
    safe_cache[bb->index] = ok;
  return ok;
}

#define PP_MAX_TERMS 24

static bool
block_count (pp_fn *f, basic_block bb, std::vector<int> *out,
	     bool whole_block = true)
{
  if (whole_block && !safe_block (bb))
    return false;
  basic_block cur = bb;
  for (int n = 0; n < 64 && single_pred_p (cur); n++)
    {
      edge e = single_pred_edge (cur);
      if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
	break;
      std::map<int, std::pair<std::vector<int>, std::vector<int> > >::iterator
	it = f->bcount.find (e->src->index);
      if (it != f->bcount.end ())
	{
	  *out = (e->flags & EDGE_TRUE_VALUE) ? it->second.first
					       : it->second.second;
	  return out->size () < PP_MAX_TERMS;
	}
      if (!single_succ_p (e->src) || !safe_block (e->src)
	  || e->src == ENTRY_BLOCK_PTR_FOR_FN (f->fun))
	break;
      cur = e->src;
    }
  /* (only while the branches are described: sites need one slot, this
     gives two) */
  if (!dom_info_available_p (CDI_POST_DOMINATORS))
    return false;
  class loop *l = bb->loop_father;
  std::map<int, int>::iterator li = f->loop_id.find (l->num);
  if (!loop_outer (l) || li == f->loop_id.end () || bb == l->header
      || !l->latch || f->loops[li->second].slot < 0
      || !dominated_by_p (CDI_DOMINATORS, l->latch, bb)
      || !dominated_by_p (CDI_POST_DOMINATORS, bb, l->latch))
    return false;
  /* the loop's safety, once per loop (safe_cache holds it as -1 - num) */
  std::map<int, bool>::iterator lc = safe_cache.find (-1 - l->num);
  bool safe = true;
  if (lc != safe_cache.end ())
    safe = lc->second;
  else
    {
      basic_block *body = get_loop_body (l);
      for (unsigned i = 0; i < l->num_nodes && safe; i++)
	safe = safe_block (body[i]);
      free (body);
      safe_cache[-1 - l->num] = safe;
    }
  if (!safe)
    return false;
  int s = f->loops[li->second].slot;
  out->assign (1, s);
  out->push_back (-(s + 1));
  return true;
}

/* Shared slots.  An event or call site at STMT runs exactly as often as
   its block is entered when nothing before it in the block can leave
   without returning; when that block is reached only over one edge of a
   branch whose count there is one counter (a true edge, or a false edge
   that is counted), the site takes that counter's slot and adds no
   increment of its own (if (rank == 0) MPI_Send (...), md.c's calls of
   wrap_diff under j != i).  Readers take counts by slot number, so a
   shared slot reads the same (docs/descriptor-format.md); but the cost
   model maps a slot to one call site, so two calls never share one.  */
static int
site_slot (pp_fn *f, gimple *stmt, bool is_call, bool *shared)
{
  *shared = false;
  basic_block bb = gimple_bb (stmt);
  bool safe = true;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
       !gsi_end_p (gsi) && gsi_stmt (gsi) != stmt && safe; gsi_next (&gsi))
    if (is_gimple_call (gsi_stmt (gsi)) && !safe_call (gsi_stmt (gsi), 0))
      safe = false;
  std::vector<int> base;
  if (safe && block_count (f, bb, &base, false) && base.size () == 1
      && base[0] > 0 && !(is_call && f->call_slots.count (base[0])))
    {
      *shared = true;
      if (is_call)
	f->call_slots.insert (base[0]);
      return base[0];
    }
  int s = f->nslots++;
  if (is_call)
    f->call_slots.insert (s);
  return s;
}

static std::string
slots_text (const std::vector<int> &v)
{
  std::string t = "(";
  for (size_t i = 0; i < v.size (); i++)
    t += pp_fmt ("%s%d", i ? " " : "", v[i]);
  return t + ")";
}

static void
do_branch (pp_fn *f, basic_block bb, gimple *last, bool mpi_guard)
{
  std::map<int, int>::iterator it = f->branch_id.find (bb->index);
  if (it == f->branch_id.end ())
    {
      edge e;
      edge_iterator ei;
      bool exit = false;
      if (loop_outer (bb->loop_father))
	FOR_EACH_EDGE (e, ei, bb->succs)
	  exit |= loop_exit_edge_p (bb->loop_father, e);
      if (!exit)
	pp_note (f, gimple_location (last), "branch", "abnormal edge");
      return;
    }
  int id = it->second;
  edge te, fe;
  extract_true_false_edges_from_block (bb, &te, &fe);
  std::vector<int> base;
  bool derived = block_count (f, bb, &base);
  int slot = f->nslots;
  f->nslots += derived ? 1 : 2;
  std::pair<std::vector<int>, std::vector<int> > &bc = f->bcount[bb->index];
  bc.first.assign (1, slot);
  if (derived)
    {
      bc.second = base;
      bc.second.push_back (-slot);
    }
  else
    bc.second.assign (1, slot + 1);
  std::string cond = "?";
  const char *c = pp_cmp_name (gimple_cond_code (last));
  /* Branch conditions use parameters, not make them; except those on
     the way to an MPI call: which ranks and iterations communicate must
     be known (if (mode == 0), if ((t + 1) % k == 0)).  */
  bool saved = f->param_ok;
  f->param_ok = mpi_guard;
  if (c)
    {
      /* the right operand traced first, as before (tracing names the
	 parameters in the order it meets them) */
      std::string b = pp_trace (f, gimple_cond_rhs (last));
      std::string a = pp_trace (f, gimple_cond_lhs (last));
      cond = pp_unsigned_cmp (gimple_cond_code (last), gimple_cond_lhs (last), gimple_cond_rhs (last), a, b);
      if (cond.empty ())
	cond = "(" + std::string (c) + " " + a + " " + b + ")";
    }
  f->param_ok = saved;
  f->body += pp_fmt ("branch id=%d loop=%s pos=%d line=%d slot=%d", id,
		     loop_text (f, bb).c_str (), pp_pos (f, bb),
		     pp_site_line (last, f->fndecl), slot)
	     + (derived ? " fslot=" + slots_text (bc.second) : std::string ())
	     + pp_guard_text (f, bb) + " cond=" + cond + "\n";
  pp_add_branch (f, last, slot, derived);
}

/* -------------------------------------------------------------- events */

static void do_mpi_other (pp_fn *f, gimple *stmt, const char *callee);

static void
do_event (pp_fn *f, gimple *stmt, int idx)
{
  tree fn = gimple_call_fndecl (stmt);
  int abi = pp_mpi_abi ();
  if (strncmp (events[idx].name, "MPI_", 4) == 0
      && abi != PP_MPI_ABI_OMPI && abi != PP_MPI_ABI_MPICH)
    {
      /* The runtime has wrappers for Open MPI's and MPICH's ABI only:
	 counted as a call perfpred does not model.  */
      pp_note (f, gimple_location (stmt), events[idx].name,
	       abi == PP_MPI_ABI_UNKNOWN
	       ? "no MPI_Comm type in this unit, the MPI is unknown: counted "
		 "as mpi_other"
	       : "MPI_Comm is neither Open MPI's nor MPICH's: counted as "
		 "mpi_other");
      do_mpi_other (f, stmt, events[idx].name);
      return;
    }
  if (!pp_wrapper_decl (idx, fn))
    {
      pp_note (f, gimple_location (stmt), events[idx].name,
	       "callee not prototyped or variadic");
      return;
    }
  basic_block bb = gimple_bb (stmt);
  int id = f->nevents++;
  bool shared;
  int slot = site_slot (f, stmt, false, &shared);
  const char *kind = events[idx].kind;
  const char *name = events[idx].name;
  unsigned na = gimple_call_num_args (stmt);
  tree child = NULL_TREE;
  std::string extra;
  if (strcmp (kind, "fork") == 0 && na >= 3)
    {
      child = fn_of_addr (gimple_call_arg (stmt, 0));
      extra += " child=" + pp_qname (child ? IDENTIFIER_POINTER
					     (DECL_ASSEMBLER_NAME (child))
					   : "?");
      extra += " nthreads=" + pp_trace (f, gimple_call_arg (stmt, 2));
      extra += fork_data (f, stmt, gimple_call_arg (stmt, 1));
      if (strncmp (name, "GOMP_parallel_loop_", 19) == 0 && na >= 7)
	{
	  extra += " range=(" + pp_trace (f, gimple_call_arg (stmt, 3)) + " "
		   + pp_trace (f, gimple_call_arg (stmt, 4)) + " "
		   + pp_trace (f, gimple_call_arg (stmt, 5)) + ")";
	  if (na >= 8)
	    extra += " chunk=" + pp_trace (f, gimple_call_arg (stmt, 6));
	}
    }
  else if (strcmp (kind, "create") == 0 && na >= 4)
    {
      child = fn_of_addr (gimple_call_arg (stmt, 2));
      extra += " child=" + pp_qname (child ? IDENTIFIER_POINTER
					     (DECL_ASSEMBLER_NAME (child))
					   : "?");
      extra += " arg=" + pp_trace (f, gimple_call_arg (stmt, 3));
      extra += pp_create_data (f, stmt);
      extra += " obj=" + pp_trace_addr (f, gimple_call_arg (stmt, 0));
      child = NULL_TREE;
    }
  else if (strncmp (name, "GOMP_critical_name", 18) == 0 && na >= 1)
    extra += " obj=" + pp_trace_addr (f, gimple_call_arg (stmt, 0));
  else if (strncmp (name, "GOMP_critical", 13) == 0)
    extra += " obj=(critical)";
  else if (strncmp (name, "GOMP_atomic", 11) == 0)
    extra += " obj=(atomic)";
  else if ((strncmp (name, "pthread_", 8) == 0 || strncmp (name, "sem_", 4) == 0)
	   && na >= 1)
    {
      extra += " obj=" + pp_trace_addr (f, gimple_call_arg (stmt, 0));
      /* the mutex a cond_wait releases while it waits */
      if (strcmp (kind, "cond_wait") == 0 && na >= 2)
	extra += " mutex=" + pp_trace_addr (f, gimple_call_arg (stmt, 1));
    }
  else if (strncmp (name, "MPI_", 4) == 0)
    extra += pp_mpi_fields (f, stmt, name);
  bool implicit = events[idx].implicit == IMPL_YES
		  || (events[idx].implicit == IMPL_IF_NO_LOC
		      && !gimple_has_location (stmt));
  if (implicit)
    extra += " implicit=1";
  f->body += pp_fmt ("event id=%d loop=%s pos=%d line=%d slot=%d kind=%s",
		     id, loop_text (f, bb).c_str (), pp_pos (f, bb),
		     pp_site_line (stmt, child ? child : f->fndecl), slot, kind)
	     + pp_guard_text (f, bb) + " callee=" + name + extra + "\n";
  pp_act a = {};
  a.kind = PP_ACT_WRAP;
  a.stmt = stmt;
  a.slot = slot;
  a.no_inc = shared;
  a.wrap = idx;
  a.site = id;
  f->acts.push_back (a);
}

/* An inline atomic: counted, not replaced.  */
static void
do_atomic (pp_fn *f, gimple *stmt, const char *callee)
{
  basic_block bb = gimple_bb (stmt);
  int id = f->nevents++;
  bool shared;
  int slot = site_slot (f, stmt, false, &shared);
  std::string obj = gimple_call_num_args (stmt) >= 1
		    ? pp_trace_addr (f, gimple_call_arg (stmt, 0))
		    : std::string ("?");
  f->body += pp_fmt ("event id=%d loop=%s pos=%d line=%d slot=%d kind=atomic",
		     id, loop_text (f, bb).c_str (), pp_pos (f, bb),
		     pp_site_line (stmt, f->fndecl), slot)
	     + pp_guard_text (f, bb) + " callee=" + callee + " obj=" + obj + "\n";
  if (!shared)
    pp_add_stmt (f, stmt, slot);
}

/* An MPI call perfpred does not model (MPI_Probe, MPI_Comm_split, ...):
   counted as an event of kind mpi_other, not replaced, so that the
   analyser can say what it leaves out.  */
static void
do_mpi_other (pp_fn *f, gimple *stmt, const char *callee)
{
  basic_block bb = gimple_bb (stmt);
  int id = f->nevents++;
  bool shared;
  int slot = site_slot (f, stmt, false, &shared);
  f->body += pp_fmt ("event id=%d loop=%s pos=%d line=%d slot=%d kind=mpi_other",
		     id, loop_text (f, bb).c_str (), pp_pos (f, bb),
		     pp_site_line (stmt, f->fndecl), slot)
	     + pp_guard_text (f, bb) + " callee=" + pp_qname (callee) + "\n";
  if (!shared)
    pp_add_stmt (f, stmt, slot);
}

/* --------------------------------------------------------------- calls */

/* A function of the program (not a library function, not ours).  */
static bool
is_program_fn (tree fn)
{
  if (fndecl_built_in_p (fn))
    return false;
  if (in_system_header_at (DECL_SOURCE_LOCATION (fn)))
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  return strncmp (n, "__pp_", 5) != 0 && strncmp (n, "GOMP_", 5) != 0
	 && strncmp (n, "omp_", 4) != 0 && strncmp (n, "pthread_", 8) != 0
	 && strncmp (n, "MPI_", 4) != 0 && strncmp (n, "PMPI_", 5) != 0;
}

/* A pointer argument as an object's address, so that a callee's
   obj=(arg p) names the caller's object (a barrier or lock passed as
   &bar, &bars[k], or a pointer parameter passed on): (addr NAME),
   (addr NAME INDEX) or (arg NAME); '?' for anything else (an offset,
   several indices: the analyser reads one).  */
static std::string
addr_arg (pp_fn *f, tree a)
{
  if (TREE_CODE (a) == INTEGER_CST)
    return pp_trace (f, a);     /* (void *) 0, (void *) 3 */
  std::string s = pp_trace_addr (f, a);
  if (s.compare (0, 5, "(arg ") == 0 && s.find (' ', 5) == std::string::npos)
    return s;
  if (s.compare (0, 6, "(addr ") != 0 || s == "(addr ?)"
      || s.find ("(off ") != std::string::npos)
    return "?";
  /* NAME and at most one index */
  std::vector<std::string> parts;
  return pp_split_op (s, "addr", &parts) && parts.size () <= 2 ? s : std::string ("?");
}

static void
do_call (pp_fn *f, gimple *stmt, tree fn)
{
  basic_block bb = gimple_bb (stmt);
  int id = f->ncalls++;
  bool shared;
  int slot = site_slot (f, stmt, true, &shared);
  std::string args;
  for (unsigned i = 0; i < gimple_call_num_args (stmt); i++)
    {
      tree a = gimple_call_arg (stmt, i);
      if (i)
	args += " ";
      if (INTEGRAL_TYPE_P (TREE_TYPE (a)))
	args += pp_trace (f, a);
      else if (POINTER_TYPE_P (TREE_TYPE (a)))
	args += addr_arg (f, a);
      else
	args += "?";
    }
  f->body += pp_fmt ("call id=%d loop=%s pos=%d line=%d slot=%d", id,
		     loop_text (f, bb).c_str (), pp_pos (f, bb),
		     pp_site_line (stmt, f->fndecl), slot)
	     + pp_guard_text (f, bb) + " callee="
	     + pp_qname (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)))
	     + " args=(" + args + ")\n";
  if (!shared)
    pp_add_stmt (f, stmt, slot);
}

/* ---------------------------------------------------------------- walk */

/* The blocks ending in a condition that dominate an MPI call.  */
static void
mpi_guard_blocks (pp_fn *f, std::vector<bool> *mark)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	tree fn = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
	if (!fn || strncmp (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)),
			    "MPI_", 4) != 0)
	  continue;
	for (basic_block d = get_immediate_dominator (CDI_DOMINATORS, bb);
	     d && d != ENTRY_BLOCK_PTR_FOR_FN (f->fun);
	     d = get_immediate_dominator (CDI_DOMINATORS, d))
	  {
	    gimple *last = last_stmt (d);
	    if (last && gimple_code (last) == GIMPLE_COND)
	      (*mark)[d->index] = true;
	  }
      }
}

void
pp_do_sites (pp_fn *f)
{
  int n = n_basic_blocks_for_fn (f->fun);
  int *rpo = XNEWVEC (int, n);
  int k = pre_and_rev_post_order_compute_fn (f->fun, NULL, rpo, false);
  std::vector<bool> mpi_guard (last_basic_block_for_fn (f->fun), false);
  mpi_guard_blocks (f, &mpi_guard);
  /* Branches first: guards of events and calls refer to them.  In RPO, a
     branch comes after the branches whose counts may give its own.  */
  calculate_dominance_info (CDI_POST_DOMINATORS);
  safe_cache.clear ();
  for (int i = 0; i < k; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (f->fun, rpo[i]);
      gimple *last = last_stmt (bb);
      if (last && gimple_code (last) == GIMPLE_COND)
	do_branch (f, bb, last, mpi_guard[bb->index]);
      else if (last && gimple_code (last) == GIMPLE_SWITCH)
	pp_note (f, gimple_location (last), "switch", "not modelled");
    }
  free_dominance_info (CDI_POST_DOMINATORS);
  for (int i = 0; i < k; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (f->fun, rpo[i]);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (!is_gimple_call (s))
	    continue;
	  if (gimple_call_internal_p (s))
	    {
	      if (gimple_call_internal_fn (s) == IFN_ATOMIC_COMPARE_EXCHANGE)
		do_atomic (f, s, ".ATOMIC_COMPARE_EXCHANGE");
	      continue;
	    }
	  tree fn = gimple_call_fndecl (s);
	  if (!fn)
	    {
	      pp_note (f, gimple_location (s), "call", "indirect call");
	      continue;
	    }
	  int idx = pp_event_index (fn);
	  if (idx >= 0)
	    do_event (f, s, idx);
	  else if (is_atomic_builtin (fn))
	    do_atomic (f, s, IDENTIFIER_POINTER (DECL_NAME (fn)));
	  else if (strncmp (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)),
			    "MPI_", 4) == 0
		   && !pp_mpi_harmless (IDENTIFIER_POINTER
					(DECL_ASSEMBLER_NAME (fn))))
	    do_mpi_other (f, s, IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)));
	  else if (is_program_fn (fn))
	    do_call (f, s, fn);
	}
    }
  safe_cache.clear ();
  free (rpo);
}
