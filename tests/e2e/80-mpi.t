#!/usr/bin/perl
# 80-mpi.t - MPI programs: the plugin's descriptors at MPI calls (message
# fields, the rank and size of MPI_COMM_WORLD as (rank) and (nprocs), the
# cyclic loop's count), one record per rank under mpirun, the analyser
# loading the ranks as one run and refusing records that do not belong
# together, and the commands that cannot model MPI yet saying so.
#
# Run from the repository root:  prove tests/e2e/80-mpi.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(mpi_setup run_in);
use File::Temp qw(tempdir);
use POSIX qw(ceil);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";

my $ROOT = `pwd`;
chomp $ROOT;
my $B    = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $PP   = "$B/perfpred";
my $TMP  = tempdir('pp-mpi-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN  = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';

mpi_setup();

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

sub run { return run_in($TMP, $_[0]) }

sub mpirun { my ($np, $rec, $cmd) = @_;
    my $env = defined $rec ? "PERFPRED_RECORD=" . sh_quote($rec) . " " : '';
    return run("env $env mpirun -np $np $cmd") }

# ------------------------------------------------------------ the plugin
my ($rc, $out, $err) = run("mpicc -O2 -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose$SAN "
                           . "samples/mpi_trap.c -o $TMP/trap -L$B -lperfpred-rt");
is($rc, 0, 'mpi_trap builds with the plugin') or BAIL_OUT($err);
($rc) = run("mpicc -O2$SAN samples/mpi_trap.c -o $TMP/trap.plain");
is($rc, 0, 'mpi_trap builds without the plugin');
my $desc = $err;
like($desc, qr/^loop id=1 .*init=\(rank\) bound=\(var n\) step=\(nprocs\) cmp=lt count=\(max 0 \(cdiv \(- \(var n\) \(rank\)\) \(nprocs\)\)\)/m,
     'the cyclic loop: from the rank, by the number of ranks, count in n, (rank), (nprocs)');
like($desc, qr/^event .*kind=bcast callee=MPI_Bcast count=2 type=ompi_mpi_long root=0 comm=world$/m,
     'broadcast: count, datatype, root, communicator');
like($desc, qr/^event .*loop=0 .*kind=reduce callee=MPI_Reduce count=1 type=ompi_mpi_double root=0 comm=world$/m,
     'reduction inside the repetition loop');
like($desc, qr/^event .*kind=send guard=\(\d+ T\) callee=MPI_Send count=1 type=ompi_mpi_double peer=\(\+ \(nprocs\) -1\) tag=7 comm=world$/m,
     'send: peer as an expression in (nprocs), guarded by its branch');
like($desc, qr/^branch .*cond=\(eq \(\+ \(nprocs\) -1\) \(rank\)\)/m, 'rank-dependent branch in (rank), (nprocs)');
like($desc, qr/^event .*kind=mpi_other .*callee=MPI_Abort$/m, 'an MPI call perfpred does not model is marked mpi_other');
unlike($desc, qr/^call .*callee=MPI_/m, 'MPI functions are not program calls');
like(`nm $TMP/trap`, qr/ T __pp_w_MPI_Init$/m, 'Open MPI\'s mpi.h: the runtime\'s Open MPI wrappers');

# an MPI whose ABI the runtime has no wrappers for (MPI_Comm neither Open
# MPI's pointer nor MPICH's int): the calls are counted, not replaced
open my $fo, '>', "$TMP/other_mpi.c" or die;
print $fo "typedef long MPI_Comm;\nint MPI_Init(int *, char ***);\nint MPI_Barrier(MPI_Comm);\n"
    . "int main(int argc, char **argv) { MPI_Init(&argc, &argv); return MPI_Barrier(1); }\n";
close $fo;
($rc, $out, $err) = run("gcc -O2 -c -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose $TMP/other_mpi.c -o $TMP/other_mpi.o");
is($rc, 0, 'another MPI: the build does not break');
like($err, qr/^perfpred: main: uninstrumented MPI_Init \(line 4\): MPI_Comm is neither Open MPI's nor MPICH's: counted as mpi_other$/m,
     'another MPI: the verbose note says why MPI_Init is not replaced');
like($err, qr/^event .*kind=mpi_other callee=MPI_Barrier$/m, 'another MPI: its calls are mpi_other events');
unlike(`nm $TMP/other_mpi.o`, qr/__pp_w_/, 'another MPI: no wrapper is called');

# the plugin must not change what the program computes
my ($prc, $pout) = mpirun(4, undef, "$TMP/trap.plain 100000 3");
is($prc, 0, 'plain mpi_trap runs on 4 ranks');
($rc, $out, $err) = mpirun(4, "$TMP/run4", "$TMP/trap 100000 3");
is($rc, 0, 'instrumented mpi_trap runs on 4 ranks') or diag($err);
is(join("\n", sort split /\n/, $out), join("\n", sort split /\n/, $pout), 'same output with and without the plugin');

# ------------------------------------------------------------ the records
ok(-d "$TMP/run4", 'PERFPRED_RECORD names a directory of the ranks\' records');
my %run;
for my $k (0 .. 3) {
    my $p = "$TMP/run4/rank-$k.ppr";
    ok(-f $p, "rank-$k.ppr written") or next;
    my $r = ppr_read($p);
    my @e = ppr_check($r);
    ok(!@e, "rank $k: record invariants") or diag(join "\n", @e);
    is($r->{mpi}{rank}, $k, "rank $k: mpi rank=$k");
    is(join(' ', map { $r->{mpi}{$_} // 'none' } qw(any_source proc_null any_tag)), '-1 -2 -1',
       "rank $k: Open MPI's MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG");
    like($r->{mpi}{lib} // '', qr/^"Open MPI v\d/, "rank $k: lib is Open MPI's");
    is($r->{mpi}{size}, 4, "rank $k: size=4");
    $run{$r->{mpi}{run}}++;
    # the cyclic loop ran ceil((n - rank) / P) times per repetition
    my $f = ppr_func($r, 'main');
    my ($slot) = $r->{funcs}[$f]{text} =~ /^loop id=1 .* slot=(\d+)/m;
    my $c = $r->{threads}{0}{counts}{$f};
    is($c->[$slot] - $c->[$slot + 1], 3 * ceil((100000 - $k) / 4), "rank $k: loop iterations = 3 ceil((n - rank)/P)");
    my @red = grep { $_->{kind} eq 'reduce' } @{$r->{evs}};
    is(scalar @red, 3, "rank $k: three reductions");
    is($red[0]{bytes}, 8, "rank $k: a reduction of 8 bytes") if @red;
    my @bc = grep { $_->{kind} eq 'bcast' } @{$r->{evs}};
    ok(@bc == 1 && $bc[0]{bytes} == 16 && $bc[0]{root} == 0 && $bc[0]{comm} eq 'world',
       "rank $k: one broadcast of 16 bytes from root 0 in world");
    if ($k == 3) {
        my @rv = grep { $_->{kind} eq 'recv' } @{$r->{evs}};
        ok(@rv == 1 && $rv[0]{peer} == 0 && $rv[0]{tag} == 7 && $rv[0]{bytes} == 8,
           'the last rank received 8 bytes from rank 0, tag 7');
    }
}
is(scalar keys %run, 1, 'every rank has the same run id');

# ------------------------------------------------------------ the analyser
($rc, $out, $err) = run("$PP show $TMP/run4");
is($rc, 0, 'show of the run directory') or diag($err);
like($out, qr/^MPI run .*: 4 ranks of /m, 'show: 4 ranks');
like($out, qr/^  main:E\d+ +reduce +mpi_trap\.c:\d+ +12 +4\/4 +8  0$/m, 'show: 12 reductions on 4 ranks, 8 bytes, root 0');
like($out, qr/1 matched, 0 unmatched/, 'show: the one point-to-point message is matched');
like($out, qr/^  MPI_Abort at .*mpi_trap\.c:\d+, 0 calls$/m, 'show: names the MPI call perfpred does not model');
($rc, $out) = run("$PP show $TMP/run4/rank-2.ppr --format json");
is($rc, 0, 'show of one rank\'s record loads the whole run');
like($out, qr/"ranks":4,/, 'json: 4 ranks');
like($out, qr/"library":"Open MPI v[^"]*","any_source":-1,"proc_null":-2,"any_tag":-1,/, 'json: the MPI and its constants');
like($out, qr/"kind":"bcast","line":\d+,"calls":4,"ranks":4,"bytes_min":16,"bytes_max":16/, 'json: the broadcast site');
($rc, $out) = run("$PP show $TMP/run4 --format csv");
is($rc, 0, 'show --format csv');
like($out, qr/^function,site,kind,file,line,calls,ranks,bytes_min,bytes_max\nmain,\d+,mpi_init,.*,4,4,,$/m,
     'csv: header, then the sites in order');
like($out, qr/^main,\d+,reduce,[^,]*mpi_trap\.c,\d+,12,4,8,8$/m, 'csv: the reduction site');

# fit takes records of one process (the linear machine model)
($rc, $out, $err) = run("$PP fit $TMP/run4 -o $TMP/m.machine");
is($rc, 2, 'fit refuses an MPI run (exit 2)');
like($err, qr/an MPI run .*'perfpred fit' takes records of one process/, 'fit: says why');
# an MPI run given with a record of one process
($rc, $out, $err) = run("$PP predict $TMP/run4 samples/none.ppr");
isnt($rc, 0, 'an MPI run with something else: an error');

# records that do not belong together
system("cp -r $TMP/run4 $TMP/stale") == 0 or die;
($rc) = mpirun(4, "$TMP/other", "$TMP/trap 1000");
is($rc, 0, 'a second run');
system("cp $TMP/other/rank-1.ppr $TMP/stale/rank-1.ppr") == 0 or die;
($rc, $out, $err) = run("$PP show $TMP/stale");
is($rc, 2, 'a rank from another run: exit 2');
like($err, qr{stale/rank-1\.ppr: belongs to another run}, 'names the stale record');
unlink "$TMP/other/rank-3.ppr";
($rc, $out, $err) = run("$PP show $TMP/other");
is($rc, 2, 'a missing rank: exit 2');
like($err, qr/the record of rank 3 of 4 is missing/, 'says which rank is missing');

# %r in the path: one file per rank beside others; a named rank finds its run
($rc) = mpirun(2, "$TMP/flat-%r.ppr", "$TMP/trap 5000");
is($rc, 0, 'PERFPRED_RECORD with %r');
ok(-f "$TMP/flat-0.ppr" && -f "$TMP/flat-1.ppr", '%r replaced by the rank');
system("cp $TMP/run4/rank-0.ppr $TMP/unrelated.ppr") == 0 or die;
($rc, $out, $err) = run("$PP show $TMP/flat-1.ppr");
is($rc, 0, 'a named rank record: its siblings of the same run, others ignored') or diag($err);
like($out, qr/: 2 ranks of /, 'the 2-rank run');

# a corrupt mpi line: one clear error naming the file and line
open my $in, '<', "$TMP/run4/rank-0.ppr" or die;
my @l = <$in>;
close $in;
s/^mpi rank=0 /mpi rank=7 / for @l;
system("mkdir -p $TMP/bad") == 0 or die;
open my $o, '>', "$TMP/bad/rank-0.ppr" or die;
print $o @l;
close $o;
($rc, $out, $err) = run("$PP show $TMP/bad");
is($rc, 2, 'rank outside the size: exit 2');
like($err, qr{bad/rank-0\.ppr:3: mpi line: rank 7 of 4 ranks is impossible}, 'names the file and line');

done_testing();
