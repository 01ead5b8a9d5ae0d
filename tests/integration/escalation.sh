#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for check 2 (issue 11): every way a target could get
# back up through sudo, each set up for real and each caught, by ruas check
# as a non-root supervisor, by ruas check as root (pam backend) and by
# ruas-setup check/install as root. Inside the sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/escalation.sh"
if ! command -v doas >/dev/null; then
	echo "SKIP: doas (Debian's opendoas) is not installed; scripts/install-deps installs it" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=29000
sandbox_setup
sandbox_guard
# Counted findings are the projects' own: /proc hides command lines here, so
# the host's "proc" warning (host_notes.sh) is not among them.
sandbox_proc_hidepid
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
. "$abs_top_srcdir/tests/integration/tap.sh"
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas

setup() {
	"$SETUP" "$@" --helper "$HELPER" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
# conf USER [EXTRA GLOBAL LINES]: a one-project configuration for USER.
conf() {
	mkdir -p "$SB/conf" "$SB/w"
	chmod 755 "$SB/w"
	CONF="$SB/conf/$1.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\n%s\n' "$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "${2:-}"
		printf 'projects = ( { name = "p"; run_as_user = "%s"; work_dir = %s; command = ["true"]; %s } );\n' \
			"$1" "$(cfgstr "$SB/w")" "${3:-}"
	} >"$CONF"
	chmod 644 "$CONF"
}
# Every target gets the supervisor's rule, and nothing of its own yet.
sandbox_user sup
sandbox_user other
rule_line=()
targets="req1 req2 sh1 env1 neg1 lpw1 chain1 allow1 human1 noauth1 self1 prov1 cwd1 allow2 allow3 rd1 big1 pg1 alias1 sp1 pwe1 doas1 pam1 pk1 tpw1"
for t in $targets; do
	sandbox_user "$t"
	rule_line+=("sup ALL=($t) NOPASSWD: ALL")
done
sandbox_sudoers ruas-sup "${rule_line[@]}"

# fatal_all T PART NAME: ruas check as sup, as root (pam), ruas-setup check and install: all exit 1 with PART.
fatal_all() {
	local t=$1 part=$2 name=$3
	conf "$t"
	run_sup check -c "$CONF"
	expect "$name: ruas check (supervisor sup) exits 1" test "$RC" = 1
	expect "$name: ... naming the way up" has "$ERR" "$part"
	run_as root check -c "$CONF"
	expect "$name: ruas check as root (pam backend) exits 1" test "$RC" = 1
	expect "$name: ... naming it too" has "$ERR" "$part"
	setup check --target "$t" --supervisor sup
	expect "$name: ruas-setup check exits 1" test "$RC" = 1
	expect "$name: ... naming it" has "$ERR" "$part"
	local before
	before=$(ls -l /etc/sudoers.d; cat /etc/sudoers.d/* 2>/dev/null | sha256sum)
	setup install --supervisor sup --target "$t" --name "ruas-$t"
	expect "$name: ruas-setup install refuses (exit 1)" test "$RC" = 1
	expect "$name: ... with the same finding" has "$ERR" "$part"
	expect "$name: ... and leaves sudoers.d as it was" test "$before" = "$(ls -l /etc/sudoers.d; cat /etc/sudoers.d/* 2>/dev/null | sha256sum)"
}

# ------------------------------------------------------------------ requiretty
sandbox_sudoers req1 'Defaults:req1 requiretty' 'req1 ALL=(ALL) NOPASSWD: ALL'
as_user req1 sudo -n true >/dev/null 2>&1
RC=$? OUT="" ERR=""
expect "requiretty (per user): without a terminal the target's sudo fails" test "$RC" != 0
# Bounded: sudo once hung here in ppoll beside a defunct child (31 min); a failure, not a hang.
as_user req1 timeout -k 5 60 script -qec "sudo -n id -u" /dev/null </dev/null >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "requiretty (per user): the attack: on a pty it gets root" has "$OUT" "0"
fatal_all req1 'ERROR: target user "req1" can run passwordless sudo.' "requiretty (per user)"

# A global requiretty that spares only the supervisor.
sandbox_sudoers req2 'Defaults requiretty' 'Defaults:sup !requiretty' 'Defaults:root !requiretty' 'req2 ALL=(ALL) NOPASSWD: ALL'
fatal_all req2 'ERROR: target user "req2" can run passwordless sudo.' "requiretty (global, supervisor exempt)"
rm -f /etc/sudoers.d/req2

# ------------------------------------------------------------------ narrow NOPASSWD rules
sandbox_sudoers sh1 'sh1 ALL=(ALL) NOPASSWD: /bin/sh'
as_user sh1 sudo -n /bin/sh -c 'id -u' >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out")
expect "NOPASSWD: /bin/sh: the attack works" test "$OUT" = 0
fatal_all sh1 'ERROR: target user "sh1" can run commands as another user without a password:
  (ALL) NOPASSWD: /bin/sh' "NOPASSWD: /bin/sh"
sandbox_sudoers env1 'env1 ALL=(root) NOPASSWD: /usr/bin/env'
fatal_all env1 '(root) NOPASSWD: /usr/bin/env' "NOPASSWD: /usr/bin/env"
sandbox_sudoers neg1 'neg1 ALL=(ALL) NOPASSWD: ALL, !/usr/bin/true'
as_user neg1 sudo -n true >/dev/null 2>&1
RC=$?
expect "ALL, !/usr/bin/true: sudo -n true itself is refused" test "$RC" != 0
fatal_all neg1 '(ALL) NOPASSWD: ALL, !/usr/bin/true' "NOPASSWD: ALL, !/usr/bin/true"

# ------------------------------------------------------------------ listpw=always hides the rules
sandbox_sudoers lpw1 'Defaults:lpw1 listpw=always' 'lpw1 ALL=(root) NOPASSWD: /usr/bin/id'
conf lpw1
run_sup check -c "$CONF"
expect "listpw=always, as the supervisor: not silent, a warning" has "$ERR" 'WARNING: the sudo rules of target user "lpw1" could not be listed without a password'
expect "... that names the way to be sure" has "$ERR" "ruas-setup check --target lpw1"
expect "... exit 0 (a non-root supervisor cannot see more)" test "$RC" = 0
run_as root check -c "$CONF"
expect "listpw=always, ruas check as root: fatal (sudo -l -U sees through it)" test "$RC" = 1
expect "... naming the rule" has "$ERR" "(root) NOPASSWD: /usr/bin/id"
setup check --target lpw1
expect "listpw=always, ruas-setup check as root: fatal" test "$RC" = 1
expect "... naming the rule" has "$ERR" "(root) NOPASSWD: /usr/bin/id"
setup install --supervisor sup --target lpw1 --name ruas-lpw1
expect "listpw=always, ruas-setup install: refused" test "$RC" = 1

# ------------------------------------------------------------------ a chain
sandbox_sudoers chain1 'chain1 ALL=(other) NOPASSWD: ALL' 'other ALL=(ALL) NOPASSWD: ALL'
fatal_all chain1 '(other) NOPASSWD: ALL' "chain: to another user who has NOPASSWD: ALL"

# ------------------------------------------------------------------ !authenticate
sandbox_sudoers noauth1 'Defaults:noauth1 !authenticate' 'noauth1 ALL=(ALL) ALL'
fatal_all noauth1 'ERROR: target user "noauth1" can run passwordless sudo.' "!authenticate"

# ------------------------------------------------------------------ target_sudo_allowed
sandbox_sudoers allow1 'allow1 ALL=(root) NOPASSWD: /usr/bin/systemctl restart app'
conf allow1
run_sup check -c "$CONF"
expect "narrow rule without target_sudo_allowed: fatal" test "$RC" = 1
expect "... naming the rule and the key" has "$ERR" "  (root) NOPASSWD: /usr/bin/systemctl restart app"
expect "... and the fix" has "$ERR" "target_sudo_allowed"
conf allow1 'target_sudo_allowed = ["/usr/bin/systemctl restart app"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed (global) names it: exit 0" test "$RC" = 0
expect "... a warning that names it" has "$ERR" 'WARNING: target user "allow1" can run "/usr/bin/systemctl restart app" as another user without a password, which target_sudo_allowed permits'
setup check --config "$CONF"
expect "ruas-setup check --config takes target_sudo_allowed from it: exit 0" test "$RC" = 0
expect "... with the warning" has "$ERR" "which target_sudo_allowed permits"
setup check --target allow1
expect "ruas-setup check --target (no configuration): fatal" test "$RC" = 1
conf allow1 '' 'target_sudo_allowed = ["/usr/bin/systemctl restart app"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed (project) names it: exit 0" test "$RC" = 0
run_as root check -c "$CONF"
expect "... and as root (sudo -l -U): exit 0" test "$RC" = 0
conf allow1 'target_sudo_allowed = ["/usr/bin/systemctl restart web"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed naming another command: still fatal" test "$RC" = 1
for bad in 'ALL' '/bin/sh' '/usr/bin/env' '/usr/bin/python3' '/usr/bin/vim' '/usr/bin/systemctl *' 'systemctl restart app'; do
	conf allow1 "target_sudo_allowed = [$(cfgstr "$bad")];"
	run_sup check -c "$CONF"
	expect "target_sudo_allowed = [\"$bad\"]: a configuration error (exit 2)" test "$RC" = 2
	expect "... naming the key and the entry" has "$ERR" "target_sudo_allowed"
done
conf allow1 "target_sudo_allowed = [$(cfgstr $'/usr/bin/id\n/bin/sh')];"
run_sup check -c "$CONF"
expect "target_sudo_allowed with a newline: exit 2" test "$RC" = 2

# ------------------------------------------------------------------ found by a hostile review
# An option whose value has a space, printed bare by sudo, once hid the tag.
mkdir -p '/tmp/a b'
sandbox_sudoers cwd1 'Defaults:cwd1 listpw=never' 'cwd1 ALL=(other) CWD=/tmp/a\ b NOPASSWD: /bin/sh'
as_user cwd1 sudo -n -u other /bin/sh -c 'id -un' >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "CWD= with a space: the attack works" test "$OUT" = other
fatal_all cwd1 'CWD=/tmp/a b NOPASSWD: /bin/sh' "CWD= with a space in front of NOPASSWD"

# An allowed command with SETENV takes LD_PRELOAD from the agent.
sandbox_sudoers allow2 'Defaults:allow2 listpw=never' 'allow2 ALL=(root) NOPASSWD:SETENV: /usr/bin/systemctl restart app'
conf allow2 'target_sudo_allowed = ["/usr/bin/systemctl restart app"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed with SETENV on the rule: still fatal" test "$RC" = 1
expect "... saying why the allowance does not hold" has "$ERR" "target_sudo_allowed names its command, but SETENV"
# An allowed program the target can write is a way up through the anchors check.
mkdir -p /opt/allow3
printf '#!/bin/sh\necho deployed\n' >/opt/allow3/deploy
chmod 755 /opt/allow3/deploy
chown allow3 /opt/allow3/deploy
sandbox_sudoers allow3 'Defaults:allow3 listpw=never' 'allow3 ALL=(root) NOPASSWD: /opt/allow3/deploy --now'
conf allow3 'target_sudo_allowed = ["/opt/allow3/deploy --now"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed naming a program the target owns: fatal" test "$RC" = 1
expect "... through the trust anchors, naming it" has "$ERR" '"/opt/allow3/deploy"'
chown root:root /opt/allow3/deploy
run_sup check -c "$CONF"
expect "... and once root owns it: exit 0, a warning" test "$RC" = 0
expect "... that says it is allowed" has "$ERR" "which target_sudo_allowed permits"
mkdir -p /home/allow3/bin
cp /opt/allow3/deploy /home/allow3/bin/deploy
sandbox_sudoers allow3 'Defaults:allow3 listpw=never' 'allow3 ALL=(root) NOPASSWD: /home/allow3/bin/deploy --now'
conf allow3 'target_sudo_allowed = ["/home/allow3/bin/deploy --now"];'
run_sup check -c "$CONF"
expect "... a root-owned program in a directory the target owns: fatal" test "$RC" = 1
expect "... naming that directory" has "$ERR" 'owns (so it can change the mode of) "/home/allow3"'
conf allow3 'target_sudo_allowed = ["/opt/allow3/deploy"];'
run_sup check -c "$CONF"
expect "target_sudo_allowed without arguments (sudo would allow any): exit 2" test "$RC" = 2
expect "... saying why" has "$ERR" "has no arguments"

# Root's own Defaults change what sudo -l -U shows; the target's own listing counts too.
sandbox_sudoers rd1 'Defaults:root runas_default=rd1' 'rd1 ALL = NOPASSWD: /usr/bin/id'
as_user rd1 sudo -n /usr/bin/id -u >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "runas_default for root: the target still gets root" test "$OUT" = 0
setup check --target rd1
expect "... ruas-setup check (root) exits 1 all the same" test "$RC" = 1
expect "... naming the target's own view of the rule" has "$ERR" "(root) NOPASSWD: /usr/bin/id"
rm -f /etc/sudoers.d/rd1

# A listing longer than the helper keeps is not evidence.
{
	printf 'Cmnd_Alias BIG = '
	for i in $(seq 1 6000); do printf '/usr/bin/nonexistent-command-%05d, ' "$i"; done
	printf '/usr/bin/nonexistent-last\n'
	printf 'big1 ALL=(root) BIG\nbig1 ALL=(root) NOPASSWD: /usr/bin/id\n'
} >"$SB/big.sudoers"
sandbox_sudoers big1 "$(cat "$SB/big.sudoers")"
conf big1
run_sup check -c "$CONF"
expect "a listing over 64 KiB: fatal for the supervisor" test "$RC" = 1
expect "... too long to read whole, or the rule itself" bash -c 'grep -q "too long to read whole\|(root) NOPASSWD: /usr/bin/id" <<<"$1"' _ "$ERR"
setup check --target big1
expect "... and as root, the rule itself" has "$ERR" "(root) NOPASSWD: /usr/bin/id"
rm -f /etc/sudoers.d/big1

# ------------------------------------------------------------------ the human with a password
usermod -aG sudo human1
echo 'human1:correct-horse-battery' | chpasswd
conf human1
run_sup check -c "$CONF"
expect "a human in group sudo with a password: keeps passing (exit 0)" test "$RC" = 0
expect "... with no ERROR" hasnt "$ERR" "ERROR"
setup check --target human1
expect "... and as root it is exact: no escalation finding" hasnt "$ERR" "without a password:"

# ------------------------------------------------------------------ harmless: as itself
sandbox_sudoers self1 'Defaults:self1 listpw=never' 'self1 ALL=(self1) NOPASSWD: ALL'
conf self1
run_sup check -c "$CONF"
expect "NOPASSWD only as itself: no finding, exit 0" test "$RC" = 0 -a -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"

# ------------------------------------------------------------------ provisioned: listable, clean
rm -f /etc/sudoers.d/ruas-sup
setup install --supervisor sup --target prov1
expect "ruas-setup install of a clean target: exit 0" test "$RC" = 0
expect "... the fragment lets the target list its rules" grep -qx 'Defaults:prov1 listpw=never' /etc/sudoers.d/ruas-sup
conf prov1
run_sup check -c "$CONF"
expect "provisioned target: ruas check as the supervisor exits 0" test "$RC" = 0
expect "... with no finding at all (its rules were listed)" test -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
sandbox_sudoers prov1-extra 'prov1 ALL=(root) NOPASSWD: /usr/bin/id'
run_sup check -c "$CONF"
expect "provisioned target given a rule elsewhere: the supervisor sees it (exit 1)" test "$RC" = 1
expect "... naming it" has "$ERR" "(root) NOPASSWD: /usr/bin/id"

# sudo's own warnings (a host name /etc/hosts does not know) must not fail a clean target.
cp /etc/hosts "$SB/hosts.saved"
grep -v "$(hostname)" "$SB/hosts.saved" >/etc/hosts || :
hostname_warns=$(as_user prov1 sudo -n -l 2>&1 | grep -c 'unable to resolve host' || :)
rm -f /etc/sudoers.d/prov1-extra
run_sup check -c "$CONF"
expect "a clean target while sudo warns about the host name ($hostname_warns warning lines): exit 0" test "$RC" = 0
cp "$SB/hosts.saved" /etc/hosts

# ------------------------------------------------------------------ groups and paths the review found
sandbox_sudoers ruas-sup-review 'sup ALL=(pg1) NOPASSWD: ALL' 'sup ALL=(alias1) NOPASSWD: ALL' \
	'Defaults:pg1 listpw=never' 'Defaults:alias1 listpw=never'
# A group that pam_group grants at login is in the agent's session, not in /etc/group.
# ruas runs its helper with sudo -u (PAM service sudo), never sudo -i.
getent group disk >/dev/null || groupadd -r disk
cp /etc/pam.d/sudo "$SB/sudo.saved"
cp /etc/security/group.conf "$SB/group.conf.saved"
{ echo 'auth optional pam_group.so'; cat "$SB/sudo.saved"; } >/etc/pam.d/sudo
echo '*;*;pg1;Al0000-2400;disk' >>/etc/security/group.conf
as_user sup sudo -n -u pg1 -- id -Gn >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "pam_group: the attack: the agent's session is in group disk" has " $OUT " " disk "
conf pg1
run_sup check -c "$CONF"
expect "pam_group granting disk at login: fatal" test "$RC" = 1
expect "... naming the group and where it comes from" has "$ERR" "granted at login by PAM"
cp "$SB/sudo.saved" /etc/pam.d/sudo
cp "$SB/group.conf.saved" /etc/security/group.conf
run_sup check -c "$CONF"
expect "... and without it: no groups finding" hasnt "$ERR" "is a member of"

# Another name for disk's gid (NSS gives getgrgid() the first entry) is disk all the same.
disk_gid=$(getent group disk | cut -d: -f3)
cp /etc/group "$SB/group.saved"
{ echo "mydisk:x:$disk_gid:alias1"; cat "$SB/group.saved"; } >/etc/group
expect "aliased gid: the target is in disk's gid under another name" has " $(id -G alias1) " " $disk_gid "
conf alias1
run_sup check -c "$CONF"
expect "aliased gid: fatal" test "$RC" = 1
expect "... naming the alias" has "$ERR" 'is a member of mydisk'
cp "$SB/group.saved" /etc/group

# A secure_path directory of sudoers the target owns: every sudo command may come from it.
mkdir -p /opt/rt/bin
chown sp1 /opt/rt/bin
sandbox_sudoers sp1-path 'Defaults secure_path="/opt/rt/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"'
setup check --target sp1
expect "secure_path directory owned by the target: ruas-setup check (root) exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" '"/opt/rt/bin"'
chown root /opt/rt/bin
setup check --target sp1
expect "... and once root owns it: exit 0" test "$RC" = 0
rm -f /etc/sudoers.d/sp1-path

# ------------------------------------------------------------------ an empty password
# passwd -d, and a rule that asks for a password: Debian's common-auth has
# pam_unix's nullok, which takes the empty answer, so the rule asks for
# nothing. Proven first (the target becomes root), then caught everywhere.
# Locked, as ruas-setup useradd makes users, the same rule gives nothing.
passwd -d pwe1 >/dev/null
sandbox_sudoers ruas-sup-pwe1 'sup ALL=(pwe1) NOPASSWD: ALL'
sandbox_sudoers pwe1-rule 'pwe1 ALL=(ALL) ALL'
OUT=$(as_user pwe1 sh -c 'echo | sudo -S -p "" id -un' 2>&1)
RC=$? ERR=""
expect "empty password: the proof, the target's password rule gives root with an empty answer" \
	test "$RC" = 0 -a "$OUT" = root
fatal_all pwe1 'target user "pwe1" has no password (passwd -S says NP)' "empty password"
expect "empty password: ... the fix is named" has "$ERR" "Fix: passwd -l pwe1"
passwd -l pwe1 >/dev/null
OUT=$(as_user pwe1 sh -c 'echo | sudo -S -p "" id -un' 2>&1)
RC=$? ERR=""
expect "locked: the same rule gives nothing without the password" test "$RC" != 0
conf pwe1
run_sup check -c "$CONF"
expect "locked: no password finding" hasnt "$ERR" "has no password"
expect "locked: ... and nothing says it could not be judged" hasnt "$ERR" "could not be judged"
rm -f /etc/sudoers.d/pwe1-rule /etc/sudoers.d/ruas-sup-pwe1

# ------------------------------------------------------------------ doas
# opendoas beside sudo: `permit nopass T as root` in /etc/doas.conf (the
# sandbox's copy) is root for T. The proof, then caught everywhere; a rule
# that asks for a password is none (T has no usable password).
sandbox_sudoers ruas-sup-doas1 'sup ALL=(doas1) NOPASSWD: ALL' 'Defaults:doas1 listpw=never'
printf 'permit nopass doas1 as root\n' >/etc/doas.conf
chmod 0400 /etc/doas.conf
OUT=$(as_user doas1 doas -n id -un 2>&1)
RC=$? ERR=""
expect "doas nopass: the proof, the target is root through doas" test "$RC" = 0 -a "$OUT" = root
fatal_all doas1 'target user "doas1" can run commands as root with doas without a password' "doas nopass"
printf 'permit doas1 as root\n' >/etc/doas.conf
OUT=$(as_user doas1 doas -n id -un 2>&1)
RC=$? ERR=""
expect "doas with a password: the same command gives nothing" test "$RC" != 0
conf doas1
run_sup check -c "$CONF"
expect "doas with a password: no doas finding" hasnt "$ERR" "with doas without a password"
expect "... and the check passes (exit 0)" test "$RC" = 0
# Rules the probe (`doas -n true` as the target) cannot see: to another user,
# and to root for one command. doas.conf 0644 (doas accepts it: root's, not
# writable by others) is read by the supervisor too; 0400, by root alone.
printf '# site rules\npermit doas1 as root\npermit nopass doas1 as other\n' >/etc/doas.conf
chmod 0644 /etc/doas.conf
OUT=$(as_user doas1 doas -n -u other id -un 2>&1)
RC=$? ERR=""
expect "doas nopass as another user: the proof, the target runs as other" test "$RC" = 0 -a "$OUT" = other
fatal_all doas1 'target user "doas1" can run commands as another user with doas without a password (/etc/doas.conf line 3: "permit nopass doas1 as other"): it permits the user to run any command as other without a password (nopass)' \
	"doas nopass as another user"
printf 'permit nopass doas1 as root cmd /usr/bin/id\n' >/etc/doas.conf
OUT=$(as_user doas1 doas -n /usr/bin/id -u 2>&1)
RC=$? ERR=""
expect "doas nopass for one command: the proof, id runs as root" test "$RC" = 0 -a "$OUT" = 0
as_user doas1 doas -n true >/dev/null 2>&1
expect "... while doas -n true (the probe) is refused" test $? != 0
fatal_all doas1 'as another user with doas without a password (/etc/doas.conf line 1: "permit nopass doas1 as root cmd /usr/bin/id"): it permits the user to run /usr/bin/id as root without a password' \
	"doas nopass for one command"
printf 'permit nopass doas1 as other\ndeny doas1\n' >/etc/doas.conf
as_user doas1 doas -n -u other true >/dev/null 2>&1
expect "a later deny: doas refuses" test $? != 0
run_sup check -c "$CONF"
expect "... and the check passes (exit 0)" test "$RC" = 0
printf 'permit nopass doas1 as other\n' >/etc/doas.conf
chmod 0400 /etc/doas.conf
run_sup check -c "$CONF"
expect "doas.conf 0400: the supervisor cannot read it (exit 0)" test "$RC" = 0
run_as root check -c "$CONF"
expect "... root reads it: fatal" test "$RC" = 1
expect "... naming the rule" has "$ERR" '(/etc/doas.conf line 1: "permit nopass doas1 as other")'
rm -f /etc/doas.conf /etc/sudoers.d/ruas-sup-doas1

# ------------------------------------------------------------------ PAM stacks
# su's stack (the sandbox's copy of /etc/pam.d/su) with a line that lets the
# target in without a password: pam_wheel's trust of a group it is in, or
# pam_succeed_if on its name. The proof (su gives root), then caught, naming
# the file and line; su's own stack as Debian ships it passes.
sandbox_group trusted
usermod -aG trusted pam1
sandbox_sudoers ruas-sup-pam1 'sup ALL=(pam1) NOPASSWD: ALL' 'Defaults:pam1 listpw=never'
cp /etc/pam.d/su "$SB/su.saved"
{ echo 'auth sufficient pam_wheel.so trust use_uid group=trusted'; cat "$SB/su.saved"; } >/etc/pam.d/su
OUT=$(as_user pam1 su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "su, pam_wheel trust: the proof, su gives the target root without a password" \
	test "$RC" = 0 -a "$OUT" = root
fatal_all pam1 'target user "pam1" passes the PAM auth stack of "su" without a password (/etc/pam.d/su line 1:' \
	"su, pam_wheel trust"
expect "su, pam_wheel trust: ... saying why" has "$ERR" "pam_wheel's trust lets the members of group \"trusted\" in"
{ echo 'auth sufficient pam_succeed_if.so use_uid user = pam1'; cat "$SB/su.saved"; } >/etc/pam.d/su
OUT=$(as_user pam1 su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "su, pam_succeed_if user = T: the proof, su gives root" test "$RC" = 0 -a "$OUT" = root
conf pam1
run_sup check -c "$CONF"
expect "su, pam_succeed_if user = T: ruas check exits 1" test "$RC" = 1
expect "... naming the line" has "$ERR" 'auth sufficient pam_succeed_if.so use_uid user = pam1'
# A jump: [success=3] over pam_rootok, pam_unix and pam_deny onto
# common-auth's pam_permit. It does not end the stack itself.
{ echo 'auth [success=3 default=ignore] pam_succeed_if.so use_uid user = pam1'; cat "$SB/su.saved"; } >/etc/pam.d/su
OUT=$(as_user pam1 su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "su, [success=3] jump over pam_unix and pam_deny: the proof, su gives root" test "$RC" = 0 -a "$OUT" = root
fatal_all pam1 'target user "pam1" passes the PAM auth stack of "su" without a password (/etc/pam.d/su line 1: "auth [success=3 default=ignore] pam_succeed_if.so use_uid user = pam1")' \
	"su, a jump over pam_deny"
expect "... saying why" has "$ERR" "its jump over the lines after it (a password module, pam_deny) lands where the stack succeeds"
{ echo 'auth [success=2 default=ignore] pam_succeed_if.so use_uid user = pam1'; cat "$SB/su.saved"; } >/etc/pam.d/su
OUT=$(as_user pam1 su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "su, [success=2]: lands on pam_deny, su gives nothing" test "$RC" != 0
run_sup check -c "$CONF"
expect "... and no PAM finding" hasnt "$ERR" "passes the PAM auth stack"
cp "$SB/su.saved" /etc/pam.d/su
OUT=$(as_user pam1 su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "su as Debian ships it: su gives nothing" test "$RC" != 0
run_sup check -c "$CONF"
expect "... and no PAM finding" hasnt "$ERR" "passes the PAM auth stack"
rm -f /etc/sudoers.d/ruas-sup-pam1

# ------------------------------------------------------------------ polkit
# A rule (JavaScript) or a local authority entry (.pkla) that gives the
# target, or a group it is in, YES. polkitd does not run in the sandbox, so
# the proof that polkit obeys them is polkit's own (polkit(8)); what is
# tested is that each is found, by file and line, for both backends and
# ruas-setup. rules.d is 0700 polkitd as Debian ships it: a supervisor that
# is not root cannot read it, so the admin's directory is opened to it here.
sandbox_group pkgrp
usermod -aG pkgrp pk1
sandbox_sudoers ruas-sup-pk1 'sup ALL=(pk1) NOPASSWD: ALL' 'Defaults:pk1 listpw=never'
mkdir -p /etc/polkit-1/rules.d
chmod 755 /etc/polkit-1/rules.d
conf pk1
run_sup check -c "$CONF"
expect "polkit: Debian's rules alone: ruas check (sup) exits 0" test "$RC" = 0
run_as root check -c "$CONF"
expect "polkit: ... and as root (which reads /usr/share/polkit-1/rules.d too)" test "$RC" = 0
cat >/etc/polkit-1/rules.d/10-pk1.rules <<'EOR'
// Let pk1 manage units without asking.
polkit.addRule(function(action, subject) {
    if (action.id == "org.freedesktop.systemd1.manage-units" &&
        subject.user == "pk1") {
        return polkit.Result.YES;
    }
});
EOR
chmod 644 /etc/polkit-1/rules.d/10-pk1.rules
fatal_all pk1 'target user "pk1" is let act as root without a password by polkit (/etc/polkit-1/rules.d/10-pk1.rules line 5: "return polkit.Result.YES;")' \
	"polkit rule, subject.user == T"
cat >/etc/polkit-1/rules.d/10-pk1.rules <<'EOR'
polkit.addRule(function(action, subject) {
    if (subject.isInGroup("pkgrp")) { return polkit.Result.AUTH_SELF_KEEP; }
});
EOR
fatal_all pk1 'by polkit (/etc/polkit-1/rules.d/10-pk1.rules line 2:' "polkit rule, isInGroup of the target's group, AUTH_SELF_KEEP"
cat >/etc/polkit-1/rules.d/10-pk1.rules <<'EOR'
polkit.addRule(function(action, subject) {
    if (subject.user == "other") { return polkit.Result.YES; }
});
EOR
run_sup check -c "$CONF"
expect "polkit: a rule that names only another user: ruas check (sup) exits 0" test "$RC" = 0
expect "... with no polkit finding" hasnt "$ERR" "by polkit"
rm /etc/polkit-1/rules.d/10-pk1.rules
mkdir -p /etc/polkit-1/localauthority/50-local.d
printf '[pk1]\nIdentity=unix-group:pkgrp\nAction=*\nResultAny=yes\n' >/etc/polkit-1/localauthority/50-local.d/pk1.pkla
fatal_all pk1 'by polkit (/etc/polkit-1/localauthority/50-local.d/pk1.pkla line 4: "ResultAny=yes")' \
	"polkit local authority (.pkla), the target's group"
rm -r /etc/polkit-1/localauthority
# As Debian ships it: rules.d 0700 polkitd. Root reads it; sup cannot.
cat >/etc/polkit-1/rules.d/10-pk1.rules <<'EOR'
polkit.addRule(function(action, subject) { return polkit.Result.YES; });
EOR
chown polkitd /etc/polkit-1/rules.d 2>/dev/null
chmod 700 /etc/polkit-1/rules.d
run_as root check -c "$CONF"
expect "polkit: a rule that names no one, in rules.d 0700: ruas check as root exits 1" test "$RC" = 1
expect "... naming it: it lets everyone" has "$ERR" "a rule that names no user or group returns YES or AUTH_SELF: it lets everyone"
setup check --target pk1 --supervisor sup
expect "... ruas-setup check exits 1" test "$RC" = 1
rm /etc/polkit-1/rules.d/10-pk1.rules
rm -f /etc/sudoers.d/ruas-sup-pk1

# ------------------------------------------------------------------ targetpw, an empty runas password
# Defaults targetpw: the rule asks for the runas user's password; victim has
# none, and pam_unix's nullok takes the empty answer. Only root reads shadow:
# ruas check as root and ruas-setup judge it; the supervisor cannot.
sandbox_user victim
passwd -d victim >/dev/null
sandbox_sudoers ruas-sup-tpw1 'sup ALL=(tpw1) NOPASSWD: ALL' 'Defaults:tpw1 listpw=never'
sandbox_sudoers tpw1 'Defaults:tpw1 targetpw' 'tpw1 ALL=(victim) ALL'
OUT=$(as_user tpw1 sh -c 'echo | sudo -S -p "" -u victim id -un' 2>/dev/null)
RC=$? ERR=""
expect "targetpw, empty runas password: the proof, the target runs as victim" test "$RC" = 0 -a "$OUT" = victim
conf tpw1
run_as root check -c "$CONF"
expect "targetpw: ruas check as root exits 1" test "$RC" = 1
expect "... naming the user, the rule and why" has "$ERR" 'ERROR: target user "tpw1" can run commands as "victim" with sudo by giving that user'"'"'s password, which is empty: Defaults targetpw is in force for it, so the rule "(victim) ALL" asks'
setup check --target tpw1 --supervisor sup
expect "... ruas-setup check exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" 'can run commands as "victim" with sudo by giving'
run_sup check -c "$CONF"
expect "... the supervisor cannot read shadow: no such finding" hasnt "$ERR" "with sudo by giving"
expect "... but it says it could not judge that" has "$ERR" "): empty passwords (root's, which su takes; and those of runas users of sudo rules under Defaults targetpw) (/etc/shadow)"
expect "... and who can" has "$ERR" "ruas: root judges them: ruas-setup check --config $CONF --supervisor sup"
# Defaults>victim targetpw: bound to the runas user alone (sudo -l shows it
# among the runas-specific defaults).
sandbox_sudoers tpw1 'Defaults>victim targetpw' 'tpw1 ALL=(victim) ALL'
OUT=$(as_user tpw1 sh -c 'echo | sudo -S -p "" -u victim id -un' 2>/dev/null)
RC=$? ERR=""
expect "Defaults>victim targetpw: the proof, the target runs as victim" test "$RC" = 0 -a "$OUT" = victim
run_as root check -c "$CONF"
expect "Defaults>victim targetpw: ruas check as root exits 1" test "$RC" = 1
expect "... naming the user and the rule" has "$ERR" 'ERROR: target user "tpw1" can run commands as "victim" with sudo by giving that user'"'"'s password, which is empty'
setup check --target tpw1 --supervisor sup
expect "... ruas-setup check exits 1" test "$RC" = 1
sandbox_sudoers tpw1 'Defaults>root targetpw' 'tpw1 ALL=(victim) ALL'
run_as root check -c "$CONF"
expect "Defaults>root targetpw: victim's rule asks tpw1's own password, no finding" hasnt "$ERR" "with sudo by giving"
sandbox_sudoers tpw1 'Defaults:tpw1 targetpw' 'tpw1 ALL=(victim) ALL'
passwd -l victim >/dev/null
OUT=$(as_user tpw1 sh -c 'echo | sudo -S -p "" -u victim id -un' 2>/dev/null)
RC=$? ERR=""
expect "victim locked: the empty answer gives nothing" test "$RC" != 0
run_as root check -c "$CONF"
expect "... and ruas check as root passes" test "$RC" = 0
rm -f /etc/sudoers.d/tpw1 /etc/sudoers.d/ruas-sup-tpw1

# ------------------------------------------------------------------ root without a password
# su makes any local user root with an empty answer (nullok). Only root can
# read /etc/shadow: ruas check as root and ruas-setup check judge it.
cp /etc/shadow "$SB/shadow.saved"
passwd -d root >/dev/null
OUT=$(as_user other su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "root's empty password: the proof, su gives any user root" test "$RC" = 0 -a "$OUT" = root
conf prov1
run_as root check -c "$CONF"
expect "root's empty password: ruas check as root exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" 'ERROR: project "p": root has no password.'
expect "... and the fix" has "$ERR" "Fix: passwd -l root"
setup check --target prov1 --supervisor sup
expect "root's empty password: ruas-setup check exits 1" test "$RC" = 1
expect "... naming it" has "$ERR" "ERROR: root has no password."
cp "$SB/shadow.saved" /etc/shadow
OUT=$(as_user other su root -c 'id -un' </dev/null 2>&1)
RC=$? ERR=""
expect "root's password back: su gives nothing" test "$RC" != 0
run_as root check -c "$CONF"
expect "root's password back: no such finding" hasnt "$ERR" "root has no password"

tap_finish
