#!/usr/bin/perl
# 62-contention.t - what the record says about the machine it ran on:
#  - the slowdown threads running at once cause each other is taken out of
#    the fitted costs (by the machine file's scale.compute at the recorded
#    concurrency) and put back at the predicted P: at P = 1 none;
#  - the synchronisation costs are scaled so that the model replays the
#    recorded run in its recorded time, when the record was made on the
#    host the machine file describes, and only then;
#  - the slowdown follows the threads that run at once while a computation
#    runs, not only when it starts: a parent that creates a thread and
#    then waits in pthread_join does not slow it down.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
sub build {
    my ($name, $flags) = @_;
    system("gcc -O2 $flags -fplugin=$B/perfpred.so -c tests/programs/$name.c -o $tmp/$name.o") == 0
        && system("gcc $flags $san $tmp/$name.o -o $tmp/$name -L$B -l:libperfpred-rt.a") == 0
        or BAIL_OUT("cannot build tests/programs/$name.c with the plugin");
}
sub json { my $o = eval { decode_json($_[0]) }; return $o; }
sub slurp { local $/; open my $f, '<', $_[0] or return ''; return <$f>; }

# a hand-written machine: two threads at once run 1.5 times slower each
sub machine { hand_machine($_[0], name => $_[1], compute => [0.5, 0.5], memory => [0.5, 0.5]) }

build('embar', '-fopenmp');
system("PERFPRED_RECORD=$tmp/embar.ppr $tmp/embar 4800 2 50 >/dev/null") == 0 or BAIL_OUT('embar run');
my ($host) = slurp("$tmp/embar.ppr") =~ /^program .*host="([^"]*)"/m;
ok(defined $host && length $host, "the record names its host ('" . ($host // '') . "')");
machine("$tmp/here.machine", $host // 'x');
machine("$tmp/there.machine", 'another-host');

# 1. the slowdown taken out of the costs
my $plain = json(`$pp show $tmp/embar.ppr --format json 2>/dev/null`) || {};
my $defl = json(`$pp show $tmp/embar.ppr --machine $tmp/there.machine --format json 2>/dev/null`) || {};
my $conc = $defl->{cost}{recorded_concurrency} // 0;
my $slow = $defl->{cost}{slowdown_removed} // 0;
# (two threads on two cores: 2 at once, less when the host is busy; the
# checks below follow the concurrency the record measured)
ok($conc >= 1 && $conc <= 2.0001, "embar at P=2: the threads ran $conc at once on average (1 to 2)");
diag("the host was busy: the two threads overlapped only $conc") if $conc < 1.5;
ok(abs($slow - (0.5 + 0.5 * $conc)) < 0.2, "the slowdown taken out ($slow) is about the machine's at that concurrency");
is($plain->{cost}{slowdown_removed}, 1, 'without a machine nothing is taken out');
my %c0 = map { $_->{id} => $_->{cost_ns} } @{ $plain->{loops} || [] };
my %c1 = map { $_->{id} => $_->{cost_ns} } @{ $defl->{loops} || [] };
# the loop that does the work: the most iterations, its cost from the run
my %obs = map { $_->{id} => ($_->{cost_from} =~ /^(run|measured)$/ ? $_->{observed} : 0) } @{ $plain->{loops} || [] };
my ($inner) = sort { $obs{$b} <=> $obs{$a} } keys %obs;
$inner //= '?';
my $ratio = ($c0{$inner} // 0) / (($c1{$inner} // 0) || 1);
# (a fit, not a division: segments of other concurrencies move it a little;
# under the sanitizers the runtime's event overhead leaves the loops the
# run cannot separate to the prior, whose split moves this one cost by up
# to x1.9 where the whole run's slowdown taken out is x1.47: checked in
# the plain build only, the whole run's above in both)
my $want = 0.5 + 0.5 * $conc;
SKIP: {
skip('a sanitized runtime: the split of the fit between the loops is the prior\'s', 1) if $ENV{SANITIZE};
ok(abs($ratio - $want) < 0.25, sprintf('%s: cost %.3g ns as recorded, %.3g ns for one thread alone (x%.3f, the '
    . 'machine\'s slowdown at %.2f threads is x%.3f)', $inner, $c0{$inner} // 0, $c1{$inner} // 0, $ratio, $conc, $want));
}

# ... and put back at the predicted P: none at P = 1, 1.5 at P = 2
my $p = json(`$pp predict $tmp/embar.ppr --machine $tmp/there.machine --P 1,2 --draws 0 --format json 2>/dev/null`) || [];
is(scalar(@$p), 2, 'predictions at P = 1 and 2');
if (@$p == 2) {
    my ($p1, $p2) = @$p;
    ok($p1->{time}{real} >= $p1->{time}{pram} && $p1->{time}{real} < 1.05 * $p1->{time}{pram},
       "P=1: no slowdown (T_real $p1->{time}{real} s, T_PRAM $p1->{time}{pram} s)");
    my $r = $p2->{time}{real} / ($p2->{time}{pram} || 1);
    ok($r > 1.35 && $r < 1.6, sprintf('P=2: T_real / T_PRAM = %.3f (the work 1.5 times slower)', $r));
}

# 2. the synchronisation costs checked against the record
my ($rc, $txt) = (0, scalar `$pp predict $tmp/embar.ppr --machine $tmp/here.machine --draws 0 2>&1`);
like($txt, qr/synchronisation costs x[0-9.e+-]+ the machine file's/, 'same host: the synchronisation costs are scaled');
if ($txt =~ /replays the recorded run in (\S+) (\S+) \(recorded (\S+) (\S+)/) {
    my %u = (ns => 1e-9, us => 1e-6, ms => 1e-3, s => 1);
    my ($a, $b) = ($1 * $u{$2}, $3 * $u{$4});
    if ($txt =~ /bound/) {
        pass('the factor stopped at a bound (said so)');
    } else {
        ok(abs($a - $b) <= 0.01 * $b, "the model replays the run in $1 $2, the record took $3 $4");
    }
} else {
    fail('the replayed and recorded times are printed');
}
my $j = json(`$pp predict $tmp/embar.ppr --machine $tmp/here.machine --draws 0 --format json 2>/dev/null`) || {};
ok(defined $j->{sync_scale} && $j->{sync_scale} > 0, 'json: sync_scale ' . ($j->{sync_scale} // 'missing'));
$txt = `$pp predict $tmp/embar.ppr --machine $tmp/there.machine --draws 0 2>&1`;
like($txt, qr/as in the machine file \(.*recorded on '\Q$host\E', the machine file describes 'another-host'\)/,
     'another host: the machine file as it is, and why');
$txt = `$pp predict $tmp/embar.ppr --machine $tmp/here.machine --insitu off --draws 0 2>&1`;
like($txt, qr/as in the machine file \(--insitu off\)/, '--insitu off');
$txt = `$pp predict $tmp/embar.ppr --machine $tmp/here.machine --insitu maybe 2>&1`;
like($txt, qr/--insitu: 'maybe' is not on or off/, 'a bad --insitu is refused');

# 3. the slowdown while a computation runs: serial.c's main creates P
# threads and joins them.  The child starts 5 us after pthread_create,
# before the parent's own 10 us in it are over, so the parent still runs
# when the child starts computing, then waits in the join: the child's
# work runs at the slowdown of the threads running at once from then on
# (1 at P = 1, 1.5 at P = 2), not at the 3 threads' 2.0 (P = 2) or 1.5
# (P = 1) of its first instant.
build('serial', '-pthread');
system("PERFPRED_RECORD=$tmp/serial.ppr $tmp/serial 0 200000 1 >/dev/null") == 0 or BAIL_OUT('serial run');
hand_machine("$tmp/fast-create.machine", name => 'x', compute => [0.5, 0.5]);
{
    my $t = slurp("$tmp/fast-create.machine");
    $t =~ s/^thread\.create\.a_ns = .*$/thread.create.a_ns = 5000/m;
    open my $o, '>', "$tmp/fast-create.machine" or die;
    print $o $t;
    close $o;
}
for my $P (1, 2) {
    my $j = json(`$pp predict $tmp/serial.ppr --machine $tmp/fast-create.machine --insitu off --set W=20000000 --P $P --draws 0 --format json 2>/dev/null`) || {};
    my ($t1, $real) = ($j->{T1} // 0, $j->{time}{real} // 0);
    my $want = $t1 / $P * ($P == 1 ? 1 : 1.5);
    # + the create, the join and main's few instructions: well under 1 ms
    ok($t1 > 0 && $real >= $want && $real < $want * 1.01 + 1e-3,
       sprintf('serial P=%d: T_real %.4f s = T1/P x %s (%.4f s) + the create and the join', $P, $real,
               $P == 1 ? '1' : '1.5', $want));
}

done_testing();
