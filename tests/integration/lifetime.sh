#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the lifetime check (issue 13): what can keep a
# target's processes running after a run (lingering, a running systemd user
# manager, crontab and at), as ruas check reports it, with real users, real
# sudo and the real paths. Inside the private-namespace sandbox (see
# sandbox.sh), where /var/lib/systemd, /var/spool and /sys/fs/cgroup are
# tmpfs and /usr/bin an overlay whose upper layer (a tmpfs) takes a crontab
# and an at of its own: nothing reaches the host. Needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/lifetime.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=25000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
export LD_LIBRARY_PATH="$LIBDIR"

. "$abs_top_srcdir/tests/integration/tap.sh"
# The pam backend's service, as make install puts it (a root supervisor's checks run it).
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas

# ------------------------------------------------------------------ the host
# Start clean whatever the host has installed: the overlay hides its crontab
# and at (whiteouts in the upper layer), /etc is the sandbox's copy.
sandbox_guard
if ! grep -qw overlay /proc/filesystems; then
	echo "SKIP: tests/integration/lifetime.sh needs overlayfs (for a private /usr/bin)" >&2
	exit 77
fi
mount -t tmpfs -o mode=0755 tmpfs /var/lib/systemd
mkdir -m 0755 /var/lib/systemd/linger
mount -t tmpfs -o mode=0755 tmpfs /var/spool
ln -s ../mail /var/spool/mail
mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup
mkdir -p "$SB/ovl"
mount -t tmpfs -o mode=0755 tmpfs "$SB/ovl"
mkdir -m 0755 "$SB/ovl/up" "$SB/ovl/work"
mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$SB/ovl/up,workdir=$SB/ovl/work" /usr/bin
rm -f /usr/bin/crontab /usr/bin/at /etc/cron.allow /etc/cron.deny /etc/at.allow /etc/at.deny
fake_program() { # PATH: an installed program that does nothing
	printf '#!/bin/sh\nexit 1\n' >"$1"
	chmod 0755 "$1"
}

sandbox_user sup
# A clean host says nothing: not even that /proc shows command lines. The
# supervisor's group sees every process, as the stand-in manager below needs.
sandbox_proc_hidepid sup
for u in lclean llinger lman lother lcg lcron lat lall; do sandbox_user "$u"; done
rules=()
for u in lclean llinger lman lother lcg lcron lat lall; do
	rules+=("sup ALL=($u) NOPASSWD: ALL" "Defaults:$u listpw=never")
done
sandbox_sudoers ruas-sup "${rules[@]}"

mkdir -p "$SB/conf" "$SB/lw"
chmod 755 "$SB/lw"
conf() { # USER [PROJECTS]: one config for USER, with PROJECTS projects (1)
	local i n=${2:-1} f="$SB/conf/$1.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\nprojects = (\n' "$(cfgstr "$HELPER")" \
			"$(cfgstr "$SESSION")"
		for ((i = 1; i <= n; i++)); do
			printf '  { name = "p%s"; run_as_user = "%s"; work_dir = "%s"; command = ["true"]; }%s\n' \
				"$i" "$1" "$SB/lw" "$([ "$i" -lt "$n" ] && echo ,)"
		done
		printf ');\n'
	} >"$f"
	chmod 644 "$f"
	CONF=$f
}
check_target() { # USER [PROJECTS]: ruas check as the supervisor
	conf "$@"
	run_sup check -c "$CONF"
}
check_as_root() { # USER: ruas check as root (the pam backend)
	conf "$1"
	"$RUAS" check -c "$CONF" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
first_line() { printf 'WARNING: target user "%s" can hand processes to something that outlives a run:' "$1"; }
risk_line() { printf 'ruas ends the agent'"'"'s process tree when a run ends; what the agent hands to these is not in that tree, and keeps running as "%s" after it.' "$1"; }
expect_clean() { # NAME: the last check passed with nothing to say
	expect "$1: exit 0" test "$RC" = 0
	expect "... no warning" hasnt "$ERR" "WARNING"
	expect "... and the summary says none" has "$ERR" ": 0 error(s), 0 warning(s)"
}

# ------------------------------------------------------------------ a clean host
check_target lclean
expect_clean "a clean host"
run_sup check -c "$CONF" --json
expect "... --json: no warnings" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $p = $j->{projects}[0]; exit(($j->{ok} && !@{$p->{warnings}} && !@{$p->{errors}}) ? 0 : 1)' <"$SB/out"

# ------------------------------------------------------------------ lingering
sandbox_guard
touch /var/lib/systemd/linger/llinger
check_target llinger
expect "lingering: a warning, exit 0" test "$RC" = 0
expect "... the contract line" has "$ERR" "$(first_line llinger)"
expect "... why" has "$ERR" "
  lingering is enabled (/var/lib/systemd/linger/llinger): its systemd user manager runs whether or not it is logged in.
"
expect "... the residual risk" has "$ERR" "$(risk_line llinger)"
expect "... and the fix" has "$ERR" "
Turn off what it does not need, or accept the risk:
  loginctl disable-linger llinger
"
expect "... nothing about a manager, cron or at" hasnt "$ERR" "systemd --user"
expect "... (cron)" hasnt "$ERR" "crontab"
expect "... no error" hasnt "$ERR" "ERROR"
run_sup check -c "$CONF" --json
expect "... --json: one warning, check lifetime" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $p = $j->{projects}[0]; exit(($j->{ok} && @{$p->{warnings}} == 1 && $p->{warnings}[0]{check} eq "lifetime" && $p->{warnings}[0]{message} =~ /lingering is enabled/) ? 0 : 1)' <"$SB/out"
check_target lclean
expect_clean "another user's linger file is not this one's"
rm /var/lib/systemd/linger/llinger
check_target llinger
expect_clean "lingering disabled"

# ------------------------------------------------------------------ a running user manager
# A process of the target named "systemd", as systemd --user is.
mkdir -m 0755 "$SB/fakebin"
cp /bin/sleep "$SB/fakebin/systemd"
as_user_bg lman "$SB/fakebin/systemd" 300
MAN=$BGPID
for _ in $(seq 100); do
	[ "$(cat "/proc/$MAN/comm" 2>/dev/null)" = systemd ] && break
	sleep 0.05
done
expect "the stand-in manager runs as lman, named systemd" test "$(cat "/proc/$MAN/comm")" = systemd
check_target lman
expect "a running user manager: a warning, exit 0" test "$RC" = 0
expect "... the contract line" has "$ERR" "$(first_line lman)"
expect "... why" has "$ERR" "
  a systemd user manager (systemd --user) is running for it: systemd-run --user and systemctl --user start processes there."
expect "... and the fix" has "$ERR" '
  loginctl terminate-user lman   (stops the running manager, and every process of "lman")
'
expect "... nothing about lingering" hasnt "$ERR" "linger"
check_target lother
expect_clean "another user's manager is not this one's"
kill "$MAN"
wait "$MAN" 2>/dev/null
check_target lman
expect_clean "the manager stopped"

# Its cgroup, where systemd keeps it: user@UID.service in the user's slice.
sandbox_guard
uid=$(id -u lcg)
mkdir -p "/sys/fs/cgroup/user.slice/user-$uid.slice/session-1.scope"
check_target lcg
expect_clean "a session's cgroup alone is no manager"
mkdir "/sys/fs/cgroup/user.slice/user-$uid.slice/user@$uid.service"
check_target lcg
expect "the manager's cgroup: a warning" has "$ERR" "$(first_line lcg)
  a systemd user manager (systemd --user) is running for it"
rmdir "/sys/fs/cgroup/user.slice/user-$uid.slice/user@$uid.service"
mkdir -p "/sys/fs/cgroup/unified/user.slice/user-$uid.slice/user@$uid.service"
check_target lcg
expect "... in the hybrid layout too" has "$ERR" "$(first_line lcg)"
rm -rf /sys/fs/cgroup/unified /sys/fs/cgroup/user.slice
check_target lcg
expect_clean "the manager's cgroup gone"

# ------------------------------------------------------------------ crontab
sandbox_guard
fake_program /usr/bin/crontab
check_target lcron
expect "crontab installed, neither file: a warning (every user may)" has "$ERR" "$(first_line lcron)
  it may use crontab: neither /etc/cron.allow nor /etc/cron.deny exists.
"
expect "... the fix" has "$ERR" "
  echo lcron >> /etc/cron.deny
"
expect "... exit 0" test "$RC" = 0
printf 'daemon\n' >/etc/cron.deny
check_target lcron
expect "cron.deny without it: a warning" has "$ERR" "
  it may use crontab: /etc/cron.deny does not name it.
"
echo lcron >>/etc/cron.deny # the fix, as the text gives it
check_target lcron
expect_clean "cron.deny names it"
printf 'lcron\n' >/etc/cron.allow
check_target lcron
expect "cron.allow names it: a warning, whatever cron.deny says" has "$ERR" "
  it may use crontab: /etc/cron.allow names it.
"
expect "... the fix" has "$ERR" "
  remove lcron from /etc/cron.allow
"
printf 'daemon\n' >/etc/cron.allow
check_target lcron
expect_clean "cron.allow without it"
rm -f /etc/cron.allow

# A crontab it already has: only root can look into the spool.
mkdir -p /var/spool/cron/crontabs
chmod 1730 /var/spool/cron/crontabs
printf '* * * * * true\n' >/var/spool/cron/crontabs/lcron
chmod 600 /var/spool/cron/crontabs/lcron
check_target lcron
expect_clean "a crontab in the spool, as the supervisor: not seen, nothing said"
check_as_root lcron
expect "... as root: a warning" has "$ERR" "$(first_line lcron)
  it has a crontab (/var/spool/cron/crontabs/lcron), which cron runs.
"
expect "... the fix" has "$ERR" "
  crontab -r -u lcron
"
expect "... nothing about using crontab (cron.deny names it)" hasnt "$ERR" "it may use crontab"
expect "... exit 0" test "$RC" = 0
rm -rf /var/spool/cron /usr/bin/crontab /etc/cron.deny

# ------------------------------------------------------------------ at
sandbox_guard
fake_program /usr/bin/at
check_target lat
expect_clean "at installed, neither file: only root may"
: >/etc/at.deny
chmod 644 /etc/at.deny
check_target lat
expect "an empty at.deny: a warning (every user may)" has "$ERR" "$(first_line lat)
  it may use at: /etc/at.deny does not name it.
"
expect "... the fix" has "$ERR" "
  echo lat >> /etc/at.deny
"
echo lat >>/etc/at.deny
check_target lat
expect_clean "at.deny names it"
# As Debian ships it: 0640 root:daemon, which the supervisor cannot read.
: >/etc/at.deny
chmod 640 /etc/at.deny
check_target lat
expect "an unreadable at.deny: the supervisor says it could not judge it" has "$ERR" "
  it may use at: /etc/at.deny exists, but could not be read (ruas check as root can read it).
"
expect "... and how to let it" has "$ERR" "
  echo lat >> /etc/at.deny
  chmod 0644 /etc/at.deny   (it holds only user names; then ruas check can judge it)
"
check_as_root lat
expect "... root reads it: a warning, it does not name lat" has "$ERR" "
  it may use at: /etc/at.deny does not name it.
"
echo lat >>/etc/at.deny
check_as_root lat
expect_clean "... as root, at.deny names it"
printf 'lat\n' >/etc/at.allow
chmod 644 /etc/at.allow
check_target lat
expect "at.allow names it: a warning" has "$ERR" "
  it may use at: /etc/at.allow names it.
"
expect "... the fix" has "$ERR" "
  remove lat from /etc/at.allow
"
rm -f /etc/at.allow /etc/at.deny /usr/bin/at

# ------------------------------------------------------------------ everything, two projects
sandbox_guard
touch /var/lib/systemd/linger/lall
fake_program /usr/bin/crontab
fake_program /usr/bin/at
: >/etc/at.deny
chmod 644 /etc/at.deny
check_target lall 2
expect "everything at once: exit 0" test "$RC" = 0
expect "... one block, every reason in order" has "$ERR" "$(first_line lall)
  lingering is enabled (/var/lib/systemd/linger/lall): its systemd user manager runs whether or not it is logged in.
  it may use crontab: neither /etc/cron.allow nor /etc/cron.deny exists.
  it may use at: /etc/at.deny does not name it.
$(risk_line lall)
Turn off what it does not need, or accept the risk:
  loginctl disable-linger lall
  echo lall >> /etc/cron.deny
  echo lall >> /etc/at.deny
"
expect "... printed once for the two projects" test "$(grep -c 'can hand processes to something' <<<"$ERR")" = 1
expect "... counted on each" has "$ERR" ": 0 error(s), 2 warning(s)"
run_sup check -c "$CONF" --json
expect "... --json: each project has it, check lifetime" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $n = grep { @{$_->{warnings}} == 1 && $_->{warnings}[0]{check} eq "lifetime" } @{$j->{projects}}; exit(($j->{ok} && $n == 2) ? 0 : 1)' <"$SB/out"
# The fixes it gives, applied.
loginctl_disable() { rm -f "/var/lib/systemd/linger/$1"; } # what loginctl disable-linger does
loginctl_disable lall
echo lall >>/etc/cron.deny
echo lall >>/etc/at.deny
check_target lall 2
expect_clean "the fixes applied"
rm -f /usr/bin/crontab /usr/bin/at /etc/cron.deny /etc/at.deny
check_target lclean
expect_clean "and the host clean again"

tap_finish
