#!/usr/bin/perl
# 44-loop-timing.t - loop costs measured where the loops run (the plugin's
# tslot=, runtime/rt-timing.c, analysis/cost-timed.c; docs/model.md,
# "Measured loop costs").
#
# tests/timing/one_loop.c: one loop in main.  Its record's timing slots
# are rewritten (2 ns a tick, 200 000 ticks over its one entry, timing
# free) and the thread's CPU time set to half its wall time: the loop's
# cost must be 200 000 x 2 x 0.5 / 1 000 000 = 0.2 ns an iteration, by
# the formula of docs/model.md, whatever the segment's other time.
#
# The same loop recorded at n = 1000 and n = 4000, its one entry rewritten
# to 700 and 2200 ns (1 ns a tick, the CPU time the wall time): the two
# sizes separate the cost per entry from the cost per iteration,
# c = (2200 - 700) / 3000 = 0.5 ns and e = 700 - 1000 c = 200 ns.
#
# tests/timing/sweeps.c: pthreads workers with their rows in a struct, a
# heavy and a light loop that always run together (the segments alone
# cannot separate them), a barrier of a mutex and a condition variable,
# a checksum loop in main; with a third argument of 1, main also sorts a
# fixed table (a set-up outside every loop).  Every loop without an event
# is measured; the heavy loop costs several times the light one; and the
# set-up does not move the measured loops' costs (before, the segments'
# fit spread it over the loops beside it).  Built with
# -fplugin-arg-perfpred-no-loop-timing: no timing line, no measured cost,
# and show says so.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-timing-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
my $PP = "$B/perfpred";
my $CC = "$ENV{PWD}/$B/perfpred-gcc";
$B = "$ENV{PWD}/$B" if $B !~ m{^/};
$PP = "$B/perfpred";
$CC = "$B/perfpred-gcc";

# (status, stdout and stderr) of a command run in DIR
sub run_in {
    my ($dir, $cmd) = @_;
    my $out = `cd $dir && $cmd 2>&1`;
    return ($? >> 8, $out);
}
sub json_of {
    my ($cmd) = @_;
    my $out = `$cmd 2>/dev/null`;
    return eval { decode_json($out) } || {};
}
sub slurp { my ($f) = @_; open my $h, '<', $f or return ''; local $/; my $s = <$h>; close $h; $s }
sub spew { my ($f, $s) = @_; open my $h, '>', $f or die "$f: $!"; print $h $s; close $h }
sub build {
    my ($src, $bin, $extra) = @_;
    my ($rc, $out) = run_in('.', "$CC -O2 -pthread$SAN $extra -o $bin $src");
    ok($rc == 0, "build $bin") or diag($out);
    return $rc == 0;
}
sub loops_by_line {
    my ($json) = @_;
    my %l;
    $l{$_->{line}} = $_ for @{ $json->{loops} || [] };
    return \%l;
}

# ---------------------------------------------------------------- by hand
SKIP: {
    build('tests/timing/one_loop.c', "$TMP/one", '') or skip('no build', 6);
    my ($rc, $out) = run_in($TMP, "PERFPRED_RECORD=$TMP/one.ppr ./one 1000000");
    ok($rc == 0 && -s "$TMP/one.ppr", 'one_loop: recorded') or diag($out);
    my $rec = slurp("$TMP/one.ppr");
    like($rec, qr/^timing tick_ns=\S+ cost_ns=\S+ window_ns=\S+$/m, 'one_loop: the record has its timing line');
    my ($loop) = $rec =~ /^(loop id=0 .*)$/m;
    my ($slot) = ($loop // '') =~ / slot=(\d+)/;
    my ($tslot) = ($loop // '') =~ / tslot=(\d+)/;
    ok(defined $tslot, 'one_loop: its loop is timed (tslot=)') or skip('no tslot', 3);
    # 2 ns a tick, 200 000 ticks over 1 timed entry, nothing for timing
    $rec =~ s/^timing .*$/timing tick_ns=2 cost_ns=0/m;
    my ($start, $cstart) = $rec =~ /^thread id=0 .* start=(\d+) .*cstart=(\d+)/m;
    my ($t) = $rec =~ /^tail thread=0 t=(\d+)/m;
    my $c = $cstart + int(($t - $start) / 2);          # CPU time: half the wall time
    $rec =~ s/^(tail thread=0 t=\d+ c=)\d+/$1$c/m;
    # the count line: slots tslot, tslot + 1
    $rec =~ s{^(count thread=0 func=0 slots=\()([^)]*)\)}{
        my ($head, @v) = ($1, split / /, $2); $v[$tslot] = 200000; $v[$tslot + 1] = 1; "$head@v)" }me;
    # the tail's deltas
    my $t1 = $tslot + 1;
    $rec =~ s{^(tail thread=0 .*delta=\()(.*)\)$}{
        my ($head, $d) = ($1, $2); $d =~ s/\(0 $tslot \d+\)/(0 $tslot 200000)/; $d =~ s/\(0 $t1 \d+\)/(0 $t1 1)/;
        "$head$d)" }me;
    spew("$TMP/hand.ppr", $rec);
    my $j = json_of("$PP show --format json $TMP/hand.ppr");
    my ($l) = grep { $_->{line} == ($loop =~ / line=(\d+)/)[0] } @{ $j->{loops} || [] };
    ok($l && $l->{cost_from} eq 'measured', 'one_loop: its cost is measured') or diag(explain($l));
    my $want = 200000 * 2 * 0.5 / 1000000;    # half the wall time ran: 0.2 ns
    ok($l && abs($l->{cost_ns} - $want) < 0.002 * $want,
       sprintf('one_loop: %.4f ns an iteration, by hand %.4f', $l ? $l->{cost_ns} : -1, $want));
    # a second run of the same point that took half as long again: the
    # least of the two is kept
    (my $slow = $rec) =~ s/\(0 $tslot 200000\)/(0 $tslot 300000)/;
    $slow =~ s{^(count thread=0 func=0 slots=\()([^)]*)\)}{
        my ($head, @v) = ($1, split / /, $2); $v[$tslot] = 300000; "$head@v)" }me;
    $slow =~ s/ pid=(\d+)/" pid=" . ($1 + 1)/e;
    spew("$TMP/hand2.ppr", $slow);
    $j = json_of("$PP show --format json $TMP/hand2.ppr $TMP/hand.ppr");
    ($l) = grep { $_->{line} == ($loop =~ / line=(\d+)/)[0] } @{ $j->{loops} || [] };
    ok($l && abs($l->{cost_ns} - $want) < 0.002 * $want,
       sprintf('one_loop, two runs (0.3 and 0.2 ns an iteration): %.4f ns, the least', $l ? $l->{cost_ns} : -1));
}

# ------------------------------------------------ per entry, per iteration
# a record of one_loop with its one timed entry set to TICKS ticks of 1 ns,
# the timing free and the thread's CPU time its wall time
sub one_entry_record {
    my ($rec, $ticks) = @_;
    my ($loop) = $rec =~ /^(loop id=0 .*)$/m;
    my ($tslot) = ($loop // '') =~ / tslot=(\d+)/;
    return undef unless defined $tslot;
    $rec =~ s/^timing .*$/timing tick_ns=1 cost_ns=0/m;
    my ($start, $cstart) = $rec =~ /^thread id=0 .* start=(\d+) .*cstart=(\d+)/m;
    my ($t) = $rec =~ /^tail thread=0 t=(\d+)/m;
    my $c = $cstart + ($t - $start);
    $rec =~ s/^(tail thread=0 t=\d+ c=)\d+/$1$c/m;
    $rec =~ s{^(count thread=0 func=0 slots=\()([^)]*)\)}{
        my ($head, @v) = ($1, split / /, $2); $v[$tslot] = $ticks; $v[$tslot + 1] = 1; "$head@v)" }me;
    my $t1 = $tslot + 1;
    $rec =~ s{^(tail thread=0 .*delta=\()(.*)\)$}{
        my ($head, $d) = ($1, $2); $d =~ s/\(0 $tslot \d+\)/(0 $tslot $ticks)/; $d =~ s/\(0 $t1 \d+\)/(0 $t1 1)/;
        "$head$d)" }me;
    return $rec;
}
SKIP: {
    -x "$TMP/one" or build('tests/timing/one_loop.c', "$TMP/one", '') or skip('no build', 3);
    my %ticks = (1000 => 700, 4000 => 2200);
    for my $n (sort keys %ticks) {
        my ($rc, $out) = run_in($TMP, "PERFPRED_RECORD=$TMP/n$n.ppr ./one $n");
        my $rec = $rc == 0 ? one_entry_record(slurp("$TMP/n$n.ppr"), $ticks{$n}) : undef;
        ok(defined $rec, "one_loop at n = $n: recorded, its entry rewritten to $ticks{$n} ns") or diag($out);
        spew("$TMP/e$n.ppr", $rec // '');
    }
    my $j = json_of("$PP show --format json $TMP/e1000.ppr $TMP/e4000.ppr");
    my ($l) = grep { ($_->{cost_from} // '') eq 'measured' } @{ $j->{loops} || [] };
    ok($l && abs($l->{cost_ns} - 0.5) < 0.01 && abs($l->{entry_ns} - 200) < 4,
       sprintf('two sizes: %.4f ns an iteration and %.1f ns an entry, by hand 0.5 and 200',
               $l ? $l->{cost_ns} : -1, $l ? $l->{entry_ns} : -1)) or diag(explain($l));
}

# ---------------------------------------------------------------- sweeps
SKIP: {
    build('tests/timing/sweeps.c', "$TMP/sweeps", '') or skip('no build', 12);
    my %cost;
    for my $setup (0, 1) {
        # three runs, as perfpred record -r 3 makes them (the least of the
        # repeats per loop): one run's light loop measured 0.28 or 0.55 ns
        # an iteration, from run to run on this host
        my ($rc, $out) = (0, '');
        for my $r (1 .. 3) {
            my ($rc1, $out1) = run_in($TMP, "PERFPRED_RECORD=$TMP/sw$setup.r$r.ppr ./sweeps 200000 2 $setup");
            ($rc, $out) = ($rc1, $out1) if $rc1 != 0;
        }
        ok($rc == 0, "sweeps (set-up $setup): ran three times") or diag($out);
        my $j = json_of("$PP show --format json " . join(' ', map { "$TMP/sw$setup.r$_.ppr" } 1 .. 3));
        my $l = loops_by_line($j);
        # heavy (the divides), light, checksum: timed, with their own cost
        for my $line (50, 57, 110) {
            is($l->{$line}{cost_from} // '', 'measured', "sweeps (set-up $setup): the loop at line $line is measured");
        }
        # the step loop calls barrier_wait (events): not timed
        isnt($l->{49}{cost_from} // '', 'measured', "sweeps (set-up $setup): the step loop (a call with events) is not");
        my ($h, $lt) = ($l->{50}{cost_ns} // 0, $l->{57}{cost_ns} // 1);
        # (under the sanitizers every memory access of the light loop is
        # checked: its cost is theirs)
        SKIP: {
            skip('a sanitized build: the light loop\'s cost is the checks\'', 1) if $SAN;
            ok($h > 3 * $lt, sprintf('sweeps (set-up %d): the heavy loop costs %.3g ns, more than 3x the light one (%.3g)',
                                     $setup, $h, $lt));
        }
        $cost{$setup}{$_} = $l->{$_}{cost_ns} // 0 for (50, 57, 110);
        ok(defined $j->{cost}{timed_share} && $j->{cost}{timed_share} > 0,
           "sweeps (set-up $setup): show gives the measured loops' share of the work");
    }
    # the set-up's time stays out of the loops (2x: the host's noise)
    for my $line (50, 57, 110) {
        my ($a, $b) = ($cost{0}{$line} || 1e-9, $cost{1}{$line} || 1e-9);
        my $r = $a > $b ? $a / $b : $b / $a;
        ok($r < 2, sprintf('sweeps: line %d costs %.3g ns without the set-up, %.3g with it', $line, $a, $b));
    }
}

# ---------------------------------------------------------------- off
SKIP: {
    build('tests/timing/sweeps.c', "$TMP/sweeps-nt", '-fplugin-arg-perfpred-no-loop-timing') or skip('no build', 4);
    my ($rc, $out) = run_in($TMP, "PERFPRED_RECORD=$TMP/nt.ppr ./sweeps-nt 20000 2 0");
    ok($rc == 0, 'no-loop-timing: ran') or diag($out);
    my $rec = slurp("$TMP/nt.ppr");
    ok($rec !~ /^timing / && $rec !~ / tslot=/, 'no-loop-timing: the record has no timing line and no tslot=');
    my $j = json_of("$PP show --format json $TMP/nt.ppr");
    ok(!grep({ ($_->{cost_from} // '') eq 'measured' } @{ $j->{loops} || [] }) && !defined $j->{cost}{timed_share},
       'no-loop-timing: no cost is measured');
    my ($rc2, $text) = run_in('.', "$PP show $TMP/nt.ppr");
    like($text, qr/^loop timing: none in the record/m, 'no-loop-timing: show says every cost is fitted');
}

done_testing();
