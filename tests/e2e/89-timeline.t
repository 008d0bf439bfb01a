#!/usr/bin/perl
# 89-timeline.t - perfpred timeline: the predicted traversal as Chrome
# trace-event JSON for Perfetto, read back with JSON::PP:
#  - the file's shape: traceEvents, displayTimeUnit ns, a named track per
#    thread or rank, X slices with ts/dur in microseconds, s/f flows;
#  - every slice lies in [0, T] with T predict's T_real (or T_PRAM with
#    --on pram), and the slices of a track do not overlap; each track's
#    slices, summed per category, are the thread's breakdown (predict --by
#    loop --threads), and cover T;
#  - flows pair up (one s and one f per id, bp "e", each at the start of
#    a slice of its thread), one per fork member, create, message and
#    member of a broadcast;
#  - --max-events refuses a larger timeline and writes nothing, the file
#    is replaced whole (no temporary left behind), -o - writes to stdout;
#  - errors.
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
my $TMP = tempdir('pp-timeline-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
mpi_setup();

sub run { return run_in($TMP, $_[0]) }
sub json_of { return json_in($TMP, @_) }
my @CATS = qw(computation communication sync wait idle);

sub read_json {
    my ($path) = @_;
    open my $f, '<', $path or return undef;
    local $/;
    my $j = eval { decode_json(<$f>) };
    return $j;
}

# Check one timeline against predict (its T and its breakdown per thread);
# returns the decoded trace and the number of flows by name.
sub check_timeline {
    my ($what, $file, $pred, $mk, $threads) = @_;
    my $j = read_json($file);
    ok($j, "$what: the file is JSON") or return;
    is($j->{displayTimeUnit}, 'ns', "$what: displayTimeUnit ns");
    my $ev = $j->{traceEvents};
    ok(ref $ev eq 'ARRAY' && @$ev > 0, "$what: traceEvents") or return;
    my $bd = $pred->{breakdown};
    my $T = $bd->{machines}{$mk}{time} * 1e6;       # us
    my %name = map { $_->{tid} => $_->{args}{name} } grep { $_->{ph} eq 'M' && $_->{name} eq 'thread_name' } @$ev;
    is(scalar(keys %name), $bd->{threads}, "$what: one named track per thread");
    is_deeply([ map { $name{$_} } 0 .. $bd->{threads} - 1 ], $bd->{thread_names},
              "$what: the tracks are named as predict names the threads") if $threads;
    my (%sum, $bad, $nx, %start);
    for my $e (@$ev) {
        next unless $e->{ph} eq 'X';
        $nx++;
        $bad++ unless $e->{dur} >= 0 && $e->{ts} >= 0 && $e->{ts} + $e->{dur} <= $T + 1e-3
                      && $e->{pid} == 1 && defined $e->{name} && grep { $_ eq $e->{cat} } @CATS;
        $sum{ $e->{tid} }{ $e->{cat} } += $e->{dur};
        $start{"$e->{tid} $e->{ts} $e->{cat}"} = 1;
    }
    ok(!$bad, "$what: all $nx slices have dur >= 0, lie in [0, T = $T us] and have a category")
        or diag("$bad bad slices");
    my %track;
    push @{ $track{ $_->{tid} } }, $_ for grep { $_->{ph} eq 'X' } @$ev;
    my $overlap = 0;
    for my $sl (values %track) {
        my @s = sort { $a->{ts} <=> $b->{ts} } @$sl;
        for my $i (1 .. $#s) {
            $overlap++ if $s[$i - 1]{ts} + $s[$i - 1]{dur} > $s[$i]{ts} + 1e-9;
        }
    }
    is($overlap, 0, "$what: the slices of a track do not overlap (each starts where the one before ends or later)");
    my $worst = 0;
    my $pt = $bd->{machines}{$mk}{program}{per_thread};
    for my $t (0 .. $bd->{threads} - 1) {
        my $total = 0;
        for my $c (@CATS) {
            my $d = abs(($sum{$t}{$c} // 0) - $pt->{$c}[$t] * 1e6);
            $worst = $d if $d > $worst;
            $total += $sum{$t}{$c} // 0;
        }
        $worst = abs($total - $T) if abs($total - $T) > $worst;
    }
    # %.4f us per slice, and the breakdown's %.9g s
    ok($worst <= 1e-4 * $nx / $bd->{threads} + 1e-7 * $T,
       "$what: each track's slices per category are the thread's breakdown, and add up to T") or diag("worst $worst us");
    my (%ends, %byname, $unbound);
    for my $e (grep { $_->{ph} eq 's' || $_->{ph} eq 'f' } @$ev) {
        push @{ $ends{ $e->{id} } }, $e->{ph};
        $byname{ $e->{name} }++ if $e->{ph} eq 's';
        $unbound++ unless ($e->{bp} // '') eq 'e' && $start{"$e->{tid} $e->{ts} $e->{cat}"};
    }
    my $paired = grep { join('', sort @{ $ends{$_} }) eq 'fs' } keys %ends;
    is($paired, scalar(keys %ends), "$what: the " . scalar(keys %ends) . " flows pair up (one s, one f per id)");
    ok(!$unbound, "$what: every flow end is at the start of a slice of its track, with its category, bp e");
    return ($j, \%byname);
}

my $mach = "$TMP/hand.machine";
hand_machine($mach);

# ----------------------------------------------------- OpenMP: ge_omp
my ($rc, $out, $err) = run("gcc -O2 -fopenmp$SAN -fplugin=$B/perfpred.so samples/ge_omp.c -o $TMP/ge_omp "
                           . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'ge_omp builds') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/ge_omp.ppr $TMP/ge_omp 64 2");
is($rc, 0, 'ge_omp records') or BAIL_OUT($err);
my $GE = "$TMP/ge_omp.ppr --machine $mach --insitu off --set N=128 --P 4";
my $pred = json_of("$PP predict $GE --draws 0 --by loop --threads --format json", 'ge_omp: predict --by loop');
for my $on (qw(real pram)) {
    ($rc, $out, $err) = run("$PP timeline $GE --on $on -o $TMP/ge-$on.json");
    is($rc, 0, "ge_omp timeline --on $on") or diag($err);
    like($out, qr/^\Q$TMP\E\/ge-$on\.json: \d+ events \(\d+ slices, \d+ flows\) on 4 tracks, T_\S+ = /,
         "ge_omp --on $on: says what it wrote");
    my ($j, $flows) = check_timeline("ge_omp --on $on", "$TMP/ge-$on.json", $pred, $on, 1) or next;
    # N = 128: one region to initialise, one per elimination step k = 0..N-2
    is($flows->{fork}, 3 * 128, "ge_omp --on $on: a fork flow per member of each of the 128 teams");
    my ($proc) = grep { $_->{ph} eq 'M' && $_->{name} eq 'process_name' } @{ $j->{traceEvents} };
    like($proc->{args}{name}, qr/ge_omp N=128 P=4, \Q${\($on eq 'real' ? 'real machine' : 'PRAM')}\E$/,
         "ge_omp --on $on: the process track says what it is");
    my %names = map { $_->{name} => 1 } grep { $_->{ph} eq 'X' } @{ $j->{traceEvents} };
    ok($names{'main._omp_fn.1:L1'} && $names{idle}, "ge_omp --on $on: slices for a loop and for idle time");
    ok((grep { /^fork main:E\d+$/ } keys %names) || $on eq 'pram', "ge_omp --on $on: the fork's cost is a slice");
}
ok(!glob("$TMP/ge-*.tmp.*"), 'ge_omp: no temporary file left');

# --max-events: refused, nothing written, an old file untouched
($rc, $out, $err) = run("$PP timeline $GE --max-events 100 -o $TMP/small.json");
is($rc, 2, 'ge_omp --max-events 100: exit 2');
like($err, qr/the timeline would have \d+ events, more than --max-events 100: choose a smaller P or problem size/,
     'ge_omp --max-events 100: says why and what to do');
ok(!-e "$TMP/small.json", 'ge_omp --max-events 100: no file written');
open my $old, '>', "$TMP/old.json" or die;
print $old "old\n";
close $old;
($rc) = run("$PP timeline $GE --max-events 100 -o $TMP/old.json");
is(`cat $TMP/old.json`, "old\n", 'ge_omp --max-events 100: an existing file is left as it was');
ok(!glob("$TMP/*.tmp.*"), 'ge_omp --max-events: no temporary file left');
($rc, $out) = run("$PP timeline $GE --on pram -o -");
my $stdout = eval { decode_json($out) };
ok($rc == 0 && $stdout && @{ $stdout->{traceEvents} }, 'ge_omp -o -: the trace on standard output');

# ----------------------------------------------------- pthreads: creates
($rc, $out, $err) = run("gcc -O2 -pthread$SAN -fplugin=$B/perfpred.so samples/ge_pthreads.c -o $TMP/ge_pt "
                        . "-L$B -l:libperfpred-rt.a");
is($rc, 0, 'ge_pthreads builds') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/ge_pt.ppr $TMP/ge_pt 64 2");
is($rc, 0, 'ge_pthreads records') or BAIL_OUT($err);
my $PT = "$TMP/ge_pt.ppr --machine $mach --insitu off --set N=96 --P 3";
$pred = json_of("$PP predict $PT --draws 0 --by loop --threads --format json", 'ge_pthreads: predict --by loop');
($rc, $out, $err) = run("$PP timeline $PT -o $TMP/pt.json");
is($rc, 0, 'ge_pthreads timeline') or diag($err);
my (undef, $ptf) = check_timeline('ge_pthreads', "$TMP/pt.json", $pred, 'real', 1);
is($ptf->{create}, 3, 'ge_pthreads: a create flow per thread') if $ptf;

# ----------------------------------------------------- MPI: messages, broadcasts
for my $s (['mpi_jacobi', '96 40', '--P 8'], ['mpi_ge', '128', '--set n=256 --P 8']) {
    my ($n, $args, $at) = @$s;
    ($rc, $out, $err) = run("mpicc -O2$SAN -fplugin=$B/perfpred.so samples/$n.c -o $TMP/$n -L$B -lperfpred-rt -lm");
    is($rc, 0, "$n builds") or next;
    ($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/$n.run timeout -k 5 120 mpirun -np 4 $TMP/$n $args");
    is($rc, 0, "$n records on 4 ranks") or next;
    $pred = json_of("$PP predict $TMP/$n.run $at --draws 0 --by loop --threads --format json", "$n: predict --by loop");
    ($rc, $out, $err) = run("$PP timeline $TMP/$n.run $at -o $TMP/$n.json");
    is($rc, 0, "$n timeline") or diag($err);
    my ($j, $f) = check_timeline($n, "$TMP/$n.json", $pred, 'real', 1) or next;
    my %cat = map { $_->{cat} => 1 } grep { $_->{ph} eq 'X' } @{ $j->{traceEvents} };
    ok($cat{communication}, "$n: communication slices");
    ok(($f->{message} // 0) > 0, "$n: message flows (" . ($f->{message} // 0) . ")") if $n eq 'mpi_jacobi';
    # mpi_ge: a broadcast of n from the root, then one per step of the
    # elimination (k = 0..n-2) and of the back substitution: 2n, each to 7
    is($f->{collective}, 7 * (2 * 256), "$n: a flow from the root to each rank of every broadcast")
        if $n eq 'mpi_ge';
}

# ----------------------------------------------------- errors
for my $e (['', qr/needs -o FILE/], ['-o x.json --P 2,4', qr/--P takes one processor count/],
           ['-o x.json --on both', qr/--on: 'both' is not real or pram/],
           ['-o x.json --max-events 0', qr/--max-events: '0' is not a positive count/],
           ['-o /nonexistent/dir/x.json', qr/\/nonexistent\/dir\/x\.json: cannot write: No such file or directory/]) {
    ($rc, $out, $err) = run("$PP timeline $TMP/ge_omp.ppr $e->[0]");
    is($rc, 2, "timeline $e->[0]: exit 2");
    like($err, $e->[1], "timeline $e->[0]: says why");
}

done_testing();
