#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the Ansible role ruas (contrib/ansible/roles/ruas):
# ansible-playbook against two throwaway hosts from one inventory. Host "one"
# is this sandbox (connection local, ruas_install=source from the build
# tree); host "two" is a second private mount namespace with its own /etc,
# /home and /srv (ruas already installed there, ruas_install=none), entered
# by its python interpreter through nsenter. Each host has an overlay over
# the prefix, so no install reaches the real one. First run converges, the
# second changes nothing (also after the agent wrote 1,000 files), check
# mode changes nothing (also without getfacl and setfacl), a removed or
# retired (state: absent) project loses its sudoers rule, a retired one's user
# goes with remove_user, uids are pinned, the audit_log's directory is made,
# ruas_install: apt runs apt-get with a clean argv, and broken or hostile
# variables fail the play with the message of ruas or ruas-setup. Needs root
# and ansible-playbook. The uids it pins are 57200-57299.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/ansible.sh"
for c in ansible-playbook nsenter; do
	if ! command -v "$c" >/dev/null; then
		echo "SKIP: tests/integration/ansible.sh needs $c (ansible-core: scripts/install-deps installs it)" >&2
		exit 77
	fi
done
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=44000
sandbox_setup
sandbox_guard
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"
. "$abs_top_srcdir/tests/integration/ansible_hosts.sh"

ROLES="$abs_top_srcdir/contrib/ansible/roles"
PREFIX=$RUAS_PREFIX
RUAS_BIN="$PREFIX/bin/ruas"
CONF="$RUAS_SYSCONFDIR/ruas/ruas.conf"
case "$CONF" in
"$PREFIX"/* | /etc/*) ;;
*)
	echo "Bail out! the default configuration $CONF is neither under the prefix nor in /etc," \
		"so the role would write it on the real host" >&2
	exit 99
	;;
esac

hosts_setup
ansible_setup

# ------------------------------------------------------------------ the variables
# Host one: two targets, and a project whose work_dir and command hold what
# libconfig, a shell or Jinja would read as syntax. ruas refuses unknown keys,
# so a setting injected by "; x = 1; " would fail ruas check; the values are
# then read back from ruas itself, byte for byte.
one_vars() {
	cat <<EOF
ruas_install: source
ruas_source_dir: "$abs_top_builddir"
ruas_prefix: "$PREFIX"
ruas_supervisor: sup1
ruas_supervisor_uid: 57200
EOF
	cat <<'EOF'
ruas_projects:
  - {name: web, run_as_user: web-agent, work_dir: /srv/web, command: [printf, "%s\\n", web]}
EOF
	[ "${1:-}" = no-api ] ||
		echo '  - {name: api, run_as_user: api-agent, work_dir: /srv/api, command: ["true"], uid: 57201}'
	cat <<'EOF'
  - name: exact
    run_as_user: web-agent
    work_dir: "/srv/h \"q\" \\ $HOME\t'\"; x = 1; \""
    command: [printf, "[%s]\\n", !unsafe '{{ lookup("pipe", "id") }}', "$HOME", "a\"b\\c",
              "tab\there", "\"; y = 2; \"", "", "new\nline", "@include \"/etc/shadow\"", "café"]
    env_allowlist: [LANG]
EOF
}
EXACT_DIR=$'/srv/h "q" \\ $HOME\t\'"; x = 1; "'
EXACT_OUT=$'[{{ lookup("pipe", "id") }}]\n[$HOME]\n[a"b\\c]\n[tab\there]\n["; y = 2; "]\n[]\n[new\nline]\n[@include "/etc/shadow"]\n[café]'

# Host two: a person, a plain target, and settings.
two_vars() {
	cat <<EOF
ruas_install: none
ruas_prefix: "$PREFIX"
ruas_supervisor: sup2
ruas_supervisor_uid: 57210
ruas_supervisor_unit: sup2-bridge
ruas_config_path: /etc/ruas/ruas.conf
ruas_settings:
  env_allowlist: [LANG, ${1:-TERM}]
  audit_log: /var/log/ruas/audit.jsonl
EOF
	cat <<'EOF'
ruas_people:
  worktrees: /srv/wt
  credentials: /srv/cred
  members:
    - {id: alice, run_as_user: ruas-alice}
ruas_projects:
  - {name: alice-repo, person: alice, work_dir: /srv/wt/alice/repo, command: [id, -un], uid: 57211}
  - {name: ops, run_as_user: ops-agent, work_dir: /srv/ops, command: [id, -un]}
EOF
}

# ------------------------------------------------------------------ lint
if command -v ansible-lint >/dev/null; then
	lint_out=$(cd "$SB/ansible" && ansible_env ansible-lint --offline --nocolor -q "$ROLES/ruas" 2>&1)
	RC=$? OUT=$lint_out ERR=""
	expect "ansible-lint (production profile) finds nothing in the role" test "$RC" = 0
	expect "... and has no warning of its own" hasnt "$lint_out" "WARNING"
else
	echo "# ansible-lint is not installed: --syntax-check only"
fi
inventory "$SB/inv-base.yml" "$(one_vars)" "$(two_vars)"
playbook --syntax-check -i "$SB/inv-base.yml"
expect "ansible-playbook --syntax-check" test "$RC" = 0

# ------------------------------------------------------------------ first run: both hosts
playbook -i "$SB/inv-base.yml"
expect "first run converges on both hosts (two namespaces, one inventory)" \
	test "$RC" = 0 -a "$(recap one failed)" = 0 -a "$(recap two failed)" = 0
expect "... and changes both" test "$(recap one changed)" -gt 0 -a "$(recap two changed)" -gt 0
expect "host one: ruas installed from the build tree under the prefix" test -x "$RUAS_BIN"
expect "host one: the configuration at the installed ruas's default path, 0644 root:root" \
	test "$(stat -c '%a %U:%G' "$CONF")" = "644 root:root"
one_as sup1 "$RUAS_BIN" check
expect "host one: ruas check as the supervisor passes" test "$RC" = 0
one_as sup1 "$RUAS_BIN" check --json
expect "host one: a hostile work_dir is written exactly (ruas check --json reads it back)" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>);
		my ($p) = grep { $_->{name} eq "exact" } @{$j->{projects}};
		exit(($p && $p->{work_dir} eq $ARGV[0]) ? 0 : 1)' "$EXACT_DIR" <"$SB/out"
one_as sup1 "$RUAS_BIN" run -q exact
expect "host one: a command with quotes, \$, {{ }}, newlines and @include runs byte for byte" \
	test "$RC" = 0 -a "$OUT" = "$EXACT_OUT"
F1=/etc/sudoers.d/ruas-sup1
expect "host one: the fragment has exactly the rules of web-agent and api-agent" \
	test "$(grep -v '^#' "$F1" | grep -c 'NOPASSWD')" = 2 -a \
	"$(grep -c '^sup1 ALL=(api-agent) NOPASSWD: ALL$' "$F1")" = 1
expect "host one: target uids in the suite's range (44000)" \
	test "$(id -u web-agent)" -ge 44000 -a "$(id -u web-agent)" -lt 45000
two_as sup2 "$PREFIX/bin/ruas" check -c /etc/ruas/ruas.conf
expect "host two: ruas check as the supervisor passes (a person and a target)" test "$RC" = 0
two_as sup2 "$PREFIX/bin/ruas" run -q -c /etc/ruas/ruas.conf alice-repo
expect "host two: the person's project runs as the member's user" test "$OUT" = ruas-alice
expect "host two: its users are its own (45000), host one has none of them" \
	test "$(in_two id -u ops-agent)" -ge 45000 -a "$(in_two id -u ops-agent)" -lt 46000 -a \
	"$(getent passwd ops-agent sup2 | wc -l)" = 0
expect "host one has no users of host two, nor host two of host one" \
	test -z "$(in_two getent passwd web-agent sup1)"
expect "the uids are as pinned on both hosts (ruas_supervisor_uid, a project's uid)" \
	test "$(id -u sup1) $(id -u api-agent) $(in_two id -u sup2) $(in_two id -u ruas-alice)" = \
	"57200 57201 57210 57211"
expect "... and state, remove_user and uid never reach ruas.conf" \
	bash -c '! grep -E "(^|[ {;])(state|remove_user|uid) =" "$1" && ! nsenter --mount="$2" -- grep -E "(^|[ {;])(state|remove_user|uid) =" /etc/ruas/ruas.conf' _ "$CONF" "$TWO_NS"
expect "ruas.conf names the supervisor (supervisor = ruas_supervisor), for ruas check and ruas-setup prune" \
	test "$(grep -c '^supervisor = "sup1";$' "$CONF") $(in_two grep -c '^supervisor = "sup2";$' /etc/ruas/ruas.conf)" = "1 1"
expect "host two (fresh): the audit_log's directory is the supervisor's, 0700" \
	test "$(in_two stat -c '%U:%G %a' /var/log/ruas)" = "sup2:sup2 700"
expect "... and the supervisor's first run created the audit_log in it, 0600" \
	test "$(in_two stat -c '%U %a' /var/log/ruas/audit.jsonl)" = "sup2 600"
expect "the check's report is the fact ruas_check_report, usable by a later task" \
	test -n "$(grep -F 'ruas_check_report of one: ok=True projects=3' <<<"$PLAY")" -a \
	-n "$(grep -F 'ruas_check_report of two: ok=True projects=2' <<<"$PLAY")"
DROPIN=/etc/systemd/system/sup2-bridge.service.d/ruas-delegate.conf
expect "host two: the supervisor's service has ruas-setup delegate's drop-in, 0644 root:root" \
	test "$(in_two stat -c '%a %U:%G' "$DROPIN")" = "644 root:root" -a \
	"$(in_two cat "$DROPIN")" = "$(in_two "$PREFIX/sbin/ruas-setup" delegate --unit sup2-bridge)"
# (Ansible wraps a warning's lines: compared with every run of white space as one space.)
expect "... and warns that it is to be restarted" \
	has "$(tr -s ' \n' '  ' <<<"$PLAY")" 'ruas-setup: next: systemctl daemon-reload, then systemctl restart sup2-bridge.service'
expect "... host one has none" test ! -e /etc/systemd/system/sup2-bridge.service.d
expect "host two's check warns that the service runs in no leaf of its cgroup yet" \
	has "$(tr -s ' \n' '  ' <<<"$PLAY")" 'sup2-bridge.service runs no supervisor in a leaf "supervisor" of its cgroup'

# ------------------------------------------------------------------ second run
playbook --diff -i "$SB/inv-base.yml"
expect "second run: changed=0 on both hosts" \
	test "$RC" = 0 -a "$(recap one changed)" = 0 -a "$(recap two changed)" = 0
# What the recipe of an earlier fleet.md left: the directory root's, 0755,
# empty. Root's directories are never handed over (an empty /usr/local/sbin
# would hand over root): refused, with the fix.
in_two sh -c 'rm -rf /var/log/ruas && mkdir -m 0755 /var/log/ruas'
playbook -i "$SB/inv-base.yml" -e ruas_check=false
expect "an audit_log directory left root's and 0755 is refused, with the fix" \
	test "$(recap two failed)" = 1 -a -n "$(tr -s ' \n' '  ' <<<"$PLAY" | grep -F "its directory /var/log/ruas exists and is root's, not the supervisor sup2's: the role gives the supervisor only a directory that it makes itself (if /var/log/ruas is meant for the audit_log alone: chown sup2: /var/log/ruas)")"
expect "... and left as it was" test "$(in_two stat -c '%U:%G %a' /var/log/ruas)" = "root:root 755"
# An empty directory of root's elsewhere (the shape of /usr/local/sbin): refused too.
mkdir -m 0755 /var/log/rootsdir
inventory "$SB/inv-rootsdir.yml" "$(one_vars no-api; printf 'ruas_settings: {audit_log: /var/log/rootsdir/audit.jsonl}\n')" \
	"$(two_vars)"
playbook -i "$SB/inv-rootsdir.yml" -e ruas_check=false
expect "an empty directory of root's is never handed to the supervisor" \
	test "$(recap one failed)" = 1 -a "$(stat -c '%U:%G %a' /var/log/rootsdir)" = "root:root 755"
# The operator's fix, then the play; -e gives strings: "false" is false.
in_two chown sup2: /var/log/ruas
playbook -i "$SB/inv-base.yml" -e ruas_check=false
expect "once it is the supervisor's, the role makes it 0700 and its group the supervisor's" \
	test "$(in_two stat -c '%U:%G %a' /var/log/ruas)" = "sup2:sup2 700"
expect "-e ruas_check=false skips the check" \
	test "$RC" = 0 -a -z "$(grep -F 'ruas_check_report of' <<<"$PLAY")" -a \
	-n "$(grep -A1 -F 'TASK [ruas : Run ruas check --json as the supervisor, failing' <<<"$PLAY" | grep -F skipping)"
expect "host one: the target can write its work_dir (ruas-setup acl)" \
	as_user web-agent sh -c 'touch "$1/f"' _ "$EXACT_DIR"
# One target's work_dir, and the supervisor's home, are not another's to read:
# useradd makes homes 0755 and the default ACL copies other:: from the mode.
as_user web-agent sh -c 'echo secret >/srv/web/.env'
expect "host one: another target cannot read what web-agent wrote in its work_dir" \
	bash -c '! setpriv --reuid=api-agent --regid=api-agent --init-groups cat /srv/web/.env'
expect "host one: the supervisor the role created has a home of its own (no other:: access)" \
	test "$(( $(stat -c '0%a' /home/sup1) & 07 ))" = 0
expect "host two: the person's work_dir is not readable by other users" \
	test "$(in_two stat -c '%A' /srv/wt/alice/repo | cut -c8-10)" = "---"

# ------------------------------------------------------------------ after the agent's work
# 1,000 files and directories, under umask 022 and 077, one read-only.
as_user web-agent sh -c 'cd /srv/web && mkdir -p a/b c && i=0 && while [ $i -lt 500 ]; do
	echo $i >a/f$i; (umask 077 && echo $i >a/b/g$i); i=$((i + 1)); done && chmod 0400 a/f0'
expect "(the agent wrote 1,000 files)" test "$(find /srv/web/a -type f | wc -l)" = 1000
shadow_one=$(stat -c '%i %Y.%y' /etc/shadow)
shadow_two=$(in_two stat -c '%i %Y.%y' /etc/shadow)
playbook -i "$SB/inv-base.yml"
expect "a second run after the agent wrote 1,000 files: changed=0 on both hosts" \
	test "$RC" = 0 -a "$(recap one changed)" = 0 -a "$(recap two changed)" = 0
expect "... and /etc/shadow keeps its inode and mtime on both" \
	test "$(stat -c '%i %Y.%y' /etc/shadow)" = "$shadow_one" -a \
	"$(in_two stat -c '%i %Y.%y' /etc/shadow)" = "$shadow_two"

# ------------------------------------------------------------------ check mode without acl
# getfacl and setfacl gone (overlay whiteouts over /usr/bin, in a namespace of this run's own).
noacl_play() {
	unshare --mount --propagation private bash -c 'set -e
		o=$SB/noacl && mkdir -p "$o" && mount -t tmpfs tmpfs "$o" && mkdir "$o/up" "$o/work"
		mknod "$o/up/getfacl" c 0 0 && mknod "$o/up/setfacl" c 0 0
		mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$o/up,workdir=$o/work" /usr/bin
		set +e
		if command -v getfacl || command -v setfacl; then echo "acl tools still there"; exit 99; fi
		cd "$SB/ansible" && ansible_env ansible-playbook site.yml "$@"' _ "$@" >"$SB/play.out" 2>&1
	RC=$?
	OUT=$(cat "$SB/play.out")
	PLAY=$OUT ERR=""
}
export -f ansible_env
noacl_play --check --diff -i "$SB/inv-base.yml" --limit one
expect "check mode without getfacl and setfacl runs through, predicting nothing to change" \
	test "$RC" = 0 -a "$(recap one failed)" = 0 -a "$(recap one changed)" = 0
expect "... with no error of a missing program" hasnt "$PLAY" "No such file or directory"
# A chmod after the grant masks it (mask ---): check mode must not call that granted.
acl_mode=$(stat -c %a "$EXACT_DIR")
chmod 700 "$EXACT_DIR"
noacl_play --check --diff -i "$SB/inv-base.yml" --limit one
expect "... and predicts the change of a grant that a chmod masked (mode $acl_mode, then 700)" \
	test "$RC" = 0 -a "$(recap one changed)" = 1
chmod "$acl_mode" "$EXACT_DIR"

# ------------------------------------------------------------------ check mode
inventory "$SB/inv-next.yml" "$(one_vars no-api | sed 's/name: web, run_as_user: web-agent/name: web, run_as_user: new-agent/')" "$(two_vars LC_ALL)"
snap_one=$(snapshot "$SB/ovl-one/up")
snap_two=$(snapshot_two)
playbook --check --diff -i "$SB/inv-next.yml"
expect "check mode: runs through" test "$RC" = 0
expect "check mode: host one's /etc, /home, /srv and prefix are unchanged" \
	test "$(snapshot "$SB/ovl-one/up")" = "$snap_one"
expect "check mode: so are host two's" test "$(snapshot_two)" = "$snap_two"
expect "check mode: the configuration's diff is shown" has "$PLAY" '-  { name = "api"; run_as_user = "api-agent";'
expect "... and the fragment's" has "$PLAY" '+sup1 ALL=(new-agent) NOPASSWD: ALL'
expect "... and host two's" has "$PLAY" '+env_allowlist = ["LANG", "LC_ALL"];'
expect "check mode: new-agent would be created" has "$PLAY" "would create user new-agent (ruas-setup useradd)"
expect "check mode: nothing was created" bash -c '! getent passwd new-agent'

# ------------------------------------------------------------------ removing a project
inventory "$SB/inv-noapi.yml" "$(one_vars no-api)" "$(two_vars)"
playbook --diff -i "$SB/inv-noapi.yml"
expect "a project removed from the variables: the run succeeds" test "$RC" = 0
expect "... its sudoers rule is gone" bash -c '! grep -q "(api-agent)" "$1" && grep -q "^sup1 ALL=(web-agent) NOPASSWD: ALL$" "$1"' _ "$F1"
expect "... its user and work_dir stay" bash -c 'getent passwd api-agent >/dev/null && test -d /srv/api'
one_as sup1 sudo -n -iu api-agent true
expect "... sup1 cannot sudo to api-agent any more" test "$RC" != 0
expect "... host two is unchanged" test "$(recap two changed)" = 0

# ------------------------------------------------------------------ ruas_install: apt
# The module against a fake apt-get (its option apt_get, which only tests set), in a
# namespace of its own whose /usr/bin and /usr/sbin take what the fake installs.
cat >"$SB/fake-apt-get" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$SB/apt-argv"
printf '%s\n' "$DEBIAN_FRONTEND" >"$SB/apt-env"
ln -s "$PREFIX/bin/ruas" /usr/bin/ruas && ln -s "$PREFIX/sbin/ruas-setup" /usr/sbin/ruas-setup
EOF
chmod 755 "$SB/fake-apt-get"
apt_module() {
	rm -f "$SB/apt-argv"
	unshare --mount --propagation private bash -c 'set -e
		for d in bin sbin; do
			o=$SB/apt-$d && mkdir -p "$o" && mount -t tmpfs tmpfs "$o" && mkdir "$o/up" "$o/work"
			mount -t overlay overlay -o "lowerdir=/usr/$d,upperdir=$o/up,workdir=$o/work" "/usr/$d"
		done
		set +e
		cd "$SB/ansible" && ANSIBLE_LIBRARY="$ROLES/ruas/library" ANSIBLE_MODULE_UTILS="$ROLES/ruas/module_utils" \
			ansible_env ansible one -i "$SB/inv-base.yml" -m ruas_install -a "$1" "${@:2}"' _ "$@" >"$SB/play.out" 2>&1
	RC=$?
	OUT=$(cat "$SB/play.out")
	PLAY=$OUT ERR=""
}
export SB PREFIX ROLES
apt_args='{"method": "apt", "deb_packages": ["ruas-test-not-there", "bash"], "apt_get": "'$SB/fake-apt-get'"}'
apt_module "$apt_args" --check
expect "ruas_install: apt in check mode predicts the install of what is missing, running nothing" \
	test "$RC" = 0 -a ! -e "$SB/apt-argv" -a -n "$(grep -F 'would install ruas-test-not-there' <<<"$PLAY")"
apt_module "$apt_args"
expect "ruas_install: apt runs apt-get install with a clean argv: only the missing package" \
	test "$RC" = 0 -a "$(cat "$SB/apt-argv" 2>&1)" = $'install\n-y\n--no-install-recommends\nruas-test-not-there'
expect "... noninteractive, and reports the installed ruas" \
	test "$(cat "$SB/apt-env" 2>&1)" = noninteractive -a -n "$(grep -F '"ruas_setup": "/usr/sbin/ruas-setup"' <<<"$PLAY")"
apt_module '{"method": "apt", "deb_packages": ["-oAPT::Get::Show-Versions=1", "ruas"], "apt_get": "'$SB/fake-apt-get'"}'
expect "... a package name apt-get would read as an option is refused, apt-get not run" \
	test "$RC" != 0 -a ! -e "$SB/apt-argv" -a -n "$(grep -F 'must be Debian package names' <<<"$PLAY")"
for name in sudo- ruas+ rua. 'rua.*' libruas0=0.1.0 ruas/unstable; do
	apt_module '{"method": "apt", "deb_packages": ["ruas", "'"$name"'"], "apt_get": "'$SB/fake-apt-get'"}'
	expect "... and $name, which apt-get would read as a removal, an install, a pattern or a version" \
		test "$RC" != 0 -a ! -e "$SB/apt-argv" -a -n "$(grep -F 'must be Debian package names' <<<"$PLAY")"
done

# ------------------------------------------------------------------ failures
frag_one=$(snapshot_file "$F1")
conf_one=$(snapshot_file "$CONF")
conf_two=$(in_two sha256sum /etc/ruas/ruas.conf)
# A target that another rule lets run anything as root.
sandbox_sudoers esc 'esc-agent ALL=(ALL) NOPASSWD: ALL'
inventory "$SB/inv-bad1.yml" "$(one_vars no-api; echo '  - {name: esc, run_as_user: esc-agent, work_dir: /srv/esc, command: ["true"]}')" \
	"$(two_vars; echo '  - {name: "x\"; y = 1; \"", run_as_user: ops-agent, work_dir: /srv/ops, command: ["true"]}')"
playbook -i "$SB/inv-bad1.yml"
expect "a target with NOPASSWD: ALL through another rule fails the play" \
	test "$RC" != 0 -a "$(recap one failed)" = 1
expect "... with the finding's text" has "$PLAY" 'ERROR: target user \"esc-agent\" can run passwordless sudo.'
expect "... and the fragment is as it was" test "$(snapshot_file "$F1")" = "$frag_one"
expect "a hostile project name is refused by ruas, with its message" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'the new configuration was refused' <<<"$PLAY")"
expect "... naming the project key" has "$PLAY" 'is invalid; use letters, digits and _ . @ + -'
expect "... and host two's configuration is untouched" test "$(in_two sha256sum /etc/ruas/ruas.conf)" = "$conf_two"
rm /etc/sudoers.d/esc

inventory "$SB/inv-bad2.yml" "$(one_vars no-api; echo '  - {name: all, run_as_user: ALL, work_dir: /srv/all, command: ["true"]}')" \
	"$(two_vars; echo '  - {name: wheel, run_as_user: "%wheel", work_dir: /srv/wheel, command: ["true"]}')"
playbook -i "$SB/inv-bad2.yml"
expect "run_as_user ALL and %wheel fail the play on both hosts" \
	test "$RC" != 0 -a "$(recap one failed)" = 1 -a "$(recap two failed)" = 1
expect "... with ruas-setup's message for ALL" has "$PLAY" 'run_as_user \"ALL\"'
expect "... and for %wheel" has "$PLAY" 'run_as_user \"%wheel\"'
expect "... nothing was written on host one" \
	test "$(snapshot_file "$CONF")" = "$conf_one" -a "$(snapshot_file "$F1")" = "$frag_one"

inventory "$SB/inv-bad3.yml" "$(one_vars no-api | sed 's/^ruas_supervisor: sup1$/ruas_supervisor: ALL/')" \
	"$(two_vars; echo '  - {name: locked, run_as_user: ops-agent, work_dir: /srv/locked/app, command: ["true"]}')"
in_two sh -c 'mkdir -p /srv/locked && chmod 0700 /srv/locked'
playbook -i "$SB/inv-bad3.yml"
expect "a supervisor named ALL is refused with ruas-setup's message" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'supervisor \"ALL\"' <<<"$PLAY")"
expect "... and no account ALL exists" bash -c '! getent passwd ALL'
expect "a work_dir the target cannot reach fails ruas check, with the finding" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'ruas check as sup2 found 1 fatal finding' <<<"$PLAY")"
expect "... its text" has "$PLAY" 'is not accessible to user'

inventory "$SB/inv-bad4.yml" "$(one_vars no-api; printf 'ruas_settings: {"backend = \\"pam\\"; x": 1}\n')" \
	"$(two_vars; printf 'ruas_settings: {bogus_key: 1}\n')"
playbook -i "$SB/inv-bad4.yml"
expect "a settings key that is not a setting name is refused, nothing written" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'is not a setting name' <<<"$PLAY")" -a \
	"$(snapshot_file "$CONF")" = "$conf_one"
expect "an unknown key is refused by ruas" test "$(recap two failed)" = 1 -a -n "$(grep -F 'bogus_key' <<<"$PLAY")"

# An integer libconfig would clamp, and a project Ansible would make a dict of a string.
inventory "$SB/inv-bad5.yml" "$(one_vars no-api; printf 'ruas_settings: {terminate_grace: 9223372036854775808}\n')" \
	"$(two_vars; echo '  - "name=sneak run_as_user=eve work_dir=/srv/eve command=true"')"
playbook -i "$SB/inv-bad5.yml"
expect "an integer outside 32 bits is refused, nothing written" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'out of range for ruas.conf' <<<"$PLAY")" -a \
	"$(snapshot_file "$CONF")" = "$conf_one"
expect "a project that is a string, not a mapping, is refused, and no user eve is made" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'a project is a dict of ruas.conf keys' <<<"$PLAY")" -a \
	-z "$(in_two getent passwd eve)"

# A unit that is not a service: ruas-setup's message, nothing written.
inventory "$SB/inv-bad6.yml" "$(one_vars no-api; echo 'ruas_supervisor_unit: "sup1.socket"')" \
	"$(two_vars | sed 's/^ruas_supervisor_unit: .*/ruas_supervisor_unit: "..\/evil"/')"
playbook -i "$SB/inv-bad6.yml"
expect "ruas_supervisor_unit not a service fails the play with ruas-setup's message" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'is not a service' <<<"$PLAY")"
expect "... and a name with a slash" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'may contain only' <<<"$PLAY")"
expect "... nothing written for either" \
	test -z "$(ls /etc/systemd/system | grep -F sup1)" -a -z "$(in_two ls /etc/systemd | grep -F evil)"

# meta/argument_specs.yml: a wrong type or choice fails before the role's first task.
inventory "$SB/inv-bad8.yml" "$(one_vars no-api | sed '/^ruas_projects:$/,$d'; echo 'ruas_projects: 5')" \
	"$(two_vars | sed 's/^ruas_install: none$/ruas_install: rsync/')"
playbook -i "$SB/inv-bad8.yml"
expect "ruas_projects: 5 fails the role's argument validation" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'Validating arguments against arg spec' <<<"$PLAY")" -a \
	-n "$(grep -F 'ruas_projects' <<<"$PLAY")"
expect "... ruas_install: rsync too, naming the choices" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'ruas_install' <<<"$PLAY" | grep -F 'deb, source, none')"
expect "... and nothing changed" \
	test "$(recap one changed)" = 0 -a "$(recap two changed)" = 0 -a \
	"$(snapshot_file "$CONF")" = "$conf_one" -a "$(snapshot_file "$F1")" = "$frag_one"

# Pinned uids that the existing accounts do not have.
inventory "$SB/inv-bad9.yml" "$(one_vars no-api | sed 's/name: web, run_as_user: web-agent, work_dir: \/srv\/web,/& uid: 57299,/')" \
	"$(two_vars | sed 's/^ruas_supervisor_uid: 57210$/ruas_supervisor_uid: 57298/')"
playbook -i "$SB/inv-bad9.yml"
expect "a target's pinned uid that its existing account does not have fails, naming both uids and the fix" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F -- "--uid 57299 for target \\\"web-agent\\\" is not the uid of the existing user, $(id -u web-agent); change it with usermod -u 57299 web-agent" <<<"$PLAY")"
expect "... the supervisor's too" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F 'user sup2 exists with uid 57210, not the pinned uid 57298: change it with usermod -u 57298 sup2' <<<"$PLAY")"
expect "... nothing changed" \
	test "$(id -u web-agent)" -lt 45000 -a "$(in_two id -u sup2)" = 57210 -a \
	"$(snapshot_file "$CONF")" = "$conf_one" -a "$(snapshot_file "$F1")" = "$frag_one"

# An audit_log whose directory is not one of its own: /srv itself, and a /srv/x with other files.
in_two sh -c 'mkdir -p /srv/shared && echo other >/srv/shared/notes'
srv_one=$(stat -c '%U:%G %a' /srv)
inventory "$SB/inv-bad10.yml" "$(one_vars no-api; printf 'ruas_settings: {audit_log: /srv/audit.jsonl}\n')" \
	"$(two_vars | sed 's|^  audit_log: .*|  audit_log: /srv/shared/audit.jsonl|')"
playbook -i "$SB/inv-bad10.yml"
expect "an audit_log right in /srv fails the play, asking for a directory of its own" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'audit_log /srv/audit.jsonl: its directory /srv is right below /; give the audit_log a directory of its own' <<<"$PLAY")"
expect "... and one of root's with other files too" \
	test "$(recap two failed)" = 1 -a -n "$(grep -F "its directory /srv/shared exists and is root's, not the supervisor sup2's" <<<"$PLAY")"
expect "... neither directory changed, nor the configuration" \
	test "$(stat -c '%U:%G %a' /srv)" = "$srv_one" -a "$(in_two stat -c '%U %a' /srv/shared)" = "root 755" -a \
	"$(snapshot_file "$CONF")" = "$conf_one"

# A misspelt ruas_projects (the role's default, []) or an empty one: refused, nothing changed.
inventory "$SB/inv-bad7.yml" "$(one_vars no-api | sed 's/^ruas_projects:$/ruas_project:/')" \
	"$(two_vars | sed '/^ruas_projects:$/,$d'; echo 'ruas_projects: []')"
playbook -i "$SB/inv-bad7.yml"
expect "a misspelt ruas_projects fails the play, naming the mistake" \
	test "$(recap one failed)" = 1 -a -n "$(grep -F 'a misspelt name such as ruas_project?' <<<"$PLAY")"
expect "... an empty one too" test "$(recap two failed)" = 1 -a "$(recap two changed)" = 0
expect "... nothing changed on either" \
	test "$(snapshot_file "$CONF")" = "$conf_one" -a "$(snapshot_file "$F1")" = "$frag_one" -a \
	"$(recap one changed)" = 0

# A symlink in place of the configuration is replaced, never written through.
in_two sh -c 'echo decoy >/etc/decoy && chmod 0600 /etc/decoy && ln -sf /etc/decoy /etc/ruas/ruas.conf'
playbook --diff -i "$SB/inv-noapi.yml"
expect "a symlink at the configuration's path: replaced by the file, its target untouched" \
	test "$(in_two stat -c '%F %a' /etc/ruas/ruas.conf /etc/decoy)" = $'regular file 644\nregular file 600' -a \
	"$(in_two cat /etc/decoy)" = decoy
expect "after the failures, the good variables converge again; host one had nothing written" \
	test "$RC" = 0 -a "$(recap one changed)" = 0
# A failed ruas check leaves the configuration it checked (ruas refuses to run with it).
expect "... host two's configuration loses the project that failed ruas check" \
	test "$(recap two changed)" = 1 -a -z "$(in_two grep -F locked /etc/ruas/ruas.conf)"

# ------------------------------------------------------------------ retiring a project
# state: absent (host two's ops): its rule and its ruas.conf entry go, its user stays;
# then remove_user: true removes the user (userdel without -r) once no process of it runs.
retire_vars() { two_vars | sed "s/^  - {name: ops, run_as_user: ops-agent, work_dir: \/srv\/ops, command: \[id, -un\]}$/  - {name: ops, run_as_user: ops-agent, work_dir: \/srv\/ops, command: [id, -un], state: absent${1:-}}/"; }
inventory "$SB/inv-retire.yml" "$(one_vars no-api)" "$(retire_vars)"
expect "(the retiring inventory says state: absent)" grep -q 'state: absent}' "$SB/inv-retire.yml"
playbook --diff -i "$SB/inv-retire.yml" --limit two
expect "state: absent: the run succeeds" test "$RC" = 0 -a "$(recap two changed)" -ge 1
sudo_l=$(in_two sudo -l -U sup2)
expect "... sudo -l -U sup2 (as root) lists no rule for ops-agent" hasnt "$sudo_l" "(ops-agent)"
expect "... and still the person's" has "$sudo_l" "(ruas-alice) NOPASSWD"
expect "... its ruas.conf entry is gone, and no state key was written" \
	bash -c '! nsenter --mount="$1" -- grep -E "\"ops\"|state|remove_user" /etc/ruas/ruas.conf' _ "$TWO_NS"
expect "... its user, home and work_dir stay" \
	test -n "$(in_two getent passwd ops-agent)" -a -n "$(in_two ls -d /home/ops-agent /srv/ops)"
playbook -i "$SB/inv-retire.yml" --limit two
expect "... a second run: changed=0" test "$RC" = 0 -a "$(recap two changed)" = 0
inventory "$SB/inv-retire2.yml" "$(one_vars no-api)" "$(retire_vars ', remove_user: true')"
ops_uid=$(in_two id -u ops-agent)
# nsenter (no --fork) and setpriv exec: $! becomes the sleep itself.
nsenter --mount="$TWO_NS" -- setpriv --reuid=ops-agent --regid=ops-agent --clear-groups sleep 600 &
ops_pid=$!
for _ in $(seq 200); do
	[ "$(awk '/^Uid:/ {print $2}' "/proc/$ops_pid/status" 2>/dev/null)" = "$ops_uid" ] && break
	sleep 0.05
done
expect "(a process of ops-agent runs: $ops_pid)" \
	test "$(awk '/^Uid:/ {print $2}' "/proc/$ops_pid/status" 2>/dev/null)" = "$ops_uid"
playbook -i "$SB/inv-retire2.yml" --limit two
expect "remove_user: true while a process of the user runs fails, naming it" \
	test "$RC" != 0 -a -n "$(grep -F "user ops-agent (uid $ops_uid) still runs 1 process(es), pids $ops_pid: not removed" <<<"$PLAY")"
expect "... and the user stays" test -n "$(in_two getent passwd ops-agent)"
kill "$ops_pid"
wait "$ops_pid" 2>/dev/null
playbook --diff -i "$SB/inv-retire2.yml" --limit two
expect "remove_user: true with no process of it: the user is removed" \
	test "$RC" = 0 -a -z "$(in_two getent passwd ops-agent)"
expect "... by userdel without -r: its home and its work_dir stay" \
	test -n "$(in_two ls -d /home/ops-agent /srv/ops)"
playbook -i "$SB/inv-retire2.yml" --limit two
expect "... a second run: changed=0" test "$RC" = 0 -a "$(recap two changed)" = 0
# A retired project whose run_as_user names a system account (by mistake): never removed.
inventory "$SB/inv-retire3.yml" "$(one_vars no-api)" \
	"$(retire_vars ', remove_user: true'; echo '  - {name: sys, run_as_user: daemon, work_dir: /srv/sys, command: [id], state: absent, remove_user: true}')"
expect "(the inventory retires a project of daemon)" grep -q 'run_as_user: daemon' "$SB/inv-retire3.yml"
playbook -i "$SB/inv-retire3.yml" --limit two
expect "remove_user: true never removes a system account (daemon), and says why" \
	test "$RC" != 0 -a -n "$(in_two getent passwd daemon)" -a \
	-n "$(tr -s ' \n' '  ' <<<"$PLAY" | grep -E "user daemon \(uid 1\) is below UID_MIN [0-9]+ of /etc/login.defs, a system account, not one that ruas-setup useradd makes: not removed")"

# Meant: an empty list with ruas_allow_empty removes host two's projects and fragment.
inventory "$SB/inv-empty.yml" "$(one_vars no-api)" \
	"$(two_vars | sed '/^ruas_projects:$/,$d'; printf 'ruas_projects: []\nruas_allow_empty: true\n')"
playbook -i "$SB/inv-empty.yml"
expect "an empty ruas_projects with ruas_allow_empty: true is applied" \
	test "$(recap two failed)" = 0 -a "$(recap two changed)" -ge 1 -a \
	-z "$(in_two ls /etc/sudoers.d | grep -F ruas-sup2)"

hosts_teardown
tap_finish
