#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests of the Go binding (bindings/go): a chat-bridge-like
# supervisor (supervisor_test.go, built with go test -c against the staged
# install with pkg-config alone) on both backends, sudo as a supervisor
# user and pam as root: three agents at once, a turn interrupted with
# SIGINT, sessions cancelled mid-turn (SIGTERM, and SIGKILL after the grace
# for an agent that ignores it), 10 MiB of output, an agent that exits
# non-zero, a spawn refused by preflight, a project built in code from
# hostile strings, the limits of a run given in code (rlimits in the
# target's run, wall_time_max), credentials given in code and by a
# Cmd.Credentials function (issue 29); and the example bridge
# (examples/go/bridge) end to end.
# Inside the private-namespace sandbox; needs root, and go (CI installs
# golang-go: without it, as root, this fails).
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/go.sh"
if ! command -v go >/dev/null || ! command -v pkg-config >/dev/null || ! command -v python3 >/dev/null; then
	echo "Bail out! tests/integration/go.sh needs go (golang-go), pkg-config and python3" >&2
	exit 99
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=43000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

# ------------------------------------------------------------------ the supervisor and the bridge
# Built from a copy (the source tree may be read-only), with a cache of its
# own, no network and no third-party module.
mkdir -p "$SB/go" "$SB/bin"
cp -R "$abs_top_srcdir/bindings" "$abs_top_srcdir/examples" "$SB/go/"
go_setup
start=$SECONDS
gobuild ruas.test "$SB/go/bindings/go" test -c .
expect "the supervisor tests build against the staged install with pkg-config (go test -c)" test "$RC" = 0
gobuild bridge "$SB/go/examples/go" build ./bridge
expect "the example bridge builds against it (go build)" test "$RC" = 0
OUT=$(cd "$SB/go/bindings/go" && go vet ./... 2>&1 && cd "$SB/go/examples/go" && go vet ./... 2>&1)
RC=$?
expect "go vet is clean" test "$RC" = 0
OUT=$(gofmt -l "$SB/go")
expect "gofmt is clean" test -z "$OUT"
echo "# go builds took $((SECONDS - start)) s"
chmod -R a+rX "$SB/bin"

# ------------------------------------------------------------------ users, agents, configs
sandbox_user sup
for u in t1 t2 t3 esc1; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(t1,t2,t3,esc1) NOPASSWD: ALL'
# esc1 can get root back: the fatal finding of check 2.
sandbox_sudoers esc1 'esc1 ALL=(ALL) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
for u in t1 t2 t3 esc1; do
	mkdir -p "$SB/w/$u"
	chown "$u" "$SB/w/$u"
done
# A directory beneath t1's work_dir whose name is libconfig syntax with a newline.
ODD=$'odd"; run_as_user = "root\nx'
mkdir "$SB/w/t1/$ODD"
chown t1 "$SB/w/t1/$ODD"
chmod 755 "$SB/w"
mkdir -p "$SB/agents"
install -m 644 "$abs_top_srcdir/bindings/go/testdata/agent.py" "$SB/agents/agent.py"
AGENT="$SB/agents/agent.py"
mkdir -p "$SB/conf"
# agent NAME USER: a project entry of the agent as USER.
agent() {
	printf '  { name = "%s"; run_as_user = "%s"; work_dir = %s; command = ["python3", %s]; }' \
		"$1" "$2" "$(cfgstr "$SB/w/$2")" "$(cfgstr "$AGENT")"
}
for backend in sudo pam; do
	head=$(printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\nterminate_grace = 1;' \
		"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$backend")
	printf '%s\nprojects = (\n%s,\n%s,\n%s,\n%s\n);\n' "$head" "$(agent a1 t1)" "$(agent a2 t2)" \
		"$(agent a3 t3)" "$(agent stubborn t1)" >"$SB/conf/$backend.conf"
	# The project of esc1 leaves a file behind if it ever starts.
	printf '%s\nprojects = (\n  { name = "bad"; run_as_user = "esc1"; work_dir = %s;\n    command = ["sh", "-c", "touch started; exec python3 \\"$0\\"", %s]; }\n);\n' \
		"$head" "$(cfgstr "$SB/w/esc1")" "$(cfgstr "$AGENT")" >"$SB/conf/$backend-esc.conf"
	chmod 644 "$SB/conf/$backend.conf" "$SB/conf/$backend-esc.conf"
done

leftovers() { pgrep -u t1,t2,t3,esc1 2>/dev/null | tr '\n' ' '; }
# sup_test WHO BACKEND NAME: one subtest of TestSupervisor as WHO; sets RC, OUT, ERR.
sup_test() {
	local who=$1 backend=$2 name=$3
	EXTRA_ENV=(RUAS_GO_IT_CONF="$SB/conf/$backend.conf" RUAS_GO_IT_ESC_CONF="$SB/conf/$backend-esc.conf"
		RUAS_GO_IT_HELPER="$HELPER" RUAS_GO_IT_SESSION="$SESSION" RUAS_GO_IT_BACKEND="$backend"
		RUAS_GO_IT_AGENT="$AGENT" RUAS_GO_IT_WORK="$SB/w" RUAS_GO_IT_ODD="$ODD"
		RUAS_GO_IT_CRED="$SB/dest$RUAS_BINDIR/ruas-credential")
	(cd "$SB/w" && as_user "$who" "$SB/bin/ruas.test" -test.v -test.count=1 -test.timeout=120s \
		-test.run "^TestSupervisor\$/^$name\$") >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	EXTRA_ENV=()
	OUT=$(grep -v '^=== ' "$SB/out" | head -c 6000)
	ERR=$(head -c 4000 "$SB/err")
}
passed() { [ "$RC" = 0 ] && has "$OUT" "--- PASS: TestSupervisor/$1 " && hasnt "$OUT" "SKIP"; }
# bridge WHO BACKEND PROJECT INPUT: the example bridge; sets RC, OUT, ERR.
bridge() {
	local who=$1 backend=$2 project=$3 input=$4
	printf '%s' "$input" >"$SB/in"
	(cd "$SB/w" && as_user "$who" "$SB/bin/bridge" -config "$SB/conf/$backend$5.conf" -project "$project") \
		<"$SB/in" >"$SB/out" 2>"$SB/err"
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(head -c 4000 "$SB/err")
}

# ------------------------------------------------------------------ the tests
declare -A what=(
	[three]="three agents at once, each answering as its own user only on its own pipes"
	[interrupt]="SIGINT interrupts a turn ({\"interrupted\":true}) and the agent goes on"
	[cancel]="a session cancelled mid-turn: Wait fails, the agent got SIGTERM, nothing of t1 is left"
	[stubborn]="... an agent that ignores SIGTERM gets SIGKILL after the grace, nothing is left"
	[big]="Output() gets exactly the 10 MiB an agent writes (length and sha256)"
	[fail]="an agent that exits 7: *ExitError with code 7 and its stderr"
	[refused]="a target with passwordless sudo of its own: Preflight is fatal with the escalation item"
	[hostile]="a project built in code from hostile strings: refusals name them; what is taken arrives byte for byte"
	[limits]="the limits given in code reach the target's run; wall_time_max ends an agent that ignores SIGTERM (Limit time)"
	[credentials]="ruas-credential in t1's run gets credentials given in code and by Cmd.Credentials; one it has none of is unknown"
)
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	for name in three interrupt cancel stubborn big fail refused hostile limits credentials; do
		sup_test "$who" "$backend" "$name"
		expect "$backend: ${what[$name]}" passed "$name"
		OUT="left: $(leftovers)"
		expect "$backend: ... and no process of the targets is left" test -z "$(leftovers)"
	done

	bridge "$who" "$backend" a2 $'hello\nworld "quoted"\n' ""
	expect "$backend: the example bridge hands each prompt to the agent and prints its replies" \
		test "$RC" = 0
	expect "$backend: ... answered by t2" has "$OUT" '{"id": 1, "user": "t2", "reply": "t2:hello", "done": true}'
	expect "$backend: ... the second prompt exactly" has "$OUT" '"reply": "t2:world \"quoted\""'
	bridge "$who" "$backend" bad $'hello\n' -esc
	expect "$backend: the example bridge refuses a project that fails preflight (exit 1)" test "$RC" = 1
	expect "$backend: ... printing the finding" has "$ERR" 'ERROR: target user "esc1" can run passwordless sudo.'
	expect "$backend: ... and saying it started nothing" has "$ERR" 'bridge: project "bad" fails preflight: not started'
	OUT=$(ls -A "$SB/w/esc1")
	expect "$backend: ... and nothing of esc1 ran" test -z "$OUT"
done
echo "# go.sh took $SECONDS s"
tap_finish
