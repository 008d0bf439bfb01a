/* The other file: its helper has two loops, a.c's one.  */
#include <stdio.h>
#include <stdlib.h>

long a_sum (int n);

static long helper (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      s += j;
  return s;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 100;
  printf ("%ld %ld\n", a_sum (n), helper (n));
  return 0;
}
