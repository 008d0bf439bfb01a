/* par.h - the shared library of the wrapper's test project. */
long par_sum(int n, int nthreads);
