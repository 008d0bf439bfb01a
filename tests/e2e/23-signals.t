#!/usr/bin/perl
# 23-signals.t - a recorded program that dies of a signal (runtime/rt-signal.c):
# each fatal signal raised by the program mid-run, sent from outside while
# it runs, abort(), a real segfault and division by zero.  The program must
# die as the plain build does (same wait status, core dump bit included),
# and leave a record marked `incomplete signal=N name=SIG...` that keeps the
# format invariants, with the loops it finished; the analyser refuses it
# (exit 2, naming the file and the signal) unless --allow-incomplete.  A
# program with its own SIGTERM handler keeps its behaviour; SIGKILL and
# PERFPRED_SIGNALS=0 leave no record; a writer stuck on a lock another
# thread held is ended and another forked; one stuck on a lock the
# signalled thread holds (abort() inside free()) is ended by its time
# bound.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use POSIX qw(:sys_wait_h);
use Time::HiRes ();
use lib "$FindBin::Bin/lib";
use PPStress qw(build_pair run_prog wait_desc record_ok show_loops line_of sh_quote);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $pp = "$B/perfpred";
my $tmp = tempdir('pp-sig-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $san = ($ENV{SANITIZE} // '') eq '1' ? '-fsanitize=address,undefined' : '';
# AddressSanitizer would take SIGSEGV, SIGBUS and SIGFPE for itself (and
# exit 1): leave them to the program, as in the plain build
my %env0 = $san ? (ASAN_OPTIONS => 'handle_segv=0:handle_sigbus=0:handle_sigfpe=0:detect_leaks=0') : ();

my ($okb, $log) = build_pair($B, 'tests/stress/sig-loop.c', "$tmp/sig-loop", '-pthread', $san);
ok($okb, 'sig-loop builds with the plugin and plainly') or BAIL_OUT($log);
my $P = "$tmp/sig-loop";
my $N = 200000;
my $main_line = line_of('tests/stress/sig-loop.c', 'main');

# the record of a run killed by SIG (number): marked, consistent, readable
# with --allow-incomplete only, main's loop complete
sub check_incomplete {
    my ($what, $rec, $sig) = @_;
    ok(-s $rec, "$what: record written") or return;
    my ($r, @e) = record_ok($rec);
    ok(!@e, "$what: record invariants") or diag(join("\n", grep { defined } @e[0 .. 10]));
    my ($inc) = grep { /^incomplete / } @{ $r->{lines} };
    like($inc // '', qr/^incomplete signal=$sig name=SIG[A-Z0-9]+$/, "$what: marked incomplete, signal $sig");
    my @left = glob("$rec.tmp.*");
    is("@left", '', "$what: no temporary file left");
    my $out = `$pp show $rec 2>&1 >/dev/null`;
    my $rc = $? >> 8;
    ok($rc == 2 && $out =~ /\Q$rec\E: incomplete record: the program was killed by signal $sig \(SIG\w+\)/,
       "$what: the analyser refuses it (exit 2, file and signal named)") or diag("exit $rc: $out");
    my ($loops, $err) = show_loops($pp, $rec, $tmp, '--allow-incomplete');
    ok($loops && $err =~ /warning: \Q$rec\E: incomplete record/, "$what: --allow-incomplete reads it, with a warning")
        or diag($err);
    is(($loops->{$main_line} // [])->[0], $N, "$what: main's loop complete in the record") if $loops;
}

use Config;
my %num;
my @names = split ' ', $Config{sig_name};
my @nums = split ' ', $Config{sig_num};
@num{@names} = @nums;

# ---------------------------------------------------------------- raised by the program
for my $s (qw(ABRT SEGV BUS FPE ILL TERM INT HUP QUIT)) {
    my $sig = $num{$s};
    my $rec = "$tmp/raise-$s.ppr";
    my ($st, $out) = run_prog($tmp, { %env0, PERFPRED_RECORD => $rec }, "$P $sig $N 3");
    my ($pst, $pout) = run_prog($tmp, \%env0, "$P.plain $sig $N 3");
    is(wait_desc($st), wait_desc($pst), "raise SIG$s: dies as the plain build (" . wait_desc($pst) . ")");
    is($out, $pout, "raise SIG$s: output");
    check_incomplete("raise SIG$s", $rec, $sig);
}

# ---------------------------------------------------------------- faults and abort()
for my $m (['abort', 'ABRT'], ['segv', 'SEGV'], ['fpe', 'FPE']) {
    my ($mode, $s) = @$m;
    my $rec = "$tmp/$mode.ppr";
    my ($st, $out) = run_prog($tmp, { %env0, PERFPRED_RECORD => $rec }, "$P $mode $N 3");
    my ($pst, $pout) = run_prog($tmp, \%env0, "$P.plain $mode $N 3");
    is(wait_desc($st), wait_desc($pst), "$mode: dies as the plain build (" . wait_desc($pst) . ")");
    is($out, $pout, "$mode: output");
    check_incomplete($mode, $rec, $num{$s});
}

# a core dump as before (when core files can be written here)
SKIP: {
    my $cp = `cat /proc/sys/kernel/core_pattern 2>/dev/null` // '';
    skip "core_pattern is '$cp' (not a plain file name)", 2 unless $cp =~ /^core/;
    # AddressSanitizer turns core dumps off itself (disable_coredump=1)
    skip 'AddressSanitizer build: ASan disables core dumps', 2 if $san;
    mkdir "$tmp/core";
    my $rec = "$tmp/core/c.ppr";
    my ($st) = run_prog("$tmp/core", { %env0, PERFPRED_RECORD => $rec },
                        "sh -c " . sh_quote("ulimit -c unlimited 2>/dev/null; cd $tmp/core && exec $P segv $N 1"));
    my ($pst) = run_prog("$tmp/core", \%env0,
                         "sh -c " . sh_quote("ulimit -c unlimited 2>/dev/null; cd $tmp/core && exec $P.plain segv $N 1"));
    is(wait_desc($st), wait_desc($pst), 'segv with core dumps allowed: same status, core bit included (' . wait_desc($pst) . ')');
    ok(-s $rec, 'segv with core dumps allowed: record written');
}

# ---------------------------------------------------------------- sent from outside
for my $s (qw(TERM INT HUP QUIT SEGV ABRT)) {
    my $sig = $num{$s};
    my $rec = "$tmp/kill-$s.ppr";
    my @st;
    for my $prog ($P, "$P.plain") {
        local %ENV = (%ENV, %env0);
        delete $ENV{PERFPRED_RECORD};
        $ENV{PERFPRED_RECORD} = $rec if $prog eq $P;
        my $pid = open(my $fh, '-|', $prog, 'wait', $N, 3) or die "run $prog: $!";
        my $ready = 0;
        while (<$fh>) { if (/^ready$/) { $ready = 1; last } }
        kill $sig, $pid if $ready;
        1 while <$fh>;
        close $fh;
        push @st, $?;
    }
    is(wait_desc($st[0]), wait_desc($st[1]), "kill -$s from outside: dies as the plain build (" . wait_desc($st[1]) . ")");
    check_incomplete("kill -$s", $rec, $sig);
}

# ---------------------------------------------------------------- a writer stuck on a lock
# the first writer sleeps with its temporary file open
# (PERFPRED_SIGNAL_TEST_STALL=1), as one stuck on a lock another thread
# held at the fork: the handler ends it (its file removed) and forks another
{
    my $rec = "$tmp/stall.ppr";
    local %ENV = (%ENV, %env0, PERFPRED_RECORD => $rec, PERFPRED_SIGNAL_TEST_STALL => 1);
    my $pid = open(my $fh, '-|', $P, 'wait', $N, 3) or die "run $P: $!";
    my $ready = 0;
    while (<$fh>) { if (/^ready$/) { $ready = 1; last } }
    my $t0 = Time::HiRes::time();
    kill $num{TERM}, $pid if $ready;
    1 while <$fh>;
    close $fh;
    my $st = $?;
    ok($ready && ($st & 127) == $num{TERM}, 'writer stuck: the program dies of SIGTERM (' . wait_desc($st) . ')');
    my $dt = Time::HiRes::time() - $t0;
    # a quarter of a second asleep is stuck: the second writer after it
    ok($dt >= 0.25 && $dt < 8, sprintf('writer stuck: ended after %.2f s, long before the 10 s bound', $dt));
    check_incomplete('writer stuck, the second writer', $rec, $num{TERM});
}

# ---------------------------------------------------------------- the writer's time bound
# abort() inside free(), malloc's lock held: the forked writer deadlocks on
# it and its alarm (PERFPRED_SIGNAL_TIMEOUT=1 s here, 10 s by default) ends
# it; the program still dies of SIGABRT, and no record appears
SKIP: {
    skip 'AddressSanitizer build: ASan reports the double free itself', 4 if $san;
    my $rec = "$tmp/dfree.ppr";
    my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $rec, PERFPRED_SIGNAL_TIMEOUT => 1 },
                                    "timeout -k 5 60 $P dfree 1000 2");
    # under timeout(1) too: it passes the signal on, without the core bit
    my ($pst, $pout, $perr) = run_prog($tmp, {}, "timeout -k 5 60 $P.plain dfree 1000 2");
    is(wait_desc($st), wait_desc($pst), 'abort() with malloc\'s lock held: dies as the plain build ('
       . wait_desc($pst) . ')');
    is($out, $pout, 'abort() with malloc\'s lock held: output');
    is($err, $perr, 'abort() with malloc\'s lock held: stderr (glibc\'s message only)');
    ok(!-e $rec, 'abort() with malloc\'s lock held: the stuck writer renamed nothing');
}

# ---------------------------------------------------------------- the program's own handler
{
    my $rec = "$tmp/own.ppr";
    my ($st, $out) = run_prog($tmp, { %env0, PERFPRED_RECORD => $rec }, "$P own $N 3");
    my ($pst, $pout) = run_prog($tmp, \%env0, "$P.plain own $N 3");
    is(wait_desc($st), wait_desc($pst), "own SIGTERM handler: same status (" . wait_desc($pst) . ")");
    like($out, qr/^own handler$/m, 'own SIGTERM handler: it ran');
    is($out, $pout, 'own SIGTERM handler: output');
    ok(!-e $rec && !glob("$rec.tmp.*"), 'own SIGTERM handler (it calls _exit): no record, as for _exit');
}

# ---------------------------------------------------------------- nothing possible or wanted
{
    my $rec = "$tmp/kill9.ppr";
    local %ENV = (%ENV, %env0, PERFPRED_RECORD => $rec);
    my $pid = open(my $fh, '-|', $P, 'wait', $N, 2) or die;
    while (<$fh>) { last if /^ready$/ }
    kill 'KILL', $pid;
    1 while <$fh>;
    close $fh;
    is(wait_desc($?), 'signal 9', 'SIGKILL: killed');
    ok(!-e $rec && !glob("$rec.tmp.*"), 'SIGKILL: no record (nothing can run), no temporary file');

    $rec = "$tmp/off.ppr";
    my ($st) = run_prog($tmp, { %env0, PERFPRED_RECORD => $rec, PERFPRED_SIGNALS => 0 }, "$P abort $N 2");
    is(wait_desc($st), 'signal 6', 'PERFPRED_SIGNALS=0: abort() as ever');
    ok(!-e $rec, 'PERFPRED_SIGNALS=0: no record');
}

done_testing();
