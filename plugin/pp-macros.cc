/* pp-macros.cc - the unit's size macros: `macro name=N value=100` lines.
 *
 * PolyBench- and NPB-style programs take their sizes from object-like
 * macros (`-DN=500`, `#ifndef N #define N 200`, a generated header of
 * `#define`s): every loop count is then a constant.  The descriptor lists
 * the macros of the unit whose expansion is one integer literal
 * (parenthesised, signed, suffixed), so that the analyser, given records
 * of two builds at two sizes, can turn the constants that differ into
 * expressions of the macros (docs/model.md, "Compile-time sizes").
 *
 * The preprocessor is still alive while the passes run (cc1 and cc1plus
 * destroy it in the front end's finish hook, after compile_file), and its
 * identifiers are GCC's own identifier table: one walk per unit, at the
 * first function described, whose descriptor gets them.  `parse_in`
 * belongs to the C family front ends and is absent from lto1: a weak
 * reference keeps the plugin loadable there (the pass never runs in lto1
 * anyway).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "pp.h"
#include "c-family/c-pragma.h"

extern struct cpp_reader *parse_in __attribute__ ((weak));

/* More than this many are not sizes but a table of constants: the first
   ones (in the identifier table's order, which is arbitrary) are kept.  */
#define PP_MAX_MACROS 256

static bool macros_done;
static std::string macro_lines;
static int nmacros;

/* The value of an integer literal token (decimal, octal, hexadecimal,
   with u/l suffixes), or false.  */
static bool
literal_value (const cpp_token *t, long long *v)
{
  if (t->type != CPP_NUMBER)
    return false;
  const char *s = (const char *) t->val.str.text;
  size_t n = t->val.str.len;
  char buf[64];
  if (n == 0 || n >= sizeof buf)
    return false;
  memcpy (buf, s, n);
  buf[n] = 0;
  /* no digit separators, no floating point, no binary/char forms */
  char *end = NULL;
  errno = 0;
  unsigned long long u = strtoull (buf, &end, 0);
  if (errno || end == buf)
    return false;
  for (const char *c = end; *c; c++)
    if (!strchr ("uUlL", *c))
      return false;
  if (u > (unsigned long long) 1 << 62)
    return false;
  *v = (long long) u;
  return true;
}

/* The macro's value when its expansion is `[(]* [-] LITERAL [)]*`.  */
static bool
macro_value (const cpp_macro *m, long long *v)
{
  if (m->kind != cmk_macro || m->fun_like || m->lazy || m->count == 0
      || m->count > 16)
    return false;
  unsigned lo = 0, hi = m->count;
  while (hi - lo >= 3 && m->exp.tokens[lo].type == CPP_OPEN_PAREN
	 && m->exp.tokens[hi - 1].type == CPP_CLOSE_PAREN)
    lo++, hi--;
  bool neg = false;
  if (hi - lo == 2 && m->exp.tokens[lo].type == CPP_MINUS)
    neg = true, lo++;
  if (hi - lo != 1 || !literal_value (&m->exp.tokens[lo], v))
    return false;
  if (neg)
    *v = -*v;
  return true;
}

static int
one_macro (cpp_reader *, cpp_hashnode *node, void *)
{
  if (!cpp_user_macro_p (node) || !node->value.macro)
    return 1;
  const char *name = (const char *) NODE_NAME (node);
  /* the implementation's names (__INT_MAX__, _OPENMP) are no sizes */
  if (name[0] == '_' && (name[1] == '_' || ISUPPER (name[1])))
    return 1;
  const cpp_macro *m = node->value.macro;
  long long v;
  if (!macro_value (m, &v))
    return 1;
  /* defined on the command line (-DN=100), in the source or in the
     program's own headers; not in a system header, not built in */
  location_t loc = m->line;
  if (loc <= BUILTINS_LOCATION || in_system_header_at (loc))
    return 1;
  /* the target's macros (unix, linux) are defined in "<built-in>", the
     -D ones in "<command-line>" */
  const char *file = LOCATION_FILE (loc);
  if (file && file[0] == '<' && strcmp (file, "<command-line>") != 0)
    return 1;
  /* an installed library's header found with -I (mpicc's mpi.h): its
     hundreds of constants are no sizes of the program */
  if (file && (startswith (file, "/usr/") || startswith (file, "/opt/")))
    return 1;
  if (nmacros >= PP_MAX_MACROS)
    return 0;
  bool plain = true;
  for (const char *c = name; *c; c++)
    if (!(ISALNUM (*c) || *c == '_'))
      plain = false;
  if (!plain)
    return 1;
  macro_lines += pp_fmt ("macro name=%s value=%lld\n", name, v);
  nmacros++;
  return 1;
}

/* The lines, for the first function the unit describes; "" for the
   others.  Every descriptor of the binary is in every record (the runtime
   walks the whole __pp_desc section, and descriptors are preserved even
   where their function is removed), so one copy per unit suffices.  */
std::string
pp_macro_lines (void)
{
  if (macros_done)
    return std::string ();
  macros_done = true;
  if (&parse_in && parse_in)
    cpp_forall_identifiers (parse_in, one_macro, NULL);
  std::string lines;
  lines.swap (macro_lines);
  return lines;
}
