#!/bin/bash
# SPDX-License-Identifier: ISC
# The ruas command's usage and configuration messages (issue 26): one line
# per bad option, naming it; --help per command; options before the command
# taken as git takes them; a syntax error that says what is missing and
# where it was opened; a FIFO for a configuration refused at once. Needs no
# root: nothing here gets as far as sudo.
. "${abs_top_srcdir:?run this through make check}/tests/host_private.sh" || exit 99
host_private "$0" "$@"
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
RUAS="$abs_top_builddir/ruas"
T=$(mktemp -d /var/tmp/ruas-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT

# ruas ARGS...: sets RC, OUT, ERR (no command takes longer than 10 s here).
ruas() {
	timeout 10 "$RUAS" "$@" >"$T/out" 2>"$T/err" </dev/null
	RC=$? OUT=$(cat "$T/out") ERR=$(cat "$T/err")
}
lines() { printf '%s\n' "$1" | wc -l; }

ruas check --jsn
expect "an unknown long option: exit 2" test "$RC" = 2
expect "... one line, naming it" test "$ERR" = "ruas check: unknown option '--jsn' (ruas check --help lists the options)"
ruas run -x p
expect "an unknown short option: one line, naming it" test "$ERR" = "ruas run: unknown option '-x' (ruas run --help lists the options)"
ruas audit -c
expect "an option without its value: exit 2" test "$RC" = 2
expect "... one line, naming it" test "$ERR" = "ruas audit: a value is missing after '-c' (ruas audit --help lists the options)"

for verb in check run deny audit; do
	ruas "$verb" --help
	expect "ruas $verb --help: exit 0, its own usage on stdout" test "$RC" = 0 -a -z "$ERR"
	expect "... which starts with it" has "$OUT" "usage: ruas $verb "
	for other in check run deny audit; do
		[ "$other" = "$verb" ] && continue
		expect "... and not ruas $other's" hasnt "$OUT" "usage: ruas $other"
	done
done
ruas --help
expect "ruas --help: every command" has "$OUT" "ruas check"
expect "... to the last" has "$OUT" "ruas audit"

printf 'projects = ( { name = "x"; }\n' >"$T/paren.conf"
printf 'projects = ( { name = "x; } );\n' >"$T/string.conf"
printf 'a = 1;\nprojects = ( { name = = "x"; } );\n' >"$T/eq.conf"
chmod 644 "$T"/*.conf
ruas check -c "$T/paren.conf"
expect "an unclosed '(': exit 2" test "$RC" = 2
expect "... named with the line it was opened on" test "$ERR" = "ruas: $T/paren.conf:2: syntax error: the '(' opened on line 1 is never closed (a ')' is expected before the end of the file)"
ruas check -c "$T/string.conf"
expect "an unclosed string: another message, naming its line" test "$ERR" = "ruas: $T/string.conf:2: syntax error: a string opened on line 1 is not closed (a '\"' is expected before the end of the line)"
ruas check -c "$T/eq.conf"
expect "another syntax error: libconfig's words and what the syntax is" has "$ERR" "eq.conf:2: syntax error: syntax error (each setting is NAME = VALUE"

# Options before the command: the same as after it.
ruas check -c "$T/paren.conf"
after=$ERR
ruas -c "$T/paren.conf" check
expect "ruas -c FILE check: as ruas check -c FILE" test "$RC" = 2 -a "$ERR" = "$after"
ruas --config="$T/paren.conf" -q check
expect "ruas --config=FILE -q check: as well" test "$RC" = 2 -a "$ERR" = "$after"
ruas -c check
expect "options and no command: exit 2" test "$RC" = 2
expect "... one line" test "$(lines "$ERR")" = 1
expect "... saying where the command goes" has "$ERR" "the command comes first, its options after it"

mkfifo "$T/fifo.conf"
ruas check -c "$T/fifo.conf"
expect "a FIFO for a configuration: refused at once (exit 2, not the timeout's 124)" test "$RC" = 2
expect "... saying what it is" has "$ERR" "fifo.conf: not a regular file (a FIFO)"
tap_finish
