/* SPDX-License-Identifier: ISC */
/*
 * pam.c - the pam backend's client half, for a supervisor that runs as
 * root. ruas-session opens the PAM session and execs ruas-exec as the
 * target directly (no login shell before it; the helper runs that later,
 * inside the run). A spawn hands ruas-session one end of a socketpair as
 * descriptor 3 (`--channel-fd 3`): its own SESSION message, then
 * ruas-exec's payload and the agent's stdio (channel.h), which
 * ruas-session passes down unread. The startup checks do the same with a
 * check payload (check/engine.c).
 */
#include "spawn/pam.h"

#include <errno.h>

#include "channel.h"
#include "error.h"
#include "pam_service.h"
#include "ruas.h"
#include "spawn/start.h"

int session_payload_build(struct buf *out, const struct ruas_config *cfg, const char *user,
			  const char *service, int mode, unsigned int lifetime,
			  const char *tty, unsigned int grace, const char *person,
			  unsigned int keep_cgroup)
{
	/* session_encode() only reads the fields. */
	struct session s = {(char *)user, (char *)service, cfg->supervisor_name, (char *)tty,
			    (unsigned int)mode, cfg->helper, lifetime, grace,
			    (char *)(person ? person : ""), keep_cgroup};
	return session_encode(&s, out) < 0 ? RUAS_ERR_NOMEM : 0;
}

int start_pam(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	struct buf session = BUF_INIT, inner = BUF_INIT;
	char why[512];
	/* PAM runs /etc/pam.d/other for a service it cannot find, without a word. */
	int sr = pam_service_problem(s->cfg->pam_dir, p->pam_service, why, sizeof why);
	if (sr == PAM_SERVICE_NO_FD) {
		/* This process's limit (error_set names it), not a file to put back. */
		int e = errno;
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e, "project \"%s\": %s", p->name,
				 why);
	}
	if (sr < 0)
		return error_set(err, RUAS_ERR_CONFIG, NULL, 0, 0,
				 "project \"%s\": refusing to start user \"%s\" through PAM "
				 "(service \"%s\"): %s. Fix: %s, then restart ruas",
				 p->name, p->run_as_user, p->pam_service, why,
				 pam_service_fix(p->pam_service));
	const char *argv[] = {s->cfg->session_helper, "--channel-fd", "3", NULL};
	int r = session_payload_build(&session, s->cfg, p->run_as_user, p->pam_service, SESSION_EXEC,
				      pl->lifetime, s->tty, p->terminate_grace,
				      pl->exec_flags & EXEC_PRIVATE_TMP ? pl->person : NULL,
				      s->cg != NULL);
	if (r == 0 && payload_encode(pl, &inner) < 0)
		r = RUAS_ERR_NOMEM;
	if (r == 0 && inner.len > CHANNEL_MAX_BODY)
		r = RUAS_ERR_TOOLONG;
	r = start_with_channel(s, r, argv, 3, &session, &inner, pid, err);
	buf_free(&session);
	buf_free(&inner);
	return r;
}
