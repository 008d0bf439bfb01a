#!/usr/bin/perl
# 76-rank-values.t - values that differ between the ranks of an MPI run
# (issue 22).  A partner written rank ^ 1 is traced as (bxor (rank) 1),
# not recorded as a problem parameter with rank 0's value; a value the
# plugin cannot follow (from a function of another file, a table looked
# up by rank) is each rank's own in its record: the model finds a rule in
# rank and P that gives every rank's value, or, without one, predicts only
# at the recorded P.  Checked: no hang at the recorded size and P, loop
# counts at 8x the size and P = 2, 4, 8, 16 (real runs at P = 2 and 4, the
# others computed by hand), and the hang of an unsafe send-send exchange
# exactly where its message crosses the eager limit.
#
# Run from the repository root:  prove tests/e2e/76-rank-values.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in counts_exact_in);
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP   = "$B/perfpred";
my $TMP  = tempdir('pp-rankv-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN  = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';

mpi_setup();

sub run { return run_in($TMP, $_[0]) }
sub json_of { return json_in($TMP, @_) }
sub counts_exact { return counts_exact_in($TMP, $PP, @_) }

sub write_file {
    my ($name, $text) = @_;
    open my $f, '>', "$TMP/$name" or die "$name: $!";
    print $f $text;
    close $f;
}

# build with the plugin (extra: objects compiled without it); returns the
# descriptors the plugin prints
sub build {
    my ($name, $extra) = @_;
    my ($rc, $out, $err) = run("mpicc -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                               . "$TMP/$name.c " . ($extra // '') . " -o $TMP/$name -L$B -lperfpred-rt -lm");
    is($rc, 0, "$name.c builds with the plugin") or BAIL_OUT($err);
    return $err;
}

sub record {
    my ($np, $rec, $args) = @_;
    my ($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/$rec mpirun -np $np $TMP/$args");
    is($rc, 0, "$args runs at $np ranks and records") or diag($err);
    return "$TMP/$rec";
}

# the loops' counts by source line: predicted by the model of a run at
# other options, or observed in a run
sub predicted {
    my ($run, $opts, $what) = @_;
    my $j = json_of("$PP show $run --view model $opts --format json", $what) or return {};
    return { map { $_->{line} => $_->{predicted} } @{$j->{loops}} };
}
sub observed {
    my ($run, $what) = @_;
    my $j = json_of("$PP show $run --view model --format json", $what) or return {};
    return { map { $_->{line} => $_->{observed} } @{$j->{loops}} };
}

# the loops' predicted counts at 8x the size and P = 2, 4 (compared with
# real runs there) and 8, 16 (compared with counts computed by hand:
# $hand->{P}{line})
sub scale_counts {
    my ($name, $run, $n8, $hand) = @_;
    for my $P (2, 4) {
        my $real = record($P, "$name-$P-big.ppr", "$name $n8");
        my $obs  = observed($real, "$name: the real run at P = $P, n = $n8");
        my $pred = predicted($run, "--P $P --set n=$n8", "$name: predicted at P = $P, n = $n8");
        ok(%$obs > 0, "$name P=$P: loops observed");
        is($pred->{$_}, $obs->{$_}, "$name P=$P n=$n8: line $_ predicted as the real run counts") for sort keys %$obs;
    }
    for my $P (8, 16) {
        my $pred = predicted($run, "--P $P --set n=$n8", "$name: predicted at P = $P, n = $n8");
        is($pred->{$_}, $hand->{$P}{$_}, "$name P=$P n=$n8: line $_ as counted by hand") for sort keys %{$hand->{$P}};
    }
}

my ($rc, $out, $err);

# --------------------------------------------- rank ^ 1, MPI_Sendrecv
write_file('pairs.c', <<'C');
/* pairs.c - neighbouring ranks swap their blocks every step: rank 0 with
 * 1, 2 with 3, ...; a rank without a partner (the last of an odd count)
 * sits the exchange out.  The n values are dealt in blocks, the first
 * n % size ranks getting one more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int steps = 5;
    int partner = rank ^ 1;
    int mine = n / size + (rank < n % size);
    int theirs = n / size + (partner < n % size);
    double *a = calloc(mine + 1, sizeof *a), *b = calloc(theirs + 1, sizeof *b);
    double s = 0, total = 0;
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < mine; i++)
            a[i] = a[i] * 0.5 + t + rank;
        if (partner < size)
            MPI_Sendrecv(a, mine, MPI_DOUBLE, partner, 0, b, theirs, MPI_DOUBLE, partner, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < theirs; i++)
            s += b[i];
    }
    MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%g\n", total);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
C
my $desc = build('pairs');
like($desc, qr/^event .*kind=sendrecv .*peer=\(bxor \(rank\) 1\) .*rpeer=\(bxor \(rank\) 1\)/m,
     'pairs: the partner rank ^ 1 is (bxor (rank) 1)');
like($desc, qr/^loop id=2 .*count=\(max \(\+ \(div \(var n\) \(nprocs\)\) \(lt \(bxor \(rank\) 1\) \(mod \(var n\) \(nprocs\)\)\)\) 0\)/m,
     'pairs: the partner\'s block in (bxor (rank) 1)');
unlike($desc, qr/^param .*name=partner/m, 'pairs: partner is no problem parameter');
my $pairs = record(4, 'pairs4.ppr', 'pairs 1001');
counts_exact($pairs, 'pairs');
($rc, $out, $err) = run("$PP predict $pairs --P 4");
is($rc, 0, 'pairs: a time at the recorded size and P') or diag($err);
like($out, qr/T_real/, 'pairs: T_real at the recorded size and P');
unlike($err, qr/hang|deadlock/, 'pairs: no hang at the recorded size and P');
# n = 8008: every rank's block n/P + (rank < n % P), the partner's the
# same permuted (P even): 5 steps of n each
my %pairs_hand = map { my $P = $_; ($P => {22 => 5 * $P, 23 => 5 * 8008, 28 => 5 * 8008}) } 8, 16;
scale_counts('pairs', $pairs, 8008, \%pairs_hand);
($rc, $out, $err) = run("$PP predict $pairs --P 2,8,16 --set n=8008");
is($rc, 0, 'pairs: times at P = 2, 8, 16') or diag($err);

# ---------------------------------- rank ^ 1, MPI_Send then MPI_Recv
write_file('swap.c', <<'C');
/* swap.c - partners (rank ^ 1) swap a buffer of n doubles with a plain
 * send followed by a receive on both sides.  Unsafe: it only completes
 * while MPI buffers the message (below the eager limit). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int other = rank ^ 1;
    double *mine = malloc(n * sizeof *mine), *got = malloc(n * sizeof *got);
    for (int i = 0; i < n; i++)
        mine[i] = rank + i;
    for (int round = 0; round < 3; round++) {
        if (other < size) {
            MPI_Send(mine, n, MPI_DOUBLE, other, round, MPI_COMM_WORLD);
            MPI_Recv(got, n, MPI_DOUBLE, other, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < n; i++)
            mine[i] = 0.5 * (mine[i] + got[i]);
    }
    if (rank == 0)
        printf("%g\n", mine[0]);
    free(mine);
    free(got);
    MPI_Finalize();
    return 0;
}
C
$desc = build('swap');
like($desc, qr/^event .*kind=send .*peer=\(bxor \(rank\) 1\)/m, 'swap: the send to (bxor (rank) 1)');
my $swap = record(4, 'swap4.ppr', 'swap 100');
counts_exact($swap, 'swap');
# the built-in network's eager limit is 4096 bytes: 512 doubles
for my $P (2, 4, 8) {
    ($rc, $out, $err) = run("$PP predict $swap --P $P --set n=512");
    is($rc, 0, "swap P=$P n=512 (4096 bytes, eager): a time") or diag($err);
    unlike($err, qr/hangs/, "swap P=$P n=512: no hang");
}
for my $P (2, 4) {
    ($rc, $out, $err) = run("$PP predict $swap --P $P --set n=513");
    is($rc, 2, "swap P=$P n=513 (4104 bytes, above the eager limit): a hang, exit 2");
    like($err, qr/the MPI program hangs \(deadlock\): a cycle of blocking sends, ranks 0 -> 1 -> 0/,
         "swap P=$P n=513: the cycle 0 -> 1 -> 0");
    like($err, qr/rank 1 waits in MPI_Send to rank 0 \(tag 0, 4104 bytes: above the eager limit/,
         "swap P=$P n=513: rank 1 waits in its send");
    unlike($out, qr/T_real/, "swap P=$P n=513: no time");
}
# and the program really hangs with a large message
($rc) = run("cd $TMP && timeout -k 5 10 mpirun -np 2 $TMP/swap 100000");   # (its record, written at the kill, stays in TMP)
is($rc, 124, 'swap n=100000: the real run hangs too (killed after 10 s)');

# ------------------------ (rank + 1) % size, (rank - 1 + size) % size,
# ---------------------------------------- size - 1 - rank, rank % 3
write_file('ring.c', <<'C');
/* ring.c - a token pass around the ring of ranks and back, a mirror
 * exchange (rank r with size - 1 - r), and some work whose amount
 * depends on rank % 3. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int right = (rank + 1) % size;
    int left = (rank - 1 + size) % size;
    int mirror = size - 1 - rank;
    int share = rank % 3 + 1;
    double *buf = calloc(n, sizeof *buf), *in = calloc(n, sizeof *in), acc = 0;
    for (int lap = 0; lap < 4; lap++) {
        MPI_Sendrecv(buf, n, MPI_DOUBLE, right, 1, in, n, MPI_DOUBLE, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++)
            buf[i] = in[i] + 1;
        MPI_Sendrecv(buf, n, MPI_DOUBLE, left, 2, in, n, MPI_DOUBLE, right, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (mirror != rank)
            MPI_Sendrecv(in, n, MPI_DOUBLE, mirror, 3, buf, n, MPI_DOUBLE, mirror, 3,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < share * n; k++)
            acc += buf[k % n];
    }
    double total = 0;
    MPI_Reduce(&acc, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%g\n", total);
    free(buf);
    free(in);
    MPI_Finalize();
    return 0;
}
C
$desc = build('ring');
like($desc, qr/peer=\(mod \(\+ \(rank\) 1\) \(nprocs\)\)/, 'ring: the right neighbour (rank + 1) % size');
like($desc, qr/rpeer=\(mod \(\+ \(\+ \(rank\) -1\) \(nprocs\)\) \(nprocs\)\)/, 'ring: the left one (rank - 1 + size) % size');
like($desc, qr/peer=\(- \(\+ \(nprocs\) -1\) \(rank\)\)/, 'ring: the mirror size - 1 - rank');
unlike($desc, qr/^param .*name=(right|left|mirror|share) /m, 'ring: no neighbour is a problem parameter');
my $ring = record(4, 'ring4.ppr', 'ring 1000');
counts_exact($ring, 'ring');
($rc, $out, $err) = run("$PP predict $ring --P 3,4,5,16 --set n=8000");
is($rc, 0, 'ring: times at P = 3, 4, 5 (a rank its own mirror), 16') or diag($err);
# 4 laps; the work loop runs (rank % 3 + 1) * n per lap: ranks 0..7 give
# 1+2+3+1+2+3+1+2 = 15, ranks 0..15 give 5*6 + 1 = 31
my %ring_hand = (8  => {20 => 32, 23 => 4 * 8 * 8000,  30 => 4 * 15 * 8000},
                 16 => {20 => 64, 23 => 4 * 16 * 8000, 30 => 4 * 31 * 8000});
scale_counts('ring', $ring, 8000, \%ring_hand);

# ---------------- a partner from a function the plugin cannot see into
write_file('partner_of.c', <<'C');
/* partner_of.c - who exchanges with whom */
int partner_of(int rank)
{
    return rank ^ 1;
}
C
write_file('helper.c', <<'C');
/* helper.c - pairs.c's exchange, the partner given by a function
 * of another file (compiled without the plugin, so that it cannot be
 * seen into). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int partner_of(int rank);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int partner = partner_of(rank);
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), s = 0;
    for (int t = 0; t < 5; t++) {
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 0.5 + t + rank;
        if (partner < size)
            MPI_Sendrecv(a, n, MPI_DOUBLE, partner, 0, b, n, MPI_DOUBLE, partner, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < partner + 1; i++)
            s += b[i % n];
    }
    if (rank == 0)
        printf("%g\n", s);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
C
($rc, $out, $err) = run("mpicc -O2 -c $TMP/partner_of.c -o $TMP/partner_of.o");
is($rc, 0, 'partner_of.c builds without the plugin') or diag($err);
$desc = build('helper', "$TMP/partner_of.o");
like($desc, qr/^param .*name=partner /m, 'helper: partner is recorded (each rank its own)');
my $helper = record(4, 'helper4.ppr', 'helper 1000');
counts_exact($helper, 'helper');
($rc, $out, $err) = run("$PP show $helper --view model");
like($out, qr/^  partner +per rank: rank \^ 1 /m, 'helper: show gives the rule rank ^ 1');
like($err, qr/partner \(partner in main\) differs between the ranks \(1, 0, 3, 2 at P = 4\): not a problem parameter; the rule rank \^ 1/,
     'helper: the warning names the value, the function and the rule');
my $j = json_of("$PP show $helper --view model --format json", 'helper: show JSON');
is_deeply($j->{per_rank}, {partner => {rule => 'rank ^ 1', values => [1, 0, 3, 2]}}, 'helper: JSON per_rank');
ok(!exists $j->{params}{partner}, 'helper: partner is not among the parameters');
# the equations follow rank 0: its partner, rank ^ 1 at rank 0, is 1
# (the loop over partner + 1 runs 2 per step), not a symbol `partner'
($rc, $out, $err) = run("$PP equations $helper");
is($rc, 0, 'helper: equations') or diag($err);
unlike($out, qr/\bpartner\b(?!_of)/, 'helper: equations: no symbol partner (rank 0\'s value, by the rule)');
like($out, qr/\*10\s+\[iterations of main:L\d+\]/, 'helper: equations: rank 0 loops partner + 1 = 2 times in each of 5 steps');
($rc, $out, $err) = run("$PP predict $helper --P 4 --set partner=3");
is($rc, 2, 'helper: --set partner is refused');
like($err, qr/'partner' differs between the ranks: no problem parameter \(rank \^ 1\)/, 'helper: and says why');
# partners 1, 0, 3, 2, ...: the loop over partner + 1 runs 1 + ... + P per step
my %helper_hand = (8  => {19 => 40, 20 => 5 * 8 * 8000,  25 => 5 * 36},
                   16 => {19 => 80, 20 => 5 * 16 * 8000, 25 => 5 * 136});
scale_counts('helper', $helper, 8000, \%helper_hand);
# at 2 ranks rank ^ 1 and (rank + 1) % P both give 1, 0 and differ at
# P = 3: no rule is taken, and only P = 2 is predicted
my $helper2 = record(2, 'helper2.ppr', 'helper 1000');
($rc, $out, $err) = run("$PP predict $helper2 --P 2");
is($rc, 0, 'helper at 2 ranks: predicted at P = 2') or diag($err);
like($err, qr/partner \(partner in main\) differs between the ranks \(1, 0 at P = 2\) and both rank \^ 1 and \(rank \+ 1\) % P give every rank's recorded value/,
     'helper at 2 ranks: two rules fit, and the warning names them');
($rc, $out, $err) = run("$PP predict $helper2 --P 4");
is($rc, 2, 'helper at 2 ranks: P = 4 is refused');
like($err, qr/known only at the recorded P = 2, not at P = 4/, 'helper at 2 ranks: says why');

# ---------------------- a per-rank value no rule gives: a table lookup
write_file('table.c', <<'C');
/* table.c - each rank's share of the work comes from a table of
 * weights looked up by rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static const int weight[] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int w = weight[rank % 16];
    double *a = calloc(n, sizeof *a), s = 0, tot = 0;
    for (int r = 0; r < w; r++)
        for (int i = 0; i < n; i++) { a[i] = a[i] * 0.5 + r; s += a[i]; }
    MPI_Reduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%g\n", tot);
    MPI_Finalize();
    return 0;
}
C
$desc = build('table');
like($desc, qr/^param .*name=w /m, 'table: w is recorded (each rank its own)');
my $table = record(4, 'table4.ppr', 'table 1000');
counts_exact($table, 'table');
($rc, $out, $err) = run("$PP predict $table --P 4 --set n=8000");
is($rc, 0, 'table: predicted at the recorded P, another size') or diag($err);
like($err, qr/w \(w in main\) differs between the ranks \(3, 1, 4, 1 at P = 4\) and no rule in rank and P/,
     'table: the warning names the value and the function');
($rc, $out, $err) = run("$PP predict $table --P 8");
is($rc, 2, 'table: another P is refused (exit 2)');
like($err, qr/w \(w in main\) differs between the ranks.*known only at the recorded P = 4, not at P = 8/,
     'table: says which value and why');
unlike($out, qr/T_real/, 'table P=8: no time');
my $treal = record(4, 'table4-big.ppr', 'table 8000');
my $tobs  = observed($treal, 'table: the real run at n = 8000');
my $tpred = predicted($table, '--P 4 --set n=8000', 'table: predicted at n = 8000');
is($tpred->{$_}, $tobs->{$_}, "table P=4 n=8000: line $_ predicted as the real run counts") for sort keys %$tobs;

done_testing();
