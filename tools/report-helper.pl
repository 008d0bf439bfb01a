#!/usr/bin/perl
# report-helper.pl - the parts of tools/make-report that read JSON: the plot
# data and gnuplot scripts of one sample, and reports/index.md.
#
#   report-helper.pl plots DIR NAME INFO
#       reads DIR/scale.json, DIR/predict.csv and INFO, writes
#       DIR/latency-algorithmic.dat, DIR/latency-combination.dat
#       and the gnuplot scripts DIR/latency.gp, DIR/times.gp,
#       DIR/efficiency.gp (each one writes the SVG of the same name when run
#       in DIR: `cd DIR && gnuplot latency.gp`).
#   report-helper.pl index OUTDIR INFO...
#       writes OUTDIR/index.md, and OUTDIR/index.html linking each sample's
#       page (NAME/index.html, written by `perfpred report`).  Each INFO is a file of `key=value` lines
#       (name, src, args, big, scale, plist, predP, seconds ...) that
#       tools/make-report writes per sample in its temporary directory; the
#       global one (host, date, ...) comes first.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use JSON::PP;
use List::Util qw(min max);
use POSIX ();

sub slurp {
    my ($f) = @_;
    open my $h, '<', $f or die "report-helper: cannot read $f: $!\n";
    local $/;
    my $s = <$h>;
    return $s // '';
}

sub spew {
    my ($f, $s) = @_;
    open my $h, '>', "$f.tmp" or die "report-helper: cannot write $f: $!\n";
    print $h $s;
    close $h or die "report-helper: cannot write $f: $!\n";
    rename "$f.tmp", $f or die "report-helper: cannot rename $f.tmp: $!\n";
}

sub read_json {
    my ($f) = @_;
    my $d = eval { decode_json(slurp($f)) };
    die "report-helper: $f is not valid JSON: $@" unless defined $d;
    return $d;
}

sub read_info {
    my ($f) = @_;
    my %i;
    for (split /\n/, slurp($f)) {
        next unless /^([A-Za-z_0-9]+)=(.*)$/;
        $i{$1} = $2;
    }
    return \%i;
}

# predict.csv: header P,t_miracle_s,... then one row per P (a marked
# machine file's warning, a first '# ' line, is skipped)
sub read_predict_csv {
    my ($f) = @_;
    my @lines = grep { /\S/ && !/^#/ } split /\n/, slurp($f);
    my @head = split /,/, shift @lines;
    my @rows;
    for (@lines) {
        my @v = split /,/;
        my %r;
        @r{@head} = @v;
        push @rows, \%r;
    }
    return \@rows;
}

sub problem_str {
    my ($p) = @_;
    return 'unreachable' unless defined $p;
    return join(' ', map { "$_=$p->{$_}" } grep { $_ ne 'P' } sort keys %$p);
}

sub gp_num { my ($x) = @_; return sprintf('%.6g', $x); }

# ---------------------------------------------------------------- plots
sub plots {
    my ($dir, $name, $info_f) = @_;
    my $scale = read_json("$dir/scale.json");
    my $info = read_info($info_f);
    my @sp = split /,/, ($info->{scale} // '');
    my $x = $sp[0] // 'N';
    my $xlabel = @sp > 1 ? join(' = ', @sp) : $x;
    my @tables = @{ $scale->{tables} || [] };
    die "report-helper: $dir/scale.json has no tables\n" unless @tables;

    # latency-KIND.dat, one per table: "P chi latency_ms"
    my (@series, @xs, @ys);
    for my $t (@tables) {
        my $alg = $t->{kind} eq 'algorithmic';
        my ($lat, $eff) = $alg ? ('L_a', 'E_a') : ('L', 'E');
        my $file = "latency-$t->{kind}.dat";
        my $dat = "# $t->{kind} scalability, from scale.json: $lat at $eff = $t->{efficiency}\n"
                . "# columns: P, problem size ($x), latency in ms\n";
        my $n = 0;
        for my $i (0 .. $#{ $t->{P} }) {
            my $p = $t->{problem}[$i];
            my $l = $t->{latency}[$i];
            next unless defined $p && defined $l && defined $p->{$x};
            $dat .= sprintf "%d %s %s\n", $t->{P}[$i], $p->{$x}, gp_num($l * 1e3);
            push @xs, $p->{$x};
            push @ys, $l * 1e3;
            $n++;
        }
        $dat .= "# no P reaches $eff = $t->{efficiency}\n" unless $n;
        spew("$dir/$file", $dat);
        push @series, { file => $file, n => $n,
                        title => $alg ? "$lat (algorithmic, PRAM), $eff = $t->{efficiency}"
                                      : "$lat (parallel, real machine), $eff = $t->{efficiency}" };
    }

    my $svg = "set terminal svg size 800,520 dynamic enhanced font 'sans,11' background rgb 'white'\n";
    my @have = grep { $_->{n} > 0 } @series;
    my $gp = $svg . "set output 'latency.svg'\n"
           . "set title \"$name: latency at fixed efficiency (Zhang \\& Xu Figs. 10-14)\" noenhanced\n"
           . "set xlabel 'problem size $xlabel' noenhanced\nset ylabel 'latency (ms)'\n"
           . "set grid\nset key top left\n";
    # ys: latencies in ms; a latency of 0 (E_a = 1 exactly) cannot be drawn on a log axis
    my @ypos = grep { $_ > 0 } @ys;
    if (@have && @ypos) {
        my ($x0, $x1) = (min(@xs), max(@xs));
        my ($y0, $y1) = (min(@ypos), max(@ypos));
        $gp .= "set logscale xy\n";
        # whole decades, so that a log axis always has labelled ticks
        my $dn = sub { 10 ** POSIX::floor(log($_[0]) / log(10) - 1e-9) };
        my $up = sub { 10 ** POSIX::ceil(log($_[0]) / log(10) + 1e-9) };
        $gp .= sprintf("set xrange [%s:%s]\nset yrange [%s:%s]\n",
                       gp_num($dn->($x0)), gp_num($up->($x1)), gp_num($dn->($y0)), gp_num($up->($y1)));
        my @pl;
        my @style = ('lc rgb "#1f77b4" pt 7', 'lc rgb "#d62728" pt 5');
        for my $k (0 .. $#series) {
            my $s = $series[$k];
            if (!$s->{n}) {
                $gp .= sprintf("set label \"%s: not reached at any P\" at graph 0.98, graph %.2f right noenhanced\n",
                               $s->{title}, 0.05 + 0.06 * $k);
                next;
            }
            push @pl, "'$s->{file}' using 2:3 with linespoints $style[$k % 2] title \"$s->{title}\" noenhanced";
            push @pl, "'$s->{file}' using 2:3:(sprintf('P=%d', \$1)) with labels offset char 0,0.9 font 'sans,8' notitle";
        }
        $gp .= "plot " . join(", \\\n     ", @pl) . "\n";
    } else {
        $gp .= "set xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\n"
             . "set label 'no efficiency target is reached at any P on the scaling path' at graph 0.5, graph 0.5 center\n"
             . "plot -1 notitle\n";
    }
    spew("$dir/latency.gp", $gp);

    # from predict.csv: times and efficiencies against P
    my $rows = read_predict_csv("$dir/predict.csv");
    die "report-helper: $dir/predict.csv has no rows\n" unless @$rows;
    my $big = $info->{big} // '';
    my $realname = ($info->{mach} // '') =~ /cluster\.machine$/ ? 'real (example cluster)' : 'real (this host)';
    my $common = "set datafile separator ','\nset grid\nset logscale x 2\n"
               . "set xlabel 'processors P'\nset offsets graph 0.03, graph 0.03, 0, 0\n";
    my $tgp = $svg . "set output 'times.svg'\n"
            . "set title \"$name: predicted time at $big\" noenhanced\n" . $common
            . "set logscale y\nset ylabel 'time (ms)'\nset key top right\n"
            . "plot 'predict.csv' skip 1 using 1:(\$2*1e3) with linespoints lc rgb '#2ca02c' pt 7 title 'MIRACLE (T_1/P)', \\\n"
            . "     'predict.csv' skip 1 using 1:(\$3*1e3) with linespoints lc rgb '#1f77b4' pt 5 title 'PRAM', \\\n"
            . "     'predict.csv' skip 1 using 1:(\$4*1e3) with linespoints lc rgb '#d62728' pt 9 title '$realname'\n";
    spew("$dir/times.gp", $tgp);

    my ($ea, $e) = ($info->{Ea} // 0.7, $info->{E} // 0.25);
    my $egp = $svg . "set output 'efficiency.svg'\n"
            . "set title \"$name: efficiencies at $big\" noenhanced\n" . $common
            . "set ylabel 'efficiency'\nset yrange [0:1.05]\nset key bottom left\n"
            . "plot 'predict.csv' skip 1 using 1:7 with linespoints lc rgb '#1f77b4' pt 7 title 'E_a = T_{MIR}/T_{PRAM} (algorithm)', \\\n"
            . "     'predict.csv' skip 1 using 1:8 with linespoints lc rgb '#d62728' pt 5 title 'E = T_{MIR}/T_{real} (algorithm + machine)', \\\n"
            . "     $ea with lines dt 2 lc rgb '#1f77b4' title 'E_a target $ea', \\\n"
            . "     $e with lines dt 2 lc rgb '#d62728' title 'E target $e'\n";
    spew("$dir/efficiency.gp", $egp);
    return 0;
}

# ---------------------------------------------------------------- index
sub fmt_s {
    my ($s) = @_;
    return 'n/a' unless defined $s && $s ne '';
    return sprintf('%.3g s', $s) if $s >= 1;
    return sprintf('%.3g ms', $s * 1e3) if $s >= 1e-3;
    return sprintf('%.3g us', $s * 1e6);
}

# one line on what limits the sample, from predict (at 8x) and the tables
sub limits {
    my ($info, $rows, $scale) = @_;
    my ($ea_t, $e_t) = ($info->{Ea}, $info->{E});
    my ($fa) = grep { $_->{Ea} < $ea_t } @$rows;
    my ($fe) = grep { $_->{E} < $e_t } @$rows;
    my $last = $rows->[-1];
    my $mach = $last->{Ea} > 0 ? $last->{E} / $last->{Ea} : 0;
    my $who;
    if ($last->{Ea} >= $ea_t && $last->{E} >= $e_t) {
        $who = "holds both targets up to P=$last->{P} at this size";
    } elsif ($last->{Ea} <= $mach) {
        $who = "**the algorithm** limits it";
    } else {
        $who = "**the machine** limits it";
    }
    my $s = sprintf("%s: at P=%d, E_a = %.2f (the PRAM takes %.1fx the MIRACLE time), "
                  . "E/E_a = %.2f (the real machine takes %.1fx the PRAM time), E = %.2f. ",
                    $who, $last->{P}, $last->{Ea}, $last->{Ea} > 0 ? 1 / $last->{Ea} : 0,
                    $mach, $mach > 0 ? 1 / $mach : 0, $last->{E});
    $s .= ($fa ? "E_a < $ea_t from P=$fa->{P}" : "E_a >= $ea_t at every P predicted") . ', '
        . ($fe ? "E < $e_t from P=$fe->{P}." : "E >= $e_t at every P predicted.");
    for my $t (@{ $scale->{tables} || [] }) {
        my $eff = $t->{kind} eq 'algorithmic' ? "E_a = $t->{efficiency}" : "E = $t->{efficiency}";
        my @P = @{ $t->{P} };
        my @ok = grep { defined $t->{problem}[$_] } 0 .. $#P;
        if (!@ok) {
            $s .= " Holding $eff is not possible at any P in the table on this scaling path.";
            next;
        }
        my ($i0, $i1) = ($ok[0], $ok[-1]);
        $s .= sprintf(" Holding %s needs %s at P=%d", $eff, problem_str($t->{problem}[$i0]), $P[$i0]);
        $s .= sprintf(", %s at P=%d", problem_str($t->{problem}[$i1]), $P[$i1]) if $i1 != $i0;
        my @bad = grep { !defined $t->{problem}[$_] } 0 .. $#P;
        $s .= sprintf(" (unreachable at P=%s)", join(',', map { $P[$_] } @bad)) if @bad;
        $s .= '.';
    }
    return $s;
}

sub index_md {
    my ($outdir, $ginfo_f, @infos) = @_;
    my $g = read_info($ginfo_f);
    my $md = "# perfpred report\n\n";
    $md .= "Generated by `make report` (tools/make-report, see docs/report.md) on host "
         . "`$g->{host}`" . ($g->{commit} ? " at commit `$g->{commit}`" : '') . ", $g->{date}"
         . ($g->{quick} ? ", **quick mode** (PERFPRED_REPORT_QUICK=1)" : '') . ".\n";
    $md .= "Total time: $g->{seconds} s.\n\n" if defined $g->{seconds};
    $md .= "Machine file: [host.machine](host.machine) ($g->{machine_note})"
         . (-e "$outdir/host.txt" ? "; its summary: [host.txt](host.txt)" : '')
         . "; standard error of the calibration and the index: [log.txt](log.txt).\n\n";
    $md .= "Each sample was compiled with the plugin, run once at the reduced size, and "
         . "predicted at 8x that size. E_a = T_MIRACLE/T_PRAM measures the algorithm, "
         . "E = T_MIRACLE/T_real the algorithm on this machine; E/E_a is what the machine "
         . "keeps of E_a.\n\n";

    $md .= "## What limits each sample\n\n";
    my (@sec, @lim, @pages);
    for my $f (@infos) {
        my $i = read_info($f);
        my $n = $i->{name};
        my $d = "$outdir/$n";
        my $rows = read_predict_csv("$d/predict.csv");
        my $scale = read_json("$d/scale.json");
        my $lim = limits($i, $rows, $scale);
        push @lim, "- **[$n](#$n)** ($i->{big}): " . $lim;
        push @pages, { name => $n, big => $i->{big}, src => $i->{src}, limits => $lim,
                       page => -e "$d/index.html", md => -e "$d/report.md" };

        my $s = "## $n\n\n";
        $s .= "`$i->{src}`, run as `$n $i->{args}` ($i->{run_s} s with the recorder); "
            . "predictions at $i->{big}; tables scale $i->{scale}"
            . ($i->{plist_note} ? " (**P list shortened** to $i->{plist}: $i->{plist_note})" : '') . ".\n\n";
        $s .= "$i->{note}\n\n" if $i->{note};
        $s .= "| file | what |\n|---|---|\n";
        my @files = (
            ["$n", 'the program, compiled with the plugin'],
            ["$n.ppr", 'its record (reduced size)'],
            ['run.txt', 'the program\'s output at the reduced size'],
            ['mpi.txt', '`perfpred show` of the MPI run: ranks, call sites, matched messages'],
            ['show.txt', '`perfpred show`: parameters, loops, count rules'],
            ['show.json', '`perfpred show --format json`'],
            ['predict.txt', "`perfpred predict` at $i->{big}, P = $i->{predP}"],
            ['predict.csv', 'the same, CSV'],
            ['predict.json', 'the same, JSON'],
            ['scale.txt', "the page's algorithmic (E_a = $i->{Ea}) and combination (E = $i->{E}) tables as `perfpred scale` writes them, P = $i->{plist}"],
            ['scale.csv', 'the same, CSV'],
            ['scale.json', 'the same, JSON (with problem sizes and latencies)'],
            ['graph-P4.svg', 'thread graph at P = 4 (recorded size)'],
            ['graph-P4.dot', 'the same, DOT'],
            ['latency.svg', 'L_a and L against problem size at fixed E_a, E (Zhang & Xu Figs. 10-14)'],
            ['times.svg', 'predicted time on MIRACLE, PRAM and the real machine against P'],
            ['efficiency.svg', 'E_a and E against P'],
            ['latency-algorithmic.dat', 'points of latency.svg: P, problem size, L_a (ms) from the algorithmic table'],
            ['latency-combination.dat', 'points of latency.svg: P, problem size, L (ms) from the combination table'],
            ['latency.gp', 'gnuplot script of latency.svg (run in this directory)'],
            ['times.gp', 'gnuplot script of times.svg (reads predict.csv)'],
            ['efficiency.gp', 'gnuplot script of efficiency.svg (reads predict.csv)'],
            ['bcast-share.csv', 'share of the time in the pivot broadcast against N and P (Clement & Quinn, Fig. 6)'],
            ['bcast-share.svg', 'the same, plotted'],
            ['index.html', '`perfpred report`: the page on this sample (self-contained HTML)'],
            ['report.md', 'the same page in Markdown (tables as table-*.csv, plots as plot-*.svg beside it)'],
            ['log.txt', 'standard error of every step (perfpred warnings)'],
        );
        for my $fl (@files) {
            next unless -e "$d/$fl->[0]";
            $s .= "| [$fl->[0]]($n/$fl->[0]) | $fl->[1] |\n";
        }
        $s .= "\n### Plots\n\n";
        $s .= "![$n latency]($n/latency.svg)\n![$n times]($n/times.svg)\n"
            . "![$n efficiency]($n/efficiency.svg)\n\n";
        $s .= "![$n broadcast share]($n/bcast-share.svg)\n\n" if -e "$d/bcast-share.svg";
        $s .= "### Predictions at $i->{big}\n\n```\n" . slurp("$d/predict.txt") . "```\n\n";
        $s .= "### Scalability tables\n\n";
        $s .= "P = $i->{plist}; the page (its predictions and these tables) computed in $i->{page_s} s.\n\n"
            if defined $i->{page_s};
        $s .= "**P list shortened** from $i->{plist_full}: $i->{plist_note}.\n\n" if $i->{plist_note};
        $s .= "```\n" . slurp("$d/scale.txt") . "```\n\n";
        $s .= "### Thread graph, P = 4\n\n![$n thread graph]($n/graph-P4.svg)\n\n";
        push @sec, $s;
    }
    $md .= join("\n", @lim) . "\n\n";
    $md .= "Calibration of this host:\n\n```\n" . slurp("$outdir/host.txt") . "```\n\n"
        if -s "$outdir/host.txt";
    $md .= join('', @sec);
    spew("$outdir/index.md", $md);
    index_html($outdir, $g, \@pages);
    return 0;
}

sub html_esc {
    my ($s) = @_;
    $s =~ s/&/&amp;/g;
    $s =~ s/</&lt;/g;
    $s =~ s/>/&gt;/g;
    $s =~ s/"/&quot;/g;
    return $s;
}

# Markdown's **bold** and `code` of the limits line, escaped
sub md_inline {
    my $s = html_esc($_[0]);
    $s =~ s/\*\*(.+?)\*\*/<strong>$1<\/strong>/g;
    $s =~ s/`([^`]+)`/<code>$1<\/code>/g;
    return $s;
}

# index.html: one line per sample with its page, what limits it, and the
# files of the run
sub index_html {
    my ($outdir, $g, $pages) = @_;
    my $h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          . "<link rel=\"icon\" href=\"data:,\">\n<title>perfpred report</title>\n<style>\n"
          . "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45;color:#222;"
          . "margin:0 auto;max-width:1180px;padding:0 24px 40px}\n"
          . "h1{font-size:26px;margin:28px 0 6px}table{border-collapse:collapse;margin:12px 0}\n"
          . "th,td{border:1px solid #c9d1dc;padding:5px 10px;vertical-align:top}th{background:#e8eef6;text-align:left}\n"
          . "a{color:#2b6cb0}code{background:#f1f3f6;padding:0 3px;border-radius:3px}.sub{color:#555}\n"
          . "</style>\n</head>\n<body>\n<h1>perfpred report</h1>\n";
    $h .= "<p class=\"sub\">Written by <code>make report</code> (tools/make-report; docs/report.md) on host <code>"
        . html_esc($g->{host}) . "</code>" . ($g->{commit} ? " at commit <code>" . html_esc($g->{commit}) . "</code>" : '')
        . ", " . html_esc($g->{date}) . ($g->{quick} ? ", <strong>quick mode</strong>" : '')
        . (defined $g->{seconds} ? ", in $g->{seconds} s" : '') . ".</p>\n";
    $h .= "<p>Each sample was compiled with the plugin, run once at a reduced size and predicted at 8 times it; "
        . "its page (one self-contained HTML file) has the predictions, the plots, the scalability tables, the "
        . "sensitivity, the thread graph, the symbolic equations and the model's quality. Machine file: <a href=\"host.machine\">host.machine</a> ("
        . html_esc($g->{machine_note} // '') . "); the same summary in Markdown with every file: "
        . "<a href=\"index.md\">index.md</a>.</p>\n";
    $h .= "<table>\n<thead><tr><th>sample</th><th>predicted at</th><th>what limits it</th><th>files</th></tr></thead>\n<tbody>\n";
    for my $p (@$pages) {
        my $n = html_esc($p->{name});
        my $name = $p->{page} ? "<a href=\"$n/index.html\"><strong>$n</strong></a>" : "<strong>$n</strong>";
        my @f;
        push @f, "<a href=\"$n/index.html\">page</a>" if $p->{page};
        push @f, "<a href=\"$n/report.md\">Markdown</a>" if $p->{md};
        push @f, "<a href=\"$n/\">all files</a>";
        $h .= "<tr><td>$name<br><code>" . html_esc($p->{src}) . "</code></td><td>" . html_esc($p->{big})
            . "</td><td>" . md_inline($p->{limits}) . "</td><td>" . join('<br>', @f) . "</td></tr>\n";
    }
    $h .= "</tbody>\n</table>\n</body>\n</html>\n";
    spew("$outdir/index.html", $h);
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'plots' && @ARGV == 3) { exit plots(@ARGV) }
if ($cmd eq 'index' && @ARGV >= 2) { exit index_md(@ARGV) }
die "usage: report-helper.pl plots DIR NAME INFO | index OUTDIR GLOBAL_INFO SAMPLE_INFO...\n";
