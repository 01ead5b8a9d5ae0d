/* SPDX-License-Identifier: ISC */
/* pam_login.c - see pam_login.h. */
#include "pam_login.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct pam_ops pam_real_ops = {
	pam_start, pam_set_item, pam_acct_mgmt, pam_setcred, pam_open_session,
	pam_close_session, pam_getenvlist, pam_strerror, pam_end};

/*
 * Nothing here can answer a prompt: a module that asks fails the step.
 * Messages for the user go to stderr, as runuser shows them.
 */
static int no_prompts(int n, const struct pam_message **msg,
		      struct pam_response **resp, void *data)
{
	(void)data;
	*resp = NULL;
	if (n <= 0 || n > PAM_MAX_NUM_MSG)
		return PAM_CONV_ERR;
	for (int i = 0; i < n; i++)
		if (msg[i]->msg_style != PAM_ERROR_MSG && msg[i]->msg_style != PAM_TEXT_INFO)
			return PAM_CONV_ERR;
	/* Only messages: show them, answer each with an empty response. */
	struct pam_response *r = calloc((size_t)n, sizeof *r);
	if (!r)
		return PAM_BUF_ERR;
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s\n", msg[i]->msg ? msg[i]->msg : "");
	*resp = r;
	return PAM_SUCCESS;
}

static const struct pam_conv conv = {no_prompts, NULL};

static int fail(struct pam_login *l, enum pam_step step, const char *what)
{
	const char *why = l->h ? l->ops->strerror(l->h, l->last) : "pam_start failed";
	l->failed = step;
	snprintf(l->reason, sizeof l->reason, "%s: %s", what, why ? why : "?");
	pam_login_end(l);
	return -1;
}

int pam_login_begin(struct pam_login *l, const struct pam_ops *ops,
		    const char *service, const char *user, const char *ruser,
		    const char *tty, int open_session)
{
	memset(l, 0, sizeof *l);
	l->ops = ops;
	l->last = ops->start(service, user, &conv, &l->h);
	if (l->last != PAM_SUCCESS) {
		if (l->h) {
			ops->end(l->h, l->last);
			l->h = NULL;
		}
		l->failed = STEP_START;
		snprintf(l->reason, sizeof l->reason, "pam_start of service %s failed (%d)",
			 service, l->last);
		return -1;
	}
	if ((ruser && (l->last = ops->set_item(l->h, PAM_RUSER, ruser)) != PAM_SUCCESS) ||
	    (tty && (l->last = ops->set_item(l->h, PAM_TTY, tty)) != PAM_SUCCESS))
		return fail(l, STEP_START, "setting PAM items");
	if ((l->last = ops->acct_mgmt(l->h, 0)) != PAM_SUCCESS)
		return fail(l, STEP_ACCT, "account");
	if (!open_session)
		return 0;
	if ((l->last = ops->setcred(l->h, PAM_ESTABLISH_CRED)) != PAM_SUCCESS)
		return fail(l, STEP_SETCRED, "credentials");
	l->cred = 1;
	if ((l->last = ops->open_session(l->h, 0)) != PAM_SUCCESS)
		return fail(l, STEP_SESSION, "session");
	l->session = 1;
	return 0;
}

char **pam_login_env(struct pam_login *l)
{
	return l->h ? l->ops->getenvlist(l->h) : NULL;
}

void pam_login_free_env(char **env)
{
	for (char **e = env; e && *e; e++)
		free(*e);
	free(env);
}

void pam_login_end(struct pam_login *l)
{
	if (!l->h)
		return;
	if (l->session) {
		int r = l->ops->close_session(l->h, 0);
		if (r != PAM_SUCCESS)
			l->last = r;
		l->session = 0;
	}
	if (l->cred) {
		l->ops->setcred(l->h, PAM_DELETE_CRED);
		l->cred = 0;
	}
	l->ops->end(l->h, l->last);
	l->h = NULL;
}
