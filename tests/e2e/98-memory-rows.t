#!/usr/bin/perl
# 98-memory-rows.t - a stencil's rows in the memory model (docs/model.md,
# "Memory", rows): a heat solver written as users write it (two grids of
# ny rows by nx columns swapped every step, the five-point update in a
# loop over the columns) recorded with its rows in the L1 and its data in
# the cache, predicted on a hand machine (L1 32 KiB; a measured curve of
# 64 B/ns up to 64 MiB and 8 B/ns from 64 MiB + 8 bytes on).
#
# The plugin describes the inner loop as two streams, u read in three
# rows (u[i-1][j], u[i][j +- 1], u[i+1][j]: memr=(3 1)) and v written.
# Hand-computed (a read stream counts 3/4 of its bytes, a written one
# 3/2; a row beyond the first, read again from beyond the L1, 3/4 at the
# stream's bandwidth over the L1's; 1/8 - 1/64 = 0.109375 ns per byte
# past the edge):
#
#   working set of u's and v's streams: one entry of the loop over the
#   rows, (ny - 2) (nx - 2) 16 bytes; the rows the inner loop reads at
#   once: (nx - 2) x (3 + 1) x 8 bytes against the L1's 32768.
#   recorded at nx = ny = 64: 61504 bytes, rows 1984 bytes: 18 bytes at
#   64 B/ns.
#   nx = 1000, ny = 5000: 79808064 bytes, beyond the edge; rows 31936,
#     in the L1: 18 x 0.109375 = 1.96875 ns more an iteration, 16 bytes.
#   nx = 2000, ny = 2500: 79856064 bytes, beyond; rows 63936, out of the
#     L1: 1.96875 + 2 x 0.75 x 8 x 0.109375 = 3.28125 ns, 32 bytes.
#   nx = 2000, ny = 1000: 31904064 bytes, inside the edge; the rows out
#     of the L1 cost nothing more where the data are as fast as the L1:
#     0 ns, 32 bytes.
# So at one working set (80 MB) the long rows cost more than the short
# ones, and between the record and 80 MB the time per iteration rises.
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

open my $f, '>', "$tmp/heat.c" or die;
print $f <<'EOF';
/* heat.c - explicit heat diffusion on an ny x nx plate, steps steps. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: heat NX NY STEPS\n");
        return 2;
    }
    long nx = atol(argv[1]), ny = atol(argv[2]), steps = atol(argv[3]);
    if (nx < 3 || ny < 3 || steps < 1) {
        fprintf(stderr, "heat: NX and NY at least 3, STEPS at least 1\n");
        return 2;
    }
    double *u = calloc((size_t)(nx * ny), sizeof *u);
    double *v = calloc((size_t)(nx * ny), sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "heat: out of memory\n");
        return 1;
    }
    for (long j = 0; j < nx; j++)
        u[j] = v[j] = 100.0;   /* a hot edge */
    const double alpha = 0.2;
    for (long s = 0; s < steps; s++) {
        for (long i = 1; i < ny - 1; i++) {
            for (long j = 1; j < nx - 1; j++) {
                double c = u[i * nx + j];
                double lap = u[(i - 1) * nx + j] + u[(i + 1) * nx + j] + u[i * nx + j - 1] + u[i * nx + j + 1] - 4.0 * c;
                v[i * nx + j] = c + alpha * lap;
            }
        }
        double *t = u;
        u = v;
        v = t;
    }
    double sum = 0;
    for (long k = 0; k < nx * ny; k++)
        sum += u[k];
    printf("heat %.6f\n", sum);
    free(u);
    free(v);
    return 0;
}
EOF
close $f;
system("gcc -O2$SAN -fplugin=$B/perfpred.so $tmp/heat.c -o $tmp/heat -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build heat.c');
system("PERFPRED_RECORD=$tmp/heat.ppr $tmp/heat 64 64 20 >/dev/null") == 0 or BAIL_OUT('heat run');

# the descriptor: u's three rows, v's one
my $desc = `strings $tmp/heat | grep 'line=27 '`;
like($desc, qr/ mem=\(8 0 0 8 0 1\) memr=\(3 1\)/, 'the inner loop: u read in 3 rows, v written in 1 (memr=(3 1))');

hand_memory_machine("$tmp/hand.machine", 67108864, 1073741824);

sub predict { return predict_json($pp, "$tmp/heat.ppr --machine $tmp/hand.machine --P 1 $_[0]") }
sub mloop { return memory_loop($_[0], 27) }
sub near { my ($a, $b) = @_; return defined $a && abs($a - $b) <= 1e-9 * (abs($b) + 1e-9); }

my $short = mloop(predict('--set nx=1000 --set ny=5000 --set steps=20'));
my $long = mloop(predict('--set nx=2000 --set ny=2500 --set steps=20'));
my $cached = mloop(predict('--set nx=2000 --set ny=1000 --set steps=20'));
is($short->{working_set_recorded}, 61504, 'recorded working set (ny - 2)(nx - 2) 16 = 61504 bytes');
is($short->{working_set}, 79808064, 'nx = 1000, ny = 5000: 79808064 bytes');
is($long->{working_set}, 79856064, 'nx = 2000, ny = 2500: 79856064 bytes');
ok($short->{beyond} && $long->{beyond} && !$cached->{beyond}, 'both 80 MB grids are beyond the edge, the 32 MB one inside');
is($short->{bytes_per_iter}, 16, 'short rows (31936 bytes at once) stay in the L1: 16 bytes an iteration');
is($long->{bytes_per_iter}, 32, 'long rows (63936 bytes at once) do not: 32 bytes an iteration, three rows of u');
ok(near($short->{extra_ns_per_iter}, 1.96875), "short rows beyond the edge: +1.96875 ns an iteration (got $short->{extra_ns_per_iter})");
ok(near($long->{extra_ns_per_iter}, 3.28125), "long rows beyond the edge: +3.28125 ns (got $long->{extra_ns_per_iter})");
ok(near($cached->{extra_ns_per_iter}, 0), "long rows with the data inside the edge: +0 (got $cached->{extra_ns_per_iter})");

# the same rows with the model off: nothing added
my $off = predict('--set nx=2000 --set ny=2500 --set steps=20 --cache-rule off');
my $on = predict('--set nx=2000 --set ny=2500 --set steps=20');
my $want = 20 * 2498 * 1998 * 3.28125e-9;
ok($on->{T1} - $off->{T1} >= $want * (1 - 1e-6),
   sprintf('T1 grows by at least steps (ny - 2)(nx - 2) x 3.28125 ns = %.6f s (got %.6f s)', $want, $on->{T1} - $off->{T1}));

# a malformed memr= is an error naming the record and the line
for my $bad (['memr=(3)', qr/heat-bad\.ppr:\d+: memr= needs one row count per stream of mem= \(2\)/],
             ['memr=(0 1)', qr/heat-bad\.ppr:\d+: memr= needs row counts from 1 to 64/]) {
    open my $in, '<', "$tmp/heat.ppr" or die;
    open my $o, '>', "$tmp/heat-bad.ppr" or die;
    while (<$in>) { s/memr=\(3 1\)/$bad->[0]/; print $o $_; }
    close $o;
    my $err = `$pp show $tmp/heat-bad.ppr 2>&1 >/dev/null`;
    is($? >> 8, 2, "$bad->[0]: exit status 2");
    like($err, $bad->[1], "$bad->[0]: the error names the file and line");
}
done_testing();
