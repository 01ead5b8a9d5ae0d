/* messages_lifetime.c - the texts about who owns the agent's tree (lifetime). */
#include "check/messages.h"

#include "buf.h"
#include "check/messages_int.h"
#include "quote.h"

/* What the subreaper leaves open, the same words wherever it is in force. */
static void residual_risk(struct buf *b, const char *user)
{
	buf_adds(b, "ruas-exec, which owns the agent's process tree, runs as user ");
	q(b, user);
	buf_adds(b, " like the agent, so the agent can kill or stop its own supervision (kill "
		    "-KILL or -STOP of its parent) and leave processes running after the run "
		    "has ended.\n");
}

char *msg_lifetime_subreaper(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"subreaper\": ");
	residual_risk(&b, user);
	buf_adds(&b, "Set lifetime = \"auto\" (the default) or \"pidns\" to run the agent in a PID "
		     "namespace of its own, which it can neither leave nor end early.\n");
	return buf_detach(&b);
}

char *msg_lifetime_sudo_allowed(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"auto\" falls back to the subreaper on the sudo backend, because "
		     "of target_sudo_allowed: sudo, a set-user-ID program, cannot work in the user "
		     "namespace that the agent's PID namespace needs there. ");
	residual_risk(&b, user);
	buf_adds(&b, "Use the pam backend (a root supervisor), whose PID namespace keeps sudo "
		     "working, or set lifetime = \"pidns\" if the agent can do without sudo.\n");
	return buf_detach(&b);
}

char *msg_lifetime_unavailable(const char *project, const char *user, int pam, int required,
			       const char *why)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, required ? "ERROR: " : "WARNING: ", project);
	buf_adds(&b, required ? "lifetime = \"pidns\", but " : "lifetime = \"auto\" falls back to "
							       "the subreaper: ");
	buf_adds(&b, pam ? "root cannot make a PID namespace for the agent here"
			 : "no PID namespace can be made for the agent here (it needs unprivileged "
			   "user namespaces)");
	if (why && *why) {
		buf_adds(&b, ": ");
		quote_display(&b, why, 0);
	}
	if (required) {
		buf_adds(&b, ".\nEvery run of the project would be refused.\n");
	} else {
		buf_adds(&b, ".\n");
		residual_risk(&b, user);
	}
	buf_adds(&b, pam ? "Allow root to create namespaces (in a container: CAP_SYS_ADMIN and a "
			   "seccomp profile that allows unshare)"
			 : "Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 "
			   "and user.max_user_namespaces > 0; in a container, a seccomp profile that "
			   "allows unshare)");
	buf_adds(&b, required ? ", or set lifetime = \"auto\" to fall back to the subreaper.\n"
			      : ". Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_lifetime_no_sudo(const char *project)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"pidns\" runs the agent in a user namespace on the sudo backend, "
		     "where sudo, a set-user-ID program, cannot work: the commands of "
		     "target_sudo_allowed will fail for the agent.\nUse the pam backend (a root "
		     "supervisor), or lifetime = \"auto\", which keeps the subreaper for this "
		     "project.\n");
	return buf_detach(&b);
}
