#!/bin/bash
# SPDX-License-Identifier: ISC
# demo.sh - ruas-setup, ruas check and ruas run on a throwaway host (a private mount
# namespace with copies of /etc and /home), so nothing touches this machine.
# Run as root: make demo
. "${abs_top_srcdir:?run this through make demo}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "the demo"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=57400
sandbox_setup
sandbox_guard
EXTRA_ENV=()

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; }

SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
set -o pipefail
# The throwaway host's own syslog (the audit trail's records go there) and
# /proc with hidepid=invisible, as ruas check recommends for a real host.
sandbox_devlog
trap 'kill "$LISTENER" 2>/dev/null' EXIT
sandbox_proc_hidepid
# ruas-setup useradd creates accounts with the host's useradd: the ids of
# this throwaway host's login.defs stay apart from other sandboxes'.
sed -i -e '/^[UG]ID_M[AI][XN]\b/d' /etc/login.defs
printf 'UID_MIN %s\nUID_MAX %s\nGID_MIN %s\nGID_MAX %s\n' "$SANDBOX_ID_BASE" \
	$((SANDBOX_ID_BASE + 999)) "$SANDBOX_ID_BASE" $((SANDBOX_ID_BASE + 999)) >>/etc/login.defs

say "A throwaway host: supervisor 'orchestrator' and two projects, 'coder' and 'helper'"
sandbox_user orchestrator
mkdir -p "$SB/srv/coder repo" "$SB/srv/helper" "$SB/etc-ruas"
echo "print('hello')" >"$SB/srv/coder repo/main.py"
cat >"$SB/etc-ruas/ruas.conf" <<EOC
helper = "$HELPER";
projects = (
  { name = "coder"; run_as_user = "coder"; work_dir = "$SB/srv/coder repo";
    command = ["sh", "-c", "echo \\"agent: \$(id -un) in \$(pwd)\\"; printf 'argv: [%s]\\\\n' \\"\$@\\"", "agent"]; },
  { name = "helper"; run_as_user = "helper"; work_dir = "$SB/srv/helper"; command = ["true"]; }
);
EOC
chmod 644 "$SB/etc-ruas/ruas.conf"
CONF="$SB/etc-ruas/ruas.conf"
cat "$CONF"
echo "(Like a well-kept host, it has a syslog and mounts /proc with hidepid=invisible.)"

say "The operator provisions it as a real host: the agent users, then the supervisor's sudo rule"
for t in coder helper; do
	wd="$SB/srv/$t"
	[ "$t" = coder ] && wd="$SB/srv/coder repo"
	show "ruas-setup useradd --target $t --work-dir '$wd' | sh"
	"$SETUP" useradd --target "$t" --work-dir "$wd" | sh || exit 1
done
show "ruas-setup install --supervisor orchestrator --config ruas.conf"
"$SETUP" install --supervisor orchestrator --config "$CONF" || exit 1
show "cat /etc/sudoers.d/ruas-orchestrator"
cat /etc/sudoers.d/ruas-orchestrator

say "Two things go wrong later, as they do on real hosts"
echo "1. Somebody gives the agent user 'helper' passwordless sudo:"
show "echo 'helper ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/helper-oops"
sandbox_sudoers helper-oops 'helper ALL=(ALL) NOPASSWD: ALL'
echo "2. Root drops a secret into coder's work_dir, readable by root alone (ruas check's scan finds it):"
show "echo token=s3cret > 'coder repo/secret.env'; chmod 600 'coder repo/secret.env'"
echo "token=s3cret" >"$SB/srv/coder repo/secret.env"
chmod 600 "$SB/srv/coder repo/secret.env"

say "ruas check refuses: 'helper' can escalate, so its boundary is not real"
show "ruas check -c ruas.conf"
as_user orchestrator "$RUAS" check -c "$CONF"
echo "(exit status $?)"

say "ruas run refuses to spawn anything while any project is unsafe"
show "ruas run -c ruas.conf coder"
as_user orchestrator "$RUAS" run -c "$CONF" coder
echo "(exit status $?)"

say "The operator removes the NOPASSWD rule of 'helper'; ruas check passes (a warning remains)"
rm /etc/sudoers.d/helper-oops
as_user orchestrator "$RUAS" check -c "$CONF"
echo "(exit status $?)"

say "ruas run: the agent runs as 'coder', in its work_dir, with its argv byte for byte"
show "ruas run -c ruas.conf coder -- '\$HOME' '' 'two words'"
as_user orchestrator "$RUAS" run -c "$CONF" coder -- '$HOME' '' 'two words'
echo "(exit status $?)"

say "For contrast, naive sudo -i mangles the same arguments (\$HOME expands, '' vanishes)"
show "sudo -n -iu coder -- printf 'argv: [%s]\\n' '\$HOME' '' 'two words'"
as_user orchestrator sudo -n -iu coder -- printf 'argv: [%s]\n' '$HOME' '' 'two words'

say "JSON for configuration management: ruas check --json"
as_user orchestrator "$RUAS" check -c "$CONF" --json | head -20
echo "..."
say "Done. The sandbox is gone when this script ends; the host was not touched."
