#!/usr/bin/perl
# 68-fuzz-corpus.t - the fuzzers' seeds and corpus and the inputs that
# crashed the readers, as regression tests (docs/fuzzing.md): every file of
# tests/fuzz/{seeds,corpus}/{record,machine,experiment}/ and
# tests/fuzz/crashes/ is
# given to its harness (tests/fuzz/fuzz-*.c, the same code libFuzzer runs)
# through the gcc-built replay driver (tests/fuzz/replay.c); under
# SANITIZE=1 it is built with ASan and UBSan.  Every file must go through:
# no crash, no sanitizer report, no hang (`timeout` as a hang detector
# only), and a refused input's error must be one line naming the file (the
# harness aborts otherwise).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
my $tmp = tempdir(CLEANUP => 1);
# leaks are not looked for (docs/fuzzing.md): the analyser exits on bad input
$ENV{ASAN_OPTIONS} = 'detect_leaks=0:abort_on_error=0';
$ENV{UBSAN_OPTIONS} = 'print_stacktrace=1';
$ENV{OMP_NUM_THREADS} = 1;

for my $t (qw(record machine experiment)) {
    my $bin = "$B/tests/replay-$t";
    ok(-x $bin, "$t: replay driver built ($bin)") or next;
    my @corpus = (sort(glob("tests/fuzz/seeds/$t/*")), sort(glob("tests/fuzz/corpus/$t/*")));
    my @crash = sort glob("tests/fuzz/crashes/$t-*");
    cmp_ok(scalar @corpus, '>=', 3, "$t: a corpus of at least 3 files");
    my @files = (@corpus, @crash);
    # in chunks, to keep the command lines short
    my ($all, $done, $bad) = (1, 0, '');
    while (my @chunk = splice(@files, 0, 200)) {
        my $cmd = join(' ', 'timeout -k 5 600', $bin, map { "'$_'" } @chunk);
        my $out = `$cmd 2>$tmp/err`;
        my $rc = $?;
        my $err = do { local $/; open my $f, '<', "$tmp/err" or die; <$f> };
        my %seen = map { /^ok (.*)$/ ? ($1 => 1) : () } split /\n/, $out;
        my @missing = grep { !$seen{$_} } @chunk;
        $done += @chunk - @missing;
        if ($rc != 0 || @missing || $err =~ /Sanitizer|runtime error:|perfpred fuzz:/) {
            $all = 0;
            $bad .= sprintf("exit %d; stopped at %s\n%s\n", $rc >> 8, $missing[0] // '(none)',
                            substr($err, 0, 3000));
        }
    }
    ok($all, sprintf("$t: %d corpus files and %d crash inputs replayed without a crash", scalar @corpus,
                     scalar @crash)) or diag($bad);
    is($done, @corpus + @crash, "$t: every file went through");
}
done_testing();
