#!/usr/bin/perl
# 73-replay.t - the model replays the recorded run before it predicts: a
# model that hangs at the run's own size and P (the run completed) stops
# predict, scale and validate with "the model does not reproduce the run"
# and the threads, sites and lines where it hangs; show warns and goes on.
#
# The model is made wrong on purpose: the record of
# tests/values/table_ranges.c, whose threads take a ticket under a mutex,
# with the unlock's object changed to another mutex, so that in the model
# the first thread never releases the one the others wait for.  The record
# as written is predicted as before.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-replay-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
my $PP = "$B/perfpred";

my ($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -pthread -fplugin=$B/perfpred.so tests/values/table_ranges.c "
                                    . "-o $TMP/tr -L$B -l:libperfpred-rt.a");
is($rc, 0, 'table_ranges builds') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/good.ppr $TMP/tr 300 3");
is($rc, 0, 'table_ranges runs at P = 3') or BAIL_OUT($err);
my $good = do { local $/; open my $f, '<', "$TMP/good.ppr" or die; <$f> };
(my $bad = $good) =~ s/(kind=unlock callee=pthread_mutex_unlock obj=)\(addr ticket_lock\)/$1(addr other_lock)/
    or BAIL_OUT('no unlock of ticket_lock in the record');
open my $f, '>', "$TMP/bad.ppr" or die;
print $f $bad;
close $f;

for my $cmd ('predict --P 3', 'predict --P 8', 'scale --scale n --P 2,4 --Ea 0.5', 'validate --point n=300,P=3') {
    ($rc, $out, $err) = run_in($TMP, "$PP $cmd $TMP/good.ppr");
    my ($verb) = split ' ', $cmd;
    is($rc, 0, "good record: $cmd") or diag($err);
    unlike($err, qr/does not reproduce/, "good record: $cmd: no replay complaint");
    ($rc, $out, $err) = run_in($TMP, "$PP $cmd $TMP/bad.ppr");
    is($rc, 2, "a model that hangs at the recorded run: $cmd refuses (exit 2)");
    like($err, qr/^perfpred \Q$verb\E: \S*bad\.ppr: the model does not reproduce the run: the run completed at its recorded size and P = 3, the model of it does not \(the thread graph hangs \(deadlock\): .*waits in lock on .*table_ranges\.c:\d+ \(row_block\)/m,
         "$cmd: says the model does not reproduce the run, and where it hangs");
}
# counts: omp_table's row loop is entered when the team has at most 64
# threads; a record whose branch says "at most 1" makes the model skip the
# loop the run ran
($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -fopenmp -fplugin=$B/perfpred.so tests/values/omp_table.c "
                                 . "-o $TMP/ot -L$B -l:libperfpred-rt.a");
is($rc, 0, 'omp_table builds') or BAIL_OUT($err);
($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/ot.ppr $TMP/ot 900");
is($rc, 0, 'omp_table runs') or BAIL_OUT($err);
my $ot = do { local $/; open my $h, '<', "$TMP/ot.ppr" or die; <$h> };
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ot.ppr --P 4");
is($rc, 0, 'omp_table as recorded: predicted') or diag($err);
$ot =~ s/cond=\(le \(nthreads\) 64\)/cond=(le (nthreads) 1)/ or BAIL_OUT('no team-size branch in the record');
open my $h, '>', "$TMP/ot-bad.ppr" or die;
print $h $ot;
close $h;
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/ot-bad.ppr --P 4");
is($rc, 2, 'a model whose loop count differs at the recorded run: predict refuses (exit 2)');
like($err, qr/^perfpred predict: \S*ot-bad\.ppr: the model does not reproduce the run: a loop's count at the recorded size and P = 2 differs from the run's \(first: main\._omp_fn\.\d+:L\d+ \(omp_table\.c:\d+\): the run \d+ iterations, the model 0\)/m,
     'and names the first loop, its line, and both counts');

($rc, $out, $err) = run_in($TMP, "$PP show $TMP/bad.ppr");
is($rc, 0, 'show reads the model that hangs');
like($err, qr/warning: \S*bad\.ppr: the model does not reproduce the run/, 'show warns that it does not reproduce the run');
done_testing();
