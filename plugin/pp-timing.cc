/* perfpred: loop timing.  Every loop with no synchronisation site in it
   (its sub-loops included) is timed where it runs: on entry a countdown
   kept in the thread's counter array is decremented, and when it reaches
   zero __pp_tbegin reads the clock; on each exit, when that entry was
   timed, __pp_tend adds the elapsed ticks and one timed entry to two
   counter slots (`tslot=S`: S ticks, S + 1 timed entries).  The runtime
   sets the countdown from the loop's time per entry, so that timing costs
   about 0.1% of the loop: a loop entered rarely is timed on every entry,
   one entered millions of times on one entry in k (docs/runtime.md,
   "Loop timing").

   The countdown, the start stamp and the period live in three scratch
   slots of a TLS array of the function's own (__pp_scr.N): the
   runtime's snapshots at events never read them.  The code inserted is,
   in effect,
     c = scr[K] - 1; scr[K] = c; scr[K+1] = 0;
     if ((long long) c <= 0) __pp_tbegin (&scr[K]);
   on the preheader edge and
     if (scr[K+1] != 0) __pp_tend (&scr[K], &cnt[S]);
   on every exit edge, in one of two forms: one asm per edge with the call
   out of line (x86-64, where the counters are bare; apply_timing_asm) or
   GIMPLE diamonds (elsewhere).  It reads and writes only those slots:
   what the program computes does not change.  A loop left other than by
   an exit edge (longjmp, exit) leaves its stamp set; the next entry
   clears it.

   Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.  */
#include "pp.h"

bool pp_loop_timing = true;

/* The loops with an event site in them or in a sub-loop.  */
static void
loops_with_events (pp_fn *f, std::set<int> *out)
{
  for (size_t i = 0; i < f->acts.size (); i++)
    {
      pp_act &a = f->acts[i];
      if (a.kind != PP_ACT_WRAP || !a.stmt || !gimple_bb (a.stmt))
	continue;
      for (class loop *l = gimple_bb (a.stmt)->loop_father;
	   l && loop_outer (l); l = loop_outer (l))
	out->insert (l->num);
    }
}

static bool
plain_edge (edge e)
{
  return !(e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_IRREDUCIBLE_LOOP));
}

/* LOOP can be timed: one plain entry edge from its preheader and only
   plain exits.  */
static bool
timable (class loop *loop)
{
  if (!loop_outer (loop) || !loop_preheader_edge (loop)
      || !plain_edge (loop_preheader_edge (loop)))
    return false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, loop->header->preds)
    if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
      return false;
  auto_vec<edge> exits = get_loop_exit_edges (loop);
  if (exits.is_empty ())
    return false;
  for (unsigned i = 0; i < exits.length (); i++)
    if (!plain_edge (exits[i]))
      return false;
  return true;
}

/* Adds " tslot=S" after the " slot=N" field of loop ID's line.  */
static void
note_tslot (pp_fn *f, int id, int tslot)
{
  std::string key = pp_fmt ("loop id=%d parent=", id);
  size_t at = 0;
  while ((at = f->body.find (key, at)) != std::string::npos)
    {
      if (at == 0 || f->body[at - 1] == '\n')
	break;
      at += key.size ();
    }
  if (at == std::string::npos)
    return;
  size_t eol = f->body.find ('\n', at);
  size_t s = f->body.find (" slot=", at);
  if (s == std::string::npos || (eol != std::string::npos && s > eol))
    return;
  s += 6;
  while (s < f->body.size () && ISDIGIT (f->body[s]))
    s++;
  f->body.insert (s, pp_fmt (" tslot=%d", tslot));
}

void
pp_do_timing (pp_fn *f)
{
  f->nscratch = 0;
  if (!pp_loop_timing)
    return;
  std::set<int> ev;
  loops_with_events (f, &ev);
  for (size_t i = 0; i < f->loops.size (); i++)
    {
      pp_loop_info &li = f->loops[i];
      li.tslot = li.tscratch = -1;
      if (!li.loop || li.slot < 0 || ev.count (li.loop->num)
	  || !timable (li.loop))
	continue;
      li.tslot = f->nslots;
      f->nslots += 2;
      li.tscratch = f->nscratch;
      f->nscratch += 3;
      note_tslot (f, li.id, li.tslot);
    }
}

/* On edge E: COND_SEQ (ending in a GIMPLE_COND) in a new block, then CALL
   in a block of its own on the condition's true edge; both paths meet in
   an empty block before E's destination (which keeps its PHIs).  */
static void
insert_cond_call (edge e, gimple_seq cond_seq, gimple *call)
{
  basic_block cond_bb = split_edge (e);
  basic_block join = split_edge (single_succ_edge (cond_bb));
  basic_block call_bb = split_edge (single_succ_edge (cond_bb));

  gimple_stmt_iterator gsi = gsi_last_bb (cond_bb);
  gsi_insert_seq_after (&gsi, cond_seq, GSI_NEW_STMT);
  gsi = gsi_last_bb (call_bb);
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);

  edge te = single_succ_edge (cond_bb);
  te->flags &= ~EDGE_FALLTHRU;
  te->flags |= EDGE_TRUE_VALUE;
  te->probability = profile_probability::unlikely ();
  edge fe = make_edge (cond_bb, join, EDGE_FALSE_VALUE);
  fe->probability = te->probability.invert ();
  if (dom_info_available_p (CDI_DOMINATORS))
    set_immediate_dominator (CDI_DOMINATORS, join, cond_bb);
}

/* p = &ARRAY[SLOT], as a statement of SEQ (a TLS address is no
   invariant).  */
static tree
elt_addr (tree array, int slot, gimple_seq *seq)
{
  tree p = make_temp_ssa_name (build_pointer_type (long_long_unsigned_type_node),
			       NULL, "PP");
  gimple_seq_add_stmt (seq, gimple_build_assign (p, build_fold_addr_expr (
					pp_cnt_elt (array, slot))));
  return p;
}

/* The asm form (x86-64, where the counters are bare: pp-emit.cc).  The
   entry is
     leaq SCR@tpoff, %r11; movq $0, %fs:8K+8(%r11); subq $1, %fs:8K(%r11)
     jle 2f; 1:
   and each exit
     leaq SCR@tpoff, %r11; cmpq $0, %fs:8K+8(%r11); jne 2f; 1:
   with, out of line in .text.perfpred_cold, the call path 2: that steps over
   the red zone, pushes the thread-pointer offsets of scr[K] (and, for the
   exit, of cnt[S] before it), calls __pp_tbegin_x86 or __pp_tend_x86
   (runtime/rt-timing-x86.S) through the GOT and jumps back to 1:.  Not
   in a register, and not through the PLT: lazy binding's resolver runs
   before the trampoline saves anything and clobbers r10 and r11.  One volatile asm that clobbers r11 and the
   flags: the compiler adds no block, no call and no live register to the
   loop, where the diamonds of the generic form cost a third of the
   compile time and moved hot loops across alignment boundaries.  */
static const char timing_cold_head[] =
  /* weak, as the generic form's declarations: a link without the runtime
     then fails on one symbol, whose name is the message (pp-keep.cc) */
  ".weak\t__pp_tbegin_x86\n\t.weak\t__pp_tend_x86\n\t"
  ".pushsection .text.perfpred_cold,\"ax\",@progbits\n"
  "2:\t{leaq\t-128(%%rsp), %%rsp|lea\trsp, [rsp-128]}\n\t";
static const char timing_cold_tail[] =
  "\n\tjmp\t1b\n\t.popsection";

static gasm *
timing_asm (const std::string &text)
{
  vec<tree, va_gc> *clobbers = NULL;
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (4, "r11")));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  gasm *g = gimple_build_asm_vec (ggc_strdup (text.c_str ()), NULL, NULL,
				  clobbers, NULL);
  gimple_asm_set_volatile (g, true);
  return g;
}

static void
apply_timing_asm (pp_fn *f, pp_loop_info &li)
{
  const char *scr = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (f->scr_decl));
  const char *cnt = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (f->cnt_decl));
  long k = 8L * li.tscratch;
  std::string base = pp_fmt ("{leaq\t%s@tpoff, %%%%r11|lea\tr11, %s@tpoff}\n\t",
			     scr, scr);
  std::string entry = base
    + pp_fmt ("{movq\t$0, %%%%fs:%ld(%%%%r11)|mov\tQWORD PTR fs:%ld[r11], 0}\n\t"
	      "{subq\t$1, %%%%fs:%ld(%%%%r11)|sub\tQWORD PTR fs:%ld[r11], 1}\n\t"
	      "jle\t2f\n1:\n\t", k + 8, k + 8, k, k)
    + timing_cold_head
    + pp_fmt ("{pushq\t$%s@tpoff+%ld|push\tOFFSET %s@tpoff+%ld}\n\t"
	      "{call\t*__pp_tbegin_x86@GOTPCREL(%%%%rip)|call\tQWORD PTR __pp_tbegin_x86@GOTPCREL[rip]}\n\t"
	      "{leaq\t136(%%%%rsp), %%%%rsp|lea\trsp, [rsp+136]}", scr, k, scr, k)
    + timing_cold_tail;
  gsi_insert_on_edge_immediate (loop_preheader_edge (li.loop),
				timing_asm (entry));

  std::string exit = base
    + pp_fmt ("{cmpq\t$0, %%%%fs:%ld(%%%%r11)|cmp\tQWORD PTR fs:%ld[r11], 0}\n\t"
	      "jne\t2f\n1:\n\t", k + 8, k + 8)
    + timing_cold_head
    + pp_fmt ("{pushq\t$%s@tpoff+%ld|push\tOFFSET %s@tpoff+%ld}\n\t"
	      "{pushq\t$%s@tpoff+%ld|push\tOFFSET %s@tpoff+%ld}\n\t"
	      "{call\t*__pp_tend_x86@GOTPCREL(%%%%rip)|call\tQWORD PTR __pp_tend_x86@GOTPCREL[rip]}\n\t"
	      "{leaq\t144(%%%%rsp), %%%%rsp|lea\trsp, [rsp+144]}",
	      cnt, 8L * li.tslot, cnt, 8L * li.tslot, scr, k, scr, k)
    + timing_cold_tail;
  auto_vec<edge> exits = get_loop_exit_edges (li.loop);
  for (unsigned x = 0; x < exits.length (); x++)
    gsi_insert_on_edge_immediate (exits[x], timing_asm (exit));
}

void
pp_apply_timing (pp_fn *f)
{
  if (!pp_loop_timing || !f->nscratch || !f->scr_decl)
    return;
  if (pp_bare_timing_ok (f))
    {
      for (size_t i = 0; i < f->loops.size (); i++)
	if (f->loops[i].tslot >= 0)
	  apply_timing_asm (f, f->loops[i]);
      return;
    }
  tree ull = long_long_unsigned_type_node;
  tree sll = long_long_integer_type_node;
  tree begin_decl, end_decl;
  pp_timing_decls (&begin_decl, &end_decl);
  tree scr = f->scr_decl;
  for (size_t i = 0; i < f->loops.size (); i++)
    {
      pp_loop_info &li = f->loops[i];
      if (li.tslot < 0)
	continue;
      class loop *loop = li.loop;
      int k = li.tscratch;

      /* entry */
      gimple_seq seq = NULL;
      tree p = elt_addr (scr, k, &seq);
      tree c = make_temp_ssa_name (ull, NULL, "PP");
      gimple_seq_add_stmt (&seq, gimple_build_assign (c, pp_cnt_elt (scr, k)));
      tree c1 = make_temp_ssa_name (ull, NULL, "PP");
      gimple_seq_add_stmt (&seq, gimple_build_assign (c1, PLUS_EXPR, c,
						      build_all_ones_cst (ull)));
      gimple_seq_add_stmt (&seq, gimple_build_assign (pp_cnt_elt (scr, k), c1));
      gimple_seq_add_stmt (&seq, gimple_build_assign (pp_cnt_elt (scr, k + 1),
						      build_zero_cst (ull)));
      tree sc = make_temp_ssa_name (sll, NULL, "PP");
      gimple_seq_add_stmt (&seq, gimple_build_assign (sc, NOP_EXPR, c1));
      gimple_seq_add_stmt (&seq, gimple_build_cond (LE_EXPR, sc, build_zero_cst (sll),
						    NULL_TREE, NULL_TREE));
      gimple *call = gimple_build_call (begin_decl, 1, p);
      insert_cond_call (loop_preheader_edge (loop), seq, call);

      /* exits */
      auto_vec<edge> exits = get_loop_exit_edges (loop);
      for (unsigned x = 0; x < exits.length (); x++)
	{
	  gimple_seq xs = NULL;
	  tree xp = elt_addr (scr, k, &xs);
	  tree xq = elt_addr (f->cnt_decl, li.tslot, &xs);
	  tree st = make_temp_ssa_name (ull, NULL, "PP");
	  gimple_seq_add_stmt (&xs, gimple_build_assign (st, pp_cnt_elt (scr, k + 1)));
	  gimple_seq_add_stmt (&xs, gimple_build_cond (NE_EXPR, st, build_zero_cst (ull),
						       NULL_TREE, NULL_TREE));
	  gimple *xc = gimple_build_call (end_decl, 2, xp, xq);
	  insert_cond_call (exits[x], xs, xc);
	}
    }
}
