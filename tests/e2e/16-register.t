#!/usr/bin/env perl
# 16-register.t - the registration checks (plugin/pp-register.cc): one at
# the entry of each function that uses counters once inlining is done,
# registering every counter array its body uses (its own, those of the
# functions inlined into it, even into a function that is not instrumented
# itself) and those of the callees registered by their callers; -flto keeps
# the check the instrumentation pass inserts.  tests/plugin/register/
# register.c runs its functions in three threads: every function's counts,
# per thread, are exact (hand-computed) at -O0, -O2, -O3 and with -flto,
# and the program prints what it prints without the plugin.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $BD = $ENV{PERFPRED_BUILD} // 'build';
# (loop timing off: these checks are of the counting code; 10-plugin.t
# checks the counts with it on)
my $PL = "-fplugin=$BD/perfpred.so -fplugin-arg-perfpred-no-loop-timing";
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
my $TMP = tempdir('pp-register-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SRC = 'tests/plugin/register/register.c';

sub run { my ($cmd) = @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }

my ($rc, $out) = run("gcc -O2 -pthread $SRC -o $TMP/plain");
is($rc, 0, 'plain build') or diag($out);
my $want = `$TMP/plain 100`;
is($want, "18575 4900 945 4950\n", 'the plain program');

# hand-computed, per thread (0 main, 1 and 2 the workers in creation
# order) and function: clamp (calls, x > hi, x <= hi) from quiet in main
# (i < 100 against 10) and from work (v[i] = i against 50, n = 100 and
# 50); scale (calls, header executions, entries); work (calls, header,
# entries, and its loop's body)
my %want = (
    '0 clamp' => '1 89 11', '1 clamp' => '1 49 51', '2 clamp' => '1 0 50',
    '0 scale' => '1 101 1', '1 scale' => '1 101 1', '2 scale' => '1 51 1',
    '1 work' => '1 101 1 1 100', '2 work' => '1 51 1 1 50',
);

for my $opt ('-O0', '-O2', '-O3', '-O2 -flto') {
    ($rc, $out) = run("gcc $opt$SAN -pthread $PL $SRC -o $TMP/prog -L$BD -l:libperfpred-rt.a");
    is($rc, 0, "$opt: build with the plugin and the runtime") or diag($out);
    unlink "$TMP/r.ppr";
    my $got = `env PERFPRED_RECORD=$TMP/r.ppr $TMP/prog 100`;
    is($got, $want, "$opt: same output as the plain program");
    my $rec = do { local $/; open my $h, '<', "$TMP/r.ppr" or die "no record\n"; <$h> };
    my %name = $rec =~ /^func idx=(\d+)\nfunc name=(\S+)/mg;
    my %got;
    $got{"$1 " . ($name{$2} // "?$2")} = $3
        while $rec =~ /^count thread=(\d+) func=(\d+) slots=\(([^)]*)\)/mg;
    for my $k (sort keys %want) {
        is($got{$k} // 'not registered', $want{$k}, "$opt: thread $k: exact counts");
    }
    ok(!grep({ /^\d+ quiet$/ } keys %got), "$opt: quiet (no_instrument_function) has no counters of its own");
}

# where the checks are, at -O2: work registers its own counters and
# clamp's (inlined into its loop), quiet registers clamp's; one call per
# array in the assembler output, none elsewhere (an inlined copy brings no
# check into its caller's loop)
($rc, $out) = run("gcc -O2 -pthread $PL -fplugin-arg-perfpred-verbose -S $SRC -o $TMP/r.s");
my %n = $out =~ /^perfpred: (\w+): registration check for (\d+) counter array/mg;
is($n{work}, 2, '-O2: work registers 2 counter arrays');
is($n{quiet}, 1, '-O2: quiet, not instrumented, registers clamp\'s');
ok(!exists $n{clamp}, '-O2: clamp, inlined everywhere, has no check');
my $s = do { local $/; open my $h, '<', "$TMP/r.s" or die; <$h> };
my $calls = () = $s =~ /call\s+__pp_register/g;
my $sum = 0;
$sum += $_ for values %n;
is($calls, $sum, "-O2: $sum calls of __pp_register, one per array registered");

# -flto: the check is inserted with the counters (the late pass would run
# in lto1): no late check is reported
($rc, $out) = run("gcc -O2 -flto -pthread $PL -fplugin-arg-perfpred-verbose -c $SRC -o $TMP/l.o");
unlike($out, qr/registration check for/, '-flto: the early check');
done_testing();
