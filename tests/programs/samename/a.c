/* Two files with a static function of the same name (SQLite's randomFunc
   in sqlite3.c and speedtest1.c): tests/e2e/14-samename.t.  */
static long helper (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

long a_sum (int n)
{
  return helper (n);
}
