# SPDX-License-Identifier: ISC
# probe.pl - the agent used by the integration tests: it reports exactly
# what it received (cwd, argv, environment, descriptors, ids) in hex.
use strict;
use warnings;
use Cwd qw(getcwd);
binmode STDOUT;
print "cwd ", unpack("H*", getcwd()), "\n";
print "arg ", unpack("H*", $_), "\n" for @ARGV;
print "env $_ ", unpack("H*", $ENV{$_}), "\n" for sort keys %ENV;
opendir(my $d, "/proc/self/fd") or die;
my @fds = sort { $a <=> $b } grep { /^\d+$/ } readdir($d);
closedir $d;
print "fds @fds\n";
my @groups = split ' ', $);
my %seen;
print "uid $< $>\n";
print "groups ", join(" ", sort { $a <=> $b } grep { !$seen{$_}++ } @groups), "\n";
