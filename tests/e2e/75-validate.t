#!/usr/bin/perl
# 75-validate.t - several records of one program fitted together (and a
# record of another program refused), and perfpred validate: it runs the
# program at each point, its error column is (predicted - actual)/actual,
# bad points are refused.  Times are not graded here (make bench does).
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
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
for my $p ('triangle', 'serial') {
    system("gcc -O2 -pthread $san -fplugin=$B/perfpred.so tests/programs/$p.c -o $tmp/$p -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build $p");
}
for my $n (200, 300) {
    system("PERFPRED_RECORD=$tmp/tri$n.ppr $tmp/triangle $n >/dev/null") == 0 or BAIL_OUT('triangle run');
}
system("PERFPRED_RECORD=$tmp/ser.ppr $tmp/serial 1000 1000 2 >/dev/null") == 0 or BAIL_OUT('serial run');

# several records of one program
my $j = eval { decode_json(`$pp show $tmp/tri300.ppr $tmp/tri200.ppr --format json 2>/dev/null`) } || {};
my @loops = @{ $j->{loops} || [] };
ok(scalar(@loops) >= 2, 'two records: show lists the loops');
ok(!grep({ !$_->{match} } @loops), 'every loop matches in both records');
my ($inner) = grep { $_->{id} eq 'main:L1' } @loops;
is($inner->{observed}, 300 * 299 / 2, 'observed counts are the first record\'s');
my $e = `$pp show $tmp/tri300.ppr $tmp/ser.ppr 2>&1`;
is($? >> 8, 2, 'a record of another program: exit 2');
like($e, qr/ser\.ppr: not a record of the same program as .*tri300\.ppr/, 'says which record and why');

# validate
my $v = `$pp validate $tmp/tri300.ppr --run '$tmp/triangle {N}' --point N=2000 --point N=3000 --repeat 1 --draws 4 --format json 2>$tmp/err`;
is($?, 0, 'validate runs') or diag(`cat $tmp/err`);
my $vj = eval { decode_json($v) } || {};
is(scalar(@{ $vj->{points} || [] }), 2, 'two points');
for my $p (@{ $vj->{points} || [] }) {
    ok($p->{actual} > 0 && $p->{predicted} > 0, "$p->{point}: predicted and actual times");
    my $want = ($p->{predicted} - $p->{actual}) / $p->{actual};
    ok(abs($p->{error} - $want) <= 1e-6 * (1 + abs($want)), "$p->{point}: error = (pred - act)/act");
    ok(ref $p->{interval} eq 'ARRAY', "$p->{point}: an interval");
}
my $s = $vj->{summary} || {};
is($s->{n}, 2, 'summary over two points');
ok($s->{reduction} > 0, 'time reduction reported');
# the default command comes from the recorded command line
my $d = `$pp validate $tmp/tri300.ppr --point N=500 --repeat 1 --draws 0 2>&1`;
is($?, 0, 'validate with the recorded command line');
like($d, qr/\{N\}/, 'the command has the parameter as {N}');
# --plot: predicted against measured, an SVG with both points, its data and script
my $pl = `$pp validate $tmp/tri300.ppr --point N=500 --point N=800 --repeat 1 --draws 4 --plot $tmp/pv.svg 2>&1`;
is($?, 0, 'validate --plot') or diag($pl);
ok(-s "$tmp/pv.svg" && -s "$tmp/pv.gp", 'the SVG and its gnuplot script are written');
my @dat = grep { !/^#/ } split /\n/, `cat $tmp/pv.dat`;
is(scalar @dat, 2, 'the plot data has one line per point');
like($dat[0] // '', qr/^\S+ \S+ \S+ \S+ "N=500"$/, 'a data line: actual, predicted, interval, point');
my $svg = `cat $tmp/pv.svg`;
like($svg, qr/<svg/, 'the SVG is an SVG');
like($svg, qr/N=800/, 'the SVG labels the points');
`$pp validate $tmp/tri300.ppr --point N=500 --plot $tmp/nodir/pv.svg 2>/dev/null`;
is($? >> 8, 2, '--plot into a directory that does not exist: exit 2 before any run');
`$pp validate $tmp/tri300.ppr --point N=500 --plot $tmp/pv.png 2>/dev/null`;
is($? >> 8, 2, '--plot of a file not ending in .svg: exit 2');
# bad input
`$pp validate $tmp/tri300.ppr --point M=5 2>/dev/null`;
is($? >> 8, 2, 'an unknown parameter in --point: exit 2');
`$pp validate $tmp/tri300.ppr 2>/dev/null`;
is($? >> 8, 2, 'no --point: exit 2');
`$pp validate $tmp/tri300.ppr --run 'false {N}' --point N=10 --repeat 1 --draws 0 2>/dev/null`;
is($? >> 8, 2, 'a failing program: exit 2');
done_testing();
