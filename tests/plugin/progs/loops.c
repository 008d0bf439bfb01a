/* Serial loops: simple, triangular, down-counting, while, break, global
   bound, VLA, malloc, calls, branches, parameters.  */
#include <stdio.h>
#include <stdlib.h>

int g_n = 37;
double ga[64];

static long work (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)                 /* L:simple */
    s += i;
  return s;
}

static long tri (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)                 /* L:tri_outer */
    for (int j = 0; j < i; j++)               /* L:tri_inner */
      s += j;
  return s;
}

static long down (int hi, int lo)
{
  long s = 0;
  for (int k = hi; k > lo; k -= 3)            /* L:down */
    s += k;
  return s;
}

static int chase (const int *next, int start)
{
  int c = 0;
  while (start >= 0)                          /* L:while */
    {
      start = next[start];
      c++;
    }
  return c;
}

static int find (const int *a, int n, int key)
{
  int i;
  for (i = 0; i < n; i++)                     /* L:break */
    if (a[i] == key)
      break;
  return i;
}

static long gbound (void)
{
  long s = 0;
  for (int i = 0; i < g_n; i++)               /* L:global */
    s += i;
  return s;
}

static double vla (int m, int n)
{
  double t[m][n];
  for (int i = 0; i < m; i++)                 /* L:vla_i */
    for (int j = 0; j < n; j++)               /* L:vla_j */
      t[i][j] = i + j;
  double s = 0;
  for (int i = 0; i < m * n; i++)             /* L:vla_flat */
    s += t[i / n][i % n];
  return s;
}

int main (int argc, char **argv)
{
  int N = argc > 1 ? atoi (argv[1]) : 100;
  int *next = malloc (N * sizeof (int));
  for (int i = 0; i < N; i++)                 /* L:init */
    next[i] = i + 7 < N ? i + 7 : -1;
  long s = work (N) + tri (N) + down (N, 2) + gbound ();
  int c = chase (next, 0);
  int f = find (next, N, -1);
  for (int i = 0; i < 64; i++)
    ga[i] = i;
  double v = vla (5, N / 10);
  printf ("%ld %d %d %.1f %.1f\n", s, c, f, v, ga[63]);
  free (next);
  return 0;
}
