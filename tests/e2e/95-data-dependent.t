#!/usr/bin/perl
# 95-data-dependent.t - a loop whose count per entry the plugin cannot
# know (a walk until a key is passed: about n/2 steps) and that grows with
# the size.  With one record it keeps its recorded count per entry at other
# sizes, and says so; with records at several sizes its count per entry is
# fitted as a function of the size (a power law through two records, the
# better of a power law and a line through three or more), and predicted at
# 8x the size against a real run there.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in json_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-ddep-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
my $PP = "$B/perfpred";

my ($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -fplugin=$B/perfpred.so tests/values/scan_until.c "
                                    . "-o $TMP/scan -L$B -l:libperfpred-rt.a -lm");
is($rc, 0, 'scan_until builds') or BAIL_OUT($err);
for my $n (1000, 2000, 4000, 32000) {
    ($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/s$n.ppr $TMP/scan $n 30");
    is($rc, 0, "scan_until $n runs") or BAIL_OUT($err);
}
# the walk's total in the run at 8x the largest size
my $real = json_in($TMP, "$PP show $TMP/s32000.ppr --format json", 'the run at n = 32000');
my %walk = map { $_->{id} => $_ } @{ $real->{loops} || [] };
my $want = $walk{'main:L2'}{observed};
is($want, 30 * 16001, 'the run at n = 32000 walked 30 x 16001 steps (n/2 + 1 each)');

sub walk_at {
    my ($recs, $what) = @_;
    my $j = json_in($TMP, "$PP show $recs --set n=32000 --format json", $what);
    my ($l) = grep { $_->{id} eq 'main:L2' } @{ $j->{loops} || [] };
    return $l || {};
}
# one record: the recorded count per entry, said
my $one = walk_at("$TMP/s4000.ppr", 'one record');
is($one->{rule}, 'constant', 'one record: the walk is a constant per entry');
is($one->{predicted}, 30 * 2001, 'one record: n = 32000 predicted with the recorded 2001 per entry');
($rc, $out, $err) = run_in($TMP, "$PP show $TMP/s4000.ppr");
like($out, qr/constant: 2001 per entry \(observed average; kept at other sizes: records at two sizes or more fit its growth\)/,
     'one record: show says the count is kept at other sizes, and what would fit it');
# two records: a power law through them
my $two = walk_at("$TMP/s1000.ppr $TMP/s4000.ppr", 'two records');
is($two->{rule}, 'fitted', 'two records: the walk is fitted');
ok(abs($two->{predicted} - $want) < 0.01 * $want,
   "two records: n = 32000 within 1% of the run ($two->{predicted} against $want)");
# three records: a line fits them exactly
my $three = walk_at("$TMP/s1000.ppr $TMP/s2000.ppr $TMP/s4000.ppr", 'three records');
is($three->{expr}, '0.5*n + 1', 'three records: 0.5 n + 1 per entry, a line');
is($three->{predicted}, $want, 'three records: n = 32000 exact');
($rc, $out, $err) = run_in($TMP, "$PP show $TMP/s1000.ppr $TMP/s2000.ppr $TMP/s4000.ppr");
like($out, qr/fitted over 3 records: 0\.5 x n \+ 1 per entry \(a line, 0% RMS error\)/, 'three records: show names the fit');

# the fit's error in the interval: none from an exact line, none from a
# law through two records, some from records the law misses (SKEW: n/2 +
# sqrt(n) steps), more the further from them
sub counts_part {
    my ($recs, $n) = @_;
    my $j = json_in($TMP, "$PP predict $recs --set n=$n --P 1 --format json", "predict $recs at n = $n");
    return ref $j eq 'ARRAY' ? $j->[0]{interval_parts}{counts} : $j->{interval_parts}{counts};
}
is(counts_part("$TMP/s1000.ppr $TMP/s2000.ppr $TMP/s4000.ppr", 32000), 0, 'an exact line: no counts part');
is(counts_part("$TMP/s1000.ppr $TMP/s4000.ppr", 32000), 0, 'a law through two records: no counts part');
my @skew;
for my $n (1000, 2000, 4000, 8000) {
    ($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/k$n.ppr $TMP/scan $n 30 1");
    is($rc, 0, "scan_until $n 30 1 runs") or BAIL_OUT($err);
    push @skew, "$TMP/k$n.ppr";
}
my ($near, $far) = map { counts_part("@skew", $_) } 16000, 64000;
ok(defined $near && $near > 0, "records the law misses: a counts part at n = 16000 (" . ($near // 'none') . ")");
ok(defined $far && $far > $near, "and a larger one at n = 64000 (" . ($far // 'none') . ")");
done_testing();
