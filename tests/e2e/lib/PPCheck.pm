# PPCheck.pm - checks shared by the end-to-end tests.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
package PPCheck;
use strict;
use warnings;
use JSON::PP;
use Exporter 'import';
our @EXPORT_OK = qw(compare_symbolic);

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

1;
