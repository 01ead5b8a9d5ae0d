/* SPDX-License-Identifier: ISC */
/* password.c - see password.h. */
#include "check/password.h"

#include <pwd.h>
#include <shadow.h>
#include <string.h>

/* The length of the word at s (up to a space, tab or newline). */
static size_t word(const char *s)
{
	return strcspn(s, " \t\n");
}

enum password_verdict password_verdict(const struct helper_report *hr, const char *user)
{
	if (!hr->passwd_seen)
		return PASSWORD_NOT_ASKED;
	const char *out = hr->passwd_out ? hr->passwd_out : "";
	size_t n = word(out);
	/* Its own line: the first word is the user passwd -S was run as. */
	if (hr->passwd_rc != 0 || n != strlen(user) || strncmp(out, user, n) != 0 || out[n] != ' ')
		return PASSWORD_UNJUDGED;
	const char *st = out + n + 1;
	size_t k = word(st);
	/* passwd's line goes on (the date of the last change): anything shorter is not it. */
	if (st[k] != ' ')
		return PASSWORD_UNJUDGED;
	if (k == 2 && strncmp(st, "NP", 2) == 0)
		return PASSWORD_EMPTY;
	if ((k == 1 && (*st == 'L' || *st == 'P')) ||
	    (k == 2 && (strncmp(st, "LK", 2) == 0 || strncmp(st, "PS", 2) == 0)))
		return PASSWORD_SET;
	return PASSWORD_UNJUDGED;
}

int root_password_empty(void)
{
	char mem[4096];
	struct passwd pw, *pr = NULL;
	struct spwd sp, *sr = NULL;
	if (getpwnam_r("root", &pw, mem, sizeof mem, &pr) == 0 && pr && pr->pw_passwd &&
	    pr->pw_passwd[0] == '\0')
		return 1;
	/* "x" (or anything not empty) sends pam_unix to shadow. */
	return getspnam_r("root", &sp, mem, sizeof mem, &sr) == 0 && sr && sr->sp_pwdp &&
	       sr->sp_pwdp[0] == '\0';
}
