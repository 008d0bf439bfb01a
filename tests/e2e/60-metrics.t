#!/usr/bin/perl
# 60-metrics.t - the metrics of real programs against hand-computed values:
# an embarrassingly parallel loop has E_a = 1 (within 1%); a program with
# serial fraction f has E_a = 1/(1 + f(P-1)) (within 2%); a triangular nest
# runs N(N-1)/2 inner iterations, exactly, at any N.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";

sub build {
    my ($name, $flags) = @_;
    system("gcc -O2 $flags -fplugin=$B/perfpred.so tests/programs/$name.c -o $tmp/$name -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build tests/programs/$name.c with the plugin");
}
sub json { my $o = eval { decode_json($_[0]) }; return $o; }
sub median { my @v = sort { $a <=> $b } @_; return $v[$#v / 2]; }

# 1. embarrassingly parallel: 50 repetitions of a parallel loop of equal
# iterations; N a multiple of every P and large enough that the loop,
# not the fixed cost of entering each parallel region, dominates
build('embar', '-fopenmp');
system("PERFPRED_RECORD=$tmp/embar.ppr $tmp/embar 4800 2 50 >/dev/null") == 0 or BAIL_OUT('embar run');
my $p = json(`$pp predict $tmp/embar.ppr --set N=96000 --P 2,4,8,16 --format json 2>/dev/null`) || [];
is(scalar(@$p), 4, 'embar: four predictions');
for my $m (@$p) {
    ok(abs($m->{Ea} - 1) <= 0.01, "embar P=$m->{P}: E_a = $m->{Ea} is 1 within 1%");
}

# 2. serial fraction f = S/(S+W) with the same loop body in both parts;
# recorded at P = 1 so that both parts run alone, three times (median)
build('serial', '-pthread');
my ($S, $W) = (3000000, 3000000);
my $f = $S / ($S + $W);
my %ea;
for my $run (1 .. 3) {
    system("PERFPRED_RECORD=$tmp/serial$run.ppr $tmp/serial $S $W 1 >/dev/null") == 0 or BAIL_OUT('serial run');
    my $q = json(`$pp predict $tmp/serial$run.ppr --P 2,4,8 --format json 2>/dev/null`) || [];
    push @{ $ea{$_->{P}} }, $_->{Ea} for @$q;
}
for my $P (2, 4, 8) {
    my $amdahl = 1 / (1 + $f * ($P - 1));
    my $got = median(@{ $ea{$P} || [0] });
    ok(abs($got - $amdahl) / $amdahl <= 0.02,
       sprintf("serial f=%.2f P=%d: E_a = %.4f, Amdahl %.4f (within 2%%)", $f, $P, $got, $amdahl));
}

# 3. triangular nest: N(N-1)/2, exactly, beyond 2^32
build('triangle', '');
system("PERFPRED_RECORD=$tmp/tri.ppr $tmp/triangle 100 >/dev/null") == 0 or BAIL_OUT('triangle run');
for my $N (100, 1000, 100000) {
    my $s = json(`$pp show $tmp/tri.ppr --set N=$N --format json 2>/dev/null`) || {};
    my ($inner) = grep { $_->{id} eq 'main:L1' } @{ $s->{loops} || [] };
    my $want = $N * ($N - 1) / 2;
    is($inner->{predicted}, $want, "triangle N=$N: inner loop runs N(N-1)/2 = $want times");
    is($inner->{rule}, 'symbolic', "triangle N=$N: by its symbolic count");
}
done_testing();
