#!/usr/bin/perl
# 63-robust.t - the fitted costs add up to the recorded work, and their
# level is the quiet part of the run.
#
# md (samples/md.c) has many loops that always run together, so the fit
# is ill-conditioned; least squares alone paid for some costs with
# negative others, and raising those to zero afterwards made T1 at the
# recorded size 25-70% more than the threads' recorded CPU time.  With the
# bounds inside the fit (an active set), T1 with --cost-quantile mean is
# the recorded work (the default; within 10%: the fit is least squares
# with a weak prior; in a sanitizer build, whose segments hold its event
# overhead, the median of five records within 25% and each within
# 50%, with 2048 particles: at 1024 the sanitized run's work is 15 ms, T1
# came 12% under it and, once in three runs on a loaded host, 29% under;
# at 2048 it is 5% under, a loaded CI runner once put one record of
# three past 25%, and a 2-core VM once two of three, 39% under, where
# five runs of the check after gave 8-10% under: five records, not three).
# --cost-quantile 0.25 (the quiet level: the 0.25 quantile of the
# segments' slowdown against that fit) scales every cost by the level
# show reports, so T1 scales by it too.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
system("gcc -O2 -pthread $san -fplugin=$B/perfpred.so samples/md.c -o $tmp/md -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build md');
sub json { my $o = eval { decode_json($_[0]) }; return $o || {}; }

# the threads' CPU time outside events, summed (the record's segments)
sub recorded_cpu {
    my ($path) = @_;
    open my $fh, '<', $path or die "$path: $!";
    my (%start, %last, $sum);
    $sum = 0;
    while (<$fh>) {
        if (/^thread id=(\d+) .*\bcstart=(\d+)/) {
            $start{$1} = $2;
            $last{$1} = $2;
        } elsif (/^ev thread=(\d+) .*\bc0=(\d+) c1=(\d+)/) {
            $sum += $2 - $last{$1};
            $last{$1} = $3;
        } elsif (/^tail thread=(\d+) .*\bc=(\d+)/) {
            $sum += $2 - $last{$1};
        }
    }
    return $sum / 1e9;
}

my $npart = $ENV{SANITIZE} ? 2048 : 1024;
my @dev;   # (T1 - the recorded work) / the recorded work, per record
my $records = $ENV{SANITIZE} ? 5 : 3;
for my $run (1 .. $records) {
    my $rec = "$tmp/md.$run.ppr";
    system("PERFPRED_RECORD=$rec $tmp/md $npart 20 2 >/dev/null") == 0 or BAIL_OUT('md run');
    my $cpu = recorded_cpu($rec);
    my $mean = json(`$pp predict $rec --P 1 --draws 0 --format json 2>/dev/null`);
    my $q = json(`$pp predict $rec --P 1 --draws 0 --format json --cost-quantile 0.25 2>/dev/null`);
    my $show = json(`$pp show $rec --format json --cost-quantile 0.25 2>/dev/null`);
    my $t1 = $mean->{T1} // 0;
    # (a sanitized runtime's event overhead is in the recorded segments,
    # and T1 at P = 1 has fewer segment ends than the record at P = 2:
    # 13-20% below the recorded work on the development host, so there the
    # check is against the 25-70% the old fit added, not 10%)
    # (a sanitized run on a loaded host has one record in three whose
    # segments carry a burst of the runtime's overhead: there each record
    # is held to 50% and the median of the five to 25%)
    my $tol = $ENV{SANITIZE} ? 0.50 : 0.10;
    my $dev = $cpu > 0 ? ($t1 - $cpu) / $cpu : 9;
    push @dev, $dev;
    ok(abs($dev) < $tol,
       sprintf('record %d: T1 of the least-squares costs %.2f ms = the recorded work %.2f ms (%+.1f%%, within %d%%)',
               $run, $t1 * 1e3, $cpu * 1e3, $dev * 100, $tol * 100));
    my $level = $show->{cost}{level} // 0;
    is($show->{cost}{quantile}, 0.25, "record $run: show reports the quantile asked for");
    ok($level > 0.5 && $level <= 1, "record $run: the level $level is in (0.5, 1]");
    ok(abs(($q->{T1} // 0) - $level * $t1) <= 1e-6 * $t1 + 1e-9,
       sprintf('record %d: T1 at the 0.25 level = %.4f x the least-squares T1', $run, $level));
    my $m = json(`$pp show $rec --format json 2>/dev/null`);
    is($m->{cost}{level}, 1, "record $run: by default (mean) the fit stays at level 1");
    is($m->{cost}{quantile}, 0, "record $run: by default the quantile is 0 (mean)");
    my $m2 = json(`$pp show $rec --format json --cost-quantile mean 2>/dev/null`);
    is($m2->{cost}{level}, 1, "record $run: --cost-quantile mean: level 1");
}
SKIP: {
    skip('the median is checked in a sanitizer build', 1) unless $ENV{SANITIZE};
    my @s = sort { $a <=> $b } @dev;
    my $mid = $s[$#s / 2];
    ok(@s == $records && abs($mid) < 0.25,
       sprintf('the median record of %d: T1 within 25%% of the recorded work (%+.1f%%)', $records, ($mid // 9) * 100));
}
like(scalar `$pp predict $tmp/md.1.ppr --cost-quantile 1.5 2>&1`, qr/--cost-quantile: '1.5' is not a quantile/,
     'a bad --cost-quantile is refused');
isnt(system("$pp predict $tmp/md.1.ppr --cost-quantile 0 >/dev/null 2>&1"), 0, '--cost-quantile 0 exits non-zero');
done_testing();
