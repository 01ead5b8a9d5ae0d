#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for ruas-setup acl: the grant of rwX on a work tree by
# descriptor, against a target that races it with symlinks to /etc
# (renameat2 RENAME_EXCHANGE and plain renames, many rounds); a symlink at
# the top; a mount point inside; hard links to root's files; FIFOs and
# devices; hostile names; the depth cap; the useradd script end to end.
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/acl.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=26000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
SWAPPER="$abs_top_srcdir/tests/integration/swapper.pl"
export LD_LIBRARY_PATH="$LIBDIR"
. "$abs_top_srcdir/tests/integration/tap.sh"
for c in getfacl setfacl perl timeout; do
	command -v $c >/dev/null || { echo "Bail out! $c is not installed (scripts/install-deps)"; exit 99; }
done

# setup ARGS...: runs ruas-setup as root; sets RC, OUT, ERR.
setup() {
	timeout 60 "$SETUP" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
# setup_ro DIR ARGS...: setup, with DIR read-only in a mount namespace of its
# own: /usr, /var, /boot... are the host's here, and a regression of a refusal
# must fail on EROFS, never change them. (A DIR that does not exist here has
# nothing to change.)
setup_ro() {
	local d=$1
	shift
	timeout 60 unshare --mount --propagation private sh -c \
		'{ [ ! -e "$0" ] || { mount --bind "$0" "$0" && mount -o remount,bind,ro "$0"; }; } && exec "$@"' \
		"$d" "$SETUP" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
# acl_of PATH: its ACL, access and default, without the "# file" line.
acl_of() { getfacl -P -p -- "$1" 2>/dev/null | grep -v '^# file:'; }
granted() { acl_of "$1" | grep -qx "user:t:$2"; }
granted_default() { acl_of "$1" | grep -qx "default:user:t:rwx"; }
not_granted() { ! acl_of "$1" | grep -q 'user:t:'; }
# Every ACL under /etc, and a few by name, byte for byte.
etc_acls() {
	getfacl -R -P -p /etc 2>/dev/null | sha256sum
	getfacl -P -p /etc /etc/passwd /etc/shadow /etc/sudoers /etc/sudoers.d 2>&1
}

sandbox_guard
sandbox_user t
sandbox_user other
mkdir -p "$SB/srv"
chmod 711 "$SB/srv"
etc_before=$(etc_acls)

# ------------------------------------------------------------------ usage
setup acl --work-dir "$SB/srv"
expect "acl without --target: exit 2" test "$RC" = 2
setup acl --target t --target other --work-dir "$SB/srv"
expect "acl with two targets: exit 2" test "$RC" = 2
setup acl --target t
expect "acl without --work-dir: exit 2" test "$RC" = 2
expect "... saying so" has "$ERR" "acl needs --work-dir DIR"
setup acl --target t --work-dir relative/dir
expect "acl with a relative --work-dir: exit 2" test "$RC" = 2
setup acl --target 'a b' --work-dir "$SB/srv"
expect "acl with a hostile target name: exit 2" test "$RC" = 2
setup acl --target no-such-user --work-dir "$SB/srv"
expect "acl for a user that does not exist: exit 1" test "$RC" = 1
expect "... naming it" has "$ERR" 'no user "no-such-user"'
useradd -o -u 0 -M -s /bin/bash toor
setup acl --target toor --work-dir "$SB/srv"
expect "acl for a uid-0 account: refused (exit 2)" test "$RC" = 2
expect "... saying it is root" has "$ERR" "uid 0"
expect "ruas-setup --help lists acl" bash -c '"$1" --help | grep -q "ruas-setup acl --target USER --work-dir DIR"' _ "$SETUP"

# ------------------------------------------------------------------ the top
ln -s /etc "$SB/srv/top"
setup acl --target t --work-dir "$SB/srv/top"
expect "a symlink as work_dir: exit 1" test "$RC" = 1
expect "... saying it is a symlink" has "$ERR" "work_dir $SB/srv/top is a symlink; refusing"
setup acl --target t --work-dir "$SB/srv/top/ssh"
expect "a symlink in work_dir's path: exit 1" test "$RC" = 1
expect "... naming the component" has "$ERR" 'component "top" is a symlink'
setup acl --target t --work-dir "$SB/srv/top/../srv"
expect "a '..' in work_dir: exit 1" test "$RC" = 1
setup acl --target t --work-dir /
expect "work_dir /: refused" test "$RC" = 1
expect "... saying why" has "$ERR" "whole filesystem"
# (issue 25) A tree that root and the system trust, a directory inside one,
# or one above one: granting the target rwX there is a way up (rw- on
# /etc/shadow, rwx on /etc/sudoers.d). Refused before anything is touched.
for d in /etc /etc/sudoers.d /usr/local /usr/local/lib /var/lib /var /home /boot /root /opt \
	/var/spool/cron /var/lib/dpkg/info /tmp; do
	setup_ro "$d" acl --target t --work-dir "$d"
	expect "work_dir $d: refused, exit 1" test "$RC" = 1
	expect "... naming the tree and saying nothing was granted" has "$ERR" "which root and the system trust"
done
setup_ro /etc acl --target t --work-dir /etc
expect "... /etc: it is the tree" has "$ERR" "work_dir /etc is /etc, which root"
setup_ro /usr/local acl --target t --work-dir /usr/local
expect "... /usr/local: it lies inside /usr" has "$ERR" "work_dir /usr/local lies inside /usr,"
setup_ro /var acl --target t --work-dir /var
expect "... /var: it lies above /var/lib/dpkg" has "$ERR" "work_dir /var lies above /var/lib/dpkg,"
setup_ro /home acl --target t --work-dir /home
expect "... /home: it lies above every home" has "$ERR" "work_dir /home is /home,"
echo x >"$SB/srv/file"
setup acl --target t --work-dir "$SB/srv/file"
expect "a file as work_dir: exit 1, not a directory" has "$ERR" "is not a directory"
expect "after the refusals, /etc's ACLs are unchanged" test "$(etc_acls)" = "$etc_before"

# ------------------------------------------------------------------ a tree
W="$SB/srv/w"
mkdir -p "$W/sub/deeper"
echo data >"$W/sub/plain"
printf '#!/bin/sh\n' >"$W/sub/run"
chmod 755 "$W/sub/run"
names=('a b' $'new\nline' "q'uote\"d" '$HOME' '-dash' '*' ' lead' 'back\slash')
for n in "${names[@]}"; do mkdir -p "$W/$n" && echo x >"$W/$n/$n"; done
setfacl -m u:other:r,g:other:rw "$W/sub/plain"
setfacl -m u:t:r "$W/sub/deeper"
mkfifo "$W/fifo"
mknod "$W/null" c 1 3
ln -s /etc/passwd "$W/passwd-link"
ln -s /etc "$W/etc-link"
setup acl --target t --work-dir "$W"
expect "a tree: exit 0" test "$RC" = 0
expect "... nothing on stdout" test -z "$OUT"
expect "... a summary on stderr" has "$ERR" "t has rwX on"
expect "the root: user:t:rwx" granted "$W" rwx
expect "the root: default:user:t:rwx" granted_default "$W"
expect "a directory: rwx and the default" bash -c 'acl_of() { getfacl -P -p -- "$1" | grep -v "^# file:"; }; acl_of "$1" | grep -qx user:t:rwx && acl_of "$1" | grep -qx default:user:t:rwx' _ "$W/sub"
expect "a plain file: rw- (X gives no x)" granted "$W/sub/plain" rw-
expect "an executable file: rwx" granted "$W/sub/run" rwx
expect "an existing entry for t (r--) becomes rwx" granted "$W/sub/deeper" rwx
expect "other entries are kept" bash -c 'getfacl -p "$1" | grep -qx user:other:r-- && getfacl -p "$1" | grep -qx group:other:rw-' _ "$W/sub/plain"
expect "the mask is recomputed (rw- for a plain file)" bash -c 'getfacl -p "$1" | grep -qx mask::rw-' _ "$W/sub/plain"
bad=0
for n in "${names[@]}"; do
	granted "$W/$n" rwx || { bad=1; echo "# not granted: $(printf %q "$W/$n")"; }
	granted "$W/$n/$n" rw- || { bad=1; echo "# not granted: $(printf %q "$W/$n/$n")"; }
done
expect "names with spaces, newlines, quotes, \$, *, a leading - or \\: granted" test "$bad" = 0
expect "the FIFO is not touched (nor opened: the run did not block)" not_granted "$W/fifo"
expect "the device is not touched" not_granted "$W/null"
expect "the symlinks' targets are not touched" test "$(etc_acls)" = "$etc_before"
expect "the summary counts the 21 directories and files" has "$ERR" "on 21 directories and files (21 changed)"
setup acl --target t --work-dir "$W/"
expect "a second run: exit 0, nothing to change" has "$ERR" "on 21 directories and files (0 changed)"
expect "the agent can write the tree" as_user t sh -c 'echo y >>"$1/sub/plain" && mkdir "$1/sub/new" && echo z >"$1/sub/new/f"' _ "$W"
expect "... and what it creates inherits the grant" granted "$W/sub/new" rwx
# What the agent writes itself is its own: a run after it changes none of it.
as_user t sh -c 'umask 022; for i in 1 2 3; do echo x >"$1/sub/new/a$i"; mkdir "$1/sub/new/d$i"; done
	umask 077; echo x >"$1/sub/new/private"; chmod 0400 "$1/sub/new/a1"' _ "$W"
before=$(getfacl -R -P -p "$W" 2>/dev/null | sha256sum)
setup acl --target t --work-dir "$W/"
expect "a run after the agent wrote files: nothing to change" has "$ERR" "(0 changed)"
expect "... and no ACL in the tree was touched" test "$(getfacl -R -P -p "$W" 2>/dev/null | sha256sum)" = "$before"

# ------------------------------------------------------------------ mount points, hard links, depth
mkdir "$W/mnt"
mount -t tmpfs -o mode=755 tmpfs "$W/mnt"
mkdir "$W/mnt/in"
echo x >"$W/mnt/in/f"
setup acl --target t --work-dir "$W"
expect "a mount point inside: exit 0" test "$RC" = 0
expect "... reported on stderr" has "$ERR" "$W/mnt: is on another filesystem (a mount point); not entered"
expect "... and counted" has "$ERR" "1 mount points not entered"
expect "the mount point's root is not granted" not_granted "$W/mnt"
expect "nor anything in it" not_granted "$W/mnt/in/f"
umount "$W/mnt"

# /etc here is a bind mount of $SB/etc: the same filesystem as the tree, so
# a hard link to /etc/shadow can be made (by root here; by the target where
# fs.protected_hardlinks is off).
shadow_acl=$(getfacl -P -p /etc/shadow)
ln "$SB/etc/shadow" "$W/sub/shadow-link"
setup acl --target t --work-dir "$W"
expect "a hard link to a root file: exit 0" test "$RC" = 0
expect "... reported" has "$ERR" "$W/sub/shadow-link: has other hard links and another owner; not touched"
expect "/etc/shadow's ACL is unchanged" test "$(getfacl -P -p /etc/shadow)" = "$shadow_acl"
rm "$W/sub/shadow-link"
ln "$W/sub/run" "$W/sub/run-link"
chown t "$W/sub/run"
setup acl --target t --work-dir "$W"
expect "a hard link to the target's own file is granted" test "$RC" = 0 -a -n "$(granted "$W/sub/run-link" rwx && echo y)"
rm "$W/sub/run-link"

D="$SB/srv/deep"
mkdir -p "$D"
p=$D
for i in $(seq 1 258); do p=$p/d; done
mkdir -p "$p"
setup acl --target t --work-dir "$D"
expect "a tree deeper than 256 levels: exit 1" test "$RC" = 1
expect "... saying so" has "$ERR" "more than 256 levels below work_dir; not granted"
q=$D
for i in $(seq 1 256); do q=$q/d; done
expect "... level 256 is granted" granted "$q" rwx
expect "... level 257 is not" not_granted "$q/d"
rm -rf "$D"

# ------------------------------------------------------------------ moved in, bind mounts
# The target renames another user's 0600 file (and a directory) into its
# tree from a group-writable, non-sticky directory it shares with them.
sandbox_group shgrp
usermod -aG shgrp t
usermod -aG shgrp other
M="$SB/srv/moved"
mkdir -p "$M" "$SB/shared"
chown t: "$M"
chown other:shgrp "$SB/shared"
chmod 2770 "$SB/shared"
echo topsecret >"$SB/shared/secret"
mkdir "$SB/shared/sdir"
echo s >"$SB/shared/sdir/in"
chown -R other:other "$SB/shared/secret" "$SB/shared/sdir"
chmod 600 "$SB/shared/secret" "$SB/shared/sdir/in"
chgrp shgrp "$SB/shared/sdir"
chmod 2770 "$SB/shared/sdir" # the target may write it: needed to rename a directory
as_user t sh -c 'mv "$1/secret" "$1/sdir" "$2/" && echo mine >"$2/own"' _ "$SB/shared" "$M"
setup acl --target t --work-dir "$M"
expect "another user's file moved in: exit 0" test "$RC" = 0
expect "... not granted" not_granted "$M/secret"
t_cannot_read() { ! as_user t cat "$1" >/dev/null 2>&1; }
expect "... the target still cannot read it" t_cannot_read "$M/secret"
expect "... reported, naming the owner" has "$ERR" "$M/secret: not granted: owned by other (uid $(id -u other)), neither the target nor the owner of work_dir"
expect "another user's directory moved in: not granted, not entered" test -n "$(not_granted "$M/sdir" && not_granted "$M/sdir/in" && echo y)"
expect "... counted in the summary" has "$ERR" "2 directories and files of other owners not granted"
# The target's own file: granted as it is (its owner bits), neither reported nor rewritten.
expect "the target's own file is counted as granted (with the work_dir: 2), not reported" \
	test -n "$(grep -F 't has rwX on 2 directories and files' <<<"$ERR")" -a -z "$(grep -F "$M/own" <<<"$ERR")"
expect "... its ACL left as the target made it (no named entry), and it reads it" \
	test -n "$(not_granted "$M/own" && as_user t cat "$M/own" && echo y)"

B="$SB/srv/bind"
mkdir -p "$B/cache" "$SB/victim"
echo s >"$SB/victim/f"
chmod 600 "$SB/victim/f"
chown t: "$B"
mount --bind "$SB/victim" "$B/cache"
setup acl --target t --work-dir "$B"
expect "a bind mount of the same filesystem inside: exit 0" test "$RC" = 0
expect "... reported" has "$ERR" "$B/cache: is another mount (a bind mount of the same filesystem); not entered"
expect "... counted" has "$ERR" "1 mount points not entered"
umount "$B/cache"
expect "... the bound directory is not granted" not_granted "$SB/victim"
expect "... nor its file" not_granted "$SB/victim/f"

# ------------------------------------------------------------------ the race
# The attack: the target swaps directories of its tree with symlinks to /etc
# while root re-runs the grant, many rounds.
R="$SB/srv/race"
setup_race_tree() {
	rm -rf "$1"
	mkdir -p "$1/real/in" "$1/deep/real/in" "$1/plain/in"
	echo x >"$1/real/in/f"
	ln -s /etc "$1/link"
	ln -s /etc "$1/deep/link"
}
# Puts the real directories back under their names once the swapper stopped.
restore_race_tree() {
	local d
	for d in "$1" "$1/deep"; do
		if [ -L "$d/real" ]; then mv "$d/real" "$d/tmp" && mv "$d/link" "$d/real" && mv "$d/tmp" "$d/link"; fi
	done
	[ -d "$1/plain" ] || mv "$1/plain.away" "$1/plain"
	rm -f "$1/plain.new"
}
race() { # race TREE TO ROUNDS SECONDS CMD...: CMD up to ROUNDS times while the swapper runs
	local tree=$1 to=$2 rounds=$3 secs=$4 i end
	shift 4
	as_user_bg t perl "$SWAPPER" "$tree" "$((secs + 30))" "$to"
	local pid=$BGPID
	sleep 0.2
	end=$((SECONDS + secs))
	RACE_RUNS=0 RACE_FAILS=0
	for ((i = 0; i < rounds && SECONDS < end; i++)); do
		"$@" >"$SB/race.out" 2>"$SB/race.err" </dev/null || RACE_FAILS=$((RACE_FAILS + 1))
		RACE_RUNS=$((RACE_RUNS + 1))
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	restore_race_tree "$tree"
}

# The control: today's setfacl lines, against a decoy instead of /etc, show
# that the swapper wins such races here (a note, not a check: it is luck).
DECOY="$SB/decoy"
mkdir -p "$DECOY"
C="$SB/srv/control"
setup_race_tree "$C"
for l in "$C/link" "$C/deep/link"; do ln -sfn "$DECOY" "$l"; done
setfacl -P -R -m u:t:rwX "$C"
old_grant() { setfacl -P -R -m u:t:rwX -- "$C" && find "$C" -type d -exec setfacl -m d:u:t:rwX -- {} +; }
race "$C" "$DECOY" 100 20 old_grant
if acl_of "$DECOY" | grep -q 'user:t:'; then
	echo "# control: setfacl -P -R + find gave t an ACL on the decoy within $RACE_RUNS rounds"
else
	echo "# control: setfacl -P -R + find did not reach the decoy in $RACE_RUNS rounds this time"
fi

setup_race_tree "$R"
setup acl --target t --work-dir "$R"
expect "the race tree: first grant, exit 0" test "$RC" = 0
etc_before=$(etc_acls)
race "$R" /etc 200 60 "$SETUP" acl --target t --work-dir "$R"
RC=$RACE_FAILS OUT="" ERR=$(cat "$SB/race.err")
echo "# $RACE_RUNS rounds of ruas-setup acl under the swapper"
expect "the race: at least 50 rounds ran" test "$RACE_RUNS" -ge 50
expect "the race: every round exited 0" test "$RACE_FAILS" = 0
expect "the race: /etc's ACLs are byte for byte unchanged (getfacl -R /etc, /etc/passwd, ...)" test "$(etc_acls)" = "$etc_before"
expect "the race: no ACL entry for t anywhere under /etc" bash -c '! getfacl -R -P -p /etc 2>/dev/null | grep -q "user:t:"'
setup acl --target t --work-dir "$R"
expect "after the race: exit 0" test "$RC" = 0
expect "after the race: t has rwx on the real tree" granted "$R/real" rwx
expect "... and the default ACL" granted_default "$R/deep/real/in"
expect "... and rw on its files" granted "$R/real/in/f" rw-

# ------------------------------------------------------------------ useradd end to end
U="$SB/srv/app dir"
mkdir -p "$U/src"
echo x >"$U/src/main.c"
"$SETUP" useradd --target app-agent --work-dir "$U" >"$SB/useradd.sh"
RC=$? OUT=$(cat "$SB/useradd.sh") ERR=""
expect "useradd: the script names this ruas-setup, single-quoted" has "$OUT" "ruas_setup='$SETUP'"
expect "useradd: it runs ruas-setup acl, not setfacl or find" bash -c 'grep -q "^\"\$ruas_setup\" acl --target \"\$user\" --work-dir \"\$work_dir\"\$" "$1" && ! grep -qE "^[[:space:]]*(setfacl|find) " "$1"' _ "$SB/useradd.sh"
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd | sh: exit 0" test "$RC" = 0
expect "useradd | sh: the grant's summary" has "$ERR" "app-agent has rwX on"
expect "useradd | sh: the agent can write its tree" as_user app-agent sh -c 'echo y >>"$1/src/main.c" && touch "$1/src/new"' _ "$U"
ln -s "$U" "$SB/srv/app-link"
"$SETUP" useradd --target app-agent --work-dir "$SB/srv/app-link" | sh >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd | sh with a symlink as work_dir: fails" test "$RC" != 0
expect "... saying so" has "$ERR" "is a symlink; refusing"

tap_finish
