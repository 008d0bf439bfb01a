#!/usr/bin/perl
# 14-samename.t - a program whose files have static functions of the same
# name (tests/programs/samename; SQLite's randomFunc, found by
# tests/realworld): the analyser reads its record, and a second record of
# the same program, function by function (same name, same rank).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $ROOT = `pwd`; chomp $ROOT;
my $BD  = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $TMP = tempdir('pp-same-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $src = 'tests/programs/samename';

# `make check SANITIZE=1` builds the runtime with ASan+UBSan: link the same way
my $san = ($ENV{SANITIZE} // '') eq '1' ? '-fsanitize=address,undefined' : '';
my $out = `gcc -O2 $san -fplugin=$BD/perfpred.so $src/a.c $src/b.c -o $TMP/same $BD/libperfpred-rt.a -pthread 2>&1`;
is($?, 0, 'builds with the plugin') or diag($out);
for my $n (100, 200) {
    $out = `cd $TMP && PERFPRED_RECORD=$TMP/same-$n.ppr ./same $n 2>&1`;
    is($?, 0, "runs with n=$n") or diag($out);
}
my $txt = do { local $/; open my $h, '<', "$TMP/same-100.ppr" or die; <$h> };
is(scalar(() = $txt =~ /^func name=helper /mg), 2, 'the record has both helpers');
$out = `$BD/perfpred show $TMP/same-100.ppr 2>&1`;
is($?, 0, 'perfpred show reads it') or diag($out);
$out = `$BD/perfpred show $TMP/same-100.ppr $TMP/same-200.ppr 2>&1`;
is($?, 0, 'perfpred show reads two records of it together') or diag($out);
done_testing();
