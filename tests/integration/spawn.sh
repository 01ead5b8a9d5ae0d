#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests of the spawn channel (issue 13), on both backends (sudo
# for a non-root supervisor, pam for root), through supervisors built as
# outside programs against the installed library with pkg-config alone
# (tests/consumer/): agents over pipes with a logger thread running, no
# secret on any command line, environment or log another user can read,
# signals through the handle, and a caller of options version 1.
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/spawn.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/spawn.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=30000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }
hex() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }
md5() { printf '%s' "$1" | md5sum | cut -d' ' -f1; }

# ------------------------------------------------------------------ the supervisors
CONSUMER="$abs_top_srcdir/tests/consumer"
consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
# build NAME SOURCES...: consumer_build, and the test that it built.
build() {
	consumer_build "$@"
	expect "$1 builds against the installed library with pkg-config --cflags --libs ruas" \
		test "$RC" = 0
}
build pipes "$CONSUMER/pipes.c" "$CONSUMER/consumer.c"
build signals "$CONSUMER/signals.c" "$CONSUMER/consumer.c"
build spawn_v1 "$CONSUMER/spawn_v1.c"

# ------------------------------------------------------------------ users, agents, configs
sandbox_guard
sandbox_user sup
for u in t1 t2 t3 spy; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(t1,t2,t3) NOPASSWD: ALL'
# loglinelen=0: one line per entry, so that no wrapping can split what is looked for.
sandbox_sudoers zz-logfile 'Defaults logfile=/var/log/sudo-test.log, loglinelen=0'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
for u in t1 t2 t3; do
	mkdir -p "$SB/w/$u"
	chown "$u" "$SB/w/$u"
done
mkdir -p "$SB/agents"
# The echo agent of pipes.c: {"id":N,"msg":M} in, {"id":N,"reply":"NAME:M"} out;
# on stderr its descriptors, then each line it got; at the end of stdin, exit CODE.
cat >"$SB/agents/echo.pl" <<'EOF'
use strict;
use warnings;
use JSON::PP;
my ($name, $code) = @ARGV;
STDOUT->autoflush(1);
STDERR->autoflush(1);
opendir(my $d, "/proc/self/fd") or die "/proc/self/fd: $!";
my @fds = sort { $a <=> $b }
    grep { /^\d+$/ && (readlink("/proc/self/fd/$_") // '') !~ m{^/proc/\d+/fd$} } readdir $d;
closedir $d;
print STDERR "fds: @fds\n";
my $json = JSON::PP->new->canonical;
while (defined(my $l = <STDIN>)) {
	chomp $l;
	print STDERR "got: $l\n";
	my $m = eval { $json->decode($l) } or next;
	print $json->encode({ id => $m->{id}, reply => "$name:$m->{msg}" }), "\n";
}
exit $code;
EOF
# The TRAP agent of signals.c.
cat >"$SB/agents/trap.pl" <<'EOF'
use strict;
use warnings;
$| = 1;
for my $s (qw(USR1 USR2 INT HUP TERM)) {
	$SIG{$s} = sub { print "got $s\n" };
}
if (@ARGV && $ARGV[0] eq 'tree') {
	my $kid = fork() // die "fork: $!";
	if (!$kid) {
		exec 'sleep', '300';
		die "exec: $!";
	}
}
print "ready\n";
# Perl runs a handler only between its own steps: a signal that came just
# before a blocking read would wait for the next input. So never block for
# long, and answer whole lines as they come.
my $buf = '';
for (;;) {
	my $rin = '';
	vec($rin, fileno(STDIN), 1) = 1;
	next if select(my $rout = $rin, undef, undef, 0.05) <= 0;
	my $n = sysread(STDIN, $buf, 4096, length $buf);
	if (!defined $n) {
		next if $!{EINTR};
		die "read: $!";
	}
	last if $n == 0;
	print "pong $1\n" while $buf =~ s/^(.*)\n//;
}
exit 0;
EOF
chmod -R a+rX "$SB/agents"
SLEEPER='$| = 1; print "ready\n"; sleep 300;'
# Holds the secret in its environment; prints what it got as hashes, never the values.
HOLD='printf "key %s\n" "$(printf %s "$ANTHROPIC_API_KEY" | md5sum | cut -d" " -f1)"
printf "prompt %s\n" "$(printf %s "$1" | md5sum | cut -d" " -f1)"
echo ready
exec sleep 120'
V1='printf "v1 %s %s\n" "$SPAWN_V1_VALUE" "$1"; exit 7'
mkdir -p "$SB/conf"
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
terminate_grace = 1;
projects = (
  { name = "echo1"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["perl", "$SB/agents/echo.pl"]; },
  { name = "echo2"; run_as_user = "t2"; work_dir = "$SB/w/t2"; command = ["perl", "$SB/agents/echo.pl"]; },
  { name = "echo3"; run_as_user = "t3"; work_dir = "$SB/w/t3"; command = ["perl", "$SB/agents/echo.pl"]; },
  { name = "trap"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["perl", "$SB/agents/trap.pl"]; },
  { name = "sleeper"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["perl", "-e", $(cfgstr "$SLEEPER")]; },
  { name = "exit130"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["sh", "-c", "exit 130"]; },
  { name = "holder"; run_as_user = "t1"; work_dir = "$SB/w/t1"; env_allowlist = ["ANTHROPIC_API_KEY"];
    command = ["sh", "-c", $(cfgstr "$HOLD"), "holder"]; },
  { name = "v1"; run_as_user = "t1"; work_dir = "$SB/w/t1"; env_allowlist = ["SPAWN_V1_VALUE"];
    command = ["sh", "-c", $(cfgstr "$V1"), "v1"]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
done

# sup_run WHO PROGRAM ARGS...: a supervisor of $SB/bin as WHO; sets RC, OUT, ERR.
sup_run() {
	local who=$1 prog=$2
	shift 2
	as_user "$who" "$SB/bin/$prog" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(head -c 4000 "$SB/err")
	grep '^# ' "$SB/out"
}
SECRETS=(from-v1 "$(hex from-v1)")
# The holder has exec'd its sleep: its command line no longer has the prompt.
holding() { pgrep -u t1 -x sleep >/dev/null; }
leftovers() { pgrep -u t1,t2,t3 2>/dev/null | tr '\n' ' '; }

# ------------------------------------------------------------------ the tests
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	CONF="$SB/conf/$backend.conf"

	# Three agents over pipes, a logger thread writing to the supervisor's stderr.
	sup_run "$who" pipes run "$CONF" echo1 echo2 echo3
	expect "$backend: three agents over pipes: every reply on its own pipe, nothing of the logger's in any, exit codes right, every end seen on its pidfd" test "$RC" = 0
	expect "$backend: ... the logger wrote to the supervisor's stderr" has "$ERR" "supervisor-log"
	OUT=$(grep -v '^supervisor-log [0-9]*: ' "$SB/err" | head -20)
	expect "$backend: ... and nothing of the agents' reached the supervisor's stderr" test -z "$OUT"
	OUT="left: $(leftovers)"
	expect "$backend: ... and nothing of the three agents is left" test -z "$(leftovers)"

	# The secret: an allowlisted ANTHROPIC_API_KEY and a prompt argument.
	KEY="sk-ant-api03-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
	PROMPT="secret-prompt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
	SECRETS+=("$KEY" "$PROMPT" "$(hex "$KEY")" "$(hex "$PROMPT")")
	rm -f "$SB/release"
	EXTRA_ENV=(ANTHROPIC_API_KEY="$KEY" SPAWN_PROMPT="$PROMPT")
	as_user_bg "$who" "$SB/bin/pipes" hold "$CONF" holder "$SB/release" >"$SB/hold.out" \
		2>"$SB/hold.err"
	hpid=$BGPID
	EXTRA_ENV=()
	for _ in $(seq 100); do
		grep -qx ready "$SB/hold.out" && holding && break
		sleep 0.1
	done
	RC="" OUT=$(cat "$SB/hold.out") ERR=$(cat "$SB/hold.err")
	expect "$backend: secret: the agent runs and holds it" holding
	expect "$backend: ... it got the key" has "$OUT" "key $(md5 "$KEY")"
	expect "$backend: ... and the prompt" has "$OUT" "prompt $(md5 "$PROMPT")"
	# Another user reads every command line and environment it can, and every file it can.
	mkdir -p "$SB/w/spy"
	chown spy "$SB/w/spy"
	as_user spy bash -c '
		shopt -s nullglob
		for f in /proc/[0-9]*/cmdline /proc/[0-9]*/task/[0-9]*/cmdline; do
			cat "$f" 2>/dev/null && echo; done | tr "\0" " " >"$1/cmdlines"
		for f in /proc/[0-9]*/environ /proc/[0-9]*/task/[0-9]*/environ; do
			cat "$f" 2>/dev/null && echo; done | tr "\0" " " >"$1/environs"
		find /tmp /home /dev/shm /var/log /run/sudo "$2" -xdev -path "$2/dest" -prune -o \
			-type f -readable -size -1M -print0 2>/dev/null | xargs -0r cat 2>/dev/null >"$1/files"
	' spy "$SB/w/spy" "$SB" 2>/dev/null
	SEEN="$SB/w/spy"
	RC="" ERR=""
	OUT=$(grep -c . "$SEEN/cmdlines")
	expect "$backend: ... the other user read the command lines ($OUT)" grep -q "$HELPER" "$SEEN/cmdlines"
	if [ "$backend" = sudo ]; then
		expect "$backend: ... among them sudo's, which names only the channel's descriptor" \
			grep -q "sudo -n -u t1 -- $HELPER --channel-fd 0" "$SEEN/cmdlines"
	else
		expect "$backend: ... among them ruas-session's" grep -q "$SESSION --channel-fd 3" "$SEEN/cmdlines"
	fi
	for what in cmdlines environs files; do
		for s in "$KEY" "$PROMPT" "$(hex "$KEY")" "$(hex "$PROMPT")"; do
			OUT=$(grep -F -- "$s" "$SEEN/$what" | head -c 300)
			expect "$backend: ... the secret is in none of the $what it can read (${s:0:14}...)" \
				test -z "$OUT"
		done
	done
	touch "$SB/release"
	wait "$hpid"
	RC=$? OUT=$(cat "$SB/hold.out") ERR=$(cat "$SB/hold.err")
	expect "$backend: ... the holder supervisor ends cleanly" test "$RC" = 0
	rm -rf "$SEEN"

	# Signals through the handle.
	sup_run "$who" signals relay "$CONF" t1 trap
	expect "$backend: SIGUSR1, SIGUSR2, SIGINT, SIGHUP reach the agent; the helper lives on; the agent answers after" test "$RC" = 0
	sup_run "$who" signals grace "$CONF" t1 trap sleeper
	expect "$backend: terminate: SIGTERM, then SIGKILL after the grace (1 s); SIGTERM to an agent that dies of it ends it at once" test "$RC" = 0
	sup_run "$who" signals early "$CONF" t1 sleeper 200
	expect "$backend: a terminate right after ruas_spawn(), 200 times: nothing of the target's left after each wait" test "$RC" = 0
	sup_run "$who" signals free "$CONF" t1 sleeper trap
	expect "$backend: ruas_child_free() of a running child: no zombie, no survivor, within about 2 s" test "$RC" = 0
	sup_run "$who" signals status "$CONF" t1 exit130 sleeper
	expect "$backend: ruas_child_term_signal() tells exit 130 (0) from death by SIGINT (2); both wait 130" test "$RC" = 0

	# A supervisor built against the version-1 options.
	sup_run "$who" spawn_v1 "$CONF" v1
	expect "$backend: a caller of options version 1 works unchanged: its env and argument reach the agent on its own stdout" \
		test "$OUT" = "v1 from-v1 arg-v1"
	expect "$backend: ... and the agent's exit code comes back" test "$RC" = 7
	OUT="left: $(leftovers)"
	expect "$backend: nothing of the targets is left after all that" test -z "$(leftovers)"
	pkill -KILL -u t1,t2,t3 2>/dev/null
done

# What sudo logged: the runs, and nothing of their payloads.
LOG=$(cat /var/log/sudo-test.log 2>/dev/null)
RC="" ERR="" OUT=$(head -c 2000 /var/log/sudo-test.log 2>/dev/null)
OUT=$(grep -c -- 'ruas-exec --channel-fd 0' /var/log/sudo-test.log)
expect "sudo's log has the runs ($OUT), through ruas-exec --channel-fd 0" test "$OUT" -gt 0
for s in "${SECRETS[@]}"; do
	expect "sudo's log has nothing of the payload (${s:0:14}...)" hasnt "$LOG" "$s"
done

tap_finish
