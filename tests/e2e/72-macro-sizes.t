#!/usr/bin/perl
# 72-macro-sizes.t - compile-time sizes (docs/model.md, "Compile-time
# sizes"): a PolyBench-style OpenMP kernel sized by -DN (static arrays, a
# stencil and a triangular loop) and an NPB-style one whose sizes come
# from a class header of #defines, each built at two sizes.  The plugin
# lists the size macros (`macro` lines); perfpred, given both records,
# turns the constants that differ into expressions of the macros and
# predicts the loop counts of a build 8x the size exactly, at P = 1, 2,
# 4, 8, 16, against a real build run at that size and against counts
# computed by hand.  A single build: show says to build it again, and
# predict --set of the macro is refused.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use JSON::PP;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in json_in compare_symbolic);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-macro-XXXXXX', TMPDIR => 1, CLEANUP => 1);
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE OMP_SCHEDULE)};
my $PP = "$B/perfpred";
# under SANITIZE=1 the runtime is built with the sanitizers: so are the
# programs that link it (their own leaks are not what is tested)
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
my $CC = "gcc -O2$SAN -fopenmp -fplugin=$B/perfpred.so";
my $LD = "-L$B -l:libperfpred-rt.a";

sub write_file {
    my ($path, $text) = @_;
    open my $f, '>', $path or die "$path: $!";
    print $f $text;
    close $f;
}

# ---------------------------------------------------------------- PolyBench
write_file("$TMP/smooth.c", <<'C');
/* smooth.c - a Jacobi smoother and a lower-triangular product, sized at
 * compile time as PolyBench does */
#include <stdio.h>
#ifndef N
#define N 200
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif
static double A[N][N], B[N][N], L[N][N], x[N], y[N];

static void init(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 / (i + 1);
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j) % 11) / N;
            L[i][j] = (double)(i + j + 1) / (2.0 * N);
        }
    }
}

int main(void)
{
    init();
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp parallel for
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma omp parallel for
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = B[i][j];
    }
    /* y = L x, L lower triangular */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int j = 0; j < i; j++)
            s += L[i][j] * x[j];
        y[i] = s + L[i][i] * x[i];
    }
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += y[i] + A[i][N / 2];
    printf("%.6f\n", sum);
    return 0;
}
C

# build and record at size $def (e.g. "-DN=100") with $t threads
sub build_run {
    my ($name, $src, $flags, $t) = @_;
    my ($rc, $out, $err) = run_in($TMP, "$CC $flags $src -o $TMP/$name $LD");
    is($rc, 0, "$name: build ($flags)") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=$t PERFPRED_RECORD=$TMP/$name.ppr $TMP/$name");
    is($rc, 0, "$name: run at $t threads") or diag($err);
    return "$TMP/$name.ppr";
}

# every symbolic loop count of the model of @recs at --set $set, P = 1..16,
# against the counts of the real build $big run at each P
sub predict_vs_run {
    my ($what, $recs, $set, $big) = @_;
    for my $P (1, 2, 4, 8, 16) {
        my ($rc, $pred, $err) = run_in($TMP, "$PP show @$recs $set --P $P --format json");
        is($rc, 0, "$what: show $set --P $P") or diag($err);
        ($rc, undef, $err) = run_in($TMP, "env OMP_NUM_THREADS=$P PERFPRED_RECORD=$TMP/big$P.ppr $TMP/$big");
        is($rc, 0, "$what: the real build at $P threads") or diag($err);
        my ($rc2, $obs, $err2) = run_in($TMP, "$PP show $TMP/big$P.ppr --format json");
        is($rc2, 0, "$what: show of the real run at $P threads") or diag($err2);
        my ($nsym, $exact, @diff) = compare_symbolic($pred, $obs);
        ok($nsym >= 4, "$what, P=$P: $nsym symbolic loops");
        is($exact, $nsym, "$what, P=$P: every loop count predicted exactly") or diag(join("\n", @diff));
    }
}

# every source loop's count matches the runs (a reduction's
# compare-and-swap retry loop, compiler=true, counts the contention)
sub all_match {
    my ($what, $recs) = @_;
    my $j = json_in($TMP, "$PP show $recs --format json", "$what: show of both builds");
    my @bad = map { $_->{id} } grep { !$_->{compiler} && !$_->{match} } @{ $j->{loops} || [] };
    ok(@{ $j->{loops} || [] } >= 4 && !@bad, "$what: every count matches the runs") or diag("@bad");
}

my $r100 = build_run('smooth100', "$TMP/smooth.c", '-DN=100', 2);
my $r150 = build_run('smooth150', "$TMP/smooth.c", '-DN=150', 3);
my $rec = do { local $/; open my $f, '<', $r100 or die; <$f> };
like($rec, qr/^macro name=N value=100$/m, 'the descriptor lists N');
like($rec, qr/^macro name=TSTEPS value=4$/m, 'and TSTEPS');
unlike($rec, qr/^macro name=(__|unix|linux|_OPENMP)/m, 'not the built-in or system ones');

# one build: no parameter, a hint, --set refused
my ($rc, $out, $err) = run_in($TMP, "$PP show $r100");
is($rc, 0, 'show of one build') or diag($err);
like($out, qr/^  N = 100; sizes static array [ABLxy]: this binary runs no other size$/m, 'N sizes a static array');
like($out, qr/build it again with another value \(e\.g\. -DN=200\) and give both records/, 'the hint');
($rc, $out, $err) = run_in($TMP, "$PP predict $r100 --set N=800 --P 2");
is($rc, 2, 'predict --set N on one build: refused');
like($err, qr/--set N: N is a macro of the program \(100 in this build\), fixed at compile time.*build it again/,
     'with the hint');

# two builds: N a parameter, every count an expression of it
($rc, $out, $err) = run_in($TMP, "$PP show $r100 $r150");
is($rc, 0, 'show of two builds') or diag($err);
like($out, qr/^  N +   = 100 +\(global N\)$/m, 'N is a problem parameter') or diag($out);
like($out, qr/^  N = 100, 150  problem parameter \(--set N=\.\.\.\)/m, 'show says where it comes from');
like($out, qr/^  1 other macro \(no static array's size, the same in every build\)$/m,
     'TSTEPS, the same in both builds, stays a constant');
unlike($out, qr/no rule:/, 'every constant that differs follows a rule');
all_match('PolyBench-style', "$r100 $r150");
my $j = json_in($TMP, "$PP show $r100 $r150 --set N=800 --P 4 --format json", 'show --set N=800');
is_deeply([map { "$_->{name} @{$_->{values}} " . ($_->{parameter} ? 'parameter' : 'constant') }
           sort { $a->{name} cmp $b->{name} } @{ $j->{macros} || [] }],
          ['N 100 150 parameter', 'TSTEPS 4 4 constant'], 'JSON: the macros');
# by hand, N = 800, TSTEPS = 4: init N^2 inner; stencil and copy 4 (N-2)^2
# inner and 4 (N-2) outer (the chunk loops' total over the threads);
# triangular N(N-1)/2; the sum N
my %loops_at;
push @{ $loops_at{ $_->{predicted} // 'null' } }, $_->{id} for @{ $j->{loops} || [] };
is(scalar @{ $loops_at{ 4 * 798 * 798 } || [] }, 2, 'stencil and copy: 4*(N-2)^2 = 2547216 each')
    or diag(explain(\%loops_at));
is(scalar @{ $loops_at{ 4 * 798 } || [] }, 2, 'their parallel loops: 4*(N-2) = 3192 each');
is(scalar @{ $loops_at{ 800 * 799 / 2 } || [] }, 1, 'triangular: N(N-1)/2 = 319600');
is(scalar @{ $loops_at{ 800 * 800 } || [] }, 1, 'init: N^2 = 640000');
($rc, undef, $err) = run_in($TMP, "$CC -DN=800 $TMP/smooth.c -o $TMP/smooth800 $LD");
is($rc, 0, 'the real build at N=800') or diag($err);
predict_vs_run('PolyBench-style', [$r100, $r150], '--set N=800', 'smooth800');

# validate: another N needs another build, made beforehand
($rc, undef, $err) = run_in($TMP, "$PP validate $r100 $r150 --point N=200,P=2 --repeat 1");
is($rc, 2, 'validate at another N without --run: refused');
like($err, qr/--point N=200,P=2: N is a compile-time size \(a macro\): the recorded binary runs only N=100/,
     'saying why') or diag($err);
($rc, undef, $err) = run_in($TMP, "gcc -O2 -fopenmp -DN=200 $TMP/smooth.c -o $TMP/smooth-200");
is($rc, 0, 'a plain build at N=200') or diag($err);
($rc, $out, $err) = run_in($TMP, "$PP validate $r100 $r150 --point N=200,P=2 --repeat 1 "
                                 . "--run 'OMP_NUM_THREADS={P} $TMP/smooth-{N}'");
is($rc, 0, 'validate with --run of that build') or diag($err);
like($out, qr/^  N=200,P=2 /m, 'the point measured');

# --------------------------------------------------------------- NPB-style
write_file("$TMP/ell.c", <<'C');
/* ell.c - sparse products in ELLPACK form; the class header gives the sizes */
#include <stdio.h>
#include "npbparams.h"
static double a[NA * (NONZER + 1)], x[NA], y[NA];
static int col[NA * (NONZER + 1)];

int main(void)
{
    for (int i = 0; i < NA; i++) {
        x[i] = 1.0;
        for (int k = 0; k <= NONZER; k++) {
            col[i * (NONZER + 1) + k] = (i + 37 * k) % NA;
            a[i * (NONZER + 1) + k] = 1.0 / (k + 1);
        }
    }
    double norm = 0;
    for (int it = 1; it <= NITER; it++) {
#pragma omp parallel for
        for (int i = 0; i < NA; i++) {
            double s = 0;
            for (int k = 0; k <= NONZER; k++)
                s += a[i * (NONZER + 1) + k] * x[col[i * (NONZER + 1) + k]];
            y[i] = s;
        }
        norm = 0;
#pragma omp parallel for reduction(+:norm)
        for (int i = 0; i < NA; i++)
            norm += y[i] * y[i];
        for (int i = 0; i < NA; i++)
            x[i] = y[i] / norm;
    }
    printf("class %c: %.6e\n", CLASS, norm);
    return 0;
}
C
for my $c (['S', 1400, 7, 15], ['W', 2100, 8, 15], ['X', 11200, 7, 15]) {
    mkdir "$TMP/$c->[0]";
    write_file("$TMP/$c->[0]/npbparams.h",
               "/* CLASS = $c->[0] */\n#define CLASS '$c->[0]'\n#define NA $c->[1]\n#define NONZER $c->[2]\n"
               . "#define NITER $c->[3]\n");
}
my $rS = build_run('ellS', "$TMP/ell.c", "-I$TMP/S", 2);
my $rW = build_run('ellW', "$TMP/ell.c", "-I$TMP/W", 2);
($rc, $out, $err) = run_in($TMP, "$PP show $rS $rW");
is($rc, 0, 'NPB-style: show of classes S and W') or diag($err);
like($out, qr/^  NA = 1400, 2100  problem parameter/m, 'NA is a parameter');
like($out, qr/^  NONZER = 7, 8  problem parameter/m, 'NONZER is a parameter');
like($out, qr/^  1 other macro \(no static array's size, the same in every build\)$/m, 'NITER stays a constant');
unlike($out, qr/no rule:/, 'every constant that differs follows a rule') or diag($out);
all_match('NPB-style', "$rS $rW");
$j = json_in($TMP, "$PP show $rS $rW --set NA=11200 --set NONZER=7 --P 4 --format json", 'NPB-style: show --set');
my @spmv = grep { ($_->{predicted} // 0) == 15 * 11200 * 8 } @{ $j->{loops} || [] };
is(scalar @spmv, 1, 'by hand: the product runs NITER*NA*(NONZER+1) = 1344000 times');
my @norm = grep { ($_->{predicted} // 0) == 15 * 11200 } @{ $j->{loops} || [] };
is(scalar @norm, 3, 'and the three loops over the rows NITER*NA = 168000');
($rc, undef, $err) = run_in($TMP, "$CC -I$TMP/X $TMP/ell.c -o $TMP/ellX $LD");
is($rc, 0, 'the real build of an 8x class') or diag($err);
predict_vs_run('NPB-style', [$rS, $rW], '--set NA=11200 --set NONZER=7', 'ellX');

# ------------------------------------------------------------ two units
# each unit lists its macros; the record's union makes N one parameter
write_file("$TMP/main2.c", <<'C');
#ifndef N
#define N 10
#endif
void relax(double *x);
static double v[N];
int main(void)
{
    for (int r = 0; r < 3; r++)
        relax(v);
    return v[1] > 1e9;
}
C
write_file("$TMP/relax2.c", <<'C');
#ifndef N
#define N 10
#endif
void relax(double *x)
{
    for (int i = 1; i < N; i++)
        x[i] = 0.5 * (x[i] + x[i - 1]) + 1;
}
C
my $u1 = build_run('two100', "$TMP/main2.c $TMP/relax2.c", '-DN=100', 1);
my $u2 = build_run('two150', "$TMP/main2.c $TMP/relax2.c", '-DN=150', 1);
$j = json_in($TMP, "$PP show $u1 $u2 --set N=1000 --format json", 'two units: show --set N=1000');
my ($relax) = grep { $_->{id} eq 'relax:L0' } @{ $j->{loops} || [] };
is($relax && $relax->{predicted}, 3 * 999, 'two units: relax runs 3 (N - 1) = 2997 times at N=1000');

# ----------------------------------------------- two builds, two coefficients
# 3N + 7 from two builds is a line through two points: said, and a third
# build checks it
write_file("$TMP/lin.c", <<'C');
#include <stdio.h>
#ifndef N
#define N 100
#endif
int main(void)
{
    double s = 0;
    for (int i = 0; i < 3 * N + 7; i++)
        s += i;
    printf("%g\n", s);
    return 0;
}
C
my @lin = map { build_run("lin$_", "$TMP/lin.c", "-DN=$_", 1) } (100, 150, 200);
($rc, $out, $err) = run_in($TMP, "$PP show $lin[0] $lin[1]");
like($out, qr/^  rule 3\*N \+ 7: 1 constant, fitted to the builds, not checked/m, 'two builds: fitted, not checked');
like($err, qr/warning: \d+ constants? of the builds follows? a form of the size macros fitted to them and checked on no other build/,
     'and a warning') or diag($err);
($rc, $out, $err) = run_in($TMP, "$PP show @lin --set N=1000 --format json");
my ($l0) = grep { $_->{id} eq 'main:L0' } @{ (eval { decode_json($out) } || {})->{loops} || [] };
is($l0 && $l0->{predicted}, 3007, 'three builds: 3N + 7 checked, 3007 at N=1000');
unlike($err, qr/checked on no other build/, 'and no warning');

# ------------------------------------------------------------ robustness
# C++, -flto (the plugin at compile time only, and on both lines)
($rc, undef, $err) = run_in($TMP, "g++ -O2$SAN -fopenmp -fplugin=$B/perfpred.so -DN=64 -x c++ $TMP/smooth.c -x none "
                                  . "-o $TMP/smoothxx $LD");
is($rc, 0, 'C++ build') or diag($err);
($rc, undef, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/xx.ppr $TMP/smoothxx");
$rec = do { local $/; open my $f, '<', "$TMP/xx.ppr" or die; <$f> };
like($rec, qr/^macro name=N value=64$/m, 'C++: N listed');
($rc, undef, $err) = run_in($TMP, "$CC -flto -DN=64 -c $TMP/smooth.c -o $TMP/lto.o && "
                                  . "gcc -O2$SAN -fopenmp -flto $TMP/lto.o -o $TMP/lto $LD && "
                                  . "gcc -O2$SAN -fopenmp -flto -fplugin=$B/perfpred.so $TMP/lto.o -o $TMP/lto2 $LD");
is($rc, 0, '-flto builds') or diag($err);
for my $l ('lto', 'lto2') {
    ($rc, undef, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/$l.ppr $TMP/$l");
    is($rc, 0, "$l: runs") or diag($err);
    $rec = do { local $/; open my $f, '<', "$TMP/$l.ppr" or die; <$f> };
    like($rec, qr/^macro name=N value=64$/m, "$l: N listed");
}
# a malformed macro line: an error naming the file and line, status 2
(my $bad = do { local $/; open my $f, '<', $r100 or die; <$f> }) =~ s/^macro name=N value=100$/macro name=N value=x/m;
write_file("$TMP/bad.ppr", $bad);
($rc, undef, $err) = run_in($TMP, "$PP show $TMP/bad.ppr");
is($rc, 2, 'a malformed macro line: status 2');
like($err, qr/bad\.ppr:\d+: .*value/, 'naming the file and line') or diag($err);
# builds that GCC compiles differently (#if on the size): refused, said
write_file("$TMP/cond.c", <<'C');
#include <stdio.h>
#ifndef N
#define N 100
#endif
static double a[N];
int main(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        a[i] = i;
#if N > 120
    for (int i = 0; i < N; i++)
        s += 2 * a[i];
#endif
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("%g\n", s);
    return 0;
}
C
my $c1 = build_run('cond100', "$TMP/cond.c", '-DN=100', 1);
my $c2 = build_run('cond150', "$TMP/cond.c", '-DN=150', 1);
($rc, undef, $err) = run_in($TMP, "$PP show $c1 $c2");
is($rc, 2, 'builds with other code: refused');
like($err, qr/not a record of the same program .*size macros \(N\) must differ only in the constants/,
     'the error names the macros') or diag($err);

done_testing();
