#!/usr/bin/perl
# 21-link.t - a program compiled with the plugin and linked without the
# runtime fails to link with one message that names the runtime and the
# flag (docs/runtime-abi.md, "Link markers"), not an undefined reference
# per entry point: an OpenMP program, the same with -flto and with
# -static, an MPI program without any runtime and with the shared one
# (which has no MPI wrappers); and links with the runtime still work.
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
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-link-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
my $RT_MSG  = q{perfpred: link with its runtime, -lperfpred-rt (-L the directory of libperfpred-rt.a), }
            . q{or build with perfpred-gcc};
my $MPI_MSG = q{perfpred: link with its static runtime, -lperfpred-rt: the Open MPI wrappers are in }
            . q{libperfpred-rt.a only};

# the undefined references a failed link reported
sub undefined { my ($err) = @_; my %u = map { $_ => 1 } $err =~ /undefined reference to `([^']*)'/g; return sort keys %u }

my @cases = (['OpenMP', '-O2'], ['OpenMP, -flto', '-O2 -flto'], ['OpenMP, -O0 -g', '-O0 -g']);
push @cases, ['OpenMP, -static', '-O2 -static'] unless $SAN;
for my $c (@cases) {
    my ($what, $flags) = @$c;
    my ($rc, $out, $err) = run_in($TMP, "gcc $flags$SAN -fopenmp -fplugin=$B/perfpred.so tests/diff/bfs_omp.c "
                                      . "-o $TMP/bfs");
    isnt($rc, 0, "$what without the runtime: the link fails");
    is_deeply([undefined($err)], [$RT_MSG], "$what: one undefined symbol, the message naming the runtime")
        or diag($err);
    ($rc, $out, $err) = run_in($TMP, "gcc $flags$SAN -fopenmp -fplugin=$B/perfpred.so tests/diff/bfs_omp.c "
                                   . "-o $TMP/bfs -L$B -lperfpred-rt");
    is($rc, 0, "$what with -lperfpred-rt links") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/bfs.ppr $TMP/bfs 10 4");
    is($rc, 0, "$what: runs") or diag($err);
    ok(-s "$TMP/bfs.ppr", "$what: writes its record");
}

SKIP: {
    skip 'mpicc is not installed', 6 if system('command -v mpicc >/dev/null 2>&1') != 0;
    open my $s, '>', "$TMP/ring.c" or die;
    print $s <<'C';
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size, got = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    if (partner < size)
        MPI_Sendrecv(&rank, 1, MPI_INT, partner, 0, &got, 1, MPI_INT, partner, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    printf("%d %d\n", rank, got);
    MPI_Finalize();
    return 0;
}
C
    close $s;
    my ($rc, $out, $err) = run_in($TMP, "mpicc -O2$SAN -fplugin=$B/perfpred.so $TMP/ring.c -o $TMP/ring");
    isnt($rc, 0, 'MPI without the runtime: the link fails');
    is_deeply([undefined($err)], [sort($RT_MSG, $MPI_MSG)], 'MPI: the two messages, nothing else') or diag($err);
    ($rc, $out, $err) = run_in($TMP, "mpicc -O2$SAN -fplugin=$B/perfpred.so $TMP/ring.c -o $TMP/ring "
                                   . "-L$B -l:libperfpred-rt.so.1");
    isnt($rc, 0, 'MPI with the shared runtime: the link fails');
    is_deeply([undefined($err)], [$MPI_MSG], 'MPI with the shared runtime: the message says the wrappers are '
              . 'in the static one') or diag($err);
    ($rc, $out, $err) = run_in($TMP, "mpicc -O2$SAN -fplugin=$B/perfpred.so $TMP/ring.c -o $TMP/ring "
                                   . "-L$B -lperfpred-rt");
    is($rc, 0, 'MPI with -lperfpred-rt links') or diag($err);
    ok(-x "$TMP/ring", 'MPI: the program is there');
}

done_testing();
