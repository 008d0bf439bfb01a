#!/usr/bin/perl
# 13-tls.t - a thread-local global (__thread, omp threadprivate) is no
# problem parameter: each thread has its own value, and its address is no
# link-time constant.  The plugin once described one as `(global NAME)`
# with a descriptor holding `&NAME` (a TLS offset, not an address): the
# runtime read the word at that offset at exit (a global-buffer-overflow
# under ASan) and the record gave the parameter a garbage value.  Here a
# threadprivate loop bound, a __thread one, and a threadprivate copied in
# by copyin must give no gparam for either, the same output as plain, and
# a record perfpred reads.
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
my $TMP = tempdir('pp-tls-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};

open my $src, '>', "$TMP/tls.c" or die;
print $src <<'C';
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static long chunk;                  /* per thread: rows it takes */
#pragma omp threadprivate(chunk)
static __thread long rounds;        /* per thread, by hand */
static long total;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    chunk = n / 4;
#pragma omp parallel copyin(chunk) reduction(+:total)
    {
        rounds = omp_get_thread_num() + 1;
        for (long r = 0; r < rounds; r++)
            for (long i = 0; i < chunk; i++)
                total += i % 7;
    }
    printf("total %ld\n", total);
    return 0;
}
C
close $src;
for my $O ('-O0', '-O2') {
    my ($rc, $out, $err) = run_in($TMP, "gcc $O$SAN -fopenmp $TMP/tls.c -o $TMP/plain");
    is($rc, 0, "$O: plain build") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "gcc $O$SAN -fopenmp -fplugin=$B/perfpred.so -fplugin-arg-perfpred-verbose "
                                   . "$TMP/tls.c -o $TMP/inst -L$B -l:libperfpred-rt.a");
    is($rc, 0, "$O: instrumented build") or diag($err);
    unlike($err, qr/\(global (chunk|rounds)\)/, "$O: no thread-local global named as a global");
    for my $t (1, 3) {
        my ($prc, $pout) = run_in($TMP, "env OMP_NUM_THREADS=$t $TMP/plain 100");
        ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=$t PERFPRED_RECORD=$TMP/t.ppr $TMP/inst 100");
        is($rc, $prc, "$O, $t threads: exit status") or diag($err);
        is($out, $pout, "$O, $t threads: the plain output");
        unlike($err, qr/Sanitizer/, "$O, $t threads: no sanitizer report");
        my $rec = do { local $/; open my $f, '<', "$TMP/t.ppr" or die "$TMP/t.ppr: $!"; <$f> };
        unlike($rec, qr/^gparam name=(chunk|rounds) /m, "$O, $t threads: no gparam for a thread-local");
        ($rc, $out, $err) = run_in($TMP, "$B/perfpred show $TMP/t.ppr");
        is($rc, 0, "$O, $t threads: show reads the record") or diag($err);
    }
}
done_testing();
