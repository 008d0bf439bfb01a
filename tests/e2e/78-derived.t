#!/usr/bin/perl
# 78-derived.t - the problem parameters are the program's inputs
# (docs/model.md, "Derived globals"; docs/plugin.md, "Problem parameters"):
#  - a graph500-like kernel keeps SCALE, nv = 1 << SCALE and
#    nedge = edgefactor * nv in globals: show lists scale once with SCALE,
#    nv and nedge under it, JSON keys are unique, --set scale=R+3 (8x the
#    size) moves every loop (checked against a run at that size, P = 2, and
#    against hand-computed totals at P = 1, 4, 8, 16), --set nv= is refused
#    naming scale, --set edgefactor= moves nedge only;
#  - values from time(), gettimeofday, rand(), random(), drand48() are no
#    parameters, in locals or in a global (their loops are not symbolic);
#  - a local copied into a global of the same name and the same name in two
#    functions are one parameter, listed once; a global whose definition
#    the record contradicts (changed through a pointer) stays an input and
#    show says why.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use JSON::PP;
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in json_in compare_symbolic);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-derived-XXXXXX', TMPDIR => 1, CLEANUP => 1);
# under SANITIZE=1 the runtime is built with the sanitizers: so are the
# programs that link it (their own leaks are not what is tested)
# (UBSan's reports recoverable: with -fno-sanitize-recover they never
# return, and a loop with one becomes a loop of several exits, not counted
# symbolically)
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined' : '';
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
my $PP = "$B/perfpred";
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};

sub write_file {
    my ($path, $text) = @_;
    open my $f, '>', $path or die "$path: $!";
    print $f $text;
    close $f;
}

# The keys of the object after "KEY": in a JSON text, in order (JSON::PP
# keeps only the last of duplicate keys: count them in the text).
sub object_keys {
    my ($json, $key) = @_;
    my $at = index($json, "\"$key\":{");
    return () if $at < 0;
    my ($depth, $i, @keys) = (0, $at + length($key) + 4);
    for (; $i < length $json; $i++) {
        my $ch = substr($json, $i, 1);
        if ($ch eq '"') {
            my $end = index($json, '"', $i + 1);
            push @keys, substr($json, $i + 1, $end - $i - 1) if $depth == 0 && substr($json, $end + 1, 1) eq ':';
            $i = $end;
        } elsif ($ch eq '{' || $ch eq '[') {
            $depth++;
        } elsif ($ch eq '}' || $ch eq ']') {
            last if $depth == 0;
            $depth--;
        }
    }
    return @keys;
}

sub unique { my %s; return !grep { $s{$_}++ } @_ }

# ---- a graph500-like kernel --------------------------------------------
write_file("$TMP/graph.c", <<'C');
/* A graph500-like kernel: SCALE from the command line, the sizes kept in
   globals as the reference code does. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int SCALE;
static long nv, nedge;
int edgefactor = 16;
static long *xadj, *deg;
static long *src, *dst;

static void init_sizes(int scale)
{
    SCALE = scale;
    nv = 1L << SCALE;
    nedge = edgefactor * nv;
}

static void make_edges(void)
{
    #pragma omp parallel for
    for (long e = 0; e < nedge; e++) {
        unsigned long h = (unsigned long)e * 2654435761u;
        src[e] = (long)(h % (unsigned long)nv);
        dst[e] = (long)((h >> 7) % (unsigned long)nv);
    }
}

static long count_visited(void)
{
    long nwords = (nv + 63) / 64;    /* a bitmap over the vertices */
    unsigned long *seen = calloc(nwords, sizeof *seen);
    for (long e = 0; e < nedge; e++)
        seen[src[e] / 64] |= 1UL << (src[e] % 64);
    long n = 0;
    for (long w = 0; w < nwords; w++)
        n += __builtin_popcountl(seen[w]);
    free(seen);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCALE [EDGEFACTOR]\n", argv[0]);
        return 1;
    }
    if (argc > 2)
        edgefactor = atoi(argv[2]);
    int scale = atoi(argv[1]);
    init_sizes(scale);
    src = malloc(nedge * sizeof *src);
    dst = malloc(nedge * sizeof *dst);
    deg = calloc(nv, sizeof *deg);
    xadj = calloc(nv + 1, sizeof *xadj);
    make_edges();
    #pragma omp parallel for
    for (long e = 0; e < nedge; e++)
        __atomic_fetch_add(&deg[src[e]], 1, __ATOMIC_RELAXED);
    for (long v = 0; v < nv; v++)
        xadj[v + 1] = xadj[v] + deg[v];
    long maxdeg = 0;
    #pragma omp parallel for reduction(max:maxdeg)
    for (long v = 0; v < nv; v++)
        if (deg[v] > maxdeg)
            maxdeg = deg[v];
    printf("scale %d: %ld vertices, %ld edges, max degree %ld, %ld sources\n", SCALE, nv, nedge, maxdeg,
           count_visited());
    free(src); free(dst); free(deg); free(xadj);
    return 0;
}
C
my ($R, $R8) = (10, 13);
for my $O ('-O0', '-O2') {
    my ($rc, $out, $err) = run_in($TMP, "$B/perfpred-gcc $O$SAN -fopenmp $TMP/graph.c -o $TMP/graph$O");
    is($rc, 0, "graph $O: builds") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/g$O.ppr $TMP/graph$O $R");
    is($rc, 0, "graph $O: recorded at scale $R") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/g8$O.ppr $TMP/graph$O $R8");
    is($rc, 0, "graph $O: recorded at scale $R8") or diag($err);

    ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/g$O.ppr");
    is($rc, 0, "graph $O: show") or diag($err);
    my ($params) = $out =~ /^parameters:\n((?:  .*\n)+)/m;
    $params //= '';
    my @names = $params =~ /^\s+(\w+)\s+=/mg;
    ok(unique(@names), "graph $O: each parameter listed once") or diag($params);
    like($params, qr/^  scale +=\s+$R\s+\(scale in main\)\n    SCALE +=\s+$R\s+derived: scale .*\n    nv +=\s+1024\s+derived: 1 << SCALE .*\n    nedge +=\s+16384\s+derived: edgefactor\*nv /m,
         "graph $O: scale, with SCALE, nv and nedge derived under it") or diag($params);
    like($params, qr/^  edgefactor +=\s+16\s+\(global edgefactor\)$/m, "graph $O: edgefactor an input");

    my $js = `$PP show $TMP/g$O.ppr --format json 2>/dev/null`;
    my $j = eval { decode_json($js) } || {};
    for my $k ('params', 'set', 'derived') {
        my @k = object_keys($js, $k);
        ok(@k && unique(@k), "graph $O: JSON $k has one key per name (@k)");
    }
    is(join(',', sort keys %{ $j->{params} || {} }), 'edgefactor,scale', "graph $O: JSON params are the inputs");
    is($j->{derived}{nv}{derived}, '(shl 1 SCALE)', "graph $O: JSON derived nv");
    is($j->{derived}{nedge}{value}, 16384, "graph $O: JSON derived nedge's recorded value");

    # 8x the size: every symbolic loop exact against the run at that size
    my ($prc, $pred) = run_in($TMP, "$PP show $TMP/g$O.ppr --set scale=$R8 --format json");
    is($prc, 0, "graph $O: show --set scale=$R8");
    my ($orc, $obs) = run_in($TMP, "$PP show $TMP/g8$O.ppr --format json");
    my ($nsym, $exact, @diff) = compare_symbolic($pred, $obs);
    ok($nsym >= 6, "graph $O: at least 6 symbolic loops ($nsym)");
    is($exact, $nsym, "graph $O: every symbolic loop exact at scale $R8, P = 2") or diag(join("\n", @diff));
    my $pj = eval { decode_json($pred) } || {};
    is($pj->{derived}{nedge}{set}, 16 << $R8, "graph $O: nedge moved to 16 << $R8");

    # by hand: the totals do not depend on P (a worksharing loop's chunks
    # add up to the whole); nwords = (nv + 63) / 64
    my ($nv, $ne) = (1 << $R8, 16 << $R8);
    my %want = (25 => $ne, 61 => $ne, 35 => $ne, 38 => int(($nv + 63) / 64), 62 => $nv, 67 => $nv);
    for my $P (1, 4, 8, 16) {
        my $h = eval { decode_json(scalar `$PP show $TMP/g$O.ppr --set scale=$R8 --P $P --format json 2>/dev/null`) } || {};
        my @bad;
        for my $l (@{ $h->{loops} || [] }) {
            next if $l->{compiler} || !exists $want{ $l->{line} };
            push @bad, "line $l->{line}: $l->{predicted} (want $want{$l->{line}})"
                unless ($l->{predicted} // -1) == $want{ $l->{line} };
        }
        my $seen = grep { !$_->{compiler} && exists $want{ $_->{line} } } @{ $h->{loops} || [] };
        ok($seen == 6 && !@bad, "graph $O: P = $P, the hand-computed totals") or diag(join("\n", @bad));
    }

    ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/g$O.ppr --set nv=4096");
    is($rc, 2, "graph $O: --set nv= refused");
    like($err, qr/'nv' is computed by the program \(nv = 1 << SCALE, line \d+ of init_sizes\): set scale instead/,
         "graph $O: the message names scale") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "$PP scale $TMP/g$O.ppr --scale nedge --P 2,4 --Ea 0.5");
    is($rc, 2, "graph $O: scale --scale nedge refused");
    like($err, qr/--scale nedge: 'nedge' is computed by the program \(nedge = edgefactor\*nv, .*\): set (scale or edgefactor|edgefactor or scale) instead/,
         "graph $O: scale's message names the inputs") or diag($err);
    my $ef = eval { decode_json(scalar `$PP show $TMP/g$O.ppr --set edgefactor=8 --format json 2>/dev/null`) } || {};
    is($ef->{derived}{nedge}{set}, 8 << $R, "graph $O: --set edgefactor=8 moves nedge");
    is($ef->{derived}{nv}{set}, 1 << $R, "graph $O: --set edgefactor=8 leaves nv");
    ($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/g$O.ppr --set scale=$R8 --P 1,2,4");
    is($rc, 0, "graph $O: predict --set scale=$R8") or diag($err);
}

# ---- hand-edited records: the analyser's rules --------------------------
{
    my $good = do { local $/; open my $f, '<', "$TMP/g-O2.ppr" or die; <$f> };
    my %edit = (
        'two definitions' => $good =~ s/^(gdef name=nv .*\n)/$1gdef name=nv line=99 expr=(shl 2 (var scale))\n/mr,
        'a cycle' => $good =~ s/^gdef name=nv line=(\d+) expr=.*$/gdef name=nv line=$1 expr=(global nedge)/mr,
        'a malformed definition' => $good =~ s/^gdef name=nv line=(\d+) expr=.*$/gdef name=nv line=$1 expr=(shl 1/mr,
    );
    for my $k (sort keys %edit) {
        isnt($edit{$k}, $good, "$k: the record was edited");
        write_file("$TMP/edit.ppr", $edit{$k});
        my ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/edit.ppr");
        if ($k eq 'a malformed definition') {
            is($rc, 2, "$k: refused");
            like($err, qr/edit\.ppr:\d+/, "$k: the message names the file and line") or diag($err);
            next;
        }
        is($rc, 0, "$k: show") or diag($err);
        my ($params) = $out =~ /^parameters:\n((?:  .*\n)+)/m;
        $params //= '';
        like($params, qr/^  nv +=\s+1024\s+\(global nv\)\n +not derived: /m, "$k: nv an input, with the reason")
            or diag($params);
        like($params, qr/assigned in 2 places \(lines \d+, 99\)/, "$k: the two lines") if $k eq 'two definitions';
        like($params, qr/reads itself/, "$k: the cycle named") if $k eq 'a cycle';
        ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/edit.ppr --set nv=2048");
        is($rc, 0, "$k: nv can be set") or diag($err);
    }
}

# ---- clocks and random numbers -----------------------------------------
write_file("$TMP/seeded.c", <<'C');
/* A benchmark harness that seeds its generator from the clock, warms up
   a clock-dependent number of times and runs a random number of extra
   rounds: only n is an input. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static int passes;    /* extra passes, drawn at random */

static double work(double *a, int n)
{
    double s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += a[i] * a[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    struct timeval tv;
    gettimeofday(&tv, 0);
    srand((unsigned)time(NULL) ^ (unsigned)tv.tv_usec);
    int warmup = tv.tv_usec % 3 + 1;
    int extra = rand() % 4;
    long jitter = random() % 16;
    int nsamples = (int)(drand48() * 8) + 1;
    double *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = (double)rand() / RAND_MAX;
    passes = rand() % 3 + 1;
    double s = 0;
    for (int p = 0; p < passes; p++)
        s += a[p];
    for (int r = 0; r < warmup; r++)
        s += work(a, n);
    for (int r = 0; r < extra; r++)
        s += work(a, n);
    for (long j = 0; j < jitter; j++)
        s += a[j % n];
    for (int k = 0; k < nsamples; k++)
        s += a[k];
    printf("%s\n", s > 0 ? "ok" : "?");
    free(a);
    return 0;
}
C
for my $O ('-O0', '-O2') {
    my ($rc, $out, $err) = run_in($TMP, "$B/perfpred-gcc $O$SAN -fopenmp $TMP/seeded.c -o $TMP/seeded$O");
    is($rc, 0, "seeded $O: builds") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env OMP_NUM_THREADS=2 PERFPRED_RECORD=$TMP/s$O.ppr $TMP/seeded$O 5000");
    is($rc, 0, "seeded $O: runs") or diag($err);
    my $rec = do { local $/; open my $f, '<', "$TMP/s$O.ppr" or die; <$f> };
    my @p = $rec =~ /^param id=\d+ name=(\S+)/mg;
    is(join(',', @p), 'n', "seeded $O: n the only parameter (no clock, no random value)");
    my $j = json_in($TMP, "$PP show $TMP/s$O.ppr --format json", "seeded $O: show");
    is(join(',', sort keys %{ $j->{params} || {} }), 'n', "seeded $O: JSON params");
    my @sym = grep { !$_->{compiler} && $_->{rule} eq 'symbolic' } @{ $j->{loops} || [] };
    my @lines = sort { $a <=> $b } map { $_->{line} } grep { $_->{rule} ne 'symbolic' && !$_->{compiler} } @{ $j->{loops} || [] };
    is("@lines", '35 37 39 41 43', "seeded $O: the clock and random loops are not symbolic");
    like($rec, qr/^gdef name=passes line=33 expr=\? why=nondet$/m, "seeded $O: the global drawn at random is marked");
}

# ---- one name, several variables; a definition the record contradicts --
write_file("$TMP/dupe.c", <<'C');
/* The size lives in a global the kernels read and in main's local of the
   same name; a warm-up routine parses it again; the number of rounds is
   set from n, then adjusted through a pointer. */
#include <stdio.h>
#include <stdlib.h>

static long n;
static long rounds;

static void set_size(long size) { n = size; }
static void adjust(long *r) { *r += 1; }

static double sum(const double *a)
{
    double s = 0;
    for (long k = 0; k < rounds; k++)
        for (long i = 0; i < n; i++)
            s += a[i];
    return s;
}

static void warm(const char *arg)
{
    long n = atol(arg);
    volatile double x = 0;
    for (long i = 0; i < n; i++)
        x += i;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    set_size(n);
    rounds = n / 100;
    adjust(&rounds);
    warm(argc > 1 ? argv[1] : "1000");
    double *a = calloc(n, sizeof *a);
    for (long i = 0; i < n; i++)
        a[i] = i;
    printf("%g\n", sum(a));
    free(a);
    return 0;
}
C
for my $O ('-O0', '-O2') {
    my ($rc, $out, $err) = run_in($TMP, "$B/perfpred-gcc $O$SAN $TMP/dupe.c -o $TMP/dupe$O");
    is($rc, 0, "dupe $O: builds") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/d$O.ppr $TMP/dupe$O 3000");
    is($rc, 0, "dupe $O: runs") or diag($err);
    ($rc, $out, $err) = run_in($TMP, "$PP show $TMP/d$O.ppr");
    my ($params) = $out =~ /^parameters:\n((?:  .*\n)+)/m;
    $params //= '';
    my @names = $params =~ /^\s+(\w+)\s+=/mg;
    is("@names", 'n rounds P', "dupe $O: n listed once, rounds an input") or diag($params);
    like($params, qr/^  n +=\s+3000\s+\(n in \w+; also n in \w+\)$/m, "dupe $O: n's two locals on one line");
    like($params, qr/not derived: its definition n\/100 gives 30, but it was 31 at exit/,
         "dupe $O: why rounds is not derived");
    my $js = `$PP show $TMP/d$O.ppr --set n=6000 --set rounds=61 --format json 2>/dev/null`;
    my @k = object_keys($js, 'params');
    is("@k", 'n rounds', "dupe $O: JSON params, one key per name");
    my $j = eval { decode_json($js) } || {};
    my ($inner) = grep { $_->{line} == 17 } @{ $j->{loops} || [] };
    is($inner && $inner->{predicted}, 61 * 6000, "dupe $O: the global n moves with the local (61 rounds of 6000)");
}
done_testing();
