#!/usr/bin/perl
# 12-streams.t - the memory streams the plugin lists per loop (mem=, memx=;
# docs/descriptor-format.md) against streams known by hand:
#   stencil:  four reads of u (one stream: same base, step 8) and a write
#             of v, both moving with the enclosing loop;
#   rowreuse: c[j] read and written, the same row for every k (reused),
#             and bk[j], which moves with k;
#   strided:  a[i] with i += 16: 128 bytes per iteration;
#   invariant: a[k] does not move: no stream;
#   chase:    next[j] with j = next[j]: scev cannot follow it; the load
#             gives the next address: a chase (memc);
#   gather:   a[next[i]]: next[i] a stream, a[...] at a loaded index: a
#             gather (memg);
#   divided:  a[i * 3 / 7]: not affine, not loaded: unknown (memx);
#   lookup:   table[next[i] & 255], a static table of 256 doubles: a
#             gather whose working set does not grow: not counted;
#   heaptable: cnt[next[i] & 255]++ into calloc(256, 8): a table too;
#   global:   ga[i] through a global pointer: one stream;
#   column:   a[i*n + j], a step of n * 8 bytes: '?' (in the variables);
#   rowptr:   c[i][j] += b[k][j] through row pointers loaded in the loop
#             (double **): at -O2 (type-based alias analysis: a double
#             store does not change a row pointer) c's row read and
#             written, reused by the k loop, and b's row, moving with k;
#             at -O0 nothing may be assumed: not followed;
#   gflat:    gb[j] += ga[k*gn + j], global pointers and a global size
#             reloaded in the loop (scev stops at the loads): at -O2 gb's
#             row reused by the k loop, ga's moving with it.
# And the analyser refuses a malformed mem= with the file and line.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $src = 'tests/plugin/progs/streams.c';
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
sub slurp { local $/; open my $f, '<', $_[0] or return ''; return <$f>; }

my %line;
my $n = 0;
for (split /\n/, slurp($src)) { $n++; $line{$1} = $n if /L:(\w+)/; }

for my $opt ('-O0', '-O2') {
    system("gcc $opt -fplugin=$B/perfpred.so -c $src -o $tmp/s.o 2>$tmp/cc.err") == 0
        && system("gcc $san $tmp/s.o -o $tmp/s -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build $src: " . slurp("$tmp/cc.err"));
    system("gcc $opt $src -o $tmp/plain") == 0 or BAIL_OUT('plain build');
    is(`PERFPRED_DISABLE=1 $tmp/s`, `$tmp/plain`, "$opt: the same output with the plugin");
    system("PERFPRED_RECORD=$tmp/s.ppr $tmp/s >/dev/null") == 0 or BAIL_OUT('run');
    my %mem;
    for (split /\n/, slurp("$tmp/s.ppr")) {
        next unless /^loop .* line=(\d+) /;
        my $l = $1;
        my ($m) = / mem=\(([^)]*)\)/;
        my ($x) = / memx=(\d+)/;
        my ($g) = / memg=(\d+)/;
        my ($c) = / memc=(\d+)/;
        $mem{$l} = [defined $m ? $m : 'none', $x // 0, $g // 0, $c // 0];
    }
    sub streams { my @v = split ' ', $_[0]; my @t; push @t, join(' ', splice(@v, 0, 3)) while @v; return join(',', sort @t); }
    my %want = (
        stencil => ['8 0 0,8 0 1', 0],
        rowreuse => ['8 0 0,8 1 1', 0],
        strided => ['128 0 0', 0],
        invariant => ['', 0],
        global => ['8 0 0', 0],
        column => ['? 0 0', 0],
    );
    for my $k (sort keys %want) {
        my $got = $mem{ $line{$k} } || ['missing', 0];
        is(streams($got->[0]), $want{$k}[0], "$opt $k: streams (step reuse written) " . $got->[0]);
        is($got->[1], $want{$k}[1], "$opt $k: every reference followed");
    }
    my $r = $mem{ $line{rowptr} } || ['missing', 0];
    if ($opt eq '-O2') {
        is(streams($r->[0]), '8 0 0,8 1 0,8 1 1', "$opt rowptr: the rows as streams " . $r->[0]);
        is($r->[1], 0, "$opt rowptr: every reference followed");
    } else {
        ok($r->[1] >= 1, "$opt rowptr: without alias analysis the row pointers are not followed (memx=$r->[1])");
    }
    my $g = $mem{ $line{gflat} } || ['missing', 0];
    if ($opt eq '-O2') {
        is(streams($g->[0]), '8 0 0,8 1 1', "$opt gflat: the global arrays as streams " . $g->[0]);
        is($g->[1], 0, "$opt gflat: every reference followed");
    }
    my $c = $mem{ $line{chase} } || ['missing', 0, 0, 0];
    is(join(' ', @$c[1 .. 3]), '0 0 1', "$opt chase: next[j] is a chase (memx memg memc: @$c[1 .. 3])");
    my $ga = $mem{ $line{gather} } || ['missing', 0, 0, 0];
    is(join(' ', streams($ga->[0]), @$ga[1 .. 3]), '8 0 0 0 1 0',
       "$opt gather: next[i] a stream, a[next[i]] a gather ($ga->[0] memx memg memc: @$ga[1 .. 3])");
    my $lk = $mem{ $line{lookup} } || ['missing', 0, 0, 0];
    is(join(' ', streams($lk->[0]), @$lk[1 .. 3]), '8 0 0 0 0 0',
       "$opt lookup: a gather into a fixed table is not counted ($lk->[0] memx memg memc: @$lk[1 .. 3])");
    my $ht = $mem{ $line{heaptable} } || ['missing', 0, 0, 0];
    is(join(' ', streams($ht->[0]), @$ht[1 .. 3]), '8 0 0 0 0 0',
       "$opt heaptable: a histogram into a constant-size allocation is not counted ($ht->[0] memx memg memc: @$ht[1 .. 3])");
    my $dv = $mem{ $line{divided} } || ['missing', 0, 0, 0];
    is(join(' ', @$dv[1 .. 3]), '1 0 0', "$opt divided: a computed index stays unknown (memx memg memc: @$dv[1 .. 3])");
    my $show = `$B/perfpred show $tmp/s.ppr 2>&1`;
    is($?, 0, "$opt: the analyser reads the streams, '?' included") or diag($show);
}

# a malformed mem= in a record: refused with the file and the line
my @lines = split /\n/, slurp("$tmp/s.ppr");
my $ln = 0;
for my $i (0 .. $#lines) {
    next unless $lines[$i] =~ / mem=\(8 0 0 8 0 1\)/;
    $lines[$i] =~ s/ mem=\(8 0 0 8 0 1\)/ mem=(8 0)/;
    $ln = $i + 1;
    last;
}
my $rec = join("\n", @lines) . "\n";
open my $f, '>', "$tmp/bad.ppr" or die;
print $f $rec;
close $f;
my $err = `$B/perfpred show $tmp/bad.ppr 2>&1`;
like($err, qr/bad\.ppr:$ln:.*mem= needs triples/, "a malformed mem= is refused with its file and line ($ln)");

done_testing();
