#!/usr/bin/perl
# 92-wrapper.t - perfpred-gcc, the compiler wrapper (docs/wrapper.md).
#
# Passing through: queries, preprocessing and commands without input give
# exactly what gcc gives.  A small autoconf-style configure and a Makefile
# project (tests/wrapper/: a static library, a shared library linked with
# -z defs, a dlopen()ed plugin, pthreads, OpenMP) are built with CC=gcc
# and with CC=perfpred-gcc: the same configure output, the same compiler
# messages, and programs that print the same and exit the same, each
# instrumented process writing exactly one record with the loops of the
# executable and of its libraries counted.  Then objects, -S, assembler,
# response files, stdin, PERFPRED_WRAP_DISABLE, perfpred-g++, an MPI
# program through OMPI_CC, the installed layout (make install), and the
# errors (a missing plugin or runtime, a missing compiler, a loop).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use Cwd qw(abs_path);
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";
my $ROOT = abs_path('.');
my $B = abs_path($ENV{PERFPRED_BUILD} || 'build');
for my $f ("perfpred-gcc", "perfpred.so", "libperfpred-rt.a", "libperfpred-rt.so.1", "perfpred") {
    plan skip_all => "$B/$f is not built (make all)" unless -e "$B/$f";
}
my $W   = "$B/perfpred-gcc";
my $TMP = tempdir('pp-wrap-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
# the environment the wrapper and the runtime read, cleared for every
# command, and that of the `make check` this may run under (its jobserver)
my $CLEAN = join ' ', map { "-u $_" } qw(PERFPRED_RECORD PERFPRED_DISABLE PERFPRED_CC PERFPRED_CXX
    PERFPRED_PLUGIN PERFPRED_RTLIB_DIR PERFPRED_WRAP_DISABLE PERFPRED_VERBOSE PERFPRED_GCC_ACTIVE
    MAKEFLAGS MFLAGS MAKELEVEL);

sub q_ { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

# (exit code, stdout, stderr) of a shell command run in DIR
sub run {
    my ($dir, $cmd) = @_;
    my $rc = system("cd " . q_($dir) . " && env $CLEAN sh -c " . q_($cmd)
                    . " >$TMP/.out 2>$TMP/.err");
    local $/;
    open my $o, '<', "$TMP/.out" or die;
    open my $e, '<', "$TMP/.err" or die;
    my ($out, $err) = (<$o> // '', <$e> // '');
    return ($rc == -1 ? -1 : $rc & 127 ? 128 + ($rc & 127) : $rc >> 8, $out, $err);
}

sub records { my ($dir) = @_; return sort glob("$dir/*.ppr") }

# "function:Lid" => body iterations counted, summed over the threads, read
# from the record's counters (docs/runtime-abi.md: slot + 0 counts header
# executions, slot + 1 entries; a top-tested loop runs its body H - E times)
sub loops_of {
    my ($rec) = @_;
    my $r = ppr_read($rec);
    my %n;
    for my $f (@{ $r->{funcs} }) {
        for my $line (split /\n/, $f->{text}) {
            next unless $line =~ /^loop (.*)/;
            my $kv = ppr_kv($1);
            for my $t (values %{ $r->{threads} }) {
                my $c = $t->{counts}{ $f->{idx} } or next;
                my ($h, $e) = ($c->[ $kv->{slot} ], $c->[ $kv->{slot} + 1 ]);
                $n{"$f->{name}:L$kv->{id}"} += $kv->{shape} eq 'bottom' ? $h : $h - $e;
            }
        }
    }
    return \%n;
}

sub funcs_of {
    my ($rec) = @_;
    my $r = ppr_read($rec);
    my @e = ppr_check($r);
    ok(!@e, "$rec: record invariants") or diag(join("\n", @e[0 .. ($#e > 10 ? 10 : $#e)]));
    return ({ map { ($_->{name} // '?') => 1 } @{ $r->{funcs} || [] } }, $r);
}

mkdir "$TMP/$_" for qw(pass plain inst);
system("cp tests/wrapper/* $TMP/$_/") == 0 or die for qw(pass plain inst);

# ------------------------------------------------------------ pass-through
{
    my $d = "$TMP/pass";
    for my $args ('--version', '-dumpversion', '-dumpmachine', '-print-search-dirs',
                  '-print-prog-name=ld', '-print-file-name=plugin', '-v', '', '-E vec.c',
                  '-M app.c', '-MM app.c', '-E -dM -x c /dev/null', '-fsyntax-only warn.c -Wall',
                  '-c no-such-file.c', '--help=warnings -Q') {
        my @g = run($d, "gcc $args");
        my @w = run($d, "$W $args");
        is($w[0], $g[0], "'$args': exit status as gcc's ($g[0])");
        is($w[1], $g[1], "'$args': stdout as gcc's");
        is($w[2], $g[2], "'$args': stderr as gcc's");
    }
    for my $args ('--version', '-E vec.c', '-M app.c', '-MM -MF x.d app.c', '-fsyntax-only vec.c', '') {
        my (undef, undef, $err) = run($d, "$W --perfpred-dry-run $args");
        my $want = "gcc" . ($args eq '' ? '' : " $args");
        like($err, qr/^\Qperfpred-gcc: $want\E\n\z/m, "'$args': runs exactly '$want'");
    }
    my (undef, undef, $err) = run($d, "$W --perfpred-dry-run -c vec.c");
    like($err, qr/^perfpred-gcc: gcc -fplugin=\S+\/perfpred\.so -c vec\.c$/m, '-c: the plugin in front, nothing else');
    (undef, undef, $err) = run($d, "$W --perfpred-dry-run -c asm.s");
    like($err, qr/^perfpred-gcc: gcc -c asm\.s$/m, 'assembler only: no plugin');
    (undef, undef, $err) = run($d, "$W --perfpred-dry-run -shared vec.o -o libv.so");
    like($err, qr/^perfpred-gcc: gcc -shared vec\.o -o libv\.so -Wl,--push-state,--as-needed,-Bdynamic \S+\/libperfpred-rt\.so\.1 -Wl,--pop-state -Wl,-rpath,\S+ -pthread$/m,
         '-shared: the shared runtime, as needed, with an rpath');
    (undef, undef, $err) = run($d, "$W --perfpred-dry-run -x c vec.c app.c");
    like($err, qr/^perfpred-gcc: gcc -fplugin=\S+ -x c vec\.c app\.c -x none \S+\/libperfpred-rt\.a -Wl,--dynamic-list=\S+\/libperfpred-rt\.dynlist -pthread$/m,
         'compile and link: plugin, then the static runtime exported, after -x none');
    (undef, undef, $err) = run($d, "$W --perfpred-dry-run -r a.o b.o -o ab.o");
    like($err, qr/^perfpred-gcc: gcc -r a\.o b\.o -o ab\.o$/m, '-r: no runtime');
    (undef, undef, $err) = run($d, "$W --perfpred-dry-run -fplugin=$B/perfpred.so -c vec.c");
    like($err, qr/^perfpred-gcc: gcc -fplugin=\S+ -c vec\.c$/m, 'a plugin already given is not given twice');
}

# ------------------------------------------------------------ configure
my %conf;
for my $kind ('plain', 'inst') {
    my $cc = $kind eq 'plain' ? 'gcc' : $W;
    my ($rc, $out, $err) = run("$TMP/$kind", "CC=$cc CFLAGS='-O2 -Wall -Wextra $SAN' LDFLAGS='$SAN' ./configure");
    is($rc, 0, "configure with CC=$cc") or diag($out, $err, `cat $TMP/$kind/config.log`);
    # the compiler's name where configure prints it (not in gcc's version)
    $out =~ s/\Q$cc\E(?=(?: -E$|\.\.\.| option| accepts))/CC/mg;
    $conf{$kind} = $out;
}
is($conf{inst}, $conf{plain}, 'configure finds with perfpred-gcc what it finds with gcc');
is(join(' ', records("$TMP/inst")), '', 'configure\'s test programs leave no record');

# A real autoconf + automake + libtool project (AC_PROG_CC, AC_PROG_CXX,
# LT_INIT, AC_FUNC_MMAP, AC_C_BIGENDIAN, AC_OPENMP, ...): libtool's own
# probes (-print-search-dirs, -v, the linker's name) see plain gcc; a C and
# a C++ libtool shared library (-no-undefined -Wl,-z,defs; C++ is linked
# with -nostdlib) and programs using them build, and `make check` passes.
SKIP: {
    skip 'autoreconf, libtoolize or g++ is not installed', 8
        if system('command -v autoreconf >/dev/null 2>&1 && command -v libtoolize >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1') != 0;
    my $d = "$TMP/ac";
    mkdir $d;
    system("cp tests/wrapper/vec.[ch] tests/wrapper/par.[ch] tests/wrapper/main2.c tests/wrapper/*.cc $d/") == 0 or die;
    open my $fh, '>', "$d/configure.ac" or die;
    print $fh "AC_INIT([pptest], [1.0])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CC\nAC_PROG_CXX\nAM_PROG_AR\nLT_INIT\n"
        . "AC_CHECK_HEADERS([pthread.h])\nAC_FUNC_MMAP\nAC_C_BIGENDIAN\nAC_CHECK_SIZEOF([long])\n"
        . "AC_OPENMP\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n";
    close $fh;
    # -no-undefined -Wl,-z,defs: the libraries must resolve every symbol
    # (not the C++ one under the sanitizers: libtool links it -nostdlib,
    # without libasan, with or without perfpred)
    my $zdefs_cxx = $SAN ? '' : ' -Wl,-z,defs';
    open $fh, '>', "$d/Makefile.am" or die;
    print $fh "lib_LTLIBRARIES = libpar.la libksum.la\nlibpar_la_SOURCES = par.c par.h vec.c vec.h\n"
        . "libpar_la_LIBADD = -lpthread\nlibpar_la_LDFLAGS = -no-undefined -Wl,-z,defs\n"
        . "libksum_la_SOURCES = ksum.cc\nlibksum_la_LDFLAGS = -no-undefined$zdefs_cxx\n"
        . "bin_PROGRAMS = app appxx\napp_SOURCES = main2.c\napp_LDADD = libpar.la\n"
        . "appxx_SOURCES = appxx.cc\nappxx_LDADD = libksum.la\nTESTS = app appxx\n";
    close $fh;
    my ($rc, $out, $err) = run($d, 'libtoolize -q && autoreconf -fi');
    is($rc, 0, 'autotools: autoreconf') or diag($err);
    my %out;
    for my $cc ('gcc', $W) {
        my $cxx = $cc eq 'gcc' ? 'g++' : "$B/perfpred-g++";
        ($rc, $out{$cc}, $err) = run($d, "make distclean >/dev/null 2>&1; CC=$cc CXX=$cxx CFLAGS='-O2 $SAN' "
                                     . "CXXFLAGS='-O2 $SAN' LDFLAGS='$SAN' ./configure");
        is($rc, 0, "autotools: configure with CC=$cc CXX=$cxx") or diag($err);
        $out{$cc} =~ s/\Q$W\E/gcc/g;     # where configure prints $CC, $CXX
        $out{$cc} =~ s/\Q$B\E\/perfpred-g\+\+/g++/g;
    }
    is($out{$W}, $out{gcc}, 'autotools: the same configure output (libtool finds the same compiler, linker and features)');
    is(join(' ', records($d)), '', 'autotools: configure\'s test programs leave no record');
    ($rc, $out, $err) = run($d, 'make && make check');
    ok($rc == 0 && $out =~ /^# PASS: +2$/m, 'autotools: make and make check pass') or diag($out, $err);
    my @r = records($d);
    my ($c) = grep { /\/app\.\d+\.ppr$/ } @r;
    my ($cxx) = grep { /\/appxx\.\d+\.ppr$/ } @r;
    is(scalar @r, 2, 'autotools: the two tests wrote a record each') or diag(join(' ', @r));
    my $l = $c ? loops_of($c) : {};
    ok(($l->{'main:L0'} // 0) == 1000 && ($l->{'part_sum:L0'} // 0) == 1000,
       'autotools: C: the loops of the program and of the libtool library');
    $l = $cxx ? loops_of($cxx) : {};
    ok(($l->{'main:L0'} // 0) == 10 && (grep { /ksum.*:L0$/ && $l->{$_} == 100 } keys %$l),
       'autotools: C++: the loops of the program and of the libtool library (linked with -nostdlib)')
        or diag(join(' ', map { "$_=$l->{$_}" } sort keys %$l));
}

# ------------------------------------------------------------ make
my %made;
for my $kind ('plain', 'inst') {
    my ($rc, $out, $err) = run("$TMP/$kind", 'make');
    is($rc, 0, "make ($kind)") or diag($err);
    $made{$kind} = $err;
}
is($made{inst}, $made{plain}, 'the build prints the same messages (none)');
{
    my (undef, undef, $gerr) = run("$TMP/plain", 'gcc -Wall -c warn.c');
    my (undef, undef, $werr) = run("$TMP/inst", "$W -Wall -c warn.c");
    like($gerr, qr/unused variable/, 'a warning of gcc\'s...');
    is($werr, $gerr, '...is printed the same through the wrapper, and nothing else');
}
like(`objdump -h $TMP/inst/vec.o`, qr/__pp_desc/, 'an object compiled with -c holds the descriptors');
unlike(`objdump -h $TMP/plain/vec.o`, qr/__pp_desc/, '(the plain one does not)');
like(`readelf -d $TMP/inst/libpar.so`, qr/NEEDED.*\[libperfpred-rt\.so\.1\].*RUNPATH.*\Q$B\E/s,
     'an instrumented shared library needs the shared runtime, found through its rpath');
like(`nm -D $TMP/inst/app_dl`, qr/ T __pp_register$/m, 'an executable exports the runtime\'s entry points');
like(`nm $TMP/inst/app_dl`, qr/ T __pp_w_pthread_create$/m, '...all of them, also those it does not call itself');
# the dynamic list works with every linker (--export-dynamic-symbol=GLOB
# would not with gold)
for my $ld ('bfd', 'gold', 'lld') {
  SKIP: {
        skip "ld.$ld is not installed", 1 if system("command -v ld.$ld >/dev/null 2>&1") != 0;
        my ($rc, undef, $err) = run("$TMP/inst", "$W -fuse-ld=$ld $SAN -O2 dl.c -o app_dl_$ld");
        ok($rc == 0 && `nm -D $TMP/inst/app_dl_$ld` =~ / T __pp_w_pthread_create$/m,
           "-fuse-ld=$ld: the executable exports the runtime's entry points") or diag($err);
    }
}

# uninstrumented executables using the instrumented libraries
for my $kind ('plain', 'inst') {
    my ($rc, undef, $err) = run("$TMP/$kind", "gcc -O2 $SAN main2.c -o app_unins -L. -lpar -Wl,-rpath,\\\$ORIGIN -pthread"
                                 . " && gcc -O2 $SAN dl.c -o app_dl_unins");
    is($rc, 0, "plain executables with the $kind libraries") or diag($err);
}

# ------------------------------------------------------------ the programs
# program, arguments, environment, exit status, functions, loop => count
my @runs = (
    ['app_static', '50', '', 0, [qw(main vec_fill vec_dot)],
     {'main:L0' => 4, 'vec_fill:L0' => 100, 'vec_dot:L0' => 200}],
    ['app_static', '50 fail', '', 3, [qw(main vec_dot)], {'vec_dot:L0' => 200}],
    ['app_shared', '100', '', 0, [qw(main par_sum part_sum)], {'main:L0' => 100, 'part_sum:L0' => 100}],
    ['app_unins', '100', '', 0, [qw(par_sum part_sum)], {'part_sum:L0' => 100}],
    ['app_dl', '10 DIR/libplug.so', '', 0, [qw(main plug_run)], {'main:L0' => 10, 'plug_run:L0' => 20}],
    ['app_dl_unins', '10 DIR/libplug.so', '', 0, [qw(plug_run)], {'plug_run:L0' => 20}],
    ['app_omp', '100', 'OMP_NUM_THREADS=2', 0, [qw(main main._omp_fn.0)], {'main._omp_fn.0:L0' => 100}],
);
my $n = 0;
for my $r (@runs) {
    my ($prog, $args, $env, $status, $funcs, $loops) = @$r;
    my %res;
    for my $kind ('plain', 'inst') {
        my $cwd = "$TMP/run-$kind-" . $n;
        mkdir $cwd;
        (my $a = $args) =~ s/DIR/$TMP\/$kind/g;
        $res{$kind} = [run($cwd, "$env $TMP/$kind/$prog $a")];
        $res{"$kind-rec"} = [records($cwd)];
    }
    $n++;
    my $what = "$prog $args";
    is($res{plain}[0], $status, "$what: plain exit status $status");
    is($res{inst}[0], $res{plain}[0], "$what: same exit status instrumented");
    is($res{inst}[1], $res{plain}[1], "$what: same output");
    is($res{inst}[2], $res{plain}[2], "$what: same stderr");
    is(scalar @{ $res{'plain-rec'} }, 0, "$what: no record from the plain build");
    is(scalar @{ $res{'inst-rec'} }, 1, "$what: exactly one record") or next;
    my $rec = $res{'inst-rec'}[0];
    my ($f) = funcs_of($rec);
    ok($f->{$_}, "$what: function $_ recorded") for @$funcs;
    my $l = loops_of($rec);
    is($l->{$_}, $loops->{$_}, "$what: loop $_ counted $loops->{$_} times") for sort keys %$loops;
}
{
    my ($f, $r) = funcs_of((records("$TMP/run-inst-2"))[0] // "$TMP/none");
    is(scalar keys %{ $r->{threads} || {} }, 3, 'app_shared: main and the two threads libpar.so creates');
}

# On a terminal the runtime says where the record went: once, from the
# executable's runtime, and not "no instrumented code ran" from the shared
# one that an instrumented library brings along (it stands aside).
SKIP: {
    skip 'script (util-linux) is not installed', 2 if system('command -v script >/dev/null 2>&1') != 0;
    mkdir "$TMP/tty";
    for my $prog ('app_shared 100', "app_dl 10 $TMP/inst/libplug.so") {
        my (undef, $out) = run("$TMP/tty", "script -qec " . q_("$TMP/inst/$prog") . " /dev/null");
        my @notes = $out =~ /^(perfpred-rt: .*?)\r?$/mg;
        is(join('|', map { s/\d+\.ppr$/PID.ppr/r } @notes), 'perfpred-rt: record written to ' . ($prog =~ s/ .*//r) . '.PID.ppr',
           "$prog on a terminal: one notice, from one runtime");
    }
}

# ------------------------------------------------------------ more commands
{
    my $d = "$TMP/inst";
    my ($rc, $out) = run($d, "$W -O2 -S vec.c -o -");
    ok($rc == 0 && $out =~ /__pp_desc/, '-S: the assembler output holds the descriptors');
    ($rc) = run($d, "$W -c asm.s -o asm.o");
    is($rc, 0, 'an assembler file compiles');
    open my $fh, '>', "$d/args.rsp" or die;
    print $fh "-O2 -c 'vec.c' -o rsp.o\n";
    close $fh;
    ($rc) = run($d, "$W \@args.rsp");
    ok($rc == 0 && `objdump -h $d/rsp.o` =~ /__pp_desc/, 'a response file: compiled with the plugin');
    ($rc) = run($d, "echo 'int main(void) { int s = 0; for (int i = 0; i < 5; i++) s += i; return s - 10; }' | "
                  . "$W $SAN -x c - -o fromstdin && PERFPRED_RECORD=stdin.ppr ./fromstdin");
    ok($rc == 0 && -s "$d/stdin.ppr", 'a source on stdin (-x c -): compiled, linked and recorded');
    ($rc) = run($d, "PERFPRED_WRAP_DISABLE=1 $W -c vec.c -o off.o");
    ok($rc == 0 && `objdump -h $d/off.o` !~ /__pp_desc/, 'PERFPRED_WRAP_DISABLE=1: plain gcc');
    my ($rch, $help) = run($d, "$W --perfpred-help");
    ok($rch == 0 && $help =~ /^usage: perfpred-gcc / && $help =~ /PERFPRED_CC/, '--perfpred-help: the usage');
    my ($rc2, undef, $err) = run($d, "$W --perfpred-verbose -c vec.c -o verbose.o");
    ok($rc2 == 0 && $err =~ /^perfpred-gcc: gcc -fplugin=\S+ -c vec\.c -o verbose\.o$/m && -s "$d/verbose.o",
       '--perfpred-verbose prints the command and runs it') or diag($err);
  SKIP: {
        skip 'g++ is not installed', 3 if system('command -v g++ >/dev/null 2>&1') != 0;
        my ($prc, $pout) = run($d, "g++ -O2 $SAN hello.cc -o hello.plain && ./hello.plain");
        ($rc, $out, $err) = run($d, "$B/perfpred-g++ -O2 $SAN hello.cc -o hello && PERFPRED_RECORD=hello.ppr ./hello");
        is($rc, 0, 'perfpred-g++ builds and runs C++') or diag($err);
        is($out, $pout, 'perfpred-g++: same output as g++');
        my ($f) = -s "$d/hello.ppr" ? funcs_of("$d/hello.ppr") : ({});
        ok($f->{main}, 'perfpred-g++: main recorded');
    }
}

# ------------------------------------------------------------ MPI
SKIP: {
    skip 'mpicc or mpirun is not installed', 5
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT} = 1;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
    local $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    local $ENV{ASAN_OPTIONS} = 'detect_leaks=0';     # libmpi's own leaks
    my $d = "$TMP/inst";
    my ($rc, $out, $err) = run($d, "mpicc -O2 $SAN mpi.c -o mpi.plain");
    is($rc, 0, 'MPI: plain build') or diag($err);
    ($rc, $out, $err) = run($d, "OMPI_CC=$W mpicc -O2 $SAN mpi.c -o mpi.inst");
    is($rc, 0, 'MPI: OMPI_CC=perfpred-gcc mpicc builds') or diag($err);
    my ($prc, $pout) = run($d, 'timeout -k 5 120 mpirun -np 2 ./mpi.plain 100');
    ($rc, $out, $err) = run($d, 'PERFPRED_RECORD=mpi.ppr timeout -k 5 120 mpirun -np 2 ./mpi.inst 100');
    ok($rc == 0 && $prc == 0, 'MPI: both run under mpirun -np 2') or diag($err);
    is($out, $pout, 'MPI: same output');
    is(join(' ', map { s/.*\///r } sort glob("$d/mpi.ppr/*.ppr")), 'rank-0.ppr rank-1.ppr',
       'MPI: one record per rank');
}

# ------------------------------------------------------------ installed
{
    my $prefix = "$TMP/prefix";
    my ($rc, undef, $err) = run($ROOT, "make -s install B=$B PREFIX=$prefix SANITIZE=" . ($ENV{SANITIZE} // ''));
    is($rc, 0, 'make install') or diag($err);
    ok(-x "$prefix/bin/perfpred-gcc" && -l "$prefix/bin/perfpred-g++", 'perfpred-gcc and perfpred-g++ installed');
    # called through a link from elsewhere, it still finds PREFIX/lib
    mkdir "$TMP/elsewhere";
    symlink "$prefix/bin/perfpred-gcc", "$TMP/elsewhere/cc" or die;
    my $d = "$TMP/plain";
    (undef, undef, $err) = run($d, "$TMP/elsewhere/cc --perfpred-dry-run -fPIC -shared par.c -o libinst.so");
    like($err, qr/^cc: gcc -fplugin=\Q$prefix\E\/lib\/perfpred\/perfpred\.so .* \Q$prefix\E\/lib\/libperfpred-rt\.so\.1 .* -Wl,-rpath,\Q$prefix\E\/lib /m,
         'installed: the plugin and the runtime from PREFIX/lib');
    ($rc, undef, $err) = run($d, "$TMP/elsewhere/cc -O2 $SAN -fPIC -shared -Wl,-z,defs par.c -o libinst.so -pthread"
                             . " && $TMP/elsewhere/cc -O2 $SAN main2.c -o app_installed ./libinst.so -Wl,-rpath,\\\$ORIGIN -pthread"
                             . " && PERFPRED_RECORD=installed.ppr ./app_installed 100");
    is($rc, 0, 'installed: builds and runs a program with a shared library') or diag($err);
    my $l = -s "$d/installed.ppr" ? loops_of("$d/installed.ppr") : {};
    ok(($l->{'main:L0'} // 0) == 100 && ($l->{'part_sum:L0'} // 0) == 100,
       'installed: one record with the loops of both');
}

# ------------------------------------------------------------ errors
{
    my $d = "$TMP/inst";
    my ($rc, $out, $err) = run($d, "PERFPRED_PLUGIN=$TMP/nowhere/perfpred.so $W -c vec.c -o missing.o");
    ok($rc != 0 && !-e "$d/missing.o", 'a missing plugin: non-zero exit, no object');
    like($err, qr/^perfpred-gcc: the perfpred plugin is missing: \Q$TMP\E\/nowhere\/perfpred\.so: No such file or directory/,
         'a missing plugin: named');
    ($rc) = run($d, "PERFPRED_PLUGIN=$TMP/nowhere/perfpred.so $W --version");
    is($rc, 0, 'a missing plugin does not matter to a query');
    ($rc, $out, $err) = run($d, "PERFPRED_RTLIB_DIR=$TMP/nowhere $W vec.o app.o -o missing");
    ok($rc != 0 && $err =~ /^perfpred-gcc: the perfpred runtime is missing: \Q$TMP\E\/nowhere\/libperfpred-rt\.a:/m,
       'a missing static runtime: named, non-zero exit') or diag($err);
    ($rc, $out, $err) = run($d, "PERFPRED_RTLIB_DIR=$TMP/nowhere $W -shared vec.pic.o -o missing.so");
    ok($rc != 0 && $err =~ /\Q$TMP\E\/nowhere\/libperfpred-rt\.so\.1:/m, 'a missing shared runtime: named')
        or diag($err);
    ($rc, $out, $err) = run($d, "PERFPRED_CC=$TMP/nowhere/gcc $W -c vec.c");
    ok($rc == 127 && $err =~ /^perfpred-gcc: cannot run the compiler '\Q$TMP\E\/nowhere\/gcc': No such file/m,
       'a missing compiler: named, 127') or diag($err);
    ($rc, $out, $err) = run($d, "PERFPRED_CC=$W $W -c vec.c");
    ok($rc != 0 && $err =~ /runs perfpred-gcc again/, 'PERFPRED_CC=perfpred-gcc: an error, not a loop') or diag($err);
}

done_testing();
