#!/bin/bash
# SPDX-License-Identifier: ISC
# The Python binding's tests that need no root (bindings/python/tests/
# test_unit.py), against the build tree: the package from the source tree,
# the library from the build's .libs. Skipped only when configure found no
# python3 or was told --without-python.
: "${abs_top_srcdir:?run this through make check}" "${abs_top_builddir:?}"
. "$abs_top_srcdir/tests/host_private.sh" || exit 99
host_private "$0" "$@"
if [ -z "${PYTHON:-}" ] || [ "$PYTHON" = : ]; then
	echo "SKIP: configured without the Python binding (no python3, or --without-python)" >&2
	exit 77
fi
export RUAS_LIBRARY="$abs_top_builddir/.libs/libruas.so.0"
# A sanitizer build's library: its runtime must come first in a program not
# built with it, and Python's own allocations at exit are not ours to report.
case " ${RUAS_BUILD_CFLAGS:-} " in
*-fsanitize=*address*)
	LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so)
	export LD_PRELOAD ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	;;
esac
export PYTHONPATH="$abs_top_srcdir/bindings/python"
# Nothing written into the source tree (distcheck's is read-only).
export PYTHONDONTWRITEBYTECODE=1
exec "$PYTHON" "$abs_top_srcdir/bindings/python/tests/test_unit.py" -v
