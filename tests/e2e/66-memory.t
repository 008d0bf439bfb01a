#!/usr/bin/perl
# 66-memory.t - the memory model by hand (docs/model.md, "memory"): a loop
# that streams an array of N doubles (8 bytes per iteration, walked again
# by every pass of the enclosing loop: a reuse distance of 8 N bytes),
# recorded with the array in L1, predicted with it far beyond the caches.  With the hand machine's bandwidths (64 B/ns up to
# 16 KiB, 8 B/ns from 64 MiB on), each iteration costs 8/8 - 8/64 = 0.875
# ns more; the initialisation loop streams one array too.  So
#   T1(on) - T1(off) = (N R + N) x 0.875 ns,
# and at the recorded size on and off agree.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
system("gcc -O2 -fplugin=$B/perfpred.so -c tests/programs/stream.c -o $tmp/s.o") == 0
    && system("gcc $san $tmp/s.o -o $tmp/s -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build tests/programs/stream.c');
system("PERFPRED_RECORD=$tmp/s.ppr $tmp/s 1000 200 >/dev/null") == 0 or BAIL_OUT('stream run');
sub json { my $o = eval { decode_json($_[0]) }; return $o; }

hand_machine("$tmp/hand.machine", name => 'elsewhere', header => <<'EOF2');
cache.l1d_bytes = 32768
cache.l2_bytes = 1048576
cache.l3_bytes = 8388608
mem.bw1_bytes_per_ns = 8
mem.bw_all_bytes_per_ns = 12
mem.footprint_bytes = 67108864
mem.bw_l1_bytes_per_ns = 64
mem.bw_l2_bytes_per_ns = 32
mem.bw_l3_bytes_per_ns = 16
EOF2

my $rec = do { local $/; open my $f, '<', "$tmp/s.ppr" or die; <$f> };
like($rec, qr/^loop .* mem=\(8 1 0\)/m, 'the summing loop streams 8 bytes per iteration, the same ones every pass');

sub t1 {
    my ($args) = @_;
    my $j = json(`$pp predict $tmp/s.ppr --machine $tmp/hand.machine --P 1 --draws 0 --format json $args 2>/dev/null`) || {};
    return $j->{T1} // -1;
}
my ($N, $R) = (10_000_000, 200);
my $on = t1("--set N=$N --set R=$R");
my $off = t1("--set N=$N --set R=$R --cache-rule off");
my $want = ($N * $R + $N) * 0.875e-9;
ok($on > 0 && $off > 0, "predicted T1 with ($on s) and without ($off s) the memory model");
ok(abs(($on - $off) - $want) <= 1e-6 * $want,
   sprintf('the difference is (N R + N) x 0.875 ns = %.6f s (got %.6f s)', $want, $on - $off));
my ($a, $b) = (t1(''), t1('--cache-rule off'));
ok(abs($a - $b) <= 1e-9 * $b, "at the recorded size the model changes nothing ($a s, $b s)");
like(scalar `$pp predict $tmp/s.ppr --cache-rule sometimes 2>&1`, qr/--cache-rule: 'sometimes' is not on or off/,
     'a bad --cache-rule is refused');

done_testing();
