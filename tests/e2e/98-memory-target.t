#!/usr/bin/perl
# 98-memory-target.t - memory at the target size (docs/model.md, "memory"):
# kernels recorded with their data in L2 and predicted where it has left
# the last cache level, on a hand machine whose measured bandwidth curve
# is flat at 64 B/ns up to 8 MiB and drops to 8 B/ns just past it (its
# points at 8 MiB and 8 MiB + 8 bytes), while the host reports a 32 MiB L3:
# the edge of the memory is the curve's (8 MiB), and predict says so.
#
# Hand-computed (a read stream counts 3/4 of its bytes at the calibrated
# bandwidth, a written one 3/2; 1/8 - 1/64 = 0.109375 ns per byte more
# beyond the edge):
#
# triad.c: r = 0..reps-1: i = 0..n-1: a[i] = b[i] + s * c[i].  Three
#   streams of 8 bytes an iteration, each walked again by the next pass:
#   working set 24 n bytes.  n = 349525: 8388600 bytes, inside (the model
#   adds nothing to that loop); n = 349526: 8388624 bytes, beyond: each
#   iteration costs 0.75 x 8 x 0.109375 x 2 + 1.5 x 8 x 0.109375
#   = 2.625 ns more.
# matmul.c: C = A B, i-k-j order (C(i,:) += A(i,k) B(k,:)).  The inner
#   loop walks a row of C (the k loop walks it again: 8 n bytes an entry,
#   16 n with B's row beside it) and a row of B, which the k loop does not
#   walk again: it comes back at the next i, after one entry of the k loop
#   has walked all of B, A's row and C's row: 8 n^2 + 16 n bytes (not the
#   24 n^2 of the three matrices).  n = 1023: 8388600 bytes, inside;
#   n = 1024: 8404992, beyond: 0.75 x 8 x 0.109375 = 0.65625 ns more an
#   iteration.  16 bytes an iteration.
# Recorded at the target's working set (triad at n = 400000: 9.6 MB, from
# the memory already), the record's costs hold the memory's time and the
# model adds nothing at a larger size.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine predict_json memory_loop hand_memory_machine);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;

my %src;
$src{triad} = <<'EOF';
/* triad.c - a[i] = b[i] + s * c[i] over n doubles, reps passes. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: triad N REPS\n");
        return 2;
    }
    long n = atol(argv[1]), reps = atol(argv[2]);
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    double *c = malloc(n * sizeof *c);
    if (n < 1 || !a || !b || !c) {
        fprintf(stderr, "triad: cannot allocate %ld doubles\n", n);
        return 1;
    }
    for (long i = 0; i < n; i++) {
        b[i] = (double)(i % 7);
        c[i] = (double)(i % 5);
    }
    double s = 0.5;
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        s = 0.25 * a[r % n] + 0.5;
    }
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += a[i];
    printf("sum %.6f\n", sum);
    free(a);
    free(b);
    free(c);
    return 0;
}
EOF
$src{matmul} = <<'EOF';
/* matmul.c - C = A B for n x n doubles, row major, i-k-j order. */
#include <stdio.h>
#include <stdlib.h>

static void matmul(int n, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++) {
        double *ci = c + (size_t)i * n;
        for (int j = 0; j < n; j++)
            ci[j] = 0.0;
        for (int k = 0; k < n; k++) {
            double aik = a[(size_t)i * n + k];
            const double *bk = b + (size_t)k * n;
            for (int j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: matmul N\n");
        return 2;
    }
    size_t nn = (size_t)n * n;
    double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (size_t i = 0; i < nn; i++) {
        a[i] = (double)(i % 11) / 8;
        b[i] = (double)(i % 13) / 8;
    }
    matmul(n, a, b, c);
    double sum = 0;
    for (size_t i = 0; i < nn; i++)
        sum += c[i];
    printf("sum %.3f\n", sum);
    free(a);
    free(b);
    free(c);
    return 0;
}
EOF
for my $p (sort keys %src) {
    open my $f, '>', "$tmp/$p.c" or die;
    print $f $src{$p};
    close $f;
    system("gcc -O2$SAN -fplugin=$B/perfpred.so $tmp/$p.c -o $tmp/$p -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build $p.c");
}
system("PERFPRED_RECORD=$tmp/triad.ppr $tmp/triad 4096 50 >/dev/null") == 0 or BAIL_OUT('triad run');
system("PERFPRED_RECORD=$tmp/mm.ppr $tmp/matmul 64 >/dev/null") == 0 or BAIL_OUT('matmul run');
system("PERFPRED_RECORD=$tmp/triadbig.ppr $tmp/triad 400000 2 >/dev/null") == 0 or BAIL_OUT('triad big run');

hand_memory_machine("$tmp/hand.machine", 8388608, 67108864);

sub predict { return predict_json($pp, "$tmp/$_[0].ppr --machine $tmp/hand.machine --P 1 $_[1]") }
sub mloop { return memory_loop($_[0], $_[1]) }
sub near { my ($a, $b) = @_; return defined $a && abs($a - $b) <= 1e-9 * (abs($b) + 1e-9); }

# ---- the triad ---------------------------------------------------------
my $in = predict('triad', '--set n=349525 --set reps=100');
my $out = predict('triad', '--set n=349526 --set reps=100');
is($out->{memory}{edge_bytes}, 8388608, 'the edge is where the measured curve reaches the memory (8 MiB), not the 32 MiB L3');
is($out->{memory}{edge_from}, 'measured', 'and predict says it is measured');
my ($ti, $to) = (mloop($in, 25), mloop($out, 25));
is($ti->{bytes_per_iter}, 24, 'triad: 24 bytes an iteration');
is($ti->{working_set_recorded}, 24 * 4096, 'triad: recorded working set 24 n = 98304 bytes');
is($ti->{working_set}, 8388600, 'triad: n = 349525: working set 8388600 bytes');
is($to->{working_set}, 8388624, 'triad: n = 349526: working set 8388624 bytes');
ok(!$ti->{beyond} && near($ti->{extra_ns_per_iter}, 0), 'triad: inside the edge, no memory term');
ok($to->{beyond} && !$to->{beyond_recorded}, 'triad: beyond the edge at the target, not at the record');
ok(near($to->{extra_ns_per_iter}, 2.625), "triad: 2.625 ns more an iteration (got $to->{extra_ns_per_iter})");
# T1 with and without the model: the triad's n reps iterations, the
# initialisation (two written streams: 2.625 ns) and the sum (one read:
# 0.65625 ns) over n, all beyond the edge (the program's arrays: 24 n)
my $off = predict('triad', '--set n=349526 --set reps=100 --cache-rule off');
my $want = 349526 * (100 * 2.625 + 2.625 + 0.65625) * 1e-9;
ok(abs(($out->{T1} - $off->{T1}) - $want) <= 1e-6 * $want,
   sprintf('triad: T1 grows by n (reps x 2.625 + 3.28125) ns = %.6f s (got %.6f s)', $want, $out->{T1} - $off->{T1}));
my $offin = predict('triad', '--set n=349525 --set reps=100 --cache-rule off');
ok(near($in->{T1}, $offin->{T1}), 'triad: inside the edge, T1 is the fitted costs\' alone');

# recorded beyond the edge already: nothing added at a larger size
my $big = predict('triadbig', '--set n=4000000 --set reps=10');
my $tb = mloop($big, 25);
ok($tb->{beyond} && $tb->{beyond_recorded}, 'triad recorded at 9.6 MB: from the memory at both sizes');
ok(near($tb->{extra_ns_per_iter}, 0), 'and the model adds nothing to the recorded cost');

# ---- the matrix multiply -----------------------------------------------
my $mi = predict('mm', '--set n=1023');
my $mo = predict('mm', '--set n=1024');
my ($ki, $ko) = (mloop($mi, 14), mloop($mo, 14));
is($ko->{bytes_per_iter}, 16, 'matmul: 16 bytes an iteration (C\'s row and B\'s)');
is($ko->{working_set_recorded}, 8 * 64 * 64 + 16 * 64, 'matmul: recorded working set 8 n^2 + 16 n = 33792 bytes');
is($ki->{working_set}, 8388600, 'matmul: n = 1023: B and a row of A and C, 8388600 bytes');
is($ko->{working_set}, 8404992, 'matmul: n = 1024: 8404992 bytes');
ok(!$ki->{beyond} && near($ki->{extra_ns_per_iter}, 0), 'matmul: inside the edge, no memory term');
ok($ko->{beyond} && near($ko->{extra_ns_per_iter}, 0.65625),
   "matmul: beyond it, 0.65625 ns more an iteration (got $ko->{extra_ns_per_iter})");

# ---- the text ------------------------------------------------------------
my $txt = `$pp predict $tmp/mm.ppr --machine $tmp/hand.machine --P 1 --draws 0 --set n=1024 2>/dev/null`;
like($txt, qr/memory: last cache level 8\.0 MiB, where the measured bandwidth curve reaches the memory's \(the host reports a 32\.0 MiB L3: the measured size is used\)/,
     'predict names the measured edge and the reported L3');
like($txt, qr/matmul:L\d+ \(line 14\): 16 B\/iteration, working set 8\.0 MiB \(recorded 33\.0 KiB\), leaves the caches, \+0\.656 ns\/iteration/,
     'and the matrix multiply\'s inner loop');
like(scalar `$pp show $tmp/mm.ppr --machine $tmp/hand.machine --set n=1024 2>/dev/null`,
     qr/memory: last cache level 8\.0 MiB.*\n(?s:.*)\(line 14\): 16 B\/iteration, working set 8\.0 MiB/,
     'show --machine prints the same lines at its --set');
done_testing();
