#!/usr/bin/perl
# 20-runtime.t - libperfpred-rt end to end, without the plugin.
#
# Builds the hand-instrumented programs of tests/runtime/ against the
# runtime (static, shared, ThreadSanitizer), runs them with PERFPRED_RECORD
# and checks the records: format invariants (tests/runtime/ppr.pl), then
# the values the programs must produce (threads, events, counts, params),
# and the failure paths (unwritable record, size limit, disabled).
#
# Run from the repository root:  prove tests/e2e/20-runtime.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use POSIX qw(ceil);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require "./tests/runtime/ppr.pl";

my $ROOT = `pwd`; chomp $ROOT;
# the build directory of `make check B=...` (PERFPRED_BUILD), else build/
my $BD  = $ENV{PERFPRED_BUILD} // "$ROOT/build";
my $B   = "$BD/rt-tests";
my $TMP = tempdir('pp-rt-XXXXXX', TMPDIR => 1, CLEANUP => 1);
system('mkdir', '-p', $B) == 0 or BAIL_OUT("mkdir $B");

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

# run a shell command line in DIR with ENV; returns (exit code, stdout, stderr)
sub run_in {
    my ($dir, $env, $cmd) = @_;
    my $e = join ' ', map { "$_=" . sh_quote($env->{$_}) } sort keys %$env;
    my $rc = system("cd " . sh_quote($dir) . " && env -u PERFPRED_RECORD -u PERFPRED_DISABLE $e "
                    . "$cmd >$TMP/out 2>$TMP/err");
    local $/;
    open my $o, '<', "$TMP/out" or die;
    open my $r, '<', "$TMP/err" or die;
    my ($out, $err) = (<$o> // '', <$r> // '');
    return ($rc == -1 ? -1 : $rc & 127 ? 128 + ($rc & 127) : $rc >> 8, $out, $err);
}

sub build {
    my ($what, $cmd) = @_;
    my $log = `$cmd 2>&1`;
    ok($? == 0, "build $what") or diag($log);
    return $? == 0;
}

sub check_record {
    my ($path, $what) = @_;
    my $r = ppr_read($path);
    my @e = ppr_check($r);
    ok(!@e, "$what: record invariants") or diag(join("\n", @e[0 .. ($#e > 20 ? 20 : $#e)]));
    return $r;
}

# ---------------------------------------------------------------- build
# `make check SANITIZE=1` builds the runtime with ASan+UBSan: link the same way
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
my $CF = '-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -Iruntime -Itests/runtime' . $SAN;
my $mk = `make -s B=$BD $BD/libperfpred-rt.a $BD/libperfpred-rt.so $BD/libperfpred-rt.so.1 2>&1`;
ok($? == 0, 'make libperfpred-rt.a and .so') or BAIL_OUT("runtime does not build:\n$mk");
build('t-pthread (static)', "gcc $CF -pthread tests/runtime/t-pthread.c $BD/libperfpred-rt.a -o $B/t-pthread")
    or BAIL_OUT('test program does not build');
my $have_so = build('t-pthread (shared)', "gcc $CF -pthread tests/runtime/t-pthread.c -L$BD -l:libperfpred-rt.so.1 "
                    . "-Wl,-rpath,$BD -o $B/t-pthread-so");
my $have_omp = build('t-omp', "gcc $CF -fopenmp tests/runtime/t-omp.c $BD/libperfpred-rt.a -o $B/t-omp");
my $have_task = build('t-task', "gcc $CF -fopenmp tests/runtime/t-task.c $BD/libperfpred-rt.a -o $B/t-task");
my $have_fork = build('t-fork', "gcc $CF -pthread tests/runtime/t-fork.c $BD/libperfpred-rt.a -o $B/t-fork");
my $have_tsan = build('t-pthread (ThreadSanitizer)',
                      "gcc -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -pthread -Iruntime -Itests/runtime "
                      . "tests/runtime/t-pthread.c runtime/*.c runtime/*.S -o $B/t-pthread-tsan");

my $TP = "$B/t-pthread";

# ---------------------------------------------------------------- pthreads
my ($N, $K) = (1000, 5);
my ($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/p.ppr" }, "$TP $N $K");
is($rc, 0, 'pthread: exit status');
like($out, qr/^sum=-?\d+ total=-?\d+ raw=45$/m, 'pthread: output');
my $ref_out = $out;
is($err, '', 'pthread: nothing on stderr when PERFPRED_RECORD is given');
my $r = check_record("$TMP/p.ppr", 'pthread');

like($r->{program} // '', qr/^path="\Q$TP\E" pid=\d+ host="[^"]*" clock=monotonic_ns abi=1 runtime="perfpred-rt [^"]+"$/,
     'pthread: program line');
is($r->{argv}, qq{"$TP" "$N" "$K"}, 'pthread: argv line');
my %fi = map { $_ => ppr_func($r, $_) } qw(main worker helper);
is(scalar(grep { defined } values %fi), 3, 'pthread: func sections for main, worker, helper');
is(scalar @{$r->{funcs}}, 3, 'pthread: no other func section');
like($r->{funcs}[$fi{worker}]{text}, qr/^branch id=0 loop=0 pos=2 line=46 slot=8 cond=\(ne \(mod \(iv 0\) 2\) 0\)$/m,
     'pthread: descriptor text copied verbatim');
is(scalar @{$r->{gparams}}, 1, 'pthread: duplicate gparam merged by address');
is_deeply($r->{gparams}[0], { name => 'g_scale', value => $N, size => 4, signed => 1 }, 'pthread: gparam value');
my %par = map {; "$_->{func}/$_->{id}" => $_ } @{$r->{params}};
is_deeply($par{"$fi{main}/0"}, { func => $fi{main}, id => 0, value => $N, count => 1, first => $N, last => $N,
                                 min => $N, max => $N }, 'pthread: param n');
is_deeply($par{"$fi{main}/1"}, { func => $fi{main}, id => 1, value => $K, count => 2, first => 5, last => $K,
                                 min => ($K < 5 ? $K : 5), max => ($K > 5 ? $K : 5) }, 'pthread: param k (set twice)');

my $th = $r->{threads};
is(scalar keys %$th, 5, 'pthread: 5 threads (main, 3 workers, 1 unseen)');
is("$th->{0}{kind} $th->{0}{parent} $th->{0}{start}", 'main - 0', 'pthread: thread 0 is main');
for my $i (0 .. 2) {
    my $t = $th->{$i + 1};
    is("$t->{kind} parent=$t->{parent} site=$t->{site} order=$t->{order} arg=$t->{arg}",
       "pthread parent=0 site=($fi{main} 0) order=$i arg=$i", "pthread: thread " . ($i + 1) . " line");
}
is("$th->{4}{kind} $th->{4}{parent}", 'other -', 'pthread: thread created behind our back is kind=other');

my @evs0 = @{$th->{0}{evs}};
is(join(' ', map { "$_->{kind}:" . ($_->{child} // '') } @evs0),
   'create:1 create:2 create:3 join:1 join:2 join:3 lock: unlock:', 'pthread: main events and children');
is($evs0[6]{result}, 0, 'pthread: trylock result');
is_deeply($th->{0}{counts}{$fi{main}}, [1, 4, 1, 3, 3, 4, 1, 1, 1], 'pthread: main counts');
for my $i (0 .. 2) {
    my $t = $th->{$i + 1};
    my %kinds;
    $kinds{$_->{kind}}++ for @{$t->{evs}};
    is($t->{evs}[0]{kind}, 'begin', "pthread: worker $i starts with begin");
    is_deeply(\%kinds, { begin => 1, barrier => $K, lock => $K, unlock => $K }, "pthread: worker $i events");
    my $it = $N * ($i + 1);
    my $odd = int($it / 2);
    is_deeply($t->{counts}{$fi{worker}}, [1, $it + 1, 1, $K, $K + 1, 1, $K, $K, $odd, $it - $odd],
              "pthread: worker $i counts");
    my %objs = map { $_->{obj} => 1 } grep { $_->{kind} eq 'barrier' } @{$t->{evs}};
    is(scalar keys %objs, 1, "pthread: worker $i barrier obj");
}
is_deeply($th->{4}{counts}{$fi{helper}}, [1, 11, 1], 'pthread: unseen thread counts');
ok($th->{3}{tail} && $th->{3}{end} >= $th->{3}{evs}[-1]{t1}, 'pthread: pthread_exit thread closed with a tail');
ok($th->{0}{end} >= $th->{$_}{end}, "pthread: main ends after thread $_") for 1 .. 3;

# the same run, other exit status: passed through
($rc, $out) = run_in($TMP, { PERFPRED_RECORD => "$TMP/p3.ppr" }, "$TP $N $K 3");
is($rc, 3, 'exit status passed through');
ok(-s "$TMP/p3.ppr", 'record written with a non-zero exit status');

# ---------------------------------------------------------------- failure paths
($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => '/nonexistent-dir/x.ppr' }, "$TP $N $K 3");
is($rc, 3, 'unwritable record: exit status unchanged');
is($out, $ref_out, 'unwritable record: program output unchanged');
like($err, qr{\Aperfpred-rt: cannot write record '/nonexistent-dir/x\.ppr': No such file or directory[^\n]*\n\z},
     'unwritable record: one clear message');

mkdir "$TMP/adir";
($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/adir" }, "$TP $N $K");
is($rc, 0, 'record path is a directory: exit status');
like($err, qr{cannot write record '\Q$TMP\E/adir': Is a directory}, 'record path is a directory: message');
is(scalar(my @left = glob("$TMP/adir.tmp.*")), 0, 'record path is a directory: temporary file removed');

($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/big.ppr" }, "sh -c 'ulimit -f 2; exec $TP $N $K 4'");
is($rc, 4, 'file size limit: exit status unchanged (no SIGXFSZ)');
is($out, $ref_out, 'file size limit: program output unchanged');
like($err, qr{cannot write record '\Q$TMP\E/big\.ppr': File too large}, 'file size limit: message');
ok(!-e "$TMP/big.ppr" && !glob("$TMP/big.ppr.tmp.*"), 'file size limit: no partial record left');

($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/off.ppr", PERFPRED_DISABLE => 1 }, "$TP $N $K 5");
is($rc, 5, 'PERFPRED_DISABLE: exit status');
is($out, $ref_out, 'PERFPRED_DISABLE: output');
is($err, '', 'PERFPRED_DISABLE: silent');
ok(!-e "$TMP/off.ppr", 'PERFPRED_DISABLE: no record');

mkdir "$TMP/def";
($rc, $out, $err) = run_in("$TMP/def", {}, "$TP 10 2");
my @def = map { s{.*/}{}r } glob("$TMP/def/t-pthread.*.ppr");
my ($name) = grep { /^t-pthread\.\d+\.ppr$/ } @def;
ok(@def == 1 && $name && -s "$TMP/def/$name", 'default record name PROGRAM.PID.ppr in the cwd') or diag("@def");
is($err, '', 'default record: no notice when stderr is not a terminal');
check_record("$TMP/def/$name", 'default name') if $name;
# On a terminal the notice names the file (script(1) gives the program a pty).
SKIP: {
    skip 'script(1) not available', 2 unless -x '/usr/bin/script';
    mkdir "$TMP/deftty";
    my $log = `cd $TMP/deftty && env -u PERFPRED_RECORD script -qec '$TP 10 2' /dev/null 2>&1`;
    my ($tn) = $log =~ /^perfpred-rt: record written to (t-pthread\.\d+\.ppr)\r?$/m;
    ok($tn && -s "$TMP/deftty/$tn", 'default record on a terminal: named on stderr') or diag($log);
    ok(!glob("$TMP/deftty/*.tmp.*"), 'default record on a terminal: no temporary file left');
}

# A process in which no instrumented code ran (a configure test) writes nothing.
SKIP: {
    skip 'shared runtime did not build', 3 unless $have_so;
    open my $c, '>', "$B/t-empty.c" or die;
    print $c "int main(void) { return 3; }\n";
    close $c;
    skip 't-empty did not build', 3
        unless build('t-empty', "gcc $CF $B/t-empty.c -L$BD -Wl,--no-as-needed -l:libperfpred-rt.so.1 "
                                . "-Wl,-rpath,$BD -o $B/t-empty");
    mkdir "$TMP/empty";
    ($rc, $out, $err) = run_in("$TMP/empty", {}, "$B/t-empty");
    is($rc, 3, 'nothing instrumented ran: exit status');
    is($err, '', 'nothing instrumented ran: silent');
    ok(!glob("$TMP/empty/*"), 'nothing instrumented ran: no record');
}

SKIP: {
    skip 'fork test did not build', 4 unless $have_fork;
    mkdir "$TMP/fork";
    ($rc, $out, $err) = run_in("$TMP/fork", { PERFPRED_RECORD => "$TMP/fork/f.ppr" }, "$B/t-fork");
    my ($ppid) = $out =~ /^parent=(\d+) child_status=7$/m;
    ok($rc == 0 && $ppid, 'fork: child ran through the wrappers and exited normally') or diag($out . $err);
    my @files = glob("$TMP/fork/*");
    is_deeply(\@files, ["$TMP/fork/f.ppr"], 'fork: one record, no temporary file');
    my $rf = check_record("$TMP/fork/f.ppr", 'fork');
    like($rf->{program} // '', qr/ pid=\Q$ppid\E /, 'fork: the record is the parent\'s');
}

# ---------------------------------------------------------------- shared runtime
SKIP: {
    skip 'shared build failed', 3 unless $have_so;
    ($rc, $out) = run_in($TMP, { PERFPRED_RECORD => "$TMP/so.ppr" }, "$B/t-pthread-so $N $K");
    is($out, $ref_out, 'shared runtime: output');
    my $rs = check_record("$TMP/so.ppr", 'shared runtime');
    is(scalar @{$rs->{funcs}} . ' ' . scalar @{$rs->{gparams}}, '3 1',
       'shared runtime: sections of the executable found');
}

# ---------------------------------------------------------------- ThreadSanitizer
SKIP: {
    skip 'TSan build failed', 4 unless $have_tsan;
    ($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/tsan.ppr", TSAN_OPTIONS => 'exitcode=66' },
                               "$B/t-pthread-tsan 200 3");
    is($rc, 0, 'TSan (pthreads): exit status');
    unlike($err, qr/ThreadSanitizer/, 'TSan (pthreads): no report') or diag($err);
    my $rt = check_record("$TMP/tsan.ppr", 'TSan (pthreads)');
    is(scalar keys %{$rt->{threads}}, 5, 'TSan (pthreads): threads');
}

# ---------------------------------------------------------------- OpenMP
SKIP: {
    skip 'OpenMP build failed', 1 unless $have_omp;
    my $M = 1000;
    ($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/omp.ppr" }, "$B/t-omp $M");
    is($rc, 0, 'omp: exit status');
    my $tri = $M * ($M - 1) / 2;
    is($out, "total=" . (3 * $tri) . " named=8 atomic=16 singles=3 loop=$tri sections=6\n", 'omp: output');
    my $ro = check_record("$TMP/omp.ppr", 'omp');
    my %f = map { $_ => ppr_func($ro, $_) } ('main', 'main._omp_fn.0', 'main._omp_fn.1');
    my ($fm, $fb, $fl) = @f{'main', 'main._omp_fn.0', 'main._omp_fn.1'};
    my $t = $ro->{threads};
    is($t->{0}{kind}, 'main', 'omp: thread 0 is main');
    my @pool = grep { $_ != 0 } sort { $a <=> $b } keys %$t;
    ok(@pool >= 2, 'omp: pool threads recorded');
    is(scalar(grep { $t->{$_}{kind} eq 'omp' && $t->{$_}{parent} eq '0' && $t->{$_}{site} eq "($fm 0)" } @pool),
       scalar @pool, 'omp: pool threads are kind=omp, parent 0, created at fork site 0');
    is(join(' ', map { "$t->{$_}{team}/$t->{$_}{tid}/$t->{$_}{nthreads}" } @pool[0, 1]), '1/1/3 1/2/3',
       'omp: first pool threads ordered by (team, tid)');

    # forks and joins of the master
    my @fj = grep { $_->{kind} =~ /^(fork|join|team_begin|team_end)$/ } @{$t->{0}{evs}};
    is(join(' ', map { "$_->{kind}:$_->{team}" . ($_->{kind} eq 'fork' ? "/$_->{site}/$_->{nthreads}" : '') } @fj),
       'fork:1/0/3 team_begin:1 team_end:1 join:1 fork:2/1/2 team_begin:2 team_end:2 join:2 '
       . 'fork:3/0/3 team_begin:3 team_end:3 join:3 fork:4/2/3 team_begin:4 team_end:4 join:4 '
       . 'fork:5/3/2 team_begin:5 team_end:5 join:5',
       'omp: master fork/team/join sequence');
    my $jt0_ok = 1;
    for my $k (grep { $fj[$_]{kind} eq 'join' } 0 .. $#fj) {
        $jt0_ok = 0 unless $fj[$k]{t0} == $fj[$k - 1]{t0};
    }
    ok($jt0_ok, 'omp: join t0 is the master\'s team_end');

    # team membership
    my %teams;
    for my $id (keys %$t) {
        for my $e (grep { $_->{kind} eq 'team_begin' } @{$t->{$id}{evs}}) {
            push @{$teams{$e->{team}}}, [$id, $e->{tid}, $e->{nthreads}];
        }
    }
    my %size = (1 => 3, 2 => 2, 3 => 3, 4 => 3, 5 => 2);
    for my $tm (1 .. 5) {
        my @m = sort { $a->[1] <=> $b->[1] } @{$teams{$tm} // []};
        is(join(',', map { $_->[1] } @m), join(',', 0 .. $size{$tm} - 1), "omp: team $tm tids");
        ok(@m && $m[0][0] == 0 && !grep({ $_->[2] != $size{$tm} } @m), "omp: team $tm master and nthreads");
    }

    # per-thread events inside the body teams
    my (%singles, %objs);
    my $evok = 1;
    for my $id (keys %$t) {
        my %per;   # team -> kind -> n
        for my $e (grep { $_->{func} ne '-' && $_->{func} == $fb } @{$t->{$id}{evs}}) {
            $per{$e->{team}}{$e->{kind}}++;
            $singles{$e->{team}} += $e->{result} if $e->{kind} eq 'single';
            $objs{$e->{site}}{$e->{obj}} = 1 if defined $e->{obj};
            $evok = 0 unless defined $e->{tid} && defined $e->{nthreads};
        }
        for my $tm (keys %per) {
            my $p = $per{$tm};
            $evok = 0 unless "$p->{barrier} $p->{lock} $p->{unlock} $p->{single}" eq '2 3 3 1';
        }
    }
    ok($evok, 'omp: each member logs 2 barriers, 3 locks, 3 unlocks, 1 single, with team fields');
    is(join(' ', map { $singles{$_} } 1 .. 3), '1 1 1', 'omp: one single winner per team');
    is(join(' ', map { scalar keys %{$objs{$_}} } 1, 2, 5, 6, 7, 8), '1 1 1 1 1 1',
       'omp: one lock identity per critical/atomic site');
    ok($objs{1} && $objs{5} && $objs{7} && join('', keys %{$objs{1}}) ne join('', keys %{$objs{5}})
       && join('', keys %{$objs{1}}) ne join('', keys %{$objs{7}}), 'omp: unnamed, named and atomic locks differ');
    my $le = 0;
    $le += grep { $_->{kind} eq 'loop_end' && $_->{team} == 4 } @{$t->{$_}{evs}} for keys %$t;
    is($le, 3, 'omp: loop_end once per member of the combined parallel loop');
    $le = 0;
    $le += grep { $_->{kind} eq 'loop_end' && $_->{team} == 5 } @{$t->{$_}{evs}} for keys %$t;
    is($le, 2, 'omp: sections_end_nowait once per member of the parallel sections');

    # counts
    my $it = sub { my ($tid, $p) = @_; ceil(($M - $tid) / $p) };
    my $s1 = 2 * ($it->(0, 3) + 1) + $it->(0, 2) + 1;
    is_deeply($t->{0}{counts}{$fb}, [1, $s1, (3) x 10], 'omp: master body counts');
    is_deeply($t->{0}{counts}{$fm}, [1, 2, 1, 1, 1], 'omp: main counts');
    my ($body_iters, $loop_iters) = (0, 0);
    for my $id (keys %$t) {
        my $c = $t->{$id}{counts};
        $body_iters += $c->{$fb}[1] - $c->{$fb}[2] if $c->{$fb};
        $loop_iters += $c->{$fl}[3] - $c->{$fl}[4] if $c->{$fl};
    }
    is($body_iters, 3 * $M, 'omp: body iterations over all threads');
    is($loop_iters, $M, 'omp: dynamic loop iterations over all threads');
}

# ---------------------------------------------------------------- nested events
SKIP: {
    skip 'task test did not build', 4 unless $have_task;
    ($rc, $out, $err) = run_in($TMP, { PERFPRED_RECORD => "$TMP/task.ppr" }, "$B/t-task");
    is("$rc $out", "0 total=21\n", 'tasks: exit status and output');
    my $rk = check_record("$TMP/task.ppr", 'tasks (events nested in a barrier)');
    my $ft = ppr_func($rk, 'main._omp_fn.1');
    my ($locks, $nested) = (0, 0);
    for my $t (values %{$rk->{threads}}) {
        my @bars = grep { $_->{kind} eq 'barrier' } @{$t->{evs}};
        for my $e (grep { $_->{func} ne '-' && $_->{func} == $ft && $_->{kind} eq 'lock' } @{$t->{evs}}) {
            $locks++;
            $nested++ if grep { $_->{t0} <= $e->{t0} && $e->{t1} <= $_->{t1} && $_->{n} < $e->{n} } @bars;
        }
    }
    is($locks, 6, 'tasks: one critical section per task');
    is($nested, 6, 'tasks: task events lie inside a barrier, after it in sequence');
}

# ---------------------------------------------------------------- analyser cross-check
SKIP: {
    my @src = grep { -e } map { "analysis/$_" } qw(record.c desc.c lex.c);
    skip 'analyser reader not present', 1 unless @src == 3;
    my $log = `gcc -std=c11 -D_GNU_SOURCE -O1 -Ianalysis tests/runtime/read-record.c analysis/record.c analysis/desc.c analysis/lex.c analysis/sym-*.c -lgmp -lm -o $B/read-record 2>&1`;
    skip "analyser reader does not build yet: " . (split /\n/, $log)[0], 1 if $?;
    my @recs = grep { -e } map { "$TMP/$_" } qw(p.ppr so.ppr tsan.ppr omp.ppr task.ppr);
    my $res = `$B/read-record @recs`;
    ok($? == 0, 'records load with the analyser\'s reader') or diag($res);
}

done_testing();
