#!/usr/bin/perl
# 70-report.t - `make report` (tools/make-report) in its quick mode
# (PERFPRED_REPORT_QUICK=1: ge_pthreads only, P lists 2,4,8) into a
# temporary directory (PERFPRED_REPORT_DIR). Checks: exit 0 and plain
# progress lines when stdout is not a terminal; every expected file exists; the SVGs are
# complete (<?xml or <svg first, </svg> last, well-formed for xmllint when
# it is installed); index.md links every file it should and holds the
# tables; the JSON tables parse and have the shape the plots read; the
# failures name their step and exit non-zero; mpi_ge in quick mode: the
# share of its broadcast against N and P (Clement & Quinn, Figure 6).
#
# The machine file is written here by hand (typical costs of a 2-core x86
# host) and passed with PERFPRED_REPORT_MACHINE: a quick calibration on a
# busy host can measure costs so high that the scale search has to go to
# enormous sizes, and that would make this test slow and flaky.
# tests/e2e/30-calibrate.t tests the calibration.
#
# Run from the repository root:  make all && prove tests/e2e/70-report.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine);
use Time::HiRes qw(time);

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $B = $ENV{PERFPRED_BUILD} // 'build';
for my $f ("$B/perfpred", "$B/perfpred.so", "$B/libperfpred-rt.a") {
    plan skip_all => "$f is not built (make all)" unless -f $f;
}
plan skip_all => 'gnuplot is not installed' if system('command -v gnuplot >/dev/null 2>&1') != 0;

my $TMP = tempdir('pp-report-XXXXXX', TMPDIR => 1, CLEANUP => 1);
# Graphviz and fontconfig keep caches they never free (SANITIZE=1)
open my $sup, '>', "$TMP/lsan.supp" or die;
print $sup "leak:libgvc.so\nleak:libfontconfig.so\nleak:libcgraph.so\nleak:libpango\nleak:libcairo\n";
close $sup;
$ENV{LSAN_OPTIONS} = "suppressions=$TMP/lsan.supp:print_suppressions=0";
delete $ENV{$_} for grep { /^PERFPRED_REPORT_/ } keys %ENV;
delete $ENV{PERFPRED_DISABLE};

sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or return ''; my $s = <$h>; return $s // '' }

sub run {
    my ($env, $cmd) = @_;
    my $rc = system("$env $cmd </dev/null >$TMP/out 2>$TMP/err");
    return ($rc == -1 ? -1 : $rc & 127 ? 128 + ($rc & 127) : $rc >> 8, slurp("$TMP/out"), slurp("$TMP/err"));
}

# a machine file by hand (docs/machine-format.md)
my $mach = hand_machine("$TMP/hand.machine", memory => [0.66, 0.25]);

my $out = "$TMP/rep";
my $env = "PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_DIR=$out PERFPRED_REPORT_MACHINE=$mach";
my $t0 = time;
my ($rc, $so, $se) = run($env, 'tools/make-report');
my $dt = time - $t0;
is($rc, 0, 'make-report (quick) exits 0') or diag($se);
# progress as plain lines when stdout is not a terminal (97-report-output.t
# checks them in detail), ending with the index and the summary
like($so, qr/\Areport: \[[\d.]+s\] /, 'progress lines on stdout when it is not a terminal');
like($so, qr/^report: done: 1 program, 1 report written, 0 failed, [\d.]+ s\n\z/m, '... ending with the summary');
# (a time, not a check: the host is shared and its load unknown)
note(sprintf('quick mode took %.1f s', $dt));

my $d = "$out/ge_pthreads";
my @files = qw(ge_pthreads ge_pthreads.ppr run.txt show.txt show.json index.html report.md
               predict.txt predict.csv predict.json scale.txt scale.csv scale.json
               graph-P4.svg graph-P4.dot latency.svg times.svg efficiency.svg
               latency-algorithmic.dat latency-combination.dat latency.gp times.gp efficiency.gp log.txt);
for my $f (@files) {
    ok(-s "$d/$f", "ge_pthreads/$f written");
}
ok(-s "$out/host.machine", 'host.machine written');
ok(-s "$out/index.md", 'index.md written');
ok(!-e "$out/ge_omp" && !-e "$out/apsp" && !-e "$out/em", 'quick mode: ge_pthreads only');
is(slurp("$out/host.machine"), slurp($mach), 'PERFPRED_REPORT_MACHINE is used as given');
like(slurp("$d/run.txt"), qr/^checksum 64$/m, 'the sample ran at N = 64');

# the page perfpred report wrote for the sample, and the index of the pages
for my $f (qw(index.html report.md table-predictions.csv plot-time.svg plot-latency.svg thread-graph.svg)) {
    ok(-s "$d/$f", "ge_pthreads/$f written (perfpred report)");
}
like(slurp("$d/index.html"), qr{<title>ge_pthreads at N=512</title>}, 'the page is titled with the sample and its size');
my @pp = grep { /\S/ } split /\n/, slurp("$d/table-predictions.csv");
is_deeply([map { (split /,/)[0] } @pp[1 .. $#pp]], [2, 4, 8], 'the page predicts at P = 2,4,8 (quick mode)');
ok(!glob("$d/.perfpred-report-*") && !glob("$out/.*.tmp-*"), 'no temporary directory of perfpred report left');
my $ih = slurp("$out/index.html");
like($ih, qr{<a href="ge_pthreads/index.html">}, 'index.html links the page of ge_pthreads');
like($ih, qr{ge_pthreads.*(algorithm|machine|holds both)}s, 'index.html says what limits it');
my @hrefs = $ih =~ /href="([^"#:]+)"/g;
ok(-e "$out/$_", "index.html: $_ exists") for @hrefs;

# SVGs complete and well-formed
my $xmllint = system('command -v xmllint >/dev/null 2>&1') == 0;
for my $f (qw(graph-P4.svg latency.svg times.svg efficiency.svg)) {
    my $s = slurp("$d/$f");
    ok($s =~ /\A\s*(<\?xml|<svg)/ && $s =~ m{</svg>\s*\z}, "$f starts with <?xml or <svg and ends with </svg>");
    if ($xmllint) {
        is(system("xmllint --noout --nonet '$d/$f' >/dev/null 2>&1"), 0, "$f is well-formed XML");
    }
}
like(slurp("$d/graph-P4.dot"), qr/\A\s*(strict\s+)?digraph\b/, 'graph-P4.dot is a DOT digraph');

# the index links every file, with the tables inline
my $idx = slurp("$out/index.md");
my %link = map { $_ => 1 } $idx =~ /\]\(([^)\s]+)\)/g;
for my $f (@files) {
    ok($link{"ge_pthreads/$f"}, "index.md links ge_pthreads/$f");
}
ok($link{'host.machine'}, 'index.md links host.machine');
for my $l (keys %link) {
    next if $l =~ /^#/;
    ok(-e "$out/$l", "link $l points to a file");
}
my $scale_txt = slurp("$d/scale.txt");
ok(length($scale_txt) > 0 && index($idx, $scale_txt) >= 0, 'index.md holds the scale tables (text)');
ok(index($idx, slurp("$d/predict.txt")) >= 0, 'index.md holds the predictions (text)');
like($idx, qr/^- \*\*\[ge_pthreads\]\(#ge_pthreads\)\*\*.*(algorithm|machine|holds both)/m,
     'index.md says what limits ge_pthreads');
like($idx, qr/quick mode/, 'index.md says it is the quick mode');

# JSON tables parse, with the shape the plots use
my $sj = eval { decode_json(slurp("$d/scale.json")) };
ok($sj, 'scale.json parses') or diag($@);
my @tabs = @{ $sj->{tables} || [] };
is(scalar(@tabs), 2, 'scale.json: two tables');
is_deeply([map { $_->{kind} } @tabs], ['algorithmic', 'combination'], 'scale.json: algorithmic, then combination');
for my $t (@tabs) {
    is_deeply($t->{P}, [2, 4, 8], "$t->{kind}: P = 2,4,8 (quick mode)");
    is(scalar(@{ $t->{problem} }), 3, "$t->{kind}: a problem size per P");
    is(scalar(@{ $t->{latency} }), 3, "$t->{kind}: a latency per P");
}
my $pj = eval { decode_json(slurp("$d/predict.json")) };
ok($pj && ref $pj eq 'ARRAY', 'predict.json parses') or diag($@);
is_deeply([map { $_->{P} } @{ $pj || [] }], [2, 4, 8], 'predict.json: P = 2,4,8');
is(($pj->[0]{problem} || {})->{N}, 512, 'predict.json: at 8x the recorded N');
ok(eval { decode_json(slurp("$d/show.json")) }, 'show.json parses') or diag($@);
my @csv = grep { /\S/ } split /\n/, slurp("$d/predict.csv");
is(scalar(@csv), 4, 'predict.csv: header and 3 rows');
# the latency plot's data: one line per P that reached the efficiency
for my $t (@tabs) {
    my @pts = grep { /^\d/ } split /\n/, slurp("$d/latency-$t->{kind}.dat");
    my $reached = grep { defined } @{ $t->{problem} };
    is(scalar(@pts), $reached, "latency-$t->{kind}.dat: a point per P that reached the efficiency");
}

# --max S bounds the tables' searches as it does scale's: a P not reached
# by S is over S, and the page and scale.json say it was --max (here S =
# the recorded N, where E = 0.5 does not hold at P = 8)
{
    my $rec = "$d/ge_pthreads.ppr";
    my $dm = "$TMP/rmax";
    ($rc, $so, $se) = run('', "$B/perfpred report $rec -o $dm --machine $mach --P 2,8 --scale N --scale-P 2,8 "
                              . '--Ea 0.5 --E 0.5 --max 64 --draws 0 --sens-P 2 --graph-P 2');
    is($rc, 0, 'report --max 64 exits 0') or diag($se);
    my $mj = eval { decode_json(slurp("$dm/scale.json")) } // {};
    my $s8 = (($mj->{tables} || [])->[1] || {})->{search}[1] || {};
    ok(($s8->{result} // '') eq 'limit' && ($s8->{largest} // 0) == 64 && ($s8->{limited_by} // '') eq 'max',
       'report --max 64: scale.json\'s combination table has P = 8 at the limit at N = 64, limited by max ('
       . join(' ', map { "$_=" . ($s8->{$_} // '-') } qw(result largest limited_by)) . ')');
    like(slurp("$dm/report.md"), qr/over 64 \(--max\)/, 'report --max 64: the page\'s table says over 64 (--max)');
    ($rc, $so, $se) = run('', "$B/perfpred report $rec -o $TMP/rmax2 --machine $mach --scale N --max 10 --draws 0");
    is($rc, 2, 'report --max 10, under the recorded N: exit 2');
    like($se, qr/--max 10: the search starts at N = 64, above it/, '... saying why');
}

# a second run reuses nothing stale and gives the same set of files
($rc, $so, $se) = run($env, 'tools/make-report');
is($rc, 0, 'a second run into the same directory exits 0') or diag($se);

# failures: exit non-zero, the step named on stderr
($rc, $so, $se) = run("PERFPRED_BUILD=$TMP/nobuild PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_DIR=$TMP/r2", 'tools/make-report');
isnt($rc, 0, 'a missing build fails');
like($se, qr/^make-report: check: .*perfpred.*make all/m, '... naming the check step');

open my $bad, '>', "$TMP/bad.machine" or die;
print $bad "perfpred-machine 99\ncores = 2\n";
close $bad;
($rc, $so, $se) = run("PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_DIR=$TMP/r3 PERFPRED_REPORT_MACHINE=$TMP/bad.machine",
                      'tools/make-report');
isnt($rc, 0, 'a bad machine file fails');
like($se, qr/^make-report: \S+: page failed/m, '... naming the sample and the step');
like($se, qr/host\.machine:1:/, '... with perfpred\'s message naming the file and line');

($rc, $so, $se) = run("PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_DIR=$TMP/r4 PERFPRED_REPORT_SAMPLES=nosuch",
                      'tools/make-report');
isnt($rc, 0, 'an unknown sample fails');
like($se, qr/unknown sample 'nosuch'/, '... naming it');

# mpi_ge in quick mode: Clement & Quinn's Figure 6 against N and P, the
# share of the time in the pivot row's broadcast (bcast-share.csv, .svg)
SKIP: {
    skip 'mpicc or mpirun is not installed', 8
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    my $mout = "$TMP/rmpi";
    ($rc, $so, $se) = run("PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_SAMPLES=mpi_ge "
                          . "PERFPRED_REPORT_DIR=$mout PERFPRED_REPORT_MACHINE=$mach OMPI_ALLOW_RUN_AS_ROOT=1 "
                          . "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1", 'tools/make-report');
    is($rc, 0, 'make-report (quick, mpi_ge) exits 0') or diag($se);
    my @bs = map { [split /,/] } grep { /\S/ } split /\n/, slurp("$mout/mpi_ge/bcast-share.csv");
    is(join(',', @{ shift(@bs) || [] }), 'N,P,bcast_share', 'mpi_ge/bcast-share.csv: its header');
    is(join(' ', map { "$_->[0]:$_->[1]" } @bs),
       join(' ', map { my $n = $_; map { "$n:$_" } 4, 16, 64 } 256, 512, 1024, 2048),
       'mpi_ge/bcast-share.csv: N = 256..2048 by P = 4,16,64 (quick mode)');
    ok(@bs && !(grep { !($_->[2] > 0 && $_->[2] < 1) } @bs), 'mpi_ge: every share is between 0 and 1');
    my %s = map { ("$_->[0]:$_->[1]" => $_->[2]) } @bs;
    ok(!(grep { my $n = $_; !($s{"$n:4"} < $s{"$n:16"} && $s{"$n:16"} < $s{"$n:64"}) } 256, 512, 1024, 2048),
       'mpi_ge: at every N the broadcast takes a larger share on more ranks');
    ok($s{'256:4'} > $s{'512:4'} && $s{'512:4'} > $s{'1024:4'} && $s{'1024:4'} > $s{'2048:4'},
       'mpi_ge: on 4 ranks a larger N leaves it a smaller share (N^3/P work against N^2 bytes)');
    my $svg = slurp("$mout/mpi_ge/bcast-share.svg");
    ok($svg =~ /\A\s*(<\?xml|<svg)/ && $svg =~ m{</svg>\s*\z}, 'mpi_ge/bcast-share.svg is a complete SVG');
    like(slurp("$mout/index.md"), qr{\(mpi_ge/bcast-share\.svg\)}, 'index.md shows the broadcast share plot');
}

done_testing();
