#!/usr/bin/perl
# 31-calibrate-mpi.t - `perfpred calibrate --mpi` end to end.
#
# Runs `perfpred calibrate --mpi --quick` on a machine file written by hand
# (its thread costs must survive untouched, and the threads must not be
# measured again), checks the mpi.* keys it writes against
# docs/machine-format.md (present once each, numbers, sensible relations:
# L = T(0) - 2o, bandwidth in a plausible range, the raw points with the
# oversubscribed rank counts flagged), runs it a second time (the MPI keys
# are replaced, not added), once on a new file (the threads are measured
# first), and checks the errors: no mpirun in PATH, a malformed existing
# file.
#
# Run from the repository root after `make`:  prove tests/e2e/31-calibrate-mpi.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Time::HiRes qw(time);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine);

my $B  = $ENV{PERFPRED_BUILD} || 'build';
my $pp = "$B/perfpred";
plan skip_all => "$pp not built (run 'make' first)" unless -x $pp;
$ENV{ASAN_OPTIONS} = 'detect_leaks=0';

my $tmp = tempdir('pp-calmpi-XXXXXX', TMPDIR => 1, CLEANUP => 1);

sub slurp { my $f = shift; local $/; open my $h, '<', $f or return ''; my $s = <$h>; close $h; return $s }

# (exit code, stdout, stderr, seconds)
sub run {
    my ($cmd) = @_;
    my $t0 = time;
    my $rc = system("$cmd >$tmp/out 2>$tmp/err");
    return ($rc == -1 ? -1 : $rc >> 8, slurp("$tmp/out"), slurp("$tmp/err"), time - $t0);
}

# key => value, raw points separately; dies on a line that is neither
sub parse_machine {
    my ($file) = @_;
    my (%kv, %pt, @dup);
    my @lines = split /\n/, slurp($file);
    for my $l (@lines[1 .. $#lines]) {
        $l =~ s/#.*//;
        next if $l =~ /^\s*$/;
        my ($k, $v) = $l =~ /^\s*(\S+)\s*=\s*(.*?)\s*$/ or die "bad line '$l' in $file";
        if ($k =~ /^point\./) { push @{ $pt{$k} }, $v; next }
        push @dup, $k if exists $kv{$k};
        $kv{$k} = $v;
    }
    return (\%kv, \%pt, \@dup);
}

my $num = qr/^[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/;
chomp(my $cores = `env -u OMP_NUM_THREADS nproc 2>/dev/null` || 1);   # sched_getaffinity, as calibrate

# ---- no mpirun: a clear error, nothing written ---------------------------------
my $mf = hand_machine("$tmp/host.machine", name => 'a hand-written host');
my $before = slurp($mf);
my ($rc, $out, $err) = run("env PATH=/nonexistent $pp calibrate --mpi --quick -o $mf");
isnt($rc, 0, 'without mpirun in PATH: exits non-zero');
like($err, qr/mpirun is not in PATH/, 'and says mpirun is missing');
is(slurp($mf), $before, 'and leaves the file alone');
run("env PATH=/nonexistent $pp calibrate --mpi --quick -o $tmp/new.machine");
ok(!-e "$tmp/new.machine", 'and writes no new file (checked before measuring)');

SKIP: {
    skip 'mpirun not installed (Debian: openmpi-bin)', 1 if system('command -v mpirun >/dev/null 2>&1') != 0;
    ok(-x "$B/perfpred-mpibench", "$B/perfpred-mpibench is built");
}
if (system('command -v mpirun >/dev/null 2>&1') != 0 || !-x "$B/perfpred-mpibench") {
    done_testing();
    exit 0;
}

# ---- --mpi on an existing file --------------------------------------------------
my $secs;
($rc, $out, $err, $secs) = run("$pp calibrate --mpi --quick -o $mf");
is($rc, 0, 'calibrate --mpi --quick exits 0') or diag($err);
diag(sprintf 'calibrate --mpi --quick took %.1f s', $secs);
ok($secs < 40, 'and takes well under a minute');
like($err, qr/describes 'a hand-written host', not this host/, 'warns the file describes another host');
like($out, qr/^\s+latency L\s+[0-9.]+ ns/m, 'summary: latency');
like($out, qr/^\s+eager limit\s+\d+ bytes/m, 'summary: eager limit');
like($out, qr/^barrier\s+2\s+[0-9.]+\s+[0-9.]+\s+\w+/m, 'summary: barrier measured and modelled at 2 ranks');
like($out, qr/^kept the other keys of \Q$mf\E/m, 'says it kept the other keys');
unlike($out, qr/^thread\.create/m, 'no thread summary: the threads were not measured');

my ($kv, $pt, $dup) = parse_machine($mf);
is_deeply($dup, [], 'no key twice');
# the hand-written keys, untouched
{
    my %hand;
    for my $l (split /\n/, $before) {
        next if $l =~ /^perfpred-machine/ || $l =~ /^\s*(#|$)/;
        my ($k, $v) = $l =~ /^\s*(\S+)\s*=\s*(.*?)\s*$/;
        $hand{$k} = $v;
    }
    my @changed = grep { !defined $kv->{$_} || ($kv->{$_} ne $hand{$_} && !($kv->{$_} =~ $num && $hand{$_} =~ $num && $kv->{$_} == $hand{$_})) } sort keys %hand;
    is_deeply(\@changed, [], 'every hand-written key kept with its value') or diag("@changed");
}
is($kv->{source}, 'hand', 'the machine is still source = hand');
ok(!(grep { /^point\.(thread|barrier|forkjoin|mutex|scale)/ } keys %$pt), 'no thread points added');

is($kv->{'mpi.source'}, 'measured', 'mpi.source = measured');
for my $k (qw(latency_ns overhead_ns gap_ns gap_per_byte_ns reduce_ns_per_byte eager_bytes ranks_per_node)) {
    like($kv->{"mpi.$k"} // '', $num, "mpi.$k is a number >= 0");
}
my ($L, $o, $g, $G) = map { $kv->{"mpi.$_"} // -1 } qw(latency_ns overhead_ns gap_ns gap_per_byte_ns);
ok($L >= 0, "latency $L >= 0");
ok($o > 0 && $o < 1e6, "overhead $o > 0");
ok($g > 0 && $g < 1e6, "gap $g > 0");
ok($G > 0, "gap per byte $G > 0");
ok($G > 0 && 1 / $G > 0.05 && 1 / $G < 1e4, sprintf('bandwidth %.2f GB/s plausible', $G > 0 ? 1 / $G : 0));
like($kv->{'mpi.eager_bytes'} // '', qr/^\d+$/, 'eager_bytes is an integer');
is($kv->{'mpi.ranks_per_node'}, 0, 'ranks_per_node = 0 (all on this host)');
is($kv->{"mpi.alg.$_"}, 'auto', "mpi.alg.$_ = auto") for qw(bcast reduce allreduce gather scatter allgather alltoall barrier);

# the raw points
my %ping = map { split ' ' } @{ $pt->{'point.mpi.pingpong'} // [] };
ok(exists $ping{0} && exists $ping{8} && exists $ping{1048576}, 'ping-pong measured at 0, 8 and 1 MiB');
ok((grep { $ping{$_} > 0 } keys %ping) == keys %ping, 'every ping-pong time > 0');
my $T0 = $ping{0} // 0;
ok(abs($T0 - ($L + 2 * $o)) < 0.5 || ($L == 0 && $T0 < 2 * $o + 0.5),
   "L = T(0) - 2o ($T0 = $L + 2 x $o), or 0 when that is negative");
ok(($ping{1048576} // 0) > $T0, 'a 1 MiB message takes longer than an empty one');
my $kmax = $cores > 4 ? $cores : 4;
for my $c (qw(barrier allreduce)) {
    my %k;
    for (@{ $pt->{"point.mpi.$c"} // [] }) {
        my ($K, $v, $f) = split ' ';
        $k{$K} = [$v, $f ? 1 : 0];
    }
    ok(exists $k{2} && exists $k{$kmax}, "$c measured at 2 and $kmax ranks");
    ok(!(grep { $_ > $cores ? !$k{$_}[1] : $k{$_}[1] } keys %k), "$c: exactly the counts above $cores flagged oversub");
    ok(!(grep { !($k{$_}[0] > 0) } keys %k), "$c: every time > 0");
}

# ---- a second run: the MPI keys are replaced -----------------------------------------
($rc, $out, $err) = run("$pp calibrate --mpi --quick -o $mf");
is($rc, 0, 'a second --mpi run exits 0') or diag($err);
my ($kv2, $pt2, $dup2) = parse_machine($mf);
is_deeply($dup2, [], 'still no key twice');
is(scalar @{ $pt2->{'point.mpi.barrier'} // [] }, scalar @{ $pt->{'point.mpi.barrier'} // [] },
   'the raw points replaced, not added');
is($kv2->{'thread.join.a_ns'}, $kv->{'thread.join.a_ns'}, 'the thread costs still kept');
is($kv2->{name}, 'a hand-written host', 'and the name');

# ---- a new file: the threads are measured first ----------------------------------
($rc, $out, $err, $secs) = run("$pp calibrate --mpi --quick --max-threads 2 -o $tmp/new.machine");
is($rc, 0, '--mpi on a new file exits 0') or diag($err);
diag(sprintf 'with the threads: %.1f s', $secs);
my ($kv3) = parse_machine("$tmp/new.machine");
is($kv3->{source}, 'measured', 'the new file is measured');
like($kv3->{'thread.create.a_ns'} // '', $num, 'with the thread costs');
is($kv3->{'mpi.source'}, 'measured', 'and the MPI network');
like($out, qr/^thread\.create\s/m, 'both summaries printed');

# ---- a malformed existing file --------------------------------------------------
open my $bad, '>', "$tmp/bad.machine" or die;
print $bad "perfpred-machine 1\ncores = 2\nmpi.latency_ns = fast\n";
close $bad;
($rc, $out, $err) = run("$pp calibrate --mpi --quick -o $tmp/bad.machine");
is($rc, 2, 'a malformed existing file: bad input (2)');
like($err, qr{\Q$tmp/bad.machine\E:3: mpi\.latency_ns: not a number}, 'the error names the file and line');

done_testing();
