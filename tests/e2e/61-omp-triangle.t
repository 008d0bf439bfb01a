#!/usr/bin/perl
# 61-omp-triangle.t - triangles under a dynamic or guided OpenMP schedule
# (docs/model.md, "OpenMP schedules"): a loop inside the chunk loop whose
# bound reads the chunk loop's induction variable (`j <= i`).  Which rows a
# thread ran is decided at run time, so the model deals the iteration
# space itself (chunk r*P + tid, snaked; guided: rows tid, tid + P, ...),
# each row once: the inner count is symbolic, checked against the run's
# total, and follows N.  Hand-computed totals at N = 8 x 301 = 2408:
#  - dynamic,16, j <= i:          sum (i + 1), i < N   = N(N+1)/2 = 2900436
#  - guided, j < i:               sum i                = N(N-1)/2 = 2898028
#  - dynamic (chunk 1), j = i..N: sum (N - i)          = N(N+1)/2 = 2900436
#  - dynamic,4, i = N-1 down to 0, j < i: sum i       = N(N-1)/2 = 2898028
# (301 is no multiple of 16 or 4: the last chunk is cut, as in the run).
# Also bench/programs/syrk_omp.c at its bench point x16 (N = 2560, 4
# panels): 4 x 2560 x 2561 / 2 = 13112320 rows of the inner product.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
use Cwd qw(abs_path);
my $B = abs_path($ENV{PERFPRED_BUILD} || 'build');
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-tri-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE OMP_SCHEDULE)};

open my $src, '>', "$TMP/tri.c" or die;
print $src <<'C';
#include <stdio.h>
#include <stdlib.h>

/* pair interactions of n particles on a line, four ways round */
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double *x = malloc(sizeof *x * (size_t)n), *f = calloc((size_t)n, sizeof *f);
    if (!x || !f)
        return 1;
    for (int i = 0; i < n; i++)
        x[i] = (i * 37 % 101) / 101.0;
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            f[i] += x[i] * x[j];
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            f[i] -= 0.5 * (x[i] - x[j]);
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            f[i] += 0.25 * x[j];
#pragma omp parallel for schedule(dynamic, 4)
    for (int i = n - 1; i >= 0; i--)
        for (int j = 0; j < i; j++)
            f[i] -= 0.125 * x[j];
    double s = 0;
    for (int i = 0; i < n; i++)
        s += f[i];
    printf("sum %.6f\n", s);
    free(x);
    free(f);
    return 0;
}
C
close $src;
my ($rc, $out, $err) = run_in($TMP, "cd $TMP && gcc -O2$SAN -fopenmp -fplugin=$B/perfpred.so -c tri.c -o tri.o"
                                    . " && gcc$SAN -fopenmp tri.o -o tri -L$B -l:libperfpred-rt.a -lm");
is($rc, 0, 'build the triangles') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "cd $TMP && PERFPRED_RECORD=tri.ppr OMP_NUM_THREADS=2 ./tri 301");
is($rc, 0, 'record at N = 301, P = 2') or BAIL_OUT($err);

sub loops {
    my ($rec, $args) = @_;
    my $j = eval { decode_json(`$B/perfpred show $rec --format json $args 2>/dev/null`) } || {};
    return { map { $_->{id} => $_ } @{ $j->{loops} || [] } };
}
my $at = loops("$TMP/tri.ppr", '');
my $big = loops("$TMP/tri.ppr", '--set n=2408 -P 4');
my $n = 301;
for my $c (['main._omp_fn.0:L2', 'dynamic,16, j <= i', $n * ($n + 1) / 2, 2900436],
           ['main._omp_fn.1:L2', 'guided, j < i', $n * ($n - 1) / 2, 2898028],
           ['main._omp_fn.2:L2', 'dynamic, j = i..n', $n * ($n + 1) / 2, 2900436],
           ['main._omp_fn.3:L2', 'dynamic,4 downwards, j < i', $n * ($n - 1) / 2, 2898028]) {
    my ($id, $what, $rec, $want) = @$c;
    my $l = $at->{$id} || {};
    is($l->{rule}, 'symbolic', "$what: the inner count is symbolic") or diag(explain($l));
    ok($l->{match} && ($l->{model} // -1) == $rec, "$what: $rec at N = 301, as the run");
    is($big->{$id}{predicted}, $want, "$what: $want at N = 2408, P = 4");
}

# the time follows: the four triangles (N^2/2 rows each) are nearly all
# of T1, which grows about 64x at 8x N (62x: the O(N) loops grow 8x), and
# dealt evenly their PRAM time at P = 4 is T1/4 (within 3 %)
sub predict {
    my ($args) = @_;
    return eval { decode_json(`$B/perfpred predict $TMP/tri.ppr $args --P 1,4 --draws 0 --format json 2>/dev/null`) } || [];
}
my ($p0, $p8) = (predict(''), predict('--set n=2408'));
my ($t0, $t8, $pram4) = ($p0->[0]{T1} // 0, $p8->[0]{T1} // 0, $p8->[1]{time}{pram} // 0);
ok($t0 > 0 && $t8 / $t0 > 50 && $t8 / $t0 < 66, sprintf('T1 grows %.1fx at 8x N (the triangles: 64x)', $t0 ? $t8 / $t0 : 0));
ok($t8 > 0 && abs($pram4 / ($t8 / 4) - 1) < 0.03, sprintf('PRAM at P = 4: %.5f s against T1/4 = %.5f s', $pram4, $t8 / 4));

# the dealt chunks' loops are made in runs of iterations where their
# evaluations agree (docs/model.md, "Runs of iterations"): a chunk's
# start moves with the dispatch loop's IV, so every run is one
# iteration, and the prediction is the full walk's, number for number
for my $P (2, 4, 7) {
    my @j = map { scalar `PERFPRED_FULL_WALK=$_ $B/perfpred predict $TMP/tri.ppr --P $P --draws 0 --format json 2>&1` }
            (0, 1);
    is($j[0], $j[1], "P = $P: the same prediction with runs of iterations and in the full walk");
}

# syrk_omp at the bench's recorded point (1/16 of N = 2560) and at 16x
($rc, $out, $err) = run_in($TMP, "cd $TMP && gcc -O2$SAN -fopenmp -fplugin=$B/perfpred.so -c $FindBin::Bin/../../bench/programs/syrk_omp.c -o syrk.o"
                                 . " && gcc$SAN -fopenmp syrk.o -o syrk -L$B -l:libperfpred-rt.a -lm"
                                 . " && PERFPRED_RECORD=syrk.ppr ./syrk 160 8 4 2");
is($rc, 0, 'syrk_omp: build and record at N = 160') or diag($err);
my $s = loops("$TMP/syrk.ppr", '');
is($s->{'main._omp_fn.0:L2'}{rule}, 'symbolic', 'syrk_omp: the triangle is symbolic');
my $s16 = loops("$TMP/syrk.ppr", '--set n=2560 -P 2');
is($s16->{'main._omp_fn.0:L2'}{predicted}, 4 * 2560 * 2561 / 2, 'syrk_omp at N = 2560: 4 x 2560 x 2561/2 rows');
is($s16->{'main._omp_fn.0:L3'}{predicted}, 8 * 4 * 2560 * 2561 / 2, '...of K = 8 products each');

done_testing();
