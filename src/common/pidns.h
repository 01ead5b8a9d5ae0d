/* SPDX-License-Identifier: ISC */
/*
 * pidns.h - the agent's PID namespace (lifetime = "pidns"): its init, and
 * how the helper that owns it drives that init.
 *
 * The owner (ruas-exec, in the host's PID namespace) has its children made
 * in a new PID namespace: on the sudo backend by unshare(CLONE_NEWPID |
 * CLONE_NEWNS) of its own, in a user namespace it joined first (made by a
 * throwaway process, src/helper/exec/userns.h, so that the owner is never
 * dumpable), on the pam backend by ruas-session, as root, before it drops
 * to the target (no user namespace, so set-user-ID programs keep working). The first child made there is the
 * namespace's init, pid 1 inside; the agent, forked later by the owner,
 * lands inside too, as do the orphans of its tree, which the kernel hands
 * to that init. The init:
 *
 *   - keeps SIG_DFL for every signal, so that no process inside can signal
 *     it at all (the kernel drops such signals to a namespace's init, even
 *     SIGKILL and SIGSTOP); it blocks only SIGCHLD, to wake up and reap;
 *   - sets PR_SET_PDEATHSIG(SIGKILL): when the owner dies, however, the
 *     kernel kills the init, and with it everything in the namespace;
 *   - is not dumpable, so that a process of the same uid cannot ptrace it
 *     or open its memory;
 *   - obeys only the owner, over a socketpair (commands below), and ends the
 *     namespace when the owner's end closes, or when the owner does not
 *     read an answer (it never blocks on the owner).
 *
 * When the init exits, the kernel SIGKILLs every process left in the
 * namespace (nested namespaces included) and the init is not reaped before
 * they are all gone: once the owner has reaped it, nothing of the run runs.
 *
 * The commands, owner -> init, one byte each:
 *   PIDNS_PROC        mount a fresh /proc for the namespace; the answer is
 *                     one byte, 0 or the errno of the mount (the agent then
 *                     sees the host's /proc, whose pids it cannot signal)
 *   PIDNS_TERM + 4    SIGTERM and SIGCONT to every process inside, then
 *                     exit once none is left or the grace (4 bytes, seconds,
 *                     big-endian) is over
 *   PIDNS_KILL        exit now (the kernel kills the rest)
 *   PIDNS_COUNT       how many processes are inside besides the init
 *                     (zombies not counted): 4 bytes, big-endian;
 *                     0xffffffff when the namespace's own /proc is not
 *                     mounted (the init then cannot tell). The init counts
 *                     (root on pam, or all-capable in its user namespace
 *                     on sudo), since the owner may not look at every
 *                     process: one that made itself undumpable (ssh-agent)
 *                     hides its namespace link from the target's uid
 *   PIDNS_GATE + 4    with two descriptors (SCM_RIGHTS): a listening unix
 *                     socket and a SOCK_SEQPACKET socket to the library
 *                     (the run's credentials, docs/credentials.md); the 4
 *                     bytes are the run's uid (big-endian). From then on
 *                     the init accepts each connection. The kernel gives
 *                     the peer's pid as this namespace names it, 0 for a
 *                     peer outside (SO_PEERCRED names a pid in the
 *                     reader's namespace), so only the init, inside, can
 *                     tell a process of the run from another of the same
 *                     uid. A peer of the run's uid inside goes to the
 *                     library as one message, 9 bytes: 'C', its pid here
 *                     and its uid (4 bytes each, big-endian), with the
 *                     connection attached; anyone else gets a one-line
 *                     refusal from the init itself and the library a
 *                     message without a connection, 'O' (outside the
 *                     namespace) or 'U' (another uid). Never waiting: a
 *                     message the library has no room for is that
 *                     request refused ("busy"). The listener stays bound
 *                     until the init exits, so that its name cannot be
 *                     taken while anything of the run lives; after
 *                     PIDNS_TERM, or once the library is gone, each
 *                     request is refused ("the run is ending"). No answer.
 */
#ifndef RUAS_PIDNS_H
#define RUAS_PIDNS_H

#include <stddef.h>
#include <sys/types.h>

#define PIDNS_PROC 'P'
#define PIDNS_TERM 'T'
#define PIDNS_KILL 'K'
#define PIDNS_COUNT 'C'
#define PIDNS_GATE 'G'

/*
 * The init, in the first child of the new PID namespace, right after the
 * fork: ctl is its end of the owner's socketpair. Never returns.
 */
_Noreturn void pidns_init(int ctl);

/*
 * The owner's side. Each returns 0, or -1 with errno when the init is gone
 * (which is the namespace's end too). pidns_mount_proc() waits for the
 * answer: *err gets 0 or the mount's errno.
 */
int pidns_mount_proc(int ctl, int *err);
int pidns_terminate(int ctl, unsigned int grace_seconds);
int pidns_kill(int ctl);
/* What PIDNS_COUNT answers: the count, or -1 (errno) when it cannot be had. */
long pidns_count(int ctl);
/* PIDNS_GATE with listener, gate and uid; the caller still holds both and may close them. */
int pidns_gate(int ctl, int listener, int gate, uid_t uid);

/* What pidns_start() did. */
enum pidns_start { PIDNS_OK = 0, PIDNS_UNAVAILABLE, PIDNS_BROKEN };

/*
 * How a caller without privilege gets some: it joins a fresh user
 * namespace in which its uid and gid map to themselves, and returns 0; or
 * -1 with errno and why, having changed nothing.
 */
typedef int (*pidns_userns_fn)(char *why, size_t whysz);

/*
 * Makes the namespaces (a PID and a mount namespace; with userns, for a
 * caller without privilege, in the user namespace that userns joins first)
 * and forks their init. Must be called single-threaded. PIDNS_OK with *ctl
 * the owner's end (close-on-exec); PIDNS_UNAVAILABLE when nothing changed,
 * so that the caller may go on without; PIDNS_BROKEN when the caller is
 * left half inside and must run no agent. why gets the failed step and the
 * reason.
 */
int pidns_start(pidns_userns_fn userns, int *ctl, char *why, size_t whysz);
/* What a failed pidns_start() means, for the helpers' message. */
const char *pidns_failure(int got);

/*
 * Whether pidns_start(userns) and the init's /proc work here, tried in a
 * child that ends them at once: 0, or the errno of the step that failed,
 * with why (a /proc that cannot be mounted is a note in why, not a failure).
 */
int pidns_probe(pidns_userns_fn userns, char *why, size_t whysz);

#endif
