#!/usr/bin/perl
# 22-stress.t - the runtime under stress, programs compiled with the plugin
# (tests/stress/): 64 pthreads created and joined in waves on the machine's
# cores, OpenMP teams of 64, nested parallel regions, tasks, fork() (a child
# that runs instrumented code, one that execs), exit() from a thread while
# the others run, pthread_exit from main.  Each run must print and exit as
# the plain build does, leave a record that keeps the format invariants
# (tests/runtime/ppr.pl) and that `perfpred show` reads, with the loop
# totals the program executed.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPStress qw(build_pair run_prog wait_desc record_ok show_loops line_of);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $pp = "$B/perfpred";
my $tmp = tempdir('pp-stress-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $san = ($ENV{SANITIZE} // '') eq '1' ? '-fsanitize=address,undefined' : '';

my %bin;
for my $p (qw(stress-pthread stress-omp stress-fork)) {
    my ($ok, $log) = build_pair($B, "tests/stress/$p.c", "$tmp/$p", '-fopenmp -pthread', $san);
    ok($ok, "$p builds with the plugin and plainly") or diag($log);
    $bin{$p} = "$tmp/$p" if $ok;
}

# Run the instrumented and the plain build with ARGS; same output and wait
# status, record invariants, and the loops `show` reads.  Returns the loops.
sub stress {
    my ($what, $p, $args, %o) = @_;
    my $rec = "$tmp/$what.ppr";
    unlink $rec;
    my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $rec, %{ $o{env} // {} } }, "$bin{$p} $args");
    my ($pst, $pout) = run_prog($tmp, $o{env} // {}, "$bin{$p}.plain $args");
    is(wait_desc($st), wait_desc($pst), "$what: wait status as the plain build's (" . wait_desc($pst) . ")");
    is($out, $pout, "$what: output as the plain build's") or diag($err);
    like($err, qr/\A(perfpred-rt: [^\n]*\n)?\z/, "$what: nothing else on stderr") or diag($err)
        if !$o{stderr_any};
    my ($r, @e) = record_ok($rec);
    ok(!@e, "$what: record invariants") or diag(join("\n", grep { defined } @e[0 .. 15]));
    my ($loops, $serr) = show_loops($pp, $rec, $tmp);
    ok($loops, "$what: perfpred show reads the record") or diag($serr);
    return ($loops // {}, $r, $out);
}

sub line { line_of("tests/stress/$_[0].c", $_[1]) }
# the iterations of the loop at the marker (a single loop at that line)
sub iters {
    my ($l, $p, $m) = @_;
    my $v = $l->{line($p, $m)} // [];
    return @$v == 1 ? $v->[0] : "loops at that line: @$v";
}

SKIP: {
    skip 'stress-pthread did not build', 1 unless $bin{'stress-pthread'};
    # 3 waves of 64 threads: thread i runs (i+1)*N iterations
    my ($W, $T, $N) = (3, 64, 1000);
    my ($l, $r) = stress('waves', 'stress-pthread', "waves $W $T $N");
    is(iters($l, 'stress-pthread', 'work'), $W * $N * $T * ($T + 1) / 2, 'waves: loop total over 192 threads');
    is(scalar keys %{$r->{threads}}, 1 + $W * $T, 'waves: every thread in the record');

    # exit(5) from thread K (after its loop) while the others spin
    my ($K, $n) = (3, 20000);
    ($l, $r) = stress('exit-from-thread', 'stress-pthread', "exit 8 $n $K");
    my $done = $n * ($K + 1) * ($K + 2) / 2;
    my $got = iters($l, 'stress-pthread', 'work');
    ok($got >= $n * ($K + 1) && $got <= $n * 36, "exit from a thread: loop total $got within what ran")
        or diag("thread $K alone ran " . $n * ($K + 1));
    is(scalar keys %{$r->{threads}}, 9, 'exit from a thread: main and 8 threads in the record');

    # pthread_exit in main: the last thread ends the process, status 0
    ($l, $r) = stress('main-pthread-exit', 'stress-pthread', "mainexit 8 $N");
    is(iters($l, 'stress-pthread', 'work'), $N * 36, 'pthread_exit from main: loop total of the 8 threads');
    ok(grep({ $_->{kind} eq 'main' } values %{$r->{threads}}), 'pthread_exit from main: main in the record');
}

SKIP: {
    skip 'stress-omp did not build', 1 unless $bin{'stress-omp'};
    my $N = 100000;
    my ($l, $r) = stress('omp-64', 'stress-omp', "many 64 $N");
    is(iters($l, 'stress-omp', 'pfor'), $N, 'omp 64 threads: parallel loop total');
    is(iters($l, 'stress-omp', 'each'), 64 * $N, 'omp 64 threads: per-thread loop total');
    is(scalar keys %{$r->{threads}}, 64, 'omp 64 threads: 64 threads in the record');

    my ($A, $Bt, $n) = (4, 4, 10000);
    ($l, $r, my $out) = stress('omp-nested', 'stress-omp', "nested $A $Bt $n");
    like($out, qr/^levels 1 /, 'nested: the inner regions really are nested teams');
    is(iters($l, 'stress-omp', 'inner'), $A * $Bt * $n, 'nested: loop total over the inner threads');
    # a dynamic loop is two at its line: chunks, then iterations
    my @wl = @{ $l->{line('stress-omp', 'innerfor')} // [] };
    ok(@wl == 2 && grep({ $_ == $A * $n } @wl), 'nested: worksharing loop once per inner team') or diag("@wl");
    is(scalar keys %{$r->{threads}}, $A * $Bt, 'nested: one record thread per OpenMP thread');
    # also with OMP_MAX_ACTIVE_LEVELS from the environment
    ($l) = stress('omp-nested-env', 'stress-omp', "nested 3 2 $n", env => { OMP_MAX_ACTIVE_LEVELS => 2 });
    is(iters($l, 'stress-omp', 'inner'), 6 * $n, 'nested (OMP_MAX_ACTIVE_LEVELS=2): loop total');

    my ($K, $m) = (100, 1000);
    ($l) = stress('omp-tasks', 'stress-omp', "tasks 8 $K $m");
    is(iters($l, 'stress-omp', 'task'), $K * $m, 'tasks: loop total over 100 tasks');
}

SKIP: {
    skip 'stress-fork did not build', 1 unless $bin{'stress-fork'};
    my $N = 100000;
    mkdir "$tmp/fork";
    my $rec2 = "$tmp/fork/exec.ppr";
    my ($l, $r, $out) = stress('fork/fork', 'stress-fork', "run $N $rec2");
    like($out, qr/ child 7 exec 0$/m, 'fork: the child ran instrumented code and a thread, the exec worked');
    # the parent's four threads only: the child's loops are not the parent's
    is(iters($l, 'stress-fork', 'work'), 4 * $N, "fork: the record is the parent's (child's loops not in it)");
    my @left = grep { !/\/(fork|exec)\.ppr$/ } glob("$tmp/fork/*");
    is("@left", '', 'fork: no other record or temporary file');
    my ($r2, @e) = record_ok($rec2);
    ok(!@e, "fork+exec: the exec'd program's own record keeps the invariants") or diag("@e");
    my ($pid1) = ($r->{program} // '') =~ / pid=(\d+)/;
    my ($pid2) = ($r2->{program} // '') =~ / pid=(\d+)/;
    ok($pid1 && $pid2 && $pid1 != $pid2, 'fork+exec: two processes, two records');
    my ($l2) = show_loops($pp, $rec2, $tmp);
    is(iters($l2 // {}, 'stress-fork', 'work'), $N, "fork+exec: the exec'd program's loop");
}

done_testing();
