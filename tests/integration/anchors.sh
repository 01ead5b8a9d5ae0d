#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the trust-anchor check (docs/security.md, "Trust
# anchors"): for each of several representative anchors, make it writable by
# the target, assert that `ruas check` (and `ruas-setup check`) fails naming
# the path and the fix, restore it, and assert that the check passes again.
# Real sudo and users, inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/anchors.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=28000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"

. "$abs_top_srcdir/tests/integration/tap.sh"
# setup ARGS...: ruas-setup as root; sets RC, OUT, ERR.
setup() {
	LD_LIBRARY_PATH="$LIBDIR" "$SETUP" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}

sandbox_guard
sandbox_user sup
sandbox_user t1
sandbox_group staff2
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
mkdir -p "$SB/w1" "$SB/conf"
chown t1:t1 "$SB/w1"
CONF="$SB/conf/anchors.conf"
cat >"$CONF" <<EOC
helper = $(cfgstr "$HELPER");
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
chmod 644 "$CONF"

# passes NAME: ruas check as sup, and ruas-setup check as root, both exit 0.
passes() {
	run_sup check -c "$CONF"
	expect "$1: ruas check passes" test "$RC" = 0
	expect "$1: ... with no anchors finding" hasnt "$ERR" "which root runs or trusts"
	setup check --target t1 --supervisor sup --helper "$HELPER"
	expect "$1: ruas-setup check passes" test "$RC" = 0
}
# fails NAME TEXT...: ruas check exits 1 with every TEXT; ruas-setup check
# too, naming the first, unless SETUP_TOO=0 (it does not know the configuration).
SETUP_TOO=1
fails() {
	local name=$1
	shift
	run_sup check -c "$CONF"
	expect "$name: ruas check exits 1" test "$RC" = 1
	local t
	for t in "$@"; do
		expect "$name: says $t" has "$ERR" "$t"
	done
	[ "$SETUP_TOO" = 1 ] || return 0
	setup check --target t1 --supervisor sup --helper "$HELPER"
	expect "$name: ruas-setup check exits 1" test "$RC" = 1
	expect "$name: ruas-setup check names it" has "$ERR" "$1"
}

# A masked systemd unit (a symlink to /dev/null, which anyone may write) is fine.
mkdir -p /etc/systemd/system
ln -s /dev/null /etc/systemd/system/ruas-test-masked.service
passes "a correctly provisioned target"

# A symlink in /etc/cron.d is judged by where it leads.
mkdir -p /etc/cron.d "$SB/jobs"
chmod 755 "$SB/jobs"
printf '* * * * * root true\n' >"$SB/jobs/job"
chown t1 "$SB/jobs/job"
ln -s "$SB/jobs/job" /etc/cron.d/zz-ruas-test
fails "a cron.d symlink to a file the target owns" \
	"ERROR: target user \"t1\" owns (so it can change the mode of) \"$SB/jobs/job\", where the symlink \"/etc/cron.d/zz-ruas-test\" leads" \
	"Fix: chown root $SB/jobs/job."
chown root "$SB/jobs/job"
passes "the cron.d symlink's target given back to root"
rm -f /etc/cron.d/zz-ruas-test

# ------------------------------------------------------------------ /etc
setfacl -m u:t1:rw /etc/passwd
fails "ACL on /etc/passwd" \
	'ERROR: target user "t1" can write "/etc/passwd", which root runs or trusts: the user and group database' \
	'and an ACL.' 'Fix: remove the ACL entry that grants it: setfacl -x u:t1 /etc/passwd'
setfacl -b /etc/passwd
passes "ACL removed from /etc/passwd"

# (A world-writable /etc/sudoers.d, sudo refuses to use at all; an ACL, it does not see.)
setfacl -m u:t1:rwx /etc/sudoers.d
fails "an ACL on /etc/sudoers.d" \
	'ERROR: target user "t1" can write "/etc/sudoers.d", which root runs or trusts: sudo'"'"'s rules' \
	'Fix: remove the ACL entry that grants it: setfacl -x u:t1 /etc/sudoers.d'
setfacl -b /etc/sudoers.d
chmod 755 /etc/sudoers.d
passes "/etc/sudoers.d restored"

# A file in /etc/sudoers.d that others may write (sudo skips it, but warns).
printf '# test\n' >/etc/sudoers.d/zz-ruas-test
chmod 0446 /etc/sudoers.d/zz-ruas-test
fails "a world-writable file in /etc/sudoers.d" \
	'ERROR: target user "t1" can write "/etc/sudoers.d/zz-ruas-test", inside "/etc/sudoers.d"' \
	'Fix: chmod go-w /etc/sudoers.d/zz-ruas-test.'
rm -f /etc/sudoers.d/zz-ruas-test
passes "the file gone from /etc/sudoers.d"

mkdir -p /etc/profile.d
printf '# test\n' >/etc/profile.d/zz-ruas-test.sh
chown t1 /etc/profile.d/zz-ruas-test.sh
fails "a file in /etc/profile.d owned by the target" \
	'ERROR: target user "t1" owns (so it can change the mode of) "/etc/profile.d/zz-ruas-test.sh", inside "/etc/profile.d"' \
	'Fix: chown root /etc/profile.d/zz-ruas-test.sh.'
chown root /etc/profile.d/zz-ruas-test.sh
passes "the /etc/profile.d file given back to root"
rm -f /etc/profile.d/zz-ruas-test.sh

# ------------------------------------------------------------------ root's PATH
# A private copy of /usr/local/bin: the host's is never touched.
mkdir -p "$SB/ulb"
chmod 755 "$SB/ulb"
mount --bind "$SB/ulb" /usr/local/bin
usermod -aG staff2 t1
chgrp staff2 /usr/local/bin
chmod 2775 /usr/local/bin
fails "a group-writable /usr/local/bin, the target in the group" \
	'ERROR: target user "t1" can write "/usr/local/bin", which root runs or trusts: a directory in root'"'"'s PATH' \
	'Fix: take "t1" out of group "staff2" (gpasswd -d t1 staff2) or chmod g-w /usr/local/bin.'
gpasswd -d t1 staff2 >/dev/null
passes "the target out of the group"
chmod 755 /usr/local/bin
chgrp root /usr/local/bin

umount /usr/local/bin

# A directory above one of root's PATH (here from login.defs' ENV_SUPATH):
# whoever writes it can rename the PATH directory away.
mkdir -p "$SB/opt/bin"
chmod 755 "$SB/opt" "$SB/opt/bin"
cp -p /etc/login.defs "$SB/login.defs.orig"
sed -i 's|^ENV_SUPATH.*|ENV_SUPATH	PATH='"$SB"'/opt/bin:/usr/sbin:/usr/bin|' /etc/login.defs
chmod 757 "$SB/opt"
fails "a world-writable directory above a login.defs ENV_SUPATH entry" \
	"ERROR: target user \"t1\" can write \"$SB/opt\", a directory above \"$SB/opt/bin\""
chmod 755 "$SB/opt"
passes "the directory above restored"
cat "$SB/login.defs.orig" >/etc/login.defs

# ------------------------------------------------------------------ sockets
# A fake Docker socket, on a private /run of a nested namespace.
docker_sock() { # MODE: ruas check with a socket of that mode at /run/docker.sock
	unshare --mount --propagation private bash -c '
		mount -t tmpfs -o mode=755 tmpfs /run &&
		mkdir -p /run/sudo && mount -t tmpfs -o mode=0711 tmpfs /run/sudo &&
		perl -MIO::Socket::UNIX -e "IO::Socket::UNIX->new(Local => q{/run/docker.sock}, Listen => 1) or die \$!" &&
		chmod "$1" /run/docker.sock &&
		env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/sup USER=sup LOGNAME=sup LANG=C.UTF-8 \
			LD_LIBRARY_PATH="$LIBDIR" setpriv --reuid=sup --regid=sup --init-groups -- \
			"$2" check -c "$3"' _ "$1" "$RUAS" "$CONF" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
docker_sock 666
expect "a connectable /run/docker.sock: exit 1" test "$RC" = 1
expect "... named, as a connection" has "$ERR" 'ERROR: target user "t1" can connect to "/run/docker.sock", which root runs or trusts: the Docker daemon'"'"'s socket'
expect "... with the fix" has "$ERR" 'Fix: chmod go-w /run/docker.sock.'
docker_sock 600
expect "a root-only /run/docker.sock: exit 0" test "$RC" = 0

# ------------------------------------------------------------------ devices
# A node that reads like a disk, bound over /dev/loop7 in this namespace only.
if [ -e /dev/loop7 ]; then
	mknod "$SB/fakeloop" c 1 3
	chmod 644 "$SB/fakeloop"
	mount --bind "$SB/fakeloop" /dev/loop7
	fails "a readable disk device" \
		'ERROR: target user "t1" can read "/dev/loop7", which root runs or trusts: a raw disk' \
		'Fix: chmod go-rw /dev/loop7.'
	umount /dev/loop7
	passes "the disk device unreadable again"
else
	ok "# SKIP no /dev/loop7 here"
fi

# ------------------------------------------------------------------ the library's own
setfacl -m u:t1:rwx "$SB/conf"
SETUP_TOO=0
fails "the configuration's directory writable by the target" \
	"ERROR: target user \"t1\" can write \"$SB/conf\", which the supervisor \"sup\" runs or trusts: the directory of the ruas configuration"
SETUP_TOO=1
setfacl -b "$SB/conf"
passes "the configuration's directory restored"

# A configuration in the sticky /tmp: the target cannot rename it there.
cp -p "$CONF" /tmp/ruas-anchors.conf
run_sup check -c /tmp/ruas-anchors.conf
expect "a configuration in /tmp (sticky): ruas check passes" test "$RC" = 0
rm -f /tmp/ruas-anchors.conf

setfacl -m u:t1:rw /home/sup/.bashrc
run_sup check -c "$CONF"
expect "the supervisor's ~/.bashrc writable by the target: exit 1" test "$RC" = 1
expect "... named, as the supervisor's" has "$ERR" 'ERROR: target user "t1" can write "/home/sup/.bashrc", which the supervisor "sup" runs or trusts: the supervisor'"'"'s startup files'
expect "... with the fix" has "$ERR" 'setfacl -x u:t1 /home/sup/.bashrc'
setup check --target t1 --supervisor sup --helper "$HELPER"
expect "... ruas-setup check --supervisor sup sees it too" has "$ERR" '"/home/sup/.bashrc"'
setfacl -b /home/sup/.bashrc
passes "the supervisor's ~/.bashrc restored"

# ------------------------------------------------------------------ review escapes (issue 11)
# A chain: /etc/profile.d/zz-chain.sh -> $SB/hopdir/job -> /etc/zz-real-job,
# the middle hop in a directory the target owns: it repoints the hop.
mkdir -p "$SB/hopdir"
chown t1 "$SB/hopdir"
printf '# empty\n' >/etc/zz-real-job
ln -s /etc/zz-real-job "$SB/hopdir/job"
ln -s "$SB/hopdir/job" /etc/profile.d/zz-chain.sh
fails "a symlink chain through a directory the target owns" \
	"ERROR: target user \"t1\" owns (so it can change the mode of) \"$SB/hopdir\", where the symlink \"/etc/profile.d/zz-chain.sh\" leads"
rm -f /etc/profile.d/zz-chain.sh /etc/zz-real-job
passes "the symlink chain removed"

# A read-only bind of a directory the target owns: written through its source.
mkdir -p "$SB/pd"
cp -a /etc/profile.d/. "$SB/pd/"
chown t1 "$SB/pd"
mount --bind "$SB/pd" /etc/profile.d && mount -o remount,bind,ro /etc/profile.d
fails "/etc/profile.d a read-only bind of a directory the target owns" \
	"ERROR: target user \"t1\" owns (so it can change the mode of) \"/etc/profile.d\""
umount /etc/profile.d
passes "the read-only bind removed"

# bind_owned NAME PATH: PATH replaced (bind mount) by a copy the target owns.
bind_owned() {
	local copy="$SB/bind.$RANDOM"
	cp -a "$2" "$copy" && chown t1 "$copy" && mount --bind "$copy" "$2" || return 1
	fails "$1" "ERROR: target user \"t1\" owns (so it can change the mode of) \"$2\""
	umount -l "$2" # a mapped library keeps it busy
	passes "$1: restored"
}
mkdir -p "$SB/ulb"
cp -a /usr/local/bin/. "$SB/ulb/"
printf '#!/bin/sh\n' >"$SB/ulb/zz-tool"
chmod 755 "$SB/ulb/zz-tool"
chown t1 "$SB/ulb/zz-tool"
mount --bind "$SB/ulb" /usr/local/bin
fails "a program in root's PATH owned by the target" \
	"ERROR: target user \"t1\" owns (so it can change the mode of) \"/usr/local/bin/zz-tool\", inside \"/usr/local/bin\""
umount /usr/local/bin
passes "the program in root's PATH removed"
LIBC=$(ls /usr/lib/*-linux-gnu/libc.so.6 2>/dev/null | head -1)
if [ -n "$LIBC" ]; then
	bind_owned "libc owned by the target" "$(readlink -f "$LIBC")"
else
	ok "# SKIP no libc.so.6 here"
fi
[ -d /usr/lib64 ] && bind_owned "/usr/lib64 owned by the target" /usr/lib64
U=$(ls /usr/lib/systemd/system/*.service 2>/dev/null | head -1)
[ -n "$U" ] && [ ! -L "$U" ] && bind_owned "a unit in /usr/lib/systemd/system owned by the target" "$U"
for d in /etc/modprobe.d /etc/sysctl.d /etc/logrotate.d /etc/default; do
	mkdir -p "$d"
	touch "$d/zz-t1"
	chown t1 "$d/zz-t1"
	fails "$d/zz-t1 owned by the target" "ERROR: target user \"t1\" owns (so it can change the mode of) \"$d/zz-t1\", inside \"$d\""
	rm -f "$d/zz-t1"
done
passes "the /etc entries removed"

# The configuration through a symlink in a directory the target owns: it
# repoints the link, though the file it leads to is fine.
mkdir -p "$SB/shared"
chown t1 "$SB/shared"
ln -s "$CONF" "$SB/shared/ruas.conf"
run_sup check -c "$SB/shared/ruas.conf"
expect "the configuration through a symlink in a target-owned directory: exit 1" test "$RC" = 1
expect "... names the directory" has "$ERR" "ERROR: target user \"t1\" owns (so it can change the mode of) \"$SB/shared\", a directory above \"$SB/shared/ruas.conf\""
chown root "$SB/shared"
run_sup check -c "$SB/shared/ruas.conf"
expect "the configuration through a symlink in root's directory: exit 0" test "$RC" = 0
rm -rf "$SB/shared"

# A default ACL entry for the target on /etc/sudoers.d: every rule file root
# creates there later is the target's to write.
setfacl -d -m u:t1:rwx /etc/sudoers.d
fails "a default ACL entry for the target on /etc/sudoers.d" \
	"ERROR: target user \"t1\" gets write access, through a default ACL entry, to what is created in \"/etc/sudoers.d\"" \
	"Fix: remove the default ACL entry that grants it: setfacl -d -x u:t1 /etc/sudoers.d"
setfacl -k /etc/sudoers.d
passes "the default ACL removed"

# More dot entries than are sent: the well-known ones go first, and the cap
# is itself a finding.
for i in $(seq 1 300); do touch "/home/sup/.zz$i"; done
chown sup /home/sup/.zz*
setfacl -m u:t1:rw /home/sup/.bashrc
fails "300 dot entries in the supervisor's home, ~/.bashrc writable" \
	"ERROR: target user \"t1\" can write \"/home/sup/.bashrc\"" \
	"ERROR: \"/home/sup\" was not fully judged for target user \"t1\": the supervisor's home has more dot entries"
setfacl -b /home/sup/.bashrc
rm -f /home/sup/.zz*
passes "the dot entries removed"

# Deeper in the supervisor's home: git's configuration and ~/bin (in PATH).
mkdir -p /home/sup/.config/git /home/sup/bin
touch /home/sup/.config/git/config
chown -R sup:sup /home/sup/.config /home/sup/bin
setfacl -m u:t1:rw /home/sup/.config/git/config
setfacl -m u:t1:rwx /home/sup/bin
fails "~sup/.config/git/config and ~sup/bin writable by the target" \
	"ERROR: target user \"t1\" can write \"/home/sup/.config/git/config\"" \
	"ERROR: target user \"t1\" can write \"/home/sup/bin\""
setfacl -b /home/sup/.config/git/config /home/sup/bin
passes "~sup/.config/git/config and ~sup/bin restored"

# A RAM disk readable by the target's group, as a raw disk.
if [ -b /dev/zram0 ]; then
	mknod "$SB/zram0" b "$((0x$(stat -c %t /dev/zram0)))" "$((0x$(stat -c %T /dev/zram0)))"
	chgrp t1 "$SB/zram0"
	chmod 640 "$SB/zram0"
	mount --bind "$SB/zram0" /dev/zram0
	fails "/dev/zram0 readable by the target" "ERROR: target user \"t1\" can read \"/dev/zram0\""
	umount /dev/zram0
	passes "/dev/zram0 restored"
else
	ok "# SKIP no /dev/zram0 here"
fi

# ------------------------------------------------------------------ the table's trees, judged once
# The library judges the table's trees (cron.d, sudoers.d, root's PATH...)
# once for every target (src/lib/host/table.h), no longer each target's
# helper as that target. So the groups it judges with must be those the
# target's login session really has: pam_group grants some at login that
# /etc/group does not list, and access(2) as the target honoured them.
sandbox_group pgw
cp /etc/pam.d/sudo "$SB/sudo.saved"
cp /etc/security/group.conf "$SB/group.conf.saved"
{ echo 'auth optional pam_group.so'; cat "$SB/sudo.saved"; } >/etc/pam.d/sudo
echo '*;*;t1;Al0000-2400;pgw' >>/etc/security/group.conf
install -m 0664 -g pgw /dev/null /etc/cron.d/zz-ruas-pg
as_user sup sudo -n -u t1 -- sh -c 'id -Gn; echo "* * * * * root id" >>/etc/cron.d/zz-ruas-pg' >"$SB/out" 2>&1
expect "pam_group: the attack: the target's session is in group pgw" has " $(tr '\n' ' ' <"$SB/out") " " pgw "
expect "... and writes a root cron job with it" grep -q "root id" /etc/cron.d/zz-ruas-pg
expect "... though /etc/group does not list it" hasnt " $(id -Gn t1) " " pgw "
fails "a cron.d file writable by a group granted at login" \
	'ERROR: target user "t1" can write "/etc/cron.d/zz-ruas-pg", inside "/etc/cron.d"'
cp "$SB/sudo.saved" /etc/pam.d/sudo
cp "$SB/group.conf.saved" /etc/security/group.conf
passes "the group no longer granted at login"
rm -f /etc/cron.d/zz-ruas-pg

# Judged anew at every check, not kept: a file made writable right after a
# check that kept its walk of the trees is seen by the very next one.
# (A private copy of /usr/local/bin again: the host's is never touched.)
mkdir -p "$SB/ulb3"
chmod 755 "$SB/ulb3"
mount --bind "$SB/ulb3" /usr/local/bin
passes "before the change (the walk of the trees kept)"
install -m 0644 /dev/null /usr/local/bin/zz-ruas-fresh
chmod o+w /usr/local/bin/zz-ruas-fresh
fails "a program of root's PATH made writable after a check" \
	'ERROR: target user "t1" can write "/usr/local/bin/zz-ruas-fresh", inside "/usr/local/bin"'
rm -f /usr/local/bin/zz-ruas-fresh
passes "the program removed"
umount /usr/local/bin

# A read-only mount counts as the kernel sees it where the path is: a
# world-writable job on a read-only bind of /etc/cron.d cannot be written
# (the control), and one under a read-only mount that a later mount hides
# can be (mount points matched by prefix would take the hidden one).
mkdir -p "$SB/crond-ro"
install -m 0666 /dev/null "$SB/crond-ro/zz-ruas-ro"
mount --bind "$SB/crond-ro" /etc/cron.d && mount -o remount,bind,ro /etc/cron.d
as_user t1 sh -c 'echo x >>/etc/cron.d/zz-ruas-ro' 2>/dev/null
expect "read-only /etc/cron.d: the target really cannot write the job" test $? != 0
passes "a world-writable job on a read-only /etc/cron.d"
umount /etc/cron.d
mkdir -p "$SB/ulb-ro" "$SB/ul-rw/bin"
chmod 755 "$SB/ulb-ro" "$SB/ul-rw" "$SB/ul-rw/bin"
mount --bind "$SB/ulb-ro" /usr/local/bin && mount -o remount,bind,ro /usr/local/bin
mount --bind "$SB/ul-rw" /usr/local
install -m 0666 /dev/null /usr/local/bin/zz-visible
as_user t1 sh -c 'echo x >>/usr/local/bin/zz-visible'
expect "a read-only mount hidden by a later one: the target writes what is visible" test $? = 0
fails "a program of root's PATH under a hidden read-only mount" \
	'ERROR: target user "t1" can write "/usr/local/bin/zz-visible", inside "/usr/local/bin"'
umount /usr/local
umount /usr/local/bin
passes "the mounts removed"

tap_finish
