/* pp-mpibench.c - the MPI micro-benchmarks of `perfpred calibrate --mpi`
 * (docs/machine-format.md, "How calibrate --mpi measures").  perfpred runs
 * it under `mpirun -np K`; the analyser itself is not linked with MPI.
 *
 *   perfpred-mpibench [--quick] [--p2p]
 *   perfpred-mpibench --help        (its usage, without MPI)
 *
 * Rank 0 prints one result per line (times in ns):
 *   library TEXT            MPI_Get_library_version, first line
 *   ranks K
 *   pingpong BYTES NS       half round trip between ranks 0 and 1   (--p2p)
 *   osend NS                rank 0's time in MPI_Send of 8 bytes, the
 *                           receiver waiting in MPI_Recv             (--p2p)
 *   orecv NS                rank 1's time in MPI_Recv of 8 bytes that
 *                           arrived before it was called             (--p2p)
 *   gap NS                  per message in bursts of 64 8-byte MPI_Isends (--p2p)
 *   eager BYTES             the largest message whose MPI_Send returned
 *                           without waiting for a late receiver     (--p2p)
 *   eager_min BYTES         ... when no size up to BYTES waited      (--p2p)
 *   reduce_local NS_PER_BYTE  MPI_Reduce_local, MPI_SUM of doubles    (--p2p)
 *   barrier K NS            one MPI_Barrier of the K ranks
 *   allreduce K NS          one MPI_Allreduce of one double (MPI_SUM)
 *
 * Every figure is the median of several batches; a batch repeats the
 * operation for about a fixed time.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXBYTES (1 << 20)
#define MAXREPS 32

static int rank, size, quick;
static double target;   /* ns per batch */
static int reps;        /* batches      */
static char *buf, *buf2;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void spin(double ns)
{
    double t = now();
    while (now() - t < ns)
        ;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A benchmark: n iterations of an operation by every rank; returns the
 * batch's time on rank 0 (ns).  *aux may return a second figure. */
typedef double (*batch_fn)(long n, double arg, double *aux);

/* The median over the batches of time / n.  The iteration count is
 * chosen on rank 0 (doubling until a batch takes a quarter of the target)
 * and broadcast, so that every rank runs the same sequence. */
static double measure(batch_fn fn, double arg, double per, double *aux_med)
{
    long n = 1;
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = fn(n, arg, NULL);
        long next = 0;
        if (rank == 0) {
            if (t >= target / 4 || n >= (1L << 24))
                next = -(long)(n * (target / (t > 1 ? t : 1)) + 1);
            else
                next = 2 * n;
        }
        MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        if (next < 0) {
            n = -next;
            break;
        }
        n = next;
    }
    double v[MAXREPS], a[MAXREPS];
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        a[r] = 0;
        v[r] = fn(n, arg, &a[r]) / ((double)n * per);
        a[r] /= (double)n;
    }
    if (aux_med)
        *aux_med = median(a, reps);
    return median(v, reps);
}

/* ---- point to point (ranks 0 and 1) ---------------------------------------- */

static double pingpong(long n, double bytes, double *aux)
{
    int m = (int)bytes;
    double sendt = 0, t0 = now();
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            double s = now();
            MPI_Send(buf, m, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            sendt += now() - s;
            MPI_Recv(buf2, m, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf2, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    double t = now() - t0;
    if (aux)
        *aux = sendt;
    return t;
}

/* n bursts of BURST 8-byte MPI_Isends posted back to back by rank 0, each
 * waited for; rank 1 posts the receives of a burst before taking it.  A
 * burst is kept short enough for the transport's queues. */
#define BURST 64
static double burst(long n, double unused, double *aux)
{
    (void)unused;
    (void)aux;
    MPI_Request req[BURST];
    double t0 = now();
    for (long b = 0; b < n; b++) {
        if (rank == 1)
            for (int i = 0; i < BURST; i++)
                MPI_Irecv(buf2 + 8 * i, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[i]);
        else if (rank == 0)
            for (int i = 0; i < BURST; i++)
                MPI_Isend(buf + 8 * i, 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &req[i]);
        if (rank <= 1)
            MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE);
    }
    return now() - t0;
}

/* rank 1's time in MPI_Recv of 8 bytes that arrived while it was busy:
 * the median over n episodes, sent to rank 0 */
static double recv_overhead(int n)
{
    double *v = malloc(sizeof *v * (size_t)n), med = 0;
    if (!v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < n; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
        } else if (rank == 1) {
            spin(30e3);
            double t0 = now();
            MPI_Recv(buf2, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v[i] = now() - t0;
        }
    }
    if (rank == 1) {
        med = median(v, n);
        MPI_Send(&med, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&med, 1, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(v);
    return med;
}

/* Did an MPI_Send of m bytes wait for a receiver that came delay ns late?
 * The median of trials sends on rank 0, against half the delay; rank 0's
 * verdict is broadcast. */
static int send_waits(int m, double delay, int trials)
{
    double v[MAXREPS];
    for (int i = 0; i < trials; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            double t0 = now();
            MPI_Send(buf, m, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
            v[i] = now() - t0;
        } else if (rank == 1) {
            spin(delay);
            MPI_Recv(buf2, m, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    int waits = rank == 0 && median(v, trials) > delay / 2;
    MPI_Bcast(&waits, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return waits;
}

static double reduce_local(long n, double count, double *aux)
{
    (void)aux;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Reduce_local(buf, buf2, (int)count, MPI_DOUBLE, MPI_SUM);
    return now() - t0;
}

static void p2p(void)
{
    /* warm up: the shared-memory transport sets up its fast path after a
     * few messages */
    pingpong(200, 8, NULL);
    static const int sizes[] = {0, 8, 64, 512, 4096, 32768, 65536, 131072, 262144, 524288, 1048576};
    double osend = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        double aux = 0;
        double t = measure(pingpong, sizes[i], 2, &aux);
        if (sizes[i] == 8)
            osend = aux;
        if (rank == 0)
            printf("pingpong %d %.1f\n", sizes[i], t);
    }
    if (rank == 0)
        printf("osend %.1f\n", osend);
    double orecv = recv_overhead(quick ? 100 : 400);
    if (rank == 0)
        printf("orecv %.1f\n", orecv);
    double gap = measure(burst, 0, BURST, NULL);
    if (rank == 0)
        printf("gap %.1f\n", gap);

    /* the eager limit: the first power of two whose send waited, then
     * bisection down to the byte */
    double delay = 300e3;
    int trials = quick ? 3 : 5;
    int lo = -1, hi = -1;
    for (int m = 0; m <= 262144; m = m ? 2 * m : 64) {
        if (send_waits(m, delay, trials)) {
            hi = m;
            break;
        }
        lo = m;
    }
    if (hi < 0) {
        if (rank == 0)
            printf("eager_min %d\n", lo);
    } else if (lo < 0) {
        if (rank == 0)
            printf("eager 0\n");   /* even an empty message waited */
    } else {
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (send_waits(mid, delay, trials))
                hi = mid;
            else
                lo = mid;
        }
        if (rank == 0)
            printf("eager %d\n", lo);
    }
    int count = quick ? 65536 : 131072;
    double g = measure(reduce_local, count, (double)count * 8, NULL);
    if (rank == 0)
        printf("reduce_local %.6f\n", g);
}

/* ---- collectives ----------------------------------------------------------- */

static double barrier(long n, double unused, double *aux)
{
    (void)unused;
    (void)aux;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    return now() - t0;
}

static double allreduce(long n, double unused, double *aux)
{
    (void)unused;
    (void)aux;
    double x = rank, y;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return now() - t0;
}

static const char usage[] =
    "usage: perfpred-mpibench [--quick] [--p2p] (run by perfpred calibrate --mpi)\n";

int main(int argc, char **argv)
{
    /* before MPI_Init: --help needs no mpirun */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            fputs("  The MPI micro-benchmarks of perfpred calibrate --mpi, which runs this under\n"
                  "  mpirun -np K; rank 0 prints one figure per line (times in ns).\n"
                  "  --quick  shorter batches, fewer of them (calibrate --quick)\n"
                  "  --p2p    also the point-to-point figures (2 ranks or more): ping-pong,\n"
                  "           send and receive overheads, gap, eager limit, reduction cost\n",
                  stdout);
            return 0;
        }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int do_p2p = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--p2p"))
            do_p2p = 1;
        else {
            if (rank == 0)
                fprintf(stderr, "perfpred-mpibench: unknown argument '%s'\n%s", argv[i], usage);
            MPI_Finalize();
            return 2;
        }
    }
    target = quick ? 2e6 : 10e6;
    reps = quick ? 5 : 11;
    buf = calloc(1, MAXBYTES + 64);
    buf2 = calloc(1, MAXBYTES + 64);
    if (!buf || !buf2)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = 0;
        char *nl = strpbrk(lib, "\r\n,");
        if (nl)
            *nl = 0;
        printf("library %s\nranks %d\n", lib, size);
    }
    if (do_p2p && size >= 2)
        p2p();
    /* warm up, then the collectives */
    barrier(20, 0, NULL);
    allreduce(20, 0, NULL);
    double b = measure(barrier, 0, 1, NULL);
    double a = measure(allreduce, 0, 1, NULL);
    if (rank == 0) {
        printf("barrier %d %.1f\nallreduce %d %.1f\n", size, b, size, a);
        fflush(stdout);
    }
    free(buf);
    free(buf2);
    MPI_Finalize();
    return 0;
}
