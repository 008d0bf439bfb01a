#!/usr/bin/perl
# 74-record-identity.t - two user mistakes that gave a silent wrong answer
# now give one error, exit status 2:
#
# - records of a program made before and after its source was edited,
#   given together: a loop bound changed on the same line (`i < n` become
#   `i < n - 1`, `t < steps` become `t < 2 * steps`) made the loop's count
#   rule "fitted"; the error names the record, the function, the loop, its
#   line and the change.  Records of one binary at other sizes, and of
#   two builds of one source, still go together.
# - `perfpred validate` on a record whose binary was rebuilt since: it ran
#   another program.  The record's `exe` line has the executable's build
#   id (or, linked without one, its size and hash); validate refuses a
#   binary that differs, names both and both ids, and only warns on a
#   record without the line.  The same for an MPI run's records.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in mpi_setup);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
$ENV{OMP_NUM_THREADS} = 2;
delete $ENV{PERFPRED_RECORD};
delete $ENV{PERFPRED_DISABLE};

sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or die "$f: $!"; return <$h>; }
sub spew { my ($f, $s) = @_; open my $h, '>', $f or die "$f: $!"; print $h $s; close $h or die; }
my $sanitizer = '';     # what a sanitizer said, in any command
sub run {
    my @r = run_in($tmp, @_);
    $sanitizer .= "$_[0]:\n$r[2]" if $r[2] =~ /Sanitizer|runtime error:/;
    return @r;
}
sub build {
    my ($src, $exe, $extra) = @_;
    my ($rc, undef, $err) = run("gcc -O2 -fopenmp $san -fplugin=$B/perfpred.so $src -o $exe -L$B -l:libperfpred-rt.a "
                                . ($extra // ''));
    is($rc, 0, "builds $exe") or diag($err);
    return $rc == 0;
}
sub record {
    my ($exe, $ppr, @args) = @_;
    my ($rc, undef, $err) = run("PERFPRED_RECORD=$ppr $exe @args");
    is($rc, 0, "records $ppr") or diag($err);
}
# exit 2 and one error line matching RE
sub refused {
    my ($what, $cmd, $re) = @_;
    my ($rc, undef, $err) = run($cmd);
    is($rc, 2, "$what: exit status 2");
    my @lines = grep { !/^perfpred: (no --machine|warning)/ } split /\n/, $err;
    ok(@lines == 1 && $lines[0] =~ $re, "$what: one error saying what") or diag($err);
    return $lines[0] // '';
}
sub exe_line { my ($ppr) = @_; return slurp($ppr) =~ /^(exe .*)$/m ? $1 : '' }

# the program, and where its loops are
my $src = slurp('tests/programs/smooth.c');
my @src = split /\n/, $src;
my ($sum) = grep { $src[$_] =~ /sum \+= a\[i\]/ } 0 .. $#src;
my ($steps) = grep { $src[$_] =~ /for \(int t = 0; t < steps; t\+\+\)/ } 0 .. $#src;
ok(defined $sum && $src[$sum - 1] =~ /for \(int i = 0; i < n; i\+\+\)/ && defined $steps,
   'smooth.c has the sum loop and the step loop');
my ($sum_line, $steps_line) = ($sum, $steps + 1);     # 1-based: the line of the sum loop's `for`

mkdir "$tmp/$_" or die for qw(a b e1 e2);
spew("$tmp/a/smooth.c", $src);
spew("$tmp/b/smooth.c", $src);
my @e1 = @src;
$e1[$sum - 1] =~ s/i < n;/i < n - 1;/;
spew("$tmp/e1/smooth.c", join("\n", @e1) . "\n");
my @e2 = @src;
$e2[$steps] =~ s/t < steps;/t < 2 * steps;/;
spew("$tmp/e2/smooth.c", join("\n", @e2) . "\n");

build("$tmp/$_/smooth.c", "$tmp/$_/smooth") or BAIL_OUT("cannot build $_/smooth.c") for qw(a b e1 e2);
record("$tmp/a/smooth", "$tmp/a1.ppr", 20000, 8);
record("$tmp/a/smooth", "$tmp/a1bis.ppr", 20000, 8);
record("$tmp/a/smooth", "$tmp/a2.ppr", 10000, 8);
record("$tmp/b/smooth", "$tmp/b1.ppr", 10000, 8);
record("$tmp/e1/smooth", "$tmp/e1.ppr", 20000, 8);
record("$tmp/e2/smooth", "$tmp/e2.ppr", 20000, 4);

# ---------------------------------------------------------------- combined
my ($rc, $out, $err) = run("$pp show $tmp/a1.ppr $tmp/a2.ppr");
is($rc, 0, 'one binary at two sizes: the records go together') or diag($err);
($rc, $out, $err) = run("$pp show $tmp/a1.ppr $tmp/b1.ppr");
is($rc, 0, 'two builds of one source (other directories): the records go together') or diag($err);
($rc, $out, $err) = run("$pp show $tmp/a1.ppr $tmp/a2.ppr $tmp/b1.ppr --format json");
is($rc, 0, 'the three of them') or diag($err);
unlike($out, qr/"rule":\s*"fitted"/, '... and no loop count is fitted');

refused('a loop bound edited on the same line (n - 1)', "$pp show $tmp/a1.ppr $tmp/e1.ppr",
        qr{^perfpred show: \Q$tmp\E/e1\.ppr: not a record of the same program as \Q$tmp\E/a1\.ppr \(function main was compiled from another source: its loop L\d+ \(line $sum_line\) has bound n - 1, not n\)$});
refused('the same, the edited record first', "$pp show $tmp/e1.ppr $tmp/a2.ppr",
        qr{a2\.ppr: not a record of the same program as .*e1\.ppr \(function main .*its loop L\d+ \(line $sum_line\) has bound n, not n - 1\)$});
refused('a loop bound edited on the same line (2 * steps), predict', "$pp predict $tmp/a1.ppr $tmp/e2.ppr --P 4",
        qr{^perfpred predict: \Q$tmp\E/e2\.ppr: .*function main was compiled from another source: its loop L\d+ \(line $steps_line\) has bound (2\s*\*\s*steps|steps\s*\*\s*2), not steps\)$});
refused('scale too', "$pp scale $tmp/a2.ppr $tmp/e2.ppr --scale n --P 2,4 --Ea 0.7",
        qr{e2\.ppr: not a record of the same program .*line $steps_line\) has bound});

# ---------------------------------------------------------------- identity
my $id = exe_line("$tmp/a1.ppr");
like($id, qr/^exe build_id=[0-9a-f]{16,}$/, 'the record has the executable\'s build id');
my ($bid) = $id =~ /build_id=(\S+)/;
my $readelf = `readelf -n $tmp/a/smooth 2>/dev/null`;
SKIP: {
    skip 'no readelf', 1 unless $readelf =~ /Build ID: ([0-9a-f]+)/;
    is($bid, $1, '... the one readelf shows');
}
is(exe_line("$tmp/a1bis.ppr"), $id, 'two runs of one binary: the same identity (records stay reproducible)');
is(exe_line("$tmp/a2.ppr"), $id, 'another size: the same identity');

my $v = "--point n=5000,steps=4,P=2 --repeat 1 --draws 0";
($rc, $out, $err) = run("$pp validate $tmp/a1.ppr $v");
is($rc, 0, 'validate on the binary that made the record') or diag($err);
unlike($err, qr/rebuilt|cannot check/, '... says nothing about it');

# the binary rebuilt from another source at the same path
system("cp $tmp/a/smooth $tmp/a/smooth.kept") == 0 or die;
build("$tmp/e1/smooth.c", "$tmp/a/smooth");
my ($nid) = `readelf -n $tmp/a/smooth 2>/dev/null` =~ /Build ID: ([0-9a-f]+)/;
$nid //= '[0-9a-f]+';
my $msg = refused('validate on a rebuilt binary', "$pp validate $tmp/a1.ppr $v",
        qr{^perfpred validate: \Q$tmp\E/a/smooth was rebuilt or replaced after \Q$tmp\E/a1\.ppr was recorded \(build id \Q${\substr($nid, 0, 16)}\E\.\. differs from the record's \Q${\substr($bid, 0, 16)}\E\.\.\): record the program again, or give the binary that made it with --run$});
($rc, $out, $err) = run("$pp validate $tmp/a1.ppr --run '$tmp/a/smooth.kept {n} {steps}' $v");
is($rc, 0, 'validate --run with the binary that made it') or diag($err);
system("cp $tmp/a/smooth.kept $tmp/a/smooth") == 0 or die;
($rc, $out, $err) = run("$pp validate $tmp/a1.ppr $v");
is($rc, 0, 'the binary put back: validate runs again') or diag($err);
system("rm $tmp/a/smooth") == 0 or die;
refused('validate on a binary that is gone', "$pp validate $tmp/a1.ppr $v",
        qr{^perfpred validate: \Q$tmp\E/a/smooth, the program \Q$tmp\E/a1\.ppr was recorded from, cannot be read: No such file});
system("cp $tmp/a/smooth.kept $tmp/a/smooth") == 0 or die;

# a record of an older runtime: no exe line
(my $old = slurp("$tmp/a1.ppr")) =~ s/^exe .*\n//m;
spew("$tmp/old.ppr", $old);
($rc, $out, $err) = run("$pp show $tmp/old.ppr");
is($rc, 0, 'a record without the exe line is read') or diag($err);
($rc, $out, $err) = run("$pp show $tmp/old.ppr $tmp/a2.ppr");
is($rc, 0, '... and goes with one that has it') or diag($err);
($rc, $out, $err) = run("$pp validate $tmp/old.ppr $v");
is($rc, 0, 'validate on it runs') or diag($err);
like($err, qr/^perfpred validate: warning: \Q$tmp\E\/old\.ppr does not say which build of \Q$tmp\E\/a\/smooth made it .*cannot check/m,
     '... with a warning that it cannot check the binary');
# bad exe lines are errors naming the file and line
(my $bad = slurp("$tmp/a1.ppr")) =~ s/^exe build_id=\S+/exe build_id=xyz/m;
spew("$tmp/bad.ppr", $bad);
refused('a malformed build id', "$pp show $tmp/bad.ppr", qr{^perfpred show: \Q$tmp\E/bad\.ppr:3: exe line: build_id= is not a build id});

# ---------------------------------------------------------------- no build id
mkdir "$tmp/n" or die;
if (build("$tmp/a/smooth.c", "$tmp/n/smooth", '-Wl,--build-id=none')) {
    record("$tmp/n/smooth", "$tmp/n1.ppr", 5000, 4);
    record("$tmp/n/smooth", "$tmp/n2.ppr", 5000, 4);
    my $size = -s "$tmp/n/smooth";
    like(exe_line("$tmp/n1.ppr"), qr/^exe size=$size hash=[0-9a-f]{16}$/, 'no build id: the size and hash of the binary');
    is(exe_line("$tmp/n2.ppr"), exe_line("$tmp/n1.ppr"), '... the same in two runs');
    ($rc, $out, $err) = run("$pp validate $tmp/n1.ppr $v");
    is($rc, 0, 'validate checks them') or diag($err);
    system("printf x >> $tmp/n/smooth") == 0 or die;
    refused('... a binary of another size', "$pp validate $tmp/n1.ppr $v",
            qr{^perfpred validate: \Q$tmp\E/n/smooth was rebuilt or replaced after \Q$tmp\E/n1\.ppr was recorded \(it has ${\($size + 1)} bytes, the record's binary had $size\)});
    # the same size, one byte changed
    my $bin = slurp("$tmp/n/smooth");
    substr($bin, -1) = '';
    substr($bin, -1) = chr(ord(substr($bin, -1)) ^ 1);
    spew("$tmp/n/smooth", $bin);
    refused('... or of other contents', "$pp validate $tmp/n1.ppr $v",
            qr{n/smooth was rebuilt or replaced after .*n1\.ppr was recorded \(its contents' hash [0-9a-f]{16} differs from the record's [0-9a-f]{16}\)});
}

# the dynamic loader run as a command: the record's program is the loader,
# and so is its identity (the program's build id would make validate
# refuse the loader)
my ($ldso) = grep { -x } glob('/lib64/ld-linux-*.so.* /lib/ld-linux-*.so.*');
SKIP: {
    skip 'no dynamic loader to run', 3 unless $ldso;
    record("$ldso $tmp/a/smooth", "$tmp/ld.ppr", 5000, 4);
    like(exe_line("$tmp/ld.ppr"), qr/^exe size=\d+ hash=[0-9a-f]{16}$/, 'ld.so ./prog: the loader\'s size and hash');
    ($rc, $out, $err) = run("$pp validate $tmp/ld.ppr $v");
    is($rc, 0, '... and validate runs it') or diag($err);
}

# ---------------------------------------------------------------- MPI
SKIP: {
    skip 'no mpicc/mpirun', 6 unless system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') == 0;
    mpi_setup();
    my $msrc = slurp('samples/mpi_trap.c');
    mkdir "$tmp/m" or die;
    ($rc, $out, $err) = run("mpicc -O2 $san -fplugin=$B/perfpred.so samples/mpi_trap.c -o $tmp/m/trap -L$B -lperfpred-rt");
    is($rc, 0, 'mpi_trap builds') or diag($err);
    ($rc, $out, $err) = run("PERFPRED_RECORD=$tmp/m/run.ppr mpirun -np 2 $tmp/m/trap 20000 2");
    is($rc, 0, 'records an MPI run') or diag($err);
    my @ids = map { exe_line($_) } sort glob("$tmp/m/run.ppr/rank-*.ppr");
    ok(@ids == 2 && $ids[0] =~ /^exe build_id=/ && $ids[0] eq $ids[1], 'every rank\'s record has the same build id');
    # rebuilt from another source: one more line at the end
    spew("$tmp/m/trap2.c", $msrc . "/* edited */\nint trap_edited = 1;\n");
    ($rc, $out, $err) = run("mpicc -O2 $san -fplugin=$B/perfpred.so $tmp/m/trap2.c -o $tmp/m/trap -L$B -lperfpred-rt");
    is($rc, 0, 'rebuilt from another source') or diag($err);
    refused('validate on an MPI run whose binary was rebuilt', "$pp validate $tmp/m/run.ppr --point n=40000,P=2 --repeat 1 --draws 0",
            qr{^perfpred validate: \Q$tmp\E/m/trap was rebuilt or replaced after \Q$tmp\E/m/run\.ppr/rank-0\.ppr was recorded \(build id [0-9a-f]+\.\. differs});
}
is($sanitizer, '', 'no sanitizer report');
done_testing();
