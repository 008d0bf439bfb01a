#!/usr/bin/perl
# 18-differential.t - an instrumented program computes exactly what the
# plain one computes, at any -O, linked static or shared.
#
# Every program of tests/diff/ (parallel kernels written for this test:
# each says what it stresses in its header comment and how to run it in a
# "perfpred-diff:" line), every sample of samples/ and every program of
# tests/programs/ is built plain and with the plugin, at -O0, -O2 and -O3,
# as a dynamic executable ("shared": the shared runtime libperfpred-rt.so.1
# at -O0 and -O3, the static one, -l:libperfpred-rt.a, at -O2 and for MPI)
# and as a static one (`-static`, the runtime's .a), and both builds run at
# 1, 2, 4 and 8 threads (OMP_NUM_THREADS, or the program's thread
# argument; MPI programs under `mpirun -np 2` and `-np 4`; serial programs
# once), the programs of tests/diff/ several times at 4 and 8 threads (their
# bugs would depend on timing).  A check fails, with the program, flags,
# threads and both outputs in a diag, when stdout, stderr (not for MPI:
# Open MPI's own messages; the ranks' lines are sorted) or the exit status
# differ.  Each instrumented run's record (PERFPRED_RECORD) must be there,
# and `perfpred show --format json` must read each build's record at 2
# threads.  Then, for each program, the record of the -O2 shared build and
# that of the -O2 static build at 2 threads must analyse to the same counts:
# every loop's observed iterations (summed over the threads) in
# `perfpred show --format json` must be equal, except for loops whose count
# depends on the scheduling (CAS retry loops, spins, trylock loops, chains
# walked in the order threads inserted): those are the loops whose source
# line (as show gives it) carries the comment "count depends on timing",
# those on an `omp ... reduction(...)` pragma's line (GCC merges each
# thread's partial result with a compare-and-swap loop, which retries when
# threads collide: barriers.c's double sum counted 2 and 3 in two runs),
# and any other loop whose count differs between two runs of the same
# shared build (each one named in a diag).
#
# Static links: Debian has no static Open MPI (no .a under
# /usr/lib/x86_64-linux-gnu/openmpi/lib; MPICH ships libmpich.a, but a
# plain -static MPICH link fails: libhwloc.a needs libudev, which Debian
# ships shared only), so the MPI programs are linked shared only; under SANITIZE=1 (ASan cannot
# link -static) the static half is skipped, with a diag.  When a static
# OpenMP build lacks a libgomp entry point that the plain static build has,
# the failures' diags say so (the runtime's wrappers refer to libgomp
# weakly; before fceb0e3 a static link did not pull GOMP_barrier,
# GOMP_single_start..., and the wrappers skipped the barrier or ran the
# single on every thread: with the plugin of 623ddb1 this test fails 43
# checks: the static builds of bfs_omp, omp_single, omp_nested and
# omp_tasks at every level at 2, 4 and 8 threads (bfs_omp reaches 19 of
# 16384 vertices, omp_single's checksum differs or it hangs, their counts
# differ), and omp_schedules -O2 in one of three runs at 8 threads (its
# reduction(*) merged without GOMP_atomic_start/end)).
#
# Cost (this 2-core host, 2026-11-27, while other builds kept its load
# average at 6-8): by default every tests/diff program at all of
# -O0/-O2/-O3 x shared/static, the samples and tests/programs at -O2 only
# (shared and static): 108 builds, 59-75 s wall, 50 s CPU.
# PERFPRED_DIFF_FULL=1, every program at every level: 186 builds, 126 s
# wall, 77 s CPU.  Two builds run at once (PERFPRED_DIFF_JOBS=N to change);
# a run is killed after 30 s (PERFPRED_DIFF_TIMEOUT; they take < 0.2 s),
# and after one hang a build's other runs are not tried.
# PERFPRED_DIFF_ONLY=REGEX runs only the programs whose name matches.
#
# Run from the repository root:
#   prove -v tests/e2e/18-differential.t                  (PERFPRED_BUILD=DIR: another build)
#   PERFPRED_DIFF_FULL=1 prove -v tests/e2e/18-differential.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in);
use File::Temp qw(tempdir);
use JSON::PP;
use POSIX ();
use Time::HiRes qw(time);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
$B = "$ROOT/$B" unless $B =~ m{^/};
my $PP   = "$B/perfpred";
my $SANITIZE = ($ENV{SANITIZE} // '') eq '1';
my $SAN  = $SANITIZE ? ' -fsanitize=address,undefined' : '';
my $FULL = ($ENV{PERFPRED_DIFF_FULL} // '') eq '1';
my $JOBS = $ENV{PERFPRED_DIFF_JOBS} // 2;
my $TMP  = tempdir('pp-diff-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $T0   = time;
my $MARK = 'count depends on timing';
my $LIMIT = $ENV{PERFPRED_DIFF_TIMEOUT} // 30;   # seconds a run may take (they take < 0.2 s)

plan skip_all => "$B/perfpred.so is not built (make build)" unless -e "$B/perfpred.so" && -e "$B/libperfpred-rt.a";
mpi_setup();            # mpicc and mpirun, root allowed, oversubscription
delete $ENV{$_} for qw(OMP_SCHEDULE OMP_DYNAMIC OMP_PROC_BIND OMP_PLACES OMP_WAIT_POLICY
                       OMP_MAX_ACTIVE_LEVELS OMP_NESTED OMP_THREAD_LIMIT);
# libgomp spins 300000 times before it sleeps when the threads fit the
# cores: on 2 busy cores a 2-thread barrier then costs a time slice.  The
# same bounded spin for both builds.
$ENV{GOMP_SPINCOUNT} = 10000;

diag('SANITIZE=1: the static half is skipped (AddressSanitizer cannot link -static)') if $SANITIZE;
diag('MPI: shared links only (' . (join(' ', glob '/usr/lib/x86_64-linux-gnu/openmpi/lib/*.a') || 'no static Open MPI')
     . ' under /usr/lib/x86_64-linux-gnu/openmpi/lib)');

# ---------------------------------------------------------------- programs
# name, sources, kind (omp, pthread, mpi, serial), arguments ({P}: the
# thread count), runs at 4 and 8 threads, levels and links
my @progs;
for my $f (sort glob 'tests/diff/*.c') {
    open my $h, '<', $f or die "$f: $!";
    my ($line) = grep { /perfpred-diff:/ } <$h>;
    close $h;
    if (!$line) { fail("$f: has a perfpred-diff: line"); next }
    my %kv = $line =~ /(\w+)=("[^"]*"|\S+)/g;
    s/^"|"$//g for values %kv;
    (my $name = $f) =~ s{.*/|\.c$}{}g;
    push @progs, { name => $name, src => [$f], kind => $kv{kind}, args => $kv{args} // '',
                   repeat => $kv{repeat} // 1, np => [2, 4], diff => 1 };
}
my @more = (      # docs/samples.md for the arguments; small sizes
    ['ge_pthreads', 'samples/ge_pthreads.c', 'pthread', '48 {P}'],
    ['ge_omp',      'samples/ge_omp.c',      'omp',     '48'],
    ['apsp',        'samples/apsp.c',        'pthread', '40 {P}'],
    ['em',          'samples/em.c',          'pthread', '32 32 8 8 {P} 5'],
    ['jacobi',      'samples/jacobi.c',      'omp',     '64 10'],
    ['matmul_rows', 'samples/matmul_rows.c', 'pthread', '48 {P}'],
    ['matmul_blocks', 'samples/matmul_blocks.c', 'pthread', '48 {P}'],
    ['md',          'samples/md.c',          'pthread', '96 3 {P}'],
    ['mpi_trap',    'samples/mpi_trap.c',    'mpi',     '100000 3'],
    ['mpi_estar',   'samples/mpi_estar.c',   'mpi',     '600 300 2'],
    ['mpi_ge',      'samples/mpi_ge.c',      'mpi',     '48'],
    ['mpi_jacobi',  'samples/mpi_jacobi.c',  'mpi',     '48 10 3 0'],
    ['mpi_summa',   'samples/mpi_summa.c',   'mpi',     '16 2', [4]],     # P = Q * Q
    ['barriers',    'tests/programs/barriers.c', 'omp', '200 20'],
    ['dynsched',    'tests/programs/dynsched.c', 'omp', '300'],
    ['embar',       'tests/programs/embar.c',    'omp', '2000'],
    ['indirect',    'tests/programs/indirect.c', 'serial', '2000 3'],
    ['serial',      'tests/programs/serial.c',   'pthread', '1000 3000 {P}'],
    ['stream',      'tests/programs/stream.c',   'serial', '10000 3'],
    ['stream_omp',  'tests/programs/stream_omp.c', 'omp', '10000 3'],
    ['triangle',    'tests/programs/triangle.c', 'serial', '200'],
    ['smooth',      'tests/programs/smooth.c',   'omp', '500 10'],
    ['relax',       'tests/programs/relax.c',    'omp', '500 10'],
    ['samename',    'tests/programs/samename/a.c tests/programs/samename/b.c', 'serial', '100'],
);
for my $m (@more) {
    my ($name, $src, $kind, $args, $np) = @$m;
    push @progs, { name => $name, src => [split ' ', $src], kind => $kind, args => $args,
                   repeat => 1, np => $np // [2, 4], diff => 0 };
}
my %listed = map { $_ => 1 } map { @{ $_->{src} } } @progs;
for my $f (grep { !$listed{$_} } sort(glob('samples/*.c'), glob('tests/programs/*.c'))) {
    fail("$f is in the matrix (add it to \@more in $0)");
}

if (my $only = $ENV{PERFPRED_DIFF_ONLY}) {      # a regex on the names, to run a few
    @progs = grep { $_->{name} =~ /$only/ } @progs;
}

# ---------------------------------------------------------------- one build
my $json = JSON::PP->new->canonical;

sub slurp { my ($f) = @_; open my $h, '<', $f or return ''; local $/; my $s = <$h>; return $s // '' }

sub shq { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

# the GOMP_* functions an executable defines
sub gomp_defined {
    my ($exe) = @_;
    return map { $_ => 1 } `nm $exe 2>/dev/null` =~ /^\S+ [TtWi] (GOMP_\w+)$/mg;
}

# builds and runs one program at one level and link; returns its checks
sub build_and_run {
    my ($p, $O, $link) = @_;
    my $id  = "$p->{name} -$O $link";
    my $t0  = time;
    my $dir = "$TMP/$p->{name}-$O-$link";
    mkdir $dir or die "$dir: $!";
    my (@checks, %loops);
    my $check = sub { push @checks, { name => "$id: $_[0]", ok => $_[1] ? 1 : 0, diag => $_[2] // '' } };
    my $cc  = $p->{kind} eq 'mpi' ? 'mpicc' : 'gcc';
    my $lang = { omp => ' -fopenmp', pthread => ' -pthread', mpi => '', serial => '' }->{ $p->{kind} };
    my $static = $link eq 'static' ? ' -static' : '';
    my $src = join ' ', @{ $p->{src} };
    # the shared runtime (libperfpred-rt.so.1; -lperfpred-rt is an ld script naming the .a)
    my $so = -e "$B/libperfpred-rt.so.1" ? 'libperfpred-rt.so.1' : 'libperfpred-rt.so';
    # (the MPI wrappers are in the static runtime only: 4cd7cfb)
    my $rt = $link eq 'static' || $O eq 'O2' || $p->{kind} eq 'mpi' ? " -L$B -l:libperfpred-rt.a"
                                                                   : " -L$B -l:$so -Wl,-rpath,$B";
    my %cmd = (plain => "$cc -$O$static$lang$SAN $src -o $dir/plain -lm",
               inst  => "$cc -$O$static$lang$SAN -fplugin=$B/perfpred.so $src -o $dir/inst$rt -lm");
    for my $b (qw(plain inst)) {
        my ($rc, $out, $err) = run_in($dir, $cmd{$b});
        $check->("builds ($b)", $rc == 0, "$cmd{$b}\n$err");
        return (\@checks) if $rc;
    }
    # the known bug: a libgomp function the plain static build has and the
    # instrumented one lacks (its wrapper would skip it)
    my ($hint, $hung) = ('', '');
    if ($link eq 'static' && $p->{kind} eq 'omp') {
        my %plain = gomp_defined("$dir/plain");
        my %inst  = gomp_defined("$dir/inst");
        my @missing = sort grep { !$inst{$_} } keys %plain;
        $hint = "\nthe instrumented static executable lacks @missing, which the plain one has: "
              . "the runtime's wrappers refer to libgomp weakly (the static-link bug fixed in fceb0e3, plugin/pp-keep.cc)"
            if @missing;
    }
    my @threads = $p->{kind} eq 'serial' ? (1) : $p->{kind} eq 'mpi' ? @{ $p->{np} } : (1, 2, 4, 8);
    my $t2 = $p->{kind} eq 'serial' ? 1 : $p->{kind} eq 'mpi' ? $threads[0] : 2;   # the record shown
    for my $t (@threads) {
        my $reps = $t >= 4 ? $p->{repeat} : 1;
        $reps = 2 if $t == $t2 && $O eq 'O2' && $link eq 'shared' && $reps < 2;   # the counts' second run
        (my $args = $p->{args}) =~ s/\{P\}/$t/g;
        my ($same, $what) = (1, '');
        if ($hung) {        # a hang costs $LIMIT s: one is enough
            push @checks, { name => "$id: same output at $t threads", ok => 0,
                            diag => "not run: an earlier run hung ($hung)$hint" };
            next;
        }
        for my $r (1 .. $reps) {
            my $rec = "$dir/rec-$t-$r" . ($p->{kind} eq 'mpi' ? '' : '.ppr');
            my %res;
            for my $b (qw(plain inst)) {
                my $env = $b eq 'inst' ? 'PERFPRED_RECORD=' . shq($rec) : '';
                my $run = $p->{kind} eq 'mpi' ? "mpirun -np $t $dir/$b $args"
                                              : "env OMP_NUM_THREADS=$t $env $dir/$b $args";
                $run = "env $env $run" if $p->{kind} eq 'mpi';
                $res{$b} = [run_in($dir, "timeout -k 5 $LIMIT $run </dev/null")];
                $hung = "$b at $t, run $r: killed after $LIMIT s" if $res{$b}[0] == 124 || $res{$b}[0] == 137;
                if ($p->{kind} eq 'mpi') {      # the ranks' lines in any order; Open MPI's messages
                    $res{$b}[1] = join '', sort split /^/m, $res{$b}[1];
                    $res{$b}[2] = '';
                }
                $res{"$b.cmd"} = $run;
            }
            my ($pl, $in) = ($res{plain}, $res{inst});
            if ($pl->[0] != $in->[0] || $pl->[1] ne $in->[1] || $pl->[2] ne $in->[2]) {
                $same = 0;
                $what = "run $r of $reps at $t threads\n"
                      . "plain: $res{'plain.cmd'}\n  exit $pl->[0]\n  stdout: $pl->[1]\n  stderr: $pl->[2]\n"
                      . "instrumented: $res{'inst.cmd'}\n  exit $in->[0]\n  stdout: $in->[1]\n  stderr: $in->[2]";
                last;
            }
            my $recfile = $p->{kind} eq 'mpi' ? "$rec/rank-0.ppr" : $rec;
            if (!-s $recfile) {
                $same = 0;
                $what = "run $r at $t threads wrote no record $recfile";
                last;
            }
        }
        push @checks, { name => "$id: same output at $t " . ($p->{kind} eq 'mpi' ? 'ranks' : $t > 1 ? 'threads' : 'thread')
                                . ($reps > 1 ? " ($reps runs)" : ''),
                        ok => $same, diag => "$cmd{plain}\n$cmd{inst}\n$what$hint" };
    }
    # the record reads
    my $rec = "$dir/rec-$t2-1" . ($p->{kind} eq 'mpi' ? '' : '.ppr');
    my ($rc, $out, $err) = run_in($dir, "$PP show $rec --format json");
    my $j = $rc == 0 ? eval { decode_json($out) } : undef;
    # (an MPI run's JSON lists ranks and sites; another's, loops)
    $check->("perfpred show --format json reads the record",
             $j && ref $j eq 'HASH' && ($p->{kind} eq 'mpi' ? ref $j->{per_rank} eq 'ARRAY' : ref $j->{loops} eq 'ARRAY'),
             "exit $rc\n$err\n" . substr($out, 0, 2000) . $hint);
    if ($j && $O eq 'O2' && $p->{kind} ne 'mpi') {
        $loops{1} = { map { ("$_->{id} ($_->{file}:$_->{line})" => $_->{observed}) } @{ $j->{loops} } };
        if ($link eq 'shared') {
            my ($rc2, $out2) = run_in($dir, "$PP show $dir/rec-$t2-2.ppr --format json");
            my $j2 = $rc2 == 0 ? eval { decode_json($out2) } : undef;
            $loops{2} = { map { ("$_->{id} ($_->{file}:$_->{line})" => $_->{observed}) } @{ $j2->{loops} } } if $j2;
        }
    }
    return (\@checks, \%loops, $hint, time - $t0);
}

# ---------------------------------------------------------------- the matrix
my @links = $SANITIZE ? ('shared') : ('shared', 'static');
my @jobs;
for my $p (@progs) {
    my @levels = $FULL || $p->{diff} ? qw(O0 O2 O3) : qw(O2);
    for my $O (@levels) {
        for my $link (@links) {
            next if $link eq 'static' && $p->{kind} eq 'mpi';
            push @jobs, [$p, $O, $link];
        }
    }
}
# MPI first (mpirun is slow to start), so that the end is not one long job
@jobs = ((grep { $_->[0]{kind} eq 'mpi' } @jobs), (grep { $_->[0]{kind} ne 'mpi' } @jobs));

my (%running, @done);
my @queue = (0 .. $#jobs);
while (@queue || %running) {
    while (@queue && keys %running < $JOBS) {
        my $k = shift @queue;
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            my ($checks, $loops, $hint, $secs) = eval { build_and_run(@{ $jobs[$k] }) };
            $checks = [{ name => "job $k", ok => 0, diag => $@ }] unless $checks;
            open my $o, '>', "$TMP/job-$k.json" or POSIX::_exit(1);
            print $o $json->encode({ checks => $checks, loops => $loops // {}, hint => $hint // '',
                                secs => $secs // 0 });
            close $o;
            POSIX::_exit(0);
        }
        $running{$pid} = $k;
    }
    my $pid = wait;
    last if $pid < 0;
    delete $running{$pid};
}

my (%byjob, %secs);
for my $k (0 .. $#jobs) {
    my $r = eval { decode_json(slurp("$TMP/job-$k.json")) }
        // { checks => [{ name => "$jobs[$k][0]{name} -$jobs[$k][1] $jobs[$k][2]: the job finished", ok => 0 }] };
    $byjob{"$jobs[$k][0]{name} $jobs[$k][1] $jobs[$k][2]"} = $r;
    $secs{ $jobs[$k][0]{diff} ? 'tests/diff' : $jobs[$k][0]{kind} eq 'mpi' ? 'MPI samples' : 'samples, tests/programs' }
        += $r->{secs} // 0;
    for my $c (@{ $r->{checks} }) {
        ok($c->{ok}, $c->{name}) or diag($c->{diag});
    }
}

# ---------------------------------------------------------------- the counts
# -O2 shared against -O2 static at 2 threads
my %marked;     # "file:line" of the loops marked as timing-dependent
for my $p (@progs) {
    for my $f (@{ $p->{src} }) {
        my $n = 0;
        for my $l (split /\n/, slurp($f)) {
            $n++;
            $marked{"$f:$n"} = 'marked' if index($l, $MARK) >= 0;
            # GCC merges a thread's partial result into the shared variable
            # with a compare-and-swap loop (floating point, min/max...): it
            # retries when threads collide, and show gives it the pragma's line
            $marked{"$f:$n"} = 'reduction merge' if $l =~ /^\s*#\s*pragma\s+omp\b.*\breduction\s*\(/;
        }
    }
}
for my $p (@progs) {
    next if $p->{kind} eq 'mpi' || $SANITIZE;
    my $sh = $byjob{"$p->{name} O2 shared"};
    my $st = $byjob{"$p->{name} O2 static"};
    my ($a, $a2, $s) = ($sh->{loops}{1}, $sh->{loops}{2}, $st->{loops}{1});
    if (!$a || !$a2 || !$s) {
        fail("$p->{name}: -O2 shared and static records analyse to the same loop counts (no counts)");
        next;
    }
    my (@diff, @skipped);
    for my $l (sort keys %$a) {
        my ($where) = $l =~ /\((\S+:\d+)\)$/;
        if (my $why = $marked{$where // ''}) { push @skipped, "$l ($why)"; next }
        if (($a->{$l} // -1) != ($a2->{$l} // -1)) {
            push @skipped, "$l (two shared runs: $a->{$l}, " . ($a2->{$l} // 'none') . ")";
            next;
        }
        push @diff, "$l: shared $a->{$l}, static " . ($s->{$l} // 'none')
            if ($s->{$l} // -1) != $a->{$l};
    }
    push @diff, map { "$_: static only" } grep { !exists $a->{$_} } sort keys %$s;
    ok(!@diff && keys %$a, "$p->{name}: -O2 shared and static records analyse to the same counts ("
       . (keys(%$a) - @skipped) . ' loops compared)')
        or diag(join("\n", @diff) . $st->{hint});
    diag("$p->{name}: counts not compared: " . join(', ', @skipped)) if @skipped && ($ENV{TEST_VERBOSE} || grep { !/\((marked|reduction merge)\)$/ } @skipped);
}

diag(sprintf "18-differential: %d builds, %.0f s (%s); build and run time by group: %s", scalar @jobs, time - $T0,
     $FULL ? 'PERFPRED_DIFF_FULL=1: every program at -O0/-O2/-O3' : 'default: samples and tests/programs at -O2 only',
     join(', ', map { sprintf '%s %.0f s', $_, $secs{$_} } sort keys %secs));
done_testing();
