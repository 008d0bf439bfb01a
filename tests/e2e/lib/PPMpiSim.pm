# PPMpiSim.pm - the MPI tests' interpreter of descriptors: parse the
# descriptor text the plugin prints (-fplugin-arg-perfpred-verbose),
# "execute" it for one rank of P (loop counts, guards, induction
# variables, calls into other described functions) and compare what it
# gives with a rank's record: every loop's entries and iterations, every
# site's executions, and the rank's sequence of MPI calls with their peers,
# tags, roots and bytes.  Used by 81-mpi-samples.t (Open MPI) and
# 85-mpich.t (MPICH).  Records are read with tests/runtime/ppr.pl, which
# the test script requires (its subs are in package main).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
package PPMpiSim;
use strict;
use warnings;
use POSIX qw(floor ceil);
use Exporter 'import';
our @EXPORT_OK = qw(sx_eval prog_of_text main_env check_rank calls_of expected_fields mpi_consts type_bytes);

# ------------------------------------------------------------ expressions
# docs/descriptor-format.md, "Expressions": parse into nested arrays,
# evaluate with C integer semantics; an atom the environment does not
# give ((load), (call f), ?) dies.
sub sx_parse {
    my ($s) = @_;
    my @t = $s =~ /\(|\)|[^\s()]+/g;
    my $i = 0;
    my $rd;
    $rd = sub {
        my $x = $t[$i++] // die "expression ends early: $s\n";
        return $x if $x ne '(';
        my @l;
        while (($t[$i] // die "unbalanced: $s\n") ne ')') { push @l, $rd->() }
        $i++;
        return \@l;
    };
    my $e = $rd->();
    die "trailing text: $s\n" if $i != @t;
    return $e;
}

sub tdiv { my ($a, $b) = @_; die "division by zero\n" if $b == 0; my $q = $a / $b; return $q < 0 ? ceil($q) : floor($q) }

my %OPS = (
    '+'  => sub { my $s = 0; $s += $_ for @_; $s },
    '*'  => sub { my $p = 1; $p *= $_ for @_; $p },
    '-'  => sub { $_[0] - $_[1] },
    neg  => sub { -$_[0] },
    div  => sub { tdiv($_[0], $_[1]) },
    mod  => sub { $_[0] - $_[1] * tdiv($_[0], $_[1]) },
    fdiv => sub { die "division by zero\n" if $_[1] == 0; floor($_[0] / $_[1]) },
    cdiv => sub { die "division by zero\n" if $_[1] == 0; ceil($_[0] / $_[1]) },
    min  => sub { my $m = shift; for (@_) { $m = $_ if $_ < $m } $m },
    max  => sub { my $m = shift; for (@_) { $m = $_ if $_ > $m } $m },
    shl  => sub { $_[0] * 2**$_[1] },
    shr  => sub { floor($_[0] / 2**$_[1]) },
    lt   => sub { $_[0] < $_[1] ? 1 : 0 },  le => sub { $_[0] <= $_[1] ? 1 : 0 },
    gt   => sub { $_[0] > $_[1] ? 1 : 0 },  ge => sub { $_[0] >= $_[1] ? 1 : 0 },
    eq   => sub { $_[0] == $_[1] ? 1 : 0 }, ne => sub { $_[0] != $_[1] ? 1 : 0 },
    and  => sub { $_[0] && $_[1] ? 1 : 0 }, or => sub { $_[0] || $_[1] ? 1 : 0 },
    not  => sub { $_[0] ? 0 : 1 },
);

# ENV: {rank, nprocs, var => {NAME => v}, arg => {NAME => v}, iv => {L => v}}
sub sx_eval {
    my ($e, $env) = @_;
    die "no value\n" unless defined $e;
    $e = sx_parse($e) unless ref $e;
    if (!ref $e) {
        die "unknown value $e\n" unless $e =~ /^-?\d+$/;
        return $e;
    }
    my ($op, @a) = @$e;
    die "unknown value\n" if ref $op;
    return $env->{rank}   if $op eq 'rank';
    return $env->{nprocs} if $op eq 'nprocs';
    if ($op eq 'var' || $op eq 'arg' || $op eq 'iv') {
        my $v = $env->{$op}{$a[0]};
        die "($op $a[0]) unknown\n" unless defined $v;
        return $v;
    }
    if ($op eq 'cond') { return sx_eval($a[0], $env) ? sx_eval($a[1], $env) : sx_eval($a[2], $env) }
    my $f = $OPS{$op} or die "($op ...) cannot be evaluated\n";
    return $f->(map { sx_eval($_, $env) } @a);
}

# ------------------------------------------------------------ descriptors
# A function's descriptor text: its lines by kind and id, and the items
# (loops, events, calls) of each scope ('-' or a loop id) in pos order.
sub desc_parse {
    my ($text) = @_;
    my %d = (loops => {}, branches => {}, events => {}, calls => {}, items => {}, params => {});
    for my $l (split /\n/, $text) {
        my ($kw, $rest) = $l =~ /^(\w+) (.*)$/ or next;
        my $kv = main::ppr_kv($rest);
        if ($kw eq 'func')   { $d{name} = $kv->{name}; $d{args} = [($kv->{args} // '()') =~ /([^\s()]+)/g] }
        elsif ($kw eq 'param')  { $d{params}{$kv->{id}} = $kv->{name} }
        elsif ($kw eq 'branch') { $d{branches}{$kv->{id}} = $kv }
        elsif ($kw eq 'loop' || $kw eq 'event' || $kw eq 'call') {
            $d{"${kw}s"}{$kv->{id}} = $kv;
            my $scope = $kw eq 'loop' ? $kv->{parent} : $kv->{loop};
            push @{ $d{items}{$scope} }, [$kw, $kv];
        }
    }
    for my $s (values %{ $d{items} }) { @$s = sort { $a->[1]{pos} <=> $b->[1]{pos} } @$s }
    return \%d;
}

# Does the site run in ENV: its guard branch, and that branch's guard, ...
# Dies when a condition cannot be evaluated.
sub guard_ok {
    my ($d, $g, $env) = @_;
    return 1 unless defined $g;
    my ($b, $tf) = $g =~ /^\((\d+) ([TF])\)$/ or die "bad guard $g\n";
    my $br = $d->{branches}{$b} or die "guard names no branch $b\n";
    return 0 if (sx_eval($br->{cond}, $env) ? 'T' : 'F') ne $tf;
    return guard_ok($d, $br->{guard}, $env);
}

# The message-passing and collective kinds, compared call by call.
my %MSG = map { $_ => 1 } qw(send recv isend irecv sendrecv bcast reduce allreduce gather scatter
                             allgather alltoall mpi_barrier waitall wait);

# Execute function FN of PROG (name => parsed descriptor) as its
# descriptors say, in ENV, into ACC:
#   loop    => {"fn:id" => [entries, iterations]}
#   site    => {"fn:event:id" / "fn:call:id" => executions}
#   seq     => [[fn, event kv, env], ...]  the MPI calls in order
#   unknown => {"fn:kind:id" => why}        not evaluable: left out
sub simulate {
    my ($prog, $fn, $env, $acc) = @_;
    my $d = $prog->{$fn} or return;
    my ($scope, $lost);
    $lost = sub {    # the items of a scope that cannot be followed
        my ($sid, $why) = @_;
        for my $it (@{ $d->{items}{$sid} || [] }) {
            $acc->{unknown}{"$fn:$it->[0]:$it->[1]{id}"} //= $why;
            $lost->($it->[1]{id}, $why) if $it->[0] eq 'loop';
        }
    };
    $scope = sub {
        my ($sid, $env) = @_;
        for my $it (@{ $d->{items}{$sid} || [] }) {
            my ($kind, $kv) = @$it;
            my $key = "$fn:$kind:$kv->{id}";
            my $g = eval { guard_ok($d, $kv->{guard}, $env) };
            if (!defined $g) {
                chomp(my $why = "guard: $@");
                $acc->{unknown}{$key} //= $why;
                $lost->($kv->{id}, $why) if $kind eq 'loop';
                next;
            }
            next unless $g;
            if ($kind eq 'loop') {
                my $n = eval { sx_eval($kv->{count} // '?', $env) };
                if (!defined $n) { $acc->{unknown}{$key} //= 'count'; $lost->($kv->{id}, 'count'); next }
                $acc->{loop}{"$fn:$kv->{id}"}[0]++;
                $acc->{loop}{"$fn:$kv->{id}"}[1] += $n;
                next unless $d->{items}{ $kv->{id} };
                my ($init, $step) = eval { (sx_eval($kv->{init}, $env), sx_eval($kv->{step}, $env)) };
                if (!defined $step) { $lost->($kv->{id}, 'iv'); next }
                for my $j (0 .. $n - 1) {
                    $scope->($kv->{id}, { %$env, iv => { %{ $env->{iv} }, $kv->{id} => $init + $j * $step } });
                }
            } elsif ($kind eq 'event') {
                $acc->{site}{$key}++;
                push @{ $acc->{seq} }, [$fn, $kv, $env] if $MSG{ $kv->{kind} };
            } else {
                $acc->{site}{$key}++;
                my $c = $prog->{ $kv->{callee} } or next;
                my @vals = ($kv->{args} // '()') =~ /^\((.*)\)$/ ? split_args($1) : ();
                my %arg;
                for my $k (0 .. $#{ $c->{args} }) {
                    my $v = eval { sx_eval($vals[$k] // '?', $env) };
                    $arg{ $c->{args}[$k] } = $v if defined $v;
                }
                simulate($prog, $kv->{callee}, { %$env, arg => \%arg, iv => {}, var => {} }, $acc);
            }
        }
    };
    $scope->('-', $env);
}

# "(a (b c)) d" -> top-level operands
sub split_args {
    my ($s) = @_;
    my (@a, $cur, $depth);
    ($cur, $depth) = ('', 0);
    for my $ch (split //, $s) {
        if ($ch eq ' ' && $depth == 0) { push @a, $cur if length $cur; $cur = ''; next }
        $depth++ if $ch eq '(';
        $depth-- if $ch eq ')';
        $cur .= $ch;
    }
    push @a, $cur if length $cur;
    return @a;
}

# Bytes of one element of a datatype as the descriptors name it: Open
# MPI's ompi_mpi_* globals, MPICH's builtin handles (0x4c000000 | size << 8
# | index, mpi.h).
my %TSIZE = (ompi_mpi_double => 8, ompi_mpi_long => 8, ompi_mpi_int => 4, ompi_mpi_long_long_int => 8);
sub type_bytes {
    my ($t) = @_;
    return $TSIZE{$t} if defined $TSIZE{$t};
    if ($t =~ /^0x([0-9a-f]+)$/i) {
        my $h = hex $1;
        return ($h >> 8) & 0xff if ($h & 0xfc000000) == 0x4c000000 && ($h >> 8) & 0xff;
    }
    die "type $t\n";
}

# The special ranks and tag of the MPI a record was made with (its mpi
# line); a record without them, or none, is Open MPI's.
sub mpi_consts {
    my ($r) = @_;
    my $m = ($r && $r->{mpi}) || {};
    return { any_source => $m->{any_source} // -1, proc_null => $m->{proc_null} // -2,
             any_tag => $m->{any_tag} // -1 };
}

# The fields the runtime records for the MPI call of event KV in ENV, with
# the MPI constants C (mpi_consts).  A receive records what arrived: from
# MPI_PROC_NULL no source, any tag, 0 bytes; from MPI_ANY_SOURCE (with
# MPI_ANY_TAG) the sender (and tag), which the descriptors do not say.
sub expected_fields {
    my ($kv, $env, $c) = @_;
    $c //= mpi_consts();
    my %x = (site => $kv->{id}, kind => $kv->{kind});
    my $bytes = sub { my ($n, $t) = @_; sx_eval($kv->{$n}, $env) * type_bytes($kv->{$t}) };
    my $received = sub {    # the receive half: keys of peer, tag, bytes
        my ($p, $t, $b) = @_;
        if ($x{$p} == $c->{proc_null}) { @x{$t, $b} = ($c->{any_tag}, 0); return }
        delete $x{$p} if $x{$p} == $c->{any_source};
        delete $x{$t} if $x{$t} == $c->{any_tag};
    };
    my $k = $kv->{kind};
    if ($k eq 'waitall') { $x{count} = sx_eval($kv->{count}, $env) }
    elsif ($k =~ /^(send|recv|isend|irecv|sendrecv)$/) {
        @x{qw(peer tag bytes)} = (sx_eval($kv->{peer}, $env), sx_eval($kv->{tag}, $env), $bytes->('count', 'type'));
        $received->(qw(peer tag bytes)) if $k eq 'recv';
        if ($k eq 'sendrecv') {
            @x{qw(rpeer rtag rbytes)} = (sx_eval($kv->{rpeer}, $env), sx_eval($kv->{rtag}, $env), $bytes->('rcount', 'rtype'));
            $received->(qw(rpeer rtag rbytes));
        }
    } elsif ($k =~ /^(bcast|reduce|allreduce|gather|scatter|allgather|alltoall)$/) {
        $x{bytes} = $bytes->('count', 'type');
        $x{root} = sx_eval($kv->{root}, $env) if defined $kv->{root};
    }
    return \%x;
}

# Parse the plugin's verbose output (the descriptor texts) into PROG.
sub prog_of_text {
    my ($text) = @_;
    my %prog;
    while ($text =~ /^(func .*?^end)$/msg) {
        my $d = desc_parse($1);
        $prog{ $d->{name} } = $d;
    }
    return \%prog;
}

# The environment of main on rank K of P from a record R (its parameter
# values), or from VARS when there is no record.
sub main_env {
    my ($prog, $k, $np, $r, %vars) = @_;
    if ($r) {
        my $f = main::ppr_func($r, 'main');
        for my $p (@{ $r->{params} }) {
            next unless $p->{func} == $f;
            $vars{ $prog->{main}{params}{ $p->{id} } } = $p->{value};
        }
    }
    return { rank => $k, nprocs => $np, var => \%vars, arg => {}, iv => {} };
}

# Compare one rank's record with the interpreter's execution of the
# descriptors: loops, sites, and the MPI calls in order.  Returns a list
# of differences (empty: all equal) and the number of things compared.
sub check_rank {
    my ($prog, $r, $k, $np) = @_;
    my $acc = { loop => {}, site => {}, seq => [], unknown => {} };
    simulate($prog, 'main', main_env($prog, $k, $np, $r), $acc);
    my (@diff, $n);
    for my $fn (sort keys %$prog) {
        my $d = $prog->{$fn};
        my $fi = main::ppr_func($r, $fn) // next;
        my $c = $r->{threads}{0}{counts}{$fi} // [];
        for my $l (values %{ $d->{loops} }) {
            next if ($l->{count} // '?') eq '?' || $acc->{unknown}{"$fn:loop:$l->{id}"};
            my ($e, $i) = @{ $acc->{loop}{"$fn:$l->{id}"} // [0, 0] };
            my ($h, $re) = ($c->[ $l->{slot} ] // 0, $c->[ $l->{slot} + 1 ] // 0);
            my $ri = $l->{shape} eq 'bottom' ? $h : $h - $re;
            $n++;
            push @diff, "$fn loop $l->{id} (line $l->{line}): entries $re, iterations $ri; descriptors $e, $i"
                if $e != $re || $i != $ri;
        }
        for my $kind ('event', 'call') {
            for my $s (values %{ $d->{"${kind}s"} }) {
                next if ($s->{kind} // '') eq 'mpi_other' || $acc->{unknown}{"$fn:$kind:$s->{id}"};
                my $want = $acc->{site}{"$fn:$kind:$s->{id}"} // 0;
                my $got = $c->[ $s->{slot} ] // 0;
                $n++;
                push @diff, "$fn $kind $s->{id} (line $s->{line}): $got executions; descriptors $want" if $got != $want;
            }
        }
    }
    # every MPI call site that communicates, and every counted loop, was followed
    for my $u (sort keys %{ $acc->{unknown} }) {
        my ($fn, $kind, $id) = split /:/, $u;
        my $kv = $prog->{$fn}{"${kind}s"}{$id};
        push @diff, "$u not followed ($acc->{unknown}{$u})"
            if ($kind eq 'event' && $MSG{ $kv->{kind} }) || ($kind eq 'loop' && ($kv->{count} // '?') ne '?');
    }
    my @got = grep { $MSG{ $_->{kind} } } @{ $r->{threads}{0}{evs} };
    my $c = mpi_consts($r);
    my @want = map { my $x = eval { expected_fields($_->[1], $_->[2], $c) }; $x // { site => $_->[1]{id}, error => $@ } } @{ $acc->{seq} };
    push @diff, scalar(@got) . " MPI calls recorded, " . scalar(@want) . " from the descriptors" if @got != @want;
    for my $j (0 .. ($#got < $#want ? $#got : $#want)) {
        my ($g, $w) = ($got[$j], $want[$j]);
        $n++;
        my @bad = grep { !defined $g->{$_} || $g->{$_} ne $w->{$_} } sort keys %$w;
        next unless @bad;
        push @diff, "MPI call $j: recorded " . join(' ', map { "$_=" . ($g->{$_} // 'none') } @bad)
            . "; descriptors " . join(' ', map { "$_=$w->{$_}" } @bad);
        last if @diff > 10;
    }
    return (\@diff, $n);
}

# every rank's MPI calls (the interpreter's sequence) for P ranks, with
# Open MPI's constants
sub calls_of {
    my ($prog, $np) = @_;
    my @per;
    for my $k (0 .. $np - 1) {
        my $acc = { loop => {}, site => {}, seq => [], unknown => {} };
        simulate($prog, 'main', main_env($prog, $k, $np, undef), $acc);
        push @per, [map { expected_fields($_->[1], $_->[2]) } @{ $acc->{seq} }];
    }
    return @per;
}

1;
