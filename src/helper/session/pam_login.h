/* SPDX-License-Identifier: ISC */
/*
 * pam_login.h - the PAM half of a login, as runuser -l and su do it:
 *
 *   pam_start -> pam_acct_mgmt -> pam_setcred(ESTABLISH) -> pam_open_session
 *   ... the session ...
 *   pam_close_session -> pam_setcred(DELETE) -> pam_end
 *
 * No authentication: only root runs this, like runuser. Every error path
 * undoes exactly what was done, so no session is ever left open. The PAM
 * functions come through a table so that tests can fail any step.
 */
#ifndef RUAS_PAM_LOGIN_H
#define RUAS_PAM_LOGIN_H

#include <security/pam_appl.h>

struct pam_ops {
	int (*start)(const char *service, const char *user,
		     const struct pam_conv *conv, pam_handle_t **h);
	int (*set_item)(pam_handle_t *h, int type, const void *item);
	int (*acct_mgmt)(pam_handle_t *h, int flags);
	int (*setcred)(pam_handle_t *h, int flags);
	int (*open_session)(pam_handle_t *h, int flags);
	int (*close_session)(pam_handle_t *h, int flags);
	char **(*getenvlist)(pam_handle_t *h);
	const char *(*strerror)(pam_handle_t *h, int errnum);
	int (*end)(pam_handle_t *h, int status);
};

extern const struct pam_ops pam_real_ops;

enum pam_step {
	STEP_NONE = 0, STEP_START, STEP_ACCT, STEP_SETCRED, STEP_SESSION
};

struct pam_login {
	const struct pam_ops *ops;
	pam_handle_t *h;
	int last;            /* the last PAM status */
	int cred;            /* credentials established */
	int session;         /* session open */
	enum pam_step failed; /* where it failed, or STEP_NONE */
	char reason[256];    /* "account: User account has expired" */
};

/*
 * Runs the sequence up to pam_open_session (or only to pam_acct_mgmt when
 * !open_session). 0 on success; -1 with l->failed and l->reason set, and
 * everything already done undone.
 */
int pam_login_begin(struct pam_login *l, const struct pam_ops *ops,
		    const char *service, const char *user, const char *ruser,
		    const char *tty, int open_session);
/* pam_getenvlist: "NAME=value" strings to free with pam_login_free_env. */
char **pam_login_env(struct pam_login *l);
void pam_login_free_env(char **env);
/* Closes what begin opened, in reverse order, then pam_end. Idempotent. */
void pam_login_end(struct pam_login *l);

#endif
