#!/bin/bash
# SPDX-License-Identifier: ISC
# The license (ISC) is said everywhere it must be: LICENSE at the top and
# in the Go module, the same text in debian/copyright (machine-readable),
# an SPDX-License-Identifier line near the top of every source file of the
# tree, ruas.pc's License field and the Python package's __license__.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
cd "$abs_top_srcdir" || exit 99
body() { sed -n '/^Permission to use/,$p' "$1"; }
expect "LICENSE is the ISC license" has "$(head -1 LICENSE)" "ISC License"
expect "... with its permission notice" has "$(body LICENSE)" "Permission to use, copy, modify, and distribute this software"
expect "the Go module's LICENSE is the same file" cmp -s LICENSE bindings/go/LICENSE
# The Debian packaging builds from the git tree and is not in a release tarball.
if [ -f debian/copyright ]; then
	expect "debian/copyright is machine-readable and says ISC for every file" \
		test "$(sed -n 1p debian/copyright)" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" -a \
		"$(sed -n '/^Files: \*$/,/^$/s/^License: //p' debian/copyright)" = ISC
	expect "... with LICENSE's text as its ISC license" test \
		"$(sed -n '/^License: ISC$/,$p' debian/copyright | sed -n '/^ Permission/,$p' | sed 's/^ //; s/^\.$//')" = "$(body LICENSE)"
else
	echo "# debian/ is not in this tree (a release tarball): debian/copyright is checked in the git tree"
fi
# Every source file: in these directories, by its kind.
missing=$(find src include tools tests bindings contrib bench scripts fuzz demo examples .ci \
	-path tests/consumer/abi -prune -o -path tests/golden -prune -o -path '*/testdata' -prune -o \
	-path fuzz/corpus -prune -o -type f \( -name '*.[ch]' -o -name '*.go' -o -name '*.py' -o -name '*.sh' \
	-o -name '*.pl' -o -name '*.yml' -o -name Makefile.am \) -print 2>/dev/null |
	while read -r f; do head -3 "$f" | grep -q 'SPDX-License-Identifier: ISC' || echo "$f"; done)
OUT=$missing
expect "every source file says SPDX-License-Identifier: ISC in its first lines" test -z "$missing"
expect "... and so do Makefile.am and configure.ac" \
	bash -c 'head -1 Makefile.am | grep -q "SPDX-License-Identifier: ISC" && head -1 configure.ac | grep -q "SPDX-License-Identifier: ISC"'
expect "ruas.pc says License: ISC" has "$(cat "$abs_top_builddir/ruas.pc")" "License: ISC"
expect "the Python package says __license__ = \"ISC\"" has "$(cat bindings/python/ruas/__init__.py)" '__license__ = "ISC"'
tap_finish
