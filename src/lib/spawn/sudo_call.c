/* sudo_call.c - see sudo_call.h. */
#include "spawn/sudo_call.h"

#include <string.h>

#include "ruas.h"

const char *const sudo_call_envp[] = {NULL};

int sudo_call_build(struct sudo_call *c, const char *sudo, const char *user, const char *helper,
		    const char *token)
{
	return sudo_call_build_via(c, sudo, NULL, user, helper, token);
}

int sudo_call_build_via(struct sudo_call *c, const char *sudo, const char *via, const char *user,
			const char *helper, const char *token)
{
	memset(c, 0, sizeof *c);
	buf_adds(&c->hex, token);
	if (c->hex.oom) {
		buf_free(&c->hex);
		return RUAS_ERR_NOMEM;
	}
	const char **a = c->argv;
	if (via) {
		*a++ = sudo;
		*a++ = "-n";
		*a++ = "-u";
		*a++ = via;
		*a++ = "--";
	}
	*a++ = sudo;
	*a++ = "-n";
	*a++ = "-iu";
	*a++ = user;
	*a++ = "--";
	*a++ = "exec";
	*a++ = helper;
	*a++ = "--channel";
	*a++ = c->hex.data;
	*a = NULL;
	return 0;
}

void sudo_call_free(struct sudo_call *c)
{
	buf_free(&c->hex);
	memset(c, 0, sizeof *c);
}
