#!/usr/bin/perl
# 67-bad-input.t - the analyser against bad records, machine files,
# experiment files and MPI runs, through the real commands (show, predict,
# scale, run-experiment): a truncated file (at every line boundary of a
# small record and in the middle of every line), flipped bytes, a wrong
# version, an empty file, a directory, random bytes, NUL bytes, huge
# numbers, deep parentheses, very long lines, an MPI run with a missing
# rank, ranks of two runs, a rank that is another program's.  Each must
# give exactly one line on stderr, "perfpred CMD: FILE:LINE: ..." or
# "perfpred CMD: FILE: ..." (a whole-file problem), exit status 2, no
# sanitizer report, and no huge allocation (under `ulimit -v` of 1 GB, or
# ASan's own RSS limit under SANITIZE=1).  `timeout` is only a hang
# detector.
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
my $TMP = tempdir('pp-bad-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $PP = "$B/perfpred";
my $SAN = $ENV{SANITIZE} ? ' -fsanitize=address,undefined' : '';
delete $ENV{PERFPRED_RECORD};
delete $ENV{PERFPRED_DISABLE};
$ENV{OMP_NUM_THREADS} = 2;
# No more than 1 GB: ulimit -v, which ASan cannot run under (it reserves
# terabytes of address space): there its own limits.
my $LIMIT = $ENV{SANITIZE} ? '' : 'ulimit -v 1048576; ';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0:hard_rss_limit_mb=1024:max_allocation_size_mb=1024:allocator_may_return_null=1';

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }
sub slurp { my $f = shift; local $/; open my $h, '<:raw', $f or die "$f: $!"; return scalar <$h> }
sub spit { my ($f, $s) = @_; open my $h, '>:raw', $f or die "$f: $!"; print $h $s; close $h or die }

# One bad input through one command: exactly one error line naming FILE
# (and a line, when $line), status 2.
my $nbad = 0;
sub bad {
    my ($what, $cmd, $file, %o) = @_;
    $nbad++;
    my ($rc, $out, $err) = run_in($TMP, "${LIMIT}timeout -k 5 300 $cmd");
    my $name = $cmd =~ /^\S+ (\S+)/ ? $1 : '?';
    # an MPI run's problem may be named by the rank's file in it
    my $f = $o{in} ? qr/\Q$file\E(\/[^\s:]+)?/ : qr/\Q$file\E/;
    my $re = $o{line} ? qr/^perfpred \Q$name\E: $f:\d+: \S/ : qr/^perfpred \Q$name\E: $f(:\d+)?: \S/;
    my @lines = split /\n/, $err;
    my $ok = $rc == 2 && @lines == 1 && $lines[0] =~ $re && length($lines[0]) < 1000;
    ok($ok, "$what: one error line naming the file" . ($o{line} ? ' and line' : '') . ", status 2")
        or diag("status $rc (124: hang), stderr:\n" . substr($err, 0, 2000));
    return $lines[0] // '';
}

# A command that may accept the input (a flipped byte can leave a valid
# file): then status 0, else as `bad`.
sub bad_or_ok {
    my ($what, $cmd, $file) = @_;
    my ($rc, $out, $err) = run_in($TMP, "${LIMIT}timeout -k 5 300 $cmd");
    my $name = $cmd =~ /^\S+ (\S+)/ ? $1 : '?';
    my @lines = grep { !/^perfpred: (warning|no --machine)/ } split /\n/, $err;
    my $ok = $rc == 0 ? @lines == 0
           : $rc == 2 && @lines == 1 && $lines[0] =~ /^perfpred \Q$name\E: \Q$file\E(:\d+)?: \S/;
    ok($ok, "$what: accepted, or one error line naming the file, status 2")
        or diag("status $rc, stderr:\n" . substr($err, 0, 2000));
}

# ------------------------------------------------------------ inputs
my ($rc, $out, $err) = run_in($TMP, "gcc -O2 -fopenmp -pthread$SAN -fplugin=$B/perfpred.so samples/apsp.c "
                                    . "-o $TMP/apsp -L$B -l:libperfpred-rt.a");
is($rc, 0, 'apsp builds with the plugin') or BAIL_OUT($err);
($rc) = run_in($TMP, "PERFPRED_RECORD=$TMP/good.ppr $TMP/apsp 8 2");
is($rc, 0, 'a small record') or BAIL_OUT('no record');
my $good = slurp("$TMP/good.ppr");
my $M = 'docs/examples/cluster.machine';
my $goodm = slurp($M);
($rc, $out, $err) = run_in($TMP, "$PP show $TMP/good.ppr");
is($rc, 0, 'the good record is accepted') or diag($err);
($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/good.ppr --machine $M --P 2");
is($rc, 0, 'the good machine file is accepted') or diag($err);

my $r = "$TMP/bad.ppr";
my $m = "$TMP/bad.machine";
my @show = (sub { "$PP show $_[0]" }, sub { "$PP predict $_[0] --machine $M --P 2,4" },
            sub { "$PP scale $_[0] --machine $M --scale N --P 2,4 --E 0.5" });
my @mach = (sub { "$PP predict $TMP/good.ppr --machine $_[0] --P 2" },
            sub { "$PP scale $TMP/good.ppr --machine $_[0] --scale N --P 2,4 --E 0.5" });

# ------------------------------------------------------------ records
# truncated at every line boundary (offset 0: the empty file), and in the
# middle of every line; through show, and every third through predict
my @off = (0);
push @off, pos($good) while $good =~ /\n/g;
pop @off;                          # the whole record is not truncated
my $i = 0;
for my $o (@off) {
    spit($r, substr($good, 0, $o));
    bad("record cut at byte $o (a line boundary)", $show[0]->($r), $r);
    bad("predict: record cut at byte $o", $show[1]->($r), $r) if $i++ % 3 == 0;
    my $end = index($good, "\n", $o + 1);
    my $mid = $o + int(($end - $o) / 2);
    next if $mid <= $o + 1;
    spit($r, substr($good, 0, $mid));
    bad("record cut at byte $mid (mid-line)", $show[0]->($r), $r, line => 1);
}
# what the reader says of a truncated record
spit($r, substr($good, 0, int(length($good) / 2)));
like(bad('record cut in half', $show[0]->($r), $r), qr/truncated/, 'a truncated record is called so');

# everything through all three commands
my %recs = (
    'empty record' => '',
    'wrong version' => $good =~ s/^perfpred-record 1/perfpred-record 2/r,
    'not a record' => "hello\nworld\n",
    'flipped byte in the magic line' => $good =~ s/^perfpred-record/perfpred-recorx/r,
    'a count off by one' => $good =~ s/^(count thread=\S+ func=\S+ slots=\(\d+ \d+ )(\d+)/$1 . ($2 + 1)/mer,
    'NUL byte' => substr($good, 0, 300) . "\0" . substr($good, 301),
    'random bytes' => join('', map { chr(($_ * 7919 + 13) % 256) } 1 .. 4096),
    'nslots=4294967295' => $good =~ s/nslots=\d+/nslots=4294967295/r,
    'nslots=1e30' => $good =~ s/nslots=\d+/nslots=1e30/r,
    'nslots beyond its lines' => $good =~ s/nslots=(\d+)/'nslots=' . ($1 + 1000000)/er,
    'thread id=4294967295' => $good =~ s/^thread id=0 /thread id=4294967295 /mr,
    'thread id=999999' => $good =~ s/^(end events=)/thread id=999999 kind=other parent=0 start=0 end=1\n$1/mr,
    'a slot of 2^64' => $good =~ s/^(count thread=\S+ func=\S+ slots=\()\d+/${1}18446744073709551616/mr,
    'a time of 1e30' => $good =~ s/^(thread id=0 .*?)end=\d+/${1}end=1e30/mr,
    'deep parentheses' => $good =~ s/count=\(max 0 \(global P\)\)/'count=' . ('(' x 100000) . 'global P' . (')' x 100000)/er,
    'unbalanced deep parentheses' => $good =~ s/delta=\(\(/'delta=(' . ('(' x 100000)/er,
    'a 10 MB malformed line' => $good =~ s/^(thread id=0 .*?)start=\d+/$1 . 'start=' . ('9x' x 5000000)/mer,
    'a 10 MB unbalanced string' => $good =~ s/^argv /'argv "' . ('x' x 10000000) . ' '/mer,
    'two argv lines' => $good =~ s/^(argv .*\n)/$1$1/mr,
    # a branch's derived false count (docs/descriptor-format.md)
    'fslot naming slot 0' => $good =~ s/ fslot=\((\d+)/ fslot=(0/r,
    'fslot beyond nslots' => $good =~ s/ fslot=\((\d+)/ fslot=(100000/r,
    'fslot not a list' => $good =~ s/ fslot=\((\d+)[^)]*\)/ fslot=$1/r,
    'fslot of 40 slots' => $good =~ s/ fslot=\((\d+)/' fslot=(' . join(' ', ($1) x 40)/er,
    'tparam naming a thread the record lacks' => $good =~ s/^(thread id=0 )/tparam func=0 id=0 thread=999 value=1\n$1/mr,
    'tparam of no described parameter' => $good =~ s/^(thread id=0 )/tparam func=0 id=99999 thread=0 value=1\n$1/mr,
    'tparam without a thread' => $good =~ s/^(thread id=0 )/tparam func=0 id=0 value=1\n$1/mr,
    # loop timing (docs/record-format.md, the timing line; a loop's tslot=)
    'timing line with tick_ns=0' => $good =~ s/^timing tick_ns=\S+/timing tick_ns=0/mr,
    'timing line with a word for cost_ns' => $good =~ s/ cost_ns=\S+/ cost_ns=fast/r,
    'timing window above its cost' => $good =~ s/ window_ns=\S+/ window_ns=1e9/r,
    'tslot on the loop\'s own slots' => $good =~ s/ slot=(\d+) tslot=\d+/ slot=$1 tslot=$1/r,
    'tslot beyond nslots' => $good =~ s/ tslot=\d+/ tslot=100000/r,
);
for my $k (sort keys %recs) {
    BAIL_OUT("case '$k' is not bad") if $recs{$k} eq $good;
    spit($r, $recs{$k});
    bad("$k: show", $show[0]->($r), $r);
    bad("$k: predict", $show[1]->($r), $r);
    bad("$k: scale", $show[2]->($r), $r);
}
# flipped bytes: every 97th byte, each with bit 2; some give a valid record
for (my $o = 0; $o < length($good); $o += 97) {
    my $s = $good;
    substr($s, $o, 1) = chr(ord(substr($s, $o, 1)) ^ 4);
    spit($r, $s);
    bad_or_ok("record with byte $o flipped", $show[0]->($r), $r);
}
# the program given for its record
like(bad('the executable for its record', $show[0]->("$TMP/apsp"), "$TMP/apsp"),
     qr/an executable, not a record: run it to write one \(PERFPRED_RECORD=/, 'an executable is called so');
# not a file
mkdir "$TMP/dir.ppr";
bad('a directory with no record', $show[0]->("$TMP/dir.ppr"), "$TMP/dir.ppr");
bad('a record that does not exist', $show[0]->("$TMP/none.ppr"), "$TMP/none.ppr");

# ------------------------------------------------------------ machine files
my %machs = (
    'empty machine file' => '',
    'machine file of version 2' => $goodm =~ s/^perfpred-machine 1/perfpred-machine 2/r,
    'not a machine file' => "hello\n",
    'NUL byte in a machine file' => substr($goodm, 0, 200) . "\0" . substr($goodm, 201),
    'random bytes as machine file' => join('', map { chr(($_ * 7919 + 13) % 256) } 1 .. 4096),
    'cores = 1e30' => $goodm =~ s/^cores = 32/cores = 1e30/mr,
    'cores = 4294967295' => $goodm =~ s/^cores = 32/cores = 4294967295/mr,
    'a cost of -1' => $goodm =~ s/^mutex.lock.a_ns = 50/mutex.lock.a_ns = -1/mr,
    'a cost of nan' => $goodm =~ s/^mutex.lock.a_ns = 50/mutex.lock.a_ns = nan/mr,
    'a cost of 1e400' => $goodm =~ s/^mutex.lock.a_ns = 50/mutex.lock.a_ns = 1e400/mr,
    'a 10 MB value' => $goodm =~ s/^name = .*/'name = ' . ('x' x 10000000)/mer . "name = again\n",
    'a 10 MB number' => $goodm =~ s/^mutex.lock.a_ns = 50/'mutex.lock.a_ns = ' . ('9' x 10000000)/mer,
    'a key twice' => $goodm . "cores = 4\n",
);
for my $k (sort keys %machs) {
    BAIL_OUT("case '$k' is not bad") if $machs{$k} eq $goodm;
    spit($m, $machs{$k});
    bad("$k: predict", $mach[0]->($m), $m);
    bad("$k: scale", $mach[1]->($m), $m);
}
# truncated at every line boundary and mid-line: a machine file has no end
# line, so one cut after its last required key is still a machine file
@off = (0);
push @off, pos($goodm) while $goodm =~ /\n/g;
for my $o (@off) {
    spit($m, substr($goodm, 0, $o));
    bad_or_ok("machine file cut at byte $o", $mach[0]->($m), $m);
    spit($m, substr($goodm, 0, $o + 5));
    bad_or_ok("machine file cut at byte " . ($o + 5), $mach[0]->($m), $m);
}
spit($m, substr($goodm, 0, 300));
bad('machine file cut at byte 300 (required keys missing)', $mach[0]->($m), $m, line => 1);
mkdir "$TMP/dir.machine";
bad('a directory as machine file', $mach[0]->("$TMP/dir.machine"), "$TMP/dir.machine");

# ------------------------------------------------------------ experiment files
my $x = "$TMP/bad.experiment";
my %exps = (
    'empty experiment file' => '',
    'experiment file of version 2' => "perfpred-experiment 2\n",
    'NUL byte in an experiment file' => "perfpred-experiment 1\nname = a\0b\n",
    'deep parentheses in a set' => "perfpred-experiment 1\nvariant a\n  records = good.ppr\n  set N = "
                                   . ('(' x 100000) . 'P' . (')' x 100000) . "\nstep P = 1,2\n",
    'a step of 2^63 values' => "perfpred-experiment 1\nvariant a\n  records = good.ppr\nstep P = 1..9223372036854775807\n",
);
for my $k (sort keys %exps) {
    spit($x, $exps{$k});
    bad("$k: run-experiment", "$PP run-experiment $x", $x);
}
mkdir "$TMP/dir.experiment";
bad('a directory as experiment file', "$PP run-experiment $TMP/dir.experiment", "$TMP/dir.experiment");

# ------------------------------------------------------------ MPI runs
SKIP: {
    skip 'no mpicc or mpirun', 1
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    $ENV{OMPI_ALLOW_RUN_AS_ROOT} = 1;
    $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
    $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    for my $p (qw(mpi_trap mpi_jacobi)) {
        ($rc, $out, $err) = run_in($TMP, "mpicc -O2$SAN -fplugin=$B/perfpred.so samples/$p.c -o $TMP/$p "
                                         . "-L$B -l:libperfpred-rt.a -lm");
        is($rc, 0, "$p builds with the plugin") or BAIL_OUT($err);
    }
    my %runs = (trap1 => "$TMP/mpi_trap 1000", trap2 => "$TMP/mpi_trap 2000", jac => "$TMP/mpi_jacobi 32 2");
    for my $k (sort keys %runs) {
        mkdir "$TMP/$k";
        ($rc, $out, $err) = run_in($TMP, "timeout -k 5 120 mpirun -np 2 env PERFPRED_RECORD=$TMP/$k/rank-%r.ppr "
                                         . $runs{$k});
        ok($rc == 0 && -e "$TMP/$k/rank-1.ppr", "$k: an MPI run of 2 ranks") or BAIL_OUT($err);
    }
    ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/trap1");
    is($rc, 0, 'the good MPI run is accepted') or diag($err);
    my $t1 = slurp("$TMP/trap1/rank-0.ppr");
    my ($run, $pid0) = $t1 =~ /run=(\S+) pid0=(\S+)/;
    my %mpi = (
        'a missing rank' => [$t1],
        'ranks of two runs' => [$t1, slurp("$TMP/trap2/rank-1.ppr")],
        'a rank of another program' => [$t1, slurp("$TMP/jac/rank-1.ppr") =~ s/run=\S+ pid0=\S+/run=$run pid0=$pid0/r],
        'rank 0 twice' => [$t1, slurp("$TMP/trap1/rank-1.ppr") =~ s/rank=1 /rank=0 /r],
        'a truncated rank' => [$t1, substr(slurp("$TMP/trap1/rank-1.ppr"), 0, 1500)],
        'a rank of size 4294967295' => [$t1, slurp("$TMP/trap1/rank-1.ppr") =~ s/ size=2 / size=4294967295 /r],
    );
    my $n = 0;
    for my $k (sort keys %mpi) {
        my $d = "$TMP/mpi" . $n++;
        mkdir $d;
        spit("$d/rank-$_.ppr", $mpi{$k}[$_]) for 0 .. $#{$mpi{$k}};
        bad("MPI run with $k: show", "$PP show $d", $d, in => 1);
        bad("MPI run with $k: predict", "$PP predict $d --P 4", $d, in => 1);
        bad("MPI run with $k: show RANK", "$PP show $d/rank-0.ppr", $d, in => 1);
    }
}
note("$nbad bad inputs");
done_testing();
