/* OpenMP constructs: parallel for (static, dynamic, static chunked),
   critical, atomic, reduction(double), single, master, barrier.
   The output does not depend on the number of threads.  */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void scale (int n, double a, double *x)
{
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    x[i] = a * x[i] + 1.0;   /* L:static (ompexp: the loop line is its body's) */
}

static long dyn (int n)
{
  long s = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+:s)
  for (int i = 0; i < n; i++)
    s += i;   /* L:dynamic (ompexp: the loop line is its body's) */
  return s;
}

static long chunked (int n)
{
  long s = 0;
#pragma omp parallel for schedule(static, 4) reduction(+:s)
  for (int i = 0; i < n; i++)
    s += 2 * i;   /* L:chunked (ompexp: the loop line is its body's) */
  return s;
}

static int master_calls;

static void note (void)
{
  master_calls++;
}

static double regions (int n, const double *x)
{
  double sum = 0.0, crit = 0.0;
  int hits = 0, singles = 0, masters = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+:sum)
    for (int i = 0; i < n; i++)
      sum += x[i];   /* L:reduction (ompexp: the loop line is its body's) */
#pragma omp critical
    crit += 1.0;
#pragma omp atomic
    hits++;
#pragma omp single
    singles++;
#pragma omp master
    {
      masters++;
      note ();                                /* L:master_call */
    }
#pragma omp barrier
  }
  return sum + (crit > 0) + (hits > 0) + singles + masters + master_calls;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  double *x = malloc (n * sizeof (double));
  for (int i = 0; i < n; i++)
    x[i] = i;
  scale (n, 0.5, x);
  long d = dyn (n), c = chunked (n);
  double r = regions (n, x);
  printf ("%ld %ld %.1f\n", d, c, r);
  free (x);
  return 0;
}
