#!/bin/bash
# SPDX-License-Identifier: ISC
# The README's first screen (issue 28): make demo provisions its throwaway
# host with ruas-setup useradd and install, as an operator would, so that
# what ruas check says there is what it would say on a provisioned host:
# the deliberate mistake (a target with NOPASSWD sudo) and the deliberate
# unreadable file, and no warning about the demo itself. Runs demo/demo.sh,
# which makes its own sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/demo.sh"
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"

# Into a file, not a pipe: only the demo's end is waited for, not that of
# whatever it may have left holding its output.
log=$(mktemp) || exit 99
trap 'rm -f "$log"' EXIT
timeout 900 bash "$abs_top_srcdir/demo/demo.sh" >"$log" 2>&1
RC=$?
OUT=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
ERR=""
expect "the demo runs to its end" test "$RC" = 0
expect "the demo ends with its last line" has "$OUT" "Done. The sandbox is gone"
expect "the mistake is caught: helper can escalate" \
	has "$OUT" 'ERROR: target user "helper" can run passwordless sudo.'
expect "the deliberate unreadable file is found by the scan" \
	has "$OUT" '/secret.env (not readable, not writable, mode 600 owner root)'
expect "no target's rules are unlisted: ruas-setup install gave listpw=never" \
	hasnt "$OUT" "could not be listed without a password"
expect "the audit records reach the throwaway host's syslog" \
	hasnt "$OUT" "could not be delivered to syslog"
# Between the operator's fix and the run, the check says only what it would
# on a provisioned host: the unreadable file.
fixed=$(printf '%s\n' "$OUT" | sed -n '/removes the NOPASSWD rule/,/^(exit status/p')
expect "after the fix the check passes" has "$fixed" "(exit status 0)"
warnings=$(printf '%s\n' "$fixed" | grep -c '^WARNING:')
expect "after the fix one warning is left, the unreadable file's (got $warnings)" test "$warnings" = 1
expect "the agent gets its argv byte for byte" has "$OUT" 'argv: [$HOME]'
tap_finish
