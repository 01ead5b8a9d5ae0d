/*
 * pam.c - the pam backend's client half, for a supervisor that runs as
 * root: ruas-session HEX, a session payload that wraps ruas-exec's.
 * ruas-session opens the PAM session and runs ruas-exec as the target
 * through the login shell, as the sudo backend does.
 */
#include "spawn/pam.h"

#include <string.h>

#include "ruas.h"
#include "spawn/start.h"
#include "spawn/sudo_call.h"

int session_argv_build(struct session_call *c, const struct ruas_config *cfg, const char *user,
		       const char *service, const struct payload *inner, int mode)
{
	struct buf in = BUF_INIT;
	struct payload s;
	memset(c, 0, sizeof *c);
	if (payload_encode(inner, &in) < 0) {
		buf_free(&in);
		return RUAS_ERR_NOMEM;
	}
	/* ruas-exec's argument passes through the login shell as sudo's does. */
	if (!sudo_call_fits(in.len, cfg->helper)) {
		buf_free(&in);
		return RUAS_ERR_TOOLONG;
	}
	memset(&s, 0, sizeof s);
	s.kind = PAYLOAD_SESSION;
	/* payload_encode() only reads the fields; the decoder owns what it fills. */
	s.user = (char *)user;
	s.service = (char *)service;
	s.ruser = cfg->supervisor_name;
	s.mode = (unsigned int)mode;
	s.helper = cfg->helper;
	s.inner = in.data;
	int r = payload_encode(&s, &c->hex) < 0 ? RUAS_ERR_NOMEM : 0;
	buf_free(&in);
	if (r == 0 && c->hex.len >= PAYLOAD_ARG_MAX - 1)
		r = RUAS_ERR_TOOLONG;
	if (r < 0) {
		buf_free(&c->hex);
		return r;
	}
	c->argv[0] = cfg->session_helper;
	c->argv[1] = c->hex.data;
	c->argv[2] = NULL;
	return 0;
}

void session_argv_free(struct session_call *c)
{
	buf_free(&c->hex);
	memset(c, 0, sizeof *c);
}

int start_pam(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err)
{
	struct session_call sc;
	int r = session_argv_build(&sc, s->cfg, s->p->run_as_user, s->p->pam_service, pl,
				   SESSION_EXEC);
	r = start_target(s, r, sc.argv, pid, err);
	session_argv_free(&sc);
	return r;
}
