# PPStress.pm - helpers of the runtime stress tests (tests/e2e/22-stress.t,
# 23-signals.t, 24-tsan.t): build a program with the plugin and plainly,
# run it and get its wait status and output, check a record and read the
# loop totals `perfpred show` observes.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
package PPStress;
use strict;
use warnings;
use Exporter 'import';
use JSON::PP;
use POSIX ();
our @EXPORT_OK = qw(sh_quote build_pair run_prog wait_desc record_ok show_loops line_of);

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

# gcc the source twice: BIN (plugin + runtime) and BIN.plain.  FLAGS go to
# both, SAN only to the instrumented build (the sanitized runtime).
# Returns (ok, log).
sub build_pair {
    my ($B, $src, $bin, $flags, $san) = @_;
    $san //= '';
    my $log = `gcc -O2 -Wall $flags $src -o $bin.plain 2>&1`;
    return (0, $log) if $?;
    $log .= `gcc -O2 -Wall $flags $san -fplugin=$B/perfpred.so $src -o $bin -L$B -l:libperfpred-rt.a 2>&1`;
    return ($? == 0, $log);
}

# Run CMD (a shell command line, exec'd by sh) with ENV (hash) added;
# returns the raw wait status ($?, as perl gives it: signal in the low 7
# bits, 128 = core) and stdout, stderr.  PERFPRED_RECORD and
# PERFPRED_DISABLE are unset first.
sub run_prog {
    my ($tmp, $env, $cmd) = @_;
    # no shell between us and the program: its wait status is the status
    my $pid = fork() // die "fork: $!";
    if ($pid == 0) {
        delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
        $ENV{$_} = $env->{$_} for keys %$env;
        open STDOUT, '>', "$tmp/run.out" or POSIX::_exit(126);
        open STDERR, '>', "$tmp/run.err" or POSIX::_exit(126);
        { no warnings 'exec'; exec { '/bin/sh' } 'sh', '-c', "exec $cmd"; }
        POSIX::_exit(127);
    }
    waitpid($pid, 0);
    my $st = $?;
    local $/;
    open my $o, '<', "$tmp/run.out" or die;
    open my $r, '<', "$tmp/run.err" or die;
    return ($st, <$o> // '', <$r> // '');
}

# "exit 5", "signal 6", "signal 11 (core)"
sub wait_desc {
    my ($st) = @_;
    return "not run" if $st == -1;
    return "signal " . ($st & 127) . ($st & 128 ? " (core)" : "") if $st & 127;
    return "exit " . ($st >> 8);
}

# ppr_check messages of the record at PATH (tests/runtime/ppr.pl), and the
# parsed record
sub record_ok {
    my ($path) = @_;
    my $r = main::ppr_read($path);
    return ($r, main::ppr_check($r));
}

# {LINE => [observed iterations over all threads, one per loop the
# analyser sees at that line]} from `perfpred show
# --format json`, and show's stderr (undef and the error when show fails)
sub show_loops {
    my ($pp, $rec, $tmp, $extra) = @_;
    $extra //= '';
    my $js = `$pp show $rec $extra --format json 2>$tmp/show.err`;
    my $err = `cat $tmp/show.err`;
    return (undef, $err) if $?;
    my $d = eval { decode_json($js) } or return (undef, "bad json: $@");
    my %l;
    for my $lp (@{ $d->{loops} || [] }) {
        push @{$l{$lp->{line}}}, $lp->{observed};
    }
    return (\%l, $err);
}

# The line of the marker comment /* L:NAME */ in SRC (the loop's line)
sub line_of {
    my ($src, $name) = @_;
    open my $f, '<', $src or die "$src: $!";
    while (<$f>) { return $. if m{/\* L:\Q$name\E \*/} }
    die "$src: no marker L:$name";
}

1;
