#!/usr/bin/perl
# 98-memory-per-thread.t - the memory model's working sets of a loop nest
# whose trip counts are the thread's own (docs/model.md, "Memory", "per
# thread"): a pthreads block partition of rows, lo and hi in the struct
# each thread is given.  The parameters do not give those counts; the
# model used to price the nest's streams at the program's arrays at every
# P.  Now the instantiation evaluates them with each thread's values and
# prices the thread's own working set, the private L2 its own and the
# shared levels divided among the threads that run at once.
#
# smooth.c: each thread damps its rows of a ROWS x COLS field towards a
# source, SWEEPS times.  The inner loop's streams: field[i][j] (read and
# written, 8 bytes an iteration) and src[i][j] (read, 8 bytes); the row
# loop does not walk them again, the sweep loop does after one entry of
# the row loop: a working set of (hi - lo) x COLS x 16 bytes a thread.
#
# Hand machine (as 98-memory-shared-ptr.t): one thread streams at 64 B/ns
# up to 8 MiB, 8 B/ns past it; cache.l2_bytes = 1 MiB; 4 cores.  With T
# threads at once, a thread's working set ws is priced as one thread's
# L2 + T (ws - L2).  Recorded at ROWS = 64, COLS = 1024, P = 2 (512 KiB a
# thread: 64 B/ns); predicted at ROWS = 608 (9.5 MiB in all):
#   P = 1: ws = 608 x 16384 = 9961472 > 8 MiB: beyond
#   P = 2: ws = 304 x 16384 = 4980736; 1 MiB + 2 x 3.75 MiB = 8.5 MiB: beyond
#   P = 4: ws = 152 x 16384 = 2490368; 1 MiB + 4 x 1.375 MiB = 6.5 MiB: inside
# Beyond, the loop adds 0.75 x 8 x (1/8 - 1/64) + 1.5 x 8 x (1/8 - 1/64)
# = 1.96875 ns an iteration; inside, nothing (the rule of the whole data
# added 1.96875 at every P).  The P = 2 threads do 304 x 1024 x 20 =
# 6225920 iterations each: T_PRAM rises by 6225920 x 1.96875 ns =
# 12.25728 ms more from the memory model at P = 2 than at P = 4 (main's
# loops over the data add the same at both; its create and join loops,
# one iteration a thread, add 9.1875 + 0.65625 ns a thread, under 40 ns:
# the check allows 1e-5 of 12.26 ms).
# With cache.l3_shared_by = 2 (two L3s of two processors), at most two
# threads share one: at ROWS = 1024, P = 4 a thread's 4 MiB is priced as
# 1 + 2 x 3 = 7 MiB (inside) instead of 1 + 4 x 3 = 13 (beyond).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine predict_json memory_loop hand_memory_machine);

my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $tmp = tempdir(CLEANUP => 1);
my $pp = "$B/perfpred";
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;

my $src = <<'EOF';
/* smooth.c - damp a field towards a source, rows split over pthreads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct range {
    int id;
    long lo, hi;         /* rows [lo, hi) of this thread */
    long ncols;
    int sweeps;
    const double *src;
    double *field;
};

static void *damp_rows(void *arg)
{
    struct range *r = arg;
    for (int s = 0; s < r->sweeps; s++)
        for (long i = r->lo; i < r->hi; i++)
            for (long j = 0; j < r->ncols; j++)
                r->field[i * r->ncols + j] = 0.5 * r->field[i * r->ncols + j] + r->src[i * r->ncols + j];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: smooth ROWS COLS SWEEPS THREADS\n");
        return 2;
    }
    long rows = atol(argv[1]), cols = atol(argv[2]);
    int sweeps = atoi(argv[3]), nthreads = atoi(argv[4]);
    if (rows < 1 || cols < 1 || sweeps < 1 || nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "smooth: bad arguments\n");
        return 2;
    }
    double *src = malloc(rows * cols * sizeof *src);
    double *field = calloc(rows * cols, sizeof *field);
    if (!src || !field) {
        fprintf(stderr, "smooth: out of memory\n");
        return 1;
    }
    for (long i = 0; i < rows * cols; i++)
        src[i] = (double)(i % 7) / 7.0;
    pthread_t tid[64];
    struct range part[64];
    for (int t = 0; t < nthreads; t++) {
        part[t].id = t;
        part[t].lo = rows * t / nthreads;
        part[t].hi = rows * (t + 1) / nthreads;
        part[t].ncols = cols;
        part[t].sweeps = sweeps;
        part[t].src = src;
        part[t].field = field;
        pthread_create(&tid[t], NULL, damp_rows, &part[t]);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    double sum = 0;
    for (long i = 0; i < rows * cols; i++)
        sum += field[i];
    printf("sum %.6f\n", sum);
    free(src);
    free(field);
    return 0;
}
EOF
open my $f, '>', "$tmp/smooth.c" or die;
print $f $src;
close $f;
system("gcc -O2 -pthread$SAN -fplugin=$B/perfpred.so $tmp/smooth.c -o $tmp/smooth -L$B -l:libperfpred-rt.a") == 0
    or BAIL_OUT('cannot build smooth.c');
system("PERFPRED_RECORD=$tmp/smooth.ppr $tmp/smooth 64 1024 20 2 >/dev/null") == 0
    or BAIL_OUT('smooth run');

# the descriptor: the row loop's count is the thread's (the struct's lo
# and hi), the inner loop has the two streams
open my $r, '<', "$tmp/smooth.ppr" or die;
my @loops = grep { /^func name=damp_rows / .. /^func name=(?!damp_rows )/ } <$r>;
close $r;
my ($rows) = grep { /^loop id=1 parent=0 / } @loops;
my ($inner) = grep { /^loop id=2 parent=1 / } @loops;
like($rows // '', qr/ count=\(max 0 \(- \(shared hi\) \(shared lo\)\)\)/, 'smooth: the row loop runs the thread\'s lo..hi');
like($inner // '', qr/ mem=\(8 0 1 8 0 0\)/, 'smooth: a written stream and a read one of 8 bytes, neither walked again by the row loop');
my ($line) = ($inner // '') =~ / line=(\d+) /;
$line //= 0;

hand_memory_machine("$tmp/hand.machine", 8388608, 67108864);
# four processors: four threads at once
{
    open my $in, '<', "$tmp/hand.machine" or die;
    my $text = do { local $/; <$in> };
    close $in;
    $text =~ s/^cores = 2$/cores = 4/m or die 'no cores line';
    open my $out, '>', "$tmp/hand.machine" or die;
    print $out $text;
    close $out;
}

sub predict { return predict_json($pp, "$tmp/smooth.ppr --machine $tmp/hand.machine $_[0]") }
sub mloop { return memory_loop($_[0], $line) }
sub near { my ($a, $b, $tol) = @_; return defined $a && abs($a - $b) <= ($tol // 1e-9) * (abs($b) + 1e-9); }

my %want = (    # P => [working set a thread, beyond, ns added an iteration]
    1 => [9961472, 1, 1.96875],
    2 => [4980736, 1, 1.96875],
    4 => [2490368, 0, 0],
);
my %pram;
for my $P (sort keys %want) {
    my $j = predict("--set rows=608 --P $P");
    my $l = mloop($j);
    my ($ws, $beyond, $ns) = @{ $want{$P} };
    is($l->{per_thread}, JSON::PP::true, "P = $P: priced per thread");
    is($l->{threads}, $P, "P = $P: $P threads at once");
    is($l->{working_set}, $ws, "P = $P: a thread's working set $ws bytes");
    is($l->{working_set_recorded}, 64 / 2 * 16384, 'recorded: 524288 bytes a thread (32 rows at P = 2)');
    ok(!!$l->{beyond} == !!$beyond, "P = $P: " . ($beyond ? 'beyond' : 'inside') . ' the edge');
    ok(near($l->{extra_ns_per_iter}, $ns),
       "P = $P: +$ns ns an iteration (got " . ($l->{extra_ns_per_iter} // 'none') . ')');
    $pram{$P} = $j->{time}{pram};
    my $off = predict("--set rows=608 --P $P --cache-rule off");
    $pram{"$P.off"} = $off->{time}{pram};
}
# the prediction uses it: what the memory model adds at P = 2 over P = 4
my $d = (($pram{2} // 0) - ($pram{'2.off'} // 0)) - (($pram{4} // 0) - ($pram{'4.off'} // 0));
ok(near($d, 6225920 * 1.96875e-9, 1e-5), "T_PRAM: 12.25728 ms more added at P = 2 than at P = 4 (got " . $d * 1e3 . ' ms)');

# Two L3s of two processors each (cache.l3_shared_by = 2): at most two
# threads share one.  ROWS = 1024 at P = 4: a thread's 256 rows, 4 MiB;
# with all four on one L3, 1 + 4 x 3 = 13 MiB: beyond, +1.96875; two on
# each, 1 + 2 x 3 = 7 MiB: inside, nothing added.
{
    my $j = predict('--set rows=1024 --P 4');
    my $l = mloop($j);
    is($l->{working_set}, 4194304, 'rows = 1024, P = 4: a thread\'s 4 MiB');
    ok($l->{beyond} && near($l->{extra_ns_per_iter}, 1.96875), 'one L3 for the four: 13 MiB, beyond, +1.96875 ns');
    open my $in, '<', "$tmp/hand.machine" or die;
    my $text = do { local $/; <$in> };
    close $in;
    $text =~ s/^(cache\.l3_bytes = .*)$/$1\ncache.l3_shared_by = 2/m or die 'no L3 line';
    open my $out, '>', "$tmp/hand.machine" or die;
    print $out $text;
    close $out;
    $l = mloop(predict('--set rows=1024 --P 4'));
    is($l->{threads}, 2, 'cache.l3_shared_by = 2: two threads share an L3');
    ok(!$l->{beyond} && near($l->{extra_ns_per_iter}, 0), 'two on each L3: 7 MiB, inside, nothing added');
}

# show, at the recorded size: the line says a thread's working set
my $show = `$pp show $tmp/smooth.ppr --machine $tmp/hand.machine 2>/dev/null`;
like($show, qr/damp_rows:L2 \(line $line\): 16 B\/iteration, working set 512\.0 KiB a thread, 2 threads at once \(recorded 512\.0 KiB\), \+0 ns\/iteration/,
     'show: the loop\'s working set is a thread\'s');
done_testing();
