# SPDX-License-Identifier: ISC
# host_private.sh - for a suite that runs outside the sandbox
# (tests/integration/sandbox.sh) but may, as root, run a root supervisor's
# check, which keeps its walk of the host's trees in /run/ruas: as root it
# runs again in a private mount namespace with a /run of its own, so that
# nothing it does lands on the host. Source it, then: host_private "$0" "$@"
host_private() {
	[ "$(id -u)" = 0 ] || return 0
	[ "${RUAS_HOST_PRIVATE:-}" = 1 ] && return 0
	RUAS_HOST_PRIVATE=1 exec unshare --mount --propagation private \
		bash -c 'mount -t tmpfs -o mode=0755 tmpfs /run || exit 99; exec bash "$@"' _ "$@"
}
