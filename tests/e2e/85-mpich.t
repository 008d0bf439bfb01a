#!/usr/bin/perl
# 85-mpich.t - MPI programs built with MPICH (mpicc.mpich) and run under
# its mpirun (hydra), end to end: MPICH's handles are integers (MPI_Comm
# 0x44000000, MPI_DOUBLE 0x4c00080b) and its special ranks are Open MPI's
# swapped (MPI_ANY_SOURCE -2, MPI_PROC_NULL -1).
#
# The plugin calls the runtime's MPICH wrappers (__pp_w_mpich_*) for a
# unit compiled with MPICH's mpi.h, with the same -lperfpred-rt; every
# rank's record says which MPI it ran with (its mpi line: any_source,
# proc_null, any_tag as in MPICH's mpi.h, lib); every rank's counts, sites
# and MPI calls are what the descriptors give (lib/PPMpiSim.pm, as
# 81-mpi-samples.t does for Open MPI); the model's counts match on every
# rank, and mpi_trap, mpi_jacobi (both exchanges: Sendrecv with
# MPI_PROC_NULL at the edges, Isend/Irecv/Waitall) and
# tests/mpi-special/any_proc_null.c (MPI_ANY_SOURCE, MPI_ANY_TAG,
# MPI_PROC_NULL on blocking calls) are predicted to 1024 ranks with every
# message received.  The same records without the constants (as a runtime
# that did not write them would leave them: Open MPI's assumed) fail.
# Communicators under MPICH (its MPI_Comm an int, not Open MPI's pointer):
# samples/mpi_summa.c and tests/mpi-comm/split_order.c have the same
# comm_split/comm_dup/comm_free descriptors as under Open MPI (83), their
# records comm=cK and newcomm=cK|null from the MPICH wrappers, and both are
# predicted; show matches tests/mpi-match/match.c's MPI_ANY_SOURCE Irecv
# (-2 in MPICH, Open MPI's MPI_PROC_NULL) as a wildcard.
#
# Skipped when MPICH is not installed (Debian: mpich libmpich-dev).
#
# Run from the repository root:  prove tests/e2e/85-mpich.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in json_in counts_exact_in);
use PPMpiSim qw(prog_of_text check_rank);
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";

for my $tool (qw(mpicc.mpich mpirun.mpich)) {
    plan skip_all => "MPICH is not installed ($tool not found; Debian packages mpich libmpich-dev, make deps)"
        if system("command -v $tool >/dev/null 2>&1") != 0;
}
mpi_setup(qw(mpicc.mpich mpirun.mpich));

my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP   = "$B/perfpred";
my $TMP  = tempdir('pp-mpich-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN  = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
my $CL   = 'docs/examples/cluster.machine';

sub run { return run_in($TMP, $_[0]) }

# hydra starts the ranks on this host itself (no ssh)
sub mpirun {
    my ($np, $rec, $cmd) = @_;
    return run((defined $rec ? "env PERFPRED_RECORD=$TMP/$rec " : '')
               . "timeout -k 5 120 mpirun.mpich -launcher fork -np $np $TMP/$cmd");
}

# MPICH's values of the special ranks and tag, from its mpi.h
my ($inc) = `mpicc.mpich -compile_info` =~ /-I(\S+)/;
my %H;
if ($inc && open my $h, '<', "$inc/mpi.h") {
    while (<$h>) { $H{$1} = $2 if /^#define\s+MPI_(ANY_SOURCE|PROC_NULL|ANY_TAG)\s+\(?\s*(-?\d+)\s*\)?/ }
}
is(join(' ', map { $H{$_} // '?' } qw(ANY_SOURCE PROC_NULL ANY_TAG)), '-2 -1 -1',
   "MPICH's mpi.h: MPI_ANY_SOURCE -2, MPI_PROC_NULL -1, MPI_ANY_TAG -1 (Open MPI: -1, -2, -1)");

# ------------------------------------------------------------ builds
my %prog;
for my $p (['samples/mpi_trap.c', 'trap'], ['samples/mpi_jacobi.c', 'jacobi'],
           ['tests/mpi-special/any_proc_null.c', 'any']) {
    my ($src, $exe) = @$p;
    my ($rc, $out, $err) = run("mpicc.mpich -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                               . "$src -o $TMP/$exe -L$B -lperfpred-rt -lm");
    is($rc, 0, "$src builds with mpicc.mpich, the plugin and -lperfpred-rt") or BAIL_OUT($err);
    unlike($err, qr/warning|error|uninstrumented MPI/i, "$exe: no warnings, every MPI call recognised");
    $prog{$exe} = { text => $err, prog => prog_of_text($err) };
    my $syms = `nm $TMP/$exe`;
    like($syms, qr/ T __pp_w_mpich_MPI_Init$/m, "$exe: linked with the runtime's MPICH wrappers");
    unlike($syms, qr/ T __pp_w_MPI_/m, "$exe: and not with its Open MPI ones");
}
like($prog{trap}{text}, qr/^event .*kind=reduce callee=MPI_Reduce count=1 type=0x4c00080b root=0 comm=world$/m,
     'trap: MPI_DOUBLE is the handle 0x4c00080b, MPI_COMM_WORLD is world');
like($prog{jacobi}{text}, qr/^event .*kind=sendrecv .* rpeer=\(cond \(gt \(\+ \(nprocs\) -1\) \(rank\)\) \(\+ \(rank\) 1\) -1\) rtag=1 comm=world$/m,
     'jacobi: the ghost row from below, MPI_PROC_NULL (-1) on the last rank');
like($prog{any}{text}, qr/^event .*loop=2 .*kind=recv callee=MPI_Recv count=1 type=0x4c000809 peer=-2 tag=-1 comm=world$/m,
     'any_proc_null: the receive from MPI_ANY_SOURCE (-2) with MPI_ANY_TAG (-1)');
like($prog{any}{text}, qr/^event .*kind=send callee=MPI_Send .*peer=\(cond \(gt \(\+ \(nprocs\) -1\) \(rank\)\) \(\+ \(rank\) 1\) -1\) tag=5 /m,
     'any_proc_null: the shift to the right, MPI_PROC_NULL (-1) after the last rank');

my ($rc) = run("mpicc.mpich -O2$SAN samples/mpi_jacobi.c -o $TMP/jacobi.plain -lm");
is($rc, 0, 'mpi_jacobi builds with mpicc.mpich without the plugin');

# ------------------------------------------------------------ records
my %runs = (trap => ['trap', '20000 3'], jac0 => ['jacobi', '96 40 7 0'], jac1 => ['jacobi', '96 40 7 1'],
            any => ['any', '100000 3']);
my ($prc, $pout) = mpirun(4, undef, "jacobi.plain 96 40 7 0");
is($prc, 0, 'plain mpi_jacobi runs under mpirun.mpich on 4 ranks');
my %out;
for my $name (sort keys %runs) {
    my ($exe, $args) = @{ $runs{$name} };
    my ($rc, $out, $err) = mpirun(4, "$name.run", "$exe $args");
    is($rc, 0, "$name: $exe $args runs under mpirun.mpich -np 4 and records") or diag($err);
    $out{$name} = $out;
    for my $k (0 .. 3) {
        my $r = ppr_read("$TMP/$name.run/rank-$k.ppr");
        my @e = ppr_check($r);
        ok(!@e, "$name rank $k: record invariants") or diag(join "\n", @e);
        my $m = $r->{mpi} // {};
        is(join(' ', map { $m->{$_} // 'none' } qw(rank size any_source proc_null any_tag)),
           "$k 4 $H{ANY_SOURCE} $H{PROC_NULL} $H{ANY_TAG}", "$name rank $k: mpi line: rank, size and MPICH's constants");
        like($m->{lib} // '', qr/^"MPICH\b/, "$name rank $k: lib is MPICH's");
        my ($diff, $cmp) = check_rank($prog{$exe}{prog}, $r, $k, 4);
        ok(!@$diff && $cmp > 0, "$name rank $k: counts, sites and MPI calls ($cmp) as the descriptors say")
            or diag(join "\n", @$diff);
    }
}
is(join("\n", sort split /\n/, $out{jac0}), join("\n", sort split /\n/, $pout), 'jacobi: same output with and without the plugin');
is($out{jac1}, $out{jac0}, 'jacobi: the same result with either exchange');
like($out{any}, qr/^total 30000000006$/m, 'any_proc_null: the total (rank 0 sums what MPI_ANY_SOURCE brings)');

my ($out, $err);
($rc, $out, $err) = run("$PP show $TMP/any.run");
is($rc, 0, 'show of the any_proc_null run') or diag($err);
like($out, qr/^MPI library: MPICH\b.*; MPI_ANY_SOURCE -2, MPI_PROC_NULL -1, MPI_ANY_TAG -1$/m, 'show: the MPI and its constants');
like($out, qr/ 18 matched, 0 unmatched/, 'show: 3 x (3 shifts + 3 to rank 0) messages matched');
($rc, $out) = run("$PP show $TMP/jac0.run");
like($out, qr/ 240 matched, 0 unmatched/, 'jacobi show: every halo message matched');

# ------------------------------------------------------------ the model
sub json_of {
    my ($cmd, $what) = @_;
    my ($rc, $out, $err) = run($cmd);
    is($rc, 0, $what) or diag($err);
    my $j = eval { decode_json($out) };
    ok($j, "$what: JSON") or diag($out);
    return $j ? { map { $_->{P} => $_ } @$j } : {};
}

for my $name (sort keys %runs) {
    ($rc, $out, $err) = run("$PP show $TMP/$name.run --view model");
    is($rc, 0, "$name: show --view model") or diag($err);
    ok(scalar(() = $out =~ /^  \S+:L\d+ /mg) > 0, "$name: loops listed");
    unlike($out, qr/^  \S+:L\d+ .*\bno\b/m, "$name: every loop's count matches the run on every rank") or diag($out);
}

my $at = json_of("$PP predict $TMP/trap.run --P 1,4,1024 --draws 0 --format json", 'trap: predict up to P = 1024');
my $t1 = $at->{1}{T1} // 0;
ok($t1 > 0 && abs(($at->{1024}{time}{miracle} // 0) - $t1 / 1024) <= 1e-6 * $t1, 'trap P=1024: T_MIRACLE = T1/P');
ok(($at->{1024}{mpi}{by_call}{reduce} // 0) > 0, 'trap P=1024: the reductions take time');
is($at->{1024}{mpi}{unmatched_messages}, 0, 'trap P=1024: every message is received');

for my $mode (0, 1) {
    $at = json_of("$PP predict $TMP/jac$mode.run --machine $CL --P 4,64,1024 --draws 0 --format json",
                  "jacobi mode $mode: predict up to 1024 ranks");
    is($at->{$_}{mpi}{unmatched_messages}, 0, "jacobi mode $mode P=$_: every halo message is received") for 4, 64, 1024;
    my $k = $mode ? 'waitall' : 'sendrecv';
    ok(($at->{64}{mpi}{by_call}{$k} // 0) > 0, "jacobi mode $mode: the halo exchange ($k) takes time");
}

$at = json_of("$PP predict $TMP/any.run --machine $CL --P 4,64,1024 --draws 0 --format json",
              'any_proc_null: predict up to 1024 ranks');
is($at->{$_}{mpi}{unmatched_messages}, 0, "any_proc_null P=$_: every message is received") for 4, 64, 1024;
ok(($at->{1024}{time}{real} // 0) > ($at->{64}{time}{real} // 1e9),
   'any_proc_null: 1024 ranks take longer than 64 (rank 0 receives P - 1 messages a round)');

# validate runs the program under MPICH's launcher (Open MPI's mpirun is
# the default one on Debian)
($rc, $out, $err) = run("$PP validate $TMP/any.run --point n=20000,P=2 --repeat 1");
is($rc, 0, 'any_proc_null: validate at 2 ranks') or diag($err);
like($out, qr/^validate .*: mpirun\.mpich -np \{P\} '\S*any' \{n\} \{reps\}, /m, 'validate: the command runs mpirun.mpich');
like($out, qr/^  n=20000,P=2\s+2\s+\S+ \S+\s+\S+ \S+\s+[-+]\d/m, 'validate: a predicted and an actual time');

# The records as a runtime that wrote no constants would leave them: the
# analyser assumes Open MPI's (-1 any source, -2 no process), and MPICH's
# -1 at the edges becomes a receive from any rank and a send to rank -1.
system("cp -r $TMP/any.run $TMP/old && sed -i 's/ any_source=.*\$//' $TMP/old/*.ppr") == 0 or die;
($rc, $out) = run("grep -h '^mpi ' $TMP/old/rank-0.ppr");
like($out, qr/^mpi rank=0 size=4 run=\S+ pid0=\d+$/, 'a record without the constants');
($rc, $out, $err) = run("$PP predict $TMP/old --P 4 --draws 0");
is($rc, 2, 'without them an MPICH run is mispredicted: an error');
like($err, qr/MPI_Send at \S*any_proc_null\.c:\d+: rank 3 names destination rank -1/,
     '... naming the last rank\'s send to MPI_PROC_NULL');
($rc, $out, $err) = run("$PP predict $TMP/any.run/rank-0.ppr $TMP/old/rank-0.ppr --P 4 --draws 0");
isnt($rc, 0, 'runs recorded with different MPI constants are not one model');
like($err, qr/recorded with another MPI .*MPI_ANY_SOURCE -1, MPI_PROC_NULL -2.* give runs of one MPI implementation/,
     '... and the error says so');

# ------------------------------------------------------------ communicators
# The plugin names the communicator variables of an MPICH unit (ints) as
# of an Open MPI one (pointers), and the MPICH wrappers number the
# communicators the rank made.
sub slurp { local $/; open my $f, '<', $_[0] or return ''; return <$f> }
for my $p (['samples/mpi_summa.c', 'summa', ''], ['tests/mpi-comm/split_order.c', 'split_order', ''],
           ['tests/mpi-match/match.c', 'match', ''], ['samples/mpi_summa.c', 'summa.plain', 'plain']) {
    my ($src, $exe, $plain) = @$p;
    my $pl = $plain ? '' : "-fplugin=$B/perfpred.so";
    my $rt = $plain ? '' : "-L$B -lperfpred-rt";
    ($rc, $out, $err) = run("mpicc.mpich -O2 $pl$SAN $src -o $TMP/$exe $rt -lm");
    is($rc, 0, "$src builds with mpicc.mpich" . ($plain ? '' : ' and the plugin')) or diag($err);
}
my ($sumrc, $sout, $serr) = mpirun(4, 'summa.run', 'summa 128 2');
is($sumrc, 0, 'summa 128 2 runs under mpirun.mpich -np 4 and records') or diag($serr);
($rc, $out) = mpirun(4, undef, 'summa.plain 128 2');
is($sout, $out, 'summa: the same output with and without the plugin');
like($sout, qr/checksum/, 'summa: prints its checksum');

my $s0 = slurp("$TMP/summa.run/rank-0.ppr");
like($s0, qr/^event .*kind=comm_split .*color=\(div \(rank\) \(var q\)\) key=\(mod \(rank\) \(var q\)\) comm=world newcomm=row\.\d+$/m,
     'summa descriptor: the row split of an int MPI_Comm named, color rank/q and key rank%q');
my ($row) = $s0 =~ /kind=comm_split .*newcomm=(row\.\d+)/;
$row //= 'row.?';
like($s0, qr/^event .*kind=comm_split .*color=\(mod \(rank\) \(var q\)\) key=\(div \(rank\) \(var q\)\) comm=world newcomm=col\.\d+$/m,
     'summa descriptor: the column split');
like($s0, qr/^event .*kind=comm_dup .*comm=world newcomm=lib\.\d+$/m, 'summa descriptor: MPI_Comm_dup of the world');
like($s0, qr/^event .*kind=bcast .*type=0x4c00080b root=\(iv \d+\) comm=\Q$row\E$/m,
     'summa descriptor: the A broadcast on the row communicator');
like($s0, qr/^event .*kind=sendrecv .*peer=\(mod \(\+ \(rank \Q$row\E\) 1\) \(nprocs \Q$row\E\)\).* comm=\Q$row\E$/m,
     'summa descriptor: (rank row) and (nprocs row) from MPI_Comm_rank/size on the int handle');
like($s0, qr/^event .*kind=comm_free .*newcomm=\Q$row\E$/m, 'summa descriptor: MPI_Comm_free of the row');
unlike($s0, qr/^event .*comm=\?/m, 'summa descriptor: no communicator left unknown');
my $s3 = slurp("$TMP/summa.run/rank-3.ppr");
like($s3, qr/^mpi rank=3 size=4 .*any_source=-2 any_tag=-1 proc_null=-1 lib="MPICH/m, 'summa rank 3: an MPICH record');
like($s3, qr/^ev .*kind=comm_split .*peer=1 tag=1 newcomm=c1 rank=1 size=2 comm=world /m,
     'summa record: rank 3 is rank 1 of its row (c1, 2 ranks; color 1, key 1)');
like($s3, qr/^ev .*kind=comm_split .*newcomm=c2 rank=1 size=2 comm=world /m, 'summa record: and of its column (c2)');
like($s3, qr/^ev .*kind=comm_dup .*newcomm=c3 rank=3 size=4 comm=world /m, 'summa record: the duplicate has all 4 (c3)');
like($s3, qr/^ev .*kind=bcast .*bytes=32768 comm=c1 /m, 'summa record: a block broadcast on c1');
like($s3, qr/^ev .*kind=sendrecv .*comm=c1 /m, 'summa record: the ring shift on c1');
like($s3, qr/^ev .*kind=allreduce .*comm=c3 /m, 'summa record: the checksum on c3');
is(join(' ', $s3 =~ /^ev .*kind=comm_free .*comm=(c\d+) /mg), 'c3 c2 c1', 'summa record: c3, c2, c1 freed');
unlike($s3, qr/^ev .*comm=other/m, 'summa record: no communicator unknown to the wrappers');

ok(counts_exact_in($TMP, $PP, "$TMP/summa.run", 'summa (MPICH)') >= 6, 'summa (MPICH): its loops listed');
my %sat;
for my $pt ([128, 2, 4], [4096, 32, 1024]) {
    my ($n, $q, $P) = @$pt;
    my $j = json_in($TMP, "$PP predict $TMP/summa.run --machine $CL --set n=$n --set q=$q --P $P --draws 0 --format json",
                    "summa (MPICH): predict n=$n on a $q x $q grid");
    $j = $j->[0] if ref $j eq 'ARRAY';
    $sat{$P} = $j || {};
}
for my $P (4, 1024) {
    is($sat{$P}{mpi}{unmatched_messages}, 0, "summa (MPICH) P=$P: every ring-shift message received");
    ok(($sat{$P}{mpi}{by_call}{bcast} // 0) > 0, "summa (MPICH) P=$P: the row and column broadcasts take time");
    is($sat{$P}{mpi}{t1_summed}, JSON::PP::true, "summa (MPICH) P=$P: T1 is the ranks' work");
}
ok(($sat{1024}{time}{real} // 0) > 0 && abs(($sat{1024}{time}{miracle} // 0) - ($sat{1024}{T1} // 0) / 1024)
       <= 1e-6 * ($sat{1024}{T1} // 0), 'summa (MPICH) P=1024: a time, T_MIRACLE = T1/P');

# split's rules: MPI_UNDEFINED (-32766 in MPICH too) gives newcomm=null
($rc, $out, $err) = mpirun(4, 'so.run', 'split_order');
is($rc, 0, 'split_order runs under mpirun.mpich -np 4 and records') or diag($err);
like($out, qr/split_order: ok P=4/, 'split_order: right at 4 ranks');
like(slurp("$TMP/so.run/rank-2.ppr"), qr/^ev .*kind=comm_split .*peer=-32766 tag=-2 newcomm=null comm=world /m,
     'split_order record: rank 2 gave MPI_UNDEFINED, no communicator');
like(slurp("$TMP/so.run/rank-3.ppr"), qr/^ev .*kind=comm_split .*peer=0 tag=-3 newcomm=c1 rank=0 size=2 comm=world /m,
     'split_order record: rank 3 is rank 0 of color 0 (key -3 before rank 0\'s 0)');
my $j = json_in($TMP, "$PP predict $TMP/so.run --P 4,7,30 --draws 0 --format json", 'split_order (MPICH): predict at 4, 7, 30 ranks');
is(join(' ', map { "$_->{P}:" . ($_->{mpi}{unmatched_messages} // '?') } @{ ref $j eq 'ARRAY' ? $j : [] }), '4:0 7:0 30:0',
   'split_order (MPICH): every message received in its communicator');

# show's matching with MPICH's MPI_ANY_SOURCE (-2: Open MPI's MPI_PROC_NULL)
($rc, $out, $err) = mpirun(3, 'match.run', 'match');
is($rc, 0, 'match runs under mpirun.mpich -np 3 and records') or diag($err);
like($out, qr/^got 6 5 5$/m, 'match: MPI gave the receives tags 6, 5, 5');
like(slurp("$TMP/match.run/rank-1.ppr"), qr/^ev .*kind=irecv .*peer=-2 tag=-1 bytes=12 comm=world /m,
     'match record: the wildcard Irecv posted with MPICH\'s MPI_ANY_SOURCE');
my $mj = json_in($TMP, "$PP show $TMP/match.run --format json", 'match (MPICH): show --format json');
my $mm = ($mj || {})->{messages} || {};
is_deeply([@$mm{qw(matched unmatched_sends unmatched_receives wildcard_receives size_differs other_comm proc_null)}],
          [3, 1, 0, 1, 0, 2, 0], 'match (MPICH): 3 matched, the wildcard one of them, no MPI_PROC_NULL half, the dup apart');

done_testing();
