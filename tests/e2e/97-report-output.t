#!/usr/bin/perl
# 97-report-output.t - what `make report` prints when its output goes to a
# file, and the warning of a machine file measured on a busy host
# (docs/machine-format.md, "Busy host"; docs/report.md).
#
#  - the machine file's busy keys (busy, busy.load, busy.COST) are read, and
#    bad ones are refused with the file and line;
#  - a machine file marked busy: `perfpred predict` warns on stderr (text,
#    CSV and JSON alike), --format json has the field "machine_busy", the
#    text and CSV start with the warning (98-calibrate-honest.t checks the
#    first lines) and after it are those of an unmarked file, and
#    `perfpred report` puts a warning box above the contents of index.html
#    and report.md; an unmarked file gives none of it;
#  - calibrate: the file says busy = 1 exactly when calibrate warned that the
#    host was busy;
#  - tools/make-report with one sample (PERFPRED_REPORT_SAMPLES=ge_omp,
#    quick mode, the busy machine file given by PERFPRED_REPORT_MACHINE)
#    and its output into a file (`> log 2>&1`): a plain progress line per
#    step (no carriage return), then the index page's path and the summary
#    line with the busy-host warning; after a failure, the summary says so;
#    on a terminal (script(1)) the lines are "[  0.1s] STEP".
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
for my $f ("$B/perfpred", "$B/perfpred.so", "$B/libperfpred-rt.a") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
plan skip_all => 'gnuplot is not installed (apt-get install -y gnuplot-nox)'
    if system('command -v gnuplot >/dev/null 2>&1') != 0;
my $TMP = tempdir('pp-repout-XXXXXX', TMPDIR => 1, CLEANUP => 1);
# Graphviz and fontconfig keep caches they never free (SANITIZE=1)
open my $sup, '>', "$TMP/lsan.supp" or die;
print $sup "leak:libgvc.so\nleak:libfontconfig.so\nleak:libcgraph.so\nleak:libpango\nleak:libcairo\n";
close $sup;
$ENV{LSAN_OPTIONS} = "suppressions=$TMP/lsan.supp:print_suppressions=0";
my $PP = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE PERFPRED_GNUPLOT)};
for (grep { /^PERFPRED_REPORT_/ } keys %ENV) { delete $ENV{$_} }
sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or return ''; my $s = <$h>; return $s // '' }

my ($rc, $out, $err) = run_in($TMP, "gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so samples/ge_omp.c -o $TMP/ge "
                                  . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'ge_omp builds with the plugin') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/ge.ppr OMP_NUM_THREADS=2 $TMP/ge 64");
is($rc, 0, 'ge_omp 64 records') or BAIL_OUT($err);

# ---------------------------------------------------------------- machine files
my $busy = hand_machine("$TMP/busy.machine",
                        header => "busy = 1\nbusy.load = 2.35\nbusy.barrier.omp = 0.12 4.1\n"
                                . "busy.mutex.handoff = 0.05 2   # a comment\n");
my $bare = hand_machine("$TMP/bare.machine", header => "busy = 1\n");        # busy, nothing more known
my $half = hand_machine("$TMP/half.machine", header => "busy = 1\nbusy.thread.join = 0.6 40\n");
my $idle = hand_machine("$TMP/idle.machine");
my $zero = hand_machine("$TMP/zero.machine", header => "busy = 0\nbusy.barrier.omp = 0.1 3.5\n");

my %bad = (
    'busy = 2'                      => qr/busy: 2 out of range \[0, 1\]/,
    'busy = yes'                    => qr/busy: not an integer: 'yes'/,
    'busy.load = -1'                => qr/busy\.load: negative value/,
    'busy.barrier.omp = 1.5 4'      => qr/busy\.barrier\.omp: share '1\.5' is above 1/,
    'busy.barrier.omp = 0.1 0.5'    => qr/busy\.barrier\.omp: factor '0\.5' must be 0 \(unknown\) or from 1/,
    'busy.barrier.omp = 0.1'        => qr/busy\.barrier\.omp: expected 'SHARE FACTOR'/,
    'busy.barrier.omp = 0.1 2 3'    => qr/busy\.barrier\.omp: expected 'SHARE FACTOR'/,
    'busy.barrier.omp = x 2'        => qr/busy\.barrier\.omp: not a number: 'x'/,
    "busy = 1\nbusy = 1"            => qr/duplicate key 'busy'/,
    "busy.mutex.lock = 0.1 2\nbusy.mutex.lock = 0.2 2" => qr/duplicate key 'busy\.mutex\.lock'/,
);
my $i = 0;
for my $h (sort keys %bad) {
    my $f = hand_machine("$TMP/bad$i.machine", header => "$h\n");
    $i++;
    (my $what = $h) =~ s/\n/; /g;
    ($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $f --P 2");
    is($rc, 2, "bad busy key ($what): refused (exit 2)");
    like($err, qr/\Q$f\E:\d+: .*$bad{$h}/, "... naming the file, the line and what is wrong") or diag($err);
}
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine " . hand_machine("$TMP/unk.machine",
                                  header => "busy.nosuch = 0.1 2\n") . " --P 2");
is($rc, 0, 'an unknown busy.* key is ignored, as unknown keys are');
like($err, qr/unknown key 'busy\.nosuch' ignored/, '... with a warning');

# ---------------------------------------------------------------- predict
my $warn = qr/^perfpred predict: warning: \Q$busy\E was calibrated on a busy host \(load average 2\.35 on 2 processors\): (.*)$/m;
for my $fmt (qw(text csv json)) {
    my ($brc, $bout, $berr) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $busy --set N=256 --P 2,4 --format $fmt");
    is($brc, 0, "predict --format $fmt, busy machine: exit 0") or diag($berr);
    like($berr, $warn, "... the busy-host warning on stderr");
    my ($why) = $berr =~ $warn;
    like($why // '', qr/off by up to 3x .*barrier\.omp: 12% of its samples, up to 4\.1x; mutex\.handoff: 5% of its samples, up to 2\.0x/,
         '... saying which costs were disturbed and by how much');
    is(scalar(() = $berr =~ /busy host/g), 1, '... once');
    my ($irc, $iout, $ierr) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $idle --set N=256 --P 2,4 --format $fmt");
    is($irc, 0, "predict --format $fmt, unmarked machine: exit 0") or diag($ierr);
    unlike($ierr, qr/busy/, '... no busy-host warning');
    if ($fmt eq 'json') {
        my $bj = eval { decode_json($bout) } || [];
        my $ij = eval { decode_json($iout) } || [];
        is(scalar(@$bj), 2, 'json: one object per P');
        my $mb = $bj->[0]{machine_busy} || {};
        is($mb->{load}, 2.35, 'json: machine_busy.load');
        is($mb->{cores}, 2, 'json: machine_busy.cores');
        is($mb->{off_by_up_to}, 3, 'json: machine_busy.off_by_up_to');
        is($mb->{max_factor}, 4.1, 'json: machine_busy.max_factor');
        is(join(' ', map { "$_->{cost}=$_->{share}/$_->{factor}" } @{ $mb->{disturbed} || [] }),
           'barrier.omp=0.12/4.1 mutex.handoff=0.05/2', 'json: machine_busy.disturbed');
        like($mb->{warning} // '', qr/busy host/, 'json: machine_busy.warning');
        ok($bj->[1]{machine_busy}, 'json: in every object');
        ok(!grep({ exists $_->{machine_busy} } @$ij), 'json, unmarked machine: no machine_busy field');
    } else {
        # the first line is the warning (a CSV comment in CSV); the tables
        # after it do not change (the numbers are the same machine's; the
        # text names the file)
        like($bout, qr/\A(# )?warning: \Q$busy\E was calibrated on a busy host/, "$fmt: the first line is the warning");
        $bout =~ s/\A[^\n]*\n//;
        $bout =~ s/\Q$busy\E/MACHINE/g;
        $iout =~ s/\Q$idle\E/MACHINE/g;
        is($bout, $iout, "$fmt: stdout the same as with the unmarked file");
    }
}
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $bare --P 2 --format json");
is($rc, 0, 'busy = 1 alone: exit 0') or diag($err);
like($err, qr/calibrated on a busy host \(load average not recorded\).*too high, by how much the file does not record/,
     '... the warning says what is not known');
my $bj = eval { decode_json($out) } || {};
ok(exists $bj->{machine_busy}{off_by_up_to} && !defined $bj->{machine_busy}{off_by_up_to}, '... off_by_up_to is null');
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $half --P 2");
like($err, qr/off by more than 3x \(over half of some cost's samples were disturbed, up to 40x slower: thread\.join: 60%/,
     'over half of a cost disturbed: more than 3x');
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $zero --P 2 --format json");
is($rc, 0, 'busy = 0 with disturbed samples: exit 0') or diag($err);
unlike($err, qr/busy host/, '... no warning (the host was not busy)');
unlike($out, qr/machine_busy/, '... no machine_busy field');

# ---------------------------------------------------------------- report
for my $m ([busy => $busy], [idle => $idle]) {
    my ($name, $f) = @$m;
    ($rc, $out, $err) = run_in($TMP, "$PP report $TMP/ge.ppr --machine $f --set N=256 --P 1,2,4 -o $TMP/rep-$name");
    is($rc, 0, "report, $name machine: exit 0") or diag($err);
    my $html = slurp("$TMP/rep-$name/index.html");
    my $md = slurp("$TMP/rep-$name/report.md");
    if ($name eq 'busy') {
        like($html, qr{<div class="warning" role="alert"><strong>Warning:</strong> <strong>The machine file was measured on a busy host\.</strong> \Q$busy\E was calibrated on a busy host \(load average 2\.35 on 2 processors\)[^<]*barrier\.omp: 12% of its samples, up to 4\.1x[^<]*</div>\n<nav>},
             'index.html: the warning box, above the contents, with the disturbed costs');
        like($md, qr/^> \*\*Warning:\*\* \*\*The machine file was measured on a busy host\.\*\* .*barrier\.omp: 12%.*\n\nContents:/m,
             'report.md: the warning above the contents');
        like($err, qr/^perfpred report: warning: \Q$busy\E was calibrated on a busy host/m, 'report: the warning on stderr too');
    } else {
        unlike($html, qr/class="warning"|busy host/, 'index.html, unmarked machine: no warning');
        unlike($md, qr/Warning:\*\*|busy host/, 'report.md, unmarked machine: no warning');
    }
}

# ---------------------------------------------------------------- calibrate
($rc, $out, $err) = run_in($TMP, "$PP calibrate --quick --max-threads 2 -o $TMP/cal.machine");
is($rc, 0, 'calibrate --quick: exit 0') or diag($err);
my $cal = slurp("$TMP/cal.machine");
my $marked = $cal =~ /^busy = 1$/m ? 1 : 0;
is($marked, $err =~ /calibrate: warning: the host (is|was) busy/ ? 1 : 0,
   "calibrate: busy = 1 in the file exactly when it warned (here: $marked)") or diag($err);
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ge.ppr --machine $TMP/cal.machine --P 2");
is($rc, 0, 'its machine file reads back') or diag($err);
is($err =~ /calibrated on a busy host/ ? 1 : 0, $marked, '... and predict warns exactly when it is marked busy');

# ---------------------------------------------------------------- make-report
my $rout = "$TMP/mr";
my $env = "PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_SAMPLES=ge_omp PERFPRED_REPORT_MACHINE=$busy "
        . "PERFPRED_REPORT_DIR=$rout";
my $t0 = time;
$rc = system("env $env tools/make-report >$TMP/log 2>&1") >> 8;
note(sprintf('make-report (ge_omp, quick) took %d s', time - $t0));
my $log = slurp("$TMP/log");
is($rc, 0, 'make-report, one sample, output into a file: exit 0') or diag($log);
unlike($log, qr/\r/, '... no carriage return');
my @lines = split /\n/, $log;
my @bad = grep { !/^report: / } @lines;
is(scalar(@bad), 0, '... every line is a report: line') or diag(join("\n", @bad));
for my $step ('calibrate: using', 'ge_omp: compile', 'ge_omp: run at the reduced size', 'ge_omp: show, graph',
              'pages', 'ge_omp: plots', 'ge_omp: page \(perfpred report\)',
              "ge_omp: page written: \Q$rout\E/ge_omp/index.html \\(tables at P=", 'wrote ') {
    like($log, qr/^report: \[\d+(\.\d)?s\] $step/m, "progress: $step");
}
like($log, qr/^report: \[[\d.]+s\] calibrate: warning: host\.machine was calibrated on a busy host \(load average 2\.35\)/m,
     'progress: the busy-host warning when the machine file is read');
is($lines[-2] // '', "report: index: $rout/index.html", 'the index page, next to last');
ok(-s "$rout/index.html", '... which exists');
like($lines[-1] // '', qr/^report: done: 1 program, 1 report written, 0 failed, [\d.]+ s; warning: host\.machine was calibrated on a busy host \(load average 2\.35\): times on the real machine may be too high$/,
     'the summary line, last, with the busy-host warning');
like(slurp("$rout/ge_omp/index.html"), qr/<div class="warning" role="alert">/, "the sample's page has the warning box");
like(slurp("$rout/index.md"), qr/measured on a busy host \(load average 2\.35\)/, 'index.md says the machine file was busy');

# a failure: the summary says so (stdout), the error is on stderr
my $badm = hand_machine("$TMP/badm.machine", header => "busy = 3\n");
($rc, $out, $err) = run_in($TMP, "env PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_SAMPLES=ge_omp "
                                  . "PERFPRED_REPORT_MACHINE=$badm PERFPRED_REPORT_DIR=$TMP/mr2 tools/make-report");
is($rc, 1, 'make-report with a bad machine file: exit 1');
like($err, qr/^make-report: ge_omp: page failed/m, '... the failing step on stderr');
like($out, qr/\nreport: FAILED: 1 program, 0 reports written, 1 failed \(stopped at the first failure: its error is above\), [\d.]+ s\n\z/,
     '... and the summary, last on stdout');

# on a terminal: "[  0.1s] STEP" lines and the same summary
SKIP: {
    skip 'script(1) is not installed (util-linux)', 2 if system('command -v script >/dev/null 2>&1') != 0;
    my $cmd = "env PERFPRED_BUILD=$B PERFPRED_REPORT_QUICK=1 PERFPRED_REPORT_SAMPLES=ge_omp "
            . "PERFPRED_REPORT_MACHINE=$badm PERFPRED_REPORT_DIR=$TMP/mr3 tools/make-report 2>/dev/null";
    $cmd =~ s/'/'\\''/g;
    my ($trc, $tty) = run_in($TMP, "script -qec '$cmd' /dev/null");
    like($tty, qr/^\[ *[\d.]+s\] ge_omp: compile/m, 'on a terminal: [time] STEP lines');
    like($tty, qr/^report: FAILED: 1 program/m, 'on a terminal: the summary');
}
done_testing();
