# PPCheck.pm - checks shared by the end-to-end tests.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
package PPCheck;
use strict;
use warnings;
use JSON::PP;
use Exporter 'import';
our @EXPORT_OK = qw(compare_symbolic hand_machine mpi_setup run_in json_in counts_exact_in predict_json memory_loop
                    hand_memory_machine json_differ);

# The MPI tests' environment: the MPI's tools must be there (default
# mpicc and mpirun; BAIL_OUT otherwise), Open MPI may run as root, 4 ranks
# on 2 cores, libmpi's leaks are not ours, and no recording or disabling
# from outside.
sub mpi_setup {
    my @tools = @_ ? @_ : qw(mpicc mpirun);
    for my $tool (@tools) {
        my $pkgs = $tool =~ /mpich/ ? 'mpich libmpich-dev' : 'libopenmpi-dev openmpi-bin';
        Test::More::BAIL_OUT("$tool not found: install the Debian packages $pkgs (make deps)")
            if system("command -v $tool >/dev/null 2>&1") != 0;
    }
    $ENV{OMPI_ALLOW_RUN_AS_ROOT}         = 1;
    $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
    $ENV{OMPI_MCA_rmaps_base_oversubscribe} = 1;
    $ENV{ASAN_OPTIONS} = 'detect_leaks=0';
    delete $ENV{PERFPRED_RECORD};
    delete $ENV{PERFPRED_DISABLE};
}

# Every number of two decoded JSON values the same to 1e-9 relative
# (1e-12 absolute), every string equal: '' when so, else the first
# difference with its path (the oracle tests of the class walks).
sub json_differ {
    my ($a, $b, $path) = @_;
    return "$path: one side missing" if defined $a != defined $b;
    return '' unless defined $a;
    if (ref $a eq 'HASH') {
        return "$path: not both objects" unless ref $b eq 'HASH';
        for my $k (sort keys %{{ %$a, %$b }}) {
            my $d = json_differ($a->{$k}, $b->{$k}, "$path.$k");
            return $d if $d;
        }
        return '';
    }
    if (ref $a eq 'ARRAY') {
        return "$path: not both arrays of " . scalar(@$a) unless ref $b eq 'ARRAY' && @$a == @$b;
        for my $i (0 .. $#$a) {
            my $d = json_differ($a->[$i], $b->[$i], "$path\[$i]");
            return $d if $d;
        }
        return '';
    }
    if ($a =~ /^-?[\d.]+(?:e[-+]?\d+)?$/i && $b =~ /^-?[\d.]+(?:e[-+]?\d+)?$/i) {
        my $tol = 1e-9 * (abs($a) > abs($b) ? abs($a) : abs($b));
        return abs($a - $b) <= ($tol > 1e-12 ? $tol : 1e-12) ? '' : "$path: $a against $b";
    }
    return $a eq $b ? '' : "$path: '$a' against '$b'";
}

# (exit code, stdout, stderr) of a shell command, its output kept in DIR
sub run_in {
    my ($dir, $cmd) = @_;
    my $rc = system("$cmd >$dir/out 2>$dir/err");
    local $/;
    open my $o, '<', "$dir/out" or die;
    open my $e, '<', "$dir/err" or die;
    my ($out, $err) = (<$o> // '', <$e> // '');
    return ($rc == -1 ? -1 : $rc & 127 ? 128 + ($rc & 127) : $rc >> 8, $out, $err);
}

# The decoded JSON a command prints in DIR (undef when it fails or prints
# no JSON), with a check that it ran and one that its output is JSON.
sub json_in {
    my ($dir, $cmd, $what) = @_;
    my ($rc, $out, $err) = run_in($dir, $cmd);
    Test::More::is($rc, 0, $what) or Test::More::diag($err);
    my $j = eval { decode_json($out) };
    Test::More::ok($j, "$what: JSON") or Test::More::diag($out);
    return $j;
}

# hand_machine with the memory tests' caches and bandwidth curve: L1
# 32 KiB, L2 1 MiB, L3 32 MiB; 64 bytes/ns up to EDGE bytes of working
# set, 8 beyond (the memory's); one thread 8 bytes/ns, all 12; the
# program's arrays FOOTPRINT bytes.
sub hand_memory_machine {
    my ($path, $edge, $footprint) = @_;
    my $header = join('', map { "$_\n" }
        'cache.l1d_bytes = 32768', 'cache.l2_bytes = 1048576', 'cache.l3_bytes = 33554432',
        'mem.bw1_bytes_per_ns = 8', 'mem.bw_all_bytes_per_ns = 12', "mem.footprint_bytes = $footprint",
        'point.mem.stream = 16384 64', "point.mem.stream = $edge 64", 'point.mem.stream = ' . ($edge + 8) . ' 8',
        "point.mem.stream = $footprint 8");
    hand_machine($path, name => 'elsewhere', header => $header);
}

# The decoded JSON of `PP predict ARGS --draws 0 --format json` (an empty
# hash when it prints none).
sub predict_json {
    my ($pp, $args) = @_;
    my $out = `$pp predict $args --draws 0 --format json 2>/dev/null`;
    return eval { decode_json($out) } || {};
}

# The memory model's entry for the loop at LINE in predict's JSON (an
# empty hash when it has none).
sub memory_loop {
    my ($j, $line) = @_;
    my ($l) = grep { $_->{line} == $line } @{ $j->{memory}{loops} || [] };
    return $l || {};
}

# An MPI run's model (`PP show RUN --view model`, in DIR): its loops are
# listed and every loop's count matches the run on every rank.
sub counts_exact_in {
    my ($dir, $pp, $run, $what) = @_;
    my ($rc, $out, $err) = run_in($dir, "$pp show $run --view model");
    Test::More::is($rc, 0, "$what: show --view model") or Test::More::diag($err);
    my @loops = $out =~ /^  (\S+:L\d+) .*$/mg;
    Test::More::ok(@loops > 0, "$what: loops listed");
    Test::More::unlike($out, qr/^  \S+:L\d+ .*\b(no)\b/m,
                       "$what: every loop's count matches the run on every rank") or Test::More::diag($out);
    return scalar @loops;
}

# The loops with a symbolic count in `perfpred show --set ... --format json`
# (predicted) against the counts of an instrumented run at that size
# (`perfpred show RECORD --format json`, observed): returns the number of
# symbolic loops, how many were predicted exactly, and a line per miss.
sub compare_symbolic {
    my ($pred_json, $obs_json) = @_;
    my $p = eval { decode_json($pred_json) } || {};
    my $o = eval { decode_json($obs_json) } || {};
    my %observed = map { $_->{id} => $_->{observed} } @{ $o->{loops} || [] };
    my ($nsym, $exact, @diff) = (0, 0);
    for my $l (@{ $p->{loops} || [] }) {
        next unless $l->{rule} eq 'symbolic';
        $nsym++;
        my $obs = $observed{ $l->{id} };
        if (defined $obs && defined $l->{predicted} && $l->{predicted} == $obs) {
            $exact++;
        } else {
            push @diff, "$l->{id}: predicted " . ($l->{predicted} // 'null') . ", run " . ($obs // 'none');
        }
    }
    return ($nsym, $exact, @diff);
}

# Write a machine file by hand (docs/machine-format.md) to PATH: the same
# synchronisation costs for every test, and
#   name    => the host it describes (default 'test host'),
#   header  => more header lines (cache sizes, bandwidths, noise.cov),
#   compute => [a] or [a, b]: scale.compute const a, or linear a + b P,
#   memory  => the same for scale.memory (default [1]).
sub hand_machine {
    my ($path, %o) = @_;
    my $scale = sub {
        my ($key, $ab) = @_;
        return @$ab > 1 ? "$key.model = linear\n$key.a = $ab->[0]\n$key.b = $ab->[1]\n"
                        : "$key.model = const\n$key.a = $ab->[0]\n";
    };
    open my $m, '>', $path or die "$path: $!";
    print $m "perfpred-machine 1\nname = " . ($o{name} // 'test host') . "\nsource = hand\ncores = 2\n"
        . ($o{header} // '') . <<'EOF'
thread.create.model = const
thread.create.a_ns = 12000
thread.create_call.model = const
thread.create_call.a_ns = 10000
thread.join.model = const
thread.join.a_ns = 30000
forkjoin.omp.model = log2
forkjoin.omp.a_ns = 400
forkjoin.omp.b_ns = 500
barrier.omp.model = log2
barrier.omp.a_ns = 140
barrier.omp.b_ns = 250
barrier.pthread.model = log2
barrier.pthread.a_ns = 220
barrier.pthread.b_ns = 1800
mutex.lock.model = const
mutex.lock.a_ns = 20
mutex.handoff.model = const
mutex.handoff.a_ns = 30000
EOF
        . $scale->('scale.compute', $o{compute} // [1]) . $scale->('scale.memory', $o{memory} // [1]);
    close $m;
    return $path;
}

1;
