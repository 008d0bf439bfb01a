#!/usr/bin/perl
# 98-calibrate-honest.t - a calibration that cannot lie
# (docs/machine-format.md, "Rounds, spread and a busy host";
# docs/commands.md, calibrate --check).
#
#  - calibrate --quick on the host as it is, then again with a CPU hog on
#    every processor (perl busy loops, killed after): the second file
#    either matches the first within 2x at every point of every cost, or
#    it is marked (busy = 1, a busy.steal above 0.25 or a spread above 2);
#    both files have the round keys (busy.rounds, busy.steal, C.spread);
#  - a marked file (by busy.steal alone, by one cost's spread alone) makes
#    predict's text, CSV and JSON, scale's and sensitivity's say so in
#    their first line ("warning: ...", "# warning: ...", the JSON member
#    "machine_warning" first), and the report's page carry the warning box
#    at its top; an unmarked file (the keys absent: a file from before
#    them) gives none of it;
#  - calibrate --check on the fresh file says it describes the host (exit
#    0; asserted when the fresh file is not marked: a file measured on a
#    busy host may well not), and on a copy with forkjoin.omp scaled 10x
#    says forkjoin.omp differs (exit 1);
#  - malformed round keys are refused, naming the file and line (exit 2),
#    by calibrate --check and by predict.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred", "$B/perfpred-gcc") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-honest-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $PP = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or return ''; my $s = <$h>; return $s // '' }
sub spew { my ($f, $s) = @_; open my $h, '>', $f or die "$f: $!"; print $h $s; close $h; return $f }

# The keys of a machine file, and its raw points: {cost}{P} = value (fitted
# team sizes only).
sub read_machine {
    my ($f) = @_;
    my (%kv, %pt);
    for my $l (split /\n/, slurp($f)) {
        $l =~ s/#.*//;
        if ($l =~ /^\s*point\.(\S+)\s*=\s*(\d+)\s+(\S+)\s*$/) {
            $pt{$1}{$2} = $3;
        } elsif ($l =~ /^\s*(\S+)\s*=\s*(.*?)\s*$/) {
            $kv{$1} = $2;
        }
    }
    return (\%kv, \%pt);
}
sub marked {
    my ($kv) = @_;
    return 1 if ($kv->{busy} // 0) == 1 || ($kv->{'busy.steal'} // 0) > 0.25;
    return scalar grep { /\.spread$/ && $kv->{$_} > 2 } keys %$kv;
}

# ------------------------------------------------------------ quiet and hog
my ($rc, $out, $err) = run_in($TMP, "$PP calibrate --quick --max-threads 2 -o $TMP/fresh.machine");
is($rc, 0, 'calibrate --quick: exit 0') or diag($err);
my ($fkv, $fpt) = read_machine("$TMP/fresh.machine");
my $fresh_marked = marked($fkv) ? 1 : 0;
note("the fresh calibration is " . ($fresh_marked ? '' : 'not ') . "marked (busy.steal "
     . ($fkv->{'busy.steal'} // '?') . ")");
is($fkv->{'busy.rounds'}, 3, 'busy.rounds = 3 (--quick)');
like($fkv->{'busy.steal'} // '', qr/^(0(\.\d+)?|1)$/, 'busy.steal is a share');
for my $c (qw(thread.create thread.join forkjoin.omp barrier.omp barrier.pthread mutex.lock mutex.handoff
              scale.compute scale.memory thread.create_call)) {
    ok(($fkv->{"$c.spread"} // 0) >= 1, "$c.spread >= 1");
}
ok(($fkv->{'compute.kernel_ns'} // 0) > 0, 'compute.kernel_ns recorded');
is(($fkv->{busy} // 0) == 1 ? 1 : 0, $fresh_marked, 'busy = 1 exactly when a key marks the file');
is($err =~ /calibrate: warning: the host (is|was) busy/ ? 1 : 0, $fresh_marked,
   '... and calibrate warned exactly then') or diag($err);

my $ncpu = `nproc` + 0 || 2;
my @hogs;
for (1 .. $ncpu) {
    my $pid = fork();
    die "fork: $!" unless defined $pid;
    if (!$pid) { exec('perl', '-e', '1 while 1') or exit 127 }
    push @hogs, $pid;
}
select(undef, undef, undef, 0.3);
($rc, $out, $err) = run_in($TMP, "$PP calibrate --quick --max-threads 2 -o $TMP/hog.machine");
kill 'KILL', @hogs;
waitpid($_, 0) for @hogs;
is($rc, 0, "calibrate --quick beside $ncpu CPU hogs: exit 0") or diag($err);
my ($hkv, $hpt) = read_machine("$TMP/hog.machine");
my @off;
my %cost = map { $_ => 1 } qw(thread.create thread.join forkjoin.omp barrier.omp barrier.pthread mutex.lock
                              mutex.handoff scale.compute scale.memory thread.create_call);
for my $c (grep { $cost{$_} } sort keys %$fpt) {
    for my $p (sort { $a <=> $b } keys %{ $fpt->{$c} }) {
        my ($q, $h) = ($fpt->{$c}{$p}, $hpt->{$c}{$p});
        next unless defined $h && $q > 0 && $h > 0;
        my $r = $h / $q;
        push @off, sprintf('%s at P=%d: %.3g against %.3g', $c, $p, $h, $q) if $r > 2 || $r < 0.5;
    }
}
my $hog_marked = marked($hkv) ? 1 : 0;
note(sprintf('beside the hogs: %s; %d point(s) off by more than 2x%s', $hog_marked ? 'marked' : 'not marked',
             scalar @off, @off ? ": $off[0]" : ''));
ok($hog_marked || !@off, 'beside the hogs: marked, or every point within 2x of the quiet calibration')
    or diag(join("\n", @off));
is(($hkv->{busy} // 0) == 1 ? 1 : 0, $hog_marked, '... busy = 1 exactly when marked');

# ------------------------------------------------------------ a program
spew("$TMP/relax.c", <<'EOF');
#include <stdio.h>
#include <stdlib.h>

/* relax a rod's temperatures towards the mean of their neighbours */
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    double *t = calloc((size_t)n, sizeof *t), *u = calloc((size_t)n, sizeof *u);
    if (!t || !u)
        return 1;
    t[0] = 100.0;
    for (int s = 0; s < steps; s++) {
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            u[i] = 0.5 * t[i] + 0.25 * (t[i - 1] + t[i + 1]);
        u[0] = t[0];
        u[n - 1] = t[n - 1];
        double *w = t;
        t = u;
        u = w;
    }
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += t[i];
    printf("heat %.6f\n", sum);
    free(t);
    free(u);
    return 0;
}
EOF
($rc, $out, $err) = run_in($TMP, "$B/perfpred-gcc -O2 -fopenmp$SAN -o $TMP/relax $TMP/relax.c");
is($rc, 0, 'the program builds') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/relax.ppr OMP_NUM_THREADS=2 $TMP/relax 4000 20");
is($rc, 0, 'it records') or BAIL_OUT($err);

# ------------------------------------------------------------ marked files
my $steal = hand_machine("$TMP/steal.machine", header => "busy.rounds = 5\nbusy.steal = 0.48\n");
my $spread = hand_machine("$TMP/spread.machine", header => "busy.rounds = 5\nbusy.steal = 0.02\n"
                                                         . "forkjoin.omp.spread = 3.5\nmutex.lock.spread = 1.1\n");
my $idle = hand_machine("$TMP/idle.machine");
my %why = ($steal => qr/a spin on every processor lost 48% of its time/,
           $spread => qr/rounds that disagree by more than 2x: forkjoin\.omp 3\.5x/);
my $run = "$TMP/relax.ppr --set n=40000";
for my $m ($steal, $spread) {
    my $note = qr/warning: \Q$m\E was calibrated on a busy host \(load average not recorded; [^\n]*/;
    ($rc, $out, $err) = run_in($TMP, "$PP predict $run --machine $m --P 1,2 --format text");
    is($rc, 0, "predict, $m: exit 0") or diag($err);
    like($out, qr/\A$note/, '... text: the first line is the warning');
    like($out, $why{$m}, '... saying why');
    like($err, qr/^perfpred predict: warning: \Q$m\E was calibrated on a busy host/m, '... and on stderr');
    ($rc, $out, $err) = run_in($TMP, "$PP predict $run --machine $m --P 1,2 --format csv");
    like($out, qr/\A# $note\nP,t_miracle_s/, '... csv: a first comment line, then the header');
    ($rc, $out, $err) = run_in($TMP, "$PP predict $run --machine $m --P 1,2 --format json");
    like($out, qr/\A\[\{"machine_warning":"warning: /, '... json: machine_warning, the first member');
    my $j = eval { decode_json($out) } || [];
    like($j->[1]{machine_warning} // '', $why{$m}, '... in every object, saying why');
    ok($j->[0]{machine_busy}, '... and machine_busy');
    ($rc, $out, $err) = run_in($TMP, "$PP scale $run --machine $m --scale n --P 1,2 --E 0.5 --format text");
    is($rc, 0, "scale, $m: exit 0") or diag($err);
    like($out, qr/\A$note/, '... text: the first line is the warning');
    ($rc, $out, $err) = run_in($TMP, "$PP scale $run --machine $m --scale n --P 1,2 --E 0.5 --format csv");
    like($out, qr/\A# $note\n/, '... csv: the first line');
    ($rc, $out, $err) = run_in($TMP, "$PP scale $run --machine $m --scale n --P 1,2 --E 0.5 --format json");
    like($out, qr/\A\{"machine_warning":"warning: /, '... json: the first member');
    ($rc, $out, $err) = run_in($TMP, "$PP sensitivity $run --machine $m --P 2 --format text");
    is($rc, 0, "sensitivity, $m: exit 0") or diag($err);
    like($out, qr/\A$note/, '... text: the first line is the warning');
    ($rc, $out, $err) = run_in($TMP, "$PP sensitivity $run --machine $m --P 2 --format csv");
    like($out, qr/\A# $note\nproblem,P/, '... csv: the first line');
}
for my $fmt (qw(text csv json)) {
    ($rc, $out, $err) = run_in($TMP, "$PP predict $run --machine $idle --P 1,2 --format $fmt");
    is($rc, 0, "predict --format $fmt, a file without the round keys: exit 0") or diag($err);
    unlike($out . $err, qr/busy host|machine_warning|^# /m, '... no warning');
}
SKIP: {
    skip 'gnuplot is not installed', 3 if system('command -v gnuplot >/dev/null 2>&1') != 0;
    ($rc, $out, $err) = run_in($TMP, "$PP report $run --machine $steal --P 1,2 -o $TMP/rep");
    is($rc, 0, 'report, a marked file: exit 0') or diag($err);
    like(slurp("$TMP/rep/index.html"), qr{<div class="warning" role="alert">.*busy host.*lost 48% of its time.*</div>\n<nav>},
         'index.html: the warning box at the top of the page');
    like(slurp("$TMP/rep/report.md"), qr/\A(?:[^\n]*\n){0,4}> \*\*Warning:\*\* .*lost 48% of its time/,
         'report.md: the warning at the top');
}

# ------------------------------------------------------------ --check
my $verdict = sub {
    my ($f) = @_;
    my ($r, $o, $e) = run_in($TMP, "$PP calibrate --check $f --quick");
    ($r, $o, $e) = run_in($TMP, "$PP calibrate --check $f --quick") if $r == 1;   # one retry: a burst of load
    return ($r, $o, $e);
};
($rc, $out, $err) = $verdict->("$TMP/fresh.machine");
like($out, qr/^forkjoin\.omp\s+P=\d+, ns\s+\S+\s+\S+\s+[\d.]+x\s+(ok|DIFFERS)$/m, 'check: a row per cost');
like($out, qr/^compute kernel .*(ok|DIFFERS)$/m, '... the compute kernel');
like($out, qr/^stream bandwidth .*(ok|DIFFERS)$/m, '... the memory bandwidth');
SKIP: {
    skip 'the fresh file is marked (a busy host): check may say it does not describe the host', 2 if $fresh_marked;
    is($rc, 0, 'check, the fresh file: exit 0') or diag($out . $err);
    like($out, qr/^\Q$TMP\E\/fresh\.machine describes this host: every cost checked is within 2x/m, '... it says so');
}
my $doc = slurp("$TMP/fresh.machine");
$doc =~ s/^(forkjoin\.omp\.(?:a_ns|b_ns) = )(\S+)/$1 . $2 * 10/gme;
$doc =~ s/^(point\.forkjoin\.omp = \d+ )(\S+)/$1 . $2 * 10/gme;
spew("$TMP/doctored.machine", $doc);
($rc, $out, $err) = run_in($TMP, "$PP calibrate --check $TMP/doctored.machine --quick");
is($rc, 1, 'check, forkjoin.omp scaled 10x: exit 1') or diag($out . $err);
like($out, qr/^forkjoin\.omp .*DIFFERS$/m, '... forkjoin.omp differs');
like($out, qr/doctored\.machine does not describe this host: /m, '... it says the file does not describe the host');
unless ($fresh_marked) {
    my @d = $out =~ /^(\S+(?: \S+)?)\s.*DIFFERS$/mg;
    is("@d", 'forkjoin.omp', '... and only it (the fresh file matched)') or diag($out);
}

# ------------------------------------------------------------ bad keys
my %bad = (
    'forkjoin.omp.spread = abc'  => qr/forkjoin\.omp\.spread: not a number: 'abc'/,
    'forkjoin.omp.spread = 0.5'  => qr/forkjoin\.omp\.spread: '0\.5' is not a spread/,
    'scale.memory.spread = -2'   => qr/scale\.memory\.spread: negative value/,
    'busy.steal = 1.5'           => qr/busy\.steal: '1\.5' is not a share/,
    'busy.rounds = 0'            => qr/busy\.rounds: 0 out of range/,
    "mutex.lock.spread = 1\nmutex.lock.spread = 1" => qr/duplicate key 'mutex\.lock\.spread'/,
);
my $i = 0;
for my $h (sort keys %bad) {
    my $f = hand_machine("$TMP/bad$i.machine", header => "$h\n");
    $i++;
    (my $what = $h) =~ s/\n/; /g;
    my $line = 5 + ($h =~ tr/\n//);   # after the four lines hand_machine starts with
    ($rc, $out, $err) = run_in($TMP, "$PP calibrate --check $f --quick");
    is($rc, 2, "check, bad key ($what): exit 2");
    like($err, qr/^perfpred calibrate: --check: \Q$f\E:$line: .*$bad{$h}/, '... naming the file, the line and what') or diag($err);
    ($rc, $out, $err) = run_in($TMP, "$PP predict $run --machine $f --P 2");
    is($rc, 2, '... predict refuses it too');
}
($rc, $out, $err) = run_in($TMP, "$PP calibrate --check $TMP/nosuch.machine");
is($rc, 2, 'check, no such file: exit 2');
like($err, qr/nosuch\.machine: cannot open/, '... naming it');
($rc, $out, $err) = run_in($TMP, "$PP calibrate --check $TMP/fresh.machine --tolerance 1");
is($rc, 2, '--tolerance 1: a usage error (exit 2)');

done_testing();
