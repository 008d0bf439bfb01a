/* test_lsq_big.c - the dual solve for records with many costs
 * (pp_lsq_big_*, lsq-big.c) against the dense one of lsq.c and lsq-cov.c
 * on the same problems: fewer rows than columns, a common scale, an own
 * column, lower bounds that the active set must fix, and a row that is a
 * multiple of another (so that the posterior covariance has a residual
 * degree of freedom).  The two must agree to rounding.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "lsq.h"

enum { NR = 7, NC = 60 };

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)((*s >> 8) & 0xffff) / 65536.0;
}

/* A sparse random problem, dense and CSR, every column used */
static void build(unsigned seed, double *A, double *d, double *prior, int *own, double *lo, long *rowptr, int *col,
                  double *val)
{
    unsigned s = seed;
    for (int i = 0; i < NR * NC; i++)
        A[i] = 0;
    for (int i = 0; i < NR - 1; i++) {
        A[i * NC] = 1;   /* the per-segment column */
        for (int j = 1; j < NC; j++)
            if ((j + i) % 3 == 0 || urand(&s) < 0.2)
                A[i * NC + j] = floor(1 + 50 * urand(&s));
    }
    for (int j = 0; j < NC; j++)   /* the last row: twice the first */
        A[(NR - 1) * NC + j] = 2 * A[j];
    for (int j = 0; j < NC; j++) {
        int used = 0;
        for (int i = 0; i < NR; i++)
            used |= A[i * NC + j] != 0;
        if (!used)
            A[j] = 1;
        prior[j] = j == 0 ? 1000 : 1 + 9 * urand(&s);
        own[j] = j == 0;
        lo[j] = j == 0 ? 0 : 0.1 * prior[j];
    }
    for (int i = 0; i < NR; i++) {
        double t = 0;
        for (int j = 0; j < NC; j++)   /* some columns much cheaper than their prior: bounds bite */
            t += A[i * NC + j] * prior[j] * (j % 5 == 0 ? 0.01 : 1 + 0.5 * urand(&s));
        d[i] = t * (1 + 0.05 * (urand(&s) - 0.5)) * (i == 2 ? 0.05 : 1);   /* a fast row: bounds bite */
    }
    long e = 0;
    for (int i = 0; i < NR; i++) {
        rowptr[i] = e;
        for (int j = 0; j < NC; j++)
            if (A[i * NC + j] != 0) {
                col[e] = j;
                val[e++] = A[i * NC + j];
            }
    }
    rowptr[NR] = e;
}

static void close_to(double a, double b, double rel, const char *what, int j)
{
    if (!(fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-12)) {
        print_error("%s[%d]: dense %.12g, dual %.12g\n", what, j, a, b);
        fail();
    }
}

static void test_against_dense(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 5; seed++) {
        double A[NR * NC], d[NR], prior[NC], lo[NC], val[NR * NC];
        int own[NC], col[NR * NC];
        long rowptr[NR + 1];
        build(seed, A, d, prior, own, lo, rowptr, col, val);
        double c1[NC], se1[NC], c2[NC], se2[NC], r21, r22;
        assert_int_equal(pp_lsq_solve_bounded(A, d, NR, NC, prior, own, 0.01, lo, c1, se1, &r21, NULL), 0);
        pp_sprows S = {NR, NC, rowptr, col, val};
        assert_int_equal(pp_lsq_big_solve(&S, d, prior, own, 0.01, lo, c2, se2, &r22), 0);
        int fixed = 0;   /* GSL's SVD itself agrees with the exact solution to about 1e-9 */
        for (int j = 0; j < NC; j++) {
            close_to(c1[j], c2[j], 1e-8, "c", j);
            if (isfinite(se1[j]) || isfinite(se2[j]))
                close_to(se1[j], se2[j], 1e-6, "se", j);
            fixed += !isfinite(se1[j]);
        }
        assert_true(fixed > 0);   /* the bounds were exercised */
        close_to(r21, r22, 1e-7, "r2", 0);
        static double cov1[NC * NC], cov2[NC * NC];
        double tau[NC];
        for (int j = 0; j < NC; j++)
            tau[j] = 0.5 * fmax(c1[j], prior[j]);
        pp_lsq_post p1, p2;
        assert_int_equal(pp_lsq_posterior_cov(A, d, NR, NC, c1, tau, cov1, &p1), 0);
        assert_int_equal(pp_lsq_big_cov(&S, d, c1, tau, cov2, &p2), 0);
        assert_int_equal(p1.rank, NR - 1);
        assert_int_equal(p2.rank, p1.rank);
        assert_int_equal(p2.dof, 1);
        assert_false(p2.prior_only);
        for (int j = 0; j < NC * NC; j++)
            if (fabs(cov1[j] - cov2[j]) > 1e-7 * sqrt(cov1[(j / NC) * (NC + 1)] * cov1[(j % NC) * (NC + 1)])) {
                print_error("cov[%d]: dense %.12g, dual %.12g\n", j, cov1[j], cov2[j]);
                fail();
            }
        close_to(pp_lsq_quantile_level(A, d, NR, NC, c1, 0.3), pp_lsq_big_level(&S, d, c1, 0.3), 1e-12, "level", 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
