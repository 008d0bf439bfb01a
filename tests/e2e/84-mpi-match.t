#!/usr/bin/perl
# 84-mpi-match.t - `perfpred show` of an MPI run matches the point-to-point
# messages as MPI does: by source and tag, each rank's receives in the
# order it posted them, each sender's messages in the order it sent them,
# non-blocking calls (Isend, Irecv) as blocking ones, a receive posted with
# MPI_ANY_SOURCE / MPI_ANY_TAG to the message sent first; and it says what
# did not match (tests/mpi-match/match.c on 3 ranks, then its records
# edited so that a receive has no message).
#
# Run from the repository root:  prove tests/e2e/84-mpi-match.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $ROOT = `pwd`;
chomp $ROOT;
my $B   = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP  = "$B/perfpred";
my $TMP = tempdir('pp-mpimatch-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';

mpi_setup();

sub run { return run_in($TMP, $_[0]) }

sub messages {
    my ($run, $what) = @_;
    my ($rc, $out, $err) = run("$PP show $run --format json");
    is($rc, 0, "$what: show --format json") or diag($err);
    return (eval { decode_json($out) } || {})->{messages} || {};
}

my ($rc, $out, $err) = run("mpicc -O2 -fplugin=$B/perfpred.so$SAN tests/mpi-match/match.c -o $TMP/match "
                           . "-L$B -lperfpred-rt");
is($rc, 0, 'match.c builds with the plugin') or BAIL_OUT($err);
($rc, $out, $err) = run("env PERFPRED_RECORD=$TMP/run mpirun -np 3 $TMP/match");
is($rc, 0, 'match runs on 3 ranks and records') or BAIL_OUT($err);
like($out, qr/^got 6 5 5$/m, 'MPI gave the receives tags 6, 5, 5 (the program says so)');

($rc, $out, $err) = run("$PP show $TMP/run");
is($rc, 0, 'show of the run') or diag($err);
like($out, qr/: 3 matched, 1 unmatched$/m, 'show: the three messages of rank 0 matched, one left');
like($out, qr/^  1 message from rank 2 to rank 1, tag 9, sent at match\.c:\d+: never received$/m,
     'show: names the message never received, its ranks, tag and line');
like($out, qr/^  1 receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG: matched to the message sent first$/m,
     'show: the wildcard receive, decided by the barrier (no guess)');
like($out, qr/^  2 calls on a communicator other than MPI_COMM_WORLD: not matched$/m,
     'show: the calls on the duplicate communicator are counted apart');
# matched by order alone, the receive with room for 1 int would take the
# 2-int message: the sizes say the tags were followed
unlike($out, qr/another size/, 'show: every receive got a message that fits');
like($out, qr/^  1 +\d+ +0 +0 +3 +24 /m, 'show: rank 1 received 3 messages, 24 bytes (Irecv sizes from the sends)');

my $m = messages("$TMP/run", 'the run');
is_deeply([@$m{qw(matched unmatched unmatched_sends unmatched_receives wildcard_receives wildcard_guessed size_differs other_comm)}],
          [3, 1, 1, 0, 1, 0, 0, 2], 'json: matched, unmatched (sends, receives), wildcard, sizes, other communicators');
my $u = ($m->{unmatched_sites} || [])->[0] || {};
is_deeply([@$u{qw(kind rank src dst tag count)}], ['send', 2, 2, 1, 9, 1], 'json: the unmatched send');

# rank 0's second message sent with tag 8 instead of 6 (the record
# edited): rank 1's receive for tag 6 has no message, the wildcard takes
# the tag 8 one (sent before the third), the third is left
system("cp -r $TMP/run $TMP/edited") == 0 or die;
my $r0 = "$TMP/edited/rank-0.ppr";
($rc) = run("sed -i -E '/^ev .* kind=isend .* tag=6 /s/ tag=6 / tag=8 /' $r0");
is($rc, 0, 'rank 0\'s record edited');
($rc, $out, $err) = run("$PP show $TMP/edited");
is($rc, 0, 'show of the edited run') or diag($err);
like($out, qr/: 2 matched, 3 unmatched$/m, 'edited: 2 matched, 3 unmatched');
like($out, qr/^  1 receive of rank 1 from rank 0, tag 6, at match\.c:\d+: no message matches$/m,
     'edited: the receive no message matches');
like($out, qr/^  1 message from rank 0 to rank 1, tag 5, sent at match\.c:\d+: never received$/m,
     'edited: rank 0\'s third message is left');
$m = messages("$TMP/edited", 'edited');
is_deeply([@$m{qw(matched unmatched_sends unmatched_receives wildcard_receives size_differs)}], [2, 2, 1, 1, 0],
          'edited: json counts');

done_testing();
