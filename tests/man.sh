#!/bin/bash
# SPDX-License-Identifier: ISC
# The man pages render without a single groff or man warning.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
if ! command -v man >/dev/null; then
	echo "SKIP: man (man-db) is not installed" >&2
	exit 77
fi
for m in "$abs_top_srcdir"/man/*.[1358]; do
	OUT=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$m" 2>&1 >/dev/null)
	RC=$?
	expect "$(basename "$m") renders without warnings" test "$RC" = 0 -a -z "$OUT"
done
tap_finish
