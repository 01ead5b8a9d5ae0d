#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests of the per-spawn values of ruas_spawn_options (issue 13,
# item 7), on both backends (sudo for a non-root supervisor, pam for root)
# and for a person: a per-spawn work_dir reaches the agent as its cwd and
# PWD, one that escapes the project's work_dir is refused (by the library,
# or by the helper as the target where the supervisor cannot look), a
# set_env value reaches the agent over env's, and a name outside the
# allowlist is refused before anything starts. Through tests/consumer/
# spawnopts.c, built against the installed library with pkg-config alone.
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/spawnopts.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/spawnopts.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=33000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
hex() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }

# ------------------------------------------------------------------ the supervisor
consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
consumer_build spawnopts "$abs_top_srcdir/tests/consumer/spawnopts.c"
expect "spawnopts builds with pkg-config --cflags --libs ruas" test "$RC" = 0
# spawn USER ARGS...: the supervisor as USER; sets RC, OUT, ERR.
spawn() {
	local u=$1
	shift
	as_user "$u" "$SB/bin/spawnopts" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}

# ------------------------------------------------------------------ users and trees
sandbox_guard
sandbox_user sup
for u in t1 ruas-alice; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL' 'sup ALL=(ruas-alice) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
install -m 644 "$abs_top_srcdir/tests/integration/probe.pl" "$SB/probe.pl"
PROBE="$SB/probe.pl"
W="$SB/w"
SUB="s d'\$x\"q"
mkdir -p "$W/$SUB/inner" "$W/locked" "$SB/outside"
ln -s ../outside "$W/esc"
chown -R t1:t1 "$W"
chown root:root "$W/locked"
chmod 700 "$W/locked"
WT="$SB/wt"
mkdir -p "$WT/alice/repo/sub" "$WT/alice/other" "$SB/cred" "$SB/cp"
ln -s ../other "$WT/alice/repo/esc"
chown -R ruas-alice "$WT/alice"
chmod 700 "$WT/alice" "$SB/cred"
chmod 755 "$WT"

TOKEN=$'tok \'"$HOME\n=x'
mkdir -p "$SB/conf"
conf() { # BACKEND: the configuration for it, in $CONF
	CONF="$SB/conf/$1.conf"
	cat >"$CONF" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$1";
env_allowlist = ["SESSION_TOKEN"];
people = { worktrees = "$WT"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; } ); };
projects = (
  { name = "probe"; run_as_user = "t1"; work_dir = $(cfgstr "$W"); command = ["perl", $(cfgstr "$PROBE")]; },
  { name = "touch"; run_as_user = "t1"; work_dir = $(cfgstr "$W"); command = ["touch", "$SB/started"]; },
  { name = "alice"; person = "alice"; work_dir = "$WT/alice/repo"; command = ["perl", $(cfgstr "$PROBE")]; }
);
EOC
	chmod 644 "$CONF"
}

# ------------------------------------------------------------------ both backends
# per_spawn BACKEND SUPERVISOR
per_spawn() {
	local backend=$1 who=$2 t="per-spawn ($1)"
	conf "$backend"
	EXTRA_ENV=("SESSION_TOKEN=from-env")
	spawn "$who" "$CONF" probe -w "$SUB" -s "SESSION_TOKEN=$TOKEN"
	EXTRA_ENV=()
	expect "$t: a relative work_dir: exits 0" test "$RC" = 0
	expect "$t: ... the agent's cwd is the subdirectory" has "$OUT" "cwd $(hex "$W/$SUB")"$'\n'
	expect "$t: ... and so is its PWD" has "$OUT" "env PWD $(hex "$W/$SUB")"$'\n'
	expect "$t: a set_env value crosses byte for byte, over env's" \
		has "$OUT" "env SESSION_TOKEN $(hex "$TOKEN")"$'\n'

	spawn "$who" "$CONF" probe -w "$W/$SUB//inner/."
	expect "$t: an absolute work_dir beneath the project's: exits 0" test "$RC" = 0
	expect "$t: ... cwd is it" has "$OUT" "cwd $(hex "$W/$SUB/inner")"$'\n'
	expect "$t: ... and PWD, cleaned of . and //" has "$OUT" "env PWD $(hex "$W/$SUB/inner")"$'\n'
	EXTRA_ENV=("SESSION_TOKEN=from-env")
	spawn "$who" "$CONF" probe
	EXTRA_ENV=()
	expect "$t: without them, the project's work_dir" has "$OUT" "env PWD $(hex "$W")"$'\n'
	expect "$t: ... and env's value" has "$OUT" "env SESSION_TOKEN $(hex from-env)"$'\n'

	rm -f "$SB/started"
	spawn "$who" "$CONF" touch -w esc
	expect "$t: a symlink out of the project's work_dir is refused (RUAS_ERR_ESCAPE)" \
		has "$ERR" "spawnopts: error -7: ruas_spawn: project \"touch\": work_dir \"esc\" leaves the project's work_dir \"$W\": "
	expect "$t: ... exit 2, and nothing started" test "$RC" = 2 -a ! -e "$SB/started"
	spawn "$who" "$CONF" touch -w "$SUB/.."
	expect "$t: \"..\" is refused" has "$ERR" "error -7: ruas_spawn: project \"touch\": work_dir"
	expect "$t: ... nothing started" test ! -e "$SB/started"
	spawn "$who" "$CONF" touch -s "SESSION_TOKEN=ok" -s "LD_PRELOAD=/x.so"
	expect "$t: a set_env name outside the allowlist is refused (RUAS_ERR_INVALID), naming it" \
		has "$ERR" "spawnopts: error -4: ruas_spawn: project \"touch\": set_env names \"LD_PRELOAD\", which is not in the project's env_allowlist"
	expect "$t: ... exit 2, and nothing started" test "$RC" = 2 -a ! -e "$SB/started"
	spawn "$who" "$CONF" touch -s "SESSION_TOKEN"
	expect "$t: a set_env entry without '=' is refused" has "$ERR" "error -4: "
	expect "$t: ... nothing started" test ! -e "$SB/started"

	# The library may resolve it (the supervisor can search W), the target may not enter it.
	spawn "$who" "$CONF" probe -w locked
	expect "$t: a work_dir the target cannot enter: the helper's failure, the spawn's error (RUAS_ERR_START)" \
		test "$RC" = 2
	expect "$t: ... at the work_dir, with the helper's reason" \
		has "$ERR" "error -8: project \"probe\": the agent did not start as user \"t1\" (work_dir): cannot enter work_dir \"$W/locked\": Permission denied"
	expect "$t: ... saying so on the agent's stderr" \
		has "$ERR" "ruas-exec: cannot enter work_dir \"$W/locked\": Permission denied"
	expect "$t: ... and the agent did not run" hasnt "$OUT" "cwd "

	# A person: the scope is the target's alone (mode 700), so the supervisor
	# cannot look and the helper, as the target, decides.
	spawn "$who" "$CONF" alice -w sub
	expect "$t: a person's per-spawn work_dir: exits 0" test "$RC" = 0
	expect "$t: ... cwd is it" has "$OUT" "cwd $(hex "$WT/alice/repo/sub")"$'\n'
	expect "$t: ... PWD too" has "$OUT" "env PWD $(hex "$WT/alice/repo/sub")"$'\n'
	spawn "$who" "$CONF" alice -w esc
	if [ "$who" = root ]; then
		# root sees through the scope: the library refuses before anything starts.
		expect "$t: a person's symlink out of the project's work_dir is refused by the library" \
			has "$ERR" "error -7: ruas_spawn: project \"alice\": work_dir \"esc\" leaves"
	else
		expect "$t: a person's symlink out of the project's work_dir: the helper refuses: the spawn's error (RUAS_ERR_START)" \
			test "$RC" = 2
		expect "$t: ... at the work_dir" \
			has "$ERR" "error -8: project \"alice\": the agent did not start as user \"ruas-alice\" (work_dir): work_dir \"$WT/alice/repo/esc\" leaves its project's work_dir or its person's scope"
		expect "$t: ... saying why" \
			has "$ERR" "ruas-exec: work_dir is not contained in its project's work_dir:"
	fi
	expect "$t: ... and the agent did not run" hasnt "$OUT" "cwd "
}
per_spawn sudo sup
per_spawn pam root

left=$(pgrep -a -u t1; pgrep -a -u ruas-alice)
RC=0 OUT=$left ERR=""
expect "no process of a target is left" test -z "$left"

tap_finish
