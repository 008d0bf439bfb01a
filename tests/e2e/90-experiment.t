#!/usr/bin/perl
# 90-experiment.t - perfpred run-experiment end to end: matmul_rows and
# matmul_blocks recorded at N = 64, the example experiment
# docs/examples/matmul.experiment run on them as it is (P = 1..64 by
# doubling, N = 256, 512, 1024, on a hand-written machine): its tables
# are predict's numbers at the same points (blocks with the grid the
# example's sets give), the speedup at P = 1 is 1 and the others are
# T_real(P = 1) / T_real, the SVGs of time, speedup and efficiency are
# drawn, and each crossover it reports agrees with predict on both sides;
# two synthetic variants of matmul_rows (N = 428 fixed against N = 64 P)
# cross where their N^3 / P work does, between P = 6 and 7; bad files
# and usage errors.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine run_in json_in);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
plan skip_all => 'gnuplot not found (apt-get install gnuplot-nox)' if system('command -v gnuplot >/dev/null 2>&1') != 0;
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
delete $ENV{PERFPRED_RECORD};
delete $ENV{PERFPRED_DISABLE};

# ---------------------------------------------------------------- records
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
for my $s (['matmul_rows', '64 2'], ['matmul_blocks', '64 4']) {
    my ($name, $args) = @$s;
    my ($rc, $out, $err) = run_in($tmp, "gcc -std=c11 -O2 -pthread $san -fplugin=$B/perfpred.so "
                                      . "samples/$name.c -o $tmp/$name -L$B -l:libperfpred-rt.a");
    is($rc, 0, "$name: builds with the plugin") or diag($err);
    ($rc, $out, $err) = run_in($tmp, "PERFPRED_RECORD=$tmp/$name.ppr $tmp/$name $args");
    is($rc, 0, "$name $args: recorded") or diag($err);
}
hand_machine("$tmp/host.machine");
copy('docs/examples/matmul.experiment', "$tmp/matmul.experiment") or die "copy: $!";

# ---------------------------------------------------------------- the example
my $out = "$tmp/exp-out";
my $j = json_in($tmp, "$pp run-experiment $tmp/matmul.experiment -o $out --format json",
                'the example experiment runs (JSON)') || {};
my $stderr = do { local $/; open my $e, '<', "$tmp/err" or die; <$e> // '' };
unlike($stderr, qr/predictions: \d/, 'no progress counter when stderr is not a terminal');
my @vars = @{ $j->{variants} || [] };
is_deeply([map { $_->{name} } @vars], ['rows', 'blocks'], 'two variants, in the order of the file');
is_deeply($j->{steps}, {N => [256, 512, 1024], P => [1, 2, 4, 8, 16, 32, 64]}, 'the stepped values');
is(scalar(@{ $_->{points} }), 21, "$_->{name}: 21 points (the cross product)") for @vars;

sub grid { my ($p) = @_; my $r = 1; for my $d (1 .. $p) { $r = $d if $p % $d == 0 && $d * $d <= $p } return ($r, $p / $r) }
sub close_to { my ($a, $b) = @_; return defined $a && defined $b && abs($a - $b) <= 1e-7 * abs($b) }
my %pt;   # variant, N, P -> point
for my $v (@vars) {
    $pt{$v->{name}}{$_->{at}{N}}{$_->{at}{P}} = $_ for @{ $v->{points} };
}

# predict at the same point (blocks with the grid of its sets)
sub predict_at {
    my ($var, $N, $P) = @_;
    my $sets = "--set N=$N";
    if ($var eq 'blocks') { my ($pr) = grid($P); $sets .= " --set PR=$pr"; }   # (PC = P / PR: derived)
    my ($rc, $o, $e) = run_in($tmp, "$pp predict $tmp/matmul_$var.ppr --machine $tmp/host.machine $sets --P $P --format json");
    return $rc == 0 ? eval { decode_json($o) } : undef;
}

my ($speed_ok, $one_ok, $eff_ok, $n) = (1, 1, 1, 0);
for my $var ('rows', 'blocks') {
    for my $N (256, 512, 1024) {
        my $p1 = $pt{$var}{$N}{1};
        $one_ok &&= $p1 && $p1->{speedup} == 1 && $p1->{efficiency} == 1;
        for my $P (1, 2, 4, 8, 16, 32, 64) {
            my $q = $pt{$var}{$N}{$P} or next;
            $n++;
            $speed_ok &&= close_to($q->{speedup}, $p1->{time}{real} / $q->{time}{real});
            $eff_ok &&= close_to($q->{efficiency}, $q->{speedup} / $P);
        }
    }
}
is($n, 42, 'every point is in the JSON');
ok($one_ok, 'the speedup and the efficiency at P = 1 are 1 for every N, in both variants');
ok($speed_ok, 'speedup = T_real(P = 1) / T_real(P) of the variant itself');
ok($eff_ok, 'efficiency = speedup / P');
# (PC = P / PR is derived: it follows PR and P, and is not set)
is($pt{blocks}{512}{8}{problem}{PR}, 2, 'blocks at P = 8: the grid of its sets (PR = 2, so 2 x 4)');

# the same numbers as predict
for my $c (['rows', 512, 8], ['rows', 1024, 64], ['rows', 256, 1], ['blocks', 256, 2], ['blocks', 1024, 16],
           ['blocks', 512, 32]) {
    my ($var, $N, $P) = @$c;
    my $q = $pt{$var}{$N}{$P};
    my $p = predict_at($var, $N, $P);
    ok($p, "predict $var N=$N P=$P") or next;
    is($q->{time}{real}, $p->{time}{real}, "$var N=$N P=$P: T_real is predict's");
    is($q->{time}{pram}, $p->{time}{pram}, "$var N=$N P=$P: T_PRAM is predict's");
    if ($var eq 'rows') {
        is_deeply($q->{interval}, $p->{interval}, "$var N=$N P=$P: the interval is predict's");
        is($q->{T1}, $p->{T1}, "$var N=$N P=$P: T1 is predict's");
        is($q->{E}, $p->{E}, "$var N=$N P=$P: E is predict's");
    } else {
        # predict's T1 keeps the grid of P; the experiment's is the 1 x 1 grid at P = 1
        my $one = predict_at('blocks', $N, 1);
        is($q->{T1}, $one->{time}{pram}, "$var N=$N P=$P: T1 is the PRAM time of the 1 x 1 grid at P = 1");
        # so the interval's model part counts the doublings from that T1
        ok($q->{interval}[0] <= $p->{interval}[0] && $q->{interval}[1] >= $p->{interval}[1]
           && $q->{interval_parts}{costs} == $p->{interval_parts}{costs}
           && $q->{interval_parts}{model} >= $p->{interval_parts}{model},
           "$var N=$N P=$P: the interval holds predict's (the same costs part, a model part from the larger T1)");
    }
}

# the files
for my $f ('experiment.txt', 'experiment.json', 'rows.csv', 'blocks.csv', 'crossovers.csv') {
    ok(-s "$out/$f", "$f written");
}
my $csv = do { local $/; open my $c, '<', "$out/blocks.csv" or die; <$c> };
like($csv, qr/^variant,N,P,PR,t_real_s,t_real_lo_s,t_real_hi_s,t_miracle_s,t_pram_s,T1_s,speedup,efficiency,E\n/,
     'blocks.csv: the columns the outputs ask for');
is(scalar(() = $csv =~ /^blocks,/mg), 21, 'blocks.csv: 21 rows');
my $svgs = 0;
for my $kind ('time', 'speedup', 'efficiency') {
    for my $N (256, 512, 1024) {
        my $svg = "$out/$kind-N$N.svg";
        my $body = -s $svg ? do { local $/; open my $s, '<', $svg or die; <$s> } : '';
        $svgs++ if $body =~ m{</svg>\s*\z} && -s "$out/$kind-N$N.gp" && -s "$out/curves-N$N.dat";
    }
}
is($svgs, 9, 'nine SVGs (time, speedup, efficiency for each N), non-empty and complete, with .gp and data');
my $txt = do { local $/; open my $t, '<', "$out/experiment.txt" or die; <$t> };
like($txt, qr/^variant blocks: .*\n\s+N\s+P\s+PR\s+T_real/m, 'experiment.txt: the blocks table');
like($txt, qr/^crossovers of T_real:\n(  rows and blocks along [PN] \(.*\): .*\n){10}/m,
     'experiment.txt: ten lines of crossovers (three along P, seven along N)');

# each crossover the example reports agrees with predict on both sides
my @cross = @{ $j->{crossovers} || [] };
is(scalar(@cross), 10, 'ten crossover lines in the JSON');
my ($nx, $agree) = (0, 1);
for my $c (@cross) {
    for my $x (@{ $c->{crossings} }) {
        $nx++;
        my $along = $c->{along};
        for my $side (['from', 'faster_below'], ['to', 'faster_above']) {
            my %at = (%{ $c->{at} }, $along => $x->{$side->[0]});
            my ($r, $b) = map { predict_at($_, $at{N}, $at{P}) } ('rows', 'blocks');
            my $w = $r->{time}{real} < $b->{time}{real} ? 'rows' : $r->{time}{real} > $b->{time}{real} ? 'blocks' : 'neither';
            $agree &&= $w eq $x->{$side->[1]};
            diag("$along=$x->{$side->[0]}: predict says $w is faster, the experiment $x->{$side->[1]}")
                if $w ne $x->{$side->[1]};
        }
    }
}
ok($agree, "the $nx crossover(s) between rows and blocks agree with predict on both sides");
note("rows against blocks: " . join('; ', map { my $c = $_; "along $c->{along} at " . encode_json($c->{at}) . ': '
     . (@{ $c->{crossings} } ? join(', ', map { "$_->{from}..$_->{to} ($_->{faster_below} then $_->{faster_above})" } @{ $c->{crossings} })
                              : "$c->{faster} throughout") } @cross));

# ---------------------------------------------------------------- synthetic
# T ~ N^3 / P: 428^3 / P against (64 P)^3 / P = 64^3 P^2 cross at
# P^3 = (428/64)^3, P = 6.69
open my $sf, '>', "$tmp/synth.experiment" or die;
print $sf <<'EOF';
perfpred-experiment 1
machine = host.machine
cache-rule = off
variant fixed
  records = matmul_rows.ppr
  set N = 428
variant grows
  records = matmul_rows.ppr
  set N = 64 * P
step P = 1,2,4..16
outputs = time, speedup
EOF
close $sf;
my $s = json_in($tmp, "$pp run-experiment $tmp/synth.experiment --format json", 'synthetic experiment (JSON)') || {};
my @sc = @{ $s->{crossovers} || [] };
is(scalar(@sc), 1, 'synthetic: one line (along P)');
my @xs = @{ $sc[0]{crossings} || [] };
is(scalar(@xs), 1, 'synthetic: one crossing');
is(join(' ', map { $_ // '' } @{ $xs[0] || {} }{qw(from to faster_below faster_above)}), '6 7 grows fixed',
   'synthetic: grows is faster up to P = 6, fixed from P = 7');
ok($xs[0] && $xs[0]{crossing} > 6 && $xs[0]{crossing} < 7, 'synthetic: the interpolated crossing is between 6 and 7');
ok($xs[0] && $xs[0]{evaluations} >= 1 && $xs[0]{evaluations} <= 2, 'synthetic: bisection between 4 and 8 took at most 2 steps');
my ($dmin, $dmax) = @{ $sc[0]{difference} || [] };
# closest at P = 8: 1 - (428/512)^3 = 0.42 in N^3 work; farthest at P = 1: 1 - (64/428)^3
ok(defined $dmax && $dmin > 0.2 && $dmin < 0.6 && $dmax > 0.9 && $dmax < 1,
   "synthetic: the relative difference on the grid ($dmin to $dmax): about 0.4 at P = 8, near 1 at P = 1");
for my $P (6, 7) {
    my @t = map {
        my ($rc, $o) = run_in($tmp, "$pp predict $tmp/matmul_rows.ppr --machine $tmp/host.machine --cache-rule off "
                                  . "--set N=$_ --P $P --draws 0 --format json");
        $rc == 0 ? decode_json($o)->{time}{real} : -1 } (428, 64 * $P);
    ok(($P == 6) == ($t[1] < $t[0]), "synthetic: predict agrees at P = $P (fixed $t[0] s, grows $t[1] s)");
}
my ($rc, $text) = run_in($tmp, "$pp run-experiment $tmp/synth.experiment");
like($text, qr/fixed and grows along P: grows faster up to P=6, fixed from P=7 \(crossing near P=6\.\d+\); on the grid they differ by [.\d]+% to [.\d]+%\n/,
     'synthetic: the text says where they cross');
($rc, $text) = run_in($tmp, "$pp run-experiment $tmp/synth.experiment --format csv");
like($text, qr/^variant_a,variant_b,along,at,from,to,crossing,faster_below,faster_above,diff_min,diff_max\n(?x)
               fixed,grows,P,,6,7,6\.\d+,grows,fixed,[-.\de]+,[-.\de]+$/m,
     'synthetic: the crossover in CSV');

# ---------------------------------------------------------------- what-if
# one program on the machine as it is and with a processor twice as fast:
# the same records, `with = speed=2` in one variant
open my $wf, '>', "$tmp/whatif.experiment" or die;
print $wf <<'EOF';
perfpred-experiment 1
machine = host.machine
cache-rule = off
outputs = time, machines
variant now
  records = matmul_rows.ppr
variant fast
  records = matmul_rows.ppr
  with = speed=2
step P = 1,4
EOF
close $wf;
my $wj = json_in($tmp, "$pp run-experiment $tmp/whatif.experiment --format json", 'what-if experiment (JSON)') || {};
my %wv = map { $_->{name} => $_ } @{ $wj->{variants} || [] };
is($wv{fast}{with}, 'speed=2', 'what-if: the variant names its change');
ok(exists $wv{now}{with} && !defined $wv{now}{with}, 'what-if: the other variant has none');
for my $i (0, 1) {
    my ($a, $b) = ($wv{now}{points}[$i], $wv{fast}{points}[$i]);
    ok($a && $b && abs($b->{T1} - $a->{T1} / 2) <= 1e-8 * $a->{T1}, "what-if P=$a->{P}: speed=2 halves T1");
    ok($a && $b && $b->{time}{real} < $a->{time}{real}, "what-if P=$a->{P}: and T_real is shorter");
}
my $wp = json_in($tmp, "$pp predict $tmp/matmul_rows.ppr --machine $tmp/host.machine --cache-rule off --P 4 "
                     . "--with speed=2 --format json", 'what-if: predict --with speed=2 at P=4');
ok($wp && $wv{fast}{points}[1] && close_to($wv{fast}{points}[1]{time}{real}, $wp->{time}{real}),
   'what-if: the variant predicts what predict --with does');
open my $wb, '>', "$tmp/badwith.experiment" or die;
print $wb "perfpred-experiment 1\nvariant a\n  records = matmul_rows.ppr\n  with = barier=1us\n";
close $wb;
my ($wrc, $wout, $werr) = run_in($tmp, "$pp run-experiment $tmp/badwith.experiment");
is($wrc, 2, 'a bad with: exit 2');
like($werr, qr/badwith.experiment:4: 'barier=1us': unknown parameter 'barier'/, 'a bad with: file, line and item');

# ---------------------------------------------------------------- errors
open my $bf, '>', "$tmp/bad.experiment" or die;
print $bf "perfpred-experiment 1\nvariant a\n  records = matmul_rows.ppr\nstep N = 64,32\n";
close $bf;
my ($brc, $bout, $berr) = run_in($tmp, "$pp run-experiment $tmp/bad.experiment");
is($brc, 2, 'a bad file: exit 2');
like($berr, qr/^perfpred run-experiment: \Q$tmp\E\/bad.experiment:4: step N: the values must increase: 32 after 64$/m,
     'a bad file: the message names the file and the line');
open $bf, '>', "$tmp/bad2.experiment" or die;
print $bf "perfpred-experiment 1\nvariant a\n  records = matmul_rows.ppr\n  set PR = 2\n";
close $bf;
($brc, $bout, $berr) = run_in($tmp, "$pp run-experiment $tmp/bad2.experiment --machine $tmp/host.machine");
is($brc, 2, 'a parameter the records do not have: exit 2');
like($berr, qr/bad2.experiment:4: set PR: variant a has no parameter 'PR' \(its parameters: N, P\)/,
     'a parameter the records do not have: named with the line');
($brc, $bout, $berr) = run_in($tmp, "$pp run-experiment");
is($brc, 2, 'no file: exit 2');
like($berr, qr/no experiment file given/, 'no file: says so');
($brc, $bout) = run_in($tmp, "$pp run-experiment --help");
is($brc, 0, '--help: exit 0');
like($bout, qr/^usage: perfpred run-experiment FILE/, '--help: the usage');
done_testing();
