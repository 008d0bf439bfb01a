/* perfpred: the bare form of a counter increment, and bare increments in
 * a row merged into one asm.
 *
 * The bare form (pp-emit.cc says where it is used, and why) is a volatile
 * asm that names the counter in its text and has no memory operand:
 *   leaq __pp_cnt.N@tpoff, %r11;  addq $v, %fs:OFF(%r11)
 * (both assembler dialects), with r11 in its clobbers.  The base register:
 * processors that forward a store to the next load through a base
 * register and displacement (AMD's memory renaming) do not for an address
 * without one (%fs:SYM@tpoff+OFF): a loop with such an increment on its
 * hot path ran 1.4 times slower (apsp.c).  It is r11, clobbered, rather
 * than a scratch output operand: an output is an SSA name and a pseudo
 * register that every later pass carries, and cost the compiler more than
 * the asm (docs/bench.md, session 13: md.c 1.208 -> 1.178 times the plain
 * build).  r11 is call-clobbered and holds no argument; pp-emit.cc's
 * bare_unit_ok checks that the unit does not reserve it.
 *
 * A loop counted at entry adds two increments on its preheader edge
 * (H += h, E += 1), and a block often holds several: the preheaders of a
 * loop nest, a block that ends an inner loop and starts the next.  Every
 * asm statement is work for every later pass, so a run of them (debug
 * statements aside) becomes one asm, with one leaq per counter array and
 * the values as "er" inputs, at most 8 per asm (each input needs a
 * register or an immediate at that point).  The same instructions in the
 * same order: the counts cannot change.  Debug statements are skipped so
 * that -g does not change the code (-fcompare-debug).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

namespace {

struct bare_inc
{
  const char *sym;   /* the counter array's assembler name */
  long off;          /* the slot's byte offset */
  tree val;          /* the value added (a GIMPLE operand), or NULL_TREE for 1 */
};

/* The single increments built by pp_bare_asm, for pp_bare_merge.  */
std::map<gimple *, bare_inc> singles;

const int max_inputs = 8;

/* One asm for the increments V, in order.  */
gasm *
build (const std::vector<bare_inc> &v)
{
  std::string t;
  const char *prev = NULL;
  vec<tree, va_gc> *ins = NULL, *clobbers = NULL;
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
					    build_string (4, "r11")));
  for (size_t i = 0; i < v.size (); i++)
    {
      if (!prev || strcmp (prev, v[i].sym))
	t += pp_fmt ("%s{leaq\t%s@tpoff, %%%%r11|lea\tr11, %s@tpoff}",
		     t.empty () ? "" : "\n\t", v[i].sym, v[i].sym);
      prev = v[i].sym;
      if (v[i].val)
	{
	  int k = vec_safe_length (ins);
	  tree c = build_tree_list (NULL_TREE, build_string (3, "er"));
	  vec_safe_push (ins, build_tree_list (c, v[i].val));
	  t += pp_fmt ("\n\t{addq\t%%%d, %%%%fs:%ld(%%%%r11)"
		       "|add\tQWORD PTR fs:%ld[r11], %%%d}",
		       k, v[i].off, v[i].off, k);
	}
      else
	t += pp_fmt ("\n\t{addq\t$1, %%%%fs:%ld(%%%%r11)"
		     "|add\tQWORD PTR fs:%ld[r11], 1}", v[i].off, v[i].off);
    }
  gasm *g = gimple_build_asm_vec (ggc_strdup (t.c_str ()), ins, NULL,
				  clobbers, NULL);
  gimple_asm_set_volatile (g, true);
  return g;
}

/* Replace the asms of RUN, when there are two or more, by one.  */
void
merge_run (std::vector<gimple *> &run)
{
  if (run.size () >= 2)
    {
      std::vector<bare_inc> v;
      for (size_t i = 0; i < run.size (); i++)
	{
	  bare_inc b = singles[run[i]];
	  gasm *a = as_a <gasm *> (run[i]);
	  /* the operand as it is now */
	  b.val = gimple_asm_ninputs (a)
		  ? TREE_VALUE (gimple_asm_input_op (a, 0)) : NULL_TREE;
	  v.push_back (b);
	}
      gasm *g = build (v);
      gimple_set_location (g, gimple_location (run[0]));
      gimple_stmt_iterator gsi = gsi_for_stmt (run[0]);
      gsi_insert_before (&gsi, g, GSI_SAME_STMT);
      for (size_t i = 0; i < run.size (); i++)
	{
	  gsi = gsi_for_stmt (run[i]);
	  gsi_remove (&gsi, true);
	}
    }
  run.clear ();
}

} // namespace

gasm *
pp_bare_asm (tree cnt_decl, int slot, tree val)
{
  const char *sym = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (cnt_decl));
  bare_inc b = { targetm.strip_name_encoding (sym), 8L * slot, val };
  gasm *g = build (std::vector<bare_inc> (1, b));
  singles[g] = b;
  return g;
}

void
pp_bare_merge (pp_fn *f)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, f->fun)
    {
      std::vector<gimple *> run;
      int inputs = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (is_gimple_debug (s))
	    continue;
	  std::map<gimple *, bare_inc>::iterator it = singles.find (s);
	  int more = it != singles.end ()
		     ? (int) gimple_asm_ninputs (as_a <gasm *> (s)) : 0;
	  if (it == singles.end () || inputs + more > max_inputs)
	    {
	      merge_run (run);
	      inputs = 0;
	    }
	  if (it != singles.end ())
	    {
	      run.push_back (s);
	      inputs += more;
	    }
	}
      merge_run (run);
    }
  singles.clear ();
}
