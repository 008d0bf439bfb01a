#!/usr/bin/perl
# 88-breakdown.t - predict --by loop|function|event [--region] [--threads]
# (Parashar et al.'s three levels) on real programs, against what can be
# worked out by hand:
#  - an embarrassingly parallel loop has no waiting, on either machine, and
#    its computation on the real machine has the machine's slowdown;
#  - a serial fraction is the workers' idle time: each worker of the
#    pthreads program waits for its create while main runs its serial loop;
#  - B barriers cost B x (barrier(P) + the fitted cost of a segment) per
#    thread at the barrier's site, the machine file's figure and the
#    segment the barrier ends (and nothing on the PRAM);
#  - an MPI program's communication and waiting at its call sites add up
#    to the 'MPI: x% of the ranks' time' predict prints;
#  - the sites add up to the whole program, exactly, per thread and
#    category; every thread's categories add up to T; the breakdown's T is
#    predict's; a region is what its function or loop contains, by name
#    or by FILE:LINE (a loop's line, or a function's where no loop starts);
#  - the CSV and text outputs, and the errors.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in hand_machine);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $PP  = "$B/perfpred";
my $TMP = tempdir('pp-breakdown-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
mpi_setup();

sub run { return run_in($TMP, $_[0]) }
sub json_of { return json_in($TMP, @_) }
sub close_to { my ($a, $b, $tol) = @_; return abs($a - $b) <= $tol }
my @CATS = qw(computation communication sync wait idle);

sub build {
    my ($name, $src, $flags) = @_;
    my ($rc, $out, $err) = run("gcc -O2 $flags$SAN -fplugin=$B/perfpred.so $src -o $TMP/$name "
                               . "-L$B -l:libperfpred-rt.a");
    is($rc, 0, "$name builds with the plugin") or BAIL_OUT($err);
}
sub record {
    my ($name, $args) = @_;
    my ($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/$name.ppr $TMP/$name $args");
    is($rc, 0, "$name $args runs and records") or BAIL_OUT($err);
}

# The invariants of one prediction's breakdown (with --threads): the sites
# add up to the program per thread and category; each thread's total is T;
# the breakdown's T is predict's.
sub invariants {
    my ($p, $what) = @_;
    my $bd = $p->{breakdown};
    for my $mk (qw(real pram)) {
        my $m = $bd->{machines}{$mk};
        my $T = $m->{time};
        is($T, $p->{time}{$mk}, "$what $mk: the breakdown's T is predict's");
        my $prog = $m->{program}{per_thread};
        my ($worst_sum, $worst_T) = (0, 0);
        for my $c (@CATS) {
            for my $t (0 .. $bd->{threads} - 1) {
                my $s = 0;
                $s += $_->{per_thread}{$c}[$t] for @{ $m->{sites} };
                my $d = abs($s - $prog->{$c}[$t]);
                $worst_sum = $d if $d > $worst_sum;
            }
        }
        for my $t (0 .. $bd->{threads} - 1) {
            my $s = 0;
            $s += $prog->{$_}[$t] for @CATS;
            $worst_T = abs($s - $T) if abs($s - $T) > $worst_T;
        }
        ok($worst_sum <= 1e-8 * $T, "$what $mk: the sites add up to the program per thread and category")
            or diag("worst difference $worst_sum s");
        ok($worst_T <= 1e-8 * $T, "$what $mk: every thread's categories add up to T") or diag("worst $worst_T s");
    }
}

my $mach = "$TMP/hand.machine";
hand_machine($mach);     # no compute slowdown: hand-computable

# ----------------------------------------------------- embarrassingly parallel
build('embar', 'tests/programs/embar.c', '-fopenmp');
record('embar', '4800 2 20');
for my $P (4, 8) {
    my $p = json_of("$PP predict $TMP/embar.ppr --machine $mach --insitu off --set N=96000 --set R=20 --P $P "
                    . "--draws 0 --by loop --threads --format json", "embar P=$P: predict --by loop --threads");
    next unless $p;
    invariants($p, "embar P=$P");
    my $bd = $p->{breakdown};
    is($bd->{threads}, $P, "embar P=$P: $P threads");
    for my $mk (qw(real pram)) {
        my $m = $bd->{machines}{$mk};
        my $w = $m->{program}{max}{wait};
        ok($w <= 1e-9 * $m->{time}, "embar P=$P $mk: no thread waits (max $w s)");
        my ($loop) = sort { $b->{sum}{computation} <=> $a->{sum}{computation} } @{ $m->{sites} };
        ok($loop->{kind} eq 'loop' && $loop->{function} =~ /_omp_fn/,
           "embar P=$P $mk: a loop of the parallel region has the most computation ($loop->{site})");
        my $par = 0;
        $par += $_->{sum}{computation} for grep { $_->{kind} eq 'loop' && $_->{function} =~ /_omp_fn/ } @{ $m->{sites} };
        ok($par >= 0.9 * $m->{program}{sum}{computation},
           "embar P=$P $mk: the parallel region's loops have 90% of it or more");
    }
}

# the real machine's compute slowdown is in every loop's computation: with
# scale.compute = 1 + 0.05 P the parallel loops run 1.2 times their PRAM
# time at P = 4 (all four threads compute at once)
{
    my $slow = hand_machine("$TMP/slow.machine", compute => [1, 0.05]);
    my $p = json_of("$PP predict $TMP/embar.ppr --machine $slow --insitu off --set N=96000 --set R=20 --P 4 "
                    . "--draws 0 --by loop --format json", 'embar P=4, compute slowdown: predict --by loop');
    if ($p) {
        my $m = $p->{breakdown}{machines};
        my %pram = map { $_->{site} => $_->{sum}{computation} } @{ $m->{pram}{sites} };
        my @par = grep { $_->{kind} eq 'loop' && $_->{function} =~ /_omp_fn/ } @{ $m->{real}{sites} };
        ok(@par >= 1, 'embar: the parallel region has loops');
        for my $l (@par) {
            my $r = $l->{sum}{computation} / $pram{ $l->{site} };
            ok(abs($r - 1.2) <= 1e-6, "embar P=4: $l->{site} computes 1.2 times its PRAM time on the real machine "
               . "(the slowdown of 4 threads): $r");
        }
    }
}

# ----------------------------------------------------- serial fraction (pthreads)
build('serial', 'tests/programs/serial.c', '-pthread');
record('serial', '3000000 3000000 1');
{
    my $p = json_of("$PP predict $TMP/serial.ppr --machine $mach --insitu off --P 4 --draws 0 --by loop --threads "
                    . "--format json", "serial P=4: predict --by loop --threads");
    if ($p) {
        invariants($p, 'serial P=4');
        my $m = $p->{breakdown}{machines}{pram};
        my $T = $m->{time};
        my ($serial) = grep { $_->{site} eq 'main:L0' } @{ $m->{sites} };
        my $Ts = $serial->{sum}{computation};
        ok($Ts > 0.3 * $T, "serial: main's serial loop is a large part of T_PRAM ($Ts of $T s)");
        my $names = $p->{breakdown}{thread_names};
        for my $t (1 .. 4) {
            like($names->[$t], qr/^pthread \d+ \(worker\)$/, "serial: thread $t is a worker ($names->[$t])");
            my $idle = $m->{program}{per_thread}{idle}[$t];
            ok(close_to($idle, $Ts, 0.02 * $T),
               "serial PRAM: worker $t is idle while main runs the serial loop ($idle s, the loop $Ts s)");
        }
        my $share = 0;
        $share += $m->{program}{per_thread}{idle}[$_] for 1 .. 4;
        $share /= 4 * $T;
        ok(close_to($share, $Ts / $T, 0.02), sprintf("serial PRAM: the workers' idle share %.4f is the serial "
                                                     . "fraction of T_PRAM %.4f", $share, $Ts / $T));
        is($m->{program}{per_thread}{idle}[0], 0, 'serial PRAM: main is never idle');
    }
}

# ----------------------------------------------------- barriers
my %seg_of;
build('barriers', 'tests/programs/barriers.c', '-fopenmp');
record('barriers', '20000 50 2');
for my $c ([4, 50], [8, 50], [4, 80]) {
    my ($P, $Bn) = @$c;
    my $p = json_of("$PP predict $TMP/barriers.ppr --machine $mach --insitu off --P $P --set B=$Bn --draws 0 "
                    . "--by event --threads --format json", "barriers P=$P B=$Bn: predict --by event");
    next unless $p;
    invariants($p, "barriers P=$P B=$Bn");
    # barrier.omp of the hand machine: 140 + 250 log2(P) ns, and the fitted
    # fixed cost of the segment each barrier ends (synchronisation on the
    # real machine, not computation: docs/model.md, section 5)
    my $seg = $seg_of{barriers} //= (eval { decode_json(scalar `$PP show $TMP/barriers.ppr --machine $mach --format json 2>/dev/null`) } || {})->{cost}{segment_ns} // 0;
    my $want = $Bn * (140 + 250 * log($P) / log(2) + $seg) / 1e9;
    my $m = $p->{breakdown}{machines}{real};
    my ($bar) = grep { $_->{kind} eq 'barrier' } @{ $m->{sites} };
    ok($bar, "barriers P=$P: the barrier is a site") or next;
    # (1e-8: show's JSON gives the segment's cost to 9 digits)
    ok(close_to($bar->{min}{sync}, $want, 1e-8 * $want) && close_to($bar->{max}{sync}, $want, 1e-8 * $want),
       "barriers P=$P B=$Bn: every thread pays B x (barrier(P) + $seg ns) = $want s at the barrier "
       . "($bar->{min}{sync} .. $bar->{max}{sync})");
    # (up to the rounding of the clocks: equal work reaches the barrier
    # at times that differ in the last bits)
    ok($bar->{max}{wait} <= 1e-9 * $m->{time}, "barriers P=$P B=$Bn: equal work, nobody waits at the barrier "
       . "($bar->{max}{wait} s)");
    my ($pb) = grep { $_->{kind} eq 'barrier' } @{ $p->{breakdown}{machines}{pram}{sites} };
    ok($pb && $pb->{sum}{sync} == 0 && $pb->{max}{wait} <= 1e-9 * $m->{time},
       "barriers P=$P B=$Bn: the PRAM's barrier costs nothing, and nobody waits there");
}

# ----------------------------------------------------- regions, outputs (ge_omp)
build('ge_omp', 'samples/ge_omp.c', '-fopenmp');
record('ge_omp', '64 2');
my $GE = "$TMP/ge_omp.ppr --machine $mach --insitu off --set N=256 --P 4 --draws 0";
my $whole = json_of("$PP predict $GE --by function --threads --format json", 'ge_omp: --by function');
invariants($whole, 'ge_omp by function') if $whole;
my $rm = json_of("$PP predict $GE --by loop --region main --threads --format json", 'ge_omp: --region main');
my $rl = json_of("$PP predict $GE --by loop --region main:L2 --format json", 'ge_omp: --region main:L2');
my $rf = json_of("$PP predict $GE --by loop --region ge_omp.c:84 --format json", 'ge_omp: --region ge_omp.c:84');
if ($whole && $rm && $rl && $rf) {
    for my $mk (qw(real pram)) {
        my $prog = $whole->{breakdown}{machines}{$mk}{program}{sum};
        my $reg = $rm->{breakdown}{machines}{$mk}{region}{sum};
        for my $c (qw(computation communication sync wait)) {
            ok(close_to($reg->{$c}, $prog->{$c}, 1e-8 * $prog->{total}),
               "ge_omp $mk: region main holds all the $c ($reg->{$c} of $prog->{$c} s)");
        }
        is($reg->{idle}, 0, "ge_omp $mk: a region has no idle time");
        my ($a, $b) = map { $_->{breakdown}{machines}{$mk}{region}{sum} } $rl, $rf;
        is_deeply($a, $b, "ge_omp $mk: --region ge_omp.c:84 is --region main:L2 (the k loop)");
        ok($a->{computation} < $reg->{computation} && $a->{computation} > 0.5 * $reg->{computation},
           "ge_omp $mk: the k loop holds most of main's computation, not all");
        my %in = map { $_->{site} => 1 } @{ $rl->{breakdown}{machines}{$mk}{sites} };
        ok($in{'main._omp_fn.1:L1'} && !$in{'main._omp_fn.0:L1'} && !$in{'main:L7'},
           "ge_omp $mk: main:L2 contains the elimination's parallel loop, not the initialisation or the back "
           . "substitution");
    }
    like($rf->{breakdown}{region}{what}, qr/loop main:L2 \(ge_omp\.c:84\)/, 'ge_omp: the region is named');
}
# FILE:LINE of a line where no loop starts but a function does: that
# function (main's line as --by function gives it)
if ($whole && $rm) {
    my ($mainrow) = grep { $_->{site} eq 'main' } @{ $whole->{breakdown}{machines}{real}{sites} };
    my $line = $mainrow ? $mainrow->{line} : 0;
    ok($line > 0, "ge_omp: --by function gives main's line ($line)");
    my $rfn = json_of("$PP predict $GE --by loop --region ge_omp.c:$line --threads --format json",
                      "ge_omp: --region ge_omp.c:$line");
    if ($rfn) {
        like($rfn->{breakdown}{region}{what}, qr/^function main \(ge_omp\.c:$line\)/,
             "ge_omp: --region ge_omp.c:$line is the function main");
        for my $mk (qw(real pram)) {
            is_deeply($rfn->{breakdown}{machines}{$mk}{region}, $rm->{breakdown}{machines}{$mk}{region},
                      "ge_omp $mk: --region ge_omp.c:$line is --region main");
        }
    }
}
my ($rc, $out, $err) = run("$PP predict $GE --by loop --format csv");
is($rc, 0, 'ge_omp: --by loop --format csv') or diag($err);
my @lines = split /\n/, $out;
is($lines[0], 'P,machine,by,region,site,kind,function,where,thread,computation_s,communication_s,sync_s,wait_s,'
   . 'idle_s,total_s,share', 'ge_omp csv: the header');
ok((grep { /^4,real,loop,,\(program\),program,,,mean,/ } @lines) == 1, 'ge_omp csv: the program line');
ok((grep { /^4,pram,loop,,main\._omp_fn\.1:L1,loop,main\._omp_fn\.1,ge_omp\.c:\d+,max,/ } @lines) == 1,
   'ge_omp csv: a loop on the PRAM');
($rc, $out, $err) = run("$PP predict $GE --by loop --threads --format csv");
ok(scalar(grep { /^4,real,loop,,\(program\),program,,,3,/ } split /\n/, $out) == 1, 'ge_omp csv --threads: thread 3');
($rc, $out, $err) = run("$PP predict $GE --by event");
is($rc, 0, 'ge_omp: --by event, text');
like($out, qr/^  by event on the real machine: T = /m, 'ge_omp text: the real machine\'s table');
like($out, qr/^  by event on the PRAM: T = /m, 'ge_omp text: the PRAM\'s table');
like($out, qr/^  main:E\d+ +fork +ge_omp\.c:\d+ /m, 'ge_omp text: the fork is a site');
like($out, qr/^  \(program\) .* 100\.0%/m, 'ge_omp text: the program line, 100%');

# ----------------------------------------------------- MPI
my ($mrc) = run("mpicc -O2$SAN -fplugin=$B/perfpred.so samples/mpi_ge.c -o $TMP/mpi_ge -L$B -lperfpred-rt -lm");
is($mrc, 0, 'mpi_ge builds with the plugin');
($mrc, $out, $err) = run("env PERFPRED_RECORD=$TMP/ge.run timeout -k 5 120 mpirun -np 4 $TMP/mpi_ge 128");
is($mrc, 0, 'mpi_ge records on 4 ranks') or diag($err);
for my $by (qw(event loop)) {
    my $p = json_of("$PP predict $TMP/ge.run --set n=512 --P 8 --draws 0 --by $by --threads --format json",
                    "mpi_ge P=8: --by $by");
    next unless $p;
    invariants($p, "mpi_ge by $by");
    my $m = $p->{breakdown}{machines}{real};
    my $inmpi = 0;
    for my $s (@{ $m->{sites} }) {
        next if $by eq 'event' && $s->{kind} !~ /^(bcast|mpi_init|mpi_finalize)$/;
        $inmpi += $s->{sum}{communication} + $s->{sum}{wait};
    }
    my $share = $inmpi / (8 * $m->{time});
    ok(close_to($share, $p->{mpi}{share}, 2e-6),
       sprintf("mpi_ge by $by: communication and waiting at the call sites are predict's MPI share "
               . "(%.6f against %.6f)", $share, $p->{mpi}{share}));
    ok($m->{program}{sum}{communication} > 0, "mpi_ge by $by: the ranks communicate");
    is_deeply([ @{ $p->{breakdown}{thread_names} }[0, 7] ], ['rank 0', 'rank 7'], "mpi_ge by $by: the ranks' names");
}
($rc, $out) = run("$PP predict $TMP/ge.run --set n=512 --P 8 --draws 0 --by event");
like($out, qr/^  by event on the real machine: T = \S+ \S+, 8 ranks;/m, 'mpi_ge text: 8 ranks');
like($out, qr/^  main:E\d+ +bcast +mpi_ge\.c:\d+ /m, 'mpi_ge text: a broadcast site');

# ----------------------------------------------------- errors
for my $e (["--by nope", qr/--by: 'nope' is not loop, function or event/],
           ["--threads", qr/--threads goes with --by/],
           ["--by loop --region nothere", qr/--region nothere: no function and no loop of that name/],
           ["--by loop --region ge_omp.c:9999", qr/no loop and no function starts at line 9999 of ge_omp\.c/],
           ["--by loop --region other.c:12", qr/no instrumented function is in a file 'other\.c'/],
           ["--by loop --threads=yes", qr/--threads takes no value/]) {
    my ($c, $o, $r) = run("$PP predict $TMP/ge_omp.ppr --P 2 $e->[0]");
    is($c, 2, "predict $e->[0]: exit 2");
    like($r, $e->[1], "predict $e->[0]: says why");
}

done_testing();
