#!/bin/bash
# SPDX-License-Identifier: ISC
# demo.sh - ruas check and ruas run on a throwaway host (a private mount
# namespace with copies of /etc and /home), so nothing touches this machine.
# Run as root: make demo
. "${abs_top_srcdir:?run this through make demo}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "the demo"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=25000
sandbox_setup
sandbox_guard
EXTRA_ENV=()

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; }

say "A throwaway host: supervisor 'orchestrator', agent users 'coder' and 'helper'"
sandbox_user orchestrator
sandbox_user coder
sandbox_user helper
sandbox_sudoers ruas-orchestrator 'orchestrator ALL=(coder) NOPASSWD: ALL' \
	'orchestrator ALL=(helper) NOPASSWD: ALL'
# A mistake an operator could make: the agent user may escalate.
sandbox_sudoers helper-oops 'helper ALL=(ALL) NOPASSWD: ALL'
mkdir -p "$SB/srv/coder repo" "$SB/srv/helper"
echo "print('hello')" >"$SB/srv/coder repo/main.py"
echo "token=s3cret" >"$SB/srv/coder repo/secret.env"
chmod 600 "$SB/srv/coder repo/secret.env"
chown -R coder:coder "$SB/srv/coder repo"
chown root:root "$SB/srv/coder repo/secret.env"
mkdir -p "$SB/etc-ruas"
cat >"$SB/etc-ruas/ruas.conf" <<EOC
helper = "$HELPER";
projects = (
  { name = "coder"; run_as_user = "coder"; work_dir = "$SB/srv/coder repo";
    command = ["sh", "-c", "echo \\"agent: \$(id -un) in \$(pwd)\\"; printf 'argv: [%s]\\\\n' \\"\$@\\"", "agent"]; },
  { name = "helper"; run_as_user = "helper"; work_dir = "$SB/srv/helper"; command = ["true"]; }
);
EOC
CONF="$SB/etc-ruas/ruas.conf"
cat "$CONF"

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
