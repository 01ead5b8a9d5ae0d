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

# ------------------------------------------------------------------ useradd --uid
# A pinned uid (issue 28, the role's uid and ruas_supervisor_uid); this
# section's uids are 57200-57299.
setup useradd --target pin1 --uid 0
expect "useradd --uid 0: refused (2), nothing printed" test "$RC" = 2 -a -z "$OUT"
expect "... saying it is root's" has "$ERR" "--uid 0 for target \"pin1\" is root's uid"
for bad in -5 07 1x '' 4294967295; do
	setup useradd --target pin1 --uid "$bad"
	expect "useradd --uid '$bad': refused (2), nothing printed" test "$RC" = 2 -a -z "$OUT"
done
setup useradd --target pin1 --uid "$(id -u agent1)"
expect "useradd --uid of another user: refused (2), naming that user" \
	test "$RC" = 2 -a -z "$OUT" -a -n "$(grep -F "is already the uid of user \"agent1\"" <<<"$ERR")"
setup useradd --target agent1 --uid 57201
expect "useradd --uid for an existing user of another uid: refused (2), naming both uids" \
	test "$RC" = 2 -a -z "$OUT" -a -n "$(grep -F -- "--uid 57201 for target \"agent1\" is not the uid of the existing user, $(id -u agent1)" <<<"$ERR")"
expect "... and the fix" has "$ERR" "change it with usermod -u 57201 agent1 while none of its processes runs"
setup sudoers --supervisor sup --target pin1 --uid 57201
expect "--uid with another verb than useradd: refused (2)" test "$RC" = 2 -a -n "$(grep -F -- "--uid belongs to useradd" <<<"$ERR")"
"$SETUP" useradd --target pin1 --uid 57201 >"$SB/pin1.sh"
expect "useradd --target pin1 --uid 57201 prints a script" test "$?" = 0 -a -s "$SB/pin1.sh"
sh "$SB/pin1.sh" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "... which creates pin1 with uid 57201" test "$RC" = 0 -a "$(id -u pin1)" = 57201
expect "... saying so" has "$ERR" "created user pin1 (uid 57201)"
"$SETUP" useradd --target pin1 --uid 57201 >"$SB/pin1.sh"
expect "useradd --uid of the user itself: taken" test "$?" = 0 -a -s "$SB/pin1.sh"
shadow_before=$(stat -c '%i %Y' /etc/shadow /etc/passwd)
sh "$SB/pin1.sh" >"$SB/out" 2>"$SB/err"
RC=$? ERR=$(cat "$SB/err")
expect "... a second run keeps the user, /etc/passwd and /etc/shadow untouched" \
	test "$RC" = 0 -a "$(stat -c '%i %Y' /etc/shadow /etc/passwd)" = "$shadow_before" -a "$(id -u pin1)" = 57201
# What changed between printing the script and running it: the script judges again.
"$SETUP" useradd --target pin2 --uid 57202 >"$SB/pin2.sh"
sandbox_user squat -u 57202
sh "$SB/pin2.sh" >"$SB/out" 2>"$SB/err"
RC=$? ERR=$(cat "$SB/err")
expect "the script: a pinned uid taken since by another user is refused (1), no user made" \
	test "$RC" = 1 -a -n "$(grep -F "uid 57202 is already user squat's; refusing" <<<"$ERR")" -a \
	-z "$(getent passwd pin2)"
"$SETUP" useradd --target pin3 --uid 57203 >"$SB/pin3.sh"
sandbox_user pin3 -u 57204
sh "$SB/pin3.sh" >"$SB/out" 2>"$SB/err"
RC=$? ERR=$(cat "$SB/err")
expect "the script: a user made since with another uid is refused (1), naming both uids" \
	test "$RC" = 1 -a -n "$(grep -F "user pin3 exists with uid 57204, not the pinned uid 57203; refusing: change it with usermod -u 57203 pin3" <<<"$ERR")" -a \
	"$(id -u pin3)" = 57204

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

# ------------------------------------------------------------------ prune (issue 28)
# Fragments that outlived their supervisor or their projects: ruas-setup
# prune removes the wholly stray ones, reports the rest, and leaves every
# other file of sudoers.d as it was, byte for byte.
SANDBOX_ID_BASE=57100
for u in pr-sup pr-old pr-a pr-b pr-gone; do sandbox_user "$u"; done
rm -f /etc/sudoers.d/ruas-sup /etc/sudoers.d/ruas-ops
mkdir -p "$SB/prw"
chmod 755 "$SB/prw"
PC="$SB/conf/prune.conf"
cat >"$PC" <<EOC
supervisor = "pr-sup";
helper = "$HELPER";
projects = (
  { name = "a"; run_as_user = "pr-a"; work_dir = "$SB/prw"; command = ["true"]; },
  { name = "b"; run_as_user = "pr-b"; work_dir = "$SB/prw"; command = ["true"]; }
);
EOC
chmod 644 "$PC"
# fragment NAME SUPERVISOR TARGET...: written with ruas-setup, as install writes it.
fragment() {
	local n=$1 s=$2 args=()
	shift 2
	for t in "$@"; do args+=(--target "$t"); done
	"$SETUP" sudoers --supervisor "$s" "${args[@]}" >"/etc/sudoers.d/$n" && chmod 0440 "/etc/sudoers.d/$n"
}
setup install --supervisor pr-sup --config "$PC"
expect "prune: the current fragment installed from the configuration" test "$RC" = 0 -a -f /etc/sudoers.d/ruas-pr-sup
fragment ruas-pr-old pr-old pr-a pr-b
fragment ruas-gone pr-sup pr-gone
fragment ruas-mixed pr-sup pr-a pr-gone
fragment ruas-odd pr-sup pr-gone
echo '# edited by hand' >>/etc/sudoers.d/ruas-odd
fragment ruas-gone.dpkg-old pr-sup pr-gone
fragment 'ruas-gone~' pr-sup pr-gone
"$SETUP" sudoers --supervisor pr-old --target pr-gone >"$SB/linked" && chmod 0440 "$SB/linked"
ln -s "$SB/linked" /etc/sudoers.d/ruas-link
printf '# not ruas-setup'"'"'s\npr-old ALL=(pr-gone) NOPASSWD: ALL\n' >/etc/sudoers.d/local-rule
chmod 0440 /etc/sudoers.d/local-rule
expect "prune: the fixture passes visudo -c" visudo -cq
# ruas check as root reads sudoers.d: one warning per stray or unclear fragment, naming the file and the fix.
"$RUAS" check -c "$PC" --json >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
frag_warnings() { perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); for (@{$j->{host}{warnings}}) { next unless $_->{check} eq "sudoers_fragment"; print "$_->{path}\t$_->{summary}\t$_->{fix}\n" }' <"$SB/out"; }
W=$(frag_warnings)
expect "check as root: a warning for each stray or unclear fragment, none for the current one" \
	test "$(cut -f1 <<<"$W" | tr '\n' ' ')" = "/etc/sudoers.d/ruas-gone /etc/sudoers.d/ruas-mixed /etc/sudoers.d/ruas-odd /etc/sudoers.d/ruas-pr-old "
expect "check as root: the other supervisor's fragment, with ruas-setup prune as the fix" \
	grep -qxF "/etc/sudoers.d/ruas-pr-old	/etc/sudoers.d/ruas-pr-old, written by ruas-setup, lets user \"pr-old\", who is not the configured supervisor \"pr-sup\", run commands as \"pr-a\", \"pr-b\" without a password.	ruas-setup prune --config $PC (as root) removes it." <<<"$W"
expect "check as root: the fragment of users in no project, with the same fix" \
	grep -qxF "/etc/sudoers.d/ruas-gone	/etc/sudoers.d/ruas-gone, written by ruas-setup, lets user \"pr-sup\" run commands as \"pr-gone\" (in no project) without a password.	ruas-setup prune --config $PC (as root) removes it." <<<"$W"
expect "check as root: the mixed one, with its regeneration as the fix" \
	grep -qF "/etc/sudoers.d/ruas-mixed	/etc/sudoers.d/ruas-mixed, written by ruas-setup, lets user \"pr-sup\" run commands as \"pr-gone\" (in no project) without a password, beside users of projects.	ruas-setup install --supervisor pr-sup --config $PC --name ruas-mixed (as root) regenerates it" <<<"$W"
expect "check as root: every item holds to ruas(1)'s schema" \
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"
"$RUAS" check -c "$PC" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "check as root (text): the warning names the file and the fix" \
	has "$ERR" "Fix: ruas-setup prune --config $PC"
# As the supervisor, the fragments (0440 root) cannot be read, nor on Debian
# the directory (0750 root): that is said, and is not a finding.
as_user pr-sup "$RUAS" check -c "$PC" --json >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "check as the supervisor, sudoers.d 0755: no fragment warning, it reads none" test -z "$(frag_warnings)"
expect "check as the supervisor, sudoers.d 0755: says that only root judges the fragments" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); exit((grep { $_->{path} eq "/etc/sudoers.d" && $_->{what} =~ /ruas-setup/ } @{$j->{host}{unjudged}}) ? 0 : 1)' <"$SB/out"
chmod 0750 /etc/sudoers.d
as_user pr-sup "$RUAS" check -c "$PC" --json >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "check as the supervisor: no fragment warning (it cannot read them)" test -z "$(frag_warnings)"
expect "check as the supervisor: says that only root judges the fragments" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); exit((grep { $_->{path} eq "/etc/sudoers.d" && $_->{what} =~ /ruas-setup/ } @{$j->{host}{unjudged}}) ? 0 : 1)' <"$SB/out"
as_user pr-sup "$RUAS" check -c "$PC" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "check as the supervisor (text): ... in its note of what only root can read" \
	has "$ERR" "(/etc/sudoers.d)"
chmod 0755 /etc/sudoers.d
# The files prune must leave, before and after.
kept_files() { (cd /etc/sudoers.d && for f in $(ls -A | grep -vx -e ruas-pr-old -e ruas-gone); do printf '%s %s ' "$f" "$(stat -c '%i %a %U' "$f")"; sha256sum <"$f"; done); }
before=$(kept_files)
all_before=$(snapshot)

as_user pr-sup "$SETUP" prune --config "$PC" >"$SB/out" 2>"$SB/err"
RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
expect "prune as a non-root user: refused with exit 2" test "$RC" = 2
expect "... saying it needs root" has "$ERR" "prune must run as root"
setup prune --config "$PC" --target pr-a
expect "prune takes no --target: exit 2" test "$RC" = 2

setup prune --config "$PC" --dry-run
expect "prune --dry-run: exit 0" test "$RC" = 0
expect "prune --dry-run: changes nothing" test "$(snapshot)" = "$all_before"
expect "prune --dry-run: would remove the other supervisor's fragment" \
	has "$OUT" "would remove /etc/sudoers.d/ruas-pr-old (supervisor pr-old is not the configured pr-sup; it grants pr-a, pr-b)"
expect "prune --dry-run: ... and the one whose target is in no project" \
	has "$OUT" "would remove /etc/sudoers.d/ruas-gone (supervisor pr-sup; pr-gone in no project)"
expect "prune --dry-run: nothing else" test "$(grep -c . <<<"$OUT")" = 2

setup prune --config "$PC"
expect "prune: exit 0" test "$RC" = 0
expect "prune: says what it removed" has "$OUT" "removed /etc/sudoers.d/ruas-pr-old (supervisor pr-old is not the configured pr-sup; it grants pr-a, pr-b)"
expect "prune: ... both" has "$OUT" "removed /etc/sudoers.d/ruas-gone (supervisor pr-sup; pr-gone in no project)"
expect "prune: removed them" test ! -e /etc/sudoers.d/ruas-pr-old -a ! -e /etc/sudoers.d/ruas-gone
expect "prune: every other file of sudoers.d is byte for byte as it was" test "$(kept_files)" = "$before"
expect "prune: a fragment that mixes current and stray targets is reported with its fix" \
	has "$ERR" "/etc/sudoers.d/ruas-mixed: it grants pr-gone, in no project, beside current targets; regenerate it: ruas-setup install --supervisor pr-sup --config $PC --name ruas-mixed"
expect "prune: a headed file with a line ruas-setup never writes is reported, not removed" \
	has "$ERR" "/etc/sudoers.d/ruas-odd: it has ruas-setup's header, but line 14 is not one ruas-setup writes"
expect "prune: the policy still passes visudo -c" visudo -cq
expect "prune: the current supervisor still sudoes to its targets" as_user pr-sup sudo -n -iu pr-a -- true
setup prune --config "$PC"
expect "prune again: nothing to remove, exit 0" test "$RC" = 0 -a -z "$OUT"

# Without the supervisor key: the supervisors whose fragments grant users of projects are current.
sed '/^supervisor = /d' "$PC" >"$SB/conf/prune-nokey.conf"
chmod 644 "$SB/conf/prune-nokey.conf"
fragment ruas-pr-old pr-old pr-gone
fragment ruas-gone pr-sup pr-gone
before=$(kept_files)
setup prune --config "$SB/conf/prune-nokey.conf"
expect "prune without the supervisor key: exit 0" test "$RC" = 0
expect "... says whom it takes as current" has "$ERR" "takes pr-sup as the current supervisor"
expect "... removes what grants only users of no project" \
	test ! -e /etc/sudoers.d/ruas-pr-old -a ! -e /etc/sudoers.d/ruas-gone
expect "... and leaves the rest byte for byte" test "$(kept_files)" = "$before"

# A file it cannot remove: exit 1, and the others still go.
mkdir -p "$SB/ro-sd"
"$SETUP" sudoers --supervisor pr-old --target pr-a >"$SB/ro-sd/ruas-pr-old"
mount --bind "$SB/ro-sd" "$SB/ro-sd" && mount -o remount,bind,ro "$SB/ro-sd"
setup prune --config "$PC" --sudoers-dir "$SB/ro-sd"
expect "prune of a file it cannot remove: exit 1" test "$RC" = 1
expect "... saying which and why" has "$ERR" "cannot remove $SB/ro-sd/ruas-pr-old"
umount "$SB/ro-sd"
rm -f /etc/sudoers.d/ruas-link

tap_finish
