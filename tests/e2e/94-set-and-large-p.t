#!/usr/bin/perl
# 94-set-and-large-p.t - two user mistakes get a clear answer
# (docs/commands.md, "Conventions"; docs/model.md, "Values outside the
# program's domain"):
#
#  - --set values outside the program's domain: tests/programs/relax.c
#    (sizes as macros and argv, a grid of n elements, a time-step loop
#    around two parallel sweeps) recorded once; n=-5 and n=0 make its
#    grid's allocation empty or negative and are refused with exit 2 by
#    every command that takes --set, naming n, its value, the array and
#    its line; steps=0 and steps=-3 empty the time-step loop (C runs it
#    zero times): taken, with a warning naming the loop and its line;
#    values that overflow, are out of range or are not integers are
#    refused;
#  - a prediction at a large P: progress on a terminal (script(1)) and
#    none in a file, the estimate line when it is long enough
#    (PERFPRED_ESTIMATE_AFTER_MS lowers the threshold), and Ctrl-C
#    (SIGINT) stops it within two seconds with exit status 130, a message
#    and nothing on stdout (predict: no --csv or --json file; timeline: no
#    -o file and no temporary one).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG);
use Time::HiRes qw(time sleep);
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-setp-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $PP  = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE PERFPRED_ESTIMATE_AFTER_MS)};

my ($rc, $out, $err) = run_in($TMP, "gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so tests/programs/relax.c "
                                  . "-o $TMP/relax -L$B -l:libperfpred-rt.a");
is($rc, 0, 'relax.c builds with the plugin') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/relax.ppr OMP_NUM_THREADS=2 $TMP/relax 20000 6");
is($rc, 0, 'relax 20000 6 records') or BAIL_OUT($err);
my $mach = hand_machine("$TMP/hand.machine");
my $rec  = "$TMP/relax.ppr";

# the source lines the messages must name
open my $src, '<', 'tests/programs/relax.c' or die "relax.c: $!";
my ($l_alloc, $l_steps);
while (<$src>) {
    $l_alloc //= $. if /double \*u = malloc/;
    $l_steps //= $. if /for \(int t = 0; t < steps/;
}
close $src;
ok($l_alloc && $l_steps, "relax.c: the allocation (line $l_alloc) and the time-step loop (line $l_steps)");

# --- values outside the domain -------------------------------------------
my $M = "--machine $mach";
my %cmds = (
    show        => '',
    predict     => "$M --P 4",
    scale       => "$M --scale n --P 2,4 --E 0.2",
    graph       => "--P 2 -o $TMP/g.svg",
    equations   => $M,
    sensitivity => "$M --P 2",
    timeline    => "$M --P 2 -o $TMP/t.json",
    report      => "$M -o $TMP/rep",
    validate    => "$M --point n=100,P=2",
);
for my $c (sort keys %cmds) {
    ($rc, $out, $err) = run_in($TMP, "$PP $c $rec --set n=-5 $cmds{$c}");
    is($rc, 2, "$c --set n=-5: exit 2");
    like($err, qr/^perfpred \Q$c\E: --set n=-5 makes the size in bytes of the array 'u' \(malloc at relax\.c:$l_alloc in main\) 8\*n = -40: an array's size must be positive/m,
         "$c --set n=-5: names n, its value, the array and its line") or diag($err);
    is(scalar(() = $err =~ /^perfpred \Q$c\E:/mg), 1, "$c --set n=-5: one error line");
}
ok(!-e "$TMP/g.svg" && !-e "$TMP/t.json" && !-e "$TMP/rep", 'no output file for a refused --set');

($rc, $out, $err) = run_in($TMP, "$PP predict $rec $M --set n=0");
is($rc, 2, '--set n=0: exit 2 (the grid would be empty)');
like($err, qr/--set n=0 makes the size in bytes of the array 'u' .* = 0: an array's size must be positive/, '--set n=0: why');

($rc, $out, $err) = run_in($TMP, "$PP validate $rec $M --point n=100,P=2 --point n=-5,P=2");
is($rc, 2, 'validate --point n=-5: exit 2, before any run');
like($err, qr/--point n=-5 makes the size in bytes of the array 'u'/, 'validate --point: the point that breaks it')
    or diag($err);

($rc, $out, $err) = run_in($TMP, "$PP sensitivity $rec $M --P 2 --along n=1000,-5");
is($rc, 2, 'sensitivity --along n=1000,-5: exit 2');
like($err, qr/--along n=-5 makes the size in bytes of the array 'u'/, 'sensitivity --along: the value that breaks it');

# a loop bound: zero or negative empties the loop, as C does
($rc, my $base) = run_in($TMP, "$PP predict $rec $M --P 2 --draws 0 --format json");
is($rc, 0, 'predict at the recorded size');
my %empty;
for my $v (0, -3) {
    ($rc, $out, $err) = run_in($TMP, "$PP predict $rec $M --P 2 --draws 0 --format json --set steps=$v");
    is($rc, 0, "--set steps=$v: taken (exit 0)") or diag($err);
    like($err, qr/^perfpred: warning: --set steps=\Q$v\E empties loop main:L\d+ \(relax\.c:$l_steps\): it runs zero times/m,
         "--set steps=$v: says which loop it empties") or diag($err);
    my ($t) = $out =~ /"real":([0-9.e+-]+)/;
    my ($t0) = $base =~ /"real":([0-9.e+-]+)/;
    ok(defined $t && defined $t0 && $t < $t0, "--set steps=$v: T_real without the sweeps ($t < $t0 s)");
    $empty{$v} = $t;
}
is($empty{0}, $empty{-3}, 'steps=-3 is steps=0 (the loop runs zero times either way)');
($rc, $out, $err) = run_in($TMP, "$PP show $rec --set n=2");
is($rc, 0, '--set n=2: taken');
like($err, qr/--set n=2 empties loops main\._omp_fn\.\d+:L0 \(relax\.c:\d+\), main\._omp_fn\.\d+:L0 \(relax\.c:\d+\): they run zero times/,
     '--set n=2: the two parallel sweeps are empty (n - 2 iterations)') or diag($err);
($rc, $out, $err) = run_in($TMP, "$PP show $rec --set steps=6");
unlike($err, qr/empties/, 'the recorded values empty nothing');

# values that overflow, out of range, not integers
($rc, $out, $err) = run_in($TMP, "$PP predict $rec $M --set n=1152921504606846976");
is($rc, 2, '--set n=2^60: exit 2');
like($err, qr/--set n=1152921504606846976 overflows the size in bytes of the array 'u' \(malloc at relax\.c:$l_alloc in main\): 8\*n is beyond 64 bits/,
     '--set n=2^60: the allocation overflows');
($rc, $out, $err) = run_in($TMP, "$PP predict $rec $M --set n=99999999999999999999");
is($rc, 2, '--set n=10^20: exit 2');
like($err, qr/--set n=99999999999999999999: the value is out of range/, '--set n=10^20: out of range');
($rc, $out, $err) = run_in($TMP, "$PP show $rec --set n=1.5");
is($rc, 2, '--set n=1.5: exit 2');
like($err, qr/--set n=1\.5: '1\.5' is not an integer/, '--set n=1.5: not an integer');

# --- a large P -------------------------------------------------------------
plan skip_all => 'script(1) is not installed (util-linux)' if system('command -v script >/dev/null 2>&1') != 0;
sub quote { my ($s) = @_; $s =~ s/'/'\\''/g; return "'$s'" }
# a few seconds here (under the sanitizers, about four times slower: less).
# relax's team members walk as one segment per class (docs/model.md, "The
# walk in segments"), which takes well under a second at any P: the
# predictions of this part unroll and walk every member
# (PERFPRED_FULL_WALK=1), as a program whose threads all differ would.
my $BIG = $SAN ? 3000 : 10000;
my $big = "env PERFPRED_FULL_WALK=1 $PP predict $rec $M --P $BIG";
# (a threshold of 0: the counter from the start, however fast the host)
my ($trc, $tty) = run_in($TMP, "script -qec " . quote("env PERFPRED_ESTIMATE_AFTER_MS=0 $big >$TMP/tty.out") . " /dev/null");
is($trc, 0, "predict --P $BIG, stderr on a terminal: exit 0") or diag($tty);
like($tty, qr/\rpredict: P=$BIG: walk \d+\/\d+, (unrolling|walking)/, "predict --P $BIG: progress on a terminal");
($rc, $out, $err) = run_in($TMP, "env PERFPRED_ESTIMATE_AFTER_MS=200 $big");
is($rc, 0, "predict --P $BIG, stderr into a file: exit 0");
unlike($err, qr/\r|walk \d+\//, 'no progress counter when stderr is not a terminal');
like($err, qr/^predict: about \d+ (s|min) for P=$BIG \(\d+ walks of the thread graph of $BIG threads\)$/m,
     'the estimate line (threshold 200 ms)') or diag($err);
is(scalar(() = $err =~ /^predict: about/mg), 1, 'one estimate line');
my $tout = do { local $/; open my $f, '<', "$TMP/tty.out" or die; <$f> // '' };
is($tout, $out, 'stdout the same either way');
($rc, $out, $err) = run_in($TMP, "$PP predict $rec $M --P 4");
unlike($err, qr/^predict: about|\r/m, 'a short prediction: no estimate, no progress');

# Ctrl-C: within two seconds, exit 130, a message, nothing on stdout
my $pid = fork() // die "fork: $!";
if (!$pid) {
    open STDOUT, '>', "$TMP/int.out" or die;
    open STDERR, '>', "$TMP/int.err" or die;
    $ENV{PERFPRED_FULL_WALK} = 1;
    exec "$PP predict $rec $M --P 200000 --csv $TMP/int.csv --json $TMP/int.json" or die;
}
sleep 1.5;
my $t0 = time;
kill 'INT', $pid;
my $got = 0;
while (time - $t0 < 10 && !($got = waitpid($pid, WNOHANG))) { sleep 0.05 }
my $took = time - $t0;
if (!$got) { kill 'KILL', $pid; waitpid($pid, 0) }
ok($got && $took < 2, sprintf('SIGINT stops predict --P 200000 in %.2f s', $took));
is($? >> 8, 130, 'exit status 130');
my $ierr = do { local $/; open my $f, '<', "$TMP/int.err" or die; <$f> // '' };
like($ierr, qr/^perfpred predict: interrupted \(SIGINT\) at P=200000: stopped, nothing more written$/m, 'the message');
is(-s "$TMP/int.out", 0, 'nothing on stdout (no partial output)');
ok(!-e "$TMP/int.csv" && !-e "$TMP/int.json", 'no --csv or --json file');

# the same for timeline, which writes -o: no file, no temporary file left
$pid = fork() // die "fork: $!";
if (!$pid) {
    open STDOUT, '>', "$TMP/int.out" or die;
    open STDERR, '>', "$TMP/int.err" or die;
    exec "$PP timeline $rec $M --P 200000 -o $TMP/big.json" or die;
}
sleep 1.5;
$t0 = time;
kill 'INT', $pid;
$got = 0;
while (time - $t0 < 10 && !($got = waitpid($pid, WNOHANG))) { sleep 0.05 }
$took = time - $t0;
if (!$got) { kill 'KILL', $pid; waitpid($pid, 0) }
ok($got && $took < 2, sprintf('SIGINT stops timeline --P 200000 in %.2f s', $took));
is($? >> 8, 130, 'timeline: exit status 130');
$ierr = do { local $/; open my $f, '<', "$TMP/int.err" or die; <$f> // '' };
like($ierr, qr/^perfpred timeline: interrupted \(SIGINT\) at P=200000/m, 'timeline: the message');
is_deeply([glob("$TMP/big.json*")], [], 'timeline: no -o file, no temporary file');

done_testing();
