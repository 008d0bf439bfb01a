/* perfpred: what the plugin knows of MPI.
 *
 * - The rank and the size of MPI_COMM_WORLD: a variable whose address is
 *   given to MPI_Comm_rank (MPI_Comm_size) with MPI_COMM_WORLD, and used
 *   nowhere else by address and never assigned, holds the rank (the number
 *   of ranks) everywhere it is read: its loads become the atoms (rank) and
 *   (nprocs).  One scan of the translation unit finds them.
 * - Communicator variables: a variable of the unit whose address is given
 *   only to MPI_Comm_split, MPI_Comm_dup (as the new communicator) and
 *   MPI_Comm_free, and never assigned, names a communicator: the calls it
 *   is passed to say comm=NAME, and a rank (size) variable queried with it
 *   reads as (rank NAME) ((nprocs NAME)).
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

enum { MV_RANK = 1, MV_SIZE = 2, MV_MPI = 4, MV_ESCAPED = 8, MV_ASSIGNED = 16,
       MV_NEWCOMM = 32, MV_CRANK = 64, MV_CSIZE = 128, MV_CONFLICT = 256 };
static std::map<tree, int> mpi_vars;
/* MV_CRANK / MV_CSIZE variables: the communicator variable queried.  */
static std::map<tree, tree> rank_comm;
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
    "MPI_Comm_split", "MPI_Comm_dup", "MPI_Comm_free",
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

/* The variable a communicator argument C of the call S was loaded from:
   in SSA form the load defining C; before it (other functions of the unit
   may not be in SSA yet) the gimplifier's temporary assigned just before
   S.  NULL_TREE when C is no plain load of a variable.  */
static tree
comm_var_of (tree c, gimple *s)
{
  while (c && CONVERT_EXPR_P (c))
    c = TREE_OPERAND (c, 0);
  if (!c)
    return NULL_TREE;
  if (TREE_CODE (c) == SSA_NAME)
    {
      gimple *d = SSA_NAME_DEF_STMT (c);
      if (d && is_gimple_assign (d) && gimple_assign_single_p (d)
	  && VAR_P (gimple_assign_rhs1 (d)))
	return gimple_assign_rhs1 (d);
      return NULL_TREE;
    }
  if (!VAR_P (c))
    return NULL_TREE;
  if (!DECL_ARTIFICIAL (c))
    return c;
  if (!gimple_bb (s))
    return NULL_TREE;
  gimple_stmt_iterator g = gsi_for_stmt (s);
  for (int k = 0; k < 8 && !gsi_end_p (g); k++)
    {
      gsi_prev (&g);
      if (gsi_end_p (g))
	break;
      gimple *d = gsi_stmt (g);
      if (is_gimple_assign (d) && gimple_assign_lhs (d) == c)
	return gimple_assign_single_p (d) && VAR_P (gimple_assign_rhs1 (d))
		 ? gimple_assign_rhs1 (d)
		 : NULL_TREE;
    }
  return NULL_TREE;
}

/* MPI_Comm_rank / MPI_Comm_size (COMM, &VAR): MV_RANK / MV_SIZE with
   MPI_COMM_WORLD, MV_CRANK / MV_CSIZE with another communicator (*comm:
   the variable it was loaded from), or 0.  */
static int
comm_query (gimple *s, tree *comm)
{
  const char *n = callee_name (s);
  *comm = NULL_TREE;
  if (!n || gimple_call_num_args (s) != 2)
    return 0;
  int k = strcmp (n, "MPI_Comm_rank") == 0   ? MV_RANK
	  : strcmp (n, "MPI_Comm_size") == 0 ? MV_SIZE
					     : 0;
  if (!k)
    return 0;
  tree a = gimple_call_arg (s, 1);
  if (TREE_CODE (a) != ADDR_EXPR || !VAR_P (TREE_OPERAND (a, 0))
      || !INTEGRAL_TYPE_P (TREE_TYPE (TREE_OPERAND (a, 0))))
    return 0;
  if (pp_mpi_is_world (gimple_call_arg (s, 0)))
    return k;
  *comm = comm_var_of (gimple_call_arg (s, 0), s);
  return *comm ? (k == MV_RANK ? MV_CRANK : MV_CSIZE) : 0;
}

/* The argument position of the new communicator of MPI_Comm_split,
   MPI_Comm_dup, MPI_Comm_free (the freed one), or -1.  */
static int
newcomm_pos (const char *n)
{
  if (!n)
    return -1;
  if (strcmp (n, "MPI_Comm_split") == 0)
    return 3;
  if (strcmp (n, "MPI_Comm_dup") == 0)
    return 1;
  if (strcmp (n, "MPI_Comm_free") == 0)
    return 0;
  return -1;
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
      tree qc;
      int q = comm_query (s, &qc);
      int nc = newcomm_pos (callee_name (s));
      if (qc)
	{
	  tree v = TREE_OPERAND (gimple_call_arg (s, 1), 0);
	  std::map<tree, tree>::iterator it = rank_comm.find (v);
	  if (it != rank_comm.end () && it->second != qc)
	    mpi_vars[v] |= MV_CONFLICT;    /* queried with two: no atom */
	  rank_comm[v] = qc;
	}
      for (unsigned i = 0; i < gimple_call_num_args (s); i++)
	{
	  tree a = gimple_call_arg (s, i);
	  if (TREE_CODE (a) == ADDR_EXPR && VAR_P (TREE_OPERAND (a, 0)))
	    mpi_vars[TREE_OPERAND (a, 0)] |= (q && i == 1)    ? q
					     : ((int) i == nc) ? MV_NEWCOMM
							       : MV_MPI;
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

/* A communicator variable: its address only given to MPI_Comm_split,
   MPI_Comm_dup and MPI_Comm_free, never assigned.  Its name in the
   descriptors, the same in every unit for a global: the assembler name;
   for a local or a static, made unique in the unit by its DECL_UID.  */
static const char *
comm_name (tree var)
{
  std::map<tree, int>::iterator it = mpi_vars.find (var);
  if (!var || !VAR_P (var) || TREE_THIS_VOLATILE (var) || !DECL_NAME (var)
      || it == mpi_vars.end () || it->second != MV_NEWCOMM)
    return NULL;
  static std::map<tree, std::string> names;
  std::string &n = names[var];
  if (n.empty ())
    n = TREE_PUBLIC (var)
	  ? IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (var))
	  : pp_fmt ("%s.%u", IDENTIFIER_POINTER (DECL_NAME (var)),
		    DECL_UID (var));
  return n.c_str ();
}

/* "(rank)", "(nprocs)", "(rank COMM)", "(nprocs COMM)" for a load of VAR,
   or NULL.  */
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
  if (it->second == MV_CRANK || it->second == MV_CSIZE)
    {
      const char *c = comm_name (rank_comm[var]);
      if (!c)
	return NULL;
      static std::map<tree, std::string> atoms;
      std::string &a = atoms[var];
      a = std::string (it->second == MV_CRANK ? "(rank " : "(nprocs ")
	  + pp_qname (c) + ")";
      return a.c_str ();
    }
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
	 && (it->second & (MV_MPI | MV_RANK | MV_SIZE | MV_CRANK | MV_CSIZE));
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
  /* color and key of MPI_Comm_split: in the peer and tag positions */
  { "MPI_Comm_split",   -1, -1,  1,  2, -1, -1, -1, -1, -1, 0 },
  { "MPI_Comm_dup",     -1, -1, -1, -1, -1, -1, -1, -1, -1, 0 },
  { "MPI_Comm_free",    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
};

/* The text of a communicator argument: world, a communicator variable's
   name, or ? (a communicator the model cannot follow).  */
static std::string
comm_text (tree c, gimple *s)
{
  if (pp_mpi_is_world (c))
    return "world";
  const char *n = comm_name (comm_var_of (c, s));
  return n ? pp_qname (n) : std::string ("?");
}

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
  bool split = strcmp (name, "MPI_Comm_split") == 0;
  std::string x;
  bool saved = f->param_ok;
  f->param_ok = false;    /* message fields use parameters, not make them */
  struct { const char *key; int pos; bool type; } fl[] = {
    { "count", d->count, false }, { "type", d->type, true },
    { split ? "color" : "peer", d->peer, false },
    { split ? "key" : "tag", d->tag, false },
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
    x += " comm=" + comm_text (gimple_call_arg (s, d->comm), s);
  int nc = newcomm_pos (name);
  if (nc >= 0 && nc < na)
    {
      tree a = gimple_call_arg (s, nc);
      const char *n = TREE_CODE (a) == ADDR_EXPR
			? comm_name (TREE_OPERAND (a, 0))
			: NULL;
      x += std::string (" newcomm=") + (n ? pp_qname (n) : std::string ("?"));
    }
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
