#!/usr/bin/perl
# 91-equations.t - perfpred equations: the counts of a triangular nest sum
# to N(N-1)/2 in closed form at any N; Gaussian elimination's elimination
# loop runs (N+1)N(N-1)/3 times at P = 1; the whole program's equation at
# the recorded size and P = 1 is the model's T1 (as predict prints it);
# the SymPy output evaluated by SymPy and the Maxima output by Maxima give
# the text and JSON values; the machine's synchronisation terms are a +
# b*log2(P) per fork, and the fitted cost of a segment is T_sync's, never
# T's; --block by name and by FILE:LINE, and its errors; an
# MPI program (mpi_ge): its equation at P = 1 is T1, the network left out.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use lib 'tests/e2e/lib';
use PPCheck qw(hand_machine run_in);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
delete $ENV{PERFPRED_DISABLE};

sub build {
    my ($src, $name, $flags) = @_;
    system("gcc -O2 $flags -fplugin=$B/perfpred.so -c $src -o $tmp/$name.o") == 0
        && system("gcc $flags $san $tmp/$name.o -o $tmp/$name -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build $src with the plugin");
}
sub json { my $o = eval { decode_json($_[0]) }; return $o || {}; }
sub block { my ($j, $id) = @_; return (grep { $_->{id} eq $id } @{ $j->{blocks} || [] })[0] || {}; }
sub term { my ($b, $what) = @_; return (grep { $_->{what} eq $what } @{ $b->{terms} || [] })[0] || {}; }
sub close_to { my ($a, $b, $rel) = @_; return defined $a && defined $b && abs($a - $b) <= $rel * abs($b) + 1e-9; }

# 1. the triangular nest of tests/programs/triangle.c
build('tests/programs/triangle.c', 'triangle', '');
system("PERFPRED_RECORD=$tmp/tri.ppr $tmp/triangle 100 >/dev/null") == 0 or BAIL_OUT('triangle run');
for my $N (100, 1000, 100000) {
    my $j = json(`$pp equations $tmp/tri.ppr --set N=$N --format json 2>/dev/null`);
    my $t = term(block($j, 'main:L1'), 'iterations of main:L1');
    my $want = $N * ($N - 1) / 2;
    is($t->{count_asked}, $want, "triangle N=$N: the inner loop's count is N(N-1)/2 = $want");
    like($t->{count} // '', qr{\(N\^2 - N\)/2}, "triangle N=$N: in closed form ($t->{count})") if $N == 100;
    is(term(block($j, 'main:L0'), 'iterations of main:L0')->{count_asked}, $N, "triangle N=$N: the outer loop runs N times");
}

# 2. Gaussian elimination (OpenMP), recorded at N = 64 with 2 threads
build('samples/ge_omp.c', 'ge_omp', '-fopenmp');
system("OMP_NUM_THREADS=2 PERFPRED_RECORD=$tmp/ge.ppr $tmp/ge_omp 64 >/dev/null") == 0 or BAIL_OUT('ge_omp run');
my $g1 = json(`$pp equations $tmp/ge.ppr --P 1 --format json 2>/dev/null`);
my $l3 = term(block($g1, 'main:L3'), 'iterations of main:L3');
is($l3->{count_recorded}, 64 * 63 / 2, 'ge_omp: the pivot search runs N(N-1)/2 = 2016 times');
my $el = term(block($g1, 'main._omp_fn.1:L1'), 'iterations of main._omp_fn.1:L1');
is($el->{count_asked}, 65 * 64 * 63 / 3, 'ge_omp P=1: the elimination runs (N+1)N(N-1)/3 = 87360 times');
my $pr1 = json(`$pp predict $tmp/ge.ppr --P 1 --format json 2>/dev/null`);
my $T1 = block($g1, 'program')->{asked_ns};
ok(close_to($T1, $pr1->{T1} * 1e9, 1e-6), "ge_omp: the program's equation at N=64, P=1 is T1 ($T1 ns against predict's "
   . ($pr1->{T1} * 1e9) . ')');
my $g4 = json(`$pp equations $tmp/ge.ppr --set N=200 --P 4 --format json 2>/dev/null`);
my $pr4 = json(`$pp predict $tmp/ge.ppr --set N=200 --P 4 --format json --draws 0 2>/dev/null`);
my $path = block($g4, 'program')->{asked_ns};
ok(close_to($path, $pr4->{time}{pram} * 1e9, 1e-6),
   "ge_omp N=200, P=4: thread 0's path (the largest static chunks) is T_PRAM ($path ns)");
my ($sm, $s2, $s3, $s5) = map { block($g4, $_)->{share_asked} // -1 } qw(main main:L2 main:L3 main:L5);
ok(close_to($sm, 1, 1e-12), "ge_omp: main is the whole program (share $sm)");
ok($s2 < 1 && $s3 > 0 && $s5 > 0 && $s3 + $s5 < $s2, "ge_omp: a loop's share holds its inner loops' ($s2 > $s3 + $s5)");

# 3. the text output
my ($rc, $text) = run_in($tmp, "$pp equations $tmp/ge.ppr --block main:L3");
is($rc, 0, 'text: exit status 0');
like($text, qr{main:L3\s+ge_omp\.c:88\s+\(loop\)}, 'text: the loop named with its place');
like($text, qr{\(N\^2 - N\)/2.*\[iterations of main:L3\]}, 'text: its count in closed form, labelled');
my ($tv) = $text =~ /= ([0-9.]+ [mun]?s) at N=64, P=2/;
ok(defined $tv, "text: its value at the recorded size (" . ($tv // 'none') . ')');
sub ns_of { my ($v, $u) = $_[0] =~ /([0-9.]+) (\w+)/; return $v * {ns => 1, us => 1e3, ms => 1e6, s => 1e9}->{$u}; }

# 4. SymPy, when it is there (Debian python3-sympy)
my $g = json(`$pp equations $tmp/ge.ppr --format json 2>/dev/null`);
my ($prog_rec, $l3_rec) = (block($g, 'program')->{recorded_ns}, block($g, 'main:L3')->{recorded_ns});
my ($py) = grep { system("$_ -c 'import sympy' >/dev/null 2>&1") == 0 } qw(python3 /usr/bin/python3);
SKIP: {
    skip 'SymPy is not installed (Debian package python3-sympy, make deps)', 4 unless $py;
    system("$pp equations $tmp/ge.ppr --format sympy >$tmp/ge_eq.py 2>/dev/null") == 0 or BAIL_OUT('sympy output');
    open my $s, '>', "$tmp/eval.py" or die;
    print $s "exec(open('$tmp/ge_eq.py').read())\n"
        . "for b in ['program', 'main:L3', 'main._omp_fn.1:L1']:\n"
        . "    print(b, repr(float(T[b].subs(recorded).doit())))\n"
        . "print('diff', T['main:L3'].diff(N).subs(recorded).doit())\n";
    close $s;
    my %v = map { chomp; split / / } grep { /\S/ } `$py $tmp/eval.py 2>&1`;
    ok(close_to($v{program}, $prog_rec, 1e-8), "sympy: the program at N=64, P=2 is $prog_rec ns (" . ($v{program} // 'none') . ')');
    ok(close_to($v{'main:L3'}, $l3_rec, 1e-8), "sympy: main:L3 is $l3_rec ns (" . ($v{'main:L3'} // 'none') . ')');
    ok(defined $tv && close_to($v{'main:L3'}, ns_of($tv), 1e-3), "sympy: main:L3 agrees with the text's $tv");
    ok(defined $v{diff} && $v{diff} > 0, "sympy: the equation can be differentiated (dT/dN of main:L3 = " . ($v{diff} // 'none') . ')');
}

# 5. Maxima, when it is there (Debian maxima)
SKIP: {
    skip 'Maxima is not installed (Debian package maxima, make deps)', 2
        unless system('command -v maxima >/dev/null 2>&1') == 0;
    system("$pp equations $tmp/ge.ppr --format maxima >$tmp/ge_eq.mac 2>/dev/null") == 0 or BAIL_OUT('maxima output');
    open my $s, '>', "$tmp/eval.mac" or die;
    print $s "batchload(\"$tmp/ge_eq.mac\")\$\n"
        . "print(\"program\", float(ev(T_program, recorded, nouns)))\$\n"
        . "print(\"L3\", float(ev(T_main_L3, recorded, nouns)))\$\n";
    close $s;
    my $out = `cd $tmp && maxima --very-quiet -b $tmp/eval.mac 2>&1`;
    my ($mp) = $out =~ /^program ([0-9.e+-]+)/m;
    my ($m3) = $out =~ /^L3 ([0-9.e+-]+)/m;
    ok(close_to($mp, $prog_rec, 1e-8), "maxima: the program at N=64, P=2 is $prog_rec ns (" . ($mp // 'none') . ')');
    ok(close_to($m3, $l3_rec, 1e-8), "maxima: main:L3 is $l3_rec ns (" . ($m3 // 'none') . ')');
}

# 6. the machine's synchronisation: forkjoin.omp 400 + 500 log2(P) per fork
my $mach = hand_machine("$tmp/hand.machine");
my $gm = json(`$pp equations $tmp/ge.ppr --machine $mach --P 4 --format json 2>/dev/null`);
my $sync = block($gm, 'program')->{sync} || {};
like($sync->{sympy} // '', qr{log\(P, 2\)}, 'machine: the fork/join cost is a + b*log(P, 2)');
my $forks = 64;   # one initialising region and N - 1 elimination steps
# and each fork and join ends a segment of main: the fitted fixed cost of a
# segment is the real machine's synchronisation (T_sync), not computation
my $seg = json(`$pp show $tmp/ge.ppr --machine $mach --format json 2>/dev/null`)->{cost}{segment_ns};
ok(defined $seg && $seg > 0, "ge_omp: a fitted cost per segment (" . ($seg // 'none') . ' ns)');
ok(close_to($sync->{asked_ns}, $forks * (400 + 500 * 2 + 2 * ($seg // 0)), 1e-8),
   "machine: $forks forks at P=4 cost $forks x (400 + 500 log2 4 + 2 x $seg) ns (" . ($sync->{asked_ns} // 'none') . ')');
like(`$pp equations $tmp/ge.ppr --machine $mach --block program`, qr{^\s+\+ [0-9.]+(?:e[+-]?[0-9]+)?\*.*\[segment ends \(events\)\]$}m,
     'machine: the segments\' fixed cost is a term of T_sync (a %.4g number: 1.106e+04 where a loaded host '
     . 'fitted 11 us)');
unlike(`$pp equations $tmp/ge.ppr --block program`, qr{segment ends},
       'no machine: no segment cost in T (the PRAM has none)');

# 7. --block and bad input
my $one = json(`$pp equations $tmp/ge.ppr --block ge_omp.c:88 --format json 2>/dev/null`);
is(join(',', map { $_->{id} } @{ $one->{blocks} || [] }), 'main:L3', '--block ge_omp.c:88 is main:L3');
($rc, undef, my $err) = run_in($tmp, "$pp equations $tmp/ge.ppr --block main:L99");
is($rc, 2, '--block main:L99: exit status 2');
like($err, qr{--block main:L99: no function or loop}, '--block main:L99: the error names it');
($rc, undef, $err) = run_in($tmp, "$pp equations $tmp/ge.ppr --format csv");
is($rc, 2, '--format csv: exit status 2');
like($err, qr{text, sympy, maxima or json}, '--format csv: the formats named');
($rc, undef, $err) = run_in($tmp, "$pp equations $tmp/ge.ppr --format latex");
like($err, qr{'latex' is not one of text, sympy, maxima, json}, '--format latex: the formats named');

# 8. an MPI program: mpi_ge recorded at n = 128 on 4 ranks; rank 0's
# equation at P = 1 is predict's T1 at the recorded size and beyond it,
# with the cluster's network T_sync is its broadcasts' LogGP cost (by
# hand), and SymPy gives the JSON's value
SKIP: {
    skip 'mpicc or mpirun is not installed', 7
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local @ENV{qw(OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe ASAN_OPTIONS)}
        = (1, 1, 1, 'detect_leaks=0');
    system("mpicc -O2 $san -fplugin=$B/perfpred.so samples/mpi_ge.c -o $tmp/mpi_ge -L$B -l:libperfpred-rt.a -lm") == 0
        && system("PERFPRED_RECORD=$tmp/mge.run timeout -k 5 120 mpirun -np 4 $tmp/mpi_ge 128 >/dev/null 2>&1") == 0
        or BAIL_OUT('cannot build or record samples/mpi_ge.c');
    for my $n (128, 1024) {
        my $e = json(`$pp equations $tmp/mge.run --set n=$n --P 1 --format json 2>/dev/null`);
        my $p = json(`$pp predict $tmp/mge.run --set n=$n --P 1 --draws 0 --format json 2>/dev/null`);
        my $v = block($e, 'program')->{asked_ns};
        ok(defined $p->{T1} && close_to($v, $p->{T1} * 1e9, 1e-9),
           "mpi_ge n=$n: the program's equation at P=1 is predict's T1 (" . ($v // 'none') . ' ns)');
    }
    my ($mrc, $mtext) = run_in($tmp, "$pp equations $tmp/mge.run --machine docs/examples/cluster.machine --set n=1024 --P 64");
    is($mrc, 0, 'mpi_ge: equations --machine, text');
    like($mtext, qr/T_sync = 2100\*\(\(P > 1 \? ceil\(log2\(P\)\) : 0\)\)\s+\[MPI_Bcast at line \d+ of main: n rounds, per message \(2o \+ L - G\)\]/,
         'mpi_ge: with a machine, T_sync holds the broadcasts: ceil(log2 P) rounds of 2o + L - G');
    like($mtext, qr/note: MPI_Bcast at line \d+ of main: the binomial algorithm, by the AUTO rules \(the machine's choice at P = 64 and 8200 bytes\)/,
         'mpi_ge: the note names the pivot row broadcast\'s algorithm, P and bytes');
    # By hand, on the cluster's network (L = 1500, o = 300, G = 0.08 ns/byte:
    # x(m) = 2o + L + (m - 1) G = 2099.92 + 0.08 m, eager), P = 64 (6 rounds
    # of the binomial tree), n = 1024: rank 0's broadcasts are the size (4
    # bytes) once, the pivot row with its right-hand side (8n + 8 bytes)
    # n - 1 times and the solution's element (8 bytes) n times.
    my $x = sub { 2099.92 + 0.08 * $_[0] };
    # Each of rank 0's 1 + 1023 + 1024 broadcasts also ends a segment: its
    # fitted fixed cost is synchronisation too.
    my $mseg = json(`$pp show $tmp/mge.run --view model --machine docs/examples/cluster.machine --format json 2>/dev/null`)->{cost}{segment_ns} // 0;
    my $hand = 6 * ($x->(4) + 1023 * $x->(8 * 1024 + 8) + 1024 * $x->(8)) + 2048 * $mseg;
    my $mjn = json(`$pp equations $tmp/mge.run --machine docs/examples/cluster.machine --set n=1024 --P 64 --format json 2>/dev/null`);
    my $ts = block($mjn, 'program')->{sync}{asked_ns};
    ok(close_to($ts, $hand, 1e-7), "mpi_ge n=1024 P=64: T_sync is the broadcasts' and segments' $hand ns by hand (" . ($ts // 'none') . ')');
    my $mj = json(`$pp equations $tmp/mge.run --format json 2>/dev/null`);
    my $want = block($mj, 'program')->{recorded_ns};
    my $got;
    if ($py && system("$pp equations $tmp/mge.run --format sympy >$tmp/mge_eq.py 2>/dev/null") == 0) {
        ($got) = `$py -c "exec(open('$tmp/mge_eq.py').read()); print(repr(float(T['program'].subs(recorded).doit())))" 2>&1`;
        chomp $got if defined $got;
    }
    ok(!$py || close_to($got, $want, 1e-8), 'mpi_ge: SymPy evaluates the program at the recorded size to '
       . ($want // 'none') . ' ns (' . ($py ? $got // 'none' : 'no SymPy') . ')');
}

done_testing();
