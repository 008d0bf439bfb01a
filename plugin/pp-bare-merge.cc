/* perfpred: bare increments that follow each other in a block, merged
 * into one asm.
 *
 * The bare form (pp-emit.cc) is one volatile asm per increment:
 *   leaq __pp_cnt.N@tpoff, %r11;  addq $v, %fs:OFF(%r11)
 * A loop counted at entry adds two on its preheader edge (H += h, E += 1),
 * and a block often holds several: the preheader of a loop nest, a block
 * that ends an inner loop and starts the next.  Every asm statement is
 * work for every later pass, so a run of them (debug statements aside)
 * becomes one asm, with one leaq per counter array and the values as
 * "er" inputs, at most 8 per asm (each input needs a register or an
 * immediate at that point).  The same instructions in the same order:
 * the counts cannot change.  Debug statements are skipped so that -g
 * does not change the code (-fcompare-debug).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"

namespace {

struct bare_inc
{
  const char *sym;   /* the counter array's assembler name */
  long off;          /* the slot's byte offset */
};

std::map<gimple *, bare_inc> bare_incs;

const int max_inputs = 8;

tree
input_op (tree op)
{
  return build_tree_list (build_tree_list (NULL_TREE, build_string (3, "er")),
			  op);
}

/* Replace the asms of RUN (at least two) by one.  */
void
merge_run (std::vector<gimple *> &run)
{
  if (run.size () >= 2)
    {
      std::string t;
      const char *prev = NULL;
      vec<tree, va_gc> *ins = NULL, *clobbers = NULL;
      vec_safe_push (clobbers, build_tree_list (NULL_TREE,
						build_string (4, "r11")));
      for (size_t i = 0; i < run.size (); i++)
	{
	  bare_inc &b = bare_incs[run[i]];
	  gasm *a = as_a <gasm *> (run[i]);
	  tree val = gimple_asm_ninputs (a)
		     ? TREE_VALUE (gimple_asm_input_op (a, 0)) : NULL_TREE;
	  if (!prev || strcmp (prev, b.sym))
	    t += pp_fmt ("%s{leaq\t%s@tpoff, %%%%r11|lea\tr11, %s@tpoff}",
			 t.empty () ? "" : "\n\t", b.sym, b.sym);
	  prev = b.sym;
	  if (val)
	    {
	      int k = vec_safe_length (ins);
	      vec_safe_push (ins, input_op (val));
	      t += pp_fmt ("\n\t{addq\t%%%d, %%%%fs:%ld(%%%%r11)"
			   "|add\tQWORD PTR fs:%ld[r11], %%%d}",
			   k, b.off, b.off, k);
	    }
	  else
	    t += pp_fmt ("\n\t{addq\t$1, %%%%fs:%ld(%%%%r11)"
			 "|add\tQWORD PTR fs:%ld[r11], 1}", b.off, b.off);
	}
      gasm *g = gimple_build_asm_vec (ggc_strdup (t.c_str ()), ins, NULL,
				      clobbers, NULL);
      gimple_asm_set_volatile (g, true);
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

void
pp_bare_note (gasm *g, const char *sym, long off)
{
  bare_inc b = { sym, off };
  bare_incs[g] = b;
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
	  std::map<gimple *, bare_inc>::iterator it = bare_incs.find (s);
	  int more = it != bare_incs.end ()
		     ? (int) gimple_asm_ninputs (as_a <gasm *> (s)) : 0;
	  if (it == bare_incs.end () || inputs + more > max_inputs)
	    {
	      merge_run (run);
	      inputs = 0;
	    }
	  if (it != bare_incs.end ())
	    {
	      run.push_back (s);
	      inputs += more;
	    }
	}
      merge_run (run);
    }
  bare_incs.clear ();
}
