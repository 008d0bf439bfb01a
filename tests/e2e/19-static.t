#!/usr/bin/perl
# 19-static.t - instrumented OpenMP programs linked -static compute what
# the plain ones compute (docs/plugin.md, "Static links").
#
# The runtime calls libgomp through weak references; a static link takes
# from libgomp.a only what a strong reference asks for, so the plugin keeps
# a reference to every function whose calls it replaced
# (plugin/pp-keep.cc).  Without it GOMP_barrier and GOMP_single_start were
# left out and tests/diff/bfs_omp.c reached 13 of 65536 vertices at four
# threads.  Checked here: the BFS at -O0/-O2 and with -flto, linked
# -static, against the plain static build at 1, 2 and 4 threads; the
# functions are in the binary; a record that `perfpred show` reads with
# the team size; and the runtime's answer when an instrumented call's
# function is missing all the same (an object from a plugin without the
# reference): a message naming it and exit status 2, not a wrong run.
# tests/e2e/18-differential.t runs the wider matrix.
#
# Not under SANITIZE: ASan has no static link.
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
plan skip_all => 'no static link under AddressSanitizer (SANITIZE=1)' if ($ENV{SANITIZE} // '') eq '1';
my $libgomp = `gcc -print-file-name=libgomp.a`; chomp $libgomp;
plan skip_all => 'libgomp.a is not installed' unless -e $libgomp;

my $TMP = tempdir('pp-static-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $PP  = "$B/perfpred";
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
# libgomp.a's dlopen warns at every static link: not ours, not an error
sub link_noise { my ($e) = @_; $e =~ s/^.*(?:dlopen|gomp_target_init).*\n//mg; return $e }

my %built;
for my $v (['O0', '-O0'], ['O2', '-O2'], ['lto', '-O2 -flto']) {
    my ($name, $flags) = @$v;
    for my $kind ('plain', 'pp') {
        my $pp = $kind eq 'pp' ? "-fplugin=$B/perfpred.so" : '';
        my $rt = $kind eq 'pp' ? "-L$B -l:libperfpred-rt.a" : '';
        my ($rc, $out, $err) = run_in($TMP, "gcc $flags -fopenmp $pp tests/diff/bfs_omp.c -o $TMP/bfs-$kind-$name "
                                          . "-static $rt");
        is($rc, 0, "bfs_omp $flags -static ($kind) links") or diag($err);
        is(link_noise($err), '', "bfs_omp $flags -static ($kind): no compiler or linker message") if $rc == 0;
        $built{"$kind-$name"} = $rc == 0;
    }
    next unless $built{"pp-$name"} && $built{"plain-$name"};
    my $nm = `nm $TMP/bfs-pp-$name`;
    for my $f (qw(GOMP_barrier GOMP_single_start GOMP_loop_end omp_get_thread_num)) {
        like($nm, qr/^[0-9a-f]+ T \Q$f\E$/m, "bfs_omp $flags -static (pp): $f linked in");
    }
    for my $t (1, 2, 4) {
        my ($prc, $pout) = run_in($TMP, "env OMP_NUM_THREADS=$t $TMP/bfs-plain-$name 14 8");
        is($prc, 0, "plain $flags, $t threads: exit 0");
        like($pout, qr/^vertices 16384 reached 16384 .* invalid 0 lost 0 /, "plain $flags, $t threads: every vertex");
        for my $rep (1 .. ($t > 1 ? 3 : 1)) {
            my ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=$t PERFPRED_RECORD=$TMP/bfs-$name-$t.ppr "
                                              . "$TMP/bfs-pp-$name 14 8");
            is($rc, $prc, "instrumented $flags, $t threads (run $rep): exit status") or diag($err);
            is($out, $pout, "instrumented $flags, $t threads (run $rep): the plain output");
        }
    }
    my ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/bfs-$name-4.ppr");
    is($rc, 0, "bfs_omp $flags -static: show reads the record") or diag($err);
    like($out, qr/^\s+P\s+= 4\s/m, "bfs_omp $flags -static: the record's team has 4 threads");
}

# An object whose instrumented call does not reference the function it
# replaced (as a plugin without pp-keep.cc made them): the static link
# leaves GOMP_barrier out and the runtime must say so, not skip it.
open my $src, '>', "$TMP/old.c" or die;
print $src <<'C';
#include <stdio.h>
void __pp_w_GOMP_barrier(const void *d, unsigned site);
int main(void)
{
    int n = 0;
#pragma omp parallel
    {
        __pp_w_GOMP_barrier(NULL, 0);
#pragma omp atomic
        n++;
    }
    printf("%d\n", n);
    return 0;
}
C
close $src;
my ($rc, $out, $err) = run_in($TMP, "gcc -O2 -fopenmp $TMP/old.c -o $TMP/old -static -L$B -l:libperfpred-rt.a");
is($rc, 0, 'an object without the kept reference links -static') or diag($err);
($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/old.ppr $TMP/old");
is($rc, 2, 'its missing GOMP_barrier stops it with exit status 2');
is($out, '', 'it printed no result');
like($err, qr/GOMP_barrier is not linked into this program.*-fopenmp/, 'the message names GOMP_barrier and the flag');
ok(!-e "$TMP/old.ppr", 'and wrote no record');

done_testing();
