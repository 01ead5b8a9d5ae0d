#!/bin/bash
# SPDX-License-Identifier: ISC
# ruas.pc works: the example supervisor of docs/library.md, which includes
# <ruas.h>, builds against the installed library with nothing but
# `pkg-config --cflags --libs ruas`, and runs.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: pkg-config or cc is not installed" >&2
	exit 77
fi
dest=$(mktemp -d /var/tmp/ruas-pc.XXXXXX)
trap 'rm -rf "$dest"' EXIT
"${MAKE:-make}" -s -C "$abs_top_builddir" install DESTDIR="$dest" >"$dest/install.log" 2>&1
RC=$? OUT="" ERR=$(tail -5 "$dest/install.log")
expect "make install into a staging directory" test "$RC" = 0
export PKG_CONFIG_PATH="$dest$RUAS_LIBDIR/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs ruas 2>&1)
RC=$? OUT=$flags ERR=""
expect "pkg-config finds ruas" test "$RC" = 0
# Nothing but pkg-config's flags, and the build's own CFLAGS and LDFLAGS
# (in a sanitizer build the program must link the same runtime; elsewhere
# LIBS is empty and CFLAGS/LDFLAGS are configure's defaults).
# shellcheck disable=SC2086
ERR=$(cc -std=c11 -Wall -Wextra -Werror ${RUAS_BUILD_CFLAGS:-} "$abs_top_srcdir/tests/consumer/supervisor.c" \
	$flags ${RUAS_BUILD_LDFLAGS:-} -o "$dest/supervisor" 2>&1)
RC=$? OUT=""
expect "a program that includes <ruas.h> builds with pkg-config --cflags --libs ruas" test "$RC" = 0
# Without a configuration it must report the error and exit 2, not crash.
ERR=$(LD_LIBRARY_PATH="$dest$RUAS_LIBDIR" "$dest/supervisor" 2>&1)
RC=$? OUT=""
expect "... and runs: a missing /etc/ruas/ruas.conf is reported, exit 2" test "$RC" = 2
expect "... with the library's message" has "$ERR" "cannot open"
# The same for the example that builds its projects in code (ruas_config_new).
# shellcheck disable=SC2086
ERR=$(cc -std=c11 -Wall -Wextra -Werror ${RUAS_BUILD_CFLAGS:-} "$abs_top_srcdir/tests/consumer/store.c" \
	$flags ${RUAS_BUILD_LDFLAGS:-} -o "$dest/store" 2>&1)
RC=$? OUT=""
expect "the example of projects built in code builds with pkg-config alone" test "$RC" = 0
OUT=$(LD_LIBRARY_PATH="$dest$RUAS_LIBDIR" "$dest/store" 2>"$dest/store.err")
RC=$? ERR=$(cat "$dest/store.err")
expect "... and runs: exit 0" test "$RC" = 0
expect "... with the valid project added" test "$OUT" = "1 project(s)"
expect "... and the hostile name refused with the loader's message" has "$ERR" \
	'skipped: project name "x\"; run_as_user = \"root\"; } ); #" is invalid'
expect "... and a run_as_user with no passwd entry refused, naming it" has "$ERR" \
	'skipped: project "gone": run_as_user "ruas-no-such-user" has no passwd entry'
# Each public header stands alone and its _INIT macros initialize in C89
# (by position), C11 (designated), and in C++11 and C++20 where a C++
# compiler is installed.
for h in ruas.h ruas/common.h ruas/error.h ruas/config.h ruas/audit.h ruas/check.h \
	ruas/spawn.h ruas/child.h ruas/people.h ruas/provision.h; do
	expect "$h is installed" test -f "$dest$RUAS_PREFIX/include/$h"
	for std in c89 c11 c++11 c++20; do
		cc=cc lang=c
		case $std in c++*) cc=c++ lang=c++ ;; esac
		if ! command -v "$cc" >/dev/null; then
			echo "# SKIP: $h as $std: no $cc installed" >&2
			continue
		fi
		# shellcheck disable=SC2086
		ERR=$("$cc" -x "$lang" -std="$std" -Wall -Wextra -Werror -pedantic -DRUAS_HEADER="<$h>" \
			${RUAS_BUILD_CFLAGS:-} "$abs_top_srcdir/tests/consumer/headers.c" -x none $flags \
			${RUAS_BUILD_LDFLAGS:-} -o "$dest/headers" 2>&1)
		RC=$? OUT=""
		expect "$h alone builds as $std, its _INIT macros included" test "$RC" = 0
		ERR=$(LD_LIBRARY_PATH="$dest$RUAS_LIBDIR" "$dest/headers" 2>&1)
		RC=$?
		expect "... and each default is where it belongs ($h, $std)" test "$RC" = 0
	done
done
# Every struct, field, version, code and mode is where it was before the
# split: the layouts a program compiled against the old header are the
# ones the library reads today.
for h in abi new; do
	inc=$dest$RUAS_PREFIX/include
	[ "$h" = abi ] && inc=$abs_top_srcdir/tests/consumer/abi
	# shellcheck disable=SC2086
	ERR=$(cc -std=c11 -Wall -Wextra -Werror -I"$inc" ${RUAS_BUILD_CFLAGS:-} \
		"$abs_top_srcdir/tests/consumer/layout.c" -o "$dest/layout-$h" 2>&1)
	RC=$? OUT=""
	expect "layout.c builds against the $h header" test "$RC" = 0
	"$dest/layout-$h" >"$dest/layout-$h.txt"
done
OUT=$(diff "$dest/layout-abi.txt" "$dest/layout-new.txt") RC=$? ERR=""
expect "every layout, version, code and mode is as before the split" test "$RC" = 0 -a -s "$dest/layout-new.txt"
# A program built against the header as it was before the split builds
# unchanged and runs on this library: the same results as built against
# today's.
# shellcheck disable=SC2086
ERR=$(cc -std=c11 -Wall -Wextra -Werror ${RUAS_BUILD_CFLAGS:-} -I"$abs_top_srcdir/tests/consumer/abi" \
	"$abs_top_srcdir/tests/consumer/store.c" $flags ${RUAS_BUILD_LDFLAGS:-} -o "$dest/store_abi" 2>&1)
RC=$? OUT=""
expect "the example of projects in code builds against the header before the split" test "$RC" = 0
OUT=$(LD_LIBRARY_PATH="$dest$RUAS_LIBDIR" "$dest/store_abi" 2>"$dest/store_abi.err")
RC=$? ERR=$(cat "$dest/store_abi.err")
expect "... and runs on this library as the one built against today's" test "$RC" = 0 -a "$OUT" = "1 project(s)"
expect "... the same refusals" test "$ERR" = "$(cat "$dest/store.err")"
OUT=$(nm -D --defined-only "$dest$RUAS_LIBDIR/libruas.so" | awk '{print $3}' | grep -v '^ruas_')
RC=0 ERR=""
expect "the library exports only ruas_* symbols" test -z "$OUT"
OUT=$(objdump -p "$dest$RUAS_LIBDIR/libruas.so" | awk '/SONAME/ {print $2}')
expect "the SONAME is versioned (libruas.so.0)" test "$OUT" = libruas.so.0
tap_finish
