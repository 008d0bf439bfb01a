#!/usr/bin/perl
# 61-omp-schedule.t - dynamic and guided OpenMP loops (docs/model.md,
# "OpenMP schedules"): the plugin gives the iteration space of the
# worksharing loop (sched= on the dispatch loop), and the model deals the
# chunks evenly over the team, so that the counts follow N and P:
#  - dynamic, chunk 16, N = 64001: ceil(N/16) = 4001 chunks, 4001 x 16 =
#    64016 iterations (the last chunk counted whole: at most 15 over);
#  - guided: N iterations, N/P per thread, one chunk each;
#  - runtime: as the recorded OMP_SCHEDULE says (unset: libgomp's
#    dynamic,1: 64001 chunks of 1; static,100: 641 chunks, 64100
#    iterations; guided: one chunk per thread);
#  - an embarrassingly parallel dynamic loop speeds up with P on the PRAM
#    (before, the recorded chunks per thread were a constant: no speed-up,
#    and T1 did not grow with N);
#  - a record without sched= (an older plugin) still reads; a malformed
#    one is an error naming the file and line.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
system("gcc -O2 -fopenmp -fplugin=$B/perfpred.so -c tests/programs/dynsched.c -o $tmp/d.o") == 0
    && system("gcc -fopenmp $san $tmp/d.o -o $tmp/d -L$B -l:libperfpred-rt.a -lm") == 0
    or BAIL_OUT('cannot build tests/programs/dynsched.c');
system("env -u OMP_SCHEDULE PERFPRED_RECORD=$tmp/d.ppr OMP_NUM_THREADS=2 $tmp/d 4000 >/dev/null") == 0 or BAIL_OUT('dynsched run');
sub json { my $o = eval { decode_json($_[0]) }; return $o; }
sub slurp { local $/; open my $f, '<', $_[0] or return ''; return <$f>; }

my $rec = slurp("$tmp/d.ppr");
like($rec, qr/flags=omp_dispatch sched=\(dynamic 0 \(shared N\) 1 16\)/, 'the dynamic loop: sched=(dynamic 0 (shared N) 1 16)');
like($rec, qr/flags=omp_dispatch sched=\(guided 0 \(shared N\) 1 1\)/, 'the guided loop: sched=(guided 0 (shared N) 1 1)');

sub loops {
    my ($args) = @_;
    my $j = json(`$pp show $tmp/d.ppr --format json $args 2>/dev/null`) || {};
    return { map { $_->{id} => $_ } @{ $j->{loops} || [] } };
}
my $at = loops('');
my ($dd, $dc, $gd, $gc) = map { $at->{$_} } ('main._omp_fn.0:L0', 'main._omp_fn.0:L1', 'main._omp_fn.1:L0', 'main._omp_fn.1:L1');
ok($dd && $dc && $gd && $gc, 'show lists the dispatch and chunk loops of both') or diag(join ' ', sort keys %$at);
is($dd && $dd->{rule}, 'symbolic', 'dynamic: the chunks per thread are symbolic');
ok($dc && $dc->{match} && $dc->{model} == 4000, 'dynamic: 4000 iterations at the recorded size, as the run');
ok($dd && $dd->{match} && $dd->{model} == 250, 'dynamic: 250 chunks, as the run');
ok($gc && $gc->{model} == 4000, 'guided: 4000 iterations, as the run');

my $big = loops('--set N=64001 -P 4');
is($big->{'main._omp_fn.0:L0'}{predicted}, 4001, 'dynamic at N = 64001: 4001 chunks');
is($big->{'main._omp_fn.0:L1'}{predicted}, 64016, 'dynamic at N = 64001: 4001 x 16 iterations');
is($big->{'main._omp_fn.0:L2'}{predicted}, 64016 * 200, '...and the sines inside them');
is($big->{'main._omp_fn.1:L1'}{predicted}, 64001, 'guided at N = 64001: every iteration once');
is($big->{'main._omp_fn.1:L0'}{predicted}, 4, 'guided at P = 4: one chunk per thread');

like($rec, qr/flags=omp_dispatch sched=\(runtime 0 \(shared N\) 1 0\)/, 'the runtime loop: sched=(runtime 0 (shared N) 1 0)');
is($big->{'main._omp_fn.2:L0'}{predicted}, 64001, 'runtime, OMP_SCHEDULE unset (dynamic,1): 64001 chunks');
is($big->{'main._omp_fn.2:L1'}{predicted}, 64001, '...of one iteration');
for my $case (['static,100', 641, 64100], ['guided', 4, 64001], ['dynamic,7', 9143, 64001]) {
    my ($env, $chunks, $iters) = @$case;
    system("OMP_SCHEDULE=$env PERFPRED_RECORD=$tmp/rt.ppr OMP_NUM_THREADS=2 $tmp/d 4000 >/dev/null") == 0
        or BAIL_OUT("dynsched run with OMP_SCHEDULE=$env");
    my $j = json(`$pp show $tmp/rt.ppr --set N=64001 -P 4 --format json 2>/dev/null`) || {};
    my %l = map { $_->{id} => $_ } @{ $j->{loops} || [] };
    is($l{'main._omp_fn.2:L0'}{predicted}, $chunks, "runtime, OMP_SCHEDULE=$env: $chunks chunks");
    is($l{'main._omp_fn.2:L1'}{predicted}, $iters, "runtime, OMP_SCHEDULE=$env: $iters iterations");
}

my $p = json(`$pp predict $tmp/d.ppr --set N=64000 --P 1,4 --draws 0 --format json 2>/dev/null`) || [];
my ($t1, $pram4) = ($p->[0]{T1} // 0, $p->[1]{time}{pram} // 0);
my $p0 = json(`$pp predict $tmp/d.ppr --P 1 --draws 0 --format json 2>/dev/null`) || [];
my $t1rec = ref $p0 eq 'ARRAY' ? $p0->[0]{T1} // 0 : $p0->{T1} // 0;
ok($t1rec > 0 && $t1 > 12 * $t1rec && $t1 < 17 * $t1rec, sprintf('T1 grows with N: %.4f s at 16x against %.5f s', $t1, $t1rec));
# (the dealt chunks give T1/4 and the serial parts: about 0.27 T1 with the
# plain runtime, 0.31 with a sanitized one, whose event overhead a record of
# 4000 iterations gives to the serial loops' costs; the run's own chunk
# counts, as before sched=, gave T1)
ok($pram4 > 0 && $pram4 < 0.4 * $t1, sprintf('the PRAM at P = 4 takes %.4f s of T1 = %.4f s (the dynamic loop speeds up)', $pram4, $t1));

# an older plugin's record: no sched=, the counts are the run's constants
(my $old = $rec) =~ s/ sched=\([^()]*\([^()]*\)[^()]*\)//g;
unlike($old, qr/sched=/, 'the record without sched=');
open my $o, '>', "$tmp/old.ppr" or die;
print $o $old;
close $o;
my $oj = json(`$pp show $tmp/old.ppr --format json 2>/dev/null`) || {};
my %ol = map { $_->{id} => $_ } @{ $oj->{loops} || [] };
is($ol{'main._omp_fn.0:L0'}{rule}, 'constant', 'without sched= the chunks per thread are the run\'s constant');

(my $bad = $rec) =~ s/sched=\(dynamic 0 \(shared N\) 1 16\)/sched=(dynamic 0 (shared N) 1)/;
open $o, '>', "$tmp/bad.ppr" or die;
print $o $bad;
close $o;
my $err = `$pp show $tmp/bad.ppr 2>&1`;
my $rc = $? >> 8;
is($rc, 2, 'a malformed sched= exits 2');
like($err, qr/bad\.ppr:\d+.*malformed sched=/, 'and names the file, the line and the field') or diag($err);

done_testing();
