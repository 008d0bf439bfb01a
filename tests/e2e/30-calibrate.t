#!/usr/bin/perl
# 30-calibrate.t - `perfpred calibrate` end to end.
#
# Runs `build/perfpred calibrate --quick` once, then checks the machine file
# it wrote against docs/machine-format.md: the magic line, every model with
# its coefficients, values in plausible ranges of nanoseconds (not
# wall-clock limits: the host may be busy), the raw points (team sizes up
# to the processors, oversubscribed ones flagged).  Then the command line:
# --help, usage errors, an unwritable output.  Last, when the plugin and
# the runtime are built, an instrumented program's record is predicted with
# the machine file (`perfpred predict --machine`), and a corrupted machine
# file must be rejected naming the file and the line.
#
# Run from the repository root after `make all`:  prove tests/e2e/30-calibrate.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $pp = ($ENV{PERFPRED_BUILD} || 'build') . '/perfpred';
plan skip_all => "$pp not built (run 'make all' first)" unless -x $pp;

my $tmp = tempdir('pp-calibrate-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $mf = "$tmp/host.machine";

# ---- one quick calibration ------------------------------------------------
my $out = `$pp calibrate --quick --max-threads 8 -o $mf 2>$tmp/err`;
is($? >> 8, 0, 'calibrate --quick exits 0')
    or diag(`cat $tmp/err`);
like($out, qr/^thread\.create\s+const/m, 'summary table lists thread.create');
like($out, qr/^barrier\.omp\s+(linear|log2|const)/m, 'summary lists barrier.omp');
like($out, qr/^wrote \Q$mf\E$/m, 'summary names the file written');
ok(-s $mf, 'machine file written');
ok(!glob("$tmp/host.machine.tmp.*"), 'no temporary file left');

# ---- the file ---------------------------------------------------------------
open my $fh, '<', $mf or BAIL_OUT("cannot read $mf: $!");
my @lines = <$fh>;
close $fh;
is($lines[0], "perfpred-machine 1\n", 'first line is the magic and version');

my (%kv, %points, $bad);
for my $i (1 .. $#lines) {
    my $l = $lines[$i];
    $l =~ s/#.*//;
    next if $l =~ /^\s*$/;
    if ($l =~ /^\s*point\.(\S+)\s*=\s*(\d+)\s+(\S+)(\s+oversub)?\s*$/) {
        push @{ $points{$1} }, [$2, $3, $4 ? 1 : 0];
    } elsif ($l =~ /^\s*(\S+)\s*=\s*(.*?)\s*$/) {
        $bad = "duplicate key $1 on line " . ($i + 1) if exists $kv{$1};
        $kv{$1} = $2;
    } else {
        $bad = "line " . ($i + 1) . " is not 'key = value'";
    }
}
ok(!$bad, 'every line is a comment or key = value, no duplicates')
    or diag($bad);
is($kv{source}, 'measured', 'source = measured');
is($kv{quick}, 1, 'quick = 1');
my $cores = $kv{cores} // 0;
ok($cores >= 1, "cores = $cores");
ok(($kv{max_threads} // 0) >= 1 && $kv{max_threads} <= 8,
   'max_threads within --max-threads');

my %ns = (                          # cost => [min, max] of the value, ns
    'thread.create'      => [100, 1e9],
    'thread.create_call' => [100, 1e9],
    'thread.join'        => [10, 1e9],
    'forkjoin.omp'       => [10, 1e9],
    'barrier.omp'        => [1, 1e9],
    'barrier.pthread'    => [1, 1e9],
    'mutex.lock'         => [1, 1e6],
    'mutex.handoff'      => [1, 1e9],
);
my $num = qr/^[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/;

sub model_at {
    my ($k, $u, $P) = @_;
    my ($m, $a, $b) = ($kv{"$k.model"}, $kv{"$k.a$u"}, $kv{"$k.b$u"} // 0);
    return $a if $m eq 'const';
    return $a + $b * $P if $m eq 'linear';
    return $a + $b * log($P) / log(2);
}

for my $k (sort keys %ns) {
    my $m = $kv{"$k.model"} // '';
    like($m, qr/^(const|linear|log2)$/, "$k.model = $m");
    like($kv{"$k.a_ns"} // '', $num, "$k.a_ns is a number >= 0");
    like($kv{"$k.a_se_ns"} // '', $num, "$k.a_se_ns is a number >= 0");
    like($kv{"$k.b_ns"} // '', $num, "$k.b_ns is a number >= 0")
        if $m ne 'const';
    my ($lo, $hi) = @{ $ns{$k} };
    for my $P (1, $cores, 64) {
        my $v = model_at($k, '_ns', $P);
        ok($v >= $lo && $v <= $hi, "$k at P=$P: $v ns in [$lo, $hi]");
    }
    ok(@{ $points{$k} // [] } >= 1, "$k has raw points");
}
for my $k ('scale.compute', 'scale.memory') {
    like($kv{"$k.model"} // '', qr/^(const|linear|log2)$/, "$k.model");
    like($kv{"$k.a"} // '', $num, "$k.a is a number");
    my $prev = 0;
    for my $P (2, 4, 64) {
        my $v = model_at($k, '', $P);
        ok($v >= $prev && $v < 1e4, "$k at P=$P: factor $v, non-decreasing");
        $prev = $v;
    }
    my ($p1) = grep { $_->[0] == 1 } @{ $points{$k} // [] };
    ok($p1 && abs($p1->[1] - 1) < 1e-9, "$k is 1 at P=1 (normalised)");
}
like($kv{'mem.bw1_bytes_per_ns'} // '', $num, 'memory bandwidth measured');
ok(($kv{'mem.bw1_bytes_per_ns'} // 0) > 0.05
   && $kv{'mem.bw1_bytes_per_ns'} < 1e4, 'bandwidth plausible (GB/s)');

# The bandwidth curve: working sets x4 apart (--quick) from 16 KiB up to the
# memory kernel's, whose point is mem.bw1 at mem.footprint_bytes; the three
# levels' bandwidths are taken from it.
my @st = @{ $points{'mem.stream'} // [] };
ok(@st >= 4, scalar(@st) . " points of the bandwidth curve");
ok(!(grep { !($_->[1] =~ $num) || $_->[1] <= 0 } @st), 'its bandwidths are numbers > 0');
ok(!(grep { $st[$_][0] <= $st[$_ - 1][0] } 1 .. $#st), 'its working sets increase');
ok(@st && $st[0][0] >= 8000 && $st[0][0] <= (16 << 10), "it starts at 16 KiB ($st[0][0] bytes)");
ok(@st && $st[-1][0] == ($kv{'mem.footprint_bytes'} // -1)
   && abs($st[-1][1] - $kv{'mem.bw1_bytes_per_ns'}) <= 1e-5 * $st[-1][1],
   'its last point is the memory kernel (footprint, bw1)');
ok(!(grep { $st[$_][0] > 2 * $st[$_ - 1][0] && $st[$_][0] < 3.9 * $st[$_ - 1][0]
            && $_ < $#st } 1 .. $#st), 'x4 steps with --quick');
ok(($kv{'mem.bw_l1_bytes_per_ns'} // 0) > 0, 'mem.bw_l1 filled from the curve');
# the load curves: a chase and a gather at the same working sets, in ns
for my $k ('mem.chase', 'mem.gather') {
    my @c = @{ $points{$k} // [] };
    ok(@c >= 4, scalar(@c) . " points of $k");
    ok(!(grep { !($_->[1] =~ $num) || $_->[1] <= 0 || $_->[1] > 1e5 } @c), "$k: times > 0 ns and plausible");
    ok(!(grep { $c[$_][0] <= $c[$_ - 1][0] } 1 .. $#c), "$k: working sets increase");
}
my %ch = map { $_->[0] => $_->[1] } @{ $points{'mem.chase'} // [] };
my @cw = sort { $a <=> $b } keys %ch;
# a chase through 4 MiB (past any L1 and most L2) waits longer than one
# through 16 KiB: the latency grows with the working set
ok(@cw >= 2 && $ch{ $cw[-1] } > $ch{ $cw[0] }, "the chase's latency grows with the working set ($ch{$cw[0]} -> $ch{$cw[-1]} ns)");

# Team sizes: 1 .. min(cores, 8) are fitted points; above the cores they are
# flagged oversubscribed.
my @bo = @{ $points{'barrier.omp'} // [] };
ok((grep { $_->[0] == 1 && !$_->[2] } @bo), 'barrier.omp measured at P=1');
my $top = $cores < 8 ? $cores : 8;
ok((grep { $_->[0] == $top && !$_->[2] } @bo),
   "barrier.omp measured at P=$top");
ok(!(grep { ($_->[0] > $cores) != $_->[2] } @bo),
   'exactly the points with P > cores are flagged oversub');

# ---- the command line -------------------------------------------------------
my $help = `$pp calibrate --help`;
is($? >> 8, 0, '--help exits 0');
like($help, qr/--quick/, '--help documents --quick');
`$pp calibrate 2>$tmp/err`;
is($? >> 8, 2, 'no -o: usage error (2)');
like(`cat $tmp/err`, qr/-o FILE/, 'no -o: says so');
`$pp calibrate -o $tmp/x --bogus 2>$tmp/err`;
is($? >> 8, 2, 'unknown option: usage error (2)');
`$pp calibrate -o $tmp/x --max-threads zero 2>$tmp/err`;
is($? >> 8, 2, 'bad --max-threads: usage error (2)');
`$pp calibrate --quick --max-threads 1 -o $tmp/no-such-dir/x.machine 2>$tmp/err`;
is($? >> 8, 2, 'unwritable output: bad input (2), said before measuring');
like(`cat $tmp/err`, qr{\Q$tmp/no-such-dir/x.machine\E}, 'error names the file');

# ---- the analyser reads the file ------------------------------------------
SKIP: {
    my $bd = $ENV{PERFPRED_BUILD} || 'build';
    my $ok = -f "$bd/perfpred.so" && -f "$bd/libperfpred-rt.a";
    skip 'plugin or runtime not built', 4 unless $ok;
    my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
    my $cc = "gcc -O1 -fopenmp $san -fplugin=$bd/perfpred.so";
    system("$cc -o $tmp/embar tests/programs/embar.c $bd/libperfpred-rt.a"
           . " -lpthread -lm >$tmp/cc.log 2>&1");
    skip 'tests/programs/embar.c does not build with the plugin', 4 if $?;
    system("PERFPRED_RECORD=$tmp/embar.ppr $tmp/embar 64 2 2"
           . " >/dev/null 2>$tmp/run.log");
    skip 'the instrumented program wrote no record', 4
        if $? || !-s "$tmp/embar.ppr";
    my $p = `$pp predict $tmp/embar.ppr --machine $mf --P 2 2>$tmp/err`;
    is($? >> 8, 0, 'perfpred predict --machine reads the calibrated file')
        or diag(`cat $tmp/err`);
    unlike(`cat $tmp/err`, qr/default costs/, 'and does not fall back to defaults');
    # a corrupted copy: barrier.omp.a_ns made negative
    my $n = 0;
    open my $in, '<', $mf or die;
    open my $o, '>', "$tmp/bad.machine" or die;
    my $badline = 0;
    while (<$in>) {
        $n++;
        if (/^barrier\.omp\.a_ns/) { $_ = "barrier.omp.a_ns = -3\n"; $badline = $n }
        print $o $_;
    }
    close $o;
    `$pp predict $tmp/embar.ppr --machine $tmp/bad.machine --P 2 2>$tmp/err`;
    isnt($? >> 8, 0, 'a corrupted machine file is rejected');
    like(`cat $tmp/err`, qr{\Q$tmp/bad.machine\E:$badline:.*negative},
         'the error names the file and the line');
}

done_testing();
