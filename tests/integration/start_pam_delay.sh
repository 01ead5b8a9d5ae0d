#!/bin/bash
# SPDX-License-Identifier: ISC
# A start whose PAM session stack stalls (issue 26, item 10: "a 100 s sudo
# PAM delay was blamed on the target's login files and left a root sleep
# 100"): a session module of sudo's (sudo backend, non-root supervisor) or
# of ruas's own PAM service (pam backend, root supervisor) that blocks,
# here a pam_exec of a reader on a FIFO the test holds, so the test waits
# for events, not for time. The spawn returns within its 60 s bound plus a
# margin, as a start that failed at stage sudo (ETIMEDOUT), blaming sudo's
# or ruas's PAM session stack and never the target's login files; what
# the stalled stack started is ended with it at once (the issue's root
# "sleep 100" that stayed); nothing of the target ever runs, and nothing of
# the run is left.
# Inside the private-namespace sandbox; needs root. About 2 minutes: each
# backend waits the spawn's full 60 s once.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/start_pam_delay.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/start_pam_delay.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=55000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
consumer_build startspawn "$abs_top_srcdir/tests/consumer/startspawn.c"
expect "startspawn builds against the installed library" test "$RC" = 0

sandbox_user sup
sandbox_user t1
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
HOME1=$(getent passwd t1 | cut -d: -f6)
mkdir -p "$SB/conf"
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
projects = (
  { name = "mark"; run_as_user = "t1"; work_dir = "/tmp"; command = ["sh", "-c", "echo agent-ran > \"\$HOME/agent-ran\""]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
done
leftovers() { pgrep -u t1 2>/dev/null | tr '\n' ' '; }
# The stall: a session module that blocks until the test writes the FIFO,
# which lives in the sandbox's own directory (nothing on the host's /run).
# pam.d splits arguments at blanks: mktemp's name has none.
stall_fifo=$SB/stall/fifo
case $stall_fifo in *[[:space:]]*) echo "Bail out! a blank in $stall_fifo" >&2; exit 99 ;; esac
mkdir -m 0700 "$SB/stall"
mkfifo -m 0600 "$stall_fifo"
stall_line="session required pam_exec.so quiet /usr/bin/head -c1 $stall_fifo"
# stalled PID: is a process of the stall (the pam_exec'd head) still there?
stalled() { pgrep -fx "/usr/bin/head -c1 $stall_fifo" >/dev/null; }
# release: let the stalled stack return (a writer on the FIFO), and wait
# (bounded) until nothing of the stall and of t1 is left.
release() {
	printf x >"$stall_fifo" &
	local w=$!
	for _ in $(seq 300); do
		stalled || [ -n "$(leftovers)" ] || break
		sleep 0.1
	done
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null
}

for backend in sudo pam; do
	who=sup service=sudo
	[ "$backend" = pam ] && who=root service=ruas
	cp "/etc/pam.d/$service" "$SB/pam.$service.orig"
	printf '%s\n' "$stall_line" >>"/etc/pam.d/$service"
	rm -f "$HOME1/agent-ran"
	as_user_bg "$who" "$SB/bin/startspawn" "$SB/conf/$backend.conf" mark - \
		</dev/null >"$SB/out.$backend" 2>&1
	pid=$BGPID
	if returns_within 90 "$pid"; then
		OUT=$(cat "$SB/out.$backend") ERR=""
		expect "$backend: a stalled PAM session: the spawn returns within its bound" true
	else
		OUT="still waiting after 90 s" ERR=""
		expect "$backend: a stalled PAM session: the spawn returns within its bound" false
	fi
	expect "$backend: ... a start that failed at stage sudo, ETIMEDOUT" \
		has "$OUT" "error code=-8 stage=1 errno=110 "
	expect "$backend: ... naming the PAM session stack" has "$OUT" "PAM session"
	expect "$backend: ... never the target's login files" hasnt "$OUT" "login file"
	expect "$backend: ... nor a refusal" hasnt "$OUT" "refused"
	# What the stack started is ended with it, at once: root may end
	# anything; sup, on this sudo, what sudo's PAM stack runs as it. Had it
	# not been allowed, the message would say what still runs.
	OUT="$OUT; stall: $(pgrep -af "head -c1 $stall_fifo" || true)" ERR=""
	expect "$backend: ... and what the PAM stack started is ended with it, at once" eval '! stalled'
	expect "$backend: ... and the message claims nothing else" hasnt "$OUT" "cannot end"
	release
	wait "$pid" 2>/dev/null
	expect "$backend: the agent never ran" test ! -e "$HOME1/agent-ran"
	OUT="left: $(leftovers); stall: $(pgrep -af "head -c1 $stall_fifo" || true)" ERR=""
	expect "$backend: once the stack returns, nothing of the run is left" \
		eval '[ -z "$(leftovers)" ] && ! stalled'
	cp "$SB/pam.$service.orig" "/etc/pam.d/$service"
done

tap_finish
