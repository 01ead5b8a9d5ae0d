#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for people on one instance: deny lists from the real
# filesystem, containment attacks, the deny files and private TMPDIR an
# agent gets, bubblewrap enforcement for people who share a user, and the
# OS-level audit; and the same for people built in code
# (ruas_config_set_people, through tests/consumer/people_store.c).
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/people.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=24000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"

slug() { printf '%s' "$1" | sed 's/[^A-Za-z0-9]/-/g'; }

sandbox_guard
sandbox_user sup
for u in ruas-alice ruas-bob ruas-shared; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(ruas-alice) NOPASSWD: ALL' 'sup ALL=(ruas-bob) NOPASSWD: ALL' \
	'sup ALL=(ruas-shared) NOPASSWD: ALL'

WT="$SB/wt"
mkdir -p "$WT"/{alice,bob,bobby}/repo "$SB/cred" "$SB/cp"
chmod 755 "$WT"
echo alice-data >"$WT/alice/repo/mine.txt"
echo bob-secret >"$WT/bob/repo/secret.txt"
echo token >"$SB/cred/token"
chown -R ruas-alice "$WT/alice"
chown -R ruas-bob "$WT/bob" "$WT/bobby"
chmod 700 "$WT/alice" "$WT/bob" "$WT/bobby" "$SB/cred"
for d in alice/repo bob/repo bobby/repo; do mkdir -p "$SB/cp/$(slug "$WT/$d")"; done
mkdir -p "$SB/cp/$(slug /srv/elsewhere)"
chmod -R a+rX "$SB/cp"

conf() {
	local f="$SB/conf/$1.conf"
	mkdir -p "$SB/conf"
	{ printf 'helper = "%s";\n' "$HELPER"; cat; } >"$f"
	chmod 644 "$f"
	CONF=$f
}
conf people <<EOC
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; }, { id = "bob"; run_as_user = "ruas-bob"; },
              { id = "bobby"; run_as_user = "ruas-bob"; } ); };
projects = (
  { name = "alice-repo"; person = "alice"; work_dir = "$WT/alice/repo";
    command = ["sh", "-c", "echo \"list=\$RUAS_DENY_LIST\"; cat \"\$RUAS_DENY_LIST\"; test -w \"\$RUAS_DENY_LIST\" && echo WRITABLE; echo \"tmp=\$TMPDIR cc=\$CLAUDE_CODE_TMPDIR\"; stat -c 'tmpstat=%a %U' \"\$TMPDIR\"; printf 'arg=%s\\\\n' \"\$@\"", "agent"];
    deny_settings_args = ["--settings", "{file}", "x{file}y"]; },
  { name = "alice-hold"; person = "alice"; work_dir = "$WT/alice/repo";
    command = ["sh", "-c", "exec sleep 30"]; deny_settings_args = ["--settings", "{file}"]; }
);
EOC
PEOPLE_CONF=$CONF
conf escapes <<EOC
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; } ); };
projects = (
  { name = "alice-repo"; person = "alice"; work_dir = "$WT/alice/repo"; command = ["true"]; },
  { name = "escape-dotdot"; person = "alice"; work_dir = "$WT/alice/../bob/repo"; command = ["true"]; },
  { name = "escape-abs"; person = "alice"; work_dir = "$WT/alice/abs/x"; command = ["true"]; },
  { name = "escape-rel"; person = "alice"; work_dir = "$WT/alice/rel"; command = ["true"]; },
  { name = "not-under"; person = "alice"; work_dir = "$SB/elsewhere"; command = ["true"]; }
);
EOC
ESCAPES_CONF=$CONF
CONF=$PEOPLE_CONF

# ------------------------------------------------------------------ deny lists
run_sup deny -c "$CONF" alice
expect "deny alice: the credentials root" has "$OUT" "$SB/cred"
expect "deny alice: bob's scope" has "$OUT" "$WT/bob"
expect "deny alice: bobby's scope" has "$OUT" "$WT/bobby"
expect "deny alice: bob's claude project directory" has "$OUT" "$SB/cp/$(slug "$WT/bob/repo")"
expect "deny alice: never alice's own scope" hasnt "$OUT" "$WT/alice"$'\n'
expect "deny alice: never alice's own claude directory" hasnt "$OUT" "$(slug "$WT/alice/repo")"
expect "deny alice: not a directory of nobody's" hasnt "$OUT" "$(slug /srv/elsewhere)"
run_sup deny -c "$CONF" bob
expect "deny bob (prefix of bobby): bobby's claude directory is denied" has "$OUT" "$SB/cp/$(slug "$WT/bobby/repo")"
expect "deny bob: his own is not" hasnt "$OUT" "$SB/cp/$(slug "$WT/bob/repo")"
run_sup deny -c "$CONF" bobby
expect "deny bobby: bob's claude directory is denied" has "$OUT" "$SB/cp/$(slug "$WT/bob/repo")"
expect "deny bobby: its own is not" hasnt "$OUT" "$SB/cp/$(slug "$WT/bobby/repo")"
mkdir -p "$WT/alice/new-repo"
mkdir -p "$SB/cp/$(slug "$WT/bob/new-repo")"
run_sup deny -c "$CONF" alice
expect "deny lists are computed afresh: a directory made since is on it" has "$OUT" "$(slug "$WT/bob/new-repo")"

run_sup deny -c "$CONF" alice --format claude-settings
expect "claude-settings: Read rule with // for an absolute path" has "$OUT" "\"Read(/$WT/bob/**)\""
expect "claude-settings: Edit rule (write tier)" has "$OUT" "\"Edit(/$WT/bob/**)\""
expect "claude-settings: sandbox.filesystem.denyRead" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my %d = map { $_ => 1 } @{$j->{sandbox}{filesystem}{denyRead}}; exit($d{$ARGV[0]} && $d{$ARGV[1]} ? 0 : 1)' "$WT/bob" "$SB/cred" <"$SB/out"
as_user sup "$RUAS" deny -c "$CONF" alice >/dev/full 2>"$SB/err" </dev/null
RC=$? OUT="" ERR=$(cat "$SB/err")
expect "deny to a full disk (/dev/full): exit 1, never a silent success" test "$RC" = 1
for fmt in json claude-settings; do
	as_user sup "$RUAS" deny -c "$CONF" alice --format "$fmt" >/dev/full 2>"$SB/err" </dev/null
	RC=$? OUT="" ERR=$(cat "$SB/err")
	expect "deny --format $fmt to /dev/full: exit 1" test "$RC" = 1
done
for a in --version --help "check --help"; do
	# shellcheck disable=SC2086
	as_user sup "$RUAS" $a >/dev/full 2>/dev/null </dev/null
	RC=$? OUT="" ERR=""
	expect "ruas $a to /dev/full: exit 1" test "$RC" = 1
done
run_sup deny -c "$CONF" alice --format json
expect "json: a document with person and deny" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); exit($j->{person} eq "alice" && grep({ $_ eq $ARGV[0] } @{$j->{deny}}) ? 0 : 1)' "$SB/cred" <"$SB/out"
run_sup deny -c "$CONF" mallory
expect "deny of an unknown person exits 2" test "$RC" = 2

conf single <<EOC
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; } ); };
projects = ( { name = "a"; person = "alice"; work_dir = "$WT/alice/repo"; command = ["true"]; } );
EOC
run_sup deny -c "$CONF" alice
expect "a single local person gets only the credentials root" test "$OUT" = "$SB/cred"

# ------------------------------------------------------------------ containment
ln -s "$WT/bob" "$WT/alice/abs"
ln -s ../bob "$WT/alice/rel"
chown -h ruas-alice "$WT/alice/abs" "$WT/alice/rel"
CONF=$ESCAPES_CONF
run_sup check -c "$CONF"
expect "containment: check is fatal" test "$RC" = 1
expect "containment: .. out of the scope is named" has "$ERR" "ERROR: project \"escape-dotdot\" work_dir \"$WT/alice/../bob/repo\" does not stay inside the scope of person \"alice\""
expect "containment: an absolute symlink is refused" has "$ERR" "ERROR: project \"escape-abs\""
expect "containment: a relative symlink out is refused" has "$ERR" "ERROR: project \"escape-rel\""
expect "containment: a work_dir outside the scope is refused" has "$ERR" "ERROR: project \"not-under\""
expect "containment: the good project has no containment error" hasnt "$ERR" "project \"alice-repo\" work_dir"
run_sup run -c "$CONF" alice-repo
expect "containment: run refuses to start anything" test "$RC" = 1

# ------------------------------------------------------------------ what the agent gets
CONF=$PEOPLE_CONF
run_sup check -c "$CONF"
expect "person projects: check passes" test "$RC" = 0
run_sup run -c "$CONF" alice-repo
expect "person run: exits 0" test "$RC" = 0
list=$(printf '%s\n' "$OUT" | sed -n 's/^list=//p')
expect "person run: RUAS_DENY_LIST names a file" test -n "$list"
expect "person run: the agent read its deny list" has "$OUT" "$WT/bob"
expect "person run: the agent cannot write it" hasnt "$OUT" "WRITABLE"
expect "person run: TMPDIR is private to the target, never /tmp itself" has "$OUT" "tmp=/tmp/ruas-$(id -u ruas-alice)/alice cc=/tmp/ruas-$(id -u ruas-alice)/alice"
expect "person run: TMPDIR is 0700 and the target's" has "$OUT" "tmpstat=700 ruas-alice"
expect "person run: deny_settings_args appended with {file} replaced" has "$OUT" "arg=--settings"
settings=$(printf '%s\n' "$OUT" | grep '^arg=/' | head -1 | sed 's/^arg=//')
expect "person run: ... the settings file is absolute" test -n "$settings"
expect "person run: ... {file} inside an argument too" has "$OUT" "arg=x${settings}y"
expect "person run: the deny files are removed after the run" test ! -e "$list"

# While an agent runs, another local user tries to read its person's deny
# list and settings, which name what the person must not see: by the name
# it finds in the agent's environment, and by listing the directory.
pkill -KILL -u ruas-alice -x sleep || :
as_user sup "$RUAS" run -c "$CONF" alice-hold >/dev/null 2>"$SB/hold.err" </dev/null &
hold=$!
pid=""
for _ in $(seq 100); do
	pid=$(pgrep -n -u ruas-alice -x sleep)
	[ -n "$pid" ] && break
	sleep 0.1
done
list=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^RUAS_DENY_LIST=//p')
settings=${list%/*}/settings.json
RC=0 OUT="list=$list settings=$settings" ERR=$(cat "$SB/hold.err")
expect "held run: the agent runs with a deny list and a settings file" test -n "$list" -a -n "$settings"
OUT=$(as_user ruas-bob cat "$list" 2>&1); RC=$?
expect "another user cannot read the deny list, even by its name" test "$RC" != 0
expect "... and it really did not" hasnt "$OUT" "$WT/bob"
OUT=$(as_user ruas-bob cat "$settings" 2>&1); RC=$?
expect "another user cannot read the claude settings" test "$RC" != 0
OUT=$(as_user ruas-bob ls "$(dirname "$list")" 2>&1); RC=$?
expect "another user cannot list or enter their directory" test "$RC" != 0
OUT=$(as_user ruas-alice cat "$list" 2>&1); RC=$?
expect "the target reads its deny list" has "$OUT" "$WT/bob"
OUT=$(as_user ruas-alice sh -c 'echo x >>"$1" && echo WROTE' _ "$list" 2>&1); RC=$?
expect "the target cannot write it" hasnt "$OUT" "WROTE"
OUT=$(as_user ruas-alice chmod 666 "$list" 2>&1); RC=$?
expect "... nor chmod it (it is not the target's)" test "$RC" != 0
OUT=$(stat -c '%a %U' "$list" "$(dirname "$list")"); RC=0
expect "the files are the supervisor's, 0600 plus the target's ACL entry; the directory 0700 plus it" \
	test "$OUT" = "640 sup"$'\n'"710 sup"
kill -TERM "$pid"
wait "$hold"
expect "held run: the files are gone once it ended" test ! -e "$list" -a ! -e "$settings"

# TMPDIR squatting: someone else made the directory first, or a symlink.
bob_uid=$(id -u ruas-bob)
conf squat <<EOC
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "bob"; run_as_user = "ruas-bob"; } ); };
projects = ( { name = "b"; person = "bob"; work_dir = "$WT/bob/repo"; command = ["sh", "-c", "echo tmp=\$TMPDIR"]; } );
EOC
# Another user made /tmp/ruas-UID first (world-writable, so that the
# agent's files would land where the squatter reads them): never used, and
# never a refusal for good. The run gets a parent of its own, named at
# random, and says so.
mkdir -p "/tmp/ruas-$bob_uid"
chmod 777 "/tmp/ruas-$bob_uid"
run_sup run -c "$CONF" b
expect "squatting: a /tmp/ruas-UID of another owner does not stop the run (exit 0)" test "$RC" = 0
tmpdir=$(sed -n 's/^tmp=//p' <<<"$OUT")
expect "squatting: ... TMPDIR is in a fresh parent of the run's own, not the squatter's" \
	eval '[[ "$tmpdir" =~ ^/tmp/ruas-$bob_uid\.[0-9a-f]{16}/bob$ ]]'
expect "squatting: ... that parent is bob's, mode 0700" \
	test "$(stat -c %U:%a "${tmpdir%/bob}" 2>&1)" = "ruas-bob:700"
expect "squatting: ... nothing was made in the squatter's directory" \
	test -z "$(ls -A "/tmp/ruas-$bob_uid")"
expect "squatting: ... the run says so, naming the path and the fix" \
	has "$ERR" "warning: /tmp/ruas-$bob_uid is not this user's private directory"
expect "squatting: ... and the fix" has "$ERR" "Fix, as root: rm -rf /tmp/ruas-$bob_uid"
run_sup run -c "$CONF" b
tmpdir2=$(sed -n 's/^tmp=//p' <<<"$OUT")
expect "squatting: the next run is not refused either, with a parent of its own again" \
	test "$RC" = 0 -a -n "$tmpdir2" -a "$tmpdir2" != "$tmpdir"
rm -rf "/tmp/ruas-$bob_uid" "/tmp/ruas-$bob_uid".*
ln -s /etc "/tmp/ruas-$bob_uid"
before=$(ls -la /etc | md5sum)
run_sup run -c "$CONF" b
tmpdir=$(sed -n 's/^tmp=//p' <<<"$OUT")
expect "squatting: a symlink (to /etc) does not stop the run either" test "$RC" = 0
expect "squatting: ... TMPDIR is not through the symlink" \
	eval '[[ "$tmpdir" =~ ^/tmp/ruas-$bob_uid\.[0-9a-f]{16}/bob$ ]]'
expect "squatting: ... and nothing was made where it points" test "$(ls -la /etc | md5sum)" = "$before"
rm -f "/tmp/ruas-$bob_uid"
rm -rf "/tmp/ruas-$bob_uid".*
mkdir -p "/tmp/ruas-$bob_uid"
chown ruas-bob "/tmp/ruas-$bob_uid"
chmod 755 "/tmp/ruas-$bob_uid"
run_sup run -c "$CONF" b
expect "squatting: the target's own directory with a loose mode is made 0700" test "$RC" = 0 -a "$(stat -c %a "/tmp/ruas-$bob_uid")" = 700

# ------------------------------------------------------------------ one shared user, no bwrap: TMPDIR
# bob and bobby are both ruas-bob, with no bwrap: mode bits cannot keep
# their TMPDIRs apart. In the run's PID namespace (lifetime = "pidns") the
# run covers /tmp/ruas-UID with an empty tmpfs of its own and binds the
# person's directory alone back (src/common/tmp_cover.h): bob's agent finds
# nothing of bobby's, on both backends, while bobby's files stay on disk.
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
rm -rf "/tmp/ruas-$bob_uid" "/tmp/ruas-$bob_uid".*
SECRET="bobby-tmp-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')"
for b in sudo pam; do
	conf "sharedtmp-$b" <<EOC
session_helper = $(cfgstr "$SESSION");
backend = "$b";
lifetime = "pidns";
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "bob"; run_as_user = "ruas-bob"; }, { id = "bobby"; run_as_user = "ruas-bob"; } ); };
projects = (
  { name = "bobby"; person = "bobby"; work_dir = "$WT/bobby/repo";
    command = ["sh", "-c", "printf %s $SECRET-$b > \"\$TMPDIR/note\"; echo tmp=\$TMPDIR; ls -A /tmp/ruas-$bob_uid"]; },
  { name = "bob"; person = "bob"; work_dir = "$WT/bob/repo";
    command = ["sh", "-c", "echo tmp=\$TMPDIR; echo seen=\$(ls -A /tmp/ruas-$bob_uid | tr '\\\\n' ' '); cat /tmp/ruas-$bob_uid*/bobby/note; grep -rs $SECRET /tmp/ruas-$bob_uid* /proc/[0-9]*/root/tmp/ruas-$bob_uid*; touch \"\$TMPDIR/mine\""]; }
);
EOC
	who=sup
	[ "$b" = pam ] && who=root
	run_as "$who" run -c "$CONF" bobby
	expect "shared user, no bwrap ($b): bobby's agent runs (exit 0)" test "$RC" = 0
	expect "... its TMPDIR is /tmp/ruas-UID/bobby" has "$OUT" "tmp=/tmp/ruas-$bob_uid/bobby"
	expect "... and it sees only its own directory there" has "$OUT" $'\nbobby' 
	expect "... its note is on disk after the run, in its TMPDIR" \
		test "$(cat "/tmp/ruas-$bob_uid/bobby/note" 2>&1)" = "$SECRET-$b"
	run_as "$who" run -c "$CONF" bob
	expect "the attack ($b): bob's agent, same uid, cannot read bobby's TMPDIR" hasnt "$OUT" "$SECRET"
	expect "... it sees only its own directory under /tmp/ruas-UID" grep -qx "seen=bob" <<<"$OUT"
	expect "... and no name of bobby's anywhere" hasnt "$OUT" "bobby"
	expect "... its own TMPDIR works" test -e "/tmp/ruas-$bob_uid/bob/mine"
	expect "... and nothing of its own went elsewhere" test "$(ls -A "/tmp/ruas-$bob_uid" | tr '\n' ' ')" = "bob bobby "
done
# Squatted: another user made /tmp/ruas-UID first. On pam, ruas-session
# (root) moves it aside and the run covers its own; on sudo, the run's
# fresh parent (ruas-UID.RANDOM) shows to every process of the uid, so the
# person's directory gets a tmpfs of the run's own: bobby's files live as
# long as its run, where bob cannot reach them.
sandbox_user squatter
for b in sudo pam; do
	rm -rf "/tmp/ruas-$bob_uid" "/tmp/ruas-$bob_uid".*
	mkdir "/tmp/ruas-$bob_uid"
	chown squatter "/tmp/ruas-$bob_uid"
	chmod 777 "/tmp/ruas-$bob_uid"
	CONF="$SB/conf/sharedtmp-$b.conf"
	who=sup
	[ "$b" = pam ] && who=root
	# bobby's agent leaves its note and waits; bob's looks for it meanwhile.
	rm -f "$SB/fifo-$b"
	mkfifo -m 666 "$SB/fifo-$b"
	exec 8<>"$SB/fifo-$b"
	# bobby's agent: its note, then it waits on its stdin until bob's has looked.
	sed -i "s|ls -A /tmp/ruas-$bob_uid\"\]|ls -A /tmp/ruas-$bob_uid; read x\"]|" "$CONF"
	as_user "$who" "$RUAS" run -q -c "$CONF" bobby <"$SB/fifo-$b" >"$SB/bobby-$b.out" 2>"$SB/bobby-$b.err" &
	held=$!
	for _ in $(seq 200); do
		grep -q '^tmp=' "$SB/bobby-$b.out" 2>/dev/null && break
		sleep 0.05
	done
	run_as "$who" run -c "$CONF" bob
	expect "squatted ($b): bob's agent cannot read bobby's TMPDIR either" hasnt "$OUT" "$SECRET"
	expect "... and sees no name of bobby's" hasnt "$OUT" "bobby"
	expect "... while bobby's run still held its note" kill -0 "$held"
	echo go >&8
	exec 8>&-
	wait "$held"
	expect "squatted ($b): bobby's run went on (exit 0)" test "$?" = 0
	if [ "$b" = pam ]; then
		expect "... ruas-session moved the squatter's directory aside, and said so" \
			has "$(cat "$SB/bobby-$b.err")" "was not the target's own directory"
		expect "... kept whole for root to look at" \
			test "$(stat -c %U /tmp/ruas-"$bob_uid".squatted-* 2>&1 | sort -u)" = squatter
	else
		expect "... in a fresh parent of its own" has "$(cat "$SB/bobby-$b.out")" "tmp=/tmp/ruas-$bob_uid."
		expect "... whose note lived as long as its run: nothing on disk" \
			test -z "$(grep -rls "$SECRET" /tmp/ruas-"$bob_uid".* 2>/dev/null)"
	fi
done
rm -rf "/tmp/ruas-$bob_uid" "/tmp/ruas-$bob_uid".*
# Without a PID namespace (no mount namespace either) the run cannot cover
# it; ruas check says the people share a user (its "people" warning).

# ------------------------------------------------------------------ bwrap, one shared user
W2="$SB/wt2"
mkdir -p "$W2/alice2" "$W2/bob2" "$SB/cred2"
echo mine >"$W2/alice2/mine.txt"
echo bobs >"$W2/bob2/secret.txt"
chown -R ruas-shared "$W2"
chmod 755 "$W2"
conf shared <<EOC
people = { worktrees = "$W2"; credentials = "$SB/cred2"; claude_projects = "$SB/cp"; enforce = "bwrap";
  members = ( { id = "alice2"; run_as_user = "ruas-shared"; }, { id = "bob2"; run_as_user = "ruas-shared"; } ); };
projects = (
  { name = "a2-bob"; person = "alice2"; work_dir = "$W2/alice2"; command = ["cat", "$W2/bob2/secret.txt"]; },
  { name = "a2-own"; person = "alice2"; work_dir = "$W2/alice2"; command = ["cat", "$W2/alice2/mine.txt"]; }
);
EOC
run_sup check -c "$CONF"
expect "bwrap: check passes when bubblewrap runs" test "$RC" = 0
expect "bwrap: people sharing a user are warned about" has "$ERR" 'person "alice2" shares run_as_user "ruas-shared" with "bob2"'
as_user ruas-shared cat "$W2/bob2/secret.txt" >/dev/null 2>&1
RC=$? OUT="" ERR=""
expect "bwrap: without it, the shared user can read bob2's file (the OS does not separate them)" test "$RC" = 0
run_sup run -c "$CONF" a2-bob
expect "bwrap: alice2's agent cannot read bob2's files" test "$RC" != 0 -a "$OUT" != bobs
run_sup run -c "$CONF" a2-own
expect "bwrap: ... and can read her own" test "$RC" = 0 -a "$OUT" = mine

# The deny list is on no command line (issue 25): every local user may read
# every /proc/PID/cmdline, and bwrap's masks once named each path it hides
# (--tmpfs $W2/bob2). Another local user (ruas-bob) reads them all while
# alice2's agent runs under bwrap; the agent says when it is up, waits for
# the release file.
conf shared-hold <<EOC
people = { worktrees = "$W2"; credentials = "$SB/cred2"; claude_projects = "$SB/cp"; enforce = "bwrap";
  members = ( { id = "alice2"; run_as_user = "ruas-shared"; }, { id = "bob2"; run_as_user = "ruas-shared"; } ); };
projects = (
  { name = "a2-hold"; person = "alice2"; work_dir = "$W2/alice2";
    command = ["sh", "-c", "echo up > up; while [ ! -e release ]; do sleep 0.05; done"]; }
);
EOC
rm -f "$W2/alice2/up" "$W2/alice2/release"
as_user_bg sup "$RUAS" run -c "$CONF" a2-hold >"$SB/hold.out" 2>"$SB/hold.err"
hold_pid=$BGPID
for _ in $(seq 600); do [ -e "$W2/alice2/up" ] && break; sleep 0.1; done
RC="" OUT="" ERR=""
expect "bwrap argv: alice2's agent is up under bwrap" test -e "$W2/alice2/up"
as_user ruas-bob bash -c 'shopt -s nullglob; for f in /proc/[0-9]*/cmdline; do tr "\0" " " <"$f" 2>/dev/null; echo; done' >"$SB/cmdlines"
expect "bwrap argv: another local user read the command lines, bwrap's among them" grep -q "bwrap" "$SB/cmdlines"
OUT=$(grep -F -e "$W2/bob2" -e "$SB/cred2" -e "$SB/cp" "$SB/cmdlines" | head -c 400)
expect "bwrap argv: ... no path of alice2's deny list is on any of them" test -z "$OUT"
OUT=$(grep -E "(^| )/tmp/ruas-[0-9]" "$SB/cmdlines" | head -c 400)
expect "bwrap argv: ... nor her private TMPDIR, which names her" test -z "$OUT"
touch "$W2/alice2/release"
wait "$hold_pid"
RC=$? OUT=$(cat "$SB/hold.out") ERR=$(cat "$SB/hold.err")
expect "bwrap argv: ... and the run ends 0" test "$RC" = 0
rm -f "$W2/alice2/up" "$W2/alice2/release"

# A supervisor SIGKILLed mid-run leaves its deny files behind (issue 25): the
# next person-scoped spawn of that uid removes them, and never those of a
# supervisor that still runs.
deny_dirs() { find /tmp -maxdepth 1 -name 'ruas-deny-*' -user sup | sort; }
rm -rf /tmp/ruas-deny-*
as_user_bg sup "$RUAS" run -c "$CONF" a2-hold >"$SB/hold.out" 2>"$SB/hold.err"
hold_pid=$BGPID
for _ in $(seq 600); do [ -e "$W2/alice2/up" ] && break; sleep 0.1; done
D1=$(deny_dirs)
RC="" OUT="$D1" ERR=""
expect "deny sweep: a running person-scoped spawn has one deny directory" test -n "$D1" -a "$(printf '%s\n' "$D1" | wc -l)" = 1
conf shared-own <<EOC
people = { worktrees = "$W2"; credentials = "$SB/cred2"; claude_projects = "$SB/cp"; enforce = "bwrap";
  members = ( { id = "alice2"; run_as_user = "ruas-shared"; }, { id = "bob2"; run_as_user = "ruas-shared"; } ); };
projects = ( { name = "a2-own"; person = "alice2"; work_dir = "$W2/alice2"; command = ["cat", "$W2/alice2/mine.txt"]; } );
EOC
OWN_CONF=$CONF
run_sup run -c "$OWN_CONF" a2-own
expect "deny sweep: another spawn meanwhile runs (exit 0)" test "$RC" = 0 -a "$OUT" = mine
expect "deny sweep: ... and leaves the live supervisor's deny directory alone" test -d "$D1"
kill -KILL "$hold_pid"
wait "$hold_pid" 2>/dev/null
touch "$W2/alice2/release"
RC="" OUT="$(deny_dirs)" ERR=""
expect "deny sweep: the SIGKILLed supervisor's deny directory is left behind" test -d "$D1"
run_sup run -c "$OWN_CONF" a2-own
expect "deny sweep: the next person-scoped spawn runs (exit 0)" test "$RC" = 0 -a "$OUT" = mine
RC="" OUT="$(deny_dirs)" ERR=""
expect "deny sweep: ... and removed it" test ! -e "$D1"
expect "deny sweep: ... nothing of ruas's is left in /tmp but the private TMPDIRs" test -z "$OUT"
rm -f "$W2/alice2/up" "$W2/alice2/release"

# Under bwrap, as on a pty, the login shell's pid is not known (bwrap
# forks it), so the first START of any process of the run counts: a login
# file that forges one can only harm its own run. Whatever it forges, ruas
# run ends within its bound with a status, and nothing of the user is
# left, a real agent that started after a forged failure included
# (issue 26; tests/integration/forge_start.py).
install -m 755 "$abs_top_srcdir/tests/integration/forge_start.py" "$SB/forge_start.py"
SHARED_HOME=$(getent passwd ruas-shared | cut -d: -f6)
shared_left() { pgrep -u ruas-shared 2>/dev/null | tr '\n' ' '; }
for forge in "nofd; exit 0" "failed; exit 0" "failed" "closed; exit 0" "held; exit 0" "held"; do
	printf 'echo ran >"$HOME/forge-ran"\n/usr/bin/python3 %q %s\n' "$SB/forge_start.py" "$forge" \
		>"$SHARED_HOME/.profile"
	chown ruas-shared "$SHARED_HOME/.profile"
	rm -f "$SHARED_HOME/forge-ran"
	t0=$(date +%s%N)
	run_sup run -c "$OWN_CONF" a2-own
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	name="bwrap: a login file that forges ($forge)"
	expect "$name: ruas run ends with a status" test -n "$RC"
	OUT="exit $RC"
	expect "$name: ... the login file did run" test -e "$SHARED_HOME/forge-ran"
	OUT="$ms ms, exit $RC"
	expect "$name: ... within its bound" test "$ms" -lt 70000
	OUT="left: $(shared_left)"
	expect "$name: ... nothing of the user is left" test -z "$(shared_left)"
done
rm -f "$SHARED_HOME/.profile" "$SHARED_HOME/forge-ran"
run_sup run -c "$OWN_CONF" a2-own
expect "bwrap: the control, without the login file, runs (exit 0)" test "$RC" = 0 -a "$OUT" = mine

conf nobwrap <<EOC
people = { worktrees = "$W2"; credentials = "$SB/cred2"; claude_projects = "$SB/cp"; enforce = "bwrap";
  members = ( { id = "alice2"; run_as_user = "ruas-shared"; } ); };
projects = ( { name = "a"; person = "alice2"; work_dir = "$W2/alice2"; command = ["true"]; } );
EOC
mount --bind /dev/null "$(command -v bwrap)" 2>/dev/null
run_sup check -c "$CONF"
expect "bwrap: check fails clearly when bubblewrap cannot run" has "$ERR" 'people.enforce = "bwrap", but bubblewrap cannot run as user "ruas-shared"'
umount "$(command -v bwrap)" 2>/dev/null

# ------------------------------------------------------------------ the same, built in code
# A supervisor that keeps its people and projects in a store of its own
# (tests/consumer/people_store.c, built against the staged library with
# pkg-config alone) builds them in code: ruas_config_set_people, then the
# projects. What held for the files above holds for it.
if command -v pkg-config >/dev/null && command -v cc >/dev/null; then
	mkdir -p "$SB/store"
	consumer_flags
	expect "in code: pkg-config finds the staged ruas" test "$RC" = 0
	consumer_build people_store "$abs_top_srcdir/tests/consumer/people_store.c"
	expect "in code: people_store builds with pkg-config --cflags --libs ruas" test "$RC" = 0
	rec() { local IFS=$'\t'; printf '%s\n' "$*"; }
	# store NAME: the records on stdin as the store NAME, which run_store then reads.
	store() { STORE="$SB/store/$1"; cat >"$STORE" && chmod 644 "$STORE"; }
	run_store() { RUAS="$SB/bin/people_store" run_sup "$STORE" "$@"; }

	{
		rec helper "$HELPER"
		rec people "$WT" "$SB/cred" "$SB/cp" none
		rec member alice ruas-alice
		rec member bob ruas-bob
		rec member bobby ruas-bob
		rec project alice-repo alice "$WT/alice/repo" sh -c 'echo "list=$RUAS_DENY_LIST"; cat "$RUAS_DENY_LIST"'
		rec project escape-dotdot alice "$WT/alice/../bob/repo" sh -c 'echo RAN'
		rec project escape-abs alice "$WT/alice/abs/x" sh -c 'echo RAN'
		rec project not-under alice "$SB/elsewhere" sh -c 'echo RAN'
	} >"$SB/store/people.in"
	store people <"$SB/store/people.in"
	for id in alice bob bobby; do
		run_sup deny -c "$PEOPLE_CONF" "$id"
		file_list=$OUT
		run_store deny "$id"
		expect "in code: $id's deny list is the file's" test "$RC" = 0 -a "$OUT" = "$file_list"
	done
	run_store deny alice
	expect "in code: ... alice's names bob's scope" has "$OUT" "$WT/bob"
	run_store check
	expect "in code: containment: check is fatal" test "$RC" = 1
	expect "in code: containment: .. out of the scope is named" has "$ERR" "ERROR: project \"escape-dotdot\" work_dir \"$WT/alice/../bob/repo\" does not stay inside the scope of person \"alice\""
	expect "in code: containment: an absolute symlink is refused" has "$ERR" "ERROR: project \"escape-abs\""
	expect "in code: containment: a work_dir outside the scope is refused" has "$ERR" "ERROR: project \"not-under\""
	expect "in code: containment: the good project has no containment error" hasnt "$ERR" "project \"alice-repo\" work_dir"
	for p in escape-dotdot escape-abs not-under; do
		run_store run "$p"
		expect "in code: spawn of $p: the helper refuses: the spawn fails (RUAS_ERR_START), and the agent never starts" \
			test "$RC" = 2 -a "$OUT" = ""
		expect "in code: spawn of $p: ... at its work_dir" \
			has "$ERR" "people_store: error -8: project \"$p\": the agent did not start as user \"ruas-alice\" (work_dir): "
		expect "in code: spawn of $p: ... for leaving the scope" has "$ERR" "person's scope"
	done
	run_store run alice-repo
	expect "in code: person run: exits 0" test "$RC" = 0
	expect "in code: person run: the agent read its deny list" has "$OUT" "$WT/bob"
	expect "in code: person run: ... which names the credentials" has "$OUT" "$SB/cred"

	{
		rec helper "$HELPER"
		rec people "$W2" "$SB/cred2" "$SB/cp" bwrap
		rec member alice2 ruas-shared
		rec member bob2 ruas-shared
		rec project a2-bob alice2 "$W2/alice2" cat "$W2/bob2/secret.txt"
		rec project a2-own alice2 "$W2/alice2" cat "$W2/alice2/mine.txt"
	} >"$SB/store/shared.in"
	store shared <"$SB/store/shared.in"
	run_store check
	expect "in code: bwrap: check passes when bubblewrap runs" test "$RC" = 0
	expect "in code: bwrap: people sharing a user are warned about" has "$ERR" 'person "alice2" shares run_as_user "ruas-shared" with "bob2"'
	run_store run a2-bob
	expect "in code: bwrap: alice2's agent cannot read bob2's files" test "$RC" != 0 -a "$OUT" != bobs
	run_store run a2-own
	expect "in code: bwrap: ... and can read her own" test "$RC" = 0 -a "$OUT" = mine

	{
		rec helper "$HELPER"
		rec people "$WT" "$SB/cred" "$SB/cp" none
		rec member alice ruas-alice
		rec member mallory sup
	} >"$SB/store/bad.in"
	store bad <"$SB/store/bad.in"
	run_store check
	expect "in code: a member that is the supervisor is refused, as in a file" test "$RC" = 2
	expect "in code: ... with the file's message, without file and line" has "$ERR" 'people_store: error -1: run_as_user "sup" is the supervisor itself'
else
	echo "# skipped the checks of people built in code: no pkg-config or cc"
fi

# ------------------------------------------------------------------ audit
mkdir -p /home/sup/.ssh
chmod 700 /home/sup/.ssh
chown sup /home/sup/.ssh
conf audit <<EOC
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; }, { id = "bob"; run_as_user = "ruas-bob"; } ); };
projects = ( { name = "a"; person = "alice"; work_dir = "$WT/alice/repo"; command = ["true"]; } );
EOC
chmod 700 "$SB/cp"/*
run_sup audit -c "$CONF"
expect "audit: scopes 0700 and private secrets: the OS enforces everything, exit 0" test "$RC" = 0
expect "audit: ... and says so" has "$ERR" "the OS enforces every deny path"
chmod 755 "$WT/bob"
chmod 755 /home/sup/.ssh
run_sup audit -c "$CONF" --json
expect "audit: opened up, exit 1" test "$RC" = 1
expect "audit: bob's scope readable by alice is reported" has "$OUT" "can read \\\"$WT/bob\\\""
expect "audit: the supervisor's ~/.ssh is reported" has "$OUT" "/home/sup/.ssh"
chmod 700 "$WT/bob" /home/sup/.ssh
run_sup audit -c "$PEOPLE_CONF"
expect "audit: people sharing a user are reported, exit 1" has "$ERR" 'persons "bob" and "bobby" share run_as_user "ruas-bob"'
expect "audit: ... and what the shared user can read of the other" has "$ERR" "person \"bob\" (user \"ruas-bob\") can read \"$WT/bobby\""
CONF="$SB/conf/shared.conf"
run_sup audit -c "$CONF"
expect "audit: with bwrap, paths it masks count as enforced" hasnt "$ERR" "can read \"$W2/bob2\""

tap_finish
