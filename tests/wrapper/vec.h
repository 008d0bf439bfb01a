/* vec.h - the static library of the wrapper's test project. */
void vec_fill(long *a, int n, long seed);
long vec_dot(const long *a, const long *b, int n);
