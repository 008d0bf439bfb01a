# ppr.pl - read a perfpred record (docs/record-format.md) and check its
# invariants; used by tests/e2e/20-runtime.t.  Independent of the analyser's
# reader on purpose: a second implementation of the format.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;

# "k=v k=(a (b c)) k=\"x y\"" -> list of [key, value]
sub ppr_fields {
    my ($s) = @_;
    my @f;
    my $i = 0;
    my $n = length $s;
    while ($i < $n) {
        $i++ while $i < $n && substr($s, $i, 1) eq ' ';
        last if $i >= $n;
        my $start = $i;
        my ($depth, $inq) = (0, 0);
        while ($i < $n) {
            my $c = substr($s, $i, 1);
            if ($inq) {
                if ($c eq '\\') { $i++ }
                elsif ($c eq '"') { $inq = 0 }
            } elsif ($c eq '"') { $inq = 1 }
            elsif ($c eq '(') { $depth++ }
            elsif ($c eq ')') { $depth-- }
            elsif ($c eq ' ' && $depth == 0) { last }
            $i++;
        }
        my $tok = substr($s, $start, $i - $start);
        if ($tok =~ /^([^=]+)=(.*)$/s) { push @f, [$1, $2] } else { push @f, [$tok, undef] }
    }
    return @f;
}

sub ppr_kv { my %h = map { $_->[0] => $_->[1] } grep { defined $_->[1] } ppr_fields($_[0]); return \%h }

# "((F S D) ...)" -> list of [F, S, D]
sub ppr_deltas {
    my ($v) = @_;
    my @d;
    while ($v =~ /\((-?\d+) (\d+) (\d+)\)/g) { push @d, [$1, $2, $3] }
    return @d;
}

# Parse a record file into a hash:
#   funcs => [ {idx, name, nslots, text, events => {id => kind}} ]
#   threads => { id => {kv..., evs => [...], tail => {...}, counts => {func => [..]}} }
#   params, gparams, end => {events, threads}, lines => [...], errors => [...]
sub ppr_read {
    my ($path) = @_;
    my %r = (funcs => [], threads => {}, params => [], gparams => [], evs => [], errors => []);
    open my $fh, '<', $path or do { push @{$r{errors}}, "cannot open $path: $!"; return \%r };
    my @lines = <$fh>;
    close $fh;
    chomp @lines;
    $r{lines} = \@lines;
    push @{$r{errors}}, "first line is not 'perfpred-record 1'" unless @lines && $lines[0] eq 'perfpred-record 1';
    my $i = 1;
    while ($i < @lines) {
        my $l = $lines[$i];
        my ($kw, $rest) = $l =~ /^(\S+)\s*(.*)$/;
        $kw //= '';
        if ($kw eq 'func' && $rest =~ /^idx=(\d+)$/) {
            my $f = { idx => $1, text => '', events => {} };
            $i++;
            while ($i < @lines && $lines[$i] ne 'end') {
                my $dl = $lines[$i];
                $f->{text} .= "$dl\n";
                if ($dl =~ /^func (.*)/) { my $kv = ppr_kv($1); $f->{name} = $kv->{name}; $f->{nslots} = $kv->{nslots} }
                if ($dl =~ /^event (.*)/) { my $kv = ppr_kv($1); $f->{events}{$kv->{id}} = $kv->{kind} }
                $i++;
            }
            push @{$r{errors}}, "func idx=$f->{idx}: expected idx " . scalar(@{$r{funcs}})
                unless $f->{idx} == @{$r{funcs}};
            push @{$r{funcs}}, $f;
        } elsif ($kw eq 'program' || $kw eq 'argv' || $kw eq 'env') {
            $r{$kw} = $rest if $kw ne 'env';
            push @{$r{env}}, $rest if $kw eq 'env';
        } elsif ($kw eq 'mpi') {
            $r{mpi} = ppr_kv($rest);
        } elsif ($kw eq 'gparam') {
            push @{$r{gparams}}, ppr_kv($rest);
        } elsif ($kw eq 'param') {
            push @{$r{params}}, ppr_kv($rest);
        } elsif ($kw eq 'thread') {
            my $kv = ppr_kv($rest);
            push @{$r{errors}}, "thread $kv->{id} described twice" if $r{threads}{$kv->{id}};
            $kv->{evs} = [];
            $kv->{counts} = {};
            $r{threads}{$kv->{id}} = $kv;
        } elsif ($kw eq 'count') {
            my $kv = ppr_kv($rest);
            my $t = $r{threads}{$kv->{thread}} or do { push @{$r{errors}}, "count of unknown thread"; $i++; next };
            my ($vals) = $kv->{slots} =~ /^\((.*)\)$/;
            $t->{counts}{$kv->{func}} = [split / /, $vals // ''];
        } elsif ($kw eq 'ev') {
            my $kv = ppr_kv($rest);
            $kv->{d} = [ppr_deltas($kv->{delta} // '')];
            my $t = $r{threads}{$kv->{thread}} or do { push @{$r{errors}}, "ev of unknown thread"; $i++; next };
            push @{$t->{evs}}, $kv;
            push @{$r{evs}}, $kv;
        } elsif ($kw eq 'tail') {
            my $kv = ppr_kv($rest);
            $kv->{d} = [ppr_deltas($kv->{delta} // '')];
            my $t = $r{threads}{$kv->{thread}} or do { push @{$r{errors}}, "tail of unknown thread"; $i++; next };
            push @{$r{errors}}, "two tails for thread $kv->{thread}" if $t->{tail};
            $t->{tail} = $kv;
        } elsif ($kw eq 'end') {
            $r{end} = ppr_kv($rest);
            push @{$r{errors}}, "'end' is not the last line" unless $i == $#lines;
        }
        $i++;
    }
    push @{$r{errors}}, "no end line (truncated)" unless $r{end};
    return \%r;
}

# The invariants of docs/record-format.md; returns a list of messages.
sub ppr_check {
    my ($r) = @_;
    my @e = @{$r->{errors}};
    my $nf = @{$r->{funcs}};
    my @tids = sort { $a <=> $b } keys %{$r->{threads}};
    for my $k (0 .. $#tids) { push @e, "thread ids not 0..M-1" and last if $tids[$k] != $k }
    if ($r->{end}) {
        push @e, "end events=$r->{end}{events} but " . scalar(@{$r->{evs}}) . " ev lines"
            unless $r->{end}{events} == @{$r->{evs}};
        push @e, "end threads=$r->{end}{threads} but " . scalar(@tids) . " thread lines"
            unless $r->{end}{threads} == @tids;
    }
    my $fn_ok = sub { my $f = shift; $f =~ /^\d+$/ && $f < $nf };
    for my $id (@tids) {
        my $t = $r->{threads}{$id};
        push @e, "thread $id: parent $t->{parent} unknown"
            if $t->{parent} ne '-' && !$r->{threads}{$t->{parent}};
        if (defined $t->{site}) {
            my ($sf, $ss) = $t->{site} =~ /^\((\d+) (\d+)\)$/ or push @e, "thread $id: bad site";
            push @e, "thread $id: site func $sf unknown" if defined $sf && !$fn_ok->($sf);
        }
        push @e, "thread $id: start > end" if $t->{start} > $t->{end};
        push @e, "thread $id: no tail" unless $t->{tail};
        my %sum;
        my ($prev, $n) = (-1, 0);
        for my $ev (@{$t->{evs}}) {
            push @e, "thread $id: ev n=$ev->{n}, expected $n" if $ev->{n} != $n;
            push @e, "thread $id ev $n: t0 decreases" if $ev->{t0} < $prev;
            push @e, "thread $id ev $n: t1 < t0" if $ev->{t1} < $ev->{t0};
            push @e, "thread $id ev $n: before thread start" if $ev->{t0} < $t->{start};
            push @e, "thread $id ev $n: after thread end" if $ev->{t1} > $t->{end};
            if ($ev->{func} ne '-') {
                if (!$fn_ok->($ev->{func})) { push @e, "thread $id ev $n: unknown func" }
                elsif (!exists $r->{funcs}[$ev->{func}]{events}{$ev->{site}}) {
                    push @e, "thread $id ev $n: site $ev->{site} not an event of func $ev->{func}";
                }
            }
            push @e, "thread $id ev $n: unknown child" if defined $ev->{child} && !$r->{threads}{$ev->{child}};
            $prev = $ev->{t0};
            $n++;
            $sum{"$_->[0] $_->[1]"} += $_->[2] for @{$ev->{d}};
        }
        if ($t->{tail}) {
            $sum{"$_->[0] $_->[1]"} += $_->[2] for @{$t->{tail}{d}};
            push @e, "thread $id: tail t != end" if $t->{tail}{t} != $t->{end};
            push @e, "thread $id: tail before last event" if $t->{tail}{t} < $prev;
        }
        for my $f (keys %{$t->{counts}}) {
            my $c = $t->{counts}{$f};
            if (!$fn_ok->($f)) { push @e, "thread $id: count of unknown func $f"; next }
            push @e, "thread $id func $f: " . scalar(@$c) . " slots, nslots=$r->{funcs}[$f]{nslots}"
                if @$c != $r->{funcs}[$f]{nslots};
            push @e, "thread $id func $f: slot 0 is $c->[0], not 1" if $c->[0] != 1;
            for my $s (0 .. $#$c) {
                my $got = delete($sum{"$f $s"}) // 0;
                push @e, "thread $id func $f slot $s: deltas sum to $got, count is $c->[$s]" if $got != $c->[$s];
            }
        }
        push @e, "thread $id: deltas without count line: " . join(',', sort keys %sum) if %sum;
    }
    for my $p (@{$r->{params}}) { push @e, "param of unknown func $p->{func}" unless $fn_ok->($p->{func}) }
    return @e;
}

# index of the function named NAME, or undef
sub ppr_func {
    my ($r, $name) = @_;
    for my $f (@{$r->{funcs}}) { return $f->{idx} if defined $f->{name} && $f->{name} eq $name }
    return undef;
}

1;
