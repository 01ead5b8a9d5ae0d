#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for ruas-setup: golden and random fragments through real
# visudo, hostile names, install with rollback, useradd twice, and end to
# end with ruas check. Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/setup.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=22000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
if [ ! -x "$SETUP" ]; then
	echo "Bail out! ruas-setup was not installed at $SETUP" >&2
	exit 99
fi

. "$abs_top_srcdir/tests/integration/tap.sh"
# setup ARGS...: runs ruas-setup as root; sets RC, OUT, ERR.
setup() {
	"$SETUP" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
snapshot() { (cd /etc/sudoers.d && for f in $(ls -A); do printf '%s %s ' "$f" "$(stat -c '%i %a %U' "$f")"; sha256sum <"$f"; done); }

sandbox_guard
sandbox_group docker
for u in sup t1 t2 t3; do sandbox_user "$u"; done
sandbox_sudoers t3-escalates 't3 ALL=(ALL) NOPASSWD: ALL'

# ------------------------------------------------------------------ fragments
setup sudoers --supervisor orchestrator --target coder-b --target coder-a --target coder-b
expect "golden: two targets, sorted, each once" test "$OUT"$'\n' = "$(cat "$abs_top_srcdir/tests/golden/fragment-two-targets.sudoers")"$'\n'
setup sudoers --supervisor orchestrator --target coder-a --target coder-b
first=$OUT
setup sudoers --supervisor orchestrator --target coder-b --target coder-a
expect "deterministic: the same targets in another order give the same bytes" test "$first" = "$OUT"
expect "no ALL runas, no '!' but each target's own \"T ALL=(T) !ALL\", which grants nothing" \
	bash -c '! grep -v "^#" <<<"$1" | grep -vxE "([a-z-]+) ALL=\(\1\) !ALL" | grep -E "\(ALL|!"' _ "$OUT"
expect "... one such line per target" test "$(grep -cxE '([a-z-]+) ALL=\(\1\) !ALL' <<<"$OUT")" = 2

printf '%s\n' "$OUT" >"$SB/frag"
expect "golden fragment passes visudo -c -f" visudo -cqf "$SB/frag"
"$SETUP" sudoers --supervisor orchestrator --target coder-a >/dev/full 2>"$SB/err" </dev/null
RC=$? OUT="" ERR=$(cat "$SB/err")
expect "sudoers to a full disk (/dev/full): exit 1" test "$RC" = 1
expect "... saying it cannot write" has "$ERR" "cannot write to stdout"
for a in --version --help; do
	"$SETUP" $a >/dev/full 2>/dev/null </dev/null
	RC=$? OUT="" ERR=""
	expect "ruas-setup $a to /dev/full: exit 1" test "$RC" = 1
done

# Random valid names, through real visudo.
bad=0
for i in $(seq 1 60); do
	names=()
	for j in 1 2 3; do
		n=$(head -c 64 /dev/urandom | tr -dc 'a-z0-9_-' | head -c $((RANDOM % 20 + 1)))
		alphabet=abcdefghijklmnopqrstuvwxyz_
		first_char=${alphabet:RANDOM%27:1}
		names+=("$first_char$n")
	done
	sup="s$(head -c 32 /dev/urandom | tr -dc 'a-z0-9' | head -c 8)"
	args=()
	for n in "${names[@]}"; do args+=(--target "$n"); done
	if ! "$SETUP" sudoers --supervisor "$sup" "${args[@]}" >"$SB/frag" 2>"$SB/err"; then
		bad=$((bad + 1))
		echo "# refused: $sup ${names[*]}: $(cat "$SB/err")"
		continue
	fi
	visudo -cqf "$SB/frag" || bad=$((bad + 1))
	# Exactly the named runas users, nothing else.
	got=$(grep -v '^#' "$SB/frag" | sed -n "s/^$sup ALL=(\([^)]*\)) NOPASSWD: ALL\$/\1/p" | sort -u | tr '\n' ' ')
	want=$(printf '%s\n' "${names[@]}" | sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] || bad=$((bad + 1))
	# Each target: its rule, its listpw=never and its "(T) !ALL" as itself, and no other line.
	[ "$(grep -vc '^#' "$SB/frag")" = "$((3 * $(printf '%s\n' "${names[@]}" | sort -u | wc -l)))" ] || bad=$((bad + 1))
	got=$(grep -v '^#' "$SB/frag" | sed -n 's/^Defaults:\([^ ]*\) listpw=never$/\1/p' | sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] || bad=$((bad + 1))
	got=$(grep -v '^#' "$SB/frag" | sed -n 's/^\([^ ]*\) ALL=(\1) !ALL$/\1/p' | sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] || bad=$((bad + 1))
done
RC=$bad OUT="" ERR=""
expect "60 random fragments: each passes visudo and grants exactly the named targets" test "$bad" = 0

# ------------------------------------------------------------------ hostile names
before=$(snapshot)
hostile=('ALL' 'FOO' '#-1' '#0' '%sudo' '+net' '-x' 'a,b' 'a:b' 'a=b' 'a(b' 'a)b' 'a!b' 'a\b'
	'a b' $'a\tb' $'t1\nsup ALL=(ALL) NOPASSWD: ALL' 'a/b' 'a.b' 'root' 'Bob' ''
	"$(printf 'a%.0s' $(seq 33))")
for h in "${hostile[@]}"; do
	for verb in sudoers install; do
		setup "$verb" --supervisor sup --target "$h"
		shown=$(printf '%q' "$h")
		expect "hostile target $shown ($verb): refused with exit 2" test "$RC" = 2
		expect "hostile target $shown ($verb): nothing on stdout" test -z "$OUT"
		expect "hostile target $shown ($verb): says what was wrong" has "$ERR" "target"
	done
	setup sudoers --supervisor "$h" --target t1
	expect "hostile supervisor $(printf '%q' "$h"): refused with exit 2, nothing printed" test "$RC" = 2 -a -z "$OUT"
done
setup useradd --target 'ALL'
expect "useradd refuses a hostile name, prints nothing" test "$RC" = 2 -a -z "$OUT"
setup sudoers --supervisor sup --target sup
expect "the supervisor as its own target is refused" test "$RC" = 2 -a -z "$OUT"
useradd -o -u 0 -M -s /bin/bash toor
setup sudoers --supervisor sup --target toor
expect "a uid-0 account under another name is refused" has "$ERR" "uid 0"
for n in 'a.b' 'a~' 'x/y' '' 'a b'; do
	setup install --supervisor sup --target t1 --name "$n"
	expect "fragment name $(printf '%q' "$n") refused with exit 2" test "$RC" = 2
done
expect "after all refusals, /etc/sudoers.d is unchanged" test "$(snapshot)" = "$before"

# ------------------------------------------------------------------ install
setup install --supervisor sup --target t1 --target t2 --helper "$HELPER"
expect "install: exit 0" test "$RC" = 0
F=/etc/sudoers.d/ruas-sup
expect "install: the fragment is in place, 0440 root:root" test "$(stat -c '%a %U %G' "$F")" = "440 root root"
expect "install: its content is the sudoers output" test "$(cat "$F")" = "$("$SETUP" sudoers --supervisor sup --target t1 --target t2)"
expect "install: the whole policy passes visudo -c" visudo -cq
expect "install: sup can now sudo to t1 without a password" as_user sup sudo -n -iu t1 -- true
expect "install: no temporary files are left" test -z "$(ls -A /etc/sudoers.d | grep '^\.')"

good=$(snapshot)
cat >"$SB/false-visudo" <<'EOS'
#!/bin/sh
echo "fake visudo: syntax error" >&2
exit 1
EOS
chmod 755 "$SB/false-visudo"
setup install --supervisor sup --target t1 --helper "$HELPER" --visudo "$SB/false-visudo"
expect "install with a failing visudo: exit 1" test "$RC" = 1
expect "... the old fragment is untouched (same inode, bytes)" test "$(snapshot)" = "$good"

setup install --supervisor sup --target t1 --target t2 --target t3 --helper "$HELPER"
expect "install with a target that can escalate: exit 1" test "$RC" = 1
expect "... says why, with the library's message" has "$ERR" 'ERROR: target user "t3" can run passwordless sudo.'
expect "... and restores the previous fragment exactly" test "$(snapshot)" = "$good"
expect "... the policy still passes visudo -c" visudo -cq
rm -f /etc/sudoers.d/ruas-sup
clean=$(snapshot)
setup install --supervisor sup --target t3 --helper "$HELPER"
expect "install of a new fragment that fails the check: exit 1" test "$RC" = 1
expect "... leaves no fragment behind" test "$(snapshot)" = "$clean"

setup install --supervisor sup --target t1 --helper "$HELPER"
setup install --supervisor sup --target t1 --target t2 --helper "$HELPER"
expect "install replaces an existing fragment" test "$(grep -c ' NOPASSWD: ALL$' "$F")" = 2 -a "$(grep -vc '^#' "$F")" = 6

# An interrupted run: killed while the new fragment is live but unchecked.
cat >"$SB/kill-visudo" <<'EOS'
#!/bin/sh
case "$*" in *-f*) exec /usr/sbin/visudo "$@" ;; esac
kill -9 "$PPID"
exit 0
EOS
chmod 755 "$SB/kill-visudo"
setup install --supervisor sup --target t1 --helper "$HELPER" --visudo "$SB/kill-visudo"
expect "interrupted install (SIGKILL): the policy still passes visudo -c" visudo -cq
expect "... what sudo reads is a complete fragment" visudo -cqf "$F"
setup install --supervisor sup --target t1 --target t2 --helper "$HELPER"
expect "... the next run succeeds and removes the leftovers" test "$RC" = 0 -a -z "$(ls -A /etc/sudoers.d | grep '^\.')"

# ------------------------------------------------------------------ check
setup check --target t1 --target t2 --supervisor sup --helper "$HELPER"
expect "check: sup -> t1, t2 passes" test "$RC" = 0
setup check --target t3 --helper "$HELPER"
expect "check: t3 can escalate, exit 1" test "$RC" = 1
expect "check: ... with the library's message" has "$ERR" 'ERROR: target user "t3" can run passwordless sudo.'
usermod -aG docker t2
setup check --target t2 --helper "$HELPER" --json
# docker gives root by design: fatal since issue 11 part 3 (it was a warning).
expect "check --json: root-equivalent group (docker) reported as an error" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $e = $j->{targets}[0]{errors}; exit((!$j->{ok} && @$e == 1 && $e->[0]{check} eq "groups" && $e->[0]{message} =~ /is a member of docker, which give root without a password/ && !@{$j->{targets}[0]{warnings}}) ? 0 : 1)' <"$SB/out"
expect "check --json: ... exit 1" test "$RC" = 1
expect "check --json: every item holds to ruas(1)'s schema" \
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"
expect "check --json: the error names its user and fix, no project" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $e = $j->{targets}[0]{errors}[0]; exit(($e->{severity} eq "error" && !defined $e->{project} && $e->{user} eq "t2" && !defined $e->{path} && $e->{fix} =~ /^Take the user out of them:\n  gpasswd -d t2 docker/ && $e->{summary} =~ /^target user "t2" is a member of docker/) ? 0 : 1)' <"$SB/out"
gpasswd -d t2 docker >/dev/null
usermod -aG adm t2
setup check --target t2 --helper "$HELPER" --json
expect "check --json: reading group (adm) reported as a warning" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $w = $j->{targets}[0]{warnings}; exit(($j->{ok} && @$w == 1 && $w->[0]{check} eq "groups" && $w->[0]{message} =~ /adm/) ? 0 : 1)' <"$SB/out"
expect "check --json: the warning names its severity, user and fix" \
	perl -MJSON::PP -e 'my $w = decode_json(join "", <STDIN>)->{targets}[0]{warnings}[0]; exit(($w->{severity} eq "warning" && !defined $w->{project} && $w->{user} eq "t2" && $w->{fix} eq "Remove it from them, for example: gpasswd -d t2 GROUP") ? 0 : 1)' <"$SB/out"
gpasswd -d t2 adm >/dev/null
setup check --target t2 --supervisor t1 --helper "$HELPER"
expect "check --supervisor: a supervisor without a rule fails check 1" has "$ERR" 'ERROR: passwordless sudo to user "t2" is required, but it is not configured.'
setup check --target t2 --supervisor t1 --helper "$HELPER" --json
expect "check --json: every error of a target alone has a fix" \
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"
setup check --target t3 --helper "$HELPER" --json
expect "check --json: ... and of one that can escalate" \
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"

# ------------------------------------------------------------------ useradd
W="$SB/srv/w d'q\"\$HOME"
mkdir -p "$W/sub"
echo x >"$W/sub/file"
chmod 711 "$SB/srv"
"$SETUP" useradd --target agent1 --work-dir "$W" >"$SB/useradd.sh"
RC=$? OUT="" ERR=""
expect "useradd: prints a script" test "$RC" = 0 -a -s "$SB/useradd.sh"
sh -n "$SB/useradd.sh"
RC=$?
expect "useradd: the script is valid POSIX sh (sh -n)" test "$RC" = 0
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: first run succeeds" test "$RC" = 0
expect "useradd: the user exists with bash" test "$(getent passwd agent1 | cut -d: -f7)" = /bin/bash
expect "useradd: own group, no supplementary groups" test "$(id -Gn agent1)" = agent1
expect "useradd: password locked" test "$(passwd -S agent1 | cut -d' ' -f2)" = L
expect "useradd: home 0700" test "$(stat -c %a /home/agent1)" = 700
expect "useradd: work_dir ACL gives rwx" bash -c 'getfacl -p "$1" 2>/dev/null | grep -qx "user:agent1:rwx"' _ "$W"
expect "useradd: default ACL on directories" bash -c 'getfacl -p "$1/sub" 2>/dev/null | grep -qx "default:user:agent1:rwx"' _ "$W"
expect "useradd: the agent can write the tree" as_user agent1 sh -c 'echo y >> "$1/sub/file"' _ "$W"
shadow_before=$(stat -c '%i %Y.%y' /etc/shadow)
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: second run succeeds and keeps the user" test "$RC" = 0
expect "useradd: ... and says so" has "$ERR" "exists; keeping it"
expect "useradd: ... without writing /etc/shadow (its password is locked already)" \
	test "$(stat -c '%i %Y.%y' /etc/shadow)" = "$shadow_before"
expect "useradd: ... and it is still locked" test "$(passwd -S agent1 | cut -d' ' -f2)" = L
# An account that was unlocked since is locked again.
usermod -p '$6$x$y' agent1
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: an unlocked password is locked again" \
	test "$RC:$(passwd -S agent1 | cut -d' ' -f2)" = 0:L
# A login shell that is no shell of this host's leaves an account sudo -i cannot use.
printf '/opt/listed-not-there\n' >>/etc/shells
mkdir -p "$SB/shells" && printf '#!/bin/sh\n' >"$SB/shells/unlisted" && chmod 755 "$SB/shells/unlisted"
for bad in /bin/nosuch "$SB/shells/unlisted" /opt/listed-not-there /etc/passwd "/bin/ba sh" relative/sh; do
	setup useradd --target agent9 --shell "$bad"
	expect "useradd: --shell $bad refused (2), nothing printed" \
		test "$RC:$OUT" = "2:" -a -n "$(grep -F -- '--shell' <<<"$ERR")"
done
expect "... saying what /etc/shells lacks" bash -c '"$1" useradd --target agent9 --shell "$2" 2>&1 | grep -qF "is not listed in /etc/shells"' _ "$SETUP" "$SB/shells/unlisted"
expect "... or that it is not there to run" bash -c '"$1" useradd --target agent9 --shell /opt/listed-not-there 2>&1 | grep -qF "is not an executable file"' _ "$SETUP"
setup useradd --target agent9 --shell /bin/sh
expect "useradd: --shell /bin/sh (listed, executable) is taken" test "$RC" = 0 -a -n "$OUT"
usermod -aG docker agent1
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: an existing user in a root-equivalent group is refused" test "$RC" = 1
expect "useradd: ... naming the group" has "$ERR" "group docker, which gives root"
gpasswd -d agent1 docker >/dev/null
chmod 700 "$SB/srv"
sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: a parent the user cannot traverse is reported" has "$ERR" "cannot traverse $SB/srv"
chmod 711 "$SB/srv"

# ------------------------------------------------------------------ the home, by descriptor
# A home inside the user's own tree: between two runs the user puts a
# symlink in its place; chmod 0700 "$home" would follow it.
H="$SB/srv/hw"
mkdir -p "$H" "$SB/decoy"
chmod 755 "$SB/decoy"
sandbox_user hagent -d "$H/home"
chown hagent: "$H"
"$SETUP" useradd --target hagent --work-dir "$H" >"$SB/useradd-h.sh"
sh "$SB/useradd-h.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "home in the work tree: first run succeeds" test "$RC" = 0
# (the grant of the tree then adds u:hagent:rwx, so the group bits show the mask)
expect "... home 0700: no access for its group and others" bash -c 'a=$(getfacl -p "$1"); grep -qx "user::rwx" <<<"$a" && grep -qx "group::---" <<<"$a" && grep -qx "other::---" <<<"$a"' _ "$H/home"
expect "... the script runs ruas-setup home, not chmod" bash -c 'grep -q "^\"\$ruas_setup\" home --target \"\$user\" --home \"\$home\"\$" "$1" && ! grep -q "^chmod " "$1"' _ "$SB/useradd-h.sh"
as_user hagent sh -c 'mv "$1/home" "$1/oldhome" && ln -s "$2" "$1/home"' _ "$H" "$SB/decoy"
sh "$SB/useradd-h.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "home swapped for a symlink: the run fails" test "$RC" = 1
expect "... saying so" has "$ERR" "home $H/home is a symlink; refusing"
expect "... the symlink's target keeps its mode" test "$(stat -c %a "$SB/decoy")" = 755
as_user hagent sh -c 'rm "$1/home" && mv "$1/oldhome" "$1/home"' _ "$H"
mkdir "$SB/roothome"
chmod 755 "$SB/roothome"
setup home --target hagent --home "$SB/roothome"
expect "home: a home the user does not own is refused" test "$RC" = 1
expect "... saying whose it is" has "$ERR" "home $SB/roothome is owned by uid 0, not by hagent"
expect "... its mode unchanged" test "$(stat -c %a "$SB/roothome")" = 755
setup home --target hagent --home /
expect "home: / is refused" test "$RC" = 1
expect "... saying why" has "$ERR" "home /: refusing: that is the whole filesystem"
setup home --target hagent --home "$SB/srv/../srv/hw/home"
expect "home: a '..' is refused" test "$RC" = 1
setup home --target root --home /root
expect "home: root as the target is refused (exit 2)" test "$RC" = 2
expect "ruas-setup --help lists home" bash -c '"$1" --help | grep -q "ruas-setup home --target USER --home DIR"' _ "$SETUP"
setup home --target hagent
expect "home without --home: exit 2" test "$RC" = 2

# ------------------------------------------------------------------ id failing
# The group checks must not pass on nothing when id fails (set -eu does not
# stop a failed $(id -G) in a for list, nor a failed $(id -g) inside [ ]).
mkdir -p "$SB/fakeid"
printf '#!/bin/sh\ncase "$1" in -G | -g) exit 1 ;; esac\nexec /usr/bin/id "$@"\n' >"$SB/fakeid/id"
chmod 755 "$SB/fakeid/id"
usermod -aG docker agent1
PATH="$SB/fakeid:$PATH" sh "$SB/useradd.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "useradd: id -G or id -g failing: refused, exit 1" test "$RC" = 1
expect "... saying so" has "$ERR" "cannot read the ids of user agent1"
gpasswd -d agent1 docker >/dev/null

# ------------------------------------------------------------------ delegate
# The supervisor's systemd drop-in (ruas-setup(8) DELEGATE): printed, then
# written where systemd reads it as root, never through a link nor into a
# directory that others may write.
SD=$SB/systemd
mkdir -m 0755 "$SD" "$SB/decoy"
setup delegate --unit cc-connect --systemd-version 252
expect "delegate: printed for systemd 252, without DelegateSubgroup=" \
	test "$RC$(grep -c '^Delegate=cpu memory pids$' <<<"$OUT")$(grep -c '^DelegateSubgroup=' <<<"$OUT")" = 010
setup delegate --unit cc-connect.service --systemd-version 254
expect "delegate: from 254, DelegateSubgroup=supervisor" \
	test "$RC$(sed -n '$p' <<<"$OUT")" = 0DelegateSubgroup=supervisor
printf '#!/bin/sh\necho "systemd 256 (256.7-2)"\necho "+PAM +AUDIT"\n' >"$SB/systemctl256"
chmod 755 "$SB/systemctl256"
setup delegate --unit cc-connect --systemctl "$SB/systemctl256"
expect "delegate: the version from systemctl --version" has "$OUT" "DelegateSubgroup=supervisor"
if [ -x /bin/systemctl ]; then
	v=$(/bin/systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
	setup delegate --unit cc-connect
	want=$("$SETUP" delegate --unit cc-connect --systemd-version "$v")
	expect "delegate: this host's systemctl ($v) by default" test "$RC:$OUT" = "0:$want"
fi
# systemctl is run with a clean environment, and its first line is enough.
printf '#!/bin/sh\n[ -z "$SECRET_X" ] && [ "$PATH" = /usr/sbin:/usr/bin:/sbin:/bin ] && echo "systemd 256 (x)"\n' >"$SB/systemctl-env"
printf '#!/bin/sh\necho "systemd 256 (x)"\nsleep 600 &\n' >"$SB/systemctl-bg"
printf '#!/bin/sh\nexec sleep 600\n' >"$SB/systemctl-mute"
chmod 755 "$SB/systemctl-env" "$SB/systemctl-bg" "$SB/systemctl-mute"
SECRET_X=1 setup delegate --unit cc-connect --systemctl "$SB/systemctl-env"
expect "delegate: systemctl gets a clean environment (PATH set, nothing of the caller's)" \
	has "$OUT" "DelegateSubgroup=supervisor"
setup delegate --unit cc-connect --systemctl "$SB/systemctl-bg"
expect "delegate: a systemctl whose child keeps the pipe open: its first line is enough" \
	test "$RC" = 0 -a -n "$(grep -F DelegateSubgroup= <<<"$OUT")"
timeout 120 "$SETUP" delegate --unit cc-connect --systemctl "$SB/systemctl-mute" >"$SB/out" 2>"$SB/err" </dev/null
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "delegate: a systemctl that never answers is given up on (1), not waited for" \
	test "$RC" = 1 -a -n "$(grep -F 'did not answer within 10 s' <<<"$ERR")"
pkill -f "^sleep 600" || true
# A caller that ignores SIGCHLD (exec keeps that): ruas-setup still waits for its children.
python3 -c 'import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])' \
	"$SETUP" delegate --unit cc-connect --systemctl "$SB/systemctl256" >"$SB/out" 2>"$SB/err" </dev/null
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "delegate: under a caller's SIGCHLD SIG_IGN, systemctl's status is still known" \
	test "$RC" = 0 -a -n "$(grep -F DelegateSubgroup= <<<"$OUT")"
setup delegate --unit cc-connect --systemctl /bin/false
expect "delegate: no version from systemctl: exit 1, saying what to give" \
	test "$RC:$OUT" = "1:" -a -n "$(grep -F 'give --systemd-version N' <<<"$ERR")"
for bad in '../evil' 'a/b' $'a\nb' 'x"; ExecStart=/bin/sh' 'cc.socket' 'bridge@.service' ''; do
	setup delegate --unit "$bad" --install --systemd-dir "$SD" --systemd-version 252
	expect "delegate: unit $(printf %q "$bad") refused (2), nothing written" \
		test "$RC:$OUT:$(ls -A "$SD")" = "2::" -a -n "$(grep -F -- '--unit "' <<<"$ERR")"
done
mkdir -m 0755 "$SD/cc-connect.service.d"
printf 'stale\n' >"$SD/cc-connect.service.d/.ruas-delegate.conf.new-deadbeef"
printf '[Service]\nDelegate=no\n' >"$SD/cc-connect.service.d/ruas-delegate.conf"
chmod 0600 "$SD/cc-connect.service.d/ruas-delegate.conf"
printf '[Service]\nNice=5\n' >"$SD/cc-connect.service.d/other.conf"
want=$("$SETUP" delegate --unit cc-connect --systemd-version 252)
setup delegate --unit cc-connect --install --systemd-dir "$SD" --systemd-version 252
F=$SD/cc-connect.service.d/ruas-delegate.conf
expect "delegate --install: replaces the old drop-in with the printed one" \
	test "$RC:$(cat "$F")" = "0:$want"
expect "... 0644 root:root, a regular file" test "$(stat -c '%a %U %G %F' "$F")" = "644 root root regular file"
expect "... says what to do next" has "$ERR" "systemctl daemon-reload, then systemctl restart cc-connect.service"
expect "... and the cgroup_parent to set" has "$ERR" 'cgroup_parent = "/sys/fs/cgroup/system.slice/cc-connect.service"'
expect "... leaves the unit's other drop-ins alone" test "$(cat "$SD/cc-connect.service.d/other.conf")" = $'[Service]\nNice=5'
expect "... and removes its own stale dot-files" test "$(ls -A "$SD/cc-connect.service.d")" = $'other.conf\nruas-delegate.conf'
ino=$(stat -c %i "$F")
setup delegate --unit cc-connect --install --systemd-dir "$SD" --systemd-version 252
expect "delegate --install again: the same file, untouched" test "$RC:$(stat -c %i "$F")" = "0:$ino"
expect "... saying it was in place" has "$ERR" "already in place: $F"
# A link where the drop-in goes is replaced, never written through.
rm "$F" && ln -s "$SB/decoy/victim" "$F"
setup delegate --unit cc-connect --install --systemd-dir "$SD" --systemd-version 252
expect "delegate --install: a symlink at the drop-in is replaced by the file" \
	test "$RC:$(stat -c %F "$F"):$(ls -A "$SB/decoy")" = "0:regular file:"
# A link where UNIT.d goes is not followed.
ln -s "$SB/decoy" "$SD/evil.service.d"
setup delegate --unit evil --install --systemd-dir "$SD" --systemd-version 252
expect "delegate --install: UNIT.d a symlink: refused (1), nothing written through it" \
	test "$RC:$(ls -A "$SB/decoy")" = "1:" -a -n "$(grep -F 'never followed' <<<"$ERR")"
# Directories that someone else may write: systemd would run what they put there.
mkdir -m 0755 "$SD/t1.service.d" && chown t1 "$SD/t1.service.d"
setup delegate --unit t1 --install --systemd-dir "$SD" --systemd-version 252
expect "delegate --install: UNIT.d owned by a user: refused (1), nothing written" \
	test "$RC:$(ls -A "$SD/t1.service.d")" = "1:" -a -n "$(grep -F 'owned by root and writable only by root' <<<"$ERR")"
# Above DIR: a symlink, and a directory someone else may write, are refused.
mkdir -m 0755 "$SB/real" "$SB/real/systemd" && ln -s "$SB/real" "$SB/link"
setup delegate --unit cc-connect --install --systemd-dir "$SB/link/systemd" --systemd-version 252
expect "delegate --install: a symlink above DIR: refused (1), nothing written" \
	test "$RC:$(ls -A "$SB/real/systemd")" = "1:" -a -n "$(grep -F 'a symlink is never followed' <<<"$ERR")"
mkdir -m 0755 "$SB/t1owned" && chown t1 "$SB/t1owned" && mkdir -m 0755 "$SB/t1owned/systemd"
setup delegate --unit cc-connect --install --systemd-dir "$SB/t1owned/systemd" --systemd-version 252
expect "delegate --install: DIR in a directory a user owns: refused (1), nothing written" \
	test "$RC:$(ls -A "$SB/t1owned/systemd")" = "1:" -a -n "$(grep -F 'the directories above it must be owned by root' <<<"$ERR")"
setup delegate --unit cc-connect --install --systemd-dir "relative/dir" --systemd-version 252
expect "delegate --install: a relative DIR: usage (2)" test "$RC" = 2
mkdir -m 0777 "$SB/open"
setup delegate --unit cc-connect --install --systemd-dir "$SB/open" --systemd-version 252
expect "delegate --install: a directory others may write: refused (1), nothing written" \
	test "$RC:$(ls -A "$SB/open")" = "1:"
as_user sup "$SETUP" delegate --unit cc-connect --install --systemd-dir "$SD" --systemd-version 252 >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "delegate --install as a user: refused (2)" test "$RC" = 2 -a -n "$(grep -F 'must run as root' <<<"$ERR")"
setup delegate --unit cc-connect --target t1
expect "delegate with --target: usage (2)" test "$RC" = 2
setup delegate --unit cc-connect --systemd-dir "$SD" --systemd-version 252
expect "delegate --systemd-dir without --install: usage (2)" test "$RC" = 2
setup delegate --unit cc-connect --systemd-version 25x
expect "delegate --systemd-version 25x: usage (2)" test "$RC:$OUT" = "2:"

# ------------------------------------------------------------------ end to end
sandbox_user ops
mkdir -p "$SB/e2e/app"
"$SETUP" useradd --target app-agent --work-dir "$SB/e2e/app" | sh 2>/dev/null
chmod 755 "$SB/e2e"
mkdir -p "$SB/conf"
cat >"$SB/conf/ruas.conf" <<EOC
helper = "$HELPER";
projects = (
  { name = "app"; run_as_user = "app-agent"; work_dir = "$SB/e2e/app"; command = ["id", "-un"]; },
  { name = "app2"; run_as_user = "app-agent"; work_dir = "$SB/e2e/app"; command = ["true"]; },
  { name = "local"; work_dir = "$SB/e2e"; command = ["true"]; }
);
EOC
chmod 644 "$SB/conf/ruas.conf"
setup sudoers --supervisor ops --config "$SB/conf/ruas.conf"
expect "--config: each distinct run_as_user once, legacy projects ignored" test "$(grep -c ' NOPASSWD: ALL$' <<<"$OUT")" = 1 -a "$(grep -vc '^#' <<<"$OUT")" = 3
setup install --supervisor ops --config "$SB/conf/ruas.conf"
expect "end to end: install from the configuration" test "$RC" = 0
as_user ops "$RUAS" check -c "$SB/conf/ruas.conf" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "end to end: ruas check passes" test "$RC" = 0
as_user ops "$RUAS" run -c "$SB/conf/ruas.conf" app >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "end to end: ruas run runs the agent as app-agent" test "$OUT" = app-agent

tap_finish
