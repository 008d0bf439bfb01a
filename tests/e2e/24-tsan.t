#!/usr/bin/perl
# 24-tsan.t - ThreadSanitizer on the samples compiled with the plugin: the
# runtime built with -fsanitize=thread (runtime/*.c), every shared-memory
# sample (pthreads and OpenMP) and the OpenMP stress programs run at a
# small size must print what the plain build prints, keep their record
# consistent, and give no ThreadSanitizer report.
#
# libgomp is not instrumented, so TSan does not see the order it provides
# (fork, join, barriers, critical sections).  Nothing is suppressed for
# that: the runtime's OpenMP wrappers, which see each of those calls, tell
# TSan about it in a TSan build (PP_TSAN_RELEASE/ACQUIRE, rt-internal.h),
# so that a report means a race in the program or the runtime.  The one
# exception is the task program: GOMP_task is not wrapped, and the task's
# data block that libgomp allocates and fills is suppressed as libgomp's own
# (tests/stress/tsan-libgomp.supp says why).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Cwd ();
use lib "$FindBin::Bin/lib";
use PPStress qw(run_prog wait_desc record_ok);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";
my $B = $ENV{PERFPRED_BUILD} || 'build';
plan skip_all => "$B/perfpred.so is not built (make all)" unless -e "$B/perfpred.so";
my $tmp = tempdir('pp-tsan-XXXXXX', TMPDIR => 1, CLEANUP => 1);

# the runtime, instrumented
my $rt = "$tmp/rt";
mkdir $rt;
my $log = '';
for my $src (glob('runtime/*.c runtime/*.S')) {
    my ($base) = $src =~ m{([^/]+)\.[cS]$};
    $log .= `gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -O1 -g -fsanitize=thread -c $src -o $rt/$base.o 2>&1`;
    last if $?;
}
$log .= `ar rcs $rt/libperfpred-rt-tsan.a $rt/*.o 2>&1` unless $?;
ok($? == 0, 'the runtime builds with -fsanitize=thread') or BAIL_OUT($log);

# name, source, arguments (the small sizes of 50-samples.t and 55-more-samples.t)
my @progs = (
    ['ge_pthreads',   'samples/ge_pthreads.c',   '64 2'],
    ['ge_omp',        'samples/ge_omp.c',        '64 2'],
    ['apsp',          'samples/apsp.c',          '64 2'],
    ['em',            'samples/em.c',            '32 32 8 8 2 20'],
    ['jacobi',        'samples/jacobi.c',        '128 20 2'],
    ['matmul_rows',   'samples/matmul_rows.c',   '64 2'],
    ['matmul_blocks', 'samples/matmul_blocks.c', '64 4'],
    ['md',            'samples/md.c',            '1024 10 2'],
    ['omp-nested',    'tests/stress/stress-omp.c', 'nested 3 3 1000'],
    ['omp-tasks',     'tests/stress/stress-omp.c', 'tasks 4 20 100', 'tests/stress/tsan-libgomp.supp'],
    ['omp-many',      'tests/stress/stress-omp.c', 'many 16 10000'],
    ['pthread-waves', 'tests/stress/stress-pthread.c', 'waves 2 16 100'],
);
my @missing = grep { !-e $_->[1] } @progs;
ok(!@missing, 'every program is there') or diag(join ' ', map { $_->[1] } @missing);

for my $p (@progs) {
    my ($name, $src, $args, $supp) = @$p;
    next unless -e $src;
    my $bin = "$tmp/$name";
    my $l = `gcc -O2 -fopenmp -pthread $src -o $bin.plain -lm 2>&1`;
    $l .= `gcc -O1 -g -fsanitize=thread -fopenmp -pthread -fplugin=$B/perfpred.so $src -o $bin $rt/libperfpred-rt-tsan.a -lm 2>&1`
        unless $?;
    ok($? == 0, "$name: builds with the plugin and -fsanitize=thread") or do { diag($l); next };
    my $rec = "$tmp/$name.ppr";
    my $topt = 'exitcode=66' . ($supp ? " suppressions=" . Cwd::getcwd() . "/$supp" : '');
    my ($st, $out, $err) = run_prog($tmp, { PERFPRED_RECORD => $rec, TSAN_OPTIONS => $topt },
                                    "timeout -k 5 120 $bin $args");
    my ($pst, $pout) = run_prog($tmp, {}, "$bin.plain $args");
    is(wait_desc($st), wait_desc($pst), "$name: exit status") or diag($err);
    is($out, $pout, "$name: output as the plain build's");
    unlike($err, qr/WARNING: ThreadSanitizer/, "$name: no ThreadSanitizer report")
        or diag(substr($err, 0, 4000));
    my ($r, @e) = record_ok($rec);
    ok(!@e, "$name: record invariants") or diag(join("\n", grep { defined } @e[0 .. 10]));
}

done_testing();
