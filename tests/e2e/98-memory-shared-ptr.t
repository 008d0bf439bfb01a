#!/usr/bin/perl
# 98-memory-shared-ptr.t - streams through a pointer loaded in the loop
# from a place the loop does not store to (docs/model.md, "memory";
# docs/plugin.md): inside an OpenMP region a shared pointer that a
# `single` swaps is read from the region's data block at every reference
# (.omp_data_i->a) until the loads are hoisted, after the plugin has run.
# The plugin used to call those references unknown (memx=) and the memory
# model then priced nothing: wave_omp's stencil and energy loops were
# predicted at their in-cache cost at n = 2048 (-30% at P = 1).
#
# relax.c: a 1-D three-point relaxation, the two arrays swapped by a
# `single` every step.  The `omp for` loop's own references: a[i-1],
# a[i], a[i+1] (one read stream of 8 bytes an iteration) and b[i] (one
# written stream, 8 bytes).  Its enclosing loop (the steps) swaps the
# pointers, so neither is walked again there: served at the program's
# arrays, 16 n bytes.  On the hand machine of 98-memory-target.t (64 B/ns
# up to 8 MiB, 8 B/ns past it): recorded at n = 4096 (64 KiB), predicted
# at n = 524288 (16 n = 8 MiB, inside: nothing added) and n = 524289
# (8388624 bytes, beyond): 0.75 x 8 x (1/8 - 1/64) + 1.5 x 8 x (1/8 -
# 1/64) = 0.65625 + 1.3125 = 1.96875 ns more an iteration.
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

my $src = <<'EOF';
/* relax.c - 1-D three-point relaxation, OpenMP, the arrays swapped by
 * one thread every step. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: relax N STEPS\n");
        return 2;
    }
    long n = atol(argv[1]);
    int steps = atoi(argv[2]);
    double *a = calloc(n, sizeof *a);
    double *b = calloc(n, sizeof *b);
    if (n < 3 || !a || !b) {
        fprintf(stderr, "relax: cannot allocate %ld doubles\n", n);
        return 1;
    }
    a[n / 2] = b[n / 2] = 1.0;
#pragma omp parallel
    for (int s = 0; s < steps; s++) {
#pragma omp for schedule(static)
        for (long i = 1; i < n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma omp single
        {
            double *t = a;
            a = b;
            b = t;
        }
    }
    printf("centre %.6e\n", a[n / 2]);
    free(a);
    free(b);
    return 0;
}
EOF
open my $f, '>', "$tmp/relax.c" or die;
print $f $src;
close $f;
system("gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so $tmp/relax.c -o $tmp/relax -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build relax.c');
system("OMP_NUM_THREADS=1 PERFPRED_RECORD=$tmp/relax.ppr $tmp/relax 4096 20 >/dev/null") == 0
    or BAIL_OUT('relax run');

# the descriptor: two streams, nothing unknown (the outlined function's
# loops: the steps, then the omp for loop, whose line GCC gives as its
# body's)
open my $r, '<', "$tmp/relax.ppr" or die;
my @loops = grep { /^func name=main\._omp_fn\.0 / .. /^func name=(?!main\._omp_fn\.0 )/ } <$r>;
close $r;
my ($desc) = grep { /^loop id=1 parent=0 / } @loops;
my ($line) = ($desc // '') =~ / line=(\d+) /;
$line //= 0;
ok(defined $desc, "relax: the omp for loop (line $line) is described");
like($desc // '', qr/ mem=\(8 0 0 8 0 1\)/, 'relax: a read stream and a written one of 8 bytes, neither walked again by the steps');
unlike($desc // '', qr/ memx=/, 'relax: the shared pointers\' loads are not unknown references');

hand_memory_machine("$tmp/hand.machine", 8388608, 67108864);

sub predict { return predict_json($pp, "$tmp/relax.ppr --machine $tmp/hand.machine --P 1 $_[0]") }
sub mloop { return memory_loop($_[0], $line) }
sub near { my ($a, $b) = @_; return defined $a && abs($a - $b) <= 1e-9 * (abs($b) + 1e-9); }

my ($in, $out) = (mloop(predict('--set n=524288 --set steps=20')), mloop(predict('--set n=524289 --set steps=20')));
is($out->{bytes_per_iter}, 16, 'relax: 16 bytes an iteration');
is($out->{working_set_recorded}, 16 * 4096, 'relax: recorded working set 16 n = 65536 bytes (the two arrays)');
is($in->{working_set}, 8388608, 'relax: n = 524288: 8388608 bytes');
is($out->{working_set}, 8388624, 'relax: n = 524289: 8388624 bytes');
ok(!$in->{beyond} && near($in->{extra_ns_per_iter}, 0), 'relax: inside the edge, no memory term');
ok($out->{beyond} && near($out->{extra_ns_per_iter}, 1.96875),
   'relax: beyond it, 1.96875 ns more an iteration (got ' . ($out->{extra_ns_per_iter} // 'none') . ')');
done_testing();
