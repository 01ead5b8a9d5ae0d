#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the trees root trusts, walked whole (issue 25,
# src/lib/host): what a target can write anywhere in /etc, /usr, /boot,
# /opt, /var/lib/dpkg, /var/spool/cron or a directory ld.so.conf names is
# fatal for ruas check (as a non-root supervisor: sudo backend; as root:
# pam backend) and for ruas-setup check, whether by mode, owner, group, ACL,
# default ACL or a writable directory above; a read-only mount is not
# writable; two of them are taken to root for real (a .pth file that root's
# python3 runs, a user,exec,suid,loop line in /etc/fstab). Inside the sandbox;
# needs root. The trees outside /etc are the host's: each test binds a
# throwaway directory over what it changes, in this mount namespace only.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/host_trees.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=49000
sandbox_setup
sandbox_guard
set -u
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
. "$abs_top_srcdir/tests/integration/tap.sh"
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas

sandbox_user sup
sandbox_user ht1
sandbox_user hto
sandbox_group htg
usermod -aG htg ht1
sandbox_sudoers ruas-sup 'sup ALL=(ht1) NOPASSWD: ALL' 'Defaults:ht1 listpw=never'
mkdir -p "$SB/w" "$SB/conf"
chmod 755 "$SB/w"
CONF="$SB/conf/ht.conf"
# host_check_interval = 0: ruas run below must see every change at once.
printf 'helper = %s;\nsession_helper = %s;\nhost_check_interval = 0;\nprojects = ( { name = "p"; run_as_user = "ht1"; work_dir = %s; command = ["true"]; } );\n' \
	"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$(cfgstr "$SB/w")" >"$CONF"
chmod 644 "$CONF"

setup() {
	"$SETUP" "$@" --helper "$HELPER" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}

# bindover DIR: a throwaway, empty, root-owned directory over DIR (made when
# missing), in this namespace only; its source is $SB/over/<DIR>.
bindover() {
	local src="$SB/over$1"
	mkdir -p "$src" "$1"
	chmod 755 "$src"
	mount --bind "$src" "$1"
}

# judged NAME TEXT: fatal, with TEXT, for ruas check as sup and as root, and
# for ruas-setup check.
judged() {
	local name=$1 text=$2
	run_sup check -c "$CONF"
	expect "$name: ruas check (supervisor sup, sudo backend) exits 1" test "$RC" = 1
	expect "$name: ... naming it" has "$ERR" "$text"
	run_as root check -c "$CONF"
	expect "$name: ruas check as root (pam backend) exits 1" test "$RC" = 1
	expect "$name: ... naming it" has "$ERR" "$text"
	setup check --target ht1 --supervisor sup
	expect "$name: ruas-setup check exits 1" test "$RC" = 1
	expect "$name: ... naming it" has "$ERR" "$text"
}
# clean NAME: no anchors finding anywhere, exit 0.
clean() {
	run_sup check -c "$CONF"
	expect "$1: ruas check (sup) exits 0" test "$RC" = 0
	expect "$1: ... with no anchors finding" hasnt "$ERR" "which root runs or trusts"
	run_as root check -c "$CONF"
	expect "$1: ruas check as root exits 0" test "$RC" = 0
	setup check --target ht1 --supervisor sup
	expect "$1: ruas-setup check exits 0" test "$RC" = 0
}
W='target user "ht1" can write '
O='target user "ht1" owns (so it can change the mode of) '
D='target user "ht1" gets write access, through a default ACL entry, to what is created in '

# ------------------------------------------------------------------ a clean host
clean "the sandbox as set up (stock Debian, ruas-setup-like users)"

# ------------------------------------------------------------------ /etc, one way at a time
chmod o+w /etc/fstab
judged "/etc/fstab, chmod o+w" "$W\"/etc/fstab\", inside \"/etc\", which root runs or trusts: the host's configuration"
run_sup check -c "$CONF"
expect "... the fix is named" has "$ERR" "Fix: chmod go-w /etc/fstab."
chmod o-w /etc/fstab

setfacl -m u:ht1:rw /etc/subuid
judged "/etc/subuid, an ACL entry for the target" "$W\"/etc/subuid\""
run_sup check -c "$CONF"
expect "... the fix names the ACL" has "$ERR" "setfacl -x u:ht1 /etc/subuid"
setfacl -b /etc/subuid

touch /etc/logrotate.conf
chown ht1 /etc/logrotate.conf
judged "/etc/logrotate.conf, owned by the target" "$O\"/etc/logrotate.conf\""
chown root /etc/logrotate.conf

mkdir -p /etc/rsyslog.d
chmod o+w /etc/rsyslog.d
judged "/etc/rsyslog.d, a directory others may write" "$W\"/etc/rsyslog.d\""
chmod o-w /etc/rsyslog.d

chgrp htg /etc/tmpfiles.d
chmod g+w /etc/tmpfiles.d
judged "/etc/tmpfiles.d, the target's group may write" "$W\"/etc/tmpfiles.d\""
run_sup check -c "$CONF"
expect "... the fix names the group" has "$ERR" "gpasswd -d ht1 htg"
chgrp root /etc/tmpfiles.d
chmod g-w /etc/tmpfiles.d

mkdir -p /etc/systemd/user
chmod o+w /etc/systemd/user
judged "/etc/systemd/user" "$W\"/etc/systemd/user\""
chmod o-w /etc/systemd/user

setfacl -m g:htg:rwx /etc/apt/trusted.gpg.d
judged "/etc/apt/trusted.gpg.d, an ACL entry for the target's group" "$W\"/etc/apt/trusted.gpg.d\""
setfacl -b /etc/apt/trusted.gpg.d

mkdir -p /etc/perl
chown ht1 /etc/perl
judged "/etc/perl, owned by the target" "$O\"/etc/perl\""
chown root /etc/perl

mkdir -p /etc/python3.11
touch /etc/python3.11/sitecustomize.py
chmod o+w /etc/python3.11/sitecustomize.py
judged "/etc/python3.11/sitecustomize.py" "$W\"/etc/python3.11/sitecustomize.py\""
chmod o-w /etc/python3.11/sitecustomize.py

for f in /etc/ssl/openssl.cnf /etc/ssh/ssh_config; do
	mkdir -p "${f%/*}"
	touch "$f"
	chmod o+w "$f"
	judged "$f" "$W\"$f\""
	chmod o-w "$f"
done

mkdir -p /etc/kernel/postinst.d
chmod 777 /etc/kernel/postinst.d
judged "/etc/kernel/postinst.d, mode 0777" "$W\"/etc/kernel/postinst.d\""
chmod 755 /etc/kernel/postinst.d

# A directory above: whoever writes /etc/apt renames apt.conf.d away.
chmod o+w /etc/apt
judged "/etc/apt, the directory above apt.conf.d" "$W\"/etc/apt\""
chmod o-w /etc/apt

# A default ACL: what root creates there later is the target's to write.
mkdir -p /etc/xdg
setfacl -d -m u:ht1:rwx /etc/xdg
judged "/etc/xdg, a default ACL entry for the target" "$D\"/etc/xdg\""
setfacl -b /etc/xdg

# A masked ACL entry grants nothing: not a finding (the judge is the kernel's).
setfacl -m u:ht1:rw,m::r /etc/subuid
run_sup check -c "$CONF"
expect "an ACL entry masked to r--: ruas check (sup) exits 0" test "$RC" = 0
as_user ht1 sh -c 'echo x >> /etc/subuid' 2>/dev/null
expect "... and the target really cannot write it" test $? != 0
setfacl -b /etc/subuid

# ------------------------------------------------------------------ /usr, /var/lib/dpkg, /opt, /boot, /var/spool/cron
bindover /usr/lib/python3/dist-packages
chmod o+w /usr/lib/python3/dist-packages
judged "/usr/lib/python3/dist-packages" "$W\"/usr/lib/python3/dist-packages\", inside \"/usr\", which root runs or trusts: the programs, libraries and modules"
# The attack, end to end: a .pth file that root's next python3 runs.
rm -f /tmp/pth-proof
as_user ht1 sh -c 'echo "import os; open(\"/tmp/pth-proof\", \"w\").write(str(os.getuid()))" > /usr/lib/python3/dist-packages/zz-ht1.pth'
env -i PATH=/usr/bin:/bin /usr/bin/python3 -c 'pass'
expect ".pth: the attack works: root's python3 ran the target's line" test "$(cat /tmp/pth-proof 2>/dev/null)" = 0
rm -f /usr/lib/python3/dist-packages/zz-ht1.pth /tmp/pth-proof
chmod o-w /usr/lib/python3/dist-packages

bindover /usr/local/lib
chown ht1 /usr/local/lib
judged "/usr/local/lib, owned by the target" "$O\"/usr/local/lib\""
chown root /usr/local/lib

bindover /usr/lib/systemd/system-generators
setfacl -m u:ht1:rwx /usr/lib/systemd/system-generators
judged "/usr/lib/systemd/system-generators, an ACL entry" "$W\"/usr/lib/systemd/system-generators\""
setfacl -b /usr/lib/systemd/system-generators

bindover /usr/lib/udev/rules.d
chgrp htg /usr/lib/udev/rules.d
chmod g+w /usr/lib/udev/rules.d
judged "/usr/lib/udev/rules.d, group-writable" "$W\"/usr/lib/udev/rules.d\""
chgrp root /usr/lib/udev/rules.d
chmod g-w /usr/lib/udev/rules.d

# Deep in the library directory, below what the table's walk (depth 1) reaches.
bindover /usr/lib/x86_64-linux-gnu/gconv
touch /usr/lib/x86_64-linux-gnu/gconv/gconv-modules
chmod o+w /usr/lib/x86_64-linux-gnu/gconv/gconv-modules
judged "a file deep under /usr/lib/x86_64-linux-gnu" "$W\"/usr/lib/x86_64-linux-gnu/gconv/gconv-modules\""
chmod o-w /usr/lib/x86_64-linux-gnu/gconv/gconv-modules

bindover /var/lib/dpkg
mkdir -p /var/lib/dpkg/info
chmod o+w /var/lib/dpkg/info
judged "/var/lib/dpkg/info" "$W\"/var/lib/dpkg/info\", inside \"/var/lib/dpkg\", which root runs or trusts: the package database"
chmod o-w /var/lib/dpkg/info

bindover /opt
mkdir /opt/app
chown ht1 /opt/app
judged "/opt/app, owned by the target" "$O\"/opt/app\", inside \"/opt\""
chown root /opt/app

bindover /boot
touch /boot/grub.cfg
chmod o+w /boot/grub.cfg
judged "/boot/grub.cfg" "$W\"/boot/grub.cfg\", inside \"/boot\""
chmod o-w /boot/grub.cfg

# cron's spool: out of the target's reach, nothing there is writable by it;
# in reach (others may enter, though not list), its own crontab is its own
# and another user's is not. The table's walk, as the target, cannot list
# the spool and sees neither.
bindover /var/spool/cron
mkdir -p /var/spool/cron/crontabs
chmod 1730 /var/spool/cron/crontabs
printf '# ht1\n' >/var/spool/cron/crontabs/ht1
chown ht1 /var/spool/cron/crontabs/ht1
chmod 600 /var/spool/cron/crontabs/ht1
printf '# hto\n' >/var/spool/cron/crontabs/hto
chown hto /var/spool/cron/crontabs/hto
chmod 606 /var/spool/cron/crontabs/hto
as_user ht1 sh -c 'echo x >> /var/spool/cron/crontabs/hto' 2>/dev/null
expect "a crontab others may write, in a spool the target cannot enter: it really cannot" test $? != 0
clean "a crontab others may write, in a spool the target cannot enter"
chmod 1731 /var/spool/cron/crontabs
chmod 600 /var/spool/cron/crontabs/hto
run_as root check -c "$CONF"
expect "the target's own crontab in a spool it may enter: ruas check as root exits 0" test "$RC" = 0
setup check --target ht1 --supervisor sup
expect "... ruas-setup check exits 0" test "$RC" = 0
run_sup check -c "$CONF"
expect "... a supervisor that cannot list the spool says so (fatal)" test "$RC" = 1
expect "... naming it" has "$ERR" '"/var/spool/cron/crontabs", inside "/var/spool/cron", was not judged for target user "ht1"'
chmod 606 /var/spool/cron/crontabs/hto
run_as root check -c "$CONF"
expect "another user's crontab the target may write: ruas check as root exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"/var/spool/cron/crontabs/hto\""
setup check --target ht1 --supervisor sup
expect "... ruas-setup check exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"/var/spool/cron/crontabs/hto\""
hasnt "$ERR" '"/var/spool/cron/crontabs/ht1"'
expect "... and not the target's own" test $? = 0
umount /var/spool/cron

# A directory that ld.so.conf names, outside every other tree.
mkdir -p "$SB/ldlib"
chmod 755 "$SB"
chown ht1 "$SB/ldlib"
printf '%s\n' "$SB/ldlib" >/etc/ld.so.conf.d/zz-ht.conf
judged "a directory ld.so.conf names" "$O\"$SB/ldlib\""
run_sup check -c "$CONF"
expect "... with the loader's why" has "$ERR" "a directory that ld.so.conf names"
rm /etc/ld.so.conf.d/zz-ht.conf

# ------------------------------------------------------------------ read-only mounts
bindover /usr/share/perl5
chmod o+w /usr/share/perl5
judged "/usr/share/perl5, writable (the control for the read-only case)" "$W\"/usr/share/perl5\""
mount -o remount,bind,ro /usr/share/perl5
as_user ht1 touch /usr/share/perl5/x 2>/dev/null
expect "a read-only bind mount: the target really cannot write there" test $? != 0
run_sup check -c "$CONF"
expect "a read-only bind mount: not writable, ruas check (sup) exits 0" test "$RC" = 0
expect "... and does not name it" hasnt "$ERR" '"/usr/share/perl5"'
run_as root check -c "$CONF"
expect "... nor as root" test "$RC" = 0
umount /usr/share/perl5

# ------------------------------------------------------------------ what the supervisor cannot list
mkdir -p /etc/hidden.d
touch /etc/hidden.d/job
chmod o+w /etc/hidden.d/job
chmod 711 /etc/hidden.d
run_sup check -c "$CONF"
expect "a directory sup cannot list but the target can enter: fatal for sup" test "$RC" = 1
expect "... saying it was not judged, and why" has "$ERR" '"/etc/hidden.d", inside "/etc", was not judged for target user "ht1": the supervisor "sup" cannot list it and the target can enter it'
expect "... naming the fix" has "$ERR" "run ruas check as root"
run_as root check -c "$CONF"
expect "... root lists it and names the file itself" has "$ERR" "$W\"/etc/hidden.d/job\""
chmod o-w /etc/hidden.d/job
chmod 700 /etc/hidden.d
run_sup check -c "$CONF"
expect "... one the target cannot enter either: exit 0" test "$RC" = 0

# ------------------------------------------------------------------ ruas run refuses too
chmod o+w /etc/fstab
run_sup run -c "$CONF" p
expect "ruas run with a writable /etc/fstab: refused (exit 1)" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"/etc/fstab\""

# ------------------------------------------------------------------ /etc/fstab, end to end
# The target builds an ext4 image holding a root-owned set-user-ID shell
# (debugfs writes an image file without root) and mounts it through the
# line it adds to fstab: mount(8) is set-user-ID and trusts fstab.
if [ -e /dev/loop-control ] && command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null; then
	H=/home/ht1
	as_user ht1 sh -c "mkdir -p $H/src $H/mnt && cp /bin/bash $H/src/sh &&
		/usr/sbin/mkfs.ext4 -q -F -d $H/src $H/img 8M &&
		/usr/sbin/debugfs -w -R 'sif /sh uid 0' $H/img && /usr/sbin/debugfs -w -R 'sif /sh gid 0' $H/img &&
		/usr/sbin/debugfs -w -R 'sif /sh mode 0104755' $H/img" >/dev/null 2>&1
	as_user ht1 sh -c "echo '$H/img $H/mnt ext4 user,exec,suid,loop 0 0' >> /etc/fstab"
	as_user ht1 mount "$H/mnt" >"$SB/out" 2>&1
	OUT=$(as_user ht1 "$H/mnt/sh" -p -c 'id -u' 2>&1)
	expect "fstab: the attack works: the target's set-user-ID shell is root" test "$OUT" = 0
	umount "$H/mnt" 2>/dev/null
	sed -i '\|user,exec,suid,loop|d' /etc/fstab
else
	echo "# SKIP fstab end to end: no loop devices, mkfs.ext4 or debugfs here" >&2
	not_ok "fstab end to end needs /dev/loop-control, mkfs.ext4 and debugfs (e2fsprogs)"
fi
chmod o-w /etc/fstab

# ------------------------------------------------------------------ the kept verdict (ruas run)
# A check that passed is kept whole; ruas run reuses it while nothing it
# stood on has changed. The proof that it is reused: a change outside its
# key (a file inside the supervisor's home) is not seen by ruas run within
# the interval, and is by ruas check. Inside its key (a sudoers rule, the
# target's groups, the configuration), ruas run checks anew at once.
CONF3="$SB/conf/verdict.conf"
sed 's/host_check_interval = 0;/host_check_interval = 300;/' "$CONF" >"$CONF3"
chmod 644 "$CONF3"
SUPHOME=$(getent passwd sup | cut -d: -f6)
# /etc/fstab writable by a group the target is not in (yet).
sandbox_group htroot
chgrp htroot /etc/fstab
chmod g+w /etc/fstab
run_sup check --fresh -c "$CONF3"
expect "kept verdict: ruas check passes and keeps it" test "$RC" = 0
expect "... in the supervisor's own 0600 file" test "$(stat -c '%U %a' "$SUPHOME"/.cache/ruas/verdict-* 2>&1)" = "sup 600"
touch "$SUPHOME/.profile"
chmod o+w "$SUPHOME/.profile"
run_sup run -c "$CONF3" p
expect "... ruas run reuses it: a change outside its key waits for the interval" test "$RC" = 0
printf '# changed\n' >>"$CONF3"
run_sup run -c "$CONF3" p
expect "... the configuration changed: ruas run checks anew and refuses" test "$RC" = 1
run_sup check -c "$CONF3"
expect "... ruas check does not reuse it: fatal" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"$SUPHOME/.profile\""
run_sup run -c "$CONF3" p
expect "... a fatal verdict is never kept: ruas run refuses too" test "$RC" = 1
chmod o-w "$SUPHOME/.profile"
run_sup run -c "$CONF3" p
expect "... fixed: ruas run passes (and keeps that)" test "$RC" = 0
sandbox_sudoers ht1-up 'ht1 ALL=(ALL) NOPASSWD: ALL'
run_sup run -c "$CONF3" p
expect "... a sudoers rule added: ruas run checks anew and refuses" test "$RC" = 1
expect "... naming it" has "$ERR" 'target user "ht1" can run passwordless sudo'
rm /etc/sudoers.d/ht1-up
run_sup run -c "$CONF3" p
expect "... removed: ruas run passes" test "$RC" = 0
usermod -aG htroot ht1
run_sup run -c "$CONF3" p
expect "... the target put in the group that may write /etc/fstab: ruas run refuses" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"/etc/fstab\""
gpasswd -d ht1 htroot >/dev/null
run_sup run -c "$CONF3" p
expect "... taken out again: ruas run passes" test "$RC" = 0
chgrp root /etc/fstab
chmod g-w /etc/fstab

# ------------------------------------------------------------------ the kept walk (host_check_interval)
CONF2="$SB/conf/kept.conf"
sed 's/host_check_interval = 0;/host_check_interval = 300;/' "$CONF" >"$CONF2"
chmod 644 "$CONF2"
run_sup check --fresh -c "$CONF2"
expect "kept walk: ruas check --fresh walks now and passes" test "$RC" = 0
KEPT="$SUPHOME/.cache/ruas/host-trees"
expect "... and keeps the walk where only the supervisor can write: $KEPT" \
	test "$(stat -c '%U %a' "$KEPT" 2>&1) $(stat -c '%U %a' "${KEPT%/*}" 2>&1)" = "sup 600 sup 700"
chmod o+w /etc/fstab
run_sup run -c "$CONF2" p
expect "... ruas run within host_check_interval reuses it (a new hole waits for the next walk)" test "$RC" = 0
run_sup check -c "$CONF2"
expect "... and so does ruas check" test "$RC" = 0
run_sup check --fresh -c "$CONF2"
expect "... ruas check --fresh walks again: fatal at once" test "$RC" = 1
expect "... naming it" has "$ERR" "$W\"/etc/fstab\""
run_sup run -c "$CONF2" p
expect "... and ruas run then reuses that walk: refused" test "$RC" = 1
chmod o-w /etc/fstab
run_sup run -c "$CONF2" p
expect "... fixed: the kept walk's finding is looked at again, ruas run starts at once" test "$RC" = 0
run_sup check -c "$CONF2"
expect "... and ruas check passes" test "$RC" = 0
chmod o+w /etc/fstab
chmod 666 "$KEPT"
run_sup run -c "$CONF2" p
expect "a kept walk others could write is not read: ruas run walks and refuses" test "$RC" = 1
chmod o-w /etc/fstab
run_sup check --fresh -c "$CONF2"
chmod 755 "${KEPT%/*}"
chmod o+w /etc/fstab
run_sup run -c "$CONF2" p
expect "a kept walk in a directory others may enter is not read: refused" test "$RC" = 1
chmod o-w /etc/fstab
chmod 700 "${KEPT%/*}"
chmod 755 "$SUPHOME/.cache"
rm -f "$KEPT"
run_sup check --fresh -c "$CONF2"
expect "~/.cache 0755 (many are): still kept in its 0700 ruas directory" test "$(stat -c '%U %a' "$KEPT" 2>&1)" = "sup 600"
chmod 757 "$SUPHOME/.cache"
rm -f "$KEPT"
run_sup check --fresh -c "$CONF2"
expect "~/.cache writable by others: nothing kept" test ! -e "$KEPT"
chmod 700 "$SUPHOME/.cache"
run_as root check --fresh -c "$CONF2"
expect "as root the walk is kept in /run/ruas" test "$(stat -c '%U %a' /run/ruas/host-trees /run/ruas 2>&1 | tr '\n' ' ')" = "root 600 root 700 "

clean "everything put back"
tap_finish
