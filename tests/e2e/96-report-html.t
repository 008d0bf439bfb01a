#!/usr/bin/perl
# 96-report-html.t - `perfpred report` in a real browser.  A small sample
# (ge_pthreads at N = 64, 2 threads; with MPI installed also mpi_trap at 4
# ranks) is recorded and reported; the page must be self-contained (every
# src= and href= an in-page anchor or a data: URI, no @import or url() to
# a file), and headless Chromium must open it with no console message,
# draw a screenshot that is not blank (the PNG decoded here: more than 1%
# of the pixels not white, more than 20 colours), and leave in the DOM the
# page's own check, <body data-check="images=N/N tables=M/M">: every image
# decoded (complete, naturalWidth > 0) and every table has rows.  A page
# broken on purpose (an image that does not decode, a script that throws)
# must fail those same checks.  Also: predict.txt, .csv and .json hold
# what predict writes at the page's points, scale.txt, .csv and .json what
# scale --draws 0 writes for its tables; report.md and the CSV files, the
# failures (a missing record, no gnuplot, a hang, --timeout) exit 2 and
# leave nothing behind, and progress goes to a terminal only.
#
# Chromium is Debian's `chromium` (make deps installs it as root;
# PERFPRED_CHROMIUM names another binary); without it the browser part is
# skipped with the command to install it, except under CI=true, where it
# must run.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Compress::Zlib;
use Cwd qw(getcwd);
use lib "$FindBin::Bin/lib";
use PPCheck qw(hand_machine run_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred", "$B/perfpred.so", "$B/libperfpred-rt.a") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
plan skip_all => 'gnuplot is not installed (apt-get install -y gnuplot-nox)'
    if system('command -v gnuplot >/dev/null 2>&1') != 0;
# PERFPRED_CHROMIUM: another browser binary (chromium-browser, a path)
my $CHROMIUM = `command -v '@{[ $ENV{PERFPRED_CHROMIUM} // 'chromium' ]}' 2>/dev/null`;
chomp $CHROMIUM;
my $INSTALL = 'apt-get install -y chromium';
my $CI = ($ENV{CI} // '') eq 'true';

my $tmp = tempdir('pp-html-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $pp = "$B/perfpred";
$pp = getcwd() . "/$pp" unless $pp =~ m{^/};
# Graphviz and fontconfig keep caches they never free (SANITIZE=1)
open my $sup, '>', "$tmp/lsan.supp" or die;
print $sup "leak:libgvc.so\nleak:libfontconfig.so\nleak:libcgraph.so\nleak:libpango\nleak:libcairo\n";
close $sup;
$ENV{LSAN_OPTIONS} = "suppressions=$tmp/lsan.supp:print_suppressions=0";
delete $ENV{$_} for qw(PERFPRED_RECORD PERFPRED_DISABLE PERFPRED_GNUPLOT);
my $san = $ENV{SANITIZE} ? '-fsanitize=address,undefined' : '';

sub slurp { my ($f) = @_; local $/; open my $h, '<', $f or return ''; my $s = <$h>; return $s // '' }

# ---------------------------------------------------------------- record, report
system("gcc -O2 -pthread -fplugin=$B/perfpred.so samples/ge_pthreads.c -o $tmp/ge -L$B -l:libperfpred-rt.a $san") == 0
    or BAIL_OUT('cannot build samples/ge_pthreads.c with the plugin');
system("PERFPRED_RECORD=$tmp/ge.ppr $tmp/ge 64 2 >/dev/null") == 0 or BAIL_OUT('ge_pthreads run');
my $mach = hand_machine("$tmp/hand.machine", memory => [0.66, 0.25]);

my $out = "$tmp/page";
my ($rc, $so, $se) = run_in($tmp, "$pp report $tmp/ge.ppr --machine $mach --set N=256 --P 1,2,4,8 "
                                . "--scale N --scale-P 2,4,8 --title 'GE, the test page' -o $out");
is($rc, 0, 'perfpred report exits 0') or diag($se);
is($so, '', 'nothing on stdout');
unlike($se, qr/perfpred report: (predicting|plot|wrote)/, 'no progress lines when stderr is not a terminal');
my @svg = qw(plot-time plot-speedup plot-efficiency plot-breakdown plot-latency thread-graph);
my @csv = qw(parameters machine predictions breakdown breakdown-loop breakdown-function scale-algorithmic scale-combination latency sensitivity
             equations model-quality);
ok(-s "$out/$_", "$_ written") for 'index.html', 'report.md', (map { "$_.svg" } @svg), (map { "table-$_.csv" } @csv);
ok(-s "$out/$_.gp", "$_.gp written (the plot's gnuplot script)") for grep { /^plot-/ } @svg;
# the predictions' files: what predict writes at the same points
{
    my ($prc, $ptext) = run_in($tmp, "$pp predict $tmp/ge.ppr --machine $mach --set N=256 --P 1,2,4,8 "
                                   . "--format text --csv $tmp/p.csv --json $tmp/p.json");
    is($prc, 0, 'predict at the page\'s points exits 0');
    is(slurp("$out/predict.txt"), $ptext, 'predict.txt: what predict prints');
    is(slurp("$out/predict.$_"), slurp("$tmp/p.$_"), "predict.$_: what predict --$_ writes") for qw(csv json);
    # and the tables' files: what scale writes (from the --set size, no interval)
    my ($src, $stext) = run_in($tmp, "$pp scale $tmp/ge.ppr --machine $mach --set N=256 --scale N --P 2,4,8 "
                                   . "--Ea 0.7 --E 0.25 --draws 0 --format text --csv $tmp/s.csv --json $tmp/s.json");
    is($src, 0, 'scale at the page\'s points exits 0');
    is(slurp("$out/scale.txt"), $stext, 'scale.txt: what scale prints');
    is(slurp("$out/scale.$_"), slurp("$tmp/s.$_"), "scale.$_: what scale --$_ writes") for qw(csv json);
}
# the breakdown plot draws table-breakdown.csv's three shares, which add up
# to 100 at every P
my @bd = map { [split /,/] } grep { /\S/ } split /\n/, slurp("$out/table-breakdown.csv");
is(join(',', @{ shift(@bd) || [] }), 'P,threads,computation,waiting,synchronisation cost', 'table-breakdown.csv: its header');
is(join(',', map { $_->[0] } @bd), '1,2,4,8', 'table-breakdown.csv: one row per P');
ok(!(grep { abs($_->[2] + $_->[3] + $_->[4] - 100) > 0.2 } @bd), 'table-breakdown.csv: the shares add up to 100 at every P');
like(slurp("$out/plot-breakdown.gp"), qr/'table-breakdown\.csv' skip 1 using 1:3 .*title 'computation'.*using 1:4 .*title 'waiting'.*using 1:5 .*title 'synchronisation cost'/s,
     'plot-breakdown.gp draws computation, waiting and synchronisation cost against P from it');
my @left = grep { /^\./ } map { s{.*/}{}r } glob("$tmp/.* $out/.*");
is_deeply([grep { $_ ne '.' && $_ ne '..' } @left], [], 'no temporary directory or file left');

my $html = slurp("$out/index.html");
sub self_contained {
    my ($h) = @_;
    my @bad;
    while ($h =~ /\b(src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi) {
        my $v = $2 // $3 // $4;
        push @bad, "$1=" . substr($v, 0, 60) unless $v =~ /^#/ || $v =~ /^data:/i;
    }
    push @bad, 'url(' . $1 . ')' while $h =~ /url\(\s*['"]?(?!data:)([^)'"]*)/gi;
    push @bad, '@import' if $h =~ /\@import/i;
    return @bad;
}
is_deeply([self_contained($html)], [], 'index.html is self-contained: only in-page anchors and data: URIs');
like($html, qr/^<!DOCTYPE html>/, 'index.html is HTML5');
like($html, qr{<title>GE, the test page</title>}, '--title is the page title');
my $nimg = () = $html =~ /<img\b/g;
my $ntab = () = $html =~ /<table\b/g;
is($nimg, scalar(@svg), "every figure is an image ($nimg)");
ok($ntab >= scalar(@csv), "every table is in the page ($ntab)");
for my $sec ('Summary', 'Predictions per P', 'Plots against P', 'Where the time goes', 'Scalability',
             'Sensitivity to the machine', 'Thread graph', 'Symbolic equations', 'Model quality') {
    like($html, qr{<h2 id="[^"]+">\Q$sec\E</h2>}, "section: $sec");
}
like($html, qr/T_real 90% low/, 'the predictions have the interval');
like($html, qr{<pre>T      = .*\bN\b.*\nT_sync = .*\bP\b}, 'the equations: T and T_sync of the program in N and P');
like($html, qr{<td>worker:L\d+</td><td>ge_pthreads\.c:\d+</td><td><code>}, '... and of every loop');

my $md = slurp("$out/report.md");
my @mdlinks = $md =~ /\]\(([^)#][^)]*)\)/g;
ok(@mdlinks >= @svg + @csv, 'report.md links the figures and the CSV files');
ok(-e "$out/$_", "report.md: $_ exists") for @mdlinks;
like($md, qr/^\| P \| T_MIRACLE \| T_PRAM \| T_real \|/m, 'report.md has the predictions table');
my @rows = grep { /\S/ } split /\n/, slurp("$out/table-predictions.csv");
is(scalar(@rows), 5, 'table-predictions.csv: the header and one row per P');
like($rows[0], qr/^P,T_MIRACLE,T_PRAM,T_real,T_real 90% low,T_real 90% high,L_a,L,E_a,E,/, '... its header');
my @p = map { (split /,/)[0] } @rows[1 .. $#rows];
is_deeply(\@p, [1, 2, 4, 8], '... P = 1,2,4,8');
ok((grep { (split /,/)[3] > 0 } @rows[1 .. $#rows]) == 4, '... T_real in seconds, positive');
for my $c (@csv) {
    my @l = grep { /\S/ } split /\n/, slurp("$out/table-$c.csv");
    # fields: split at the commas outside quotes
    my $fields = sub { scalar(split /,(?=(?:[^"]*"[^"]*")*[^"]*$)/, $_[0], -1) };
    my $n = $fields->($l[0]);
    my @odd = grep { $fields->($_) != $n } @l;
    ok(@l >= 2 && !@odd, "table-$c.csv: a header and rows of $n fields") or diag(join "\n", @odd);
}

# ---------------------------------------------------------------- failures
($rc, $so, $se) = run_in($tmp, "$pp report $tmp/nope.ppr --machine $mach -o $tmp/p2");
is($rc, 2, 'a missing record: exit 2');
like($se, qr/^perfpred report: \Q$tmp\E\/nope\.ppr: cannot open/m, '... naming the file');
ok(!-e "$tmp/p2", '... and nothing written');
($rc, $so, $se) = run_in($tmp, "PATH=/nonexistent $pp report $tmp/ge.ppr --machine $mach -o $out");
is($rc, 2, 'no gnuplot: exit 2');
like($se, qr/gnuplot: not found on PATH.*gnuplot-nox/, '... saying what to install');
is(slurp("$out/index.html"), $html, '... the page written before is untouched');
($rc, $so, $se) = run_in($tmp, "$pp report $tmp/ge.ppr --machine $mach --set N=200000 --P 64 --timeout 1 -o $tmp/p3");
is($rc, 2, '--timeout: exit 2');
like($se, qr/ge\.ppr: gave up after 1 s \(--timeout\)/, '... naming the record');
ok(!-e "$tmp/p3", '... and nothing written');
@left = grep { !/\/\.\.?$/ } glob("$tmp/.* $out/.*");
is_deeply(\@left, [], 'no temporary directory left after the failures');
($rc, $so, $se) = run_in($tmp, "$pp report $tmp/ge.ppr --machine $mach --scale P -o $tmp/p4");
is($rc, 2, '--scale of the thread count: exit 2');
($rc, $so, $se) = run_in($tmp, "$pp report $tmp/ge.ppr --machine $mach");
is($rc, 2, 'no -o: exit 2');
like($se, qr/-o DIR is required/, '... saying so');
SKIP: {
    skip 'script(1) is not installed', 1 if system('command -v script >/dev/null 2>&1') != 0;
    ($rc, $so, $se) = run_in($tmp, "script -qec '$pp report $tmp/ge.ppr --machine $mach --P 2,4 -o $tmp/p5' /dev/null");
    like($so, qr/perfpred report: predicting P = 4/, 'progress lines on a terminal');
}

# ---------------------------------------------------------------- MPI
my $mpi_out;
SKIP: {
    skip 'mpicc or mpirun is not installed', 6
        if system('command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1') != 0;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT} = 1;
    local $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
    local $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    local $ENV{ASAN_OPTIONS} = 'detect_leaks=0';
    system("mpicc -O2 -fplugin=$B/perfpred.so samples/mpi_trap.c -o $tmp/trap -L$B -l:libperfpred-rt.a -lm $san") == 0
        or BAIL_OUT('cannot build samples/mpi_trap.c');
    system("PERFPRED_RECORD=$tmp/trap.ppr mpirun -np 4 $tmp/trap 100000 2 >/dev/null 2>&1") == 0
        or BAIL_OUT('mpi_trap run');
    $mpi_out = "$tmp/mpi";
    ($rc, $so, $se) = run_in($tmp, "$pp report $tmp/trap.ppr --machine docs/examples/cluster.machine --P 1,4,16 "
                                . "-o $mpi_out");
    is($rc, 0, 'MPI: perfpred report exits 0') or diag($se);
    ok(-s "$mpi_out/plot-mpi-share.svg", 'MPI: the share of the time per kind of call, plotted');
    my @m = grep { /\S/ } split /\n/, slurp("$mpi_out/table-mpi-share.csv");
    like($m[0] // '', qr/^P,all MPI calls,.*reduce/, 'MPI: table-mpi-share.csv has a column per kind of call');
    is(scalar(@m), 4, '... and a row per P');
    my $h = slurp("$mpi_out/index.html");
    is_deeply([self_contained($h)], [], 'MPI: index.html is self-contained');
    like($h, qr/MPI: the share of the ranks/, 'MPI: the section is there');
}

# ---------------------------------------------------------------- the browser
SKIP: {
    if (!$CHROMIUM) {
        fail("chromium is not installed, and CI=true: make deps installs it ($INSTALL)") if $CI;
        skip "chromium is not installed: $INSTALL (make deps does it as root)", 1;
    }
    my $n = 0;
    # (stderr, stdout) of chromium on a page
    my $chrome = sub {
        my ($page, @args) = @_;
        $n++;
        my $cmd = "timeout -k 5 120 $CHROMIUM --headless=new --no-sandbox --disable-gpu "
                . "--user-data-dir=$tmp/chromium-profile --no-first-run --enable-logging=stderr --v=0 "
                . join(' ', @args) . " file://$page";
        my ($r, $o, $e) = run_in($tmp, $cmd);
        diag("chromium exited $r: " . substr($e, -600)) if $r;
        return ($r, $e, $o);
    };
    my $console = sub { join "\n", grep { /:CONSOLE[:(]|Uncaught/ } split /\n/, $_[0] };

    for my $case (['ge', $out, $nimg, $ntab], $mpi_out ? ['mpi', $mpi_out, undef, undef] : ()) {
        my ($what, $dir, $wi, $wt) = @$case;
        my $page = "$dir/index.html";
        my $h = slurp($page);
        $wi //= () = $h =~ /<img\b/g;
        $wt //= () = $h =~ /<table\b/g;
        my ($r1, $e1) = $chrome->($page, "--screenshot=$tmp/shot-$what.png", '--window-size=1280,4000');
        is($r1, 0, "$what: chromium takes a screenshot");
        is($console->($e1), '', "$what: no console message while drawing");
        my ($st, $why) = png_stats("$tmp/shot-$what.png");
        ok($st, "$what: the screenshot is a PNG we can read") or diag($why);
        $st ||= { nonwhite => 0, colours => 0 };
        ok($st->{nonwhite} > 0.01, sprintf("%s: the screenshot is not blank (%.1f%% of the pixels not white)",
                                           $what, 100 * $st->{nonwhite}));
        ok($st->{colours} > 20, "$what: ... and has $st->{colours} colours");
        my ($r2, $e2, $dom) = $chrome->($page, '--dump-dom');
        is($r2, 0, "$what: chromium dumps the DOM");
        is($console->($e2), '', "$what: no console message while loading");
        my ($check) = $dom =~ /<body[^>]*\bdata-check="([^"]*)"/;
        is($check, "images=$wi/$wi tables=$wt/$wt", "$what: the page's own check: every image decoded, every table has rows");
        like($dom, qr/<h2 id="summary">/, "$what: the DOM has the sections");
        diag("screenshot of the $what page: $tmp/shot-$what.png (kept with PERFPRED_KEEP_SHOT=DIR)");
        if ($ENV{PERFPRED_KEEP_SHOT}) {
            system("cp $tmp/shot-$what.png $ENV{PERFPRED_KEEP_SHOT}/shot-$what.png");
        }
    }

    # the checks can fail: an image that does not decode, a script that throws
    my $broken = $html;
    $broken =~ s{src="data:image/svg\+xml;base64,[^"]*"}{src="data:image/svg+xml;base64,PHN2Zw=="};
    $broken =~ s{</body>}{<script>no_such_function();</script></body>};
    open my $bf, '>', "$tmp/broken.html" or die;
    print $bf $broken;
    close $bf;
    my ($r3, $e3, $dom3) = $chrome->("$tmp/broken.html", '--dump-dom');
    like($console->($e3), qr/no_such_function/, 'a broken page: the script error is seen on the console');
    my ($check3) = $dom3 =~ /<body[^>]*\bdata-check="([^"]*)"/;
    is($check3, sprintf('images=%d/%d tables=%d/%d', $nimg - 1, $nimg, $ntab, $ntab),
       'a broken page: the image that does not decode is counted out');
}
done_testing();

# ---------------------------------------------------------------- PNG
# (stats, undef) or (undef, why): the share of pixels not white and the
# number of distinct colours of an 8-bit RGB or RGBA, non-interlaced PNG.
sub png_stats {
    my ($file) = @_;
    my $d = slurp($file);
    return (undef, "$file: not a PNG") unless substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n";
    my ($pos, $w, $h, $depth, $ctype, $inter, $idat) = (8, 0, 0, 0, 0, 0, '');
    while ($pos + 8 <= length $d) {
        my ($len, $type) = unpack('N a4', substr($d, $pos, 8));
        my $body = substr($d, $pos + 8, $len);
        $pos += 12 + $len;
        if ($type eq 'IHDR') { ($w, $h, $depth, $ctype, undef, undef, $inter) = unpack('N N C C C C C', $body) }
        elsif ($type eq 'IDAT') { $idat .= $body }
        elsif ($type eq 'IEND') { last }
    }
    return (undef, "$file: depth $depth, colour type $ctype, interlace $inter: not read here")
        unless $depth == 8 && ($ctype == 2 || $ctype == 6) && !$inter;
    my $raw = uncompress($idat);
    return (undef, "$file: cannot inflate the image data") unless defined $raw;
    my $bpp = $ctype == 6 ? 4 : 3;
    my $stride = $w * $bpp;
    return (undef, "$file: image data of the wrong size") unless length($raw) == $h * ($stride + 1);
    my @prev = (0) x $stride;
    my %colours;
    for my $y (0 .. $h - 1) {
        my $f = ord(substr($raw, $y * ($stride + 1), 1));
        my @x = unpack('C*', substr($raw, $y * ($stride + 1) + 1, $stride));
        if ($f == 1) {
            $x[$_] = ($x[$_] + $x[$_ - $bpp]) & 255 for $bpp .. $stride - 1;
        } elsif ($f == 2) {
            $x[$_] = ($x[$_] + $prev[$_]) & 255 for 0 .. $stride - 1;
        } elsif ($f == 3) {
            $x[$_] = ($x[$_] + ((($_ >= $bpp ? $x[$_ - $bpp] : 0) + $prev[$_]) >> 1)) & 255 for 0 .. $stride - 1;
        } elsif ($f == 4) {
            for my $i (0 .. $stride - 1) {
                my ($a, $b, $c) = ($i >= $bpp ? $x[$i - $bpp] : 0, $prev[$i], $i >= $bpp ? $prev[$i - $bpp] : 0);
                my $p = $a + $b - $c;
                my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $c));
                $x[$i] = ($x[$i] + ($pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c)) & 255;
            }
        } elsif ($f != 0) {
            return (undef, "$file: unknown filter $f on row $y");
        }
        @prev = @x;
        my $row = pack('C*', @x);
        $colours{$_}++ for unpack($bpp == 4 ? '(a3 x)*' : '(a3)*', $row);
    }
    my $white = $colours{"\xff\xff\xff"} // 0;
    return ({ colours => scalar(keys %colours), nonwhite => 1 - $white / ($w * $h) }, undef);
}
