/* Shapes from real code bases (tests/realworld) that once broke the
   plugin; each is named after where it was found.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct data { int n; double *idf; double *freq; };

static int get_data (struct data **pp, int n)
{
  static struct data d;
  d.n = n;
  d.idf = calloc (n, sizeof (double));
  d.freq = calloc (n, sizeof (double));
  for (int i = 0; i < n; i++)                 /* L:fill */
    d.idf[i] = i + 1;
  *pp = &d;
  return 0;
}

/* sqlite3.c, fts5Bm25Function: the bound p->n of the second loop is a load
   through p, itself a load of a local whose address is taken; at the
   plugin's pass both are in the loop, and the bound reloaded on the
   preheader edge used p before its definition (an invalid SSA use: an
   internal compiler error in evrp at -O2, wrong code at -O0).  */
static double bm25 (int n, int stop)
{
  struct data *p;
  double score = 0.0;
  int rc = get_data (&p, n);
  for (int i = 0; rc == 0 && i < n; i++)      /* L:early */
    {
      if (i == stop)
        rc = 1;
      p->freq[i] += 1.0;
    }
  if (rc == 0 || rc == 1)
    {
      for (int i = 0; i < p->n; i++)          /* L:bm25 */
        score += p->idf[i] * (p->freq[i] * 2.2) / (p->freq[i] + 1.2);
    }
  free (p->idf);
  free (p->freq);
  return score;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  printf ("%.6f\n", bm25 (n, n / 2));
  return 0;
}
