/* SPDX-License-Identifier: ISC */
#ifndef RUAS_TEST_PRIVATE_STATE_H
#define RUAS_TEST_PRIVATE_STATE_H

/*
 * Call first thing in main() of a unit test that reaches the startup check:
 * the check keeps its walk of the host's trees and its verdicts where the
 * supervisor keeps state (/run/ruas for root, else $XDG_RUNTIME_DIR/ruas or
 * ~/.cache/ruas), and a test must not leave them on the host.
 *
 * As root the test moves to a mount namespace of its own (nothing it mounts
 * propagates back) with a tmpfs on /run. Otherwise XDG_RUNTIME_DIR names a
 * fresh directory under /tmp that this process removes when it exits. Either
 * way RUAS_TEST_PRIVATE_STATE=1 is set so that a re-run of the test (nss_env)
 * keeps what its parent made, once it has seen that it is there (the
 * variable alone, set by anyone, is not enough). When the namespace cannot
 * be had it says so and exits 99 (a hard error): a root test never falls
 * back to the host.
 */
void private_state(void);

#endif
