/* mpi_trap.c - trapezoidal integration of 4/(1+x^2) over [0,1] (= pi) with
 * MPI, after the trapezoid program of Parashar et al. 1993: rank 0 reads
 * the parameters and broadcasts them, the N intervals are dealt out
 * cyclically (interval i to rank i mod P), and a reduction forms the sum
 * at rank 0, which passes it on to the last rank for checking.
 *
 * Usage: mpirun -np P mpi_trap N [REPS]
 *        N intervals (1 <= N <= 10^12), REPS repetitions of the
 *        integration (default 1), each broadcast + sum + reduce.
 *
 * Prints "pi ~ <value>" (rank 0) and "checksum <value>" (the last rank),
 * which do not depend on P beyond rounding of the sum.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double f(double x)
{
    return 4.0 / (1.0 + x * x);
}

static int is_count(const char *s)
{
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n > 0 && n <= 12 && s[n] == '\0';
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long par[2] = {0, 1};
    if (rank == 0) {
        if (argc < 2 || argc > 3 || !is_count(argv[1]) || (argc == 3 && !is_count(argv[2]))) {
            fprintf(stderr, "usage: mpi_trap N [REPS]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        par[0] = atol(argv[1]);
        if (argc == 3)
            par[1] = atol(argv[2]);
    }
    MPI_Bcast(par, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    long n = par[0], reps = par[1];
    if (n < 1 || reps < 1) {
        MPI_Finalize();
        return rank == 0 ? 2 : 0;
    }

    double pi = 0.0;
    for (long r = 0; r < reps; r++) {
        double h = 1.0 / (double)n, s = 0.0;
        for (long i = rank; i < n; i += size)
            s += f(((double)i + 0.5) * h);
        s *= h;
        MPI_Reduce(&s, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        printf("pi ~ %.12f\n", pi);
        fflush(stdout);
        if (size > 1)
            MPI_Send(&pi, 1, MPI_DOUBLE, size - 1, 7, MPI_COMM_WORLD);
    } else if (rank == size - 1) {
        MPI_Recv(&pi, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("checksum %.12f\n", pi);
    }
    MPI_Finalize();
    return 0;
}
