#!/usr/bin/env perl
# End-to-end tests of the GCC plugin (build/perfpred.so) with the test-only
# runtime stub tests/plugin/stub-rt.c.  Run from the repository root:
#   prove tests/e2e/10-plugin.t
#
# For each program in tests/plugin/progs and each of -O0 -O2 -O3: it builds
# without warnings with the plugin, prints what the program prints without
# the plugin, its descriptor text has the expected symbolic forms, and the
# counters the stub prints at exit equal hand-computed totals.  Loops are
# found by a /* L:name */ marker on their source line.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $root = abs_path(dirname(abs_path($0)) . '/../..');
chdir $root or die "chdir $root: $!";
my $n_tests = 0;
my $failed = 0;

sub ok ($$) {                 # (scalar context: a failed match is false, not an empty list)
    my ($cond, $name) = @_;
    $n_tests++;
    print(($cond ? "ok" : "not ok") . " $n_tests - $name\n");
    $failed++ unless $cond;
    return $cond;
}

sub diag { my $m = join('', @_); $m =~ s/^/# /mg; print STDERR "$m\n"; }

sub slurp { my ($f) = @_; open(my $h, '<', $f) or return ''; local $/; my $s = <$h>; close $h; return $s; }

sub run {                      # command -> (status, stdout+stderr)
    my ($cmd) = @_;
    my $out = `$cmd 2>&1`;
    return ($? >> 8, $out);
}

# the build directory of `make check B=...` (PERFPRED_BUILD), else build/
my $BD = $ENV{PERFPRED_BUILD} // "$root/build";
if (system("make -s B=$BD $BD/perfpred.so >/dev/null") != 0 || !-f "$BD/perfpred.so") {
    print "1..0 # SKIP cannot build $BD/perfpred.so\n";
    exit 0;
}
my $tmp = tempdir(CLEANUP => 1);
my $PL = "-fplugin=$BD/perfpred.so";
# the stub, with the runtime's x86-64 entry points of loop timing (the
# plugin's asm form calls them; they call the stub's __pp_tbegin/__pp_tend)
my ($st, $o) = run("gcc -O2 -g -c -fPIC -pthread tests/plugin/stub-rt.c -o $tmp/stub-c.o"
                   . " && gcc -c runtime/rt-timing-x86.S -o $tmp/stub-s.o"
                   . " && ld -r $tmp/stub-c.o $tmp/stub-s.o -o $tmp/stub.o");
die "stub: $o" if $st;

# ---------------------------------------------------------------- helpers

sub markers {                  # file -> { name => line }
    my ($file) = @_;
    my %m;
    my $n = 0;
    for my $l (split /\n/, slurp($file)) {
        $n++;
        $m{$1} = $n while $l =~ /L:(\w+)/g;
    }
    return \%m;
}

# Parse the stub's output: descriptors and counter totals per function.
sub parse_out {
    my ($text) = @_;
    my (%desc, %cnt, @params, %globals, $cur);
    my $wrap = 0;
    for my $l (split /\n/, $text) {
        if ($l =~ /^=== desc (\S+)/) { $cur = $1; $desc{$cur} = ''; next; }
        if ($l =~ /^=== counts (\S+)\s*(.*)$/) { $cnt{$1} = [split ' ', $2]; $cur = undef; next; }
        if ($l =~ /^=== param (\S+) (\d+) (-?\d+) (\d+)/) { push @params, [$1, $2, $3, $4]; next; }
        if ($l =~ /^=== global (\S+) (-?\d+)/) { $globals{$1} = $2; next; }
        if ($l =~ /^=== wrapcalls (\d+)/) { $wrap = $1; next; }
        $desc{$cur} .= "$l\n" if defined $cur;
    }
    return { desc => \%desc, cnt => \%cnt, params => \@params, globals => \%globals, wrap => $wrap };
}

# Loops at source line LINE (optionally with flag FLAG): sums over
# functions of body iterations and entries.
sub loop_counts {
    my ($r, $line, $flag) = @_;
    my ($body, $entries, $found, $tfound, $timed) = (0, 0, 0, 0, 0);
    for my $fn (keys %{$r->{desc}}) {
        for my $l (split /\n/, $r->{desc}{$fn}) {
            next unless $l =~ /^loop / && $l =~ / line=$line\b/;
            next if defined $flag && $l !~ /flags=\S*\b$flag\b/;
            next if !defined $flag && $l =~ /flags=\S*compiler/;
            my ($slot) = $l =~ / slot=(\d+)/;
            my ($shape) = $l =~ / shape=(\w+)/;
            my $c = $r->{cnt}{$fn} or next;
            my ($h, $e) = ($c->[$slot], $c->[$slot + 1]);
            $body += $shape eq 'bottom' ? $h : $h - $e;
            $entries += $e;
            $found++;
            # loop timing (plugin/pp-timing.cc): the stub times every
            # entry, one tick each, when the entry reaches an exit
            if ($l =~ / tslot=(\d+)/) {
                $tfound++;
                $timed += $c->[$1 + 1] if $c->[$1] == $c->[$1 + 1];
            }
        }
    }
    return ($found, $body, $entries, $tfound, $timed);
}

sub loop_line {                # descriptor line of the loop at LINE
    my ($r, $line, $flag) = @_;
    for my $fn (sort keys %{$r->{desc}}) {
        for my $l (split /\n/, $r->{desc}{$fn}) {
            next unless $l =~ /^loop / && $l =~ / line=$line\b/;
            next if defined $flag && $l !~ /flags=\S*\b$flag\b/;
            return $l;
        }
    }
    return '';
}

sub site_count {               # counter of the event/call line matching RE
    my ($r, $re) = @_;
    my $sum = 0;
    for my $fn (keys %{$r->{desc}}) {
        for my $l (split /\n/, $r->{desc}{$fn}) {
            next unless $l =~ /^(event|call) / && $l =~ $re;
            my ($slot) = $l =~ / slot=(\d+)/;
            $sum += $r->{cnt}{$fn}[$slot];
        }
    }
    return $sum;
}

# Build with and without the plugin, run both, compare.  Returns the parsed
# stub output, or undef.
sub build_run {
    my (%a) = @_;
    my $tag = "$a{name}$a{opt}$a{tag}";
    my $cflags = $a{cflags} // '';
    my $env = $a{env} // '';
    my $args = $a{args} // '';
    my ($s1, $o1) = run("gcc $a{opt} $cflags $a{src} -o $tmp/ref-$tag");
    my ($s2, $o2) = run("gcc $a{opt} -Wall $cflags $PL -fplugin-arg-perfpred-verbose $a{extra} "
                        . "$a{src} $tmp/stub.o -o $tmp/pp-$tag -fopenmp -pthread");
    ok($s1 == 0 && $s2 == 0, "$tag: builds with the plugin") or do { diag($o1, $o2); return undef; };
    my @warn = grep { /warning:|error:/ } split /\n/, $o2;
    ok(!@warn, "$tag: no warnings") or diag(join("\n", @warn));
    ok($o2 =~ /^func name=/m, "$tag: verbose prints descriptors");
    my ($r1, $ref) = run("$env $tmp/ref-$tag $args");
    my ($r2, $got) = run("$env PP_STUB_OUT=$tmp/out-$tag $tmp/pp-$tag $args");
    ok($r1 == $r2 && $ref eq $got, "$tag: same output as without the plugin")
        or diag("ref: $ref\ngot: $got");
    my $out = slurp("$tmp/out-$tag");
    ok($out !~ /=== bad record/, "$tag: descriptor section is a dense array");
    return parse_out($out);
}

sub field {                    # value of KEY= in a descriptor line (balanced)
    my ($l, $key) = @_;
    return $1 if $l =~ / \Q$key\E=(\((?:[^()]++|(?1))*\)|[^\s()]+)/;
    return '';
}

sub check_loop {
    my ($r, $tag, $m, $marker, $body, $entries, $flag) = @_;
    my ($found, $b, $e, $tfound, $timed) = loop_counts($r, $m->{$marker}, $flag);
    ok($found >= 1 && $b == $body && (!defined $entries || $e == $entries),
       "$tag: loop $marker: $body body iterations" . (defined $entries ? ", $entries entries" : ''))
        or diag("found=$found body=$b entries=$e");
    ok($timed == $e, "$tag: loop $marker: each of its $e entries timed once, begun and ended")
        or diag("timed=$timed entries=$e") if $tfound && $tfound == $found;
}

sub check_desc {
    my ($r, $tag, $what, $re) = @_;
    my $all = join('', map { $r->{desc}{$_} } sort keys %{$r->{desc}});
    ok(scalar($all =~ $re), "$tag: $what") or diag("no match for $re");
}

# ---------------------------------------------------------------- serial

my $src = 'tests/plugin/progs/loops.c';
my $m = markers($src);
for my $opt (qw(-O0 -O2 -O3)) {
    my $r = build_run(name => 'loops', opt => $opt, src => $src, args => 100, extra => '', tag => '') or next;
    my $t = "loops$opt";
    check_loop($r, $t, $m, 'simple', 100, 1);
    check_loop($r, $t, $m, 'tri_outer', 100, 1);
    check_loop($r, $t, $m, 'tri_inner', 4950, 100);
    check_loop($r, $t, $m, 'down', 33, 1);
    check_loop($r, $t, $m, 'while', 15, 1);
    check_loop($r, $t, $m, 'break', 93, 1);
    check_loop($r, $t, $m, 'global', 37, 1);
    check_loop($r, $t, $m, 'vla_i', 5, 1);
    check_loop($r, $t, $m, 'vla_j', 50, 5);
    check_loop($r, $t, $m, 'vla_flat', 50, 1);
    check_loop($r, $t, $m, 'init', 100, 1);
    ok(scalar(loop_line($r, $m->{simple}) =~ /shape=top iv=i init=0 bound=\(arg n\) step=1 cmp=lt count=\(max \(arg n\) 0\)/),
       "$t: simple loop: affine iv and count");
    ok(field(loop_line($r, $m->{tri_inner}), 'count') =~ /\(iv 0\)/ ? 1 : 0, "$t: triangular count uses (iv 0)");
    ok(scalar(loop_line($r, $m->{down}) =~ /count=.*\(arg hi\).*\(arg lo\).*3/), "$t: down-counting count");
    ok(scalar(loop_line($r, $m->{while}) =~ /count=\? why=data-dependent/), "$t: while loop is data-dependent");
    # several exits: the header's test still gives the IV and the count
    # when no early exit is taken; the analyser checks it against the run
    ok(scalar(loop_line($r, $m->{break}) =~ /shape=multi iv=i init=0 bound=\(arg n\) step=1 cmp=lt count=\(max \(arg n\) 0\) why=early-exit/),
       "$t: loop with break is multi-exit, counted by its header test");
    ok(scalar(loop_line($r, $m->{global}) =~ /count=\(max 0 \(global g_n\)\)/), "$t: global bound traced");
    ok(scalar(loop_line($r, $m->{init}) =~ /count=\(max \(var N\) 0\)/), "$t: main's loop counts in (var N)");
    ok(scalar(loop_line($r, $m->{vla_flat}) =~ /count=\(max \(\* (\(arg n\) \(arg m\)|\(arg m\) \(arg n\))\) 0\)/),
       "$t: m*n loop count");
    check_desc($r, $t, 'param N', qr/^param id=0 name=N var=N kind=var line=\d+$/m);
    ok((grep { $_->[0] eq 'main' && $_->[2] == 100 } @{$r->{params}}) == 1, "$t: __pp_param recorded N=100");
    ok(($r->{globals}{g_n} // -1) == 37, "$t: pp_gdesc for g_n");
    check_desc($r, $t, 'VLA shape', qr/^shape .*name=t kind=vla elem=8 dims=\(\(arg m\) \(arg n\)\) bytes=\(\* .*8\)$/m);
    check_desc($r, $t, 'malloc shape', qr/^shape .*name=next kind=malloc elem=4 bytes=\(\* \(var N\) 4\)$/m);
    check_desc($r, $t, 'static shape', qr/^shape .*name=ga kind=static elem=8 dims=\(64\) bytes=512$/m);
    check_desc($r, $t, 'call line', qr/^call .*callee=tri args=\(\(var N\)\)$/m);
    check_desc($r, $t, 'branch line', qr/^branch .*cond=\(gt \(var N\) \(\+ \(iv 0\) 7\)\)$/m);
    ok(site_count($r, qr/callee=vla /) == 1, "$t: call counter");
}
# Counters where a call keeps them in memory are one asm add on x86-64
# (docs/plugin.md, "Compile time"), written for both assembler dialects:
# the same exact counts with Intel syntax, in position-independent code
# (the counters are TLS, reached through __tls_get_addr there: the
# memory-operand asm) and in an executable (the bare form, below).
for my $cf ('-masm=intel -fPIC', '-masm=intel') {
    (my $tag = $cf) =~ s/\s+//g;
    my $r = build_run(name => 'loops', opt => '-O2', src => $src, args => 100, extra => '',
                      cflags => $cf, tag => $tag) or next;
    my $t = "loops-O2 $cf";
    check_loop($r, $t, $m, 'simple', 100, 1);
    check_loop($r, $t, $m, 'tri_inner', 4950, 100);
    check_loop($r, $t, $m, 'while', 15, 1);
    check_loop($r, $t, $m, 'init', 100, 1);
    ok(site_count($r, qr/callee=vla /) == 1, "$t: call counter");
}

# The bare form (plugin/pp-emit.cc): outside the hot positions an
# increment is an asm that names the counter in its text, loading its
# %fs offset into %r11 and adding through it, in an executable
# (local-exec TLS); -fPIC, -flto and -ffixed-r11 keep the forms the
# compiler sees.
{
    my ($s1, $o1) = run("gcc -O2 $PL -S $src -o $tmp/bare.s");
    my $asm = slurp("$tmp/bare.s");
    ok($s1 == 0 && $asm =~ /leaq\t__pp_cnt\.\d+\@tpoff, (%r\w+)\n\taddq\t\S+, %fs:\d+\(\1\)/,
       'bare form: leaq of the counter\'s offset, then an add through that register') or diag($o1);
    # increments in a row are one asm (plugin/pp-bare.cc): a loop
    # counted at entry adds H and E on its preheader edge
    ok($asm =~ /leaq\t__pp_cnt\.\d+\@tpoff, %r11\n\taddq\t\S+, %fs:\d+\(%r11\)\n\taddq\t\S+, %fs:\d+\(%r11\)/,
       'bare form: increments in a row share one leaq');
    # ... whatever debug statements lie between them: -g does not change the code
    my ($s5, $o5) = run("gcc -O2 -fcompare-debug $PL -c $src -o $tmp/cd.o");
    ok($s5 == 0 && $o5 eq '', 'bare form: -fcompare-debug passes') or diag($o5);
    my ($s2, $o2) = run("gcc -O2 -masm=intel $PL -S $src -o $tmp/bare-intel.s");
    $asm = slurp("$tmp/bare-intel.s");
    ok($s2 == 0 && $asm =~ /lea\t(\w+), __pp_cnt\.\d+\@tpoff\n\tadd\tQWORD PTR fs:\d+\[\1\], /,
       'bare form: the same in Intel syntax') or diag($o2);
    my ($s3, $o3) = run("gcc -O2 -fPIC $PL -S $src -o $tmp/bare-pic.s");
    $asm = slurp("$tmp/bare-pic.s");
    ok($s3 == 0 && $asm !~ /__pp_cnt\.\d+\@tpoff/, 'bare form: not under -fPIC') or diag($o3);
    # its base register is %r11, clobbered: not where the unit reserves it
    my ($s4, $o4) = run("gcc -O2 -ffixed-r11 $PL -S $src -o $tmp/bare-r11.s");
    $asm = slurp("$tmp/bare-r11.s");
    # (a leaq of a counter array's offset into another register is the
    # loop timing's &cnt[0], plugin/pp-timing.cc)
    ok($s4 == 0 && $asm !~ /leaq\t__pp_cnt\.\d+\@tpoff, %r11/ && $asm =~ /__pp_cnt/ && $asm !~ /%r11/,
       'bare form: not under -ffixed-r11 (the other forms count)') or diag($o4);
}

# Loop timing (plugin/pp-timing.cc): on by default, the calls and tslot=
# absent with no-loop-timing; the loops are counted the same either way.
{
    my ($s1, $o1) = run("gcc -O2 $PL -fplugin-arg-perfpred-verbose -S $src -o $tmp/timed.s");
    my $asm = slurp("$tmp/timed.s");
    # the asm form in an executable (x86-64): the calls out of line,
    # through the GOT; the generic form's calls in position-independent code
    my $asm_form = `uname -m` =~ /x86_64/
        ? $asm =~ /call\t\*__pp_tbegin_x86\@GOTPCREL/ && $asm =~ /call\t\*__pp_tend_x86\@GOTPCREL/
          && $asm =~ /\.pushsection \.text\.perfpred_cold/
        : $asm =~ /call\t__pp_tbegin/ && $asm =~ /call\t__pp_tend/;
    ok($s1 == 0 && $asm_form && $o1 =~ /^loop .* tslot=\d+/m,
       'loop timing: __pp_tbegin and __pp_tend called, tslot= in the descriptors') or diag($o1);
    my ($s3, $o3) = run("gcc -O2 -fPIC $PL -S $src -o $tmp/timed-pic.s");
    my $pic = slurp("$tmp/timed-pic.s");
    ok($s3 == 0 && $pic =~ /call\t__pp_tbegin\b/ && $pic =~ /call\t__pp_tend\b/ && $pic !~ /_x86/,
       'loop timing: the generic form (calls) in position-independent code') or diag($o3);
    my ($s2, $o2) = run("gcc -O2 $PL -fplugin-arg-perfpred-no-loop-timing -fplugin-arg-perfpred-verbose -S $src -o $tmp/untimed.s");
    $asm = slurp("$tmp/untimed.s");
    ok($s2 == 0 && $asm !~ /__pp_t(begin|end)/ && $o2 !~ /tslot=/ && $o2 =~ /^loop /m,
       'loop timing: none with -fplugin-arg-perfpred-no-loop-timing') or diag($o2);
    (my $d1 = $o1) =~ s/ tslot=\d+//g;
    $d1 =~ s/nslots=\d+//g;
    (my $d2 = $o2) =~ s/nslots=\d+//g;
    ok($d1 eq $d2, "loop timing: the descriptors are otherwise the same");
}

# ---------------------------------------------------------------- OpenMP

$src = 'tests/plugin/progs/omp.c';
$m = markers($src);
for my $opt (qw(-O0 -O2 -O3)) {
    my $r = build_run(name => 'omp', opt => $opt, src => $src, cflags => '-fopenmp', args => 1000,
                      env => 'OMP_NUM_THREADS=3', extra => '', tag => '') or next;
    my $t = "omp$opt";
    check_loop($r, $t, $m, 'static', 1000, 3, 'omp_chunk');
    check_loop($r, $t, $m, 'dynamic', 1000, undef, 'omp_chunk');
    check_loop($r, $t, $m, 'chunked', 1000, 250, 'omp_chunk');
    check_loop($r, $t, $m, 'reduction', 1000, 3, 'omp_chunk');
    my $l = loop_line($r, $m->{static}, 'omp_chunk');
    my $c = field($l, 'count');
    ok($l =~ /shape=bottom/ && $c =~ /\(shared n\)/ && $c =~ /\(nthreads\)/
       && $c =~ /\(tid\)/ && $c =~ /\((div|mod) / ? 1 : 0,
       "$t: static chunk count in (shared n), (nthreads), (tid)") or diag($l);
    ok(loop_line($r, $m->{dynamic}, 'omp_dispatch') ne '', "$t: dynamic dispatch loop flagged");
    ok(scalar(loop_line($r, $m->{chunked}, 'omp_chunk') =~ /\(iv 0\)/), "$t: static,4 chunk loop uses the trip count iv");
    check_desc($r, $t, 'CAS loop of the double reduction flagged compiler', qr/^loop .*flags=compiler/m);
    check_desc($r, $t, 'fork event', qr/^event .*kind=fork callee=GOMP_parallel child=scale\._omp_fn\.\d+ nthreads=0 data=\(.*\(n \(arg n\)\)\)/m);
    check_desc($r, $t, 'critical', qr/^event .*kind=lock callee=GOMP_critical_start obj=\(critical\)/m);
    check_desc($r, $t, 'atomic', qr/^event .*kind=atomic callee=__atomic_fetch_add_4 obj=\(addr hits\)/m);
    check_desc($r, $t, 'single', qr/^event .*kind=single callee=GOMP_single_start/m);
    check_desc($r, $t, 'implicit barrier', qr/^event .*kind=barrier callee=GOMP_barrier implicit=1/m);
    check_desc($r, $t, 'explicit barrier', qr/^event .*line=\d+ slot=\d+ kind=barrier callee=GOMP_barrier$/m);
    check_desc($r, $t, 'child kind', qr/^func name=regions\._omp_fn\.\d+ .*kind=omp_child/m);
    # master: the call in the master block is guarded by branch (eq (tid) 0)
    my $all = join('', values %{$r->{desc}});
    my ($b) = $all =~ /^call .*line=$m->{master_call} .*guard=\((\d+) T\)/m;
    ok(defined $b && $all =~ /^branch id=$b .*cond=\(eq \(tid\) 0\)/m, "$t: master guard is tid==0");
    ok(site_count($r, qr/callee=note /) == 1, "$t: master body ran once");
    ok(site_count($r, qr/kind=fork/) == 4, "$t: 4 fork events counted");
    ok(site_count($r, qr/callee=GOMP_critical_start/) == 3, "$t: critical entered by 3 threads");
    ok($r->{wrap} > 0, "$t: wrappers called");
}

# ---------------------------------------------------------------- pthreads

$src = 'tests/plugin/progs/pthreads.c';
$m = markers($src);
for my $opt (qw(-O0 -O2 -O3)) {
    my $r = build_run(name => 'pthreads', opt => $opt, src => $src, cflags => '-pthread', extra => '', tag => '') or next;
    my $t = "pthreads$opt";
    check_loop($r, $t, $m, 'worker', 300, 3);
    check_loop($r, $t, $m, 'create', 3, 1);
    check_desc($r, $t, 'create event', qr/^event .*kind=create callee=pthread_create child=worker arg=\(iv 0\) obj=\(addr t \(iv 0\)\)/m);
    check_desc($r, $t, 'join event', qr/^event .*kind=join callee=pthread_join obj=\(addr t \(iv 1\)\)/m);
    check_desc($r, $t, 'barrier event', qr/^event .*kind=barrier callee=pthread_barrier_wait obj=\(addr bar\)/m);
    check_desc($r, $t, 'lock event', qr/^event .*kind=lock callee=pthread_mutex_lock obj=\(addr mu\)/m);
    check_desc($r, $t, 'thread_start', qr/^func name=worker .*kind=thread_start/m);
    check_desc($r, $t, 'worker count', qr/^loop .*count=.*\(arg arg\).*\(global n_items\)/m);
    ok(site_count($r, qr/kind=create/) == 3 && site_count($r, qr/kind=join/) == 3
       && site_count($r, qr/kind=lock/) == 3, "$t: create/join/lock counters");
}

# ---------------------------------------------------------------- pragma

{
    my $r = build_run(name => 'pragma', opt => '-O2', src => 'tests/plugin/progs/pragma.c', args => 7,
                      extra => '', tag => '') or last;
    check_desc($r, 'pragma', 'named parameter', qr/^param id=0 name=SIZE var=n kind=var line=\d+ pragma=1$/m);
    check_desc($r, 'pragma', 'count uses it', qr/count=\(max \(var SIZE\) 0\)/);
    my ($s, $out) = run("gcc -O2 $PL -c tests/plugin/progs/badpragma.c -o $tmp/bad.o");
    ok($s == 0 && $out =~ /warning: perfpred: malformed/, 'malformed pragma: warning, not error');
}

# ---------------------------------------------------------------- real code bases

# Shapes that compiling real code bases (tests/realworld) found broken,
# built with -fchecking=1 (GCC's SSA and CFG verifiers, which a release
# compiler does not run by default: without them an invalid SSA use is
# wrong code at -O0 and an internal compiler error only later at -O2).
$src = 'tests/plugin/progs/realworld.c';
$m = markers($src);
for my $opt (qw(-O0 -O2 -O3)) {
    my $r = build_run(name => 'realworld', opt => $opt, src => $src, args => 10, tag => '',
                      extra => '-fchecking=1') or next;
    my $tag = "realworld$opt";
    check_loop($r, $tag, $m, 'fill', 10, 1);
    check_loop($r, $tag, $m, 'early', 6, 1);
    check_loop($r, $tag, $m, 'bm25', 10, 1);
}

# ---------------------------------------------------------------- LTO, -g, options

{
    my $s = 'tests/plugin/progs/loops.c';
    my ($s1, $o1) = run("gcc -O2 -flto $PL -c $s -o $tmp/lto.o");
    my ($s2, $o2) = run("gcc -O2 -flto $tmp/lto.o $tmp/stub.o -o $tmp/lto -pthread -fopenmp");
    ok($s1 == 0 && $s2 == 0, '-flto: builds (plugin at compile time only)') or diag($o1, $o2);
    my ($r1, $out) = run("PP_STUB_OUT=$tmp/lto.out $tmp/lto 100");
    ok($out eq "169032 15 93 325.0 63.0\n", '-flto: same output');
    my $r = parse_out(slurp("$tmp/lto.out"));
    my $mm = markers($s);
    check_loop($r, '-flto', $mm, 'tri_inner', 4950, 100);
    check_loop($r, '-flto', $mm, 'init', 100, 1);

    for my $f ('tests/plugin/progs/loops.c', 'tests/plugin/progs/omp.c', 'tests/plugin/progs/pthreads.c') {
        for my $opt (qw(-O0 -O2 -O3)) {
            my ($st, $o) = run("gcc $opt -g -fcompare-debug -fopenmp -pthread $PL -c $f -o $tmp/cd.o");
            ok($st == 0 && $o !~ /warning|error/, "-g -fcompare-debug $opt $f") or diag($o);
        }
    }
    my ($st, $o) = run("gcc -O2 $PL -fplugin-arg-perfpred-bogus -c $s -o $tmp/x.o");
    ok($st != 0 && $o =~ /unknown option/, 'unknown plugin option is an error');
    ($st, $o) = run("gcc -O2 $PL -fplugin-arg-perfpred-disable $s $tmp/stub.o -o $tmp/dis -pthread -fopenmp");
    ok($st == 0, '-disable builds');
    run("PP_STUB_OUT=$tmp/dis.out $tmp/dis 100");
    ok(slurp("$tmp/dis.out") !~ /=== desc/, '-disable: nothing instrumented');
    # -Wmaybe-uninitialized moves with the instrumentation (its false
    # positives follow inlining and jump threading): off in the
    # instrumented build, so that no build gains a warning (or, with
    # -Werror, fails); kept on request
    my $mu = 'tests/plugin/progs/maybe-uninit.c';
    ($st, $o) = run("gcc -O2 -Wall -c $mu -o $tmp/mu.o");
    ok($st == 0 && $o =~ /Wmaybe-uninitialized/, 'maybe-uninit.c: plain gcc -Wall warns') or diag($o);
    ($st, $o) = run("gcc -O2 -Wall -Werror $PL -c $mu -o $tmp/mu.o");
    ok($st == 0 && $o eq '', 'maybe-uninit.c: no warning (and no -Werror failure) with the plugin') or diag($o);
    # (without loop timing: its exit code on the loop stops the jump
    # threading that makes this false positive, with the plugin or not)
    ($st, $o) = run("gcc -O2 -Wall $PL -fplugin-arg-perfpred-keep-maybe-uninitialized"
                    . " -fplugin-arg-perfpred-no-loop-timing -c $mu -o $tmp/mu.o");
    ok($st == 0 && $o =~ /Wmaybe-uninitialized/,
       'maybe-uninit.c: the warning when it is kept') or diag($o);
    ($st, $o) = run("gcc -O2 -fopenmp $PL -fplugin-arg-perfpred-verbose -c tests/plugin/progs/omp.c -o $tmp/x.o");
    ok($o =~ /perfpred: atoi: not instrumented: extern inline body/, 'verbose reports skipped functions');
}

# A naked function (no prologue, only asm, which reads its arguments from
# their registers) is left alone: a registration check's call would
# clobber %rdi before the asm reads it (the first call in each thread
# returned a wrong value) and call with the stack unaligned.
if (`uname -m` =~ /x86_64/) {
    my $nk = "$tmp/naked.c";
    open(my $h, '>', $nk) or die;
    print $h "#include <stdio.h>\n"
        . "__attribute__((naked, noinline)) long inc(long x) { __asm__(\"leaq 1(%rdi), %rax\\n\\tret\"); }\n"
        . "int main(void) { long s = 0; for (long i = 0; i < 3; i++) s += inc(40 + i); printf(\"%ld\\n\", s); return 0; }\n";
    close $h;
    for my $opt ('-O0', '-O2') {
        my ($s1, $o1) = run("gcc $opt $PL -fplugin-arg-perfpred-verbose $nk $tmp/stub.o -o $tmp/naked -pthread -fopenmp");
        ok($s1 == 0 && $o1 =~ /perfpred: inc: not instrumented: naked/, "$opt: a naked function is not instrumented") or diag($o1);
        my $out = `PP_STUB_OUT=$tmp/naked.out $tmp/naked`;
        ok($out eq "126\n", "$opt: the naked function computes what it computes without the plugin") or diag($out);
    }
}

# Loading the plugin costs cc1 little: it exports only the two symbols GCC
# looks up and needs no libstdc++.so (which cc1 does not load; with it,
# loading the plugin cost a quarter of compiling an empty file).
{
    my ($s1, $dyn) = run("readelf -W --dyn-syms $BD/perfpred.so");
    my @def = map { (split ' ')[7] } grep { /^\s*\d+:/ && !/ UND / && (split ' ')[7] } split /\n/, $dyn;
    ok($s1 == 0 && join(' ', sort @def) eq 'plugin_init plugin_is_GPL_compatible',
       'perfpred.so exports plugin_init and plugin_is_GPL_compatible only') or diag("@def");
    my ($s2, $d) = run("readelf -d $BD/perfpred.so");
    ok($s2 == 0 && $d =~ /NEEDED/ && $d !~ /libstdc\+\+/, 'perfpred.so does not need libstdc++.so') or diag($d);
}

print "1..$n_tests\n";
exit($failed ? 1 : 0);
