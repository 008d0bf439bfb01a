#!/usr/bin/perl
# 83-mpi-comm.t - communicators end to end: MPI_Comm_split and MPI_Comm_dup
# in the descriptors (color and key as expressions in (rank) and the
# parameters, calls on a communicator variable, (rank COMM) and (nprocs
# COMM) from MPI_Comm_rank and MPI_Comm_size on it), the records (comm=cK,
# newcomm with the rank and size), and the model: SUMMA on a Q x Q grid with
# row and column broadcasts recorded at 4 ranks and predicted to 1024,
# split's rules (MPI_UNDEFINED, ordering by key) at rank counts never run,
# messages matched in their communicator only, a hang in a sub-communicator
# and a program whose parameters do not fit P.
#
# Run from the repository root:  prove tests/e2e/83-mpi-comm.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in counts_exact_in);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP   = "$B/perfpred";
my $TMP  = tempdir('pp-mpic-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN  = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';

mpi_setup();

sub run { return run_in($TMP, $_[0]) }

sub build {
    my ($src, $exe, $plugin) = @_;
    my $pl = $plugin // 1 ? "-fplugin=$B/perfpred.so$SAN" : '';
    my $rt = $plugin // 1 ? "-L$B -lperfpred-rt" : '';
    my ($rc, $out, $err) = run("mpicc -O2 $pl $src -o $TMP/$exe $rt -lm");
    is($rc, 0, "$src builds" . ($plugin // 1 ? ' with the plugin' : '')) or diag($err);
}

sub record {
    my ($np, $name, $args) = @_;
    my ($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/$name timeout -k 5 120 mpirun -np $np $TMP/$args");
    is($rc, 0, "$args runs at $np ranks and records") or diag($err);
    return ("$TMP/$name", $out);
}

sub slurp { local $/; open my $f, '<', $_[0] or return ''; return <$f> }

sub json_of { return json_in($TMP, @_) }

# ------------------------------------------------------------------ SUMMA
build('samples/mpi_summa.c', 'summa');
build('samples/mpi_summa.c', 'summa_plain', 0);
my ($summa, $sout) = record(4, 'summa4', 'summa 128 2');
my ($rc, $out, $err);
($rc, my $plain, $err) = run("timeout -k 5 120 mpirun -np 4 $TMP/summa_plain 128 2");
is($sout, $plain, 'summa: the same output with and without the plugin');
like($sout, qr/checksum/, 'summa: prints its checksum');

my $r0 = slurp("$summa/rank-0.ppr");
like($r0, qr/^event .*kind=comm_split .*color=\(div \(rank\) \(var q\)\) key=\(mod \(rank\) \(var q\)\) comm=world newcomm=(row\.\d+)/m,
     'descriptor: the row split, color rank/q and key rank%q');
my ($row) = $r0 =~ /kind=comm_split .*newcomm=(row\.\d+)/;
$row //= 'row.?';
like($r0, qr/^event .*kind=comm_split .*color=\(mod \(rank\) \(var q\)\) key=\(div \(rank\) \(var q\)\) comm=world newcomm=col\.\d+/m,
     'descriptor: the column split');
like($r0, qr/^event .*kind=comm_dup .*comm=world newcomm=lib\.\d+/m, 'descriptor: MPI_Comm_dup of the world');
like($r0, qr/^event .*kind=bcast .*root=\(iv \d+\) comm=\Q$row\E/m, 'descriptor: the A broadcast on the row communicator');
like($r0, qr/^event .*kind=sendrecv .*peer=\(mod \(\+ \(rank \Q$row\E\) 1\) \(nprocs \Q$row\E\)\).* comm=\Q$row\E/m,
     'descriptor: the ring shift to (rank row + 1) mod (nprocs row) on the row');
like($r0, qr/^event .*kind=allreduce .*comm=lib\.\d+/m, 'descriptor: the checksum on the duplicate');
like($r0, qr/^event .*kind=comm_free .*newcomm=\Q$row\E/m, 'descriptor: MPI_Comm_free of the row');
my $r3 = slurp("$summa/rank-3.ppr");
like($r3, qr/^ev .*kind=comm_split .*newcomm=c1 rank=1 size=2 comm=world/m,
     'record: rank 3 is rank 1 of its row (c1, 2 ranks)');
like($r3, qr/^ev .*kind=comm_dup .*newcomm=c3 rank=3 size=4/m, 'record: the duplicate has all 4');
like($r3, qr/^ev .*kind=bcast .*comm=c1/m, 'record: a broadcast on c1');

ok(counts_exact_in($TMP, $PP, $summa, 'summa') >= 6, 'summa: its loops listed');

my $CL = 'docs/examples/cluster.machine';
my %at;
for my $pt ([128, 2, 4], [1024, 8, 64], [4096, 32, 1024]) {
    my ($n, $q, $P) = @$pt;
    my $j = json_of("$PP predict $summa --machine $CL --set n=$n --set q=$q --P $P --format json",
                    "summa: predict n=$n on a $q x $q grid");
    $j = $j->[0] if ref $j eq 'ARRAY';
    $at{$P} = $j || {};
}
for my $P (4, 64, 1024) {
    my $j = $at{$P};
    is($j->{mpi}{unmatched_messages}, 0, "summa P=$P: every ring-shift message received");
    ok(($j->{mpi}{by_call}{bcast} // 0) > 0, "summa P=$P: the row and column broadcasts take time");
    ok(($j->{time}{real} // 0) >= ($j->{time}{pram} // 1e99) * (1 - 1e-9), "summa P=$P: T_real >= T_PRAM");
    is($j->{mpi}{t1_summed}, JSON::PP::true, "summa P=$P: no run on one rank with q=sqrt(P): T1 is the ranks' work");
}
# the work is n^3 whatever the grid: from n = 1024 to 4096 (the same
# blocks, 4x the steps on 16x the ranks) T1 grows about 64x (the set-up,
# 16x, and the fitted costs of a small record take some of it: the blocks'
# initialisation, first touch and two divisions an element, fits at 50-90 ns
# an element from 4 ranks on 2 processors, a fifth of T1 at n = 1024, and
# the ratio was 51-54 in four runs, so not less than 0.7 x 64 but far from
# the 16x of a model that missed the n^3), and T_MIRACLE = T1 / P
my $w64 = $at{64}{T1} // 0;
my $w1024 = $at{1024}{T1} // 0;
ok($w64 > 0 && $w1024 / $w64 > 0.7 * 64 && $w1024 / $w64 < 1.02 * 64,
   sprintf('summa: T1 at n=4096 is about 64x that at n=1024 (%.4g)', $w64 ? $w1024 / $w64 : 0));
ok(abs(($at{1024}{time}{miracle} // 0) - $w1024 / 1024) < 1e-6 * $w1024, 'summa P=1024: T_MIRACLE = T1/P');
ok(($at{1024}{mpi}{by_call}{bcast} // 0) > ($at{64}{mpi}{by_call}{bcast} // 1),
   'summa: the broadcasts\' share grows from 64 to 1024 ranks (longer rows and columns)');

# parameters that do not fit P: rows of 3 and 1 on 4 ranks, root 1 on one rank
($rc, $out, $err) = run("$PP predict $summa --set q=3 --P 4");
isnt($rc, 0, 'summa q=3 at P=4: an error');
like($err, qr/MPI_Bcast at \S*mpi_summa\.c:\d+: root \d, but there are \d ranks in its communicator/,
     'summa q=3 at P=4: names the broadcast whose root is outside its row');
unlike($out, qr/T_real/, 'summa q=3 at P=4: no time');

# ------------------------------------------------------------ split's rules
build('tests/mpi-comm/split_order.c', 'split_order');
my ($so, $soout) = record(4, 'so4', 'split_order');
like($soout, qr/split_order: ok P=4/, 'split_order: right at 4 ranks');
my $j = json_of("$PP predict $so --P 4,7,12,30 --format json", 'split_order: predict at 4, 7, 12, 30 ranks');
for my $p (@{ $j || [] }) {
    is($p->{mpi}{unmatched_messages}, 0, "split_order P=$p->{P}: every message received in its communicator");
    ok(($p->{mpi}{by_call}{recv} // 0) > 0, "split_order P=$p->{P}: the receives take time");
}
($rc, $out, $err) = run("$PP graph $so --P 7 -o $TMP/so.svg");
is($rc, 0, 'split_order: graph at 7 ranks') or diag($err);
my $svg = slurp("$TMP/so.svg");
like($svg, qr/communicator #1/, 'split_order graph: the barrier on communicator #1 drawn');

# ---------------------------------------------------- a sub-communicator hang
build('tests/mpi-hang/half_barrier.c', 'half_barrier');
my ($hb) = record(4, 'hb4', 'half_barrier 16');
($rc, $out, $err) = run("$PP predict $hb --P 4");
is($rc, 0, 'half_barrier: a time at the recorded 4 ranks');
($rc, $out, $err) = run("$PP predict $hb --P 8");
is($rc, 2, 'half_barrier at 8 ranks: a hang (exit 2)');
like($err, qr/rank 0 waits in barrier \(collective #1 of communicator #1 \(a split of MPI_COMM_WORLD, color 0, 4 ranks\), 2 of 4 ranks arrived\) at \S*half_barrier\.c:\d+/,
     'half_barrier at 8: the barrier on the even half, 2 of its 4 ranks there');
like($err, qr/ranks 4, 6 of communicator #1 finished without reaching that collective/,
     'half_barrier at 8: ranks 4 and 6 finished without it');
unlike($out, qr/T_real/, 'half_barrier at 8: no time');

done_testing();
