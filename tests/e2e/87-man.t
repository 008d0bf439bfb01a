#!/usr/bin/perl
# 87-man.t - every command has --help and a man page: the pages in
# docs/man are what tools/md2man makes from docs/commands.md now, one per
# command `perfpred --help` lists and one per other program of the
# toolchain (perfpred-gcc, perfpred-mpibench: every program the build
# makes), and no other; groff formats each without a
# warning, and each page names every option its command's --help shows
# (and each --help every option docs/commands.md gives its command)
# (perfpred-gcc's: every option and variable its sources read).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
plan skip_all => "$B/perfpred is not built (make all)" unless -x "$B/perfpred";
my $TMP = tempdir('pp-man-XXXXXX', TMPDIR => 1, CLEANUP => 1);

my $help = `$B/perfpred --help`;
is($?, 0, 'perfpred --help: exit 0');
my @cmds = $help =~ /^  ([a-z][a-z-]*)  /mg;
ok(@cmds >= 8, 'perfpred --help lists the commands: ' . join(' ', @cmds));

# up to date with docs/commands.md
is(system("tools/md2man docs/commands.md analysis/main.c $TMP/man"), 0, 'tools/md2man runs');
for my $f (sort glob("$TMP/man/*.1")) {
    (my $name = $f) =~ s{.*/}{};
    is(system("cmp -s $f docs/man/$name"), 0, "docs/man/$name is what docs/commands.md makes (run make man)");
}
my %made = map { s{.*/}{}r => 1 } glob("$TMP/man/*.1");
for my $f (glob('docs/man/*.1')) {
    (my $name = $f) =~ s{.*/}{};
    ok($made{$name}, "docs/man/$name comes from docs/commands.md");
}

my $groff = system('command -v groff >/dev/null 2>&1') == 0;
for my $c ('', @cmds) {
    my $page = $c eq '' ? 'docs/man/perfpred.1' : "docs/man/perfpred-$c.1";
    ok(-e $page, "$page exists") or next;
    my $usage = '';
    if ($c ne '') {
        $usage = `$B/perfpred $c --help 2>&1`;
        is($? >> 8, 0, "perfpred $c --help: exit 0");
        like($usage, qr/^usage: perfpred \Q$c\E/m, "perfpred $c --help prints its usage");
    }
    SKIP: {
        skip 'groff is not installed (apt-get install groff-base)', 2 unless $groff;
        my $warn = `groff -t -man -Tutf8 -ww -z $page 2>&1`;
        # a long table cell that cannot be justified is layout, not an error
        $warn = join '', grep { !/cannot adjust line|can't break line/ } split /^/, $warn;
        is($warn, '', "$page: groff formats it without warnings");
        my $text = `groff -t -man -Tascii -P-cbou $page 2>/dev/null`;
        $text =~ s/-\n\s+//g;   # hyphenated at a line's end
        my @opts = $usage =~ /(--[a-z][a-z-]*)/g;
        my @missing = grep { index($text, $_) < 0 } do { my %s; grep { !$s{$_}++ } @opts };
        is("@missing", '', "$page names every option of perfpred $c --help");
    }
}
# the other way round: every option a command's section of docs/commands.md
# gives it (its synopsis, the first column of its option tables, the list
# items that start with an option) is in its --help, so that --help does
# not hide an option the manual documents
my (%doc, $sec, $inblock, $nblock);
open my $cmdmd, '<', 'docs/commands.md' or die "docs/commands.md: $!";
while (<$cmdmd>) {
    if (/^## perfpred (\S+)/) { ($sec, $inblock, $nblock) = ($1, 0, 0); next }
    if (/^## /) { $sec = undef; next }
    next unless defined $sec;
    if (/^```/) { $inblock = !$inblock; $nblock++ if $inblock; next }
    my $where = '';
    if ($inblock && $nblock == 1) { $where = $_ }                                   # the synopsis
    elsif (!$inblock && /^\| ((?:[^|\\]|\\.)*)\|/ && substr($1, 0, 3) eq '`--') { $where = $1 } # a table's first cell
    elsif (!$inblock && /^- `--/) { $where = $_ }                                   # a list item
    $doc{$sec}{$_} = 1 for $where =~ /(--[a-z][a-z-]*)/g;
}
close $cmdmd;
for my $c (@cmds) {
    ok($doc{$c} && %{ $doc{$c} }, "docs/commands.md has a section 'perfpred $c' with its options") or next;
    my $usage = `$B/perfpred $c --help 2>&1`;
    my @hidden = grep { index($usage, $_) < 0 } sort keys %{ $doc{$c} };
    is("@hidden", '', "perfpred $c --help names every option docs/commands.md gives it");
}

# the pages of the toolchain's other programs (perfpred-gcc): groff formats
# them, and each names every --perfpred-* option and PERFPRED_* variable
# its sources (wrapper/) read
my %cmdpage = map { ("perfpred-$_.1" => 1) } @cmds;
for my $page (grep { !m{/perfpred\.1$} && !$cmdpage{ s{.*/}{}r } } sort glob('docs/man/*.1')) {
    (my $tool = $page) =~ s{.*/(.*)\.1$}{$1};
    my %srcs = ('perfpred-gcc' => 'wrapper/*.c', 'perfpred-mpibench' => 'analysis/mpibench/*.c');
    my $src = $srcs{$tool} ? join('', map { local (@ARGV, $/) = ($_); <> } glob($srcs{$tool})) : '';
    ok($src ne '', "$page: the sources of $tool are known to this test") or next;
    if ($tool ne 'perfpred-gcc' && -x "$B/$tool") {
        my $usage = `$B/$tool --help 2>&1`;
        is($? >> 8, 0, "$tool --help: exit 0");
        like($usage, qr/^usage: \Q$tool\E/m, "$tool --help prints its usage");
    }
    SKIP: {
        skip 'groff is not installed (apt-get install groff-base)', 2 unless $groff;
        my $warn = `groff -t -man -Tutf8 -ww -z $page 2>&1`;
        $warn = join '', grep { !/cannot adjust line|can't break line/ } split /^/, $warn;
        is($warn, '', "$page: groff formats it without warnings");
        my $text = `groff -t -man -Tascii -P-cbou $page 2>/dev/null`;
        $text =~ s/-\n\s+//g;
        my %seen;
        my @names = grep { !$seen{$_}++ } ($tool eq 'perfpred-gcc' ? $src =~ /"(--perfpred-[a-z-]+|PERFPRED_[A-Z_]+)"/g
                                                                    : $src =~ /"(--[a-z][a-z0-9-]*)"/g);
        my @missing = grep { index($text, $_) < 0 } @names;
        ok(@names >= ($tool eq 'perfpred-gcc' ? 5 : 1) && "@missing" eq '',
           "$page names every option and variable of $tool (@names)")
            or diag("missing: @missing");
    }
}
# every program the build makes for users (what `make install` puts in
# bin, perfpred-g++ being perfpred-gcc's other name) has a page
for my $prog (grep { -f $_ && -x _ } glob("$B/perfpred-*")) {
    (my $name = $prog) =~ s{.*/}{};
    next if $name !~ /^perfpred-[a-z]+$/;
    ok(-e "docs/man/$name.1", "$name, which the build makes, has a page (docs/man/$name.1)");
}
done_testing();
