#!/usr/bin/perl
# 64-interval.t - the 90% interval of T_real adds three relative errors in
# quadrature: the fitted costs', the host's noise (noise.cov) and the
# model's (--model-error per doubling of the sequential work beyond the
# record), and is T_real exp(+-2 sigma).  Checked against the arithmetic
# by hand on the parts predict reports.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
system("gcc -O2 -fopenmp -fplugin=$B/perfpred.so -c tests/programs/embar.c -o $tmp/embar.o") == 0
    && system("gcc -fopenmp $san $tmp/embar.o -o $tmp/embar -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build embar');
system("PERFPRED_RECORD=$tmp/embar.ppr $tmp/embar 4800 2 20 >/dev/null") == 0 or BAIL_OUT('embar run');
sub json { my $o = eval { decode_json($_[0]) }; return $o; }

hand_machine("$tmp/noisy.machine", name => 'elsewhere', header => "noise.cov = 0.05\n");

sub predict {
    my ($args) = @_;
    return json(`$pp predict $tmp/embar.ppr --machine $tmp/noisy.machine --P 2 --format json $args 2>/dev/null`) || {};
}
my $at = predict('--model-error 0.1');
my $far = predict('--model-error 0.1 --set N=19200');   # 4x the work: 2 doublings
for my $c ([recorded => $at, 0], [far => $far, 2]) {
    my ($name, $j, $doublings) = @$c;
    my $parts = $j->{interval_parts} || {};
    is($parts->{host}, 0.05, "$name: the host's part is the machine's noise.cov");
    my $t1r = $at->{T1} || 1;
    my $expect = 0.1 * log(($j->{T1} || 0) / $t1r) / log(2);
    ok(abs(($parts->{model} // -1) - $expect) < 1e-6,
       sprintf('%s: the model part is 0.1 x log2(T1 / T1 recorded) = %.4f (%s)', $name, $expect, $parts->{model} // 'missing'));
    ok(abs($expect - 0.1 * $doublings) < 0.1 * 0.15, sprintf('%s: about %d doublings of the work', $name, $doublings));
    my $rel = sqrt(($parts->{costs} // 0)**2 + 0.05**2 + $expect**2);
    my ($lo, $hi) = @{ $j->{interval} || [0, 0] };
    my $t = $j->{time}{real} || 0;
    ok(abs($lo - $t * exp(-2 * $rel)) <= 1e-6 * $t && abs($hi - $t * exp(2 * $rel)) <= 1e-6 * $t,
       "$name: the interval is T_real exp(+-2 sigma), sigma = $rel");
}
# the costs' part: by default the delta method (slopes and covariance),
# with --draws K Monte Carlo; they agree.  Every cost takes part: one the
# run determined with the fit's variance, one it could not separate with
# its prior's (half the cost), so the part is never 0, even for a record
# disturbed by the host that determines no cost.
# (N = 48000, some 40 ms of work: at N = 4800 a sanitized runtime's event
# overhead left the fit undetermined (R^2 0.5, every cost its prior's, half
# the cost each), where the two methods part: 0.045 against 0.12)
my $det = "$tmp/det.ppr";
system("PERFPRED_RECORD=$det $tmp/embar 48000 2 20 >/dev/null") == 0 or BAIL_OUT('embar run');
for my $set ('', '--set N=192000') {
    my $p = sub { json(`$pp predict $det --machine $tmp/noisy.machine --P 2 --format json $_[0] 2>/dev/null`) || {} };
    my $delta = $p->("$set")->{interval_parts}{costs} // -1;
    my $mc = $p->("$set --draws 400")->{interval_parts}{costs} // -1;
    # (with the loops' costs measured, the part can be a few 1e-4: there
    # the two agree that it is negligible, below 0.2% of the time, and
    # their ratio says nothing)
    ok($delta > 0 && $mc > 0 && (abs($delta - $mc) <= 0.3 * $mc || ($delta < 0.002 && $mc < 0.002)),
       sprintf('costs part %s: delta method %.4f, 400 Monte Carlo draws %.4f (within 30%%, or both below 0.002)',
               $set || 'as recorded', $delta, $mc));
}
# The secants and the draws are evaluated several at once (a copy of the
# costs each, the model only read): the same numbers, to the last digit,
# on one processor and on four.
for my $draws ('', '--draws 40') {
    my @out = map { scalar `env OMP_NUM_THREADS=$_ $pp predict $det --machine $tmp/noisy.machine --P 1,2,8 --set N=96000 --format json $draws 2>/dev/null` } (1, 4);
    ok(length($out[0]) > 0 && $out[0] eq $out[1],
       'the interval ' . ($draws ? 'by 40 draws' : 'by the delta method') . ': one evaluation at a time and four at once print the same');
}
my $none = predict('--model-error 0 --draws 0');
is($none->{interval}, undef, '--draws 0: no interval');
my $nomodel = predict('--model-error 0 --set N=19200');
is($nomodel->{interval_parts}{model}, 0, '--model-error 0: no model part');
like(scalar `$pp predict $tmp/embar.ppr --model-error 2 2>&1`, qr/--model-error: '2' is not/, 'a bad --model-error is refused');

# One record whose costs the fit cannot all separate: the warning says what
# would (a second size); with two sizes it does not repeat that.
system("PERFPRED_RECORD=$tmp/half.ppr $tmp/embar 2400 2 20 >/dev/null") == 0 or BAIL_OUT('embar run');
my $w1 = `$pp show $tmp/embar.ppr 2>&1 >/dev/null`;
my $w2 = `$pp show $tmp/embar.ppr $tmp/half.ppr 2>&1 >/dev/null`;
like($w1, qr/cannot separate the cost of some loops.*; a second record at about half the size separates a loop's cost per entry from its cost per iteration$/m,
     'one record: the warning suggests a second size');
unlike($w2, qr/a second record/, 'two sizes: no such suggestion');

# noise.cov is checked when the machine file is read
open my $m, '>', "$tmp/bad.machine" or die;
print $m "perfpred-machine 1\nname = x\nnoise.cov = 12\n";
close $m;
like(scalar `$pp predict $tmp/embar.ppr --machine $tmp/bad.machine 2>&1`, qr/bad\.machine:3: noise\.cov: '12'/,
     'a noise.cov out of range names the file and line');

done_testing();
