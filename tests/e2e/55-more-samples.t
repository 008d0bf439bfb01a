#!/usr/bin/perl
# 55-more-samples.t - the samples jacobi, matmul_rows, matmul_blocks and md
# through the pipeline: built with the plugin at -O2 they print the checksum
# of the plain build; recorded at a reduced size, the model reproduces every
# loop of the run, and predicts every loop with a symbolic count exactly at
# 4x the size (checked against an instrumented run at that size); md's
# data-dependent while loop is not symbolic; predictions at P = 1, 2, 4 order
# T_MIR <= T_PRAM <= T_real.
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

# name, source, small args, 4x args, the parameter(s) set for 4x,
# minimum number of symbolic loops
my @samples = (
    ['jacobi',        'samples/jacobi.c',        '128 20 2',  '512 20 2',   ['N=512'],       5],
    ['matmul_rows',   'samples/matmul_rows.c',   '64 2',      '256 2',      ['N=256'],       8],
    ['matmul_blocks', 'samples/matmul_blocks.c', '64 4',      '256 4',      ['N=256'],       8],
    ['md',            'samples/md.c',            '1024 10 2', '4096 10 2',  ['NPART=4096'],  10],
);

sub sh { my ($cmd) = @_; my $out = `$cmd 2>$tmp/stderr`; return ($?, $out); }

for my $s (@samples) {
    my ($name, $src, $small, $big, $sets, $minsym) = @$s;
    my $bin = "$tmp/$name";
    my ($rc) = sh("gcc -std=c11 -O2 -Wall -Wextra -fopenmp -pthread $src -o $bin.plain");
    is($rc, 0, "$name: plain build");
    my ($prc, $plain) = sh("$bin.plain $small");
    is($prc, 0, "$name: plain run exits 0");
    like($plain, qr/^checksum \S+\n\z/, "$name: plain run prints one checksum line");
    # a runtime built with SANITIZE=1 needs the sanitizers' run-time
    my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
    ($rc) = sh("gcc -std=c11 -O2 -Wall -Wextra -fopenmp -pthread $san -fplugin=$B/perfpred.so $src -o $bin.pp -L$B -l:libperfpred-rt.a");
    is($rc, 0, "$name: builds with the plugin at -O2");
    my $warn = `cat $tmp/stderr`;
    is($warn, '', "$name: no warning from the compiler or the plugin");
    my ($r2, $out) = sh("PERFPRED_RECORD=$tmp/$name.ppr $bin.pp $small");
    is($r2, 0, "$name: instrumented run exits 0");
    is($out, $plain, "$name: same checksum as without the plugin");
    ok(-s "$tmp/$name.ppr", "$name: record written");
    my ($bad) = sh("$bin.plain");
    is($bad >> 8, 2, "$name: no arguments is a usage error (exit 2)");

    # the record's own loops, then the model at 4x against a run at 4x
    my $rec = "$tmp/$name.ppr";
    my ($r3, $own) = sh("$pp show $rec --format json");
    is($r3, 0, "$name: show --format json");
    my $m = eval { decode_json($own) } || {};
    my @loops = @{ $m->{loops} || [] };
    ok(scalar(@loops) > 0, "$name: show lists loops");
    my @unmatched = grep { !$_->{match} } @loops;
    is(scalar(@unmatched), 0, "$name: every loop of the recorded run matches its model")
        or diag(join("\n", map { "$_->{id}: model $_->{model}, run $_->{observed}" } @unmatched));

    my $setargs = join(' ', map { "--set $_" } @$sets);
    my ($r4, $pred) = sh("$pp show $rec $setargs --format json");
    is($r4, 0, "$name: show --set at 4x");
    my ($r5) = sh("PERFPRED_RECORD=$tmp/$name-big.ppr $bin.pp $big >/dev/null");
    is($r5, 0, "$name: instrumented run at 4x");
    my ($r6, $obs) = sh("$pp show $tmp/$name-big.ppr --format json");
    is($r6, 0, "$name: show of the 4x record");
    my ($nsym, $exact, @diff) = compare_symbolic($pred, $obs);
    ok($nsym >= $minsym, "$name: at least $minsym loops with a symbolic count ($nsym)");
    is($exact, $nsym, "$name: every symbolic loop predicted exactly at 4x") or diag(join("\n", @diff));

    if ($name eq 'md') {
        # the neighbour walk `while (j >= 0)` is the one data-dependent loop of worker
        open(my $fh, '<', $src) or die "$src: $!";
        my ($wline, $n) = (0, 0);
        while (<$fh>) { $n++; $wline = $n if /while \(j >= 0\)/; }
        close $fh;
        my @w = grep { $_->{id} =~ /^worker:/ && $_->{line} == $wline } @loops;
        is(scalar(@w), 1, "md: the while loop (line $wline) is in the model");
        ok(@w && $w[0]{rule} ne 'symbolic', "md: the while loop is not symbolic (" . (@w ? $w[0]{rule} : 'none') . ")");
        ok(@w && ($w[0]{rule} eq 'fitted' || $w[0]{rule} eq 'constant'), "md: the while loop is fitted or constant");
        my @other = grep { $_->{rule} ne 'symbolic' && $_->{id} !~ /^is_count:/ && !($_->{id} =~ /^worker:/ && $_->{line} == $wline) } @loops;
        is(scalar(@other), 0, "md: every other loop is symbolic")
            or diag(join("\n", map { "$_->{id} (line $_->{line}): $_->{rule}" } @other));
    }

    # times on the three machines
    my ($r7, $pj) = sh("$pp predict $rec --P 1,2,4 --format json");
    is($r7, 0, "$name: predict --P 1,2,4") or diag(`cat $tmp/stderr`);
    my $preds = eval { decode_json($pj) } || [];
    is(scalar(@$preds), 3, "$name: three predictions");
    for my $q (@$preds) {
        my $t = $q->{time};
        ok($t->{miracle} > 0, "$name P=$q->{P}: T_MIR > 0");
        ok($t->{miracle} <= $t->{pram} * (1 + 1e-9), "$name P=$q->{P}: T_MIR <= T_PRAM");
        ok($t->{pram} <= $t->{real} * (1 + 1e-9), "$name P=$q->{P}: T_PRAM <= T_real");
    }
}
done_testing();
