#!/usr/bin/env perl
# 17-unsigned-range.t - a range test that GCC folds into one unsigned
# comparison is described as the test it makes (plugin/pp-trace.cc,
# pp_unsigned_cmp): j >= 35 && j <= 41 becomes (unsigned) (j - 35) <= 6,
# written (and (ge (+ j -35) 0) (le (+ j -35) 6)), not (le (+ j -35) 6),
# which holds for every j below 42; and j < 10 || j > 20 becomes
# (unsigned) (j - 10) > 10, written with (lt (+ j -10) 0) beside it.  The
# model reproduces the run, and at n = 5000 it counts the guarded
# helpers' loops by hand: mark 7 calls x 5 = 35 whatever n, skip
# (n - 11) x 3 = 14967.  At -O0 GCC keeps the two tests of the ||, and a
# call under either of two branches has no guard of its own (the
# observed share per iteration), so skip's count is checked at -O2 and
# -O3 only.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $BD = $ENV{PERFPRED_BUILD} // 'build';
for my $f ("$BD/perfpred.so", "$BD/libperfpred-rt.a", "$BD/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0';
delete $ENV{PERFPRED_RECORD};
my $TMP = tempdir('pp-urange-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SRC = 'tests/plugin/urange/urange.c';

my $want = `gcc -O2 $SRC -o $TMP/plain 2>&1 && $TMP/plain 1000`;
is($want, "1499405.0\n", 'the plain program');
for my $opt ('-O0', '-O2', '-O3') {
    my $out = `gcc $opt$SAN -fplugin=$BD/perfpred.so $SRC -o $TMP/prog -L$BD -l:libperfpred-rt.a 2>&1`;
    is($?, 0, "$opt: builds with the plugin") or diag($out);
    unlink "$TMP/r.ppr";
    is(scalar `PERFPRED_RECORD=$TMP/r.ppr $TMP/prog 1000`, $want, "$opt: the same output as the plain program");
    my $rec = do { local $/; open my $h, '<', "$TMP/r.ppr" or die "no record\n"; <$h> };
    if ($opt ne '-O0') {
        like($rec, qr/cond=\(and \(ge \(\+ \(iv \d+\) -35\) 0\) \(le \(\+ \(iv \d+\) -35\) 6\)\)/,
             "$opt: the folded window test, both of its ends");
        like($rec, qr/cond=\(or \(lt \(\+ \(iv \d+\) -10\) 0\) \(gt \(\+ \(iv \d+\) -10\) 10\)\)/,
             "$opt: the folded outside test, both of its sides");
    }
    my $show = `$BD/perfpred show $TMP/r.ppr 2>&1`;
    unlike($show, qr/does not reproduce/, "$opt: the model reproduces the run");
    my $j = eval { decode_json(scalar `$BD/perfpred show $TMP/r.ppr --format json --set n=5000 2>/dev/null`) } || {};
    my %loop = map { $_->{id} => $_->{predicted} } @{ $j->{loops} || [] };
    is($loop{'mark:L0'}, 35, "$opt: at n = 5000, mark's loop 7 x 5 = 35 times");
    is($loop{'skip:L0'}, 14967, "$opt: at n = 5000, skip's loop (5000 - 11) x 3 = 14967 times") if $opt ne '-O0';
}
done_testing();
