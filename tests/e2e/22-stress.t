#!/usr/bin/perl
# 22-stress.t - the runtime under stress, programs compiled with the plugin
# (tests/stress/): 64 pthreads created and joined in waves on the machine's
# cores, OpenMP teams of 64, nested parallel regions, tasks, fork() (a child
# that runs instrumented code, one that execs), exit() from a thread while
# the others run, pthread_exit from main.  Each run must print and exit as
# the plain build does, leave a record that keeps the format invariants
# (tests/runtime/ppr.pl) and that `perfpred show` reads, with the loop
# totals the program executed.  Then records that cannot be written: a
# full file system (a small tmpfs, when we may mount one), a read-only
# directory, a path under a missing directory, an MPI rank's record
# directory that cannot be made: one clear message, the program's output
# and exit status unchanged, nothing left behind.
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
    # a hang is a failure, not a stuck suite
    my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $rec, %{ $o{env} // {} } },
                                    "timeout -k 5 120 $bin{$p} $args");
    my ($pst, $pout) = run_prog($tmp, $o{env} // {}, "timeout -k 5 120 $bin{$p}.plain $args");
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
    # main may still be creating threads when thread K exits: those are not
    # in the record, threads 0..K are
    my $nt = scalar keys %{$r->{threads}};
    ok($nt >= $K + 2 && $nt <= 9, "exit from a thread: main and threads 0..$K at least in the record ($nt)");

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
    # GCC 12's AddressSanitizer allocator is not fork-safe: malloc in the
    # child of a threaded program can wait forever for a lock another
    # thread of the parent held at the fork (seen: the child's new thread
    # stuck in asan_malloc).  glibc's malloc is reset by fork().
    skip 'AddressSanitizer build: its allocator can deadlock in a child forked from threads', 1 if $san;
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

# ---------------------------------------------------------------- records that cannot be written
sub unwritable {
    my ($what, $rec, $re, $dir) = @_;
    my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $rec }, "$bin{'stress-pthread'} waves 1 64 10");
    my ($pst, $pout) = run_prog($tmp, {}, "$bin{'stress-pthread'}.plain waves 1 64 10");
    is(wait_desc($st), wait_desc($pst), "$what: exit status unchanged");
    is($out, $pout, "$what: output unchanged");
    like($err, qr{\Aperfpred-rt: cannot write record '\Q$rec\E': $re \(recording lost; the program's result is unaffected\)\n\z},
         "$what: one clear message") or diag($err);
    my @left = $dir ? glob("$dir/*") : ();
    is("@left", '', "$what: nothing left behind") if $dir;
}

SKIP: {
    skip 'stress-pthread did not build', 1 unless $bin{'stress-pthread'};
    unwritable('missing directory', "$tmp/no/such/dir/r.ppr", 'No such file or directory');
    SKIP: {
        my $mnt = "$tmp/small";
        mkdir $mnt;
        # a 16 KiB file system: the record of 65 threads does not fit
        skip 'not root: cannot mount a small tmpfs to fill', 8 if $> != 0;
        skip "cannot mount a tmpfs here", 8
            if system("mount -t tmpfs -o size=16k pp-stress $mnt >/dev/null 2>&1") != 0;
        unwritable('full file system', "$mnt/r.ppr", 'No space left on device', $mnt);
        system("umount $mnt");
        # read-only: as root a mode 0555 directory is still writable
        skip "cannot mount a read-only tmpfs here", 4
            if system("mount -t tmpfs -o ro,size=16k pp-stress $mnt >/dev/null 2>&1") != 0;
        unwritable('read-only file system', "$mnt/r.ppr", 'Read-only file system', $mnt);
        system("umount $mnt");
    }
    SKIP: {
        skip 'root ignores directory permissions (the read-only tmpfs above stands for it)', 4 if $> == 0;
        mkdir "$tmp/ro";
        chmod 0555, "$tmp/ro";
        unwritable('read-only directory', "$tmp/ro/r.ppr", 'Permission denied', "$tmp/ro");
    }
}

# an MPI rank: PERFPRED_RECORD is the run's directory, made by the ranks
SKIP: {
    skip 'no mpicc/mpirun', 1 if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local %ENV = %ENV;
    $ENV{OMPI_ALLOW_RUN_AS_ROOT} = $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    $ENV{ASAN_OPTIONS} = 'detect_leaks=0';
    my $SAN = $san ? " $san" : '';
    my $log = `mpicc -O2$SAN -fplugin=$B/perfpred.so samples/mpi_trap.c -o $tmp/trap -L$B -l:libperfpred-rt.a 2>&1`;
    ok($? == 0, 'mpi_trap builds with the plugin') or diag($log);
    skip 'mpi_trap did not build', 1 if $?;
    my $plain = `PERFPRED_DISABLE=1 timeout -k 5 60 mpirun -np 2 $tmp/trap 1000 2>/dev/null`;
    open my $f, '>', "$tmp/afile" or die;
    close $f;
    for my $c (['under a missing directory', "$tmp/none/run", 'No such file or directory'],
               ['a file, not a directory', "$tmp/afile", 'Not a directory']) {
        my ($what, $dir, $re) = @$c;
        my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $dir }, "timeout -k 5 60 mpirun -np 2 $tmp/trap 1000");
        is(wait_desc($st), 'exit 0', "MPI record directory $what: exit status unchanged");
        # the ranks' lines come in any order
        is(join('', sort split /^/, $out), join('', sort split /^/, $plain), "MPI record directory $what: output unchanged");
        my @m = $err =~ /^perfpred-rt: cannot write record of rank (\d) under '\Q$dir\E': $re \(recording lost; the program's result is unaffected\)$/mg;
        is(join(' ', sort @m), '0 1', "MPI record directory $what: one message per rank") or diag($err);
    }
}

done_testing();
