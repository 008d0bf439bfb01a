/* #pragma perfpred param: names a parameter.  */
#include <stdio.h>
#include <stdlib.h>

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
#pragma perfpred param SIZE = n
  long s = 0;
  for (int i = 0; i < n; i++)                 /* L:loop */
    s += i;
  printf ("%ld\n", s);
  return 0;
}
