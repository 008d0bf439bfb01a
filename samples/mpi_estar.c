/* mpi_estar.c - the e* sum of Parashar et al. 1993 (Application II) with
 * MPI:
 *
 *     e* = sum_{i=1..N} prod_{j=1..M} (1 + exp(-|i - j|))
 *
 * Rank 0 checks the limits and broadcasts them (one MPI_Bcast of three
 * longs), term i goes to rank (i-1) mod P (the cyclic loop
 * `for (i = rank; i < n; i += size)`), and each repetition ends with a
 * global sum (MPI_Allreduce, the paper's "global reduction operator"),
 * after which every rank holds e*.
 *
 * Usage: mpirun -np P mpi_estar N M [REPS]
 *        N terms, M factors per term (1 <= N, M < 10^8), REPS
 *        repetitions of the partial sums and their reduction (default 1).
 *
 * Each term is rounded to a multiple of 2^-30 and the sum is formed in
 * 64-bit integers, so it is exact and the output does not depend on P:
 * "e* ~ <value>" (rank 0) and "checksum <value>" (the last rank).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define QUANTUM 1073741824.0 /* 2^30 */

static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 8 && s[n] == '\0';
}

/* prod_{j=1..m} (1 + exp(-|i - j|)) for the term i (1-based) */
static double term(long i, long m)
{
    double p = 1.0;
    for (long j = 1; j <= m; j++)
        p *= 1.0 + exp(-(double)labs(i - j));
    return p;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long par[3] = {0, 0, 1};
    if (rank == 0) {
        if (argc < 3 || argc > 4 || !is_count(argv[1]) || !is_count(argv[2])
            || (argc == 4 && !is_count(argv[3]))) {
            fprintf(stderr, "usage: mpi_estar N M [REPS]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        par[0] = atol(argv[1]);
        par[1] = atol(argv[2]);
        if (argc == 4)
            par[2] = atol(argv[3]);
        if (par[0] < 1 || par[1] < 1 || par[2] < 1) {
            fprintf(stderr, "mpi_estar: N, M and REPS must be at least 1\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(par, 3, MPI_LONG, 0, MPI_COMM_WORLD);
    long n = par[0], m = par[1], reps = par[2];

    long long sum = 0;
    for (long r = 0; r < reps; r++) {
        long long part = 0;
        for (long i = rank; i < n; i += size)
            part += llround(term(i + 1, m) * QUANTUM);
        MPI_Allreduce(&part, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    }
    double estar = (double)sum / QUANTUM;
    if (rank == 0) {
        printf("e* ~ %.9f\n", estar);
        fflush(stdout);
    }
    if (rank == size - 1)
        printf("checksum %.9f\n", estar / (double)n);
    MPI_Finalize();
    return 0;
}
