# SPDX-License-Identifier: ISC
# json_items.pl - holds a `check --json` document (ruas check, ruas-setup
# check) on stdin to the item schema of ruas(1): every item of every entry
# (projects, targets, host) has check, message, severity (matching the
# array it is in), summary (the message's first line, one line, without its
# prefix), project, user, path and fix; a fix is part of the message, and
# every error has one. Exits 0, or 1 naming the first item that does not.
use strict;
use warnings;
use JSON::PP;

my $j = eval { decode_json(join "", <STDIN>) } or do { print "not JSON\n"; exit 1 };
my @entries = (@{$j->{projects} // []}, @{$j->{targets} // []}, $j->{host} // ());
for my $e (@entries) {
	for my $array ("errors", "warnings") {
		for my $it (@{$e->{$array} // []}) {
			my $m = $it->{message} // "";
			my $bad = sub { print "$_[0]: $m\n"; exit 1 };
			exists $it->{$_} or $bad->("no key $_")
				for qw(check message severity summary project user path fix);
			$it->{severity} eq ($array eq "errors" ? "error" : "warning")
				or $bad->("severity $it->{severity} in $array");
			my ($prefix, $first) = $m =~ /^(ERROR|WARNING): ([^\n]*)/ or $bad->("no prefix");
			$it->{summary} eq $first or $bad->("summary \"$it->{summary}\"");
			!defined $it->{fix} || ($it->{fix} ne "" && index($m, $it->{fix}) >= 0)
				or $bad->("a fix not in the message");
			$array eq "warnings" || defined $it->{fix} or $bad->("an error without a fix");
		}
	}
}
exit 0;
