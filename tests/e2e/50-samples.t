#!/usr/bin/perl
# 50-samples.t - every sample through the whole pipeline: compiled with the
# plugin at -O0 and -O2 it prints the checksum of the plain build; recorded
# at a reduced size, the model predicts the iterations of every loop at 8x
# the size, checked against an instrumented run at that size (exact for
# loops with a symbolic count); predictions order T_MIR <= T_PRAM <= T_real;
# the scalability tables keep their invariants.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(compare_symbolic);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $sanlib = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';

# name, source, small args, 8x args, the parameter(s) scaled and how
my @samples = (
    ['ge_pthreads', 'samples/ge_pthreads.c', '64 2',         '512 2',          ['N=512']],
    ['ge_omp',      'samples/ge_omp.c',      '64 2',         '512 2',          ['N=512']],
    ['apsp',        'samples/apsp.c',        '64 2',         '512 2',          ['N=512']],
    ['em',          'samples/em.c',          '32 32 8 8 2 20', '256 256 8 8 2 20', ['I=256', 'J=256']],
);

sub sh { my ($cmd) = @_; my $out = `$cmd 2>$tmp/stderr`; return ($?, $out); }

for my $s (@samples) {
    my ($name, $src, $small, $big, $sets) = @$s;
    my $bin = "$tmp/$name";
    my ($rc) = sh("gcc -O2 -fopenmp -pthread $src -o $bin.plain");
    is($rc, 0, "$name: plain build");
    my ($prc, $plain) = sh("$bin.plain $small");
    like($plain, qr/^checksum \S+$/m, "$name: plain run prints a checksum");
    for my $O ('-O0', '-O2') {
        ($rc) = sh("gcc $O -Wall -fopenmp -pthread $sanlib -fplugin=$B/perfpred.so $src -o $bin$O -L$B -l:libperfpred-rt.a");
        is($rc, 0, "$name $O: builds with the plugin");
        my $warn = `cat $tmp/stderr`;
        is($warn, '', "$name $O: no warning from the plugin");
        my ($r2, $out) = sh("PERFPRED_RECORD=$tmp/$name$O.ppr $bin$O $small");
        is($r2, 0, "$name $O: instrumented run exits 0");
        is($out, $plain, "$name $O: same checksum as without the plugin");
        ok(-s "$tmp/$name$O.ppr", "$name $O: record written");
    }
    # the model at 8x against an instrumented run at 8x
    my $rec = "$tmp/$name-O2.ppr";
    my $setargs = join(' ', map { "--set $_" } @$sets);
    my ($r3, $pred) = sh("$pp show $rec $setargs --format json");
    is($r3, 0, "$name: show --set at 8x");
    my ($r4) = sh("PERFPRED_RECORD=$tmp/$name-big.ppr $bin-O2 $big >/dev/null");
    is($r4, 0, "$name: instrumented run at 8x");
    my ($r5, $obs) = sh("$pp show $tmp/$name-big.ppr --format json");
    is($r5, 0, "$name: show of the 8x record");
    my ($nsym, $exact, @diff) = compare_symbolic($pred, $obs);
    my $p = eval { decode_json($pred) } || {};
    ok($nsym >= 3, "$name: at least 3 loops with a symbolic count ($nsym)");
    is($exact, $nsym, "$name: every symbolic loop predicted exactly at 8x") or diag(join("\n", @diff));
    # every loop of the recorded run matched its model
    my @unmatched = grep { !$_->{match} } @{ $p->{loops} || [] };
    is(scalar(@unmatched), 0, "$name: the model reproduces every loop of the recorded run")
        or diag(join("\n", map { "$_->{id}: model $_->{model}, run $_->{observed}" } @unmatched));

    # times on the three machines
    my ($r6, $pj) = sh("$pp predict $rec --P 1,2,4,16 --format json");
    is($r6, 0, "$name: predict");
    my $preds = eval { decode_json($pj) } || [];
    is(scalar(@$preds), 4, "$name: four predictions");
    for my $m (@$preds) {
        my $t = $m->{time};
        ok($t->{miracle} <= $t->{pram} * (1 + 1e-9), "$name P=$m->{P}: T_MIRACLE <= T_PRAM");
        ok($t->{pram} <= $t->{real} * (1 + 1e-9), "$name P=$m->{P}: T_PRAM <= T_real");
        ok($m->{Ea} > 0 && $m->{Ea} <= 1 + 1e-9, "$name P=$m->{P}: 0 < E_a <= 1");
        my $iv = $m->{interval};
        ok(ref $iv eq 'ARRAY' && $iv->[0] <= $t->{real} * (1 + 1e-9) && $t->{real} <= $iv->[1] * (1 + 1e-9),
           "$name P=$m->{P}: T_real inside its 90% interval");
    }
    ok(abs($preds->[0]{Ea} - 1) < 1e-6, "$name: E_a = 1 at P = 1");

    # tables
    my ($r7, $tj) = sh("$pp scale $rec --scale " . join(',', map { (split /=/)[0] } @$sets) .
                       " --P 2,4,8 --Ea 0.5 --E 0.1 --format json");
    is($r7, 0, "$name: scale") or diag(`cat $tmp/stderr`);
    my $tabs = eval { decode_json($tj) } || {};
    is(scalar(@{ $tabs->{tables} || [] }), 2, "$name: two tables");
    for my $t (@{ $tabs->{tables} || [] }) {
        my ($P, $S, $prob) = ($t->{P}, $t->{scale}, $t->{problem});
        my $ok_diag = 1; my $ok_range = 1; my $ok_lower = 1; my $ok_mono = 1;
        for my $i (0 .. $#$P) {
            for my $j (0 .. $#$P) {
                my $v = $S->[$i][$j];
                if ($j < $i) { $ok_lower &&= !defined $v; next; }
                next unless defined $v;
                if ($i == $j) { $ok_diag &&= abs($v - 1) < 1e-12; }
                else { $ok_range &&= $v > 0 && $v <= 1 + 1e-9; }
            }
            if ($i > 0 && defined $prob->[$i] && defined $prob->[$i - 1]) {
                for my $k (keys %{ $prob->[$i] }) {
                    $ok_mono &&= $prob->[$i]{$k} >= $prob->[$i - 1]{$k};
                }
            }
        }
        ok($ok_diag, "$name $t->{kind}: diagonal is 1");
        ok($ok_range, "$name $t->{kind}: entries in (0, 1]");
        ok($ok_lower, "$name $t->{kind}: null below the diagonal");
        ok($ok_mono, "$name $t->{kind}: problem size non-decreasing in P");
        ok(scalar(grep { defined } @$prob) >= 1, "$name $t->{kind}: the efficiency is reached somewhere");
        # T_real at each size found, with its interval: what predict gives
        # there (checked at the first P that reached the efficiency)
        my ($T, $I) = ($t->{T_real} || [], $t->{interval} || []);
        my ($j) = grep { defined $prob->[$_] } 0 .. $#$P;
        my $sets_j = defined $j ? join(' ', map { "--set $_=$prob->[$j]{$_}" } sort keys %{ $prob->[$j] }) : '';
        my ($r8, $pj) = defined $j ? sh("$pp predict $rec $sets_j --P $P->[$j] --format json") : (1, '');
        my $pr = eval { decode_json($pj) } || {};
        my ($tr, $iv, $piv) = (defined $j ? $T->[$j] : undef, defined $j ? $I->[$j] : undef, $pr->{interval});
        ok(defined $tr && $r8 == 0 && abs($tr - ($pr->{time}{real} // -1)) <= 1e-9 * $tr,
           "$name $t->{kind}: T_real at the size found for P = " . (defined $j ? $P->[$j] : '?') . " is predict's there");
        ok(ref $iv eq 'ARRAY' && ref $piv eq 'ARRAY' && $iv->[0] <= $tr && $tr <= $iv->[1]
           && abs($iv->[0] - $piv->[0]) <= 1e-9 * $tr && abs($iv->[1] - $piv->[1]) <= 1e-9 * $tr,
           "$name $t->{kind}: and so is its 90% interval");
        is(scalar(grep { defined $prob->[$_] != defined $T->[$_] } 0 .. $#$P), 0,
           "$name $t->{kind}: a time exactly where a size was found");
    }
    # the algorithmic table alone (no machine loaded): the same sizes
    my ($r9, $aj) = sh("$pp scale $rec --scale " . join(',', map { (split /=/)[0] } @$sets) .
                       " --P 2,4,8 --Ea 0.5 --format json");
    my $alone = (eval { decode_json($aj) } || {})->{tables}[0] || {};
    my $with = ($tabs->{tables} || [])->[0] || {};
    my $canon = JSON::PP->new->canonical;
    is($r9 == 0 && $canon->encode($alone->{problem} || []), $canon->encode($with->{problem} || [0]),
       "$name: scale --Ea alone finds the sizes it finds beside --E") or diag($aj);
}
done_testing();
