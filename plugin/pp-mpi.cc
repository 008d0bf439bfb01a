/* perfpred: what the plugin knows of MPI.
 *
 * - The rank and the size of MPI_COMM_WORLD: a variable whose address is
 *   given to MPI_Comm_rank (MPI_Comm_size) with MPI_COMM_WORLD, and used
 *   nowhere else by address and never assigned, holds the rank (the number
 *   of ranks) everywhere it is read: its loads become the atoms (rank) and
 *   (nprocs).  One scan of the translation unit finds them.
 * - The fields of an MPI event site: count, datatype, peer, tag, root and
 *   communicator as expressions in the program's symbols, by the argument
 *   positions of each call (docs/descriptor-format.md, "MPI events").
 * - Which MPI the unit was compiled with, from its type MPI_Comm: Open
 *   MPI's is a pointer to struct ompi_communicator_t, MPICH's an int.  The
 *   runtime has one set of wrappers per ABI (docs/runtime-abi.md).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

/* ---------------------------------------------------------- the ABI */

static int mpi_abi = PP_MPI_ABI_UNKNOWN;

/* The ABI whose MPI_Comm is the type T; unknown for any other MPI.  */
static int
abi_of_comm_type (tree t)
{
  t = TYPE_MAIN_VARIANT (t);
  if (TREE_CODE (t) == INTEGER_TYPE && TYPE_PRECISION (t) == 32
      && !TYPE_UNSIGNED (t))
    return PP_MPI_ABI_MPICH;
  if (POINTER_TYPE_P (t))
    {
      tree s = TYPE_MAIN_VARIANT (TREE_TYPE (t));
      tree n = TYPE_NAME (s);
      if (n && TREE_CODE (n) == TYPE_DECL)
	n = DECL_NAME (n);
      if (TREE_CODE (s) == RECORD_TYPE && n
	  && TREE_CODE (n) == IDENTIFIER_NODE
	  && strcmp (IDENTIFIER_POINTER (n), "ompi_communicator_t") == 0)
	return PP_MPI_ABI_OMPI;
    }
  return PP_MPI_ABI_OTHER;
}

static bool
is_mpi_comm_decl (tree d)
{
  return d && TREE_CODE (d) == TYPE_DECL && DECL_NAME (d)
	 && strcmp (IDENTIFIER_POINTER (DECL_NAME (d)), "MPI_Comm") == 0;
}

/* PLUGIN_FINISH_DECL: the C front end reports the typedef MPI_Comm of
   mpi.h (the C++ one does not report typedefs: see note_abi_of_call).  */
void
pp_mpi_finish_decl (void *gcc_data, void *)
{
  tree d = (tree) gcc_data;
  if (mpi_abi == PP_MPI_ABI_UNKNOWN && is_mpi_comm_decl (d))
    mpi_abi = abi_of_comm_type (TREE_TYPE (d));
}

/* Else the first MPI function called in the unit with an MPI_Comm
   parameter (MPI_Comm_rank, MPI_Send, ...) tells.  */
static void
note_abi_of_call (tree fd)
{
  if (mpi_abi != PP_MPI_ABI_UNKNOWN || !fd)
    return;
  for (tree a = TYPE_ARG_TYPES (TREE_TYPE (fd)); a; a = TREE_CHAIN (a))
    if (TREE_VALUE (a) && is_mpi_comm_decl (TYPE_NAME (TREE_VALUE (a))))
      {
	mpi_abi = abi_of_comm_type (TREE_VALUE (a));
	return;
      }
}

int
pp_mpi_abi (void)
{
  return mpi_abi;
}

/* ------------------------------------------------- rank and size vars */

enum { MV_RANK = 1, MV_SIZE = 2, MV_MPI = 4, MV_ESCAPED = 8, MV_ASSIGNED = 16 };
static std::map<tree, int> mpi_vars;
static bool mpi_vars_done;

static const char *
callee_name (gimple *s)
{
  tree fd = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
  if (!fd || !DECL_NAME (fd))
    return NULL;
  return IDENTIFIER_POINTER (DECL_NAME (fd));
}

/* MPI calls that may write through a pointer argument but do not keep it
   past their return (the nonblocking ones do: they are not here).  */
static bool
mpi_noncapturing (const char *n)
{
  static const char *const nc[] = {
    "MPI_Init", "MPI_Init_thread", "MPI_Comm_rank", "MPI_Comm_size",
    "MPI_Send", "MPI_Ssend", "MPI_Recv", "MPI_Sendrecv", "MPI_Bcast",
    "MPI_Reduce", "MPI_Allreduce", "MPI_Gather", "MPI_Scatter",
    "MPI_Allgather", "MPI_Alltoall", "MPI_Get_count", "MPI_Type_size",
    "MPI_Query_thread", "MPI_Initialized", "MPI_Finalized",
  };
  for (size_t i = 0; n && i < sizeof nc / sizeof nc[0]; i++)
    if (strcmp (n, nc[i]) == 0)
      return true;
  return false;
}

/* MPI_COMM_WORLD: Open MPI's &ompi_mpi_comm_world (possibly converted),
   MPICH's integer constant 0x44000000.  */
bool
pp_mpi_is_world (tree c)
{
  while (c && CONVERT_EXPR_P (c))
    c = TREE_OPERAND (c, 0);
  if (!c)
    return false;
  if (TREE_CODE (c) == INTEGER_CST)
    return tree_fits_shwi_p (c) && tree_to_shwi (c) == 0x44000000;
  if (TREE_CODE (c) == ADDR_EXPR && VAR_P (TREE_OPERAND (c, 0)))
    {
      tree v = TREE_OPERAND (c, 0);
      return DECL_NAME (v)
	     && strcmp (IDENTIFIER_POINTER (DECL_NAME (v)),
			"ompi_mpi_comm_world") == 0;
    }
  return false;
}

/* MPI_Comm_rank / MPI_Comm_size (WORLD, &VAR): which, or 0.  */
static int
comm_query (gimple *s)
{
  const char *n = callee_name (s);
  if (!n || gimple_call_num_args (s) != 2)
    return 0;
  int k = strcmp (n, "MPI_Comm_rank") == 0   ? MV_RANK
	  : strcmp (n, "MPI_Comm_size") == 0 ? MV_SIZE
					     : 0;
  if (!k || !pp_mpi_is_world (gimple_call_arg (s, 0)))
    return 0;
  tree a = gimple_call_arg (s, 1);
  if (TREE_CODE (a) != ADDR_EXPR || !VAR_P (TREE_OPERAND (a, 0))
      || !INTEGRAL_TYPE_P (TREE_TYPE (TREE_OPERAND (a, 0))))
    return 0;
  return k;
}

static tree
mark_escaped (tree *tp, int *walk_subtrees, void *)
{
  if (TREE_CODE (*tp) == ADDR_EXPR && VAR_P (TREE_OPERAND (*tp, 0)))
    mpi_vars[TREE_OPERAND (*tp, 0)] |= MV_ESCAPED;
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

static void
scan_stmt (gimple *s)
{
  if (is_gimple_debug (s) || gimple_clobber_p (s))
    return;
  /* -fsanitize=address poisons and unpoisons every addressable local with
     .ASAN_MARK (&v): that is no use of its value.  */
  if (is_gimple_call (s) && gimple_call_internal_p (s)
      && gimple_call_internal_fn (s) == IFN_ASAN_MARK)
    return;
  if (is_gimple_assign (s) && VAR_P (gimple_assign_lhs (s)))
    mpi_vars[gimple_assign_lhs (s)] |= MV_ASSIGNED;
  const char *cn = callee_name (s);
  if (cn && (strncmp (cn, "MPI_", 4) == 0 || strncmp (cn, "PMPI_", 5) == 0))
    note_abi_of_call (gimple_call_fndecl (s));
  if (is_gimple_call (s) && mpi_noncapturing (cn))
    {
      int q = comm_query (s);
      for (unsigned i = 0; i < gimple_call_num_args (s); i++)
	{
	  tree a = gimple_call_arg (s, i);
	  if (TREE_CODE (a) == ADDR_EXPR && VAR_P (TREE_OPERAND (a, 0)))
	    mpi_vars[TREE_OPERAND (a, 0)] |= (q && i == 1) ? q : MV_MPI;
	  else
	    walk_tree (&a, mark_escaped, NULL, NULL);
	}
      if (gimple_call_lhs (s))
	{
	  tree l = gimple_call_lhs (s);
	  walk_tree (&l, mark_escaped, NULL, NULL);
	}
      return;
    }
  struct walk_stmt_info wi;
  memset (&wi, 0, sizeof wi);
  walk_gimple_op (s, mark_escaped, &wi);
}

void
pp_collect_mpi_vars (void)
{
  if (mpi_vars_done)
    return;
  mpi_vars_done = true;
  pp_walk_unit (scan_stmt);
}

/* "(rank)", "(nprocs)" for a load of VAR, or NULL.  */
const char *
pp_mpi_var_atom (tree var)
{
  std::map<tree, int>::iterator it = mpi_vars.find (var);
  if (it == mpi_vars.end ())
    return NULL;
  if (it->second == MV_RANK)
    return "(rank)";
  if (it->second == MV_SIZE)
    return "(nprocs)";
  return NULL;
}

/* A local variable whose address only blocking MPI calls see: a call that
   is not one of those with its address cannot change it.  */
bool
pp_mpi_private_var (tree var)
{
  if (!VAR_P (var) || is_global_var (var) || TREE_THIS_VOLATILE (var))
    return false;
  std::map<tree, int>::iterator it = mpi_vars.find (var);
  return it != mpi_vars.end () && !(it->second & MV_ESCAPED)
	 && (it->second & (MV_MPI | MV_RANK | MV_SIZE));
}

/* Can S change the variable VAR, whose address only blocking MPI calls
   see: an assignment to it, a call taking its address, an asm.  */
bool
pp_stmt_writes_var (gimple *s, tree var)
{
  if (gimple_code (s) == GIMPLE_ASM)
    return true;
  /* The end of its scope is no change of its value, nor is
     -fsanitize=address's poisoning (.ASAN_MARK (&v)).  */
  if (is_gimple_debug (s) || gimple_clobber_p (s)
      || (is_gimple_call (s) && gimple_call_internal_p (s)
	  && gimple_call_internal_fn (s) == IFN_ASAN_MARK))
    return false;
  tree lhs = gimple_get_lhs (s);
  if (lhs && get_base_address (lhs) == var)
    return true;
  return is_gimple_call (s) && pp_call_takes_addr (s, var);
}

/* Does the call S take the address of VAR?  */
bool
pp_call_takes_addr (gimple *s, tree var)
{
  for (unsigned i = 0; i < gimple_call_num_args (s); i++)
    {
      tree a = gimple_call_arg (s, i);
      if (TREE_CODE (a) == ADDR_EXPR && TREE_OPERAND (a, 0) == var)
	return true;
    }
  return false;
}

/* ------------------------------------------------------ event fields */

/* Argument positions, -1 when the call has no such argument.  */
struct pp_mpi_def
{
  const char *name;
  int count, type, peer, tag, root, rcount, rtype, rpeer, rtag, comm;
};

static const pp_mpi_def defs[] = {
  /*                     count type peer tag root rcnt rtyp rpeer rtag comm */
  { "MPI_Send",          1,  2,  3,  4, -1, -1, -1, -1, -1, 5 },
  { "MPI_Ssend",         1,  2,  3,  4, -1, -1, -1, -1, -1, 5 },
  { "MPI_Recv",          1,  2,  3,  4, -1, -1, -1, -1, -1, 5 },
  { "MPI_Isend",         1,  2,  3,  4, -1, -1, -1, -1, -1, 5 },
  { "MPI_Irecv",         1,  2,  3,  4, -1, -1, -1, -1, -1, 5 },
  { "MPI_Sendrecv",      1,  2,  3,  4, -1,  6,  7,  8,  9, 10 },
  { "MPI_Wait",         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
  { "MPI_Waitall",       0, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
  { "MPI_Bcast",         1,  2, -1, -1,  3, -1, -1, -1, -1, 4 },
  { "MPI_Reduce",        2,  3, -1, -1,  5, -1, -1, -1, -1, 6 },
  { "MPI_Allreduce",     2,  3, -1, -1, -1, -1, -1, -1, -1, 5 },
  { "MPI_Gather",        1,  2, -1, -1,  6,  4,  5, -1, -1, 7 },
  { "MPI_Scatter",       1,  2, -1, -1,  6,  4,  5, -1, -1, 7 },
  { "MPI_Allgather",     1,  2, -1, -1, -1,  4,  5, -1, -1, 6 },
  { "MPI_Alltoall",      1,  2, -1, -1, -1,  4,  5, -1, -1, 6 },
  { "MPI_Barrier",      -1, -1, -1, -1, -1, -1, -1, -1, -1, 0 },
};

/* The datatype's name: Open MPI's &ompi_mpi_double, MPICH's constant.  */
static std::string
type_text (tree t)
{
  while (t && CONVERT_EXPR_P (t))
    t = TREE_OPERAND (t, 0);
  if (t && TREE_CODE (t) == ADDR_EXPR && VAR_P (TREE_OPERAND (t, 0))
      && DECL_NAME (TREE_OPERAND (t, 0)))
    return pp_qname (IDENTIFIER_POINTER (DECL_NAME (TREE_OPERAND (t, 0))));
  if (t && TREE_CODE (t) == INTEGER_CST && tree_fits_uhwi_p (t))
    return pp_fmt ("0x%lx", (unsigned long) tree_to_uhwi (t));
  return "?";
}

static std::string
int_arg (pp_fn *f, gimple *s, int i)
{
  tree a = gimple_call_arg (s, i);
  return INTEGRAL_TYPE_P (TREE_TYPE (a)) ? pp_trace (f, a) : std::string ("?");
}

/* " count=... peer=... comm=world" for the MPI call S named NAME.  */
std::string
pp_mpi_fields (pp_fn *f, gimple *s, const char *name)
{
  const pp_mpi_def *d = NULL;
  for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
    if (strcmp (defs[i].name, name) == 0)
      d = &defs[i];
  if (!d)
    return "";
  int na = (int) gimple_call_num_args (s);
  std::string x;
  bool saved = f->param_ok;
  f->param_ok = false;    /* message fields use parameters, not make them */
  struct { const char *key; int pos; bool type; } fl[] = {
    { "count", d->count, false }, { "type", d->type, true },
    { "peer", d->peer, false },   { "tag", d->tag, false },
    { "root", d->root, false },   { "rcount", d->rcount, false },
    { "rtype", d->rtype, true },  { "rpeer", d->rpeer, false },
    { "rtag", d->rtag, false },
  };
  for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
    if (fl[i].pos >= 0 && fl[i].pos < na)
      x += std::string (" ") + fl[i].key + "="
	   + (fl[i].type ? type_text (gimple_call_arg (s, fl[i].pos))
			 : int_arg (f, s, fl[i].pos));
  if (d->comm >= 0 && d->comm < na)
    x += pp_mpi_is_world (gimple_call_arg (s, d->comm)) ? " comm=world"
							 : " comm=?";
  f->param_ok = saved;
  return x;
}

/* MPI calls that neither communicate nor synchronise: no event.  */
bool
pp_mpi_harmless (const char *n)
{
  static const char *const ok[] = {
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Wtime", "MPI_Wtick",
    "MPI_Get_processor_name", "MPI_Initialized", "MPI_Finalized",
    "MPI_Get_count", "MPI_Type_size", "MPI_Get_version",
    "MPI_Get_library_version", "MPI_Query_thread", "MPI_Error_string",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    if (strcmp (n, ok[i]) == 0)
      return true;
  return false;
}
