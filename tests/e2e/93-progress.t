#!/usr/bin/perl
# 93-progress.t - long work shows progress on a terminal and stays quiet
# otherwise (docs/commands.md, "Conventions"): calibrate, scale,
# sensitivity, validate and run-experiment, each run twice, once with
# stderr on a pseudo-terminal (script(1)) where its progress counter or
# lines must appear, and once with stderr into a file where they must not
# (and stdout is the same either way, or for the commands that measure,
# not empty either way).  report's progress is checked by
# 96-report-html.t.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
plan skip_all => 'script(1) is not installed (util-linux)' if system('command -v script >/dev/null 2>&1') != 0;
my $TMP = tempdir('pp-progress-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $PP  = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};

my ($rc, $out, $err) = run_in($TMP, "gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so samples/ge_omp.c -o $TMP/ge "
                                  . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'ge_omp builds with the plugin') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/ge.ppr OMP_NUM_THREADS=2 $TMP/ge 64");
is($rc, 0, 'ge_omp 64 records') or BAIL_OUT($err);
my $mach = hand_machine("$TMP/hand.machine");

# The same command with stderr on a terminal (stdout into a file: the
# terminal then shows stderr alone) and with stderr into a file.
sub both {
    my ($what, $cmd, $progress) = @_;
    my ($trc, $tty) = run_in($TMP, "script -qec " . quote("$cmd >$TMP/tty.out") . " /dev/null");
    is($trc, 0, "$what, stderr on a terminal: exit 0") or diag($tty);
    like($tty, $progress, "$what: progress on a terminal");
    my ($frc, $fout, $ferr) = run_in($TMP, $cmd);
    is($frc, 0, "$what, stderr into a file: exit 0") or diag($ferr);
    unlike($ferr, $progress, "$what: no progress when stderr is not a terminal");
    unlike($ferr, qr/\r/, "$what: no carriage return when stderr is not a terminal");
    my $tout = do { local $/; open my $f, '<', "$TMP/tty.out" or die "$TMP/tty.out: $!"; <$f> // '' };
    # calibrate and validate measure: their numbers differ from run to run
    if ($what =~ /calibrate|validate/) {
        ok(length($tout) > 0 && length($fout) > 0, "$what: something on stdout either way");
    } else {
        is($tout, $fout, "$what: stdout the same either way");
    }
}
sub quote { my ($s) = @_; $s =~ s/'/'\\''/g; return "'$s'" }

both('calibrate --quick', "$PP calibrate --quick --max-threads 2 -o $TMP/cal.machine",
     qr/^calibrate: \S+ +P=\d+/m);
both('scale', "$PP scale $TMP/ge.ppr --machine $mach --scale N --P 2,4 --Ea 0.5 --E 0.2",
     qr/(algorithmic|combination) table: \d+\/\d+/);
both('sensitivity', "$PP sensitivity $TMP/ge.ppr --machine $mach --P 4 --along N=64,128",
     qr/sensitivity: \d+\/\d+/);
both('validate', "$PP validate $TMP/ge.ppr --machine $mach --point N=48,P=2 --repeat 1 --draws 0",
     qr/N=48,P=2: \d+\/\d+/);
open my $e, '>', "$TMP/two.experiment" or die;
print $e "perfpred-experiment 1\nmachine = hand.machine\nvariant a\n  records = ge.ppr\nvariant b\n  records = ge.ppr\n"
    . "  with = speed=2\nstep P = 1,2,4\nstep N = 64,128\n";
close $e;
both('run-experiment', "$PP run-experiment $TMP/two.experiment", qr/run-experiment: (crossovers, )?predictions: \d+\/\d+/);

done_testing();
