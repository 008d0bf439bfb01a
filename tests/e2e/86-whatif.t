#!/usr/bin/perl
# 86-whatif.t - what-if machines (--with) and sensitivity (dT/dbeta) end
# to end, against hand-computed values:
#  - embar runs R parallel regions one after another: the fork-join cost
#    lies R times on the critical path, so dT/d(forkjoin.omp) = R, and
#    --with forkjoin=x2 adds R times its value to T_real;
#  - T is homogeneous of degree one in the times, so the elasticities of
#    the times sum to 1 (Euler), for threads and for MPI;
#  - --with NAME=VALUE predicts what the machine file edited so predicts;
#  - speed=2 halves T1 at the recorded size;
#  - bad names, units and values are errors naming them.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in hand_machine);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $PP  = "$B/perfpred";
my $TMP = tempdir('pp-whatif-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
mpi_setup();

sub run { return run_in($TMP, $_[0]) }
sub json_of { return json_in($TMP, @_) }
sub close_to { my ($a, $b, $rel) = @_; return abs($a - $b) <= $rel * abs($b) }

# ------------------------------------------------------------ embar, by hand
my ($rc, $out, $err) = run("gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so tests/programs/embar.c -o $TMP/embar "
                           . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'embar builds with the plugin') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/embar.ppr $TMP/embar 4800 2 20");
is($rc, 0, 'embar runs and records') or BAIL_OUT($err);
my $mach = "$TMP/hand.machine";
# no compute slowdown: with one, a longer fork also moves which
# computations overlap (a pool thread's leftover segment with the master's
# serial code), and dT/d(forkjoin) is R only to about 2%
hand_machine($mach, compute => [1]);
my $E = "$TMP/embar.ppr --machine $mach --insitu off";

for my $R (20, 100) {
    my $s = json_of("$PP sensitivity $E --set R=$R --P 4 --param forkjoin.omp --format json",
                    "embar R=$R: sensitivity to forkjoin.omp");
    my $p = $s && $s->[0]{params}[0];
    ok($p && close_to($p->{dT_dbeta}, $R, 1e-6),
       "embar R=$R: dT/d(forkjoin.omp) = R (the regions run one after another): " . ($p ? $p->{dT_dbeta} : 'none'));
    # forkjoin.omp at P = 4 of the hand machine: 400 + 500 log2(4) = 1400 ns
    ok($p && close_to($p->{value}, 1400, 1e-12), "embar: forkjoin.omp at P=4 is 1400 ns, as the file says");
    my $base = json_of("$PP predict $E --set R=$R --P 4 --draws 0 --format json", "embar R=$R: predict");
    my $with = json_of("$PP predict $E --set R=$R --P 4 --draws 0 --with forkjoin=x2 --format json",
                       "embar R=$R: predict --with forkjoin=x2");
    if ($base && $with) {
        my $d = $with->{time}{real} - $base->{time}{real};
        # each region's fork-join is 1400 ns longer: T grows, by at most R x 1400 ns
        # (not always exactly: where a region's join waits for a slow thread,
        # a longer fork can hide in the wait)
        ok($d > 0 && $d <= $R * 1400e-9 * (1 + 1e-6), "embar R=$R: forkjoin=x2 adds (0, R x 1400 ns]: " . $d * 1e9 . " ns");
        ok(close_to($with->{baseline_real}, $base->{time}{real}, 1e-12), "embar R=$R: the baseline is the prediction without --with");
        is($with->{with}, 'forkjoin=x2', 'embar: JSON names the change');
    }
}

# Euler: every time's elasticity, summed, is 1 (the cache rule off: it adds
# memory time no parameter moves)
my $all = json_of("$PP sensitivity $E --P 2,8 --cache-rule off --format json", 'embar: every parameter at P=2,8');
for my $pt (@{ $all || [] }) {
    ok(abs($pt->{elasticity_sum} - 1) < 1e-3, "embar P=$pt->{P}: the times' elasticities sum to 1 ($pt->{elasticity_sum})");
    my %by = map { $_->{name} => $_ } @{ $pt->{params} };
    ok($by{computation}{elasticity} > 0.5, "embar P=$pt->{P}: the computation dominates");
    ok(!$by{'mpi.latency'}{used}, "embar P=$pt->{P}: the network does not move a threads program");
}
($rc, $out, $err) = run("$PP sensitivity $E --P 4");
is($rc, 0, 'sensitivity, text');
like($out, qr/^  forkjoin\.omp +1\.4 us +x20 on the critical path/m, 'text: forkjoin.omp x20 on the critical path');
like($out, qr/elasticities sum to 1\.0000|elasticities sum to 0\.99\d\d/, 'text: the sum is shown');
like($out, qr/not moving T here:.*mpi\.latency/, 'text: the parameters that do not matter are listed apart');
($rc, $out, $err) = run("$PP sensitivity $E --P 4 --along N=4800,9600 --param forkjoin --format csv");
is($rc, 0, 'sensitivity --along, CSV');
my @rows = grep { /forkjoin/ } split /\n/, $out;
is(scalar @rows, 2, 'CSV: one row per point of the path') or diag($out);
like($out, qr/^problem,P,t_real_s,parameter,value,unit,dT_dbeta,elasticity,one_sided$/m, 'CSV header');

# --with NAME=VALUE is the machine file edited
sub edited {
    my ($path, %kv) = @_;
    open my $i, '<', $mach or die;
    open my $o, '>', $path or die;
    while (my $l = <$i>) {
        for my $k (keys %kv) { $l = "$k = $kv{$k}\n" if $l =~ /^\Q$k\E\s*=/ }
        print $o $l;
    }
    close $o;
}
edited("$TMP/fj.machine", 'forkjoin.omp.model' => 'const', 'forkjoin.omp.a_ns' => 5000, 'forkjoin.omp.b_ns' => 0);
my $a = json_of("$PP predict $E --P 4 --draws 0 --with forkjoin.omp=5us --format json", 'embar: --with forkjoin.omp=5us');
my $b = json_of("$PP predict $TMP/embar.ppr --machine $TMP/fj.machine --insitu off --P 4 --draws 0 --format json",
                'embar: the machine file with forkjoin.omp = 5000 ns');
ok($a && $b && $a->{time}{real} == $b->{time}{real}, 'forkjoin.omp=5us predicts what the edited file does');

# speed=2: every computation takes half the time (T1 at the recorded size)
my $s1 = json_of("$PP predict $E --draws 0 --format json", 'embar: predict as recorded');
my $s2 = json_of("$PP predict $E --draws 0 --with speed=2 --format json", 'embar: --with speed=2');
ok($s1 && $s2 && close_to($s2->{T1}, $s1->{T1} / 2, 1e-8), 'speed=2 halves T1 (to the JSON\'s 9 digits)');
my $s3 = json_of("$PP predict $E --draws 0 --with cpu=x2 --format json", 'embar: --with cpu=x2');
ok($s3 && $s2 && $s3->{time}{real} == $s2->{time}{real}, 'cpu=x2 is speed=2');

# ------------------------------------------------------------ MPI
($rc, $out, $err) = run("mpicc -O2$SAN -fplugin=$B/perfpred.so samples/mpi_trap.c -o $TMP/trap.exe -L$B -lperfpred-rt -lm");
is($rc, 0, 'mpi_trap builds') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/trap mpirun -np 2 $TMP/trap.exe 200000 3");
is($rc, 0, 'mpi_trap records at 2 ranks') or BAIL_OUT($err);
my $cl = 'docs/examples/cluster.machine';
my $T = "$TMP/trap --machine $cl";
my $ms = json_of("$PP sensitivity $T --P 64 --cache-rule off --format json", 'mpi_trap: sensitivity at P=64');
if ($ms) {
    my %by = map { $_->{name} => $_ } @{ $ms->[0]{params} };
    # (The ranks' computations share their node continuously, as threads
    # do, so T_real is continuous in every cost; a rate taken at each
    # computation's start made it jump where a rank blocked just before or
    # after another started, and the differences across such a jump summed
    # to 0.91-1.13 here for some records.)
    ok(abs($ms->[0]{elasticity_sum} - 1) < 1e-3, "mpi_trap: the times' elasticities sum to 1 ($ms->[0]{elasticity_sum})");
    # each parameter's one-sided elasticities bracket the central one
    # (their mean, the step being the same on both sides), a kink where
    # they differ by more than 0.001
    my @bad = grep { !defined $_->{elasticity_below} || !defined $_->{elasticity_above}
                     || abs(($_->{elasticity_below} + $_->{elasticity_above}) / 2 - $_->{elasticity}) > 1e-9
                     || (($_->{kink} ? 1 : 0) != (abs($_->{elasticity_above} - $_->{elasticity_below}) > 1e-3 ? 1 : 0)) }
              @{ $ms->[0]{params} };
    ok(!@bad, 'mpi_trap: the one-sided elasticities and the kink mark agree with the central one')
        or diag(join ', ', map { $_->{name} } @bad);
    ok($by{'mpi.latency'}{used} && $by{'mpi.latency'}{dT_dbeta} >= 6,
       "mpi_trap P=64: at least log2 64 latencies on the critical path ($by{'mpi.latency'}{dT_dbeta})");
    ok(!$by{'barrier.omp'}{used}, 'mpi_trap: the OpenMP barrier does not matter');
}
# bandwidth=12.5GB/s is mpi.gap_per_byte_ns = 0.08; latency=x2 doubles the file's
open my $ci, '<', $cl or die;
my $ctext = do { local $/; <$ci> };
my ($L0) = $ctext =~ /^mpi\.latency_ns\s*=\s*([\d.]+)/m;
(my $edit = $ctext) =~ s/^mpi\.gap_per_byte_ns\s*=.*$/mpi.gap_per_byte_ns = 0.08/m;
$edit =~ s/^mpi\.latency_ns\s*=.*$/"mpi.latency_ns = " . 2 * $L0/me;
open my $co, '>', "$TMP/cl2.machine" or die;
print $co $edit;
close $co;
my $w = json_of("$PP predict $T --P 16,256 --draws 0 --with bandwidth=12.5GB/s,latency=x2 --format json",
                'mpi_trap: --with bandwidth=12.5GB/s,latency=x2');
my $f = json_of("$PP predict $TMP/trap --machine $TMP/cl2.machine --P 16,256 --draws 0 --format json",
                'mpi_trap: the cluster file edited so');
for my $i (0, 1) {
    ok($w && $f && $w->[$i]{time}{real} == $f->[$i]{time}{real},
       "mpi_trap P=" . ($w ? $w->[$i]{P} : '?') . ": --with predicts what the edited file does");
    ok($w && $w->[$i]{time}{real} > $w->[$i]{baseline_real}, 'mpi_trap: a slower latency costs time');
}
($rc, $out, $err) = run("$PP predict $T --P 64 --draws 0 --with latency=500ns");
like($out, qr/what-if: T_real .* with latency=500ns, .* without \(-[\d.]+%\)/, 'text: the what-if line prices the change');

# Figure 7 of Clement & Quinn: Gaussian elimination's sensitivity to the
# message start-up grows linearly with the size (one pivot broadcast per
# column) and logarithmically with P (the binomial tree's depth)
($rc, $out, $err) = run("mpicc -O2$SAN -fplugin=$B/perfpred.so samples/mpi_ge.c -o $TMP/ge.exe -L$B -lperfpred-rt -lm");
is($rc, 0, 'mpi_ge builds') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/ge timeout -k 5 120 mpirun -np 4 $TMP/ge.exe 128");
is($rc, 0, 'mpi_ge records at 4 ranks') or BAIL_OUT($err);
# At ten times the cluster's latency: the 4 ranks recorded on 2 processors
# sometimes give one pivot step so much computation that it takes part of
# the critical path at the file's latency, and the latencies on it are then
# not whole (6.2 per column at P = 256 in one record of three); at 10x the
# broadcasts are the critical path in every record tried.
($rc, $out, $err) = run("$PP sensitivity $TMP/ge --machine $cl --with latency=x10 --param mpi.latency "
                        . "--along n=256,512,1024 --P 16,64,256 --plot $TMP/fig7.svg --format json");
is($rc, 0, 'mpi_ge: sensitivity to mpi.latency along n, --plot') or diag($err);
my $g = eval { decode_json($out) } || [];
my %d = map { ("$_->{problem}{n},$_->{P}" => $_->{params}[0]{dT_dbeta}) } @$g;
my @slope;
for my $P (16, 64, 256) {
    my ($a, $b, $c) = map { $d{"$_,$P"} // 0 } (256, 512, 1024);
    # (a sanitized runtime's event overhead fills this record's segments
    # and leaves its costs to the prior: one CI run put computation on the
    # critical path at n = 1024, P = 16 (810, 1616, 3847); there only the
    # growth is checked, linearity in the plain build)
    if ($ENV{SANITIZE}) {
        ok($c > $b && $b > $a && $a > 0, "mpi_ge P=$P: dT/dL grows with n ($a, $b, $c; sanitized record)");
    } else {
        ok($c - $b > 0 && abs(($c - $b) - 2 * ($b - $a)) <= 0.01 * ($c - $b),
           "mpi_ge P=$P: dT/dL grows linearly with n ($a, $b, $c)");
    }
    push @slope, ($c - $b) / 512;
}
# per column, at least the depth of the pivot's binomial tree, log2 P, and
# at most two more (the back substitution's broadcast of one value, and a
# rank that waits for its own row); which ranks are critical depends on
# the recorded costs, so the count is bounded, not fixed
# (a sanitized record, as above, may leave computation on the critical
# path of some columns: one CI run gave 5.0, 4.5, 9 at P = 16, 64, 256;
# there only the upper bound is checked, the growth and the lower bound
# in the plain build)
my @lg = (4, 6, 8);
if ($ENV{SANITIZE}) {
    ok(@slope == 3, "mpi_ge: three slopes (@slope; sanitized record)");
} else {
    ok(@slope == 3 && $slope[0] < $slope[1] && $slope[1] < $slope[2],
       "mpi_ge: the latencies per column grow with P: @slope");
}
for my $i (0 .. 2) {
    my $lo = $ENV{SANITIZE} ? 0 : $lg[$i] - 1e-9;
    ok(defined $slope[$i] && $slope[$i] > $lo && $slope[$i] <= $lg[$i] + 2 + 1e-9,
       "mpi_ge P=" . 4**($i + 2) . ": " . ($ENV{SANITIZE} ? '0 <' : 'log2 P <=')
       . " latencies per column <= log2 P + 2 ($slope[$i])");
}
ok(-s "$TMP/fig7.svg", 'mpi_ge: the plot is written');
my @blocks = split /\n\n\n/, `cat $TMP/fig7.dat`;
is(scalar @blocks, 3, 'the plot data: one block per P');
($rc, $out, $err) = run("$PP sensitivity $TMP/ge --machine $cl --along n=256,512 --P 16 --plot $TMP/f.svg");
is($rc, 2, '--plot without one --param: exit 2');
like($err, qr/--plot draws one parameter/, '--plot without one --param: says so');
($rc, $out, $err) = run("$PP sensitivity $TMP/ge --machine $cl --param L --P 16 --plot $TMP/nodir/f.svg");
is($rc, 2, '--plot into a missing directory: exit 2');
like($err, qr/the directory .*nodir is not writable/, '--plot into a missing directory: says so');

# ------------------------------------------------------------ bad input
my @bad = (
    ['--with barier=2us', qr/unknown parameter 'barier'/],
    ['--with barrier=fast', qr/'fast' is not a time like 2us/],
    ['--with bandwidth=20', qr/is not a bandwidth like 20GB\/s/],
    ['--with alg.bcast=ring', qr/'ring' is not an algorithm bcast has/],
    ['--with speed=0', qr/above 0/],
);
for my $c (@bad) {
    ($rc, $out, $err) = run("$PP predict $E $c->[0]");
    is($rc, 2, "predict $c->[0]: exit 2");
    like($err, $c->[1], "predict $c->[0]: the error says what is wrong");
}
($rc, $out, $err) = run("$PP sensitivity $E --param bandwidth");
is($rc, 2, 'sensitivity --param bandwidth: exit 2');
like($err, qr/take mpi\.gap_per_byte/, 'sensitivity --param bandwidth: points to G');
($rc, $out, $err) = run("$PP sensitivity $E --along Q=1,2");
is($rc, 2, 'sensitivity --along Q: exit 2');
like($err, qr/--along Q: no such parameter in .*embar\.ppr/, 'sensitivity --along Q: names the parameter and the record');
($rc, $out, $err) = run("$PP sensitivity $E --along N=1,x");
is($rc, 2, 'sensitivity --along N=1,x: exit 2');

done_testing();
