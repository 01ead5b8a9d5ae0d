#!/bin/bash
# SPDX-License-Identifier: ISC
# The layering rules hold, and their check (scripts/check-layering, run by
# `make lint`) really fails: on a copy of the tree, each reach across a room
# boundary is planted in turn and must be refused, naming the file and line.
# The same for the size limits (scripts/check-sizes): a long function, a
# long file, and the comment that lets a function stay one piece.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
check=$abs_top_srcdir/scripts/check-layering
work=$(mktemp -d /var/tmp/ruas-layering.XXXXXX)
trap 'rm -rf "$work"' EXIT

OUT=$(perl "$check" "$abs_top_srcdir" 2>&1)
RC=$? ERR=""
expect "the tree as committed keeps to its rooms" test "$RC" = 0

# plant FILE LINE: a fresh copy of the tree with LINE added to FILE.
plant() {
	rm -rf "$work/t" && mkdir "$work/t"
	cp -r "$abs_top_srcdir/include" "$abs_top_srcdir/src" "$abs_top_srcdir/tools" "$work/t/"
	printf '%s\n' "$2" >>"$work/t/$1"
	OUT=$(perl "$check" "$work/t" 2>&1)
	RC=$? ERR=""
}
refused() { # NAME FILE LINE WANT: the check fails and names FILE and WANT
	plant "$2" "$3"
	expect "$1: refused" test "$RC" = 1
	expect "$1: the message names the file" has "$OUT" "$2:"
	expect "$1: ... and the rule" has "$OUT" "$4"
}
refused "a tool includes a library-internal header" tools/ruas/main.c \
	'#include "check/messages.h"' "not a header that tools/ruas may include"
refused "a tool includes the wire protocol" tools/ruas-setup/main.c \
	'#include "helper_report.h"' "it is in src/proto"
refused "the target-side helper includes the library" src/helper/exec/ruas-exec.c \
	'#include "config/config_int.h"' "not a header that src/helper/exec may include"
refused "the root-side helper includes the target-side helper" src/helper/session/ruas-session.c \
	'#include "reaper.h"' "it is in src/helper/exec"
refused "the library includes a helper's header" src/lib/check/preflight.c \
	'#include "scan.h"' "it is in src/helper/exec"
refused "the library includes a tool's header" src/lib/spawn/spawn.c \
	'#include "report_print.h"' "it is in tools/common"
refused "common code includes the protocol" src/common/buf.c \
	'#include "payload.h"' "not a header that src/common may include"
refused "common code reaches into the protocol" src/common/strv.c \
	'#include "channel.h"' "it is in src/proto"
refused "a relative reach" src/helper/exec/probes.c \
	'#include "../../lib/error.h"' "no relative or absolute reaches"
refused "the public header from a helper" src/helper/exec/scan_walk.c \
	'#include "ruas.h"' "it is in include"

sizes=$abs_top_srcdir/scripts/check-sizes
OUT=$(perl "$sizes" "$abs_top_srcdir" 2>&1)
RC=$? ERR=""
expect "the tree as committed keeps its files and functions short" test "$RC" = 0
# long_fn N [COMMENT]: a function of N lines, after an optional comment line.
long_fn() {
	[ -n "${2:-}" ] && printf '/* %s */\n' "$2"
	printf 'static int planted(int x)\n{\n'
	for ((i = 0; i < $1 - 4; i++)); do printf '\tx++;\n'; done
	printf '\treturn x;\n}\n'
}
blank_lines() { for ((i = 0; i < $1; i++)); do echo; done; }
sized() { # NAME FILE COMMAND...: COMMAND's output appended to FILE in a copy
	local file=$2
	shift 2
	rm -rf "$work/t" && mkdir "$work/t"
	cp -r "$abs_top_srcdir/src" "$abs_top_srcdir/tools" "$work/t/"
	"$@" >>"$work/t/$file"
	OUT=$(perl "$sizes" "$work/t" 2>&1)
	RC=$? ERR=""
}
sized "fn" src/lib/error.c long_fn 81
expect "a function of 81 lines is refused" test "$RC" = 1
expect "... naming it, its place and its length" has "$OUT" "src/lib/error.c:"
expect "... and its length" has "$OUT" "static int planted(int x) is 81 lines (at most 80)"
sized "fn" src/lib/error.c long_fn 80
expect "a function of 80 lines is not" test "$RC" = 0
sized "fn" src/lib/error.c long_fn 120 "the state machine reads best as one piece"
expect "a long function whose comment says why it is one piece is not" test "$RC" = 0
sized "fn" src/lib/error.c long_fn 120 "a long function"
expect "... but another comment does not excuse it" test "$RC" = 1
sized "file" tools/ruas/main.c blank_lines 600
expect "a file over 600 lines is refused" test "$RC" = 1
expect "... naming it" has "$OUT" "tools/ruas/main.c has "
tap_finish
