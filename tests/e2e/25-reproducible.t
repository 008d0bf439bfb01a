#!/usr/bin/perl
# 25-reproducible.t - records are reproducible and safe (issue 6 point 6).
#
# - The same program and input give records that analyse to the same
#   counts: every slot summed over the threads, the events per site and
#   kind, and `show`'s observed iterations per loop, for a pthreads, an
#   OpenMP and a data-dependent (md: while loops) sample, run three times.
# - Processes writing the same PERFPRED_RECORD at once never interleave:
#   the file left is one whole record of one of them, no temporary file
#   is left behind.
# - A record of another program, of the same program compiled from another
#   source, or of another runtime ABI or record version, given with others,
#   is refused with one error line naming the file, exit status 2.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;

require "./tests/runtime/ppr.pl";

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';

sub build {
    my ($src, $bin) = @_;
    my $log = `gcc -O2 -fopenmp -pthread $san -fplugin=$B/perfpred.so $src -o $bin -L$B -l:libperfpred-rt.a 2>&1`;
    ok($? == 0, "build $bin") or diag($log);
    return $? == 0;
}

# the counts of a record: slot totals over threads per (function, slot),
# events per (function, site, kind), and show's observed count per loop
sub counts {
    my ($path) = @_;
    my $r = ppr_read($path);
    my @e = ppr_check($r);
    return "invalid record: @e[0 .. ($#e > 3 ? 3 : $#e)]" if @e;
    my %c;
    for my $t (values %{$r->{threads}}) {
        for my $f (keys %{$t->{counts}}) {
            my $name = $r->{funcs}[$f]{name};
            my @s = @{$t->{counts}{$f}};
            # a timed loop's ticks and timed entries (tslot=) are times
            my %time = map { ($_ => 1, $_ + 1 => 1) } $r->{funcs}[$f]{text} =~ /^loop .* tslot=(\d+)/mg;
            $c{"slot $name/$_"} += $s[$_] for grep { !$time{$_} } 0 .. $#s;
        }
    }
    for my $ev (@{$r->{evs}}) {
        my $name = $ev->{func} eq '-' ? '-' : $r->{funcs}[$ev->{func}]{name};
        $c{"ev $name/$ev->{site}/$ev->{kind}"}++;
    }
    my $j = `$pp show --format json $path 2>/dev/null`;
    return "show failed on $path" if $? != 0;
    my $d = decode_json($j);
    $c{"loop $_->{id}"} = $_->{observed} for @{$d->{loops}};
    return \%c;
}

my @progs = (
    ['ge_pthreads', 'samples/ge_pthreads.c', '48 2'],
    ['ge_omp',      'samples/ge_omp.c',      '48 2'],
    ['md',          'samples/md.c',          '256 4 2'],
);
for my $p (@progs) {
    my ($name, $src, $args) = @$p;
    build($src, "$tmp/$name") or next;
    my @c;
    for my $i (1 .. 3) {
        system("cd $tmp && OMP_NUM_THREADS=2 PERFPRED_RECORD=$tmp/$name.$i.ppr ./$name $args >/dev/null 2>&1");
        push @c, counts("$tmp/$name.$i.ppr");
    }
    ok(ref $c[0] && keys %{$c[0]} > 5, "$name: counts read") or diag($c[0]);
    is_deeply($c[$_], $c[0], "$name: run " . ($_ + 1) . " has the counts of run 1") for 1 .. 2;
}

# ---------------------------------------------------------------- concurrent writers
SKIP: {
    skip 'ge_omp did not build', 4 unless -x "$tmp/ge_omp";
    my $rec = "$tmp/same.ppr";
    my $pids = `cd $tmp && for i in 1 2 3 4 5 6 7 8; do sh -c 'echo \$\$; OMP_NUM_THREADS=2 PERFPRED_RECORD=$rec exec ./ge_omp 96 2 >/dev/null 2>&1' & done; wait`;
    my %pid = map { $_ => 1 } split /\s+/, $pids;
    is(scalar keys %pid, 8, 'concurrent writers: 8 processes ran');
    my $r = ppr_read($rec);
    my @e = ppr_check($r);
    ok(!@e, 'concurrent writers: the record left is whole') or diag(join "\n", @e[0 .. ($#e > 5 ? 5 : $#e)]);
    my ($p) = ($r->{program} // '') =~ /\bpid=(\d+)/;
    ok($p && $pid{$p}, 'concurrent writers: it is the record of one of them') or diag($r->{program});
    my @left = glob("$tmp/same.ppr.tmp.*");
    is(scalar @left, 0, 'concurrent writers: no temporary file left') or diag("@left");
}

# ---------------------------------------------------------------- refused
sub refuse {
    my ($what, $cmd, $re) = @_;
    my $err = `$cmd 2>&1 >/dev/null`;
    my $rc = $? >> 8;
    is($rc, 2, "$what: exit status 2");
    my @lines = split /\n/, $err;
    ok(@lines == 1 && $lines[0] =~ $re, "$what: one error line naming the file") or diag($err);
}

SKIP: {
    skip 'samples did not build', 8 unless -x "$tmp/ge_omp" && -x "$tmp/ge_pthreads";
    refuse('another program',
           "$pp show $tmp/ge_omp.1.ppr $tmp/ge_pthreads.1.ppr",
           qr{\Q$tmp\E/ge_pthreads\.1\.ppr: not a record of the same program as \Q$tmp\E/ge_omp\.1\.ppr});

    # the same program, one line added before main: its loops moved
    open my $in, '<', 'samples/ge_omp.c' or die;
    my @src = <$in>;
    close $in;
    my ($m) = grep { $src[$_] =~ /^int main/ } 0 .. $#src;
    splice @src, $m, 0, "/* moved */\n";
    open my $o, '>', "$tmp/ge_omp2.c" or die;
    print $o @src;
    close $o;
    if (build("$tmp/ge_omp2.c", "$tmp/ge_omp2")) {
        system("cd $tmp && OMP_NUM_THREADS=2 PERFPRED_RECORD=$tmp/moved.ppr ./ge_omp2 48 2 >/dev/null 2>&1");
        refuse('the same program compiled from another source',
               "$pp show $tmp/ge_omp.1.ppr $tmp/moved.ppr",
               qr{\Q$tmp\E/moved\.ppr: not a record of the same program .*compiled from another source});
    }

    # the record as another runtime ABI or record version would write it
    my $good = do { local (@ARGV, $/) = "$tmp/ge_omp.1.ppr"; <> };
    (my $abi = $good) =~ s/ abi=1 / abi=2 /;
    open $o, '>', "$tmp/abi.ppr" or die;
    print $o $abi;
    close $o;
    refuse('another runtime ABI', "$pp show $tmp/abi.ppr", qr{^perfpred show: \Q$tmp\E/abi\.ppr:2: .*ABI 2});
    (my $ver = $good) =~ s/^perfpred-record 1/perfpred-record 2/;
    open $o, '>', "$tmp/ver.ppr" or die;
    print $o $ver;
    close $o;
    refuse('another record version', "$pp show $tmp/ver.ppr",
           qr{^perfpred show: \Q$tmp\E/ver\.ppr:1: record version '2' is not supported});
}

done_testing();
