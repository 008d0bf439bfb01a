#!/usr/bin/perl
# 18-differential.t - an instrumented program computes exactly what the
# plain one computes, at any -O, linked static or shared.
#
# Every program of tests/diff/ (parallel kernels written for this test:
# each says what it stresses in its header comment and how to run it in a
# "perfpred-diff:" line), every sample of samples/, every program of
# tests/programs/ and every other complete program of tests/ (tests/plugin,
# tests/stress, tests/mpi-*, tests/wrapper: @more, with the arguments their
# own e2e tests give them, smaller) is built plain and with the plugin, at
# -O0, -O2 and -O3, as a dynamic executable ("shared": the shared runtime
# libperfpred-rt.so.1 at -O0 and -O3, the static one, -l:libperfpred-rt.a,
# at -O2 and for MPI) and as a static one (`-static`, the runtime's .a),
# and both builds run at 1, 2, 4 and 8 threads (OMP_NUM_THREADS, or the
# program's thread argument; MPI programs under `mpirun -np 2` and `-np 4`,
# or the rank counts they are correct at; serial programs once, a program
# that makes a fixed number of threads at that number), the programs of
# tests/diff/ several times at 4 and 8 threads (their bugs would depend on
# timing); a program with several argument strings (hoist.c's exits,
# stress-omp.c's and stress-pthread.c's modes, sig-loop.c dying of abort(),
# SIGSEGV, SIGFPE, SIGTERM) runs each one.  A check fails, with the
# program, flags, threads and both outputs in a diag, when stdout, stderr
# (not for MPI: Open MPI's own messages; the ranks' lines are sorted) or
# the exit status (a signal's included) differ.  Each instrumented run's
# record (PERFPRED_RECORD) must be there (but for sig-loop's own SIGTERM
# handler, which calls _exit: none), and `perfpred show --format json`
# must read each build's record at 2 threads.  No program's output depends
# on timing, so no output is filtered: a program that printed times, pids
# or addresses would be excluded, with the reason.
#
# Every .c file of samples/ and tests/programs/ must be in the matrix;
# every other one of tests/ (tests/fuzz and tests/unit aside: fuzz targets
# and unit tests, no programs) in the matrix or in %excluded with the
# reason (compile-only checks, the runtime tests instrumented by hand,
# helpers that are not programs, the MPI programs that hang by design),
# so that a new test program is not forgotten.
#
# Then, for each program, the record of the -O2 shared build and
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
# build, shared or static (each one named in a diag).
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
# Cost (this 2-core host, 2026-11-27): by default every tests/diff program
# at all of -O0/-O2/-O3 x shared/static, the samples, tests/programs and
# the other programs of tests/ at -O2 only (shared and static): 155
# builds, 48 s wall, 66 s CPU at a load average of 1-2 (without the other
# programs of tests/, 112 builds: 33 s, 50 s CPU then; 59-75 s while other
# builds kept the load at 6-8); their 43 builds (9 of them MPI, whose
# mpirun starts take most of it) add 15 s; 97 s wall at a load of 4-5.
# PERFPRED_DIFF_FULL=1, every program at every level: 327 builds, 87 s
# wall, 121 s CPU (load 2-3); 166 s at a load of 4-5.  SANITIZE=1 (shared
# only): 85 builds, 87 s wall.  The verbose run
# (prove -v) names the ten slowest builds and every exclusion.
# Two builds run at once (PERFPRED_DIFF_JOBS=N to change);
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
use File::Find ();
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
    push @progs, { name => $name, src => [$f], kind => $kv{kind}, args => [$kv{args} // ''],
                   repeat => $kv{repeat} // 1, diff => 1 };
}
# The other complete programs of tests/ (the e2e test that runs each one
# gives its arguments; small sizes).  A sixth element: the thread counts
# (MPI: ranks) when not 1, 2, 4 and 8 (MPI: 2 and 4), [N] for a program
# that makes its own N threads whatever OMP_NUM_THREADS says; a seventh,
# options: cflags (more compiler flags), env (more environment for both
# builds' runs), nosan (a reason not to run it under SANITIZE=1).  Several
# argument strings (an array): each one runs at each thread count, and the
# record shown and compared is the first one's.
my $WRAPCFG = "$TMP/wrapper-config";   # the config.h that tests/wrapper/configure would write
mkdir $WRAPCFG or die "$WRAPCFG: $!";
{ open my $h, '>', "$WRAPCFG/config.h" or die; print $h "#define SIZEOF_LONG 8\n"; close $h }
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
    ['band_smooth', 'tests/programs/band_smooth.c', 'pthread', '300 4 {P}'],
    ['shrink_bands', 'tests/programs/shrink_bands.c', 'pthread', '120 {P}'],
    ['mpi_blocks',  'tests/programs/mpi_blocks.c', 'mpi', '2002'],
    ['team_rows',   'tests/programs/team_rows.c', 'omp', '120 6 1'],
    ['phase_teams', 'tests/programs/phase_teams.c', 'omp', '96 5 2'],
    ['cell_helpers', 'tests/programs/cell_helpers.c', 'omp', '60 3'],
    ['halo_cells',  'tests/programs/halo_cells.c', 'pthread', '3000 3 {P}'],
    ['edge_rows',   'tests/programs/edge_rows.c', 'omp', '64 3'],
    ['wavefront',   'tests/programs/wavefront.c', 'omp', '40 2'],
    ['strided_cells', 'tests/programs/strided_cells.c', 'omp', '300 2'],
    ['samename',    'tests/programs/samename/a.c tests/programs/samename/b.c', 'serial', '100'],
    # tests/plugin (10-plugin.t, 12-streams.t, 14-inline.t, 15-hoist.t,
    # 16-register.t, 17-ivbranch.t run them with these arguments)
    ['plugin_loops',     'tests/plugin/progs/loops.c',     'serial',  '100'],
    ['plugin_omp',       'tests/plugin/progs/omp.c',       'omp',     '1000'],
    ['plugin_pthreads',  'tests/plugin/progs/pthreads.c',  'pthread', '', [3]],     # NT = 3 threads
    ['plugin_pragma',    'tests/plugin/progs/pragma.c',    'serial',  '7'],
    ['plugin_streams',   'tests/plugin/progs/streams.c',   'serial',  ''],
    ['plugin_realworld', 'tests/plugin/progs/realworld.c', 'serial',  '10'],
    # N M STOP: no exit, exit(0) in mayexit at i = 5, in walkexit at j = 3
    ['hoist',    'tests/plugin/hoist/hoist.c',       'serial', ['10 7 -1', '10 7 5', '10 7 103']],
    ['inline',   'tests/plugin/inline/inline.c',     'serial', '100'],
    ['ivbranch', 'tests/plugin/ivbranch/ivbranch.c', 'serial', '100'],
    ['urange',   'tests/plugin/urange/urange.c',     'serial', '1000'],
    ['register', 'tests/plugin/register/register.c', 'pthread', '100', [3]],      # main and 2 workers
    # tests/stress (22-stress.t, 23-signals.t, 24-tsan.t), smaller
    ['stress_omp', 'tests/stress/stress-omp.c', 'omp',
     ['many {P} 10000', 'nested 2 {P} 1000', 'tasks {P} 20 100']],
    # exit: thread 0 calls exit(5) while the others spin; mainexit: main
    # calls pthread_exit, the last thread ends the process
    ['stress_pthread', 'tests/stress/stress-pthread.c', 'pthread',
     ['waves 2 {P} 1000', 'exit {P} 1000 0', 'mainexit {P} 1000']],
    # 4 threads, a forked child that exits 7, an exec'd one ("child N",
    # its record exec.ppr in the run's directory)
    ['stress_fork', 'tests/stress/stress-fork.c', 'pthread', 'run 10000 exec.ppr', [4],
     { nosan => "GCC 12's AddressSanitizer allocator can deadlock in a child forked from threads (22-stress.t skips it too)" }],
    # dies as MODE says after its loop, {P} threads spinning: the same
    # wait status (signal) and output; not "wait" (spins until killed from
    # outside) nor "dfree" (abort() inside free(): the record writer's time
    # bound, seconds, ends it: 23-signals.t)
    ['sig_loop', 'tests/stress/sig-loop.c', 'pthread',
     ['exit 1000 {P}', 'abort 1000 {P}', 'segv 1000 {P}', 'fpe 1000 {P}', '15 1000 {P}', 'own 1000 {P}'], undef,
     # (AddressSanitizer would take SIGSEGV and SIGFPE for itself: 23-signals.t)
     { env => $SANITIZE ? 'ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0' : '',
       # (its SIGTERM handler calls _exit: no record, as for any _exit)
       norecord => qr/^own / }],
    # MPI test programs (79-mpi-hybrid.t, 82-mpi-model.t, 83-mpi-comm.t, 84-mpi-match.t)
    ['hybrid', 'tests/mpi-hybrid/hybrid.c', 'mpi', '4000 3', undef,
     # 2 threads a rank: a double reduction's two partial sums add the same in either order
     { cflags => '-fopenmp', env => 'OMP_NUM_THREADS=2' }],
    ['split_order',   'tests/mpi-comm/split_order.c',      'mpi', '', [2, 4]],
    ['match',         'tests/mpi-match/match.c',           'mpi', '', [3, 4]],   # 3 ranks at least
    ['any_proc_null', 'tests/mpi-special/any_proc_null.c', 'mpi', '1000 3'],
    # correct at 4 ranks (hang from 5: what 81/83-*.t predict); ring_send
    # below MPI's eager limit
    ['first_four',    'tests/mpi-hang/first_four.c',   'mpi', '1000', [4]],
    ['half_barrier',  'tests/mpi-hang/half_barrier.c', 'mpi', '1000', [4]],
    ['late_tag',      'tests/mpi-hang/late_tag.c',     'mpi', '1000', [4]],
    ['ring_send',     'tests/mpi-hang/ring_send.c',    'mpi', '16', [2, 4]],
    # tests/values (71-thread-values.t): values handed to threads through structs
    ['struct_ranges', 'tests/values/struct_ranges.c', 'pthread', '500 {P}'],
    ['thread_ids',    'tests/values/thread_ids.c',    'pthread', '3000 4 {P}'],
    ['table_ranges',  'tests/values/table_ranges.c',  'pthread', '300 {P}'],
    ['balanced_triangle', 'tests/values/balanced_triangle.c', 'pthread', '500 {P}'],
    ['omp_table',     'tests/values/omp_table.c',     'omp', '2000'],
    ['scan_until',    'tests/values/scan_until.c',    'serial', '2000 20'],
    # tests/timing (44-loop-timing.t): measured loop costs
    ['timing_sweeps', 'tests/timing/sweeps.c',   'pthread', ['20000 {P} 0', '20000 {P} 1']],
    ['timing_one',    'tests/timing/one_loop.c', 'serial',  '100000'],
    ['timing_fir',    'tests/timing/fir.c',      'serial',  '20000 3 10'],
    # tests/wrapper (92-wrapper.t builds them through perfpred-gcc)
    ['wrapper_omp',   'tests/wrapper/omp.c',   'omp', '1000'],
    ['wrapper_mpi',   'tests/wrapper/mpi.c',   'mpi', '100'],
    ['wrapper_par',   'tests/wrapper/main2.c tests/wrapper/par.c', 'pthread', '100', [2]],   # par_sum(n, 2)
    ['wrapper_app',   'tests/wrapper/app.c tests/wrapper/vec.c', 'serial', ['50', '50 fail'], undef,
     { cflags => "-I$WRAPCFG" }],
);
for my $m (@more) {
    my ($name, $src, $kind, $args, $counts, $o) = @$m;
    push @progs, { name => $name, src => [split ' ', $src], kind => $kind,
                   args => ref $args ? $args : [$args], repeat => 1, counts => $counts, diff => 0, %{ $o // {} } };
}
# The .c files of tests/ that are not in the matrix, and why.  (tests/fuzz
# and tests/unit are not looked at: fuzz targets and unit tests of the
# analyser's and runtime's functions, no programs built with the plugin.)
my %excluded = (
    'tests/mpi-broken/hang_coll.c'  => 'hangs at 2 ranks and more by design (a barrier only the even ranks reach)',
    'tests/mpi-broken/hang_cycle.c' => 'hangs at 2 ranks and more by design (a cycle of 4 MiB blocking sends)',
    'tests/mpi-broken/hang_recv.c'  => 'hangs at 2 ranks and more by design (a receive no send matches)',
    'tests/plugin/progs/badpragma.c' => 'a compile-only check (a malformed perfpred pragma warns): its main returns 0',
    'tests/plugin/progs/maybe-uninit.c' => 'a compile-only check (-Wmaybe-uninitialized), no main',
    'tests/plugin/inline/vec.c'     => 'a compile-only check (the loop is vectorised with the plugin), no main',
    'tests/plugin/stub-rt.c'        => 'not a program: the test-only runtime stub of 10-plugin.t and 15-hoist.t',
    'tests/runtime/read-record.c'   => "not a test program: 20-runtime.t's record reader, built from analysis/*.c",
    'tests/runtime/t-fork.c'        => 'instrumented by hand (tests/runtime/pp-emul.h): calls the runtime itself, no plain build',
    'tests/runtime/t-omp.c'         => 'instrumented by hand (tests/runtime/pp-emul.h): calls the runtime itself, no plain build',
    'tests/runtime/t-pthread.c'     => 'instrumented by hand (tests/runtime/pp-emul.h): calls the runtime itself, no plain build',
    'tests/runtime/t-task.c'        => 'instrumented by hand (tests/runtime/pp-emul.h): calls the runtime itself, no plain build',
    'tests/wrapper/dl.c'            => 'dlopen()s libplug.so, a shared library built from tests/wrapper/plug.c (92-wrapper.t): not one executable, and a -static one cannot load it',
    'tests/wrapper/plug.c'          => "not a program: dl.c's libplug.so",
    'tests/wrapper/warn.c'          => 'a compile-only check (its -Wall warning through perfpred-gcc), no main',
);
my %listed = map { $_ => 1 } map { @{ $_->{src} } } @progs;
# samples/ and tests/programs/ are all in the matrix; every other .c of tests/ is there or excluded
my @testsrc;
File::Find::find({ no_chdir => 1, wanted => sub {
    $File::Find::prune = 1 if m{^tests/(fuzz|unit)$};
    push @testsrc, $_ if /\.c$/ && -f $_;
} }, 'tests');
my $missing = 0;
for my $f (grep { !$listed{$_} } sort(glob('samples/*.c'), glob('tests/programs/*.c'))) {
    fail("$f is in the matrix (add it to \@more in $0)");
    $missing++;
}
for my $f (grep { !$listed{$_} && !$excluded{$_} } sort @testsrc) {
    fail("$f is in the matrix or in its exclusion list, with the reason (\@more, \%excluded in $0)");
    $missing++;
}
for my $f (sort grep { !-f $_ || $listed{$_} } keys %excluded) {
    fail("$f: the exclusion list names a file that " . (-f $f ? 'is in the matrix' : 'does not exist'));
    $missing++;
}
pass(sprintf 'every .c of samples/ and tests/ (but tests/fuzz, tests/unit) is in the matrix (%d) or excluded (%d)',
     scalar(grep { $listed{$_} } @testsrc, glob('samples/*.c')), scalar keys %excluded) if !$missing;
diag("not in the matrix: " . join('; ', map { "$_: $excluded{$_}" } sort keys %excluded)) if $ENV{TEST_VERBOSE};
if ($SANITIZE) {
    diag("SANITIZE=1: $_->{name} not run: $_->{nosan}") for grep { $_->{nosan} } @progs;
    @progs = grep { !$_->{nosan} } @progs;
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
    my $lang = { omp => ' -fopenmp', pthread => ' -pthread', mpi => '', serial => '' }->{ $p->{kind} }
             . ($p->{cflags} ? " $p->{cflags}" : '');
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
    my @threads = $p->{kind} eq 'serial' ? (1) : $p->{counts} ? @{ $p->{counts} } : $p->{kind} eq 'mpi' ? (2, 4) : (1, 2, 4, 8);
    # the record shown: at 2 threads (MPI: the first rank count), the first arguments'
    my $t2 = $p->{kind} ne 'mpi' && grep({ $_ == 2 } @threads) ? 2 : $threads[0];
    my @args = @{ $p->{args} };
    my $env0 = $p->{env} ? "$p->{env} " : '';
    for my $t (@threads) {
      for my $k (0 .. $#args) {
        my $reps = $t >= 4 ? $p->{repeat} : 1;
        $reps = 2 if $t == $t2 && $k == 0 && $O eq 'O2' && $reps < 2;   # the counts' second run
        (my $args = $args[$k]) =~ s/\{P\}/$t/g;
        my $name = "$id: same output at $t " . ($p->{kind} eq 'mpi' ? 'ranks' : $t > 1 ? 'threads' : 'thread')
                 . (@args > 1 ? " ($args)" : '') . ($reps > 1 ? " ($reps runs)" : '');
        my ($same, $what) = (1, '');
        if ($hung) {        # a hang costs $LIMIT s: one is enough
            push @checks, { name => $name, ok => 0, diag => "not run: an earlier run hung ($hung)$hint" };
            next;
        }
        for my $r (1 .. $reps) {
            my $rec = "$dir/rec-$t-$r" . ($k ? "-a$k" : '') . ($p->{kind} eq 'mpi' ? '' : '.ppr');
            my %res;
            for my $b (qw(plain inst)) {
                my $env = $b eq 'inst' ? 'PERFPRED_RECORD=' . shq($rec) : '';
                my $run = $p->{kind} eq 'mpi' ? "env $env ${env0}mpirun -np $t $dir/$b $args"
                                              : "env OMP_NUM_THREADS=$t $env0$env $dir/$b $args";
                # (no core file from the programs that die of a signal; in
                # the build's directory, where a file a program names, as
                # stress_fork's exec.ppr, is written)
                $res{$b} = [run_in($dir, "cd " . shq($dir) . " || exit 1; ulimit -c 0; timeout -k 5 $LIMIT $run </dev/null")];
                $hung = "$b at $t, run $r: killed after $LIMIT s" if $res{$b}[0] == 124 || $res{$b}[0] == 137;
                if ($p->{kind} eq 'mpi') {      # the ranks' lines in any order; Open MPI's messages
                    $res{$b}[1] = join '', sort split /^/m, $res{$b}[1];
                    $res{"$b.err"} = "\n  stderr (not compared): " . substr($res{$b}[2], 0, 4000);
                    $res{$b}[2] = '';
                }
                $res{"$b.cmd"} = $run;
            }
            my ($pl, $in) = ($res{plain}, $res{inst});
            if ($pl->[0] != $in->[0] || $pl->[1] ne $in->[1] || $pl->[2] ne $in->[2]) {
                $same = 0;
                $what = "run $r of $reps at $t threads\n"
                      . "plain: $res{'plain.cmd'}\n  exit $pl->[0]\n  stdout: $pl->[1]\n  stderr: $pl->[2]"
                      . ($res{'plain.err'} // '') . "\n"
                      . "instrumented: $res{'inst.cmd'}\n  exit $in->[0]\n  stdout: $in->[1]\n  stderr: $in->[2]"
                      . ($res{'inst.err'} // '');
                last;
            }
            my $recfile = $p->{kind} eq 'mpi' ? "$rec/rank-0.ppr" : $rec;
            if (-e $recfile && $p->{norecord} && $args =~ $p->{norecord}) {
                $same = 0;
                $what = "run $r at $t threads wrote a record $recfile (none expected: see \@more)";
                last;
            }
            if (!-s $recfile && !($p->{norecord} && $args =~ $p->{norecord})) {
                $same = 0;
                $what = "run $r at $t threads wrote no record $recfile";
                last;
            }
        }
        push @checks, { name => $name, ok => $same, diag => "$cmd{plain}\n$cmd{inst}\n$what$hint" };
      }
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
        my ($rc2, $out2) = run_in($dir, "$PP show $dir/rec-$t2-2.ppr --format json");
        my $j2 = $rc2 == 0 ? eval { decode_json($out2) } : undef;
        $loops{2} = { map { ("$_->{id} ($_->{file}:$_->{line})" => $_->{observed}) } @{ $j2->{loops} } } if $j2;
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

my (%byjob, %secs, @slow);
for my $k (0 .. $#jobs) {
    my $r = eval { decode_json(slurp("$TMP/job-$k.json")) }
        // { checks => [{ name => "$jobs[$k][0]{name} -$jobs[$k][1] $jobs[$k][2]: the job finished", ok => 0 }] };
    $byjob{"$jobs[$k][0]{name} $jobs[$k][1] $jobs[$k][2]"} = $r;
    my $p = $jobs[$k][0];
    $secs{ ($p->{diff} ? 'tests/diff' : $p->{src}[0] =~ m{^(samples|tests/programs)/} ? 'samples, tests/programs'
            : 'other tests/ programs') . ($p->{kind} eq 'mpi' ? ' (MPI)' : '') } += $r->{secs} // 0;
    push @slow, sprintf '%s -%s %s %.1f s', $p->{name}, $jobs[$k][1], $jobs[$k][2], $r->{secs} // 0;
    for my $c (@{ $r->{checks} }) {
        ok($c->{ok}, $c->{name}) or diag($c->{diag});
    }
}

diag('the slowest builds: ' . join(', ', (sort { ($b =~ /([\d.]+) s$/)[0] <=> ($a =~ /([\d.]+) s$/)[0] } @slow)[0 .. ($#slow < 9 ? $#slow : 9)]))
    if $ENV{TEST_VERBOSE};

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
    my ($a, $a2, $s, $s2) = ($sh->{loops}{1}, $sh->{loops}{2}, $st->{loops}{1}, $st->{loops}{2});
    if (!$a || !$a2 || !$s || !$s2) {
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
        if (exists $s->{$l} && ($s->{$l} // -1) != ($s2->{$l} // -1)) {
            push @skipped, "$l (two static runs: $s->{$l}, " . ($s2->{$l} // 'none') . ")";
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
     $FULL ? 'PERFPRED_DIFF_FULL=1: every program at -O0/-O2/-O3' : 'default: all but tests/diff at -O2 only',
     join(', ', map { sprintf '%s %.0f s', $_, $secs{$_} } sort keys %secs));
done_testing();
