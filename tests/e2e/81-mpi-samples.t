#!/usr/bin/perl
# 81-mpi-samples.t - the MPI samples (samples/mpi_estar.c, mpi_ge.c,
# mpi_jacobi.c) and the broken programs of tests/mpi-broken/: their
# descriptors carry loop counts, message peers, tags, sizes and collective
# roots as expressions in the parameters, (rank) and (nprocs), which is
# what a model needs to instantiate every rank for any P.
#
# For each sample: the key descriptor lines; the same output with and
# without the plugin on 4 ranks; then the descriptors "executed" by the
# interpreter of lib/PPMpiSim.pm for each rank (loop counts, guards on branches,
# induction variables) must give exactly what the run recorded: every
# loop's entries and iterations, every event and call site's executions,
# and every rank's sequence of MPI calls with its peers, tags, roots and
# bytes; on 4 ranks and on 3 (the same expressions for another P).  And
# `perfpred show` of the run: ranks, sites, bytes, matched messages.
#
# The broken programs are only compiled (they hang for real): the same
# interpreter, on their descriptors alone, finds the hang for P = 2..6.
#
# Run from the repository root:  prove tests/e2e/81-mpi-samples.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in);
use PPMpiSim qw(prog_of_text check_rank calls_of);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";

my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP   = "$B/perfpred";
my $TMP  = tempdir('pp-mpis-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN  = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';

mpi_setup();

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

sub run { return run_in($TMP, $_[0]) }

sub mpirun { my ($np, $rec, $cmd) = @_;
    my $env = defined $rec ? "PERFPRED_RECORD=" . sh_quote($rec) . " " : '';
    return run("env $env mpirun -np $np $cmd") }

sub sorted_lines { join("\n", sort split /\n/, $_[0]) }

# --------------------------------------------------------------- samples
my @SAMPLES = (
    {   name => 'mpi_estar', args => '600 300 2',
        desc => [
            [qr/^loop id=0 parent=- .*iv=r init=0 bound=\(var reps\) step=1 cmp=lt count=\(max \(var reps\) 0\) /m,
             'repetitions: count (var reps), a broadcast parameter'],
            [qr/^loop id=1 parent=0 .*iv=i init=\(rank\) bound=\(var n\) step=\(nprocs\) cmp=lt count=\(max 0 \(cdiv \(- \(var n\) \(rank\)\) \(nprocs\)\)\)/m,
             'the cyclic loop over the terms: ceil((n - rank) / nprocs)'],
            [qr/^loop id=0 parent=- .*iv=j init=1 bound=\(arg m\) step=1 cmp=le count=\(max \(arg m\) 0\) /m,
             'the product loop of term(): m factors'],
            [qr/^call id=\d+ loop=1 .*callee=term args=\(\(\+ \(iv 1\) 1\) \(var m\)\)$/m,
             'term(i + 1, m): the cyclic iv is (iv 1)'],
            [qr/^event .*loop=- .*kind=bcast callee=MPI_Bcast count=3 type=ompi_mpi_long root=0 comm=world$/m,
             'the parameters broadcast from rank 0'],
            [qr/^event .*loop=0 .*kind=allreduce callee=MPI_Allreduce count=1 type=ompi_mpi_long_long_int comm=world$/m,
             'one global sum per repetition'],
        ],
        show => [
            [qr/^  main:E\d+ +allreduce +mpi_estar\.c:\d+ +8 +4\/4 +8  -$/m, 'show: 2 sums on 4 ranks, 8 bytes'],
            [qr/ 0 matched, 0 unmatched/, 'show: no point-to-point messages'],
        ] },
    {   name => 'mpi_ge', args => '160',
        desc => [
            [qr/^param id=0 name=n var=n /m, 'n, broadcast by address, is one parameter'],
            [qr/^param id=1 /m, 'and the only one', 1],
            [qr/^loop id=2 parent=- .*iv=k init=0 bound=\(\+ \(var n\) -1\) step=1 cmp=lt count=\(max 0 \(\+ \(var n\) -1\)\) /m,
             'elimination steps: n - 1 (the bound n - 1 reloaded in the loop)'],
            [qr/^loop id=3 parent=2 .*count=\(cond \(ge \(var n\) -1\) \(\+ \(var n\) 1\) 0\) .* guard=\((\d+) T\)$/m,
             'the pivot row copy: n + 1, guarded by its owner test'],
            [qr/^branch id=\d+ loop=2 .*cond=\(eq \(mod \(iv 2\) \(nprocs\)\) \(rank\)\)$/m, 'the owner test: k mod nprocs == rank'],
            [qr/^event .*loop=2 .*kind=bcast callee=MPI_Bcast count=\(\+ \(var n\) 1\) type=ompi_mpi_double root=\(mod \(iv 2\) \(nprocs\)\) comm=world$/m,
             'the pivot row broadcast: n + 1 doubles from rank k mod nprocs'],
            [qr/^loop id=4 parent=2 .*init=\(div \(- \(\+ \(iv 2\) \(nprocs\)\) \(rank\)\) \(nprocs\)\) bound=\(div \(\+ \(\+ \(- \(var n\) \(rank\)\) \(nprocs\)\) -1\) \(nprocs\)\) .*count=\(cond /m,
             'my rows below k: from (k + nprocs - rank) / nprocs to (n - rank + nprocs - 1) / nprocs'],
            [qr/^loop id=5 parent=4 .*count=\(cond \(ge \(\+ \(var n\) 1\) \(iv 2\)\) \(\+ \(- \(var n\) \(iv 2\)\) 1\) 0\) /m,
             'the row update: n + 1 - k columns'],
            [qr/^event .*loop=6 .*kind=bcast callee=MPI_Bcast count=1 type=ompi_mpi_double root=\(mod \(iv 6\) \(nprocs\)\) comm=world$/m,
             'back substitution: x(k) broadcast from rank k mod nprocs'],
            [qr/^loop id=7 parent=6 .*count=\(max \(div \(- \(\+ \(\+ \(iv 6\) \(nprocs\)\) -1\) \(rank\)\) \(nprocs\)\) 0\) /m,
             'my rows above k: (k + nprocs - 1 - rank) / nprocs'],
        ],
        show => [
            [qr/^  main:E\d+ +bcast +mpi_ge\.c:\d+ +636 +4\/4 +1288  0\.\.3$/m, 'show: 159 pivot rows of 1288 bytes from roots 0..3'],
            [qr/^  main:E\d+ +bcast +mpi_ge\.c:\d+ +640 +4\/4 +8  0\.\.3$/m, 'show: 160 values of x'],
        ] },
    {   name => 'mpi_jacobi', args => '96 40 7 0',
        desc => [
            [qr/^param id=\d+ name=mode /m, 'the exchange mode is a parameter (it decides which MPI calls run)'],
            [qr/^param id=\d+ name=k /m, 'so is the residual interval'],
            [qr/^loop id=3 parent=- .*iv=t .*count=\(max \(var iters\) 0\) /m, 'iterations: iters'],
            [qr/^loop id=4 parent=3 .*init=\(max \(div \(\* \(var n\) \(rank\)\) \(nprocs\)\) 1\) bound=\(min \(div \(\* \(var n\) \(\+ \(rank\) 1\)\) \(nprocs\)\) \(\+ \(var n\) -1\)\) .*count=\(cond /m,
             'my interior rows: max(lo, 1) .. min(hi, n - 1), lo = rank n / nprocs'],
            [qr/^loop id=5 parent=4 .*count=\(cond \(gt \(var n\) 1\) \(\+ \(var n\) -2\) 0\) /m, 'the columns: n - 2'],
            [qr/^event .*kind=sendrecv guard=\((\d+) T\) callee=MPI_Sendrecv count=\(var n\) type=ompi_mpi_double peer=\(cond \(gt \(rank\) 0\) \(\+ \(rank\) -1\) -2\) tag=1 rcount=\(var n\) rtype=ompi_mpi_double rpeer=\(cond \(gt \(\+ \(nprocs\) -1\) \(rank\)\) \(\+ \(rank\) 1\) -2\) rtag=1 comm=world$/m,
             'first row up, ghost row from below: rank - 1 / rank + 1, MPI_PROC_NULL (-2) at the edges'],
            [qr/^branch id=\d+ loop=3 .*cond=\(eq \(var mode\) 0\)$/m, 'the mode branch'],
            [qr/^event .*kind=irecv guard=\((\d+) T\) callee=MPI_Irecv count=\(var n\) type=ompi_mpi_double peer=\(\+ \(rank\) -1\) tag=2 comm=world$/m,
             'mode 1: receive from rank - 1'],
            [qr/^event .*kind=isend guard=\((\d+) T\) callee=MPI_Isend count=\(var n\) type=ompi_mpi_double peer=\(\+ \(rank\) 1\) tag=2 comm=world$/m,
             'mode 1: send to rank + 1'],
            [qr/^branch id=\d+ loop=3 .*guard=\(\d+ F\) cond=\(gt \(rank\) 0\)$/m, 'mode 1: the edge test rank > 0, inside the mode branch'],
            [qr/^event .*kind=waitall guard=\(\d+ F\) callee=MPI_Waitall count=\(cond \(gt \(\+ \(nprocs\) -1\) \(rank\)\) \(\+ \(cond \(gt \(rank\) 0\) 2 0\) 2\) \(cond \(gt \(rank\) 0\) 2 0\)\)$/m,
             'mode 1: waitall of 2 or 4 requests'],
            [qr/^branch id=\d+ loop=3 .*cond=\(eq \(mod \(\+ \(iv 3\) 1\) \(var k\)\) 0\)$/m, 'every k-th iteration'],
            [qr/^event .*loop=3 .*kind=allreduce guard=\(\d+ T\) callee=MPI_Allreduce count=1 type=ompi_mpi_double comm=world$/m,
             'the residual, guarded by that branch'],
        ],
        show => [
            [qr/^  main:E\d+ +sendrecv +mpi_jacobi\.c:\d+ +160 +4\/4 +768  -2\.\.2$/m, 'show: 40 x 4 sendrecvs of 768 bytes'],
            [qr/ 240 matched, 0 unmatched/, 'show: every message matched (3 pairs of neighbours x 2 directions x 40)'],
            [qr/^  main:E\d+ +allreduce +mpi_jacobi\.c:\d+ +20 +4\/4 +8  -$/m, 'show: 5 residuals on 4 ranks'],
        ] },
);

for my $s (@SAMPLES) {
    my $n = $s->{name};
    my ($rc, $out, $err) = run("mpicc -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                               . "samples/$n.c -o $TMP/$n -L$B -lperfpred-rt -lm");
    is($rc, 0, "$n builds with the plugin") or BAIL_OUT($err);
    unlike($err, qr/warning|error/i, "$n: no warnings");
    my $desc = $err;
    my $prog = prog_of_text($desc);
    for my $c (@{ $s->{desc} }) {
        if ($c->[2]) { unlike($desc, $c->[0], "$n: $c->[1]") }
        else         { like($desc, $c->[0], "$n: $c->[1]") }
    }
    ($rc) = run("mpicc -O2$SAN samples/$n.c -o $TMP/$n.plain -lm");
    is($rc, 0, "$n builds without the plugin");

    # the plugin must not change what the program computes
    my ($prc, $pout) = mpirun(4, undef, "$TMP/$n.plain $s->{args}");
    is($prc, 0, "$n: plain run on 4 ranks");
    ($rc, $out, $err) = mpirun(4, "$TMP/$n.4", "$TMP/$n $s->{args}");
    is($rc, 0, "$n: instrumented run on 4 ranks") or diag($err);
    like($pout, qr/^checksum /m, "$n: prints a checksum");
    is(sorted_lines($out), sorted_lines($pout), "$n: same output with and without the plugin");

    # the records against the descriptors, per rank, on 4 and on 3 ranks
    ($rc) = mpirun(3, "$TMP/$n.3", "$TMP/$n $s->{args}");
    is($rc, 0, "$n: instrumented run on 3 ranks");
    for my $np (4, 3) {
        my %run;
        for my $k (0 .. $np - 1) {
            my $r = ppr_read("$TMP/$n.$np/rank-$k.ppr");
            my @e = ppr_check($r);
            ok(!@e, "$n P=$np rank $k: record invariants") or diag(join "\n", @e);
            $run{ $r->{mpi}{run} // '' }++;
            my ($diff, $cmp) = check_rank($prog, $r, $k, $np);
            ok(!@$diff && $cmp > 0, "$n P=$np rank $k: counts, sites and MPI calls ($cmp) as the descriptors say")
                or diag(join "\n", @$diff);
        }
        is(scalar keys %run, 1, "$n P=$np: one run id");
    }

    ($rc, $out, $err) = run("$PP show $TMP/$n.4");
    is($rc, 0, "$n: show of the run") or diag($err);
    like($out, qr/^MPI run .*: 4 ranks of /m, "$n: show: 4 ranks");
    like($out, $_->[0], "$n: $_->[1]") for @{ $s->{show} };
}

# the other exchange of mpi_jacobi: Isend/Irecv/Waitall guarded by rank tests
{
    my $n = 'mpi_jacobi';
    my $prog = prog_of_text((run("mpicc -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                                 . "samples/$n.c -o $TMP/$n -L$B -lperfpred-rt -lm"))[2]);
    my ($prc, $pout) = mpirun(4, undef, "$TMP/$n.plain 96 40 7 1");
    my ($rc, $out, $err) = mpirun(4, "$TMP/$n.m1", "$TMP/$n 96 40 7 1");
    is($rc, 0, "$n mode 1: instrumented run on 4 ranks") or diag($err);
    is(sorted_lines($out), sorted_lines($pout), "$n mode 1: same output with and without the plugin");
    ($rc, my $out0) = mpirun(4, undef, "$TMP/$n.plain 96 40 7 0");
    is(sorted_lines($out), sorted_lines($out0), "$n: the same result with either exchange");
    for my $k (0 .. 3) {
        my $r = ppr_read("$TMP/$n.m1/rank-$k.ppr");
        my ($diff, $cmp) = check_rank($prog, $r, $k, 4);
        ok(!@$diff && $cmp > 0, "$n mode 1 rank $k: counts, sites and MPI calls ($cmp) as the descriptors say")
            or diag(join "\n", @$diff);
    }
    ($rc, $out) = run("$PP show $TMP/$n.m1");
    like($out, qr/^  main:E\d+ +isend +mpi_jacobi\.c:\d+ +120 +3\/4 +768  0\.\.2$/m, "$n mode 1: show: the sends up, from ranks 1..3 only")
        or diag($out);
    like($out, qr/^  main:E\d+ +waitall +mpi_jacobi\.c:\d+ +160 +4\/4 /m, "$n mode 1: show: a waitall per iteration and rank");
    # each Irecv is matched by the source and tag it was posted with, in
    # posting order, as the Sendrecv halves of mode 0 are
    like($out, qr/ 240 matched, 0 unmatched$/m, "$n mode 1: show: every message matched") or diag($out);
    unlike($out, qr/never received|no message matches|another size/, "$n mode 1: show: nothing left over");
    for my $m (['m1', 1], ['4', 0]) {
        ($rc, $out) = run("$PP show $TMP/$n.$m->[0] --format json");
        my $msg = (eval { decode_json($out) } || {})->{messages} || {};
        is_deeply([@$msg{qw(matched unmatched_sends unmatched_receives size_differs wildcard_receives)}],
                  [240, 0, 0, 0, 0], "$n mode $m->[1]: json: 240 halo messages matched, none left, sizes agree");
        # the edge ranks' MPI_PROC_NULL halves are no messages: 2 per iteration in mode 0
        is($msg->{proc_null}, $m->[1] ? 0 : 160, "$n mode $m->[1]: json: MPI_PROC_NULL halves counted apart");
    }
}

# ------------------------------------------------------- broken programs
# Compiled only: they hang.  The interpreter runs their descriptors for
# P = 2..6 and finds the hang each one is written to have.
sub prog_of_broken {
    my ($n) = @_;
    my ($rc, $out, $err) = run("mpicc -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                               . "tests/mpi-broken/$n.c -o $TMP/$n -L$B -lperfpred-rt");
    is($rc, 0, "$n builds with the plugin") or diag($err);
    unlike($err, qr/warning|error/i, "$n: no warnings");
    return ($err, prog_of_text($err));
}

{
    my ($desc, $prog) = prog_of_broken('hang_recv');
    like($desc, qr/^event .*kind=recv guard=\((\d+) T\) callee=MPI_Recv count=1 type=ompi_mpi_int peer=1 tag=2 comm=world$/m,
         'hang_recv: the receive from rank 1, tag 2');
    my ($g) = $desc =~ /kind=recv guard=\((\d+) T\)/;
    like($desc, qr/^branch id=$g .*guard=\((\d+) T\) cond=\(gt \(nprocs\) 1\)$/m, 'hang_recv: only with more than one rank');
    like($desc, qr/^branch id=\d+ .*guard=\(\d+ F\) cond=\(eq \(rank\) 0\)$/m, 'hang_recv: ... on rank 0 (the else of rank == 1)');
    like($desc, qr/^event .*kind=send guard=\((\d+) T\) callee=MPI_Send count=1 type=ompi_mpi_int peer=0 tag=1 comm=world$/m,
         'hang_recv: the send to rank 0 with tag 1');
    my @found;
    for my $np (2 .. 6) {
        my @per = calls_of($prog, $np);
        my (%sent, @lonely);
        for my $k (0 .. $#per) { $sent{"$k>$_->{peer}:$_->{tag}"}++ for grep { $_->{kind} eq 'send' } @{ $per[$k] } }
        for my $k (0 .. $#per) {
            push @lonely, "$_->{peer}>$k:$_->{tag}" for grep { $_->{kind} eq 'recv' && !$sent{"$_->{peer}>$k:$_->{tag}"}-- } @{ $per[$k] };
        }
        push @found, "P=$np: " . join(',', @lonely);
    }
    is(join(' ', @found), join(' ', map { "P=$_: 1>0:2" } 2 .. 6),
       'hang_recv: for every P the descriptors give rank 0 a receive (from 1, tag 2) that no send matches');
}
{
    my ($desc, $prog) = prog_of_broken('hang_coll');
    like($desc, qr/^event .*loop=- .*kind=bcast callee=MPI_Bcast count=1 type=ompi_mpi_double root=0 comm=world$/m,
         'hang_coll: a broadcast on every rank');
    like($desc, qr/^event .*kind=mpi_barrier guard=\((\d+) T\) callee=MPI_Barrier comm=world$/m,
         'hang_coll: the barrier, guarded');
    my ($g) = $desc =~ /kind=mpi_barrier guard=\((\d+) T\)/;
    like($desc, qr/^branch id=$g .*cond=\(eq \(- \(rank\) \(shl \(shr \(rank\) 1\) 1\)\) 0\)$/m,
         'hang_coll: by rank % 2 == 0 (GCC: (rank & 1) == 0)');
    my @found;
    for my $np (2 .. 6) {
        my @per = calls_of($prog, $np);
        push @found, "P=$np: " . join(' ', map { join(',', map { $_->{kind} } @$_) } @per);
    }
    is(join(' | ', @found), join(' | ', map { "P=$_: " . join(' ', map { $_ % 2 ? 'bcast' : 'bcast,mpi_barrier' } 0 .. $_ - 1) } 2 .. 6),
       'hang_coll: the descriptors give the barrier to the even ranks only');
}
{
    my ($desc, $prog) = prog_of_broken('hang_cycle');
    like($desc, qr/^event .*loop=- .*kind=send callee=MPI_Send count=524288 type=ompi_mpi_double peer=\(mod \(\+ \(rank\) 1\) \(nprocs\)\) tag=3 comm=world$/m,
         'hang_cycle: 4 MiB to the next rank, unguarded');
    like($desc, qr/^event .*loop=- .*kind=recv callee=MPI_Recv count=524288 type=ompi_mpi_double peer=\(mod \(\+ \(\+ \(rank\) \(nprocs\)\) -1\) \(nprocs\)\) tag=3 comm=world$/m,
         'hang_cycle: then from the previous rank');
    my @found;
    for my $np (1 .. 6) {
        my @per = calls_of($prog, $np);
        # the first call of every rank is a blocking send of 4 MiB whose
        # receiver also starts with a send: a cycle of blocked senders
        my $cycle = grep { $_->[0]{kind} eq 'send' && $_->[0]{bytes} == 4 << 20
                           && $per[ $_->[0]{peer} ][0]{kind} eq 'send' } @per;
        push @found, "P=$np: $cycle";
    }
    is(join(' ', @found), join(' ', map { "P=$_: $_" } 1 .. 6),
       'hang_cycle: for every P each rank first sends 4 MiB to a rank that is sending too');
}

done_testing();
