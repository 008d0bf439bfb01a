#!/usr/bin/perl
# 40-graph.t - `perfpred graph` end to end on samples/ge_pthreads.c
# (Gaussian elimination: main pivots, P workers eliminate, 2 barriers per
# step): built with the plugin, run once at N = 32 with 2 workers, then
# drawn at other P.  Checks, on the DOT read back: one main and P pthread
# clusters; in every thread the pivot loop (count N - 1 = 31) holds the two
# per-step barriers; one barrier oval per synchronisation point, each
# joined by all P+1 threads; the SVG output; the errors (exit 2, the file
# named).
#
# Run from the repository root:  make all && prove tests/e2e/40-graph.t
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";

# the build directory (make check passes PERFPRED_BUILD)
my $B = $ENV{PERFPRED_BUILD} // 'build';
for my $f ("$B/perfpred", "$B/perfpred.so", "$B/libperfpred-rt.a") {
    plan skip_all => "$f is not built (make all)" unless -f $f;
}

my $TMP = tempdir('pp-graph-XXXXXX', TMPDIR => 1, CLEANUP => 1);

# Graphviz and fontconfig keep caches they never free: under SANITIZE=1
# LeakSanitizer would fail the analyser for them.
open my $sup, '>', "$TMP/lsan.supp" or die;
print $sup "leak:libgvc.so\nleak:libfontconfig.so\nleak:libcgraph.so\nleak:libpango\nleak:libcairo\n";
close $sup;
$ENV{LSAN_OPTIONS} = "suppressions=$TMP/lsan.supp:print_suppressions=0";
$ENV{LD_LIBRARY_PATH} = $B . ($ENV{LD_LIBRARY_PATH} ? ":$ENV{LD_LIBRARY_PATH}" : '');
delete $ENV{PERFPRED_DISABLE};

# a runtime built with SANITIZE=1 needs the sanitizers in the program too
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';
my $log = `gcc -O2 -pthread $san -fplugin=$B/perfpred.so samples/ge_pthreads.c -o $TMP/ge -L$B -l:libperfpred-rt.a 2>&1`;
plan skip_all => "samples/ge_pthreads.c does not build with the plugin: " . (split /\n/, $log)[0]
    if $? != 0;

sub run {
    my ($cmd) = @_;
    my $rc = system("$cmd >$TMP/out 2>$TMP/err");
    local $/;
    open my $o, '<', "$TMP/out" or die;
    open my $e, '<', "$TMP/err" or die;
    my ($out, $err) = (<$o> // '', <$e> // '');
    return ($rc == -1 ? -1 : $rc & 127 ? 128 + ($rc & 127) : $rc >> 8, $out, $err);
}

my ($rc, $out, $err) = run("PERFPRED_RECORD=$TMP/ge.ppr $TMP/ge 32 2");
is($rc, 0, 'ge_pthreads 32 2 runs') or diag($err);
ok(-s "$TMP/ge.ppr", 'it wrote its record') or BAIL_OUT('no record: nothing to draw');

# ---- a reader for the DOT that agwrite writes ---------------------------
sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or return ''; my $s = <$h>; return $s }

sub tokens {
    my ($s) = @_;
    my @t;
    while (1) {
        $s =~ /\G\s+/gc;
        last if (pos($s) // 0) >= length $s;
        if ($s =~ /\G"((?:[^"\\]|\\.)*)"/gcs) {
            my $v = $1;
            $v =~ s/\\\n//g;
            $v =~ s/\\"/"/g;
            push @t, ['id', $v];
        } elsif ($s =~ /\G(->|--|[{}\[\]=;,:])/gc) {
            push @t, ['p', $1];
        } elsif ($s =~ /\G([-\w.]+)/gc) {
            push @t, ['id', $1];
        } else {
            last;
        }
    }
    return @t;
}

# { graph => {attrs}, clusters => {name => {attrs, nodes => [..]}},
#   nodes => {name => {attrs, cluster}}, edges => [[from, to, {attrs}]] }
sub read_dot {
    my ($text) = @_;
    my @t = tokens($text);
    my $i = 0;
    my %g = (graph => {}, clusters => {}, nodes => {}, edges => []);
    my $peek = sub { $i < @t ? $t[$i][1] : '' };
    my $attrs = sub {
        my %a;
        return \%a unless $peek->() eq '[';
        $i++;
        while ($i < @t && $peek->() ne ']') {
            my $k = $t[$i++][1];
            $i++ if $peek->() eq '=';
            $a{$k} = $t[$i++][1];
            $i++ if $peek->() eq ',' || $peek->() eq ';';
        }
        $i++;
        return \%a;
    };
    my $nodeid = sub {
        my $n = $t[$i++][1];
        while ($peek->() eq ':') { $i += 2 }
        return $n;
    };
    my $stmts;
    $stmts = sub {
        my ($cl) = @_;
        while ($i < @t && $peek->() ne '}') {
            my $w = $peek->();
            if ($w eq ';') { $i++; next }
            if ($w eq 'subgraph') {
                my $name = $t[$i + 1][1];
                $i += 3;    # subgraph NAME {
                $g{clusters}{$name} ||= {attrs => {}, nodes => []};
                $stmts->($name);
                $i++;       # }
            } elsif ($w eq 'graph' || $w eq 'node' || $w eq 'edge') {
                $i++;
                my $a = $attrs->();
                my $dst = $w ne 'graph' ? {} : defined $cl ? $g{clusters}{$cl}{attrs} : $g{graph};
                @$dst{keys %$a} = values %$a;
            } else {
                my $n = $nodeid->();
                if ($peek->() eq '->') {
                    $i++;
                    my $h = $nodeid->();
                    push @{$g{edges}}, [$n, $h, $attrs->()];
                } elsif ($peek->() eq '=') {
                    $i++;
                    my $v = $t[$i++][1];
                    (defined $cl ? $g{clusters}{$cl}{attrs} : $g{graph})->{$n} = $v;
                } else {
                    my $a = $attrs->();
                    my $node = $g{nodes}{$n} ||= {attrs => {}, cluster => undef};
                    @{$node->{attrs}}{keys %$a} = values %$a;
                    if (defined $cl && !defined $node->{cluster}) {
                        $node->{cluster} = $cl;
                        push @{$g{clusters}{$cl}{nodes}}, $n;
                    }
                }
            }
        }
    };
    $i += 3 if $peek->() eq 'digraph';    # digraph NAME {
    $stmts->(undef);
    return \%g;
}

# Check the graph of GE at P: threads, pivot loops holding barriers, ovals.
sub check_ge {
    my ($g, $P, $what) = @_;
    my $n = $P + 1;
    is($g->{graph}{threads}, $n, "$what: threads = P + 1 = $n");
    my @cl = sort keys %{$g->{clusters}};
    my @main = grep { ($g->{clusters}{$_}{attrs}{kind} // '') eq 'main' } @cl;
    my @work = grep { ($g->{clusters}{$_}{attrs}{kind} // '') eq 'pthread' } @cl;
    is(scalar @main, 1, "$what: one main thread");
    is(scalar @work, $P, "$what: $P worker threads (pthread clusters)");

    # chain successors (the thread lines) and loop arcs (close -> open)
    my (%next, %arc_to_open);
    for my $e (@{$g->{edges}}) {
        my ($f, $t, $a) = @$e;
        $next{$f} = $t if ($a->{weight} // '') eq '100';
        $arc_to_open{$t} = $f if defined $a->{count} && ($g->{nodes}{$t}{attrs}{count} // '') ne '';
    }
    my $pivot_ok = 0;
    for my $c (@main, @work) {
        # the loop of count 31 whose body holds barriers
        my ($open) = grep { ($g->{nodes}{$_}{attrs}{count} // '') eq '31'
                            && exists $arc_to_open{$_} } @{$g->{clusters}{$c}{nodes}};
        next unless $open;
        my $close = $arc_to_open{$open};
        my ($nb, $x, $steps) = (0, $next{$open}, 0);
        while (defined $x && $x ne $close && $steps++ < 1000) {
            $nb++ if ($g->{nodes}{$x}{attrs}{label} // '') =~ /^barrier\n/;
            $x = $next{$x};
        }
        $pivot_ok++ if defined $x && $x eq $close && $nb == 2;
    }
    is($pivot_ok, $n, "$what: in all $n threads a loop of count N - 1 = 31 holds the 2 barriers of a step");
    # the loop arcs are labelled with the count in N
    my @arcs = grep { ($_->[2]{count} // '') eq '31' } @{$g->{edges}};
    ok(@arcs >= $n && !grep({ ($_->[2]{label} // '') !~ /N - 1.*\(= 31\)/ } @arcs),
       "$what: the pivot loop arcs read 'N - 1 (= 31)'")
        or diag(join ', ', map { $_->[2]{label} // '' } @arcs);

    # barrier ovals: 3 synchronisation points (init, pivot, elimination)
    my @ovals = grep { ($g->{nodes}{$_}{attrs}{shape} // '') eq 'ellipse' } keys %{$g->{nodes}};
    is($g->{graph}{barrier_sites}, 3, "$what: barrier_sites = 3");
    is(scalar @ovals, 3, "$what: 3 barrier ovals");
    my $shared = 0;
    for my $o (@ovals) {
        my %by;
        for my $e (@{$g->{edges}}) {
            next unless $e->[1] eq $o;
            my $cl = $g->{nodes}{$e->[0]}{cluster};
            $by{$cl}++ if defined $cl;
        }
        $shared++ if keys %by == $n && ($g->{nodes}{$o}{attrs}{parties} // '') eq $n
                     && ($g->{nodes}{$o}{attrs}{object} // '') eq 'bar';
    }
    is($shared, 3, "$what: each oval is barrier 'bar' with $n parties, joined by all $n threads");
    # create and join edges: main -> each worker's start, each end -> main
    my $creates = grep { ($_->[2]{comm} // '') eq 'create' } @{$g->{edges}};
    my $joins = grep { ($_->[2]{comm} // '') eq 'join' } @{$g->{edges}};
    is("$creates/$joins", "$P/$P", "$what: $P create and $P join edges");
}

for my $P (4, 32) {
    ($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --P $P -o $TMP/ge$P.dot");
    is($rc, 0, "graph --P $P -o ge$P.dot exits 0") or diag($err);
    my $dot = slurp("$TMP/ge$P.dot");
    like($dot, qr/^digraph/, "ge$P.dot is a DOT digraph");
    check_ge(read_dot($dot), $P, "P = $P");
}

# default P: the recorded one (2 workers); DOT on stdout
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr");
is($rc, 0, 'graph RECORD (DOT on stdout) exits 0') or diag($err);
is(read_dot($out)->{graph}{threads}, 3, 'default P is the recorded one: 3 threads');

# --set N=64: the pivot loops run 63 times
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --P 2 --set N=64 --format dot");
my $g64 = read_dot($out);
my @c63 = grep { ($g64->{nodes}{$_}{attrs}{count} // '') eq '63' } keys %{$g64->{nodes}};
ok($rc == 0 && @c63 >= 3, '--set N=64: loops of count N - 1 = 63 in all 3 threads') or diag($err);

# SVG, from the extension and from --format
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --P 4 -o $TMP/ge.svg");
is($rc, 0, 'graph -o ge.svg exits 0') or diag($err);
my $svg = slurp("$TMP/ge.svg");
ok($svg =~ /^(<\?xml|<svg)/ && $svg =~ m{</svg>\s*$}, 'ge.svg is an SVG document');
ok($svg =~ m{<title>cluster_t4</title>}, "ge.svg draws the 4th worker");
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --P 2 --format svg");
ok($rc == 0 && $out =~ m{^(<\?xml|<svg).*</svg>\s*$}s, '--format svg writes SVG to stdout');

# errors: exit 2, one line naming the file
($rc, $out, $err) = run("$B/perfpred graph $TMP/missing.ppr");
ok($rc == 2 && $err =~ /missing\.ppr/, 'a missing record: exit 2, the file named') or diag("rc $rc: $err");
open my $bad, '>', "$TMP/bad.ppr" or die;
print $bad "this is not a record\n";
close $bad;
($rc, $out, $err) = run("$B/perfpred graph $TMP/bad.ppr");
ok($rc == 2 && $err =~ /bad\.ppr/, 'a file that is not a record: exit 2, the file named') or diag("rc $rc: $err");
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --P 0");
ok($rc == 2 && $err =~ /--P/, '--P 0: exit 2') or diag("rc $rc: $err");
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr -o $TMP/no/such/dir/g.dot");
ok($rc == 2 && (grep { m{^perfpred graph: .*no/such/dir/g\.dot} } split /\n/, $err) == 1,
   'an unwritable -o: exit 2, one line naming the file') or diag("rc $rc: $err");
($rc, $out, $err) = run("$B/perfpred graph $TMP/ge.ppr --format json");
is($rc, 2, '--format json: exit 2');

done_testing();
